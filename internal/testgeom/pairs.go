package testgeom

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/collide3d/collide/geom"
)

// PairKind names a family of generated triangle pairs (see Pair).
type PairKind int

// The pair kinds. Every kind mixes contact and no contact unless noted; the
// constructions that build an exact contact use integer or dyadic
// coordinates, so the contact survives in float64.
const (
	// KindRandom: two random triangles (vertices within ±0.5 of a centre
	// near the middle of the unit cube); generic positions, about 30% in
	// contact.
	KindRandom PairKind = iota
	// KindLattice: vertices on the integer lattice [-1,1]³ or [-2,2]³: many
	// coplanar, touching, collinear, degenerate and identical pairs.
	KindLattice
	// KindSharedVertex: the triangles share a vertex (always in contact).
	KindSharedVertex
	// KindSharedEdge: the triangles share an edge (always in contact), the
	// third vertex of b sometimes in the plane of a.
	KindSharedEdge
	// KindVertexOnEdge: a vertex of b lies exactly on an edge of a (always in
	// contact).
	KindVertexOnEdge
	// KindVertexOnFace: a vertex of b lies exactly on a (inside, on an edge
	// or on a vertex; always in contact), the rest of b on one side of a,
	// across it, or in its plane.
	KindVertexOnFace
	// KindEdgeCrossEdge: an edge of b crosses an edge of a at one point
	// (always in contact).
	KindEdgeCrossEdge
	// KindCoplanarOverlap: both triangles in one plane, with small integer
	// coordinates in that plane: overlap, containment, touching, disjoint.
	KindCoplanarOverlap
	// KindCoplanarTouch: both triangles in one plane, touching at a vertex,
	// at a point of an edge or along collinear edges, or separated by a
	// small gap along collinear edges.
	KindCoplanarTouch
	// KindDegenerate: at least one triangle is a segment (collinear or
	// repeated vertices) or a point, against a triangle or another
	// degenerate one, on a lattice or exactly on the other triangle.
	KindDegenerate
	// KindNearMiss: an exact single-point contact (vertex on face, edge or
	// vertex, or edges crossing, coplanar touches), then one coordinate moved
	// by one ulp toward or away, which flips the answer in most cases.
	KindNearMiss
	// KindFar: the lattice and contact constructions (some pre-scaled by a
	// power of two) offset by about 1e6 (which may round), sometimes
	// followed by a one-ulp move.
	KindFar
	// KindTiny: the same constructions scaled by 1e-7 (which rounds),
	// sometimes followed by a one-ulp move.
	KindTiny
	// KindExtreme: the same constructions scaled by a power of two near
	// either end of the float64 range (2^±900 to 2^±960; exact unless a
	// coordinate becomes subnormal), where products overflow or underflow
	// and exact predicates must take their slow paths.
	KindExtreme
	// KindSliver: a sliver (three collinear points, one of them then moved
	// by one ulp, so that the computed normal is mostly rounding noise)
	// against a point, a segment or a triangle on, across or beside its line,
	// or against another sliver.
	KindSliver
	numPairKinds
)

var pairKindNames = [...]string{
	KindRandom:          "random",
	KindLattice:         "lattice",
	KindSharedVertex:    "shared-vertex",
	KindSharedEdge:      "shared-edge",
	KindVertexOnEdge:    "vertex-on-edge",
	KindVertexOnFace:    "vertex-on-face",
	KindEdgeCrossEdge:   "edge-cross-edge",
	KindCoplanarOverlap: "coplanar-overlap",
	KindCoplanarTouch:   "coplanar-touch",
	KindDegenerate:      "degenerate",
	KindNearMiss:        "near-miss",
	KindFar:             "far",
	KindTiny:            "tiny",
	KindExtreme:         "extreme",
	KindSliver:          "sliver",
}

// String returns the name of k, such as "near-miss".
func (k PairKind) String() string {
	if k >= 0 && k < numPairKinds {
		return pairKindNames[k]
	}
	return fmt.Sprintf("PairKind(%d)", int(k))
}

// AllPairKinds returns every PairKind, in order.
func AllPairKinds() []PairKind {
	ks := make([]PairKind, numPairKinds)
	for i := range ks {
		ks[i] = PairKind(i)
	}
	return ks
}

// Pair returns a triangle pair of the given kind, drawn from rng only (so a
// seeded rng reproduces it). The vertex order of both triangles and the
// order of the pair are randomised. It panics on an unknown kind.
func Pair(kind PairKind, rng *rand.Rand) (a, b geom.Triangle) {
	switch kind {
	case KindRandom:
		a, b = randomPair(rng)
	case KindLattice:
		a, b = latticePair(rng)
	case KindSharedVertex:
		a, b = sharedVertexPair(rng)
	case KindSharedEdge:
		a, b = sharedEdgePair(rng)
	case KindVertexOnEdge:
		a, b = vertexOnEdgePair(rng)
	case KindVertexOnFace:
		a, b = vertexOnFacePair(rng)
	case KindEdgeCrossEdge:
		a, b = edgeCrossEdgePair(rng)
	case KindCoplanarOverlap:
		a, b = coplanarOverlapPair(rng)
	case KindCoplanarTouch:
		a, b = coplanarTouchPair(rng)
	case KindDegenerate:
		a, b = degeneratePair(rng)
	case KindSliver:
		a, b = sliverPair(rng)
	case KindNearMiss:
		a, b = nearMissPair(rng)
	case KindFar:
		a, b = farPair(rng)
	case KindTiny:
		a, b = tinyPair(rng)
	case KindExtreme:
		a, b = extremePair(rng)
	default:
		panic("testgeom: unknown PairKind " + kind.String())
	}
	a, b = Permute(a, rng.IntN(6)), Permute(b, rng.IntN(6))
	if rng.IntN(2) == 0 {
		a, b = b, a
	}
	return a, b
}

// RandomPair returns two random triangles in general position around the
// centre of the unit cube, about 30% of them in contact (KindRandom).
func RandomPair(rng *rand.Rand) (a, b geom.Triangle) { return Pair(KindRandom, rng) }

// Permute returns t with its vertices reordered by permutation p mod 6:
// 0, 1, 2 are the cyclic shifts, 3, 4, 5 the cyclic shifts of the reversal.
func Permute(t geom.Triangle, p int) geom.Triangle {
	p = ((p % 6) + 6) % 6
	if p >= 3 {
		t = geom.Triangle{t[0], t[2], t[1]}
		p -= 3
	}
	return geom.Triangle{t[p], t[(p+1)%3], t[(p+2)%3]}
}

// ---- small helpers ----

func uniform(rng *rand.Rand, lo, hi float64) float64 { return lo + (hi-lo)*rng.Float64() }

func latInt(rng *rand.Rand, r int) float64 { return float64(rng.IntN(2*r+1) - r) }

func latPoint(rng *rand.Rand, r int) geom.Vec3 {
	return geom.Vec3{X: latInt(rng, r), Y: latInt(rng, r), Z: latInt(rng, r)}
}

func latTri(rng *rand.Rand, r int) geom.Triangle {
	return geom.Triangle{latPoint(rng, r), latPoint(rng, r), latPoint(rng, r)}
}

// intRange returns a random coordinate range for integer constructions:
// small (many coincidences), medium, or 2²⁰ (large enough that float
// filters see nearly degenerate configurations, small enough that every
// construction below stays exact).
func intRange(rng *rand.Rand) int {
	return [...]int{4, 64, 1 << 20}[rng.IntN(3)]
}

// exactNormal returns (t1-t0)×(t2-t0), exact for integer coordinates of
// magnitude at most 2²⁰.
func exactNormal(t geom.Triangle) geom.Vec3 { return t.Normal() }

// properIntTri returns a non-degenerate triangle with integer coordinates in
// [-r, r].
func properIntTri(rng *rand.Rand, r int) geom.Triangle {
	for {
		t := latTri(rng, r)
		if exactNormal(t) != (geom.Vec3{}) {
			return t
		}
	}
}

func randVec(rng *rand.Rand, lo, hi float64) geom.Vec3 {
	return geom.Vec3{X: uniform(rng, lo, hi), Y: uniform(rng, lo, hi), Z: uniform(rng, lo, hi)}
}

// dyadic returns a random m/2^q with m in [0, 2^q]: an exact dyadic in [0,1].
func dyadic(rng *rand.Rand, q int) float64 {
	return float64(rng.IntN(1<<q+1)) / float64(int(1)<<q)
}

// pointOnEdge returns t[i] + s·(t[j]-t[i]) for a random dyadic s ∈ [0,1]
// with at most 16 fraction bits; exact for integer coordinates up to 2²⁰.
func pointOnEdge(rng *rand.Rand, t geom.Triangle, i, j int) geom.Vec3 {
	q := 1 + rng.IntN(16)
	s := dyadic(rng, q)
	d := t[j].Sub(t[i])
	return t[i].Add(d.Scale(s))
}

// pointOnFace returns Σ w_i t_i for random dyadic weights w_i ≥ 0 summing to
// 1 (16 fraction bits at most); interior forces every weight > 0. Exact for
// integer coordinates up to 2²⁰.
func pointOnFace(rng *rand.Rand, t geom.Triangle, interior bool) geom.Vec3 {
	q := 2 + rng.IntN(15)
	n := 1 << q
	var i, j int
	for {
		i, j = rng.IntN(n+1), rng.IntN(n+1)
		k := n - i - j
		if k < 0 {
			continue
		}
		if interior && (i == 0 || j == 0 || k == 0) {
			continue
		}
		break
	}
	k := n - i - j
	sc := 1 / float64(n)
	// Integer sums first (exact below 2⁵³), then one exact division by 2^q.
	x := float64(i)*t[0].X + float64(j)*t[1].X + float64(k)*t[2].X
	y := float64(i)*t[0].Y + float64(j)*t[1].Y + float64(k)*t[2].Y
	z := float64(i)*t[0].Z + float64(j)*t[1].Z + float64(k)*t[2].Z
	return geom.Vec3{X: x * sc, Y: y * sc, Z: z * sc}
}

// sideVec returns a random integer vector w in [-r,r]³ with sign(w·n) = side
// (side ∈ {-1, 0, +1}); for side 0 it returns a combination of e1, e2 (in
// the plane). n must be exact and non-zero.
func sideVec(rng *rand.Rand, r int, n, e1, e2 geom.Vec3, side int) geom.Vec3 {
	if side == 0 {
		for {
			s, t := latInt(rng, 3), latInt(rng, 3)
			w := e1.Scale(s).Add(e2.Scale(t))
			if w != (geom.Vec3{}) {
				return w
			}
		}
	}
	for {
		w := latPoint(rng, r)
		d := w.Dot(n) // exact: |w|,|n| small enough
		if (d > 0 && side > 0) || (d < 0 && side < 0) {
			return w
		}
	}
}

// nudge returns the float64 next to x, up or down.
func nudge(x float64, up bool) float64 {
	if up {
		return math.Nextafter(x, math.Inf(1))
	}
	return math.Nextafter(x, math.Inf(-1))
}

// nudgeVertex moves one random coordinate of vertex i of t by one ulp.
func nudgeVertex(rng *rand.Rand, t geom.Triangle, i int) geom.Triangle {
	up := rng.IntN(2) == 0
	switch rng.IntN(3) {
	case 0:
		t[i].X = nudge(t[i].X, up)
	case 1:
		t[i].Y = nudge(t[i].Y, up)
	default:
		t[i].Z = nudge(t[i].Z, up)
	}
	return t
}

func scaleTri(t geom.Triangle, s float64) geom.Triangle {
	return geom.Triangle{t[0].Scale(s), t[1].Scale(s), t[2].Scale(s)}
}

func offsetTri(t geom.Triangle, o geom.Vec3) geom.Triangle {
	return geom.Triangle{t[0].Add(o), t[1].Add(o), t[2].Add(o)}
}

// ---- the kinds ----

func randomPair(rng *rand.Rand) (a, b geom.Triangle) {
	for _, t := range []*geom.Triangle{&a, &b} {
		c := randVec(rng, 0.4, 0.6)
		for i := range 3 {
			t[i] = c.Add(randVec(rng, -0.5, 0.5))
		}
	}
	return a, b
}

func latticePair(rng *rand.Rand) (a, b geom.Triangle) {
	r := 1 + rng.IntN(2)
	a = latTri(rng, r)
	switch rng.IntN(16) {
	case 0: // identical, in some vertex order
		return a, Permute(a, rng.IntN(6))
	case 1: // one shared vertex
		b = latTri(rng, r)
		b[rng.IntN(3)] = a[rng.IntN(3)]
		return a, b
	case 2: // two shared vertices
		b = latTri(rng, r)
		i := rng.IntN(3)
		b[0], b[1] = a[i], a[(i+1)%3]
		return a, b
	}
	return a, latTri(rng, r)
}

func sharedVertexPair(rng *rand.Rand) (a, b geom.Triangle) {
	if rng.IntN(2) == 0 {
		// Arbitrary floats: the shared vertex needs no special coordinates.
		c := randVec(rng, -1, 1)
		for i := range 3 {
			a[i] = c.Add(randVec(rng, -1, 1))
			b[i] = c.Add(randVec(rng, -1, 1))
		}
		b[0] = a[rng.IntN(3)]
		return a, b
	}
	r := intRange(rng)
	a = latTri(rng, r)
	b = latTri(rng, r)
	b[0] = a[rng.IntN(3)]
	return a, b
}

func sharedEdgePair(rng *rand.Rand) (a, b geom.Triangle) {
	r := intRange(rng)
	a = properIntTri(rng, r)
	i := rng.IntN(3)
	j, k := (i+1)%3, (i+2)%3
	b[0], b[1] = a[i], a[j]
	switch rng.IntN(3) {
	case 0: // anywhere
		b[2] = latPoint(rng, r)
	case 1: // in the plane of a, small integer combination of its edges
		s, t := latInt(rng, 2), latInt(rng, 2)
		b[2] = a[i].Add(a[j].Sub(a[i]).Scale(s)).Add(a[k].Sub(a[i]).Scale(t))
	default: // arbitrary floats
		c := a[i]
		b[2] = c.Add(randVec(rng, -float64(r), float64(r)))
	}
	return a, b
}

// pointContact returns b = (P, P+w1, P+w2) with the rest of b on one side
// of the plane of a (side ±1), across it (side 2), or in it (side 0).
func pointContact(rng *rand.Rand, a geom.Triangle, p geom.Vec3) geom.Triangle {
	n := exactNormal(a)
	e1, e2 := a[1].Sub(a[0]), a[2].Sub(a[0])
	const r = 8
	side := rng.IntN(4) - 1
	switch side {
	case 2:
		s := 1 - 2*rng.IntN(2)
		return geom.Triangle{p, p.Add(sideVec(rng, r, n, e1, e2, s)), p.Add(sideVec(rng, r, n, e1, e2, -s))}
	case 0:
		// In the plane: small integer combinations of a's edges (exact, see
		// sideVec), so b lies exactly in the plane of a.
		return geom.Triangle{p, p.Add(sideVec(rng, r, n, e1, e2, 0)), p.Add(sideVec(rng, r, n, e1, e2, 0))}
	}
	return geom.Triangle{p, p.Add(sideVec(rng, r, n, e1, e2, side)), p.Add(sideVec(rng, r, n, e1, e2, side))}
}

// contactBase returns a proper integer triangle whose normal is exact and
// small enough to dot with side vectors exactly.
func contactBase(rng *rand.Rand) geom.Triangle {
	return properIntTri(rng, intRange(rng))
}

func vertexOnEdgePair(rng *rand.Rand) (a, b geom.Triangle) {
	a = contactBase(rng)
	i := rng.IntN(3)
	p := pointOnEdge(rng, a, i, (i+1)%3)
	return a, pointContact(rng, a, p)
}

func vertexOnFacePair(rng *rand.Rand) (a, b geom.Triangle) {
	a = contactBase(rng)
	p := pointOnFace(rng, a, rng.IntN(4) != 0)
	return a, pointContact(rng, a, p)
}

func edgeCrossEdgePair(rng *rand.Rand) (a, b geom.Triangle) {
	a = contactBase(rng)
	i := rng.IntN(3)
	p := pointOnEdge(rng, a, i, (i+1)%3)
	w := latPoint(rng, 8)
	for w == (geom.Vec3{}) {
		w = latPoint(rng, 8)
	}
	b = geom.Triangle{p.Add(w), p.Sub(w), p.Add(latPoint(rng, 8))}
	return a, b
}

// planeBasis returns an integer origin and two independent integer vectors.
func planeBasis(rng *rand.Rand) (o, e1, e2 geom.Vec3) {
	switch rng.IntN(3) {
	case 0: // axis-aligned plane
		ax := rng.IntN(3)
		u := [3]geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}}
		return latPoint(rng, 4), u[(ax+1)%3], u[(ax+2)%3]
	}
	r := []int{2, 1000}[rng.IntN(2)]
	for {
		o, e1, e2 = latPoint(rng, r), latPoint(rng, 3), latPoint(rng, 3)
		if e1.Cross(e2) != (geom.Vec3{}) {
			return o, e1, e2
		}
	}
}

func planePoint(o, e1, e2 geom.Vec3, s, t float64) geom.Vec3 {
	return o.Add(e1.Scale(s)).Add(e2.Scale(t))
}

func coplanarOverlapPair(rng *rand.Rand) (a, b geom.Triangle) {
	o, e1, e2 := planeBasis(rng)
	r := 1 + rng.IntN(3)
	for i := range 3 {
		a[i] = planePoint(o, e1, e2, latInt(rng, r), latInt(rng, r))
		b[i] = planePoint(o, e1, e2, latInt(rng, r), latInt(rng, r))
	}
	return a, b
}

func coplanarTouchPair(rng *rand.Rand) (a, b geom.Triangle) {
	o, e1, e2 := planeBasis(rng)
	// a = (0,0), (4,0), (0,4) in plane coordinates; b touches the edge
	// y = 0 from below (y ≤ 0), in one of several ways.
	type p2 struct{ s, t float64 }
	pa := [3]p2{{0, 0}, {4, 0}, {0, 4}}
	var pb [3]p2
	below := func() p2 { return p2{latInt(rng, 6), -1 - float64(rng.IntN(4))} }
	switch rng.IntN(6) {
	case 0: // shared vertex
		pb = [3]p2{pa[rng.IntN(2)], below(), below()}
	case 1: // vertex on the edge
		pb = [3]p2{{float64(1 + rng.IntN(3)), 0}, below(), below()}
	case 2: // collinear overlapping edge
		x := float64(rng.IntN(4))
		pb = [3]p2{{x, 0}, {x + float64(1+rng.IntN(6)), 0}, below()}
	case 3: // collinear edge touching at an end point
		pb = [3]p2{{4, 0}, {float64(5 + rng.IntN(3)), 0}, below()}
	case 4: // collinear edge with a gap
		pb = [3]p2{{5, 0}, {float64(6 + rng.IntN(3)), 0}, below()}
	default: // vertex on the hypotenuse, b beyond it
		s := float64(rng.IntN(5))
		pb = [3]p2{{s, 4 - s}, {s + 1 + float64(rng.IntN(3)), 4 - s + float64(rng.IntN(3))}, {s + float64(rng.IntN(3)), 5 - s + float64(rng.IntN(2))}}
	}
	for i := range 3 {
		a[i] = planePoint(o, e1, e2, pa[i].s, pa[i].t)
		b[i] = planePoint(o, e1, e2, pb[i].s, pb[i].t)
	}
	return a, b
}

// degenerateTri returns a triangle whose vertices are collinear or equal,
// on the lattice [-r,r]³.
func degenerateTri(rng *rand.Rand, r int) geom.Triangle {
	p := latPoint(rng, r)
	switch rng.IntN(5) {
	case 0: // a point
		return geom.Triangle{p, p, p}
	case 1: // repeated vertex
		return geom.Triangle{p, p, latPoint(rng, r)}
	default: // three collinear points p, p+d, p+2d (or p+d/2: exact)
		d := latPoint(rng, 1)
		q, s := p.Add(d), p.Add(d.Scale(2))
		if rng.IntN(2) == 0 {
			s = p.Add(d.Scale(0.5))
		}
		return geom.Triangle{p, q, s}
	}
}

func degeneratePair(rng *rand.Rand) (a, b geom.Triangle) {
	r := 1 + rng.IntN(2)
	switch rng.IntN(4) {
	case 0: // degenerate against a lattice triangle
		return latTri(rng, r), degenerateTri(rng, r)
	case 1: // both degenerate
		return degenerateTri(rng, r), degenerateTri(rng, r)
	case 2: // a point or a segment exactly on a proper triangle
		a = contactBase(rng)
		p := pointOnFace(rng, a, false)
		switch rng.IntN(4) {
		case 0:
			return a, geom.Triangle{p, p, p}
		case 1: // segment in the face
			q := pointOnFace(rng, a, false)
			return a, geom.Triangle{p, q, p}
		case 2: // segment piercing the face at p
			w := latPoint(rng, 8)
			return a, geom.Triangle{p.Add(w), p.Sub(w), p}
		default: // segment with an end on the face
			return a, geom.Triangle{p, p.Add(latPoint(rng, 8)), p}
		}
	default: // segment and point built on a segment
		s := degenerateTri(rng, r)
		p := s[rng.IntN(3)].Add(s[rng.IntN(3)]).Scale(0.5)
		switch rng.IntN(3) {
		case 0:
			return s, geom.Triangle{p, p, p}
		case 1: // a crossing or touching segment through p
			w := latPoint(rng, 2)
			return s, geom.Triangle{p.Add(w), p.Sub(w), p.Add(w)}
		default: // a segment with an end at p
			return s, geom.Triangle{p, p, p.Add(latPoint(rng, 2))}
		}
	}
}

// nearMissPair builds an exact single-point contact and then moves one
// coordinate by one ulp. For a vertex P of b on a's face with the rest of b
// on one side of a's plane, moving a coordinate whose axis has a non-zero
// normal component moves P off the plane, to b's side (no contact) or
// through a (contact, when P was inside a).
func nearMissPair(rng *rand.Rand) (a, b geom.Triangle) {
	var nudged int // vertex of b to move
	switch rng.IntN(5) {
	case 0, 1: // vertex on face (interior or anywhere)
		a = contactBase(rng)
		p := pointOnFace(rng, a, rng.IntN(2) == 0)
		b = oneSided(rng, a, p)
	case 2: // vertex on edge or vertex of a
		a = contactBase(rng)
		i := rng.IntN(3)
		p := a[i]
		if rng.IntN(2) == 0 {
			p = pointOnEdge(rng, a, i, (i+1)%3)
		}
		b = oneSided(rng, a, p)
	case 3: // edges crossing
		a, b = edgeCrossEdgePair(rng)
		nudged = rng.IntN(2)
	default: // coplanar touch in an axis-aligned plane, moved in the plane
		a, b = coplanarTouchAxis(rng)
	}
	if nudged == 0 && rng.IntN(2) == 0 {
		// Move the component along the normal's largest axis (it always
		// changes the side).
		ax := exactNormal(a).LargestAxis()
		up := rng.IntN(2) == 0
		switch ax {
		case 0:
			b[0].X = nudge(b[0].X, up)
		case 1:
			b[0].Y = nudge(b[0].Y, up)
		default:
			b[0].Z = nudge(b[0].Z, up)
		}
	} else {
		b = nudgeVertex(rng, b, nudged)
	}
	// An exact power-of-two scale keeps every relation.
	s := math.Ldexp(1, rng.IntN(41)-20)
	return scaleTri(a, s), scaleTri(b, s)
}

// oneSided returns b = (P, P+w1, P+w2) with w1, w2 strictly on one side of
// the plane of a.
func oneSided(rng *rand.Rand, a geom.Triangle, p geom.Vec3) geom.Triangle {
	n := exactNormal(a)
	e1, e2 := a[1].Sub(a[0]), a[2].Sub(a[0])
	side := 1 - 2*rng.IntN(2)
	return geom.Triangle{p, p.Add(sideVec(rng, 8, n, e1, e2, side)), p.Add(sideVec(rng, 8, n, e1, e2, side))}
}

// coplanarTouchAxis returns two triangles in the plane z = c (or x, y)
// touching at one point: b's vertex 0 on an edge or vertex of a, b outside.
func coplanarTouchAxis(rng *rand.Rand) (a, b geom.Triangle) {
	c := latInt(rng, 1<<20)
	r := intRange(rng)
	// a = (0,0), (r,0), (0,r) shifted; b touches the edge y = y0 from below
	// at a dyadic point, or a's vertex.
	x0, y0 := latInt(rng, r), latInt(rng, r)
	fr := float64(r)
	pa := [3][2]float64{{x0, y0}, {x0 + fr, y0}, {x0, y0 + fr}}
	px := x0 + fr*dyadic(rng, 1+rng.IntN(16))
	pb := [3][2]float64{{px, y0}, {px + latInt(rng, r), y0 - 1 - float64(rng.IntN(r))}, {px + latInt(rng, r), y0 - 1 - float64(rng.IntN(r))}}
	ax := rng.IntN(3)
	mk := func(p [2]float64) geom.Vec3 {
		v := [3]float64{}
		v[ax], v[(ax+1)%3], v[(ax+2)%3] = c, p[0], p[1]
		return geom.Vec3{X: v[0], Y: v[1], Z: v[2]}
	}
	for i := range 3 {
		a[i], b[i] = mk(pa[i]), mk(pb[i])
	}
	return a, b
}

// baseConstruction draws from the kinds whose contacts are exact, for the
// Far and Tiny transforms.
func baseConstruction(rng *rand.Rand) (a, b geom.Triangle) {
	kinds := [...]PairKind{KindLattice, KindSharedVertex, KindSharedEdge, KindVertexOnEdge,
		KindVertexOnFace, KindEdgeCrossEdge, KindCoplanarOverlap, KindCoplanarTouch, KindDegenerate, KindNearMiss}
	return Pair(kinds[rng.IntN(len(kinds))], rng)
}

// normalise scales a pair by a power of two so that its largest coordinate
// is about 2^e (exact).
func normalise(a, b geom.Triangle, e int) (geom.Triangle, geom.Triangle) {
	m := 0.0
	for _, t := range [2]geom.Triangle{a, b} {
		for _, v := range t {
			m = math.Max(m, math.Max(math.Abs(v.X), math.Max(math.Abs(v.Y), math.Abs(v.Z))))
		}
	}
	if m == 0 {
		return a, b
	}
	_, me := math.Frexp(m)
	s := math.Ldexp(1, e-me)
	return scaleTri(a, s), scaleTri(b, s)
}

func maybeNudge(rng *rand.Rand, a, b geom.Triangle) (geom.Triangle, geom.Triangle) {
	switch rng.IntN(4) {
	case 0:
		a = nudgeVertex(rng, a, rng.IntN(3))
	case 1:
		b = nudgeVertex(rng, b, rng.IntN(3))
	}
	return a, b
}

func farPair(rng *rand.Rand) (a, b geom.Triangle) {
	a, b = baseConstruction(rng)
	// Size: keep the construction (often exact after the offset), or
	// shrink it to about 1 or 2⁻²⁰ so that the offset rounds.
	switch rng.IntN(3) {
	case 1:
		a, b = normalise(a, b, 0)
	case 2:
		a, b = normalise(a, b, -20)
	}
	sg := func() float64 { return float64(1 - 2*rng.IntN(2)) }
	o := geom.Vec3{X: 1e6 * sg(), Y: 1e6 * sg(), Z: 1e6 * sg()}
	if rng.IntN(4) == 0 {
		// Offset and tiny scale together: 1e6 + 1e-7·x.
		a, b = scaleTri(a, 1e-7), scaleTri(b, 1e-7)
	}
	a, b = offsetTri(a, o), offsetTri(b, o)
	return maybeNudge(rng, a, b)
}

func tinyPair(rng *rand.Rand) (a, b geom.Triangle) {
	a, b = baseConstruction(rng)
	if rng.IntN(2) == 0 {
		a, b = normalise(a, b, 0)
	}
	a, b = scaleTri(a, 1e-7), scaleTri(b, 1e-7)
	return maybeNudge(rng, a, b)
}

func extremePair(rng *rand.Rand) (a, b geom.Triangle) {
	a, b = baseConstruction(rng)
	e := 900 + rng.IntN(61)
	if rng.IntN(2) == 0 {
		e = -e
	}
	s := math.Ldexp(1, e)
	return scaleTri(a, s), scaleTri(b, s)
}

// sliverTri returns a collinear triple p, p+d, p+k·d (k ∈ {2, 1/2, -1}) with
// one coordinate of one vertex moved by one ulp, and the line's p and d.
func sliverTri(rng *rand.Rand) (t geom.Triangle, p, d geom.Vec3) {
	r := [...]int{2, 64, 1 << 20}[rng.IntN(3)]
	p = latPoint(rng, r)
	for d == (geom.Vec3{}) {
		d = latPoint(rng, 2)
	}
	k := [...]float64{2, 0.5, -1}[rng.IntN(3)]
	t = geom.Triangle{p, p.Add(d), p.Add(d.Scale(k))}
	return nudgeVertex(rng, t, rng.IntN(3)), p, d
}

func sliverPair(rng *rand.Rand) (a, b geom.Triangle) {
	a, p, d := sliverTri(rng)
	// A point of the line: p + s·d with s a multiple of 1/4 in [-3, 4].
	onLine := func() geom.Vec3 { return p.Add(d.Scale(float64(rng.IntN(29)-12) / 4)) }
	switch rng.IntN(5) {
	case 0: // a point on the line, inside or beyond the sliver
		q := onLine()
		b = geom.Triangle{q, q, q}
	case 1: // a segment along the line
		b = seg3(onLine(), onLine())
	case 2: // a triangle with a vertex on the line
		q := onLine()
		b = geom.Triangle{q, q.Add(latPoint(rng, 3)), q.Add(latPoint(rng, 3))}
	case 3: // a segment across the line
		q, w := onLine(), latPoint(rng, 3)
		b = seg3(q.Add(w), q.Sub(w))
	default: // another sliver on the same line, or beside it
		b = geom.Triangle{onLine(), onLine(), onLine()}
		b = nudgeVertex(rng, b, rng.IntN(3))
	}
	if rng.IntN(2) == 0 {
		s := math.Ldexp(1, rng.IntN(61)-30)
		a, b = scaleTri(a, s), scaleTri(b, s)
	}
	return a, b
}

func seg3(p, q geom.Vec3) geom.Triangle { return geom.Triangle{p, q, q} }
