package main

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
)

// TestContacts checks collide_contacts' rows against collide.Collide with
// Contacts, pose by pose, and its pairs against check's.
func TestContacts(t *testing.T) {
	env, fly := newBox(t, ""), newBox(t, "")
	poses := []geom.Pose{
		geom.Translation(geom.Vec3{X: 3}),            // apart
		geom.Translation(geom.Vec3{X: 2}),            // touching face to face
		geom.Translation(geom.Vec3{X: 1, Y: 0.5}),    // overlapping
		geom.Translation(geom.Vec3{X: 2.01, Z: 0.3}), // apart by 0.01
	}
	move := geom.Pose{R: geom.AxisAngle(geom.Vec3{X: 1, Y: 1}, 0.4).Mat3(), T: geom.Vec3{X: 5, Y: 6, Z: 7}}
	em, _ := lookupID[*collide.Model](env, "")
	kinds := map[float64]int{}
	for _, envPose := range []geom.Pose{geom.Identity(), move} {
		placed := make([]geom.Pose, len(poses))
		for i, p := range poses {
			placed[i] = envPose.Compose(p)
		}
		var ep []float64
		if envPose != geom.Identity() {
			ep = matrix(envPose)
		}
		for _, all := range []bool{false, true} {
			for _, eps := range []float64{0, 0.1} {
				for _, workers := range []int32{0, 1, 3} {
					name := fmt.Sprintf("placed=%v all=%v eps=%v workers=%d", ep != nil, all, eps, workers)
					h, err := contacts(env, ep, fly, matrices(placed...), len(placed), all, eps, workers)
					if err != nil {
						t.Fatal(err)
					}
					var got []float64
					if h != 0 {
						got, _ = lookupID[[]float64](h, "")
						freeHandle(h)
					}
					var want []float64
					for i, p := range placed {
						r, err := collide.Collide(em, envPose, em, p, collide.QueryOptions{All: all, Eps: eps, Contacts: true})
						if err != nil {
							t.Fatal(err)
						}
						for _, c := range r.Contacts {
							row := []float64{float64(i), float64(c.Pair.Env), float64(c.Pair.Fly), float64(c.Kind), float64(len(c.Points))}
							for j := range 6 {
								if j < len(c.Points) {
									row = append(row, c.Points[j].X, c.Points[j].Y, c.Points[j].Z)
								} else {
									row = append(row, math.NaN(), math.NaN(), math.NaN())
								}
							}
							want = append(want, append(row, c.Normal.X, c.Normal.Y, c.Normal.Z, c.Bound)...)
						}
					}
					if len(got) != len(want) || len(got)%27 != 0 || len(got) == 0 {
						t.Fatalf("%s: %d doubles, want %d (a multiple of 27, not 0)", name, len(got), len(want))
					}
					for i := range got {
						if got[i] != want[i] && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
							t.Fatalf("%s: element %d (contact %d, field %d) = %v, want %v", name, i, i/27, i%27, got[i], want[i])
						}
					}
					hits := make([]bool, len(placed))
					ph, err := check(env, ep, fly, matrices(placed...), len(placed), all, eps, workers, hits, true)
					if err != nil {
						t.Fatal(err)
					}
					pairs, _ := lookupID[[]int64](ph, "")
					freeHandle(ph)
					if len(pairs)/3 != len(got)/27 {
						t.Fatalf("%s: %d contacts, %d pairs", name, len(got)/27, len(pairs)/3)
					}
					plusX := 0
					for i := 0; i < len(got)/27; i++ {
						r := got[27*i:]
						if int64(r[0]) != pairs[3*i] || int64(r[1]) != pairs[3*i+1] || int64(r[2]) != pairs[3*i+2] {
							t.Errorf("%s: contact %d of pair %v, check's pair %v", name, i, r[:3], pairs[3*i:3*i+3])
						}
						kinds[r[3]]++
						if r[0] == 1 && r[3] == 1 && r[23] == 1 && r[24] == 0 && r[25] == 0 {
							plusX++
						}
						if n := math.Hypot(math.Hypot(r[23], r[24]), r[25]); math.Abs(n-1) > 1e-12 {
							t.Errorf("%s: contact %d: normal %v of norm %v", name, i, r[23:26], n)
						}
					}
					// The face to face touch at x = 2: some normal +x.
					if all && eps == 0 && ep == nil && plusX == 0 {
						t.Errorf("%s: no contact at x = 2 has the normal +x", name)
					}
				}
			}
		}
	}
	if kinds[0] == 0 || kinds[1] == 0 || kinds[2] == 0 {
		t.Errorf("kinds seen %v: want apart, touch and cross", kinds)
	}
}

// TestContactsErrors checks collide_contacts' errors and the buffers of
// the two kinds.
func TestContactsErrors(t *testing.T) {
	env, fly := newBox(t, ""), newBox(t, "")
	good := matrices(geom.Identity(), geom.Translation(geom.Vec3{X: 2}), geom.Identity())
	bad := append([]float64(nil), good...)
	bad[16] = 2
	ib := bufferHandle([]int64{1, 2, 3})
	defer freeHandle(ib)
	fb := bufferF64Handle([]float64{1.5, 2.5})
	defer freeHandle(fb)
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"bad pose", func() error { _, err := contacts(env, nil, fly, bad, 3, true, 0, 0); return err }(),
			"poses[1]: pose rotation is not orthonormal with determinant 1"},
		{"NULL poses", func() error { _, err := contacts(env, nil, fly, nil, 3, true, 0, 0); return err }(), "poses is NULL"},
		{"eps", func() error { _, err := contacts(env, nil, fly, good, 3, true, math.Inf(1), 0); return err }(),
			"--eps must be a finite number >= 0, not +Inf"},
		{"workers", func() error { _, err := contacts(env, nil, fly, good, 3, true, 0, -1); return err }(), "workers = -1 is negative (0: every core)"},
		{"env a buffer", func() error { _, err := contacts(fb, nil, fly, good, 3, true, 0, 0); return err }(),
			fmt.Sprintf("env: handle %d is a buffer of doubles, not a model", fb)},
		{"copy f64 as int64", bufferCopy(fb, make([]int64, 2), 2),
			fmt.Sprintf("buffer: handle %d holds doubles, not int64 elements: copy it with collide_buffer_copy_f64", fb)},
		{"copy int64 as f64", bufferCopyF64(ib, make([]float64, 3), 3),
			fmt.Sprintf("buffer: handle %d holds int64 elements, not doubles: copy it with collide_buffer_copy", ib)},
		{"copy f64 of a model", bufferCopyF64(env, make([]float64, 3), 3), fmt.Sprintf("buffer: handle %d is a model, not a buffer of doubles", env)},
		{"copy f64 short", bufferCopyF64(fb, make([]float64, 1), 1), "n = 1, but the buffer holds 2 elements"},
		{"copy f64 NULL", bufferCopyF64(fb, nil, 2), "dst is NULL"},
	} {
		if tc.err == nil || tc.err.Error() != tc.want || code(tc.err) != codeEINVAL {
			t.Errorf("%s: %v (status %d), want %q (EINVAL)", tc.name, tc.err, code(tc.err), tc.want)
		}
	}
	dst := make([]float64, 2)
	if err := bufferCopyF64(fb, dst, 2); err != nil || !reflect.DeepEqual(dst, []float64{1.5, 2.5}) {
		t.Errorf("bufferCopyF64: %v, %v", dst, err)
	}
	if err := bufferCopyF64(0, nil, 0); err != nil {
		t.Errorf("copying the empty buffer 0: %v", err)
	}
	if h, err := contacts(env, nil, fly, matrices(geom.Translation(geom.Vec3{X: 5})), 1, true, 0, 0); h != 0 || err != nil {
		t.Errorf("no contact: buffer %d, %v; want 0", h, err)
	}
}
