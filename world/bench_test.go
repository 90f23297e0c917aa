package world_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/world"
)

// BenchmarkBound times moving and re-bounding objects (the hill climbing on
// the hull from the last extremes): a step in which every one of n small
// objects turns a little, or only translates, with a broad phase that does
// nothing.
func BenchmarkBound(b *testing.B) {
	ms := models(b, collide.KDOP18)
	for _, c := range []struct {
		n    int
		turn bool
	}{{1000, true}, {10000, true}, {10000, false}} {
		n := c.n
		name := fmt.Sprintf("%d/translate", n)
		if c.turn {
			name = fmt.Sprintf("%d/turn", n)
		}
		b.Run(name, func(b *testing.B) {
			w, _ := world.New(world.Options{Broad: func() broadPhase { return nop{} }})
			r := rand.New(rand.NewPCG(1, 1))
			poses := make([]geom.Pose, n)
			for i := range n {
				poses[i] = randPose(r, 100)
				w.Add(ms[i%len(ms)], poses[i], world.ObjectOptions{})
			}
			w.Step()
			turn := geom.FromAxisAngle(geom.V(1, 2, 3), 0.01, geom.V(0.01, 0, 0))
			if !c.turn {
				turn = geom.Translation(geom.V(0.01, -0.02, 0.005))
			}
			b.ReportAllocs()
			for b.Loop() {
				for i := range n {
					poses[i] = turn.Compose(poses[i])
					w.Move(world.ID(i), poses[i])
				}
				w.Step()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/object")
		})
	}
}

// BenchmarkStep times steps of n small objects (spheres, cubes, tori,
// bars, tetrahedra) in a cube where every object moves and turns a little
// each step, with one worker and with every core, and reports the time of
// each phase per step and the exact tests per step.
func BenchmarkStep(b *testing.B) {
	ms := models(b, collide.KDOP18)
	for _, n := range []int{1000, 3000} {
		for _, workers := range []int{1, 0} {
			b.Run(fmt.Sprintf("%d/workers=%d", n, workers), func(b *testing.B) {
				w, _ := world.New(world.Options{Workers: workers})
				r := rand.New(rand.NewPCG(1, 1))
				span := 4 * math.Cbrt(float64(n))
				poses := make([]geom.Pose, n)
				for i := range n {
					poses[i] = randPose(r, span)
					w.Add(ms[i%len(ms)], poses[i], world.ObjectOptions{})
				}
				w.Step()
				turn := geom.FromAxisAngle(geom.V(1, 2, 3), 0.01, geom.V(0.01, 0, 0))
				var sum stepSum
				b.ReportAllocs()
				for b.Loop() {
					for i := range n {
						poses[i] = turn.Compose(poses[i])
						w.Move(world.ID(i), poses[i])
					}
					st, err := w.Step()
					if err != nil {
						b.Fatal(err)
					}
					sum.add(st)
				}
				sum.report(b)
			})
		}
	}
}

// BenchmarkParallel compares the ways of spreading a step's exact tests
// over the cores (Zachmann's coarse grain, notes §2.17): one worker, every
// core with static shares, every core taking small chunks as it goes (the
// default). The scene is heavy in exact tests: 300 tori of 2,000 triangles
// in close proximity, first contact.
func BenchmarkParallel(b *testing.B) {
	torus, _ := collide.Build(gen.Must(gen.Torus(geom.V(0, 0, 0), 1, 0.3, 2000)), collide.BuildOptions{})
	for _, c := range []struct {
		name    string
		workers int
		static  bool
	}{{"serial", 1, false}, {"static", 0, true}, {"dynamic", 0, false}} {
		b.Run(c.name, func(b *testing.B) {
			w, _ := world.New(world.Options{Workers: c.workers, Static: c.static})
			r := rand.New(rand.NewPCG(2, 2))
			poses := make([]geom.Pose, 300)
			for i := range poses {
				poses[i] = randPose(r, 16)
				w.Add(torus, poses[i], world.ObjectOptions{})
			}
			w.Step()
			turn := geom.FromAxisAngle(geom.V(1, 2, 3), 0.01, geom.V(0.01, 0, 0))
			var narrow time.Duration
			tests := 0
			b.ReportAllocs()
			for b.Loop() {
				for i := range poses {
					poses[i] = turn.Compose(poses[i])
					w.Move(world.ID(i), poses[i])
				}
				st, _ := w.Step()
				narrow += st.Narrow
				tests += st.Tested
			}
			b.ReportMetric(float64(narrow.Microseconds())/float64(b.N), "µs-narrow")
			b.ReportMetric(float64(tests)/float64(b.N), "tests")
		})
	}
}

// BenchmarkMany times steps of 10^4 and 10^5 small objects (cubes and
// tetrahedra of AABB trees, spaced so that a few percent touch) moving by a
// small random translation each step, or by a translation and a turn, on
// one core, with each broad phase: the whole step, and each phase.
func BenchmarkMany(b *testing.B) {
	ms := models(b, collide.AABB)
	small := []*collide.Model{ms[1], ms[4]}
	for _, n := range []int{10000, 100000} {
		for _, turn := range []bool{false, true} {
			for _, name := range world.BroadPhases() {
				if name == "brute" {
					continue
				}
				mk, _ := world.NewBroad(name)
				b.Run(fmt.Sprintf("%d/turn=%v/%s", n, turn, name), func(b *testing.B) {
					w, _ := world.New(world.Options{Workers: 1, Broad: mk})
					r := rand.New(rand.NewPCG(1, 1))
					span := 6 * math.Cbrt(float64(n))
					poses := make([]geom.Pose, n)
					for i := range n {
						poses[i] = randPose(r, span)
						w.Add(small[i%2], poses[i], world.ObjectOptions{})
					}
					w.Step()
					steps := make([]geom.Pose, 64)
					for i := range steps {
						d := geom.V(0.05*r.NormFloat64(), 0.05*r.NormFloat64(), 0.05*r.NormFloat64())
						if turn {
							steps[i] = geom.FromAxisAngle(geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()), 0.02, d)
						} else {
							steps[i] = geom.Translation(d)
						}
					}
					var sum stepSum
					b.ReportAllocs()
					k := 0
					for b.Loop() {
						for i := range n {
							s := steps[(i+k)&63]
							if turn {
								poses[i] = geom.Pose{R: s.R.Mul(poses[i].R), T: poses[i].T.Add(s.T)}
							} else {
								poses[i].T = poses[i].T.Add(s.T)
							}
							w.Move(world.ID(i), poses[i])
						}
						k++
						st, err := w.Step()
						if err != nil {
							b.Fatal(err)
						}
						sum.add(st)
					}
					sum.report(b)
				})
			}
		}
	}
}

// stepSum sums the StepStats of a benchmark's steps and reports them per
// step: each phase's time, the exact tests and the contacts.
type stepSum struct{ world.StepStats }

func (s *stepSum) add(st world.StepStats) {
	s.Bound += st.Bound
	s.Broad += st.Broad
	s.Narrow += st.Narrow
	s.Update += st.Update
	s.Tested += st.Tested
	s.Contacts += st.Contacts
}

func (s *stepSum) report(b *testing.B) {
	n := float64(b.N)
	b.ReportMetric(float64(s.Bound.Microseconds())/n, "µs-bound")
	b.ReportMetric(float64(s.Broad.Microseconds())/n, "µs-broad")
	b.ReportMetric(float64(s.Narrow.Microseconds())/n, "µs-narrow")
	b.ReportMetric(float64(s.Update.Microseconds())/n, "µs-update")
	b.ReportMetric(float64(s.Tested)/n, "tests")
	b.ReportMetric(float64(s.Contacts)/n, "contacts")
}
