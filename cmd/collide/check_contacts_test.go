package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// contactsLine is a line of check --contacts --json.
type contactsLine struct {
	Pose      int         `json:"pose"`
	Collide   bool        `json:"collide"`
	Pairs     [][2]int32  `json:"pairs"`
	Truncated bool        `json:"truncated"`
	Contacts  []jsContact `json:"contacts"`
	Patches   []jsPatch   `json:"patches"`
	Stats     jsonStats   `json:"stats"`
	Seconds   *float64    `json:"seconds"`
}

type jsContact struct {
	Pair   [2]int32     `json:"pair"`
	Kind   string       `json:"kind"`
	Points [][3]float64 `json:"points"`
	Normal [3]float64   `json:"normal"`
	Bound  float64      `json:"bound"`
}

type jsPatch struct {
	Contacts []int          `json:"contacts"`
	Pairs    [][2]int32     `json:"pairs"`
	Point    [3]float64     `json:"point"`
	Normal   [3]float64     `json:"normal"`
	Depth    *[2]float64    `json:"depth"`
	Manifold [][3]float64   `json:"manifold"`
	Curves   [][][3]float64 `json:"curves"`
}

func v3(a [3]float64) geom.Vec3 { return geom.Vec3{X: a[0], Y: a[1], Z: a[2]} }

// parseContactLines parses stdout of check --contacts --json, every line
// strictly (no unknown key).
func parseContactLines(t *testing.T, stdout string) []contactsLine {
	t.Helper()
	var lines []contactsLine
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l contactsLine
		d := json.NewDecoder(strings.NewReader(sc.Text()))
		d.DisallowUnknownFields()
		if err := d.Decode(&l); err != nil {
			t.Fatalf("a line that is not check --contacts JSON: %v: %.200q", err, sc.Text())
		}
		for _, key := range []string{`"contacts":`, `"patches":`, `"seconds":`} {
			if !strings.Contains(sc.Text(), key) {
				t.Errorf("line %d has no %s: %.200q", len(lines), key, sc.Text())
			}
		}
		lines = append(lines, l)
	}
	return lines
}

// checkContactLine checks the invariants of one pose's line: contacts in
// the order of pairs, their kinds, every point within its bound of both
// triangles (env as given, fly at pose, as the query moves it), unit
// normals, and patches that cover every contact exactly once, naming
// their pairs. eps is the query's tolerance.
func checkContactLine(t *testing.T, l *contactsLine, env, fly *mesh.TriMesh, pose geom.Pose, eps float64) {
	t.Helper()
	if l.Collide != (len(l.Pairs) > 0) {
		t.Errorf("pose %d: collide %v with %d pairs", l.Pose, l.Collide, len(l.Pairs))
	}
	if len(l.Contacts) != len(l.Pairs) {
		t.Fatalf("pose %d: %d contacts for %d pairs", l.Pose, len(l.Contacts), len(l.Pairs))
	}
	for i := range l.Contacts {
		c := &l.Contacts[i]
		if c.Pair != l.Pairs[i] {
			t.Errorf("pose %d: contact %d is of pair %v, pair %d is %v", l.Pose, i, c.Pair, i, l.Pairs[i])
		}
		a, b := env.Triangle(int(c.Pair[0])), pose.ApplyTriangle(fly.Triangle(int(c.Pair[1])))
		switch c.Kind {
		case "touch", "cross":
			if n := len(c.Points); n < 1 || n > 6 {
				t.Errorf("pose %d: contact %d (%s) has %d points", l.Pose, i, c.Kind, n)
			}
			for k, p := range c.Points {
				for j, tri := range []geom.Triangle{a, b} {
					q := v3(p)
					if d := q.Distance(geom.ClosestPointTriangle(q, tri)); d > c.Bound+1e-15*(1+q.Norm()) {
						t.Errorf("pose %d: contact %d (pair %v, %s): point %d %v is %g from triangle %d, bound %g", l.Pose, i, c.Pair, c.Kind, k, p, d, j, c.Bound)
					}
				}
			}
		case "apart":
			if eps == 0 {
				t.Errorf("pose %d: contact %d (pair %v) is apart at tolerance 0", l.Pose, i, c.Pair)
			}
			if len(c.Points) != 2 {
				t.Errorf("pose %d: apart contact %d has %d points, want its 2 closest points", l.Pose, i, len(c.Points))
				continue
			}
			d, _, _ := geom.TriTriDistance(a, b)
			if got := v3(c.Points[0]).Distance(v3(c.Points[1])); math.Abs(got-d) > 1e-9*(1+d) || got > eps*(1+1e-9) {
				t.Errorf("pose %d: apart contact %d's points are %g apart, the triangles %g (eps %g)", l.Pose, i, got, d, eps)
			}
		default:
			t.Errorf("pose %d: contact %d has kind %q", l.Pose, i, c.Kind)
		}
		if n := v3(c.Normal).Norm(); math.Abs(n-1) > 1e-12 {
			t.Errorf("pose %d: contact %d's normal %v has length %v", l.Pose, i, c.Normal, n)
		}
	}
	seen := make([]int, len(l.Contacts))
	for j, p := range l.Patches {
		if len(p.Contacts) == 0 || len(p.Pairs) != len(p.Contacts) {
			t.Errorf("pose %d: patch %d has %d contacts and %d pairs", l.Pose, j, len(p.Contacts), len(p.Pairs))
		}
		for k, c := range p.Contacts {
			if c < 0 || c >= len(l.Contacts) {
				t.Errorf("pose %d: patch %d names contact %d of %d", l.Pose, j, c, len(l.Contacts))
				continue
			}
			seen[c]++
			if k < len(p.Pairs) && p.Pairs[k] != l.Contacts[c].Pair {
				t.Errorf("pose %d: patch %d's pair %d is %v, its contact %d's %v", l.Pose, j, k, p.Pairs[k], c, l.Contacts[c].Pair)
			}
		}
		if n := v3(p.Normal).Norm(); math.Abs(n-1) > 1e-12 {
			t.Errorf("pose %d: patch %d's normal %v has length %v", l.Pose, j, p.Normal, n)
		}
		if len(p.Manifold) > 4 {
			t.Errorf("pose %d: patch %d's manifold has %d points", l.Pose, j, len(p.Manifold))
		}
		if p.Depth != nil && !(p.Depth[0] <= p.Depth[1]) {
			t.Errorf("pose %d: patch %d's depth %v is not an interval", l.Pose, j, *p.Depth)
		}
	}
	for c, n := range seen {
		if n != 1 {
			t.Errorf("pose %d: contact %d is in %d patches, want 1", l.Pose, c, n)
		}
	}
}

// poseLine writes p as a line of a pose file, every number read back
// exactly.
func poseLine(p geom.Pose) string {
	a := p.Array()
	s := make([]string, len(a))
	for i, x := range a {
		s[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strings.Join(s, " ")
}

// TestCheckContactsRandom checks the contacts of a sphere against a torus
// at seeded random poses, in both modes and with a tolerance.
func TestCheckContactsRandom(t *testing.T) {
	dir := t.TempDir()
	env := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 400))
	fly := gen.Must(gen.Icosphere(geom.Vec3{}, 0.35, 200))
	envFile, flyFile := writeOBJ(t, dir, "torus.obj", env), writeOBJ(t, dir, "ball.obj", fly)
	rng := rand.New(rand.NewPCG(32, 5))
	var poses []geom.Pose
	var text strings.Builder
	for range 12 {
		axis := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		r := 1 + 0.3*(2*rng.Float64()-1) // around the torus's core circle
		a := 2 * math.Pi * rng.Float64()
		p := geom.FromAxisAngle(axis, 2*math.Pi*rng.Float64(), geom.Vec3{X: r * math.Cos(a), Y: r * math.Sin(a), Z: 0.4 * (2*rng.Float64() - 1)})
		poses = append(poses, p)
		text.WriteString(poseLine(p) + "\n")
	}
	posesFile := writeFile(t, dir, "poses.txt", []byte(text.String()))
	contacts := 0
	for _, c := range []struct {
		args []string
		eps  float64
	}{
		{[]string{"--all"}, 0},
		{nil, 0},
		{[]string{"--all", "--eps", "0.02"}, 0.02},
		{[]string{"--all", "--bv", "brute"}, 0},
	} {
		args := append([]string{"check", "--contacts", "--json", "--poses", posesFile}, c.args...)
		stdout, stderr, code := runCLI(t, append(args, envFile, flyFile)...)
		if code != exitOK {
			t.Fatalf("collide %q: exit %d: %s", args, code, stderr)
		}
		lines := parseContactLines(t, stdout)
		if len(lines) != len(poses) {
			t.Fatalf("collide %q: %d lines for %d poses", args, len(lines), len(poses))
		}
		for i := range lines {
			checkContactLine(t, &lines[i], env, fly, poses[i], c.eps)
			contacts += len(lines[i].Contacts)
			if c.args == nil && len(lines[i].Pairs) > 1 {
				t.Errorf("pose %d: %d pairs without --all", i, len(lines[i].Pairs))
			}
		}
		// The pairs are those of check without --contacts.
		plain, _, _ := runCLI(t, append(slices.DeleteFunc(slices.Clone(args), func(s string) bool { return s == "--contacts" }), envFile, flyFile)...)
		for i, l := range parseContactLinesLoose(t, plain) {
			if !slices.Equal(l.Pairs, lines[i].Pairs) && !(c.args == nil && len(l.Pairs) == len(lines[i].Pairs)) {
				t.Errorf("collide %q: pose %d: pairs %v, without --contacts %v", args, i, lines[i].Pairs, l.Pairs)
			}
		}
	}
	if contacts == 0 {
		t.Error("no pose is in contact: the test tests nothing")
	}
}

// parseContactLinesLoose parses check --json lines (no contacts).
func parseContactLinesLoose(t *testing.T, stdout string) []contactsLine {
	t.Helper()
	var lines []contactsLine
	for line := range strings.SplitSeq(strings.TrimSpace(stdout), "\n") {
		var l contactsLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("not JSON: %v: %.200q", err, line)
		}
		lines = append(lines, l)
	}
	return lines
}

// TestCheckContactsCubes: a cube resting on a larger one, its bottom face
// inside the other's top face: every contact a touch with a normal that
// points up, the coplanar overlaps' polygons in the plane z = 1 and with
// normal +z exactly, and the bottom face's corners among the points.
func TestCheckContactsCubes(t *testing.T) {
	dir := t.TempDir()
	env := gen.Must(gen.Box(geom.AABB{Min: geom.Vec3{}, Max: geom.Vec3{X: 1, Y: 1, Z: 1}}, 1))
	fly := gen.Must(gen.Box(geom.AABB{Min: geom.Vec3{X: 0.25, Y: 0.25, Z: 1}, Max: geom.Vec3{X: 0.75, Y: 0.75, Z: 1.5}}, 1))
	envFile, flyFile := writeOBJ(t, dir, "env.obj", env), writeOBJ(t, dir, "fly.obj", fly)
	stdout, stderr, code := runCLI(t, "check", "--contacts", "--all", "--json", envFile, flyFile)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := parseContactLines(t, stdout)
	if len(lines) != 1 || len(lines[0].Contacts) == 0 {
		t.Fatalf("want one line with contacts, got %s", stdout)
	}
	l := &lines[0]
	checkContactLine(t, l, env, fly, geom.Identity(), 0)
	corners := map[[3]float64]bool{}
	polygons := 0
	for i, c := range l.Contacts {
		if c.Kind != "touch" {
			t.Errorf("contact %d (pair %v) is %s, want touch", i, c.Pair, c.Kind)
		}
		if c.Normal[2] <= 0 {
			t.Errorf("contact %d (pair %v): normal %v does not point from the lower cube to the upper", i, c.Pair, c.Normal)
		}
		for _, p := range c.Points {
			if p[2] != 1 && math.Abs(p[2]-1) > c.Bound {
				t.Errorf("contact %d (pair %v): point %v off the plane z = 1 by more than %g", i, c.Pair, p, c.Bound)
			}
			corners[p] = true
		}
		if len(c.Points) >= 3 {
			polygons++
			if c.Normal != [3]float64{0, 0, 1} {
				t.Errorf("contact %d (pair %v), a coplanar overlap: normal %v, want (0 0 1)", i, c.Pair, c.Normal)
			}
		}
	}
	if polygons == 0 {
		t.Error("no coplanar overlap among the contacts")
	}
	for _, q := range [][3]float64{{0.25, 0.25, 1}, {0.75, 0.25, 1}, {0.25, 0.75, 1}, {0.75, 0.75, 1}} {
		if !corners[q] {
			t.Errorf("the corner %v of the resting face is no contact's point", q)
		}
	}
	for j, p := range l.Patches {
		if p.Normal[2] <= 0 {
			t.Errorf("patch %d: normal %v does not point up", j, p.Normal)
		}
		if p.Depth != nil {
			t.Errorf("patch %d has a depth %v without --depth", j, *p.Depth)
		}
	}

	// The text names every pair, and says touch.
	text, stderr, code := runCLI(t, "check", "--contacts", "--all", envFile, flyFile)
	if code != exitOK {
		t.Fatalf("text: exit %d: %s", code, stderr)
	}
	for _, pr := range l.Pairs {
		if want := fmt.Sprintf("pair %d %d, touch,", pr[0], pr[1]); !strings.Contains(text, want) {
			t.Errorf("the text does not say %q:\n%s", want, text)
		}
	}
	if !strings.Contains(text, "patch 0:") {
		t.Errorf("the text lists no patch:\n%s", text)
	}
}

// TestCheckContactsTetrahedra: a tetrahedron whose apex pokes through the
// bottom face of another crosses it in three segments, one on each of its
// sides, which close a loop in z = 0 around the apex: one patch.
func TestCheckContactsTetrahedra(t *testing.T) {
	dir := t.TempDir()
	tetra := func(v ...geom.Vec3) *mesh.TriMesh {
		return &mesh.TriMesh{Verts: v, Tris: [][3]int32{{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {2, 0, 3}}}
	}
	env := tetra(geom.Vec3{}, geom.Vec3{X: 1}, geom.Vec3{Y: 1}, geom.Vec3{Z: 1})
	fly := tetra(geom.Vec3{X: 0.1, Y: 0.1, Z: 0.1}, geom.Vec3{X: 0.1, Y: 0.4, Z: 0.1}, geom.Vec3{X: 0.4, Y: 0.1, Z: 0.1}, geom.Vec3{X: 0.2, Y: 0.2, Z: -0.1})
	envFile, flyFile := writeOBJ(t, dir, "env.obj", env), writeOBJ(t, dir, "fly.obj", fly)
	stdout, stderr, code := runCLI(t, "check", "--contacts", "--all", "--json", envFile, flyFile)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := parseContactLines(t, stdout)
	if len(lines) != 1 {
		t.Fatalf("want one line, got %s", stdout)
	}
	l := &lines[0]
	checkContactLine(t, l, env, fly, geom.Identity(), 0)
	if want := [][2]int32{{0, 1}, {0, 2}, {0, 3}}; !slices.Equal(l.Pairs, want) {
		t.Fatalf("pairs %v, want %v (the bottom face against the three sides)", l.Pairs, want)
	}
	ends := []geom.Vec3{{X: 0.15, Y: 0.15}, {X: 0.3, Y: 0.15}, {X: 0.15, Y: 0.3}} // where the sides' edges pass z = 0
	for i, c := range l.Contacts {
		if c.Kind != "cross" || len(c.Points) != 2 {
			t.Errorf("contact %d (pair %v): %s with %d points, want a crossing segment", i, c.Pair, c.Kind, len(c.Points))
			continue
		}
		for _, p := range c.Points {
			near := false
			for _, e := range ends {
				near = near || v3(p).Distance(e) <= c.Bound+1e-15
			}
			if !near {
				t.Errorf("contact %d (pair %v): endpoint %v is none of %v", i, c.Pair, p, ends)
			}
		}
	}
	if len(l.Patches) != 1 {
		t.Fatalf("%d patches, want 1: %+v", len(l.Patches), l.Patches)
	}
	p := l.Patches[0]
	if len(p.Curves) != 1 || len(p.Curves[0]) != 4 || p.Curves[0][0] != p.Curves[0][3] {
		t.Errorf("the patch's curves %v, want one closed loop of 3 segments", p.Curves)
	}
	// Bottom face's normal by its winding (0, 2, 1) is -z: from env
	// towards fly for a crossing is env's normal (geom.TriContact).
	for i, c := range l.Contacts {
		if v3(c.Normal).Distance(geom.Vec3{Z: -1}) > 1e-12 {
			t.Errorf("contact %d: normal %v, want the bottom face's (0 0 -1)", i, c.Normal)
		}
	}
}

// TestContactsJSONForm checks the printers on a result made by hand: the
// JSON parses with every key, numbers read back exactly, a patch's pairs
// are its contacts', and the text names each pair and patch.
func TestContactsJSONForm(t *testing.T) {
	third := 1.0 / 3
	r := collide.Result{
		Collide: true, Truncated: true,
		Pairs: []collide.Pair{{Env: 1, Fly: 2}, {Env: 3, Fly: 4}},
		Contacts: []collide.Contact{
			{Pair: collide.Pair{Env: 1, Fly: 2}, Kind: geom.Cross, Points: []geom.Vec3{{X: third}, {Y: 1e-300}}, Normal: geom.Vec3{Z: 1}, Bound: 0x1p-52},
			{Pair: collide.Pair{Env: 3, Fly: 4}, Kind: geom.Touch, Points: []geom.Vec3{{X: 1}, {X: 2}, {Y: 3}}, Normal: geom.Vec3{X: -1}, Bound: 0},
		},
		Patches: []collide.Patch{
			{Contacts: []int{1}, Point: geom.Vec3{X: 1}, Normal: geom.Vec3{X: -1}, Depth: [2]float64{0.5, 0.75}, DepthKnown: true,
				Manifold: []geom.Vec3{{X: 1}}, Curves: [][]geom.Vec3{{{X: 1}, {X: 2}, {Y: 3}, {X: 1}}}},
			{Contacts: []int{0}, Point: geom.Vec3{X: third}, Normal: geom.Vec3{Z: 1}},
		},
	}
	b := appendContactsJSON(nil, 7, &r, 1500*time.Microsecond)
	lines := parseContactLines(t, string(b))
	if len(lines) != 1 {
		t.Fatalf("%d lines: %s", len(lines), b)
	}
	l := lines[0]
	if l.Pose != 7 || !l.Truncated || len(l.Contacts) != 2 || len(l.Patches) != 2 {
		t.Fatalf("line %+v", l)
	}
	if got := l.Contacts[0].Points[0][0]; got != third {
		t.Errorf("1/3 read back as %v", got)
	}
	if got := l.Contacts[0].Points[1][1]; got != 1e-300 {
		t.Errorf("1e-300 read back as %v", got)
	}
	if l.Contacts[0].Kind != "cross" || l.Contacts[1].Kind != "touch" || l.Contacts[0].Bound != 0x1p-52 {
		t.Errorf("contacts %+v", l.Contacts)
	}
	if p := l.Patches[0]; p.Depth == nil || *p.Depth != [2]float64{0.5, 0.75} || p.Pairs[0] != [2]int32{3, 4} || len(p.Curves[0]) != 4 {
		t.Errorf("patch 0 %+v", p)
	}
	if p := l.Patches[1]; p.Depth != nil || p.Manifold == nil || p.Curves == nil {
		t.Errorf("patch 1 %+v: want depth null, manifold and curves []", p)
	}
	if !strings.Contains(string(b), `"depth":null`) {
		t.Errorf("no depth null: %s", b)
	}
	text := string(appendContactsText(nil, 7, &r, true, time.Millisecond))
	for _, want := range []string{"pose 7: collide, 2 pairs, stopped at --max-pairs, 2 patches", "contact 0: pair 1 2, cross, segment", "contact 1: pair 3 4, touch, polygon",
		"patch 0: contact 1,", "depth in [0.5, 0.75]", "patch 1: contact 0,", "depth unknown"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text does not say %q:\n%s", want, text)
		}
	}
}

// TestCheckContactsUsage: --contacts does not go with --ccd, --depth needs
// --contacts.
func TestCheckContactsUsage(t *testing.T) {
	dir := t.TempDir()
	a := writeOBJ(t, dir, "a.obj", unitTri())
	poses := writeFile(t, dir, "poses.txt", []byte(identityPose+"\n"+identityPose+"\n"))
	for _, args := range [][]string{
		{"check", "--contacts", "--ccd", "--poses", poses, a, a},
		{"check", "--depth", a, a},
	} {
		if _, stderr, code := runCLI(t, args...); code != exitUsage {
			t.Errorf("collide %q: exit %d, want %d: %s", args, code, exitUsage, stderr)
		}
	}
}

// TestCheckContactsAdversarial checks check --contacts on single triangles
// meeting as exactly as floats allow: at a vertex, along an edge, in a
// coplanar overlap, a segment (a degenerate triangle) through a face, one
// ulp apart, and all of these far from the origin: the kind, the number
// of points, and every point within its bound of both triangles.
func TestCheckContactsAdversarial(t *testing.T) {
	tri := func(a, b, c geom.Vec3) *mesh.TriMesh {
		return &mesh.TriMesh{Verts: []geom.Vec3{a, b, c}, Tris: [][3]int32{{0, 1, 2}}}
	}
	base := tri(geom.Vec3{}, geom.Vec3{X: 1}, geom.Vec3{Y: 1})
	up := math.Nextafter(0, 1) // one ulp above 0
	for _, c := range []struct {
		name    string
		fly     *mesh.TriMesh
		kind    string // "" for no contact
		points  int
		polygon bool // at least 3 points
	}{
		{"vertex on face", tri(geom.Vec3{X: 0.25, Y: 0.25}, geom.Vec3{X: 0.25, Y: 0.25, Z: 1}, geom.Vec3{X: 0.5, Y: 0.25, Z: 1}), "touch", 1, false},
		{"vertex one ulp above", tri(geom.Vec3{X: 0.25, Y: 0.25, Z: up}, geom.Vec3{X: 0.25, Y: 0.25, Z: 1}, geom.Vec3{X: 0.5, Y: 0.25, Z: 1}), "", 0, false},
		{"edge on face", tri(geom.Vec3{X: 0.25, Y: 0.25}, geom.Vec3{X: 0.5, Y: 0.25}, geom.Vec3{X: 0.3, Y: 0.3, Z: 1}), "touch", 2, false},
		{"crossing", tri(geom.Vec3{X: 0.25, Y: 0.25, Z: -1}, geom.Vec3{X: 0.25, Y: 0.25, Z: 1}, geom.Vec3{X: 0.5, Y: 0.25, Z: 1}), "cross", 2, false},
		{"coplanar overlap", tri(geom.Vec3{X: 0.5, Y: -0.5}, geom.Vec3{X: 0.5, Y: 1}, geom.Vec3{X: -0.5, Y: 0.5}), "touch", 0, true},
		{"segment through face", tri(geom.Vec3{X: 0.2, Y: 0.2, Z: -1}, geom.Vec3{X: 0.2, Y: 0.2, Z: 1}, geom.Vec3{X: 0.2, Y: 0.2, Z: 1}), "", 1, false},
	} {
		for _, far := range []float64{0, 1 << 30} {
			t.Run(fmt.Sprintf("%s at %g", c.name, far), func(t *testing.T) {
				dir := t.TempDir()
				move := geom.Translation(geom.Vec3{X: far, Y: -far, Z: far})
				env, fly := base.Transform(move), c.fly.Transform(move)
				if c.name == "vertex one ulp above" && far != 0 {
					// One ulp of the far coordinate above the plane.
					fly.Verts[0].Z = math.Nextafter(far, math.Inf(1))
				}
				envFile, flyFile := writeOBJ(t, dir, "env.obj", env), writeOBJ(t, dir, "fly.obj", fly)
				stdout, stderr, code := runCLI(t, "check", "--contacts", "--all", "--json", envFile, flyFile)
				if code != exitOK {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				lines := parseContactLines(t, stdout)
				if len(lines) != 1 {
					t.Fatalf("%d lines", len(lines))
				}
				l := &lines[0]
				checkContactLine(t, l, env, fly, geom.Identity(), 0)
				if c.kind == "" && c.points == 0 {
					if l.Collide || len(l.Contacts) != 0 || len(l.Patches) != 0 {
						t.Errorf("apart by an ulp: %s", stdout)
					}
					return
				}
				if len(l.Contacts) != 1 || len(l.Patches) != 1 {
					t.Fatalf("want one contact in one patch: %s", stdout)
				}
				k := l.Contacts[0]
				if c.kind != "" && k.Kind != c.kind {
					t.Errorf("kind %s, want %s", k.Kind, c.kind)
				}
				if c.polygon && len(k.Points) < 3 || !c.polygon && len(k.Points) != c.points {
					t.Errorf("%d points %v", len(k.Points), k.Points)
				}
			})
		}
	}
}

// TestCheckContactsDepth: with --depth the tetrahedron poking 0.1 through
// the other's bottom face gets a depth interval along the patch's normal
// (-z) that holds 0.1, the translation down after which their interiors
// are disjoint; without --depth it is null (TestCheckContactsCubes).
func TestCheckContactsDepth(t *testing.T) {
	dir := t.TempDir()
	tetra := func(v ...geom.Vec3) *mesh.TriMesh {
		return &mesh.TriMesh{Verts: v, Tris: [][3]int32{{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {2, 0, 3}}}
	}
	env := tetra(geom.Vec3{}, geom.Vec3{X: 1}, geom.Vec3{Y: 1}, geom.Vec3{Z: 1})
	fly := tetra(geom.Vec3{X: 0.1, Y: 0.1, Z: 0.1}, geom.Vec3{X: 0.1, Y: 0.4, Z: 0.1}, geom.Vec3{X: 0.4, Y: 0.1, Z: 0.1}, geom.Vec3{X: 0.2, Y: 0.2, Z: -0.1})
	envFile, flyFile := writeOBJ(t, dir, "env.obj", env), writeOBJ(t, dir, "fly.obj", fly)
	stdout, stderr, code := runCLI(t, "check", "--contacts", "--depth", "--all", "--json", envFile, flyFile)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := parseContactLines(t, stdout)
	if len(lines) != 1 || len(lines[0].Patches) != 1 {
		t.Fatalf("want one line with one patch: %s", stdout)
	}
	p := lines[0].Patches[0]
	if p.Depth == nil {
		t.Fatalf("no depth with --depth: %s", stdout)
	}
	if lo, hi := p.Depth[0], p.Depth[1]; !(lo <= 0.1+1e-12 && 0.1-1e-12 <= hi && hi-lo < 1e-6) {
		t.Errorf("depth [%v, %v] along %v, want an interval around 0.1", lo, hi, p.Normal)
	}
	text, _, _ := runCLI(t, "check", "--contacts", "--depth", envFile, flyFile)
	if !strings.Contains(text, "depth in [") {
		t.Errorf("the text gives no depth:\n%s", text)
	}
}
