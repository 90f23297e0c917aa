package bvh

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// TestQuantizeBounds checks qdown and qup on random grids and values,
// subnormal, huge, negative and on the grid's points: the value cdec gives
// is on the right side of v, and the next byte's would not be.
func TestQuantizeBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 3))
	r32 := func() float32 {
		switch rng.IntN(4) {
		case 0:
			return float32(rng.NormFloat64())
		case 1:
			return float32(rng.NormFloat64() * 1e30)
		case 2:
			return float32(rng.NormFloat64() * 1e-40)
		}
		return float32(rng.IntN(512)-256) / 8
	}
	for range 200000 {
		lo, hi := r32(), r32()
		if lo > hi {
			lo, hi = hi, lo
		}
		s := float32(0)
		if hi > lo {
			s = float32((float64(hi) - float64(lo)) / 255)
			for cdec(255, lo, s) < hi {
				s = math.Nextafter32(s, float32(math.Inf(1)))
			}
		}
		for _, v := range []float32{lo, hi, lo + (hi-lo)*float32(rng.Float64()), cdec(uint8(rng.IntN(256)), lo, s)} {
			if v < lo || v > hi {
				continue
			}
			d, u := qdown(v, lo, s), qup(v, lo, s)
			if s == 0 { // one point: every byte reads as lo
				d, u = 255, 0
			}
			if cdec(d, lo, s) > v || d < 255 && cdec(d+1, lo, s) <= v {
				t.Fatalf("qdown(%v, %v, %v) = %d: %v", v, lo, s, d, cdec(d, lo, s))
			}
			if cdec(u, lo, s) < v || u > 0 && cdec(u-1, lo, s) >= v {
				t.Fatalf("qup(%v, %v, %v) = %d: %v", v, lo, s, u, cdec(u, lo, s))
			}
		}
	}
}

// compactScenes are the models the compact layout is checked on: a torus,
// a lattice soup (coplanar, degenerate and touching triangles), the torus
// far from the origin and a tiny one.
func compactScenes() []struct {
	name string
	m    *mesh.TriMesh
	fly  *mesh.TriMesh
} {
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 1000))
	ball := gen.Must(gen.Icosphere(geom.V(1, 0, 0), 0.35, 80))
	soup := testgeom.LatticeSoup(rand.New(rand.NewPCG(1, 2)), 400, 5)
	far := geom.Translation(geom.V(1e6, -3e5, 2e6))
	tiny := func(m *mesh.TriMesh) *mesh.TriMesh { return scaleMesh(m, 1e-7, geom.V(1e-3, 0, 0)) }
	return []struct {
		name string
		m    *mesh.TriMesh
		fly  *mesh.TriMesh
	}{
		{"torus", torus, ball},
		{"soup", soup, soup},
		{"far", torus.Transform(far), ball.Transform(far)},
		{"tiny", tiny(torus), tiny(ball)},
	}
}

// TestCompactLayout checks compact trees of every k: Build quantizes the
// float32 tree it would make (every decoded node contains that tree's
// node, which Validate checks), they save and load back unchanged, Read
// and Validate refuse a node quantized too tightly, and their queries find
// the brute-force oracle's pairs at poses that touch, cross and miss by a
// hair, all pairs and to the first, as the float32 tree does.
func TestCompactLayout(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, sc := range compactScenes() {
		cases := compactPoses(sc.m, sc.fly, rng)
		for _, k := range bv.Ks {
			for _, leaf := range []int{1, 3} {
				o := Options{K: k, Leaf: leaf}
				plain := mustBuildTree(t, sc.m, o)
				o.Compact = true
				ct := mustBuildTree(t, sc.m, o)
				name := sc.name + "/" + optName(o)
				if !ct.Options().Compact || !isCompact(ct.impl) {
					t.Fatalf("%s: not compact", name)
				}
				if err := ct.Validate(); err != nil {
					t.Fatalf("%s: Validate: %v", name, err)
				}
				if ct.Bytes()*5 > plain.Bytes()*3 {
					t.Errorf("%s: %d bytes, the float32 tree %d", name, ct.Bytes(), plain.Bytes())
				}
				checkCompactNodes(t, name, plain, ct)
				checkCompactSave(t, name, ct)
				checkCompactQueries(t, name, plain, ct, sc.fly, cases)
			}
		}
	}
}

// checkCompactNodes checks that ct is plain quantized: the same refs, and
// every decoded node contains plain's.
func checkCompactNodes(t *testing.T, name string, plain, ct *Tree) {
	t.Helper()
	if plain.Nodes() != ct.Nodes() {
		t.Fatalf("%s: %d nodes, the float32 tree %d", name, ct.Nodes(), plain.Nodes())
	}
	for i := range plain.Nodes() {
		if plain.impl.ref(i) != ct.impl.ref(i) {
			t.Fatalf("%s: node %d: ref %d, the float32 tree's %d", name, i, ct.impl.ref(i), plain.impl.ref(i))
		}
		p, c := plain.impl.bounds(i), ct.impl.bounds(i)
		for j := range plain.K().Slabs() {
			if c.Lo[j] > p.Lo[j] || c.Hi[j] < p.Hi[j] {
				t.Fatalf("%s: node %d slab %d: [%v, %v] does not contain [%v, %v]", name, i, j, c.Lo[j], c.Hi[j], p.Lo[j], p.Hi[j])
			}
		}
	}
}

// checkCompactSave saves ct and reads it back (the same bytes again), then
// makes one leaf's bound tighter than its triangle's: Read and Validate
// must refuse it.
func checkCompactSave(t *testing.T, name string, ct *Tree) {
	t.Helper()
	var buf bytes.Buffer
	if _, err := ct.WriteTo(&buf); err != nil {
		t.Fatalf("%s: WriteTo: %v", name, err)
	}
	data := slices.Clone(buf.Bytes())
	back, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: Read: %v", name, err)
	}
	if back.Options() != ct.Options() || !isCompact(back.impl) {
		t.Fatalf("%s: read back with options %+v, want %+v", name, back.Options(), ct.Options())
	}
	var again bytes.Buffer
	if _, err := back.WriteTo(&again); err != nil || !bytes.Equal(again.Bytes(), data) {
		t.Fatalf("%s: saved again differently (%v)", name, err)
	}
	// Find a leaf with a slab of some width on a grid of some step, and
	// store its upper bound as the grid's base.
	v := reflectCompact(back.impl)
	for i := range v.len() {
		if v.ref(i) >= 0 {
			continue
		}
		lo, hi, step := v.slab(i, 0)
		if !(hi > lo) || step == 0 {
			continue
		}
		v.setHi(i, 0, 0)
		if err := back.Validate(); err == nil {
			t.Fatalf("%s: Validate accepts leaf %d with its upper bound lowered", name, i)
		}
		var bad bytes.Buffer
		if _, err := back.WriteTo(&bad); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(&bad); err == nil {
			t.Fatalf("%s: Read accepts leaf %d with its upper bound lowered", name, i)
		}
		return
	}
	t.Fatalf("%s: no leaf to corrupt", name)
}

// compactView is what checkCompactSave reads and changes of a ctree,
// whatever its k.
type compactView interface {
	len() int
	ref(i int) int32
	slab(i, j int) (lo, hi, step float32)
	setHi(i, j int, q uint8)
}

func reflectCompact(x impl) compactView { return x.(compactView) }

func (t *ctree[A, Q]) slab(i, j int) (lo, hi, step float32) {
	var a A
	t.decode(int32(i), &a)
	return a[2*j], a[2*j+1], t.refs[i>>cBlockShift][2*j+1]
}

func (t *ctree[A, Q]) setHi(i, j int, q uint8) { t.nodes[i].q[2*j+1] = q }

// poseCase is a pose and tolerance with the oracle's pairs.
type poseCase struct {
	p    geom.Pose
	eps  float64
	want [][2]int32
}

// compactPoses returns poses of flyM against m that touch, overlap and
// miss by about an ulp, with a tolerance and without, and the oracle's
// pairs at each.
func compactPoses(m, flyM *mesh.TriMesh, rng *rand.Rand) []poseCase {
	b := m.Bounds()
	size := b.Max.Sub(b.Min).Norm()
	poses := []geom.Pose{geom.Identity()}
	for range 3 {
		poses = append(poses, geom.FromAxisAngle(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), rng.Float64()*6, geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.1*size)))
	}
	// Shifted by the span along x, and by a hair less and more: the
	// models just touch, overlap by a hair, miss by a hair (or not, as
	// their shapes say: the oracle decides).
	fb := flyM.Bounds()
	dx := b.Max.X - fb.Min.X
	for _, x := range []float64{dx, math.Nextafter(dx, 0), math.Nextafter(dx, math.Inf(1))} {
		poses = append(poses, geom.Translation(geom.V(x, 0, 0)))
	}
	var cs []poseCase
	for _, p := range poses {
		for _, eps := range []float64{0, 0.01 * size} {
			cs = append(cs, poseCase{p, eps, testgeom.Brute(m, flyM, p, eps)})
		}
	}
	return cs
}

// checkCompactQueries runs fly against ct and plain at the cases' poses,
// all pairs and the first: ct finds the oracle's pairs as plain does.
func checkCompactQueries(t *testing.T, name string, plain, ct *Tree, flyM *mesh.TriMesh, cases []poseCase) {
	t.Helper()
	fly := mustBuildTree(t, flyM, Options{K: plain.K()})
	var s Scratch
	for pi, c := range cases {
		p, eps, want := c.p, c.eps, c.want
		got := collectPairs(ct, fly, p, QueryOptions{All: true, Eps: eps}, &s)
		if !slices.Equal(got, want) {
			t.Errorf("%s: case %d: %d pairs, the oracle %d", name, pi, len(got), len(want))
		}
		if got := collectPairs(plain, fly, p, QueryOptions{All: true, Eps: eps}, &s); !slices.Equal(got, want) {
			t.Errorf("%s: case %d: the float32 tree finds %d pairs, the oracle %d", name, pi, len(got), len(want))
		}
		first := collectPairs(ct, fly, p, QueryOptions{Eps: eps}, &s)
		if len(first) > 1 || (len(first) == 1) != (len(want) > 0) || len(first) == 1 && !slices.Contains(want, first[0]) {
			t.Errorf("%s: case %d: first contact %v, the oracle %d pairs", name, pi, first, len(want))
		}
	}
}

// collectPairs returns the pairs Collide reports, sorted.
func collectPairs(env, fly *Tree, p geom.Pose, o QueryOptions, s *Scratch) [][2]int32 {
	var out [][2]int32
	Collide(env, fly, p, o, s, func(pr Pair) bool {
		out = append(out, [2]int32{pr.Env, pr.Fly})
		return true
	})
	slices.SortFunc(out, func(a, b [2]int32) int {
		if a[0] != b[0] {
			return int(a[0] - b[0])
		}
		return int(a[1] - b[1])
	})
	return out
}

// TestCompactFallback checks that a tree whose bounds do not fit float32
// keeps the float32 layout, its options saying so.
func TestCompactFallback(t *testing.T) {
	m := scaleMesh(gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 200)), 1e300, geom.Vec3{})
	tr := mustBuildTree(t, m, Options{Compact: true})
	if tr.Options().Compact || isCompact(tr.impl) {
		t.Errorf("a tree of coordinates near 1e300 is compact")
	}
	if err := tr.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	if _, err := Build(m, Options{Compact: true, Float64: true}); err == nil {
		t.Errorf("Build accepts a compact float64 tree")
	}
	if _, err := Build(m, Options{Kind: OBB, Compact: true}); err == nil {
		t.Errorf("Build accepts a compact OBB tree")
	}
}

// scaleMesh returns m scaled by s, then moved by t.
func scaleMesh(m *mesh.TriMesh, s float64, t geom.Vec3) *mesh.TriMesh {
	out := &mesh.TriMesh{Verts: make([]geom.Vec3, len(m.Verts)), Tris: m.Tris}
	for i, v := range m.Verts {
		out.Verts[i] = v.Scale(s).Add(t)
	}
	return out
}
