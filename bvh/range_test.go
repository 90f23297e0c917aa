package bvh_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// rangeScene is a scene at an edge of float32's range (k-DOP trees store
// their volumes in float32 by default): the models, the centre and size of
// the flight through them (or its poses), and the tolerance of its eps
// mode.
type rangeScene struct {
	name     string
	env, fly *mesh.TriMesh
	c        geom.Vec3
	size     float64
	poses    []geom.Pose
}

// rangeTriangle returns a mesh of one right triangle at o with legs of
// length d along x and y.
func rangeTriangle(o geom.Vec3, d float64) *mesh.TriMesh {
	return &mesh.TriMesh{Verts: []geom.Vec3{o, o.Add(geom.V(d, 0, 0)), o.Add(geom.V(0, d, 0))}, Tris: [][3]int32{{0, 1, 2}}}
}

// rangeScenes returns the scenes at the edges of float32's range: one
// triangle near 2^127 (the flight), boxes of 48 triangles
// spanning [0, 2^128]³ (the world), spheres straddling float32's
// largest value, models beyond it (2^140 and 10^300, every slab of a
// float32 tree out of range), models whose coordinates are float32
// denormals (2^-140) or below them (2^-160), and triangles whose diagonal
// projections overflow float64.
func rangeScenes() []rangeScene {
	var sc []rangeScene
	a := 0x1p127
	sc = append(sc, rangeScene{name: "triangle-2^127", env: rangeTriangle(geom.V(a, a, a), 0x1p120), fly: rangeTriangle(geom.V(a, a, a), 0x1p120), c: geom.V(a, a, a), size: 0x1p120})
	box := gen.Must(gen.Box(geom.AABB{Max: geom.V(0x1p128, 0x1p128, 0x1p128)}, 2))
	sc = append(sc, rangeScene{name: "boxes-[0,2^128]", env: box, fly: box, c: geom.V(a, a, a), size: 0x1p128})
	for _, s := range []struct {
		name string
		c, r float64
	}{
		{"spheres-float32-max", math.MaxFloat32, 0x1p124},
		{"spheres-2^140", 0x1p140, 0x1p136},
		{"spheres-1e300", 1e300, 1e299},
		{"spheres-2^-140", 0x1p-140, 0x1p-142},
		{"spheres-2^-160", -0x1p-160, 0x1p-161},
	} {
		c := geom.V(s.c, s.c/2, -s.c/4)
		env := gen.Must(gen.Icosphere(c, s.r, 80))
		fly := gen.Must(gen.Icosphere(c.Add(geom.V(s.r, 0, 0)), s.r/2, 20))
		sc = append(sc, rangeScene{name: s.name, env: env, fly: fly, c: c, size: 2 * s.r})
	}
	// At float64's edge: the environment's triangle near (h, h, 0), whose
	// projection on x + y overflows to +Inf, and its mirror image; the
	// flying triangle, the same at (g, g, 0), g + g finite, slides onto
	// it (its x + y overflowing too on the way), turns on it, leaves it.
	h, g, d := 0.9e308, 0.2e308, 1e306
	env := rangeTriangle(geom.V(h, h, 0), d)
	mirror := rangeTriangle(geom.V(-h, -h, 0), d)
	env.Verts = append(env.Verts, mirror.Verts...)
	env.Tris = append(env.Tris, [3]int32{3, 4, 5})
	on := geom.V(h-g, h-g, 0)
	turn := geom.FromAxisAngle(geom.V(0, 0, 1), 0.2, on)
	turn.T = turn.T.Add(geom.V(g, g, 0)).Sub(turn.R.MulVec(geom.V(g, g, 0)))
	sc = append(sc, rangeScene{name: "triangles-0.9e308", env: env, fly: rangeTriangle(geom.V(g, g, 0), d), c: geom.V(h, h, 0), size: d,
		poses: []geom.Pose{geom.Identity(), geom.Translation(on.Scale(0.5)), geom.Translation(on), turn, geom.Translation(on.Add(geom.V(0, 0, d))), geom.Identity(), geom.Translation(on)}})
	return sc
}

// rangeConfigs returns the configurations of the conformance suite with
// the default rule and split point: for k-DOP trees every k, storage, leaf
// size and traversal variant; for the other kinds, which store float64,
// the default and larger leaves.
func rangeConfigs() []config {
	var cs []config
	for _, c := range configs() {
		if c.opts.Rule == bvh.Splatter && c.opts.Split == bvh.Mean && (c.opts.Kind == bvh.KDOP || !c.q.Restart && c.opts.Leaf != 16) {
			cs = append(cs, c)
		}
	}
	return cs
}

// TestFloat32RangeEdges flies every kind of tree through the scenes at the
// edges of float32's range and checks every mode against the brute-force
// oracle at every step: all pairs, first contact and all pairs within a
// tolerance, from the roots and from a front kept over the flight, and the
// distance (at every other step). A k-DOP tree's volumes, stored in
// float32, must bound their triangles over the whole range (a flying k-DOP
// above float32's range was stored with +Inf as its lower bound, and a
// front kept the pair forever on that infinite separation).
func TestFloat32RangeEdges(t *testing.T) {
	cs := rangeConfigs()
	for si, sc := range rangeScenes() {
		rng := rand.New(rand.NewPCG(uint64(si), 28))
		// The flight starts far out of float32's range of the
		// environment's frame, turned (the flight: a front
		// started there kept the pair of roots forever), then comes
		// through the environment.
		far := geom.FromAxisAngle(geom.V(0, 0, 1), 0.1, geom.V(-0x1p129-4*sc.size, 0, 0))
		far.T = far.T.Add(sc.c).Sub(far.R.MulVec(sc.c))
		poses := append([]geom.Pose{far}, path(rng, sc.c, sc.size, 8)...)
		if sc.poses != nil {
			poses = sc.poses
		}
		eps := 0.01 * sc.size
		want := make([][2][][2]int32, len(poses))
		dist := make([]float64, len(poses))
		contacts := 0
		for i, p := range poses {
			want[i] = [2][][2]int32{testgeom.Brute(sc.env, sc.fly, p, 0), testgeom.Brute(sc.env, sc.fly, p, eps)}
			if i%2 == 0 {
				dist[i], _ = bruteDistance(sc.env, sc.fly, p)
			}
			if len(want[i][0]) > 0 {
				contacts++
			}
		}
		if contacts == 0 || contacts == len(poses) {
			t.Fatalf("%s: %d of %d steps in contact: a weak flight", sc.name, contacts, len(poses))
		}
		for _, c := range cs {
			env, err := bvh.Build(sc.env, c.opts)
			if err != nil {
				t.Fatalf("%s %v: %v", sc.name, c, err)
			}
			fly := must(bvh.Build(sc.fly, c.opts))
			if err := env.Validate(); err != nil {
				t.Fatalf("%s %v: %v", sc.name, c, err)
			}
			s := new(bvh.Scratch)
			for ei, e := range []float64{0, eps} {
				for _, all := range []bool{true, false} {
					if e > 0 && !all {
						continue // the tolerance in all-pairs mode only
					}
					var front bvh.Front
					name := fmt.Sprintf("%s %v eps=%g all=%v", sc.name, c, e, all)
					for i, p := range poses {
						w := want[i][ei]
						for _, fr := range []*bvh.Front{nil, &front} {
							q := c.q
							q.All, q.Eps, q.Front = all, e, fr
							got, _ := collect(env, fly, p, q, s)
							from := "roots"
							if fr != nil {
								from = "front"
							}
							if all && !slices.Equal(got, w) {
								t.Fatalf("%s step %d from the %s: %d pairs, oracle %d (missing %v, extra %v)", name, i, from, len(got), len(w), diff(w, got), diff(got, w))
							}
							if !all && ((len(got) == 1) != (len(w) > 0) || len(got) > 1 || len(got) == 1 && !slices.Contains(w, got[0])) {
								t.Fatalf("%s step %d from the %s: first contact %v, oracle %d pairs", name, i, from, got, len(w))
							}
						}
					}
				}
			}
			if c.q.Restart {
				continue
			}
			for i, p := range poses {
				if i%2 == 1 {
					continue // every other step
				}
				r := bvh.Distance(env, fly, p, bvh.DistanceOptions{}, s)
				tol := 0x1p-40 * (sc.size + sc.c.Abs().Max(p.T.Abs()).Norm())
				if math.Abs(r.Distance-dist[i]) > tol || (r.Distance == 0) != (len(want[i][0]) > 0) {
					t.Fatalf("%s %v step %d: distance %g, brute force %g", sc.name, c, i, r.Distance, dist[i])
				}
			}
		}
	}
}
