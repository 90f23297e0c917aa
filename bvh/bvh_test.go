package bvh_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// config is one way of building and querying trees.
type config struct {
	opts bvh.Options
	q    bvh.QueryOptions
}

func (c config) String() string {
	if c.opts.Kind != bvh.KDOP {
		s := fmt.Sprintf("%v/%v/%v/leaf%d", c.opts.Kind, c.opts.Rule, c.opts.Split, c.opts.Leaf)
		if c.q.Restart {
			s += "/restart"
		}
		return s
	}
	s := fmt.Sprintf("k%d/%v/%v/leaf%d/fly%d", c.opts.K, c.opts.Rule, c.opts.Split, c.opts.Leaf, c.opts.FlyLeaf)
	if c.opts.Float64 {
		s += "/f64"
	}
	if c.opts.Compact {
		s += "/compact"
	}
	if c.q.Restart {
		s += "/restart"
	}
	if c.q.ExactRoot {
		s += "/exactroot"
	}
	if c.opts.SplitDirs {
		s += "/splitdirs"
	}
	if c.opts.Oscillate > 0 {
		s += fmt.Sprintf("/oscillate%d", c.opts.Oscillate)
	}
	return s
}

// configs returns the configurations of the conformance suite, which the
// tests below run against the brute-force oracle: for k-DOP trees the full
// matrix of k, rule and split point, and for each k the variants of leaf
// sizes, storage, traversal and root update; for every other kind of tree
// each rule that applies to it with each split point, and larger leaves. A
// new kind of tree adds its configurations here.
//
// The sets without the axes (8-, 12- and 20-DOPs) share every line of the
// builder and the walk with the others, but for their directions: by
// default they get seven configurations each (the default tree, one rule
// and split point besides, leaves of four, float64, compact, a restart and
// an exact root); with the long cases, all of them.
func configs() []config {
	var cs []config
	for _, k := range bv.Ks {
		if !longtest.Enabled() && (k == bv.K8 || k == bv.K12 || k == bv.K20) {
			cs = append(cs,
				config{opts: bvh.Options{K: k}},
				config{opts: bvh.Options{K: k, Rule: bvh.MinSum, Split: bvh.Median}},
				config{opts: bvh.Options{K: k, Leaf: 4, FlyLeaf: 1}},
				config{opts: bvh.Options{K: k, Float64: true}},
				config{opts: bvh.Options{K: k, Compact: true, Leaf: 4, FlyLeaf: 1}},
				config{opts: bvh.Options{K: k}, q: bvh.QueryOptions{Restart: true}},
				config{opts: bvh.Options{K: k, FlyLeaf: 2}, q: bvh.QueryOptions{ExactRoot: true}},
			)
			continue
		}
		for r := bvh.Splatter; r <= bvh.MinMax; r++ {
			for s := bvh.Mean; s <= bvh.Median; s++ {
				cs = append(cs, config{opts: bvh.Options{K: k, Rule: r, Split: s}})
			}
		}
		cs = append(cs,
			config{opts: bvh.Options{K: k, Leaf: 4, FlyLeaf: 1}},
			config{opts: bvh.Options{K: k, FlyLeaf: 16}},
			config{opts: bvh.Options{K: k, Float64: true}},
			config{opts: bvh.Options{K: k, Compact: true}},
			config{opts: bvh.Options{K: k, Compact: true, Leaf: 4, FlyLeaf: 1}},
			config{opts: bvh.Options{K: k}, q: bvh.QueryOptions{Restart: true}},
			config{opts: bvh.Options{K: k, FlyLeaf: 2}, q: bvh.QueryOptions{ExactRoot: true}},
		)
	}
	for _, kind := range []bvh.Kind{bvh.OBB, bvh.Sphere, bvh.AABB, bvh.RSS} {
		for r := bvh.Splatter; r <= bvh.RAPID; r++ {
			if r == bvh.RAPID && kind != bvh.OBB || r == bvh.MinMax {
				continue
			}
			for s := bvh.Mean; s <= bvh.Median; s++ {
				cs = append(cs, config{opts: bvh.Options{Kind: kind, Rule: r, Split: s}})
			}
		}
		cs = append(cs, config{opts: bvh.Options{Kind: kind, Leaf: 4}},
			config{opts: bvh.Options{Kind: kind}, q: bvh.QueryOptions{Restart: true}})
	}
	return append(cs,
		config{opts: bvh.Options{Kind: bvh.BoxTree}},
		config{opts: bvh.Options{Kind: bvh.BoxTree, Leaf: 4}},
		config{opts: bvh.Options{Kind: bvh.BoxTree, Leaf: 16}},
		config{opts: bvh.Options{Kind: bvh.BoxTree, Leaf: 4}, q: bvh.QueryOptions{Restart: true}},
	)
}

// sampleConfigs returns cs when the long cases run (COLLIDE_LONG_TESTS=1,
// package internal/longtest) and otherwise every third configuration from
// the (n mod 3)th. Each kind's run of configurations in configs() (and in
// TestTolerance's part of it) is at least three long, so every third still has every kind, every k and a
// restart; a test that samples with n = 0, 1, 2 for its scenes in turn
// runs every configuration on a third of its scenes.
func sampleConfigs(cs []config, n int) []config {
	if longtest.Enabled() {
		return cs
	}
	var s []config
	for i, c := range cs {
		if i%3 == n%3 {
			s = append(s, c)
		}
	}
	return s
}

func randomPose(rng *rand.Rand, about geom.Vec3, spread float64) geom.Pose {
	axis := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
	t := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(spread)
	p := geom.FromAxisAngle(axis, rng.Float64()*6.3, t)
	// Rotate about the given point so that the models still meet.
	p.T = p.T.Add(about).Sub(p.R.MulVec(about))
	return p
}

// collect runs Collide and returns the pairs found, sorted.
func collect(env, fly *bvh.Tree, pose geom.Pose, q bvh.QueryOptions, s *bvh.Scratch) ([][2]int32, bvh.Stats) {
	var got [][2]int32
	st := bvh.Collide(env, fly, pose, q, s, func(p bvh.Pair) bool {
		got = append(got, [2]int32{p.Env, p.Fly})
		return true
	})
	slices.SortFunc(got, func(a, b [2]int32) int {
		if a[0] != b[0] {
			return int(a[0] - b[0])
		}
		return int(a[1] - b[1])
	})
	return got, st
}

// checkScene builds env and fly with every configuration and compares the
// queries at each pose, in both modes, with the brute-force oracle.
func checkScene(t *testing.T, name string, envM, flyM *mesh.TriMesh, poses []geom.Pose, eps float64, cs []config) {
	t.Helper()
	checkSceneBy(t, name, envM, flyM, poses, eps, cs, bvh.Build)
}

// checkSceneBy is checkScene with the trees made by build (Build, or a
// refit to the scene's vertices).
func checkSceneBy(t *testing.T, name string, envM, flyM *mesh.TriMesh, poses []geom.Pose, eps float64, cs []config,
	build func(*mesh.TriMesh, bvh.Options) (*bvh.Tree, error)) {
	t.Helper()
	want := make([][][2]int32, len(poses))
	for i, p := range poses {
		want[i] = testgeom.Brute(envM, flyM, p, eps)
	}
	// Trees test one triangle of each group of identical ones (twins) and
	// report the group's pairs: every pair of firsts is tested.
	envFirst, flyFirst := testgeom.FirstOfTwins(envM), testgeom.FirstOfTwins(flyM)
	tested := make([]int64, len(poses))
	for i := range poses {
		for _, p := range want[i] {
			if envFirst[p[0]] && flyFirst[p[1]] {
				tested[i]++
			}
		}
	}
	var s bvh.Scratch
	for _, c := range cs {
		var ps bvh.PairState
		env, err := build(envM, c.opts)
		if err != nil {
			t.Fatalf("%s %v: Build(env): %v", name, c, err)
		}
		if err := env.Validate(); err != nil {
			t.Fatalf("%s %v: env: %v", name, c, err)
		}
		fly, err := build(flyM, c.opts)
		if err != nil {
			t.Fatalf("%s %v: Build(fly): %v", name, c, err)
		}
		if err := fly.Validate(); err != nil {
			t.Fatalf("%s %v: fly: %v", name, c, err)
		}
		for i, p := range poses {
			q := c.q
			q.Eps = eps
			q.All = true
			got, st := collect(env, fly, p, q, &s)
			if !slices.Equal(got, want[i]) {
				t.Errorf("%s %v pose %d eps %g: %d pairs, oracle %d (missing %v, extra %v)",
					name, c, i, eps, len(got), len(want[i]), diff(want[i], got), diff(got, want[i]))
				continue
			}
			// Pairs in contact take volume tests, but for two trees of one
			// leaf each, whose triangles OBB, AABB, sphere and RSS
			// queries test directly.
			if st.TriTests < tested[i] || (len(got) > 0 && st.BVTests+st.LeafTests == 0 && env.Nodes()+fly.Nodes() > 2) {
				t.Errorf("%s %v pose %d: stats %+v for %d pairs, %d between firsts of twins", name, c, i, st, len(got), tested[i])
			}
			// First contact, from scratch and with the pair's state kept
			// over the poses (which tests the last contact first).
			q.All = false
			for _, state := range []*bvh.PairState{nil, &ps} {
				q.State = state
				first, _ := collect(env, fly, p, q, &s)
				switch {
				case len(want[i]) == 0 && len(first) != 0:
					t.Errorf("%s %v pose %d state %v: first contact %v, oracle none", name, c, i, state != nil, first)
				case len(want[i]) > 0 && (len(first) != 1 || !slices.Contains(want[i], first[0])):
					t.Errorf("%s %v pose %d state %v: first contact %v is not one oracle pair", name, c, i, state != nil, first)
				}
			}
		}
	}
}

// diff returns up to 5 pairs of a not in b.
func diff(a, b [][2]int32) [][2]int32 {
	var d [][2]int32
	for _, p := range a {
		if !slices.Contains(b, p) {
			d = append(d, p)
			if len(d) == 5 {
				break
			}
		}
	}
	return d
}

// TestAdversarialIdentity checks every configuration on the adversarial
// soups (touching, coplanar, degenerate, near misses by an ulp, far from the
// origin, tiny) at the identity pose, where contact is exact; by default a
// third of the configurations on each scene, in turn (sampleConfigs).
func TestAdversarialIdentity(t *testing.T) {
	for si, sc := range testgeom.AdversarialScenes(3) {
		checkScene(t, sc.Name, sc.Env, sc.Fly, []geom.Pose{geom.Identity()}, 0, sampleConfigs(configs(), si))
	}
}

// TestAdversarialPoses checks every configuration on the adversarial soups
// at random rotations and translations (by default a third of them on each
// scene, in turn).
func TestAdversarialPoses(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for si, sc := range testgeom.AdversarialScenes(4) {
		b := sc.Env.Bounds()
		var poses []geom.Pose
		for range 2 {
			poses = append(poses, randomPose(rng, b.Center(), 0.05*b.Size().Norm()))
		}
		poses = append(poses, geom.Translation(b.Size().Scale(0.01)))
		checkScene(t, sc.Name, sc.Env, sc.Fly, poses, 0, sampleConfigs(configs(), si))
	}
}

// TestTolerance checks queries with eps > 0 against the oracle (by default
// a third of the configurations on each scene, in turn).
func TestTolerance(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var cs []config
	for _, c := range configs() {
		if c.opts.Rule == bvh.Splatter && c.opts.Split == bvh.Mean {
			cs = append(cs, c)
		}
	}
	for si, sc := range testgeom.AdversarialScenes(5)[:8] {
		b := sc.Env.Bounds()
		size := b.Size().Norm()
		poses := []geom.Pose{geom.Identity(), randomPose(rng, b.Center(), 0.05*size)}
		checkScene(t, sc.Name, sc.Env, sc.Fly, poses, 0.01*size, sampleConfigs(cs, si))
	}
}

// TestHeldOut checks generated models, which the tests above never use, at
// random poses: a torus and a sphere, a terrain and a capsule, a field of
// disjoint tetrahedra and a box (by default a third of the configurations
// on each).
func TestHeldOut(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	scenes := []struct {
		name     string
		env, fly *mesh.TriMesh
	}{
		{"torus-sphere", gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 800)), gen.Must(gen.Icosphere(geom.V(1, 0, 0), 0.35, 320))},
		{"terrain-capsule", gen.Must(gen.Terrain(16, 4, 1, 0.5, 3)), gen.Must(gen.Capsule(0.3, 1, 300))},
		{"tetrahedra-box", gen.Must(gen.Tetrahedra(150, geom.AABB{Max: geom.V(4, 4, 4)}, 0.4, 5)), gen.Must(gen.Box(geom.AABB{Min: geom.V(1, 1, 1), Max: geom.V(2.5, 2.5, 2.5)}, 4))},
	}
	for si, sc := range scenes {
		b := sc.env.Bounds()
		poses := []geom.Pose{geom.Identity()}
		for range 3 {
			poses = append(poses, randomPose(rng, b.Center(), 0.2*b.Size().Norm()))
		}
		// A rotation off by 10^-7, which poses may be (geom.Pose.Validate
		// accepts 10^-6): the trees that move their volumes rigidly pad for
		// it.
		sloppy := randomPose(rng, b.Center(), 0.2*b.Size().Norm())
		for i := range 3 {
			for j := range 3 {
				sloppy.R[i][j] += 1e-7 * (2*rng.Float64() - 1)
			}
		}
		if err := sloppy.Validate(); err != nil {
			t.Fatal(err)
		}
		poses = append(poses, sloppy)
		checkScene(t, sc.name, sc.env, sc.fly, poses, 0, sampleConfigs(configs(), si))
	}
}

// TestMixedKinds checks queries between models whose trees are of different
// kinds: the flying model is given a tree of the environment's kind with
// As (Collide refuses trees of different kinds).
func TestMixedKinds(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	envM := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 800))
	flyM := gen.Must(gen.Icosphere(geom.V(1, 0, 0), 0.35, 320))
	kinds := []bvh.Options{{}, {K: bv.K6}, {Kind: bvh.OBB}, {Kind: bvh.Sphere}, {Kind: bvh.AABB}, {Kind: bvh.RSS}, {Kind: bvh.BoxTree, Leaf: 4}}
	b := envM.Bounds()
	poses := []geom.Pose{geom.Identity()}
	for range 3 {
		poses = append(poses, randomPose(rng, b.Center(), 0.2*b.Size().Norm()))
	}
	var s bvh.Scratch
	for i, eo := range kinds {
		env := must(bvh.Build(envM, eo))
		fo := kinds[(i+1)%len(kinds)]
		fly := must(bvh.Build(flyM, fo))
		if eo.Kind != fo.Kind && bvh.SameKind(env, fly) {
			t.Fatalf("env %v, fly %v: SameKind", eo.Kind, fo.Kind)
		}
		fly = must(fly.As(eo.Kind))
		for j, p := range poses {
			want := testgeom.Brute(envM, flyM, p, 0)
			got, _ := collect(env, fly, p, bvh.QueryOptions{All: true}, &s)
			if !slices.Equal(got, want) {
				t.Errorf("env %v, fly %v, pose %d: %d pairs, oracle %d", eo.Kind, fo.Kind, j, len(got), len(want))
			}
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestSpheres checks the spheres at levels of detail of every kind of tree:
// level 0 is one sphere, level l at most 2^l, and every level contains
// every vertex.
func TestSpheres(t *testing.T) {
	m := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 600))
	for _, o := range []bvh.Options{{}, {Kind: bvh.OBB}, {Kind: bvh.Sphere}, {Kind: bvh.AABB}, {Kind: bvh.RSS}, {Kind: bvh.BoxTree}} {
		tr := must(bvh.Build(m, o))
		prev := 0
		for l := range 12 {
			s := tr.Spheres(l, nil)
			if len(s) == 0 || len(s) > 1<<l || len(s) < prev {
				t.Errorf("%v level %d: %d spheres (level above: %d)", o.Kind, l, len(s), prev)
			}
			prev = len(s)
			for v, p := range m.Verts {
				if !slices.ContainsFunc(s, func(sp bv.Sphere) bool { return sp.Contains(p) }) {
					t.Fatalf("%v level %d: vertex %d is in no sphere", o.Kind, l, v)
				}
			}
		}
		if got := tr.Spheres(30, nil); len(got) != tr.Nodes()/2+1 && o.Kind != bvh.BoxTree {
			t.Errorf("%v: %d spheres at the leaves, want %d", o.Kind, len(got), tr.Nodes()/2+1)
		}
	}
}
