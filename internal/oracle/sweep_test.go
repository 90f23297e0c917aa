package oracle_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/oracle"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
)

// checkSweep compares Sweep, and the sweep on 2 and 3 goroutines, with
// Brute, and returns the number of pairs.
func checkSweep(t *testing.T, name string, env, fly *mesh.TriMesh, pose geom.Pose, eps float64) int {
	t.Helper()
	want := testgeom.Brute(env, fly, pose, eps)
	got := oracle.Sweep(env, fly, pose, eps)
	if !slices.Equal(got, want) {
		t.Errorf("%s, eps %g: Sweep %d pairs, Brute %d pairs; first difference %s",
			name, eps, len(got), len(want), firstDiff(got, want))
	}
	for _, w := range []int{2, 3} {
		if got := oracle.SweepOn(env, fly, pose, eps, w); !slices.Equal(got, want) {
			t.Errorf("%s, eps %g, %d goroutines: %d pairs, Brute %d; first difference %s",
				name, eps, w, len(got), len(want), firstDiff(got, want))
		}
	}
	return len(want)
}

// firstDiff describes the first pair in which got and want differ.
func firstDiff(got, want [][2]int32) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("at %d: got %v, want %v", i, got[i], want[i])
		}
	}
	switch {
	case len(got) > len(want):
		return fmt.Sprintf("extra %v", got[len(want)])
	case len(got) < len(want):
		return fmt.Sprintf("missing %v", want[len(got)])
	}
	return "none"
}

// soup returns the mesh of the triangles ts, each with its own three
// vertices.
func soup(ts ...geom.Triangle) *mesh.TriMesh {
	m := &mesh.TriMesh{}
	for _, t := range ts {
		n := int32(len(m.Verts))
		m.Verts = append(m.Verts, t[0], t[1], t[2])
		m.Tris = append(m.Tris, [3]int32{n, n + 1, n + 2})
	}
	return m
}

// randVec returns a vector with coordinates uniform in [lo, hi).
func randVec(rng *rand.Rand, lo, hi float64) geom.Vec3 {
	u := func() float64 { return lo + (hi-lo)*rng.Float64() }
	return geom.Vec3{X: u(), Y: u(), Z: u()}
}

// scenePoses returns the identity and small random motions about the
// centre of env (so that env and fly still meet), scaled to its size s.
func scenePoses(rng *rand.Rand, env *mesh.TriMesh) (poses []geom.Pose, s float64) {
	b := env.Bounds()
	sz := b.Size()
	s = max(sz.X, sz.Y, sz.Z)
	c := b.Center()
	poses = []geom.Pose{geom.Identity()}
	for range 2 {
		axis := randVec(rng, -1, 1)
		if axis == (geom.Vec3{}) {
			axis.X = 1
		}
		r := geom.FromAxisAngle(axis, rng.Float64()*0.2, geom.Vec3{}).R
		shift := randVec(rng, -0.03*s, 0.03*s)
		// x ↦ R(x - c) + c + shift.
		poses = append(poses, geom.Pose{R: r, T: c.Add(shift).Sub(r.MulVec(c))})
	}
	poses = append(poses, geom.Translation(geom.Vec3{X: 0.01 * s, Y: -0.02 * s}))
	return poses, s
}

func TestSweepAdversarial(t *testing.T) {
	for i, sc := range testgeom.AdversarialScenes(3) {
		t.Run(sc.Name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(7, uint64(i)))
			poses, s := scenePoses(rng, sc.Env)
			total := 0
			for pi, p := range poses {
				for _, eps := range []float64{0, 0.01 * s} {
					total += checkSweep(t, fmt.Sprintf("pose %d", pi), sc.Env, sc.Fly, p, eps)
				}
			}
			if total == 0 {
				t.Errorf("no pair in contact in any case")
			}
		})
	}
}

func TestSweepSoups(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	box := geom.AABB{Max: geom.Vec3{X: 8, Y: 8, Z: 8}}
	lat := testgeom.LatticeSoup(rng, 400, 4)
	nm := testgeom.NearMissSoup(rng, 400)
	scenes := []struct {
		Name     string
		Env, Fly *mesh.TriMesh
	}{
		{"random", testgeom.RandomSoup(rng, 400, box, 1), testgeom.RandomSoup(rng, 400, box, 1)},
		{"random-flat", testgeom.RandomSoup(rng, 400, geom.AABB{Max: geom.Vec3{X: 8, Y: 8}}, 1), testgeom.RandomSoup(rng, 400, box, 0.5)},
		{"lattice", lat, testgeom.LatticeSoup(rng, 400, 4)},
		{"lattice-self", lat, lat},
		{"near-miss-self", nm, nm},
		{"near-miss", nm, testgeom.NearMissSoup(rng, 400)},
	}
	for i, sc := range scenes {
		t.Run(sc.Name, func(t *testing.T) {
			t.Parallel()
			poses, s := scenePoses(rand.New(rand.NewPCG(13, uint64(i))), sc.Env)
			for pi, p := range poses {
				for _, eps := range []float64{0, 0.01 * s} {
					checkSweep(t, fmt.Sprintf("pose %d", pi), sc.Env, sc.Fly, p, eps)
				}
			}
		})
	}
	// On the lattice, at the identity, many pairs are at distance exactly
	// 1/2 or 1 (parallel faces and edges, vertices facing faces) with box
	// gaps of exactly eps: a filter without a margin would drop them.
	for _, eps := range []float64{0.5, 1, 2} {
		n := checkSweep(t, "lattice identity", lat, testgeom.LatticeSoup(rand.New(rand.NewPCG(5, 5)), 400, 4), geom.Identity(), eps)
		if n == 0 {
			t.Errorf("lattice, eps %g: no pair", eps)
		}
	}
}

// TestSweepTouching checks pairs whose boxes only touch, flat boxes
// and degenerate triangles, and pairs at distance exactly eps.
func TestSweepTouching(t *testing.T) {
	v := func(x, y, z float64) geom.Vec3 { return geom.Vec3{X: x, Y: y, Z: z} }
	mk := soup
	env := mk(
		geom.Tri(v(0, 0, 0), v(1, 0, 0), v(0, 1, 0)), // flat in z
		geom.Tri(v(5, 0, 0), v(5, 0, 0), v(5, 0, 0)), // a point
		geom.Tri(v(8, 0, 0), v(8, 2, 0), v(8, 1, 0)), // a segment on x = 8
	)
	fly := mk(
		geom.Tri(v(1, 0, 0), v(2, 0, 0), v(2, 1, 0)),             // shares env 0's vertex: boxes touch at x = 1
		geom.Tri(v(0, 0, 0), v(0, 0, -1), v(0, 0, -2)),           // segment touching env 0 at a vertex, boxes touch at z = 0
		geom.Tri(v(0.5, 0.5, 0), v(0.5, 0.5, 0), v(0.5, 0.5, 0)), // point on env 0's edge
		geom.Tri(v(4, 0, 0), v(5, 0, 0), v(5, 1, 0)),             // vertex on env 1
		geom.Tri(v(8, 1, 0), v(9, 1, 0), v(9, 1, 1)),             // vertex on env 2's segment
		geom.Tri(v(0, 0, 1), v(1, 0, 1), v(0, 1, 1)),             // env 0 one higher: distance 1
		geom.Tri(v(6, 0, 0), v(6, 1, 0), v(6, 0, 1)),             // one from env 1 along x
		geom.Tri(v(8, 3, 0), v(8, 3, 0), v(8, 3, 0)),             // one from env 2's end along y
	)
	want := map[float64][][2]int32{
		0:   {{0, 0}, {0, 1}, {0, 2}, {1, 3}, {2, 4}},
		0.5: {{0, 0}, {0, 1}, {0, 2}, {1, 3}, {2, 4}},
		1:   {{0, 0}, {0, 1}, {0, 2}, {0, 5}, {1, 3}, {1, 6}, {2, 4}, {2, 7}},
	}
	for eps, w := range want {
		if got := oracle.Sweep(env, fly, geom.Identity(), eps); !slices.Equal(got, w) {
			t.Errorf("eps %g: got %v, want %v", eps, got, w)
		}
		checkSweep(t, "touching", env, fly, geom.Identity(), eps)
		// Far away and tiny the contacts are not exact any more, but
		// Sweep must still agree with Brute.
		checkSweep(t, "touching far", testgeom.Far(env, 1e6), testgeom.Far(fly, 1e6), geom.Identity(), eps)
		checkSweep(t, "touching tiny", testgeom.Tiny(env, 1e-7), testgeom.Tiny(fly, 1e-7), geom.Identity(), eps*1e-7)
	}
}

// TestSweepRounding checks pairs that TriTriWithin accepts although
// their boxes are more than eps apart: the distance it computes rounds down
// to eps or below. Boxes grown by exactly eps/2 would lose them all, boxes
// grown by eps/2·(1+1e-9) the last two, whose computed distances are off by
// about an ulp of their coordinates (1e9 and 1e6). (Found by a random
// search.)
func TestSweepRounding(t *testing.T) {
	pt := func(x, y, z float64) geom.Triangle {
		p := geom.Vec3{X: x, Y: y, Z: z}
		return geom.Triangle{p, p, p}
	}
	cases := []struct {
		env, fly geom.Triangle
		eps      float64
	}{
		{
			geom.Triangle{
				{X: 0.629246745061588, Y: 0.6754623722386746, Z: 0.11009864518523393},
				{X: 0.1469280231385358, Y: 0.40365068283817795, Z: 0.6613616343282042},
				{X: 0.14442548024124102, Y: 0.8816852455218466, Z: 0.24896340413260643},
			},
			pt(23.11328569843647, 0.6754623722386746, 0.11009864518523393),
			22.48403895337488,
		},
		{
			geom.Triangle{
				{X: 0.0008168699077383474, Y: 0.0008873722921015582, Z: 6.638005085296195e-05},
				{X: 0.00045794651745767646, Y: 0.0002102243739831492, Z: 0.00013620775472748204},
				{X: 0.00018139445601312253, Y: 0.0007418625823160514, Z: 0.00010493607226718727},
			},
			pt(1.6189648349899126, 0.0008873722921015582, 6.638005085296195e-05),
			1.6181479650821742,
		},
		{
			geom.Triangle{
				{X: 1.0000000007637116e+09, Y: 1.0000000007911284e+09, Z: 1.0000000008015103e+09},
				{X: 2.75557701611873e+08, Y: 2.859014162193489e+08, Z: 1.165934285724972e+08},
				{X: 1.54686173828093e+08, Y: 1.0000000007875109e+09, Z: 1.749810416390335e+08},
			},
			pt(1.0000000009163663e+09, 1.0000000007911284e+09, 1.0000000008015103e+09),
			0.15265469204966442,
		},
		{
			geom.Triangle{
				{X: 1.0000004890433584e+06, Y: 1.0000002340766712e+06, Z: 1.0000004353053701e+06},
				{X: 86610.52735858235, Y: 137553.6550851028, Z: 52611.2693476073},
				{X: 151921.74391377665, Y: 1.0000004246665373e+06, Z: 38018.46833400491},
			},
			geom.Triangle{
				{X: 1.0000004890441385e+06, Y: 999999.8327965547, Z: 1.0000004353053701e+06},
				{X: 1.0000004890441385e+06, Y: 1.0000005675766662e+06, Z: 1.0000004353053701e+06},
				{X: 1.0000004890441385e+06, Y: 1.0000002340766712e+06, Z: 1.0000012265591879e+06},
			},
			7.800565903714503e-07,
		},
	}
	margin := 0
	for i, c := range cases {
		// The tolerance is the pair's computed distance, so that
		// TriTriWithin accepts it whatever the rounding: geom's more
		// accurate TriTriDistance (a frame at the first vertex) no longer
		// rounds the last two below their box gaps, as the one these cases
		// were found with did; where it still does, the case tests the
		// margin of the grown boxes.
		d, _, _ := geom.TriTriDistance(c.env, c.fly)
		c.eps = max(c.eps, d)
		if !geom.TriTriWithin(c.env, c.fly, c.eps) {
			t.Fatalf("case %d: TriTriWithin false at the pair's own distance %g", i, c.eps)
		}
		if !c.env.Bounds().Expanded(c.eps / 2).Overlaps(c.fly.Bounds().Expanded(c.eps / 2)) {
			margin++
		}
		want := [][2]int32{{0, 0}}
		if got := oracle.Sweep(soup(c.env), soup(c.fly), geom.Identity(), c.eps); !slices.Equal(got, want) {
			t.Errorf("case %d: got %v, want %v", i, got, want)
		}
	}
	if margin == 0 {
		t.Error("no case has boxes grown by eps/2 apart: none tests the margin")
	}
}

func TestSweepEdgeCases(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 9))
	box := geom.AABB{Max: geom.Vec3{X: 3, Y: 3, Z: 3}}
	soup := testgeom.RandomSoup(rng, 50, box, 1)
	empty := &mesh.TriMesh{}
	for _, eps := range []float64{0, 0.1} {
		for _, c := range []struct {
			name     string
			env, fly *mesh.TriMesh
		}{{"empty-empty", empty, empty}, {"empty-soup", empty, soup}, {"soup-empty", soup, empty}} {
			if got := oracle.Sweep(c.env, c.fly, geom.Identity(), eps); len(got) != 0 {
				t.Errorf("%s: %d pairs", c.name, len(got))
			}
		}
	}
	// Non-finite coordinates: whatever Brute says, Sweep says too.
	bad := testgeom.RandomSoup(rng, 50, box, 1)
	bad.Verts[0].X = math.NaN()
	bad.Verts[4].Y = math.Inf(1)
	bad.Verts[8].Z = math.Inf(-1)
	for _, eps := range []float64{0, 0.1, math.Inf(1), -1} {
		checkSweep(t, "non-finite", bad, soup, geom.Identity(), eps)
		checkSweep(t, "non-finite fly", soup, bad, geom.Identity(), eps)
	}
	// A huge eps takes every pair.
	if n := checkSweep(t, "huge eps", soup, soup, geom.Identity(), 1e300); n != 50*50 {
		t.Errorf("eps 1e300: %d pairs, want %d", n, 50*50)
	}
}

// TestSweepParallel runs the default (parallel) path on models big
// enough to take it.
func TestSweepParallel(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	rng := rand.New(rand.NewPCG(4, 4))
	box := geom.AABB{Max: geom.Vec3{X: 20, Y: 20, Z: 20}}
	env, fly := testgeom.RandomSoup(rng, 2500, box, 1), testgeom.RandomSoup(rng, 2500, box, 1)
	pose := geom.FromAxisAngle(geom.Vec3{X: 1, Y: 2, Z: 3}, 0.1, geom.Vec3{X: 1})
	for _, eps := range []float64{0, 0.05} {
		if n := checkSweep(t, "random 2500", env, fly, pose, eps); n == 0 {
			t.Errorf("eps %g: no pair", eps)
		}
	}
}

func BenchmarkSweep(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	box := geom.AABB{Max: geom.Vec3{X: 50, Y: 50, Z: 50}}
	env, fly := testgeom.RandomSoup(rng, 20000, box, 1), testgeom.RandomSoup(rng, 20000, box, 1)
	pose := geom.FromAxisAngle(geom.Vec3{X: 1, Y: 1, Z: 0}, 0.3, geom.Vec3{X: 0.5})
	for _, eps := range []float64{0, 0.1} {
		b.Run(fmt.Sprintf("eps=%g", eps), func(b *testing.B) {
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				n = len(oracle.Sweep(env, fly, pose, eps))
			}
			b.ReportMetric(float64(n), "pairs")
		})
	}
}
