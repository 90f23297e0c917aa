package flight_test

import (
	"math"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// plateAndBox returns a thin plate (4 wide, 0.02 thick, at z = 0) and a
// small box (0.2 a side), built.
func plateAndBox(t *testing.T, o collide.BuildOptions) (plate, box *collide.Model) {
	t.Helper()
	pm := gen.Must(gen.Box(geom.AABB{Min: geom.Vec3{X: -2, Y: -2, Z: -0.01}, Max: geom.Vec3{X: 2, Y: 2, Z: 0.01}}, 1))
	bm := gen.Must(gen.Box(geom.AABB{Min: geom.Vec3{X: -0.1, Y: -0.1, Z: -0.1}, Max: geom.Vec3{X: 0.1, Y: 0.1, Z: 0.1}}, 1))
	var err error
	if plate, err = collide.Build(pm, o); err != nil {
		t.Fatal(err)
	}
	if box, err = collide.Build(bm, o); err != nil {
		t.Fatal(err)
	}
	return plate, box
}

// tilt turns the box so that no edge of it is parallel to one of the
// plate.
var tilt = geom.AxisAngle(geom.Vec3{X: 0.3, Y: 0.5, Z: 0.8}, 0.7).Mat3()

// TestFlyCCD flies the box along recorded poses that pass through the
// plate between two samples, and checks each step's continuous query and
// the summary's counts. (The hits need the continuous solvers.)
func TestFlyCCD(t *testing.T) {
	at := func(x, z float64) geom.Pose { return geom.Pose{R: tilt, T: geom.Vec3{X: x, Y: 0.02, Z: z}} }
	poses := []geom.Pose{
		at(0, 1),  // 0: above the plate
		at(0, -1), // 1: below it: the motion passed through (missed)
		at(0, 0),  // 2: in the plate: in contact, met on the way
		at(0, -1), // 3: below: the motion starts in contact (at t = 0)
		at(5, -1), // 4: beside the plate
		at(5, 1),  // 5: up, beside it
	}
	want := []struct {
		collide, hit, missed bool
		toi                  float64 // on a hit; -1: anything
	}{
		{false, false, false, 0},
		{false, true, true, -1},
		{true, true, false, -1},
		{false, true, false, 0},
		{false, false, false, 0},
		{false, false, false, 0},
	}
	// The box's lowest corner is at 0.1·(|r20|+|r21|+|r22|) below its
	// centre; it meets the plate's top, z = 0.01, going down from z = 1 to
	// -1 at t = (0.99 - low)/2.
	low := 0.1 * (math.Abs(tilt[2][0]) + math.Abs(tilt[2][1]) + math.Abs(tilt[2][2]))
	want[1].toi = (0.99 - low) / 2
	for _, bv := range []collide.BV{collide.BVDefault, collide.Brute, collide.OBB} {
		plate, box := plateAndBox(t, collide.BuildOptions{BV: bv})
		for _, all := range []bool{false, true} {
			var steps []flight.Step
			sum, err := flight.Fly(plate, box, &flight.Recorded{Poses: poses}, flight.Options{Steps: len(poses), CCD: true, Query: collide.QueryOptions{All: all}},
				func(st *flight.Step) error {
					c := *st
					c.Result.Pairs = nil
					steps = append(steps, c)
					return nil
				})
			if err != nil {
				t.Fatalf("%s: %v", bv, err)
			}
			if len(steps) != len(poses) {
				t.Fatalf("%s: %d steps, want %d", bv, len(steps), len(poses))
			}
			for i, st := range steps {
				w := want[i]
				if st.HasCCD != (i > 0) {
					t.Errorf("%s step %d: HasCCD %v", bv, i, st.HasCCD)
				}
				if st.Result.Collide != w.collide || st.CCD.Hit != w.hit || st.Missed != w.missed || st.CCD.Maybe {
					t.Errorf("%s step %d: collide %v, ccd hit %v, missed %v, maybe %v; want %v, %v, %v, false",
						bv, i, st.Result.Collide, st.CCD.Hit, st.Missed, st.CCD.Maybe, w.collide, w.hit, w.missed)
				}
				if w.hit && w.toi >= 0 && !(st.CCD.TOI.Lo-1e-12 <= w.toi && w.toi <= st.CCD.TOI.Hi+1e-12) {
					t.Errorf("%s step %d: toi %v, want it to hold %v", bv, i, st.CCD.TOI, w.toi)
				}
				if i > 0 {
					// The same answer as the query of the motion alone.
					r, err := collide.TimeOfImpact(plate, box, poses[i-1], poses[i])
					if err != nil {
						t.Fatal(err)
					}
					if r.Hit != st.CCD.Hit || r.Maybe != st.CCD.Maybe || (r.Hit || r.Maybe) && (r.TOI != st.CCD.TOI || r.Pair != st.CCD.Pair) {
						t.Errorf("%s step %d: %+v, collide.TimeOfImpact says %+v", bv, i, st.CCD, r)
					}
				}
			}
			if sum.CCDSteps != len(poses)-1 || sum.CCDHits != 3 || sum.Missed != 1 || sum.CCDMaybe != 0 || len(sum.CCDTimes) != sum.CCDSteps {
				t.Errorf("%s: summary: %d continuous queries, %d hits, %d missed, %d maybe, %d times; want 5, 3, 1, 0, 5",
					bv, sum.CCDSteps, sum.CCDHits, sum.Missed, sum.CCDMaybe, len(sum.CCDTimes))
			}
			if ts := sum.CCDTimeStats(); ts.Max < ts.Median || ts.Mean <= 0 {
				t.Errorf("%s: continuous query times %+v", bv, ts)
			}
		}
	}
}

// billiardSteps flies the box on a billiard path about the plate, through
// it and back, and returns its steps (without their pairs) and summary.
func billiardSteps(t *testing.T, ccd bool) ([]flight.Step, *flight.Summary) {
	t.Helper()
	plate, box := plateAndBox(t, collide.BuildOptions{})
	cfg := flight.BilliardConfig{
		Bounds: geom.AABB{Min: geom.Vec3{X: -1, Y: -1, Z: -0.5}, Max: geom.Vec3{X: 1, Y: 1, Z: 0.5}},
		Start:  geom.Vec3{X: 0.1, Y: 0.2, Z: 0.3}, Speed: 0.07, Spin: 0.05, Turn: 0.3, Seed: 3,
	}
	var steps []flight.Step
	sum, err := flight.Fly(plate, box, mustBilliard(t, cfg), flight.Options{Steps: billiardN, Front: flight.FrontOff, CCD: ccd}, func(st *flight.Step) error {
		c := *st
		c.Result.Pairs = nil
		steps = append(steps, c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != billiardN {
		t.Fatalf("%d steps, want %d", len(steps), billiardN)
	}
	return steps, sum
}

const billiardN = 60 // steps of billiardSteps

// TestFlyWithoutCCD checks that a flight without Options.CCD asks no
// continuous query, and that one with it answers the same discrete
// queries, and counts what its steps say.
func TestFlyWithoutCCD(t *testing.T) {
	plain, s0 := billiardSteps(t, false)
	with, s1 := billiardSteps(t, true)
	if s0.CCDSteps != 0 || s0.CCDTimes != nil || s0.Missed != 0 || s0.CCDStats != (collide.Stats{}) {
		t.Errorf("without CCD: %+v", s0)
	}
	if s0.Colliding == 0 || s0.Colliding == billiardN {
		t.Fatalf("the flight collides at %d of %d steps: want some", s0.Colliding, billiardN)
	}
	missed, hits, maybe := 0, 0, 0
	for i := range plain {
		a, b := plain[i], with[i]
		if a.HasCCD || a.Missed || a.CCD != (collide.TOIResult{}) || a.CCDTime != 0 {
			t.Errorf("step %d without CCD: %+v", i, a)
		}
		if a.Pose != b.Pose || a.Result.Collide != b.Result.Collide || a.Result.Stats != b.Result.Stats {
			t.Errorf("step %d: CCD changed the discrete query", i)
		}
		if b.HasCCD != (i > 0) {
			t.Errorf("step %d: HasCCD %v", i, b.HasCCD)
		}
		if b.Missed {
			missed++
			if !b.CCD.Hit || b.Result.Collide || with[i-1].Result.Collide {
				t.Errorf("step %d: missed, but %+v", i, b)
			}
		}
		if b.CCD.Hit {
			hits++
		}
		if b.CCD.Maybe {
			maybe++
		}
	}
	if missed != s1.Missed || hits != s1.CCDHits || maybe != s1.CCDMaybe || s1.CCDSteps != billiardN-1 || len(s1.CCDTimes) != billiardN-1 {
		t.Errorf("summary: %d missed, %d hits, %d maybe, %d continuous queries, %d times; the steps say %d, %d, %d, %d",
			s1.Missed, s1.CCDHits, s1.CCDMaybe, s1.CCDSteps, len(s1.CCDTimes), missed, hits, maybe, billiardN-1)
	}
}

// TestFlyCCDEndsInContact checks, on the billiard flight, that a motion
// ending in contact is found in contact (or, turning, within rounding of
// one) by its continuous query. (It needs the continuous solvers.)
func TestFlyCCDEndsInContact(t *testing.T) {
	steps, _ := billiardSteps(t, true)
	for i, st := range steps[1:] {
		if st.Result.Collide && !st.CCD.Hit && !st.CCD.Maybe {
			t.Errorf("step %d: in contact at its end, the continuous query says no contact", i+1)
		}
	}
}
