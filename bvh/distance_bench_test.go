//go:build scenebench

package bvh_test

// This benchmark needs the meshes of Debian's libcgal-demo package (issue
// 30's rows, bench/queries): go test -tags scenebench -run '^$' -bench
// DistanceRows ./bvh.

import (
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/queries"
)

// BenchmarkDistanceRows times collide.Query.Distance on the distance rows
// of bench/queries (bull-homer, torus-far, torus-touch) with RSS, OBB,
// sphere and 18-DOP trees, reporting the counts of a query (Nv volume
// tests, Nl leaf tests, Np triangle tests) and its allocations.
func BenchmarkDistanceRows(b *testing.B) {
	for _, sc := range queries.Scenes(true) {
		if sc.Op != queries.Distance {
			continue
		}
		env, err := queries.LoadMesh(sc.Env)
		if err != nil {
			b.Skip(err)
		}
		fly, err := queries.LoadMesh(sc.Fly)
		if err != nil {
			b.Skip(err)
		}
		for _, k := range []string{"rss", "obb", "sphere", "kdop18"} {
			b.Run(sc.Name+"/"+k, func(b *testing.B) {
				bv, err := collide.ParseBV(k)
				if err != nil {
					b.Fatal(err)
				}
				em, err := collide.Build(env, collide.BuildOptions{BV: bv})
				if err != nil {
					b.Fatal(err)
				}
				fm, err := collide.Build(fly, collide.BuildOptions{BV: bv})
				if err != nil {
					b.Fatal(err)
				}
				fm.PrepareFlying()
				var q collide.Query
				d, err := q.Distance(em, fm, sc.From, collide.DistanceOptions{})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					q.Distance(em, fm, sc.From, collide.DistanceOptions{})
				}
				b.ReportMetric(float64(d.Stats.BVTests), "Nv")
				b.ReportMetric(float64(d.Stats.LeafTests), "Nl")
				b.ReportMetric(float64(d.Stats.TriTests), "Np")
				b.Logf("%s %s: distance %v bound %v", sc.Name, k, d.Distance, d.Bound)
			})
		}
	}
}
