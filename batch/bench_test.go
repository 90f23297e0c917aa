package batch_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/batch"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// benchModels returns 10^5 poses of a 320-triangle sphere against
// another: far apart (each query about a root test) or touching (the
// spheres overlap: the query walks to a pair in contact).
func benchModels(b *testing.B, far bool) (env, fly *collide.Model, poses []geom.Pose) {
	m := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 320))
	env, err := collide.Build(m, collide.BuildOptions{})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	poses = randomPoses(rng, 100_000, 1)
	for i := range poses {
		d := poses[i].T.Unit().Scale(1.5) // overlapping
		if far {
			d = poses[i].T.Unit().Scale(10)
		}
		poses[i].T = d
	}
	return env, env, poses
}

// BenchmarkCheck measures a batch of 10^5 poses against a Go loop of
// Query.Collide over the same poses: ns/pose is the cost of one pose, and
// the batch's on one worker less the loop's is the batch's overhead per
// pose. The batch on every core (workers=0) shows the speed-up.
func BenchmarkCheck(b *testing.B) {
	for _, scene := range []struct {
		name string
		far  bool
	}{{"far", true}, {"touching", false}} {
		env, fly, poses := benchModels(b, scene.far)
		hits := make([]bool, len(poses))
		ctx := context.Background()
		b.Run(scene.name+"/loop", func(b *testing.B) {
			b.ReportAllocs()
			var q collide.Query
			var pairs []batch.Pair
			for b.Loop() {
				pairs = pairs[:0]
				for i, p := range poses {
					q.Forget()
					r, err := q.Collide(env, geom.Pose{}, fly, p, collide.QueryOptions{})
					if err != nil {
						b.Fatal(err)
					}
					hits[i] = r.Collide
					for _, x := range r.Pairs {
						pairs = append(pairs, batch.Pair{Pose: int32(i), Env: x.Env, Fly: x.Fly})
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(poses)), "ns/pose")
		})
		for _, w := range []struct {
			name    string
			workers int
		}{{"batch-workers=1", 1}, {"batch-workers=0", 0}} {
			b.Run(scene.name+"/"+w.name, func(b *testing.B) {
				b.ReportAllocs()
				var pairs []batch.Pair
				for b.Loop() {
					var err error
					pairs, err = batch.Check(ctx, env, geom.Pose{}, fly, poses, batch.Options{Workers: w.workers}, hits, pairs[:0])
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(poses)), "ns/pose")
			})
		}
	}
}

// BenchmarkDistance and BenchmarkImpact measure the other batches on the
// far scene (distances: 10^3 poses, RSS trees; impacts: 10^4 motions, each
// pose moved 1 along x): ns/pose, and allocs/op, which must not grow with
// the poses.
func BenchmarkDistance(b *testing.B) {
	env, fly, poses := benchModels(b, true)
	env, err := env.WithBV(collide.RSS) // the distance's tree (collide distance's default)
	if err != nil {
		b.Fatal(err)
	}
	fly = env
	poses = poses[:1000]
	out := make([]collide.DistanceResult, len(poses))
	b.ReportAllocs()
	for b.Loop() {
		if err := batch.Distance(context.Background(), env, geom.Pose{}, fly, poses, collide.DistanceOptions{}, 1, out); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(poses)), "ns/pose")
}

func BenchmarkImpact(b *testing.B) {
	env, fly, from := benchModels(b, true)
	from = from[:10_000]
	to := make([]geom.Pose, len(from))
	for i, p := range from {
		to[i] = geom.Pose{R: p.R, T: p.T.Add(geom.Vec3{X: 1})}
	}
	out := make([]collide.TOIResult, len(from))
	b.ReportAllocs()
	for b.Loop() {
		if err := batch.Impact(context.Background(), env, geom.Pose{}, fly, from, to, collide.TOIOptions{}, 1, out); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(from)), "ns/pose")
}

// BenchmarkContacts measures Contacts over 10^3 poses of two overlapping
// spheres (every pair at each pose, with its geometry) against a Go loop of
// Query.Collide with Contacts: its allocations are the result's (the lists
// grow by doubling), not one per pose.
func BenchmarkContacts(b *testing.B) {
	env, fly, poses := benchModels(b, false)
	poses = poses[:1000]
	ctx := context.Background()
	qo := collide.QueryOptions{All: true, Contacts: true}
	b.Run("loop", func(b *testing.B) {
		b.ReportAllocs()
		var q collide.Query
		for b.Loop() {
			for _, p := range poses {
				q.Forget()
				if _, err := q.Collide(env, geom.Pose{}, fly, p, qo); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(poses)), "ns/pose")
	})
	for _, workers := range []int{1, 0} {
		b.Run(map[int]string{1: "batch/workers=1", 0: "batch/workers=all"}[workers], func(b *testing.B) {
			b.ReportAllocs()
			var cs []batch.PoseContact
			for b.Loop() {
				var err error
				cs, err = batch.Contacts(ctx, env, geom.Pose{}, fly, poses, batch.Options{All: true, Workers: workers}, cs[:0])
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(poses)), "ns/pose")
			b.ReportMetric(float64(len(cs))/float64(len(poses)), "contacts/pose")
		})
	}
}
