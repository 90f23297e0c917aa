package bvh_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/ccd"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// toiKinds is one configuration of each kind of tree (and leaves of more
// than one triangle), for the tests of the continuous query's search.
func toiKinds() []bvh.Options {
	return []bvh.Options{
		{K: 6}, {K: 18}, {K: 26, Leaf: 4}, {Kind: bvh.OBB}, {Kind: bvh.Sphere},
		{Kind: bvh.AABB}, {Kind: bvh.RSS, Leaf: 4}, {Kind: bvh.BoxTree},
	}
}

// toiCase is a motion of a scene for the continuous query's tests.
type toiCase struct {
	name     string
	env, fly *mesh.TriMesh
	m        ccd.Motion
}

// toiCases returns the motions of TestTimeOfImpactWindows: seeded random
// motions of a ball through a torus (translating, from afar and through,
// and turning); a box sliding on another's top face, touching, one ulp
// above it and 10^-9 above it (a graze the whole motion long), near the
// origin and 10^6 away; a ball dropped straight onto a face (an
// axis-aligned motion) and one that stops one ulp short of it.
func toiCases() []toiCase {
	v := geom.V
	id := geom.Pose{R: geom.Identity3()}
	at := func(p geom.Vec3) geom.Pose { q := id; q.T = p; return q }
	var cs []toiCase
	torus := must(gen.Torus(geom.Vec3{}, 1, 0.3, 400))
	ball := must(gen.Icosphere(geom.Vec3{}, 0.25, 80))
	rng := rand.New(rand.NewPCG(30, 2))
	unit := func() geom.Vec3 {
		for {
			a := v(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
			if n := a.Norm(); n > 0.1 {
				return a.Scale(1 / n)
			}
		}
	}
	for i := range 6 {
		// From 2 to 4 away, towards a point near the tube (or through).
		aim := v(math.Cos(float64(i)), math.Sin(float64(i)), 0).Add(unit().Scale(0.4 * rng.Float64()))
		from := at(aim.Add(unit().Scale(2 + 2*rng.Float64())))
		to := at(aim.Add(aim.Sub(from.T).Scale(rng.Float64())))
		if i >= 4 {
			from.R = geom.AxisAngle(unit(), rng.Float64()*3).Mat3()
			to.R = geom.AxisAngle(unit(), rng.Float64()*3).Mat3()
		}
		cs = append(cs, toiCase{fmt.Sprintf("torus %d", i), torus, ball, ccd.Motion{From: from, To: to}})
	}
	for _, off := range []float64{0, 1e6} {
		o := v(off, off, off)
		top := must(gen.Box(geom.AABB{Min: o, Max: o.Add(v(1, 1, 1))}, 2))
		small := must(gen.Box(geom.AABB{Max: v(0.2, 0.2, 0.2)}, 1))
		z := o.Z + 1
		for _, gap := range []struct {
			name string
			z    float64
		}{{"touching", z}, {"one ulp above", math.Nextafter(z, 2*z+1)}, {"1e-9 above", z + 1e-9}} {
			m := ccd.Motion{From: at(v(o.X-0.5, o.Y+0.4, gap.z)), To: at(v(o.X+1.3, o.Y+0.4, gap.z))}
			cs = append(cs, toiCase{fmt.Sprintf("slide %s at %g", gap.name, off), top, small, m})
		}
		drop := ccd.Motion{From: at(v(o.X+0.5, o.Y+0.5, z+2)), To: at(v(o.X+0.5, o.Y+0.5, z-0.1))}
		cs = append(cs, toiCase{fmt.Sprintf("drop at %g", off), top, ball, drop})
		short := ccd.Motion{From: at(v(o.X+0.5, o.Y+0.5, z+2)), To: at(v(o.X+0.5, o.Y+0.5, math.Nextafter(z+0.25, 2*z+1)))}
		cs = append(cs, toiCase{fmt.Sprintf("drop one ulp short at %g", off), top, ball, short})
	}
	return cs
}

// TestTimeOfImpactWindows checks the continuous query's search (distance
// steps, windows, screening, pruning) against SweepAll on the motions of
// toiCases for one configuration of every kind: translating motions give
// SweepAll's interval and pair exactly, turning ones its verdict within an
// overlapping interval; no pose sampled before TOI.Lo touches.
func TestTimeOfImpactWindows(t *testing.T) {
	hits := 0
	for _, c := range toiCases() {
		want := bvh.SweepAll(c.env, c.fly, c.m)
		if want.Hit {
			hits++
		}
		for _, o := range toiKinds() {
			env, fly := must(bvh.Build(c.env, o)), must(bvh.Build(c.fly, o))
			got := bvh.TimeOfImpact(env, fly, c.m, bvh.TOIOptions{}, nil)
			name := fmt.Sprintf("%s, %v k%d leaf%d", c.name, o.Kind, o.K, o.Leaf)
			checkTOI(t, name, env, fly, c.m, got, want)
		}
	}
	if hits == 0 {
		t.Error("no motion hit")
	}
}

// checkTOI checks got against SweepAll's want for the motion m.
func checkTOI(t *testing.T, name string, env, fly *bvh.Tree, m ccd.Motion, got, want bvh.TOIResult) {
	t.Helper()
	if got.Stopped || got.Hit != want.Hit || got.Maybe != want.Maybe {
		t.Fatalf("%s: hit %v maybe %v stopped %v %v, every pair: hit %v maybe %v %v", name, got.Hit, got.Maybe, got.Stopped, got.TOI, want.Hit, want.Maybe, want.TOI)
	}
	switch {
	case m.Translating() && (got.Hit && got.TOI != want.TOI || got.Pair != want.Pair):
		t.Fatalf("%s: %v %v, every pair: %v %v", name, got.TOI, got.Pair, want.TOI, want.Pair)
	case got.Hit && (got.TOI.Hi < want.TOI.Lo || want.TOI.Hi < got.TOI.Lo):
		t.Fatalf("%s: %v, every pair: %v", name, got.TOI, want.TOI)
	}
	noContactBefore(t, name, env, fly, m, got)
}

// noContactBefore checks that no pose of m sampled before r.TOI.Lo (before
// 1 if r finds nothing) is in contact.
func noContactBefore(t *testing.T, name string, env, fly *bvh.Tree, m ccd.Motion, r bvh.TOIResult) {
	t.Helper()
	end := 1.0
	if r.Hit || r.Maybe || r.Stopped {
		end = r.TOI.Lo - 1e-9
	}
	s := new(bvh.Scratch)
	for k := range 65 {
		tk := float64(k) / 64
		if tk > end {
			break
		}
		if pairs, _ := collect(env, fly, m.At(tk), bvh.QueryOptions{}, s); len(pairs) > 0 {
			t.Fatalf("%s: contact %v at t = %v, before the reported %v (hit %v)", name, pairs, tk, r.TOI, r.Hit)
		}
	}
}

// TestTimeOfImpactBudget checks the continuous query's budget: a budget of
// n tests, for n doubling from 1, stops the query (Stopped) with what it
// proved (no contact before TOI.Lo, which is no later than the contact;
// a hit's pair touching in TOI, which holds the earliest contact), until
// it is enough, and then the answer is the unbudgeted one; a deadline
// passed stops the query at once, proving nothing.
func TestTimeOfImpactBudget(t *testing.T) {
	cs := toiCases()
	for _, o := range []bvh.Options{{K: 18}, {Kind: bvh.OBB}, {Kind: bvh.BoxTree}} {
		for _, c := range []toiCase{cs[0], cs[4], cs[6]} {
			env, fly := must(bvh.Build(c.env, o)), must(bvh.Build(c.fly, o))
			name := fmt.Sprintf("%s, %v k%d", c.name, o.Kind, o.K)
			full := bvh.TimeOfImpact(env, fly, c.m, bvh.TOIOptions{}, nil)
			if full.Stopped {
				t.Fatalf("%s: stopped without a budget", name)
			}
			r := bvh.TimeOfImpact(env, fly, c.m, bvh.TOIOptions{Budget: bvh.Budget{Deadline: time.Unix(1, 0)}}, nil)
			if !r.Stopped || r.Hit || r.Maybe || r.TOI != (ccd.Interval{Lo: 0, Hi: 1}) {
				t.Errorf("%s: deadline passed: %+v", name, r)
			}
			stops := 0
			for n := int64(1); ; n *= 2 {
				r := bvh.TimeOfImpact(env, fly, c.m, bvh.TOIOptions{Budget: bvh.Budget{Tests: n}}, nil)
				if !r.Stopped {
					if r.Hit != full.Hit || r.Maybe != full.Maybe || r.Pair != full.Pair || r.Hit && r.TOI != full.TOI {
						t.Errorf("%s: budget %d, not stopped: %+v, without a budget %+v", name, n, r, full)
					}
					break
				}
				stops++
				if full.Hit && r.TOI.Lo > full.TOI.Hi || !(r.TOI.Lo >= 0 && r.TOI.Lo <= r.TOI.Hi && r.TOI.Hi <= 1) {
					t.Fatalf("%s: budget %d: %v, without a budget %v", name, n, r.TOI, full.TOI)
				}
				if r.Hit {
					if !full.Hit || r.TOI.Hi < full.TOI.Lo {
						t.Fatalf("%s: budget %d: hit %v, without a budget %v %v", name, n, r.TOI, full.Hit, full.TOI)
					}
					a := c.env.Triangle(int(r.Pair.Env))
					b := c.fly.Triangle(int(r.Pair.Fly))
					if !c.m.Translating() {
						if !geom.TriTri(a, c.m.At(r.TOI.Hi).ApplyTriangle(b)) {
							t.Fatalf("%s: budget %d: pair %v apart at the end of %v", name, n, r.Pair, r.TOI)
						}
					} else if toi, hit := ccd.TriTri(c.m.From.ApplyTriangle(b), a, c.m.To.ApplyTriangle(b), a); !hit || toi.Lo > r.TOI.Hi {
						t.Fatalf("%s: budget %d: pair %v does not touch in %v", name, n, r.Pair, r.TOI)
					}
				}
				noContactBefore(t, name, env, fly, c.m, r)
			}
			if stops == 0 {
				t.Errorf("%s: a budget of one test did not stop the query", name)
			}
		}
	}
}

// BenchmarkTimeOfImpact measures the continuous query on toiCases' first
// translating and first turning motions of the ball through the torus, for
// 18-DOP and AABB trees, beside SweepAll (the oracle, every pair), with the
// pairs decided exactly (exact/op) and the allocations (a Scratch reused
// grows to the models once).
func BenchmarkTimeOfImpact(b *testing.B) {
	cs := toiCases()
	for _, c := range []toiCase{cs[0], cs[4]} {
		for _, o := range []bvh.Options{{K: 18}, {Kind: bvh.AABB}} {
			env, fly := must(bvh.Build(c.env, o)), must(bvh.Build(c.fly, o))
			kind := o.Kind.String()
			if o.Kind == bvh.KDOP {
				kind = fmt.Sprintf("k%d", o.K)
			}
			b.Run(c.name+"/"+kind, func(b *testing.B) {
				b.ReportAllocs()
				s := new(bvh.Scratch)
				var r bvh.TOIResult
				for b.Loop() {
					r = bvh.TimeOfImpact(env, fly, c.m, bvh.TOIOptions{}, s)
				}
				b.ReportMetric(float64(r.Exact), "exact/op")
			})
		}
		b.Run(c.name+"/SweepAll", func(b *testing.B) {
			for b.Loop() {
				bvh.SweepAll(c.env, c.fly, c.m)
			}
		})
	}
}
