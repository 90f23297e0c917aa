package bvh

import (
	"math/rand/v2"
	"time"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

// Costs are measured constants of the cost model T = Nv·Cv + Np·Cp + Nu·Cu
// of Klosowski et al., in nanoseconds per operation.
type Costs struct {
	Cv float64 // one bounding-volume overlap test
	Cp float64 // one exact triangle-triangle test
	Cu float64 // one flying volume re-bounded (k-DOPs) or moved (the other kinds); 0 for box-trees, which move no volume
}

// costPose is the relative pose of the cost probes: a small rotation and
// translation, so that nearby nodes overlap about half the time.
var costPose = geom.FromAxisAngle(geom.V(1, 2, 3), 0.02, geom.V(0.001, 0.002, 0.003))

// MeasureCosts times the constants of the cost model on t: t flies against
// itself at a small rotation, and each probe repeats its operation on
// nodes (or triangles) close to each other in t's layout, and so in space,
// as the pairs a query tests are, for about d each. The figures are
// those of a warm cache; they are the harness's counterpart of the Go
// benchmarks BenchmarkCv, BenchmarkCu and geom's BenchmarkTriTri.
func MeasureCosts(t *Tree, d time.Duration) Costs {
	var c Costs
	if t.impl.len() < 66 {
		return c
	}
	cv, cu := costProbes(t)
	c.Cv = timeProbe(cv, d)
	if cu != nil {
		c.Cu = timeProbe(cu, d)
	}
	c.Cp = timeProbe(triProbe(t), d)
	return c
}

// A probe runs n operations.
type probe func(n int)

// timeProbe returns the time per operation of p, run in growing batches
// for about d in all.
func timeProbe(p probe, d time.Duration) float64 {
	p(1000) // warm up
	n := 1000
	var ops int
	var spent time.Duration
	for spent < d {
		t0 := time.Now()
		p(n)
		spent += time.Since(t0)
		ops += n
		n *= 2
	}
	return float64(spent.Nanoseconds()) / float64(ops)
}

// probePairs returns n pairs of node indices (a, b) with b a little after a
// in a tree of size nodes (size > 64).
func probePairs(size int) (ia, ib []int32) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 4096
	ia, ib = make([]int32, n), make([]int32, n)
	for i := range n {
		ia[i] = int32(rng.IntN(size - 64))
		ib[i] = ia[i] + 1 + int32(rng.IntN(32))
	}
	return ia, ib
}

// costProbes returns the probes of Cv and Cu (nil for box-trees) on t.
func costProbes(t *Tree) (cv, cu probe) {
	switch tr := t.impl.(type) {
	case *tree[float32, [6]float32]:
		return dopProbes(tr, t)
	case *tree[float32, [14]float32]:
		return dopProbes(tr, t)
	case *tree[float32, [18]float32]:
		return dopProbes(tr, t)
	case *tree[float32, [26]float32]:
		return dopProbes(tr, t)
	case *tree[float64, [6]float64]:
		return dopProbes(tr, t)
	case *tree[float64, [14]float64]:
		return dopProbes(tr, t)
	case *tree[float64, [18]float64]:
		return dopProbes(tr, t)
	case *tree[float64, [26]float64]:
		return dopProbes(tr, t)
	case *rigid:
		return rigidProbes(tr, t)
	case *boxTree:
		return boxProbe(tr), nil
	}
	panic("bvh: unknown tree type")
}

// dopProbes: Cv tests stored k-DOPs of nearby nodes against each other
// (a query tests a tumbled flying k-DOP against a stored one, the same
// work); Cu tumbles random internal nodes of the flying view at a random
// rotation.
func dopProbes[F bv.Float, A bv.Slabs[F]](et *tree[F, A], t *Tree) (cv, cu probe) {
	ia, ib := probePairs(len(et.nodes))
	nodes := et.nodes
	cv = func(n int) {
		i := 0
		for range n {
			if bv.Overlap[F](&nodes[ia[i%len(ia)]].s, &nodes[ib[i%len(ia)]].s) {
				i += 2
			} else {
				i++
			}
		}
	}
	fv := t.view(t.opts.K)
	s := &scratch[F, A]{}
	s.begin(fv, len(t.mesh.Verts))
	rng := rand.New(rand.NewPCG(3, 4))
	pose := geom.FromAxisAngle(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), 1, geom.V(0.1, 0.2, 0.3))
	q := &query[F, A]{tester: tester{pose: pose}, et: et, fv: fv, sc: s}
	var internal []int32
	for i, c := range fv.kid {
		if c >= 0 {
			internal = append(internal, int32(i))
		}
	}
	if len(internal) == 0 {
		return cv, nil
	}
	cu = func(n int) {
		for i := range n {
			f := internal[i%len(internal)]
			s.stamp[f] = 0
			q.tumble(f)
		}
	}
	return cv, cu
}

// rigidProbes: Cv tests nearby nodes of t against those of t moved by
// costPose (moved beforehand: that is Cu); Cu moves nodes.
func rigidProbes(rt *rigid, t *Tree) (cv, cu probe) {
	sc := &rscratch{}
	sc.begin(rt.len(), len(t.mesh.Verts), rt.kind == OBB)
	q := &rquery{tester: tester{pose: costPose}, et: rt, ft: rt, r: costPose.R, sc: sc,
		pad: padding(costPose, 0, rt.mag, rt.mag)}
	q.absR = absMat(q.r)
	for f := range int32(rt.len()) {
		q.move(f)
	}
	ia, ib := probePairs(rt.len())
	cv = func(n int) {
		i := 0
		for range n {
			if q.disjoint(ia[i%len(ia)], ib[i%len(ia)]) {
				i += 2
			} else {
				i++
			}
		}
	}
	cu = func(n int) {
		for i := range n {
			f := int32(i % rt.len())
			sc.stamp[f] = 0
			q.move(f)
		}
	}
	return cv, cu
}

// boxProbe: Cv is the box-tree's volume test, on the boxes of nearby
// nodes of t (as 6-DOPs), the flying one moved by costPose.
func boxProbe(bt *boxTree) probe {
	q := bquery{tester: tester{pose: costPose}, r: costPose.R, pad: padding(costPose, 0, bt.mag, bt.mag)}
	q.absR = absMat(q.r)
	ia, ib := probePairs(bt.len())
	type pair struct{ ec, eh, fc, fh geom.Vec3 }
	boxes := make([]pair, len(ia))
	for i := range boxes {
		eb, fb := bt.bounds(int(ia[i])), bt.bounds(int(ib[i]))
		boxes[i] = pair{dopCenter(eb), dopHalf(eb), dopCenter(fb), dopHalf(fb)}
	}
	return func(n int) {
		i := 0
		for range n {
			b := &boxes[i%len(boxes)]
			if bv.OBBDisjoint(b.eh, b.fh, &q.r, &q.absR, q.pose.Apply(b.fc).Sub(b.ec), q.pad) {
				i += 2
			} else {
				i++
			}
		}
	}
}

// triProbe: Cp tests triangles of t's mesh against nearby ones (by index)
// moved by costPose.
func triProbe(t *Tree) probe {
	m := t.mesh
	nt := m.NumTriangles()
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 4096
	a, b := make([]geom.Triangle, n), make([]geom.Triangle, n)
	for i := range n {
		j := rng.IntN(nt)
		a[i] = m.Triangle(j)
		b[i] = costPose.ApplyTriangle(m.Triangle(min(nt-1, j+rng.IntN(4))))
	}
	return func(k int) {
		i := 0
		for range k {
			if geom.TriTri(a[i%n], b[i%n]) {
				i += 2
			} else {
				i++
			}
		}
	}
}

// dopCenter and dopHalf return the centre and half extents of a 6-DOP.
func dopCenter(d bv.DOP) geom.Vec3 {
	return geom.V(d.Lo[0]+d.Hi[0], d.Lo[1]+d.Hi[1], d.Lo[2]+d.Hi[2]).Scale(0.5)
}

func dopHalf(d bv.DOP) geom.Vec3 {
	return geom.V(d.Hi[0]-d.Lo[0], d.Hi[1]-d.Lo[1], d.Hi[2]-d.Lo[2]).Scale(0.5)
}
