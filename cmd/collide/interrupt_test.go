package main

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// runCtx is run with the command's context ctx (as an interrupt cancels
// it): what it printed and its exit status.
func runCtx(t *testing.T, ctx context.Context, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, ctx: ctx}
	c := lookupCommand(args[0])
	fs := newFlagSet(c)
	opts := c.flags(fs)
	pos, err := parseInterspersed(fs, args[1:])
	if err == nil {
		err = c.run(e, opts, pos)
	}
	code = report(e, c, err)
	return out.String(), errb.String(), code
}

// cancelled returns a context cancelled already: an interrupt before the
// work's first look at it.
func cancelled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// TestInterrupted runs world, nc and check --bv auto under a cancelled
// context, as after Ctrl-C: each stops with exit status 130 and a message
// on stderr saying it was interrupted; world prints the step it played
// and no summary, nc the summary of what it checked ("interrupted"), in
// text and JSON; with a live context they run as before (exit 0).
func TestInterrupted(t *testing.T) {
	dir := t.TempDir()
	program := writeFile(t, dir, "p.nc", []byte("G21 G90\nG0 X-20 Y0 Z10\nG1 Z0 F100\nG1 X20\nG0 Z10\nM30\n"))
	ncArgs := []string{"nc", "--tool", "ball 6 20, shank 6 30", "--stock", "-30 -30 -10 30 30 2", "gen:icosphere:radius=5", program}
	for _, tc := range []struct {
		name string
		args []string
		// out must be in stdout when interrupted, not the summary's
		// marker notOut.
		out, notOut string
	}{
		{"world", []string{"world", "--steps", "5", "builtin:brownian", "--n", "20"}, "step 1:", "world brownian"},
		{"world json", []string{"world", "--json", "--steps", "5", "builtin:brownian", "--n", "20"}, `{"step":1,`, `"summary"`},
		{"nc", ncArgs, "interrupted  an interrupt stopped the check after 0 moves", ""},
		{"nc json", append(slices.Clone(ncArgs), "--json"), `"interrupted":true`, ""},
		{"check auto", []string{"check", "--bv", "auto", "gen:icosphere", "gen:torus"}, "", "collide"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runCtx(t, cancelled(), tc.args...)
			if code != exitInterrupted {
				t.Fatalf("exit %d, want %d; stderr %s", code, exitInterrupted, stderr)
			}
			if !strings.Contains(stderr, "interrupted: ") || !strings.Contains(stderr, "context canceled") || strings.Contains(stderr, "usage") {
				t.Errorf("stderr %q does not say it was interrupted", stderr)
			}
			if !strings.Contains(stdout, tc.out) || tc.notOut != "" && strings.Contains(stdout, tc.notOut) {
				t.Errorf("stdout %q: want %q in it, not %q", stdout, tc.out, tc.notOut)
			}
			if strings.Contains(tc.name, "json") {
				for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
					if !json.Valid([]byte(line)) {
						t.Errorf("not a JSON line: %q", line)
					}
				}
			}
			if _, stderr, code := runCtx(t, context.Background(), tc.args...); code != exitOK {
				t.Errorf("with a live context: exit %d: %s", code, stderr)
			}
		})
	}
}
