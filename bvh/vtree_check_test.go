package bvh

import (
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// TestVerifyFilters checks that the float64 filters of the containment
// tests decide every vertex of the OBB and sphere trees Build makes, on
// varied models (near the origin, far from it, tiny, degenerate), so that
// Read never falls back to rational arithmetic on them: it would be slow.
func TestVerifyFilters(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	ms := []*mesh.TriMesh{
		gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 1500)),
		gen.Must(gen.Icosphere(geom.V(1e6, -3e5, 7), 1, 1500)),
		testgeom.LatticeSoup(rng, 400, 5),
		testgeom.RandomSoup(rng, 300, geom.AABB{Min: geom.V(-1e-7, -1e-7, -1e-7), Max: geom.V(1e-7, 1e-7, 1e-7)}, 1e-8),
	}
	for _, sc := range testgeom.AdversarialScenes(5)[:6] {
		ms = append(ms, sc.Env)
	}
	for i, m := range ms {
		for _, o := range []Options{{Kind: OBB}, {Kind: OBB, Rule: RAPID, Leaf: 3}, {Kind: Sphere}, {Kind: Sphere, Leaf: 4}} {
			tr, err := Build(m, o)
			if err != nil {
				t.Fatal(err)
			}
			before := exactChecks.Load()
			if err := tr.Validate(); err != nil {
				t.Fatalf("mesh %d %v: %v", i, o.Kind, err)
			}
			if n := exactChecks.Load() - before; n > 0 {
				t.Errorf("mesh %d %v leaf %d: %d vertices decided in rational arithmetic", i, o.Kind, o.Leaf, n)
			}
		}
	}
}
