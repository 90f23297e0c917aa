package world_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/world"
)

// TestWorldDOPSap plays seeded scenes with the sweep and prune on the
// k-DOP directions, whose world DOPs must never drop a pair the exact
// test finds: objects tumbling and on a lattice (cubes sharing faces,
// edges and corners exactly), far from the origin, with a tolerance and
// without, in both modes, added, moved and removed across steps, every
// step checked against testing every pair.
func TestWorldDOPSap(t *testing.T) {
	ms := models(t, collide.KDOP18)
	mk, err := world.NewBroad("dopsap")
	if err != nil {
		t.Fatal(err)
	}
	for _, off := range []geom.Vec3{{}, geom.V(1e9, -3e8, 5e7), geom.V(-0x1p40, 0x1p40, 3)} {
		for _, o := range []world.Options{{All: true}, {}, {All: true, Eps: 0.03}} {
			o.Broad, o.Workers = mk, 1
			t.Run(fmt.Sprintf("off=%v/all=%v/eps=%v", off, o.All, o.Eps), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(off.X)+7, 3))
				w, err := world.New(o)
				if err != nil {
					t.Fatal(err)
				}
				pose := func(i int) geom.Pose {
					p := scenePose(r, i%3, 7)
					p.T = p.T.Add(off)
					return p
				}
				var live []world.ID
				for i := range 40 {
					id, err := w.Add(ms[i%len(ms)], pose(i), world.ObjectOptions{Static: i%5 == 0})
					if err != nil {
						t.Fatal(err)
					}
					live = append(live, id)
				}
				found := 0
				for step := range 8 {
					st, err := w.Step()
					if err != nil {
						t.Fatal(err)
					}
					found += st.Contacts
					checkContacts(t, w, o.All, o.Eps, fmt.Sprintf("step %d", step))
					for i := 0; i < len(live); i++ {
						id := live[i]
						switch x := r.IntN(20); {
						case x < 8 && !w.Static(id):
							if err := w.Move(id, pose(i+step)); err != nil {
								t.Fatal(err)
							}
						case x == 9:
							if err := w.Remove(id); err != nil {
								t.Fatal(err)
							}
							live[i] = live[len(live)-1]
							live = live[:len(live)-1]
							i--
						case x == 10:
							id, err := w.Add(ms[r.IntN(len(ms))], pose(step), world.ObjectOptions{})
							if err != nil {
								t.Fatal(err)
							}
							live = append(live, id)
						}
					}
				}
				if found == 0 {
					t.Fatal("no contact in 8 steps: the scene tests nothing")
				}
			})
		}
	}
}

// nopDOP is a broad phase that does nothing but take DOPs.
type nopDOP struct {
	nop
	k bv.K
}

func (p nopDOP) K() bv.K                  { return p.k }
func (nopDOP) SetDOP(id int32, d *bv.DOP) {}

// BenchmarkBoundDOP is BenchmarkBound with a broad phase that takes
// DOPs: the cost of each moved object's world k-DOP beside its box.
func BenchmarkBoundDOP(b *testing.B) {
	ms := models(b, collide.KDOP18)
	for _, k := range []bv.K{0, bv.K6, bv.K14, bv.K18, bv.K26} {
		for _, turn := range []bool{true, false} {
			name := fmt.Sprintf("%v/translate", k)
			if turn {
				name = fmt.Sprintf("%v/turn", k)
			}
			if k == 0 {
				name = "box" + name[len(k.String()):]
			}
			b.Run(name, func(b *testing.B) {
				mk := func() broadPhase { return nopDOP{k: k} }
				if k == 0 {
					mk = func() broadPhase { return nop{} }
				}
				w, _ := world.New(world.Options{Broad: mk})
				r := rand.New(rand.NewPCG(1, 1))
				const n = 1000
				poses := make([]geom.Pose, n)
				for i := range n {
					poses[i] = randPose(r, 100)
					w.Add(ms[i%len(ms)], poses[i], world.ObjectOptions{})
				}
				w.Step()
				mv := geom.FromAxisAngle(geom.V(1, 2, 3), 0.01, geom.V(0.01, 0, 0))
				if !turn {
					mv = geom.Translation(geom.V(0.01, -0.02, 0.005))
				}
				b.ReportAllocs()
				for b.Loop() {
					for i := range n {
						poses[i] = mv.Compose(poses[i])
						w.Move(world.ID(i), poses[i])
					}
					w.Step()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/object")
			})
		}
	}
}

// TestWorldDOPSapPrunes checks that the world gives the phase its
// objects' DOPs: two thin parallel bars along the diagonal x = y, 0.42
// apart, have overlapping boxes and disjoint 18-DOPs (on x - y); sap
// reports the pair, dopsap does not, and both report it when the second
// bar turns to cross the first.
func TestWorldDOPSapPrunes(t *testing.T) {
	bar, err := collide.Build(gen.Must(gen.Box(geom.AABB{Min: geom.V(-2, -0.05, -0.05), Max: geom.V(2, 0.05, 0.05)}, 1)), collide.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	turn := func(deg float64, t geom.Vec3) geom.Pose {
		return geom.FromAxisAngle(geom.V(0, 0, 1), deg*math.Pi/180, t)
	}
	for _, c := range []struct {
		name          string
		b             geom.Vec3
		sap, dopsap   int
		contactsWants int
		deg           float64
	}{{"apart", geom.V(0.3, -0.3, 0), 1, 0, 0, 45}, {"crossing", geom.V(0, 0, 0), 1, 1, 1, -45}} {
		for _, name := range []string{"sap", "dopsap"} {
			mk, _ := world.NewBroad(name)
			w, _ := world.New(world.Options{Broad: mk})
			w.Add(bar, turn(45, geom.V(0, 0, 0)), world.ObjectOptions{})
			w.Add(bar, turn(c.deg, c.b), world.ObjectOptions{})
			st, err := w.Step()
			if err != nil {
				t.Fatal(err)
			}
			want := c.sap
			if name == "dopsap" {
				want = c.dopsap
			}
			if st.Candidates != want || st.Contacts != c.contactsWants {
				t.Errorf("%s, %s: %d candidates, %d contacts; want %d, %d", c.name, name, st.Candidates, st.Contacts, want, c.contactsWants)
			}
		}
	}
}
