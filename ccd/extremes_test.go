package ccd

import (
	"testing"

	"github.com/collide3d/collide/ccd/internal/ratccd"
	"github.com/collide3d/collide/geom"
)

// TestExactPathExtremes runs the exact path on queries whose coordinates
// mix float64 extremes (issue 28: 35-50 s a query on coplanar ones, 4-6.5 s
// on the fuzzer's inputs near 1e-301, as big.Rat reduced every number and
// narrowed roots thousands of halvings apart): the answer is the oracle's,
// and the work, counted in polynomial evaluations, stays small (no
// narrowing by the thousands).
func TestExactPathExtremes(t *testing.T) {
	const t3, e, s = 1e-301, 2.2e-308, 5e-324
	const h = 1.79e308
	v := geom.V
	cases := []struct {
		k kind
		q [8]geom.Vec3
	}{
		{vf, [8]geom.Vec3{v(1, 0, 0.5), v(1, -t3, 0), v(-t3, -t3, 1), v(1, -t3, t3), v(t3, -t3, -t3), v(-1, 1, 3e-301), v(1, -1, 3e-301), v(0.5, -t3, 2e-300)}},
		{ee, [8]geom.Vec3{v(2e-300, 2e-300, 1), v(-t3, 2e-300, 0), v(-1, -t3, 1), v(2e-300, 0, t3), v(0.5, -t3, -1), v(0.5, -1, t3), v(1, 3e-301, -1), v(1, 1, 2e-300)}},
		{ee, [8]geom.Vec3{v(0, h, 0), v(t3, s, 0), v(-h, -t3, 0), v(0.1, e, 0), v(0.1, t3, 0), v(3, -h, 0), v(-t3, 3, 0), v(3, 3, 0)}},
		{vf, [8]geom.Vec3{v(0.1, e, 0), v(t3, s, 0), v(-3, -3, 0), v(0.1, 0, 0), v(0.1, 0, 0), v(-s, 0, 0), v(e, -h, 0), v(h, 0, 0)}},
		{vf, [8]geom.Vec3{v(-t3, -h, 0), v(e, -3, 0), v(0.1, -h, 0), v(-3, -h, 0), v(s, 3, 0), v(h, e, 0), v(t3, -3, 0), v(-3, t3, 0)}},
		{vf, [8]geom.Vec3{v(t3, e, 0), v(-t3, -s, 0), v(3, s, 0), v(h, -t3, 0), v(0, 0, 0), v(-s, -3, 0), v(-s, -s, 0), v(h, -s, 0)}},
		// Seen taking minutes: the signs of the family at a root of the
		// orientation, roots some 2^-2000 apart.
		{ee, [8]geom.Vec3{v(-3, -h, 0), v(0.1, -h, 0), v(3, -s, 0), v(0, 0.1, 0), v(h, 0, 0), v(s, -t3, 0), v(3, -t3, 0), v(t3, s, 0)}},
	}
	for i, c := range cases {
		q := c.q
		before := evaluations.Load()
		toi, hit := exactSolve(&q, c.k)
		work := evaluations.Load() - before
		var want *ratccd.Time
		var whit bool
		if c.k == vf {
			want, whit = ratccd.VertexFace(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7])
		} else {
			want, whit = ratccd.EdgeEdge(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7])
		}
		if hit != whit || hit && (!want.In(toi.Lo, toi.Hi) || toi.Width() > MaxWidth) {
			t.Errorf("case %d: hit %v %v, the oracle: hit %v %v", i, hit, toi, whit, want)
		}
		if work > 20000 {
			t.Errorf("case %d: %d polynomial evaluations", i, work)
		}
		t.Logf("case %d: hit %v, %d evaluations", i, hit, work)
	}
}
