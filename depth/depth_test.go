package depth

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// checkResult checks what holds for every answer: Lower ≤ Upper, Move of
// length Upper along Dir, and Move separating by the brute-force oracle.
func checkResult(t *testing.T, name string, env, fly *mesh.TriMesh, pose geom.Pose, r Result) {
	t.Helper()
	if !(r.Lower >= 0) || !(r.Lower <= r.Upper) {
		t.Fatalf("%s: Lower %v, Upper %v", name, r.Lower, r.Upper)
	}
	if r.Move != (geom.Vec3{}) {
		if math.Abs(r.Move.Norm()-r.Upper) > 1e-12*(1+r.Upper) {
			t.Fatalf("%s: |Move| = %v, Upper %v", name, r.Move.Norm(), r.Upper)
		}
		if d := r.Dir.Scale(r.Move.Norm()).Sub(r.Move).Norm(); d > 1e-9*r.Upper {
			t.Fatalf("%s: Dir %v is not Move %v's direction", name, r.Dir, r.Move)
		}
	}
	want := geom.Pose{R: pose.R, T: pose.T.Add(r.Move)}
	if r.Pose != want {
		t.Fatalf("%s: Pose %v, want %v", name, r.Pose, want)
	}
	a := placedTris(env, geom.Identity())
	b := placedTris(fly, r.Pose)
	if r.Upper > 0 && !bruteSeparated(a, b) && !planeSepTris(a, b, r.Dir) {
		t.Fatalf("%s: fly moved by %v (Upper %v) is not separated", name, r.Move, r.Upper)
	}
}

func planeSepTris(a, b []geom.Triangle, u geom.Vec3) bool {
	var pa, pb []geom.Vec3
	for _, x := range a {
		pa = append(pa, x[:]...)
	}
	for _, y := range b {
		pb = append(pb, y[:]...)
	}
	return planeSeparates(u, pa, pb)
}

// boxPD is the closed form for axis-aligned boxes: the least push along
// the six axis directions, 0 if one is ≤ 0.
func boxPD(a0, a1, b0, b1 geom.Vec3) float64 {
	best := math.Inf(1)
	for i := 0; i < 3; i++ {
		best = min(best, a1.Index(i)-b0.Index(i), b1.Index(i)-a0.Index(i))
	}
	return max(best, 0)
}

func TestConvexBoxes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 60; it++ {
		r := func() float64 { return float64(rng.IntN(9)) / 2 }
		a0 := geom.V(r(), r(), r())
		a1 := a0.Add(geom.V(0.5+r(), 0.5+r(), 0.5+r()))
		b0 := geom.V(r(), r(), r())
		b1 := b0.Add(geom.V(0.5+r(), 0.5+r(), 0.5+r()))
		env, fly := boxMesh(a0, a1), boxMesh(b0, b1)
		res, err := Translation(build(t, env), build(t, fly), geom.Identity(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := boxPD(a0, a1, b0, b1)
		if !res.Exact || !res.Stats.Convex && want > 0 {
			t.Fatalf("boxes %v-%v, %v-%v: not exact: %+v", a0, a1, b0, b1, res)
		}
		if math.Abs(res.Lower-want) > 1e-12 || math.Abs(res.Upper-want) > 1e-12 {
			t.Fatalf("boxes %v-%v, %v-%v: got [%v, %v], want %v", a0, a1, b0, b1, res.Lower, res.Upper, want)
		}
		checkResult(t, "boxes", env, fly, geom.Identity(), res)
	}
}

func TestConvexAgainstMinkowski(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	shapes := []func(c geom.Vec3, s float64) *mesh.TriMesh{
		func(c geom.Vec3, s float64) *mesh.TriMesh { return gen.Must(gen.Icosphere(c, s, 80)) },
		func(c geom.Vec3, s float64) *mesh.TriMesh { return hullMesh(rng, 4, s, c) }, // tetrahedra
		func(c geom.Vec3, s float64) *mesh.TriMesh { return hullMesh(rng, 12, s, c) },
		func(c geom.Vec3, s float64) *mesh.TriMesh { return hullMesh(rng, 40, s, c) },
		func(c geom.Vec3, s float64) *mesh.TriMesh {
			return boxMesh(c.Sub(geom.V(s, s/2, s/3)), c.Add(geom.V(s, s/2, s/3)))
		},
	}
	n := 0
	for it := 0; it < 120; it++ {
		scale := math.Pow(10, float64(rng.IntN(7)-3))
		env := shapes[rng.IntN(len(shapes))](geom.Vec3{}, scale)
		fly := shapes[rng.IntN(len(shapes))](geom.Vec3{}, scale*(0.3+rng.Float64()))
		pose := randomPose(rng, 1.5*scale)
		res, err := Translation(build(t, env), build(t, fly), pose, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := minkowskiPD(meshPoints(env, geom.Identity()), meshPoints(fly, pose))
		if w2 := axesPD(env, fly, pose); math.Abs(w2-want) > 1e-10*scale {
			t.Fatalf("it %d: the oracles disagree: Minkowski hull %v, all axes %v", it, want, w2)
		}
		if want > 0 {
			n++
		}
		tol := 1e-10 * scale
		if !res.Exact || !res.Stats.Convex {
			t.Fatalf("it %d: not exact: %+v", it, res)
		}
		if math.Abs(res.Lower-want) > tol || res.Upper-want > tol {
			t.Fatalf("it %d (scale %g): got [%v, %v], Minkowski oracle %v", it, scale, res.Lower, res.Upper, want)
		}
		checkResult(t, "convex", env, fly, pose, res)
	}
	if n < 40 {
		t.Errorf("only %d of 120 convex pairs interpenetrate", n)
	}
}

func TestTouchingAndSeparated(t *testing.T) {
	one := geom.V(1, 1, 1)
	cases := []struct {
		name     string
		env, fly *mesh.TriMesh
		pose     geom.Pose
	}{
		{"boxes sharing a face", boxMesh(geom.Vec3{}, one), boxMesh(geom.V(1, 0, 0), geom.V(2, 1, 1)), geom.Identity()},
		{"boxes sharing an edge", boxMesh(geom.Vec3{}, one), boxMesh(geom.V(1, 1, 0), geom.V(2, 2, 1)), geom.Identity()},
		{"boxes apart", boxMesh(geom.Vec3{}, one), boxMesh(geom.Vec3{}, one), geom.Translation(geom.V(0, 0, 1.5))},
		{"L and box apart", lShape(1, geom.Vec3{}), boxMesh(geom.Vec3{}, one), geom.Translation(geom.V(3, 3, 0))},
		{"torus and ball in its hole", gen.Must(gen.Torus(geom.Vec3{}, 2, 0.5, 200)), gen.Must(gen.Icosphere(geom.Vec3{}, 1, 80)), geom.Identity()},
		{"L touching box in its notch", lShape(1, geom.Vec3{}), boxMesh(geom.V(1, 1, 0), geom.V(2, 2, 1)), geom.Identity()},
	}
	for _, c := range cases {
		res, err := Translation(build(t, c.env), build(t, c.fly), c.pose, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.Lower != 0 || res.Upper > 1e-9 {
			t.Errorf("%s: got [%v, %v], want 0", c.name, res.Lower, res.Upper)
		}
		checkResult(t, c.name, c.env, c.fly, c.pose, res)
		t.Logf("%s: [%v, %v] exact %v, %+v", c.name, res.Lower, res.Upper, res.Exact, res.Stats)
	}
}

// nonConvexCases are the pairs of the brute-force tests.
func nonConvexCases() []struct {
	name     string
	env, fly *mesh.TriMesh
	pose     geom.Pose
} {
	one := geom.V(1, 1, 1)
	return []struct {
		name     string
		env, fly *mesh.TriMesh
		pose     geom.Pose
	}{
		{"torus/ball through tube", gen.Must(gen.Torus(geom.Vec3{}, 2, 0.6, 128)), gen.Must(gen.Icosphere(geom.Vec3{}, 0.5, 80)), geom.Translation(geom.V(2.3, 0.2, 0.1))},
		{"torus/box", gen.Must(gen.Torus(geom.Vec3{}, 2, 0.6, 128)), boxMesh(geom.V(-0.4, -0.4, -0.4), geom.V(0.4, 0.4, 0.4)), geom.FromAxisAngle(geom.V(1, 2, 3), 0.7, geom.V(1.5, 1.2, 0.3))},
		{"L/box in notch", lShape(1, geom.Vec3{}), boxMesh(geom.Vec3{}, one), geom.Translation(geom.V(0.7, 0.8, 0.2))},
		{"U/box in slot", uShape(1, geom.Vec3{}), boxMesh(geom.Vec3{}, geom.V(1.4, 1, 1)), geom.Translation(geom.V(0.8, 0.6, 0.1))},
		{"U/L rotated", uShape(1, geom.Vec3{}), lShape(0.8, geom.Vec3{}), geom.FromAxisAngle(geom.V(0, 0, 1), 0.4, geom.V(1.2, 0.5, 0.3))},
		{"box inside box", boxMesh(geom.V(-2, -2, -2), geom.V(2, 2, 2)), boxMesh(geom.V(-0.5, -0.5, -0.5), geom.V(0.5, 0.5, 0.5)), geom.FromAxisAngle(geom.V(1, 1, 0), 0.3, geom.V(0.3, 0, 0))},
		{"ball inside L", lShape(2, geom.Vec3{}), gen.Must(gen.Icosphere(geom.V(1, 1, 1), 0.5, 80)), geom.Identity()},
		{"torus/torus linked", gen.Must(gen.Torus(geom.Vec3{}, 2, 0.5, 160)), gen.Must(gen.Torus(geom.Vec3{}, 2, 0.5, 160)), geom.FromAxisAngle(geom.V(1, 0, 0), math.Pi/2, geom.V(3.5, 0.1, 0))},
	}
}

func TestNonConvexBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range nonConvexCases() {
		res, err := Translation(build(t, c.env), build(t, c.fly), c.pose, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkResult(t, c.name, c.env, c.fly, c.pose, res)
		if res.Upper <= 0 || res.Exact != res.Stats.Convex {
			t.Fatalf("%s: %+v", c.name, res)
		}
		a := placedTris(c.env, geom.Identity())
		b := placedTris(c.fly, c.pose)
		// Brute-force direction search: along each direction, the first
		// step of a scan that the oracle finds separated.
		bruteBest := math.Inf(1)
		dirs := fibonacci(60)
		for i := 0; i < 20; i++ {
			dirs = append(dirs, geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit())
		}
		for _, d := range dirs {
			const steps = 24
			for k := 1; k <= steps; k++ {
				tt := 1.2 * res.Upper * float64(k) / steps
				if tt >= bruteBest {
					break
				}
				v := d.Scale(tt)
				moved := make([]geom.Triangle, len(b))
				for i, tr := range b {
					moved[i] = geom.Triangle{tr[0].Add(v), tr[1].Add(v), tr[2].Add(v)}
				}
				if bruteSeparated(a, moved) {
					bruteBest = tt
					break
				}
			}
		}
		if res.Lower > bruteBest*(1+1e-9) {
			t.Fatalf("%s: Lower %v exceeds a brute-force separating length %v", c.name, res.Lower, bruteBest)
		}
		// Shorter than Lower by 1%, in random directions: still
		// interpenetrating (a point inside both, found by brute force).
		if res.Lower > 0 && !res.Exact {
			sa, sb := newSolid(a), newSolid(b)
			dA, _ := sa.Distance(res.Witness)
			dB, _ := sb.Distance(res.Witness)
			if !sa.Contains(res.Witness) || !sb.Contains(res.Witness) || dA+dB < res.Lower {
				t.Fatalf("%s: witness %v: inside %v %v, dA+dB = %v < Lower %v", c.name, res.Witness, sa.Contains(res.Witness), sb.Contains(res.Witness), dA+dB, res.Lower)
			}
			for i := 0; i < 40; i++ {
				u := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
				v := u.Scale(0.99 * res.Lower)
				moved := make([]geom.Triangle, len(b))
				for j, tr := range b {
					moved[j] = geom.Triangle{tr[0].Add(v), tr[1].Add(v), tr[2].Add(v)}
				}
				mid := res.Witness.Add(v.Scale(dA / (dA + dB)))
				if !bruteInterpenetrate(a, moved, mid) {
					t.Fatalf("%s: moved by %v (0.99 Lower) the solids do not interpenetrate", c.name, v)
				}
			}
		}
		t.Logf("%-24s Lower %.6f Upper %.6f brute %.6f ratio %.3f  %+v", c.name, res.Lower, res.Upper, bruteBest, res.Upper/max(res.Lower, 1e-300), res.Stats)
	}
}

func TestErrors(t *testing.T) {
	box := build(t, boxMesh(geom.Vec3{}, geom.V(1, 1, 1)))
	open := boxMesh(geom.Vec3{}, geom.V(1, 1, 1))
	open.Tris = open.Tris[:len(open.Tris)-1]
	openM := build(t, open)
	if _, err := Translation(box, openM, geom.Identity(), Options{}); err == nil {
		t.Fatal("open fly accepted")
	} else {
		var oe *OpenError
		if !errors.As(err, &oe) || oe.Model != "fly" || len(oe.Tris) != 1 || oe.Forward+oe.Backward != 1 {
			t.Fatalf("open fly: %v (%#v)", err, oe)
		}
		t.Log(err)
	}
	if _, err := Translation(openM, box, geom.Identity(), Options{}); err == nil {
		t.Fatal("open env accepted")
	}
	// Flipped triangle: edges used twice in one direction.
	flip := boxMesh(geom.Vec3{}, geom.V(1, 1, 1))
	flip.Tris[3] = [3]int32{flip.Tris[3][0], flip.Tris[3][2], flip.Tris[3][1]}
	var oe *OpenError
	if _, err := Translation(box, build(t, flip), geom.Identity(), Options{}); !errors.As(err, &oe) || oe.Tri > 3 {
		t.Fatalf("flipped triangle: %v", err)
	}
	if _, err := Translation(nil, box, geom.Identity(), Options{}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("nil env: %v", err)
	}
	empty, err := collide.Build(&mesh.TriMesh{}, collide.BuildOptions{})
	if err == nil {
		if _, err := Translation(box, empty, geom.Identity(), Options{}); !errors.Is(err, ErrEmpty) {
			t.Fatalf("empty fly: %v", err)
		}
	}
	bad := geom.Identity()
	bad.T.X = math.NaN()
	if _, err := Translation(box, box, bad, Options{}); !errors.Is(err, collide.ErrInvalidPose) {
		t.Fatalf("NaN pose: %v", err)
	}
	bad = geom.Identity()
	bad.R[0][0] = 2
	if _, err := Translation(box, box, bad, Options{}); !errors.Is(err, collide.ErrInvalidPose) {
		t.Fatalf("bad rotation: %v", err)
	}
	nan := boxMesh(geom.Vec3{}, geom.V(1, 1, 1))
	nan.Verts[0].X = math.Inf(1)
	if _, err := NewSolid(nan); !errors.Is(err, ErrInvalid) {
		t.Fatalf("infinite vertex: %v", err)
	}
	if _, err := NewSolid(nil); !errors.Is(err, ErrInvalid) {
		t.Fatalf("nil mesh: %v", err)
	}
}

func TestWinding(t *testing.T) {
	// Points on vertices, edges and faces of a grid box, and rays through
	// its edges and vertices: exact classification.
	m := gen.Must(gen.Box(geom.Box(geom.V(-1, -1, -1), geom.V(1, 1, 1)), 2))
	s, err := NewSolid(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []float64{-2, -1, -0.5, 0, 0.5, 1, 2} {
		for _, y := range []float64{-2, -1, -0.5, 0, 0.5, 1, 2} {
			for _, z := range []float64{-2, -1, -0.5, 0, 0.5, 1, 2} {
				p := geom.V(x, y, z)
				w, on := s.Winding(p)
				ax, ay, az := math.Abs(x), math.Abs(y), math.Abs(z)
				wantOn := max(ax, ay, az) == 1
				wantIn := max(ax, ay, az) < 1
				if on != wantOn || !on && (w != 0) != wantIn || wantIn && w != 1 {
					t.Fatalf("%v: w %d on %v", p, w, on)
				}
			}
		}
	}
	// Reversed orientation: w = -1, still inside.
	r := &mesh.TriMesh{Verts: m.Verts}
	for _, tr := range m.Tris {
		r.Tris = append(r.Tris, [3]int32{tr[0], tr[2], tr[1]})
	}
	sr, _ := NewSolid(r)
	if w, on := sr.Winding(geom.Vec3{}); w != -1 || on || !sr.Contains(geom.V(0.5, 0.5, 0)) {
		t.Fatalf("reversed: %d %v", w, on)
	}
	// Random points in a torus against the analytic test, away from the
	// surface's faceting.
	tor := gen.Must(gen.Torus(geom.Vec3{}, 2, 0.7, 2000))
	st, _ := NewSolid(tor)
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 2000; i++ {
		p := geom.V(6*rng.Float64()-3, 6*rng.Float64()-3, 2*rng.Float64()-1)
		rho := math.Hypot(p.X, p.Y)
		d := math.Hypot(rho-2, p.Z)
		if math.Abs(d-0.7) < 0.05 {
			continue
		}
		if st.Contains(p) != (d < 0.7) {
			t.Fatalf("torus: %v (d %v)", p, d)
		}
	}
}

// TestOnePointDeep: a ball at the centre of a bigger ball: the bound is
// tight (PD = R + r), reached by the witness at the centre.
func TestBallInBall(t *testing.T) {
	env := gen.Must(gen.Icosphere(geom.Vec3{}, 2, 320))
	fly := gen.Must(gen.Icosphere(geom.Vec3{}, 0.5, 80))
	res, err := Translation(build(t, env), build(t, fly), geom.Translation(geom.V(0.1, 0, 0)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, "ball in ball", env, fly, geom.Translation(geom.V(0.1, 0, 0)), res)
	want := axesPD(env, fly, geom.Translation(geom.V(0.1, 0, 0)))
	if !res.Exact || math.Abs(res.Lower-want) > 1e-12 {
		t.Fatalf("%+v, want %v", res, want)
	}
}

// TestScale: the same non-convex pair at scales 1e-6 to 1e6 scales.
func TestScale(t *testing.T) {
	var ref Result
	for _, s := range []float64{1, 1e-6, 1e6} {
		env := lShape(s, geom.Vec3{})
		fly := boxMesh(geom.Vec3{}, geom.V(s, s, s))
		pose := geom.Translation(geom.V(0.7*s, 0.8*s, 0.2*s))
		res, err := Translation(build(t, env), build(t, fly), pose, Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, "scaled", env, fly, pose, res)
		if s == 1 {
			ref = res
			continue
		}
		if math.Abs(res.Lower/s-ref.Lower) > 1e-6*ref.Lower || math.Abs(res.Upper/s-ref.Upper) > 1e-3*ref.Upper {
			t.Errorf("scale %g: [%v, %v], at 1: [%v, %v]", s, res.Lower/s, res.Upper/s, ref.Lower, ref.Upper)
		}
	}
}

// TestSlidingContact: a box in a slot of its own width touches the slot's
// walls under every small translation, so PD = 0 cannot be certified:
// Lower is 0 and Upper the length of the way out (the documented limit).
func TestSlidingContact(t *testing.T) {
	env, fly := uShape(1, geom.Vec3{}), boxMesh(geom.V(1, 1, 0), geom.V(2, 2, 1))
	res, err := Translation(build(t, env), build(t, fly), geom.Identity(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, "box in slot", env, fly, geom.Identity(), res)
	if res.Lower != 0 || res.Upper > 1+1e-9 {
		t.Fatalf("got [%v, %v], want [0, ≤ 1]", res.Lower, res.Upper)
	}
}

// TestDegenerate: zero-volume closed meshes (a doubled triangle), closed
// meshes with degenerate triangles, and a mesh with two components.
func TestDegenerate(t *testing.T) {
	flat := &mesh.TriMesh{Verts: []geom.Vec3{{X: 0}, {X: 1}, {Y: 1}}, Tris: [][3]int32{{0, 1, 2}, {0, 2, 1}}}
	box := boxMesh(geom.V(-1, -1, -1), geom.V(1, 1, 1))
	res, err := Translation(build(t, box), build(t, flat), geom.Identity(), Options{})
	if err != nil || res.Lower != 0 || res.Upper != 0 {
		t.Fatalf("flat fly: %+v %v", res, err)
	}
	// A box with a collapsed triangle (two equal corners) and a
	// duplicated vertex position.
	deg := boxMesh(geom.V(-1, -1, -1), geom.V(1, 1, 1))
	deg.Verts = append(deg.Verts, deg.Verts[0])
	deg.Tris = append(deg.Tris, [3]int32{0, int32(len(deg.Verts) - 1), 1})
	two := voxels([][3]int{{0, 0, 0}, {3, 0, 0}}, 1, geom.V(-1.5, -0.5, -0.5))
	res, err = Translation(build(t, deg), build(t, two), geom.Identity(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, "degenerate/two components", deg, two, geom.Identity(), res)
	// PD = 0.5 (along -x) is reached only where both cubes touch the box's
	// faces, and every translation near it makes contact: no certificate
	// applies there, so Upper is the next way out (+y, 1.5), a documented
	// limit.
	if math.Abs(res.Lower-0.5) > 1e-9 || res.Upper > 1.5+1e-6 {
		t.Fatalf("two components: %+v", res)
	}
	t.Logf("degenerate/two components: [%v, %v]", res.Lower, res.Upper)
}
