package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/ccd"
	"github.com/collide3d/collide/flight"
)

// jsonStepCCDRef is the "ccd" object of a line of flight --ccd --json as
// encoding/json writes it, the reference appendStepCCD must match.
type jsonStepCCDRef struct {
	Hit     bool        `json:"hit"`
	TOI     *[2]float64 `json:"toi,omitempty"`
	Pair    *[2]int32   `json:"pair,omitempty"`
	Maybe   bool        `json:"maybe,omitempty"`
	Missed  bool        `json:"missed,omitempty"`
	Seconds float64     `json:"seconds"`
}

// jsonStepWithCCD is a line of flight --ccd --json.
type jsonStepWithCCD struct {
	jsonStepRef
	CCD *jsonStepCCDRef `json:"ccd,omitempty"`
}

func refStepCCD(st *flight.Step) *jsonStepCCDRef {
	if !st.HasCCD {
		return nil
	}
	r := &jsonStepCCDRef{Hit: st.CCD.Hit, Maybe: st.CCD.Maybe, Missed: st.Missed, Seconds: st.CCDTime.Seconds()}
	if st.CCD.Hit || st.CCD.Maybe {
		r.TOI = &[2]float64{st.CCD.TOI.Lo, st.CCD.TOI.Hi}
	}
	if st.CCD.Hit {
		r.Pair = &[2]int32{st.CCD.Pair.Env, st.CCD.Pair.Fly}
	}
	return r
}

// TestWriteJSONStepCCD checks the "ccd" object of step lines byte for byte
// against encoding/json, and that a step without a continuous query (the
// first) has none.
func TestWriteJSONStepCCD(t *testing.T) {
	nan := math.NaN()
	tests := []flight.Step{
		{Index: 0}, // the first step: no continuous query
		{Index: 1, HasCCD: true, CCD: collide.TOIResult{TOI: ccdInterval(nan, nan)}, CCDTime: 1234},
		{Index: 2, HasCCD: true, CCD: collide.TOIResult{Hit: true, TOI: ccdInterval(0.4211292871251796, 0.42112928712563436), Pair: collide.Pair{Env: 10, Fly: 2}}, Missed: true, CCDTime: 999},
		{Index: 3, HasCCD: true, CCD: collide.TOIResult{Hit: true, TOI: ccdInterval(0, 0), Pair: collide.Pair{Env: math.MaxInt32, Fly: 0}}, CCDTime: 1},
		{Index: 4, HasCCD: true, CCD: collide.TOIResult{Maybe: true, TOI: ccdInterval(1e-7, 1.0000000001e-7)}, CCDTime: 123456789},
		{Index: 5, HasCCD: true, CCD: collide.TOIResult{Hit: true, TOI: ccdInterval(1, 1)}, Result: collide.Result{Collide: true, Pairs: []collide.Pair{{Env: 1, Fly: 2}}}},
	}
	for i := range tests {
		st := &tests[i]
		ref := jsonStepWithCCD{jsonStepRef{Step: st.Index, Collide: st.Result.Collide, Pairs: [][2]int32{}, Seconds: st.Time.Seconds()}, refStepCCD(st)}
		for _, p := range st.Result.Pairs {
			ref.Pairs = append(ref.Pairs, [2]int32{p.Env, p.Fly})
		}
		want, err := json.Marshal(ref)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		k := newStepSink(true, false, &out, 1)
		k.setCCD(true)
		if err := k.step(st); err != nil {
			t.Fatal(err)
		}
		if got := out.String(); got != string(want)+"\n" {
			t.Errorf("step %d:\n got %s\nwant %s", i, got, want)
		}
		// Without --ccd the line has no ccd object.
		out.Reset()
		k = newStepSink(true, false, &out, 1)
		if err := k.step(st); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out.String(), `"ccd"`) {
			t.Errorf("step %d without --ccd: %s", i, out.String())
		}
	}
}

func ccdInterval(lo, hi float64) ccd.Interval { return ccd.Interval{Lo: lo, Hi: hi} }

// TestStepSinkCCD checks the text line of a step that missed a contact,
// that other steps print nothing in text, and that neither allocates.
func TestStepSinkCCD(t *testing.T) {
	var out bytes.Buffer
	k := newStepSink(false, false, &out, 10)
	k.setCCD(true)
	missed := &flight.Step{Index: 7, HasCCD: true, Missed: true,
		CCD: collide.TOIResult{Hit: true, TOI: ccdInterval(0.25, 0.25000000000005), Pair: collide.Pair{Env: 12, Fly: 3}}}
	quiet := &flight.Step{Index: 8, HasCCD: true, CCD: collide.TOIResult{Hit: true, TOI: ccdInterval(0, 0)}, Result: collide.Result{Collide: true}}
	for _, st := range []*flight.Step{missed, quiet} {
		if err := k.step(st); err != nil {
			t.Fatal(err)
		}
	}
	if want := "step 7: missed a contact between steps 6 and 7: at t in [0.25, 0.25000000000005], pair 12 3\n"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
	if k.missed.Load() != 1 {
		t.Errorf("missed %d, want 1", k.missed.Load())
	}
	for _, json := range []bool{false, true} {
		k := newStepSink(json, true, bufio.NewWriter(io.Discard), 1000)
		k.setCCD(true)
		if n := testing.AllocsPerRun(300, func() {
			missed.Index++
			if err := k.step(missed); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("json %v: %v allocations per step, want 0", json, n)
		}
	}
}

// TestFlightCCDTunnel flies the tunnelling scene of check --ccd, replayed
// from a pose file: the box passes through the plate between steps 0 and
// 1, and flight --ccd reports step 1, in text and JSON; without --ccd the
// flight prints what it did. (The contact needs the continuous solvers.)
func TestFlightCCDTunnel(t *testing.T) {
	file, toi := tunnelPoses(tunnelTilt)
	poses := writeFile(t, t.TempDir(), "poses.txt", []byte(file))
	args := []string{"flight", "--env", plateModel, "--fly", smallBox, "--poses", poses}
	plain, stderr, code := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if strings.Contains(plain, "ccd") || strings.Contains(plain, "missed") {
		t.Errorf("without --ccd:\n%s", plain)
	}
	stdout, stderr, code := runCLI(t, append(args, "--ccd")...)
	if code != exitOK {
		t.Fatalf("--ccd: exit %d\n%s", code, stderr)
	}
	lines := strings.Split(stdout, "\n")
	if !strings.HasPrefix(lines[0], "step 1: missed a contact between steps 0 and 1: at t in [") || !strings.HasPrefix(lines[1], "flight ") {
		t.Errorf("--ccd: want one missed step, then the summary:\n%s", stdout)
	}
	if !strings.Contains(stdout, "\nccd          1 step tunnelled past contacts the samples missed; 1 of 2 motions in contact\n") ||
		!strings.Contains(stdout, "\nccd time     continuous query time mean ") || !strings.Contains(stdout, " volume updates (Nu), ") || !strings.Contains(stdout, "\nccd per step ") {
		t.Errorf("--ccd: the summary lacks the ccd lines:\n%s", stdout)
	}
	// The rest of the summary is the flight's without --ccd: its lines
	// that hold no time are the same.
	same := func(out string) []string {
		return slices.DeleteFunc(strings.Split(out, "\n"), func(l string) bool {
			return !slices.ContainsFunc([]string{"flight ", "steps ", "front ", "per step "}, func(p string) bool { return strings.HasPrefix(l, p) })
		})
	}
	if a, b := same(stdout), same(plain); len(a) != 4 || !slices.Equal(a, b) {
		t.Errorf("--ccd changed the summary:\n%s\nwithout:\n%s", stdout, plain)
	}

	stdout, stderr, code = runCLI(t, append(args, "--ccd", "--json")...)
	if code != exitOK {
		t.Fatalf("--ccd --json: exit %d\n%s", code, stderr)
	}
	steps, sum := flightCCDJSON(t, stdout)
	if len(steps) != 3 {
		t.Fatalf("%d steps, want 3:\n%s", len(steps), stdout)
	}
	if c := steps[1].CCD; !c.Hit || !c.Missed || c.TOI == nil || !(c.TOI[0]-1e-12 <= toi && toi <= c.TOI[1]+1e-12) {
		t.Errorf("step 1: %+v, want a missed contact at t = %v", c, toi)
	}
	if c := steps[2].CCD; c.Hit || c.Missed || c.Maybe {
		t.Errorf("step 2: %+v, want no contact", c)
	}
	if sum.CCD == nil || sum.CCD.Motions != 2 || sum.CCD.Hits != 1 || sum.CCD.Missed != 1 || sum.CCD.Maybe != 0 {
		t.Errorf("summary: %+v", sum.CCD)
	}
}

// flightSummaryCCD is the part of flight --json's summary the tests read.
type flightSummaryCCD struct {
	Steps     int            `json:"steps"`
	Colliding int            `json:"colliding_steps"`
	CCD       *jsonFlightCCD `json:"ccd"`
}

// flightCCDJSON parses the output of flight --ccd --json: the steps, each
// but the first with its ccd object (checked: its keys and their
// agreement), then the summary.
func flightCCDJSON(t *testing.T, out string) ([]jsonStepWithCCD, flightSummaryCCD) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	var steps []jsonStepWithCCD
	for i, s := range lines[:len(lines)-1] {
		var l jsonStepWithCCD
		dec := json.NewDecoder(strings.NewReader(s))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("line %d %q: %v", i+1, s, err)
		}
		if (l.CCD != nil) != (i > 0) {
			t.Fatalf("line %d %q: want a ccd object on every step but the first", i+1, s)
		}
		if c := l.CCD; c != nil {
			if (c.TOI != nil) != (c.Hit || c.Maybe) || (c.Pair != nil) != c.Hit || c.Hit && c.Maybe {
				t.Errorf("line %d %q: ccd's keys disagree with hit and maybe", i+1, s)
			}
			if c.Missed != (c.Hit && !l.Collide && !steps[i-1].Collide) {
				t.Errorf("line %d %q: missed %v, but hit %v, collide %v and %v", i+1, s, c.Missed, c.Hit, steps[i-1].Collide, l.Collide)
			}
			if c.TOI != nil && !(0 <= c.TOI[0] && c.TOI[0] <= c.TOI[1] && c.TOI[1] <= 1) {
				t.Errorf("line %d %q: toi not in [0, 1]", i+1, s)
			}
		}
		if l.Step != i {
			t.Errorf("line %d: step %d", i+1, l.Step)
		}
		steps = append(steps, l)
	}
	var last struct {
		Summary flightSummaryCCD `json:"summary"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
		t.Fatalf("summary %q: %v", lines[len(lines)-1], err)
	}
	return steps, last.Summary
}

// TestFlightCCDQuick flies a quick scene with --ccd (a billiard path: the
// motions turn), and checks the form of the output, the counts of the
// summary against the steps, and the plot's second series.
func TestFlightCCDQuick(t *testing.T) {
	dir := t.TempDir()
	svg := filepath.Join(dir, "steps.svg")
	args := []string{"flight", "--scene", "torus", "--quick", "--steps", "100"}
	plain, stderr, code := runCLI(t, append(args, "--json", "--front", "off")...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	stdout, stderr, code := runCLI(t, append(args, "--json", "--front", "off", "--ccd", "--plot", svg)...)
	if code != exitOK {
		t.Fatalf("--ccd: exit %d\n%s", code, stderr)
	}
	steps, sum := flightCCDJSON(t, stdout)
	if len(steps) != 100 || sum.Steps != 100 || sum.CCD == nil || sum.CCD.Motions != 99 {
		t.Fatalf("%d steps, summary %+v %+v", len(steps), sum, sum.CCD)
	}
	var hits, maybe, missed int
	for _, l := range steps[1:] {
		if l.CCD.Hit {
			hits++
		}
		if l.CCD.Maybe {
			maybe++
		}
		if l.CCD.Missed {
			missed++
		}
	}
	if c := sum.CCD; c.Hits != hits || c.Maybe != maybe || c.Missed != missed || !(0 < c.Mean && c.Median <= c.P99 && c.P99 <= c.Max) {
		t.Errorf("summary %+v; the steps count %d hits, %d maybe, %d missed", c, hits, maybe, missed)
	}
	// The discrete steps are those of the flight without --ccd.
	a, b := jsonSteps(t, plain), jsonSteps(t, stdout)
	for i := range a {
		var x, y jsonStepWithCCD
		if err := json.Unmarshal([]byte(a[i]), &x); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(b[i]), &y); err != nil {
			t.Fatal(err)
		}
		if x.Collide != y.Collide || !slices.Equal(x.Pairs, y.Pairs) || x.Stats != y.Stats {
			t.Errorf("step %d: --ccd changed the discrete query:\n%s\n%s", i, a[i], b[i])
		}
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(data, new(struct{})); err != nil {
		t.Errorf("the plot is not XML: %v", err)
	}
	if !bytes.Contains(data, []byte("continuous (--ccd)")) {
		t.Errorf("the plot lacks the continuous queries' series")
	}
	// Text: the summary's ccd lines.
	stdout, stderr, code = runCLI(t, append(args, "--ccd")...)
	if code != exitOK || !strings.Contains(stdout, "\nccd          ") || !strings.Contains(stdout, " of 99 motions in contact") {
		t.Errorf("text: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestFlightCCDUsage checks flight --ccd's usage errors and help.
func TestFlightCCDUsage(t *testing.T) {
	_, stderr, code := runCLI(t, "flight", "--quick", "--ccd", "--eps", "0.01")
	if code != exitUsage || !strings.Contains(stderr, "--ccd with --eps 0.01: the continuous query decides exact contact") {
		t.Errorf("--ccd --eps: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := runCLI(t, "flight", "--quick", "--ccd=2"); code != exitUsage {
		t.Errorf("--ccd=2: exit %d\n%s", code, stderr)
	}
	stdout, _, code := runCLI(t, "help", "flight")
	if code != exitOK || !strings.Contains(stdout, "--ccd") || !strings.Contains(stdout, `"ccd":{"hit":BOOL`) {
		t.Errorf("help flight: exit %d\n%s", code, stdout)
	}
}
