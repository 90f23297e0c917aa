package world_test

import (
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/world"
)

// BenchmarkConvexWorld steps 10³ small convex objects in Brownian motion,
// every pair tested with the tree test or the convex test (one worker):
// ns/op is a step; the convex counts are reported per step.
func BenchmarkConvexWorld(b *testing.B) {
	ms := convexWorldModels(b)
	for _, m := range []collide.Method{collide.MethodTree, collide.MethodConvex} {
		b.Run("method="+m.String(), func(b *testing.B) {
			w, err := world.New(world.Options{Method: m, Workers: 1})
			if err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(35, 5))
			const n, side = 1000, 15.0
			type body struct{ p, v, axis geom.Vec3 }
			bodies := make([]body, n)
			for i := range bodies {
				bodies[i] = body{
					p:    geom.V(rng.Float64()*side, rng.Float64()*side, rng.Float64()*side),
					v:    geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.01),
					axis: geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()),
				}
				if _, err := w.Add(ms[i%len(ms)], geom.Translation(bodies[i].p), world.ObjectOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			var st collide.Stats
			var pairs int
			var narrow int64
			step := 0
			for b.Loop() {
				step++
				for i := range bodies {
					bd := &bodies[i]
					bd.p = bd.p.Add(bd.v)
					for k := range 3 {
						if x := bd.p.Index(k); x < 0 || x > side {
							bd.v = bd.v.SetIndex(k, -bd.v.Index(k))
						}
					}
					if err := w.Move(world.ID(i), geom.FromAxisAngle(bd.axis, 0.01*float64(step), bd.p)); err != nil {
						b.Fatal(err)
					}
				}
				s, err := w.Step()
				if err != nil {
					b.Fatal(err)
				}
				st.Add(s.Query)
				pairs += s.Tested
				narrow += s.Narrow.Nanoseconds()
			}
			b.ReportMetric(float64(pairs)/float64(step), "pairs/step")
			b.ReportMetric(float64(narrow)/float64(pairs), "narrow-ns/pair")
			b.ReportMetric(float64(st.BVTests)/float64(step), "Nv/step")
			if st.Convex > 0 {
				b.ReportMetric(float64(st.PlaneHits)/float64(st.Convex), "hits/convex")
			}
		})
	}
}
