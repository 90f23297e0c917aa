package flight_test

import (
	"bytes"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// firstScene is a 20,000-triangle torus flying through 25,000 random
// tetrahedra (100,000 triangles), its models saved for each volume, and the
// first poses of its flight, made once for the first-step benchmarks.
var firstScene = sync.OnceValues(func() (*firstData, error) {
	bounds := geom.AABB{Max: geom.Vec3{X: 25, Y: 25, Z: 25}}
	env, err := gen.Tetrahedra(25000, bounds, 0.4, 1)
	if err != nil {
		return nil, err
	}
	fly, err := gen.Torus(geom.Vec3{}, 2, 0.6, 20000)
	if err != nil {
		return nil, err
	}
	d := &firstData{fly: fly, saved: map[collide.BV][2][]byte{}}
	for _, b := range []collide.BV{collide.KDOP18, collide.OBB} {
		var saved [2][]byte
		for i, m := range []*mesh.TriMesh{env, fly} {
			md, err := collide.Build(m, collide.BuildOptions{BV: b})
			if err != nil {
				return nil, err
			}
			var buf bytes.Buffer
			if err := md.Save(&buf); err != nil {
				return nil, err
			}
			saved[i] = buf.Bytes()
		}
		d.saved[b] = saved
	}
	em, err := collide.Build(env, collide.BuildOptions{})
	if err != nil {
		return nil, err
	}
	fm, err := collide.Build(fly, collide.BuildOptions{})
	if err != nil {
		return nil, err
	}
	mo, err := flight.NewBilliard(flight.BilliardConfig{
		Start: bounds.Center(), Bounds: bounds, Speed: 0.05, Spin: 0.02, Turn: 0.3, Seed: 1,
	})
	if err != nil {
		return nil, err
	}
	_, err = flight.Fly(em, fm, mo, flight.Options{Steps: firstSteps}, func(st *flight.Step) error {
		d.poses = append(d.poses, st.Pose)
		return nil
	})
	return d, err
})

const firstSteps = 300

type firstData struct {
	fly   *mesh.TriMesh
	saved map[collide.BV][2][]byte // environment, flying model
	poses []geom.Pose
}

// BenchmarkFirstStep flies the first steps of the Torus scene with models
// new to the process (loaded from saved bytes, or the flying model built
// again), as a program that loads or builds its models and then flies
// does, and reports the first step's query time (first-µs) beside the time
// of the same step asked again at the end of the flight (again-µs) and the
// median step (median-µs): a first step that costs more than its repeat
// pays a one-time cost. flight.Fly prepares its query before the first
// step (collide.Query.Prepare); the sub-benchmarks "unprepared" fly
// without, for comparison. The loading, building and preparing are not
// timed as steps; preparing is reported apart (prepare-µs).
func BenchmarkFirstStep(b *testing.B) {
	d, err := firstScene()
	if err != nil {
		b.Fatal(err)
	}
	for _, bvName := range []collide.BV{collide.KDOP18, collide.OBB} {
		for _, how := range []string{"loaded", "built", "unprepared"} {
			b.Run(bvName.String()+"/"+how, func(b *testing.B) {
				saved := d.saved[bvName]
				var first, again, median, prep []time.Duration
				for b.Loop() {
					b.StopTimer()
					env, err := collide.ReadModel(bytes.NewReader(saved[0]))
					if err != nil {
						b.Fatal(err)
					}
					var fly *collide.Model
					if how == "built" {
						fly, err = collide.Build(d.fly, collide.BuildOptions{BV: bvName})
					} else {
						fly, err = collide.ReadModel(bytes.NewReader(saved[1]))
					}
					if err != nil {
						b.Fatal(err)
					}
					var q collide.Query
					if how != "unprepared" {
						t0 := time.Now()
						if err := q.Prepare(env, fly, collide.QueryOptions{}); err != nil {
							b.Fatal(err)
						}
						prep = append(prep, time.Since(t0))
					}
					b.StartTimer()
					times := make([]time.Duration, len(d.poses)+1)
					for i, p := range append(d.poses, d.poses[0]) {
						t0 := time.Now()
						if _, err := q.Check(env, fly, p, collide.QueryOptions{}); err != nil {
							b.Fatal(err)
						}
						times[i] = time.Since(t0)
					}
					first = append(first, times[0])
					again = append(again, times[len(times)-1])
					rest := slices.Clone(times[1 : len(times)-1])
					slices.Sort(rest)
					median = append(median, rest[len(rest)/2])
				}
				for _, m := range []struct {
					ts   []time.Duration
					unit string
				}{{first, "first-µs"}, {again, "again-µs"}, {median, "median-µs"}, {prep, "prepare-µs"}} {
					if len(m.ts) == 0 {
						continue
					}
					slices.Sort(m.ts)
					b.ReportMetric(float64(m.ts[len(m.ts)/2].Nanoseconds())/1e3, m.unit)
				}
			})
		}
	}
}

// BenchmarkFirstQuery times the first query of a new collide.Query, on
// models that have flown before (their flying view built, their memory in
// the caches as far as it fits), prepared (Query.Prepare) or not: the
// one-time cost of a Query alone, which Prepare moves out of the first
// query. The pose is the first of BenchmarkFirstStep's flight.
func BenchmarkFirstQuery(b *testing.B) {
	d, err := firstScene()
	if err != nil {
		b.Fatal(err)
	}
	for _, bvName := range []collide.BV{collide.KDOP18, collide.OBB} {
		saved := d.saved[bvName]
		env, err := collide.ReadModel(bytes.NewReader(saved[0]))
		if err != nil {
			b.Fatal(err)
		}
		fly, err := collide.ReadModel(bytes.NewReader(saved[1]))
		if err != nil {
			b.Fatal(err)
		}
		fly.PrepareFlying()
		for _, prepared := range []bool{false, true} {
			name := bvName.String() + "/unprepared"
			if prepared {
				name = bvName.String() + "/prepared"
			}
			b.Run(name, func(b *testing.B) {
				var first []time.Duration
				for b.Loop() {
					b.StopTimer()
					var q collide.Query
					if prepared {
						if err := q.Prepare(env, fly, collide.QueryOptions{}); err != nil {
							b.Fatal(err)
						}
					}
					b.StartTimer()
					t0 := time.Now()
					if _, err := q.Check(env, fly, d.poses[0], collide.QueryOptions{}); err != nil {
						b.Fatal(err)
					}
					first = append(first, time.Since(t0))
				}
				slices.Sort(first)
				b.ReportMetric(float64(first[len(first)/2].Nanoseconds())/1e3, "first-µs")
			})
		}
	}
}
