package depth

import (
	"math"
	"slices"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
)

// A point p inside both solids certifies PD ≥ dist(p, ∂env) + dist(p, ∂fly):
// the open balls of those radii around p lie inside the solids, and a
// translation shorter than the sum leaves the moved ball overlapping the
// fixed one (see the package doc). lower maximises that sum by sampling
// and hill climbing.

type probe struct {
	p, cA, cB geom.Vec3
	dA, dB    float64
}

func (pr probe) f() float64 { return pr.dA + pr.dB }

// maxSeedVerts bounds the vertices of each mesh tried as seeds.
const maxSeedVerts = 2000

// lower returns a certified lower bound on PD (0 if no point inside both
// solids was found), its witness, and directions worth trying for Upper.
func (q *query) lower() (float64, geom.Vec3, []geom.Vec3) {
	sA, sB := q.sA, q.flySolid()
	box := sA.box.Intersection(sB.box)
	if box.IsEmpty() {
		return 0, geom.Vec3{}, nil
	}
	eps := 1e-7 * q.diag
	inside := func(p geom.Vec3) bool {
		if !q.step() {
			return false
		}
		q.st.Points++
		if !sA.Contains(p) {
			return false
		}
		if !q.step() {
			return false
		}
		q.st.Points++
		return sB.Contains(p)
	}
	eval := func(p geom.Vec3) probe {
		dA, cA := sA.Distance(p)
		dB, cB := sB.Distance(p)
		return probe{p: p, cA: cA, cB: cB, dA: dA, dB: dB}
	}
	var cands []probe
	add := func(p geom.Vec3) {
		if p.IsFinite() && inside(p) {
			cands = append(cands, eval(p))
		}
	}
	// Seeds: a grid over the overlap of the boxes.
	n := q.o.Samples
	sz := box.Size()
	for i := 0; i < n && !q.stopped; i++ {
		for j := 0; j < n; j++ {
			for k := 0; k < n; k++ {
				add(geom.V(box.Min.X+sz.X*(float64(i)+0.5)/float64(n),
					box.Min.Y+sz.Y*(float64(j)+0.5)/float64(n),
					box.Min.Z+sz.Z*(float64(k)+0.5)/float64(n)))
			}
		}
	}
	// Seeds: vertices of one surface inside the other solid, pushed a
	// little into their own solid.
	vertexSeeds := func(pts []geom.Vec3, tris [][3]int32, other *Solid) {
		nrm := vertexNormals(pts, tris)
		stride := max(1, len(pts)/maxSeedVerts)
		for i := 0; i < len(pts); i += stride {
			p := pts[i]
			if !box.Contains(p) {
				continue
			}
			if !q.step() {
				return
			}
			q.st.Points++
			if !other.Contains(p) {
				continue
			}
			add(p.Sub(nrm[i].Scale(eps)))
		}
	}
	vertexSeeds(q.bPts0, q.tb.tris, sA)
	vertexSeeds(q.aPts, q.ta.tris, sB)
	// Seeds: points of the intersection of the surfaces, pushed into both.
	var hints []geom.Vec3
	if !q.step() {
		// Stopped: the points found so far.
	} else if r, err := q.contact(q.pose, collide.QueryOptions{All: true, MaxPairs: 256}); err == nil {
		for _, pr := range r.Pairs {
			ta, tb := sA.tris[pr.Env], sB.tris[pr.Fly]
			_, pa, _ := geom.TriTriDistance(ta, tb)
			na, nb := ta.Normal().Unit(), tb.Normal().Unit()
			add(pa.Sub(na.Add(nb).Unit().Scale(eps)))
			if len(hints) < 32 {
				hints = append(hints, na, nb.Neg())
			}
		}
	}
	if len(cands) == 0 {
		return 0, geom.Vec3{}, hints
	}
	slices.SortFunc(cands, func(x, y probe) int {
		if x.f() > y.f() {
			return -1
		}
		if x.f() < y.f() {
			return 1
		}
		return 0
	})
	best := cands[0]
	for _, c := range cands[:min(8, len(cands))] {
		if q.stopped {
			break
		}
		c = q.climb(c, inside, eval)
		if c.f() > best.f() {
			best = c
		}
	}
	hints = append([]geom.Vec3{best.cA.Sub(best.p), best.p.Sub(best.cB)}, hints...)
	lo := best.dA + best.dB - 2*q.margin()
	if !(lo > 0) {
		return 0, geom.Vec3{}, hints
	}
	return lo, best.p, hints
}

// climb ascends dA + dB from c, keeping inside both solids.
func (q *query) climb(c probe, inside func(geom.Vec3) bool, eval func(geom.Vec3) probe) probe {
	step := c.f() / 2
	for it := 0; it < q.o.Climb && step > 1e-9*q.diag && !q.stopped; it++ {
		var g geom.Vec3
		if c.dA > 0 {
			g = g.Add(c.p.Sub(c.cA).Scale(1 / c.dA))
		}
		if c.dB > 0 {
			g = g.Add(c.p.Sub(c.cB).Scale(1 / c.dB))
		}
		l := g.Norm()
		if !(l > 1e-9) {
			break
		}
		p := c.p.Add(g.Scale(step / l))
		if inside(p) {
			if n := eval(p); n.f() > c.f() {
				c = n
				step *= 1.5
				continue
			}
		}
		step /= 2
	}
	return c
}

// vertexNormals returns the area-weighted outward normal of each vertex,
// unit (zero where undefined).
func vertexNormals(pts []geom.Vec3, tris [][3]int32) []geom.Vec3 {
	nrm := make([]geom.Vec3, len(pts))
	for _, t := range tris {
		n := pts[t[1]].Sub(pts[t[0]]).Cross(pts[t[2]].Sub(pts[t[0]]))
		for _, v := range t {
			nrm[v] = nrm[v].Add(n)
		}
	}
	for i, n := range nrm {
		if l := n.Norm(); l > 0 && !math.IsInf(l, 0) {
			nrm[i] = n.Scale(1 / l)
		} else {
			nrm[i] = geom.Vec3{}
		}
	}
	return nrm
}
