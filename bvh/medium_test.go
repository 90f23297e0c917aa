package bvh_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
	"github.com/collide3d/collide/internal/testgeom"
)

// mediumPairs runs CollideMedium and returns the union of both walks'
// pairs, sorted, without repeats, and how many calls each walk made.
func mediumPairs(env, fly *bvh.Tree, pose geom.Pose, o bvh.QueryOptions, m *bvh.Medium) (got [][2]int32, calls [2]int) {
	var ps [2][][2]int32
	var fns [2]func(bvh.Pair) bool
	for i := range fns {
		fns[i] = func(p bvh.Pair) bool {
			ps[i] = append(ps[i], [2]int32{p.Env, p.Fly})
			return true
		}
	}
	bvh.CollideMedium(env, fly, pose, o, m, fns)
	got = append(ps[0], ps[1]...)
	slices.SortFunc(got, func(a, b [2]int32) int {
		if a[0] != b[0] {
			return int(a[0] - b[0])
		}
		return int(a[1] - b[1])
	})
	return slices.Compact(got), [2]int{len(ps[0]), len(ps[1])}
}

// TestCollideMedium checks the medium grain against the sequential query
// on the configurations of the conformance suite but the slow builds' (by
// default a sixth of them per scene, in turn) over the adversarial scenes
// at the identity and a random pose, the first walk testing 16 pairs of
// nodes and leaving 2 to share, or 64 and 8 (shared dynamically), with or
// without a tolerance, in turn: all pairs, the same set; first contact, in
// contact iff the sequential query is, with one pair of that set, with and
// without a State (which tests the last contact first); and some queries
// did share their walk.
func TestCollideMedium(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 35))
	shared := 0
	for si, sc := range testgeom.AdversarialScenes(3) {
		c := sc.Env.Bounds().Center()
		size := sc.Env.Bounds().Size().Norm()
		poses := []geom.Pose{{}, randomPose(rng, c, 0.05*size)}
		if strings.HasPrefix(sc.Name, "lattice") {
			poses = poses[1:] // the lattices take many pairs: one pose each
		}
		var s bvh.Scratch
		for ci, cf := range sampleConfigs(configs(), si) {
			if cf.opts.Rule == bvh.MinSum || cf.opts.Rule == bvh.MinMax || cf.opts.Split != bvh.Mean {
				continue // the build's variants walk alike; the walk's are kept
			}
			if !longtest.Enabled() && (ci+si)%2 != 0 {
				continue // by default half of them per scene, in turn
			}
			env := must(bvh.Build(sc.Env, cf.opts))
			fly := must(bvh.Build(sc.Fly, cf.opts))
			for _, least := range []int{2, 8}[si%2 : si%2+1] {
				var m bvh.Medium
				var ps bvh.PairState
				m.SetMinItems(least, 8*least)
				m.SetDynamic(least == 8)
				for i, p := range poses {
					for _, eps := range []float64{0, 0.01 * size}[:1+(i+si)%2] {
						o := cf.q
						o.All, o.Eps = true, eps
						want, _ := collect(env, fly, p, o, &s)
						got, _ := mediumPairs(env, fly, p, o, &m)
						if !slices.Equal(got, want) {
							t.Errorf("%s %v pose %d eps %g least %d: %d pairs, sequential %d (missing %v, extra %v)",
								sc.Name, cf, i, eps, least, len(got), len(want), diff(want, got), diff(got, want))
						}
						if m.Shared() > 0 {
							shared++
						}
						o.All = false
						for _, state := range []*bvh.PairState{nil, &ps} {
							o.State = state
							first, calls := mediumPairs(env, fly, p, o, &m)
							switch {
							case len(want) == 0 && len(first) != 0:
								t.Errorf("%s %v pose %d eps %g state %v: first contact %v, sequential none", sc.Name, cf, i, eps, state != nil, first)
							case len(want) > 0 && (len(first) != 1 || calls[0]+calls[1] != 1):
								t.Errorf("%s %v pose %d eps %g state %v: first contact: %v (calls %v), want one pair", sc.Name, cf, i, eps, state != nil, first, calls)
							case len(want) > 0 && !slices.Contains(want, first[0]):
								t.Errorf("%s %v pose %d eps %g state %v: first contact %v is not in contact", sc.Name, cf, i, eps, state != nil, first)
							}
						}
					}
				}
			}
		}
	}
	if shared == 0 {
		t.Error("no query shared its walk between the two goroutines")
	}
}
