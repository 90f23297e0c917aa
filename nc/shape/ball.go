package shape

import (
	"math"

	"github.com/collide3d/collide/geom"
)

// pair names a point of the path Q and a point of the triangle T by float
// parameters: the point of Q is Q[qa] + qs·(Q[qa+1] − Q[qa]) + qt·(Q[qa+2] −
// Q[qa]) (indices mod 3), likewise for T. The parameters are kept exactly in
// range (s, t ≥ 0, s + t ≤ 1, by fixParams), so the named points lie on Q
// and T exactly, whatever rounding produced the parameters.
type pair struct {
	qa, ta         int
	qs, qt, ts, tt float64
	d2             float64 // squared distance in the search frame (computed)
}

// fixParams returns s, t moved into the closed simplex s, t ≥ 0,
// s + t ≤ 1, exactly (the last condition is checked with TwoSum).
func fixParams(s, t float64) (float64, float64) {
	if !(s > 0) {
		s = 0
	}
	if !(t > 0) {
		t = 0
	}
	s, t = min(s, 1), min(t, 1)
	if sum := s + t; sum > 1 {
		s, t = s/sum, t/sum // now s + t ≤ 1 within a few ulps
	}
	for {
		h, l := twoSum(s, t)
		if h < 1 || (h == 1 && l <= 0) {
			return s, t
		}
		if s >= t {
			s = math.Nextafter(s, 0)
		} else {
			t = math.Nextafter(t, 0)
		}
	}
}

// Search (plain floating point, no error analysis needed: see filter.go).

func dot(a, b geom.Vec3) float64 { return a.Dot(b) }

// triPre holds a triangle of the search with its precomputed edges,
// normal and barycentric system.
type triPre struct {
	T                  [3]geom.Vec3
	e1, e2, n          geom.Vec3
	d00, d01, d11, den float64
}

func (p *triPre) init(T *[3]geom.Vec3) {
	p.T = *T
	p.e1, p.e2 = T[1].Sub(T[0]), T[2].Sub(T[0])
	p.n = p.e1.Cross(p.e2)
	p.d00, p.d01, p.d11 = dot(p.e1, p.e1), dot(p.e1, p.e2), dot(p.e2, p.e2)
	p.den = float64(p.d00*p.d11) - float64(p.d01*p.d01)
}

// face returns the barycentric parameters (on T[0], e1, e2) of the foot of
// x on the plane of T, and its squared distance, if the foot is inside.
func (p *triPre) face(x geom.Vec3) (s, t, d2 float64, ok bool) {
	if !(p.den > 0) {
		return 0, 0, 0, false
	}
	w := x.Sub(p.T[0])
	d20, d21 := dot(w, p.e1), dot(w, p.e2)
	s = (float64(p.d11*d20) - float64(p.d01*d21)) / p.den
	t = (float64(p.d00*d21) - float64(p.d01*d20)) / p.den
	if !(s >= 0 && t >= 0 && s+t <= 1) {
		return 0, 0, 0, false
	}
	f := p.T[0].Add(p.e1.Scale(s)).Add(p.e2.Scale(t))
	return s, t, f.Sub(x).Norm2(), true
}

// point returns the parameters (a, s, t) of a point of T closest to x, and
// the squared distance: the foot on the face when it is inside, competing
// with the closest points of the three edges (robust for degenerate
// triangles).
func (p *triPre) point(x geom.Vec3) (a int, s, t, d2 float64) {
	d2 = math.Inf(1)
	if fs, ft, d, ok := p.face(x); ok {
		s, t, d2 = fs, ft, d
	}
	for i := range 3 {
		q, r := p.T[i], p.T[(i+1)%3]
		e := r.Sub(q)
		ee := dot(e, e)
		var y float64
		if ee > 0 {
			y = min(max(dot(x.Sub(q), e)/ee, 0), 1)
		}
		if d := q.Add(e.Scale(y)).Sub(x).Norm2(); d < d2 {
			a, s, t, d2 = i, y, 0, d
		}
	}
	return a, s, t, d2
}

// cross returns the parameter where the segment [a, b] crosses the plane
// of T (not degenerate), if it does.
func (p *triPre) cross(a, b geom.Vec3) (float64, bool) {
	da, db := dot(p.n, a.Sub(p.T[0])), dot(p.n, b.Sub(p.T[0]))
	if (da > 0 && db > 0) || (da < 0 && db < 0) || da == db {
		return 0, false
	}
	return min(max(da/(da-db), 0), 1), true
}

// segSeg returns parameters s, t of a pair of closest points of the segments
// [p1, q1] and [p2, q2] (Ericson, Real-Time Collision Detection, §5.1.9) and
// the squared distance.
func segSeg(p1, q1, p2, q2 geom.Vec3) (s, t, d2 float64) {
	d1, d2v := q1.Sub(p1), q2.Sub(p2)
	r := p1.Sub(p2)
	a, e, f := dot(d1, d1), dot(d2v, d2v), dot(d2v, r)
	switch {
	case a == 0 && e == 0:
	case a == 0:
		t = min(max(f/e, 0), 1)
	default:
		c := dot(d1, r)
		if e == 0 {
			s = min(max(-c/a, 0), 1)
		} else {
			b := dot(d1, d2v)
			if den := float64(a*e) - float64(b*b); den > 0 {
				s = min(max((float64(b*f)-float64(c*e))/den, 0), 1)
			}
			t = (float64(b*s) + f) / e
			if t < 0 {
				t, s = 0, min(max(-c/a, 0), 1)
			} else if t > 1 {
				t, s = 1, min(max((b-c)/a, 0), 1)
			}
		}
	}
	x := p1.Add(d1.Scale(s)).Sub(p2.Add(d2v.Scale(t)))
	return s, t, x.Norm2()
}

// ballSearch proposes a closest pair of the path Q (n points, as three
// vertices) and the triangle T, both in a local frame. For disjoint convex
// sets the closest pair is a vertex against the other's face (foot
// inside) or an edge against an edge (vertex–edge pairs included); for
// intersecting ones, an edge crossing the other's face, or (coplanar) an
// edge crossing an edge or a vertex inside the face. A point path needs its
// point against all of T.
func ballSearch(Q, T *[3]geom.Vec3, n int) pair {
	var pt triPre
	pt.init(T)
	if n == 1 {
		a, s, t, d := pt.point(Q[0])
		return pair{ta: a, ts: s, tt: t, d2: d}
	}
	best := pair{d2: math.Inf(1)}
	for i := range n {
		if s, t, d, ok := pt.face(Q[i]); ok && d < best.d2 {
			best = pair{qa: i, ts: s, tt: t, d2: d}
		}
	}
	ne := 3
	if n == 2 {
		ne = 1
	}
	for i := range ne {
		a, b := Q[i], Q[(i+1)%3]
		for j := range 3 {
			if s, t, d := segSeg(a, b, T[j], T[(j+1)%3]); d < best.d2 {
				best = pair{qa: i, qs: s, ta: j, ts: t, d2: d}
			}
		}
		if s, ok := pt.cross(a, b); ok {
			x := a.Add(b.Sub(a).Scale(s))
			if ts, tt, d, ok := pt.face(x); ok && d < best.d2 {
				best = pair{qa: i, qs: s, ts: ts, tt: tt, d2: d}
			}
		}
	}
	if n == 3 {
		// Vertices and edges of T against the face of Q.
		var pq triPre
		pq.init(Q)
		for j := range 3 {
			if s, t, d, ok := pq.face(T[j]); ok && d < best.d2 {
				best = pair{qs: s, qt: t, ta: j, d2: d}
			}
			b := T[(j+1)%3]
			if s, ok := pq.cross(T[j], b); ok {
				x := T[j].Add(b.Sub(T[j]).Scale(s))
				if qs, qt, d, ok := pq.face(x); ok && d < best.d2 {
					best = pair{qs: qs, qt: qt, ta: j, ts: s, d2: d}
				}
			}
		}
	}
	return best
}

// ballWitness returns the computed vector ṽ from the ball centre named by
// the pair (a point of Q plus (0, 0, zc)) to its point of t, and a bound e ≥
// |v − ṽ| on its error against the exact vector v.
//
// Error analysis. Per coordinate c, ṽ_c = fl(b + s·e1 + t·e2 − qs·f1 −
// qt·f2), b = fl(t_a − q_a) (then fl(b − zc) for z), e1, e2, f1, f2 rounded
// differences of input coordinates. Each difference is within u of its
// magnitude, each product adds u·|product|, each of the four sums u times
// the sum of the magnitudes so far; the z base adds u(|b| + |zc|). So
// |ṽ_c − v_c| ≤ 7u·S_c (1 + O(u)) with S_c = |b_c| (+|zc|) + s|e1_c| + t|e2_c|
// + qs|f1_c| + qt|f2_c|, plus underflow. We take e = 2⁻⁴⁹(Sx + Sy + Sz) +
// eta ≥ Σ_c |ṽ_c − v_c| ≥ |v − ṽ|.
func ballWitness(Q *[3]geom.Vec3, T *geom.Triangle, zc float64, p *pair) (v geom.Vec3, e float64) {
	qa, q1, q2 := p.qa, (p.qa+1)%3, (p.qa+2)%3
	ta, t1, t2 := p.ta, (p.ta+1)%3, (p.ta+2)%3
	b := T[ta].Sub(Q[qa])
	e1, e2 := T[t1].Sub(T[ta]), T[t2].Sub(T[ta])
	f1, f2 := Q[q1].Sub(Q[qa]), Q[q2].Sub(Q[qa])
	bz := b.Z - zc
	v = geom.Vec3{
		X: b.X + float64(p.ts*e1.X) + float64(p.tt*e2.X) - float64(p.qs*f1.X) - float64(p.qt*f2.X),
		Y: b.Y + float64(p.ts*e1.Y) + float64(p.tt*e2.Y) - float64(p.qs*f1.Y) - float64(p.qt*f2.Y),
		Z: bz + float64(p.ts*e1.Z) + float64(p.tt*e2.Z) - float64(p.qs*f1.Z) - float64(p.qt*f2.Z),
	}
	b, e1, e2, f1, f2 = b.Abs(), e1.Abs(), e2.Abs(), f1.Abs(), f2.Abs()
	s := b.X + b.Y + b.Z + math.Abs(zc) + math.Abs(bz) +
		p.ts*(e1.X+e1.Y+e1.Z) + p.tt*(e2.X+e2.Y+e2.Z) + p.qs*(f1.X+f1.Y+f1.Z) + p.qt*(f2.X+f2.Y+f2.Z)
	return v, 0x1p-49*s + eta
}

// ballFast is the float fast path of Ball (inputs in fastRange, box filter
// passed): search a closest pair in a local frame, then certify a hit by the
// pair (ballWitness, provenLE) or a miss by the direction of the pair's
// vector (gapPos).
func ballFast(q *[3]geom.Vec3, n int, zc, r float64, t *geom.Triangle, h *hint) verdict {
	// Local frame for the search: origin t[0], the centres lifted by zc.
	o := t[0]
	var Q, T [3]geom.Vec3
	for i := range 3 {
		T[i] = t[i].Sub(o)
		Q[i] = q[i].Sub(o)
		Q[i].Z += zc
	}
	p := ballSearch(&Q, &T, n)
	p.qs, p.qt = fixParams(p.qs, p.qt)
	p.ts, p.tt = fixParams(p.ts, p.tt)
	v, e := ballWitness(q, t, zc, &p)
	nv := math.Sqrt(v.Norm2())
	if provenLE(nv, e, r) {
		return hit
	}
	if nv > r && gapPos(q, n, t, v, float64(v.Z*zc), r*nv) {
		return miss
	}
	if h != nil {
		// The support of the pair's vector: t_j − p_i for the vertices
		// with a positive weight on either side.
		var qi, tj [3]bool
		qi[min(p.qa, n-1)] = true
		qi[min((p.qa+1)%3, n-1)] = qi[min((p.qa+1)%3, n-1)] || p.qs > 0
		qi[min((p.qa+2)%3, n-1)] = qi[min((p.qa+2)%3, n-1)] || p.qt > 0
		tj[p.ta] = true
		tj[(p.ta+1)%3] = tj[(p.ta+1)%3] || p.ts > 0
		tj[(p.ta+2)%3] = tj[(p.ta+2)%3] || p.tt > 0
		for i := range n {
			for j := range 3 {
				if qi[i] && tj[j] {
					h.add(3*i + j)
				}
			}
		}
	}
	return unsure
}

// gapPos reports whether the direction n separates: whether
//
//	G = min over vertices m = t_j − p_i of n·m − h − r·|n_xy or n| > 0
//
// is proven, given h̃ = fl(n_z·z) for the height z the solid's support
// needs (Ball: zc; Cylinder: z1 if n_z ≥ 0, else z0) and ρ̃ = fl(r·|ñ|)
// computed from a float norm (relative error ≤ 3.6u).
//
// For the ball, the support of the ball of radius r around (0, 0, zc) in
// direction n is n_z·zc + r|n|; for the cylinder {|x_xy| ≤ r, z0 ≤ z ≤
// z1} it is r|n_xy| + max(n_z z0, n_z z1). The support of −M, M = t ⊕
// (−path) = conv{t_j − p_i}, is −min n·m. G > 0 says the two convex sets
// are strictly separated by a plane of normal n: a miss.
//
// Error analysis: m̃ = fl(t_j − p_i) is within u|m̃| per coordinate, so
// |n·m̃ − n·m| ≤ u·A with A = Σ_c |n_c m̃_c|; the dot product adds ≤ 3.01u·A.
// h̃ and ρ̃ are within u|h̃| and 3.6u·ρ̃, and the two final subtractions
// add u(|g| + |h|) and u(|g| + |h| + ρ): |G̃ − G| ≤ 6u(Amax + |g| + |h̃| + ρ̃)
// (+ underflow), below the 2⁻⁴⁹ = 16u bound used.
func gapPos(q *[3]geom.Vec3, n int, t *geom.Triangle, dir geom.Vec3, h, rho float64) bool {
	G, E := gap(q, n, t, dir, h, rho)
	return G > E
}

// gap returns G̃ and its error bound E (see gapPos).
func gap(q *[3]geom.Vec3, n int, t *geom.Triangle, dir geom.Vec3, h, rho float64) (G, E float64) {
	g, amax := math.Inf(1), 0.0
	for i := range n {
		for j := range 3 {
			m := t[j].Sub(q[i])
			x, y, z := float64(dir.X*m.X), float64(dir.Y*m.Y), float64(dir.Z*m.Z)
			g = min(g, x+y+z)
			amax = max(amax, math.Abs(x)+math.Abs(y)+math.Abs(z))
		}
	}
	return (g - h) - rho, 0x1p-49*(amax+math.Abs(g)+math.Abs(h)+rho) + eta
}
