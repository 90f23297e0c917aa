package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// fakeClock is a clock the test moves.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

// TestStatusLine checks the status line with a fake terminal and a fake
// clock: nothing before a second, the line drawn and redrawn over itself
// (padded over a longer one), erased once, nothing on a pipe.
func TestStatusLine(t *testing.T) {
	var errb, out bytes.Buffer
	clock := &fakeClock{t: time.Unix(100, 0)}
	notTerm := func(io.Writer) bool { return false }
	if s := newStatusLine(&errb, notTerm, clock.now, time.Second, func(time.Duration) string { return "x" }); s != nil {
		t.Fatal("a status line on a pipe")
	}
	var nilStatus *statusLine
	nilStatus.tick()
	nilStatus.clear()
	nilStatus.end()
	if w := nilStatus.output(&out); w != io.Writer(&out) {
		t.Error("no status line: stdout wrapped")
	}

	term := func(w io.Writer) bool { return w == &errb }
	n := 0
	s := newStatusLine(&errb, term, clock.now, time.Second, func(el time.Duration) string {
		n++
		return strings.Repeat("#", 5-n) + " " + el.String()
	})
	clock.t = clock.t.Add(999 * time.Millisecond)
	s.tick()
	if errb.Len() != 0 || n != 0 {
		t.Fatalf("before a second: %q", errb.String())
	}
	clock.t = clock.t.Add(time.Millisecond)
	s.tick()
	clock.t = clock.t.Add(500 * time.Millisecond)
	s.tick()
	want := "\r#### 1s" + "\r### 1.5s"
	if errb.String() != want {
		t.Fatalf("drawn %q, want %q", errb.String(), want)
	}
	errb.Reset()
	clock.t = clock.t.Add(500 * time.Millisecond)
	s.tick() // shorter: padded over the longer one
	if want := "\r## 2s   "; errb.String() != want {
		t.Fatalf("redrawn %q, want %q", errb.String(), want)
	}
	errb.Reset()
	s.clear()
	s.clear()
	if want := "\r" + strings.Repeat(" ", 5) + "\r"; errb.String() != want { // the padding is blank already
		t.Fatalf("erased %q, want %q", errb.String(), want)
	}
}

// TestStatusOutput checks that a write to stdout, a terminal too, erases
// the line first, and that one to a pipe does not touch it.
func TestStatusOutput(t *testing.T) {
	defer func(term func(io.Writer) bool) { isTerminal = term }(isTerminal)
	var errb, out, pipe bytes.Buffer
	isTerminal = func(w io.Writer) bool { return w == &errb || w == &out }
	clock := &fakeClock{t: time.Unix(100, 0)}
	s := newStatusLine(&errb, isTerminal, clock.now, 0, func(time.Duration) string { return "status" })
	s.tick()
	w := s.output(&out)
	if _, err := io.WriteString(w, "result\n"); err != nil {
		t.Fatal(err)
	}
	if errb.String() != "\rstatus\r      \r" || out.String() != "result\n" {
		t.Errorf("stderr %q, stdout %q", errb.String(), out.String())
	}
	s.tick()
	errb.Reset()
	if w := s.output(&pipe); w != io.Writer(&pipe) {
		t.Error("a pipe wrapped")
	}
}

// TestCommandsStatus runs the commands that query in a loop with stderr a
// terminal and the line at once: each keeps its status line on stderr,
// erased at the end, and prints nothing else there; stdout is the same as
// on a pipe.
func TestCommandsStatus(t *testing.T) {
	dir := t.TempDir()
	poses := writeFile(t, dir, "poses.txt", []byte(identityPose+"\n1 0 0 0 1 0 0 0 1 0.1 0 0\n1 0 0 0 1 0 0 0 1 3 0 0\n"))
	program := writeFile(t, dir, "p.nc", []byte("G21 G90\nG0 X-20 Y0 Z10\nG1 Z0 F100\nG1 X20\nG0 Z10\nM30\n"))
	for _, tc := range []struct {
		args   []string
		prefix string
	}{
		{[]string{"check", "--poses", poses, "gen:icosphere:tris=80", "gen:torus:tris=100"}, "\rcheck: pose 0 of 3, 0 done, "},
		{[]string{"check", "--ccd", "--poses", poses, "gen:icosphere:tris=80", "gen:torus:tris=100"}, "\rcheck --ccd: motion 0 of 2, 0 done, "},
		{[]string{"distance", "--poses", poses, "gen:icosphere:tris=80", "gen:torus:tris=100"}, "\rdistance: pose 0 of 3, "},
		{[]string{"nc", "--quiet", "--tool", "ball 6 20, shank 6 30", "gen:icosphere:radius=5", program}, "\rchecking " + program + ": move 0 (line 0), 0 violations, "},
	} {
		want, stderr, code := runCLI(t, tc.args...)
		if code != exitOK || stderr != "" {
			t.Fatalf("%q on a pipe: exit %d, stderr %q", tc.args, code, stderr)
		}
		func() {
			defer func(term func(io.Writer) bool, after time.Duration) { isTerminal, statusAfter = term, after }(isTerminal, statusAfter)
			var out, errb bytes.Buffer
			isTerminal = func(w io.Writer) bool { return w == &errb }
			statusAfter = 0
			if code := run(tc.args, strings.NewReader(""), &out, &errb); code != exitOK {
				t.Fatalf("%q: exit %d: %s", tc.args, code, errb.String())
			}
			got := errb.String()
			if !strings.HasPrefix(got, tc.prefix) || !strings.HasSuffix(got, "\r") || strings.Contains(got, "\n") {
				t.Errorf("%q: status %q, want it to begin %q", tc.args, got, tc.prefix)
			}
			if !sameButTimes(out.String(), want) {
				t.Errorf("%q: stdout\n%s\non a pipe\n%s", tc.args, out.String(), want)
			}
		}()
	}
}

// sameButTimes reports whether two outputs are the same but for the
// times they print (numbers before "ms", "s", "moves/s").
func sameButTimes(a, b string) bool {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	if len(la) != len(lb) {
		return false
	}
	for i := range la {
		if strings.Contains(la[i], " ms") || strings.Contains(la[i], "time ") || strings.Contains(la[i], "querying") {
			continue
		}
		if la[i] != lb[i] {
			return false
		}
	}
	return true
}

// TestNCDeadline checks --deadline: a deadline that has passed when the
// check starts stops it before the first move, exit 0, the summary saying
// so; and bad values are usage errors.
func TestNCDeadline(t *testing.T) {
	dir := t.TempDir()
	program := writeFile(t, dir, "p.nc", []byte("G21 G90\nG0 X-20 Y0 Z10\nG1 Z0 F100\nG1 X20\nG0 Z10\nM30\n"))
	args := []string{"nc", "--tool", "ball 6 20, shank 6 30", "--deadline", "1ns", "gen:icosphere:radius=5", program}
	stdout, stderr, code := runCLI(t, args...)
	if code != exitOK || !strings.Contains(stdout, "deadline     --deadline stopped the check after 0 moves: the rest of the program not checked\n") ||
		!strings.Contains(stdout, "violations   0 on 0 moves") {
		t.Errorf("%q: exit %d, stdout\n%s\nstderr %s", args, code, stdout, stderr)
	}
	stdout, _, code = runCLI(t, append([]string{"nc", "--json"}, args[1:]...)...)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var sum struct {
		Summary map[string]any `json:"summary"`
	}
	if code != exitOK || json.Unmarshal([]byte(lines[len(lines)-1]), &sum) != nil || sum.Summary["stopped"] != true || sum.Summary["reached"] != 0.0 {
		t.Errorf("--json: exit %d, stdout\n%s", code, stdout)
	}
	// Without a deadline: no such line, no such keys.
	stdout, _, _ = runCLI(t, "nc", "--json", "--tool", "ball 6 20, shank 6 30", "gen:icosphere:radius=5", program)
	if strings.Contains(stdout, "stopped") || strings.Contains(stdout, "reached") || strings.Contains(stdout, "unfinished") {
		t.Errorf("without a deadline:\n%s", stdout)
	}
	for _, bad := range [][]string{{"--deadline", "-1s"}, {"--move-deadline", "-5ms"}, {"--deadline", "soon"}} {
		a := append([]string{"nc", "--tool", "ball 6 20"}, bad...)
		a = append(a, "gen:icosphere:radius=5", program)
		if _, stderr, code := runCLI(t, a...); code != exitUsage || !strings.Contains(stderr, bad[0]) {
			t.Errorf("%q: exit %d, stderr %q", a, code, stderr)
		}
	}
}

// TestNCMoveDeadline checks --move-deadline on a program whose moves all
// take longer than a nanosecond: exit 0, and the summary names the moves
// cut short (or says nothing if the clock did not move: no timing is
// asserted).
func TestNCMoveDeadline(t *testing.T) {
	dir := t.TempDir()
	program := writeFile(t, dir, "p.nc", []byte("G21 G90\nG0 X-20 Y0 Z10\nG1 Z0 F100\nG1 X20\nG0 Z10\nM30\n"))
	stdout, stderr, code := runCLI(t, "nc", "--tool", "ball 6 20, shank 6 30", "--move-deadline", "1ns", "gen:icosphere:radius=5", program)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(stdout, "deadline ") && !strings.Contains(stdout, "cut short (line") {
		t.Errorf("stdout:\n%s", stdout)
	}
}
