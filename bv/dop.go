package bv

import (
	"fmt"
	"math"

	"github.com/collide3d/collide/geom"
)

// K names a set of k-DOP directions by k, the number of planes: 6, 8, 12,
// 14, 18, 20 or 26.
type K int

// The supported direction sets: the journal paper's 6, 14, 18 and 26, which
// hold the axes, and the dissertation's 8, 12 and 20, its 14, 18 and 26
// without them.
const (
	K6  K = 6  // the axes (an axis-aligned box)
	K8  K = 8  // the 4 corner diagonals
	K12 K = 12 // the 6 edge diagonals
	K14 K = 14 // the axes and the corner diagonals
	K18 K = 18 // the axes and the edge diagonals
	K20 K = 20 // the corner and the edge diagonals
	K26 K = 26 // all 13
)

// Ks lists the supported direction sets, by k.
var Ks = []K{K6, K8, K12, K14, K18, K20, K26}

// MaxSlabs is the largest number of slabs (k/2) of a supported k-DOP.
const MaxSlabs = 13

// dirs is the table of the 13 directions; a direction set is a list of
// indices into it.
var dirs = [MaxSlabs][3]int8{
	{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, // axes: 0-2
	{1, 1, 1}, {1, -1, 1}, {1, 1, -1}, {1, -1, -1}, // corners: 3-6
	{1, 1, 0}, {1, 0, 1}, {0, 1, 1}, {1, -1, 0}, {1, 0, -1}, {0, 1, -1}, // edges: 7-12
}

// sets lists, per k, the directions in the order the overlap test tries them:
// the axes first (where the set has them), then the diagonals.
var sets = map[K][]int{
	K6:  {0, 1, 2},
	K8:  {3, 4, 5, 6},
	K12: {7, 8, 9, 10, 11, 12},
	K14: {0, 1, 2, 3, 4, 5, 6},
	K18: {0, 1, 2, 7, 8, 9, 10, 11, 12},
	K20: {3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
	K26: {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
}

// Valid reports whether k is a supported direction set.
func (k K) Valid() bool { _, ok := sets[k]; return ok }

// Axes reports whether the set holds the axes, as its first three slabs (x,
// y and z): true for 6, 14, 18 and 26. A set without them (8, 12, 20) bounds
// a box only through pairs of its diagonals (see DOP.Box).
func (k K) Axes() bool {
	s := sets[k]
	return len(s) > 0 && s[0] == 0
}

// exact returns the number of leading slabs whose projections are exact
// (the axes): 3 for a set with the axes, else 0.
func (k K) exact() int {
	if k.Axes() {
		return 3
	}
	return 0
}

// Slabs returns k/2, the number of slabs.
func (k K) Slabs() int { return int(k) / 2 }

// String returns "k-DOP" with the number, e.g. "18-DOP".
func (k K) String() string { return fmt.Sprintf("%d-DOP", int(k)) }

// Dir returns direction i (0 ≤ i < k/2) of the set, unnormalised.
func (k K) Dir(i int) geom.Vec3 {
	d := dirs[sets[k][i]]
	return geom.Vec3{X: float64(d[0]), Y: float64(d[1]), Z: float64(d[2])}
}

// Norm returns the Euclidean norm of direction i: 1, √2 or √3.
func (k K) Norm(i int) float64 {
	d := dirs[sets[k][i]]
	return math.Sqrt(float64(d[0]*d[0] + d[1]*d[1] + d[2]*d[2]))
}

// Project sets out[i] = d_i·p for the k/2 directions of k. The sums are
// rounded (see Fit for the error bound).
func (k K) Project(p geom.Vec3, out *[MaxSlabs]float64) {
	x, y, z := p.X, p.Y, p.Z
	switch k {
	case K8:
		out[0], out[1], out[2], out[3] = x+y+z, x-y+z, x+y-z, x-y-z
		return
	case K12:
		out[0], out[1], out[2] = x+y, x+z, y+z
		out[3], out[4], out[5] = x-y, x-z, y-z
		return
	case K20:
		out[0], out[1], out[2], out[3] = x+y+z, x-y+z, x+y-z, x-y-z
		out[4], out[5], out[6] = x+y, x+z, y+z
		out[7], out[8], out[9] = x-y, x-z, y-z
		return
	}
	out[0], out[1], out[2] = x, y, z
	switch k {
	case K14:
		out[3], out[4], out[5], out[6] = x+y+z, x-y+z, x+y-z, x-y-z
	case K18:
		out[3], out[4], out[5] = x+y, x+z, y+z
		out[6], out[7], out[8] = x-y, x-z, y-z
	case K26:
		out[3], out[4], out[5], out[6] = x+y+z, x-y+z, x+y-z, x-y-z
		out[7], out[8], out[9] = x+y, x+z, y+z
		out[10], out[11], out[12] = x-y, x-z, y-z
	}
}

// DOP is a k-DOP in float64: the points x with Lo[i] ≤ d_i·x ≤ Hi[i] for the
// k/2 directions d_i of K (entries past k/2 are unused). It is empty when
// Lo[i] > Hi[i] for some slab.
type DOP struct {
	K      K
	Lo, Hi [MaxSlabs]float64
}

// Empty returns the empty k-DOP (Lo = +Inf, Hi = -Inf), the identity of
// Union.
func Empty(k K) DOP {
	d := DOP{K: k}
	for i := range MaxSlabs {
		d.Lo[i], d.Hi[i] = math.Inf(1), math.Inf(-1)
	}
	return d
}

// IsEmpty reports whether d contains no point.
func (d *DOP) IsEmpty() bool {
	for i := range d.K.Slabs() {
		if !(d.Lo[i] <= d.Hi[i]) {
			return true
		}
	}
	return false
}

// Fit returns the k-DOP of the points, rounded outward so that it contains
// every point exactly: the projections onto the axes are exact, and those
// onto the diagonals (sums of 2 or 3 coordinates, rounded at most twice) are
// widened by 2^-50·M, M the largest coordinate magnitude, which exceeds their
// rounding error. For a set without the axes M is the largest magnitude of
// any rounded projection, which is at least (1 − 2⁻⁵²)·(|x| + |y| + |z|) for
// the corner diagonals, and (1 − 2⁻⁵³)·(|x| + |y|) (or another two) for the
// edge diagonals, of every point: 2^-50·M then exceeds the at most two
// roundings of 2⁻⁵³·(|x| + |y| + |z|) each.
func Fit(k K, pts ...geom.Vec3) DOP {
	d := Empty(k)
	for _, p := range pts {
		d.addRaw(p)
	}
	d.padDiagonals()
	return d
}

// FitTriangles returns the k-DOP of the triangles' vertices, rounded outward
// as Fit does.
func FitTriangles(k K, ts ...geom.Triangle) DOP {
	d := Empty(k)
	for _, t := range ts {
		d.addRaw(t[0])
		d.addRaw(t[1])
		d.addRaw(t[2])
	}
	d.padDiagonals()
	return d
}

// addRaw widens d to the rounded projections of p.
func (d *DOP) addRaw(p geom.Vec3) {
	var pr [MaxSlabs]float64
	d.K.Project(p, &pr)
	for i := range d.K.Slabs() {
		d.Lo[i] = min(d.Lo[i], pr[i])
		d.Hi[i] = max(d.Hi[i], pr[i])
	}
}

// padDiagonals widens the diagonal slabs by a bound on the rounding of their
// projections (the axis slabs are exact).
func (d *DOP) padDiagonals() {
	if d.IsEmpty() || d.K == K6 {
		return
	}
	pad := d.mag() * 0x1p-50
	for i := d.K.exact(); i < d.K.Slabs(); i++ {
		d.Lo[i] -= pad
		d.Hi[i] += pad
	}
}

// mag returns a bound on the coordinate magnitudes of d's points: the
// largest magnitude of its axis bounds, or, for a set without the axes, of
// all its bounds (every coordinate magnitude is at most |d_i·p| for some
// diagonal d_i: |x| ≤ max(|x + y|, |x − y|), |x| ≤ max over the corner
// diagonals of |±x ± y ± z|).
func (d *DOP) mag() float64 {
	n := 3
	if !d.K.Axes() {
		n = d.K.Slabs()
	}
	m := 0.0
	for i := range n {
		m = max(m, math.Abs(d.Lo[i]), math.Abs(d.Hi[i]))
	}
	return m
}

// boxPairs lists, per axis, the pairs of diagonals (indices into dirs, with
// signs) whose half sum is the axis: x = (d₃ + d₆)/2 = (d₄ + d₅)/2 = …
var boxPairs = [3][4][4]int8{
	{{3, 1, 6, 1}, {4, 1, 5, 1}, {7, 1, 10, 1}, {8, 1, 11, 1}},     // x
	{{3, 1, 4, -1}, {5, 1, 6, -1}, {7, 1, 10, -1}, {9, 1, 12, 1}},  // y
	{{3, 1, 5, -1}, {4, 1, 6, -1}, {8, 1, 11, -1}, {9, 1, 12, -1}}, // z
}

// slot maps, per k/2, a direction (an index into dirs) to its slab, or −1.
var slot = func() (t [MaxSlabs + 1][MaxSlabs]int8) {
	for k, set := range sets {
		for i := range t[k.Slabs()] {
			t[k.Slabs()][i] = -1
		}
		for i, di := range set {
			t[k.Slabs()][di] = int8(i)
		}
	}
	return t
}()

// Box returns an axis-aligned box that contains d exactly: its axis slabs,
// or, for a set without the axes (8, 12, 20), the box derived from pairs of
// its diagonals, each axis x = (d_i + d_j)/2 bounded by the half sums of
// the two slabs' bounds, rounded outward, and the tightest of the pairs
// kept. The derived box is conservative, not always the smallest around d.
// It is empty if d is.
func (d *DOP) Box() geom.AABB {
	if d.IsEmpty() {
		return geom.EmptyAABB()
	}
	var lo, hi [3]float64
	if d.K.Axes() {
		for a := range 3 {
			lo[a], hi[a] = d.Lo[a], d.Hi[a]
		}
	} else {
		sl := &slot[d.K.Slabs()]
		for a := range 3 {
			lo[a], hi[a] = math.Inf(-1), math.Inf(1)
			for _, pr := range boxPairs[a] {
				i, j := sl[pr[0]], sl[pr[2]]
				if i < 0 || j < 0 {
					continue
				}
				li, ui := d.Lo[i], d.Hi[i] // pr[1] is always +1
				lj, hj := d.Lo[j], d.Hi[j]
				if pr[3] < 0 {
					lj, hj = -hj, -lj
				}
				lo[a] = max(lo[a], halfSumDown(li, lj))
				hi[a] = min(hi[a], halfSumUp(ui, hj))
			}
		}
	}
	return geom.AABB{
		Min: geom.Vec3{X: lo[0], Y: lo[1], Z: lo[2]},
		Max: geom.Vec3{X: hi[0], Y: hi[1], Z: hi[2]},
	}
}

// halfSumDown returns a value at most (a + b)/2, without overflow. The
// halving is exact but below 2⁻¹⁰²¹ (an error of at most 2⁻¹⁰⁷⁵ each) and
// the sum rounds by half an ulp: when both halvings are exact, the sum's
// error term (Knuth's TwoSum) tells whether the sum is low already or one
// step down makes it so; otherwise two steps down cover both errors.
func halfSumDown(a, b float64) float64 {
	s, e, ok := halfSum(a, b)
	switch {
	case !ok:
		return down(down(s))
	case e < 0:
		return down(s)
	}
	return s
}

// halfSumUp returns a value at least (a + b)/2 (see halfSumDown).
func halfSumUp(a, b float64) float64 {
	s, e, ok := halfSum(a, b)
	switch {
	case !ok:
		return up(up(s))
	case e > 0:
		return up(s)
	}
	return s
}

// halfSum returns s = fl(a/2 + b/2), its error e (a/2 + b/2 = s + e
// exactly, when ok) and whether both halvings were exact and s finite.
func halfSum(a, b float64) (s, e float64, ok bool) {
	ha, hb := 0.5*a, 0.5*b
	s = ha + hb
	if 2*ha != a || 2*hb != b || s-s != 0 {
		return s, 0, false
	}
	bb := s - ha
	return s, (ha - (s - bb)) + (hb - bb), true
}

// Union returns the smallest k-DOP containing d and e (of the same K).
func (d DOP) Union(e DOP) DOP {
	d.mustMatch(e)
	for i := range d.K.Slabs() {
		d.Lo[i] = min(d.Lo[i], e.Lo[i])
		d.Hi[i] = max(d.Hi[i], e.Hi[i])
	}
	return d
}

// Overlaps reports whether the slabs of d and e (of the same K) overlap,
// testing them in order and stopping at the first disjoint one. It is
// conservative: true whenever d and e share a point, and exact for k = 6.
func (d *DOP) Overlaps(e *DOP) bool {
	d.mustMatch(*e)
	for i := range d.K.Slabs() {
		if d.Lo[i] > e.Hi[i] || e.Lo[i] > d.Hi[i] {
			return false
		}
	}
	return true
}

// Contains reports whether the point p lies in d, comparing rounded
// projections (see Fit).
func (d *DOP) Contains(p geom.Vec3) bool {
	var pr [MaxSlabs]float64
	d.K.Project(p, &pr)
	for i := range d.K.Slabs() {
		if pr[i] < d.Lo[i] || pr[i] > d.Hi[i] {
			return false
		}
	}
	return true
}

// ContainsDOP reports whether every slab of d contains the slab of e.
func (d *DOP) ContainsDOP(e *DOP) bool {
	d.mustMatch(*e)
	if e.IsEmpty() {
		return true
	}
	for i := range d.K.Slabs() {
		if e.Lo[i] < d.Lo[i] || e.Hi[i] > d.Hi[i] {
			return false
		}
	}
	return true
}

// Expanded returns d enlarged so that it contains every point within
// distance eps of d: slab i grows by eps·|d_i| on each side (rounded up).
// The empty DOP stays empty.
func (d DOP) Expanded(eps float64) DOP {
	if d.IsEmpty() || eps == 0 {
		return d
	}
	for i := range d.K.Slabs() {
		g := eps * d.K.Norm(i) * (1 + 0x1p-50)
		d.Lo[i] -= g
		d.Hi[i] += g
	}
	return d
}

// Translated returns d moved by t, widened by a bound on the rounding of the
// shift, so that it contains p + t, computed in float64, for every p in d.
func (d DOP) Translated(t geom.Vec3) DOP {
	if d.IsEmpty() {
		return d
	}
	var s [MaxSlabs]float64
	d.K.Project(t, &s)
	m := max(math.Abs(t.X), math.Abs(t.Y), math.Abs(t.Z), d.mag())
	// Each coordinate of p + t is rounded once (≤ 2^-53·2m), each sum of up
	// to three of them and the shift add a few more roundings of size 3m.
	pad := m * 0x1p-47
	for i := range d.K.Slabs() {
		d.Lo[i] = d.Lo[i] + s[i] - pad
		d.Hi[i] = d.Hi[i] + s[i] + pad
	}
	return d
}

func (d *DOP) mustMatch(e DOP) {
	if d.K != e.K {
		panic(fmt.Sprintf("bv: %v combined with %v", d.K, e.K))
	}
}

// String formats d as its slabs, "18-DOP[lo,hi ...]".
func (d DOP) String() string {
	s := d.K.String() + "["
	for i := range d.K.Slabs() {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%g,%g", d.Lo[i], d.Hi[i])
	}
	return s + "]"
}
