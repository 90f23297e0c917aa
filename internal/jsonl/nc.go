package jsonl

import (
	"io"

	"github.com/collide3d/collide/nc"
)

// ncViolation is the line of one violation of collide nc --json.
type ncViolation struct {
	Move      int     `json:"move"`
	Line      int     `json:"line"`
	N         int     `json:"n"`
	Kind      string  `json:"kind"`
	Role      string  `json:"role"`
	Target    string  `json:"target"`
	Fixture   *int    `json:"fixture,omitempty"`
	S0        float64 `json:"s0"`
	S1        float64 `json:"s1"`
	Depth     float64 `json:"depth"`
	DepthMax  float64 `json:"depth_max"`
	Clearance float64 `json:"clearance"`
	Graze     bool    `json:"graze"`
	Within    float64 `json:"within,omitempty"`
	Triangles []int32 `json:"triangles"`
	Inside    bool    `json:"inside,omitempty"`
	Stopped   bool    `json:"stopped,omitempty"`
}

// WriteNCViolation writes the line of violation v of collide nc --json:
// {"move":I,"line":L,"n":N,"kind":...,"triangles":[...]}, with "fixture"
// when v's target is a fixture, "within" when v is a graze, "inside" when
// the tool part is inside its target (nc.Violation.Inside) and "stopped"
// when a budget cut its detail.
func WriteNCViolation(w io.Writer, v nc.Violation) error {
	jv := ncViolation{Move: v.Move, Line: v.Line, N: v.N, Kind: v.Kind.String(), Role: v.Role.String(), Target: v.Target.String(),
		S0: v.S0, S1: v.S1, Depth: v.Depth, DepthMax: v.DepthMax, Clearance: v.Clearance, Graze: v.Graze, Within: v.Within, Triangles: v.Tris,
		Inside: v.Inside, Stopped: v.Stopped}
	if v.Target == nc.OnFixture {
		f := v.Fixture
		jv.Fixture = &f
	}
	if jv.Triangles == nil {
		jv.Triangles = []int32{}
	}
	return WriteLine(w, jv)
}

// NCHead is what collide nc's summary line says of the check's inputs, as
// the command names them.
type NCHead struct {
	Program   string // the program's name in messages ("builtin:demo", "stdin", the path)
	Part      string // the PART argument ("" for none)
	Triangles int    // the part's
	BV        string // the part's trees' bounding volume
	Fixtures  int
	Tool      string // the tool's specification, or "the tools of FILE"
	Warnings  int    // the G-code warnings
	// BuildSeconds is the time the models took to load and build.
	BuildSeconds float64
	// Interrupted says that an interrupt stopped the check.
	Interrupted bool
	// Solid says that the part and the fixtures were checked as solids
	// (nc.Options.Solid): the line then says so and counts the tests of
	// a point against them ("solid", "inside_tests").
	Solid bool
}

// ncSummary is the summary line's object.
type ncSummary struct {
	Program        string         `json:"program"`
	Part           string         `json:"part,omitempty"`
	Triangles      int            `json:"triangles"`
	BV             string         `json:"bv"`
	Fixtures       int            `json:"fixtures"`
	Tool           string         `json:"tool"`
	Moves          int            `json:"moves"`
	Checked        int            `json:"checked"`
	Violations     int            `json:"violations"`
	MovesHit       int            `json:"moves_hit"`
	ByKind         map[string]int `json:"by_kind"`
	Warnings       int            `json:"warnings"`
	Seconds        float64        `json:"seconds"`
	MovesPerSecond float64        `json:"moves_per_second"`
	BuildSeconds   float64        `json:"build_seconds"`
	Queries        int64          `json:"queries"`
	BVTests        int64          `json:"bv_tests"`
	Candidates     int64          `json:"candidates"`
	Exact          int64          `json:"exact"`
	Grazes         int64          `json:"grazes"`
	Solid          bool           `json:"solid,omitempty"`
	InsideTests    *int64         `json:"inside_tests,omitempty"`
	// With --deadline or --move-deadline, what they left unchecked;
	// Interrupted says that an interrupt stopped the check (Stopped).
	Stopped         bool  `json:"stopped,omitempty"`
	Interrupted     bool  `json:"interrupted,omitempty"`
	Reached         *int  `json:"reached,omitempty"`
	Unfinished      int   `json:"unfinished,omitempty"`
	UnfinishedLines []int `json:"unfinished_lines,omitempty"`
}

// WriteNCSummary writes the last line of collide nc --json,
// {"summary":{...}}: h's names and counts, then sum's counts, the time
// ("seconds", "moves_per_second": the moves checked per second, and
// "build_seconds"), the work ("solid" and "inside_tests" with h.Solid),
// and what a budget left unchecked.
func WriteNCSummary(w io.Writer, h NCHead, sum nc.Summary) error {
	s := ncSummary{
		Program: h.Program, Part: h.Part, Triangles: h.Triangles, BV: h.BV, Fixtures: h.Fixtures,
		Tool: h.Tool, Moves: sum.Moves, Checked: sum.Checked, Violations: sum.Violations, MovesHit: sum.MovesHit,
		ByKind: map[string]int{}, Warnings: h.Warnings, Seconds: sum.Seconds, MovesPerSecond: MovesPerSecond(sum),
		BuildSeconds: h.BuildSeconds, Queries: sum.Stats.Queries, BVTests: sum.Stats.BVTests,
		Candidates: sum.Stats.Candidates, Exact: sum.Stats.Exact, Grazes: sum.Stats.Grazes,
		Stopped: sum.Stopped, Interrupted: h.Interrupted, Unfinished: sum.Unfinished, UnfinishedLines: sum.UnfinishedLines,
	}
	if h.Solid {
		s.Solid, s.InsideTests = true, &sum.Stats.Inside
	}
	if sum.Stopped {
		s.Reached = &sum.Reached
	}
	for k, n := range sum.ByKind {
		s.ByKind[nc.Kind(k).String()] = n
	}
	return WriteLine(w, struct {
		Summary ncSummary `json:"summary"`
	}{s})
}

// MovesPerSecond returns the moves of sum checked per second of its
// check (0 if it took no time).
func MovesPerSecond(sum nc.Summary) float64 {
	if sum.Seconds <= 0 {
		return 0
	}
	return float64(sum.Checked) / sum.Seconds
}
