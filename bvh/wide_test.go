package bvh

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// The test binary's environment variable COLLIDE_BVH_WIDE sets the width
// of the environment layouts Collide's modeContact walks on AABB and k-DOP
// trees (2: the binary tree; 4; 8), so that runs of one binary compare
// them.
func init() {
	if s := os.Getenv("COLLIDE_BVH_WIDE"); s != "" {
		SetWideWidth(atoiWidth(s))
	}
}

func atoiWidth(s string) int {
	w, err := strconv.Atoi(s)
	if err != nil || w != 2 && w != 4 && w != 8 {
		panic("COLLIDE_BVH_WIDE=" + s + ": want 2, 4 or 8")
	}
	return w
}

// SetWideWidth sets the width of the environment layouts of AABB and k-DOP
// trees (wideWidth, wideDOPWidth) for the tests and benchmarks of package
// bvh_test; SaveWideWidth returns what restores them as they are.
func SetWideWidth(w int) { wideWidth, wideDOPWidth = w, w }

func SaveWideWidth() func() {
	a, d := wideWidth, wideDOPWidth
	return func() { wideWidth, wideDOPWidth = a, d }
}

// withWidth runs f with wideWidth set to w.
func withWidth(w int, f func()) {
	defer SaveWideWidth()()
	SetWideWidth(w)
	f()
}

// widePairs runs Collide at width w and returns the pairs found, sorted,
// and the statistics.
func widePairs(w int, env, fly *Tree, p geom.Pose, q QueryOptions, s *Scratch) (got [][2]int32, st Stats) {
	withWidth(w, func() {
		st = Collide(env, fly, p, q, s, func(pr Pair) bool {
			got = append(got, [2]int32{pr.Env, pr.Fly})
			return true
		})
	})
	slices.SortFunc(got, func(a, b [2]int32) int {
		if a[0] != b[0] {
			return int(a[0] - b[0])
		}
		return int(a[1] - b[1])
	})
	return got, st
}

// wideScene is a scene of the wide layout's conformance matrix.
type wideScene struct {
	name     string
	env, fly *mesh.TriMesh
	poses    []geom.Pose
}

// wideScenes returns the adversarial soups (touching, coplanar,
// degenerate, near misses by an ulp, far from the origin, tiny, twins) at
// the identity, at random poses and at a translation, and generated models
// in close proximity at random poses, one with a rotation off by 10^-7.
func wideScenes() []wideScene {
	rng := rand.New(rand.NewPCG(31, 4))
	pose := func(about geom.Vec3, spread float64) geom.Pose {
		axis := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
		t := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(spread)
		p := geom.FromAxisAngle(axis, rng.Float64()*6.3, t)
		p.T = p.T.Add(about).Sub(p.R.MulVec(about))
		return p
	}
	var scs []wideScene
	for _, sc := range testgeom.AdversarialScenes(31) {
		b := sc.Env.Bounds()
		poses := []geom.Pose{geom.Identity(), pose(b.Center(), 0.05*b.Size().Norm()), pose(b.Center(), 0.05*b.Size().Norm()),
			geom.Translation(b.Size().Scale(0.01))}
		scs = append(scs, wideScene{sc.Name, sc.Env, sc.Fly, poses})
	}
	gens := []wideScene{
		{"torus-sphere", gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 3000)), gen.Must(gen.Icosphere(geom.V(1, 0, 0), 0.35, 500)), nil},
		{"terrain-capsule", gen.Must(gen.Terrain(24, 4, 1, 0.5, 3)), gen.Must(gen.Capsule(0.3, 1, 300)), nil},
		{"sphere-self", gen.Must(gen.Icosphere(geom.Vec3{}, 1, 800)), gen.Must(gen.Icosphere(geom.Vec3{}, 1, 800)), nil},
	}
	for _, sc := range gens {
		b := sc.env.Bounds()
		sc.poses = []geom.Pose{geom.Identity()}
		for range 4 {
			sc.poses = append(sc.poses, pose(b.Center(), 0.2*b.Size().Norm()))
		}
		sloppy := pose(b.Center(), 0.2*b.Size().Norm())
		for i := range 3 {
			for j := range 3 {
				sloppy.R[i][j] += 1e-7 * (2*rng.Float64() - 1)
			}
		}
		sc.poses = append(sc.poses, sloppy)
		scs = append(scs, sc)
		far := func(m *mesh.TriMesh) *mesh.TriMesh { return testgeom.Far(m, 1e6) }
		scs = append(scs, wideScene{sc.name + "-far", far(sc.env), far(sc.fly), sc.poses[:3]})
	}
	return scs
}

// wideOptions are the trees of the wide layouts' conformance matrix: AABB
// and k-DOP trees, one triangle a leaf and more, float32 and float64
// k-DOPs.
var wideOptions = []Options{{Kind: AABB}, {Kind: AABB, Leaf: 4}, {}, {K: bv.K6, Float64: true, Leaf: 4, FlyLeaf: 2}}

// TestWide is the conformance matrix of the wide layouts: AABB and k-DOP
// trees (wideOptions), at widths 4 and 8, all pairs and first
// contact, exact and within a tolerance, on every scene of wideScenes,
// against the brute-force oracle and the binary walk: the same pairs as
// both, and a first contact that is one of them. By default each scene
// runs one AABB and one k-DOP configuration, in turn; all of them with
// COLLIDE_LONG_TESTS=1 (internal/longtest).
func TestWide(t *testing.T) {
	var s Scratch
	for si, sc := range wideScenes() {
		opts := wideOptions
		if !longtest.Enabled() {
			// One AABB and one k-DOP configuration a scene, in turn.
			opts = []Options{wideOptions[si%2], wideOptions[2+si%2]}
		}
		size := sc.env.Bounds().Size().Norm()
		for _, eps := range []float64{0, 0.01 * size} {
			want := make([][][2]int32, len(sc.poses))
			for i, p := range sc.poses {
				want[i] = testgeom.Brute(sc.env, sc.fly, p, eps)
			}
			for _, o := range opts {
				env, fly := mustTree(t, sc.env, o), mustTree(t, sc.fly, o)
				for i, p := range sc.poses {
					name := fmt.Sprintf("%s %v k%d leaf %d f64 %v eps %g pose %d", sc.name, o.Kind, o.K, o.Leaf, o.Float64, eps, i)
					q := QueryOptions{All: true, Eps: eps}
					bin, _ := widePairs(2, env, fly, p, q, &s)
					if !slices.Equal(bin, want[i]) {
						t.Errorf("%s binary: %d pairs, oracle %d", name, len(bin), len(want[i]))
					}
					for _, w := range []int{4, 8} {
						got, st := widePairs(w, env, fly, p, q, &s)
						if !slices.Equal(got, want[i]) {
							t.Errorf("%s width %d: %d pairs, oracle %d", name, w, len(got), len(want[i]))
						}
						if len(got) > 0 && st.BVTests+st.LeafTests == 0 && env.Nodes()+fly.Nodes() > 2 {
							t.Errorf("%s width %d: stats %+v for %d pairs", name, w, st, len(got))
						}
						q1 := q
						q1.All = false
						first, _ := widePairs(w, env, fly, p, q1, &s)
						switch {
						case len(want[i]) == 0 && len(first) != 0:
							t.Errorf("%s width %d: first contact %v, oracle none", name, w, first)
						case len(want[i]) > 0 && (len(first) != 1 || !slices.Contains(want[i], first[0])):
							t.Errorf("%s width %d: first contact %v is not one oracle pair", name, w, first)
						}
					}
				}
			}
		}
	}
}

func mustTree(t *testing.T, m *mesh.TriMesh, o Options) *Tree {
	t.Helper()
	tr, err := Build(m, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestWideLayout checks the wide layouts of AABB trees: every binary leaf
// is a child exactly once, every wide node below the root a child exactly
// once, each node has 2 to W children, each child's box (and the root's,
// the binary root's) contains the triangles below it exactly, and Bytes
// counts the layout once made.
func TestWideLayout(t *testing.T) {
	m := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 5000))
	for _, o := range []Options{{Kind: AABB}, {Kind: AABB, Leaf: 4}} {
		tr := mustTree(t, m, o)
		vt := tr.impl.(*vtree[box])
		before := tr.Bytes()
		checkWide(t, vt, wideOf(vt, &tr.wide.w4))
		mid := tr.Bytes()
		checkWide(t, vt, wideOf(vt, &tr.wide.w8))
		after := tr.Bytes()
		w4, w8 := tr.wide.w4.Load(), tr.wide.w8.Load()
		if mid-before != w4.bytes() || after-mid != w8.bytes() || w4.bytes() == 0 {
			t.Errorf("leaf %d: Bytes %d, %d, %d with layouts of %d and %d bytes", o.Leaf, before, mid, after, w4.bytes(), w8.bytes())
		}
		t.Logf("leaf %d: %d triangles, binary %.1f bytes a triangle, 4-wide %.1f more (%d nodes), 8-wide %.1f more (%d nodes)",
			o.Leaf, len(m.Tris), float64(before)/float64(len(m.Tris)), float64(w4.bytes())/float64(len(m.Tris)), len(w4.nodes),
			float64(w8.bytes())/float64(len(m.Tris)), len(w8.nodes))
	}
}

func checkWide[A wideLanes, R wideRefs](t *testing.T, vt *vtree[box], w *wideAABB[A, R]) {
	t.Helper()
	var a A
	width := len(a)
	ni := int32(len(vt.nodes))
	leaves := make([]int, vt.ids())
	nodes := make([]int, len(w.nodes))
	nodes[0]++
	var tris func(k int32, dst []int32) []int32
	tris = func(k int32, dst []int32) []int32 {
		if k < 0 {
			return leafList(vt.order, vt.leafRef(^k), dst)
		}
		n := &w.nodes[k]
		for i := range int(n.n) {
			dst = tris(n.kid[i], dst)
		}
		return dst
	}
	for c := range w.nodes {
		n := &w.nodes[c]
		if n.n < 2 || int(n.n) > width {
			t.Fatalf("width %d: node %d has %d children", width, c, n.n)
		}
		for i := range int(n.n) {
			k := n.kid[i]
			if k < 0 {
				if ^k < ni {
					t.Fatalf("width %d: node %d child %d is internal node %d of the binary tree", width, c, i, ^k)
				}
				leaves[^k]++
			} else {
				nodes[k]++
			}
			b := geom.EmptyAABB()
			for _, tr := range tris(k, nil) {
				b = b.Union(vt.m.Triangle(int(tr)).Bounds())
			}
			v := box{C: geom.V(n.cx[i], n.cy[i], n.cz[i]), H: geom.V(n.hx[i], n.hy[i], n.hz[i])}
			if !boxHolds(&v, b) {
				t.Fatalf("width %d: node %d child %d's box does not hold its triangles", width, c, i)
			}
		}
	}
	all := geom.EmptyAABB()
	for _, tr := range tris(0, nil) {
		all = all.Union(vt.m.Triangle(int(tr)).Bounds())
	}
	if !boxHolds(vt.vol(0), all) {
		t.Fatalf("width %d: the root's box does not hold its triangles", width)
	}
	var binLeaves func(i int32)
	binLeaves = func(i int32) {
		if l, r := vt.kids(i); l >= 0 {
			binLeaves(l)
			binLeaves(r)
			return
		}
		if leaves[i] != 1 {
			t.Fatalf("width %d: leaf %d is a child %d times", width, i, leaves[i])
		}
		leaves[i] = 0
	}
	binLeaves(0)
	if i := slices.IndexFunc(leaves, func(k int) bool { return k != 0 }); i >= 0 {
		t.Fatalf("width %d: %d is a child, not a leaf of the binary tree", width, i)
	}
	for c, k := range nodes {
		if k != 1 {
			t.Fatalf("width %d: wide node %d is a child %d times", width, c, k)
		}
	}
}

// TestWideConcurrent runs first queries on one environment from several
// goroutines at once, which may each make its wide layout (one is kept);
// go test -race checks them.
func TestWideConcurrent(t *testing.T) {
	envM := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 2000))
	flyM := gen.Must(gen.Icosphere(geom.V(1, 0, 0), 0.35, 300))
	want := testgeom.Brute(envM, flyM, geom.Identity(), 0)
	for i, w := range []int{4, 8, 4, 8} {
		o := Options{Kind: AABB}
		if i >= 2 {
			o = Options{}
		}
		env, fly := mustTree(t, envM, o), mustTree(t, flyM, o)
		withWidth(w, func() {
			var wg sync.WaitGroup
			errs := make([]int, 4)
			for g := range errs {
				wg.Go(func() {
					var s Scratch
					var got [][2]int32
					Collide(env, fly, geom.Identity(), QueryOptions{All: true}, &s, func(p Pair) bool {
						got = append(got, [2]int32{p.Env, p.Fly})
						return true
					})
					slices.SortFunc(got, func(a, b [2]int32) int {
						if a[0] != b[0] {
							return int(a[0] - b[0])
						}
						return int(a[1] - b[1])
					})
					if !slices.Equal(got, want) {
						errs[g] = len(got)
					} else {
						errs[g] = -1
					}
				})
			}
			wg.Wait()
			for g, e := range errs {
				if e >= 0 {
					t.Errorf("%v width %d goroutine %d: %d pairs, oracle %d", o.Kind, w, g, e, len(want))
				}
			}
		})
	}
}

// TestWideDOPLayout checks the wide layouts of k-DOP trees: each leaf
// child's slabs are its binary node's, bit for bit, each wide child's hold
// those of every leaf below it, every leaf of the binary tree
// is a child exactly once and every wide node below the root likewise,
// and Bytes counts the layouts once made.
func TestWideDOPLayout(t *testing.T) {
	m := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 3000))
	for _, o := range []Options{{}, {K: bv.K6, Float64: true, Leaf: 4}} {
		tr := mustTree(t, m, o)
		before := tr.Bytes()
		switch et := tr.impl.(type) {
		case *tree[float32, [18]float32]:
			checkWideDOP(t, et, wideDOPOf[float32, [18]float32, [4]float32](tr, et))
			checkWideDOP(t, et, wideDOPOf[float32, [18]float32, [8]float32](tr, et))
		case *tree[float64, [6]float64]:
			checkWideDOP(t, et, wideDOPOf[float64, [6]float64, [4]float64](tr, et))
			checkWideDOP(t, et, wideDOPOf[float64, [6]float64, [8]float64](tr, et))
		default:
			t.Fatalf("%T", et)
		}
		after := tr.Bytes()
		t.Logf("k %d f64 %v leaf %d: binary %.1f bytes a triangle, 4- and 8-wide %.1f more", o.K, o.Float64, o.Leaf,
			float64(before)/float64(len(m.Tris)), float64(after-before)/float64(len(m.Tris)))
		if after <= before {
			t.Errorf("Bytes %d before the layouts, %d after", before, after)
		}
	}
}

func checkWideDOP[F bv.Float, A bv.Slabs[F], L dopLanes[F]](t *testing.T, et *tree[F, A], w *wideDOP[F, L]) {
	t.Helper()
	var l L
	width, k := len(l), w.k
	leaves := make([]int, len(et.nodes))
	nodes := make([]int, len(w.n))
	nodes[0]++
	// under returns the union of the slabs of the leaves below wide node c.
	var under func(c int32) A
	under = func(c int32) A {
		var u A
		for i := range int(w.n[c]) {
			var v A
			if ref := w.kids[int(c)*width+i]; ref < 0 {
				v = et.nodes[^ref].s
			} else {
				v = under(ref)
			}
			if i == 0 {
				u = v
			} else {
				bv.Union[F](&u, &u, &v)
			}
		}
		return u
	}
	for c := range w.n {
		n := int(w.n[c])
		if n < 2 || n > width {
			t.Fatalf("width %d: node %d has %d children", width, c, n)
		}
		for i := range n {
			ref := w.kids[c*width+i]
			b := ref
			if ref < 0 {
				b = ^ref
				if et.nodes[b].ref >= 0 {
					t.Fatalf("width %d: node %d child %d is internal node %d", width, c, i, b)
				}
				leaves[b]++
			} else {
				nodes[ref]++
				// A wide child's slabs hold those of every leaf below it.
				u := under(ref)
				for j := range k {
					if x, v := w.rows[c*k+j][i], u[j]; j%2 == 0 && x > v || j%2 == 1 && x < v {
						t.Fatalf("width %d: node %d child %d slab bound %d does not hold the leaves below it", width, c, i, j)
					}
				}
				continue
			}
			for j := range k {
				if w.rows[c*k+j][i] != et.nodes[b].s[j] {
					t.Fatalf("width %d: node %d child %d slab bound %d is not its leaf's", width, c, i, j)
				}
			}
		}
	}
	for i := range et.nodes {
		want := 0
		if et.nodes[i].ref < 0 {
			want = 1
		}
		if leaves[i] != want {
			t.Fatalf("width %d: binary node %d is a leaf child %d times", width, i, leaves[i])
		}
	}
	for c, n := range nodes {
		if n != 1 {
			t.Fatalf("width %d: wide node %d is a child %d times", width, c, n)
		}
	}
}
