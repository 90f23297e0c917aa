package testgeom

import (
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/collide3d/collide/geom"
)

func v(x, y, z float64) geom.Vec3 { return geom.Vec3{X: x, Y: y, Z: z} }

func tri(a, b, c geom.Vec3) geom.Triangle { return geom.Triangle{a, b, c} }

func pt(p geom.Vec3) geom.Triangle { return geom.Triangle{p, p, p} }

func seg(p, q geom.Vec3) geom.Triangle { return geom.Triangle{p, q, q} }

// t0 is the unit right triangle in the plane z = 0.
var t0 = tri(v(0, 0, 0), v(1, 0, 0), v(0, 1, 0))

// tilt is a triangle in the plane z = x + y.
var tilt = tri(v(0, 0, 0), v(1, 0, 1), v(0, 1, 1))

// ratCases are hand-checked cases with known answers. Each could fail: the
// "false" cases are close to contact, the "true" ones touch minimally.
var ratCases = []struct {
	name string
	a, b geom.Triangle
	want bool
}{
	{"parallel planes", t0, tri(v(0, 0, 1), v(1, 0, 1), v(0, 1, 1)), false},
	{"parallel planes, one denormal apart", t0, tri(v(0, 0, 0x1p-1074), v(1, 0, 0x1p-1074), v(0, 1, 0x1p-1074)), false},
	{"crossing", t0, tri(v(0.2, 0.2, -1), v(0.2, 0.2, 1), v(2, 2, 0)), true},
	{"crossing, piercing segment beside", t0, tri(v(0.6, 0.6, -1), v(0.6, 0.6, 1), v(2, 2, 0)), false},
	{"linked through the interior", tri(v(-1, 0, 0), v(1, 0, 0), v(0, 2, 0)), tri(v(0, 1, -1), v(0, 1, 1), v(0, 3, 0)), true},
	{"shared vertex", t0, tri(v(1, 0, 0), v(2, 0, 1), v(2, 1, 1)), true},
	{"vertex on edge", t0, tri(v(0.5, 0, 0), v(0.5, -1, 1), v(0.5, 1, 1)), true},
	{"vertex just outside edge", t0, tri(v(0.5, -0x1p-50, 0), v(0.5, 1, 1), v(0.6, 1, 1)), false},
	{"vertex on hypotenuse", t0, tri(v(0.5, 0.5, 0), v(1, 1, 1), v(1, 1, -1)), true},
	{"vertex inside, rest above", t0, tri(v(0.25, 0.25, 0), v(1, 1, 1), v(-1, 1, 1)), true},
	{"vertex just above, rest above", t0, tri(v(0.25, 0.25, 0x1p-54), v(1, 1, 1), v(-1, 1, 1)), false},
	{"vertex just below, rest above", t0, tri(v(0.25, 0.25, -0x1p-54), v(1, 1, 1), v(-1, 1, 1)), true},
	{"tilted: vertex on face, rest above", tilt, tri(v(0.25, 0.25, 0.5), v(1, 1, 3), v(-1, 1, 1)), true},
	{"tilted: vertex one ulp above, rest above", tilt, tri(v(0.25, 0.25, math.Nextafter(0.5, 1)), v(1, 1, 3), v(-1, 1, 1)), false},
	{"tilted: vertex one ulp below, rest above", tilt, tri(v(0.25, 0.25, math.Nextafter(0.5, 0)), v(1, 1, 3), v(-1, 1, 1)), true},
	{"edge crosses edge", t0, tri(v(0.5, 1, -1), v(0.5, -1, 1), v(0.5, -1, -1)), true},
	{"edge passes beside edge", t0, tri(v(0.5, 1-0x1p-40, -1), v(0.5, -1-0x1p-40, 1), v(0.5, -1-0x1p-40, -1)), false},
	{"collinear edges overlap", t0, tri(v(0.5, 0, 0), v(2, 0, 0), v(1, 0, 1)), true},
	{"collinear edges touch at end", t0, tri(v(1, 0, 0), v(2, 0, 0), v(1.5, 0, 1)), true},
	{"collinear edges with gap", t0, tri(v(1+0x1p-52, 0, 0), v(2, 0, 0), v(1.5, 0, 1)), false},
	{"coplanar containment", t0, tri(v(0.1, 0.1, 0), v(0.2, 0.1, 0), v(0.1, 0.2, 0)), true},
	{"coplanar containment reversed", tri(v(0.1, 0.1, 0), v(0.2, 0.1, 0), v(0.1, 0.2, 0)), t0, true},
	{"coplanar overlap, star", tri(v(0, 0, 0), v(4, 0, 0), v(2, 3, 0)), tri(v(0, 2, 0), v(4, 2, 0), v(2, -1, 0)), true},
	{"coplanar disjoint, boxes overlap", t0, tri(v(0.6, 0.6, 0), v(1, 0.6, 0), v(0.6, 1, 0)), false},
	{"coplanar touching at a point", t0, tri(v(0.5, 0.5, 0), v(1, 1, 0), v(1.5, 0.5, 0)), true},
	{"coplanar just apart", t0, tri(v(0.5, 0.5+0x1p-53, 0), v(1, 1, 0), v(0.5, 1, 0)), false},
	{"coplanar, tilted plane, shared vertex", tri(v(0, 0, 0), v(3, 1, 2), v(1, 3, 5)), tri(v(3, 1, 2), v(6, 2, 4), v(4, 4, 7)), true},
	// b = a + (e1+e2)/2 touches a at the midpoint of its third edge; moved
	// by (1+2⁻⁴⁰)(e1+e2)/2 (exact, still in the plane) it misses.
	{"coplanar, tilted plane, vertex on edge", tri(v(0, 0, 0), v(3, 1, 2), v(1, 3, 5)), tri(v(2, 2, 3.5), v(5, 3, 5.5), v(3, 5, 8.5)), true},
	{"coplanar, tilted plane, just apart", tri(v(0, 0, 0), v(3, 1, 2), v(1, 3, 5)),
		tri(v(2+0x1p-39, 2+0x1p-39, 3.5+7*0x1p-41), v(5+0x1p-39, 3+0x1p-39, 5.5+7*0x1p-41), v(3+0x1p-39, 5+0x1p-39, 8.5+7*0x1p-41)), false},
	{"identical", t0, t0, true},
	{"identical, reversed", t0, tri(t0[2], t0[1], t0[0]), true},
	{"point inside", t0, pt(v(0.25, 0.25, 0)), true},
	{"point on edge", t0, pt(v(0.5, 0, 0)), true},
	{"point on hypotenuse", t0, pt(v(0.5, 0.5, 0)), true},
	{"point at vertex", t0, pt(v(0, 1, 0)), true},
	{"point outside, in plane", t0, pt(v(0.5, 0.5+0x1p-53, 0)), false},
	{"point above by a denormal", t0, pt(v(0.25, 0.25, 0x1p-1074)), false},
	{"segment through triangle", t0, tri(v(0.25, 0.25, -1), v(0.25, 0.25, 1), v(0.25, 0.25, 0.5)), true},
	{"segment ending on the face", t0, seg(v(0.25, 0.25, 0), v(0.25, 0.25, 1)), true},
	{"segment ending just above", t0, seg(v(0.25, 0.25, 0x1p-60), v(0.25, 0.25, 1)), false},
	{"segment through the plane outside", t0, seg(v(0.6, 0.6, -1), v(0.6, 0.6, 1)), false},
	{"slanted segment through an edge", t0, seg(v(0.5, -1, -1), v(0.5, 1, 1)), true},
	{"coplanar segment crossing", t0, seg(v(0.5, -1, 0), v(0.5, 1, 0)), true},
	{"coplanar segment inside", t0, seg(v(0.1, 0.1, 0), v(0.2, 0.3, 0)), true},
	{"coplanar segment outside, boxes overlap", t0, seg(v(0.75, 0.75, 0), v(1.25, 0.25, 0)), false},
	{"degenerate triangle with middle vertex", t0, tri(v(0.25, 0.25, -1), v(0.25, 0.25, 1), v(0.25, 0.25, -0.5)), true},
	{"points equal", pt(v(1, 2, 3)), pt(v(1, 2, 3)), true},
	{"points one ulp apart", pt(v(1, 2, 3)), pt(v(1, 2, math.Nextafter(3, 4))), false},
	{"point on segment", seg(v(0, 0, 0), v(2, 2, 2)), pt(v(0.5, 0.5, 0.5)), true},
	{"point on the segment's line, outside", seg(v(0, 0, 0), v(2, 2, 2)), pt(v(3, 3, 3)), false},
	{"point near segment, inside its box", seg(v(0, 0, 0), v(2, 2, 2)), pt(v(0.5, 0.5, 0.5+0x1p-50)), false},
	{"segments crossing in 3D", seg(v(-1, 0, 0), v(1, 0, 0)), seg(v(0, -1, 0), v(0, 1, 0)), true},
	{"segments crossing obliquely", seg(v(0, 0, 0), v(2, 4, 6)), seg(v(0, 4, 6), v(2, 0, 0)), true},
	{"segments skew", seg(v(-1, 0, 0), v(1, 0, 0)), seg(v(0, -1, 0x1p-60), v(0, 1, 0x1p-60)), false},
	{"segments crossing lines, not segments", seg(v(-1, 0, 0), v(1, 0, 0)), seg(v(0, 0.5, 0), v(0, 1, 0)), false},
	{"segments collinear overlap", seg(v(0, 0, 0), v(2, 0, 0)), seg(v(1, 0, 0), v(3, 0, 0)), true},
	{"segments collinear touch", seg(v(0, 0, 0), v(2, 2, 0)), seg(v(2, 2, 0), v(3, 3, 0)), true},
	{"segments collinear gap", seg(v(0, 0, 0), v(2, 2, 0)), seg(v(2, math.Nextafter(2, 3), 0), v(3, 3, 0)), false},
	{"segments collinear gap, oblique", seg(v(0, 0, 0), v(1, 2, 3)), seg(v(2, 4, 6), v(3, 6, 9)), false},
	{"segments parallel", seg(v(0, 0, 0), v(2, 0, 0)), seg(v(0, 0x1p-60, 0), v(2, 0x1p-60, 0)), false},
	{"segment collinear with an edge, gap", seg(v(0, 0, 0), v(3, 0, 0)), tri(v(3.5, 0, 0), v(5, 0, 0), v(0, 0, 1)), false},
	{"segment collinear with an edge, touching", seg(v(0, 0, 0), v(3.5, 0, 0)), tri(v(3.5, 0, 0), v(5, 0, 0), v(0, 0, 1)), true},
	{"segment against segment-shaped triangle", seg(v(0, 0, 0), v(2, 0, 0)), tri(v(1, -1, 0), v(1, 1, 0), v(1, 0.5, 0)), true},
	{"huge coordinates", scaleTri(t0, 0x1p1000), pt(v(0x1p998, 0x1p998, 0)), true},
	{"huge coordinates, miss", scaleTri(t0, 0x1p1000), pt(v(0x1p999, 0x1p999+0x1p947, 0)), false},
	{"denormal triangle", scaleTri(t0, 0x1p-1070), pt(v(0x1p-1072, 0x1p-1072, 0)), true},
	{"denormal triangle, miss", scaleTri(t0, 0x1p-1070), pt(v(0x1p-1071, 0x1p-1071+0x1p-1074, 0)), false},
}

func TestRatTriTriTable(t *testing.T) {
	for _, c := range ratCases {
		for p := range 6 {
			for q := range 6 {
				a, b := Permute(c.a, p), Permute(c.b, q)
				if got := RatTriTri(a, b); got != c.want {
					t.Errorf("%s (perm %d,%d): RatTriTri = %v, want %v", c.name, p, q, got, c.want)
				}
				if got := RatTriTri(b, a); got != c.want {
					t.Errorf("%s (perm %d,%d, swapped): RatTriTri = %v, want %v", c.name, p, q, got, c.want)
				}
			}
		}
	}
}

// minkowskiTriTri is a second, unrelated exact test, used only to check
// RatTriTri: A ∩ B ≠ ∅ iff 0 ∈ conv(P), P = {a_i - b_j} (nine points). If
// 0 ∉ conv(P), the point c of conv(P) nearest to 0 is ≠ 0 and c·x ≥ |c|² > 0
// on conv(P); c lies in the relative interior of a face F of dimension 0, 1
// or 2 (not 3, or c = 0) and is the projection of 0 on aff(F), so c is
// parallel to p (F = {p}), to d×(p×d) (F = [p, p+d]) or to the normal
// (q-p)×(r-p) (F = [p,q,r]). So 0 ∉ conv(P) iff one of these candidate
// axes has P strictly on one side. Exact with integers after scaling every
// coordinate by a common power of two.
func minkowskiTriTri(a, b geom.Triangle) bool {
	coords := make([]float64, 0, 18)
	for _, t := range [2]geom.Triangle{a, b} {
		for _, p := range t {
			coords = append(coords, p.X, p.Y, p.Z)
		}
	}
	ints := scaleToInts(coords)
	type ivec [3]*big.Int
	var pts []ivec
	for i := range 3 {
		for j := range 3 {
			var p ivec
			for c := range 3 {
				p[c] = new(big.Int).Sub(ints[3*i+c], ints[9+3*j+c])
			}
			pts = append(pts, p)
		}
	}
	sub := func(p, q ivec) ivec {
		return ivec{new(big.Int).Sub(p[0], q[0]), new(big.Int).Sub(p[1], q[1]), new(big.Int).Sub(p[2], q[2])}
	}
	cross := func(p, q ivec) ivec {
		var r ivec
		for c := range 3 {
			i, j := (c+1)%3, (c+2)%3
			x := new(big.Int).Mul(p[i], q[j])
			r[c] = x.Sub(x, new(big.Int).Mul(p[j], q[i]))
		}
		return r
	}
	dot := func(p, q ivec) *big.Int {
		s := new(big.Int)
		for c := range 3 {
			s.Add(s, new(big.Int).Mul(p[c], q[c]))
		}
		return s
	}
	separates := func(ax ivec) bool {
		if ax[0].Sign() == 0 && ax[1].Sign() == 0 && ax[2].Sign() == 0 {
			return false
		}
		pos, neg := true, true
		for _, p := range pts {
			s := dot(ax, p).Sign()
			pos = pos && s > 0
			neg = neg && s < 0
		}
		return pos || neg
	}
	for i, p := range pts {
		if separates(p) {
			return false
		}
		for j := i + 1; j < len(pts); j++ {
			d := sub(pts[j], p)
			if separates(cross(d, cross(p, d))) {
				return false
			}
			for k := j + 1; k < len(pts); k++ {
				if separates(cross(d, sub(pts[k], p))) {
					return false
				}
			}
		}
	}
	return true
}

// scaleToInts returns x_i·2^K as integers, for the smallest K ≥ 0 that makes
// every one an integer (exact).
func scaleToInts(xs []float64) []*big.Int {
	k := 0
	for _, x := range xs {
		if x == 0 {
			continue
		}
		fr, e := math.Frexp(x) // x = fr·2^e, 0.5 ≤ |fr| < 1
		m := int64(fr * (1 << 53))
		tz := 0
		for m%2 == 0 {
			m /= 2
			tz++
		}
		if need := 53 - e - tz; need > k {
			k = need
		}
	}
	out := make([]*big.Int, len(xs))
	for i, x := range xs {
		r := new(big.Rat).SetFloat64(x)
		r.Mul(r, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(k))))
		if !r.IsInt() {
			panic("scaleToInts: not an integer")
		}
		out[i] = new(big.Int).Set(r.Num())
	}
	return out
}

func TestMinkowskiTable(t *testing.T) {
	// The second oracle must agree with the hand-checked table too.
	for _, c := range ratCases {
		if got := minkowskiTriTri(c.a, c.b); got != c.want {
			t.Errorf("%s: minkowskiTriTri = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestRatTriTriVsMinkowski checks RatTriTri against the Minkowski-difference
// oracle on every pair kind.
func TestRatTriTriVsMinkowski(t *testing.T) {
	n := 200
	if os.Getenv("COLLIDE_LONG") != "" {
		n = 5000
	}
	for _, kind := range AllPairKinds() {
		rng := rand.New(rand.NewPCG(7, uint64(kind)))
		hits := 0
		for i := range n {
			a, b := Pair(kind, rng)
			want := minkowskiTriTri(a, b)
			if got := RatTriTri(a, b); got != want {
				t.Errorf("%v #%d: RatTriTri = %v, minkowski = %v\na = %s\nb = %s", kind, i, got, want, FormatTriangle(a), FormatTriangle(b))
			}
			if want {
				hits++
			}
		}
		t.Logf("%-17v %d pairs, %d in contact", kind, n, hits)
	}
}

func BenchmarkRatTriTri(b *testing.B) {
	for _, kind := range AllPairKinds() {
		rng := rand.New(rand.NewPCG(1, uint64(kind)))
		var pairs [256][2]geom.Triangle
		for i := range pairs {
			pairs[i][0], pairs[i][1] = Pair(kind, rng)
		}
		b.Run(kind.String(), func(b *testing.B) {
			i := 0
			for b.Loop() {
				p := &pairs[i%len(pairs)]
				RatTriTri(p[0], p[1])
				i++
			}
		})
	}
}

func TestDyadicParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	xs := []float64{0, 1, -1, 0.5, 3, -0x1p-1074, 0x1p-1074, 0x1.fffffffffffffp1023, -0x1p-1022, 1e6, 1e-7, math.Nextafter(1, 2)}
	for range 1000 {
		xs = append(xs, math.Float64frombits(rng.Uint64()))
	}
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		m, e := dyadicParts(x)
		want := new(big.Rat).SetFloat64(x)
		got := new(big.Rat).SetInt64(m)
		p := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(max(e, -e))))
		if e >= 0 {
			got.Mul(got, p)
		} else {
			got.Quo(got, p)
		}
		if got.Cmp(want) != 0 || (m != 0 && m%2 == 0) {
			t.Errorf("dyadicParts(%x) = %d, %d", x, m, e)
		}
	}
}
