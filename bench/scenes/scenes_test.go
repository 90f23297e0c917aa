package scenes_test

import (
	"fmt"
	"os"
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

// TestScenesAgainstOracle flies every scene with every bounding volume,
// finding all pairs, and checks a sample of the steps against the
// brute-force oracle; Swept must find no contact at all.
func TestScenesAgainstOracle(t *testing.T) {
	for _, size := range sizes() {
		for _, name := range scenes.Names() {
			t.Run(sizeName(size)+"/"+name, func(t *testing.T) {
				sc, err := scenes.New(name, size, 1)
				if err != nil {
					t.Fatal(err)
				}
				bvs := slices.DeleteFunc(collide.BVs(), func(b collide.BV) bool {
					return b == collide.Brute
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
