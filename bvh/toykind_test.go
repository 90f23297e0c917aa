package bvh

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// This file is a kind added as the package documentation's recipe says
// ("Adding a kind"), from a test file: a toy "ball" kind, whose nodes are
// bounded by loose balls (the box's centre, the farthest vertex), moved
// with the pose like the other moved-volume kinds. Its file is this one
// (the volume, its test, separation, leaf tests, ready, read checks), its
// row is registered (registerKind) and its configurations are those of
// TestToyKind. What a kind of a test file does not get: a copy of the
// walk and a case in Collide's switch, which go generate makes from the
// package's own files only (their directives would name a type that
// only the tests define). Its queries run through the generic walk
// (run), called by toyCollide; Collide, and the queries made of it
// (Distance, Near, TimeOfImpact), panic on its trees. Its leaf tests cull
// nothing and its leaves' separation proves nothing: a toy kind need not
// be fast to be right.

// toyBall is the toy kind's volume: the points within R of C.
type toyBall struct {
	C geom.Vec3
	R float64
}

// toyRAt is the offset of the radius in a saved node's record.
const toyRAt = 3 * 8

// toyID is the toy kind's Kind, given when a test registers it
// (registerToy).
var toyID Kind

// toyKind is the toy kind.
var toyKind = volKind[toyBall]{
	fit: func(n *fitNode) toyBall {
		c := n.box.Center()
		r := 0.0
		for _, t := range n.triangles() {
			for _, v := range t {
				r = max(r, v.Sub(c).Norm())
			}
		}
		// Loose, so that toyHolds confirms every vertex in float64.
		return toyBall{C: c, R: r*(1+0x1p-30) + 0x1p-1000}
	},
	frame:  func(_ *toyBall, n *fitNode) ([3]geom.Vec3, [3]float64) { return aabbFrame(n) },
	boxes:  true,
	volume: func(v *toyBall) float64 { return v.R * v.R * v.R },
	box: func(v *toyBall) geom.AABB {
		r := geom.V(v.R, v.R, v.R)
		return geom.AABB{Min: v.C.Sub(r), Max: v.C.Add(r)}
	},
	floats: func(v *toyBall, dst []*float64) []*float64 { return append(dst, &v.C.X, &v.C.Y, &v.C.Z, &v.R) },
	check: func(t *flat[toyBall], m *mesh.TriMesh, sh *shape) *fault {
		return checkHolds(t, toyID, m, sh, toyFault, toyHolds)
	},
	probes: func(t *Tree) (cv, cu func(n int)) {
		q := toyQuery{newMoveQuery[toyBall](t, t, costPose, request{}, &Scratch{}, nil, false)}
		return probe(&q, vtreeProbes[toyBall](t))
	},
}

// registerToy adds the toy kind to the table (once per test) and returns
// its Kind; the test removes it when it ends.
func registerToy(t *testing.T) Kind {
	n := len(kinds)
	toyID = registerKind(vtreeSpec("toy", &toyKind))
	toyKind.kind = toyID
	t.Cleanup(func() { kinds = kinds[:n] })
	return toyID
}

// toyFault returns the fault of ball v of node i outside the bounds the
// queries' padding assumes, or nil.
func toyFault(i int, v *toyBall, mag float64) *fault {
	if f := centreFault(i, toyID, v.C, mag); f != nil {
		return f
	}
	return extentFault(i, toyRAt, "radius", v.R, mag)
}

// toyHolds reports whether p is in v, in float64 with a margin that
// covers the rounding (the fitted balls leave 2⁻³⁰ of their radius to
// spare); a toy kind may refuse a tree whose volumes are too tight for
// its test.
func toyHolds(v *toyBall, p geom.Vec3) bool {
	d := p.Sub(v.C)
	return d.Dot(d)*(1+0x1p-40)+0x1p-1000 <= v.R*v.R
}

// toyQuery is a query between two trees of the toy kind.
type toyQuery struct{ moveQuery[toyBall] }

// toyCollide runs the query of Collide on trees of the toy kind, with the
// generic walk. (Collide itself runs only the kinds of the package's files:
// a registered kind has no case in its switch, collideKind.)
func toyCollide(env, fly *Tree, pose geom.Pose, o QueryOptions, s *Scratch, fn func(Pair) bool) Stats {
	q := toyQuery{newMoveQuery[toyBall](env, fly, pose, o.request(), s, fn, false)}
	return run(&q)
}

// update moves flying node f's centre by the pose.
func (q *toyQuery) update(f int32) { q.sc.wc[f] = q.pose.Apply(q.ft.vol(f).C) }

// ready moves internal flying node f if this query has not.
func (q *toyQuery) ready(f int32) {
	if q.internal(f) && q.stale(f) {
		q.update(f)
	}
}

// overlap compares the distance of the centres with the sum of the radii
// and the padding, as the sphere kind does.
func (q *toyQuery) overlap(e, f int32, _ *noFrame) bool {
	a, b := q.et.vol(e), q.ft.vol(f)
	d := q.sc.wc[f].Sub(a.C)
	rr := a.R + b.R + q.pad
	return d.Dot(d) <= rr*rr
}

// sep of two internal nodes: the sphere kind's separation (positive
// exactly when overlap says disjoint); a leaf proves nothing.
func (q *toyQuery) sep(e, f int32, _ *noFrame) float64 {
	if !q.internal(f) || uint32(e) >= uint32(len(q.et.nodes)) {
		return 0
	}
	a, b := q.et.vol(e), q.ft.vol(f)
	return bv.SphereSeparation(q.sc.wc[f].Sub(a.C), a.R+b.R+q.pad) * sepScale
}

// lowerBound is sep's bound, which for two spheres is their distance
// already, and for leaves proves nothing (a toy kind need not bound
// them).
func (q *toyQuery) lowerBound(e, f int32, x *noFrame) float64 {
	return q.sep(e, f, x)
}

// The toy kind's leaves cull nothing: their triangles are tested exactly.
func (q *toyQuery) envLeaf(_, _ int32) bool { return true }
func (q *toyQuery) flyLeaf(_, _ int32) bool { return true }

// envFirst descends the larger ball.
func (q *toyQuery) envFirst(e, f int32, _ *noFrame) bool { return q.et.vol(e).R >= q.ft.vol(f).R }

// TestToyKind adds the toy kind and checks, on a few scenes, that its
// trees find every pair a brute-force test finds (first contact, all
// pairs, a tolerance, the restart variant, resumed from a front), that
// Build, Validate, WriteTo, Read, As and the cost probes work for it as
// for the package's kinds, that its trees fly only against their kind,
// and that Collide says it does not run them.
func TestToyKind(t *testing.T) {
	toy := registerToy(t)
	if got := toy.String(); got != "toy" {
		t.Errorf("the toy kind's name is %q", got)
	}
	rng := rand.New(rand.NewPCG(29, 2))
	type scene struct {
		name     string
		env, fly *mesh.TriMesh
	}
	scenes := []scene{
		{"torus-sphere", gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 600)), gen.Must(gen.Icosphere(geom.V(1, 0, 0), 0.35, 320))},
		{"soups", testgeom.RandomSoup(rng, 300, geom.AABB{Min: geom.V(-1, -1, -1), Max: geom.V(1, 1, 1)}, 0.2),
			testgeom.RandomSoup(rng, 200, geom.AABB{Min: geom.V(-1, -1, -1), Max: geom.V(1, 1, 1)}, 0.2)},
		{"far", gen.Must(gen.Icosphere(geom.V(1e5, 2e5, -3e5), 1, 500)), gen.Must(gen.Icosphere(geom.V(1e5+1.5, 2e5, -3e5), 0.6, 180))},
	}
	var s Scratch
	for _, sc := range scenes {
		b := sc.env.Bounds()
		poses := []geom.Pose{geom.Identity()}
		for range 4 {
			axis := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
			p := geom.FromAxisAngle(axis, rng.Float64()*0.5, geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.05*b.Size().Norm()))
			p.T = p.T.Add(b.Center()).Sub(p.R.MulVec(b.Center()))
			poses = append(poses, p)
		}
		// The brute-force answers: pairs at eps 0 and 0.01.
		wants := make([][2][][2]int32, len(poses))
		for j, p := range poses {
			for k, eps := range []float64{0, 0.01} {
				wants[j][k] = testgeom.Brute(sc.env, sc.fly, p, eps)
			}
		}
		for _, o := range []Options{{Kind: toy}, {Kind: toy, Leaf: 4, Split: Median}} {
			env, err := Build(sc.env, o)
			if err != nil {
				t.Fatal(err)
			}
			fly, err := Build(sc.fly, o)
			if err != nil {
				t.Fatal(err)
			}
			if err := env.Validate(); err != nil {
				t.Fatalf("%s leaf %d: Validate: %v", sc.name, o.Leaf, err)
			}
			if env.Kind() != toy || !SameKind(env, fly) {
				t.Fatalf("%s: kind %v", sc.name, env.Kind())
			}
			// Saved and read back, the tree is valid and answers alike.
			var buf bytes.Buffer
			if _, err := env.WriteTo(&buf); err != nil {
				t.Fatalf("%s: WriteTo: %v", sc.name, err)
			}
			read, err := Read(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("%s: Read: %v", sc.name, err)
			}
			if read.Kind() != toy || read.Nodes() != env.Nodes() {
				t.Fatalf("%s: read a %v tree of %d nodes, want a toy tree of %d", sc.name, read.Kind(), read.Nodes(), env.Nodes())
			}
			if err := read.Validate(); err != nil {
				t.Fatalf("%s: the tree read: Validate: %v", sc.name, err)
			}
			// A front for each tree and tolerance, kept along the poses.
			type pair struct {
				e *Tree
				k int
			}
			fronts := map[pair]*Front{}
			for j, p := range poses {
				for k, eps := range []float64{0, 0.01} {
					want := wants[j][k]
					for _, e := range []*Tree{env, read} {
						if fronts[pair{e, k}] == nil {
							fronts[pair{e, k}] = new(Front)
						}
						got := toyPairs(e, fly, p, QueryOptions{All: true, Eps: eps, Front: fronts[pair{e, k}]}, &s)
						if !slices.Equal(got, want) {
							t.Fatalf("%s leaf %d pose %d eps %v front: %d pairs, brute force %d", sc.name, o.Leaf, j, eps, len(got), len(want))
						}
					}
					for _, q := range []QueryOptions{{All: true, Eps: eps}, {All: true, Eps: eps, Restart: true}} {
						for _, e := range []*Tree{env, read} {
							got := toyPairs(e, fly, p, q, &s)
							if !slices.Equal(got, want) {
								t.Fatalf("%s leaf %d pose %d eps %v restart %v: %d pairs, brute force %d", sc.name, o.Leaf, j, eps, q.Restart, len(got), len(want))
							}
						}
					}
					if got := toyPairs(env, fly, p, QueryOptions{Eps: eps}, &s); len(got) > 1 || len(got) == 1 != (len(want) > 0) ||
						len(got) == 1 && !slices.Contains(want, got[0]) {
						t.Fatalf("%s leaf %d pose %d eps %v: first contact %v, brute force %d pairs", sc.name, o.Leaf, j, eps, got, len(want))
					}
				}
			}
			if cv, cu := env.CostProbes(); env.Nodes() >= 66 && (cv == nil || cu == nil) {
				t.Errorf("%s: no cost probes", sc.name)
			} else if cv != nil {
				cv(100)
				cu(100)
			}
		}
	}
	// A tree of another kind flies against a toy tree once made one (As).
	env, err := Build(scenes[0].env, Options{Kind: toy})
	if err != nil {
		t.Fatal(err)
	}
	fly, err := Build(scenes[0].fly, Options{Kind: Sphere})
	if err != nil {
		t.Fatal(err)
	}
	if SameKind(env, fly) {
		t.Fatal("a sphere tree is of the toy kind")
	}
	if fly, err = fly.As(toy); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Collide ran a query on trees of a registered kind")
			}
		}()
		Collide(env, fly, geom.Identity(), QueryOptions{}, &s, func(Pair) bool { return true })
	}()
	p := geom.Identity()
	if got, want := toyPairs(env, fly, p, QueryOptions{All: true}, &s), testgeom.Brute(scenes[0].env, scenes[0].fly, p, 0); !slices.Equal(got, want) {
		t.Fatalf("As: %d pairs, brute force %d", len(got), len(want))
	}
}

// toyPairs returns the pairs the toy kind's query finds, sorted as
// testgeom.Brute sorts them.
func toyPairs(env, fly *Tree, p geom.Pose, q QueryOptions, s *Scratch) [][2]int32 {
	var got [][2]int32
	toyCollide(env, fly, p, q, s, func(pr Pair) bool {
		got = append(got, [2]int32{pr.Env, pr.Fly})
		return true
	})
	slices.SortFunc(got, func(a, b [2]int32) int {
		if a[0] != b[0] {
			return int(a[0] - b[0])
		}
		return int(a[1] - b[1])
	})
	return got
}
