package collide

import (
	"math"
	"slices"

	"github.com/collide3d/collide/geom"
)

// Patch is a connected set of contacts (QueryOptions.Patches).
//
// # The rule
//
// Each contact point is keyed by the features that hold it (Contact.Features)
// mapped to the models' own geometry: an environment vertex by its position
// (the float64 bits of its coordinates, −0 taken as +0), an environment edge
// by its two endpoints' positions (sorted), the environment's face by its
// triangle's index; the same for the flying triangle, in the flying model's
// coordinates (so the keys do not depend on the pose). The point's key is
// the pair (environment key, flying key). Two contacts sharing a key share
// the whole set those two features have in common, so they meet; a patch is
// a class of the equivalence this generates (union-find). The rule joins the
// pairs of an intersection curve across the edges and vertices their
// triangles share, in welded meshes and in soups whose triangles repeat the
// same vertex positions alike; it does not join across a T-junction (an edge
// that only overlaps another) nor contacts that merely come close. A contact
// without features (geom.Apart, from a tolerance) is a patch by itself.
//
// Patches are listed by their least contact index.
type Patch struct {
	// Contacts indexes Result.Contacts, ascending.
	Contacts []int
	// Curves are the intersection curves: polylines chained from the
	// contacts' segments, and from the edges of their coplanar polygons,
	// through the endpoints they share (same key), closed (first point
	// repeated last, bit for bit) when they close. A segment that the
	// patch holds twice (twin triangles) counts once; a polygon edge that
	// two of the patch's polygons share (the overlap of two coplanar
	// faces split by the triangles' diagonals) cancels, so the polygons of
	// a tiled overlap contribute their outline (an overlap that twin
	// polygons repeat counts once). A chain ends where three or more
	// pieces meet. A point contact has no curve. Each curve point is the
	// first computed point of its key.
	Curves [][]geom.Vec3
	// Point is a representative point: over the contacts of the patch's
	// highest dimension, the area-weighted centroid of the coplanar
	// polygons, else the length-weighted mean of the segments' midpoints,
	// else the mean of the points (the mean of the two closest points for
	// an apart pair). Normal is the patch's unit normal, from the
	// environment towards the flying model: the sum of the same contacts'
	// normals weighted the same way (area, length, 1), normalised; the
	// first contact's normal when the sum vanishes. Never NaN.
	Point, Normal geom.Vec3
	// Manifold holds at most 4 points of the patch spread over it, for
	// simulators: all of its distinct points when it has at most 4, else,
	// as the contact reduction of physics engines (Bullet's
	// sortCachedPoints, Jolt's PruneContactPoints) keeps the points that
	// span the largest area: the point farthest along a fixed tangent of
	// Normal, then the point farthest from it, then the two that make the
	// largest triangles with those two on either side (seen along
	// Normal), the quadrilateral of largest area they can make.
	Manifold []geom.Vec3
	// Depth, when DepthKnown, is a certified interval for the penetration
	// along Normal (filled by package depth for closed meshes).
	Depth      [2]float64
	DepthKnown bool
}

// featKey names a feature of a triangle by the model's geometry: word 0
// holds its kind (0 vertex, 1 edge, 2 face) and, for a face, its
// triangle's index; words 1-3 and 4-6 the bits of its positions (one for a
// vertex, the edge's two in order, none for a face). Plain words hash as
// memory, faster than float64 keys.
type featKey [7]uint64

// pointKey is a contact point's key: the environment's feature, then the
// flying model's.
type pointKey [2]featKey

// posKey returns the key of a position: its coordinates' bits, −0 as +0.
func posKey(v geom.Vec3) [3]uint64 {
	return [3]uint64{math.Float64bits(v.X + 0), math.Float64bits(v.Y + 0), math.Float64bits(v.Z + 0)}
}

// keyOf returns the key of feature f of triangle i, t, in model coordinates.
func keyOf(t geom.Triangle, i int32, f geom.Feature) featKey {
	var k featKey
	switch f {
	case geom.Vertex0, geom.Vertex1, geom.Vertex2:
		v := posKey(t[f-geom.Vertex0])
		copy(k[1:4], v[:])
	case geom.Edge01, geom.Edge12, geom.Edge20:
		e := int(f - geom.Edge01)
		a, b := posKey(t[e]), posKey(t[(e+1)%3])
		if lessPos(b, a) {
			a, b = b, a
		}
		k[0] = 1 << 32
		copy(k[1:4], a[:])
		copy(k[4:7], b[:])
	default:
		k[0] = 2<<32 | uint64(uint32(i))
	}
	return k
}

// lessPos orders position keys (lexicographically by their bits: any
// fixed order will do).
func lessPos(a, b [3]uint64) bool {
	for i := range 3 {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// curveEdge is a piece of a patch's curves between two keyed points
// (nodes).
type curveEdge struct {
	patch int32
	a, b  int32 // nodes
}

// patchScratch holds the buffers of patch building, reused by a Query.
type patchScratch struct {
	nodes   map[pointKey]int32
	nodePt  []geom.Vec3 // a node's point: the first computed point of its key
	owner   []int32     // a node's first contact
	ptNode  []int32     // the node of each contact point, in contact order (-1: none)
	ptOff   []int32     // where a contact's points start in ptNode
	seen    []bool      // a node's point is a manifold candidate already
	parent  []int32     // union-find over contacts
	patchOf []int32     // a contact's patch (by root first, then by contact)

	// The curves' pieces.
	edges   []curveEdge
	edgeSet map[[2]int32]int32 // bit 0: a segment holds it; the rest: polygon count ×2
	polySet map[[maxContactPoints]int32]struct{}
	sorted  []curveEdge
	at      []int32 // the counting sort's cursors
	deg     []int32
	adj     []int32 // adjacency lists, adjAt[n]..adjAt[n+1]
	adjAt   []int32
	used    []bool
	cand    []geom.Vec3
	spans   [][2]int // each curve's range in curvePts

	out      []Patch
	ints     []int
	curvePts []geom.Vec3
	curves   [][]geom.Vec3
	man      []geom.Vec3
	// Per patch ranges into ints, curves and man, until the buffers stop
	// growing.
	ranges [][6]int
}

func (s *patchScratch) find(i int32) int32 {
	for s.parent[i] != i {
		s.parent[i] = s.parent[s.parent[i]]
		i = s.parent[i]
	}
	return i
}

func (s *patchScratch) union(a, b int32) {
	a, b = s.find(a), s.find(b)
	switch {
	case a < b:
		s.parent[b] = a
	case b < a:
		s.parent[a] = b
	}
}

// build groups cs (the contacts of pairs of env and fly) into patches, in
// s's buffers.
func (s *patchScratch) build(env, fly *Model, cs []Contact) []Patch {
	if s.nodes == nil {
		s.nodes = make(map[pointKey]int32)
		s.edgeSet = make(map[[2]int32]int32)
		s.polySet = make(map[[maxContactPoints]int32]struct{})
	}
	clear(s.nodes)
	s.nodePt, s.owner, s.ptNode = s.nodePt[:0], s.owner[:0], s.ptNode[:0]
	s.parent = grow(s.parent, len(cs))
	for i := range cs {
		s.parent[i] = int32(i)
	}
	// Key every point; join the contacts that share a key.
	em, fm := env.mesh, fly.mesh
	s.ptOff = grow(s.ptOff, len(cs))
	for i := range cs {
		c := &cs[i]
		s.ptOff[i] = int32(len(s.ptNode))
		if c.Features == nil {
			for range c.Points {
				s.ptNode = append(s.ptNode, -1)
			}
			continue
		}
		et, ft := em.Triangle(int(c.Pair.Env)), fm.Triangle(int(c.Pair.Fly))
		for k, f := range c.Features {
			key := pointKey{keyOf(et, c.Pair.Env, f[0]), keyOf(ft, c.Pair.Fly, f[1])}
			n, ok := s.nodes[key]
			if !ok {
				n = int32(len(s.owner))
				s.nodes[key] = n
				s.owner = append(s.owner, int32(i))
				s.nodePt = append(s.nodePt, c.Points[k])
			} else {
				s.union(int32(i), s.owner[n])
			}
			s.ptNode = append(s.ptNode, n)
		}
	}
	// Number the patches by their least contact.
	s.patchOf = grow(s.patchOf, len(cs))
	np := 0
	for i := range cs {
		r := s.find(int32(i))
		if r == int32(i) {
			s.patchOf[i] = int32(np)
			np++
		} else {
			s.patchOf[i] = s.patchOf[r]
		}
	}
	s.out = s.out[:0]
	for range np {
		s.out = append(s.out, Patch{})
	}
	s.ranges = s.ranges[:0]
	for range np {
		s.ranges = append(s.ranges, [6]int{})
	}
	// Contacts per patch (counting sort).
	s.ints = growInts(s.ints, len(cs))
	for i := range cs {
		s.ranges[s.patchOf[i]][1]++
	}
	at := 0
	for p := range s.ranges {
		n := s.ranges[p][1]
		s.ranges[p][0], s.ranges[p][1] = at, at
		at += n
	}
	for i := range cs {
		r := &s.ranges[s.patchOf[i]]
		s.ints[r[1]] = i
		r[1]++
	}
	s.curvePieces(cs, np)
	s.chain(np)
	s.man = s.man[:0]
	if cap(s.seen) < len(s.owner) {
		s.seen = make([]bool, len(s.owner))
	}
	s.seen = s.seen[:len(s.owner)]
	clear(s.seen)
	for p := range np {
		s.summarise(cs, p)
	}
	// Cut the slices now that the buffers stop growing.
	s.curves = s.curves[:0]
	for _, sp := range s.spans {
		s.curves = append(s.curves, s.curvePts[sp[0]:sp[1]:sp[1]])
	}
	for p := range s.out {
		r := s.ranges[p]
		s.out[p].Contacts = s.ints[r[0]:r[1]:r[1]]
		s.out[p].Curves = s.curves[r[2]:r[3]:r[3]]
		s.out[p].Manifold = s.man[r[4]:r[5]:r[5]]
	}
	return s.out
}

// grow returns b resized to n (contents unspecified).
func grow(b []int32, n int) []int32 {
	if cap(b) < n {
		return make([]int32, n)
	}
	return b[:n]
}

func growInts(b []int, n int) []int {
	if cap(b) < n {
		return make([]int, n)
	}
	return b[:n]
}

// curvePieces lists the pieces of the curves: each segment once, and the
// polygon edges that an odd number of distinct polygons hold, in contact
// order, sorted by patch into s.sorted.
func (s *patchScratch) curvePieces(cs []Contact, np int) {
	clear(s.edgeSet)
	clear(s.polySet)
	s.edges = s.edges[:0]
	off := 0
	for i := range cs {
		c := &cs[i]
		nodes := s.ptNode[off : off+len(c.Points)]
		off += len(c.Points)
		if c.Features == nil || len(nodes) < 2 {
			continue
		}
		patch := s.patchOf[i]
		if len(nodes) == 2 {
			s.addEdge(patch, nodes[0], nodes[1], 1)
			continue
		}
		// A polygon that an earlier contact holds too (twins) counts once.
		var pk [maxContactPoints]int32
		for k := range pk {
			pk[k] = -1
		}
		copy(pk[:], nodes)
		sortNodes(pk[:len(nodes)])
		if _, ok := s.polySet[pk]; ok {
			continue
		}
		s.polySet[pk] = struct{}{}
		for k := range nodes {
			s.addEdge(patch, nodes[k], nodes[(k+1)%len(nodes)], 2)
		}
	}
	// Keep the segments and the polygon edges held an odd number of times.
	kept := s.edges[:0]
	for _, e := range s.edges {
		k := edgeKey(e.a, e.b)
		v, ok := s.edgeSet[k]
		if !ok {
			continue // kept already
		}
		if v&1 != 0 || (v>>1)&1 != 0 {
			kept = append(kept, e)
		}
		delete(s.edgeSet, k)
	}
	s.edges = kept
	// By patch, keeping the order within each (a counting sort).
	s.at = grow(s.at, np+1)
	clear(s.at)
	for _, e := range s.edges {
		s.at[e.patch+1]++
	}
	for p := range np {
		s.at[p+1] += s.at[p]
	}
	if cap(s.sorted) < len(s.edges) {
		s.sorted = make([]curveEdge, len(s.edges))
	}
	s.sorted = s.sorted[:len(s.edges)]
	for _, e := range s.edges {
		s.sorted[s.at[e.patch]] = e
		s.at[e.patch]++
	}
}

// addEdge records a piece between nodes a and b of patch, from a segment
// (how = 1) or a polygon (how = 2); a piece from a point to itself is left
// out.
func (s *patchScratch) addEdge(patch, a, b int32, how int32) {
	if a == b {
		return
	}
	k := edgeKey(a, b)
	v, ok := s.edgeSet[k]
	if !ok {
		s.edges = append(s.edges, curveEdge{patch: patch, a: a, b: b})
	}
	if how == 1 {
		v |= 1
	} else {
		v += 2
	}
	s.edgeSet[k] = v
}

func edgeKey(a, b int32) [2]int32 {
	if b < a {
		a, b = b, a
	}
	return [2]int32{a, b}
}

// sortNodes sorts a few node ids (insertion sort: at most 6).
func sortNodes(a []int32) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// chain chains each patch's pieces into polylines: first from the nodes
// where a chain must end (other than two pieces meet there), then the
// closed loops.
func (s *patchScratch) chain(np int) {
	nn := len(s.owner)
	s.deg = grow(s.deg, nn)
	clear(s.deg)
	for _, e := range s.sorted {
		s.deg[e.a]++
		s.deg[e.b]++
	}
	s.adjAt = grow(s.adjAt, nn+1)
	at := int32(0)
	for n := range nn {
		s.adjAt[n] = at
		at += s.deg[n]
	}
	s.adjAt[nn] = at
	s.adj = grow(s.adj, int(at))
	clear(s.deg) // now the fill cursor of each list
	for i, e := range s.sorted {
		for _, n := range [2]int32{e.a, e.b} {
			s.adj[s.adjAt[n]+s.deg[n]] = int32(i)
			s.deg[n]++
		}
	}
	if cap(s.used) < len(s.sorted) {
		s.used = make([]bool, len(s.sorted))
	}
	s.used = s.used[:len(s.sorted)]
	clear(s.used)
	s.curvePts, s.spans = s.curvePts[:0], s.spans[:0]
	lo := 0
	for p := range np {
		hi := lo
		for hi < len(s.sorted) && s.sorted[hi].patch == int32(p) {
			hi++
		}
		s.ranges[p][2] = len(s.spans)
		for i := lo; i < hi; i++ {
			for _, n := range [2]int32{s.sorted[i].a, s.sorted[i].b} {
				if s.degree(n) != 2 {
					for s.walkFrom(n) {
					}
				}
			}
		}
		for i := lo; i < hi; i++ {
			if !s.used[i] {
				s.walk(s.sorted[i].a, int32(i))
			}
		}
		s.ranges[p][3] = len(s.spans)
		lo = hi
	}
}

func (s *patchScratch) degree(n int32) int32 { return s.adjAt[n+1] - s.adjAt[n] }

// walkFrom walks a chain from node n along its first unused piece, and
// reports whether there was one.
func (s *patchScratch) walkFrom(n int32) bool {
	for _, e := range s.adj[s.adjAt[n]:s.adjAt[n+1]] {
		if !s.used[e] {
			s.walk(n, e)
			return true
		}
	}
	return false
}

// walk chains pieces from node n along piece e, on while the next node
// joins exactly two pieces, and records the polyline (closed when it comes
// back to n).
func (s *patchScratch) walk(n int32, e int32) {
	start := len(s.curvePts)
	first := n
	s.curvePts = append(s.curvePts, s.nodePt[n])
	for {
		s.used[e] = true
		if n == s.sorted[e].a {
			n = s.sorted[e].b
		} else {
			n = s.sorted[e].a
		}
		if n == first {
			s.curvePts = append(s.curvePts, s.curvePts[start])
			break
		}
		s.curvePts = append(s.curvePts, s.nodePt[n])
		if s.degree(n) != 2 {
			break
		}
		next := int32(-1)
		for _, f := range s.adj[s.adjAt[n]:s.adjAt[n+1]] {
			if !s.used[f] {
				next = f
			}
		}
		if next < 0 {
			break
		}
		e = next
	}
	s.spans = append(s.spans, [2]int{start, len(s.curvePts)})
}

// summarise sets patch p's Point and Normal, and appends its Manifold to
// s.man.
func (s *patchScratch) summarise(cs []Contact, p int) {
	r := &s.ranges[p]
	idx := s.ints[r[0]:r[1]]
	// The highest dimension among the patch's contacts with a positive
	// weight: 2 polygons (area), 1 segments (length), 0 points.
	var acc [3]struct {
		w     float64 // total weight
		point geom.Vec3
		sum   geom.Vec3 // weighted normals
		n     int
	}
	for _, i := range idx {
		c := &cs[i]
		d, w, pt := 0, 1.0, mean(c.Points)
		switch {
		case c.Kind == geom.Apart || len(c.Points) == 1:
		case len(c.Points) == 2:
			d, w, pt = 1, c.Points[0].Distance(c.Points[1]), c.Points[0].Lerp(c.Points[1], 0.5)
		default:
			d = 2
			w, pt = polygonArea(c.Points)
		}
		if !(w > 0 && w <= math.MaxFloat64) {
			continue
		}
		a := &acc[d]
		a.w += w
		a.n++
		// A running weighted mean does not overflow.
		a.point = a.point.Add(pt.Sub(a.point).Scale(w / a.w))
		a.sum = a.sum.Add(c.Normal.Scale(w))
	}
	out := &s.out[p]
	out.Normal = cs[idx[0]].Normal
	out.Point = mean(cs[idx[0]].Points)
	for d := 2; d >= 0; d-- {
		if a := &acc[d]; a.n > 0 && a.point.IsFinite() {
			out.Point = a.point
			if n, ok := unit(a.sum); ok {
				out.Normal = n
			}
			break
		}
	}
	if math.Abs(out.Normal.Norm()-1) > 1e-12 {
		// Contact normals are unit; this is a guard, never NaN.
		out.Normal = geom.V(0, 0, 1)
		for _, i := range idx {
			if n, ok := unit(cs[i].Normal); ok {
				out.Normal = n
				break
			}
		}
	}
	// The manifold's candidates: the patch's distinct points.
	s.cand = s.cand[:0]
	for _, i := range idx {
		for k, pt := range cs[i].Points {
			switch n := s.ptNode[int(s.ptOff[i])+k]; {
			case n < 0:
				s.cand = append(s.cand, pt)
			case !s.seen[n]:
				s.seen[n] = true
				s.cand = append(s.cand, s.nodePt[n])
			}
		}
	}
	r[4] = len(s.man)
	s.man = appendManifold(s.man, s.cand, out.Normal)
	r[5] = len(s.man)
}

// mean returns the mean of pts (the origin for none).
func mean(pts []geom.Vec3) geom.Vec3 {
	var m geom.Vec3
	for i, p := range pts {
		m = m.Add(p.Sub(m).Scale(1 / float64(i+1)))
	}
	return m
}

// polygonArea returns the area and the centroid of the convex polygon pts
// (by the fan from its first point); the mean of its points when its area
// is 0.
func polygonArea(pts []geom.Vec3) (float64, geom.Vec3) {
	a, c := 0.0, geom.Vec3{}
	for k := 1; k+1 < len(pts); k++ {
		w := 0.5 * pts[k].Sub(pts[0]).Cross(pts[k+1].Sub(pts[0])).Norm()
		if !(w > 0) {
			continue
		}
		a += w
		t := pts[0].Add(pts[k]).Add(pts[k+1]).Scale(1.0 / 3)
		c = c.Add(t.Sub(c).Scale(w / a))
	}
	if !(a > 0) {
		return 0, mean(pts)
	}
	return a, c
}

// manifoldTangent is the angle, from the axis-derived tangent of a normal,
// of the direction along which the manifold's first point is the farthest:
// not a multiple of π/4, so that the extreme of an axis-aligned patch is a
// corner, not a tie along a side.
const manifoldTangent = 0.4

// appendManifold appends to dst at most 4 of pts spread over them, seen
// along the unit normal n (see Patch.Manifold), and returns it.
func appendManifold(dst, pts []geom.Vec3, n geom.Vec3) []geom.Vec3 {
	if len(pts) <= 4 {
		return append(dst, pts...)
	}
	// A tangent: n × the axis along which n is the smallest, turned by
	// manifoldTangent about n.
	ax := geom.V(1, 0, 0)
	if a := n.Abs(); a.Y <= a.X && a.Y <= a.Z {
		ax = geom.V(0, 1, 0)
	} else if a.Z <= a.X && a.Z <= a.Y {
		ax = geom.V(0, 0, 1)
	}
	t, _ := unit(n.Cross(ax))
	sn, cs := math.Sincos(manifoldTangent)
	t = t.Scale(cs).Add(n.Cross(t).Scale(sn))
	i0, best := 0, math.Inf(-1)
	for i, p := range pts {
		if d := p.Dot(t); d > best {
			i0, best = i, d
		}
	}
	p0 := pts[i0]
	i1, best := i0, 0.0
	for i, p := range pts {
		if d := p.Sub(p0).Norm2(); d > best {
			i1, best = i, d
		}
	}
	p1 := pts[i1]
	e := p1.Sub(p0)
	i2, i3, hi, lo := -1, -1, 0.0, 0.0
	for i, p := range pts {
		a := e.Cross(p.Sub(p0)).Dot(n)
		if a > hi {
			i2, hi = i, a
		}
		if a < lo {
			i3, lo = i, a
		}
	}
	dst = append(dst, p0)
	if i1 != i0 {
		dst = append(dst, p1)
	}
	if i2 >= 0 {
		dst = append(dst, pts[i2])
	}
	if i3 >= 0 {
		dst = append(dst, pts[i3])
	}
	return dst
}

// clonePatches returns a deep copy of ps (for the function Check).
func clonePatches(ps []Patch) []Patch {
	if ps == nil {
		return nil
	}
	out := make([]Patch, len(ps))
	for i, p := range ps {
		p.Contacts = slices.Clone(p.Contacts)
		p.Manifold = slices.Clone(p.Manifold)
		curves := make([][]geom.Vec3, len(p.Curves))
		for j, c := range p.Curves {
			curves[j] = slices.Clone(c)
		}
		p.Curves = curves
		out[i] = p
	}
	return out
}
