package oracle

import (
	"cmp"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// Sweep returns every pair (i, j), triangle i of env and triangle j of fly
// with fly placed at pose (pose.ApplyTriangle, in float64), that is in
// contact (geom.TriTri, when eps == 0) or within distance eps
// (geom.TriTriWithin, when eps > 0), in ascending order: the pairs that
// testing every pair finds, but it skips pairs whose axis-aligned boxes are
// disjoint, found by sorting the boxes of both models on their lower x
// bound and sweeping along x (sweep and prune).
//
// It is kept independent of the library's bounding-volume code (packages
// bv and bvh): each triangle's box is its exact coordinate range
// (geom.Triangle.Bounds), boxes are closed (boxes that only touch, and the
// flat boxes of degenerate triangles, overlap), and every pair whose boxes
// overlap on all three axes is decided by the exact triangle test.
//
// The filter drops no pair that testing every pair would report. With
// eps ≤ 0 (or NaN) the boxes are not grown: TriTri itself rejects every
// pair whose exact boxes are disjoint. With eps > 0 each box is grown on
// every side by eps/2·(1+1e-9) plus 2⁻³⁰ times its largest coordinate
// magnitude plus 2⁻¹⁰⁰⁰, so that two boxes overlap whenever their gap is at
// most eps plus far more than the rounding of the grown bounds and the
// floating-point error (a few ulps of the coordinates) of the distance that
// TriTriWithin compares with eps. A triangle with a NaN or infinite
// coordinate gets the box of all space and is tested against every
// triangle of the other model.
//
// The sweep runs on up to four goroutines (at most GOMAXPROCS) for big
// models.
func Sweep(env, fly *mesh.TriMesh, pose geom.Pose, eps float64) [][2]int32 {
	workers := 1
	if env.NumTriangles()+fly.NumTriangles() >= 4096 {
		workers = min(runtime.GOMAXPROCS(0), 4)
	}
	return sweep(env, fly, pose, eps, workers)
}

// sweepBox is the (grown) box of triangle idx of one model.
type sweepBox struct {
	box geom.AABB
	idx int32
}

// sweepBoxes returns the boxes of tris grown by eps/2 with the safety
// margins of Sweep (not grown when eps ≤ 0), sorted by Min.X then
// index.
func sweepBoxes(tris []geom.Triangle, eps float64) []sweepBox {
	all := geom.AABB{
		Min: geom.Vec3{X: math.Inf(-1), Y: math.Inf(-1), Z: math.Inf(-1)},
		Max: geom.Vec3{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)},
	}
	bs := make([]sweepBox, len(tris))
	for i, t := range tris {
		b := all
		if t.IsFinite() {
			b = t.Bounds()
			if eps > 0 {
				a := b.Min.Abs().Max(b.Max.Abs())
				m := max(a.X, a.Y, a.Z) // largest coordinate magnitude
				b = b.Expanded(eps/2*(1+1e-9) + 0x1p-30*m + 0x1p-1000)
			}
		}
		bs[i] = sweepBox{box: b, idx: int32(i)}
	}
	slices.SortFunc(bs, func(a, b sweepBox) int {
		return cmp.Or(cmp.Compare(a.box.Min.X, b.box.Min.X), cmp.Compare(a.idx, b.idx))
	})
	return bs
}

// overlapYZ reports whether the closed boxes a and b overlap on y and z.
func overlapYZ(a, b *geom.AABB) bool {
	return a.Min.Y <= b.Max.Y && b.Min.Y <= a.Max.Y &&
		a.Min.Z <= b.Max.Z && b.Min.Z <= a.Max.Z
}

// sweep is Sweep on the given number of goroutines (at least 1).
func sweep(env, fly *mesh.TriMesh, pose geom.Pose, eps float64, workers int) [][2]int32 {
	et := make([]geom.Triangle, env.NumTriangles())
	for i := range et {
		et[i] = env.Triangle(i)
	}
	ft := make([]geom.Triangle, fly.NumTriangles())
	for j := range ft {
		ft[j] = pose.ApplyTriangle(fly.Triangle(j))
	}
	if len(et) == 0 || len(ft) == 0 {
		return nil
	}
	eb, fb := sweepBoxes(et, eps), sweepBoxes(ft, eps)

	test := func(i, j int32, out [][2]int32) [][2]int32 {
		var hit bool
		if eps == 0 {
			hit = geom.TriTri(et[i], ft[j])
		} else {
			hit = geom.TriTriWithin(et[i], ft[j], eps)
		}
		if hit {
			out = append(out, [2]int32{i, j})
		}
		return out
	}

	// Two closed x intervals overlap iff the lower bound of one lies in the
	// other. Each overlapping pair is found exactly once: from its env box
	// when fly's lower bound is ≥ env's, from its fly box when it is <.
	fromEnv := func(lo, hi int, out [][2]int32) [][2]int32 {
		for _, e := range eb[lo:hi] {
			k := sort.Search(len(fb), func(k int) bool { return fb[k].box.Min.X >= e.box.Min.X })
			for ; k < len(fb) && fb[k].box.Min.X <= e.box.Max.X; k++ {
				if overlapYZ(&e.box, &fb[k].box) {
					out = test(e.idx, fb[k].idx, out)
				}
			}
		}
		return out
	}
	fromFly := func(lo, hi int, out [][2]int32) [][2]int32 {
		for _, f := range fb[lo:hi] {
			k := sort.Search(len(eb), func(k int) bool { return eb[k].box.Min.X > f.box.Min.X })
			for ; k < len(eb) && eb[k].box.Min.X <= f.box.Max.X; k++ {
				if overlapYZ(&f.box, &eb[k].box) {
					out = test(eb[k].idx, f.idx, out)
				}
			}
		}
		return out
	}

	workers = max(1, min(workers, len(eb)+len(fb)))
	parts := make([][][2]int32, workers)
	if workers == 1 {
		parts[0] = fromFly(0, len(fb), fromEnv(0, len(eb), nil))
	} else {
		// Worker w sweeps the w-th share of each sorted list.
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				out := fromEnv(w*len(eb)/workers, (w+1)*len(eb)/workers, nil)
				parts[w] = fromFly(w*len(fb)/workers, (w+1)*len(fb)/workers, out)
			})
		}
		wg.Wait()
	}
	out := slices.Concat(parts...)
	if len(out) == 0 {
		return nil
	}
	slices.SortFunc(out, func(a, b [2]int32) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	})
	return out
}
