package geom

import (
	"math"
	"math/big"

	"github.com/collide3d/collide/internal/exact"
)

// ContactKind says how two triangles meet.
type ContactKind uint8

const (
	// Apart: the triangles share no point.
	Apart ContactKind = iota
	// Touch: the triangles share points but some plane weakly separates
	// them (each lies in one closed side): their relative interiors do not
	// cross, or they are coplanar.
	Touch
	// Cross: no plane separates them: they are not coplanar and a point
	// lies in the relative interior of both (one surface passes through
	// the other, embedded).
	Cross
)

// String returns "apart", "touch" or "cross".
func (k ContactKind) String() string {
	switch k {
	case Apart:
		return "apart"
	case Touch:
		return "touch"
	case Cross:
		return "cross"
	}
	return "ContactKind(?)"
}

// A Feature names the part of a triangle that holds a point: one of its
// vertices, edges, or its interior. Edge k joins vertex k and vertex
// (k+1) mod 3. A degenerate triangle names its points by its vertices and
// by the edge joining its extreme vertices, never by Face (see
// TriTriContact).
type Feature uint8

const (
	Vertex0 Feature = iota // vertex 0
	Vertex1                // vertex 1
	Vertex2                // vertex 2
	Edge01                 // the edge from vertex 0 to vertex 1
	Edge12                 // the edge from vertex 1 to vertex 2
	Edge20                 // the edge from vertex 2 to vertex 0
	Face                   // the relative interior of a proper triangle
)

var featureNames = [...]string{"vertex0", "vertex1", "vertex2", "edge01", "edge12", "edge20", "face"}

// String returns "vertex0" to "vertex2", "edge01", "edge12", "edge20" or
// "face".
func (f Feature) String() string {
	if int(f) < len(featureNames) {
		return featureNames[f]
	}
	return "Feature(?)"
}

// IsVertex reports whether f is one of Vertex0, Vertex1, Vertex2.
func (f Feature) IsVertex() bool { return f <= Vertex2 }

// IsEdge reports whether f is one of Edge01, Edge12, Edge20.
func (f Feature) IsEdge() bool { return f >= Edge01 && f <= Edge20 }

// ContactPoint is a vertex of the set two triangles share: its computed
// position and, exactly, the feature of each triangle that holds the exact
// point (the feature of least dimension: a vertex before an edge before the
// face). A is the feature of the first triangle passed to TriTriContact, B
// of the second.
type ContactPoint struct {
	P    Vec3
	A, B Feature
}

// TriContact is the set two closed triangles share (TriTriContact).
type TriContact struct {
	Kind ContactKind
	// N is the number of Points: 0 when apart, 1 for a point, 2 for a
	// segment, 3 to 6 for the convex polygon of a coplanar overlap (in
	// order around it, counter-clockwise seen from the side Normal points
	// to).
	N      int
	Points [6]ContactPoint
	// Normal is a unit vector from a towards b: for a touch, a direction
	// that weakly separates them (a on its non-positive side, b on its
	// non-negative side); for a crossing, a's normal by its winding (see
	// TriTriContact). It is the zero vector when apart.
	Normal Vec3
	// Bound bounds the Euclidean distance of each computed point from the
	// exact point it stands for: 0 when every point is a vertex of a or b,
	// never more than 2⁻⁴⁴ times the largest coordinate magnitude of a and
	// b plus 3·2⁻¹⁰⁷⁴.
	Bound float64
}

// TriTriContact returns the set the closed triangles a and b share, exactly
// in its combinatorics: its kind, the number of its vertices and the
// features of a and b that hold each of them are decided only by the signs
// of exact predicates (Orient3D, Orient2D, comparisons of coordinates), as
// in TriTri; only the positions of constructed points are rounded.
//
// # Semantics
//
// Kind is Apart exactly when TriTri(a, b) is false. It is Cross when a and b
// are not coplanar and some point lies in the relative interior of both (no
// plane weakly separates them), and Touch otherwise: every coplanar overlap
// is a touch, and so is a contact at a single point. A degenerate triangle
// is the segment or the point it is, and its relative interior is the open
// segment (empty for a point): a segment crossing the open face of a proper
// triangle transversally is a Cross; two segments never cross.
//
// Points[:N] are the vertices of the shared set: N = 1 for a point, 2 for a
// segment, 3 to 6 for the convex polygon of a coplanar overlap, in order
// around it, counter-clockwise seen from the side Normal points to (a's
// normal by its winding). No point is repeated, and a shared set that
// degenerates to a segment or a point is reported as one. The two points of
// a segment come in this order:
//   - two proper triangles in different planes (a crossing, or a touch along
//     or across their planes' common line): along the direction na × nb,
//     na and nb the normals of a and b by their windings;
//   - a coplanar overlap of proper triangles that is a segment (it lies on
//     an edge of a): in the order met walking a's boundary from vertex 0
//     to 1 to 2;
//   - a segment (degenerate triangle) in the plane of the other triangle, or
//     two collinear segments: along the degenerate triangle, from the
//     extreme vertex with the lower coordinate on its axis of largest
//     extent (a's when both are degenerate).
//
// Each point's A and B name, exactly, the feature of a and of b that holds
// the exact point: the one of least dimension (a vertex, else an edge, else
// Face). Of a degenerate triangle, a point equal to one of its vertices is
// named by the lowest index of the vertices it equals, and any other point
// by the edge joining its two extreme vertices (the two farthest apart; of
// equal vertices, the lowest-indexed); it never names Face.
//
// A point that is a vertex of a or b is that vertex, exactly. The others, an
// edge of one triangle meeting the plane of the other or two coplanar edges
// crossing, are computed in float64; Bound bounds the Euclidean distance of
// every computed point from the exact point it stands for (0 when every
// point is a vertex). The float computation carries its own error bound
// (see rootPoint); where that bound would exceed 2⁻⁴⁴ times the largest
// coordinate magnitude M of a and b (an edge nearly parallel to the other
// plane, nearly parallel edges, products that underflow or overflow), the
// determinants it divides are computed again as exact expansions and
// rounded (a few ulps, no allocation), and where even that does not do
// (magnitudes spanning more than the expansions hold), the point is
// computed exactly with math/big and rounded to the nearest float64,
// within an ulp per coordinate. So Bound ≤ 2⁻⁴⁴·M + 3·2⁻¹⁰⁷⁴, always.
//
// Normal is a unit vector (its length is 1 within a few ulps), never NaN,
// from a towards b:
//   - for a Cross, a's unit normal by its winding ((a1−a0)×(a2−a0)): for a
//     closed mesh a wound outward, it points out of a towards b. If a is
//     degenerate (a segment crossing b), it is minus b's unit normal.
//   - for a Touch, a direction that weakly separates them: a on its
//     non-positive side, b on its non-negative side (exactly for the exact
//     direction, of which Normal is the rounding). It is a's plane normal when
//     b's vertices all lie on one closed side of a's plane (for a coplanar
//     overlap, a's normal by its winding), else b's (negated, so that it
//     still points from a to b; when a lies in b's plane, minus b's
//     normal), else the normal of the plane through an edge of a and an
//     edge of b that meet (one of them separates when neither face plane
//     does, by the separating-axis theorem), else, when no such plane is
//     determined (collinear segments, a point on a segment), a direction
//     perpendicular to the line they share, else (two equal points) +Z.
//
// Non-finite coordinates are outside the contract: Kind is still Apart
// exactly when TriTri(a, b) is false, N is 0 and Normal is +Z otherwise.
//
// TriTriContact allocates nothing unless a point or a normal takes the
// math/big path (coordinates of widely different magnitudes, near the ends
// of the float64 range).
func TriTriContact(a, b Triangle) TriContact {
	var c TriContact
	if !a.IsFinite() || !b.IsFinite() {
		if TriTri(a, b) {
			c.Kind = Touch
			c.Normal = Vec3{0, 0, 1}
		}
		return c
	}
	if !boxesOverlap(&a, &b) {
		return c
	}
	sb := planeSigns(&a, &b) // b's vertices against the plane of a
	if oneSide(sb) {
		return c
	}
	sa := planeSigns(&b, &a) // a's vertices against the plane of b
	if oneSide(sa) {
		return c
	}
	// A degenerate triangle's plane is no plane: every sign against it is
	// 0. So signs not all 0 on both sides mean two proper triangles in
	// different planes, the common case, known without IsDegenerate.
	var aDeg, bDeg bool
	if allZero(sa) || allZero(sb) {
		aDeg, bDeg = a.IsDegenerate(), b.IsDegenerate()
	}
	switch {
	case !aDeg && !bDeg && !allZero(sb):
		crossingContact(&c, &a, &b, sa, sb)
	case !aDeg && !bDeg:
		coplanarContact(&c, &a, &b)
	default:
		degenerateContact(&c, &a, &b, aDeg, bDeg)
	}
	if c.Kind == Touch {
		c.Normal = touchNormal(&a, &b, aDeg, bDeg, sa, sb)
	}
	return c
}

func oneSide(s [3]int) bool { return s[0] == s[1] && s[1] == s[2] && s[0] != 0 }

func allZero(s [3]int) bool { return s[0] == 0 && s[1] == 0 && s[2] == 0 }

// edgeFeature returns the feature of the edge joining vertices i and j.
func edgeFeature(i, j int) Feature {
	if i > j {
		i, j = j, i
	}
	switch {
	case i == 0 && j == 1:
		return Edge01
	case i == 1 && j == 2:
		return Edge12
	}
	return Edge20
}

// maxAbs returns the largest coordinate magnitude of a and b.
func maxAbs(a, b *Triangle) float64 {
	m := 0.0
	for _, t := range [2]*Triangle{a, b} {
		for _, p := range t {
			m = max(m, math.Abs(p.X), math.Abs(p.Y), math.Abs(p.Z))
		}
	}
	return m
}

// fastBound is the largest error, relative to the largest coordinate
// magnitude of the two triangles, that a point computed in float64 may
// carry; a point whose derived bound exceeds it is computed exactly.
const fastBound = 0x1p-44

// chord is a ∩ πb (for a proper triangle t crossing the plane of the other,
// not lying in it): a segment [i, j] of the planes' common line L, or a
// point. After canonical relabelling (canonicalPick) the vertex pick is
// alone on its side of the other plane, i lies on the line from pick to q
// and j on the line from pick to r, (pick, q, r) in t's cyclic order; both
// lines cross L transversally.
type chord struct {
	t          *Triangle
	s          [3]int // signs of t's vertices against the other plane
	pick, side int
	q, r       int
	point      bool    // i = j = t[pick]
	inner      Feature // the feature of the open chord: Face, or the edge qr lying in the other plane
	lo, hi     int     // q or r: the line of the endpoint first and last along d = na × nb
}

func makeChord(t *Triangle, s [3]int, isB bool) chord {
	c := chord{t: t, s: s}
	p := canonTab[signIndex(s)]
	c.pick, c.side = int(p.pick), int(p.side)
	c.q, c.r = next3[c.pick], next3[c.pick+1]
	c.point = s[c.pick] == 0
	c.inner = Face
	if s[c.q] == 0 && s[c.r] == 0 {
		c.inner = edgeFeature(c.q, c.r)
	}
	// With i on pick→q and j on pick→r, j − i = μ·d' with sign(μ) = −side,
	// for d' = n × n' (n the normal of t, n' that of the other plane):
	// (i − pick) × (j − pick) is a positive multiple of n, and writing
	// i − pick = α·d' + β·(d' × n), β has the sign of n'·(i − pick), −side;
	// then (i − pick) × (j − i) = μβ|d'|²·n forces sign(μ) = sign(β). For a,
	// d' = d; for b, d' = −d.
	if (c.side > 0) != isB {
		c.lo, c.hi = c.r, c.q
	} else {
		c.lo, c.hi = c.q, c.r
	}
	return c
}

// endFeature returns the feature of t holding the chord's endpoint on the
// line from pick to x.
func (c *chord) endFeature(x int) Feature {
	switch {
	case c.s[x] == 0:
		return Feature(x)
	case c.s[c.pick] == 0:
		return Feature(c.pick)
	}
	return edgeFeature(c.pick, x)
}

// chordEnd names an endpoint of a chord: its triangle (0 for a, 1 for b)
// and the vertex x of its line pick→x.
type chordEnd struct{ tri, x int }

// crossing compares endpoints of the two chords along d = na × nb.
type crossing struct {
	ch   [2]chord
	memo [3][3]int8 // memo[xa][xb]: 2 when not computed yet
}

// before returns the sign of d·(Y − X) for X the endpoint of a's chord on
// the line pick→xa and Y the endpoint of b's chord on the line pick→xb.
//
// Both lines cross L transversally, X on the first and Y on the second, so
// Orient3D(pa, xa, pb, xb) = det[xa−pa, Y−X, xb−pb] (the other components
// of r − p fall along one of the lines). Writing Y − X = λd,
// xa − pa = α₁d + β₁(d × na) and xb − pb = α₂d + β₂(d × nb), the
// determinant is −λβ₁β₂|d|⁴, where β₁ has the sign of nb·(xa − pa), −side
// of a's chord, and β₂ the sign of −na·(xb − pb), +side of b's chord. So
// sign(λ) = Orient3D(pa, xa, pb, xb)·side_a·side_b: zero exactly when X = Y.
func (k *crossing) before(xa, xb int) int {
	if m := k.memo[xa][xb]; m != 2 {
		return int(m)
	}
	ca, cb := &k.ch[0], &k.ch[1]
	o := Orient3D(ca.t[ca.pick], ca.t[xa], cb.t[cb.pick], cb.t[xb]) * ca.side * cb.side
	k.memo[xa][xb] = int8(o)
	return o
}

// order returns −1, 0 or +1 as the endpoint e comes before, at or after f
// along d.
func (k *crossing) order(e, f chordEnd) int {
	if e.tri == f.tri {
		c := &k.ch[e.tri]
		if e.x == f.x || c.point {
			return 0
		}
		if e.x == c.lo {
			return -1
		}
		return 1
	}
	if e.tri == 0 {
		return -k.before(e.x, f.x)
	}
	return k.before(f.x, e.x)
}

// featureIn returns the feature of triangle tri holding the point e of the
// shared set (which lies in tri's chord).
func (k *crossing) featureIn(e chordEnd, tri int) Feature {
	c := &k.ch[tri]
	if e.tri == tri {
		return c.endFeature(e.x)
	}
	lo, hi := chordEnd{tri, c.lo}, chordEnd{tri, c.hi}
	if k.order(e, lo) == 0 {
		return c.endFeature(c.lo)
	}
	if k.order(e, hi) == 0 {
		return c.endFeature(c.hi)
	}
	return c.inner
}

// crossingContact is TriTriContact for proper triangles in different
// planes whose vertices are not all strictly on one side of the other's
// plane (signs sa of a's vertices against πb, sb of b's against πa). Their
// shared set is the overlap of the chords a ∩ πb and b ∩ πa on L.
func crossingContact(c *TriContact, a, b *Triangle, sa, sb [3]int) {
	k := crossing{ch: [2]chord{makeChord(a, sa, false), makeChord(b, sb, true)}}
	for i := range k.memo {
		for j := range k.memo[i] {
			k.memo[i][j] = 2
		}
	}
	loA, hiA := chordEnd{0, k.ch[0].lo}, chordEnd{0, k.ch[0].hi}
	loB, hiB := chordEnd{1, k.ch[1].lo}, chordEnd{1, k.ch[1].hi}
	lo := loA
	if k.order(loA, loB) < 0 {
		lo = loB
	}
	hi := hiA
	if k.order(hiB, hiA) < 0 {
		hi = hiB
	}
	o := k.order(lo, hi)
	if o > 0 {
		return // Apart
	}
	ends := [2]chordEnd{lo, hi}
	n := 2
	if o == 0 {
		n = 1
	}
	m := maxAbs(a, b)
	var bound float64
	for i := range n {
		e := ends[i]
		fa, fb := k.featureIn(e, 0), k.featureIn(e, 1)
		var p Vec3
		var eb float64
		switch {
		case fa.IsVertex():
			p = a[fa]
		case fb.IsVertex():
			p = b[fb]
		case e.tri == 0:
			p, eb = edgePlanePoint(a[k.ch[0].pick], a[e.x], k.ch[0].s[k.ch[0].pick], b, m)
		default:
			p, eb = edgePlanePoint(b[k.ch[1].pick], b[e.x], k.ch[1].s[k.ch[1].pick], a, m)
		}
		c.Points[i] = ContactPoint{P: p, A: fa, B: fb}
		bound = max(bound, eb)
	}
	c.N, c.Bound = n, bound
	c.Kind = Touch
	if n == 2 && !k.ch[0].point && !k.ch[1].point && k.ch[0].inner == Face && k.ch[1].inner == Face {
		// The open segment lies in both open chords, whose points are
		// in the open faces.
		c.Kind = Cross
		c.Normal = unitNormal(a)
	}
}

// Points computed in float64, and their error bounds.
//
// A constructed point is where the segment [p, q] meets a line or plane
// that separates p and q strictly: X = p + t·(q − p), t = α/(α − β), with α
// and β the values at p and q of a determinant that vanishes on the line or
// plane (Orient3D against a plane, Orient2D against a line), of opposite
// strict signs (exact predicates decided them). Their float values α̃, β̃
// carry the error bounds Eα, Eβ of the predicates' filters (Shewchuk's
// errBound times the permanent, doubled here as a margin), valid when no
// product underflows or overflows. Write E = max(Eα, Eβ) and orient so
// that α > 0 > β; if α̃ > 0 > β̃ as well, then with t* = α̃/(α̃ − β̃),
//
//	t* − t = (−β·(α̃−α) + α·(β̃−β)) / ((α−β)(α̃−β̃)),  so  |t* − t| ≤ E/(α̃ − β̃),
//
// and the rounded difference and quotient add 3u at most (t* ≤ 1), u = 2⁻⁵³:
// |t̃ − t| ≤ δt = E/(fl(α̃ − β̃)(1 − u)) + 3u. Then x̃ = fl(p + fl(t̃·fl(q − p)))
// per coordinate, with d = q − p:
//
//	|x̃ − x| ≤ |t̃ − t||d| + |t̃||d|(2u + u²) + u|x̃|/(1 − u)
//	        ≤ (δt + (1 + δt)(2u + u²))·|d̃|/(1 − u) + u|x̃|/(1 − u),
//
// and the Euclidean error is at most the sum over the three coordinates.
// The bound is computed in float64 and then enlarged by (1 + 2⁻⁴⁰), which
// covers its own roundings.

// rootPoint returns X = p + t(q − p) for t = α/(α − β) given the float
// values da, db of α and β, with error bounds ea, eb, and the signs sgnA,
// sgnB (opposite and non-zero) of the exact α and β; ok is false when the
// bound cannot be certified (a float value of the wrong sign, or a
// non-finite intermediate).
func rootPoint(p, q Vec3, da, ea, db, eb float64, sgnA int) (x Vec3, bound float64, ok bool) {
	if sgnA < 0 {
		da, db = -da, -db
	}
	if !(da > 0 && db < 0) {
		return x, 0, false
	}
	e := max(ea, eb)
	den := da - db
	if math.IsInf(den, 0) || math.IsInf(e, 0) {
		return x, 0, false
	}
	t := da / den
	dt := e/(den*(1-unitRoundoff)) + 3*unitRoundoff
	dx, dy, dz := q.X-p.X, q.Y-p.Y, q.Z-p.Z
	x = Vec3{p.X + float64(t*dx), p.Y + float64(t*dy), p.Z + float64(t*dz)}
	f := (dt + (1+dt)*(2*unitRoundoff+unitRoundoff*unitRoundoff)) / (1 - unitRoundoff)
	g := unitRoundoff / (1 - unitRoundoff)
	bound = f*(math.Abs(dx)+math.Abs(dy)+math.Abs(dz)) + g*(math.Abs(x.X)+math.Abs(x.Y)+math.Abs(x.Z))
	bound *= 1 + 0x1p-40
	if !x.IsFinite() || math.IsInf(bound, 0) || math.IsNaN(bound) {
		return x, 0, false
	}
	return x, bound, true
}

// planeValue returns the float value of Orient3D(t0, t1, t2, p) for the
// plane pl of t, with the error bound of planeSigns' filter (doubled), and
// whether that bound holds (no underflowed product, no overflow).
func (pl *plane) value(t *Triangle, p Vec3) (det, err float64, ok bool) {
	if pl.exact {
		return 0, 0, false
	}
	wx, wy, wz := p.X-t[0].X, p.Y-t[0].Y, p.Z-t[0].Z
	det = float64(pl.nx*wx) + float64(pl.ny*wy) + float64(pl.nz*wz)
	perm := float64(pl.px*math.Abs(wx)) + float64(pl.py*math.Abs(wy)) + float64(pl.pz*math.Abs(wz))
	if !(perm >= tinyPerm) || math.IsInf(perm, 0) || math.IsNaN(det) {
		return 0, 0, false
	}
	return det, 2 * errBound3 * perm, true
}

// edgePlanePoint returns the point where the segment [p, q], whose ends lie
// strictly on opposite sides of the plane of the proper triangle t (p on
// side sp, the exact sign of Orient3D(t0, t1, t2, p)), meets that plane,
// and a bound on its error; m is the largest coordinate magnitude of the
// pair (see fastBound).
func edgePlanePoint(p, q Vec3, sp int, t *Triangle, m float64) (Vec3, float64) {
	pl := planeOf(t)
	da, ea, ok1 := pl.value(t, p)
	db, eb, ok2 := pl.value(t, q)
	if ok1 && ok2 {
		if x, bound, ok := rootPoint(p, q, da, ea, db, eb, sp); ok && bound <= fastBound*m {
			return x, bound
		}
	}
	// Again with α and β from exact expansions, rounded.
	if da, ea, db, eb, ok := planeValuesExp(t, p, q); ok {
		if x, bound, ok := rootPoint(p, q, da, ea, db, eb, sp); ok && bound <= fastBound*m {
			return x, bound
		}
	}
	return edgePlaneExact(p, q, t)
}

// planeValuesExp returns the values of Orient3D(t0, t1, t2, x) for x = p
// and x = q, both multiplied by one positive power of two (which leaves
// their ratio alone), with bounds on their errors, computed as exact
// expansions (no allocation) and rounded; ok is false when the coordinates
// cannot be scaled into the range where the expansions are exact.
func planeValuesExp(t *Triangle, p, q Vec3) (da, ea, db, eb float64, ok bool) {
	a, b, c := t[0], t[1], t[2]
	xs := [15]float64{a.X, a.Y, a.Z, b.X, b.Y, b.Z, c.X, c.Y, c.Z, p.X, p.Y, p.Z, q.X, q.Y, q.Z}
	if !inSafeRange(xs[:]...) {
		s, ok := safeScale(xs[:]...)
		if !ok {
			return 0, 0, 0, 0, false
		}
		a, b, c, p, q = a.Scale(s), b.Scale(s), c.Scale(s), p.Scale(s), q.Scale(s)
	}
	da, ea = orient3DApprox(a, b, c, p)
	db, eb = orient3DApprox(a, b, c, q)
	return da, ea, db, eb, true
}

// orient3DApprox returns the Orient3D determinant of coordinates in the
// safe range, rounded from its exact expansion over the raw coordinates
// (as orient3DExact), and a bound on its error.
func orient3DApprox(a, b, c, d Vec3) (float64, float64) {
	var e exact.Expansion
	orient3DRaw(&e, a, b, c, d)
	return e.Approx()
}

// orient2Approx returns the Orient2D determinant of coordinates in the safe
// range, rounded from its exact expansion over the raw coordinates (as
// orient2DExact), and a bound on its error.
func orient2Approx(ax, ay, bx, by, cx, cy float64) (float64, float64) {
	var e exact.Expansion
	orient2DRaw(&e, ax, ay, bx, by, cx, cy)
	return e.Approx()
}

// crossPoint2 returns the point where the segment [p, q] meets the line
// through r and s, all four coplanar and projected injectively by dropping
// coordinate k, with p and q strictly on opposite sides of the line rs.
func crossPoint2(p, q, r, s Vec3, k int, m float64) (Vec3, float64) {
	pp, pq, pr, ps := project(p, k), project(q, k), project(r, k), project(s, k)
	da, ea, ok1 := orient2Value(pr, ps, pp)
	db, eb, ok2 := orient2Value(pr, ps, pq)
	sp := orient2(pr, ps, pp)
	if ok1 && ok2 {
		if x, bound, ok := rootPoint(p, q, da, ea, db, eb, sp); ok && bound <= fastBound*m {
			return x, bound
		}
	}
	// Again with α and β from exact expansions, rounded.
	xs := [8]float64{pr.x, pr.y, ps.x, ps.y, pp.x, pp.y, pq.x, pq.y}
	sc, ok := 1.0, true
	if !inSafeRange(xs[:]...) {
		sc, ok = safeScale(xs[:]...)
	}
	if ok {
		da, ea := orient2Approx(sc*pr.x, sc*pr.y, sc*ps.x, sc*ps.y, sc*pp.x, sc*pp.y)
		db, eb := orient2Approx(sc*pr.x, sc*pr.y, sc*ps.x, sc*ps.y, sc*pq.x, sc*pq.y)
		if x, bound, ok := rootPoint(p, q, da, ea, db, eb, sp); ok && bound <= fastBound*m {
			return x, bound
		}
	}
	return crossPoint2Exact(p, q, r, s, k)
}

// orient2Value returns the float value of the Orient2D determinant of a, b,
// c with the error bound of its filter (doubled), and whether that bound
// holds.
func orient2Value(a, b, c vec2) (det, err float64, ok bool) {
	l := float64((b.x - a.x) * (c.y - a.y))
	r := float64((b.y - a.y) * (c.x - a.x))
	det = l - r
	sum := math.Abs(l) + math.Abs(r)
	if !(sum >= tinyPerm) || math.IsInf(sum, 0) || math.IsNaN(det) {
		return 0, 0, false
	}
	return det, 2 * errBound2 * sum, true
}

// Exact construction (math/big.Rat: every float64 is a dyadic rational).

func ratOf(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

type ratVec [3]*big.Rat

func ratVecOf(p Vec3) ratVec { return ratVec{ratOf(p.X), ratOf(p.Y), ratOf(p.Z)} }

func (v ratVec) sub(w ratVec) ratVec {
	var r ratVec
	for i := range r {
		r[i] = new(big.Rat).Sub(v[i], w[i])
	}
	return r
}

func (v ratVec) dot(w ratVec) *big.Rat {
	s := new(big.Rat)
	for i := range v {
		s.Add(s, new(big.Rat).Mul(v[i], w[i]))
	}
	return s
}

func (v ratVec) cross(w ratVec) ratVec {
	m := func(a, b, c, d *big.Rat) *big.Rat {
		x := new(big.Rat).Mul(a, b)
		return x.Sub(x, new(big.Rat).Mul(c, d))
	}
	return ratVec{m(v[1], w[2], v[2], w[1]), m(v[2], w[0], v[0], w[2]), m(v[0], w[1], v[1], w[0])}
}

// ratRoot returns p + α/(α − β)·(q − p), rounded to the nearest float64 per
// coordinate, and the bound of that rounding (an ulp per coordinate).
func ratRoot(p, q Vec3, alpha, beta *big.Rat) (Vec3, float64) {
	t := new(big.Rat).Sub(alpha, beta)
	t.Quo(alpha, t)
	rp, rq := ratVecOf(p), ratVecOf(q)
	d := rq.sub(rp)
	var x [3]float64
	bound := 0.0
	for i := range 3 {
		v := new(big.Rat).Mul(t, d[i])
		v.Add(v, rp[i])
		x[i], _ = v.Float64()
		bound += ulp(x[i])
	}
	return Vec3{x[0], x[1], x[2]}, bound
}

// ulp returns the gap from |x| to the next float64 away from zero (at
// least the spacing of the float64s around x).
func ulp(x float64) float64 {
	a := math.Abs(x)
	return math.Nextafter(a, math.Inf(1)) - a
}

func edgePlaneExact(p, q Vec3, t *Triangle) (Vec3, float64) {
	t0 := ratVecOf(t[0])
	n := ratVecOf(t[1]).sub(t0).cross(ratVecOf(t[2]).sub(t0))
	alpha := n.dot(ratVecOf(p).sub(t0))
	beta := n.dot(ratVecOf(q).sub(t0))
	return ratRoot(p, q, alpha, beta)
}

func crossPoint2Exact(p, q, r, s Vec3, k int) (Vec3, float64) {
	o := func(a, b, c vec2) *big.Rat {
		l := new(big.Rat).Mul(new(big.Rat).Sub(ratOf(b.x), ratOf(a.x)), new(big.Rat).Sub(ratOf(c.y), ratOf(a.y)))
		r := new(big.Rat).Mul(new(big.Rat).Sub(ratOf(b.y), ratOf(a.y)), new(big.Rat).Sub(ratOf(c.x), ratOf(a.x)))
		return l.Sub(l, r)
	}
	pr, ps := project(r, k), project(s, k)
	return ratRoot(p, q, o(pr, ps, project(p, k)), o(pr, ps, project(q, k)))
}

// Normals.

// unitNormal returns the unit normal of the proper triangle t by its
// winding, (t1 − t0) × (t2 − t0) normalised. Each float component is a 2×2
// determinant of computed differences, within errBound2 times its
// permanent of the exact one (Orient2D's analysis); when the sum of those
// bounds is below 2⁻⁴⁶ of the computed normal's 1-norm (and nothing
// underflows), the normalised float vector is within 2⁻⁴⁴ of the exact unit
// normal. Otherwise (slivers, extreme magnitudes) the components are
// computed as exact expansions and rounded (no allocation), or, when the
// coordinates' magnitudes span too much for those, with math/big. It
// returns the zero vector for a degenerate t.
func unitNormal(t *Triangle) Vec3 {
	ux, uy, uz := t[1].X-t[0].X, t[1].Y-t[0].Y, t[1].Z-t[0].Z
	vx, vy, vz := t[2].X-t[0].X, t[2].Y-t[0].Y, t[2].Z-t[0].Z
	uyvz, uzvy := float64(uy*vz), float64(uz*vy)
	uzvx, uxvz := float64(uz*vx), float64(ux*vz)
	uxvy, uyvx := float64(ux*vy), float64(uy*vx)
	n := Vec3{uyvz - uzvy, uzvx - uxvz, uxvy - uyvx}
	perm := math.Abs(uyvz) + math.Abs(uzvy) + math.Abs(uzvx) + math.Abs(uxvz) + math.Abs(uxvy) + math.Abs(uyvx)
	n1 := math.Abs(n.X) + math.Abs(n.Y) + math.Abs(n.Z)
	if n1 >= 0x1p-900 && !math.IsInf(perm, 0) && errBound2*perm <= 0x1p-46*n1 {
		return n.Unit()
	}
	// Again with the components from exact expansions, rounded (scaled
	// by one power of two, which leaves the direction alone).
	a, b, c := t[0], t[1], t[2]
	xs := [9]float64{a.X, a.Y, a.Z, b.X, b.Y, b.Z, c.X, c.Y, c.Z}
	sc, ok := 1.0, true
	if !inSafeRange(xs[:]...) {
		sc, ok = safeScale(xs[:]...)
		a, b, c = a.Scale(sc), b.Scale(sc), c.Scale(sc)
	}
	if ok {
		nx, ex := orient2Approx(a.Y, a.Z, b.Y, b.Z, c.Y, c.Z)
		ny, ey := orient2Approx(a.Z, a.X, b.Z, b.X, c.Z, c.X)
		nz, ez := orient2Approx(a.X, a.Y, b.X, b.Y, c.X, c.Y)
		if m := math.Abs(nx) + math.Abs(ny) + math.Abs(nz); m > 0 && ex+ey+ez <= 0x1p-46*m {
			return Vec3{nx, ny, nz}.Unit()
		}
	}
	return unitNormalExact(t)
}

func unitNormalExact(t *Triangle) Vec3 {
	t0 := ratVecOf(t[0])
	n := ratVecOf(t[1]).sub(t0).cross(ratVecOf(t[2]).sub(t0))
	return unitRat(n)
}

// unitRat returns the exact vector n scaled to unit length, in float64 (the
// zero vector for n = 0): n is scaled by a power of two that brings its
// largest component near 1 (exact), rounded, then normalised.
func unitRat(n ratVec) Vec3 {
	top, found := 0, false
	for _, x := range n {
		if x.Sign() != 0 {
			e := new(big.Float).SetPrec(64).SetRat(x).MantExp(nil)
			if !found || e > top {
				top, found = e, true
			}
		}
	}
	if !found {
		return Vec3{}
	}
	var v [3]float64
	for i, x := range n {
		f := new(big.Float).SetPrec(64).SetRat(x)
		f.SetMantExp(f, -top)
		v[i], _ = f.Float64()
	}
	return Vec3{v[0], v[1], v[2]}.Unit()
}

// closedSide reports whether the signs s lie on one closed side (no two
// strictly opposite), and that side (0 when all are 0).
func closedSide(s [3]int) (side int, ok bool) {
	for _, x := range s {
		if x != 0 {
			if side != 0 && x != side {
				return 0, false
			}
			side = x
		}
	}
	return side, true
}

// touchNormal returns the Normal of a touch (see TriTriContact): a's plane
// if it weakly separates, else b's, else a plane through an edge of each,
// else a direction perpendicular to the line the two share, else +Z.
func touchNormal(a, b *Triangle, aDeg, bDeg bool, sa, sb [3]int) Vec3 {
	if !aDeg {
		if s, ok := closedSide(sb); ok {
			if s < 0 {
				return unitNormal(a).Neg()
			}
			return unitNormal(a)
		}
	}
	if !bDeg {
		if s, ok := closedSide(sa); ok {
			// a on side s of b's plane: the normal points away from it.
			if s < 0 {
				return unitNormal(b)
			}
			return unitNormal(b).Neg()
		}
	}
	if n, ok := edgePairNormal(a, b); ok {
		return n
	}
	// No plane holds an edge of each in a separating way: the shared set
	// lies on one line (collinear segments, a point on a segment) or is
	// two equal points. Any direction perpendicular to that line separates
	// weakly.
	for _, t := range [2]*Triangle{a, b} {
		for i := range 3 {
			e := t[next3[i]].Sub(t[i])
			if !e.IsFinite() {
				// Overflowed: the same direction, from halved ends.
				e = t[next3[i]].Scale(0.5).Sub(t[i].Scale(0.5))
			}
			if e != (Vec3{}) {
				axis := Vec3{}
				switch e.Abs().LargestAxis() {
				case 0:
					axis.Y = 1
				default:
					axis.X = 1
				}
				return e.Cross(axis).Unit()
			}
		}
	}
	return Vec3{0, 0, 1}
}

// edgePairNormal looks for a plane through an edge of a and an edge of b
// (coplanar, not collinear) with a on its non-positive side and b on its
// non-negative side, and returns its unit normal so oriented. Two proper
// triangles that touch at a point with neither face plane separating them
// have one: a separating plane through the point holds every edge of either
// triangle whose relative interior holds the point, and can be turned about
// such an edge (or the point) onto an edge of the other.
func edgePairNormal(a, b *Triangle) (Vec3, bool) {
	for i := range 3 {
		ai, aj := a[i], a[next3[i]]
		if ai == aj {
			continue
		}
		for k := range 3 {
			bk, bl := b[k], b[next3[k]]
			if bk == bl || Orient3D(ai, aj, bk, bl) != 0 {
				continue
			}
			for _, w := range [2]Vec3{bk, bl} {
				t := Triangle{ai, aj, w}
				if t.IsDegenerate() {
					continue
				}
				var s1, s2 [3]int
				for j := range 3 {
					s1[j] = Orient3D(t[0], t[1], t[2], a[j])
					s2[j] = Orient3D(t[0], t[1], t[2], b[j])
				}
				x, ok1 := closedSide(s1)
				y, ok2 := closedSide(s2)
				if !ok1 || !ok2 || x*y > 0 {
					continue
				}
				if x > 0 || y < 0 {
					return unitNormal(&t).Neg(), true
				}
				return unitNormal(&t), true
			}
		}
	}
	return Vec3{}, false
}

// Coplanar overlaps.

// cpv is a vertex of the polygon a ∩ b of a coplanar pair: a vertex of a
// (index i), a vertex of b (index j) or the crossing of a's edge i with b's
// edge j, with its features and its positions along the boundaries of a
// and b (−1 when it is not on that boundary).
type cpv struct {
	A, B       Feature
	kind       int // 0: a's vertex i, 1: b's vertex j, 2: a's edge i crosses b's edge j
	i, j       int
	keyA, keyB int
}

// featureIn2 returns the feature of the proper triangle t holding p, given
// the signs s[j] of p against t's edges j (times t's orientation: ≥ 0 on
// the inner side), and whether p lies in t at all.
func featureIn2(s [3]int, t *Triangle, p Vec3) (Feature, bool) {
	if s[0] < 0 || s[1] < 0 || s[2] < 0 {
		return 0, false
	}
	for j := range 3 {
		if t[j] == p {
			return Feature(j), true
		}
	}
	switch {
	case s[0] == 0 && s[1] == 0:
		return Vertex1, true
	case s[1] == 0 && s[2] == 0:
		return Vertex2, true
	case s[2] == 0 && s[0] == 0:
		return Vertex0, true
	}
	for j := range 3 {
		if s[j] == 0 {
			return Edge01 + Feature(j), true
		}
	}
	return Face, true
}

// alongFirst reports whether the point x comes before y along the
// direction from p to q, all four exact and collinear: their order is the
// order of the coordinate on which p and q differ most.
func alongFirst(p, q, x, y Vec3) bool {
	ax := q.Sub(p).Abs().LargestAxis()
	if q.Index(ax) > p.Index(ax) {
		return x.Index(ax) < y.Index(ax)
	}
	return x.Index(ax) > y.Index(ax)
}

// coplanarContact is TriTriContact for two proper triangles in one plane:
// the convex polygon P = a ∩ b, found exactly in the projection that drops
// an axis on which the plane projects injectively.
//
// Its vertices are the vertices of a in b, those of b in a, and the proper
// crossings of an edge of a with an edge of b; each of these is a corner of
// P, or P is a segment or a point and they are its ends. They are put in
// order without comparing constructed points: the vertices of P on the
// boundary of a come in the order of that boundary (P ⊂ a, both convex), at
// most two in the interior of an edge of a (the ends of P ∩ that edge), the
// first being where the edge enters b; likewise along b. Between two
// vertices on both boundaries, P's boundary runs along one of them, so the
// two cyclic orders merge into P's.
func coplanarContact(c *TriContact, a, b *Triangle) {
	k := projectionAxis(*a)
	var pa, pb [3]vec2
	for i := range 3 {
		pa[i], pb[i] = project(a[i], k), project(b[i], k)
	}
	oa, ob := orient2(pa[0], pa[1], pa[2]), orient2(pb[0], pb[1], pb[2])
	// sA[i][j]: a's vertex i against b's edge j, sB[j][i]: b's vertex j
	// against a's edge i; positive on the inner side.
	var sA, sB [3][3]int
	for i := range 3 {
		for j := range 3 {
			sA[i][j] = orient2(pb[j], pb[next3[j]], pa[i]) * ob
			sB[j][i] = orient2(pa[i], pa[next3[i]], pb[j]) * oa
		}
	}
	var vs [12]cpv
	n := 0
	var onA, onB [3][4]int
	var cntA, cntB [3]int
	add := func(v cpv) {
		if n == len(vs) {
			return // not reached: P has at most 9 candidate vertices
		}
		v.keyA, v.keyB = -1, -1
		switch {
		case v.kind == 0:
			v.keyA = 3 * v.i
		case v.A.IsVertex():
			v.keyA = 3 * int(v.A)
		case v.A != Face:
			e := int(v.A - Edge01)
			if cntA[e] < len(onA[e]) {
				onA[e][cntA[e]] = n
				cntA[e]++
			}
		}
		switch {
		case v.kind == 1:
			v.keyB = 3 * v.j
		case v.B.IsVertex():
			v.keyB = 3 * int(v.B)
		case v.B != Face:
			e := int(v.B - Edge01)
			if cntB[e] < len(onB[e]) {
				onB[e][cntB[e]] = n
				cntB[e]++
			}
		}
		vs[n] = v
		n++
	}
	for i := range 3 {
		if f, in := featureIn2(sA[i], b, a[i]); in {
			add(cpv{A: Feature(i), B: f, kind: 0, i: i})
		}
	}
	for j := range 3 {
		if b[j] == a[0] || b[j] == a[1] || b[j] == a[2] {
			continue // found as a vertex of a
		}
		if f, in := featureIn2(sB[j], a, b[j]); in {
			add(cpv{A: f, B: Feature(j), kind: 1, j: j})
		}
	}
	for i := range 3 {
		for j := range 3 {
			if sB[j][i]*sB[next3[j]][i] < 0 && sA[i][j]*sA[next3[i]][j] < 0 {
				add(cpv{A: Edge01 + Feature(i), B: Edge01 + Feature(j), kind: 2, i: i, j: j})
			}
		}
	}
	if n == 0 {
		return // coplanar and disjoint: Apart
	}
	// Positions in the interiors of the edges of a.
	for e := range 3 {
		switch cntA[e] {
		case 1:
			vs[onA[e][0]].keyA = 3*e + 1
		case 2:
			x, y := onA[e][0], onA[e][1]
			var xFirst bool
			switch {
			case vs[x].kind == 2:
				xFirst = sA[next3[e]][vs[x].j] > 0 // the edge enters b there
			case vs[y].kind == 2:
				xFirst = !(sA[next3[e]][vs[y].j] > 0)
			default:
				xFirst = alongFirst(a[e], a[next3[e]], b[vs[x].j], b[vs[y].j])
			}
			if !xFirst {
				x, y = y, x
			}
			vs[x].keyA, vs[y].keyA = 3*e+1, 3*e+2
		}
		switch cntB[e] {
		case 1:
			vs[onB[e][0]].keyB = 3*e + 1
		case 2:
			x, y := onB[e][0], onB[e][1]
			var xFirst bool
			switch {
			case vs[x].kind == 2:
				xFirst = sB[next3[e]][vs[x].i] > 0
			case vs[y].kind == 2:
				xFirst = !(sB[next3[e]][vs[y].i] > 0)
			default:
				xFirst = alongFirst(b[e], b[next3[e]], a[vs[x].i], a[vs[y].i])
			}
			if !xFirst {
				x, y = y, x
			}
			vs[x].keyB, vs[y].keyB = 3*e+1, 3*e+2
		}
	}
	// The two boundary orders, b's turned to a's sense.
	var sa, sb [12]int
	na, nb := 0, 0
	for key := range 9 {
		for x := range n {
			if vs[x].keyA == key {
				sa[na] = x
				na++
			}
			if vs[x].keyB == key {
				sb[nb] = x
				nb++
			}
		}
	}
	if oa != ob {
		for i, j := 0, nb-1; i < j; i, j = i+1, j-1 {
			sb[i], sb[j] = sb[j], sb[i]
		}
	}
	common := func(x int) bool { return vs[x].keyA >= 0 && vs[x].keyB >= 0 }
	var out [12]int
	m := 0
	hasCommon := false
	for _, x := range sa[:na] {
		hasCommon = hasCommon || common(x)
	}
	switch {
	case !hasCommon && na > 0:
		m = copy(out[:], sa[:na])
	case !hasCommon:
		m = copy(out[:], sb[:nb])
	default:
		for _, x := range sa[:na] {
			out[m] = x
			m++
			if !common(x) {
				continue
			}
			pos := 0
			for pos < nb && sb[pos] != x {
				pos++
			}
			for t := 1; t < nb; t++ {
				y := sb[(pos+t)%nb]
				if common(y) {
					break
				}
				out[m] = y
				m++
			}
		}
	}
	if m > len(c.Points) {
		m = len(c.Points) // not reached: a ∩ b has at most six corners
	}
	mx := maxAbs(a, b)
	var bound float64
	for t, x := range out[:m] {
		v := &vs[x]
		var p Vec3
		switch v.kind {
		case 0:
			p = a[v.i]
		case 1:
			p = b[v.j]
		default:
			var e float64
			p, e = crossPoint2(a[v.i], a[next3[v.i]], b[v.j], b[next3[v.j]], k, mx)
			bound = max(bound, e)
		}
		c.Points[t] = ContactPoint{P: p, A: v.A, B: v.B}
	}
	c.N, c.Bound, c.Kind = m, bound, Touch
}

// Degenerate triangles.

// extremeIdx returns the indices of the extreme vertices of a degenerate
// triangle, as extremes returns the points.
func extremeIdx(t *Triangle) (lo, hi int) {
	axis := t.Bounds().Size().LargestAxis()
	for i := 1; i < 3; i++ {
		if t[i].Index(axis) < t[lo].Index(axis) {
			lo = i
		}
		if t[i].Index(axis) > t[hi].Index(axis) {
			hi = i
		}
	}
	return lo, hi
}

// degFeature returns the feature of the degenerate triangle t (extreme
// vertices lo, hi) holding its point p: the lowest-indexed vertex equal to
// p, else the edge joining lo and hi.
func degFeature(t *Triangle, lo, hi int, p Vec3) Feature {
	for i := range 3 {
		if t[i] == p {
			return Feature(i)
		}
	}
	return edgeFeature(lo, hi)
}

func swapFeatures(c *TriContact) {
	for i := range c.N {
		c.Points[i].A, c.Points[i].B = c.Points[i].B, c.Points[i].A
	}
}

// degenerateContact is TriTriContact when a or b is degenerate.
func degenerateContact(c *TriContact, a, b *Triangle, aDeg, bDeg bool) {
	if !TriTri(*a, *b) {
		return
	}
	m := maxAbs(a, b)
	switch {
	case aDeg && bDeg:
		segSegContact(c, a, b, m)
	case aDeg:
		segTriContact(c, a, b, m)
		if c.Kind == Cross {
			c.Normal = unitNormal(b).Neg()
		}
	default:
		segTriContact(c, b, a, m)
		swapFeatures(c)
		if c.Kind == Cross {
			c.Normal = unitNormal(a)
		}
	}
}

// segTriContact fills c with s ∩ t for a degenerate s (a segment or a
// point) and a proper t, which TriTri says meet; A names features of s and
// B of t.
func segTriContact(c *TriContact, s, t *Triangle, m float64) {
	lo, hi := extremeIdx(s)
	u, v := s[lo], s[hi]
	mid := 3 - lo - hi
	if lo == hi {
		mid = lo
	}
	c.Kind = Touch
	k := projectionAxis(*t)
	var pt [3]vec2
	for j := range 3 {
		pt[j] = project(t[j], k)
	}
	ot := orient2(pt[0], pt[1], pt[2])
	in2 := func(p Vec3) (Feature, bool) {
		pp := project(p, k)
		var sg [3]int
		for j := range 3 {
			sg[j] = orient2(pt[j], pt[next3[j]], pp) * ot
		}
		return featureIn2(sg, t, p)
	}
	if u == v {
		// A point, in t.
		f, _ := in2(u)
		c.N = 1
		c.Points[0] = ContactPoint{P: u, A: degFeature(s, lo, hi, u), B: f}
		return
	}
	su := Orient3D(t[0], t[1], t[2], u)
	sv := Orient3D(t[0], t[1], t[2], v)
	if su != 0 || sv != 0 {
		// The line uv crosses t's plane at one point X, in t.
		var x Vec3
		exact := true
		switch {
		case su == 0:
			x = u
		case sv == 0:
			x = v
		case Orient3D(t[0], t[1], t[2], s[mid]) == 0:
			x = s[mid]
		default:
			x, c.Bound = edgePlanePoint(u, v, su, t, m)
			exact = false
		}
		var f Feature
		if exact {
			f = degFeature(s, lo, hi, x)
		} else {
			f = edgeFeature(lo, hi)
		}
		// X lies on the line of t's edge j exactly when the line uv and
		// that edge are coplanar.
		var o [3]int
		for j := range 3 {
			o[j] = Orient3D(u, v, t[j], t[next3[j]])
		}
		g := Face
		switch {
		case exact && (x == t[0] || x == t[1] || x == t[2]):
			for j := range 3 {
				if x == t[j] {
					g = Feature(j)
					break
				}
			}
		case o[0] == 0 && o[1] == 0:
			g = Vertex1
		case o[1] == 0 && o[2] == 0:
			g = Vertex2
		case o[2] == 0 && o[0] == 0:
			g = Vertex0
		case o[0] == 0:
			g = Edge01
		case o[1] == 0:
			g = Edge12
		case o[2] == 0:
			g = Edge20
		}
		if !exact && g.IsVertex() {
			// The line passes through a vertex of t: that is the point.
			x, c.Bound = t[g], 0
		}
		c.N = 1
		c.Points[0] = ContactPoint{P: x, A: f, B: g}
		if (!exact || x != u && x != v) && g == Face {
			// X is in the open segment (even when it is s's middle
			// vertex) and in t's open face.
			c.Kind = Cross
		}
		return
	}
	// The segment lies in t's plane: s ∩ t is a segment or a point, whose
	// ends are u or v if in t, vertices of t on the open segment, or proper
	// crossings of the segment with t's edges. rank orders them along u→v:
	// u 0, v 3, a crossing 1 where the segment enters t and 2 where it
	// leaves; a vertex of t takes the rank the other end leaves it.
	type cand struct {
		p     Vec3
		a, b  Feature
		rank  int
		tvert bool
	}
	var cs [8]cand
	n := 0
	pu, pv := project(u, k), project(v, k)
	if f, ok := in2(u); ok {
		cs[n] = cand{p: u, a: degFeature(s, lo, hi, u), b: f, rank: 0}
		n++
	}
	if f, ok := in2(v); ok {
		cs[n] = cand{p: v, a: degFeature(s, lo, hi, v), b: f, rank: 3}
		n++
	}
	for j := range 3 {
		w := t[j]
		if w == u || w == v || orient2(pu, pv, pt[j]) != 0 || !alongFirst(u, v, u, w) || !alongFirst(u, v, w, v) {
			continue
		}
		cs[n] = cand{p: w, a: degFeature(s, lo, hi, w), b: Feature(j), tvert: true}
		n++
	}
	for j := range 3 {
		o1, o2 := orient2(pt[j], pt[next3[j]], pu), orient2(pt[j], pt[next3[j]], pv)
		o3, o4 := orient2(pu, pv, pt[j]), orient2(pu, pv, pt[next3[j]])
		if o1*o2 >= 0 || o3*o4 >= 0 {
			continue
		}
		cd := cand{a: edgeFeature(lo, hi), b: Edge01 + Feature(j), rank: 2}
		if o2*ot > 0 {
			cd.rank = 1 // v is inside edge j: the segment enters t here
		}
		if orient2(pt[j], pt[next3[j]], project(s[mid], k)) == 0 {
			cd.p = s[mid]
			cd.a = degFeature(s, lo, hi, s[mid])
		} else {
			var e float64
			cd.p, e = crossPoint2(u, v, t[j], t[next3[j]], k, m)
			c.Bound = max(c.Bound, e)
		}
		cs[n] = cd
		n++
	}
	if n > 2 {
		n = 2 // not reached: s ∩ t has at most two ends
	}
	switch {
	case n == 2 && cs[0].tvert && cs[1].tvert:
		if alongFirst(u, v, cs[0].p, cs[1].p) {
			cs[0].rank, cs[1].rank = 1, 2
		} else {
			cs[0].rank, cs[1].rank = 2, 1
		}
	case n == 2 && cs[0].tvert:
		cs[0].rank = 3 - cs[1].rank
	case n == 2 && cs[1].tvert:
		cs[1].rank = 3 - cs[0].rank
	}
	if n == 2 && cs[1].rank < cs[0].rank {
		cs[0], cs[1] = cs[1], cs[0]
	}
	c.N = n
	for i := range n {
		c.Points[i] = ContactPoint{P: cs[i].p, A: cs[i].a, B: cs[i].b}
	}
}

// segSegContact fills c with a ∩ b for two degenerate triangles, which
// TriTri says meet.
func segSegContact(c *TriContact, a, b *Triangle, m float64) {
	c.Kind = Touch
	la, ha := extremeIdx(a)
	lb, hb := extremeIdx(b)
	u, v, w, x := a[la], a[ha], b[lb], b[hb]
	one := func(p Vec3) {
		c.N = 1
		c.Points[0] = ContactPoint{P: p, A: degFeature(a, la, ha, p), B: degFeature(b, lb, hb, p)}
	}
	switch {
	case u == v:
		one(u)
		return
	case w == x:
		one(w)
		return
	}
	if (Triangle{u, v, w}).IsDegenerate() && (Triangle{u, v, x}).IsDegenerate() {
		// Collinear: the overlap of two intervals of one line, in the
		// order of a's axis of largest extent.
		lo, hi := w, x
		if alongFirst(u, v, x, w) {
			lo, hi = x, w
		}
		p, q := u, v
		if alongFirst(u, v, p, lo) {
			p = lo
		}
		if alongFirst(u, v, hi, q) {
			q = hi
		}
		if p == q {
			one(p)
			return
		}
		c.N = 2
		c.Points[0] = ContactPoint{P: p, A: degFeature(a, la, ha, p), B: degFeature(b, lb, hb, p)}
		c.Points[1] = ContactPoint{P: q, A: degFeature(a, la, ha, q), B: degFeature(b, lb, hb, q)}
		return
	}
	// Coplanar, not collinear: they meet at one point. Project along an
	// axis that keeps the four points from falling on one line (then the
	// projection is injective on their plane).
	k := 0
	for ; k < 2; k++ {
		pu, pv := project(u, k), project(v, k)
		if orient2(pu, pv, project(w, k)) != 0 || orient2(pu, pv, project(x, k)) != 0 {
			break
		}
	}
	pu, pv, pw, px := project(u, k), project(v, k), project(w, k), project(x, k)
	switch {
	case orient2(pw, px, pu) == 0:
		one(u)
	case orient2(pw, px, pv) == 0:
		one(v)
	case orient2(pu, pv, pw) == 0:
		one(w)
	case orient2(pu, pv, px) == 0:
		one(x)
	case orient2(pw, px, project(a[3-la-ha], k)) == 0:
		one(a[3-la-ha])
	case orient2(pu, pv, project(b[3-lb-hb], k)) == 0:
		one(b[3-lb-hb])
	default:
		p, e := crossPoint2(u, v, w, x, k, m)
		c.N, c.Bound = 1, e
		c.Points[0] = ContactPoint{P: p, A: edgeFeature(la, ha), B: edgeFeature(lb, hb)}
	}
}
