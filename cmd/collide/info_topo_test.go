package main

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// TestInfoTopology checks the flags and offenders info prints, in text and
// JSON, for a closed box, a box with a hole, one with a flipped triangle, a
// torus, and the box as a soup of triangles (whose vertices must be welded).
func TestInfoTopology(t *testing.T) {
	dir := t.TempDir()
	box := &mesh.TriMesh{
		Verts: []geom.Vec3{{X: 0, Y: 0, Z: 0}, {X: 1, Y: 0, Z: 0}, {X: 1, Y: 1, Z: 0}, {X: 0, Y: 1, Z: 0},
			{X: 0, Y: 0, Z: 1}, {X: 1, Y: 0, Z: 1}, {X: 1, Y: 1, Z: 1}, {X: 0, Y: 1, Z: 1}},
		Tris: [][3]int32{{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
			{1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}},
	}
	closed := writeOBJ(t, dir, "box.obj", box)
	holed := writeOBJ(t, dir, "hole.obj", &mesh.TriMesh{Verts: box.Verts, Tris: box.Tris[:11]})
	flip := append([][3]int32(nil), box.Tris...)
	flip[3] = [3]int32{4, 7, 6}
	flipped := writeOBJ(t, dir, "flip.obj", &mesh.TriMesh{Verts: box.Verts, Tris: flip})
	// The box as a soup, three vertices a triangle, as STL files are.
	soupMesh := &mesh.TriMesh{}
	for _, tr := range box.Tris {
		n := int32(len(soupMesh.Verts))
		for _, v := range tr {
			soupMesh.Verts = append(soupMesh.Verts, box.Verts[v])
		}
		soupMesh.Tris = append(soupMesh.Tris, [3]int32{n, n + 1, n + 2})
	}
	soup := writeOBJ(t, dir, "soup.obj", soupMesh)

	got := infoJSON(t, closed, holed, flipped, "gen:torus:tris=200", soup)
	flags := func(g jsonInfoLine) [5]bool { return [5]bool{g.Manifold, g.Closed, g.Oriented, g.Outward, g.Convex} }
	for i, w := range [][5]bool{
		{true, true, true, true, true},
		{true, false, true, false, false},
		{true, true, false, false, false},
		{true, true, true, true, false},
		{true, true, true, true, true},
	} {
		if flags(got[i]) != w {
			t.Errorf("%s: flags %v, want %v", got[i].File, flags(got[i]), w)
		}
	}
	if tp := got[0].Topology; tp.Vertices != 8 || tp.Edges != 18 || tp.Faces != 12 || tp.Euler != 2 || *tp.Genus != 0 || tp.VolumeSign != 1 || tp.NotConvex != nil {
		t.Errorf("box: %+v", tp)
	}
	if tp := got[1].Topology; tp.Boundary.Count != 3 || len(tp.Boundary.First) != 3 || tp.Genus != nil {
		t.Errorf("hole: %+v", tp)
	} else {
		// The edges of the missing triangle (3, 4, 7), each named by the
		// triangle across it.
		for _, e := range tp.Boundary.First {
			if a, b := min(e.V[0], e.V[1]), max(e.V[0], e.V[1]); !(a == 3 && b == 4 || a == 4 && b == 7 || a == 3 && b == 7) || e.Tri == 11 {
				t.Errorf("hole: boundary edge %+v", e)
			}
		}
	}
	if tp := got[2].Topology; tp.Flipped.Count != 1 || tp.Flipped.First[0] != 3 || tp.Misoriented.Count != 3 {
		t.Errorf("flipped: %+v", tp)
	}
	if tp := got[3].Topology; *tp.Genus != 1 || tp.NotConvex == nil || tp.NotConvex.Reason != "genus" {
		t.Errorf("torus: %+v", tp)
	}
	if tp := got[4].Topology; tp.Welded != 36-8 || tp.Vertices != 8 || tp.Edges != 18 {
		t.Errorf("soup: %+v", tp)
	}

	stdout, stderr, code := runCLI(t, "info", closed, holed, flipped)
	if code != exitOK {
		t.Fatalf("info: exit %d: %s", code, stderr)
	}
	for _, w := range []string{
		"  topology    manifold yes, closed yes, oriented yes, outward yes, convex yes\n  welded      8 vertices (0 merged), 18 edges, 12 faces, 1 component, Euler characteristic 2, genus 0\n",
		"  topology    manifold yes, closed no, oriented yes, outward no, convex no\n",
		"  closed      no: 3 boundary edges: ",
		"  oriented    no: 3 edges used twice one way: ",
		"; 1 flipped triangle: 3\n",
	} {
		if !strings.Contains(stdout, w) {
			t.Errorf("info output lacks %q:\n%s", w, stdout)
		}
	}
}

// TestInfoTopologySaved checks that info prints the same topology for a
// saved model, which holds it, as for its mesh, in text and JSON: a closed
// box, a box with a hole, one with a flipped triangle, a soup of
// triangles, a torus and two tetrahedra sharing an edge (non-manifold).
func TestInfoTopologySaved(t *testing.T) {
	dir := t.TempDir()
	box := &mesh.TriMesh{
		Verts: []geom.Vec3{{X: 0, Y: 0, Z: 0}, {X: 1, Y: 0, Z: 0}, {X: 1, Y: 1, Z: 0}, {X: 0, Y: 1, Z: 0},
			{X: 0, Y: 0, Z: 1}, {X: 1, Y: 0, Z: 1}, {X: 1, Y: 1, Z: 1}, {X: 0, Y: 1, Z: 1}},
		Tris: [][3]int32{{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
			{1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}},
	}
	flip := append([][3]int32(nil), box.Tris...)
	flip[3] = [3]int32{4, 7, 6}
	soup := &mesh.TriMesh{}
	for _, tr := range box.Tris {
		n := int32(len(soup.Verts))
		for _, v := range tr {
			soup.Verts = append(soup.Verts, box.Verts[v])
		}
		soup.Tris = append(soup.Tris, [3]int32{n, n + 1, n + 2})
	}
	two := &mesh.TriMesh{Verts: []geom.Vec3{{X: 0}, {X: 1}, {Y: 1}, {Z: 1}, {Y: -1}, {Z: -1}},
		Tris: [][3]int32{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}, {0, 1, 4}, {0, 5, 1}, {0, 4, 5}, {1, 5, 4}}}
	files := []string{
		writeOBJ(t, dir, "box.obj", box),
		writeOBJ(t, dir, "hole.obj", &mesh.TriMesh{Verts: box.Verts, Tris: box.Tris[:11]}),
		writeOBJ(t, dir, "flip.obj", &mesh.TriMesh{Verts: box.Verts, Tris: flip}),
		writeOBJ(t, dir, "soup.obj", soup),
		writeOBJ(t, dir, "two.obj", two),
		"gen:torus:tris=200",
	}
	// topologyLines returns the lines of info's text from "topology" to
	// the tree's ("bv").
	topologyLines := func(text string) string {
		i := strings.Index(text, "  topology ")
		if i < 0 {
			t.Fatalf("no topology in %q", text)
		}
		text = text[i:]
		if j := strings.Index(text, "  bv "); j >= 0 {
			text = text[:j]
		}
		return strings.TrimRight(text, "\n")
	}
	for i, f := range files {
		saved := filepath.Join(dir, fmt.Sprintf("m%d.collide", i))
		if _, stderr, code := runCLI(t, "build", f, "-o", saved); code != exitOK {
			t.Fatalf("build %s: exit %d: %s", f, code, stderr)
		}
		want, stderr, code := runCLI(t, "info", f)
		if code != exitOK {
			t.Fatalf("info %s: exit %d: %s", f, code, stderr)
		}
		got, stderr, code := runCLI(t, "info", saved)
		if code != exitOK {
			t.Fatalf("info %s: exit %d: %s", saved, code, stderr)
		}
		if g, w := topologyLines(got), topologyLines(want); g != w {
			t.Errorf("%s saved:\n%s\nwant\n%s", f, g, w)
		}
		j := infoJSON(t, f, saved)
		if !reflect.DeepEqual(j[0].Topology, j[1].Topology) || j[0].Manifold != j[1].Manifold || j[0].Closed != j[1].Closed ||
			j[0].Oriented != j[1].Oriented || j[0].Outward != j[1].Outward || j[0].Convex != j[1].Convex {
			t.Errorf("%s saved: JSON %+v\nwant %+v", f, j[1], j[0])
		}
	}
}
