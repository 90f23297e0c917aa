package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// copies returns n copies of the unit triangle, each with its own vertices.
func copies(n int) *mesh.TriMesh {
	m := &mesh.TriMesh{}
	for i := range n {
		m.Verts = append(m.Verts, geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0))
		m.Tris = append(m.Tris, [3]int32{int32(3 * i), int32(3*i + 1), int32(3*i + 2)})
	}
	return m
}

// streamLine is a line of check --json that may be truncated.
type streamLine struct {
	Pose      int        `json:"pose"`
	Collide   bool       `json:"collide"`
	Pairs     [][2]int32 `json:"pairs"`
	Truncated bool       `json:"truncated"`
	Stats     jsonStats  `json:"stats"`
	Seconds   float64    `json:"seconds"`
}

func decodeStream(t *testing.T, out string) []streamLine {
	t.Helper()
	var lines []streamLine
	for i, s := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var l streamLine
		dec := json.NewDecoder(strings.NewReader(s))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("line %d %.200q: %v", i+1, s, err)
		}
		lines = append(lines, l)
	}
	return lines
}

// TestCheckStreams checks that check prints every pair of a pose with more
// pairs than it holds (sortLimit, lowered here), the held ones sorted and
// the others as found, in JSON and in text, and that --max-pairs stops a
// query past N pairs and says so.
func TestCheckStreams(t *testing.T) {
	defer func(n int) { sortLimit = n }(sortLimit)
	sortLimit = 7
	const n = 20
	f := writeOBJ(t, t.TempDir(), "copies.obj", copies(n))
	var all [][2]int32
	for e := range n {
		for f := range n {
			all = append(all, [2]int32{int32(e), int32(f)})
		}
	}
	for _, c := range []struct {
		max       int
		pairs     int
		truncated bool
	}{
		{0, n * n, false},
		{n * n, n * n, false}, // exactly N pairs: not truncated
		{n*n - 1, n*n - 1, true},
		{50, 50, true},
		{5, 5, true}, // fewer than sortLimit: all sorted
		{1, 1, true},
	} {
		args := []string{"check", "--all", "--json", "--max-pairs", fmt.Sprint(c.max), "--poses", "-", f, f}
		args = slices.Delete(args, 5, 7) // no --poses: the identity
		stdout, stderr, code := runCLI(t, args...)
		if code != exitOK {
			t.Fatalf("--max-pairs %d: exit %d\n%s", c.max, code, stderr)
		}
		lines := decodeStream(t, stdout)
		if len(lines) != 1 {
			t.Fatalf("--max-pairs %d: %d lines", c.max, len(lines))
		}
		l := lines[0]
		if len(l.Pairs) != c.pairs || l.Truncated != c.truncated || !l.Collide {
			t.Errorf("--max-pairs %d: %d pairs, truncated %v, collide %v; want %d, %v, true", c.max, len(l.Pairs), l.Truncated, l.Collide, c.pairs, c.truncated)
		}
		head := l.Pairs[:min(len(l.Pairs), sortLimit)]
		if !slices.IsSortedFunc(head, comparePairs) {
			t.Errorf("--max-pairs %d: the first %d pairs are not sorted: %v", c.max, len(head), head)
		}
		if len(l.Pairs) <= sortLimit && !slices.IsSortedFunc(l.Pairs, comparePairs) {
			t.Errorf("--max-pairs %d: pairs not sorted", c.max)
		}
		got := slices.Clone(l.Pairs)
		slices.SortFunc(got, comparePairs)
		if len(slices.Compact(slices.Clone(got))) != len(got) {
			t.Errorf("--max-pairs %d: a pair printed twice", c.max)
		}
		if c.max == 0 && !slices.Equal(got, all) {
			t.Errorf("all pairs: got %d distinct pairs, want %d", len(got), len(all))
		}
		if strings.Contains(stdout, `"truncated"`) != c.truncated {
			t.Errorf("--max-pairs %d: %s", c.max, stdout)
		}
	}

	// Text: the held pairs with a head line, the others as found, then the
	// count.
	stdout, stderr, code := runCLI(t, "check", "--all", f, f)
	if code != exitOK {
		t.Fatalf("text: exit %d\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != n*n+2 || lines[0] != "pose 0: collide, over 7 pairs, listed as found:" ||
		!strings.HasPrefix(lines[len(lines)-1], fmt.Sprintf("pose 0: %d pairs (", n*n)) {
		t.Errorf("text: %d lines, first %q, last %q", len(lines), lines[0], lines[len(lines)-1])
	}
	stdout, _, _ = runCLI(t, "check", "--all", "--max-pairs", "3", f, f)
	if !strings.HasPrefix(stdout, "pose 0: collide, 3 pairs, stopped at --max-pairs 3 (") || strings.Count(stdout, "\n") != 4 {
		t.Errorf("text, --max-pairs 3:\n%s", stdout)
	}
	if _, stderr, code := runCLI(t, "check", "--max-pairs", "-1", f, f); code != exitUsage {
		t.Errorf("--max-pairs -1: exit %d\n%s", code, stderr)
	}
}

// failWriter fails every write after the first n bytes.
type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errors.New("no space left on device")
	}
	w.n -= len(p)
	return len(p), nil
}

// TestCheckWriteError checks that a failing output stops check with status
// 1 and a message, whether it fails while pairs stream or at the end.
func TestCheckWriteError(t *testing.T) {
	defer func(n int) { sortLimit = n }(sortLimit)
	sortLimit = 100
	f := writeOBJ(t, t.TempDir(), "copies.obj", copies(300))
	for _, room := range []int{0, 10, 5000, 100000} {
		var errb strings.Builder
		code := run([]string{"check", "--all", "--json", f, f}, strings.NewReader(""), &failWriter{room}, &errb)
		if code != exitError || !strings.Contains(errb.String(), "writing output: no space left on device") {
			t.Errorf("room %d: exit %d, stderr %q", room, code, errb.String())
		}
	}
}

// TestCheckPoseErrors checks that a pose that cannot place FLY is an error
// naming the pose, never an answer.
func TestCheckPoseErrors(t *testing.T) {
	dir := t.TempDir()
	far := writeOBJ(t, dir, "far.obj", &mesh.TriMesh{
		Verts: []geom.Vec3{{X: 0}, {X: 1e308}, {Y: 1}},
		Tris:  [][3]int32{{0, 1, 2}},
	})
	poses := writeFile(t, dir, "poses.txt", []byte(identityPose+"\n1 0 0 0 1 0 0 0 1 1e308 0 0\n"))
	for _, bv := range []string{"kdop18", "obb", "sphere", "aabb", "boxtree", "brute"} {
		stdout, stderr, code := runCLI(t, "check", "--bv", bv, "--pose", "1 0 0 0 1 0 0 0 1 1e308 0 0", far, far)
		if code != exitError || stdout != "" || !strings.Contains(stderr, "pose 0 (--pose): invalid pose: it moves vertex 1") {
			t.Errorf("%s --pose: exit %d, stdout %q, stderr %q", bv, code, stdout, stderr)
		}
		stdout, stderr, code = runCLI(t, "check", "--bv", bv, "--poses", poses, far, far)
		if code != exitError || stdout != "" || !strings.Contains(stderr, "pose 1 of "+poses+": invalid pose: it moves vertex 1") {
			t.Errorf("%s --poses: exit %d, stdout %q, stderr %q", bv, code, stdout, stderr)
		}
	}
}

// TestClearMessages checks the messages of models with no triangles,
// empty pose flags and out-of-range generator sizes.
func TestClearMessages(t *testing.T) {
	dir := t.TempDir()
	empty := writeFile(t, dir, "empty.obj", nil)
	good := writeOBJ(t, dir, "tri.obj", unitTri())
	for _, args := range [][]string{
		{"check", empty, good},
		{"check", good, empty},
		{"check", "--bv", "brute", empty, empty},
		{"flight", "--env", empty, "--fly", good},
		{"flight", "--env", good, "--fly", empty},
		{"build", empty, "-o", filepath.Join(dir, "empty.collide")},
	} {
		_, stderr, code := runCLI(t, args...)
		if code != exitError || !strings.Contains(stderr, empty+": the model has no triangles") {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "empty.collide")); err == nil {
		t.Errorf("build of an empty model wrote a file")
	}
	for _, args := range [][]string{
		{"check", "--pose", "", good, good},
		{"check", "--pose", "  ", good, good},
		{"check", "--poses", "", good, good},
	} {
		_, stderr, code := runCLI(t, args...)
		if code != exitUsage || !strings.Contains(stderr, "is empty") {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
	_, stderr, code := runCLI(t, "gen", "torus", "tris=1e12", "-o", filepath.Join(dir, "t.obj"))
	if code != exitUsage || !strings.Contains(stderr, "1000000000000") {
		t.Errorf("gen torus tris=1e12: exit %d, stderr %q", code, stderr)
	}
}

// TestOutputTargets checks that build and gen --force replace regular
// files only, write through symbolic links, and name the output (not a
// temporary file) in their errors.
func TestOutputTargets(t *testing.T) {
	for _, cmd := range [][]string{{"build", "gen:icosphere:tris=80"}, {"gen", "icosphere", "tris=80"}} {
		dir := t.TempDir()
		// A symbolic link: the file it points to is replaced, the link
		// stays.
		real := writeFile(t, dir, "real.obj", []byte("old"))
		if err := os.Chmod(real, 0o600); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(dir, "link.obj")
		if err := os.Symlink("real.obj", link); err != nil {
			t.Fatal(err)
		}
		if _, stderr, code := runCLI(t, append(cmd, "-o", link, "--force")...); code != exitOK {
			t.Fatalf("%s through a link: exit %d\n%s", cmd[0], code, stderr)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: the link was replaced", cmd[0])
		}
		if b, _ := os.ReadFile(real); string(b) == "old" {
			t.Errorf("%s: the link's target was not written", cmd[0])
		}
		if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: the replaced file's permissions are %v, want 0600", cmd[0], fi.Mode().Perm())
		}
		// A dangling link, a named pipe and a directory are refused, even
		// with --force, and stay what they were.
		dangling := filepath.Join(dir, "dangling.obj")
		if err := os.Symlink("nothing.obj", dangling); err != nil {
			t.Fatal(err)
		}
		fifo := filepath.Join(dir, "fifo.obj")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
		sub := filepath.Join(dir, "sub.obj")
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ path, msg string }{
			{dangling, "symbolic link to nothing"},
			{fifo, "is a named pipe, not a regular file"},
			{sub, "is a directory, not a regular file"},
		} {
			_, stderr, code := runCLI(t, append(cmd, "-o", c.path, "--force")...)
			if code != exitError || !strings.Contains(stderr, c.path+" is ") || !strings.Contains(stderr, c.msg) {
				t.Errorf("%s -o %s: exit %d, stderr %q", cmd[0], c.path, code, stderr)
			}
		}
		if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
			t.Errorf("%s: the named pipe was replaced", cmd[0])
		}
		if fi, err := os.Lstat(dangling); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: the dangling link was replaced", cmd[0])
		}
		// A missing directory: the error names the output.
		missing := filepath.Join(dir, "no", "such", "out.obj")
		_, stderr, code := runCLI(t, append(cmd, "-o", missing, "--force")...)
		if code != exitError || !strings.HasPrefix(stderr, "collide "+cmd[0]+": "+missing+": ") || strings.Contains(stderr, ".tmp") {
			t.Errorf("%s into a missing directory: exit %d, stderr %q", cmd[0], code, stderr)
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".tmp") {
				t.Errorf("%s left %s behind", cmd[0], e.Name())
			}
		}
	}
}

// TestWriteFileAtomicErrorsNameOutput checks that a failing write names
// the output, not the temporary file.
func TestWriteFileAtomicErrorsNameOutput(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.obj")
	err := writeFileAtomic(p, true, func(w io.Writer) error {
		return &os.PathError{Op: "write", Path: filepath.Join(dir, ".out.obj.123.tmp"), Err: syscall.ENOSPC}
	})
	if err == nil || !strings.HasPrefix(err.Error(), p+": ") || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("error %v", err)
	}
}

// TestFlightPoseErrors checks that flight --poses names a pose that cannot
// place FLY.
func TestFlightPoseErrors(t *testing.T) {
	dir := t.TempDir()
	far := writeOBJ(t, dir, "far.obj", &mesh.TriMesh{
		Verts: []geom.Vec3{{X: 0}, {X: 1e308}, {Y: 1}},
		Tris:  [][3]int32{{0, 1, 2}},
	})
	poses := writeFile(t, dir, "poses.txt", []byte(identityPose+"\n1 0 0 0 1 0 0 0 1 1e308 0 0\n"))
	_, stderr, code := runCLI(t, "flight", "--env", far, "--fly", far, "--poses", poses)
	if code != exitError || !strings.Contains(stderr, "collide flight: pose 1 of "+poses+": invalid pose: it moves vertex 1") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestDecimalFlags checks that numeric flags read decimal numbers only, as
// the files do.
func TestDecimalFlags(t *testing.T) {
	f := writeOBJ(t, t.TempDir(), "tri.obj", unitTri())
	for _, args := range [][]string{
		{"check", "--eps", "0x1p-3", f, f},
		{"check", "--eps", "1_0", f, f},
		{"check", "--max-pairs", "0x10", f, f},
		{"check", "--env-leaf", "0b1", f, f},
		{"check", "--leaf", "1_0", f, f},
		{"flight", "--steps", "0o7"},
		{"flight", "--seed", "0x2"},
		{"bench", "--steps", "1e3"},
	} {
		_, stderr, code := runCLI(t, args...)
		if code != exitUsage || !strings.Contains(stderr, "invalid value") {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
	for _, args := range [][]string{
		{"check", "--eps", "1e-3", "--max-pairs", "+5", f, f},
		{"check", "--eps", ".5", "--env-leaf", "007", f, f},
	} {
		if _, stderr, code := runCLI(t, args...); code != exitOK {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
}

// TestFlightMaxPairs checks that flight --max-pairs stops each step after
// N pairs and says so, in JSON and in the text summary.
func TestFlightMaxPairs(t *testing.T) {
	dir := t.TempDir()
	f := writeOBJ(t, dir, "copies.obj", copies(30))
	poses := writeFile(t, dir, "poses.txt", []byte(identityPose+"\n"+identityPose+"\n"))
	stdout, stderr, code := runCLI(t, "flight", "--env", f, "--fly", f, "--poses", poses, "--all", "--max-pairs", "10", "--json")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines:\n%s", len(lines), stdout)
	}
	for _, l := range lines[:2] {
		var st struct {
			Pairs     [][2]int32 `json:"pairs"`
			Truncated bool       `json:"truncated"`
		}
		if err := json.Unmarshal([]byte(l), &st); err != nil {
			t.Fatal(err)
		}
		if len(st.Pairs) != 10 || !st.Truncated || !slices.IsSortedFunc(st.Pairs, comparePairs) {
			t.Errorf("step: %d pairs, truncated %v: %s", len(st.Pairs), st.Truncated, l)
		}
	}
	if !strings.Contains(lines[2], `"truncated_steps":2`) {
		t.Errorf("summary: %s", lines[2])
	}
	stdout, _, _ = runCLI(t, "flight", "--env", f, "--fly", f, "--poses", poses, "--all", "--max-pairs", "900")
	if strings.Contains(stdout, "max-pairs") || !strings.Contains(stdout, "1800 contact pairs") {
		t.Errorf("900 pairs a step, --max-pairs 900:\n%s", stdout)
	}
	stdout, _, _ = runCLI(t, "flight", "--env", f, "--fly", f, "--poses", poses, "--all", "--max-pairs", "899")
	if !strings.Contains(stdout, "2 steps stopped at --max-pairs") {
		t.Errorf("--max-pairs 899:\n%s", stdout)
	}
}
