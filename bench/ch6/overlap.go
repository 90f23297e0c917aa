package ch6

import (
	"math"
	"runtime"
	"time"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
)

// OverlapK is the k-DOP of the overlap-test experiment, the
// dissertation's.
const OverlapK = bv.K18

// Truncations are the m of the truncated tests: only the first m slabs
// (thinnest first) are tested.
var Truncations = []int{1, 2, 3, 5}

// TruncationCap stops a truncated test's replay once it has made that many
// times the original test's overlap calls over the whole flight (the
// first slab alone lets billions of pairs through on the full Pipes
// scene): its row then says so, its time a lower bound.
const TruncationCap = 50

// Overlap is the overlap-test experiment on one scene: a row per way of
// testing.
type Overlap struct {
	Tau  int // the flying leaf threshold
	Rows []OverlapRow
}

// OverlapRow counts one way of testing the k-DOPs over a replay of the
// flight: Algorithm 1, all pairs, the flying nodes tumbled by their
// k-DOPs' vertices.
type OverlapRow struct {
	// Name is "original" (the slabs in the tree's order: axes, then
	// diagonals), "ordered" (thinnest slab of the environment node first)
	// or "first m" (ordered, the first m slabs only).
	Name string
	M    int // slabs tested at most
	// Calls are the overlap tests, Overlaps those that said overlap.
	Calls, Overlaps int64
	// Comparisons are the floating-point comparisons of all calls, and
	// MissComparisons those of the calls that found the k-DOPs disjoint.
	Comparisons, MissComparisons int64
	TriTests                     int64
	Time                         time.Duration // the replay's, least of the rounds
	// Differ counts the poses whose pairs differ from the flight's.
	Differ int
	// Poses is the poses replayed: all of the flight's, or fewer when the
	// replay was stopped at TruncationCap (Capped).
	Poses  int
	Capped bool
}

// replayTree is a tree laid out for the replay: per node its k-DOP, its
// children (-1 for a leaf) and a leaf's triangles.
type replayTree struct {
	lo, hi      [][bv.MaxSlabs]float64
	left, right []int32
	tris        [][]int32
	// order is, per node, its slabs thinnest first (environment).
	order [][bv.MaxSlabs]uint8
	// pts are, per node, the vertices of its k-DOP (flying).
	pts [][]geom.Vec3
}

// envReplay lays t out, each node's slabs ordered by thickness (the width
// along the direction, divided by its length).
func envReplay(t *bvh.Tree) *replayTree {
	n := t.Nodes()
	r := &replayTree{lo: make([][bv.MaxSlabs]float64, n), hi: make([][bv.MaxSlabs]float64, n),
		left: make([]int32, n), right: make([]int32, n), tris: make([][]int32, n), order: make([][bv.MaxSlabs]uint8, n)}
	k := t.K()
	for i := range n {
		d, l, rr, tris := t.Node(i, nil)
		r.lo[i], r.hi[i] = d.Lo, d.Hi
		r.left[i], r.right[i], r.tris[i] = int32(l), int32(rr), tris
		var w [bv.MaxSlabs]float64
		for s := range k.Slabs() {
			w[s] = (d.Hi[s] - d.Lo[s]) / k.Norm(s)
			r.order[i][s] = uint8(s)
		}
		o := r.order[i][:k.Slabs()]
		for a := 1; a < len(o); a++ {
			for b := a; b > 0 && w[o[b]] < w[o[b-1]]; b-- {
				o[b], o[b-1] = o[b-1], o[b]
			}
		}
	}
	return r
}

// flyReplay lays t out as it flies: its subtrees of at most tau triangles
// are leaves.
func flyReplay(t *bvh.Tree, tau int) *replayTree {
	r := &replayTree{}
	var add func(i int) (int32, []int32)
	add = func(i int) (int32, []int32) {
		d, l, rr, tris := t.Node(i, nil)
		at := int32(len(r.left))
		r.lo = append(r.lo, d.Lo)
		r.hi = append(r.hi, d.Hi)
		r.left = append(r.left, -1)
		r.right = append(r.right, -1)
		r.tris = append(r.tris, nil)
		r.pts = append(r.pts, d.Vertices(nil))
		if l < 0 {
			r.tris[at] = tris
			return at, tris
		}
		li, lt := add(l)
		ri, rt := add(rr)
		all := append(append([]int32(nil), lt...), rt...)
		if len(all) <= tau {
			// A leaf of the flying tree: drop the subtree laid out below.
			r.lo, r.hi, r.left, r.right, r.tris, r.pts = r.lo[:at+1], r.hi[:at+1], r.left[:at+1], r.right[:at+1], r.tris[:at+1], r.pts[:at+1]
			r.tris[at] = all
			return at, all
		}
		r.left[at], r.right[at] = li, ri
		return at, all
	}
	if t.Nodes() > 0 {
		add(0)
	}
	return r
}

// overlapReplay is one replay's state.
type overlapReplay struct {
	env, fly *replayTree
	k        bv.K
	ns       int
	envTris  []geom.Triangle
	flyTris  []geom.Triangle
	mag      float64
	// The flying k-DOPs at the current pose.
	flo, fhi [][bv.MaxSlabs]float64
	stamp    []int
	cur      int
	pose     geom.Pose
	row      *OverlapRow
	mode     int // 0 original, 1 ordered; m slabs at most
	m        int
	stack    [][2]int32
	ps       pairSum
}

// tumble bounds flying node f at the pose: the k-DOP of its k-DOP's
// vertices, moved, padded well beyond the rounding.
func (q *overlapReplay) tumble(f int32) {
	if q.stamp[f] == q.cur {
		return
	}
	q.stamp[f] = q.cur
	pts := q.fly.pts[f]
	d := bv.Empty(q.k)
	var pr [bv.MaxSlabs]float64
	for _, v := range pts {
		q.k.Project(q.pose.Apply(v), &pr)
		for s := range q.ns {
			d.Lo[s] = min(d.Lo[s], pr[s])
			d.Hi[s] = max(d.Hi[s], pr[s])
		}
	}
	t := q.pose.T
	pad := 0x1p-30 * (q.mag + math.Abs(t.X) + math.Abs(t.Y) + math.Abs(t.Z))
	for s := range q.ns {
		q.flo[f][s], q.fhi[f][s] = d.Lo[s]-pad, d.Hi[s]+pad
	}
}

// overlap tests environment node e against flying node f the row's way,
// counting.
func (q *overlapReplay) overlap(e, f int32) bool {
	r := q.row
	r.Calls++
	a, b := &q.env.lo[e], &q.env.hi[e]
	c, d := &q.flo[f], &q.fhi[f]
	n := int64(0)
	if q.mode == 0 {
		for s := range q.ns {
			n++
			if a[s] > d[s] {
				r.Comparisons += n
				r.MissComparisons += n
				return false
			}
			n++
			if c[s] > b[s] {
				r.Comparisons += n
				r.MissComparisons += n
				return false
			}
		}
	} else {
		o := &q.env.order[e]
		for j := range q.m {
			s := o[j]
			n++
			if a[s] > d[s] {
				r.Comparisons += n
				r.MissComparisons += n
				return false
			}
			n++
			if c[s] > b[s] {
				r.Comparisons += n
				r.MissComparisons += n
				return false
			}
		}
	}
	r.Comparisons += n
	r.Overlaps++
	return true
}

// query runs Algorithm 1 at pose p, all pairs.
func (q *overlapReplay) query(p geom.Pose) {
	q.cur++
	q.pose = p
	q.ps = pairSum{}
	q.tumble(0)
	q.stack = append(q.stack[:0], [2]int32{0, 0})
	for len(q.stack) > 0 {
		top := q.stack[len(q.stack)-1]
		q.stack = q.stack[:len(q.stack)-1]
		e, f := top[0], top[1]
		if !q.overlap(e, f) {
			continue
		}
		switch {
		case q.env.left[e] >= 0:
			q.stack = append(q.stack, [2]int32{q.env.right[e], f}, [2]int32{q.env.left[e], f})
		case q.fly.left[f] >= 0:
			l, r := q.fly.left[f], q.fly.right[f]
			q.tumble(l)
			q.tumble(r)
			q.stack = append(q.stack, [2]int32{e, r}, [2]int32{e, l})
		default:
			for _, et := range q.env.tris[e] {
				for _, ft := range q.fly.tris[f] {
					q.row.TriTests++
					if geom.TriTri(q.envTris[et], p.ApplyTriangle(q.flyTris[ft])) {
						q.ps.add(et, ft)
					}
				}
			}
		}
	}
}

// overlapTests replays f with 18-DOP trees and each way of testing the
// k-DOPs, rounds times taking turns, keeping each way's fastest time.
func overlapTests(f *flight, rounds int) (*Overlap, error) {
	envT, err := bvh.Build(f.sc.Env, bvh.Options{K: OverlapK})
	if err != nil {
		return nil, err
	}
	flyT, err := bvh.Build(f.sc.Fly, bvh.Options{K: OverlapK})
	if err != nil {
		return nil, err
	}
	tau := flyT.FlyLeaf()
	env, fly := envReplay(envT), flyReplay(flyT, tau)
	q := &overlapReplay{env: env, fly: fly, k: OverlapK, ns: OverlapK.Slabs(),
		flo: make([][bv.MaxSlabs]float64, len(fly.left)), fhi: make([][bv.MaxSlabs]float64, len(fly.left)),
		stamp: make([]int, len(fly.left))}
	for i := range f.sc.Env.Tris {
		q.envTris = append(q.envTris, f.sc.Env.Triangle(i))
	}
	for i := range f.sc.Fly.Tris {
		q.flyTris = append(q.flyTris, f.sc.Fly.Triangle(i))
	}
	for _, v := range f.sc.Fly.Verts {
		q.mag = max(q.mag, math.Abs(v.X), math.Abs(v.Y), math.Abs(v.Z))
	}
	o := &Overlap{Tau: tau}
	o.Rows = append(o.Rows, OverlapRow{Name: "original", M: q.ns}, OverlapRow{Name: "ordered", M: q.ns})
	for _, m := range Truncations {
		if m < q.ns {
			o.Rows = append(o.Rows, OverlapRow{Name: "first " + string(rune('0'+m)), M: m})
		}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for round := range rounds {
		for i := range o.Rows {
			if round > 0 && o.Rows[i].Capped {
				continue // a lower bound already, and a long one
			}
			row := OverlapRow{Name: o.Rows[i].Name, M: o.Rows[i].M}
			q.row = &row
			q.mode, q.m = min(i, 1), row.M
			t0 := clock()
			for pi, p := range f.poses {
				q.query(p)
				if q.ps != f.sums[pi] {
					row.Differ++
				}
				row.Poses++
				if i >= 2 && row.Calls > TruncationCap*o.Rows[0].Calls && pi+1 < len(f.poses) {
					row.Capped = true
					break
				}
			}
			row.Time = clock() - t0
			if round == 0 || row.Time < o.Rows[i].Time {
				o.Rows[i] = row
			}
		}
	}
	return o, nil
}
