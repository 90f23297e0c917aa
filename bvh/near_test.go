package bvh_test

import (
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
)

// TestNear checks that Near reports every environment triangle within the
// tolerance of a flying triangle (the brute-force oracle's pairs), for
// every kind of tree, on the adversarial scenes and on a flying model of
// one degenerate triangle (a segment: nc's tool axis), and that it stops
// when told to; by default each scene with a third of the configurations,
// in turn.
func TestNear(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	var cs []config
	for _, c := range configs() {
		if c.opts.Rule == bvh.Splatter && c.opts.Split == bvh.Mean && !c.q.Restart && !c.q.ExactRoot {
			cs = append(cs, c)
		}
	}
	seg := &mesh.TriMesh{Verts: []geom.Vec3{{X: -0.1, Y: 0.2, Z: -0.3}, {X: 0.2, Y: -0.1, Z: 0.4}}, Tris: [][3]int32{{0, 1, 1}}}
	reached := 0
	for si, sc := range testgeom.AdversarialScenes(3)[:6] {
		b := sc.Env.Bounds()
		size := b.Size().Norm()
		for _, fly := range []*mesh.TriMesh{sc.Fly, seg} {
			poses := []geom.Pose{geom.Identity(), randomPose(rng, b.Center(), 0.05*size), geom.Translation(b.Center())}
			for _, eps := range []float64{0, 0.02 * size} {
				for ci, c := range cs {
					if !longtest.Enabled() && (ci+si)%3 != 0 {
						continue // by default a third of them per scene, in turn
					}
					env, fl := must(bvh.Build(sc.Env, c.opts)), must(bvh.Build(fly, c.opts))
					for pi, p := range poses {
						want := map[int32]bool{}
						for _, pr := range testgeom.Brute(sc.Env, fly, p, eps) {
							want[pr[0]] = true
						}
						got := map[int32]bool{}
						bvh.Near(env, fl, p, eps, nil, func(e int32) bool { got[e] = true; return true })
						for e := range want {
							if !got[e] {
								t.Fatalf("%s %v pose %d eps %g: triangle %d within eps not reported", sc.Name, c, pi, eps, e)
							}
						}
						reached += len(want)
						if len(got) > 1 {
							n := 0
							bvh.Near(env, fl, p, eps, nil, func(int32) bool { n++; return false })
							if n != 1 {
								t.Fatalf("%s %v: %d calls after fn returned false", sc.Name, c, n)
							}
						}
					}
				}
			}
		}
	}
	if reached == 0 {
		t.Fatal("no triangle within the tolerance: the test tests nothing")
	}
}
