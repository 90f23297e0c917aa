package bvh

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
)

// TestBoxUnionAnyOrder checks what the AABB and sphere builders rely on to
// build the trees they built when they united the triangles' boxes one by
// one (geom.AABB.Union, in the node's order): boxUnion over boxes computed
// once gives the same bits whatever the order, −0 included (Build takes
// finite coordinates only: with NaN, math.Min's −Inf rule and the
// builtin min's NaN rule would differ).
func TestBoxUnionAnyOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 5))
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 0x1p-1074, -0x1p-1074, 1e300, -math.MaxFloat64}
	for range 5000 {
		tris := make([]geom.Triangle, 1+rng.IntN(6))
		boxes := make([]geom.AABB, len(tris))
		for i := range tris {
			for k := range 3 {
				tris[i][k] = geom.V(vals[rng.IntN(len(vals))], vals[rng.IntN(len(vals))], vals[rng.IntN(len(vals))])
			}
			boxes[i] = tris[i].Bounds()
		}
		ids := make([]int32, len(tris))
		for i := range ids {
			ids[i] = int32(i)
		}
		rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		want := geom.EmptyAABB()
		for _, tr := range tris {
			want = want.Union(tr.Bounds())
		}
		if got := boxUnion(boxes, ids); !sameBoxBits(want, got) {
			t.Fatalf("%v: Union in order %v, boxUnion in order %v: %v", tris, want, ids, got)
		}
	}
}

// sameBoxBits reports whether a and b have the same bits.
func sameBoxBits(a, b geom.AABB) bool {
	for k := range 3 {
		for _, p := range [][2]float64{{a.Min.Index(k), b.Min.Index(k)}, {a.Max.Index(k), b.Max.Index(k)}} {
			if math.Float64bits(p[0]) != math.Float64bits(p[1]) {
				return false
			}
		}
	}
	return true
}
