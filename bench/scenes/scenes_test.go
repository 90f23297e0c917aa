package scenes_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/internal/oracle"
)

// sizes are the scene sizes tested: Quick always, Full with COLLIDE_LONG.
func sizes() []scenes.Size {
	if os.Getenv("COLLIDE_LONG") != "" {
		return []scenes.Size{scenes.Quick, scenes.Full}
	}
	return []scenes.Size{scenes.Quick}
}

func sizeName(s scenes.Size) string {
	if s == scenes.Quick {
		return "quick"
	}
	return "full"
}

// TestScenesAgainstOracle flies every scene with every bounding volume
// (see diagonalsHere), finding all pairs, and checks a sample of the steps against the
// brute-force oracle; Swept must find no contact at all.
func TestScenesAgainstOracle(t *testing.T) {
	for _, size := range sizes() {
		for si, name := range scenes.Names() {
			t.Run(sizeName(size)+"/"+name, func(t *testing.T) {
				sc := mustScene(t, name, size, 1)
				bvs := slices.DeleteFunc(collide.BVs(), func(b collide.BV) bool {
					return b == collide.Brute || !diagonalsHere(b, si)
				})
				steps, every := sc.Steps, 25
				if size == scenes.Full {
					steps, every = min(sc.Steps, 400), 100
				}
				var pairs int64
				for i, bv := range bvs {
					env := mustBuild(t, sc, bv, true)
					fly := mustBuild(t, sc, bv, false)
					m, err := sc.Motion()
					if err != nil {
						t.Fatal(err)
					}
					// Sample different steps for each bounding volume.
					sum, err := flight.Fly(env, fly, m, flight.Options{Steps: steps, Query: collide.QueryOptions{All: true}}, func(st *flight.Step) error {
						if (st.Index+3*i)%every != 0 {
							return nil
						}
						want := oracle.Sweep(sc.Env, sc.Fly, st.Pose, 0)
						if !samePairs(st.Result.Pairs, want) {
							return fmt.Errorf("%s, step %d: %d pairs, the oracle %d", bv, st.Index, len(st.Result.Pairs), len(want))
						}
						return nil
					})
					if err != nil {
						t.Fatal(err)
					}
					if i > 0 && sum.Pairs != pairs {
						t.Errorf("%s found %d pairs in all, %s %d", bv, sum.Pairs, bvs[0], pairs)
					}
					pairs = sum.Pairs
					if name == "swept" && sum.Pairs != 0 {
						t.Errorf("%s: swept found %d pairs; its tetrahedra never touch the axe's path", bv, sum.Pairs)
					}
				}
				if name != "swept" && pairs == 0 {
					t.Errorf("no contact in %d steps", steps)
				}
				t.Logf("%d + %d triangles, %d steps, %d pairs", sc.Env.NumTriangles(), sc.Fly.NumTriangles(), steps, pairs)
			})
		}
	}
}

// diagonalsHere reports whether TestScenesAgainstOracle flies b on scene
// si: every volume on every scene, but for the sets without the axes (8-,
// 12- and 20-DOPs), which share all of the query's code with the others
// but for their directions and by default fly one scene in three each, in
// turn (every scene with COLLIDE_LONG).
func diagonalsHere(b collide.BV, si int) bool {
	i := slices.Index([]collide.BV{collide.KDOP8, collide.KDOP12, collide.KDOP20}, b)
	return i < 0 || os.Getenv("COLLIDE_LONG") != "" || si%3 == i
}

// mustScene makes a scene, skipping the test when the scene needs meshes
// that are not installed.
func mustScene(t *testing.T, name string, size scenes.Size, seed uint64) *scenes.Scene {
	t.Helper()
	sc, err := scenes.New(name, size, seed)
	var missing *scenes.MissingDataError
	if errors.As(err, &missing) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func mustBuild(t *testing.T, sc *scenes.Scene, bv collide.BV, env bool) *collide.Model {
	t.Helper()
	m := sc.Fly
	if env {
		m = sc.Env
	}
	model, err := collide.Build(m, collide.BuildOptions{BV: bv})
	if err != nil {
		t.Fatal(err)
	}
	return model
}

func samePairs(got []collide.Pair, want [][2]int32) bool {
	if len(got) != len(want) {
		return false
	}
	for i, p := range got {
		if p.Env != want[i][0] || p.Fly != want[i][1] {
			return false
		}
	}
	return true
}

// TestSweptOracle checks every step of the quick Swept scene against the
// oracle: the tetrahedra come near the axe but never touch it.
func TestSweptOracle(t *testing.T) {
	sc, err := scenes.New("swept", scenes.Quick, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range sc.Poses {
		if got := oracle.Sweep(sc.Env, sc.Fly, p, 0); len(got) > 0 {
			t.Fatalf("step %d: the axe touches the tetrahedra: %v", i, got[:min(len(got), 5)])
		}
	}
}

func TestScenesDeterministic(t *testing.T) {
	for _, name := range scenes.Names() {
		if scenes.Available(name) != nil {
			continue // TestProximityScenes says why
		}
		a, err := scenes.New(name, scenes.Quick, 7)
		if err != nil {
			t.Fatal(err)
		}
		b, err := scenes.New(name, scenes.Quick, 7)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.Env.Verts, b.Env.Verts) || !slices.Equal(a.Fly.Tris, b.Fly.Tris) || !slices.Equal(a.Poses, b.Poses) || a.Billiard != b.Billiard {
			t.Errorf("%s: two scenes from the same seed differ", name)
		}
		ma, _ := a.Motion()
		mb, _ := b.Motion()
		if pa, pb := flight.Path(ma, 50), flight.Path(mb, 50); !slices.Equal(pa, pb) {
			t.Errorf("%s: two paths from the same seed differ", name)
		}
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := scenes.New("pipe", scenes.Quick, 1); err == nil || !strings.Contains(err.Error(), "pipes") {
		t.Errorf("unknown scene: %v, want an error listing the scenes", err)
	}
	if _, err := scenes.New("pipes", scenes.Size(9), 1); err == nil {
		t.Error("unknown size: no error")
	}
}

// TestProximityScenes checks every pose of the quick scenes made to test
// close proximity (ProximityNames: gears, and the real meshes' dragon,
// knot, parts, blades, handle, cylinders, shell, camel) against the
// brute-force oracle,
// with 18-DOP and OBB trees, both modes: the flight must have poses in
// contact and poses free, and the kinds of pose must be what they claim
// (the poses cycle through them: see gears.go and proximity.go).
func TestProximityScenes(t *testing.T) {
	type test struct {
		name string
		// kinds is the cycle of kinds, from the seed: true where the kind
		// is in contact.
		kinds []bool
	}
	tests := []test{
		// touch, near, free, touch back, last free bit, press.
		{"gears", []bool{true, false, false, true, false, true}},
	}
	for _, name := range scenes.ProximityNames() {
		if scenes.NeedsData(name) {
			// touch, near, press, last free bit.
			tests = append(tests, test{name, []bool{true, false, true, false}})
		}
	}
	if len(tests) != len(scenes.ProximityNames()) {
		t.Errorf("ProximityNames: %q, want gears and the scenes of real meshes", scenes.ProximityNames())
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			const seed = 3
			sc := mustScene(t, tc.name, scenes.Quick, seed)
			if sc.Poses == nil || sc.Steps != len(sc.Poses) {
				t.Fatalf("%d steps, %d poses: want a fixed path", sc.Steps, len(sc.Poses))
			}
			var models [][2]*collide.Model
			for _, bv := range []collide.BV{collide.KDOP18, collide.OBB} {
				models = append(models, [2]*collide.Model{mustBuild(t, sc, bv, true), mustBuild(t, sc, bv, false)})
			}
			var in, free int
			for i, p := range sc.Poses {
				if err := p.Validate(); err != nil {
					t.Fatalf("pose %d: %v", i, err)
				}
				want := oracle.Sweep(sc.Env, sc.Fly, p, 0)
				if len(want) > 0 {
					in++
				} else {
					free++
				}
				if kind := (i + seed) % len(tc.kinds); tc.kinds[kind] != (len(want) > 0) {
					t.Errorf("pose %d, kind %d: %d pairs in contact, want contact %v", i, kind, len(want), tc.kinds[kind])
				}
				for _, m := range models {
					all, err := collide.Check(m[0], m[1], p, collide.QueryOptions{All: true})
					if err != nil {
						t.Fatal(err)
					}
					first, err := collide.Check(m[0], m[1], p, collide.QueryOptions{})
					if err != nil {
						t.Fatal(err)
					}
					if !samePairs(all.Pairs, want) || first.Collide != (len(want) > 0) {
						t.Errorf("pose %d, %s: %d pairs, first contact %v; the oracle %d pairs", i, m[0].BV(), len(all.Pairs), first.Collide, len(want))
					}
				}
			}
			if in == 0 || free == 0 {
				t.Errorf("%d poses in contact, %d free: want both", in, free)
			}
			t.Logf("%d + %d triangles, %d poses, %d in contact", sc.Env.NumTriangles(), sc.Fly.NumTriangles(), len(sc.Poses), in)
		})
	}
}

// TestMissingData checks that the scenes of real meshes, when their meshes
// are not found, fail with an error that says how to install them, and
// that Available says so too.
func TestMissingData(t *testing.T) {
	t.Setenv(scenes.CGALDataEnv, filepath.Join(t.TempDir(), "nowhere.tar.gz"))
	for _, name := range []string{"dragon", "knot", "parts", "blades", "handle", "cylinders", "shell", "camel"} {
		if !scenes.NeedsData(name) {
			t.Errorf("%s: NeedsData is false", name)
		}
		_, err := scenes.New(name, scenes.Quick, 1)
		var missing *scenes.MissingDataError
		if !errors.As(err, &missing) || !strings.Contains(err.Error(), scenes.CGALInstall) || !strings.Contains(err.Error(), scenes.CGALDataEnv) {
			t.Errorf("%s: %v, want a *MissingDataError saying how to install the meshes", name, err)
		}
		if err := scenes.Available(name); !errors.As(err, &missing) {
			t.Errorf("Available(%s): %v", name, err)
		}
	}
	for _, name := range scenes.PaperNames() {
		if scenes.NeedsData(name) || scenes.Available(name) != nil {
			t.Errorf("%s needs data", name)
		}
	}
	if err := scenes.Available("nope"); err == nil {
		t.Error("Available(nope): no error")
	}
}

// TestSlides checks that the poses of parts come in slides: most poses are
// a short move from the one before (a slide carries the spool by a
// seventh of its bounding radius a pose), where those of dragon, each on
// its own line, are not.
func TestSlides(t *testing.T) {
	near := func(name string) (close, all int) {
		sc := mustScene(t, name, scenes.Quick, 1)
		size := sc.Fly.Bounds().Size()
		reach := 0.3 * max(size.X, size.Y, size.Z)
		for i := 1; i < len(sc.Poses); i++ {
			d := sc.Poses[i].T.Sub(sc.Poses[i-1].T)
			if d.Dot(d) <= reach*reach {
				close++
			}
		}
		return close, len(sc.Poses) - 1
	}
	if c, n := near("parts"); 4*c < 3*n {
		t.Errorf("parts: %d of %d poses within 0.3 of the spool's size of the last: want 3 in 4 or more", c, n)
	}
	if c, n := near("dragon"); 4*c > n {
		t.Errorf("dragon: %d of %d poses within 0.3 of the part's size of the last: want 1 in 4 or fewer", c, n)
	}
}
