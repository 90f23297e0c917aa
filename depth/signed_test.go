package depth

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// octahedron returns a closed outward octahedron of centre c and radius r.
func octahedron(c geom.Vec3, r float64) *mesh.TriMesh {
	m := &mesh.TriMesh{Verts: []geom.Vec3{
		c.Add(geom.V(r, 0, 0)), c.Add(geom.V(-r, 0, 0)), c.Add(geom.V(0, r, 0)),
		c.Add(geom.V(0, -r, 0)), c.Add(geom.V(0, 0, r)), c.Add(geom.V(0, 0, -r)),
	}}
	for _, x := range []int32{0, 1} {
		for _, y := range []int32{2, 3} {
			for _, z := range []int32{4, 5} {
				t := [3]int32{x, y, z}
				// Outward: (y-x)×(z-x) along the octant's diagonal.
				a, b, cc := m.Verts[x], m.Verts[y], m.Verts[z]
				if b.Sub(a).Cross(cc.Sub(a)).Dot(a.Add(b).Add(cc).Sub(c.Scale(3))) < 0 {
					t[1], t[2] = t[2], t[1]
				}
				m.Tris = append(m.Tris, t)
			}
		}
	}
	return m
}

// worldTris returns m's triangles placed at p.
func worldTris(m *mesh.TriMesh, p geom.Pose) []geom.Triangle { return placedTris(m, (p).Normalize()) }

// checkSigned checks what holds for every answer against brute force in
// the common frame: the kind's sign, the witnesses on their triangles,
// Move's length, and, when penetrating, fly moved by Move separated.
func checkSigned(t *testing.T, name string, env *mesh.TriMesh, envPose geom.Pose, fly *mesh.TriMesh, flyPose geom.Pose, s Signed) {
	t.Helper()
	rel := collide.RelativePose((envPose).Normalize(), (flyPose).Normalize())
	switch s.Kind {
	case Apart:
		if !(s.Distance > 0) || s.Lower != 0 || s.Upper != 0 || s.Move != (geom.Vec3{}) {
			t.Fatalf("%s: apart: %+v", name, s)
		}
	case Touching, Overlapping:
		if s.Distance != 0 || s.Lower != 0 || s.Upper != 0 || s.Move != (geom.Vec3{}) || s.Env < 0 {
			t.Fatalf("%s: %v: %+v", name, s.Kind, s)
		}
		// Exactly in contact, in env's frame at rel.
		if !geom.TriTri(env.Triangle(int(s.Env)), rel.ApplyTriangle(fly.Triangle(int(s.Fly)))) {
			t.Fatalf("%s: %v: witness pair %d, %d not in contact", name, s.Kind, s.Env, s.Fly)
		}
	case Penetrating:
		if !(s.Upper > 0) || !(s.Lower >= 0) || s.Lower > s.Upper || s.Distance != -s.Upper {
			t.Fatalf("%s: penetrating: %+v", name, s)
		}
		if math.Abs(s.Move.Norm()-s.Upper) > 1e-12*(1+s.Upper) {
			t.Fatalf("%s: |Move| %v, Upper %v", name, s.Move.Norm(), s.Upper)
		}
		// Move, mapped back to env's frame, separates fly at rel: exactly
		// when envPose does not rotate; else up to the rounding of the
		// rotation there and back (Move is certified in env's frame), so
		// then lengthened by 2^-40 of the coordinates' magnitude.
		e := (envPose).Normalize()
		mv, dir := e.R.Transpose().MulVec(s.Move), e.R.Transpose().MulVec(s.Dir)
		a := placedTris(env, geom.Identity())
		sep := func(mv geom.Vec3) bool {
			b := placedTris(fly, geom.Pose{R: rel.R, T: rel.T.Add(mv)})
			return bruteSeparated(a, b) || planeSepTris(a, b, dir)
		}
		if !sep(mv) && (e.R == geom.Identity3() || !sep(mv.Add(dir.Scale(0x1p-40*(1+rel.T.Norm()+s.Upper))))) {
			t.Fatalf("%s: fly moved by Move %v is not separated", name, s.Move)
		}
	default:
		t.Fatalf("%s: kind %v", name, s.Kind)
	}
	if s.Env >= 0 {
		// The witness points on their triangles, in the common frame.
		ta := worldTris(env, envPose)[s.Env]
		tb := worldTris(fly, flyPose)[s.Fly]
		scale := 1 + s.PEnv.Abs().Max(s.PFly.Abs()).Norm()
		if d := geom.ClosestPointTriangle(s.PEnv, ta).Sub(s.PEnv).Norm(); d > 1e-12*scale {
			t.Fatalf("%s: PEnv %v off its triangle by %v", name, s.PEnv, d)
		}
		if d := geom.ClosestPointTriangle(s.PFly, tb).Sub(s.PFly).Norm(); d > 1e-12*scale {
			t.Fatalf("%s: PFly %v off its triangle by %v", name, s.PFly, d)
		}
	}
}

func TestSignedTouching(t *testing.T) {
	unit := boxMesh(geom.V(0, 0, 0), geom.V(1, 1, 1))
	far := geom.Translation(geom.V(1e6, -3e5, 2.5e5))
	cases := []struct {
		name             string
		env, fly         *mesh.TriMesh
		envPose, flyPose geom.Pose
	}{
		{"face to face", unit, unit, geom.Identity(), geom.Translation(geom.V(1, 0, 0))},
		{"face to face, shifted", unit, unit, geom.Identity(), geom.Translation(geom.V(0.25, 1, -0.5))},
		{"edge to edge", unit, unit, geom.Identity(), geom.Translation(geom.V(1, 1, 0.5))},
		{"vertex to vertex", unit, unit, geom.Identity(), geom.Translation(geom.V(1, 1, 1))},
		{"vertex to face", unit, octahedron(geom.V(1.5, 0.5, 0.5), 0.5), geom.Identity(), geom.Identity()},
		{"vertex to edge", unit, octahedron(geom.V(1.5, 0.5, 0.5), 0.5), geom.Identity(), geom.Translation(geom.V(0, 0.5, 0))},
		{"both translated", unit, unit, geom.Translation(geom.V(3, -2, 5)), geom.Translation(geom.V(3, -1, 5))},
		{"far from the origin", unit, unit, far, geom.Translation(far.T.Add(geom.V(0, 0, 1)))},
		{"zero poses", unit, unit, geom.Pose{}, geom.Pose{T: geom.V(-1, 0, 0)}},
		{"both rotated a quarter", unit, unit, geom.Pose{R: geom.Mat3{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}}}, geom.Pose{R: geom.Mat3{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}}, T: geom.V(0, 1, 0)}},
	}
	for _, c := range cases {
		env, fly := build(t, c.env), build(t, c.fly)
		s, err := SignedDistance(context.Background(), env, c.envPose, fly, c.flyPose, SignedOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if s.Kind != Touching || s.Distance != 0 {
			t.Fatalf("%s: %v, distance %v, want touching, 0: %+v", c.name, s.Kind, s.Distance, s)
		}
		checkSigned(t, c.name, c.env, c.envPose, c.fly, c.flyPose, s)
		if s.PEnv != s.PFly {
			t.Fatalf("%s: contact points %v and %v differ", c.name, s.PEnv, s.PFly)
		}
		// The exact oracle agrees: in contact, and not interpenetrating.
		a, b := worldTris(c.env, c.envPose), worldTris(c.fly, c.flyPose)
		if bruteInterpenetrate(a, b) {
			t.Fatalf("%s: brute force finds a point inside both", c.name)
		}
		// One ulp apart is apart.
		up := (c.flyPose).Normalize()
		d := up.T.Sub((c.envPose).Normalize().T)
		axis := 0
		for i := 0; i < 3; i++ {
			if math.Abs(d.Index(i)) > math.Abs(d.Index(axis)) {
				axis = i
			}
		}
		if c.name == "vertex to face" || c.name == "vertex to edge" || c.name == "both rotated a quarter" || c.name == "both translated" {
			// (One ulp of fly's pose is lost in the relative pose.)
			continue
		}
		tt := [3]float64{up.T.X, up.T.Y, up.T.Z}
		tt[axis] = math.Nextafter(tt[axis], math.Copysign(math.Inf(1), d.Index(axis)))
		up.T = geom.V(tt[0], tt[1], tt[2])
		s2, err := SignedDistance(context.Background(), env, c.envPose, fly, up, SignedOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if s2.Kind != Apart || !(s2.Distance > 0) {
			t.Fatalf("%s one ulp apart: %v %v", c.name, s2.Kind, s2.Distance)
		}
		// And one ulp the other way on every axis of contact, penetrating.
		tt[axis] = up.T.Sub(geom.V(0, 0, 0)).Index(axis)
		tt = [3]float64{(c.flyPose).Normalize().T.X, (c.flyPose).Normalize().T.Y, (c.flyPose).Normalize().T.Z}
		for i := 0; i < 3; i++ {
			if math.Abs(d.Index(i)) == 1 {
				tt[i] = math.Nextafter(tt[i], math.Copysign(math.Inf(1), -d.Index(i)))
			}
		}
		up.T = geom.V(tt[0], tt[1], tt[2])
		s3, err := SignedDistance(context.Background(), env, c.envPose, fly, up, SignedOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if s3.Kind != Penetrating || !(s3.Distance < 0) {
			t.Fatalf("%s one ulp in: %v %v", c.name, s3.Kind, s3.Distance)
		}
		checkSigned(t, c.name+" one ulp in", c.env, c.envPose, c.fly, up, s3)
	}
}

// A box in the corner of an L touches it on two faces: no plane separates
// the hulls and the surfaces meet, so neither certificate holds at the
// pose (the package doc's limit). The answer is Penetrating with Lower 0
// and a tiny Upper: an interval that holds PD = 0, never a wrong sign.
func TestSignedTouchingUncertified(t *testing.T) {
	unit := boxMesh(geom.V(0, 0, 0), geom.V(1, 1, 1))
	s, err := SignedDistance(context.Background(), build(t, lShape(1, geom.Vec3{})), geom.Identity(), build(t, unit), geom.Translation(geom.V(1, 1, 0)), SignedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Kind != Penetrating || s.Lower != 0 || !(s.Upper > 0 && s.Upper < 1e-9) {
		t.Fatalf("%+v", s)
	}
	checkSigned(t, "L corner", lShape(1, geom.Vec3{}), geom.Identity(), unit, geom.Translation(geom.V(1, 1, 0)), s)
}

func TestSignedApart(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 1))
	torus := gen.Must(gen.Torus(geom.Vec3{}, 2, 0.6, 128))
	ball := gen.Must(gen.Icosphere(geom.Vec3{}, 0.5, 80))
	env, fly := build(t, torus), build(t, ball)
	n := 0
	for i := 0; i < 200 && n < 40; i++ {
		ep, fp := randomPose(rng, 5), randomPose(rng, 5)
		s, err := SignedDistance(context.Background(), env, ep, fly, fp, SignedOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rel := collide.RelativePose(ep, fp)
		dr, err := collide.Distance(env, fly, rel, collide.DistanceOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if dr.Distance == 0 {
			continue
		}
		n++
		checkSigned(t, "apart", torus, ep, ball, fp, s)
		if s.Distance != dr.Distance || !(s.Bound >= dr.Bound) || s.Env != dr.Env || s.Fly != dr.Fly {
			t.Fatalf("pose %d: %+v, collide.Distance %+v", i, s, dr)
		}
		// In the common frame: DistanceBetween's answer, its bound widened
		// by the environment's pose.
		db, err := collide.DistanceBetween(context.Background(), env, ep, fly, fp, collide.DistanceOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if s.Bound != db.Bound || s.PEnv != db.PEnv || s.PFly != db.PFly {
			t.Fatalf("pose %d: %+v, collide.DistanceBetween %+v", i, s, db)
		}
		// Brute force in the common frame, within the bound and the
		// rounding of the frames.
		a, b := worldTris(torus, ep), worldTris(ball, fp)
		best := math.Inf(1)
		for _, x := range a {
			for _, y := range b {
				if d, _, _ := geom.TriTriDistance(x, y); d < best {
					best = d
				}
			}
		}
		if math.Abs(best-s.Distance) > s.Bound+1e-12*(1+rel.T.Norm()) {
			t.Fatalf("pose %d: distance %v, brute force in the common frame %v", i, s.Distance, best)
		}
		// The same at (identity, relative).
		s0, err := SignedDistance(context.Background(), env, geom.Identity(), fly, rel, SignedOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if s0.Distance != s.Distance || s0.Kind != s.Kind {
			t.Fatalf("pose %d: %v at (envPose, flyPose), %v at (I, rel)", i, s.Distance, s0.Distance)
		}
	}
	if n < 20 {
		t.Fatalf("only %d poses apart", n)
	}
	// Far, with a cut-off.
	s, err := SignedDistance(context.Background(), env, geom.Identity(), fly, geom.Translation(geom.V(50, 0, 0)), SignedOptions{Max: 1})
	if err != nil || s.Kind != Apart || !s.Far || !math.IsInf(s.Distance, 1) || s.Env != -1 {
		t.Fatalf("far: %+v, %v", s, err)
	}
}

func TestSignedPenetrating(t *testing.T) {
	// Convex: exact, Distance = -PD to a few ulps.
	rng := rand.New(rand.NewPCG(32, 2))
	for i := 0; i < 20; i++ {
		a0 := geom.V(rng.Float64(), rng.Float64(), rng.Float64())
		a1 := a0.Add(geom.V(0.5+rng.Float64(), 0.5+rng.Float64(), 0.5+rng.Float64()))
		env := boxMesh(a0, a1)
		fly := boxMesh(geom.V(0, 0, 0), geom.V(1, 1, 1))
		ep := geom.Translation(geom.V(rng.Float64()*4-2, rng.Float64()*4-2, rng.Float64()*4-2))
		if i%4 == 3 {
			// Far from the origin, rotated.
			ep = geom.FromAxisAngle(geom.V(1, -2, 0.5), rng.Float64()*6, geom.V(3e6, -1e6, 2e5))
		}
		off := geom.V(rng.Float64()*1.2-0.6, rng.Float64()*1.2-0.6, rng.Float64()*1.2-0.6).Add(a0)
		fp := ep.Compose(geom.Translation(off))
		s, err := SignedDistance(context.Background(), build(t, env), ep, build(t, fly), fp, SignedOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rel := collide.RelativePose(ep, fp)
		pd := boxPD(a0, a1, rel.T, rel.T.Add(geom.V(1, 1, 1)))
		if pd == 0 {
			continue
		}
		// rel's translation is exact up to its rounding (far: 1e-9).
		if s.Kind != Penetrating || !s.Exact || math.Abs(s.Distance+pd) > 1e-12 || s.Lower > pd+1e-12 || s.Upper < pd-1e-12 {
			t.Fatalf("boxes %d: %+v, PD %v", i, s, pd)
		}
		checkSigned(t, "boxes", env, ep, fly, fp, s)
	}
	// Non-convex and containment: the interval holds the brute-force
	// translation depth (a direction scan, as TestNonConvexBruteForce).
	for _, c := range nonConvexCases() {
		ep := geom.FromAxisAngle(geom.V(0.3, -1, 0.2), 1.1, geom.V(4, -7, 2))
		fp := ep.Compose(c.pose)
		s, err := SignedDistance(context.Background(), build(t, c.env), ep, build(t, c.fly), fp, SignedOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if s.Kind != Penetrating || !(s.Distance < 0) {
			t.Fatalf("%s: %v %v", c.name, s.Kind, s.Distance)
		}
		checkSigned(t, c.name, c.env, ep, c.fly, fp, s)
		rel := collide.RelativePose(ep, fp)
		// Translation at the relative pose certifies an interval that
		// must meet this one: both hold PD. (The search's order, and with
		// it the direction chosen among equally short ones, may differ
		// from call to call: collide's pooled queries test the last
		// contact first.)
		tr, err := Translation(build(t, c.env), build(t, c.fly), rel, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if tr.Lower > s.Upper || s.Lower > tr.Upper {
			t.Fatalf("%s: signed [%v, %v], Translation at rel [%v, %v]: disjoint", c.name, s.Lower, s.Upper, tr.Lower, tr.Upper)
		}
		if lo := bruteLowerCheck(c.env, c.fly, rel, s.Upper); s.Lower > lo*(1+1e-9) {
			t.Fatalf("%s: Lower %v exceeds a brute-force separating length %v", c.name, s.Lower, lo)
		}
		if s.Lower > 0 && !s.Exact {
			// The witness, mapped back, inside both.
			w := ep.Inverse().Apply(s.Witness)
			sa, sb := newSolid(placedTris(c.env, geom.Identity())), newSolid(placedTris(c.fly, rel))
			if !sa.Contains(w) || !sb.Contains(w) {
				t.Fatalf("%s: witness %v not inside both", c.name, s.Witness)
			}
		}
		t.Logf("%-24s signed %.6f in [%.6f, %.6f]", c.name, s.Distance, -s.Upper, -s.Lower)
	}
}

// bruteLowerCheck returns the shortest separating translation found by a
// scan of directions and lengths up to 1.2 upper, by the exact oracle.
func bruteLowerCheck(env, fly *mesh.TriMesh, rel geom.Pose, upper float64) float64 {
	a, b := placedTris(env, geom.Identity()), placedTris(fly, rel)
	best := math.Inf(1)
	for _, d := range fibonacci(48) {
		const steps = 16
		for k := 1; k <= steps; k++ {
			tt := 1.2 * upper * float64(k) / steps
			if tt >= best {
				break
			}
			v := d.Scale(tt)
			moved := make([]geom.Triangle, len(b))
			for i, tr := range b {
				moved[i] = geom.Triangle{tr[0].Add(v), tr[1].Add(v), tr[2].Add(v)}
			}
			if bruteSeparated(a, moved) {
				best = tt
				break
			}
		}
	}
	return best
}

// A degenerate triangle (a, a, b) is a closed mesh by the edge count (a→b
// and b→a once each) whose solid has no interior: piercing a box, it is
// in contact and cannot interpenetrate, so Touching, not Penetrating.
func TestSignedDegenerate(t *testing.T) {
	seg := &mesh.TriMesh{Verts: []geom.Vec3{geom.V(-1, 0.5, 0.5), geom.V(2, 0.5, 0.5)}, Tris: [][3]int32{{0, 0, 1}}}
	env := build(t, boxMesh(geom.V(0, 0, 0), geom.V(1, 1, 1)))
	fly := build(t, seg)
	s, err := SignedDistance(context.Background(), env, geom.Identity(), fly, geom.Identity(), SignedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Kind != Touching || s.Distance != 0 {
		t.Fatalf("segment through a box: %+v", s)
	}
	s, err = SignedDistance(context.Background(), env, geom.Identity(), fly, geom.Translation(geom.V(0, 2, 0)), SignedOptions{})
	if err != nil || s.Kind != Apart || math.Abs(s.Distance-1.5) > s.Bound {
		t.Fatalf("segment apart: %+v, %v", s, err)
	}
}

func TestSignedOpen(t *testing.T) {
	closed := boxMesh(geom.V(0, 0, 0), geom.V(1, 1, 1))
	open := &mesh.TriMesh{Verts: closed.Verts, Tris: closed.Tris[:len(closed.Tris)-2]}
	env, fly := build(t, closed), build(t, open)
	s, err := SignedDistance(context.Background(), env, geom.Identity(), fly, geom.Translation(geom.V(0.5, 0.25, 0.25)), SignedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Kind != Overlapping || s.Distance != 0 || s.OpenError == nil || s.OpenError.Model != "fly" {
		t.Fatalf("open, overlapping: %+v", s)
	}
	checkSigned(t, "open", closed, geom.Identity(), open, geom.Translation(geom.V(0.5, 0.25, 0.25)), s)
	s, err = SignedDistance(context.Background(), env, geom.Identity(), fly, geom.Translation(geom.V(3, 0, 0)), SignedOptions{})
	if err != nil || s.Kind != Apart || s.Distance != 2 {
		t.Fatalf("open, apart: %+v, %v", s, err)
	}
	// An open mesh inside a closed one: surfaces apart, no solid: apart.
	small := gen.Must(gen.Box(geom.Box(geom.V(0.4, 0.4, 0.4), geom.V(0.6, 0.6, 0.6)), 1))
	small.Tris = small.Tris[1:]
	s, err = SignedDistance(context.Background(), env, geom.Identity(), build(t, small), geom.Identity(), SignedOptions{})
	if err != nil || s.Kind != Apart {
		t.Fatalf("open inside: %+v, %v", s, err)
	}
}

// stopCtx is a context whose Done channel is closed from the start while
// Err says nil for its first n calls: it stops a search at its first look,
// deterministically, after the call's own first check.
type stopCtx struct {
	context.Context
	n    int
	done chan struct{}
}

func (c *stopCtx) Done() <-chan struct{} { return c.done }
func (c *stopCtx) Err() error {
	if c.n > 0 {
		c.n--
		return nil
	}
	return context.Canceled
}

func TestSignedCancel(t *testing.T) {
	torus, ball := gen.Must(gen.Torus(geom.Vec3{}, 2, 0.6, 128)), gen.Must(gen.Icosphere(geom.Vec3{}, 0.5, 80))
	env, fly := build(t, torus), build(t, ball)
	in := geom.Translation(geom.V(2.3, 0.2, 0.1))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := SignedDistance(ctx, env, geom.Identity(), fly, in, SignedOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before: %v", err)
	}
	// Cancelled within the depth search.
	c := &stopCtx{Context: context.Background(), n: 1, done: make(chan struct{})}
	close(c.done)
	if _, err := SignedDistance(c, env, geom.Identity(), fly, in, SignedOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled within: %v", err)
	}
	c = &stopCtx{Context: context.Background(), n: 1, done: make(chan struct{})}
	close(c.done)
	r, err := TranslationContext(c, env, fly, in, Options{})
	if !errors.Is(err, context.Canceled) || !r.Stopped || !(r.Upper > 0) {
		t.Fatalf("TranslationContext cancelled within: %+v, %v", r, err)
	}
	// A deadline passed.
	ctx, cancel = context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel()
	if _, err := SignedDistance(ctx, env, geom.Identity(), fly, in, SignedOptions{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("deadline: %v", err)
	}
	// Bad input: errors, no panic.
	//lint:ignore SA1012 a nil context is the bad input tested
	if _, err := SignedDistance(nil, env, geom.Identity(), fly, in, SignedOptions{}); !errors.Is(err, ErrInvalid) { //nolint:staticcheck
		t.Fatalf("nil context: %v", err)
	}
	if _, err := SignedDistance(context.Background(), nil, geom.Identity(), fly, in, SignedOptions{}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("nil model: %v", err)
	}
	bad := geom.Pose{R: geom.Mat3{{2, 0, 0}, {0, 1, 0}, {0, 0, 1}}}
	if _, err := SignedDistance(context.Background(), env, bad, fly, in, SignedOptions{}); !errors.Is(err, collide.ErrInvalidPose) {
		t.Fatalf("bad env pose: %v", err)
	}
	if _, err := SignedDistance(context.Background(), env, geom.Identity(), fly, bad, SignedOptions{}); !errors.Is(err, collide.ErrInvalidPose) {
		t.Fatalf("bad fly pose: %v", err)
	}
}

// The shape of a model is kept between calls (shapes): an open model's
// error names its role in each call, and concurrent calls agree.
func TestShapeCache(t *testing.T) {
	closed := boxMesh(geom.V(0, 0, 0), geom.V(1, 1, 1))
	open := build(t, &mesh.TriMesh{Verts: closed.Verts, Tris: closed.Tris[1:]})
	box := build(t, closed)
	var oe *OpenError
	for i := 0; i < 2; i++ {
		if _, err := Translation(box, open, geom.Identity(), Options{}); !errors.As(err, &oe) || oe.Model != "fly" {
			t.Fatalf("open fly: %v", err)
		}
		if _, err := Translation(open, box, geom.Identity(), Options{}); !errors.As(err, &oe) || oe.Model != "env" {
			t.Fatalf("open env: %v", err)
		}
	}
	torus, ball := build(t, gen.Must(gen.Torus(geom.Vec3{}, 2, 0.6, 128))), build(t, gen.Must(gen.Icosphere(geom.Vec3{}, 0.5, 80)))
	poses := []geom.Pose{geom.Translation(geom.V(0, 0, 2)), geom.Translation(geom.V(2.3, 0.2, 0.1)), geom.Translation(geom.V(2, 0, 0))}
	want := make([]Signed, len(poses))
	for i, p := range poses {
		s, err := SignedDistance(context.Background(), torus, geom.Identity(), ball, p, SignedOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want[i] = s
	}
	errs := make(chan error, 8)
	for g := 0; g < 4; g++ {
		go func() {
			for i, p := range poses {
				s, err := SignedDistance(context.Background(), torus, geom.Identity(), ball, p, SignedOptions{})
				if err == nil && (s.Kind != want[i].Kind || s.Lower > want[i].Upper || want[i].Lower > s.Upper) {
					err = fmt.Errorf("pose %d: %v [%v, %v], first %v [%v, %v]", i, s.Kind, s.Lower, s.Upper, want[i].Kind, want[i].Lower, want[i].Upper)
				}
				errs <- err
			}
		}()
	}
	for range 4 * len(poses) {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// Models of volumes that do not fly against each other are accepted.
func TestSignedIncompatibleVolumes(t *testing.T) {
	box := boxMesh(geom.V(0, 0, 0), geom.V(1, 1, 1))
	env, err := collide.Build(box, collide.BuildOptions{BV: collide.RSS})
	if err != nil {
		t.Fatal(err)
	}
	fly, err := collide.Build(box, collide.BuildOptions{BV: collide.OBB})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		x    float64
		kind Kind
		d    float64
	}{{1.5, Apart, 0.5}, {1, Touching, 0}, {0.75, Penetrating, -0.25}} {
		s, err := SignedDistance(context.Background(), env, geom.Identity(), fly, geom.Translation(geom.V(c.x, 0, 0)), SignedOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if s.Kind != c.kind || math.Abs(s.Distance-c.d) > 1e-12 {
			t.Fatalf("x = %v: %v %v, want %v %v", c.x, s.Kind, s.Distance, c.kind, c.d)
		}
	}
}
