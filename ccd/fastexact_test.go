package ccd

import (
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/geom"
)

// TestFastAgreesWithExact runs the fast path and the exact path on the same
// seeded random queries: wherever the fast path decides, it decides as the
// exact path does, and its interval holds the exact one's.
func TestFastAgreesWithExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	decided, hits := 0, 0
	for n := range 3000 {
		var q [8]geom.Vec3
		for i := range q {
			q[i] = geom.V(rng.Float64()*2-1, rng.Float64()*2-1, rng.Float64()*2-1)
		}
		k := kind(n % 2)
		ftoi, fhit, ok := fast(&q, k)
		if !ok {
			continue
		}
		decided++
		etoi, ehit := exactSolve(&q, k)
		if fhit != ehit {
			t.Fatalf("query %d (%v): fast %v, exact %v: %v", n, k, fhit, ehit, q)
		}
		if !fhit {
			continue
		}
		hits++
		if ftoi.Width() > MaxWidth || etoi.Hi < ftoi.Lo || etoi.Lo > ftoi.Hi {
			t.Fatalf("query %d (%v): fast %v, exact %v: %v", n, k, ftoi, etoi, q)
		}
	}
	t.Logf("%d of 3000 decided by the fast path, %d hits", decided, hits)
	if decided < 2500 || hits < 100 {
		t.Errorf("the fast path decided %d queries, %d hits", decided, hits)
	}
}

// TestPathsOnSimpleCases runs both paths on cases whose answers are known:
// each path must give the answer (the fast one may decline).
func TestPathsOnSimpleCases(t *testing.T) {
	v := geom.V
	cases := []struct {
		name string
		k    kind
		q    [8]geom.Vec3
		hit  bool
		toi  float64
	}{
		{"vertex through a face at 1/2", vf, [8]geom.Vec3{v(0.2, 0.2, 1), v(0, 0, 0), v(1, 0, 0), v(0, 1, 0), v(0.2, 0.2, -1), v(0, 0, 0), v(1, 0, 0), v(0, 1, 0)}, true, 0.5},
		{"vertex passing beside a face", vf, [8]geom.Vec3{v(2, 2, 1), v(0, 0, 0), v(1, 0, 0), v(0, 1, 0), v(2, 2, -1), v(0, 0, 0), v(1, 0, 0), v(0, 1, 0)}, false, 0},
		{"edges crossing at 1/3", ee, [8]geom.Vec3{v(-1, 0, 1), v(1, 0, 1), v(0, -1, 0), v(0, 1, 0), v(-1, 0, -2), v(1, 0, -2), v(0, -1, 0), v(0, 1, 0)}, true, 1.0 / 3},
		{"vertex sliding in the plane onto an edge at 1/4", vf, [8]geom.Vec3{v(-1, 0.2, 0), v(0, 0, 0), v(1, 0, 0), v(0, 1, 0), v(3, 0.2, 0), v(0, 0, 0), v(1, 0, 0), v(0, 1, 0)}, true, 0.25},
		{"vertex on the face at 0", vf, [8]geom.Vec3{v(0.2, 0.2, 0), v(0, 0, 0), v(1, 0, 0), v(0, 1, 0), v(0.2, 0.2, 1), v(0, 0, 0), v(1, 0, 0), v(0, 1, 0)}, true, 0},
		{"vertex reaching the face at 1", vf, [8]geom.Vec3{v(0.2, 0.2, 1), v(0, 0, 0), v(1, 0, 0), v(0, 1, 0), v(0.2, 0.2, 0), v(0, 0, 0), v(1, 0, 0), v(0, 1, 0)}, true, 1},
		{"parallel edges sliding into overlap at 1/2", ee, [8]geom.Vec3{v(0, 0, 0), v(1, 0, 0), v(2, 0, 0), v(3, 0, 0), v(0, 0, 0), v(1, 0, 0), v(0, 0, 0), v(1, 0, 0)}, true, 0.5},
		{"parallel edges apart", ee, [8]geom.Vec3{v(0, 0, 0), v(1, 0, 0), v(0, 1, 0), v(1, 1, 0), v(0, 0, 0), v(1, 0, 0), v(0, 0.5, 0), v(1, 0.5, 0)}, false, 0},
	}
	for _, c := range cases {
		etoi, ehit := exactSolve(&c.q, c.k)
		ftoi, fhit, ok := fast(&c.q, c.k)
		for _, r := range []struct {
			path string
			toi  Interval
			hit  bool
			ok   bool
		}{{"exact", etoi, ehit, true}, {"fast", ftoi, fhit, ok}} {
			if !r.ok {
				continue
			}
			if r.hit != c.hit || c.hit && (!r.toi.Contains(c.toi) || r.toi.Width() > MaxWidth) {
				t.Errorf("%s, %s path: %v %v, want %v at %v", c.name, r.path, r.hit, r.toi, c.hit, c.toi)
			}
		}
	}
}
