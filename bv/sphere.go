package bv

import (
	"math"
	"math/big"
	"math/bits"
	"unsafe"

	"github.com/collide3d/collide/geom"
)

// Sphere is the closed ball of centre C and radius R. A negative R is the
// empty set; the empty Sphere made by this package is the zero centre with
// R = -1.
type Sphere struct {
	C geom.Vec3
	R float64
}

// IsEmpty reports whether s is the empty set (R < 0).
func (s Sphere) IsEmpty() bool { return s.R < 0 }

// Contains reports whether |p − C|² ≤ R², evaluated in float64 (each
// difference, square and sum rounded). It is approximate at the boundary:
// a point whose distance to C is within a few ulps of R may be classified
// either way. The empty sphere contains nothing.
func (s Sphere) Contains(p geom.Vec3) bool {
	if s.R < 0 {
		return false
	}
	d := p.Sub(s.C)
	return d.Dot(d) <= float64(s.R*s.R)
}

// Overlaps reports whether the closed balls s and t share a point:
// |C_s − C_t| ≤ R_s + R_t, so touching spheres overlap. For finite centres
// and radii the answer is exact for the float64 values as given: a float64
// filter with a proven error bound decides almost every pair, and the rest
// are decided in rational arithmetic. An empty sphere overlaps nothing.
// With a NaN or infinite component the float64 evaluation is returned (an
// infinite radius overlaps every non-empty sphere with a finite centre).
func (s Sphere) Overlaps(t Sphere) bool {
	if s.R < 0 || t.R < 0 {
		return false
	}
	d := s.C.Sub(t.C)
	dd := d.Dot(d)
	r := s.R + t.R
	rr := float64(r * r)
	if !(dd <= 0x1p1020 && rr <= 0x1p1020) {
		if !s.C.IsFinite() || !t.C.IsFinite() || math.IsInf(s.R, 0) || math.IsInf(t.R, 0) || math.IsNaN(s.R) || math.IsNaN(t.R) {
			return dd <= rr
		}
		return sphereOverlapsExact(s, t)
	}
	// Filter. With u = 2^-53, the exact squared distance e² and squared
	// radius sum ρ² satisfy
	//
	//	dd/(1+u)^5 − 2^-1073 ≤ e² ≤ dd/(1−u)^5 + 2^-1072,
	//	(rr − 2^-1075)/(1+u)³ ≤ ρ² ≤ (rr + 2^-1075)/(1−u)³:
	//
	// one rounding for each difference and for the radius sum, one for each
	// square (with an absolute error of at most 2^-1075 when it underflows)
	// and one for each of the two sums of non-negative terms (a sum that
	// falls below the normal range is exact). With g = 2^-48 = 32u and
	// a = 2^-1000, the left side of the first test below is at least
	// dd(1+g)(1−u)² + a/2, which is at least the upper bound on e², and its
	// right side is at most rr(1−g)(1+u)² − a/2 (or negative, and the test
	// fails), which is at most the lower bound on ρ², so the test implies
	// e² ≤ ρ². The second test implies e² > ρ² in the same way. No product
	// overflows since dd, rr ≤ 2^1020.
	const g, a = 0x1p-48, 0x1p-1000
	if float64(dd*(1+g))+a <= float64(rr*(1-g))-a {
		return true
	}
	if float64(dd*(1-g))-a > float64(rr*(1+g))+a {
		return false
	}
	return sphereOverlapsExact(s, t)
}

// sphereOverlapsExact decides |C_s − C_t|² ≤ (R_s + R_t)² in rational
// arithmetic. The components must be finite.
func sphereOverlapsExact(s, t Sphere) bool {
	var sum, x, y big.Rat
	for i := range 3 {
		x.SetFloat64(s.C.Index(i))
		y.SetFloat64(t.C.Index(i))
		x.Sub(&x, &y)
		x.Mul(&x, &x)
		sum.Add(&sum, &x)
	}
	x.SetFloat64(s.R)
	y.SetFloat64(t.R)
	x.Add(&x, &y)
	x.Mul(&x, &x)
	return sum.Cmp(&x) <= 0
}

// Volume returns 4/3·π·R³, or 0 for the empty sphere.
func (s Sphere) Volume() float64 {
	if s.R < 0 {
		return 0
	}
	return 4.0 / 3.0 * math.Pi * s.R * s.R * s.R
}

// sphereStackPoints is the largest number of points BoundingSphere handles
// with a scratch buffer on the stack (no heap allocation).
const sphereStackPoints = 64

// BoundingSphere returns a sphere that contains every point of pts: for each
// p, the exact distance |p − C| is at most R, whatever the rounding. Points
// with a NaN or infinite coordinate are ignored; if no point remains, the
// result is the empty sphere (zero centre, R = -1). A single point (or
// copies of one point) gives that point with R = 0.
//
// The sphere is the minimum enclosing sphere up to rounding: Welzl's
// algorithm with move-to-front, on a copy of the points shuffled by a fixed
// pseudo-random sequence (so the result is deterministic), runs in expected
// O(n) time. The copy is translated to the centre of the points' bounding
// box and scaled by a power of two so that the box's width is about 1,
// which keeps every finite coordinate, subnormal to near the float64
// maximum, free of overflow and harmful underflow. The radius is then
// computed as the largest distance from the centre to any point and padded
// upward by a proven bound (2^-49 relative, plus a negligible absolute
// term), so containment does not depend on the accuracy of the centre. R is
// +Inf only when the radius itself is within that padding of the float64
// maximum.
//
// BoundingSphere allocates one copy of pts when len(pts) > 64 and nothing
// otherwise; BoundingSphereBuf reuses a caller's buffer.
func BoundingSphere(pts []geom.Vec3) Sphere {
	var local [sphereStackPoints]geom.Vec3
	var buf []geom.Vec3
	if len(pts) <= len(local) {
		buf = local[:len(pts)]
	} else {
		buf = make([]geom.Vec3, len(pts))
	}
	return boundingSphere(pts, buf)
}

// BoundingSphereBuf is BoundingSphere with a caller-supplied scratch buffer:
// buf is grown to len(pts) if its capacity is smaller, and its contents are
// overwritten. It returns the sphere and the buffer (length 0, possibly
// grown) to pass to the next call. With a buffer of sufficient capacity it
// does not allocate.
func BoundingSphereBuf(pts []geom.Vec3, buf []geom.Vec3) (Sphere, []geom.Vec3) {
	if cap(buf) < len(pts) {
		buf = make([]geom.Vec3, len(pts))
	}
	s := boundingSphere(pts, buf[:len(pts)])
	return s, buf[:0]
}

// BoundingSphereTriangles is BoundingSphere over the vertices of tris. It
// reads the vertices in place, without copying the triangles.
func BoundingSphereTriangles(tris []geom.Triangle) Sphere {
	return BoundingSphere(sphereTriVertices(tris))
}

// sphereTriVertices returns the vertices of tris as one slice of length
// 3·len(tris) sharing their memory: a geom.Triangle is a [3]geom.Vec3, and
// the elements of a slice of arrays are contiguous.
func sphereTriVertices(tris []geom.Triangle) []geom.Vec3 {
	if len(tris) == 0 {
		return nil
	}
	return unsafe.Slice(&tris[0][0], 3*len(tris))
}

// sphereFinite reports whether every coordinate of p is finite: x − x is 0
// for a finite x and NaN for ±Inf and NaN.
func sphereFinite(p geom.Vec3) bool {
	return p.X-p.X == 0 && p.Y-p.Y == 0 && p.Z-p.Z == 0
}

// boundingSphere computes BoundingSphere(pts) with buf (len(buf) ≥
// len(pts)) as scratch.
func boundingSphere(pts, buf []geom.Vec3) Sphere {
	inf := math.Inf(1)
	lo, hi := geom.Vec3{X: inf, Y: inf, Z: inf}, geom.Vec3{X: -inf, Y: -inf, Z: -inf}
	n := 0
	for _, p := range pts {
		if !sphereFinite(p) {
			continue
		}
		lo.X, hi.X = min(lo.X, p.X), max(hi.X, p.X)
		lo.Y, hi.Y = min(lo.Y, p.Y), max(hi.Y, p.Y)
		lo.Z, hi.Z = min(lo.Z, p.Z), max(hi.Z, p.Z)
		n++
	}
	if n == 0 {
		return Sphere{R: -1}
	}

	// e is the binary exponent of the largest box width w: w ∈ [2^(e-1), 2^e).
	// A width that rounds to +Inf lies in [2^1024, 2^1025).
	e, flat := 0, true
	for i := range 3 {
		w := hi.Index(i) - lo.Index(i)
		if w == 0 {
			continue
		}
		ex := 1025
		if !math.IsInf(w, 1) {
			_, ex = math.Frexp(w)
		}
		if flat || ex > e {
			e, flat = ex, false
		}
	}
	if flat {
		return Sphere{C: lo, R: 0}
	}
	// Scaling by σ = 2^sc maps the widest width into [1/2, 1), up to the
	// clamp, which keeps σ and 1/σ normal and the scaled width in
	// [2^-52, 8).
	sc := min(max(-e, -1022), 1022)
	sigma, inv := math.Ldexp(1, sc), math.Ldexp(1, -sc)
	o := geom.Vec3{X: lo.X/2 + hi.X/2, Y: lo.Y/2 + hi.Y/2, Z: lo.Z/2 + hi.Z/2}
	f := sphereFrame{o: o, os: o.Scale(sigma), sigma: sigma, down: sc < 0}

	q := buf[:n]
	sphereShuffle(q, pts, &f)
	// Every exact ball that Welzl's algorithm builds has a radius at most
	// that of the minimum enclosing ball, hence at most half the diagonal of
	// the box; a computed ball beyond that (with slack) is an artefact of
	// rounding in a degenerate support set.
	half := f.to(hi).Sub(f.to(lo)).Scale(0.5)
	m := sphereWelzl{q: q, cap2: half.Dot(half) * (1 + 0x1p-20)}
	m.run(n, 0)

	// The centre in the input frame, clamped into the box (the minimum
	// enclosing ball's centre lies in the convex hull, so clamping never
	// moves the centre away from it).
	cq := m.b.c
	c := geom.Vec3{
		X: sphereClamp(o.X+cq.X*inv, lo.X, hi.X),
		Y: sphereClamp(o.Y+cq.Y*inv, lo.Y, hi.Y),
		Z: sphereClamp(o.Z+cq.Z*inv, lo.Z, hi.Z),
	}
	return Sphere{C: c, R: sphereRadius(pts, c, sc)}
}

// sphereClamp returns x clamped into [lo, hi]; NaN becomes lo.
func sphereClamp(x, lo, hi float64) float64 {
	if !(x >= lo) {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// sphereRadius returns a radius R such that the exact distance from c to
// every finite point of pts is at most R. c must be finite and lie in the
// points' bounding box, and 2^sc must scale the box's largest width into
// [2^-52, 8).
//
// Proof of the bound. Let u = 2^-53 (unit roundoff), σ = 2^sc, and for one
// point p let e = (p − c)·σ be the exact scaled difference. Each component
// is computed as
//   - sc ≥ 0: d_i = fl(p_i − c_i)·σ. The subtraction has relative error at
//     most u (a sum of two float64s that falls below the normal range is
//     exact), and the product by σ is exact (|d_i| < 8, no overflow; a
//     power of two scales a subnormal up exactly). So d_i = e_i(1+δ_i).
//   - sc < 0: d_i = fl(fl(p_i·σ) − fl(c_i·σ)). Each product by σ is exact
//     unless it underflows, with error at most 2^-1075. So d_i =
//     (e_i + α_i)(1+δ_i) with |α_i| ≤ 2^-1074.
//
// In both cases |δ_i| ≤ u and |e| ≤ |d|/(1−u) + √3·2^-1074. The sum
// S = fl(fl(fl(d_x²) + fl(d_y²)) + fl(d_z²)) has one rounding per square,
// each fl(d_i²) ≥ d_i²(1−u) − 2^-1075, and two roundings of sums of
// non-negative terms, so S ≥ (|d|²(1−u) − 3·2^-1075)(1−u)², that is
// |d|² ≤ S/(1−u)³ + 2^-1073. The computed r = fl(√Smax), Smax ≥ S the
// largest sum over all points, satisfies √S ≤ r/(1−u), so
//
//	|d| ≤ √(S/(1−u)³) + √(2^-1073) ≤ r/(1−u)^(5/2) + 2^-536,
//	|e| ≤ r/(1−u)^(7/2) + 2^-536/(1−u) + 2^-1073 ≤ r(1+4u) + 2^-535.
//
// The padded radius r' = fl(fl(r + fl(r·2^-49)) + 2^-530) has three
// roundings, fl(r·2^-49) ≥ r·2^-49 − 2^-1075 and the two sums relative
// error u, so r' ≥ (1−u)²·r(1+2^-49) + (1−u)·2^-530 − 2^-1075 ≥
// r(1+4u) + 2^-535 ≥ |e|, since (1−u)²(1+16u) ≥ 1+4u. Finally the exact
// distance is |e|/σ ≤ r'/σ, and R = r'/σ rounded up (one ulp is added when
// the scaling by 1/σ is inexact, which is only on underflow or overflow,
// the latter giving +Inf).
//
// Since the scaled width is at least 2^-52 and the centre lies in the box,
// r ≥ 2^-54, and the padding is at most 2^-49 + 2^-475 relative.
func sphereRadius(pts []geom.Vec3, c geom.Vec3, sc int) float64 {
	sigma := math.Ldexp(1, sc)
	smax := 0.0
	if sc >= 0 {
		for _, p := range pts {
			if !sphereFinite(p) {
				continue
			}
			dx, dy, dz := (p.X-c.X)*sigma, (p.Y-c.Y)*sigma, (p.Z-c.Z)*sigma
			smax = max(smax, float64(dx*dx)+float64(dy*dy)+float64(dz*dz))
		}
	} else {
		cs := c.Scale(sigma)
		for _, p := range pts {
			if !sphereFinite(p) {
				continue
			}
			dx := float64(p.X*sigma) - cs.X
			dy := float64(p.Y*sigma) - cs.Y
			dz := float64(p.Z*sigma) - cs.Z
			smax = max(smax, float64(dx*dx)+float64(dy*dy)+float64(dz*dz))
		}
	}
	r := math.Sqrt(smax)
	r = r + float64(r*0x1p-49)
	r = r + 0x1p-530
	rr := math.Ldexp(r, -sc)
	if math.Ldexp(rr, sc) != r {
		rr = math.Nextafter(rr, math.Inf(1))
	}
	return rr
}

// sphereFrame maps input points to the frame of Welzl's algorithm:
// (p − o)·σ when σ ≥ 1, p·σ − o·σ when σ < 1 (so neither form overflows).
type sphereFrame struct {
	o, os geom.Vec3
	sigma float64
	down  bool
}

func (f *sphereFrame) to(p geom.Vec3) geom.Vec3 {
	if f.down {
		return p.Scale(f.sigma).Sub(f.os)
	}
	return p.Sub(f.o).Scale(f.sigma)
}

// Parameters of sphereShuffle: sets of more than sphereShuffleDirect points
// are first scattered into between sphereMinBuckets and sphereMaxBuckets
// buckets of about sphereBucketSize points each.
const (
	sphereShuffleDirect = 1 << 14
	sphereBucketSize    = 1 << 12
	sphereMinBuckets    = 1 << 4
	sphereMaxBuckets    = 1 << 10
)

// sphereShuffle sets q to the finite points of pts (len(q) of them), mapped
// by f, in a pseudo-random order that depends only on the sequence of those
// points. Every permutation is equally likely for a random seed.
//
// Small sets are shuffled directly (inside-out Fisher–Yates). Larger ones,
// whose random accesses would miss the cache, are shuffled in two steps:
// each point is sent to a uniformly random bucket (a counting pass and a
// scattering pass that replays the same random sequence, writing to as
// many sequential streams as there are buckets), then each bucket, small
// enough for the cache, is shuffled by Fisher–Yates in the forward
// direction (swapping s[i] with a random s[j], j ≤ i), which reads the
// bucket sequentially. The result is a uniform random permutation: given
// the bucket sizes, every assignment of the points to positions has
// probability B^-n·Π 1/size_b!, the same for every permutation.
func sphereShuffle(q, pts []geom.Vec3, f *sphereFrame) {
	n := len(q)
	seed := sphereRNG(0x5eed_5fe7e + uint64(n))
	if n <= sphereShuffleDirect {
		rng := seed
		k := 0
		for _, p := range pts {
			if !sphereFinite(p) {
				continue
			}
			j := rng.intn(k + 1)
			q[k] = q[j]
			q[j] = f.to(p)
			k++
		}
		return
	}
	nb := sphereMinBuckets
	for nb < sphereMaxBuckets && nb*sphereBucketSize < n {
		nb *= 2
	}
	shift := 64 - uint(bits.TrailingZeros(uint(nb)))
	var start [sphereMaxBuckets + 1]int
	rng := seed
	for _, p := range pts {
		if sphereFinite(p) {
			start[rng.next()>>shift+1]++
		}
	}
	for b := range nb {
		start[b+1] += start[b]
	}
	var next [sphereMaxBuckets]int
	copy(next[:nb], start[:nb])
	rng = seed
	for _, p := range pts {
		if sphereFinite(p) {
			b := rng.next() >> shift
			q[next[b]] = f.to(p)
			next[b]++
		}
	}
	for b := range nb {
		s := q[start[b]:start[b+1]]
		for i := 1; i < len(s); i++ {
			j := rng.intn(i + 1)
			s[i], s[j] = s[j], s[i]
		}
	}
}

// sphereRNG is a SplitMix64 generator: a fixed, allocation-free shuffle.
type sphereRNG uint64

// next returns the next pseudo-random 64-bit value.
func (r *sphereRNG) next() uint64 {
	*r += 0x9e3779b97f4a7c15
	z := uint64(*r)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// intn returns a pseudo-random integer in [0, n), n > 0 (the high word of
// a 64×64-bit product: a bias below n·2^-64).
func (r *sphereRNG) intn(n int) int {
	hi, _ := bits.Mul64(r.next(), uint64(n))
	return int(hi)
}

// sphereBall is a ball in the scaled frame: centre c, squared radius r2
// (negative: empty).
type sphereBall struct {
	c  geom.Vec3
	r2 float64
}

// sphereTol is the relative slack of the membership test of Welzl's
// algorithm on squared radii: points within r·(1 + 2^-41) of the centre
// count as inside. It keeps points that lie on a ball (cospherical,
// cocircular, duplicate points) from being taken as new support points by
// rounding; the final radius is measured over all points anyway.
const sphereTol = 1 + 0x1p-40

func (b *sphereBall) holds(p geom.Vec3) bool {
	d := p.Sub(b.c)
	return d.Dot(d) <= b.r2*sphereTol
}

// sphereWelzl is the state of Welzl's move-to-front algorithm: the points q,
// the current support set supp[:ns] and ball b.
type sphereWelzl struct {
	q    []geom.Vec3
	supp [4]geom.Vec3
	b    sphereBall
	cap2 float64 // largest plausible squared radius
}

// run sets m.b to the smallest ball that contains q[:end] and has
// supp[:ns] on its boundary, moving each point that enlarges the ball to
// the front of q. The recursion is on the support set only, so its depth is
// at most 4; the loops over points are iterative.
func (m *sphereWelzl) run(end, ns int) {
	m.b = m.support(ns)
	if ns == 4 {
		return
	}
	q := m.q
	for i := 0; i < end; i++ {
		p := q[i]
		if m.b.holds(p) {
			continue
		}
		m.supp[ns] = p
		m.run(i, ns+1)
		// Move p to the front. Only the first sphereMTFWindow points keep
		// their order; beyond the window the point displaced from it takes
		// p's slot, so the move costs O(sphereMTFWindow) and q[:i+1] keeps
		// the same set of points.
		if i <= sphereMTFWindow {
			copy(q[1:i+1], q[:i])
		} else {
			q[i] = q[sphereMTFWindow]
			copy(q[1:sphereMTFWindow+1], q[:sphereMTFWindow])
		}
		q[0] = p
	}
}

// sphereMTFWindow is the length of the front of the point list that
// move-to-front keeps in order.
const sphereMTFWindow = 32

// support returns the smallest ball with supp[:ns] on its boundary. When
// the support points are degenerate (collinear or coplanar, up to
// rounding) so that no such ball of plausible size exists, it returns the
// smallest enclosing ball of the support points instead, found among the
// balls of their subsets.
func (m *sphereWelzl) support(ns int) sphereBall {
	s := &m.supp
	switch ns {
	case 0:
		return sphereBall{r2: -1}
	case 1:
		return sphereBall{c: s[0]}
	case 2:
		return sphereBall2(s[0], s[1])
	case 3:
		if b, ok := sphereBall3(s[0], s[1], s[2], m.cap2); ok {
			return b
		}
	case 4:
		if b, ok := sphereBall4(s[0], s[1], s[2], s[3], m.cap2); ok {
			return b
		}
	}
	return m.enclose(ns)
}

// enclose returns the smallest of the balls through pairs and (for ns = 4)
// triples of supp[:ns], each grown to contain all of supp[:ns].
func (m *sphereWelzl) enclose(ns int) sphereBall {
	s := m.supp[:ns]
	best := sphereBall{r2: math.Inf(1)}
	try := func(b sphereBall) {
		for _, p := range s {
			d := p.Sub(b.c)
			b.r2 = max(b.r2, d.Dot(d))
		}
		if b.r2 < best.r2 {
			best = b
		}
	}
	for i := range ns {
		for j := i + 1; j < ns; j++ {
			try(sphereBall2(s[i], s[j]))
		}
	}
	if ns == 4 {
		for i := range 4 {
			var t [3]geom.Vec3
			k := 0
			for j := range 4 {
				if j != i {
					t[k] = s[j]
					k++
				}
			}
			if b, ok := sphereBall3(t[0], t[1], t[2], m.cap2); ok {
				try(b)
			}
		}
	}
	return best
}

// sphereBall2 returns the ball with diameter [a, b]; its squared radius is
// the larger computed squared distance to a and b.
func sphereBall2(a, b geom.Vec3) sphereBall {
	c := a.Add(b.Sub(a).Scale(0.5))
	return sphereBall{c: c, r2: max(sphereDist2(a, c), sphereDist2(b, c))}
}

// sphereBall3 returns the smallest ball with a0, a1, a2 on its boundary
// (centre in their plane), computed relative to a0, and false if the points
// are collinear up to rounding or the ball is larger than cap2.
func sphereBall3(a0, a1, a2 geom.Vec3, cap2 float64) (sphereBall, bool) {
	a, b := a1.Sub(a0), a2.Sub(a0)
	n := a.Cross(b)
	n2 := n.Dot(n)
	if !(n2 > 0) {
		return sphereBall{}, false
	}
	// c − a0 = (|a|²·b − |b|²·a) × (a × b) / (2|a × b|²)
	rel := b.Scale(a.Dot(a)).Sub(a.Scale(b.Dot(b))).Cross(n).Scale(0.5 / n2)
	c := a0.Add(rel)
	r2 := max(sphereDist2(a0, c), sphereDist2(a1, c), sphereDist2(a2, c))
	if !(r2 <= cap2) {
		return sphereBall{}, false
	}
	return sphereBall{c: c, r2: r2}, true
}

// sphereBall4 returns the ball with a0, ..., a3 on its boundary, computed
// relative to a0, and false if the points are coplanar up to rounding or
// the ball is larger than cap2.
func sphereBall4(a0, a1, a2, a3 geom.Vec3, cap2 float64) (sphereBall, bool) {
	a, b, d := a1.Sub(a0), a2.Sub(a0), a3.Sub(a0)
	bd := b.Cross(d)
	det := a.Dot(bd)
	if det == 0 {
		return sphereBall{}, false
	}
	// c − a0 = (|a|²·(b × d) + |b|²·(d × a) + |d|²·(a × b)) / (2 a·(b × d))
	num := bd.Scale(a.Dot(a)).Add(d.Cross(a).Scale(b.Dot(b))).Add(a.Cross(b).Scale(d.Dot(d)))
	c := a0.Add(num.Scale(0.5 / det))
	r2 := max(sphereDist2(a0, c), sphereDist2(a1, c), sphereDist2(a2, c), sphereDist2(a3, c))
	if !(r2 <= cap2) {
		return sphereBall{}, false
	}
	return sphereBall{c: c, r2: r2}, true
}

func sphereDist2(p, c geom.Vec3) float64 {
	d := p.Sub(c)
	return d.Dot(d)
}
