package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// distanceLine is one parsed line of distance --json.
type distanceLine struct {
	Pose     int        `json:"pose"`
	Distance float64    `json:"distance"`
	Bound    float64    `json:"bound"`
	Far      bool       `json:"far"`
	Max      float64    `json:"max"`
	Env      int32      `json:"env"`
	Fly      int32      `json:"fly"`
	PEnv     [3]float64 `json:"p_env"`
	PFly     [3]float64 `json:"p_fly"`
	Stats    struct {
		BVTests  int64 `json:"bv_tests"`
		TriTests int64 `json:"tri_tests"`
		Updates  int64 `json:"updates"`
		Leaf     int64 `json:"leaf_tests"`
	} `json:"stats"`
	Seconds float64 `json:"seconds"`
}

// parseDistanceJSON parses the JSON Lines of distance --json, checking
// that every line has exactly the documented keys, and that the poses are
// numbered from 0 in order.
func parseDistanceJSON(t *testing.T, out string) []distanceLine {
	t.Helper()
	near := []string{"bound", "distance", "env", "fly", "p_env", "p_fly", "pose", "seconds", "stats"}
	far := []string{"far", "max", "pose", "seconds", "stats"}
	var lines []distanceLine
	for i, s := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(s), &raw); err != nil {
			t.Fatalf("line %d %q: %v", i+1, s, err)
		}
		if keys := sortedKeys(raw); !slices.Equal(keys, near) && !slices.Equal(keys, far) {
			t.Errorf("line %d %q: keys %q, want %q or %q", i+1, s, keys, near, far)
		}
		var l distanceLine
		if err := json.Unmarshal([]byte(s), &l); err != nil {
			t.Fatalf("line %d %q: %v", i+1, s, err)
		}
		if l.Pose != i {
			t.Errorf("line %d: pose %d, want %d", i+1, l.Pose, i)
		}
		if _, ok := raw["far"]; ok && !l.Far {
			t.Errorf(`line %d %q: "far" is false`, i+1, s)
		}
		lines = append(lines, l)
	}
	return lines
}

// unitBox is the 12-triangle box [0,1]³.
func unitBox(t *testing.T) *mesh.TriMesh {
	t.Helper()
	m, err := gen.Box(geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(1, 1, 1)}, 1)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func translation(x, y, z float64) string {
	return fmt.Sprintf("1 0 0 0 1 0 0 0 1 %g %g %g", x, y, z)
}

// TestDistanceBoxes runs distance on two unit boxes, ENV generated and
// FLY read from a file, apart, touching and overlapping, with and without
// a cut-off, and checks the distances, the witnesses and the cut-off.
func TestDistanceBoxes(t *testing.T) {
	dir := t.TempDir()
	box := unitBox(t)
	fly := writeOBJ(t, dir, "box.obj", box)
	env := "gen:box:minx=0,miny=0,minz=0,maxx=1,maxy=1,maxz=1"
	tests := []struct {
		name string
		pose [3]float64 // FLY's translation
		max  string     // --max, if not ""
		far  bool
		want float64 // the distance (0: contact)
	}{
		{"apart", [3]float64{3, 0, 0}, "", false, 2},
		{"apart diagonally", [3]float64{3, 3, 0}, "", false, math.Sqrt(8)},
		{"apart above", [3]float64{0.25, -0.5, 1.5}, "", false, 0.5},
		{"touching face", [3]float64{1, 0, 0}, "", false, 0},
		{"touching edge", [3]float64{1, 1, 0.5}, "", false, 0},
		{"touching corner", [3]float64{1, 1, 1}, "", false, 0},
		{"overlapping", [3]float64{0.5, 0.25, 0.125}, "", false, 0},
		{"same place", [3]float64{0, 0, 0}, "", false, 0},
		{"beyond the cut-off", [3]float64{3, 0, 0}, "1.5", true, 0},
		{"at the cut-off", [3]float64{3, 0, 0}, "2", true, 0},
		{"within the cut-off", [3]float64{3, 0, 0}, "2.5", false, 2},
		{"contact with a cut-off", [3]float64{0.5, 0, 0}, "0.001", false, 0},
	}
	for _, bv := range []string{"brute", "kdop18", "obb"} {
		for _, tc := range tests {
			t.Run(bv+"/"+tc.name, func(t *testing.T) {
				pose := translation(tc.pose[0], tc.pose[1], tc.pose[2])
				args := []string{"distance", "--json", "--bv", bv, "--pose", pose}
				if tc.max != "" {
					args = append(args, "--max", tc.max)
				}
				stdout, stderr, code := runCLI(t, append(args, env, fly)...)
				if code != exitOK || stderr != "" {
					t.Fatalf("%q: exit %d\n%s", args, code, stderr)
				}
				lines := parseDistanceJSON(t, stdout)
				if len(lines) != 1 {
					t.Fatalf("%d lines, want 1:\n%s", len(lines), stdout)
				}
				l := lines[0]
				if l.Far != tc.far {
					t.Fatalf("far %v, want %v:\n%s", l.Far, tc.far, stdout)
				}
				if l.Far {
					if want := fmt.Sprintf(`{"pose":0,"far":true,"max":%s,"stats":{`, tc.max); !strings.HasPrefix(stdout, want) {
						t.Errorf("line %q does not start %q", stdout, want)
					}
					return
				}
				p := geom.Translation(geom.V(tc.pose[0], tc.pose[1], tc.pose[2]))
				checkWitnesses(t, box, box, p, l)
				if tc.want == 0 {
					if l.Distance != 0 || l.Bound != 0 || l.PEnv != l.PFly {
						t.Errorf("contact: %s", stdout)
					}
					return
				}
				if math.Abs(l.Distance-tc.want) > l.Bound+1e-15 || l.Bound < 0 || l.Bound > 1e-9 {
					t.Errorf("distance %v ± %v, want %v", l.Distance, l.Bound, tc.want)
				}
			})
		}
	}
}

// checkWitnesses checks the witnesses of line l, a pose not far, against
// the meshes: the triangles are at the distance printed (computed again
// with geom.TriTriDistance, bit for bit), the witness points are theirs, in
// ENV's frame, and a distance of 0 is a contact.
func checkWitnesses(t *testing.T, env, fly *mesh.TriMesh, p geom.Pose, l distanceLine) {
	t.Helper()
	if l.Env < 0 || int(l.Env) >= len(env.Tris) || l.Fly < 0 || int(l.Fly) >= len(fly.Tris) {
		t.Fatalf("pose %d: witness triangles %d %d out of range", l.Pose, l.Env, l.Fly)
	}
	a, b := env.Triangle(int(l.Env)), p.ApplyTriangle(fly.Triangle(int(l.Fly)))
	d, pa, pb := geom.TriTriDistance(a, b)
	if d != l.Distance {
		t.Errorf("pose %d: distance %v, triangles %d %d are at %v", l.Pose, l.Distance, l.Env, l.Fly, d)
	}
	if got := (geom.Vec3{X: l.PEnv[0], Y: l.PEnv[1], Z: l.PEnv[2]}); got != pa {
		t.Errorf("pose %d: p_env %v, the triangles' closest point is %v", l.Pose, got, pa)
	}
	if got := (geom.Vec3{X: l.PFly[0], Y: l.PFly[1], Z: l.PFly[2]}); got != pb {
		t.Errorf("pose %d: p_fly %v, the triangles' closest point is %v", l.Pose, got, pb)
	}
	if contact := geom.TriTri(a, b); contact != (l.Distance == 0) {
		t.Errorf("pose %d: distance %v, triangles %d %d in contact: %v", l.Pose, l.Distance, l.Env, l.Fly, contact)
	}
}

// TestDistanceAgrees checks that every bounding volume, auto among them,
// finds the distance --bv brute finds at random poses (exactly: the
// distance of two triangles is the same function), with and without a
// cut-off, and that it is the least distance of any two triangles.
func TestDistanceAgrees(t *testing.T) {
	dir := t.TempDir()
	torus, err := gen.Torus(geom.Vec3{}, 2, 0.5, 200)
	if err != nil {
		t.Fatal(err)
	}
	ball, err := gen.Icosphere(geom.Vec3{}, 0.4, 80)
	if err != nil {
		t.Fatal(err)
	}
	envPath, flyPath := writeOBJ(t, dir, "torus.obj", torus), writeOBJ(t, dir, "ball.obj", ball)
	// The meshes as the CLI reads them.
	if torus, err = mesh.Load(envPath); err != nil {
		t.Fatal(err)
	}
	if ball, err = mesh.Load(flyPath); err != nil {
		t.Fatal(err)
	}

	r := rand.New(rand.NewPCG(17, 3))
	var text strings.Builder
	text.WriteString("# random poses about the torus, then one far away\n")
	var poses []geom.Pose
	for len(poses) < 24 {
		p := randomPose(r, geom.Vec3{}, 2.5)
		if p.Validate() != nil {
			continue
		}
		poses = append(poses, p)
		fmt.Fprintf(&text, "%s\n", formatPose(p))
	}
	poses = append(poses, geom.Translation(geom.V(0, 0, 40)))
	text.WriteString(translation(0, 0, 40) + "\n")
	pf := writeFile(t, dir, "poses.txt", []byte(text.String()))

	distances := func(args ...string) []distanceLine {
		t.Helper()
		args = slices.Concat([]string{"distance", "--json", "--poses", pf}, args, []string{envPath, flyPath})
		stdout, stderr, code := runCLI(t, args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d\n%s", args, code, stderr)
		}
		lines := parseDistanceJSON(t, stdout)
		if len(lines) != len(poses) {
			t.Fatalf("%q: %d lines, want %d", args, len(lines), len(poses))
		}
		return lines
	}

	want := distances("--bv", "brute")
	contacts := 0
	for i, l := range want {
		if l.Far {
			t.Fatalf("brute: pose %d far without a cut-off", i)
		}
		checkWitnesses(t, torus, ball, poses[i], l)
		least := math.Inf(1)
		for j := range ball.Tris {
			b := poses[i].ApplyTriangle(ball.Triangle(j))
			for k := range torus.Tris {
				d, _, _ := geom.TriTriDistance(torus.Triangle(k), b)
				least = min(least, d)
			}
		}
		if l.Distance != least {
			t.Errorf("brute: pose %d: distance %v, the least is %v", i, l.Distance, least)
		}
		if l.Distance == 0 {
			contacts++
		}
	}
	if contacts == 0 || contacts == len(poses) {
		t.Errorf("%d of %d poses in contact: the cross-check needs both", contacts, len(poses))
	}
	// A cut-off that leaves some poses far and others not.
	cut := slices.Sorted(slices.Values(distanceValues(want)))[len(want)*3/4]
	if cut == 0 {
		t.Fatalf("no cut-off between the distances %v", distanceValues(want))
	}
	maxArg := formatFloat(cut)

	var bvs []string
	for _, bv := range collide.BVs() {
		bvs = append(bvs, bv.String())
	}
	for _, bv := range append(bvs, "auto") {
		got := distances("--bv", bv)
		for i, l := range got {
			if l.Far || l.Distance != want[i].Distance {
				t.Errorf("--bv %s: pose %d: distance %v (far %v), brute %v", bv, i, l.Distance, l.Far, want[i].Distance)
				continue
			}
			checkWitnesses(t, torus, ball, poses[i], l)
		}
		cutGot := distances("--bv", bv, "--max", maxArg)
		for i, l := range cutGot {
			switch wantFar := !(want[i].Distance < cut); {
			case l.Far != wantFar:
				t.Errorf("--bv %s --max %s: pose %d: far %v, distance %v", bv, maxArg, i, l.Far, want[i].Distance)
			case l.Far && l.Max != cut:
				t.Errorf("--bv %s --max %s: pose %d: max %v", bv, maxArg, i, l.Max)
			case !l.Far && l.Distance != want[i].Distance:
				t.Errorf("--bv %s --max %s: pose %d: distance %v, brute %v", bv, maxArg, i, l.Distance, want[i].Distance)
			}
		}
	}
}

func distanceValues(lines []distanceLine) []float64 {
	var ds []float64
	for _, l := range lines {
		ds = append(ds, l.Distance)
	}
	return ds
}

// TestDistanceText checks distance's lines and summary without --json.
func TestDistanceText(t *testing.T) {
	dir := t.TempDir()
	box := writeOBJ(t, dir, "box.obj", unitBox(t))
	pf := writeFile(t, dir, "poses.txt", []byte("# apart, touching, overlapping, far\n"+
		translation(3, 0, 0)+"\n"+translation(1, 0, 0)+"\n\n"+translation(0.5, 0.5, 0.5)+"\n"+translation(0, 0, 9)+"\n"))
	stdout, stderr, code := runCLI(t, "distance", "--poses", pf, "--max", "5", box, box)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	wants := []string{
		`^pose 0: distance 2 \(error <= \S+\), triangles \d+ \d+, closest points \(1 \S+ \S+\) \(3 \S+ \S+\) \(bv tests \d+, tri tests \d+, updates \d+, leaf tests \d+, .+\)$`,
		`^pose 1: contact, triangles \d+ \d+ at \(1 \S+ \S+\) \(bv tests \d+, .+\)$`,
		`^pose 2: contact, triangles \d+ \d+ at \(\S+ \S+ \S+\) \(bv tests \d+, .+\)$`,
		`^pose 3: farther than 5 \(bv tests \d+, .+\)$`,
		`^4 poses, 2 in contact, 1 farther than 5; distance least 0, median 0, largest 2; .+ querying$`,
	}
	if len(lines) != len(wants) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(wants), stdout)
	}
	for i, w := range wants {
		if !regexp.MustCompile(w).MatchString(lines[i]) {
			t.Errorf("line %d %q does not match %q", i+1, lines[i], w)
		}
	}

	// One pose: no summary.
	stdout, _, code = runCLI(t, "distance", box, box)
	if code != exitOK || strings.Count(stdout, "\n") != 1 || !strings.HasPrefix(stdout, "pose 0: contact, ") {
		t.Errorf("exit %d, output:\n%s", code, stdout)
	}
}

// TestDistanceErrors checks the errors of distance: usage errors exit 2
// with the usage line, bad files and poses exit 1 naming the file, the
// line or the pose.
func TestDistanceErrors(t *testing.T) {
	dir := t.TempDir()
	a := writeOBJ(t, dir, "a.obj", unitTri())
	poses := writeFile(t, dir, "poses.txt", []byte(identityPose+"\n"))
	usage := []struct {
		name string
		args []string
		want string
	}{
		{"no models", []string{"distance"}, "need 2 models"},
		{"one model", []string{"distance", a}, "need 2 models"},
		{"unknown bv", []string{"distance", "--bv", "nosuch", a, a}, "brute"},
		{"unknown flag", []string{"distance", "--all", a, a}, "--all"},
		{"negative max", []string{"distance", "--max", "-1", a, a}, "--max"},
		{"nan max", []string{"distance", "--max", "NaN", a, a}, "--max"},
		{"inf max", []string{"distance", "--max", "+Inf", a, a}, "--max"},
		{"max not a number", []string{"distance", "--max", "x", a, a}, "--max"},
		{"max hex", []string{"distance", "--max", "0x10", a, a}, "--max"},
		{"pose count", []string{"distance", "--pose", "1 0 0 0 1 0 0 0 1", a, a}, "12 numbers"},
		{"pose not rigid", []string{"distance", "--pose", "2 0 0 0 1 0 0 0 1 0 0 0", a, a}, "--pose"},
		{"pose and poses", []string{"distance", "--pose", identityPose, "--poses", poses, a, a}, "not both"},
		{"empty pose", []string{"distance", "--pose", " ", a, a}, "is empty"},
		{"empty poses", []string{"distance", "--poses", "", a, a}, "is empty"},
		{"unknown kind", []string{"distance", "gen:nosuchkind", a}, "nosuchkind"},
		{"leaf not kdop", []string{"distance", "--leaf", "4", "--bv", "sphere", a, a}, "--leaf applies to the k-DOP hierarchies only"},
	}
	for _, tc := range usage {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, tc.args...)
			if code != exitUsage || stdout != "" {
				t.Fatalf("%q: exit %d, want 2; stdout %q\nstderr: %s", tc.args, code, stdout, stderr)
			}
			if !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "usage: collide distance [flags] ENV FLY") {
				t.Errorf("%q: stderr does not contain %q and the usage:\n%s", tc.args, tc.want, stderr)
			}
		})
	}

	bad := writeFile(t, dir, "bad.obj", []byte("v 0 0 0\nv 1 0 zz\nv 0 1 0\nf 1 2 3\n"))
	empty := writeFile(t, dir, "empty.obj", nil)
	far := writeOBJ(t, dir, "far.obj", &mesh.TriMesh{
		Verts: []geom.Vec3{{X: 0}, {X: 1e308}, {Y: 1}},
		Tris:  [][3]int32{{0, 1, 2}},
	})
	badLine := writeFile(t, dir, "badline.txt", []byte("# poses\n"+identityPose+"\n1 0 0 0 1 0 0 0 1 0 0 x\n"))
	scaled := writeFile(t, dir, "scaled.txt", []byte("\n2 0 0 0 2 0 0 0 2 0 0 0\n"))
	noPoses := writeFile(t, dir, "none.txt", []byte("# nothing\n"))
	beyond := writeFile(t, dir, "beyond.txt", []byte(identityPose+"\n1 0 0 0 1 0 0 0 1 1e308 0 0\n"))
	errs := []struct {
		name string
		args []string
		want string
	}{
		{"bad mesh env", []string{"distance", bad, a}, bad + ": line 2"},
		{"bad mesh fly", []string{"distance", "--json", a, bad}, bad + ": line 2"},
		{"missing mesh", []string{"distance", a, dir + "/missing.obj"}, "missing.obj"},
		{"no triangles", []string{"distance", empty, a}, empty + ": the model has no triangles"},
		{"bad pose line", []string{"distance", "--poses", badLine, a, a}, badLine + ": line 3"},
		{"scaled pose line", []string{"distance", "--poses", scaled, a, a}, scaled + ": line 2"},
		{"no poses", []string{"distance", "--poses", noPoses, a, a}, noPoses + ": no poses"},
		{"missing pose file", []string{"distance", "--poses", dir + "/nofile.txt", a, a}, "nofile.txt"},
		{"pose beyond range", []string{"distance", "--poses", beyond, far, far}, "pose 1 of " + beyond + ": invalid pose: it moves vertex 1"},
		{"pose beyond range brute", []string{"distance", "--bv", "brute", "--pose", "1 0 0 0 1 0 0 0 1 1e308 0 0", far, far}, "pose 0 (--pose): invalid pose"},
	}
	for _, tc := range errs {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, tc.args...)
			if code != exitError || stdout != "" {
				t.Fatalf("%q: exit %d, want 1; stdout %q\nstderr: %s", tc.args, code, stdout, stderr)
			}
			if !strings.Contains(stderr, "collide distance: ") || !strings.Contains(stderr, tc.want) {
				t.Errorf("%q: stderr does not contain %q:\n%s", tc.args, tc.want, stderr)
			}
		})
	}

	// A failing output stops distance with status 1.
	for _, room := range []int{0, 30} {
		var errb strings.Builder
		code := run([]string{"distance", "--json", "--poses", writeFile(t, dir, "many.txt", []byte(strings.Repeat(identityPose+"\n", 5000))), a, a},
			strings.NewReader(""), &failWriter{room}, &errb)
		if code != exitError || !strings.Contains(errb.String(), "writing output: no space left on device") {
			t.Errorf("room %d: exit %d, stderr %q", room, code, errb.String())
		}
	}
}

// TestDistanceHelp checks that help lists distance and describes its flags.
func TestDistanceHelp(t *testing.T) {
	stdout, _, code := runCLI(t, "help")
	if code != exitOK || !strings.Contains(stdout, "collide distance [flags] ENV FLY") {
		t.Errorf("help: exit %d, does not list distance:\n%s", code, stdout)
	}
	for _, args := range [][]string{{"help", "distance"}, {"distance", "-h"}, {"distance", "--help"}} {
		stdout, stderr, code := runCLI(t, args...)
		if code != exitOK {
			t.Errorf("%q: exit %d\n%s", args, code, stderr)
		}
		for _, w := range []string{"usage: collide distance [flags] ENV FLY", "--bv NAME", "brute", "auto", "--pose POSE", "--poses FILE",
			"--max D", "--json", "--rule", "--leaf", `"p_env"`, `"far":true`, "numbered from 0", "witness"} {
			if !strings.Contains(stdout, w) {
				t.Errorf("%q: help does not mention %q:\n%s", args, w, stdout)
			}
		}
	}
}

// TestDistanceProgress checks the progress line of many poses: on stderr
// when it is a terminal and stdout is not, erased at the end.
func TestDistanceProgress(t *testing.T) {
	dir := t.TempDir()
	a := writeOBJ(t, dir, "a.obj", unitTri())
	pf := writeFile(t, dir, "poses.txt", []byte(strings.Repeat(identityPose+"\n", 3)))
	defer func(n int, every time.Duration, term func(io.Writer) bool) {
		distanceProgressMin, progressEvery, isTerminal = n, every, term
	}(distanceProgressMin, progressEvery, isTerminal)
	distanceProgressMin, progressEvery = 3, time.Millisecond
	for _, outTerminal := range []bool{false, true} {
		var out, errb bytes.Buffer
		isTerminal = func(w io.Writer) bool { return w == &errb || (outTerminal && w == &out) }
		if code := run([]string{"distance", "--json", "--poses", pf, a, a}, strings.NewReader(""), &out, &errb); code != exitOK {
			t.Fatalf("exit %d\n%s", code, errb.String())
		}
		if len(parseDistanceJSON(t, out.String())) != 3 {
			t.Errorf("output:\n%s", out.String())
		}
		stderr := errb.String()
		switch {
		case outTerminal && stderr != "":
			t.Errorf("stdout a terminal: progress %q", stderr)
		case !outTerminal && (!strings.HasPrefix(stderr, "\rdistance: pose ") || !strings.Contains(stderr, " of 3, ") ||
			!strings.HasSuffix(stderr, "\r") || strings.Contains(stderr, "\n")):
			t.Errorf("progress output %q", stderr)
		}
	}
}

// TestDistanceDefaultOffAxis checks distance's default trees on two
// smooth surfaces (spheres of 2,000 triangles) offset along directions
// that are none of the axes of an AABB or a k-DOP: a volume whose distance
// is a bound by separating axes prunes little there (18-DOPs, the old
// default, tested 31,341 triangle pairs of 4,000,000 at the first pose,
// AABB trees 211,106), where the default's rectangle swept spheres test
// about a thousand. The distances are those of 18-DOP trees, to the bit
// (the same function over the same closest pair).
func TestDistanceDefaultOffAxis(t *testing.T) {
	dir := t.TempDir()
	sphere := writeOBJ(t, dir, "sphere.obj", mustIcosphere(t, 2000))
	for _, off := range []string{"2.5 2.5 2.5", "1 2 3", "3 0.4 1.3"} {
		pose := "1 0 0 0 1 0 0 0 1 " + off
		run := func(bv ...string) distanceLine {
			args := append(append([]string{"distance", "--json", "--pose", pose}, bv...), sphere, sphere)
			stdout, stderr, code := runCLI(t, args...)
			if code != exitOK {
				t.Fatalf("%q: exit %d\n%s", args, code, stderr)
			}
			return parseDistanceJSON(t, stdout)[0]
		}
		def, dop := run(), run("--bv", "kdop18")
		if def.Distance != dop.Distance || def.Distance <= 0 {
			t.Errorf("offset %s: distance %v by default, %v with 18-DOPs", off, def.Distance, dop.Distance)
		}
		if def.Stats.TriTests > 4000 || def.Stats.BVTests > 8000 {
			t.Errorf("offset %s: the default trees made %d volume and %d triangle tests (18-DOPs: %d and %d)",
				off, def.Stats.BVTests, def.Stats.TriTests, dop.Stats.BVTests, dop.Stats.TriTests)
		}
	}
}

// mustIcosphere returns a unit sphere of about tris triangles.
func mustIcosphere(t *testing.T, tris int) *mesh.TriMesh {
	t.Helper()
	m, err := gen.Icosphere(geom.Vec3{}, 1, tris)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestDistanceDeadline checks --deadline: a deadline long past each
// query's end changes nothing, a tiny one on a large scene stops the
// search, which prints "stopped":true with a lower bound at most the
// distance (and the witnesses at the distance printed), and the text and
// summary say so; a negative one is bad usage.
func TestDistanceDeadline(t *testing.T) {
	pose := translation(7, 7, 7)
	env, fly := "gen:torus:tris=20000", "gen:icosphere:radius=0.4,tris=5120"
	args := []string{"distance", "--json", "--bv", "kdop6", "--pose", pose}
	stdout, stderr, code := runCLI(t, append(args, env, fly)...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var full distanceLine
	if err := json.Unmarshal([]byte(stdout), &full); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = runCLI(t, append(args, "--deadline", "1h", env, fly)...)
	if code != exitOK || strings.Contains(stdout, "stopped") || len(parseDistanceJSON(t, stdout)) != 1 {
		t.Fatalf("--deadline 1h: exit %d\n%s%s", code, stdout, stderr)
	}
	stdout, stderr, code = runCLI(t, append(args, "--deadline", "1ns", env, fly)...)
	if code != exitOK {
		t.Fatalf("--deadline 1ns: exit %d\n%s", code, stderr)
	}
	var raw map[string]json.RawMessage
	var l struct {
		Stopped  bool     `json:"stopped"`
		Lower    float64  `json:"lower"`
		Distance *float64 `json:"distance"`
	}
	if json.Unmarshal([]byte(stdout), &raw) != nil || json.Unmarshal([]byte(stdout), &l) != nil || !l.Stopped {
		t.Fatalf("--deadline 1ns: %s", stdout)
	}
	if l.Lower > full.Distance || l.Distance != nil && *l.Distance < full.Distance {
		t.Errorf("--deadline 1ns: lower %v, distance %v; the distance is %v", l.Lower, l.Distance, full.Distance)
	}
	stdout, _, code = runCLI(t, "distance", "--bv", "kdop6", "--deadline", "1ns", "--pose", pose, env, fly)
	if code != exitOK || !strings.HasPrefix(stdout, "pose 0: stopped at the deadline, distance ") {
		t.Errorf("text: exit %d: %s", code, stdout)
	}
	if _, _, code = runCLI(t, "distance", "--deadline", "-1s", env, fly); code != exitUsage {
		t.Errorf("--deadline -1s: exit %d, want %d", code, exitUsage)
	}
}

// TestDistanceDefaultNote checks that distance says which trees it uses
// by default on stderr, a terminal, when stdout is not, and not with
// --bv; stdout is the same either way.
func TestDistanceDefaultNote(t *testing.T) {
	dir := t.TempDir()
	box := writeOBJ(t, dir, "box.obj", unitBox(t))
	defer func(term func(io.Writer) bool) { isTerminal = term }(isTerminal)
	var out, errb bytes.Buffer
	isTerminal = func(w io.Writer) bool { return w == &errb }
	seconds := regexp.MustCompile(`, [0-9.]+ [µm]?s\)`)
	texts := map[string]string{}
	for _, args := range [][]string{{"distance"}, {"distance", "--bv", "rss"}} {
		out.Reset()
		errb.Reset()
		if code := run(append(args, "--pose", translation(3, 0, 0), box, box), strings.NewReader(""), &out, &errb); code != exitOK {
			t.Fatalf("%q: exit %d\n%s", args, code, errb.String())
		}
		note := strings.Contains(errb.String(), "collide distance: rss trees (the fastest for distance measured; --bv to choose)\n")
		if note != (len(args) == 1) {
			t.Errorf("%q: stderr %q", args, errb.String())
		}
		texts[strings.Join(args, " ")] = seconds.ReplaceAllString(out.String(), "")
	}
	if a, b := texts["distance"], texts["distance --bv rss"]; a != b {
		t.Errorf("stdout differs with the note:\n%s\n%s", a, b)
	}
}
