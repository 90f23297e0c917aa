package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/collide3d/collide/ccd"
	"github.com/collide3d/collide/geom"
)

// ccdLine is one parsed line of collide ccd.
type ccdLine struct {
	Line int       `json:"line"`
	Hit  bool      `json:"hit"`
	TOI  []float64 `json:"toi"`
	Raw  string    `json:"-"`
	Keys []string  `json:"-"`
}

// parseCCDOutput parses the output of collide ccd, checking each line's
// keys: line and hit, and toi exactly on a hit.
func parseCCDOutput(t *testing.T, out string) []ccdLine {
	t.Helper()
	var lines []ccdLine
	for i, s := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if s == "" {
			continue
		}
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(s), &raw); err != nil {
			t.Fatalf("output line %d %q: %v", i+1, s, err)
		}
		var l ccdLine
		dec := json.NewDecoder(strings.NewReader(s))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("output line %d %q: %v", i+1, s, err)
		}
		l.Raw, l.Keys = s, sortedKeys(raw)
		want := []string{"hit", "line"}
		if l.Hit {
			want = []string{"hit", "line", "toi"}
			if len(l.TOI) != 2 || !(0 <= l.TOI[0] && l.TOI[0] <= l.TOI[1] && l.TOI[1] <= 1) || l.TOI[1]-l.TOI[0] > ccd.MaxWidth {
				t.Errorf("output line %d %q: toi is not an interval in [0, 1] at most 2^-40 wide", i+1, s)
			}
		}
		if !slices.Equal(l.Keys, want) {
			t.Errorf("output line %d %q: keys %v, want %v", i+1, s, l.Keys, want)
		}
		if !strings.HasPrefix(s, `{"line":`) {
			t.Errorf("output line %d %q: does not start with the line", i+1, s)
		}
		lines = append(lines, l)
	}
	return lines
}

// Queries of the tests: each is a kind and the eight points at t = 0, then
// at t = 1.
const (
	// The vertex (0.25, 0.25, ±1) falls through the triangle z = 0 at
	// t = 0.5.
	vfThrough = "vf  0.25 0.25 1  0 0 0  1 0 0  0 1 0   0.25 0.25 -1  0 0 0  1 0 0  0 1 0"
	// The vertex passes beside the triangle.
	vfBeside = "vf  2 2 1  0 0 0  1 0 0  0 1 0   2 2 -1  0 0 0  1 0 0  0 1 0"
	// The edge along x at z = 1 falls to z = -1 across the edge along y
	// at z = 0: they cross at t = 0.5.
	eeCross = "ee  0 0 1  1 0 1  0.5 -1 0  0.5 1 0   0 0 -1  1 0 -1  0.5 -1 0  0.5 1 0"
	// The edges touch at t = 0 already.
	eeTouching = "ee  0 0 0  1 0 0  0.5 -1 0  0.5 1 0   0 0 1  1 0 1  0.5 -1 0  0.5 1 0"
	// The edges pass far apart.
	eeApart = "ee  0 0 1  1 0 1  5 -1 0  5 1 0   0 0 -1  1 0 -1  5 -1 0  5 1 0"
)

// TestCCDFormat runs a file of queries and checks the output's form: one
// line per query, in order, naming its line; blank and comment lines
// skipped. It does not need the solvers' answers.
func TestCCDFormat(t *testing.T) {
	dir := t.TempDir()
	input := "# continuous queries\n\n" + vfThrough + "\n" + vfBeside + "  # a comment after\r\n\t\n" +
		eeCross + "\n" + eeTouching + "\n" + eeApart // (no final newline)
	p := writeFile(t, dir, "q.txt", []byte(input))
	stdout, stderr, code := runCLI(t, "ccd", p)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	lines := parseCCDOutput(t, stdout)
	wantLines := []int{3, 4, 6, 7, 8}
	if len(lines) != len(wantLines) {
		t.Fatalf("%d output lines, want %d:\n%s", len(lines), len(wantLines), stdout)
	}
	for i, l := range lines {
		if l.Line != wantLines[i] {
			t.Errorf("output line %d: line %d, want %d", i+1, l.Line, wantLines[i])
		}
	}
	// The same from the standard input, with the summary.
	var out, errb bytes.Buffer
	if code := run([]string{"ccd", "--summary", "-"}, strings.NewReader(input), &out, &errb); code != exitOK {
		t.Fatalf("stdin: exit %d\n%s", code, errb.String())
	}
	got, last, _ := strings.Cut(strings.TrimSuffix(out.String(), "\n"), "\n"+`{"summary":`)
	if got+"\n" != stdout {
		t.Errorf("stdin: output differs from the file's:\n%s\nwant\n%s", got, stdout)
	}
	var sum struct {
		Queries, VF, EE, Hits int
		Seconds               float64
	}
	dec := json.NewDecoder(strings.NewReader(strings.TrimSuffix(last, "}")))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sum); err != nil {
		t.Fatalf("summary %q: %v", last, err)
	}
	hits := 0
	for _, l := range lines {
		if l.Hit {
			hits++
		}
	}
	if sum.Queries != 5 || sum.VF != 2 || sum.EE != 3 || sum.Hits != hits || sum.Seconds < 0 {
		t.Errorf("summary %+v, want 5 queries, 2 vf, 3 ee, %d hits", sum, hits)
	}
	// An empty file answers nothing.
	empty := writeFile(t, dir, "empty.txt", []byte("# nothing\n\n"))
	if stdout, stderr, code := runCLI(t, "ccd", empty); code != exitOK || stdout != "" {
		t.Errorf("empty file: exit %d, output %q\n%s", code, stdout, stderr)
	}
}

// TestCCDAnswers checks the answers of the solvers on queries whose answer
// is known. (It needs package ccd's solvers, not the stubs that answer no
// contact.)
func TestCCDAnswers(t *testing.T) {
	p := writeFile(t, t.TempDir(), "q.txt", []byte(strings.Join([]string{vfThrough, vfBeside, eeCross, eeTouching, eeApart}, "\n")))
	stdout, stderr, code := runCLI(t, "ccd", p)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	lines := parseCCDOutput(t, stdout)
	want := []struct {
		hit bool
		t   float64 // the time of contact, on a hit
	}{{true, 0.5}, {false, 0}, {true, 0.5}, {true, 0}, {false, 0}}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), stdout)
	}
	for i, l := range lines {
		w := want[i]
		if l.Hit != w.hit {
			t.Errorf("line %d: hit %v, want %v: %s", l.Line, l.Hit, w.hit, l.Raw)
			continue
		}
		if w.hit && !(l.TOI[0] <= w.t && w.t <= l.TOI[1]) {
			t.Errorf("line %d: toi %v does not hold %v", l.Line, l.TOI, w.t)
		}
	}
	if !strings.Contains(stdout, `"toi":[0,0]`) {
		t.Errorf("contact at t = 0 should print [0,0]:\n%s", stdout)
	}
}

// TestCCDRoundTrip checks that the times printed read back as the solver's
// float64s, bit for bit.
func TestCCDRoundTrip(t *testing.T) {
	for _, toi := range []ccd.Interval{{Lo: 0, Hi: 0}, {Lo: 0.4999999999997726, Hi: 0.5000000000002274},
		{Lo: 1e-300, Hi: 1e-300 + 1e-310}, {Lo: 1.0 / 3, Hi: math.Nextafter(1.0/3, 1)}, {Lo: 1, Hi: 1},
		{Lo: 3e-7, Hi: 3.0000000001e-7}} {
		b := appendCCDLine(nil, 12, toi, true)
		var l struct {
			Line int
			Hit  bool
			TOI  [2]float64
		}
		if err := json.Unmarshal(b, &l); err != nil {
			t.Fatalf("%q: %v", b, err)
		}
		if l.Line != 12 || !l.Hit || l.TOI[0] != toi.Lo || l.TOI[1] != toi.Hi {
			t.Errorf("%q reads back as %+v, want %v", b, l, toi)
		}
		if b[len(b)-1] != '\n' || bytes.Count(b, []byte("\n")) != 1 {
			t.Errorf("%q is not one line", b)
		}
	}
	if got := string(appendCCDLine(nil, 7, ccd.Interval{}, false)); got != `{"line":7,"hit":false}`+"\n" {
		t.Errorf("no hit: %q", got)
	}
}

// TestCCDErrors checks that a bad line is an error naming the file and the
// line, with exit status 1, that the lines before it are answered and none
// after it, and the usage errors.
func TestCCDErrors(t *testing.T) {
	dir := t.TempDir()
	nums := func(n int) string { // n numbers
		s := make([]string, n)
		for i := range s {
			s[i] = strconv.Itoa(i % 3)
		}
		return strings.Join(s, " ")
	}
	good := vfBeside + "\n"
	tests := []struct {
		name, data, want string
		before           int // lines answered before the bad one
	}{
		{"kind", good + "xx " + nums(24) + "\n" + good, `line 2: unknown query kind "xx"`, 1},
		{"kind-case", "VF " + nums(24) + "\n", `line 1: unknown query kind "VF"`, 0},
		{"number-first", "1 " + nums(24) + "\n", `line 1: unknown query kind "1"`, 0},
		{"short", good + good + "\n# c\nvf " + nums(23) + "\n" + good, "line 5: vf wants 24 numbers", 2},
		{"long", "ee " + nums(25) + "\n", "line 1: ee wants 24 numbers", 0},
		{"kind-only", good + "ee\n", "line 2: ee wants 24 numbers", 1},
		{"word", "vf " + nums(10) + " one " + nums(13) + "\n", `line 1: number 11: malformed number "one"`, 0},
		{"nan", good + "vf " + nums(23) + " NaN\n", `line 2: number 24: non-finite number "NaN"`, 1},
		{"inf", "ee -inf " + nums(23) + "\n", `line 1: number 1: non-finite number "-inf"`, 0},
		{"range", "ee 1e999 " + nums(23) + "\n", `line 1: number 1: number "1e999" out of float64 range`, 0},
		{"hex", "ee 0x10 " + nums(23) + "\n", `line 1: number 1: malformed number "0x10"`, 0},
		{"comma", "ee 1,2 " + nums(23) + "\n", `line 1: number 1: malformed number "1,2"`, 0},
		{"crlf", good + "\r\n" + good + "ee 1\r\n", "line 4: ee wants 24 numbers", 2},
	}
	for _, tc := range tests {
		p := writeFile(t, dir, tc.name+".txt", []byte(tc.data))
		stdout, stderr, code := runCLI(t, "ccd", p)
		if code != exitError {
			t.Errorf("%s: exit %d, want 1\n%s", tc.name, code, stderr)
		}
		if want := "collide ccd: " + p + ": " + tc.want; !strings.Contains(stderr, want) {
			t.Errorf("%s: stderr does not contain %q:\n%s", tc.name, want, stderr)
		}
		if n := strings.Count(stdout, "\n"); n != tc.before {
			t.Errorf("%s: %d lines answered, want %d (those before the bad line):\n%s", tc.name, n, tc.before, stdout)
		}
	}
	// Stdin is named.
	var out, errb bytes.Buffer
	if code := run([]string{"ccd", "-"}, strings.NewReader("vf 1\n"), &out, &errb); code != exitError || !strings.Contains(errb.String(), "stdin: line 1: vf wants 24 numbers") {
		t.Errorf("stdin: exit %d\n%s", code, errb.String())
	}
	// A line too long.
	long := writeFile(t, dir, "long-line.txt", []byte(good+"vf "+strings.Repeat("1 ", 1<<20)+"\n"))
	if _, stderr, code := runCLI(t, "ccd", long); code != exitError || !strings.Contains(stderr, long+": line 2: line longer than") {
		t.Errorf("long line: exit %d\n%s", code, stderr)
	}
	// A missing file.
	missing := dir + "/none.txt"
	if _, stderr, code := runCLI(t, "ccd", missing); code != exitError || !strings.Contains(stderr, missing) {
		t.Errorf("missing file: exit %d\n%s", code, stderr)
	}
	// Usage errors.
	for _, args := range [][]string{{"ccd"}, {"ccd", "a", "b"}, {"ccd", "--json", "-"}, {"ccd", "--summary=maybe", "-"}} {
		_, stderr, code := runCLI(t, args...)
		if code != exitUsage || !strings.Contains(stderr, "usage: collide ccd") {
			t.Errorf("%q: exit %d, want 2\n%s", args, code, stderr)
		}
	}
	// Help.
	if stdout, _, code := runCLI(t, "help", "ccd"); code != exitOK || !strings.Contains(stdout, `{"line":N,"hit":true,"toi":[LO,HI]}`) || !strings.Contains(stdout, "--summary") {
		t.Errorf("help ccd: exit %d\n%s", code, stdout)
	}
}

// errReader returns its data, then err.
type errReader struct {
	data []byte
	err  error
}

func (r *errReader) Read(b []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(b, r.data)
	r.data = r.data[n:]
	return n, nil
}

// TestCCDReadError checks that a failing read is an error naming the
// input, after the lines read before it.
func TestCCDReadError(t *testing.T) {
	var out, errb bytes.Buffer
	r := &errReader{data: []byte(vfBeside + "\n"), err: fmt.Errorf("disk on fire")}
	if code := run([]string{"ccd", "-"}, r, &out, &errb); code != exitError || !strings.Contains(errb.String(), "stdin: reading: disk on fire") {
		t.Errorf("exit %d\n%s", code, errb.String())
	}
	if strings.Count(out.String(), "\n") != 1 {
		t.Errorf("the line before the error is not answered:\n%s", out.String())
	}
}

// TestCCDStreams checks that a long input is answered a line at a time:
// reading, parsing and printing a line allocate nothing (the queries'
// own allocations, if any, aside).
func TestCCDStreams(t *testing.T) {
	const n = 20000
	// A reader of n lines that never holds them all.
	src := &repeatReader{line: []byte(vfBeside + "  # comment\n\n"), n: n}
	cr := newCCDReader(src)
	var q ccdQuery
	var b []byte
	allocs := testing.AllocsPerRun(n-100, func() {
		ok, err := cr.next(&q)
		if !ok || err != nil {
			t.Fatalf("next: %v, %v", ok, err)
		}
		b = appendCCDLine(b[:0], q.line, ccd.Interval{Lo: 0.25, Hi: 0.25 + 1e-13}, true)
		if _, err := io.Discard.Write(b); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per line, want 0", allocs)
	}
	if q.kind != vfKind || q.p[0].X != 2 || q.p[7].Y != 1 || q.line != 2*(n-100+1)-1 {
		t.Errorf("last query read: %+v", q)
	}
}

// repeatReader reads line n times.
type repeatReader struct {
	line []byte
	n    int
	off  int
}

func (r *repeatReader) Read(b []byte) (int, error) {
	k := 0
	for k < len(b) {
		if r.n == 0 {
			if k == 0 {
				return 0, io.EOF
			}
			break
		}
		c := copy(b[k:], r.line[r.off:])
		k += c
		r.off += c
		if r.off == len(r.line) {
			r.off = 0
			r.n--
		}
	}
	return k, nil
}

// TestCCDExtremes runs a file of coplanar queries whose coordinates mix
// float64 extremes (issue 28: 35-50 s a query, three such lines a denial
// of service): each answer is package ccd's (checked against its exact
// oracle there), and the exact path answers each in milliseconds now.
func TestCCDExtremes(t *testing.T) {
	lines := []string{
		"ee 0 1.79e308 0  1e-301 5e-324 0  -1.79e308 -1e-301 0  0.1 2.2e-308 0   0.1 1e-301 0  3 -1.79e308 0  -1e-301 3 0  3 3 0",
		"vf 0.1 2.2e-308 0  1e-301 5e-324 0  -3 -3 0  0.1 0 0   0.1 0 0  -5e-324 0 0  2.2e-308 -1.79e308 0  1.79e308 0 0",
		"ee -3 -1.79e308 0  0.1 -1.79e308 0  3 -5e-324 0  0 0.1 0   1.79e308 0 0  5e-324 -1e-301 0  3 -1e-301 0  1e-301 5e-324 0",
	}
	p := writeFile(t, t.TempDir(), "q.txt", []byte(strings.Join(lines, "\n")))
	stdout, stderr, code := runCLI(t, "ccd", p)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	got := parseCCDOutput(t, stdout)
	if len(got) != len(lines) {
		t.Fatalf("%d lines, want %d:\n%s", len(got), len(lines), stdout)
	}
	for i, s := range lines {
		f := strings.Fields(s)
		var x [24]float64
		for j := range x {
			x[j], _ = strconv.ParseFloat(f[j+1], 64)
		}
		var q [8]geom.Vec3
		for j := range q {
			q[j] = geom.V(x[3*j], x[3*j+1], x[3*j+2])
		}
		var toi ccd.Interval
		var hit bool
		if f[0] == "vf" {
			toi, hit = ccd.VertexFace(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7])
		} else {
			toi, hit = ccd.EdgeEdge(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7])
		}
		if got[i].Hit != hit || hit && (got[i].TOI[0] != toi.Lo || got[i].TOI[1] != toi.Hi) {
			t.Errorf("line %d: %s, ccd: %v %v", i+1, got[i].Raw, hit, toi)
		}
	}
}
