package collide

import (
	"iter"
	"math"

	"github.com/collide3d/collide/geom"
)

// Contact is the geometry of one pair of triangles in contact
// (QueryOptions.Contacts): where and how they meet.
//
// For a pair the query found at eps = 0, Kind is geom.Touch or geom.Cross
// (never geom.Apart) and the fields are those of geom.TriTriContact for the
// environment's triangle and the flying triangle at the very coordinates the
// query tested (the flying model's vertices moved by the query's pose in
// float64), mapped into the common frame (see Points). With a tolerance
// (QueryOptions.Eps > 0) a reported pair may not touch: then Kind is
// geom.Apart, Points are its two closest points, the environment's then the
// flying model's (geom.TriTriDistance), Features is nil, Normal is the unit
// direction from the first to the second, and Bound bounds the error of
// each point (geom.TriTriDistanceBound).
type Contact struct {
	Pair Pair
	// Kind is geom.Touch or geom.Cross (embedded), or geom.Apart for a pair
	// that a tolerance reported without contact.
	Kind geom.ContactKind
	// Points are the vertices of the shared point, segment or (coplanar
	// overlap) convex polygon, in the frame the query's poses place both
	// models in; each within Bound of the exact point, and Features says,
	// exactly, which feature of each triangle holds it (environment's
	// first). Points and Features share the Query's buffers: they are valid
	// until its next query (the function Check returns copies).
	Points   []geom.Vec3
	Features [][2]geom.Feature
	// Normal is a unit vector from the environment's triangle towards the
	// flying model's (see geom.TriTriContact): for a touch, a direction
	// that separates them; for a crossing, the environment triangle's
	// normal by its winding (out of a closed mesh wound outward).
	Normal geom.Vec3
	// Bound bounds the distance of each of Points from the exact point it
	// stands for: geom.TriContact.Bound, widened by the rounding of the
	// environment's pose when it is not the identity (see frame.place in
	// contact.go: ρ·B + 2⁻⁴⁸·(ρ·M + T) for ‖R‖₂ ≤ ρ, M and T the largest
	// |coordinate| of the points and of the translation).
	Bound float64
}

// contactSet holds the contacts of one query and the buffers their points
// and features live in.
type contactSet struct {
	list  []Contact
	pts   []geom.Vec3
	feats [][2]geom.Feature
}

// reset empties s and makes room for the contacts of n pairs, so that
// appending their points never moves a buffer that an earlier contact's
// slices point into.
func (s *contactSet) reset(n int) {
	s.list = s.list[:0]
	s.pts, s.feats = s.pts[:0], s.feats[:0]
	if need := maxContactPoints * n; cap(s.pts) < need {
		s.pts = make([]geom.Vec3, 0, need)
		s.feats = make([][2]geom.Feature, 0, need)
	}
	if cap(s.list) < n {
		s.list = make([]Contact, 0, n)
	}
}

// maxContactPoints is the most points a contact has (the hexagon of a
// coplanar overlap).
const maxContactPoints = len(geom.TriContact{}.Points)

// add appends the contact of pair p, the environment's triangle et and the
// flying triangle ft as the query tested them, placed by f.
func (s *contactSet) add(p Pair, et, ft geom.Triangle, f *frame) {
	s.list = append(s.list, f.place(pairContact(p, et, ft, &s.pts, &s.feats)))
}

// pairContact returns the contact of the triangles et and ft (in the
// environment's frame), its points and features appended to *pts and
// *feats; the contact's slices point into them (they must have room).
func pairContact(p Pair, et, ft geom.Triangle, pts *[]geom.Vec3, feats *[][2]geom.Feature) Contact {
	tc := geom.TriTriContact(et, ft)
	c := Contact{Pair: p, Kind: tc.Kind, Normal: tc.Normal, Bound: tc.Bound}
	i := len(*pts)
	if tc.Kind == geom.Apart {
		_, pa, pb := geom.TriTriDistance(et, ft)
		*pts = append(*pts, pa, pb)
		c.Points = (*pts)[i:len(*pts):len(*pts)]
		c.Normal = apartNormal(pa, pb, et, ft)
		c.Bound = geom.TriTriDistanceBound(et, ft)
		return c
	}
	j := len(*feats)
	for _, cp := range tc.Points[:tc.N] {
		*pts = append(*pts, cp.P)
		*feats = append(*feats, [2]geom.Feature{cp.A, cp.B})
	}
	c.Points = (*pts)[i:len(*pts):len(*pts)]
	c.Features = (*feats)[j:len(*feats):len(*feats)]
	return c
}

// apartNormal returns the unit direction from pa (on et) to pb (on ft).
// When the computed points coincide (the triangles are then within their
// distance bound of each other), it falls back to the direction from et's
// centroid to ft's, then to et's normal, then to +z: never NaN.
func apartNormal(pa, pb geom.Vec3, et, ft geom.Triangle) geom.Vec3 {
	for _, d := range []geom.Vec3{pb.Sub(pa), ft.Centroid().Sub(et.Centroid()), et.Normal()} {
		if u, ok := unit(d); ok {
			return u
		}
	}
	return geom.V(0, 0, 1)
}

// unit returns d scaled to unit length, and false when d is zero or not
// finite.
func unit(d geom.Vec3) (geom.Vec3, bool) {
	n := d.Norm()
	if !(n > 0 && n <= math.MaxFloat64) {
		return geom.Vec3{}, false
	}
	u := geom.Vec3{X: d.X / n, Y: d.Y / n, Z: d.Z / n}
	return u, u.IsFinite()
}

// frame places the contacts the query computed in the environment's frame
// into the common frame: the identity, or the environment's pose.
type frame struct {
	ident bool
	pose  geom.Pose
	// rho bounds the spectral norm of pose.R from above.
	rho float64
}

// newFrame returns the frame of the environment's pose envPose (the zero
// Pose is the identity).
func newFrame(envPose geom.Pose) frame {
	if envPose == (geom.Pose{}) || envPose.IsIdentity() {
		return frame{ident: true}
	}
	// ‖R‖₂² is the largest eigenvalue of RᵀR, at most 1 + s with s the
	// largest row sum of |RᵀR − I| (Gershgorin). s is computed in float64
	// with entries near 0 and 1, so within 2⁻⁴⁸ of the exact sum: the
	// 2⁻⁴⁰ added covers it and the square root's rounding.
	r := &envPose.R
	s := 0.0
	for i := range 3 {
		row := 0.0
		for j := range 3 {
			d := r.Col(i).Dot(r.Col(j))
			if i == j {
				d--
			}
			row += math.Abs(d)
		}
		s = max(s, row)
	}
	return frame{pose: envPose, rho: math.Sqrt(1+s+0x1p-40) + 0x1p-40}
}

// place maps c's points and normal by the frame's pose and widens its
// bound.
//
// The exact point x stands for, at distance at most B from the computed
// point p, goes to R·x + t (R and t the pose's float64 numbers, applied
// exactly); the placed point is fl(R·p + t) (geom.Pose.Apply: three
// products, each rounded, and three sums). Then
//
//	|fl(R·p + t) − (R·x + t)| ≤ ‖R‖₂·B + |fl(R·p + t) − (R·p + t)|,
//
// and each coordinate of the second term is at most γ₄·(Σⱼ|Rᵢⱼ||pⱼ| + |tᵢ|)
// (γ₄ = 4u/(1−4u), u = 2⁻⁵³), so its norm is at most
// √3·γ₄·(3·ρ·M + T) with M the largest |coordinate| of the contact's
// points, T of t, and |Rᵢⱼ| ≤ ρ. With √3·γ₄·3 < 2⁻⁴⁸ the new bound is
// ρ·B + 2⁻⁴⁸·(ρ·M + T) + 2⁻¹⁰⁶⁹ (the last for subnormal products), rounded
// up by a factor 1 + 2⁻⁵⁰. The normal is R·n, scaled back to unit length
// (R is orthonormal to within 10⁻⁶ only).
func (f *frame) place(c Contact) Contact {
	if f.ident {
		return c
	}
	m := 0.0
	for i, p := range c.Points {
		m = max(m, math.Abs(p.X), math.Abs(p.Y), math.Abs(p.Z))
		c.Points[i] = f.pose.Apply(p)
	}
	t := f.pose.T.Abs()
	tm := max(t.X, t.Y, t.Z)
	c.Bound = (f.rho*c.Bound + 0x1p-48*(f.rho*m+tm) + 0x1p-1069) * (1 + 0x1p-50)
	if n, ok := unit(f.pose.ApplyVec(c.Normal)); ok {
		c.Normal = n
	}
	return c
}

// flyTriangle returns flying triangle i of fly at pose, with the very
// coordinates a query at pose tests (bvh's tester and bruteForce move each
// vertex with Pose.Apply, and leave them as they are at the identity).
func flyTriangle(fly *Model, pose *geom.Pose, ident bool, i int32) geom.Triangle {
	t := fly.mesh.Triangle(int(i))
	if ident {
		return t
	}
	return pose.ApplyTriangle(t)
}

// fillContacts computes the contact of each of q.pairs (in their order):
// env at envPose, fly at flyPose, and pose = envPose⁻¹∘flyPose the relative
// pose the query used. It returns the contacts and, when o.Patches asks,
// their patches, both in q's buffers.
func (q *Query) fillContacts(env, fly *Model, pose, envPose geom.Pose, o QueryOptions) ([]Contact, []Patch) {
	cs := &q.cs
	cs.reset(len(q.pairs))
	f := newFrame(envPose)
	ident := pose.IsIdentity()
	em := env.mesh
	for _, p := range q.pairs {
		cs.add(p, em.Triangle(int(p.Env)), flyTriangle(fly, &pose, ident, p.Fly), &f)
	}
	if !o.Patches {
		return cs.list, nil
	}
	return cs.list, q.pt.build(env, fly, cs.list)
}

// Contacts returns an iterator over the contacts of fly at flyPose with env
// at envPose: each pair in contact (every pair, whatever o.All says), its
// contact geometry in the common frame, as the query finds it (in no
// particular order). The query runs as the loop runs and stops when the
// loop breaks. The errors of Check (and an environment pose that is not a
// rigid pose placing env within the float64 range, wrapping
// ErrInvalidPose) are returned at once, before any query. o.MaxPairs and
// o.Patches are ignored.
//
// A yielded contact's Points and Features are valid until the loop's next
// iteration (copy them to keep them), and q must not run another query
// until the loop ends.
func (q *Query) Contacts(env *Model, envPose geom.Pose, fly *Model, flyPose geom.Pose, o QueryOptions) (iter.Seq[Contact], error) {
	o.All = true
	pose, err := q.check(env, &envPose, fly, &flyPose, &o)
	if err != nil {
		return nil, err
	}
	return func(yield func(Contact) bool) {
		f := newFrame(envPose)
		ident := pose.IsIdentity()
		em := env.mesh
		var buf [maxContactPoints]geom.Vec3
		var fbuf [maxContactPoints][2]geom.Feature
		q.walk(env, fly, &pose, &o, func(p Pair) bool {
			pts, feats := buf[:0], fbuf[:0]
			c := pairContact(p, em.Triangle(int(p.Env)), flyTriangle(fly, &pose, ident, p.Fly), &pts, &feats)
			return yield(f.place(c))
		})
	}, nil
}

// cloneContacts returns a copy of cs whose points and features live in two
// new buffers (for the function Check, whose results outlive the pooled
// Query).
func cloneContacts(cs []Contact) []Contact {
	if cs == nil {
		return nil
	}
	n, nf := 0, 0
	for _, c := range cs {
		n += len(c.Points)
		nf += len(c.Features)
	}
	out := make([]Contact, len(cs))
	pts := make([]geom.Vec3, 0, n)
	feats := make([][2]geom.Feature, 0, nf)
	for i, c := range cs {
		i0, j0 := len(pts), len(feats)
		pts = append(pts, c.Points...)
		c.Points = pts[i0:len(pts):len(pts)]
		if c.Features != nil {
			feats = append(feats, c.Features...)
			c.Features = feats[j0:len(feats):len(feats)]
		}
		out[i] = c
	}
	return out
}
