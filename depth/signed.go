package depth

import (
	"context"
	"errors"
	"fmt"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
)

// Kind says which case a signed distance is in.
type Kind uint8

const (
	// Apart: the surfaces do not meet and neither solid holds a part of
	// the other (or a mesh is open, and holds nothing): Distance > 0.
	Apart Kind = iota
	// Touching: the surfaces share points and the solids are certified
	// not to interpenetrate (PD = 0): Distance is 0.
	Touching
	// Penetrating: both meshes are closed and the solids are not certified
	// apart: their surfaces meet, or one solid holds a part of the other.
	// PD lies in [Lower, Upper], Upper > 0, and Distance is −Upper.
	// Lower > 0 proves the interpenetration; Lower = 0 leaves it possible
	// that the solids only touch in a way the certificates cannot tell
	// (see "Cost and limits" in the package doc).
	Penetrating
	// Overlapping: the surfaces share points and a mesh is not closed, so
	// there is no solid and no depth: Distance is 0 and OpenError says
	// which mesh is open and where.
	Overlapping
)

var kindNames = [...]string{"apart", "touching", "penetrating", "overlapping"}

// String returns the kind's name: "apart", "touching", "penetrating" or
// "overlapping".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// SignedOptions configures SignedDistance. The zero value is the default.
type SignedOptions struct {
	// Max > 0 is a cut-off for models apart (collide.DistanceOptions.Max):
	// when no two triangles are closer than Max and neither solid holds
	// the other, the answer is Apart and Far, Distance +Inf.
	Max float64
	// Depth tunes the search of the penetration depth (its Budget
	// included) when the solids are not apart.
	Depth Options
}

// Signed is the answer of SignedDistance. Every point and direction is in
// the common frame that the poses place both models in.
type Signed struct {
	Kind Kind
	// Distance is the signed distance: the distance between the surfaces
	// when Apart (within Bound of the exact distance, as collide.Distance
	// computes it), 0 exactly when Touching or Overlapping, and −Upper
	// when Penetrating: minus the length of Move, a translation certified
	// to separate the solids (PD ≤ Upper, so Distance ≤ −PD; for two
	// convex meshes Upper is PD to a few ulps). +Inf if Far.
	Distance float64
	// Bound bounds the error of Distance when Apart, and of the witnesses
	// in the common frame (collide.DistanceBetween's Bound; 0 otherwise).
	Bound float64
	// Far says that the models are Apart by Max or more.
	Far bool
	// Lower and Upper, when Penetrating, bound the translational
	// penetration depth PD (see Result); both are 0 otherwise.
	Lower, Upper float64
	// Move, when Penetrating, is a translation of fly certified to
	// separate the solids (length Upper), Dir its direction; zero
	// otherwise. Moving fly's pose by Move (flyPose.T + Move) separates
	// them, up to the rounding of the frames (see SignedDistance).
	Move, Dir geom.Vec3
	// Env and Fly are witness triangles (-1 if Far): the closest pair when
	// Apart or when one solid holds the other without contact, a pair in
	// contact otherwise. PEnv and PFly are their closest points (the
	// same point, common to both triangles, on contact).
	Env, Fly   int32
	PEnv, PFly geom.Vec3
	// Witness, when Penetrating with Lower > 0 found by the non-convex
	// search, is a point inside both solids (see Result.Witness).
	Witness geom.Vec3
	// Exact says that Lower is PD itself: Penetrating convex meshes (see
	// Result), or Touching (PD = 0). Stopped says that Options.Budget
	// stopped the depth search (the bounds are certified, further apart).
	Exact, Stopped bool
	// OpenError, when Overlapping (or Apart with an open mesh), says
	// which mesh is not closed; nil otherwise.
	OpenError *OpenError
	// DistanceStats and DepthStats count the work of the distance query
	// and of the depth search (closedness, classifications, certificates).
	DistanceStats collide.Stats
	DepthStats    Stats
}

// SignedDistance returns the signed distance between env placed at
// envPose and fly at flyPose, in one call: the distance when they are
// apart, 0 when they touch, and a certified penetration bound, negative,
// when the solids of two closed meshes interpenetrate; Kind says which,
// and the witnesses say where.
//
// The surfaces' distance is collide.Distance's (exact contact: 0 exactly
// when two triangles share a point, as collide.Check decides it). When
// the surfaces do not meet and both meshes are closed, a vertex of each
// connected component of each surface is classified against the other
// solid (exact winding numbers, see the package doc): a solid holding a
// part of the other is Penetrating, not Apart. When the surfaces meet,
// TranslationContext bounds the depth: Upper = 0 (depth's separation
// certificates hold at the pose itself) is Touching, Upper > 0
// Penetrating. A mesh that is not closed has no solid: surfaces meeting
// are Overlapping (not an error), surfaces apart Apart.
//
// Frames: the query runs in env's frame with fly at the relative pose
// rel = envPose⁻¹∘flyPose, computed in float64 (rel is flyPose itself,
// unrounded, when envPose is the identity or the zero Pose, which stands
// for it); every answer is exact or certified as stated for fly at rel.
// Points are mapped back by envPose (rounded to a few ulps of their
// magnitude) and Move and Dir by its rotation; lengths are unchanged. A
// zero Pose (zero rotation) is the identity.
//
// ctx stops the call: the depth search looks at it as at its budget
// (TranslationContext), the distance query at its deadline; a stopped
// call returns an error wrapping ctx.Err(). The errors are otherwise those
// of collide.Distance and of Translation but OpenError: a nil model,
// an invalid pose, an empty mesh or a non-finite coordinate. Models of
// volumes that do not fly against each other (collide.BV.Compatible) are
// accepted: fly is then queried as its companion of env's volume, built
// for the call.
func SignedDistance(ctx context.Context, env *collide.Model, envPose geom.Pose, fly *collide.Model, flyPose geom.Pose, o SignedOptions) (Signed, error) {
	if ctx == nil {
		return Signed{}, fmt.Errorf("depth: nil context: %w", ErrInvalid)
	}
	if env == nil || fly == nil {
		return Signed{}, fmt.Errorf("depth: nil model: %w", ErrInvalid)
	}
	if err := ctx.Err(); err != nil {
		return Signed{}, fmt.Errorf("depth: %w", err)
	}
	envPose, flyPose = envPose.Normalize(), flyPose.Normalize()
	if err := env.CheckPose(envPose); err != nil {
		return Signed{}, fmt.Errorf("depth: env pose: %w", err)
	}
	rel := collide.RelativePose(envPose, flyPose)
	dfly := fly
	if !env.BV().Compatible(fly.BV()) {
		f, err := fly.WithBV(env.BV())
		if err != nil {
			return Signed{}, fmt.Errorf("depth: %w", err)
		}
		dfly = f
	}
	dr, err := collide.DistanceBetween(ctx, env, envPose, dfly, flyPose, collide.DistanceOptions{Max: o.Max})
	if err != nil {
		return Signed{}, fmt.Errorf("depth: %w", err)
	}
	s := Signed{Kind: Apart, Distance: dr.Distance, Bound: dr.Bound, Far: dr.Far,
		Env: dr.Env, Fly: dr.Fly, DistanceStats: dr.Stats}
	s.PEnv, s.PFly = dr.PEnv, dr.PFly // in the common frame
	contact := !dr.Far && dr.Distance == 0
	if contact {
		s.Kind, s.Bound = Overlapping, 0
	}
	q, err := prepare(ctx, env, fly, rel, o.Depth)
	var open *OpenError
	if errors.As(err, &open) {
		s.OpenError = open
		return s, nil
	}
	if err != nil {
		return Signed{}, err
	}
	if !contact && !q.holds() {
		// Apart: no contact, and no component inside the other solid.
		s.DepthStats = q.st
		return s, q.ctxError(false, nil)
	}
	if q.stopped {
		return Signed{}, q.ctxError(true, nil)
	}
	if contact && q.touchPlane(dr.Env, dr.Fly, rel) {
		s.Kind, s.Distance, s.Exact = Touching, 0, true
		s.DepthStats = q.st
		return s, nil
	}
	r, err := q.run()
	if err = q.ctxError(r.Stopped, err); err != nil {
		return Signed{}, err
	}
	s.DepthStats, s.Stopped, s.Exact = r.Stats, r.Stopped, r.Exact
	if r.Upper == 0 {
		// Certified not to interpenetrate: touching, or apart with a flat
		// solid (no interior) inside the other.
		if contact {
			s.Kind, s.Distance = Touching, 0
		}
		return s, nil
	}
	s.Kind, s.Bound, s.Far = Penetrating, 0, false
	s.Lower, s.Upper, s.Distance = r.Lower, r.Upper, -r.Upper
	s.Move, s.Dir = envPose.ApplyVec(r.Move), envPose.ApplyVec(r.Dir)
	if r.Lower > 0 && !r.Exact {
		s.Witness = envPose.Apply(r.Witness)
	}
	return s, nil
}

// holds reports whether a vertex of some component of one surface lies
// inside the other solid (exact winding numbers), for surfaces that do not
// meet: then, and only then, the solids interpenetrate (see the package
// doc's certificate (b)). A point outside a solid's bounding box has
// winding number 0 (the box's outside is connected and reaches infinity)
// and costs no classification. It stops, returning false, when the search
// does.
func (q *query) holds() bool {
	for _, rep := range q.tb.reps {
		if !q.sA.box.Contains(q.bPts0[rep]) {
			continue // outside the box: winding number 0
		}
		if !q.step() {
			return false
		}
		q.st.Points++
		if w, on := q.sA.Winding(q.bPts0[rep]); on || w != 0 {
			return true
		}
	}
	for _, rep := range q.ta.reps {
		p := q.aPts[rep]
		if !q.boxB0.Contains(p) {
			continue // outside the box: winding number 0
		}
		if !q.step() {
			return false
		}
		q.st.Points++
		if w, on := q.flySolid().Winding(p); on || w != 0 {
			return true
		}
	}
	return false
}

// touchPlane tries certificate (a), a plane, at the pose itself along the
// few directions a touch suggests: the normals of the witness triangles
// (env's, and fly's reversed, at pose) and the six axes. Each try is
// linear in the vertices, far cheaper than the search, which finds the
// same planes (through the hulls) when these miss.
func (q *query) touchPlane(envTri, flyTri int32, pose geom.Pose) bool {
	us := []geom.Vec3{geom.V(1, 0, 0), geom.V(-1, 0, 0), geom.V(0, 1, 0), geom.V(0, -1, 0), geom.V(0, 0, 1), geom.V(0, 0, -1)}
	if envTri >= 0 {
		na := q.env.Mesh().Triangle(int(envTri)).Normal()
		nb := pose.ApplyTriangle(q.fly.Mesh().Triangle(int(flyTri))).Normal().Neg()
		us = append([]geom.Vec3{na, nb, na.Neg(), nb.Neg()}, us...)
	}
	for _, u := range us {
		if !u.IsFinite() || u == (geom.Vec3{}) {
			continue
		}
		if !q.step() {
			return false
		}
		q.st.Certificates++
		if planeSeparates(u, q.aPts, q.bPts0) {
			return true
		}
	}
	return false
}
