package collide_test

import (
	"errors"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// TestNear checks that Near reports every environment triangle within the
// tolerance of a flying triangle (brute force over every pair of
// triangles), for every bounding volume and for brute-force models, each
// with a flying model of its own volume and one of Brute; that a
// brute-force search reports each such triangle once and nothing else;
// and that the search stops when fn says so.
func TestNear(t *testing.T) {
	envM := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 600))
	flyM := gen.Must(gen.Icosphere(geom.Vec3{}, 0.15, 80))
	// A sliver of a triangle, as package nc flies a tool's axis.
	axis := &mesh.TriMesh{Verts: []geom.Vec3{{Z: -0.2}, {Z: 0.2}, {X: 0x1p-10, Z: 0}}, Tris: [][3]int32{{0, 1, 2}}}
	rng := rand.New(rand.NewPCG(29, 3))
	var poses []geom.Pose
	for i := range 6 {
		a := 2 * math.Pi * float64(i) / 6
		axisDir := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
		poses = append(poses, geom.FromAxisAngle(axisDir, rng.Float64()*6, geom.V(math.Cos(a), math.Sin(a), 0.3*rng.Float64())))
	}
	poses = append(poses, geom.Identity(), geom.Translation(geom.V(5, 0, 0)))
	reached := 0
	for _, b := range append(collide.BVs(), collide.Brute) {
		env := mustBuild(t, envM, b)
		for _, fm := range []*mesh.TriMesh{flyM, axis} {
			for _, flyBV := range []collide.BV{b, collide.Brute} {
				fly := mustBuild(t, fm, flyBV)
				brute := b == collide.Brute || flyBV == collide.Brute
				var q collide.Query
				for pi, p := range poses {
					for _, eps := range []float64{0, 0.05} {
						want := map[int32]bool{}
						for _, pr := range testgeom.Brute(envM, fm, p, eps) {
							want[pr[0]] = true
						}
						reached += len(want)
						got := map[int32]int{}
						st, err := q.Near(env, fly, p, eps, func(e int32) bool { got[e]++; return true })
						if err != nil {
							t.Fatalf("%v/%v pose %d eps %g: %v", b, flyBV, pi, eps, err)
						}
						for e := range want {
							if got[e] == 0 {
								t.Fatalf("%v/%v pose %d eps %g: triangle %d within eps not reported", b, flyBV, pi, eps, e)
							}
						}
						if brute {
							for e, n := range got {
								if n != 1 || !want[e] {
									t.Fatalf("%v/%v pose %d eps %g: brute force reported triangle %d %d times (within eps: %v)", b, flyBV, pi, eps, e, n, want[e])
								}
							}
						}
						if len(got) > 0 && st.TriTests == 0 {
							t.Errorf("%v/%v pose %d eps %g: %d triangles reported, no TriTests counted", b, flyBV, pi, eps, len(got))
						}
						if len(got) > 1 {
							n := 0
							if _, err := collide.Near(env, fly, p, eps, func(int32) bool { n++; return false }); err != nil || n != 1 {
								t.Fatalf("%v/%v pose %d eps %g: %d calls after fn returned false (%v)", b, flyBV, pi, eps, n, err)
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

// TestNearErrors checks that Near refuses what Check refuses, without
// calling fn.
func TestNearErrors(t *testing.T) {
	env := mustBuild(t, gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 200)), collide.KDOP18)
	fly := mustBuild(t, gen.Must(gen.Icosphere(geom.Vec3{}, 0.1, 20)), collide.KDOP18)
	obb := mustBuild(t, gen.Must(gen.Icosphere(geom.Vec3{}, 0.1, 20)), collide.OBB)
	skew := geom.Identity()
	skew.R[0][1] = 0.5
	for _, c := range []struct {
		name     string
		env, fly *collide.Model
		pose     geom.Pose
		eps      float64
		want     error
	}{
		{"nil environment", nil, fly, geom.Identity(), 0, collide.ErrInvalidQuery},
		{"unbuilt flying model", env, &collide.Model{}, geom.Identity(), 0, collide.ErrInvalidQuery},
		{"volumes that do not fly together", env, obb, geom.Identity(), 0, collide.ErrInvalidQuery},
		{"negative eps", env, fly, geom.Identity(), -1, collide.ErrInvalidQuery},
		{"NaN eps", env, fly, geom.Identity(), math.NaN(), collide.ErrInvalidQuery},
		{"infinite eps", env, fly, geom.Identity(), math.Inf(1), collide.ErrInvalidQuery},
		{"not a rotation", env, fly, skew, 0, collide.ErrInvalidPose},
		{"infinite translation", env, fly, geom.Translation(geom.V(math.Inf(1), 0, 0)), 0, collide.ErrInvalidPose},
	} {
		called := false
		_, err := collide.Near(c.env, c.fly, c.pose, c.eps, func(int32) bool { called = true; return true })
		if !errors.Is(err, c.want) {
			t.Errorf("%s: error %v, want one wrapping %v", c.name, err, c.want)
		}
		if called {
			t.Errorf("%s: fn called", c.name)
		}
	}
}

// TestNearAllocs checks that a reused Query's Near allocates nothing once
// warm.
func TestNearAllocs(t *testing.T) {
	for _, b := range []collide.BV{collide.KDOP18, collide.OBB, collide.BoxTree} {
		env, fly, poses := torusScene(t, b)
		var q collide.Query
		n := 0
		fn := func(int32) bool { n++; return true }
		for _, p := range poses {
			if _, err := q.Near(env, fly, p, 0.01, fn); err != nil {
				t.Fatal(err)
			}
		}
		if n == 0 {
			t.Fatalf("%v: nothing near: a weak test", b)
		}
		i := 0
		allocs := testing.AllocsPerRun(50, func() {
			q.Near(env, fly, poses[i%len(poses)], 0.01, fn)
			i++
		})
		if allocs != 0 {
			t.Errorf("%v: %v allocations per search, want 0", b, allocs)
		}
	}
}

func mustBuild(t *testing.T, m *mesh.TriMesh, b collide.BV) *collide.Model {
	t.Helper()
	md, err := collide.Build(m, collide.BuildOptions{BV: b})
	if err != nil {
		t.Fatal(err)
	}
	return md
}

// ExampleNear finds the triangles of a floor of four squares near a
// triangle held 0.1 above the first square: the two triangles of that
// square are within 0.2 of it, the others are not even searched.
func ExampleNear() {
	floor := &mesh.TriMesh{}
	for i := range 4 {
		x := float64(2 * i)
		n := int32(len(floor.Verts))
		floor.Verts = append(floor.Verts, geom.V(x, 0, 0), geom.V(x+1, 0, 0), geom.V(x+1, 1, 0), geom.V(x, 1, 0))
		floor.Tris = append(floor.Tris, [3]int32{n, n + 1, n + 2}, [3]int32{n, n + 2, n + 3})
	}
	tri := &mesh.TriMesh{Verts: []geom.Vec3{{X: 0.2, Y: 0.2}, {X: 0.8, Y: 0.2}, {X: 0.5, Y: 0.8}}, Tris: [][3]int32{{0, 1, 2}}}
	env, err := collide.Build(floor, collide.BuildOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fly, err := collide.Build(tri, collide.BuildOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for _, z := range []float64{0.1, 1} {
		var near []int32
		_, err := collide.Near(env, fly, geom.Translation(geom.V(0, 0, z)), 0.2, func(e int32) bool {
			near = append(near, e)
			return true
		})
		if err != nil {
			log.Fatal(err)
		}
		slices.Sort(near)
		fmt.Printf("at height %v: %v\n", z, near)
	}
	// Output:
	// at height 0.1: [0 1]
	// at height 1: []
}
