package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// rangePoseLine formats p as a line of a pose file.
func rangePoseLine(p geom.Pose) string {
	var b strings.Builder
	for i := range 3 {
		for j := range 3 {
			fmt.Fprintf(&b, "%v ", p.R[i][j])
		}
	}
	fmt.Fprintf(&b, "%v %v %v\n", p.T.X, p.T.Y, p.T.Z)
	return b.String()
}

// TestFlightFloat32Range is the flight: two identical triangles
// near 2^127, the flying one starting turned far out of float32's range
// of the environment's frame, then touching at two poses and lifted off. check, check
// --bv brute and flight --front off say so; flight with its front (on by
// default) said "0 in contact" while a flying k-DOP above float32's range
// was stored with +Inf as its lower bound.
func TestFlightFloat32Range(t *testing.T) {
	dir := t.TempDir()
	a, d := 0x1p127, 0x1p120
	o := geom.V(a, a, a)
	tri := writeOBJ(t, dir, "tri.obj", &mesh.TriMesh{Verts: []geom.Vec3{o, o.Add(geom.V(d, 0, 0)), o.Add(geom.V(0, d, 0))}, Tris: [][3]int32{{0, 1, 2}}})
	far := geom.FromAxisAngle(geom.V(0, 0, 1), 0.1, geom.V(-0x1p129, 0, 0))
	// The last pose lifts the triangle off its plane: no contact.
	poses := rangePoseLine(far) + rangePoseLine(geom.Identity()) + rangePoseLine(geom.Translation(geom.V(d/4, d/4, 0))) + rangePoseLine(geom.Translation(geom.V(0, 0, d/1024)))
	path := writeFile(t, dir, "poses.txt", []byte(poses))
	for _, args := range [][]string{
		{"check", "--poses", path, tri, tri},
		{"check", "--bv", "brute", "--poses", path, tri, tri},
	} {
		stdout, stderr, code := runCLI(t, args...)
		if code != exitOK || !strings.Contains(stdout, "4 poses, 2 in contact") {
			t.Fatalf("%q: exit %d:\n%s%s", args, code, stdout, stderr)
		}
	}
	for _, bvName := range []string{"kdop6", "kdop8", "kdop12", "kdop14", "kdop18", "kdop20", "kdop26", "obb", "sphere", "aabb", "rss", "boxtree"} {
		for _, front := range []string{"auto", "on", "off"} {
			for _, all := range []bool{false, true} {
				args := []string{"flight", "--env", tri, "--fly", tri, "--poses", path, "--bv", bvName, "--front", front}
				if all {
					args = append(args, "--all")
				}
				stdout, stderr, code := runCLI(t, args...)
				if code != exitOK || !strings.Contains(stdout, "4, 2 in contact, 2 contact pairs") {
					t.Fatalf("%q: exit %d:\n%s%s", args, code, stdout, stderr)
				}
			}
		}
	}
}

// TestWorldFloat32Range is the world: two boxes of 300 triangles
// spanning [0, 2^128]³ (so that the world keeps a k-DOP front for their
// pair), one static, the other replayed from far out of float32's range
// through it; every step's triangle pairs (--all) must be those of --bv
// brute, with every broad phase. The front found 12 of brute force's 120
// in the scene.
func TestWorldFloat32Range(t *testing.T) {
	dir := t.TempDir()
	const size = 0x1p128
	c := geom.V(size/2, size/2, size/2)
	var poses strings.Builder
	axis := geom.V(0.3, -0.5, 0.8)
	for i := range 6 {
		u := 0.9 - 0.35*float64(i)
		if i == 0 {
			u = 2
		}
		p := geom.FromAxisAngle(axis, 0.15*float64(i), geom.V(u*size, 0.3*u*size, 0))
		p.T = p.T.Add(c).Sub(p.R.MulVec(c))
		poses.WriteString(rangePoseLine(p))
	}
	writeFile(t, dir, "path.txt", []byte(poses.String()))
	scene := func(bv string) string {
		return writeFile(t, dir, bv+".json", []byte(fmt.Sprintf(`{"steps": 6, "bv": %q,
 "models": [{"name": "box", "mesh": "gen:box:n=5,minx=0,miny=0,minz=0,maxx=%[2]v,maxy=%[2]v,maxz=%[2]v"}],
 "objects": [{"name": "a", "model": "box", "static": true},
  {"name": "b", "model": "box", "motion": {"type": "poses", "file": "path.txt"}}]}`, bv, size)))
	}
	// steps returns each step's contacts, as JSON.
	steps := func(args ...string) []string {
		stdout, stderr, code := runCLI(t, append([]string{"world", "--all", "--json"}, args...)...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		var out []string
		sc := bufio.NewScanner(strings.NewReader(stdout))
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var line struct {
				Step     *int            `json:"step"`
				Contacts json.RawMessage `json:"contacts"`
			}
			if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
				t.Fatal(err)
			}
			if line.Step != nil {
				out = append(out, string(line.Contacts))
			}
		}
		return out
	}
	want := steps(scene("brute"))
	pairs := regexp.MustCompile(`\[\d+,\d+\]`)
	if len(want) != 6 || len(pairs.FindAllString(strings.Join(want, ""), -1)) == 0 {
		t.Fatalf("brute force: %d steps, no contact: a weak test", len(want))
	}
	for _, bvName := range []string{"kdop18", "kdop6", "kdop8", "kdop12", "kdop14", "kdop20", "kdop26", "obb", "sphere", "aabb", "rss", "boxtree"} {
		broads := []string{"grid"}
		if bvName == "kdop18" {
			broads = []string{"brute", "dbvt", "dopsap", "grid", "octree", "rgrid", "sap"}
		}
		for _, b := range broads {
			got := steps(scene(bvName), "--broad", b)
			for i := range want {
				if i >= len(got) || got[i] != want[i] {
					g := ""
					if i < len(got) {
						g = got[i]
					}
					t.Fatalf("%s --broad %s step %d: %d triangle pairs, brute force %d", bvName, b, i+1, len(pairs.FindAllString(g, -1)), len(pairs.FindAllString(want[i], -1)))
				}
			}
		}
	}
}
