package bv

import (
	"math"
	"math/bits"

	"github.com/collide3d/collide/geom"
)

// MaxVertices returns the largest number of vertices of a k-DOP: 2k − 4, that
// is 8, 24, 32 and 48 for k = 6, 14, 18 and 26 (a polytope with k faces has at
// most 2k − 4 vertices, reached when it is simple and every face is present).
// It returns 0 for an unsupported k.
func MaxVertices(k K) int {
	switch k {
	case K6, K14, K18, K26:
		return 2*int(k) - 4
	}
	return 0
}

// Vertices appends the vertices of the polytope d (the intersection of its k
// halfspaces) to dst and returns the extended slice. It appends nothing if d
// is empty (some Lo[i] > Hi[i], a NaN bound, or slabs with no common point)
// or unbounded (an infinite axis bound). A flat d (a zero-thickness slab)
// gives the vertices of its polygon, a segment its 2 end points and a single
// point 1 vertex. It does not allocate when dst has room for MaxVertices(k)
// more vertices.
//
// The vertices are computed in float64 by clipping the box of the axis slabs
// with the diagonal planes, with a tolerance. Let M be the largest magnitude
// of the axis bounds (Lo[0..2], Hi[0..2]), S the largest axis extent
// Hi[i] − Lo[i], and tol = 2⁻⁴⁰·(M + S). Then:
//
//   - every vertex of the exact polytope lies within tol of a returned vertex,
//     so their convex hull contains the polytope shrunk by tol;
//   - every returned vertex lies within tol of the polytope;
//   - no two returned vertices are closer than tol/2 (vertices of the exact
//     polytope closer than that are merged), and there are at most
//     MaxVertices(k) of them.
//
// A caller that needs a conservative bound should pad by more than tol.
func (d *DOP) Vertices(dst []geom.Vec3) []geom.Vec3 {
	var p vertPoly
	if !p.build(d) || p.empty {
		return dst
	}
	var out [vertSlots]geom.Vec3
	var n int
	if p.bad {
		n = p.brute(&out)
	} else {
		n = p.collect(&out)
	}
	for _, v := range out[:n] {
		dst = append(dst, v.Add(p.c))
	}
	return dst
}

// Volume returns the volume of the polytope d: 0 if d is empty or flat, +Inf
// if it is unbounded (an infinite axis bound). It is computed from the faces
// of the clipped polytope of Vertices, so its absolute error is of the order
// of tol·A, A the surface area, with tol as in Vertices.
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
		var out [vertSlots]geom.Vec3
		n := p.brute(&out)
		return p.bruteVolume(out[:n])
	}
	return p.volume()
}

const (
	// vertSlots bounds the vertex slots: at most 2·26 − 4 = 48 vertices
	// are live, plus the new points of a cut (at most one per face).
	vertSlots = 80
)

// vertDirs holds K.Dir(i) for each set, indexed by k/2, so that the clipping
// loop reads no map.
var vertDirs = func() (t [MaxSlabs + 1][MaxSlabs]geom.Vec3) {
	for _, k := range Ks {
		for i := range k.Slabs() {
			t[k.Slabs()][i] = k.Dir(i)
		}
	}
	return t
}()

// vertPoly is a convex polytope being clipped, kept as a simple polytope:
// every vertex has exactly 3 neighbours. Degenerate cases (a plane through a
// vertex, a flat or single-point DOP) are simple polytopes too, with edges
// and faces of zero length or area, whose coincident vertices Vertices
// merges.
//
// Vertices live in slots, relative to the centre c of the box of the axis
// slabs. The neighbours nb[v] of a vertex are in counter-clockwise order seen
// from outside, and fc[v][j] is the plane of the face between nb[v][j] and
// nb[v][j+1 mod 3]: the face on the left of the edge from v to nb[v][j],
// whose boundary goes on from nb[v][j] to the neighbour of nb[v][j] just
// before v (counter-clockwise). Plane 2i is d_i·x ≤ hi[i], plane 2i+1 is
// −d_i·x ≤ −lo[i].
type vertPoly struct {
	v     [vertSlots][3]float64 // positions, relative to c
	s     [vertSlots]float64    // n·v − h for the plane being cut
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
	lo, hi   [MaxSlabs]float64 // slab bounds relative to c
	tol      float64           // accuracy promised by Vertices
	eps      float64           // |n·v − h| ≤ eps counts as on the plane
	merge    float64           // vertices closer than merge are one
	shortLen float64           // edges shorter than this may need merging
}

// build sets p to the polytope of d. It reports false if d is empty (by
// IsEmpty), unbounded or of an unsupported K; otherwise p.empty tells whether
// the slabs have no common point.
func (p *vertPoly) build(d *DOP) bool {
	switch d.K {
	case K6, K14, K18, K26:
	default:
		return false
	}
	if d.IsEmpty() {
		return false
	}
	p.ns = d.K.Slabs()
	p.dirs = &vertDirs[p.ns]
	var c [3]float64
	m, s := 0.0, 0.0
	for i := range 3 {
		lo, hi := d.Lo[i], d.Hi[i]
		if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
			return false
		}
		c[i] = 0.5*lo + 0.5*hi
		m = max(m, math.Abs(lo), math.Abs(hi))
		s = max(s, hi-lo)
	}
	p.c = geom.Vec3{X: c[0], Y: c[1], Z: c[2]}
	p.tol = 0x1p-40 * (m + s)
	p.eps = p.tol / 16
	p.merge = p.tol / 2
	p.shortLen = 64 * p.merge
	for i := range p.ns {
		dc := p.dirs[i].Dot(p.c)
		p.lo[i] = d.Lo[i] - dc
		p.hi[i] = d.Hi[i] - dc
		if p.hi[i]-p.lo[i] <= p.eps {
			p.flat = true
		}
	}
	p.box()
	for code := 6; code < 2*p.ns && !p.empty && !p.bad; code++ {
		p.cut(code)
	}
	if p.flat {
		p.short = true
	}
	return true
}

// plane returns the outward normal and offset of plane code.
func (p *vertPoly) plane(code int) (geom.Vec3, float64) {
	n := p.dirs[code>>1]
	if code&1 == 0 {
		return n, p.hi[code>>1]
	}
	return n.Neg(), -p.lo[code>>1]
}

// box sets p to the box of the axis slabs, with the bounds of a slab thinner
// than eps made equal.
func (p *vertPoly) box() {
	var lo, hi [3]float64
	for a := range 3 {
		lo[a], hi[a] = p.lo[a], p.hi[a]
		if hi[a]-lo[a] <= p.eps {
			lo[a] = 0.5*lo[a] + 0.5*hi[a]
			hi[a] = lo[a]
		}
		if hi[a]-lo[a] < p.shortLen {
			p.short = true
		}
	}
	for i := range 8 {
		v := &p.v[i]
		for a := range 3 {
			v[a] = lo[a]
			if i>>a&1 != 0 {
				v[a] = hi[a]
			}
		}
		// The neighbours across x, y, z are counter-clockwise seen from
		// outside when the outward diagonal (±1, ±1, ±1) of the corner has
		// an even number of minus signs.
		axes := [3]int{0, 2, 1}
		if bits.OnesCount(uint(i))%2 == 1 {
			axes = [3]int{0, 1, 2}
		}
		for j := range 3 {
			p.nb[i][j] = uint8(i ^ 1<<axes[j])
			// The face between the edges along axes j and j+1 is across
			// the third axis, on the side of the corner.
			c := 3 - axes[j] - axes[(j+1)%3]
			p.fc[i][j] = uint8(2*c + (i>>c&1 ^ 1))
		}
		p.live[i] = uint8(i)
	}
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

// cut intersects p with the halfspace of plane code. The vertices more than
// eps outside are removed; each edge from a kept vertex a to a removed one b
// gets a new vertex x where it crosses the plane (at a itself if a is not
// inside), and the new vertices are linked into the cap face by walking the
// faces around the removed vertices.
func (p *vertPoly) cut(code int) {
	nv, h := p.plane(code)
	if h == math.Inf(1) {
		return
	}
	n := [3]float64{nv.X, nv.Y, nv.Z}
	eps := p.eps
	var outs [vertSlots]uint8
	no := 0
	in := false
	for _, v := range p.live[:p.nl] {
		x := &p.v[v]
		s := n[0]*x[0] + n[1]*x[1] + n[2]*x[2] - h
		p.s[v] = s
		if s > eps {
			outs[no] = v
			no++
		}
		if s < -eps {
			in = true
		}
	}
	if no == 0 {
		return
	}
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
		sb := p.s[b]
		for j := range 3 {
			a := p.nb[b][j]
			sa := p.s[a]
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
			p.s[x] = 0
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
		for steps := 0; p.s[nxt] > eps; steps++ {
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
	for _, v := range p.live[:p.nl] {
		if p.s[v] <= eps {
			p.live[k] = v
			k++
		} else {
			p.free[p.nfree] = v
			p.nfree++
		}
	}
	k += copy(p.live[k:], nx[:nn])
	p.nl = k
}

// collect writes the vertices of p (relative to c) to out, merging those
// closer than p.merge, and returns their number.
func (p *vertPoly) collect(out *[vertSlots]geom.Vec3) int {
	if !p.short {
		for i, v := range p.live[:p.nl] {
			x := &p.v[v]
			out[i] = geom.Vec3{X: x[0], Y: x[1], Z: x[2]}
		}
		return p.nl
	}
	n := 0
	m2 := p.merge * p.merge
	mg := p.merge
	for _, i := range p.live[:p.nl] {
		x := &p.v[i]
		v := geom.Vec3{X: x[0], Y: x[1], Z: x[2]}
		dup := false
		for _, w := range out[:n] {
			dx := v.X - w.X
			if dx > mg || dx < -mg {
				continue
			}
			dy, dz := v.Y-w.Y, v.Z-w.Z
			if dx*dx+dy*dy+dz*dz <= m2 {
				dup = true
				break
			}
		}
		if !dup {
			out[n] = v
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
	var fw [2 * MaxSlabs]float64
	var fu, fv [2 * MaxSlabs]uint8
	for code := range 2 * p.ns {
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
			a, b := fu[f&31]%3, fv[f&31]%3
			sum += fw[f&31] * (x[a]*y[b] - x[b]*y[a])
		}
	}
	return sum / 6
}

// brute computes the vertices of d (relative to c) from every triple of
// planes, keeping the points within eps of every halfspace and merging those
// closer than merge. It is the slow, robust path taken if the clipping fails.
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
