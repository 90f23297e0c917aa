package hull

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/collide3d/collide/geom"
)

// face is a triangle of the incremental hull, oriented counterclockwise
// seen from outside: Orient3D(v0, v1, v2, p) > 0 iff p sees it. adj[i] is the
// face across the edge v[i] → v[i+1].
type face struct {
	p    [3]geom.Vec3 // the corners, copied for locality
	v    [3]int32
	adj  [3]int32
	head int32 // first pending point that sees this face, -1 if none
	mark int32 // insertion round of the last visibility test
	vis  bool  // result of that test
	dead bool
}

// horizonEdge is an edge a → b of a visible face whose neighbour g (across
// it, through g's edge j) is not visible.
type horizonEdge struct {
	a, b, g int32
	j       int8
}

// builder holds the state of the incremental construction of a solid hull.
type builder struct {
	pts     []geom.Vec3 // the finite points, simplex first, then in insertion order
	orig    []int32     // their indices in the input
	faces   []face
	free    []int32
	faceOf  []int32 // per point: face it sees, or inside / inserted
	next    []int32 // per point: next point in the same face's list
	startAt []int32 // per point: new face whose horizon edge starts there
	epoch   int32

	stack, visible, orphans, newFaces []int32
	horizon                           []horizonEdge
}

const (
	inside   = -1 // inside or on the hull, or ignored
	inserted = -2 // inserted: a vertex of the incremental hull
)

// build computes the hull of pts and, if withTris, the triangles of the
// incremental hull (for a solid hull), as indices into pts, oriented
// outward.
func build(pts []geom.Vec3, withTris bool) (*Hull, [][3]int32) {
	if len(pts) >= math.MaxInt32 {
		panic("hull: New with 2³¹ or more points")
	}
	ids := make([]int32, 0, len(pts))
	for i, p := range pts {
		if p.IsFinite() {
			ids = append(ids, int32(i))
		}
	}
	h := &Hull{dim: -1}
	if len(ids) == 0 {
		h.off = []int32{0}
		return h, nil
	}
	// The initial simplex: far-apart points make it well shaped, but only
	// the exact tests decide.
	p0 := ids[0]
	for _, i := range ids {
		if less(pts[i], pts[p0]) {
			p0 = i
		}
	}
	a := pts[p0]
	p1, best := int32(-1), 0.0
	for _, i := range ids {
		x := pts[i]
		if d := math.Abs(x.X-a.X) + math.Abs(x.Y-a.Y) + math.Abs(x.Z-a.Z); d > best {
			p1, best = i, d
		}
	}
	if p1 < 0 {
		h.dim = 0
		h.setVertices(pts, []int32{p0}, []int32{0, 0}, nil)
		return h, nil
	}
	// Scaled copies for the float estimates, which must not overflow.
	m := 0.0
	for _, i := range ids {
		m = max(m, math.Abs(pts[i].X), math.Abs(pts[i].Y), math.Abs(pts[i].Z))
	}
	sc := math.Ldexp(1, -math.Ilogb(m))
	sa, sb := a.Scale(sc), pts[p1].Scale(sc)
	u := sb.Sub(sa)
	p2, best := int32(-1), 0.0
	for _, i := range ids {
		if c := u.Cross(pts[i].Scale(sc).Sub(sa)).Abs(); c.X+c.Y+c.Z > best {
			p2, best = i, c.X+c.Y+c.Z
		}
	}
	if p2 < 0 || collinear(a, pts[p1], pts[p2]) {
		p2 = -1
		for _, i := range ids {
			if !collinear(a, pts[p1], pts[i]) {
				p2 = i
				break
			}
		}
	}
	if p2 < 0 {
		// Collinear: the extremes are the lexicographic min and max.
		p1 = p0
		for _, i := range ids {
			if less(pts[p1], pts[i]) {
				p1 = i
			}
		}
		h.dim = 1
		h.setVertices(pts, []int32{p0, p1}, []int32{0, 1, 2}, []int32{1, 0})
		return h, nil
	}
	n := u.Cross(pts[p2].Scale(sc).Sub(sa))
	p3, best := int32(-1), 0.0
	for _, i := range ids {
		if d := math.Abs(n.Dot(pts[i].Scale(sc).Sub(sa))); d > best {
			p3, best = i, d
		}
	}
	if p3 < 0 || geom.Orient3D(a, pts[p1], pts[p2], pts[p3]) == 0 {
		p3 = -1
		for _, i := range ids {
			if geom.Orient3D(a, pts[p1], pts[p2], pts[i]) != 0 {
				p3 = i
				break
			}
		}
	}
	if p3 < 0 {
		h.dim = 2
		polygon(h, pts, ids, p0, p1, p2)
		return h, nil
	}
	h.dim = 3
	// Work on a compact copy: the simplex, then the other points in a
	// pseudo-random order, which is the insertion order.
	first := [4]int32{p0, p1, p2, p3}
	ids = slices.DeleteFunc(ids, func(i int32) bool { return i == p0 || i == p1 || i == p2 || i == p3 })
	brio(pts, ids, sc)
	ids = append(first[:], ids...)
	nl := int32(len(ids))
	b := &builder{
		pts:     make([]geom.Vec3, nl),
		orig:    ids,
		faceOf:  make([]int32, nl),
		next:    make([]int32, nl),
		startAt: make([]int32, nl),
		faces:   make([]face, 0, 64+nl/4), // ≤ 2n-4 faces; fewer in practice
	}
	for i, id := range ids {
		b.pts[i] = pts[id]
	}
	b.simplex()
	for i := int32(4); i < nl; i++ {
		b.faceOf[i] = inside
		for f := range int32(4) {
			if b.sees(f, i) {
				b.assign(i, f)
				break
			}
		}
	}
	for i := int32(4); i < nl; i++ {
		if b.faceOf[i] >= 0 {
			b.insert(i)
		}
	}
	return h, b.finish(h, pts, withTris)
}

// brio puts ids in a biased randomized insertion order (Amenta, Choi and
// Rote, 2003): a pseudo-random permutation cut into rounds of doubling size,
// each round sorted along a Morton curve, so that consecutive insertions
// touch nearby faces (cache locality) while the expected O(n log n) bound of
// random order still holds. sc scales the coordinates below 2 in magnitude.
func brio(pts []geom.Vec3, ids []int32, sc float64) {
	rng := rand.New(rand.NewPCG(0x9e3779b97f4a7c15, uint64(len(ids))))
	rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	lo := geom.Vec3{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}
	hi := lo.Neg()
	for _, i := range ids {
		p := pts[i].Scale(sc)
		lo, hi = lo.Min(p), hi.Max(p)
	}
	type keyed struct {
		key uint64
		id  int32
	}
	buf := make([]keyed, 0, len(ids)-len(ids)/2)
	quant := func(x, lo, hi float64) uint64 {
		if !(hi > lo) {
			return 0
		}
		return uint64(min(max((x-lo)/(hi-lo)*(1<<21), 0), 1<<21-1))
	}
	for end := len(ids); end > 0; end /= 2 {
		start := end / 2
		if end <= 64 {
			start = 0
		}
		buf = buf[:0]
		for _, i := range ids[start:end] {
			p := pts[i].Scale(sc)
			k := spread(quant(p.X, lo.X, hi.X)) |
				spread(quant(p.Y, lo.Y, hi.Y))<<1 |
				spread(quant(p.Z, lo.Z, hi.Z))<<2
			buf = append(buf, keyed{k, i})
		}
		slices.SortFunc(buf, func(a, b keyed) int { return cmp.Compare(a.key, b.key) })
		for j, kv := range buf {
			ids[start+j] = kv.id
		}
		if start == 0 {
			break
		}
	}
}

// spread spreads the low 21 bits of x to every third bit.
func spread(x uint64) uint64 {
	x &= 1<<21 - 1
	x = (x | x<<32) & 0x1f00000000ffff
	x = (x | x<<16) & 0x1f0000ff0000ff
	x = (x | x<<8) & 0x100f00f00f00f00f
	x = (x | x<<4) & 0x10c30c30c30c30c3
	x = (x | x<<2) & 0x1249249249249249
	return x
}

// less orders points lexicographically by (X, Y, Z).
func less(p, q geom.Vec3) bool {
	if p.X != q.X {
		return p.X < q.X
	}
	if p.Y != q.Y {
		return p.Y < q.Y
	}
	return p.Z < q.Z
}

// collinear reports exactly whether a, b, c are collinear: the three
// components of (b-a)×(c-a) are the orientations of the projections onto
// the coordinate planes.
func collinear(a, b, c geom.Vec3) bool {
	return geom.Orient2D(a.X, a.Y, b.X, b.Y, c.X, c.Y) == 0 &&
		geom.Orient2D(a.Y, a.Z, b.Y, b.Z, c.Y, c.Z) == 0 &&
		geom.Orient2D(a.Z, a.X, b.Z, b.X, c.Z, c.X) == 0
}

// setVertices sets the vertices of h to the points ids, vertex i having the
// neighbours nbr[off[i]:off[i+1]] (indices into ids).
func (h *Hull) setVertices(pts []geom.Vec3, ids, off, nbr []int32) {
	h.verts = make([]geom.Vec3, len(ids))
	h.index = slices.Clip(ids)
	h.off = slices.Clip(off)
	h.nbr = slices.Clip(nbr)
	for i, id := range ids {
		p := pts[id]
		h.verts[i] = p
		h.maxAbs = max(h.maxAbs, math.Abs(p.X), math.Abs(p.Y), math.Abs(p.Z))
	}
}

// polygon sets h to the convex polygon of the coplanar points ids, of
// which a, b, c are not collinear: Andrew's monotone chain with exact
// Orient2D on the projection onto a coordinate plane in which a, b, c stay
// non-collinear (the projection is then one-to-one on their plane).
// Collinear boundary points and duplicates are dropped.
func polygon(h *Hull, pts []geom.Vec3, ids []int32, a, b, c int32) {
	type uv struct {
		u, v float64
		id   int32
	}
	pa, pb, pc := pts[a], pts[b], pts[c]
	proj := func(p geom.Vec3) (float64, float64) { return p.X, p.Y }
	switch {
	case geom.Orient2D(pa.X, pa.Y, pb.X, pb.Y, pc.X, pc.Y) != 0:
	case geom.Orient2D(pa.Y, pa.Z, pb.Y, pb.Z, pc.Y, pc.Z) != 0:
		proj = func(p geom.Vec3) (float64, float64) { return p.Y, p.Z }
	default:
		proj = func(p geom.Vec3) (float64, float64) { return p.Z, p.X }
	}
	q := make([]uv, len(ids))
	for i, id := range ids {
		q[i].u, q[i].v = proj(pts[id])
		q[i].id = id
	}
	slices.SortFunc(q, func(x, y uv) int {
		switch {
		case x.u < y.u:
			return -1
		case x.u > y.u:
			return 1
		case x.v < y.v:
			return -1
		case x.v > y.v:
			return 1
		}
		return 0
	})
	q = slices.CompactFunc(q, func(x, y uv) bool { return x.u == y.u && x.v == y.v })
	turn := func(x, y, z uv) int { return geom.Orient2D(x.u, x.v, y.u, y.v, z.u, z.v) }
	var ch []uv
	for _, p := range q { // lower chain
		for len(ch) >= 2 && turn(ch[len(ch)-2], ch[len(ch)-1], p) <= 0 {
			ch = ch[:len(ch)-1]
		}
		ch = append(ch, p)
	}
	lower := len(ch)
	for i := len(q) - 2; i >= 0; i-- { // upper chain
		p := q[i]
		for len(ch) > lower && turn(ch[len(ch)-2], ch[len(ch)-1], p) <= 0 {
			ch = ch[:len(ch)-1]
		}
		ch = append(ch, p)
	}
	ch = ch[:len(ch)-1] // the first point again
	k := int32(len(ch))
	vs := make([]int32, k)
	off := make([]int32, k+1)
	nbr := make([]int32, 2*k)
	for i := range k {
		vs[i] = ch[i].id
		off[i+1] = 2 * (i + 1)
		nbr[2*i], nbr[2*i+1] = (i+k-1)%k, (i+1)%k
	}
	h.setVertices(pts, vs, off, nbr)
}

func (b *builder) sees(f, p int32) bool {
	c := &b.faces[f].p
	return geom.Orient3D(c[0], c[1], c[2], b.pts[p]) > 0
}

func (b *builder) assign(p, f int32) {
	b.faceOf[p] = f
	b.next[p] = b.faces[f].head
	b.faces[f].head = p
}

func (b *builder) newFace(v0, v1, v2 int32) int32 {
	fc := face{
		p:    [3]geom.Vec3{b.pts[v0], b.pts[v1], b.pts[v2]},
		v:    [3]int32{v0, v1, v2},
		adj:  [3]int32{-1, -1, -1},
		head: -1,
	}
	if n := len(b.free); n > 0 {
		f := b.free[n-1]
		b.free = b.free[:n-1]
		b.faces[f] = fc
		return f
	}
	if len(b.faces) == cap(b.faces) { // double (append grows large slices by 1.25)
		b.faces = append(make([]face, 0, 2*cap(b.faces)), b.faces...)
	}
	b.faces = append(b.faces, fc)
	return int32(len(b.faces) - 1)
}

// simplex makes the four faces of the tetrahedron of points 0-3 (not
// coplanar), each oriented away from the opposite vertex.
func (b *builder) simplex() {
	t := [4]int32{0, 1, 2, 3}
	for k := range 4 {
		x, y, z := t[(k+1)%4], t[(k+2)%4], t[(k+3)%4]
		if geom.Orient3D(b.pts[x], b.pts[y], b.pts[z], b.pts[t[k]]) > 0 {
			y, z = z, y
		}
		b.newFace(x, y, z)
	}
	for f := range 4 {
		for i := range 3 {
			p, q := b.faces[f].v[i], b.faces[f].v[(i+1)%3]
			for g := range 4 {
				for j := range 3 {
					if b.faces[g].v[j] == q && b.faces[g].v[(j+1)%3] == p {
						b.faces[f].adj[i] = int32(g)
					}
				}
			}
		}
	}
	for _, p := range t {
		b.faceOf[p] = inserted
	}
}

// insert adds point p, which sees face faceOf[p], to the hull. The faces p
// sees form a disc (connected, bounded by a simple cycle of horizon edges);
// they are replaced by a cone of new faces from p to the horizon. A pending
// point that saw a removed face either lies in the new hull or sees one of
// the new faces (it lies outside the cone from p spanned by the old hull),
// so only the new faces are tried for it.
func (b *builder) insert(p int32) {
	b.epoch++
	ep := b.epoch
	f0 := b.faceOf[p]
	b.faceOf[p] = inserted
	b.faces[f0].mark, b.faces[f0].vis = ep, true
	b.stack = append(b.stack[:0], f0)
	b.visible = b.visible[:0]
	b.horizon = b.horizon[:0]
	for len(b.stack) > 0 {
		f := b.stack[len(b.stack)-1]
		b.stack = b.stack[:len(b.stack)-1]
		b.visible = append(b.visible, f)
		for i := range 3 {
			g := b.faces[f].adj[i]
			gf := &b.faces[g]
			if gf.mark != ep {
				gf.mark, gf.vis = ep, b.sees(g, p)
				if gf.vis {
					b.stack = append(b.stack, g)
				}
			}
			if !gf.vis {
				j := int8(0)
				for gf.adj[j] != f {
					j++
				}
				fv := &b.faces[f].v
				b.horizon = append(b.horizon, horizonEdge{a: fv[i], b: fv[(i+1)%3], g: g, j: j})
			}
		}
	}
	b.orphans = b.orphans[:0]
	for _, f := range b.visible {
		for q := b.faces[f].head; q >= 0; q = b.next[q] {
			if q != p {
				b.orphans = append(b.orphans, q)
			}
		}
		b.faces[f].dead = true
		b.free = append(b.free, f)
	}
	b.newFaces = b.newFaces[:0]
	for _, e := range b.horizon {
		n := b.newFace(e.a, e.b, p)
		b.faces[n].adj[0] = e.g
		b.faces[e.g].adj[e.j] = n
		b.startAt[e.a] = n
		b.newFaces = append(b.newFaces, n)
	}
	for _, n := range b.newFaces {
		m := b.startAt[b.faces[n].v[1]]
		b.faces[n].adj[1] = m
		b.faces[m].adj[2] = n
	}
	// Consecutive orphans come from the same removed face and tend to see
	// the same new face: start from the last one found.
	last, nn := 0, len(b.newFaces)
	for _, q := range b.orphans {
		b.faceOf[q] = inside
		for j := range nn {
			k := last + j
			if k >= nn {
				k -= nn
			}
			if n := b.newFaces[k]; b.sees(n, q) {
				b.assign(q, n)
				last = k
				break
			}
		}
	}
}

// finish sets the vertex graph of h from the triangulated hull: an edge is
// flat when its two triangles are coplanar; a vertex is extreme when at
// least 3 non-flat edges meet there (a vertex in a face has none, one inside
// an edge of the polytope has 2, collinear); the hull edges are the chains
// of non-flat edges between extreme vertices. It returns the live
// triangles (as indices into pts) if withTris.
func (b *builder) finish(h *Hull, pts []geom.Vec3, withTris bool) [][3]int32 {
	local := b.startAt // reused: point → local vertex id
	for i := range local {
		local[i] = -1
	}
	var tris [][3]int32
	var tv []int32 // local id → point
	type edge struct{ a, b int32 }
	edges := make([]edge, 0, 3*len(b.faces)/2)
	for f := range b.faces {
		fc := &b.faces[f]
		if fc.dead {
			continue
		}
		if withTris {
			tris = append(tris, [3]int32{b.orig[fc.v[0]], b.orig[fc.v[1]], b.orig[fc.v[2]]})
		}
		for _, v := range fc.v {
			if local[v] < 0 {
				local[v] = int32(len(tv))
				tv = append(tv, v)
			}
		}
		for i := range 3 {
			g := fc.adj[i]
			if int32(f) > g {
				continue
			}
			x, y, z := fc.v[i], fc.v[(i+1)%3], fc.v[(i+2)%3]
			opp := int32(-1)
			for _, w := range b.faces[g].v {
				if w != x && w != y {
					opp = w
				}
			}
			if geom.Orient3D(b.pts[x], b.pts[y], b.pts[z], b.pts[opp]) != 0 {
				edges = append(edges, edge{local[x], local[y]})
			}
		}
	}
	nv := len(tv)
	off := make([]int32, nv+1)
	for _, e := range edges {
		off[e.a+1]++
		off[e.b+1]++
	}
	for i := range nv {
		off[i+1] += off[i]
	}
	nb := make([]int32, off[nv])
	fill := slices.Clone(off[:nv])
	for _, e := range edges {
		nb[fill[e.a]] = e.b
		fill[e.a]++
		nb[fill[e.b]] = e.a
		fill[e.b]++
	}
	extreme := func(v int32) bool { return off[v+1]-off[v] >= 3 }
	// Hull vertices in input order (tv is no longer needed as local → point).
	slices.SortFunc(tv, func(x, y int32) int { return cmp.Compare(b.orig[x], b.orig[y]) })
	hid := make([]int32, nv)
	var ids []int32
	for _, p := range tv {
		if l := local[p]; extreme(l) {
			hid[l] = int32(len(ids))
			ids = append(ids, p)
		}
	}
	hoff := make([]int32, len(ids)+1)
	hnbr := make([]int32, 0, len(edges)*2)
	for k, p := range ids {
		v := local[p]
		for _, w := range nb[off[v]:off[v+1]] {
			prev, cur := v, w
			for steps := 0; !extreme(cur) && steps < nv; steps++ {
				c := nb[off[cur]:off[cur+1]]
				if len(c) != 2 {
					break // impossible (see above); do not loop
				}
				nxt := c[0]
				if nxt == prev {
					nxt = c[1]
				}
				prev, cur = cur, nxt
			}
			if extreme(cur) && cur != v {
				hnbr = append(hnbr, hid[cur])
			}
		}
		hoff[k+1] = int32(len(hnbr))
	}
	for k, p := range ids {
		ids[k] = b.orig[p]
	}
	h.setVertices(pts, ids, hoff, hnbr)
	return tris
}
