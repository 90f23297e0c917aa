package ch2

import (
	"context"
	"errors"
	"math/rand/v2"
	"os/exec"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/hull"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// testEnvs are small environments of the three groups, and one far from
// the origin.
func testEnvs(t *testing.T) map[string]*mesh.TriMesh {
	obs, err := obstacles(false)
	if err != nil {
		t.Fatal(err)
	}
	terrain, err := TerrainEnv(9, 0.4, 0.6, 3)
	if err != nil {
		t.Fatal(err)
	}
	far := TetraEnv(40, 0.6, 4).Transform(geom.Translation(geom.Vec3{X: 1e6, Y: -3e5, Z: 2e6}))
	// A flat grid: the tetrahedron's base lies in its plane at the
	// touching placements (coplanar contact).
	flat, err := TerrainEnv(6, 0, 0, 5)
	if err != nil {
		t.Fatal(err)
	}
	// Degenerate triangles (segments and points) among tetrahedra.
	degen := TetraEnv(40, 0.6, 6)
	for i := range 10 {
		a := degen.Verts[4*i]
		b := degen.Verts[4*i+1]
		n := int32(len(degen.Verts))
		degen.Verts = append(degen.Verts, a, b, a.Add(b).Scale(0.5))
		degen.Tris = append(degen.Tris, [3]int32{n, n + 1, n + 2}, [3]int32{n, n, n})
	}
	return map[string]*mesh.TriMesh{
		"scenes":     ScenesEnv(12, 0.6, obs, 1),
		"tetra":      TetraEnv(60, 0.6, 2),
		"terrain":    terrain,
		"far":        far,
		"flat":       flat,
		"degenerate": degen,
	}
}

// placements returns poses of fly around env: random ones in the
// environment's box (grown by half the object's size), and touching ones (a vertex of fly moved onto a
// vertex or an edge's midpoint of a random obstacle triangle).
func placements(env *Env, fly *mesh.TriMesh, n int, r *rand.Rand) []geom.Pose {
	var out []geom.Pose
	// The box grown by the flying object's size, so that a flat
	// environment has placements apart too.
	fb := fly.Bounds().Size()
	around := env.Bounds.Expanded(0.5 * max(fb.X, fb.Y, fb.Z))
	c, s := around.Center(), around.Size()
	for range n {
		p := geom.Pose{R: randomRotation(r), T: c.Add(geom.Vec3{X: s.X * (r.Float64() - 0.5), Y: s.Y * (r.Float64() - 0.5), Z: s.Z * (r.Float64() - 0.5)})}
		out = append(out, p)
		// Touching: fly's vertex v onto a point of a triangle, at a
		// translation only (so that the touch survives rounding: R = I).
		t := env.Tris[r.IntN(len(env.Tris))]
		v := fly.Verts[r.IntN(len(fly.Verts))]
		target := t[r.IntN(3)]
		if r.IntN(2) == 0 {
			target = t[0].Add(t[1]).Scale(0.5)
		}
		out = append(out, geom.Translation(target.Sub(v)))
	}
	return out
}

// TestMethodsAgainstBrute checks every method's answer against the brute
// oracle at random and touching placements of every flying object in
// every small environment, each method queried along the placements in
// order (the mesh walks from the last one) and again after Reset.
func TestMethodsAgainstBrute(t *testing.T) {
	flies, err := flyingObjects(0.08)
	if err != nil {
		t.Fatal(err)
	}
	_, tetgenErr := exec.LookPath("tetgen")
	r := rand.New(rand.NewPCG(1, 2))
	for name, m := range testEnvs(t) {
		env, err := envOf(name, name, m)
		if err != nil {
			t.Fatal(err)
		}
		envModel, err := collide.Build(m, collide.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		envModel6, err := collide.Build(m, collide.BuildOptions{BV: collide.KDOP6})
		if err != nil {
			t.Fatal(err)
		}
		methods := map[string]Method{}
		methods["grid"] = NewGrid(env, 5)
		for _, rule := range AxisRules {
			methods["kd "+rule.String()] = NewKDTree(env, KDOptions{Rule: rule, Leaf: 4})
		}
		methods["rtree"] = NewRTree(env, 4)
		if tetgenErr == nil {
			mm, err := NewMesh(context.Background(), env)
			var rej *RejectedError
			if name == "degenerate" {
				if !errors.As(err, &rej) {
					t.Fatalf("degenerate obstacles: %v, want a RejectedError", err)
				}
				mm = nil
			} else if err != nil {
				t.Fatalf("%s: mesh: %v", name, err)
			}
			if mm != nil {
				if mm.Misfit != 0 {
					t.Fatalf("%s: the mesh does not conform: %d triangles", name, mm.Misfit)
				}
				methods["mesh"] = mm
			}
		} else if name == "scenes" {
			t.Logf("mesh method not tested: tetgen not installed")
		}
		for _, fly := range flies {
			if fly.Name == "aircraft" && name != "tetra" || fly.Name != "tetra" && (name == "flat" || name == "degenerate") {
				continue // 2,010 triangles: once is enough for the oracle's time
			}
			// The flying object scaled to the environment.
			fm := fly.Mesh
			if name == "far" {
				fm = fit(fm, geom.Identity3(), geom.AABB{Max: geom.Vec3{X: 0.1, Y: 0.1, Z: 0.1}})
			}
			flyModel, err := collide.Build(fm, collide.BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			flyModel6, err := collide.Build(fm, collide.BuildOptions{BV: collide.KDOP6})
			if err != nil {
				t.Fatal(err)
			}
			methods["kdop18"] = NewBVTree(envModel, flyModel)
			methods["kdop6"] = NewBVTree(envModel6, flyModel6)
			poses := placements(env, fm, 20, r)
			fh := hull.New(fm.Verts)
			var f Frame
			hits := 0
			for round := range 2 {
				for _, m := range methods {
					m.Reset()
				}
				for i, p := range poses {
					f.Set(p, fm)
					want := Brute(env, &f)
					if want && round == 0 {
						hits++
					}
					for mn, m := range methods {
						var c Counts
						// Round 1 places the object as the flights do:
						// bb(F) by climbing its hull, the triangles moved
						// only at a full-resolution check.
						if round == 1 {
							full := f.Box
							f.Place(p, fm, fh)
							if !f.Box.ContainsBox(full) {
								t.Fatalf("%s, %s, placement %d: the climbed bb(F) %v does not contain the moved vertices' %v", name, fly.Name, i, f.Box, full)
							}
						}
						if got := m.Collide(&f, &c); got != want {
							t.Errorf("%s, %s, placement %d (round %d): %s says %v, brute %v", name, fly.Name, i, round, mn, got, want)
						}
					}
				}
			}
			if hits == 0 || hits == len(poses) {
				t.Errorf("%s, %s: %d of %d placements touch: the test tests little", name, fly.Name, hits, len(poses))
			}
		}
	}
}

// TestTetGenRejects checks that intersecting obstacles give a
// RejectedError, and a missing program ErrNoTetGen.
func TestTetGenRejects(t *testing.T) {
	if _, err := exec.LookPath("tetgen"); err != nil {
		t.Skip("tetgen not installed")
	}
	a := gen.Must(gen.Box(geom.AABB{Max: geom.Vec3{X: 1, Y: 1, Z: 1}}, 1))
	b := gen.Must(gen.Box(geom.AABB{Min: geom.Vec3{X: 0.5, Y: 0.5, Z: 0.5}, Max: geom.Vec3{X: 1.5, Y: 1.5, Z: 1.5}}, 1))
	appendMesh(a, b)
	env, err := envOf("boxes", "test", a)
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewMesh(context.Background(), env)
	var rej *RejectedError
	if !errors.As(err, &rej) {
		t.Fatalf("two crossing boxes: %v, want a RejectedError", err)
	}
	t.Log(err)
	t.Setenv("PATH", t.TempDir())
	if _, err := NewMesh(context.Background(), env); !errors.Is(err, ErrNoTetGen) {
		t.Errorf("no tetgen on the path: %v", err)
	}
}

// TestNoAllocs checks that a warm query allocates nothing, for every
// method, on placements in contact and apart.
func TestNoAllocs(t *testing.T) {
	m := TetraEnv(60, 0.6, 2)
	env, err := envOf("tetra", "tetrahedra", m)
	if err != nil {
		t.Fatal(err)
	}
	flies, err := flyingObjects(0.08)
	if err != nil {
		t.Fatal(err)
	}
	fly := flies[1].Mesh
	envModel, err := collide.Build(m, collide.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	flyModel, err := collide.Build(fly, collide.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	methods := map[string]Method{"grid": NewGrid(env, 5), "kd": NewKDTree(env, KDOptions{}), "rtree": NewRTree(env, 0), "bvtree": NewBVTree(envModel, flyModel)}
	if _, err := exec.LookPath("tetgen"); err == nil {
		mm, err := NewMesh(context.Background(), env)
		if err != nil {
			t.Fatal(err)
		}
		methods["mesh"] = mm
	}
	poses := placements(env, fly, 10, rand.New(rand.NewPCG(3, 4)))
	frames := make([]Frame, len(poses))
	for i, p := range poses {
		frames[i].Set(p, fly)
	}
	for name, m := range methods {
		var c Counts
		for i := range frames {
			m.Collide(&frames[i], &c)
		}
		allocs := testing.AllocsPerRun(5, func() {
			for i := range frames {
				m.Collide(&frames[i], &c)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations a round of queries", name, allocs)
		}
	}
	var f Frame
	f.Set(poses[0], fly)
	if a := testing.AllocsPerRun(5, func() { f.Set(poses[1], fly) }); a != 0 {
		t.Errorf("Frame.Set: %v allocations", a)
	}
	h := hull.New(fly.Verts)
	if a := testing.AllocsPerRun(5, func() { f.Place(poses[2], fly, h); f.Full() }); a != 0 {
		t.Errorf("Frame.Place and Full: %v allocations", a)
	}
}
