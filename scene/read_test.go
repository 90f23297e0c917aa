package scene

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/world"
)

// goodScene is a scene file using every field.
const goodScene = `{
  "doc": "a test",
  "steps": 20,
  "seed": 7,
  "bv": "kdop14",
  "bounds": {"min": [-2, -2, -2], "max": [2, 2, 2]},
  "models": [
    {"name": "ball", "mesh": "gen:icosphere:radius=0.3,tris=80"},
    {"name": "box", "mesh": "gen:box", "bv": "kdop26"},
    {"name": "tri", "mesh": "tri.obj"}
  ],
  "objects": [
    {"name": "floor", "model": "box", "static": true, "position": [0, 0, -1.5]},
    {"name": "b1", "model": "ball", "position": [0, 0, 0], "orientation": [1, 1, 0, 0], "group": 1,
     "motion": {"type": "billiard", "speed": 0.05, "spin": 0.1, "margin": 0}},
    {"name": "b2", "model": "ball", "pose": [1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0, 0], "group": 1, "motion": "brownian"},
    {"name": "b3", "model": "ball", "group": 1, "motion": {"type": "fall", "gravity": [0, 0, -1], "restitution": 0.8}},
    {"name": "b4", "model": "ball", "motion": {"type": "gravity", "centers": [[0, 0, 0]], "time": 10}},
    {"name": "t", "model": "tri", "group": 2, "motion": {"type": "poses", "file": "poses.txt", "cycle": true}},
    {"name": "s", "model": "tri", "motion": "static"}
  ],
  "interest": [
    {"groups": [1, 1], "on": false},
    {"objects": ["b1", "b2"], "on": true}
  ]
}`

const triOBJ = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"

const posesTxt = "# two poses\n1 0 0 0 1 0 0 0 1 0 0 0\n1 0 0 0 1 0 0 0 1 0.1 0 0\n"

// writeScene writes a scene directory: scene.json with text, tri.obj and
// poses.txt; it returns the scene's path.
func writeScene(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string]string{"scene.json": text, "tri.obj": triOBJ, "poses.txt": posesTxt} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "scene.json")
}

func TestReadGood(t *testing.T) {
	path := writeScene(t, goodScene)
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Doc != "a test" || s.Steps != 20 || s.Seed != 7 || s.Bounds.Max != geom.V(2, 2, 2) {
		t.Errorf("scene fields %q %d %d %v", s.Doc, s.Steps, s.Seed, s.Bounds)
	}
	if len(s.Models) != 3 || s.Models[0].BV != collide.KDOP14 || s.Models[1].BV != collide.KDOP26 {
		t.Errorf("models %+v", s.Models)
	}
	if want := filepath.Join(filepath.Dir(path), "tri.obj"); s.Models[2].Source != want {
		t.Errorf("mesh path %q, want %q (relative to the scene file)", s.Models[2].Source, want)
	}
	if len(s.Objects) != 7 || len(s.Interest) != 2 {
		t.Fatalf("%d objects, %d interest entries", len(s.Objects), len(s.Interest))
	}
	o := s.Objects
	if !o[0].Static || o[0].Pose.T != geom.V(0, 0, -1.5) || o[0].Line != 13 {
		t.Errorf("floor: %+v", o[0])
	}
	if !o[1].Pose.R.IsRotation(1e-15) || o[1].Pose.R[1][2] > -0.99 {
		t.Errorf("b1's orientation (90° about x) gives %v", o[1].Pose.R)
	}
	if b, ok := o[1].Motion.(Billiard); !ok || b.Speed != 0.05 || b.Spin != 0.1 || b.Turn != 0 || b.Margin != 0 {
		t.Errorf("b1's motion %#v", o[1].Motion)
	}
	if b, ok := o[2].Motion.(Brownian); !ok || b != DefaultBrownian {
		t.Errorf("b2's motion %#v, want the default brownian", o[2].Motion)
	}
	if f, ok := o[3].Motion.(Fall); !ok || f.Gravity != geom.V(0, 0, -1) || f.Restitution != 0.8 || f.DT != DefaultFall.DT {
		t.Errorf("b3's motion %#v", o[3].Motion)
	}
	if g, ok := o[4].Motion.(Gravity); !ok || len(g.Centers) != 1 || g.Time != 10 || g.Strength != DefaultGravity.Strength {
		t.Errorf("b4's motion %#v", o[4].Motion)
	}
	if p, ok := o[5].Motion.(Poses); !ok || len(p.Poses) != 2 || !p.Cycle {
		t.Errorf("t's motion %#v", o[5].Motion)
	}
	if _, ok := o[6].Motion.(Static); !ok {
		t.Errorf("s's motion %#v", o[6].Motion)
	}
	if in := s.Interest[1]; in.Objects == nil || *in.Objects != [2]string{"b1", "b2"} || !in.On {
		t.Errorf("interest %+v", in)
	}
	// It plays: the interest matrix is set.
	tot, err := Play(s, Options{Steps: 5}, func(p *Player, st world.StepStats) error {
		w := p.World()
		if w.Interested(p.ID(1), p.ID(3)) || !w.Interested(p.ID(1), p.ID(2)) {
			t.Errorf("interest: b1-b3 %v, b1-b2 %v", w.Interested(p.ID(1), p.ID(3)), w.Interested(p.ID(1), p.ID(2)))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if tot.Steps != 5 || tot.Objects != 7 || tot.Moving != 5 || tot.Models != 3 {
		t.Errorf("totals %+v", tot)
	}
}

// TestReadErrors checks that every bad scene is an error naming the file,
// the line and the entry.
func TestReadErrors(t *testing.T) {
	obj := func(fields string) string {
		return `{"models": [{"name": "m", "mesh": "gen:box"}], "objects": [
  {"name": "ok", "model": "m"},
  {"name": "ball", "model": "m"` + fields + `}
]}`
	}
	tests := []struct {
		name, text string
		want       []string // in the message, beside the file's name
	}{
		{"syntax", "{\n\"steps\": 3,\n\"objects\": [}\n", []string{"line 3", "invalid character"}},
		{"truncated", "{\"objects\": [\n", []string{"line 2", "unexpected end"}},
		{"not an object", "[1, 2]", []string{"line 1", "JSON object"}},
		{"empty", "", []string{"unexpected end"}},
		{"unknown field", "{\n\"stepz\": 3}", []string{"line 2", `unknown field "stepz"`}},
		{"twice", `{"steps": 1, "steps": 2}`, []string{`"steps" given twice`}},
		{"steps type", "{\n\n\"steps\": \"many\"}", []string{"line 3", "steps"}},
		{"negative steps", `{"steps": -1, "models": [{"name": "m", "mesh": "gen:box"}], "objects": [{"name": "a", "model": "m"}]}`, []string{"steps -1"}},
		{"seed range", `{"seed": -1}`, []string{"seed", "out of range"}},
		{"no objects", `{"models": [{"name": "m", "mesh": "gen:box"}]}`, []string{"no objects"}},
		{"bad bv", `{"bv": "kdop7", "objects": [{}]}`, []string{"bv", "kdop7"}},
		{"bounds", `{"bounds": {"min": [1, 1, 1], "max": [0, 0, 0]}, "objects": [{}]}`, []string{"bounds"}},
		{"bounds length", `{"bounds": {"min": [1, 1], "max": [0, 0, 0]}, "objects": [{}]}`, []string{"want 3 numbers"}},
		{"models not a list", `{"models": {"m": 1}, "objects": [{}]}`, []string{"models: want a list"}},
		{"model without mesh", `{"models": [{"name": "m"}], "objects": [{"name": "a", "model": "m"}]}`, []string{`models[0] ("m")`, "no mesh"}},
		{"model unknown field", "{\"models\": [\n{\"name\": \"m\", \"mesh\": \"gen:box\", \"colour\": 1}], \"objects\": [{}]}", []string{"line 2", `models[0] ("m")`, `unknown field "colour"`}},
		{"duplicate model", `{"models": [{"name": "m", "mesh": "gen:box"}, {"name": "m", "mesh": "gen:box"}], "objects": [{"name": "a", "model": "m"}]}`, []string{`models[1] ("m")`, "duplicate name"}},
		{"incompatible bv", `{"models": [{"name": "m", "mesh": "gen:box"}, {"name": "n", "mesh": "gen:box", "bv": "obb"}], "objects": [{"name": "a", "model": "m"}]}`, []string{`models[1] ("n")`, "obb"}},
		{"empty model", `{"models": [{"name": "m", "mesh": "gen:box"}], "objects": [{"name": "ball", "model": ""}]}`, []string{`objects[0] ("ball")`, "no model"}},
		{"no model", `{"models": [{"name": "m", "mesh": "gen:box"}], "objects": [{"name": "ok", "model": "m"}, {"name": "ball"}]}`, []string{`objects[1] ("ball")`, "no model"}},
		{"unknown model", `{"models": [{"name": "m", "mesh": "gen:box"}], "objects": [{"name": "ok", "model": "m"}, {"name": "ball", "model": "bal"}]}`, []string{`objects[1] ("ball")`, `unknown model "bal"`}},
		{"duplicate object", `{"models": [{"name": "m", "mesh": "gen:box"}], "objects": [{"name": "ball", "model": "m"}, {"name": "ball", "model": "m"}]}`, []string{`objects[1] ("ball")`, "duplicate name"}},
		{"no name", `{"models": [{"name": "m", "mesh": "gen:box"}], "objects": [{"model": "m"}]}`, []string{"objects[0]", "no name"}},
		{"unknown motion", obj(`, "motion": "bounce"`), []string{"line 3", `objects[1] ("ball")`, `unknown motion "bounce"`}},
		{"unknown motion type", obj(`, "motion": {"type": "bounce"}`), []string{`objects[1] ("ball")`, `unknown motion "bounce"`}},
		{"motion without type", obj(`, "motion": {"speed": 1}`), []string{`objects[1] ("ball")`, `"type"`}},
		{"motion field", obj(`, "motion": {"type": "billiard", "restitution": 1}`), []string{`objects[1] ("ball")`, "billiard", `unknown field "restitution"`}},
		{"motion value", obj(`, "motion": {"type": "billiard", "turn": 3}`), []string{`objects[1] ("ball")`, "turn 3"}},
		{"fall dt", obj(`, "motion": {"type": "fall", "dt": 0}`), []string{`objects[1] ("ball")`, "dt 0"}},
		{"gravity collapse", obj(`, "motion": {"type": "gravity", "collapse": 0}`), []string{`objects[1] ("ball")`, "collapse"}},
		{"poses without file", obj(`, "motion": {"type": "poses"}`), []string{`objects[1] ("ball")`, `no "file"`}},
		{"poses missing file", obj(`, "motion": {"type": "poses", "file": "nowhere.txt"}`), []string{`objects[1] ("ball")`, "nowhere.txt"}},
		{"bad pose line", obj(`, "motion": {"type": "poses", "file": "tri.obj"}`), []string{`objects[1] ("ball")`, "tri.obj", "line 1"}},
		{"static moving", obj(`, "static": true, "motion": "brownian"`), []string{`objects[1] ("ball")`, "static object cannot have a brownian motion"}},
		{"bad pose", obj(`, "pose": [1, 0, 0, 0, 1, 0, 0, 0, 1.001, 0, 0, 0]`), []string{`objects[1] ("ball")`, "orthonormal"}},
		{"short pose", obj(`, "pose": [1, 0, 0]`), []string{`objects[1] ("ball")`, "want 12 numbers"}},
		{"pose and position", obj(`, "pose": [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], "position": [0, 0, 0]`), []string{`objects[1] ("ball")`, "not both"}},
		{"zero quaternion", obj(`, "orientation": [0, 0, 0, 0]`), []string{`objects[1] ("ball")`, "quaternion"}},
		{"pose type", obj(`, "position": "here"`), []string{"line 3", `objects[1] ("ball")`, "position"}},
		{"huge number", obj(`, "position": [1e400, 0, 0]`), []string{`objects[1] ("ball")`, "position"}},
		{"bad group", obj(`, "group": 5000`), []string{`objects[1] ("ball")`, "group 5000"}},
		{"negative group", obj(`, "group": -1`), []string{`objects[1] ("ball")`, "group -1"}},
		{"interest both", `{"models": [{"name": "m", "mesh": "gen:box"}], "objects": [{"name": "a", "model": "m"}], "interest": [{"groups": [0, 1], "objects": ["a", "a"], "on": true}]}`, []string{"interest[0]", "either"}},
		{"interest group", `{"models": [{"name": "m", "mesh": "gen:box"}], "objects": [{"name": "a", "model": "m"}], "interest": [{"groups": [0, 1024], "on": true}]}`, []string{"interest[0]", "group 1024"}},
		{"interest object", `{"models": [{"name": "m", "mesh": "gen:box"}], "objects": [{"name": "a", "model": "m"}], "interest": [{"objects": ["a", "b"], "on": true}]}`, []string{"interest[0]", `unknown object "b"`}},
		{"interest on", `{"models": [{"name": "m", "mesh": "gen:box"}], "objects": [{"name": "a", "model": "m"}], "interest": [{"groups": [0, 0]}]}`, []string{"interest[0]", `no "on"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeScene(t, tc.text)
			_, err := Load(path)
			if err == nil {
				t.Fatalf("no error for\n%s", tc.text)
			}
			t.Log(err)
			var se *Error
			if !errors.As(err, &se) {
				t.Errorf("%v is not an *Error", err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, path+": ") {
				t.Errorf("%q does not start with the file's name", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("%q does not say %q", msg, w)
				}
			}
		})
	}
}

// TestPlayErrors checks the errors found when the scene is played: meshes
// that do not load, poses that leave a world's reach.
func TestPlayErrors(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"missing mesh file", `{"models": [{"name": "m", "mesh": "nowhere.obj"}], "objects": [{"name": "a", "model": "m"}]}`, []string{`models[0] ("m")`, "nowhere.obj"}},
		{"bad mesh file", `{"models": [{"name": "m", "mesh": "poses.txt"}], "objects": [{"name": "a", "model": "m"}]}`, []string{`models[0] ("m")`, "poses.txt"}},
		{"unknown generator", `{"models": [{"name": "m", "mesh": "gen:blob"}], "objects": [{"name": "a", "model": "m"}]}`, []string{`models[0] ("m")`, `unknown generator "blob"`}},
		{"bad generator parameter", `{"models": [{"name": "m", "mesh": "gen:icosphere:radius=-1"}], "objects": [{"name": "a", "model": "m"}]}`, []string{`models[0] ("m")`, "radius"}},
		{"far away", `{"models": [{"name": "m", "mesh": "gen:box"}], "objects": [{"name": "a", "model": "m", "position": [1e308, 0, 0]}]}`, []string{`objects[0] ("a")`, "beyond"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeScene(t, tc.text)
			s, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Play(s, Options{}, nil)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, path+": ") {
				t.Errorf("%q does not start with the file's name", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("%q does not say %q", msg, w)
				}
			}
		})
	}
}

func TestReadTooMany(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"models": [{"name": "m", "mesh": "gen:box"}], "objects": [`)
	for i := range MaxObjects + 1 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("{}")
	}
	b.WriteString("]}")
	_, err := Read(strings.NewReader(b.String()), "many.json")
	if err == nil || !strings.Contains(err.Error(), "many.json: ") || !strings.Contains(err.Error(), "more than") {
		t.Errorf("%d objects: %v", MaxObjects+1, err)
	}
}

// TestReadLinesLinear checks that finding the lines of a scene's entries
// costs one pass over the file, not one per entry (it was quadratic:
// 100,000 objects took about 50 s), and that the lines are right.
func TestReadLinesLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("{\n  \"models\": [{\"name\": \"m\", \"mesh\": \"gen:box\"}],\n  \"objects\": [\n")
	const n = 20000
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "    {\"name\": \"o%d\", \"model\": \"m\", \"position\": [%d, 0, 0]}", i, i)
	}
	b.WriteString("\n  ]\n}\n")
	data := []byte(b.String())
	s := &Scene{Name: "big.json"}
	p := &reader{s: s, data: data, dir: "."}
	if err := p.read(); err != nil {
		t.Fatal(err)
	}
	if len(s.Objects) != n {
		t.Fatalf("%d objects, want %d", len(s.Objects), n)
	}
	for i, o := range []int{0, n / 2, n - 1} {
		if got, want := s.Objects[o].Line, 4+o; got != want {
			t.Errorf("case %d: object %d on line %d, want %d", i, o, got, want)
		}
	}
	if p.scanned > 3*int64(len(data)) {
		t.Errorf("finding the lines counted %d bytes of a %d-byte file: not linear", p.scanned, len(data))
	}
	// Offsets in any order: the index gives every line right.
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		off := r.Int64N(int64(len(data)) + 1)
		if got, want := p.line(off), 1+bytes.Count(data[:off], []byte{'\n'}); got != want {
			t.Fatalf("line(%d) = %d, want %d", off, got, want)
		}
	}
}
