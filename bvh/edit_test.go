package bvh_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// soup returns the mesh of the triangles ts, three vertices each.
func soup(ts []geom.Triangle) *mesh.TriMesh {
	m := &mesh.TriMesh{}
	for _, tr := range ts {
		v := int32(len(m.Verts))
		m.Verts = append(m.Verts, tr[0], tr[1], tr[2])
		m.Tris = append(m.Tris, [3]int32{v, v + 1, v + 2})
	}
	return m
}

// triangles returns the triangles of m.
func triangles(m *mesh.TriMesh) []geom.Triangle {
	ts := make([]geom.Triangle, len(m.Tris))
	for i := range ts {
		ts[i] = m.Triangle(i)
	}
	return ts
}

// junk returns n triangles of m moved: some not at all (twins of m's), some
// by a hundredth of m's size (near, touching, crossing), some by ten times
// it (outside m's bounds).
func junk(rng *rand.Rand, m *mesh.TriMesh, n int) []geom.Triangle {
	b := geom.EmptyAABB()
	for _, v := range m.Verts {
		b = b.AddPoint(v)
	}
	s := b.Size().Norm()
	out := make([]geom.Triangle, n)
	for i := range out {
		tr := m.Triangle(rng.IntN(len(m.Tris)))
		d := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(s * []float64{0, 0.01, 10}[rng.IntN(3)])
		for j := range tr {
			tr[j] = tr[j].Add(d)
		}
		out[i] = tr
	}
	return out
}

// editTo returns a builder of trees over m made by two edits of a tree
// built over a part of m's triangles among junk ones (twins of m's, near
// m's, far outside m's bounds): the first deletes some of the junk and
// inserts the next part of m's triangles and more junk, the second deletes
// the rest of the junk and inserts the last of m's triangles, so that the
// edited tree holds m's triangles in m's order. It checks the maps the
// edits return and that each tree validates.
func editTo(t *testing.T, seed uint64) func(*mesh.TriMesh, bvh.Options) (*bvh.Tree, error) {
	return func(m *mesh.TriMesh, o bvh.Options) (*bvh.Tree, error) {
		rng := rand.New(rand.NewPCG(seed, uint64(len(m.Tris))))
		ts := triangles(m)
		n := len(ts)
		k := rng.IntN(n/2 + 1)
		a, b1, b2 := ts[:n-k], ts[n-k:n-k/2], ts[n-k/2:]
		j12 := junk(rng, m, 1+n/4)
		// The first mesh: a with the junk among it; junk[i] says whether
		// triangle i is junk, and of which round (1 or 2).
		var first []geom.Triangle
		var kind []int
		ai := 0
		for ji := 0; ai < len(a) || ji < len(j12); {
			if ji < len(j12) && (ai == len(a) || rng.IntN(4) == 0) {
				first, kind = append(first, j12[ji]), append(kind, 1+ji%2)
				ji++
			} else {
				first, kind = append(first, a[ai]), append(kind, 0)
				ai++
			}
		}
		t0, err := bvh.Build(soup(first), o)
		if err != nil {
			return nil, err
		}
		var del1 []int32
		for i, kd := range kind {
			if kd == 1 {
				del1 = append(del1, int32(i))
			}
		}
		rng.Shuffle(len(del1), func(i, j int) { del1[i], del1[j] = del1[j], del1[i] })
		j3 := junk(rng, m, 1+n/8)
		t1, remap, err := t0.Edit(append(slices.Clone(b1), j3...), del1)
		if err != nil {
			return nil, err
		}
		if err := t1.Validate(); err != nil {
			t.Fatalf("%v: first edit: %v", o, err)
		}
		var del2 []int32
		at := int32(0)
		for i, kd := range kind {
			switch {
			case kd == 1:
				if remap[i] != -1 {
					t.Fatalf("%v: deleted triangle %d mapped to %d", o, i, remap[i])
				}
			case remap[i] != at:
				t.Fatalf("%v: triangle %d mapped to %d, want %d", o, i, remap[i], at)
			default:
				if kd == 2 {
					del2 = append(del2, at)
				}
				at++
			}
		}
		for j := range j3 {
			del2 = append(del2, at+int32(len(b1)+j))
		}
		t2, _, err := t1.Edit(b2, del2)
		if err != nil {
			return nil, err
		}
		if len(t2.Mesh().Tris) != n {
			t.Fatalf("%v: %d triangles edited, want %d", o, len(t2.Mesh().Tris), n)
		}
		for i := range n {
			if t2.Mesh().Triangle(i) != ts[i] {
				t.Fatalf("%v: edited triangle %d is %v, want %v", o, i, t2.Mesh().Triangle(i), ts[i])
			}
		}
		return t2, nil
	}
}

// TestEditAdversarial checks trees made by edits over the adversarial
// soups (touching, coplanar, near-missing by an ulp, degenerate, far from
// the origin), with junk twins, near and far deleted and inserted on the
// way, against the oracle, at the identity or a random pose, with or
// without a tolerance; a third of the configurations on each scene, in
// turn (a sixth, but with the long tests).
func TestEditAdversarial(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 3))
	for si, sc := range testgeom.AdversarialScenes(7) {
		b := sc.Env.Bounds()
		poses := []geom.Pose{geom.Identity()}
		if si%2 == 1 {
			poses[0] = randomPose(rng, b.Center(), 0.05*b.Size().Norm())
		}
		eps := 0.0
		if si%4 == 1 || si%4 == 2 {
			eps = 1e-3 * b.Size().Norm()
		}
		cs := sampleConfigs(configs(), si)
		if !longtest.Enabled() { // a sixth: half the third, the other half on the next seed's turn
			cs = sampleConfigs(cs, si/3)
		}
		checkSceneBy(t, sc.Name+"/edit", sc.Env, sc.Fly, poses, eps, cs, editTo(t, uint64(si)))
	}
}

// TestEditTorus checks trees of every configuration made by edits of a
// torus against the oracle.
func TestEditTorus(t *testing.T) {
	env := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 600))
	fly := gen.Must(gen.Icosphere(geom.V(1, 0, 0), 0.35, 300))
	rng := rand.New(rand.NewPCG(36, 6))
	poses := []geom.Pose{geom.Identity(), randomPose(rng, geom.V(1, 0, 0), 0.1)}
	checkSceneBy(t, "torus/edit", env, fly, poses, 0, configs(), editTo(t, 9))
}

// editKinds are a configuration of each kind of tree and leaf size.
func editKinds() []bvh.Options {
	return []bvh.Options{
		{K: bv.K18}, {K: bv.K6, Leaf: 4}, {K: bv.K14, Float64: true}, {K: bv.K26, Compact: true},
		{K: bv.K18, Compact: true, Leaf: 4}, {Kind: bvh.OBB}, {Kind: bvh.OBB, Leaf: 4}, {Kind: bvh.Sphere},
		{Kind: bvh.AABB}, {Kind: bvh.AABB, Leaf: 4}, {Kind: bvh.RSS}, {Kind: bvh.BoxTree},
	}
}

// TestEditSequence edits a torus by a sequence of random deletions and
// insertions, scattered and clustered (a region of the torus replaced by
// a finer one), near and far outside the root's volume, down to one
// triangle and back, and checks every kind's tree after each edit: it
// validates, the old tree still answers as before, and both modes answer
// as the oracle over the edited mesh.
func TestEditSequence(t *testing.T) {
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 400))
	fly := gen.Must(gen.Icosphere(geom.Vec3{}, 0.3, 80))
	rng := rand.New(rand.NewPCG(36, 7))
	var s bvh.Scratch
	for _, o := range editKinds() {
		tr := must(bvh.Build(torus, o))
		ft := must(bvh.Build(fly, o))
		for step := range 9 {
			m := tr.Mesh()
			n := len(m.Tris)
			var del []int32
			var ins []geom.Triangle
			switch step % 5 {
			case 0: // scattered
				for _, i := range rng.Perm(n)[:n/10] {
					del = append(del, int32(i))
				}
				ins = junk(rng, m, n/10)
			case 1: // a region replaced: the triangles near a point go, a finer patch comes
				c := m.Triangle(rng.IntN(n))[0]
				for i := range n {
					if m.Triangle(i)[0].Sub(c).Norm() < 0.4 {
						del = append(del, int32(i))
					}
				}
				patch := gen.Must(gen.Icosphere(c, 0.3, 200))
				ins = triangles(patch)
			case 2: // far outside the root
				ins = triangles(gen.Must(gen.Icosphere(geom.V(30, -20, 10), 1, 80)))
			case 3: // all but one
				for i := range n - 1 {
					del = append(del, int32(i))
				}
			case 4: // from one, back to a torus and a far copy of it
				ins = triangles(torus)
				for _, tr := range triangles(torus) {
					for j := range tr {
						tr[j] = tr[j].Add(geom.V(1e6, -3e6, 2e6))
					}
					ins = append(ins, tr)
				}
			}
			before := make([][][2]int32, 0, 3)
			poses := []geom.Pose{geom.Identity(), randomPose(rng, geom.V(1, 0, 0), 0.3), randomPose(rng, geom.V(30, -20, 10), 1)}
			for _, p := range poses {
				got, _ := collect(tr, ft, p, bvh.QueryOptions{All: true}, &s)
				before = append(before, got)
			}
			nt, remap, err := tr.Edit(ins, del)
			if err != nil {
				t.Fatalf("%v step %d: %v", o, step, err)
			}
			if len(remap) != n {
				t.Fatalf("%v step %d: map of %d triangles, want %d", o, step, len(remap), n)
			}
			if err := nt.Validate(); err != nil {
				t.Fatalf("%v step %d: %v", o, step, err)
			}
			if q := nt.RefitQuality(); !(q > 0) {
				t.Errorf("%v step %d: quality %v", o, step, q)
			}
			for pi, p := range poses {
				if got, _ := collect(tr, ft, p, bvh.QueryOptions{All: true}, &s); !slices.Equal(got, before[pi]) {
					t.Fatalf("%v step %d pose %d: the old tree's answer changed", o, step, pi)
				}
				want := testgeom.Brute(nt.Mesh(), fly, p, 0)
				got, _ := collect(nt, ft, p, bvh.QueryOptions{All: true}, &s)
				if !slices.Equal(got, want) {
					t.Errorf("%v step %d pose %d: %d pairs, oracle %d (missing %v, extra %v)", o, step, pi, len(got), len(want), diff(want, got), diff(got, want))
				}
				first, _ := collect(nt, ft, p, bvh.QueryOptions{}, &s)
				if len(want) == 0 && len(first) != 0 || len(want) > 0 && (len(first) != 1 || !slices.Contains(want, first[0])) {
					t.Errorf("%v step %d pose %d: first contact %v, oracle %d pairs", o, step, pi, first, len(want))
				}
			}
			tr = nt
		}
	}
}

// TestEditErrors checks Edit's errors: each wraps ErrEdit, and the tree
// is unchanged.
func TestEditErrors(t *testing.T) {
	m := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 80))
	tr := must(bvh.Build(m, bvh.Options{}))
	nan := geom.Triangle{{}, {X: 1}, {Y: nanF()}}
	all := make([]int32, len(m.Tris))
	for i := range all {
		all[i] = int32(i)
	}
	for _, c := range []struct {
		name string
		ins  []geom.Triangle
		del  []int32
	}{
		{"negative", nil, []int32{-1}},
		{"beyond", nil, []int32{int32(len(m.Tris))}},
		{"twice", nil, []int32{3, 5, 3}},
		{"nan", []geom.Triangle{{}, nan}, nil},
		{"empty", nil, all},
	} {
		nt, remap, err := tr.Edit(c.ins, c.del)
		if !errors.Is(err, bvh.ErrEdit) || nt != nil || remap != nil {
			t.Errorf("%s: %v, %v, %v", c.name, nt, remap, err)
		}
	}
	if err := tr.Validate(); err != nil || len(tr.Mesh().Tris) != len(m.Tris) {
		t.Errorf("the tree changed: %v", err)
	}
}

func nanF() float64 {
	z := 0.0
	return z / z
}

// TestEditConcurrent queries a tree on several goroutines while it is
// edited again and again (run with -race): the old tree's answers never
// change.
func TestEditConcurrent(t *testing.T) {
	env := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 2000))
	fly := gen.Must(gen.Icosphere(geom.V(1, 0, 0), 0.35, 300))
	for _, o := range []bvh.Options{{}, {Kind: bvh.OBB}, {K: bv.K14, Compact: true}} {
		tr := must(bvh.Build(env, o))
		ft := must(bvh.Build(fly, o))
		want, _ := collect(tr, ft, geom.Identity(), bvh.QueryOptions{All: true}, &bvh.Scratch{})
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for range 2 {
			wg.Go(func() {
				var s bvh.Scratch
				for {
					select {
					case <-stop:
						return
					default:
					}
					if got, _ := collect(tr, ft, geom.Identity(), bvh.QueryOptions{All: true}, &s); !slices.Equal(got, want) {
						t.Errorf("%v: the old tree's answer changed during an edit", o)
						return
					}
				}
			})
		}
		rng := rand.New(rand.NewPCG(36, 8))
		for range 4 {
			var del []int32
			for _, i := range rng.Perm(len(env.Tris))[:200] {
				del = append(del, int32(i))
			}
			if _, _, err := tr.Edit(junk(rng, env, 200), del); err != nil {
				t.Error(err)
			}
		}
		close(stop)
		wg.Wait()
	}
}

// TestEditAllocs checks that a query of an edited tree allocates nothing
// once warm.
func TestEditAllocs(t *testing.T) {
	env := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 2000))
	fly := gen.Must(gen.Icosphere(geom.V(1, 0, 0), 0.35, 300))
	rng := rand.New(rand.NewPCG(36, 9))
	for _, o := range editKinds() {
		tr := must(bvh.Build(env, o))
		ft := must(bvh.Build(fly, o))
		tr, _, err := tr.Edit(junk(rng, env, 300), []int32{1, 2, 3, 500, 700})
		if err != nil {
			t.Fatal(err)
		}
		var s bvh.Scratch
		pose := geom.Identity()
		n := 0
		f := func(bvh.Pair) bool { n++; return true }
		bvh.Collide(tr, ft, pose, bvh.QueryOptions{All: true}, &s, f)
		if a := testing.AllocsPerRun(20, func() { bvh.Collide(tr, ft, pose, bvh.QueryOptions{All: true}, &s, f) }); a != 0 {
			t.Errorf("%v: %v allocations per query", o, a)
		}
		if n == 0 {
			t.Errorf("%v: no contact: the query tests too little", o)
		}
	}
}

// TestEditBalance inserts triangles one edit at a time, each farther out
// along a line (each placed beside the root, a chain that the height bound
// must break by rebuilding), and checks every kind's tree: it validates,
// its height stays within the bound, and it answers as the oracle.
func TestEditBalance(t *testing.T) {
	m := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 80))
	fly := gen.Must(gen.Icosphere(geom.V(20.5, 0, 0), 0.6, 80))
	var s bvh.Scratch
	for _, o := range editKinds() {
		tr := must(bvh.Build(m, o))
		ft := must(bvh.Build(fly, o))
		for i := range 60 {
			x := float64(3 + i)
			ins := []geom.Triangle{{geom.V(x, 0, 0), geom.V(x+0.5, 0.5, 0), geom.V(x, 0.5, 0.5)}}
			tr = must3(tr.Edit(ins, nil))
			if err := tr.Validate(); err != nil {
				t.Fatalf("%v insert %d: %v", o, i, err)
			}
		}
		n := len(tr.Mesh().Tris)
		bound := 4
		for 1<<(bound-4) < n {
			bound++
		}
		bound = 2*(bound-4) + 4 + 1 // 2⌈log₂ n⌉ + 4, plus the leaf
		if h := tr.Height(); h > bound {
			t.Errorf("%v: height %d over %d triangles, bound %d", o, h, n, bound)
		}
		want := testgeom.Brute(tr.Mesh(), fly, geom.Identity(), 0)
		got, _ := collect(tr, ft, geom.Identity(), bvh.QueryOptions{All: true}, &s)
		if !slices.Equal(got, want) || len(want) == 0 {
			t.Errorf("%v: %d pairs, oracle %d", o, len(got), len(want))
		}
	}
}
