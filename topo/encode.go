package topo

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// FormatName is the Format of the *mesh.FormatError values Decode returns.
const FormatName = "topology"

// reasons are the NotConvex reasons in the order of their codes (1 on).
var reasons = [...]string{"components", "genus", "zero-area triangle", "reflex edge", "folded edge",
	"reflex vertex", "vertex wound more than once"}

// headSize is the size of the fixed part of the encoding.
const headSize = 28 + 8*15

// Encode returns the encoding of t, the topology of m (Of(m)), that Decode
// reads back: 4·(len(m.Verts) + len(t.Rep) + t.Edges) + 12·len(m.Tris)
// bytes and a fixed part of 192 to 960 (about 22 bytes a triangle for a
// closed surface). It sorts the welded vertices, in time O(n log n), and
// groups the half-edges as Of does.
//
// The encoding is little-endian throughout; nv is the number of mesh vertices, nw that of
// welded vertices (len(Rep)), nt that of triangles, ne that of edges:
//
//	offset   size    field
//	0        8       nv: uint64, len(m.Verts)
//	8        8       nw: uint64 ≤ nv
//	16       8       ne: uint64 ≤ 3·nt
//	24       4       flags: uint32, bit 0 Manifold, 1 Closed, 2 Oriented,
//	                 3 Outward, 4 Convex, the others 0
//	28       8·15    Vertices, Edges, Faces, Components, Euler, Genus,
//	                 Welded, VolumeSign, NumDegenerate, NumBoundary,
//	                 NumNonManifoldEdges, NumNonManifoldVerts,
//	                 NumMisoriented, NumFlipped, NonOrientable: int64
//	148      …       the lists Degenerate, Boundary, NonManifoldEdges,
//	                 NonManifoldVerts, Misoriented, Flipped: each a uint32
//	                 length ≤ MaxListed, then its entries, int32 (an Edge
//	                 is Tri, V[0], V[1])
//	L        20      NotConvex: uint32 reason (0: nil; 1 to 7: components,
//	                 genus, zero-area triangle, reflex edge, folded edge,
//	                 reflex vertex, vertex wound more than once), then
//	                 Edge.Tri, Edge.V[0], Edge.V[1], Vertex: int32
//	W = L+20 4·nv    Weld: int32
//	O=W+4·nv 4·nw    the welded vertices in increasing order of their
//	                 coordinates (x, then y, then z): int32
//	O+4·nw   12·nt   the edge of each half-edge 3·t+k: the first
//	                 half-edge along it (the least), int32, -1 for those of
//	                 degenerate triangles
//	O+4·nw   4·ne    each edge's first half-edge, the edges in increasing
//	 +12·nt          order of their welded vertices (lower, then upper):
//	                 int32
//
// The last three arrays are not part of a Topology: they are the
// certificates that let Decode check in linear time, without hashing, that
// the welded vertices are distinct (each is less than the next), and
// that the half-edges given one edge are all its uses (the edges so given
// are distinct: each is less than the next). Rep, Tris and Twin are not
// stored: Decode derives them.
func Encode(m *mesh.TriMesh, t *Topology) []byte {
	le := binary.LittleEndian
	first, order := edgeCert(t)
	b := make([]byte, 0, headSize+6*4+20+4*(len(t.Weld)+len(t.Rep)+len(first)+len(order))+4*3*6*MaxListed)
	b = le.AppendUint64(b, uint64(len(t.Weld)))
	b = le.AppendUint64(b, uint64(len(t.Rep)))
	b = le.AppendUint64(b, uint64(len(order)))
	var flags uint32
	for i, f := range []bool{t.Manifold, t.Closed, t.Oriented, t.Outward, t.Convex} {
		if f {
			flags |= 1 << i
		}
	}
	b = le.AppendUint32(b, flags)
	for _, c := range t.counts() {
		b = le.AppendUint64(b, uint64(*c))
	}
	i32 := func(v int) { b = le.AppendUint32(b, uint32(int32(v))) }
	ints := func(l []int) {
		i32(len(l))
		for _, v := range l {
			i32(v)
		}
	}
	edges := func(l []Edge) {
		i32(len(l))
		for _, e := range l {
			i32(e.Tri)
			i32(e.V[0])
			i32(e.V[1])
		}
	}
	ints(t.Degenerate)
	edges(t.Boundary)
	edges(t.NonManifoldEdges)
	ints(t.NonManifoldVerts)
	edges(t.Misoriented)
	ints(t.Flipped)
	if r := t.NotConvex; r == nil {
		b = append(b, make([]byte, 20)...)
	} else {
		i32(slices.Index(reasons[:], r.Reason) + 1)
		i32(r.Edge.Tri)
		i32(r.Edge.V[0])
		i32(r.Edge.V[1])
		i32(r.Vertex)
	}
	for _, w := range t.Weld {
		b = le.AppendUint32(b, uint32(w))
	}
	welded := make([]int32, len(t.Rep))
	for i := range welded {
		welded[i] = int32(i)
	}
	slices.SortFunc(welded, func(x, y int32) int { return cmpVec(m.Verts[t.Rep[x]], m.Verts[t.Rep[y]]) })
	for _, a := range [][]int32{welded, first, order} {
		for _, w := range a {
			b = le.AppendUint32(b, uint32(w))
		}
	}
	return b
}

// edgeCert returns the first half-edge of each half-edge's edge (-1 for
// degenerate triangles), and the edges' first half-edges in increasing
// order of their welded vertices: the half-edges grouped by their lower
// vertex (counting sort), then by the upper one with a mark per vertex, as
// Of groups them.
func edgeCert(t *Topology) (first, order []int32) {
	nv, nh := len(t.Rep), int32(3*len(t.Tris))
	start := make([]int32, nv+1)
	for h := range nh {
		if !degenerate(t.Tris[h/3]) {
			lo, _ := t.edgeKey(h)
			start[lo+1]++
		}
	}
	for i := range nv {
		start[i+1] += start[i]
	}
	fill := slices.Clone(start[:nv])
	byLo := make([]int32, start[nv])
	first = make([]int32, nh)
	for h := range nh {
		first[h] = -1
		if !degenerate(t.Tris[h/3]) {
			lo, _ := t.edgeKey(h)
			byLo[fill[lo]] = h
			fill[lo]++
		}
	}
	mark := fill[:0] // the first use of edge (lo, hi) at mark[hi], or -1
	for range nv {
		mark = append(mark, -1)
	}
	order = make([]int32, 0, len(byLo)/2)
	for lo := range nv {
		n := len(order)
		for _, h := range byLo[start[lo]:start[lo+1]] {
			_, hi := t.edgeKey(h)
			if mark[hi] < 0 {
				mark[hi] = h
				order = append(order, h)
			}
			first[h] = mark[hi]
		}
		edges := order[n:]
		slices.SortFunc(edges, func(a, b int32) int {
			_, ha := t.edgeKey(a)
			_, hb := t.edgeKey(b)
			return cmp.Compare(ha, hb)
		})
		for _, h := range edges {
			_, hi := t.edgeKey(h)
			mark[hi] = -1
		}
	}
	return first, order
}

// edgeKey returns the welded vertices of half-edge h, lower first.
func (t *Topology) edgeKey(h int32) (lo, hi int32) {
	a, b := t.Tris[h/3][h%3], t.Tris[h/3][(h%3+1)%3]
	return min(a, b), max(a, b)
}

// cmpVec orders points by x, then y, then z (-0 == +0).
func cmpVec(a, b geom.Vec3) int {
	if c := cmp.Compare(a.X, b.X); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Y, b.Y); c != 0 {
		return c
	}
	return cmp.Compare(a.Z, b.Z)
}

// counts returns pointers to t's counts in the order of the encoding.
func (t *Topology) counts() [15]*int {
	return [15]*int{&t.Vertices, &t.Edges, &t.Faces, &t.Components, &t.Euler, &t.Genus,
		&t.Welded, &t.VolumeSign, &t.NumDegenerate, &t.NumBoundary, &t.NumNonManifoldEdges,
		&t.NumNonManifoldVerts, &t.NumMisoriented, &t.NumFlipped, &t.NonOrientable}
}

var countNames = [15]string{"Vertices", "Edges", "Faces", "Components", "Euler", "Genus",
	"Welded", "VolumeSign", "NumDegenerate", "NumBoundary", "NumNonManifoldEdges",
	"NumNonManifoldVerts", "NumMisoriented", "NumFlipped", "NonOrientable"}

// decoder reads an encoding, recording the first error.
type decoder struct {
	b   []byte
	off int
	err error
}

func (d *decoder) errorf(at int, format string, args ...any) {
	if d.err == nil {
		d.err = &mesh.FormatError{Format: FormatName, Offset: int64(at), Msg: fmt.Sprintf(format, args...)}
	}
}

func (d *decoder) take(n int, what string) []byte {
	if d.err != nil {
		return nil
	}
	if len(d.b)-d.off < n {
		d.errorf(len(d.b), "truncated: the topology ends at byte %d inside %s", len(d.b), what)
		return nil
	}
	p := d.b[d.off : d.off+n]
	d.off += n
	return p
}

func (d *decoder) u32(what string) uint32 {
	if p := d.take(4, what); p != nil {
		return binary.LittleEndian.Uint32(p)
	}
	return 0
}

func (d *decoder) u64(what string) uint64 {
	if p := d.take(8, what); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

func (d *decoder) i32(what string) int { return int(int32(d.u32(what))) }

// list reads a list's length, capped at MaxListed, and returns it (0 after
// an error).
func (d *decoder) list(what string) int {
	at := d.off
	n := d.u32(what)
	if n > MaxListed {
		d.errorf(at, "%s lists %d entries, more than %d", what, n, MaxListed)
		return 0
	}
	return int(n)
}

func (d *decoder) ints(what string) []int {
	var l []int
	for range d.list(what) {
		l = append(l, d.i32(what))
	}
	return l
}

func (d *decoder) edges(what string) []Edge {
	var l []Edge
	for range d.list(what) {
		l = append(l, Edge{Tri: d.i32(what), V: [2]int{d.i32(what), d.i32(what)}})
	}
	return l
}

// Decode reads the encoding b of the topology of m that Encode wrote, and
// checks it fully, so that whatever the bytes it returns Of(m), field by
// field, or an error. m must be valid (m.Validate). Problems are reported
// as a *mesh.FormatError with Format FormatName and the offset in b of the
// field at fault. Decode never panics.
//
// The check costs much less than Of where Of costs most: it welds the
// vertices without hashing, checking the stored Weld in linear time (each
// vertex has the coordinates of its welded vertex, the welded vertices are
// numbered in the order of their first use, and the stored order proves
// them distinct); it groups the half-edges into edges as stored, checking
// in linear time that each edge's half-edges join its two vertices and
// that the edges are distinct (by their stored order), so that each holds
// all its uses; it then derives the twins, components and fans as Of
// does, in linear time, and compares every stored flag, count and list
// with them. The exact volume sign is recomputed (a float sum, rarely
// exact: linear), and so is convexity when the surface is outward, with
// Of's test (quadratic in the degree of each vertex; it stops at the first
// failure, early on most non-convex surfaces): a forged Convex must not be
// taken on faith, as a test that relies on convexity (a support point
// found by hill climbing over the edges is the farthest one only on a
// convex surface) would then answer wrongly, and rechecking a stored
// false also checks the NotConvex that info prints.
//
// On 10^6 triangles and one CPU, Decode took 0.15 s where Of takes 0.34 s
// on a non-convex surface (a torus), and 0.67 s where Of takes 0.94 s on a
// convex one (an icosphere), whose convexity test, rechecked, is 0.55 s of
// both (BenchmarkDecode; CPU time, the least of 5 runs on a loaded
// machine).
func Decode(m *mesh.TriMesh, b []byte) (*Topology, error) {
	d := &decoder{b: b}
	nv, nw, ne := d.u64("the header"), d.u64("the header"), d.u64("the header")
	nh := 3 * uint64(len(m.Tris))
	switch {
	case d.err != nil:
		return nil, d.err
	case nv != uint64(len(m.Verts)):
		d.errorf(0, "topology of %d vertices for a mesh of %d", nv, len(m.Verts))
	case nw > nv:
		d.errorf(8, "%d welded vertices, more than the %d vertices", nw, nv)
	case ne > nh:
		d.errorf(16, "%d edges, more than the %d half-edges", ne, nh)
	}
	if d.err != nil {
		return nil, d.err
	}
	s := &Topology{}
	flagsAt := d.off
	flags := d.u32("the flags")
	if flags >= 1<<5 {
		d.errorf(flagsAt, "unknown flags %#x", flags)
	}
	stored := []*bool{&s.Manifold, &s.Closed, &s.Oriented, &s.Outward, &s.Convex}
	for i, f := range stored {
		*f = flags&(1<<i) != 0
	}
	countsAt := d.off
	for _, c := range s.counts() {
		*c = int(int64(d.u64("the counts")))
	}
	var listAt [7]int
	listAt[0] = d.off
	s.Degenerate = d.ints("Degenerate")
	listAt[1] = d.off
	s.Boundary = d.edges("Boundary")
	listAt[2] = d.off
	s.NonManifoldEdges = d.edges("NonManifoldEdges")
	listAt[3] = d.off
	s.NonManifoldVerts = d.ints("NonManifoldVerts")
	listAt[4] = d.off
	s.Misoriented = d.edges("Misoriented")
	listAt[5] = d.off
	s.Flipped = d.ints("Flipped")
	listAt[6] = d.off
	if r := d.u32("NotConvex"); r > uint32(len(reasons)) {
		d.errorf(listAt[6], "unknown NotConvex reason %d", r)
	} else if r > 0 {
		s.NotConvex = &Reflex{Reason: reasons[r-1], Edge: Edge{Tri: d.i32("NotConvex"),
			V: [2]int{d.i32("NotConvex"), d.i32("NotConvex")}}, Vertex: d.i32("NotConvex")}
	} else {
		d.take(16, "NotConvex")
	}
	if d.err != nil {
		return nil, d.err
	}
	weldAt := d.off
	if want := uint64(weldAt) + 4*(nv+nw+nh+ne); uint64(len(b)) != want {
		d.errorf(len(b), "the topology is %d bytes, want %d for %d vertices, %d welded, %d triangles and %d edges",
			len(b), want, nv, nw, nh/3, ne)
		return nil, d.err
	}
	t := &Topology{Weld: make([]int32, nv), Tris: make([][3]int32, len(m.Tris))}
	if err := t.checkWeld(m, b[weldAt:], int(nw), weldAt); err != nil {
		return nil, err
	}
	degen := t.degenerates()
	eAt := weldAt + 4*int(nv+nw)
	if err := t.checkEdges(m, b[eAt:], int(ne), eAt, degen); err != nil {
		return nil, err
	}
	t.finish(m, degen)

	// Every stored field, compared with what the mesh gives.
	got := []bool{t.Manifold, t.Closed, t.Oriented, t.Outward, t.Convex}
	for i, name := range []string{"Manifold", "Closed", "Oriented", "Outward", "Convex"} {
		if *stored[i] != got[i] {
			return nil, badf(flagsAt, "stored %s = %v, the mesh gives %v", name, *stored[i], got[i])
		}
	}
	for i, c := range t.counts() {
		if sc := s.counts()[i]; *sc != *c {
			return nil, badf(countsAt+8*i, "stored %s = %d, the mesh gives %d", countNames[i], *sc, *c)
		}
	}
	switch {
	case !slices.Equal(s.Degenerate, t.Degenerate):
		return nil, badf(listAt[0], "stored Degenerate %v, the mesh gives %v", s.Degenerate, t.Degenerate)
	case !slices.Equal(s.Boundary, t.Boundary):
		return nil, badf(listAt[1], "stored Boundary %v, the mesh gives %v", s.Boundary, t.Boundary)
	case !slices.Equal(s.NonManifoldEdges, t.NonManifoldEdges):
		return nil, badf(listAt[2], "stored NonManifoldEdges %v, the mesh gives %v", s.NonManifoldEdges, t.NonManifoldEdges)
	case !slices.Equal(s.NonManifoldVerts, t.NonManifoldVerts):
		return nil, badf(listAt[3], "stored NonManifoldVerts %v, the mesh gives %v", s.NonManifoldVerts, t.NonManifoldVerts)
	case !slices.Equal(s.Misoriented, t.Misoriented):
		return nil, badf(listAt[4], "stored Misoriented %v, the mesh gives %v", s.Misoriented, t.Misoriented)
	case !slices.Equal(s.Flipped, t.Flipped):
		return nil, badf(listAt[5], "stored Flipped %v, the mesh gives %v", s.Flipped, t.Flipped)
	case (s.NotConvex == nil) != (t.NotConvex == nil) || s.NotConvex != nil && *s.NotConvex != *t.NotConvex:
		return nil, badf(listAt[6], "stored NotConvex %v, the mesh gives %v", s.NotConvex, t.NotConvex)
	}
	return t, nil
}

func badf(at int, format string, args ...any) error {
	return &mesh.FormatError{Format: FormatName, Offset: int64(at), Msg: fmt.Sprintf(format, args...)}
}

// checkWeld reads the stored Weld (w, then the sorted welded vertices, at
// offset at of the encoding) into t, checks it and derives Rep, Tris and
// Welded, as weld computes them: in linear time, without hashing.
func (t *Topology) checkWeld(m *mesh.TriMesh, w []byte, nw, at int) error {
	le := binary.LittleEndian
	nv := len(m.Verts)
	for v := range t.Weld {
		x := int32(le.Uint32(w[4*v:]))
		if x < -1 || int(x) >= nw {
			return badf(at+4*v, "vertex %d welded to %d, out of range [-1, %d)", v, x, nw)
		}
		t.Weld[v] = x
	}
	if nw > 0 {
		t.Rep = make([]int32, nw)
	}
	// The welded vertices are numbered in the order of their first use,
	// each the first mesh vertex of its position.
	used := make([]bool, nv)
	next := int32(0)
	for i, tr := range m.Tris {
		for k, v := range tr {
			x := t.Weld[v]
			switch {
			case x < 0:
				return badf(at+4*int(v), "vertex %d, which triangle %d uses, is welded to none", v, i)
			case x == next:
				t.Rep[x] = v
				next++
			case x > next:
				return badf(at+4*int(v), "vertex %d welded to %d before %d is used", v, x, next)
			case !used[v]:
				if p, q := m.Verts[v], m.Verts[t.Rep[x]]; p.X != q.X || p.Y != q.Y || p.Z != q.Z {
					return badf(at+4*int(v), "vertex %d %v welded to %d at vertex %d %v", v, p, x, t.Rep[x], q)
				}
			}
			used[v] = true
			t.Tris[i][k] = x
		}
	}
	for v, u := range used {
		if u {
			t.Welded++
		} else if t.Weld[v] != -1 {
			return badf(at+4*v, "vertex %d, which no triangle uses, is welded to %d", v, t.Weld[v])
		}
	}
	t.Welded -= nw
	if int(next) != nw {
		return badf(8, "%d welded vertices, the triangles use %d", nw, next)
	}
	// The certificate: every welded vertex once, in increasing order, so
	// no two are at one position.
	sAt := at + 4*nv
	seen := make([]bool, nw)
	prev := int32(-1)
	for i := range nw {
		x := int32(le.Uint32(w[4*nv+4*i:]))
		if x < 0 || int(x) >= nw || seen[x] {
			return badf(sAt+4*i, "welded vertex %d out of range [0, %d) or listed twice in the order", x, nw)
		}
		seen[x] = true
		if prev >= 0 {
			if p, q := m.Verts[t.Rep[prev]], m.Verts[t.Rep[x]]; cmpVec(p, q) >= 0 {
				return badf(sAt+4*i, "welded vertex %d %v does not come after %d %v: the order is wrong or they are one", x, q, prev, p)
			}
		}
		prev = x
	}
	return nil
}

// checkEdges reads the stored edges (the first half-edge of each
// half-edge's edge, then the edges in order, from b, at offset at of the
// encoding), checks them and sets Twin, Edges, the boundary, non-manifold
// and misoriented edges and Components, as edges computes them: in linear
// time, without hashing, but for sorting the few edges of one lower vertex
// while the lists are not full.
func (t *Topology) checkEdges(m *mesh.TriMesh, b []byte, ne, at int, degen []bool) error {
	le := binary.LittleEndian
	nh := 3 * len(t.Tris)
	first := make([]int32, nh)
	uses := make([]int32, nh) // of each edge, at its first half-edge
	fwd := make([]int32, nh)  // of those, the uses from its lower vertex
	reps := 0
	for h := range int32(nh) {
		r := int32(le.Uint32(b[4*h:]))
		if degen[h/3] {
			if r != -1 {
				return badf(at+4*int(h), "half-edge %d of degenerate triangle %d given edge %d (want -1)", h, h/3, r)
			}
			first[h] = -1
			continue
		}
		if r < 0 || r > h {
			return badf(at+4*int(h), "half-edge %d given edge %d, out of range [0, %d]", h, r, h)
		}
		if r == h {
			reps++
		} else if first[r] != r {
			return badf(at+4*int(h), "half-edge %d given edge %d, which is not an edge's first half-edge", h, r)
		}
		lo, hi := t.edgeKey(h)
		if rl, rh := t.edgeKey(r); rl != lo || rh != hi {
			return badf(at+4*int(h), "half-edge %d (%d-%d) given edge %d (%d-%d)", h, lo, hi, r, rl, rh)
		}
		first[h] = r
		uses[r]++
		if t.Tris[h/3][h%3] == lo {
			fwd[r]++
		}
	}
	eAt := at + 4*nh
	if ne != reps {
		return badf(16, "%d edges, the half-edges give %d", ne, reps)
	}
	// The edges, each less than the next: distinct, so every use of an
	// edge is given it; none is listed twice, so all are.
	edges := make([]int32, ne)
	pl, ph := int32(-1), int32(-1)
	for j := range ne {
		r := int32(le.Uint32(b[4*nh+4*j:]))
		if r < 0 || int(r) >= nh || first[r] != r {
			return badf(eAt+4*j, "edge %d is not an edge's first half-edge", r)
		}
		lo, hi := t.edgeKey(r)
		if lo < pl || lo == pl && hi <= ph {
			return badf(eAt+4*j, "edge %d (%d-%d) does not come after %d-%d: the order is wrong or they are one", r, lo, hi, pl, ph)
		}
		pl, ph = lo, hi
		edges[j] = r
	}
	t.Edges = ne
	t.Twin = make([]int32, nh)
	tu := newUnionFind(len(t.Tris))
	for h := range int32(nh) {
		t.Twin[h] = -1
		if r := first[h]; r >= 0 && r != h {
			tu.union(h/3, r/3)
			if uses[r] == 2 {
				t.Twin[h], t.Twin[r] = r, h
			}
		}
	}
	for i := range t.Tris {
		if !degen[i] && tu.find(int32(i)) == int32(i) {
			t.Components++
		}
	}
	misoriented := func(r int32) bool { n, f := uses[r], fwd[r]; return n == 2 && f != 1 || n > 2 && 2*f != n }
	for _, r := range edges {
		switch {
		case uses[r] == 1:
			t.NumBoundary++
		case uses[r] > 2:
			t.NumNonManifoldEdges++
		}
		if misoriented(r) {
			t.NumMisoriented++
		}
	}
	// The lists, in Of's order: by lower vertex, then by first half-edge.
	edgeOf := func(h int32) Edge {
		tr := m.Tris[h/3]
		return Edge{Tri: int(h / 3), V: [2]int{int(tr[h%3]), int(tr[(h%3+1)%3])}}
	}
	full := func() bool {
		return len(t.Boundary) == min(MaxListed, t.NumBoundary) && len(t.NonManifoldEdges) == min(MaxListed, t.NumNonManifoldEdges) &&
			len(t.Misoriented) == min(MaxListed, t.NumMisoriented)
	}
	var run []int32
	for j := 0; j < ne && !full(); {
		lo, _ := t.edgeKey(edges[j])
		run = run[:0]
		for ; j < ne; j++ {
			if l, _ := t.edgeKey(edges[j]); l != lo {
				break
			}
			run = append(run, edges[j])
		}
		slices.Sort(run)
		for _, r := range run {
			if uses[r] == 1 && len(t.Boundary) < MaxListed {
				t.Boundary = append(t.Boundary, edgeOf(r))
			}
			if uses[r] > 2 && len(t.NonManifoldEdges) < MaxListed {
				t.NonManifoldEdges = append(t.NonManifoldEdges, edgeOf(r))
			}
			if misoriented(r) && len(t.Misoriented) < MaxListed {
				t.Misoriented = append(t.Misoriented, edgeOf(r))
			}
		}
	}
	return nil
}
