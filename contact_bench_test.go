package collide

import (
	"math"
	"runtime"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/threadcpu"
	"github.com/collide3d/collide/mesh/gen"
)

// contactBenchScene returns a torus and a sphere crossing its tube, built
// with the default volume, and the sphere's poses around the ring.
func contactBenchScene(b *testing.B) (env, fly *Model, poses []geom.Pose) {
	var err error
	if env, err = Build(gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 4000)), BuildOptions{}); err != nil {
		b.Fatal(err)
	}
	if fly, err = Build(gen.Must(gen.Icosphere(geom.Vec3{}, 0.1, 500)), BuildOptions{}); err != nil {
		b.Fatal(err)
	}
	for i := range 64 {
		a := 2 * math.Pi * float64(i) / 64
		poses = append(poses, geom.FromAxisAngle(geom.V(1, 2, 3), 5*a, geom.V(math.Cos(a), math.Sin(a), 0.2+0.15*math.Sin(3*a))))
	}
	return env, fly, poses
}

// BenchmarkCheckContacts times Query.Check of every pair on the torus
// scene: plain, with Contacts, with Patches; pairs/op is the mean number of
// pairs a query reports. The cost of contacts per pair is the difference
// of two rows over pairs/op; BenchmarkContactsPerPair times it alone.
func BenchmarkCheckContacts(b *testing.B) {
	env, fly, poses := contactBenchScene(b)
	for _, c := range []struct {
		name string
		o    QueryOptions
	}{
		{"plain", QueryOptions{All: true}},
		{"contacts", QueryOptions{All: true, Contacts: true}},
		{"patches", QueryOptions{All: true, Patches: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var q Query
			for _, p := range poses {
				q.Check(env, fly, p, c.o)
			}
			b.ReportAllocs()
			i, pairs := 0, 0
			for b.Loop() {
				r, err := q.Check(env, fly, poses[i%len(poses)], c.o)
				if err != nil {
					b.Fatal(err)
				}
				pairs += len(r.Pairs)
				i++
			}
			b.ReportMetric(float64(pairs)/float64(i), "pairs/op")
		})
	}
}

// BenchmarkContactsPerPair times the contacts (and the patches) of the
// pairs a query found, alone, per pair: ns/pair, and cpu-ns/pair in the
// thread's CPU time (less noisy on a shared machine).
func BenchmarkContactsPerPair(b *testing.B) {
	env, fly, poses := contactBenchScene(b)
	for _, patches := range []bool{false, true} {
		name := "contacts"
		if patches {
			name = "patches"
		}
		b.Run(name, func(b *testing.B) {
			var q Query
			type found struct {
				pose  geom.Pose
				pairs []Pair
			}
			var scenes []found
			for _, p := range poses {
				r, err := q.Check(env, fly, p, QueryOptions{All: true})
				if err != nil {
					b.Fatal(err)
				}
				if len(r.Pairs) > 0 {
					scenes = append(scenes, found{p, append([]Pair(nil), r.Pairs...)})
				}
			}
			o := QueryOptions{All: true, Contacts: true, Patches: patches}
			for _, s := range scenes {
				q.pairs = append(q.pairs[:0], s.pairs...)
				q.fillContacts(env, fly, s.pose, geom.Identity(), o)
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ReportAllocs()
			i, pairs := 0, 0
			t0, _ := threadcpu.Now()
			for b.Loop() {
				s := scenes[i%len(scenes)]
				q.pairs = append(q.pairs[:0], s.pairs...)
				q.fillContacts(env, fly, s.pose, geom.Identity(), o)
				pairs += len(s.pairs)
				i++
			}
			t1, _ := threadcpu.Now()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(pairs), "ns/pair")
			b.ReportMetric(float64((t1-t0).Nanoseconds())/float64(pairs), "cpu-ns/pair")
		})
	}
}
