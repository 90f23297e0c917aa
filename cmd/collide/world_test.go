package main

import (
	"bufio"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/world"
)

// worldScene writes a scene directory: floor.obj (the box [-1, 1]² ×
// [-0.1, 0]), down.txt (a pose file), and scene.json holding text; it
// returns the path of scene.json.
func worldScene(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	writeOBJ(t, dir, "floor.obj", gen.Must(gen.Box(geom.AABB{Min: geom.V(-1, -1, -0.1), Max: geom.V(1, 1, 0)}, 1)))
	writeFile(t, dir, "down.txt", []byte("# down onto the floor\n"+identityPose[:len(identityPose)-1]+"2\n"+identityPose[:len(identityPose)-1]+"1\n"+identityPose[:len(identityPose)-1]+"0.25\n"))
	return writeFile(t, dir, "scene.json", []byte(text))
}

// touching is a scene with contacts at every step: a ball resting on the
// floor, a box replayed down onto it, and a pair that is not tested.
const touching = `{
  "steps": 4,
  "models": [
    {"name": "floor", "mesh": "floor.obj"},
    {"name": "ball", "mesh": "gen:icosphere:radius=0.25,tris=80"},
    {"name": "cube", "mesh": "gen:box:minx=-0.25,miny=-0.25,minz=-0.25,maxx=0.25,maxy=0.25,maxz=0.25"}
  ],
  "objects": [
    {"name": "floor", "model": "floor", "static": true},
    {"name": "ball", "model": "ball", "position": [0.5, 0, 0.2], "group": 1, "motion": {"type": "brownian", "step": 0.001, "margin": 0}},
    {"name": "cube", "model": "cube", "position": [-0.5, 0, 0], "motion": {"type": "poses", "file": "down.txt"}},
    {"name": "ghost", "model": "ball", "position": [0.5, 0, 0.1], "group": 1}
  ],
  "interest": [{"groups": [1, 1], "on": false}]
}`

func TestWorldFile(t *testing.T) {
	path := worldScene(t, touching)
	stdout, stderr, code := runCLI(t, "world", path, "--all")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"step 1: 2 pairs in contact (moved 4,", "  floor ball: ", "  floor ghost: ", "\n    ",
		"step 3: 3 pairs in contact", "  floor cube: ",
		"step 4: 3 pairs in contact (moved 1,",
		"world " + path + ": 4 objects (2 moving), 3 models", "kdop18, broad phase " + world.DefaultBroad() + ", all pairs",
		"steps        4, 10 contacts", "narrow", "median", "p99",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the output lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "ball ghost") {
		t.Errorf("ball and ghost are in groups that are not tested:\n%s", stdout)
	}
	// Without --all, one pair per contact.
	stdout, _, _ = runCLI(t, "world", path, "--steps", "1")
	if !strings.Contains(stdout, "  floor ball: first pair ") || !strings.Contains(stdout, "steps        1,") {
		t.Errorf("first contact:\n%s", stdout)
	}
}

// worldLine is a step's line of world --json.
type worldLine struct {
	Step     int `json:"step"`
	Contacts []struct {
		A, B  string
		Pairs [][2]int32
	} `json:"contacts"`
	Stats   map[string]int64   `json:"stats"`
	Seconds map[string]float64 `json:"seconds"`
}

// parseWorldJSON returns the step lines of world --json and the summary,
// checking that every line is a JSON object of the documented keys.
func parseWorldJSON(t *testing.T, out string) ([]worldLine, map[string]any) {
	t.Helper()
	var steps []worldLine
	var summary map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &keys); err != nil {
			t.Fatalf("not JSON: %q", sc.Text())
		}
		if s, ok := keys["summary"]; ok {
			if summary != nil {
				t.Fatal("two summaries")
			}
			json.Unmarshal(s, &summary)
			continue
		}
		if summary != nil {
			t.Fatal("a step after the summary")
		}
		if got := strings.Join(sortedKeys(keys), ","); got != "contacts,seconds,stats,step" {
			t.Errorf("step line keys %s", got)
		}
		var l worldLine
		d := json.NewDecoder(strings.NewReader(sc.Text()))
		d.DisallowUnknownFields()
		if err := d.Decode(&l); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		steps = append(steps, l)
	}
	if summary == nil {
		t.Fatal("no summary line")
	}
	return steps, summary
}

func TestWorldJSON(t *testing.T) {
	stdout, stderr, code := runCLI(t, "world", "builtin:brownian", "--n", "40", "--steps", "5", "--all", "--json", "--workers", "1", "--seed", "3")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	steps, sum := parseWorldJSON(t, stdout)
	if len(steps) != 5 {
		t.Fatalf("%d step lines, want 5", len(steps))
	}
	contacts := 0
	for i, l := range steps {
		if l.Step != i+1 || l.Stats["contacts"] != int64(len(l.Contacts)) || l.Stats["tested"] > l.Stats["candidates"] {
			t.Errorf("line %d: %+v", i, l)
		}
		for _, c := range l.Contacts {
			if !strings.HasPrefix(c.A, "b") || !strings.HasPrefix(c.B, "b") || c.A == c.B || len(c.Pairs) == 0 {
				t.Errorf("line %d: contact %+v", i, c)
			}
			contacts++
		}
		for _, k := range []string{"motion", "bound", "broad", "narrow", "update"} {
			if _, ok := l.Seconds[k]; !ok {
				t.Errorf("line %d: no time %q", i, k)
			}
		}
	}
	if contacts == 0 {
		t.Error("no contacts in 5 steps of 40 objects")
	}
	if sum["steps"] != 5.0 || sum["objects"] != 40.0 || sum["contacts"] != float64(contacts) || sum["scene"] != "builtin:brownian" || sum["seed"] != 3.0 {
		t.Errorf("summary %v", sum)
	}
	for _, k := range []string{"bound", "broad_phase", "narrow", "update", "step"} {
		ts, _ := sum[k].(map[string]any)
		if _, ok := ts["p99"]; !ok {
			t.Errorf("summary %s: %v", k, sum[k])
		}
	}
	// The same seed plays the same contacts.
	again, _, _ := runCLI(t, "world", "builtin:brownian", "--n", "40", "--steps", "5", "--all", "--json", "--workers", "2", "--seed", "3")
	steps2, _ := parseWorldJSON(t, again)
	for i := range steps {
		a, _ := json.Marshal(steps[i].Contacts)
		b, _ := json.Marshal(steps2[i].Contacts)
		if string(a) != string(b) {
			t.Errorf("step %d: 1 worker %s, 2 workers %s", i+1, a, b)
		}
	}
}

// TestWorldBuiltin plays a CDFast scene, and the summary only.
func TestWorldBuiltin(t *testing.T) {
	stdout, stderr, code := runCLI(t, "world", "builtin:cdfast-mixed-elongated", "--steps", "500", "--quiet")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"world builtin:cdfast-mixed-elongated: 41 objects (1 moving)", "CDFast", "steps        500,", "per step", "Nv", "motion", "step  "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the summary lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "step 1:") {
		t.Errorf("--quiet printed the steps:\n%s", stdout)
	}
}

// TestWorldBadScenes checks that a bad scene file exits 1 with a message
// naming the file and the entry.
func TestWorldBadScenes(t *testing.T) {
	objects := func(o string) string {
		return `{"models": [{"name": "ball", "mesh": "gen:icosphere"}], "objects": [
  {"name": "a", "model": "ball"},
` + o + `]}`
	}
	tests := []struct {
		name, text string
		want       []string
	}{
		{"malformed", "{\"steps\": 3,\n\"objects\": [\n", []string{"line 3", "unexpected end"}},
		{"syntax", "{\"steps\": 3,\n\"objects\": x}", []string{"line 2", "invalid character"}},
		{"unknown field", "{\n\"objets\": []}", []string{"line 2", `unknown field "objets"`}},
		{"unknown motion", objects(`{"name": "b", "model": "ball", "motion": "bounce"}`), []string{"line 3", `objects[1] ("b")`, `unknown motion "bounce"`}},
		{"unknown model", objects(`{"name": "b", "model": "bal"}`), []string{`objects[1] ("b")`, `unknown model "bal"`}},
		{"no model", objects(`{"name": "b"}`), []string{`objects[1] ("b")`, "no model"}},
		{"duplicate", objects(`{"name": "a", "model": "ball"}`), []string{`objects[1] ("a")`, "duplicate name"}},
		{"bad group", objects(`{"name": "b", "model": "ball", "group": -3}`), []string{`objects[1] ("b")`, "group -3"}},
		{"bad pose", objects(`{"name": "b", "model": "ball", "pose": [2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]}`), []string{`objects[1] ("b")`, "orthonormal"}},
		{"object field", objects(`{"name": "b", "model": "ball", "speed": 1}`), []string{`objects[1] ("b")`, `unknown field "speed"`}},
		{"motion field", objects(`{"name": "b", "model": "ball", "motion": {"type": "fall", "speed": 1}}`), []string{`objects[1] ("b")`, `unknown field "speed"`}},
		{"missing mesh", `{"models": [{"name": "m", "mesh": "nowhere.obj"}], "objects": [{"name": "a", "model": "m"}]}`, []string{`models[0] ("m")`, "nowhere.obj"}},
		{"bad generator", `{"models": [{"name": "m", "mesh": "gen:icosphere:radius=x"}], "objects": [{"name": "a", "model": "m"}]}`, []string{`models[0] ("m")`, "radius"}},
		{"bad pose file", objects(`{"name": "b", "model": "ball", "motion": {"type": "poses", "file": "floor.obj"}}`), []string{`objects[1] ("b")`, "floor.obj: line "}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := worldScene(t, tc.text)
			stdout, stderr, code := runCLI(t, "world", path)
			if code != exitError {
				t.Fatalf("exit %d, want 1\n%s%s", code, stdout, stderr)
			}
			if !strings.HasPrefix(stderr, "collide world: "+path+": ") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr %q does not name the file on one line", stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q does not say %q", stderr, w)
				}
			}
		})
	}
	if _, stderr, code := runCLI(t, "world", filepath.Join(t.TempDir(), "none.json")); code != exitError || !strings.Contains(stderr, "none.json") {
		t.Errorf("a missing file: exit %d, %s", code, stderr)
	}
}

func TestWorldUsage(t *testing.T) {
	path := worldScene(t, touching)
	tests := [][]string{
		{"world"},
		{"world", path, path},
		{"world", "builtin:nothing"},
		{"world", "builtin:cdfast-room", "--n", "3"},
		{"world", "builtin:brownian", "--n", "-1"},
		{"world", path, "--n", "3"},
		{"world", path, "--broad", "nothing"},
		{"world", path, "--steps", "-1"},
		{"world", path, "--steps", "x"},
		{"world", path, "--workers", "-2"},
		{"world", path, "--json", "--quiet"},
		{"world", path, "--eps", "1"},
	}
	for _, args := range tests {
		_, stderr, code := runCLI(t, args...)
		if code != exitUsage || !strings.Contains(stderr, "usage: collide world") {
			t.Errorf("collide %q: exit %d, want 2\n%s", args, code, stderr)
		}
	}
	if stdout, _, code := runCLI(t, "help", "world"); code != exitOK || !strings.Contains(stdout, "builtin:NAME") || !strings.Contains(stdout, "cdfast-spheres-torus") || !strings.Contains(stdout, "--broad") {
		t.Errorf("help world: exit %d\n%s", code, stdout)
	}
	if stdout, _, _ := runCLI(t, "help"); !strings.Contains(stdout, "collide world") {
		t.Errorf("help does not list world:\n%s", stdout)
	}
}

func TestWorldProgress(t *testing.T) {
	defer func(term func(io.Writer) bool, after time.Duration) { isTerminal, statusAfter = term, after }(isTerminal, statusAfter)
	isTerminal = func(io.Writer) bool { return true }
	statusAfter = 0 // the line at once, however short the run
	_, stderr, code := runCLI(t, "world", "builtin:gravity", "--n", "30", "--steps", "3", "--quiet")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "\rplaying builtin:gravity: step ") || !strings.HasSuffix(stderr, "\r") || strings.Contains(stderr, "\n") {
		t.Errorf("progress %q", stderr)
	}
}

// TestWorldMotionOverflow plays scenes whose motions would overflow: each
// is refused before any step, exit 1, naming the file, the line and the
// motion's parameters (a gravity motion of strength and max_speed 1e308
// failed at step 2 with a NaN translation nobody wrote).
func TestWorldMotionOverflow(t *testing.T) {
	for _, tc := range []struct{ motion, want string }{
		{`{"type": "gravity", "strength": 1e308, "max_speed": 1e308}`, "strength 1e+308 and max_speed 1e+308"},
		{`{"type": "fall", "gravity": [0, 0, -1e308], "dt": 1e308, "restitution": 0}`, "gravity (0, 0, -1e+308) times dt 1e+308 overflows"},
		{`{"type": "billiard", "speed": 1e308}`, "speed 1e+308"},
		{`{"type": "brownian", "angle": 1e308}`, "angle 1e+308"},
	} {
		path := worldScene(t, `{"steps": 5, "models": [{"name": "b", "mesh": "gen:box"}],
 "objects": [{"name": "c", "model": "b", "position": [2.5, 0, 0], "static": true},
  {"name": "a", "model": "b", "position": [0.3, 0.2, 0.1], "motion": `+tc.motion+`}]}`)
		stdout, stderr, code := runCLI(t, "world", path)
		if code != exitError || stdout != "" || !strings.Contains(stderr, path+": line 3: objects[1] (\"a\"): ") || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "NaN") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d before any step, naming %q", tc.motion, code, stdout, stderr, exitError, tc.want)
		}
	}
}
