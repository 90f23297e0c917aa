package bvh_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// ch6Configs are the builds of the dissertation's chapter 6 that change a
// tree: splitting along every direction of the k-DOP (each rule, both
// split points) and the oscillating tree (1 to 3 levels, each rule), for
// every k.
func ch6Configs() []config {
	var cs []config
	for _, k := range bv.Ks {
		for r := bvh.Splatter; r <= bvh.MinMax; r++ {
			cs = append(cs,
				config{opts: bvh.Options{K: k, Rule: r, SplitDirs: true}},
				config{opts: bvh.Options{K: k, Rule: r, Oscillate: 2}})
		}
		cs = append(cs,
			config{opts: bvh.Options{K: k, SplitDirs: true, Split: bvh.Median, Leaf: 3, FlyLeaf: 2}},
			config{opts: bvh.Options{K: k, Rule: bvh.MinMax, Oscillate: 3, Leaf: 2}},
			config{opts: bvh.Options{K: k, Oscillate: 1, SplitDirs: true, Split: bvh.Median}},
			config{opts: bvh.Options{K: k, Rule: bvh.MinSum, Oscillate: 2, SplitDirs: true, FlyLeaf: 1}})
	}
	return cs
}

// TestCh6Trees checks the trees of ch6Configs against the brute-force
// oracle on the adversarial soups (touching, coplanar, degenerate, far
// from the origin, tiny), at the identity and at a random pose (by
// default a sixth of the configurations on each scene, in turn: each on
// three scenes or more), and on a torus and a sphere within a tolerance
// (by default a third of them, see sampleConfigs); checkScene validates
// every tree it builds.
func TestCh6Trees(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 6))
	cs := ch6Configs()
	for si, sc := range testgeom.AdversarialScenes(36) {
		b := sc.Env.Bounds()
		poses := []geom.Pose{geom.Identity(), randomPose(rng, b.Center(), 0.05*b.Size().Norm())}
		var some []config
		for i, c := range cs {
			if i%6 == si%6 || longtest.Enabled() {
				some = append(some, c)
			}
		}
		checkScene(t, sc.Name, sc.Env, sc.Fly, poses, 0, some)
	}
	env := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 300))
	fly := gen.Must(gen.Icosphere(geom.V(1, 0, 0), 0.35, 80))
	poses := []geom.Pose{randomPose(rng, geom.Vec3{}, 0.3), randomPose(rng, geom.Vec3{}, 0.3)}
	checkScene(t, "torus-sphere", env, fly, poses, 0.01, sampleConfigs(cs, 0))
}

// TestCh6SameTrees checks the options against the trees they must
// reproduce: splitting along every direction of a 6-DOP (its directions
// are the axes) builds the default tree of each rule, bit for bit, and so
// does oscillating one level (two sets have one bipartition, the plain
// split).
func TestCh6SameTrees(t *testing.T) {
	ms := []*mesh.TriMesh{gen.Must(gen.Icosphere(geom.Vec3{}, 1, 500)), testgeom.AdversarialScenes(2)[0].Env}
	for mi, m := range ms {
		for r := bvh.Splatter; r <= bvh.MinMax; r++ {
			for s := bvh.Mean; s <= bvh.Median; s++ {
				for _, c := range []struct {
					plain, ch6 bvh.Options
				}{
					{bvh.Options{K: bv.K6, Rule: r, Split: s}, bvh.Options{K: bv.K6, Rule: r, Split: s, SplitDirs: true}},
					{bvh.Options{K: bv.K18, Rule: r, Split: s}, bvh.Options{K: bv.K18, Rule: r, Split: s, Oscillate: 1}},
				} {
					if a, b := saved(t, m, c.plain), saved(t, m, c.ch6); !bytes.Equal(a, b) {
						t.Errorf("mesh %d: %+v builds another tree than %+v", mi, c.ch6, c.plain)
					}
				}
			}
		}
	}
}

// saved returns the encoding of m's tree built with o.
func saved(t *testing.T, m *mesh.TriMesh, o bvh.Options) []byte {
	t.Helper()
	tr, err := bvh.Build(m, o)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := tr.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestCh6Regroupings checks the oscillating builder's counts: one
// regrouping per internal node over three triangles or more, the plain
// split kept by each with one level, and by some but not all with two on a
// sphere; the other trees count none; and out-of-range levels are refused.
func TestCh6Regroupings(t *testing.T) {
	m := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 400))
	for _, c := range []struct {
		o        bvh.Options
		allKept  bool
		regroups bool
	}{
		{bvh.Options{}, true, false},
		{bvh.Options{Oscillate: 1}, true, true},
		{bvh.Options{Oscillate: 2, Rule: bvh.MinSum}, false, true},
		{bvh.Options{Oscillate: 3, K: bv.K6}, false, true},
	} {
		tr := must(bvh.Build(m, c.o))
		// Internal nodes over three triangles or more.
		want := int64(0)
		var count func(i int) int
		count = func(i int) int {
			_, l, r, tris := tr.Node(i, nil)
			if l < 0 {
				return len(tris)
			}
			n := count(l) + count(r)
			if n > 2 {
				want++
			}
			return n
		}
		count(0)
		if !c.regroups {
			want = 0
		}
		splits, kept := tr.Regroupings()
		switch {
		case splits != want:
			t.Errorf("%+v: %d regroupings, want %d", c.o, splits, want)
		case c.allKept && kept != splits:
			t.Errorf("%+v: %d of %d regroupings kept the plain split, want all", c.o, kept, splits)
		case !c.allKept && (kept == 0 || kept == splits):
			t.Errorf("%+v: %d of %d regroupings kept the plain split, want some", c.o, kept, splits)
		}
	}
	for _, l := range []int{-1, 4} {
		if _, err := bvh.Build(m, bvh.Options{Oscillate: l}); err == nil {
			t.Errorf("Oscillate %d: no error", l)
		}
	}
	// Other kinds ignore the options.
	o := must(bvh.Build(m, bvh.Options{Kind: bvh.OBB, Oscillate: 2, SplitDirs: true})).Options()
	if o.Oscillate != 0 || o.SplitDirs {
		t.Errorf("an OBB tree keeps %+v", o)
	}
}
