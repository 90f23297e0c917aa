package paper

import (
	"math/rand/v2"
	"time"

	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
)

// Costs are measured constants of the cost model T = Nv·Cv + Np·Cp + Nu·Cu
// of Klosowski et al., in nanoseconds per operation.
type Costs struct {
	Cv float64 // one bounding-volume overlap test
	Cp float64 // one exact triangle-triangle test
	Cu float64 // one flying volume re-bounded (k-DOPs) or moved (the other kinds); 0 for box-trees, which move no volume
}

// MeasureCosts times the constants of the cost model on t, with the probes
// of bvh.Tree.CostProbes and one of triangles of t's mesh against nearby
// ones at a small rotation, for about d each (nothing for trees of fewer
// than 66 nodes). The figures are
// those of a warm cache; they are the harness's counterpart of the Go
// benchmarks BenchmarkCv and BenchmarkCu of package bvh and BenchmarkCp.
func MeasureCosts(t *bvh.Tree, d time.Duration) Costs {
	var c Costs
	if t.Nodes() < 66 {
		return c
	}
	cv, cu := t.CostProbes()
	c.Cv = timeProbe(cv, d)
	if cu != nil {
		c.Cu = timeProbe(cu, d)
	}
	c.Cp = timeProbe(triProbe(t), d)
	return c
}

// timeProbe returns the time per operation of p, run in growing batches
// for about d in all.
func timeProbe(p func(n int), d time.Duration) float64 {
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

// triProbe: Cp tests triangles of t's mesh against nearby ones (by index)
// moved by bvh.CostPose.
func triProbe(t *bvh.Tree) func(n int) {
	m := t.Mesh()
	nt := m.NumTriangles()
	rng := rand.New(rand.NewPCG(5, 6))
	pose := bvh.CostPose()
	const n = 4096
	a, b := make([]geom.Triangle, n), make([]geom.Triangle, n)
	for i := range n {
		j := rng.IntN(nt)
		a[i] = m.Triangle(j)
		b[i] = pose.ApplyTriangle(m.Triangle(min(nt-1, j+rng.IntN(4))))
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
