package versus

import (
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/internal/flights"
	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/bvh"
)

// BenchmarkSceneQuery flies the quick scenes' flights (as the peers
// harness records them) with each kind of tree, all pairs,
// through bvh.Collide, and reports the counts per query, the leaf tests
// among them: the benchmark behind the peers table's collide rows.
func BenchmarkSceneQuery(b *testing.B) {
	for _, name := range scenes.Names() {
		if scenes.Available(name) != nil {
			continue // a scene of real meshes, not installed
		}
		sc, err := scenes.New(name, scenes.Quick, 1)
		if err != nil {
			b.Fatal(err)
		}
		poses, err := recordFlight(sc, min(sc.Steps, 300))
		if err != nil {
			b.Fatal(err)
		}
		for _, bvName := range []string{"kdop18", "obb", "aabb", "rss"} {
			b.Run(name+"/"+bvName, func(b *testing.B) {
				bvk, _ := collide.ParseBV(bvName)
				env, fly, err := flights.BuildScene(sc, collide.BuildOptions{BV: bvk})
				if err != nil {
					b.Fatal(err)
				}
				var s bvh.Scratch
				var st bvh.Stats
				fn := func(bvh.Pair) bool { return true }
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					st.Add(bvh.Collide(env.Tree(), fly.Tree(), poses[i%len(poses)], bvh.QueryOptions{All: true}, &s, fn))
					i++
				}
				n := float64(i)
				b.ReportMetric(float64(st.BVTests)/n, "Nv/op")
				b.ReportMetric(float64(st.LeafTests)/n, "Nl/op")
				b.ReportMetric(float64(st.TriTests)/n, "Np/op")
				b.ReportMetric(float64(st.Updates)/n, "Nu/op")
			})
		}
	}
}
