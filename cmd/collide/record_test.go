package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withHeader writes, in dir, a record whose header line (line 2) holds
// flags, followed by one pose, and returns its path.
func withHeader(t *testing.T, dir, name, flags string) string {
	t.Helper()
	return writeFile(t, dir, name, []byte("# collide flight: test, 1 steps, seed 1\n# flight: "+flags+"\n"+identityPose+"\n"))
}

// noServe returns args with, if they run view, a snapshot through a
// browser that exits at once: a view that would show the flight fails
// after flying it, rather than serving it until interrupted.
func noServe(t *testing.T, dir string, args []string) []string {
	t.Helper()
	if args[0] != "view" {
		return args
	}
	browser := filepath.Join(dir, "no-browser")
	if !fileExists(browser) {
		writeFile(t, dir, "no-browser", []byte("#!/bin/sh\nexit 3\n"))
		if err := os.Chmod(browser, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return append([]string{"view", "--snapshot", filepath.Join(dir, "never.png"), "--browser", browser}, args[1:]...)
}

// TestRecordHeaderChecks checks that a record's header is read with the
// very checks of the command line: every flag set the command line refuses
// as a usage error is refused in a header too, with the same words, as an
// error (exit 1) of the file naming its line, by view and by flight
// --poses.
func TestRecordHeaderChecks(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		flags string // refused on the command line and in a header
		want  string // in both errors
	}{
		{"--scene torus --quick --eps -1", "--eps must be a finite number >= 0"},
		{"--scene torus --quick --eps 1e308", "--eps must be a finite number >= 0 (at most 1e300), not 1e+308"},
		{"--scene torus --eps NaN", `invalid value "NaN" for flag --eps: non-finite number`},
		{"--scene torus --eps +Inf", `invalid value "+Inf" for flag --eps: non-finite number`},
		{"--scene torus --eps 0x10", `invalid value "0x10" for flag --eps`},
		{"--scene torus --seed -1", `invalid value "-1" for flag --seed`},
		{"--scene nope --seed 1", `--scene: unknown scene "nope"`},
		{"--scene torus --env gen:torus --fly gen:torus", "give --scene, or --env and --fly, not both"},
		{"--env gen:torus", "give both --env and --fly, or neither"},
		{"--env gen:torus --fly gen:torus --quick", "--quick applies to scenes only"},
		{"--scene torus --wobble 3", "flag provided but not defined: --wobble"},
	} {
		words, err := splitQuoted(tc.flags)
		if err != nil {
			t.Fatal(err)
		}
		_, stderr, code := runCLI(t, append([]string{"flight"}, words...)...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("flight %s: exit %d, %q; want a usage error with %q", tc.flags, code, stderr, tc.want)
		}
		rec := withHeader(t, dir, "f.record", tc.flags)
		// (--steps 1 --quick: if the header were ignored, a short flight.)
		for _, args := range [][]string{{"view", rec}, {"flight", "--steps", "1", "--quick", "--poses", rec}, {"view", "--steps", "1", "--quick", "--poses", rec}} {
			_, stderr, code := runCLI(t, noServe(t, dir, args)...)
			if code != exitError || !strings.Contains(stderr, rec+":2: "+tc.want) || strings.Contains(stderr, "usage:") {
				t.Errorf("collide %q with the header %q: exit %d, %q; want exit 1 with %q", args, tc.flags, code, stderr, rec+":2: "+tc.want)
			}
		}
	}
	// What the command line has no word for: headers that name no flight.
	for flags, want := range map[string]string{
		"--seed 3":                    "does not name a flight",
		"--scene torus extra":         `"extra" is not a flag`,
		`--scene "torus`:              "a quoted word that does not end",
		"--scene torus --quick=maybe": `invalid boolean value "maybe" for --quick`,
		"--scene torus --help":        "not defined: --help",
		"--env gen:torus --fly x -h":  "not defined: --help",
	} {
		rec := withHeader(t, dir, "g.record", flags)
		for _, args := range [][]string{{"view", rec}, {"flight", "--steps", "1", "--quick", "--poses", rec}} {
			_, stderr, code := runCLI(t, noServe(t, dir, args)...)
			if code != exitError || !strings.Contains(stderr, rec+":2: ") || !strings.Contains(stderr, want) {
				t.Errorf("collide %q with the header %q: exit %d, %q; want exit 1 with %q", args, flags, code, stderr, want)
			}
		}
	}
	// The command line's own --eps is checked alike.
	if _, stderr, code := runCLI(t, "view", "--eps", "1e308"); code != exitUsage || !strings.Contains(stderr, "at most 1e300") {
		t.Errorf("view --eps 1e308: exit %d, %q", code, stderr)
	}
}

// flightSummary parses the last line of flight --json.
func flightSummary(t *testing.T, out string) map[string]any {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var last struct {
		Summary map[string]any `json:"summary"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || last.Summary == nil {
		t.Fatalf("no summary line: %v\n%s", err, out)
	}
	return last.Summary
}

// TestFlightPosesRecord checks that flight --poses FILE.record flies what
// the record's header names (its scene, or its models, its seed and its
// tolerance), to the same contacts, and that a command line naming another
// flight is refused, naming both.
func TestFlightPosesRecord(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "torus.record")
	first, stderr, code := runCLI(t, "flight", "--scene", "torus", "--quick", "--steps", "40", "--all", "--json", "--front", "off", "--eps", "0.01", "--record", rec)
	if code != exitOK {
		t.Fatalf("flight --record: exit %d: %s", code, stderr)
	}
	a := jsonSteps(t, first)
	for _, args := range [][]string{
		{"--poses", rec},
		{"--poses", rec, "--scene", "torus", "--quick"},
		{"--poses", rec, "--seed", "1", "--eps", "0.01"},
	} {
		out, stderr, code := runCLI(t, append([]string{"flight", "--all", "--json", "--front", "off"}, args...)...)
		if code != exitOK {
			t.Fatalf("flight %q: exit %d: %s", args, code, stderr)
		}
		sum := flightSummary(t, out)
		if sum["scene"] != "torus" || sum["fly_tris"] != flightSummary(t, first)["fly_tris"] || sum["eps"] != 0.01 {
			t.Errorf("flight %q flew %v (%v flying triangles, eps %v); the record is of the quick torus, eps 0.01", args, sum["scene"], sum["fly_tris"], sum["eps"])
		}
		b := jsonSteps(t, out)
		if len(b) != len(a) {
			t.Fatalf("flight %q: %d steps, recorded %d", args, len(b), len(a))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("flight %q, step %d: recorded %s, replayed %s", args, i, a[i], b[i])
			}
		}
	}
	// The command line's --eps replaces the header's.
	out, stderr, code := runCLI(t, "flight", "--json", "--poses", rec, "--eps", "0")
	if code != exitOK || flightSummary(t, out)["eps"] != 0.0 || flightSummary(t, out)["scene"] != "torus" {
		t.Errorf("flight --poses --eps 0: exit %d, %s", code, stderr)
	}

	// Another flight on the command line: refused, naming both.
	for _, tc := range []struct {
		args []string
		cmd  string
	}{
		{[]string{"flight", "--scene", "swept"}, "not --scene swept"},
		{[]string{"flight", "--scene", "torus"}, "not --scene torus (the command line)"},
		{[]string{"flight", "--quick=false"}, "not --quick=false"},
		{[]string{"flight", "--seed", "2"}, "not --seed 2"},
		{[]string{"flight", "--env", "gen:torus", "--fly", "gen:icosphere"}, "not --env gen:torus --fly gen:icosphere"},
		{[]string{"view", "--seed", "2", rec}, "not --seed 2"},
		{[]string{"view", "gen:torus", "gen:icosphere", "--poses", rec}, "not --env gen:torus --fly gen:icosphere"},
		{[]string{"view", "--scene", "swept", "--poses", rec}, "not --scene swept"},
	} {
		args := tc.args
		if args[0] == "flight" {
			args = append(args, "--poses", rec)
		}
		_, stderr, code := runCLI(t, noServe(t, dir, args)...)
		want := rec + ":2: the poses were recorded flying --scene torus --quick --seed 1 --eps 0.01 (the record's header), " + tc.cmd
		if code != exitUsage || !strings.Contains(stderr, want) {
			t.Errorf("collide %q: exit %d, %q; want a usage error with %q", args, code, stderr, want)
		}
	}

	// A flight of models: the record names them, relative to where it
	// ran or beside the record; the command line may name the same files
	// otherwise.
	sub := filepath.Join(dir, "models")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, spec := range map[string][]string{"env.obj": {"gen", "icosphere", "tris=320"}, "fly.obj": {"gen", "torus", "tris=200", "major=0.3", "minor=0.1"}, "other.obj": {"gen", "icosphere", "tris=80"}} {
		if _, stderr, code := runCLI(t, append(spec, "-o", filepath.Join(sub, name))...); code != exitOK {
			t.Fatalf("%q: exit %d: %s", spec, code, stderr)
		}
	}
	env, fly := filepath.Join(sub, "env.obj"), filepath.Join(sub, "fly.obj")
	mrec := filepath.Join(sub, "models.record")
	first, stderr, code = runCLI(t, "flight", "--env", env, "--fly", fly, "--steps", "60", "--all", "--json", "--front", "off", "--seed", "5", "--record", mrec)
	if code != exitOK {
		t.Fatalf("flight --env --fly --record: exit %d: %s", code, stderr)
	}
	a = jsonSteps(t, first)
	for _, args := range [][]string{
		{"--poses", mrec},
		{"--poses", mrec, "--env", filepath.Join(sub, ".", "env.obj"), "--fly", filepath.Join(sub, "..", "models", "fly.obj")},
	} {
		out, stderr, code := runCLI(t, append([]string{"flight", "--all", "--json", "--front", "off"}, args...)...)
		if code != exitOK {
			t.Fatalf("flight %q: exit %d: %s", args, code, stderr)
		}
		if b := jsonSteps(t, out); strings.Join(a, "\n") != strings.Join(b, "\n") {
			t.Errorf("flight %q: the replay's steps differ from the recorded flight's", args)
		}
		if sum := flightSummary(t, out); sum["env_tris"] != 320.0 {
			t.Errorf("flight %q flew %v with %v triangles, want the record's env.obj", args, sum["scene"], sum["env_tris"])
		}
	}
	_, stderr, code = runCLI(t, "flight", "--env", filepath.Join(sub, "other.obj"), "--fly", fly, "--poses", mrec)
	if code != exitUsage || !strings.Contains(stderr, "(the record's header), not --env "+filepath.Join(sub, "other.obj")) || !strings.Contains(stderr, "--env "+env) {
		t.Errorf("flight --env other.obj --poses %s: exit %d, %q", mrec, code, stderr)
	}

	// check and distance read a record's poses for ENV and FLY: only if
	// it recorded those models.
	for _, cmd := range []string{"check", "distance"} {
		if _, stderr, code := runCLI(t, cmd, "--poses", mrec, env, filepath.Join(sub, "..", "models", "fly.obj")); code != exitOK {
			t.Errorf("%s --poses %s with its models: exit %d: %s", cmd, mrec, code, stderr)
		}
		other := filepath.Join(sub, "other.obj")
		_, stderr, code := runCLI(t, cmd, "--poses", mrec, other, fly)
		if code != exitUsage || !strings.Contains(stderr, mrec+":2: the poses were recorded flying --env "+env) || !strings.Contains(stderr, "not ENV "+other) {
			t.Errorf("%s --poses %s with other models: exit %d, %q", cmd, mrec, code, stderr)
		}
		_, stderr, code = runCLI(t, cmd, "--poses", rec, env, fly)
		if code != exitUsage || !strings.Contains(stderr, "--scene torus --quick") || !strings.Contains(stderr, "collide flight --poses") {
			t.Errorf("%s --poses %s (a scene's record): exit %d, %q", cmd, rec, code, stderr)
		}
		bad := withHeader(t, dir, "bad.record", "--env "+env+" --fly "+fly+" --eps -1")
		_, stderr, code = runCLI(t, cmd, "--poses", bad, env, fly)
		if code != exitError || !strings.Contains(stderr, bad+":2: --eps must be") {
			t.Errorf("%s --poses %s (a bad header): exit %d, %q", cmd, bad, code, stderr)
		}
	}

	// A plain pose file (no header) still flies what the command line
	// names.
	plain := writeFile(t, dir, "plain.txt", []byte("# my poses\n"+identityPose+"\n"))
	out, stderr, code = runCLI(t, "flight", "--scene", "torus", "--quick", "--json", "--poses", plain)
	if code != exitOK || flightSummary(t, out)["steps"] != 1.0 {
		t.Errorf("flight --poses a plain file: exit %d, %s", code, stderr)
	}
}
