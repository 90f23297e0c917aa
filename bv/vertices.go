package bv

import (
	"math"
	"math/bits"

	"github.com/collide3d/collide/geom"
)

// MaxVertices returns the largest number of vertices of a k-DOP: 2k − 4, that
// is 8, 12, 20, 24, 32, 36 and 48 for k = 6, 8, 12, 14, 18, 20 and 26 (a
// polytope with k faces has at most 2k − 4 vertices, reached when it is
// simple and every face is present). It returns 0 for an unsupported k.
func MaxVertices(k K) int {
	if k.Valid() {
		return 2*int(k) - 4
	}
	return 0
}

// Vertices appends the vertices of the polytope d (the intersection of its k
// halfspaces) to dst and returns the extended slice. It appends nothing if d
// is empty (some Lo[i] > Hi[i], a NaN bound, or slabs with no common point),
// unbounded (an infinite axis bound) or of an unsupported K. A flat d (with a
// zero-thickness slab, say) gives the vertices of its polygon, a segment its
// 2 end points and a single point 1 vertex. It does not allocate when dst
// has room for MaxVertices(k) more vertices.
//
// Let B be the box of the axis slabs, or, for a set without the axes (8, 12,
// 20), the box that Box derives from the diagonals, which contains d; M the
// largest magnitude of B's bounds, S its largest extent, and tol =
// 2⁻⁴⁰·(M + S). The polytope is computed in float64, relative to the
// centre of B, by cutting B with the planes of the diagonal slabs, a vertex
// within tol/16 of a plane counting as on it. Then:
//
//   - every vertex of the exact polytope lies within tol of a returned vertex,
//     so the convex hull of the returned vertices, padded by tol, contains
//     the polytope;
//   - every returned vertex v satisfies every slab to within tol:
//     Lo[i] − tol·|d_i| ≤ d_i·v ≤ Hi[i] + tol·|d_i| (so a d that is empty
//     by less than that may still give vertices);
//   - no two returned vertices are within tol/2 of each other (vertices of
//     the exact polytope closer than that are merged), and there are at
//     most MaxVertices(k) of them.
//
// A caller that needs a conservative bound should pad by more than tol.
func (d *DOP) Vertices(dst []geom.Vec3) []geom.Vec3 {
	var p vertPoly
	if !p.build(d) || p.empty {
		return dst
	}
	var out [vertSlots]geom.Vec3
	n := 0
	if !p.bad {
		n = p.collect(&out)
	}
	if m := MaxVertices(d.K); p.bad || n > m {
		// Never seen: the cutting lost its consistency.
		n = p.brute(&out)
		for merge := p.merge; n > m; {
			merge *= 2
			n = vertMerge(out[:n], merge)
		}
	}
	for _, v := range out[:n] {
		dst = append(dst, v.Scale(p.unit).Add(p.c))
	}
	return dst
}

// Volume returns the volume of the polytope d, the intersection of its k
// halfspaces. It returns 0 if d is empty (as in Vertices), flat (within the
// tolerance of Vertices: a zero-thickness slab, say) or of an unsupported K,
// and +Inf if d is unbounded (an infinite bound of its box, see Vertices). It is the volume of
// the polytope whose vertices Vertices returns (before they are merged), so
// it is within about tol·A of the exact volume, A the surface area and tol
// as in Vertices. It does not allocate.
func (d *DOP) Volume() float64 {
	var p vertPoly
	if !p.build(d) {
		if MaxVertices(d.K) == 0 || d.IsEmpty() {
			return 0
		}
		return math.Inf(1)
	}
	if p.empty || p.flat {
		return 0
	}
	if p.bad {
		// Never seen: the cutting lost its consistency.
		var out [vertSlots]geom.Vec3
		n := p.brute(&out)
		return p.bruteVolume(out[:n]) * p.unit * p.unit * p.unit
	}
	return p.volume() * p.unit * p.unit * p.unit
}

const (
	// vertSlots bounds the vertex slots: at most 2·26 − 4 = 48 vertices
	// are live, plus the new points of a cut (at most one per face).
	vertSlots = 80
)

// vertDirs holds K.Dir(i) for each set, indexed by k/2, so that the cutting
// loop reads no map.
var vertDirs = func() (t [MaxSlabs + 1][MaxSlabs]geom.Vec3) {
	for _, k := range Ks {
		for i := range k.Slabs() {
			t[k.Slabs()][i] = k.Dir(i)
		}
	}
	return t
}()

// vertPoly is a convex polytope being cut, kept as a simple polytope:
// every vertex has exactly 3 neighbours. Degenerate cases (a plane through a
// vertex, a flat or single-point DOP) are simple polytopes too, with edges
// and faces of zero length or area, whose coincident vertices Vertices
// merges.
//
// Vertices live in slots, relative to the centre c of the box B (see
// Vertices) and in units of a power of two (as are the slab bounds and the
// tolerances). The neighbours nb[v] of a vertex are in counter-clockwise
// order seen from outside, and fc[v][j] is the plane of the face between
// nb[v][j] and nb[v][j+1 mod 3]: the face on the left of the edge from v to
// nb[v][j], whose boundary goes on from nb[v][j] to the neighbour of
// nb[v][j] just before v (counter-clockwise). Plane 2i is d_i·x ≤ hi[i],
// plane 2i+1 is −d_i·x ≤ −lo[i]; for a set without the axes, the faces of
// the box B are planes boxCode + 2a (x_a ≤ bhi[a]) and boxCode + 2a + 1.
type vertPoly struct {
	v     [vertSlots][3]float64 // positions
	dv    [vertSlots]float64    // d_i·v for the slab being cut
	nb    [vertSlots][3]uint8
	fc    [vertSlots][3]uint8
	live  [vertSlots]uint8 // the slots of the vertices
	nl    int
	free  [vertSlots]uint8 // slots released by earlier cuts
	nfree int
	used  int // slots [0, used) have been handed out

	empty bool // no point is left
	flat  bool // the polytope lies within eps of a plane
	short bool // an edge may be shorter than shortLen: merge vertices
	bad   bool // out of slots or lost consistency: use brute

	dirs     *[MaxSlabs]geom.Vec3
	ns       int
	c        geom.Vec3
	unit     float64           // the power of two of the units
	lo, hi   [MaxSlabs]float64 // slab bounds
	blo, bhi [3]float64        // the box B's bounds
	first    int               // the first slab that cuts B
	tol      float64           // accuracy promised by Vertices
	eps      float64           // |n·v − h| ≤ eps counts as on the plane
	merge    float64           // vertices closer than merge are one
	shortLen float64           // edges shorter than this may need merging
}

// build sets p to the polytope of d. It reports false if d is empty (by
// IsEmpty), unbounded or of an unsupported K; otherwise p.empty tells whether
// the slabs have no common point.
func (p *vertPoly) build(d *DOP) bool {
	if !d.K.Valid() {
		return false
	}
	if d.IsEmpty() {
		return false
	}
	p.ns = d.K.Slabs()
	p.dirs = &vertDirs[p.ns]
	p.first = d.K.exact()
	b := d.Box()
	blo, bhi := [3]float64{b.Min.X, b.Min.Y, b.Min.Z}, [3]float64{b.Max.X, b.Max.Y, b.Max.Z}
	var c [3]float64
	m, h := 0.0, 0.0 // the largest magnitude and half extent
	for i := range 3 {
		lo, hi := blo[i], bhi[i]
		if !(lo <= hi) {
			// A box derived from slabs that have no common point.
			p.empty = true
			return true
		}
		if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
			return false
		}
		c[i] = 0.5*lo + 0.5*hi
		m = max(m, math.Abs(lo), math.Abs(hi))
		h = max(h, 0.5*hi-0.5*lo)
	}
	p.c = geom.Vec3{X: c[0], Y: c[1], Z: c[2]}
	// Work in units of a power of two near the size of d, so that no
	// square (of a distance, say) overflows or underflows.
	e := 0
	if mh := max(m, h); mh > 0 {
		e = math.Ilogb(mh)
	}
	p.unit = math.Ldexp(1, e)
	inv := math.Ldexp(1, -e)
	p.tol = 0x1p-40 * (m*inv + 2*h*inv)
	p.eps = p.tol / 16
	p.merge = p.tol/2 + p.tol/64 // tol/2 after the rounding of c + v
	p.shortLen = 64 * p.merge
	cs := p.c.Scale(inv)
	for i := range p.ns {
		dc := p.dirs[i].Dot(cs)
		p.lo[i] = d.Lo[i]*inv - dc
		p.hi[i] = d.Hi[i]*inv - dc
		if p.hi[i]-p.lo[i] <= p.eps {
			p.flat = true
		}
	}
	for a := range 3 {
		dc := cs.Index(a)
		p.blo[a] = blo[a]*inv - dc
		p.bhi[a] = bhi[a]*inv - dc
	}
	p.box()
	for i := p.first; i < p.ns && !p.empty && !p.bad; i++ {
		p.slab(i)
	}
	if p.flat {
		p.short = true
	}
	return true
}

// boxCode is the plane code of the box B's first face, for a set without
// the axes (see vertPoly).
const boxCode = 2 * MaxSlabs

// plane returns the outward normal and offset of plane code.
func (p *vertPoly) plane(code int) (geom.Vec3, float64) {
	if code >= boxCode {
		a := (code - boxCode) >> 1
		var n geom.Vec3
		switch a {
		case 0:
			n.X = 1
		case 1:
			n.Y = 1
		default:
			n.Z = 1
		}
		if code&1 == 0 {
			return n, p.bhi[a]
		}
		return n.Neg(), -p.blo[a]
	}
	n := p.dirs[code>>1]
	if code&1 == 0 {
		return n, p.hi[code>>1]
	}
	return n.Neg(), -p.lo[code>>1]
}

// vertBoxNb and vertBoxFc are the neighbours and face planes of the
// corners of a box, corner i having bit 0, 1, 2 set for x, y, z at hi. The
// neighbours across x, y, z are counter-clockwise seen from outside when the
// outward diagonal (±1, ±1, ±1) of the corner has an even number of minus
// signs; the face between the edges along two axes is across the third one,
// on the side of the corner.
var vertBoxNb, vertBoxFc = func() (nb, fc [8][3]uint8) {
	for i := range 8 {
		axes := [3]int{0, 2, 1}
		if bits.OnesCount(uint(i))%2 == 1 {
			axes = [3]int{0, 1, 2}
		}
		for j := range 3 {
			nb[i][j] = uint8(i ^ 1<<axes[j])
			c := 3 - axes[j] - axes[(j+1)%3]
			fc[i][j] = uint8(2*c + (i>>c&1 ^ 1))
		}
	}
	return nb, fc
}()

// box sets p to the box B, with the bounds of a slab thinner than eps made
// equal.
func (p *vertPoly) box() {
	var lo, hi [3]float64
	for a := range 3 {
		lo[a], hi[a] = p.blo[a], p.bhi[a]
		if hi[a]-lo[a] <= p.eps {
			lo[a] = 0.5*lo[a] + 0.5*hi[a]
			hi[a] = lo[a]
			p.flat = true
		}
		if hi[a]-lo[a] < p.shortLen {
			p.short = true
		}
	}
	for i := range 8 {
		p.v[i] = [3]float64{lo[0], lo[1], lo[2]}
	}
	p.v[1][0], p.v[3][0], p.v[5][0], p.v[7][0] = hi[0], hi[0], hi[0], hi[0]
	p.v[2][1], p.v[3][1], p.v[6][1], p.v[7][1] = hi[1], hi[1], hi[1], hi[1]
	p.v[4][2], p.v[5][2], p.v[6][2], p.v[7][2] = hi[2], hi[2], hi[2], hi[2]
	copy(p.nb[:8], vertBoxNb[:])
	copy(p.fc[:8], vertBoxFc[:])
	if p.first == 0 { // B's faces are not slabs of the set
		for i := range 8 {
			for j := range 3 {
				p.fc[i][j] += boxCode
			}
		}
	}
	p.live = [vertSlots]uint8{0, 1, 2, 3, 4, 5, 6, 7}
	p.nl, p.used = 8, 8
}

// alloc returns a free slot.
func (p *vertPoly) alloc() uint8 {
	if p.nfree > 0 {
		p.nfree--
		return p.free[p.nfree]
	}
	if p.used == vertSlots {
		p.bad = true
		return 0
	}
	p.used++
	return uint8(p.used - 1)
}

// slab intersects p with slab i: it projects the vertices on d_i once, then
// cuts by the planes d_i·x ≤ hi[i] and −d_i·x ≤ −lo[i].
func (p *vertPoly) slab(i int) {
	d := p.dirs[i]
	dx, dy, dz := d.X, d.Y, d.Z
	hi, lo := p.hi[i], p.lo[i]
	eps := p.eps
	var outHi, outLo [vertSlots]uint8
	nh, nl := 0, 0
	inHi, inLo := false, false
	for _, v := range p.live[:p.nl] {
		x := &p.v[v]
		t := dx*x[0] + dy*x[1] + dz*x[2]
		p.dv[v] = t
		// Written for conditional moves rather than branches.
		outHi[nh] = v
		if t-hi > eps {
			nh++
		}
		outLo[nl] = v
		if lo-t > eps {
			nl++
		}
		if t-hi < -eps {
			inHi = true
		}
		if lo-t < -eps && t-hi <= eps {
			inLo = true
		}
	}
	if nh > 0 {
		p.cut(2*i, 1, hi, outHi[:nh], inHi)
		if p.empty || p.bad {
			return
		}
		// The new vertices lie on d_i·x = hi.
		if hi-lo > eps {
			inLo = true
		}
	}
	if nl > 0 {
		p.cut(2*i+1, -1, -lo, outLo[:nl], inLo)
	}
}

// cut intersects p with the halfspace sg·dv ≤ h of plane code (sg = ±1),
// given the vertices outs more than eps outside, and whether some vertex is
// more than eps inside. The vertices outs are removed; each edge from a kept
// vertex a to a removed one b gets a new vertex x where it crosses the plane
// (at a itself if a is not inside), and the new vertices are linked into
// the cap face by walking the faces around the removed vertices.
func (p *vertPoly) cut(code int, sg, h float64, outs []uint8, in bool) {
	eps := p.eps
	no := len(outs)
	if no == p.nl {
		p.empty = true
		return
	}
	if !in {
		p.flat = true
	}
	// The new vertices, one per edge from a kept vertex a to a removed b,
	// which is nb[b][j]; nb[b][j] and the entry of b in nb[a] become x.
	var nx, nbj [vertSlots]uint8
	var nbb [vertSlots]uint8
	nn := 0
	shortS := 2 * p.shortLen // |s| ≥ shortS puts a vertex that far from the plane
	for _, b := range outs[:no] {
		sb := sg*p.dv[b] - h
		for j := range 3 {
			a := p.nb[b][j]
			sa := sg*p.dv[a] - h
			if sa > eps {
				continue
			}
			x := p.alloc()
			if p.bad {
				return
			}
			t := 0.0
			if sa < 0 {
				t = sa / (sa - sb)
			}
			if sa > -shortS {
				p.short = true
			}
			va, vb := &p.v[a], &p.v[b]
			p.v[x] = [3]float64{
				va[0] + t*(vb[0]-va[0]),
				va[1] + t*(vb[1]-va[1]),
				va[2] + t*(vb[2]-va[2]),
			}
			p.dv[x] = p.dv[a] + t*(p.dv[b]-p.dv[a])
			p.nb[x] = [3]uint8{a, a, a}
			p.fc[x] = [3]uint8{p.fc[b][j], uint8(code), p.fc[b][(j+2)%3]}
			na := &p.nb[a]
			switch b {
			case na[0]:
				na[0] = x
			case na[1]:
				na[1] = x
			default:
				na[2] = x
			}
			p.nb[b][j] = x
			nx[nn], nbb[nn], nbj[nn] = x, b, uint8(j)
			nn++
		}
	}
	// Link the cap: from x, walk the face on the left of a→b through the
	// removed vertices to the next crossing edge, whose new vertex y
	// follows x on that face (and precedes x on the cap).
	sl2 := p.shortLen * p.shortLen
	for r := range nn {
		x, cur := nx[r], nbb[r]
		nxt := p.nb[cur][(nbj[r]+2)%3]
		for steps := 0; sg*p.dv[nxt]-h > eps; steps++ {
			nn := &p.nb[nxt]
			var i int
			switch cur {
			case nn[0]:
				i = 2
			case nn[1]:
				i = 0
			case nn[2]:
				i = 1
			default:
				p.bad = true
				return
			}
			if steps > no {
				p.bad = true
				return
			}
			cur, nxt = nxt, nn[i]
		}
		p.nb[x][2] = nxt
		p.nb[nxt][1] = x
		vx, vy := &p.v[x], &p.v[nxt]
		dx, dy, dz := vx[0]-vy[0], vx[1]-vy[1], vx[2]-vy[2]
		if dx*dx+dy*dy+dz*dz < sl2 {
			p.short = true
		}
	}
	// The kept vertices, then the new ones.
	k := 0
	nf := p.nfree
	for _, v := range p.live[:p.nl] {
		// Written for conditional moves rather than branches.
		p.live[k] = v
		p.free[nf] = v
		if sg*p.dv[v]-h <= eps {
			k++
		} else {
			nf++
		}
	}
	p.nfree = nf
	k += copy(p.live[k:], nx[:nn])
	p.nl = k
}

// collect writes the vertices of p (as p.v) to out, merging those
// within p.merge of each other, and returns their number. Vertices can be so
// close only if some edge is short: without short edges, it copies them all.
func (p *vertPoly) collect(out *[vertSlots]geom.Vec3) int {
	for i, v := range p.live[:p.nl] {
		x := &p.v[v]
		out[i] = geom.Vec3{X: x[0], Y: x[1], Z: x[2]}
	}
	if !p.short {
		return p.nl
	}
	return vertMerge(out[:p.nl], p.merge)
}

// vertMerge keeps, in order, the points of vs that are not within merge of
// an earlier kept one, moving them to the front, and returns their number.
func vertMerge(vs []geom.Vec3, merge float64) int {
	n := 0
	m2 := merge * merge
	for _, v := range vs {
		dup := false
		for _, w := range vs[:n] {
			dx := v.X - w.X
			if dx > merge || dx < -merge {
				continue
			}
			dy, dz := v.Y-w.Y, v.Z-w.Z
			if dx*dx+dy*dy+dz*dz <= m2 {
				dup = true
				break
			}
		}
		if !dup {
			vs[n] = v
			n++
		}
	}
	return n
}

// volume returns the volume of the solid p: a third of the sum over the
// faces of the area times the offset h/|n| of the plane from c. With n the
// integer normal of a face and A its vector area, area/|n| = A[a]·n[a] for an
// axis a with n[a] = ±1, and 2·A[a] sums v[a+1]·u[a+2] − v[a+2]·u[a+1] over
// the edges v→u of the face: every directed edge v→nb[v][j] once, the edge
// of face fc[v][j].
func (p *vertPoly) volume() float64 {
	var fw [boxCode + 6]float64
	var fu, fv [boxCode + 6]uint8
	for code := range boxCode + 6 {
		if code >= 2*p.ns && (code < boxCode || p.first > 0) {
			continue
		}
		n, h := p.plane(code)
		switch {
		case n.X != 0:
			fw[code], fu[code], fv[code] = n.X*h, 1, 2
		case n.Y != 0:
			fw[code], fu[code], fv[code] = n.Y*h, 2, 0
		default:
			fw[code], fu[code], fv[code] = n.Z*h, 0, 1
		}
	}
	sum := 0.0
	for _, v := range p.live[:p.nl] {
		x := &p.v[v]
		for j := range 3 {
			y := &p.v[p.nb[v][j]]
			f := p.fc[v][j]
			a, b := fu[f&31], fv[f&31]
			sum += fw[f&31] * (x[a]*y[b] - x[b]*y[a])
		}
	}
	return sum / 6
}

// brute computes the vertices of p (as p.v would be) from every triple of
// planes, keeping the points within eps of every halfspace and merging those
// within merge of each other. It is the slow, robust path taken if the
// cutting fails.
func (p *vertPoly) brute(out *[vertSlots]geom.Vec3) int {
	var ns [2 * MaxSlabs]geom.Vec3
	var hs [2 * MaxSlabs]float64
	np := 0
	for code := range 2 * p.ns {
		n, h := p.plane(code)
		if h == math.Inf(1) {
			continue
		}
		ns[np], hs[np] = n, h
		np++
	}
	nv := 0
	m2 := p.merge * p.merge
	for i := range np {
		for j := i + 1; j < np; j++ {
			jk := ns[i].Cross(ns[j])
			for k := j + 1; k < np; k++ {
				det := ns[k].Dot(jk)
				if det == 0 {
					continue
				}
				x := ns[j].Cross(ns[k]).Scale(hs[i]).
					Add(ns[k].Cross(ns[i]).Scale(hs[j])).
					Add(jk.Scale(hs[k])).Scale(1 / det)
				ok := true
				for l := range np {
					if ns[l].Dot(x)-hs[l] > p.eps {
						ok = false
						break
					}
				}
				if !ok {
					continue
				}
				dup := false
				for _, w := range out[:nv] {
					if x.Sub(w).Norm2() <= m2 {
						dup = true
						break
					}
				}
				if !dup && nv < len(out) {
					out[nv] = x
					nv++
				}
			}
		}
	}
	return nv
}

// bruteVolume returns the volume of the hull of vs, the vertices of p by
// brute: for every plane, the polygon of the vertices on it, sorted by
// angle, gives the area of the face.
func (p *vertPoly) bruteVolume(vs []geom.Vec3) float64 {
	sum := 0.0
	for code := range 2 * p.ns {
		n, h := p.plane(code)
		var on []geom.Vec3
		var buf [vertSlots]geom.Vec3
		on = buf[:0]
		for _, v := range vs {
			if math.Abs(n.Dot(v)-h) <= p.tol {
				on = append(on, v)
			}
		}
		if len(on) < 3 {
			continue
		}
		ax := geom.Vec3{X: math.Abs(n.X), Y: math.Abs(n.Y), Z: math.Abs(n.Z)}.LargestAxis()
		u, w := (ax+1)%3, (ax+2)%3
		var cu, cw float64
		for _, v := range on {
			cu += v.Index(u)
			cw += v.Index(w)
		}
		cu /= float64(len(on))
		cw /= float64(len(on))
		var ang [vertSlots]float64
		for i, v := range on {
			ang[i] = math.Atan2(v.Index(w)-cw, v.Index(u)-cu)
		}
		for i := 1; i < len(on); i++ { // insertion sort by angle
			a, v := ang[i], on[i]
			j := i
			for ; j > 0 && ang[j-1] > a; j-- {
				ang[j], on[j] = ang[j-1], on[j-1]
			}
			ang[j], on[j] = a, v
		}
		a := 0.0
		prev := on[len(on)-1]
		for _, v := range on {
			a += prev.Index(u)*v.Index(w) - prev.Index(w)*v.Index(u)
			prev = v
		}
		sum += math.Abs(a) * h
	}
	return sum / 6
}
