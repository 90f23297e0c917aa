// Package topo builds the edge structure of a triangle mesh and decides, exactly,
// the properties of the surface it forms: manifold, closed, consistently
// oriented, outward-oriented and convex (the object level of Zachmann's thesis). It
// also says what breaks each property: boundary edges, non-manifold edges and
// vertices, flipped faces, the first reflex edge or vertex.
//
// # Semantics
//
// Vertices with equal coordinates (-0 == +0) are welded into one, as STL files
// need; a triangle two of whose welded vertices are equal is degenerate: it is
// listed (Topology.Degenerate) and is part of no edge, vertex fan or component.
// A zero-area triangle with three distinct vertices is not degenerate here.
// Every other triangle contributes three half-edges, numbered 3·t+k for the
// edge from its corner k to its corner k+1 (mod 3). An edge is a pair of welded
// vertices; the half-edges along it are its uses.
//
//   - Manifold: every edge has at most two uses, and the triangles around each
//     welded vertex form one fan (one cycle or one path of triangles joined by
//     edges of two uses).
//   - Closed: manifold and no edge has one use (no boundary edge).
//   - Oriented: every edge with two uses is used once in each direction, and
//     every edge with more is used as many times in each direction.
//   - Outward: closed, oriented, and the signed volume Σ det(a, b, c)/6 over the
//     triangles is positive, decided exactly.
//   - Convex: the surface is the boundary of a convex solid, outward oriented
//     (see # Convexity for the exact criterion and why it decides it).
//
// Each test is exact: it uses geom.Orient3D and geom.Orient2D, and the volume
// sums with a float filter and an exact fallback. Of runs in time linear in the
// mesh (expected: a hash map welds the vertices), apart from the convexity
// test at a vertex, which is quadratic in the vertex's degree. A Topology is
// immutable once built and safe for concurrent reads.
//
// # Saving
//
// Encode writes a Topology for saving beside its mesh, and Decode reads it
// back and checks it against the mesh, so that a saved model need not
// compute it again (collide.Model.Save keeps it in the saved model's extra
// section: the file and its checksum are package bvh's, the section's
// contents and their check this package's, so bvh does not depend on it).
// The encoding holds certificates beside the structure, sorted lists of the
// welded vertices and of the edges, with which Decode checks everything in
// linear time without hashing; it recomputes the volume's sign and, for an
// outward surface, convexity (see Decode for the costs).
//
// # Convexity
//
// Convex is decided by these tests, each exact:
//
//  1. one component, and Euler characteristic 2;
//  2. no triangle of zero area (three collinear vertices);
//  3. every edge is convex or flat: with triangle (a, b, c) using it from a
//     to b and (b, a, d) its twin, d is not above the plane of (a, b, c)
//     (Orient3D(a, b, c, d) ≤ 0), and when d is in that plane it lies on
//     the other side of the line ab than c (not folded back onto the
//     triangle);
//  4. at every vertex v, every vertex u of its link (the other vertices of
//     the triangles around it) is on or below the plane of every triangle
//     (v, p, q) around v, and when u is in that plane (and is not p or q),
//     it is not in the closed angle pvq.
//
// Why it decides: (4)'s first half says the link, seen from v on the unit
// sphere, lies on one side of the great circle of each of its arcs, so the
// fan walks along the boundary of one convex spherical polygon (or a great
// circle, at a flat vertex), w times (turning one way, by (3)). Walked once,
// the triangles' angles at v tile that boundary, meeting only along the
// edges between neighbours, so no link vertex is in the angle of a triangle
// it is not a corner of; walked twice or more, the second turn passes the
// direction of the first link vertex again, inside an angle or along an
// edge, in a triangle of which it is not a corner, which (4)'s second half
// forbids. So w = 1 and the star of v is the boundary of a convex cone. Then
// the surface is locally convex at every point and locally an embedding (no
// zero-area triangle, no fold); closed and connected, it is the boundary of
// a convex body by the theorem of Hadamard and van Heijenoort (a compact
// connected locally convex immersed surface with a point of strict
// convexity, e.g. a vertex extreme in some direction, is embedded and bounds
// a convex body), outward since its volume is positive. Conversely the
// welded boundary of a convex polyhedron, triangulated without zero-area
// triangles, passes every test: the faces around a vertex turn once around
// it, so no link vertex is in the angle of a triangle it is not a corner of.
// A self-intersecting surface, or one wound more than once (a branched
// cover, whose Gauss map has degree > 1), fails (1), (3) or (4): by the
// theorem, a surface that passes them all is embedded and bounds its convex
// hull once. Test (2) is conservative: a convex solid whose surface has a
// zero-area triangle is reported not convex, with that reason. Test (4) is
// quadratic in each vertex's degree.
package topo

import (
	"math"

	"github.com/collide3d/collide/internal/exact"
	"github.com/collide3d/collide/mesh"
)

// MaxListed caps each list of offenders in a Topology; the counts beside the
// lists are complete.
const MaxListed = 16

// Edge names an edge by one of the triangles that use it and the mesh
// vertices of that triangle at its ends, in the triangle's direction.
type Edge struct {
	Tri int
	V   [2]int
}

// Topology is the edge structure of a triangle mesh and its flags. Vertex and
// triangle indices in the offender lists are those of the mesh.
type Topology struct {
	// Weld maps each mesh vertex to its welded vertex (-1 for a vertex that
	// no triangle uses); Rep maps each welded vertex back to the first mesh
	// vertex welded into it.
	Weld []int32
	Rep  []int32
	// Tris are the mesh's triangles over welded vertices.
	Tris [][3]int32
	// Twin holds, for half-edge 3·t+k, the other use of its edge when the
	// edge has exactly two uses, else -1 (a boundary or non-manifold edge,
	// or a degenerate triangle).
	Twin []int32

	Manifold, Closed, Oriented, Outward, Convex bool

	// Vertices counts the welded vertices that non-degenerate triangles use;
	// Faces those triangles; Edges the edges; Components the connected
	// components (through edges) of the non-degenerate triangles. Euler is
	// Vertices − Edges + Faces. Genus is (2·Components − Euler)/2 when the
	// surface is closed and oriented, else -1.
	Vertices, Edges, Faces, Components, Euler, Genus int
	// Welded counts the mesh vertices merged into an earlier one.
	Welded int
	// VolumeSign is the sign of the signed volume (-1, 0, +1), decided
	// exactly, when the surface is closed and oriented, else 0.
	VolumeSign int

	// Degenerate lists the degenerate triangles (NumDegenerate in all).
	Degenerate    []int
	NumDegenerate int
	// Boundary lists edges of one use.
	Boundary    []Edge
	NumBoundary int
	// NonManifoldEdges lists edges of more than two uses (one Edge each).
	NonManifoldEdges    []Edge
	NumNonManifoldEdges int
	// NonManifoldVerts lists mesh vertices whose welded vertex has more
	// than one fan of triangles.
	NonManifoldVerts    []int
	NumNonManifoldVerts int
	// Misoriented lists edges that break Oriented.
	Misoriented    []Edge
	NumMisoriented int
	// Flipped lists, in each part of the surface joined through edges of
	// two uses (a component, when the surface is manifold) that can be
	// oriented consistently, the triangles of the smaller class (those
	// whose orientation disagrees with the majority of their part);
	// NonOrientable counts the parts that cannot be oriented (a Möbius
	// strip).
	Flipped       []int
	NumFlipped    int
	NonOrientable int
	// NotConvex says why Convex is false when the surface is closed,
	// oriented and outward (else nil).
	NotConvex *Reflex
}

// Reflex is what breaks convexity: Reason says which test failed, Edge the
// edge at fault (Reason "reflex edge" or "folded edge"), Vertex the mesh
// vertex (Reason "reflex vertex" or "vertex wound more than once"); a
// property of the whole surface leaves both at -1 ("components", "genus").
type Reflex struct {
	Reason string
	Edge   Edge
	Vertex int
}

// Of returns the topology of m, which must be valid (m.Validate: an index
// out of range panics). It allocates about 170 bytes a triangle.
func Of(m *mesh.TriMesh) *Topology {
	t := &Topology{Weld: make([]int32, len(m.Verts)), Tris: make([][3]int32, len(m.Tris))}
	t.weld(m)
	t.build(m)
	return t
}

// build computes the rest of t from its Weld, Rep, Tris and Welded: the
// edges and everything else, in linear time but for the convexity test.
func (t *Topology) build(m *mesh.TriMesh) {
	degen := t.degenerates()
	t.edges(m, degen)
	t.finish(m, degen)
}

// degenerates lists the degenerate triangles, counts the others (Faces)
// and returns which are degenerate.
func (t *Topology) degenerates() []bool {
	degen := make([]bool, len(t.Tris))
	for i, tr := range t.Tris {
		if tr[0] == tr[1] || tr[1] == tr[2] || tr[2] == tr[0] {
			degen[i] = true
			t.NumDegenerate++
			if len(t.Degenerate) < MaxListed {
				t.Degenerate = append(t.Degenerate, i)
			}
		} else {
			t.Faces++
		}
	}
	return degen
}

// edges groups the half-edges into edges: it sets Twin, Edges, the
// boundary, non-manifold and misoriented edges, and Components.
func (t *Topology) edges(m *mesh.TriMesh, degen []bool) {
	t.Twin = make([]int32, 3*len(m.Tris))
	nv := len(t.Rep)
	nt := len(m.Tris)
	// Half-edges grouped by their lower vertex (counting sort), then by the
	// upper one with a scratch mark per vertex: linear, no hashing.
	start := make([]int32, nv+1)
	for i, tr := range t.Tris {
		if degen[i] {
			continue
		}
		for k := 0; k < 3; k++ {
			start[min(tr[k], tr[(k+1)%3])+1]++
		}
	}
	for i := 0; i < nv; i++ {
		start[i+1] += start[i]
	}
	fill := append([]int32(nil), start[:nv]...)
	byLo := make([]int32, start[nv])
	for i, tr := range t.Tris {
		if degen[i] {
			continue
		}
		for k := 0; k < 3; k++ {
			lo := min(tr[k], tr[(k+1)%3])
			byLo[fill[lo]] = int32(3*i + k)
			fill[lo]++
		}
	}
	fill = nil
	for i := range t.Twin {
		t.Twin[i] = -1
	}
	head := func(h int32) int32 { return t.Tris[h/3][h%3] }
	tail := func(h int32) int32 { return t.Tris[h/3][(h%3+1)%3] }
	edgeOf := func(h int32) Edge {
		tr := m.Tris[h/3]
		return Edge{Tri: int(h / 3), V: [2]int{int(tr[h%3]), int(tr[(h%3+1)%3])}}
	}
	// first[hi] = index in byLo of the first use seen of edge (lo, hi); next
	// chains the uses of one edge.
	tu := newUnionFind(nt) // triangles joined through their edges
	first := make([]int32, nv)
	for i := range first {
		first[i] = -1
	}
	next := make([]int32, len(byLo))
	for lo := 0; lo < nv; lo++ {
		s, e := start[lo], start[lo+1]
		for j := s; j < e; j++ {
			h := byLo[j]
			hi := max(head(h), tail(h))
			next[j] = -1
			if f := first[hi]; f < 0 {
				first[hi] = j
			} else {
				// Append after f's chain head (order of uses is irrelevant).
				next[j] = next[f]
				next[f] = j
			}
		}
		for j := s; j < e; j++ {
			h := byLo[j]
			hi := max(head(h), tail(h))
			f := first[hi]
			if f != j {
				continue
			}
			first[hi] = -1
			t.Edges++
			n, fwd := 0, 0
			for u := f; u >= 0; u = next[u] {
				n++
				tu.union(h/3, byLo[u]/3)
				if head(byLo[u]) == int32(lo) {
					fwd++
				}
			}
			switch {
			case n == 1:
				t.NumBoundary++
				if len(t.Boundary) < MaxListed {
					t.Boundary = append(t.Boundary, edgeOf(h))
				}
			case n == 2:
				h2 := byLo[next[f]]
				t.Twin[h], t.Twin[h2] = h2, h
				if fwd != 1 {
					t.addMisoriented(edgeOf(h))
				}
			default:
				t.NumNonManifoldEdges++
				if len(t.NonManifoldEdges) < MaxListed {
					t.NonManifoldEdges = append(t.NonManifoldEdges, edgeOf(h))
				}
				if 2*fwd != n {
					t.addMisoriented(edgeOf(h))
				}
			}
		}
	}
	first, next, byLo = nil, nil, nil
	for i := range t.Tris {
		if !degen[i] && tu.find(int32(i)) == int32(i) {
			t.Components++
		}
	}
}

// finish computes the rest from the edges: the fans, the flags, the
// orientation, the volume's sign and convexity.
func (t *Topology) finish(m *mesh.TriMesh, degen []bool) {
	t.Genus = -1
	nv := len(t.Rep)
	nt := len(m.Tris)
	head := func(h int32) int32 { return t.Tris[h/3][h%3] }
	// Fans: corners (3·t+k, at vertex Tris[t][k]) joined across edges of
	// two uses; a vertex is manifold when its corners form one set.
	cu := newUnionFind(3 * nt)
	for h := int32(0); h < int32(3*nt); h++ {
		g := t.Twin[h]
		if g < h {
			continue
		}
		// h goes a→b in triangle h/3; g uses the same edge. The corner of
		// h's triangle at a is h; at b it is the next corner.
		th, tg := h/3, g/3
		ch := [2]int32{h, 3*th + (h%3+1)%3}
		cg := [2]int32{g, 3*tg + (g%3+1)%3}
		if head(g) != head(h) {
			cg[0], cg[1] = cg[1], cg[0]
		}
		cu.union(ch[0], cg[0])
		cu.union(ch[1], cg[1])
	}
	fan := make([]int32, nv) // root of a fan of each vertex, -1 none yet, -2 reported
	for i := range fan {
		fan[i] = -1
	}
	for c := int32(0); c < int32(3*nt); c++ {
		if degen[c/3] {
			continue
		}
		v := t.Tris[c/3][c%3]
		r := cu.find(c)
		switch f := fan[v]; {
		case f == -1:
			fan[v] = r
		case f >= 0 && f != r:
			fan[v] = -2
			t.NumNonManifoldVerts++
			if len(t.NonManifoldVerts) < MaxListed {
				t.NonManifoldVerts = append(t.NonManifoldVerts, int(t.Rep[v]))
			}
		}
	}
	for _, f := range fan {
		if f != -1 {
			t.Vertices++
		}
	}
	cu = nil
	t.Euler = t.Vertices - t.Edges + t.Faces
	t.Manifold = t.NumNonManifoldEdges == 0 && t.NumNonManifoldVerts == 0
	t.Closed = t.Manifold && t.NumBoundary == 0
	t.Oriented = t.NumMisoriented == 0

	// With every edge of two uses used once each way, each part is of one
	// class: nothing is flipped, every part can be oriented.
	if t.NumMisoriented > 0 {
		t.orient(degen)
	}
	if t.Closed && t.Oriented {
		t.Genus = (2*t.Components - t.Euler) / 2
		t.VolumeSign = volumeSign(m, degen)
		t.Outward = t.VolumeSign > 0
	}
	if t.Outward {
		t.NotConvex = t.convex(m)
		t.Convex = t.NotConvex == nil
	}
}

func (t *Topology) addMisoriented(e Edge) {
	t.NumMisoriented++
	if len(t.Misoriented) < MaxListed {
		t.Misoriented = append(t.Misoriented, e)
	}
}

// weld fills Weld, Rep and Tris.
func (t *Topology) weld(m *mesh.TriMesh) {
	for i := range t.Weld {
		t.Weld[i] = -1
	}
	byPos := make(map[[3]float64]int32, len(m.Verts))
	for i, tr := range m.Tris {
		for k, vi := range tr {
			if t.Weld[vi] < 0 {
				v := m.Verts[vi]
				key := [3]float64{v.X + 0, v.Y + 0, v.Z + 0}
				id, ok := byPos[key]
				if !ok {
					id = int32(len(t.Rep))
					byPos[key] = id
					t.Rep = append(t.Rep, vi)
				} else {
					t.Welded++
				}
				t.Weld[vi] = id
			}
			t.Tris[i][k] = t.Weld[vi]
		}
	}
}

// orient orients the triangles consistently across edges of two uses
// (depth first, a part at a time), listing in each part the smaller class
// as flipped, or counting the part as non-orientable.
func (t *Topology) orient(degen []bool) {
	nt := len(t.Tris)
	side := make([]int8, nt) // 0 unseen, +1 / -1 the class
	queue := make([]int32, 0, 64)
	comp := make([]int32, 0, 64)
	for s := 0; s < nt; s++ {
		if degen[s] || side[s] != 0 {
			continue
		}
		side[s] = 1
		queue = append(queue[:0], int32(s))
		comp = comp[:0]
		plus, bad := 0, false
		for len(queue) > 0 {
			f := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			comp = append(comp, f)
			if side[f] > 0 {
				plus++
			}
			for k := int32(0); k < 3; k++ {
				h := 3*f + k
				g := t.Twin[h]
				if g < 0 {
					continue
				}
				// Opposite directions keep the class; equal ones flip it.
				want := side[f]
				if t.Tris[g/3][g%3] == t.Tris[f][k] {
					want = -want
				}
				switch side[g/3] {
				case 0:
					side[g/3] = want
					queue = append(queue, g/3)
				case want:
				default:
					bad = true
				}
			}
		}
		if bad {
			t.NonOrientable++
			continue
		}
		minus := len(comp) - plus
		if minus == 0 {
			continue
		}
		small := int8(-1)
		if minus > plus {
			small = 1
		}
		for _, f := range comp {
			if side[f] == small {
				t.NumFlipped++
				if len(t.Flipped) < MaxListed {
					t.Flipped = append(t.Flipped, int(f))
				}
			}
		}
	}
	if len(t.Flipped) > 1 {
		sortInts(t.Flipped)
	}
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// volumeSign returns the sign of Σ det(a, b, c) over the non-degenerate
// triangles: a float sum with an error bound, else the exact sum.
func volumeSign(m *mesh.TriMesh, degen []bool) int {
	var sum, mag float64
	n := 0
	for i, tr := range m.Tris {
		if degen[i] {
			continue
		}
		a, b, c := m.Verts[tr[0]], m.Verts[tr[1]], m.Verts[tr[2]]
		sum += a.X*(b.Y*c.Z-b.Z*c.Y) + a.Y*(b.Z*c.X-b.X*c.Z) + a.Z*(b.X*c.Y-b.Y*c.X)
		mag += math.Abs(a.X)*(math.Abs(b.Y*c.Z)+math.Abs(b.Z*c.Y)) +
			math.Abs(a.Y)*(math.Abs(b.Z*c.X)+math.Abs(b.X*c.Z)) +
			math.Abs(a.Z)*(math.Abs(b.X*c.Y)+math.Abs(b.Y*c.X))
		n++
	}
	// Each term is within 4u of its magnitude and the running sums add
	// n·u more (u = 2^-53; FMA-contracted terms err less); a factor 2 of
	// margin. Tiny or huge magnitudes (underflow, overflow) go exact.
	bound := float64(n+8) * 0x1p-51 * mag
	if mag > 0x1p-900 && mag < 0x1p1000 && math.Abs(sum) > bound {
		if sum > 0 {
			return 1
		}
		return -1
	}
	var e growExp
	for i, tr := range m.Tris {
		if degen[i] {
			continue
		}
		a, b, c := m.Verts[tr[0]], m.Verts[tr[1]], m.Verts[tr[2]]
		e.addProd3(1, a.X, b.Y, c.Z)
		e.addProd3(-1, a.X, b.Z, c.Y)
		e.addProd3(1, a.Y, b.Z, c.X)
		e.addProd3(-1, a.Y, b.X, c.Z)
		e.addProd3(1, a.Z, b.X, c.Y)
		e.addProd3(-1, a.Z, b.Y, c.X)
	}
	return e.sign()
}

// growExp is an exact sum of floats of any length (internal/exact's
// Expansion holds a fixed number of components).
type growExp struct{ c []float64 }

func (e *growExp) add(b float64) {
	if b == 0 {
		return
	}
	q, k := b, 0
	for i := range e.c {
		var h float64
		q, h = exact.TwoSum(q, e.c[i])
		if h != 0 {
			e.c[k] = h
			k++
		}
	}
	e.c = e.c[:k]
	if q != 0 {
		e.c = append(e.c, q)
	}
}

func (e *growExp) addProd3(s, a, b, c float64) {
	p1, p0 := exact.TwoProd(a, b)
	h1, h0 := exact.TwoProd(p1, c)
	l1, l0 := exact.TwoProd(p0, c)
	e.add(s * l0)
	e.add(s * l1)
	e.add(s * h0)
	e.add(s * h1)
}

func (e *growExp) sign() int {
	for i := len(e.c) - 1; i >= 0; i-- {
		if e.c[i] > 0 {
			return 1
		}
		if e.c[i] < 0 {
			return -1
		}
	}
	return 0
}

type unionFind []int32

func newUnionFind(n int) unionFind {
	u := make(unionFind, n)
	for i := range u {
		u[i] = int32(i)
	}
	return u
}

func (u unionFind) find(x int32) int32 {
	for u[x] != x {
		u[x] = u[u[x]]
		x = u[x]
	}
	return x
}

func (u unionFind) union(a, b int32) {
	if ra, rb := u.find(a), u.find(b); ra != rb {
		u[ra] = rb
	}
}
