package depth

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// boxDirDepth is the closed form of D(n) for axis-aligned boxes: moved by
// t·n the boxes' interiors are disjoint iff their ranges are on some axis.
func boxDirDepth(a0, a1, b0, b1, n geom.Vec3) float64 {
	best := math.Inf(1)
	for i := 0; i < 3; i++ {
		switch ni := n.Index(i); {
		case ni > 0:
			best = min(best, (a1.Index(i)-b0.Index(i))/ni)
		case ni < 0:
			best = min(best, (b1.Index(i)-a0.Index(i))/-ni)
		}
	}
	return max(best, 0)
}

// moved returns the triangles b translated by v.
func moved(b []geom.Triangle, v geom.Vec3) []geom.Triangle {
	out := make([]geom.Triangle, len(b))
	for i, tr := range b {
		out[i] = geom.Triangle{tr[0].Add(v), tr[1].Add(v), tr[2].Add(v)}
	}
	return out
}

// checkPatch checks a patch depth in env's frame against brute force: fly
// moved by hi·n separated (exact oracle), and a scan of t on a grid
// finding the first separated t no smaller than lo.
func checkPatch(t *testing.T, name string, env, fly *mesh.TriMesh, rel geom.Pose, n geom.Vec3, d [2]float64) {
	t.Helper()
	if !(d[0] >= 0) || !(d[0] <= d[1]) || math.IsInf(d[1], 0) {
		t.Fatalf("%s: depth %v", name, d)
	}
	a, b := placedTris(env, geom.Identity()), placedTris(fly, rel)
	hiB := placedTris(fly, geom.Pose{R: rel.R, T: rel.T.Add(n.Scale(d[1]))})
	if !bruteSeparated(a, hiB) && !planeSepTris(a, hiB, n) {
		t.Fatalf("%s: fly moved by hi = %v along %v is not separated", name, d[1], n)
	}
	const steps = 40
	for k := 0; k <= steps; k++ {
		tt := d[1] * float64(k) / steps
		if bruteSeparated(a, moved(b, n.Scale(tt))) {
			if tt < d[0]*(1-1e-9) {
				t.Fatalf("%s: separated at t = %v below lo = %v", name, tt, d[0])
			}
			break
		}
	}
	// Below lo the solids still interpenetrate (brute force finds a point).
	if d[0] > 0 {
		for _, f := range []float64{0.3, 0.7, 0.95} {
			if !bruteInterpenetrate(a, moved(b, n.Scale(f*d[0]))) {
				t.Logf("%s: at %v·lo the grid finds no point inside both (not a failure: the grid is coarse)", name, f)
			}
		}
	}
}

func TestPatchDepthsBoxes(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 3))
	for i := 0; i < 30; i++ {
		a0 := geom.V(rng.Float64(), rng.Float64(), rng.Float64())
		a1 := a0.Add(geom.V(0.5+rng.Float64(), 0.5+rng.Float64(), 0.5+rng.Float64()))
		env, fly := boxMesh(a0, a1), boxMesh(geom.V(0, 0, 0), geom.V(1, 1, 1))
		ep := geom.FromAxisAngle(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), rng.Float64()*6, geom.V(3, -1, 2))
		off := a0.Add(geom.V(rng.Float64()-0.5, rng.Float64()-0.5, rng.Float64()-0.5))
		fp := ep.Compose(geom.Translation(off))
		rel := collide.RelativePose(ep, fp)
		var ps []collide.Patch
		var ns []geom.Vec3
		for k := 0; k < 4; k++ {
			n := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
			if k == 0 {
				n = geom.V(1, 0, 0)
			}
			ns = append(ns, n)
			ps = append(ps, collide.Patch{Point: ep.Apply(a0.Add(a1).Scale(0.5)), Normal: ep.ApplyVec(n)})
		}
		if err := PatchDepths(context.Background(), build(t, env), ep, build(t, fly), fp, ps, Options{}); err != nil {
			t.Fatal(err)
		}
		for k, p := range ps {
			n := ep.R.Transpose().MulVec(p.Normal).Unit()
			want := boxDirDepth(a0, a1, rel.T, rel.T.Add(geom.V(1, 1, 1)), n)
			if !p.DepthKnown {
				t.Fatalf("box %d/%d: depth unknown", i, k)
			}
			tol := 1e-9 * (1 + want)
			if p.Depth[0] > want+tol || p.Depth[1] < want-tol {
				t.Fatalf("box %d/%d along %v: [%v, %v] misses D(n) = %v", i, k, ns[k], p.Depth[0], p.Depth[1], want)
			}
			if i < 6 {
				checkPatch(t, "box", env, fly, rel, n, p.Depth)
			}
			if want > 0 && i%10 == 0 {
				t.Logf("box %d/%d: D(n) %.6f in [%.6f, %.6f]", i, k, want, p.Depth[0], p.Depth[1])
			}
		}
	}
}

func TestPatchDepthsNonConvex(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 4))
	for _, c := range nonConvexCases() {
		ep := geom.FromAxisAngle(geom.V(1, 0.5, -0.2), 0.8, geom.V(-3, 2, 1))
		fp := ep.Compose(c.pose)
		rel := collide.RelativePose(ep, fp)
		envM, flyM := build(t, c.env), build(t, c.fly)
		// Normals: the directions of the six axes and two random ones;
		// points: the centre of the overlap of the boxes.
		box := newSolid(placedTris(c.env, geom.Identity())).box.Intersection(newSolid(placedTris(c.fly, rel)).box)
		pt := ep.Apply(box.Min.Add(box.Max).Scale(0.5))
		var ps []collide.Patch
		for _, n := range []geom.Vec3{geom.V(1, 0, 0), geom.V(0, -1, 0), geom.V(0, 0, 1)} {
			ps = append(ps, collide.Patch{Point: pt, Normal: ep.ApplyVec(n)})
		}
		for k := 0; k < 2; k++ {
			ps = append(ps, collide.Patch{Point: pt, Normal: geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()})
		}
		if err := PatchDepths(context.Background(), envM, ep, flyM, fp, ps, Options{}); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		pd, err := Translation(envM, flyM, rel, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for k, p := range ps {
			if !p.DepthKnown {
				t.Fatalf("%s/%d: unknown", c.name, k)
			}
			n := ep.R.Transpose().MulVec(p.Normal).Unit()
			if p.Depth[1] < pd.Lower*(1-1e-9) {
				t.Fatalf("%s/%d: hi %v below PD's lower bound %v", c.name, k, p.Depth[1], pd.Lower)
			}
			checkPatch(t, c.name, c.env, c.fly, rel, n, p.Depth)
			t.Logf("%-24s n %v: [%.4f, %.4f] (PD in [%.4f, %.4f])", c.name, n, p.Depth[0], p.Depth[1], pd.Lower, pd.Upper)
		}
	}
}

func TestPatchDepthsEdges(t *testing.T) {
	unit := boxMesh(geom.V(0, 0, 0), geom.V(1, 1, 1))
	env, fly := build(t, unit), build(t, unit)
	// Touching: every depth [0, 0].
	ps := []collide.Patch{{Normal: geom.V(1, 0, 0)}, {Normal: geom.V(0, 1, 0)}}
	if err := PatchDepths(context.Background(), env, geom.Identity(), fly, geom.Translation(geom.V(1, 0, 0)), ps, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if !p.DepthKnown || p.Depth != [2]float64{} {
			t.Fatalf("touching: %+v", p)
		}
	}
	// A zero normal: unknown; the others filled.
	ps = []collide.Patch{{Normal: geom.Vec3{}}, {Normal: geom.V(1, 0, 0), Point: geom.V(0.9, 0.5, 0.5)}}
	if err := PatchDepths(context.Background(), env, geom.Pose{}, fly, geom.Pose{T: geom.V(0.75, 0, 0)}, ps, Options{}); err != nil {
		t.Fatal(err)
	}
	if ps[0].DepthKnown || !ps[1].DepthKnown || ps[1].Depth[0] > 0.25 || ps[1].Depth[1] < 0.25 || ps[1].Depth[1] > 0.25+1e-9 {
		t.Fatalf("zero normal / x: %+v", ps)
	}
	// An open mesh: unknown, no error.
	open := &mesh.TriMesh{Verts: unit.Verts, Tris: unit.Tris[2:]}
	ps = []collide.Patch{{Normal: geom.V(1, 0, 0), DepthKnown: true}}
	if err := PatchDepths(context.Background(), env, geom.Identity(), build(t, open), geom.Translation(geom.V(0.5, 0, 0)), ps, Options{}); err != nil || ps[0].DepthKnown {
		t.Fatalf("open: %+v, %v", ps, err)
	}
	// Cancelled.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	torus := build(t, gen.Must(gen.Torus(geom.Vec3{}, 2, 0.6, 128)))
	ps = []collide.Patch{{Normal: geom.V(1, 0, 0)}}
	if err := PatchDepths(ctx, torus, geom.Identity(), fly, geom.Translation(geom.V(1.5, 0, 0)), ps, Options{}); !errors.Is(err, context.Canceled) || ps[0].DepthKnown {
		t.Fatalf("cancelled: %+v, %v", ps, err)
	}
	c := &stopCtx{Context: context.Background(), n: 1, done: make(chan struct{})}
	close(c.done)
	if err := PatchDepths(c, torus, geom.Identity(), fly, geom.Translation(geom.V(1.5, 0, 0)), ps, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled within: %+v, %v", ps, err)
	}
	if err := PatchDepths(context.Background(), nil, geom.Identity(), fly, geom.Identity(), ps, Options{}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("nil model: %v", err)
	}
}

// The directional lower bound from a ball at the centre of another: D(n)
// along any n is the sum of the radii there, and the chains reach it
// where PD's lower bound is the same (a concentric pair), so test a ball
// off-centre in a long box, where D(n) along the box's axis is long.
func TestChainLower(t *testing.T) {
	env := boxMesh(geom.V(-4, -0.5, -0.5), geom.V(4, 0.5, 0.5))
	fly := boxMesh(geom.V(-0.5, -0.5, -0.5), geom.V(0.5, 0.5, 0.5))
	envM, flyM := build(t, env), build(t, fly)
	pose := geom.Translation(geom.V(0.1, 0.05, 0))
	q, err := prepare(context.Background(), envM, flyM, pose, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := geom.V(0.1, 0.05, 0)
	a, _ := q.sA.Distance(p)
	b, _ := q.flySolid().Distance(p)
	n := geom.V(1, 0, 0)
	lo := q.chainLower(p, n, a, b)
	want := boxDirDepth(geom.V(-4, -0.5, -0.5), geom.V(4, 0.5, 0.5), pose.T.Sub(geom.V(0.5, 0.5, 0.5)), pose.T.Add(geom.V(0.5, 0.5, 0.5)), n)
	if !(lo > a+b) || lo > want {
		t.Fatalf("chain lower %v: want in (%v, %v]", lo, a+b, want)
	}
	t.Logf("chain lower %v, ball bound %v, D(n) %v", lo, a+b, want)
}
