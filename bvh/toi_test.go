package bvh_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/ccd"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
	"github.com/collide3d/collide/mesh"
)

// TestTimeOfImpact checks continuous queries against SweepAll (every pair
// of triangles decided alike) for every other configuration of the
// conformance matrix, on translating and turning motions through the
// adversarial scenes: translating motions give SweepAll's answer exactly,
// turning ones the same verdict within an overlapping interval. Every
// answer is checked by sampling: no pose of the motion sampled before
// TOI.Lo is in contact, and a contact's pair touches at its end.
//
// By default every sixth configuration runs (from the fifth, so that a
// box-tree is among them: every kind), each on one scene (the scenes in
// turn), two motions (translating, turning), one on the scenes far from
// the origin;
// COLLIDE_LONG_TESTS=1 every sixth from the first on four motions, and
// COLLIDE_LONG=1 (by hand: minutes) every other configuration on eight. The
// exact path makes the coplanar and far scenes slow (seconds a motion).
func TestTimeOfImpact(t *testing.T) {
	scenes := coherenceScenes()
	hits, maybes := 0, 0
	step, motions := 6, 2
	switch {
	case longtest.Exhaustive():
		step, motions = 2, 8
	case longtest.Enabled():
		step, motions = 6, 4
	}
	if testing.Short() {
		step = 12
	}
	off := longtest.Pick(4, 0)
	for ci, c := range configs() {
		if c.q.Restart || ci%step != off {
			continue
		}
		sc := scenes[(ci/step)%len(scenes)]
		far := strings.Contains(sc.Name, "far")
		env, fly := must(bvh.Build(sc.Env, c.opts)), must(bvh.Build(sc.Fly, c.opts))
		centre, size := sceneFrame(sc.Env)
		rng := rand.New(rand.NewPCG(uint64(ci), 18))
		s := new(bvh.Scratch)
		for i := range motions {
			from := randomPose(rng, centre, size)
			to := from
			to.T = to.T.Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(size / 2))
			if i%2 == 1 {
				to = randomPose(rng, centre, size)
			}
			m := ccd.Motion{From: from, To: to}
			if far && !longtest.Enabled() && i != (ci/step)%2 {
				continue // one motion, translating or turning in turn
			}
			got := bvh.TimeOfImpact(env, fly, m, bvh.TOIOptions{}, s)
			want := bvh.SweepAll(sc.Env, sc.Fly, m)
			name := func() string { return c.String() + "/" + sc.Name }
			if got.Hit != want.Hit || got.Maybe != want.Maybe {
				t.Fatalf("%s motion %d: hit %v maybe %v %v, every pair: hit %v maybe %v %v", name(), i, got.Hit, got.Maybe, got.TOI, want.Hit, want.Maybe, want.TOI)
			}
			switch {
			case m.Translating() && (got.TOI != want.TOI && got.Hit || got.Pair != want.Pair):
				t.Fatalf("%s motion %d: %v %v, every pair: %v %v", name(), i, got.TOI, got.Pair, want.TOI, want.Pair)
			case got.Hit && (got.TOI.Hi < want.TOI.Lo || want.TOI.Hi < got.TOI.Lo):
				t.Fatalf("%s motion %d: %v, every pair: %v", name(), i, got.TOI, want.TOI)
			}
			if got.Hit {
				hits++
				wmax := ccd.MaxWidth
				if !m.Translating() {
					wmax *= 32
				}
				if got.TOI.Width() > wmax {
					t.Fatalf("%s motion %d: interval %v too wide", name(), i, got.TOI)
				}
				a := sc.Env.Triangle(int(got.Pair.Env))
				b := sc.Fly.Triangle(int(got.Pair.Fly))
				if m.Translating() {
					if toi, hit := ccd.TriTri(from.ApplyTriangle(b), a, to.ApplyTriangle(b), a); !hit || toi.Hi < got.TOI.Lo || toi.Lo > got.TOI.Hi {
						t.Fatalf("%s motion %d: pair %v meets at %v %v, reported %v", name(), i, got.Pair, hit, toi, got.TOI)
					}
				} else if !geom.TriTri(a, m.At(got.TOI.Hi).ApplyTriangle(b)) {
					t.Fatalf("%s motion %d: pair %v apart at the end of %v", name(), i, got.Pair, got.TOI)
				}
			}
			if got.Maybe {
				maybes++
			}
			end := 1.0
			if got.Hit || got.Maybe {
				end = got.TOI.Lo - 1e-9
			}
			for k := range 64 {
				tk := float64(k) / 64
				if tk > end {
					break
				}
				if pairs, _ := collect(env, fly, m.At(tk), bvh.QueryOptions{}, s); len(pairs) > 0 {
					t.Fatalf("%s motion %d: contact %v at t = %v, before the reported %v (hit %v)", name(), i, pairs, tk, got.TOI, got.Hit)
				}
			}
		}
	}
	t.Logf("%d contacts, %d maybes", hits, maybes)
	if hits == 0 {
		t.Error("no motion met the environment")
	}
}

// oneTri is the model of one triangle.
func oneTri(a, b, c geom.Vec3) *mesh.TriMesh {
	return &mesh.TriMesh{Verts: []geom.Vec3{a, b, c}, Tris: [][3]int32{{0, 1, 2}}}
}

// turningCase is a turning motion of a triangle of size 2 against a
// large one, with its answer known: no contact, or the earliest contact at
// toi exactly.
type turningCase struct {
	name     string
	fly      *mesh.TriMesh
	from, to geom.Pose
	hit      bool
	toi      float64
}

// turningCases are motions the bisection of a turning motion used to give
// up on after 4,096 spans (issue 28): a gap that stays small while the
// triangle turns fast, a slow approach to a certain contact, a near miss.
func turningCases() []turningCase {
	v := geom.V
	flat := oneTri(v(1, 0, 0), v(-0.5, 0.8660254037844386, 0), v(-0.5, -0.8660254037844386, 0))
	swing := oneTri(v(0, 0, -1), v(0.5, 0, 0), v(-0.5, 0.1, 0))
	rz := func(a float64) geom.Mat3 { return geom.AxisAngle(v(0, 0, 1), a).Mat3() }
	rx := func(a float64) geom.Mat3 { return geom.AxisAngle(v(1, 0, 0), a).Mat3() }
	var cs []turningCase
	for _, gap := range []float64{1e-2, 1e-4, 1e-6, 1e-9} {
		// A quarter turn about the normal, at a constant gap; then also
		// sliding.
		cs = append(cs,
			turningCase{"constant gap", flat, geom.Pose{R: rz(0), T: v(0, 0, gap)}, geom.Pose{R: rz(math.Pi / 2), T: v(0, 0, gap)}, false, 0},
			turningCase{"constant gap, sliding", flat, geom.Pose{R: rz(0.3), T: v(-1, 0.5, gap)}, geom.Pose{R: rz(2), T: v(1, -0.5, gap)}, false, 0},
			// A vertex swinging down to gap above the plane at t = 1/2.
			turningCase{"near miss", swing, geom.Pose{R: rx(-math.Pi / 4), T: v(-0.3, 0, 1+gap)}, geom.Pose{R: rx(math.Pi / 4), T: v(0.3, 0, 1+gap)}, false, 0})
	}
	for _, d := range []float64{0.1, 0.01, 0.001} {
		// Spinning a quarter turn while sinking slowly through the plane,
		// overlapping the other triangle: flat on it at t = 1/2.
		cs = append(cs, turningCase{"spinning through the plane", flat, geom.Pose{R: rz(0), T: v(0, 0, d)}, geom.Pose{R: rz(math.Pi / 2), T: v(0, 0, -d)}, true, 0.5})
	}
	return cs
}

// TestTimeOfImpactTurningClose checks turning motions that pass close to
// the environment or approach it slowly: each is decided (no Maybe), as
// known, within a few hundred spans of time; a contact's interval holds the
// earliest time and ends at a pose where the pair touches; no pose sampled
// before TOI.Lo touches. TimeOfImpact (trees) and SweepAll agree.
func TestTimeOfImpactTurningClose(t *testing.T) {
	v := geom.V
	env := oneTri(v(-5, -5, 0), v(10, -5, 0), v(-5, 10, 0))
	envTree := must(bvh.Build(env, bvh.Options{}))
	s := new(bvh.Scratch)
	for _, c := range turningCases() {
		m := ccd.Motion{From: c.from, To: c.to}
		flyTree := must(bvh.Build(c.fly, bvh.Options{}))
		for _, r := range []bvh.TOIResult{bvh.SweepAll(env, c.fly, m), bvh.TimeOfImpact(envTree, flyTree, m, bvh.TOIOptions{}, s)} {
			gap := c.from.T.Z
			if r.Maybe || r.Hit != c.hit {
				t.Errorf("%s (%g): hit %v maybe %v %v after %d spans, want hit %v", c.name, gap, r.Hit, r.Maybe, r.TOI, r.Spans, c.hit)
				continue
			}
			if r.Spans > 500 {
				t.Errorf("%s (%g): %d spans of time", c.name, gap, r.Spans)
			}
			if r.Hit {
				if !r.TOI.Contains(c.toi) {
					t.Errorf("%s (%g): %v does not hold %v", c.name, gap, r.TOI, c.toi)
				}
				if !geom.TriTri(env.Triangle(0), m.At(r.TOI.Hi).ApplyTriangle(c.fly.Triangle(0))) {
					t.Errorf("%s (%g): apart at the end of %v", c.name, gap, r.TOI)
				}
			}
			end := 1.0
			if r.Hit {
				end = r.TOI.Lo
			}
			for k := range 257 {
				tk := float64(k) / 256 * end
				if geom.TriTri(env.Triangle(0), m.At(tk).ApplyTriangle(c.fly.Triangle(0))) {
					t.Errorf("%s (%g): contact at t = %v, before %v", c.name, gap, tk, r.TOI)
					break
				}
			}
		}
	}
}

// TestTimeOfImpactTurningRandom checks random tumbling motions of a
// triangle of size 2 through and past a plane: no Maybe, a turning hit at
// most 32·ccd.MaxWidth wide and touching at its end, no contact sampled
// before it, and no pair's bisection visits more than a few hundred spans.
func TestTimeOfImpactTurningRandom(t *testing.T) {
	v := geom.V
	env := oneTri(v(-5, -5, 0), v(10, -5, 0), v(-5, 10, 0))
	fly := oneTri(v(1, 0, 0), v(-0.5, 0.8660254037844386, 0.3), v(-0.5, -0.8660254037844386, -0.2))
	rng := rand.New(rand.NewPCG(3, 4))
	unit := func() geom.Vec3 {
		for {
			a := v(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
			if n := a.Norm(); n > 0.1 {
				return a.Scale(1 / n)
			}
		}
	}
	hits := 0
	for i := range 200 {
		from := geom.Pose{R: geom.AxisAngle(unit(), rng.Float64()*3).Mat3(), T: v(rng.Float64(), rng.Float64(), 1.2+rng.Float64())}
		to := geom.Pose{R: geom.AxisAngle(unit(), rng.Float64()*3).Mat3(), T: v(rng.Float64(), rng.Float64(), rng.Float64()*2-0.5)}
		m := ccd.Motion{From: from, To: to}
		r := bvh.SweepAll(env, fly, m)
		if r.Maybe || r.Spans > 500 {
			t.Errorf("motion %d: maybe %v %v after %d spans", i, r.Maybe, r.TOI, r.Spans)
		}
		if r.Hit {
			hits++
			if r.TOI.Width() > 32*ccd.MaxWidth || !geom.TriTri(env.Triangle(0), m.At(r.TOI.Hi).ApplyTriangle(fly.Triangle(0))) {
				t.Errorf("motion %d: hit %v", i, r.TOI)
			}
		}
		end := 1.0
		if r.Hit {
			end = r.TOI.Lo
		}
		for k := range 65 {
			if tk := float64(k) / 64 * end; geom.TriTri(env.Triangle(0), m.At(tk).ApplyTriangle(fly.Triangle(0))) {
				t.Fatalf("motion %d: contact at t = %v, before %v (hit %v)", i, tk, r.TOI, r.Hit)
			}
		}
	}
	if hits < 50 {
		t.Errorf("%d of 200 motions hit", hits)
	}
}
