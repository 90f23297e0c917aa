package bvh

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// TestOscillateBest checks the oscillating split against brute force on
// random soups: the groups of the temporary split L levels down are each
// wholly with one child, and the children are the best bipartition of the
// groups by the objective (the plain split when it ties the best).
func TestOscillateBest(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 3))
	for iter := range 200 {
		n := 3 + rng.IntN(40)
		m := &mesh.TriMesh{}
		for i := range n {
			c := geom.V(rng.Float64()*10, rng.Float64()*3, rng.Float64())
			for range 3 {
				m.Verts = append(m.Verts, c.Add(geom.V(rng.Float64(), rng.Float64(), rng.Float64())))
			}
			m.Tris = append(m.Tris, [3]int32{int32(3 * i), int32(3*i + 1), int32(3*i + 2)})
		}
		rule := []Rule{Splatter, LongestSide, MinSum, MinMax}[iter%4]
		o := Options{K: bv.K18, Rule: rule, Oscillate: 2 + iter%2, Leaf: 1}.withDefaults()
		b := &builder[float32, [18]float32]{o: o, m: m, nw: 3}
		b.cent = make([]geom.Vec3, n)
		b.dops = make([]bv.DOP, n)
		b.boxes = make([]geom.AABB, n)
		b.vol1, b.has1 = make([]float64, n), make([]bool, n)
		ids := make([]int32, n)
		for i := range n {
			tr := m.Triangle(i)
			b.cent[i] = tr[0].Add(tr[1]).Add(tr[2]).Scale(1.0 / 3)
			b.dops[i] = bv.FitTriangles(o.K, tr)
			b.boxes[i] = tr.Bounds()
			ids[i] = int32(i)
		}
		rng.Shuffle(n, func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		// The groups, as oscillate splits them, and the plain split.
		work := slices.Clone(ids)
		groups := [][]int32{work}
		var plain []int32
		for range o.Oscillate {
			var next [][]int32
			for _, g := range groups {
				if len(g) < 2 {
					next = append(next, g)
					continue
				}
				mid := b.plainSplit(g)
				next = append(next, g[:mid], g[mid:])
			}
			if plain == nil {
				plain = slices.Clone(next[0])
			}
			groups = next
		}
		score := func(l, r []int32) float64 {
			vl, vr := b.volumeOf(l), b.volumeOf(r)
			if rule == MinMax {
				return max(vl, vr)
			}
			return vl + vr
		}
		setOf := func(s []int32) []int32 { c := slices.Clone(s); slices.Sort(c); return c }
		split := func(l []int32) ([]int32, []int32) {
			var r []int32
			for _, id := range ids {
				if !slices.Contains(l, id) {
					r = append(r, id)
				}
			}
			return l, r
		}
		best := score(split(plain))
		for mask := 1; mask < 1<<(len(groups)-1); mask++ {
			var l []int32
			for g, grp := range groups {
				if g == 0 || mask>>(g-1)&1 == 0 {
					l = append(l, grp...)
				}
			}
			best = min(best, score(split(l)))
		}
		got := slices.Clone(ids)
		mid := b.oscillate(got)
		l := setOf(got[:mid])
		if s := score(split(l)); s != best {
			t.Fatalf("iter %d (%v, L %d, %d triangles): the split scores %g, the best bipartition %g", iter, rule, o.Oscillate, n, s, best)
		}
		if len(groups) > 2 && score(split(plain)) == best && !slices.Equal(l, setOf(plain)) {
			t.Fatalf("iter %d: the plain split ties the best but was not kept", iter)
		}
		for _, g := range groups {
			in := 0
			for _, id := range g {
				if slices.Contains(l, id) {
					in++
				}
			}
			if in != 0 && in != len(g) {
				t.Fatalf("iter %d: a group of the temporary split is cut by the children", iter)
			}
		}
	}
}
