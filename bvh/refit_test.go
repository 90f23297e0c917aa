package bvh_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// warp returns vs moved by a deformation of amplitude a (relative to the
// size of their bounds): a smooth bend plus a hash of each position, so
// that equal positions stay equal (identical triangles stay twins) while
// the rest moves by up to a.
func warp(vs []geom.Vec3, a float64) []geom.Vec3 {
	b := geom.EmptyAABB()
	for _, v := range vs {
		b = b.AddPoint(v)
	}
	s := b.Size().Norm() * a
	c := b.Center()
	out := make([]geom.Vec3, len(vs))
	for i, v := range vs {
		h := math.Float64bits(v.X)*0x9e3779b97f4a7c15 ^ math.Float64bits(v.Y)*0xc2b2ae3d27d4eb4f ^ math.Float64bits(v.Z)*0x165667b19e3779f9
		h ^= h >> 29
		r := func(k uint) float64 { return float64(h>>(k*16)&0xffff)/0x8000 - 1 }
		d := v.Sub(c)
		bend := math.Sin(3 * d.Y / (b.Size().Norm() + 1e-300))
		out[i] = v.Add(geom.V(s*(0.5*bend+0.5*r(0)), s*0.5*r(1), s*(0.5*bend*bend+0.5*r(2))))
	}
	return out
}

// refitTo returns a tree over m made by building one over m warped by a and
// refitting it to m's vertices; it fails the test if Refit rebuilt it (its
// shape is not the warped tree's).
func refitTo(t *testing.T, a float64) func(*mesh.TriMesh, bvh.Options) (*bvh.Tree, error) {
	return func(m *mesh.TriMesh, o bvh.Options) (*bvh.Tree, error) {
		w := &mesh.TriMesh{Verts: warp(m.Verts, a), Tris: m.Tris}
		old, err := bvh.Build(w, o)
		if err != nil {
			return nil, err
		}
		nt, err := old.Refit(m.Verts)
		if err != nil {
			return nil, err
		}
		if o.Kind != bvh.BoxTree {
			sameShape(t, old, nt)
		}
		return nt, nil
	}
}

// sameShape checks that a and b have the same nodes over the same
// triangles.
func sameShape(t *testing.T, a, b *bvh.Tree) {
	t.Helper()
	if a.Nodes() != b.Nodes() {
		t.Fatalf("refit: %d nodes, was %d", b.Nodes(), a.Nodes())
	}
	var ta, tb []int32
	for i := range a.Nodes() {
		_, la, ra, xa := a.Node(i, ta[:0])
		_, lb, rb, xb := b.Node(i, tb[:0])
		if la != lb || ra != rb || !slices.Equal(xa, xb) {
			t.Fatalf("refit: node %d is (%d, %d, %v), was (%d, %d, %v)", i, lb, rb, xb, la, ra, xa)
		}
		ta, tb = xa, xb
	}
}

// TestRefitAdversarial checks trees built over the adversarial soups
// warped, then refitted to the soups (vertices moved to touch, to be
// coplanar, to near-miss by an ulp, far from the origin), against the
// oracle, at the identity or a random pose, with or without a tolerance;
// a third of the configurations on each scene, in turn.
func TestRefitAdversarial(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 4))
	for si, sc := range testgeom.AdversarialScenes(5) {
		b := sc.Env.Bounds()
		poses := []geom.Pose{geom.Identity()}
		if si%2 == 1 {
			poses[0] = randomPose(rng, b.Center(), 0.05*b.Size().Norm())
		}
		eps := 0.0
		if si%4 == 1 || si%4 == 2 {
			eps = 1e-3 * b.Size().Norm()
		}
		checkSceneBy(t, sc.Name+"/refit", sc.Env, sc.Fly, poses, eps, sampleConfigs(configs(), si), refitTo(t, 0.2))
	}
}

// TestRefitDeform refits a torus through increasing deformations and
// checks every configuration's answers against the oracle at each.
func TestRefitDeform(t *testing.T) {
	env := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 600))
	fly := gen.Must(gen.Icosphere(geom.V(1, 0, 0), 0.35, 300))
	rng := rand.New(rand.NewPCG(36, 5))
	poses := []geom.Pose{geom.Identity(), randomPose(rng, geom.V(1, 0, 0), 0.1)}
	for i, a := range []float64{0.01, 0.3, 1} {
		checkSceneBy(t, "torus", env, fly, poses, []float64{0, 0.01}[i%2], sampleConfigs(configs(), i), refitTo(t, a))
	}
}

// TestRefitChain refits a tree twice and checks that the second refit
// keeps the shape, validates, and reports its quality against the built
// tree's.
func TestRefitChain(t *testing.T) {
	m := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 2000))
	for _, c := range configs() {
		t0 := must(bvh.Build(m, c.opts))
		if q := t0.RefitQuality(); q != 1 {
			t.Errorf("%v: built tree's quality %g, want 1", c, q)
		}
		t1 := must(t0.Refit(warp(m.Verts, 0.5)))
		t2 := must(t1.Refit(m.Verts))
		for _, x := range []*bvh.Tree{t1, t2} {
			if err := x.Validate(); err != nil {
				t.Fatalf("%v: refitted tree: %v", c, err)
			}
			if x.Options() != t0.Options() {
				t.Errorf("%v: refitted options %+v", c, x.Options())
			}
		}
		if c.opts.Kind == bvh.BoxTree {
			continue
		}
		sameShape(t, t0, t2)
		if q := t1.RefitQuality(); !(q > 1.05) {
			t.Errorf("%v: quality %g after a large warp, want > 1.05", c, q)
		}
		// OBBs and RSSs fitted to the triangles in another order than
		// Build's differ a little.
		tol := 1e-6
		if c.opts.Kind == bvh.OBB || c.opts.Kind == bvh.RSS {
			tol = 0.1
		}
		if q := t2.RefitQuality(); math.Abs(q-1) > tol {
			t.Errorf("%v: quality %g back at the built vertices, want 1", c, q)
		}
	}
}

// TestRefitErrors checks Refit's errors and its rebuild when twins change.
func TestRefitErrors(t *testing.T) {
	m := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 200))
	tr := must(bvh.Build(m, bvh.Options{}))
	bad := slices.Clone(m.Verts)
	bad[7].Y = math.NaN()
	for _, vs := range [][]geom.Vec3{m.Verts[:10], append(slices.Clone(m.Verts), geom.Vec3{}), bad} {
		if _, err := tr.Refit(vs); !errors.Is(err, bvh.ErrRefitVertices) {
			t.Errorf("Refit of %d vertices: %v, want ErrRefitVertices", len(vs), err)
		}
	}
	if _, err := tr.Refit(bad); err == nil || !strings.Contains(err.Error(), "vertex 7") {
		t.Errorf("Refit(NaN at vertex 7): %v, want the vertex named", err)
	}
	// Two triangles over distinct vertices made identical: new twins; the
	// tree is rebuilt, and valid.
	s := &mesh.TriMesh{Verts: []geom.Vec3{{}, {X: 1}, {Y: 1}, {Z: 1}, {X: 2}, {Y: 2}, {X: 5}, {X: 6}, {X: 5, Y: 1}},
		Tris: [][3]int32{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}}}
	st := must(bvh.Build(s, bvh.Options{}))
	vs := slices.Clone(s.Verts)
	vs[3], vs[4], vs[5] = vs[0], vs[1], vs[2]
	nt := must(st.Refit(vs))
	if err := nt.Validate(); err != nil {
		t.Fatalf("refit making twins: %v", err)
	}
	var held []int32
	for i := range nt.Nodes() {
		_, _, _, held = nt.Node(i, held)
	}
	if slices.Sort(held); !slices.Equal(held, []int32{0, 2}) {
		t.Errorf("refit making twins: leaves hold %v, want [0 2]", held)
	}
	// Twins over distinct vertices (3, 4, 5 at 0, 1, 2) parted by the new
	// vertices: the tree must hold all three triangles again.
	tw := &mesh.TriMesh{Verts: vs, Tris: s.Tris}
	nt = must(must(bvh.Build(tw, bvh.Options{})).Refit(s.Verts))
	if err := nt.Validate(); err != nil {
		t.Fatalf("refit parting twins: %v", err)
	}
	if held = leafTriangles(nt); !slices.Equal(held, []int32{0, 1, 2}) {
		t.Errorf("refit parting twins: leaves hold %v, want [0 1 2]", held)
	}
	// Twins by their indices stay twins at any vertices: the refit keeps
	// the tree's shape and its twins.
	ix := &mesh.TriMesh{Verts: s.Verts, Tris: [][3]int32{{0, 1, 2}, {3, 4, 5}, {0, 1, 2}, {6, 7, 8}}}
	it := must(bvh.Build(ix, bvh.Options{}))
	nt = must(it.Refit(warp(s.Verts, 0.1)))
	sameShape(t, it, nt)
	if err := nt.Validate(); err != nil {
		t.Fatalf("refit of twins by index: %v", err)
	}
	if held = leafTriangles(nt); !slices.Equal(held, []int32{0, 1, 3}) {
		t.Errorf("refit of twins by index: leaves hold %v, want [0 1 3]", held)
	}
}

// leafTriangles returns the triangles t's leaves hold, sorted.
func leafTriangles(t *bvh.Tree) []int32 {
	var held, all []int32
	for i := range t.Nodes() {
		_, _, _, held = t.Node(i, held[:0])
		all = append(all, held...)
	}
	slices.Sort(all)
	return all
}

// TestRefitLarge refits trees large enough to be refitted on several
// goroutines (more than bvh's parallel threshold of nodes under a right
// child) and checks their invariants and shape, and that a refit to the
// built vertices gives the built volumes back (a k-DOP tree's, to within
// the pad's rounding: contained in them is checked by Validate; an AABB
// tree's exactly).
func TestRefitLarge(t *testing.T) {
	m := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 80000))
	for _, o := range []bvh.Options{{}, {K: 6, Leaf: 4}, {Float64: true}, {Compact: true}, {Kind: bvh.AABB}, {Kind: bvh.Sphere, Leaf: 8}} {
		t0 := must(bvh.Build(m, o))
		t1 := must(t0.Refit(warp(m.Verts, 0.1)))
		if err := t1.Validate(); err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		sameShape(t, t0, t1)
		t2 := must(t1.Refit(m.Verts))
		if err := t2.Validate(); err != nil {
			t.Fatalf("%+v: back: %v", o, err)
		}
		if o.Kind == bvh.AABB {
			for i := range t0.Nodes() {
				a, _, _, _ := t0.Node(i, nil)
				b, _, _, _ := t2.Node(i, nil)
				if a != b {
					t.Fatalf("AABB node %d refitted back: %v, built %v", i, b, a)
				}
			}
		}
	}
}
