package bvh

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// sepOptions are the configurations of the conformance matrix that sep
// is checked on: every kind, k and storage, leaf sizes 1 and more.
func sepOptions() []Options {
	var os []Options
	for _, k := range bv.Ks {
		os = append(os, Options{K: k}, Options{K: k, Float64: true}, Options{K: k, Leaf: 4, FlyLeaf: 1}, Options{K: k, FlyLeaf: 16},
			Options{K: k, Compact: true}, Options{K: k, Compact: true, Leaf: 4, FlyLeaf: 1})
	}
	for _, kind := range []Kind{OBB, Sphere, AABB, RSS} {
		os = append(os, Options{Kind: kind}, Options{Kind: kind, Leaf: 4})
	}
	return append(os, Options{Kind: BoxTree}, Options{Kind: BoxTree, Leaf: 4}, Options{Kind: BoxTree, Leaf: 16})
}

func optName(o Options) string {
	if o.Kind == KDOP {
		s := fmt.Sprintf("k%d/leaf%d/fly%d", o.K, o.Leaf, o.FlyLeaf)
		if o.Float64 {
			s += "/f64"
		}
		if o.Compact {
			s += "/compact"
		}
		return s
	}
	return fmt.Sprintf("%v/leaf%d", o.Kind, o.Leaf)
}

// sepScene is a pair of models with poses and a tolerance scale.
type sepScene struct {
	name     string
	env, fly *mesh.TriMesh
	poses    []geom.Pose
	scale    float64 // the size of a triangle, for the tolerance
}

func sepScenes(short bool) []sepScene {
	rng := rand.New(rand.NewPCG(11, 12))
	rot := func(c geom.Vec3, a float64) geom.Pose {
		p := geom.FromAxisAngle(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), a, geom.Vec3{})
		p.T = c.Sub(p.R.MulVec(c))
		return p
	}
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 600))
	ball := gen.Must(gen.Icosphere(geom.V(1, 0, 0), 0.35, 320))
	sc := []sepScene{{
		name: "torus-ball", env: torus, fly: ball, scale: 0.1,
		poses: []geom.Pose{geom.Identity(), rot(geom.V(1, 0, 0), 1), rot(geom.V(1, 0, 0), 2.5), geom.Translation(geom.V(0.3, 0.2, 0)),
			geom.FromAxisAngle(geom.V(1, 1, 0), 0.5, geom.V(0, 0.2, 1.2)), geom.FromAxisAngle(geom.V(1, 0, 1), 2, geom.V(0.5, 0.2, 3))}, // apart
	}}
	want := map[string]bool{
		"lattice": true, "lattice-far": true, "lattice-tiny": true, "near-miss": true, "near-miss-far": true,
		"near-miss-tiny": !short, "coplanar-touch": true, "degenerate": !short, "random-far": !short,
	}
	for _, s := range testgeom.AdversarialScenes(7) {
		if !want[s.Name] {
			continue
		}
		b := s.Env.Bounds().Union(s.Fly.Bounds())
		c := b.Min.Scale(0.5).Add(b.Max.Scale(0.5))
		size := b.Max.Sub(b.Min)
		scale := 0.1 * max(size.X, size.Y, size.Z) / 10
		sc = append(sc, sepScene{
			name: s.Name, env: s.Env, fly: s.Fly, scale: scale,
			poses: []geom.Pose{geom.Identity(), rot(c, 1e-3), geom.Translation(geom.V(scale*0.1, 0, 0))},
		})
	}
	return sc
}

// sepStats counts what the checks saw, per configuration.
type sepStats struct {
	pairs, brute, disjoint, pos int
	far, farPos                 int // well-separated pairs, and those with g > 0
	sameTests, leafTests        int
	ratio                       float64 // lowerBound's least fraction of the distance of well-separated pairs
}

// TestSep checks pairOps.sep for every kind and configuration on random
// and adversarial scenes, at eps = 0 and eps > 0: on node pairs from
// random dives down the trees (which end near where the volumes stop
// overlapping) and uniformly random ones, g must bound the distance of
// every two triangles below the pair, brute forced (dist ≥ eps + g, less
// TriTriDistance's error; at eps = 0 no pair in contact, exactly), and
// agree with the kind's own test: g > 0 exactly when it says disjoint,
// where both try the same axes, and only when, where sep tries fewer
// (the triangles of the volume trees' leaves).
func TestSep(t *testing.T) {
	// The long scene set takes minutes: it runs by hand, with
	// COLLIDE_LONG=1; COLLIDE_LONG_TESTS=1 runs every configuration on
	// every scene of the short set.
	short := testing.Short() || !longtest.Exhaustive()
	scenes := sepScenes(short)
	total := map[string]*sepStats{}
	rng := rand.New(rand.NewPCG(1, 2))
	for oi, o := range sepOptions() {
		st := &sepStats{}
		total[optName(o)] = st
		for si, sc := range scenes {
			// By default each configuration takes the torus and every
			// sixth adversarial scene, in turn.
			if !longtest.Enabled() && si > 0 && (oi+si)%6 != 0 {
				continue
			}
			env, err := Build(sc.env, o)
			if err != nil {
				t.Fatal(err)
			}
			fly, err := Build(sc.fly, o)
			if err != nil {
				t.Fatal(err)
			}
			for pi, pose := range sc.poses {
				for _, eps := range []float64{0, sc.scale * 0.05} {
					name := fmt.Sprintf("%s/%s/pose%d/eps%g", optName(o), sc.name, pi, eps)
					sepCheck(t, name, env, fly, pose, eps, rng, st, false)
				}
			}
		}
	}
	for _, o := range sepOptions() {
		n := optName(o)
		st := total[n]
		t.Logf("%-22s pairs %5d brute %5d disjoint %5d g>0 %5d (same axes %d, leaf %d); well separated %d, g>0 %d",
			n, st.pairs, st.brute, st.disjoint, st.pos, st.sameTests, st.leafTests, st.far, st.farPos)
		if st.disjoint == 0 || st.pos == 0 {
			t.Errorf("%s: no disjoint pairs (%d) or none with g > 0 (%d): a weak test", n, st.disjoint, st.pos)
		}
		if st.far < 25 {
			t.Errorf("%s: only %d well-separated pairs: a weak test", n, st.far)
		} else if rate := float64(st.farPos) / float64(st.far); rate < 0.95 {
			t.Errorf("%s: g > 0 on %.1f%% of %d well-separated pairs, want 95%%", n, 100*rate, st.far)
		}
	}
}

// sepCheck checks the query of fly at pose against env, tolerance eps,
// on random pairs of nodes.
func sepCheck(t *testing.T, name string, env, fly *Tree, pose geom.Pose, eps float64, rng *rand.Rand, st *sepStats, lower bool) {
	t.Helper()
	o := QueryOptions{Eps: eps, All: true}.request()
	s := new(Scratch)
	nf := func(_, _ int32) noFrame { return noFrame{} }
	switch e := env.impl.(type) {
	case *tree[float32, [6]float32]:
		q := e.query(env, fly, pose, o, s, nil)
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *tree[float32, [14]float32]:
		q := e.query(env, fly, pose, o, s, nil)
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *tree[float32, [18]float32]:
		q := e.query(env, fly, pose, o, s, nil)
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *tree[float32, [26]float32]:
		q := e.query(env, fly, pose, o, s, nil)
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *tree[float64, [6]float64]:
		q := e.query(env, fly, pose, o, s, nil)
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *tree[float64, [14]float64]:
		q := e.query(env, fly, pose, o, s, nil)
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *tree[float64, [18]float64]:
		q := e.query(env, fly, pose, o, s, nil)
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *tree[float64, [26]float64]:
		q := e.query(env, fly, pose, o, s, nil)
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *tree[float32, [8]float32]:
		q := e.query(env, fly, pose, o, s, nil)
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *tree[float32, [12]float32]:
		q := e.query(env, fly, pose, o, s, nil)
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *tree[float32, [20]float32]:
		q := e.query(env, fly, pose, o, s, nil)
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *tree[float64, [8]float64]:
		q := e.query(env, fly, pose, o, s, nil)
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *tree[float64, [12]float64]:
		q := e.query(env, fly, pose, o, s, nil)
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *tree[float64, [20]float64]:
		q := e.query(env, fly, pose, o, s, nil)
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *ctree[[8]float32, [8]uint8]:
		q := dopcQuery[[8]float32, [8]uint8]{dopQuery: e.shim.query(env, fly, pose, o, s, nil), ct: e}
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *ctree[[12]float32, [12]uint8]:
		q := dopcQuery[[12]float32, [12]uint8]{dopQuery: e.shim.query(env, fly, pose, o, s, nil), ct: e}
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *ctree[[20]float32, [20]uint8]:
		q := dopcQuery[[20]float32, [20]uint8]{dopQuery: e.shim.query(env, fly, pose, o, s, nil), ct: e}
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *ctree[[6]float32, [6]uint8]:
		q := dopcQuery[[6]float32, [6]uint8]{dopQuery: e.shim.query(env, fly, pose, o, s, nil), ct: e}
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *ctree[[14]float32, [14]uint8]:
		q := dopcQuery[[14]float32, [14]uint8]{dopQuery: e.shim.query(env, fly, pose, o, s, nil), ct: e}
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *ctree[[18]float32, [18]uint8]:
		q := dopcQuery[[18]float32, [18]uint8]{dopQuery: e.shim.query(env, fly, pose, o, s, nil), ct: e}
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *ctree[[26]float32, [26]uint8]:
		q := dopcQuery[[26]float32, [26]uint8]{dopQuery: e.shim.query(env, fly, pose, o, s, nil), ct: e}
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *vtree[bv.OBB]:
		q := obbQuery{newMoveQuery[bv.OBB](env, fly, pose, o, s, nil, true)}
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *vtree[bv.Sphere]:
		q := sphereQuery{newMoveQuery[bv.Sphere](env, fly, pose, o, s, nil, false)}
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *vtree[box]:
		q := aabbQuery{newMoveQuery[box](env, fly, pose, o, s, nil, false)}
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *vtree[bv.RSS]:
		q := rssQuery{newMoveQuery[bv.RSS](env, fly, pose, o, s, nil, true)}
		checkSepQuery(t, name, &q, nf, nil, rng, st, lower)
	case *boxTree:
		q := newBoxQuery(env, fly, pose, o, s, nil)
		ft := fly.impl.(*boxTree)
		if lower {
			// As a distance query bounds: on the boxes cut to the
			// nodes' triangles' (boxTree.tight).
			q.eh, q.fh = e.tight(env.mesh), ft.tight(fly.mesh)
		}
		boxes := func(ei, fi int32) (geom.AABB, geom.AABB) { return e.box(int(ei)), ft.box(int(fi)) }
		frame := func(ei, fi int32) boxFrame {
			eb, fb := boxes(ei, fi)
			return boxFrame{eb, fb}
		}
		checkSepQuery(t, name, &q, frame, boxes, rng, st, lower)
	default:
		t.Fatalf("%s: no case for %T", name, env.impl)
	}
}

// kindTest runs the test the traversal runs on the pair (e, f): tested is
// false for two leaves of a kind that tests leaves' triangles (no test),
// same is true when the kind tests two volumes (sep tries the same axes).
func kindTest[X any, P pairOps[X]](p P, e, f int32, x *X) (disjoint, same, tested bool) {
	er := p.eref(e)
	fl, _ := p.fkids(f)
	switch {
	case !p.leafTests() || er >= 0 && fl >= 0:
		p.ready(f)
		return !p.overlap(e, f, x), true, true
	case er < 0 && fl < 0:
		return false, false, false
	case er < 0:
		return !p.envLeaf(e, f), false, true
	}
	return !p.flyLeaf(e, f), false, true
}

// subLeaves returns the leaves below e (env) or f (fly).
func envLeaves[X any, P pairOps[X]](p P, e int32) []int32 {
	var out []int32
	stack := []int32{e}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x := p.eref(n); x >= 0 {
			l, r := p.ekids(n, x)
			stack = append(stack, r, l)
		} else {
			out = append(out, n)
		}
	}
	return out
}

func flyLeaves[X any, P pairOps[X]](p P, f int32) []int32 {
	var out []int32
	stack := []int32{f}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if l, r := p.fkids(n); l >= 0 {
			stack = append(stack, r, l)
		} else {
			out = append(out, n)
		}
	}
	return out
}

// checkSepQuery checks sep on the query p: frame gives a pair's frame,
// boxes (box-trees) the boxes whose parts of the triangles sep bounds.
// With lower, it checks lowerBound instead (on a query at tolerance 0):
// below the distance of every two triangles below the pair, at least
// sep's bound (so positive where the kind's test says disjoint), and
// counted in st.ratio where the pair is well separated.
func checkSepQuery[X any, P pairOps[X]](t *testing.T, name string, p P, frame func(e, f int32) X,
	boxes func(e, f int32) (geom.AABB, geom.AABB), rng *rand.Rand, st *sepStats, lower bool) {
	t.Helper()
	// All nodes, internal ones and leaves.
	envNodes := allNodes(0, func(n int32) (int32, int32, bool) {
		if x := p.eref(n); x >= 0 {
			l, r := p.ekids(n, x)
			return l, r, true
		}
		return 0, 0, false
	})
	flyNodes := allNodes(0, func(n int32) (int32, int32, bool) {
		l, r := p.fkids(n)
		return l, r, l >= 0
	})
	fails := 0
	check := func(e, f int32) {
		if fails > 5 {
			return
		}
		x := frame(e, f)
		p.ready(f)
		disjoint, same, tested := kindTest(p, e, f, &x)
		g := p.sep(e, f, &x)
		st.pairs++
		if lower {
			sg := g
			if g = p.lowerBound(e, f, &x); g < sg {
				t.Errorf("%s: pair (%d, %d): lowerBound %g below sep's %g", name, e, f, g, sg)
				fails++
			}
			same = false
		}
		if tested {
			if disjoint {
				st.disjoint++
			}
			if same {
				st.sameTests++
				if (g > 0) != disjoint {
					t.Errorf("%s: pair (%d, %d): g = %g but the kind's test says disjoint = %v", name, e, f, g, disjoint)
					fails++
				}
			} else {
				st.leafTests++
				if g > 0 && !disjoint && !lower {
					t.Errorf("%s: pair (%d, %d): g = %g > 0 but the leaf test says they may meet", name, e, f, g)
					fails++
				}
			}
		}
		if g > 0 {
			st.pos++
		}
		// Brute force, on pairs small enough.
		el, fl := envLeaves(p, e), flyLeaves(p, f)
		var et, ft []int32
		for _, l := range el {
			a, _ := p.tris(l, fl[0])
			et = append(et, a...)
		}
		for _, l := range fl {
			_, b := p.tris(el[0], l)
			ft = append(ft, b...)
		}
		if len(et)*len(ft) > 1000 {
			return
		}
		st.brute++
		tr := p.base()
		ep := tr.eps
		var eb, fb geom.AABB
		if boxes != nil {
			eb, fb = boxes(e, f)
		}
		minD, mag := math.Inf(1), 0.0
		ebox, fbox := geom.EmptyAABB(), geom.EmptyAABB()
		for _, i := range et {
			a := tr.emesh.Triangle(int(i))
			ebox = ebox.Union(a.Bounds())
			var pa []geom.Vec3
			if boxes != nil {
				if pa = clipTri(a, eb); len(pa) == 0 {
					continue
				}
			}
			for _, j := range ft {
				b := tr.flyTriangle(j)
				fbox = fbox.Union(b.Bounds())
				mag = max(mag, triMag(a), triMag(b))
				var d float64
				if boxes != nil {
					pb := clipTri(tr.fmesh.Triangle(int(j)), fb)
					if len(pb) == 0 {
						continue
					}
					for k := range pb {
						pb[k] = tr.pose.Apply(pb[k])
					}
					d = polyDist(pa, pb)
				} else {
					d, _, _ = geom.TriTriDistance(a, b)
					if g > 0 && ep == 0 && geom.TriTri(a, b) {
						t.Errorf("%s: pair (%d, %d): g = %g > 0 at eps 0 but triangles %d and %d touch", name, e, f, g, i, j)
						fails++
					}
				}
				minD = min(minD, d)
			}
		}
		if g > 0 && minD < ep+g-0x1p-40*mag {
			t.Errorf("%s: pair (%d, %d): g = %g but triangles below are %g apart, eps %g (short by %g)", name, e, f, g, minD, ep, ep+g-minD)
			fails++
		}
		// Well separated: apart by more than three times the larger of
		// the two sets' boxes' diagonals.
		if !math.IsInf(minD, 1) && boxes == nil {
			de, df := ebox.Max.Sub(ebox.Min).Norm(), fbox.Max.Sub(fbox.Min).Norm()
			if minD > ep+3*max(de, df) {
				st.far++
				if g > 0 {
					st.farPos++
				}
				st.ratio = min(st.ratio, g/minD)
			}
		} else if boxes != nil && !math.IsInf(minD, 1) {
			// Box-trees: the boxes are what sep measures.
			de, df := eb.Max.Sub(eb.Min).Norm(), fb.Max.Sub(fb.Min).Norm()
			if minD > ep+3*max(de, df) {
				st.far++
				if g > 0 {
					st.farPos++
				}
			}
		}
	}
	// Dives: from the roots down, at random, through the pairs the kind's
	// test finds overlapping, to the first it finds disjoint or a pair of
	// leaves; every pair on the way is checked.
	for range 16 {
		e, f := int32(0), int32(0)
		for {
			check(e, f)
			x := frame(e, f)
			if disjoint, _, tested := kindTest(p, e, f, &x); tested && disjoint {
				break
			}
			er := p.eref(e)
			fl, fr := p.fkids(f)
			if er < 0 && fl < 0 {
				break
			}
			if er >= 0 && (fl < 0 || rng.IntN(2) == 0) {
				l, r := p.ekids(e, er)
				e = [2]int32{l, r}[rng.IntN(2)]
			} else {
				f = [2]int32{fl, fr}[rng.IntN(2)]
			}
		}
	}
	for range 30 {
		check(envNodes[rng.IntN(len(envNodes))], flyNodes[rng.IntN(len(flyNodes))])
	}
}

// allNodes lists the nodes below root, kids giving a node's children.
func allNodes(root int32, kids func(n int32) (l, r int32, ok bool)) []int32 {
	var out []int32
	stack := []int32{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, n)
		if l, r, ok := kids(n); ok {
			stack = append(stack, r, l)
		}
	}
	return out
}

func triMag(t geom.Triangle) float64 {
	m := 0.0
	for _, v := range t {
		m = max(m, math.Abs(v.X), math.Abs(v.Y), math.Abs(v.Z))
	}
	return m
}

// clipTri returns the part of triangle t in box b (grown by a few ulps
// of its coordinates), a convex polygon, or nil.
func clipTri(t geom.Triangle, b geom.AABB) []geom.Vec3 {
	m := max(triMag(t), math.Abs(b.Min.X), math.Abs(b.Min.Y), math.Abs(b.Min.Z), math.Abs(b.Max.X), math.Abs(b.Max.Y), math.Abs(b.Max.Z))
	grow := 0x1p-48 * m
	poly := []geom.Vec3{t[0], t[1], t[2]}
	for a := range 3 {
		poly = clipHalf(poly, a, b.Max.Index(a)+grow, 1)
		poly = clipHalf(poly, a, b.Min.Index(a)-grow, -1)
		if len(poly) == 0 {
			return nil
		}
	}
	return poly
}

// clipHalf clips poly to sgn·(x_a − v) ≤ 0.
func clipHalf(poly []geom.Vec3, a int, v, sgn float64) []geom.Vec3 {
	var out []geom.Vec3
	for i, p := range poly {
		q := poly[(i+1)%len(poly)]
		dp, dq := sgn*(p.Index(a)-v), sgn*(q.Index(a)-v)
		if dp <= 0 {
			out = append(out, p)
		}
		if dp < 0 && dq > 0 || dp > 0 && dq < 0 {
			s := dp / (dp - dq)
			x := p.Add(q.Sub(p).Scale(s))
			x = x.SetIndex(a, v)
			out = append(out, x)
		}
	}
	return out
}

// polyDist returns the distance between two convex polygons, by their
// fans of triangles.
func polyDist(a, b []geom.Vec3) float64 {
	fan := func(p []geom.Vec3) []geom.Triangle {
		if len(p) < 3 {
			p = append(p, p[0], p[0])
		}
		var ts []geom.Triangle
		for i := 1; i+1 < len(p); i++ {
			ts = append(ts, geom.Triangle{p[0], p[i], p[i+1]})
		}
		return ts
	}
	d := math.Inf(1)
	for _, x := range fan(a) {
		for _, y := range fan(b) {
			dd, _, _ := geom.TriTriDistance(x, y)
			d = min(d, dd)
		}
	}
	return d
}

// BenchmarkSep times sep beside the kind's own test (overlap, or envLeaf
// and flyLeaf for the leaves of volume trees) on the same pairs: those
// that random dives down the trees of the walk's benchmark scene visit,
// internal pairs and leaves, about a third of them disjoint.
func BenchmarkSep(b *testing.B) {
	envM := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 20000))
	flyM := gen.Must(gen.Icosphere(geom.Vec3{}, 0.1, 2000))
	pose := geom.FromAxisAngle(geom.V(1, 1, 1), 0.7, geom.V(math.Cos(0.7), math.Sin(0.7), 0.25))
	for _, o := range []Options{{K: bv.K6}, {K: bv.K18}, {K: bv.K18, Float64: true}, {Kind: OBB}, {Kind: RSS}, {Kind: Sphere}, {Kind: AABB}, {Kind: BoxTree, Leaf: 4}} {
		env, err := Build(envM, o)
		if err != nil {
			b.Fatal(err)
		}
		fly, err := Build(flyM, o)
		if err != nil {
			b.Fatal(err)
		}
		name := optName(o)
		q := QueryOptions{All: true}.request()
		s := new(Scratch)
		nf := func(_, _ int32) noFrame { return noFrame{} }
		switch e := env.impl.(type) {
		case *tree[float32, [6]float32]:
			p := e.query(env, fly, pose, q, s, nil)
			benchSep(b, name, &p, nf)
		case *tree[float32, [18]float32]:
			p := e.query(env, fly, pose, q, s, nil)
			benchSep(b, name, &p, nf)
		case *tree[float64, [18]float64]:
			p := e.query(env, fly, pose, q, s, nil)
			benchSep(b, name, &p, nf)
		case *vtree[bv.OBB]:
			p := obbQuery{newMoveQuery[bv.OBB](env, fly, pose, q, s, nil, true)}
			benchSep(b, name, &p, nf)
		case *vtree[bv.RSS]:
			p := rssQuery{newMoveQuery[bv.RSS](env, fly, pose, q, s, nil, true)}
			benchSep(b, name, &p, nf)
		case *vtree[bv.Sphere]:
			p := sphereQuery{newMoveQuery[bv.Sphere](env, fly, pose, q, s, nil, false)}
			benchSep(b, name, &p, nf)
		case *vtree[box]:
			p := aabbQuery{newMoveQuery[box](env, fly, pose, q, s, nil, false)}
			benchSep(b, name, &p, nf)
		case *boxTree:
			p := newBoxQuery(env, fly, pose, q, s, nil)
			ft := fly.impl.(*boxTree)
			benchSep(b, name, &p, func(ei, fi int32) boxFrame { return boxFrame{e.box(int(ei)), ft.box(int(fi))} })
		}
	}
}

// benchSep gathers the pairs of random dives on p and times sep and the
// kind's test on them.
func benchSep[X any, P pairOps[X]](b *testing.B, name string, p P, frame func(e, f int32) X) {
	rng := rand.New(rand.NewPCG(1, 1))
	var its []item[X]
	for range 400 {
		e, f := int32(0), int32(0)
		for {
			x := frame(e, f)
			p.ready(f)
			its = append(its, item[X]{e, f, x})
			if disjoint, _, tested := kindTest(p, e, f, &x); tested && disjoint {
				break
			}
			er := p.eref(e)
			fl, fr := p.fkids(f)
			if er < 0 && fl < 0 {
				break
			}
			if er >= 0 && (fl < 0 || rng.IntN(2) == 0) {
				l, r := p.ekids(e, er)
				e = [2]int32{l, r}[rng.IntN(2)]
			} else {
				f = [2]int32{fl, fr}[rng.IntN(2)]
			}
		}
	}
	rng.Shuffle(len(its), func(i, j int) { its[i], its[j] = its[j], its[i] })
	var sink float64
	b.Run(name+"/sep", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			it := &its[i%len(its)]
			sink += p.sep(it.e, it.f, &it.x)
			i++
		}
	})
	b.Run(name+"/test", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			it := &its[i%len(its)]
			if d, _, _ := kindTest(p, it.e, it.f, &it.x); d {
				sink++
			}
			i++
		}
	})
	_ = sink
}

// TestLowerBound checks pairOps.lowerBound for every kind and
// configuration as TestSep checks sep, at tolerance 0, on its scenes and
// on the torus and ball offset along diagonals (where a bound along one
// axis is √3 times too small) near the origin and far from it: never
// above the distance of two triangles below the pair (brute force, less
// TriTriDistance's error; zero where they touch), never below sep's; and
// Euclidean: on the well-separated pairs, at least 0.6 of their distance
// for the kinds with volumes at the leaves or nodes in one frame
// (k-DOPs, spheres, RSS).
func TestLowerBound(t *testing.T) {
	short := testing.Short() || !longtest.Exhaustive()
	scenes := sepScenes(short)
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 600))
	ball := gen.Must(gen.Icosphere(geom.V(1, 0, 0), 0.35, 320))
	rng := rand.New(rand.NewPCG(5, 6))
	diag := sepScene{name: "torus-ball-diagonal", env: torus, fly: ball, scale: 0.1}
	for _, d := range []float64{0.4, 1, 3, 1e6} {
		diag.poses = append(diag.poses, geom.Translation(geom.V(d, d, d)), geom.Translation(geom.V(-d, d, -d)),
			geom.FromAxisAngle(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), 1, geom.V(d, -d, d)))
	}
	scenes = append([]sepScene{diag}, scenes...)
	for oi, o := range sepOptions() {
		// By default a third of the k-DOP configurations (every k, both
		// storages, both leaf sizes among them), every other kind's.
		if !longtest.Enabled() && o.Kind == KDOP && oi%3 != 0 {
			continue
		}
		st := &sepStats{ratio: math.Inf(1)}
		for si, sc := range scenes {
			// By default each configuration takes the diagonal scene, the
			// torus and every fourth adversarial scene, in turn.
			if !longtest.Enabled() && si > 1 && (oi+si)%4 != 0 {
				continue
			}
			env, err := Build(sc.env, o)
			if err != nil {
				t.Fatal(err)
			}
			fly, err := Build(sc.fly, o)
			if err != nil {
				t.Fatal(err)
			}
			for pi, pose := range sc.poses {
				sepCheck(t, fmt.Sprintf("%s/%s/pose%d", optName(o), sc.name, pi), env, fly, pose, 0, rng, st, true)
			}
		}
		t.Logf("%-22s pairs %5d brute %5d disjoint %5d g>0 %5d; well separated %d, g>0 %d, least g/distance %.3f",
			optName(o), st.pairs, st.brute, st.disjoint, st.pos, st.far, st.farPos, st.ratio)
		if st.far < 25 || st.farPos < st.far {
			t.Errorf("%s: %d of %d well-separated pairs with g > 0", optName(o), st.farPos, st.far)
		}
		if (o.Kind == KDOP || o.Kind == Sphere || o.Kind == RSS) && st.ratio < 0.6 {
			t.Errorf("%s: lowerBound %.3f of the distance of a well-separated pair: not Euclidean", optName(o), st.ratio)
		}
	}
}

// TestDirGap checks dirGap, the triangles' bound of the distance search,
// against geom.TriTriDistance on random pairs of triangles of sizes from
// 1e-6 to 1 at distances from 0 to 1e3, about the origin and 1e8 from it,
// and on touching pairs (a shared vertex, a vertex on the other's plane):
// never above the distance (less its error bound), zero on contact, and
// close to it for small triangles far apart.
func TestDirGap(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	v := func(s float64) geom.Vec3 {
		return geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(s)
	}
	tight := 0
	for i := range 20000 {
		o := geom.Vec3{}
		if i%2 == 1 {
			o = v(1e8)
		}
		size := math.Pow(10, -6*rng.Float64())
		dist := math.Pow(10, 3*rng.Float64()-1) * float64(i%5) / 4
		ca, cb := o, o.Add(v(dist))
		a := geom.Triangle{ca.Add(v(size)), ca.Add(v(size)), ca.Add(v(size))}
		b := geom.Triangle{cb.Add(v(size)), cb.Add(v(size)), cb.Add(v(size))}
		switch i % 7 {
		case 5:
			b[0] = a[1] // a shared vertex
		case 6:
			b[2] = a[0].Add(a[1]).Scale(0.5) // a vertex on an edge (to rounding)
		}
		d, _, _ := geom.TriTriDistance(a, b)
		g := dirGap(&a, &b)
		if g > d+geom.TriTriDistanceBound(a, b) {
			t.Fatalf("pair %d: dirGap %g above the distance %g (a %v, b %v)", i, g, d, a, b)
		}
		if d == 0 && g > 0 {
			t.Fatalf("pair %d: dirGap %g on contact", i, g)
		}
		if d > 100*size && g > d*0.99 {
			tight++
		}
	}
	if tight < 1000 {
		t.Errorf("dirGap within 1%% of the distance of small triangles far apart only %d times", tight)
	}
}
