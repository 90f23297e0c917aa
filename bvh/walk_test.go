package bvh

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh/internal/specialize"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// TestGenerated checks that traverse_gen.go holds the copies that the
// go:generate line of traverse.go makes of the traversal as it is, for
// the kinds whose files (kind_*.go) list a copy.
func TestGenerated(t *testing.T) {
	src, err := os.ReadFile("traverse.go")
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^//go:generate go run \./internal/specialize/cmd/specialize (.*)$`).FindSubmatch(src)
	if line == nil {
		t.Fatal("traverse.go: no go:generate line")
	}
	// The line's arguments: flags, then the quoted copies.
	args := regexp.MustCompile(`"[^"]*"|\S+`).FindAllString(string(line[1]), -1)
	var fns, imports []string
	var copies []specialize.Copy
	var cases []specialize.Case
	var sw []specialize.Switch
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "-func":
			i++
			fns = strings.Split(args[i], ",")
		case "-import":
			i++
			imports = append(imports, args[i])
		case "-in", "-out":
			i++
		case "-copies":
			i++
			cs, k, err := specialize.DirectivesOf(args[i], 2)
			if err != nil {
				t.Fatal(err)
			}
			copies, cases = append(cs, copies...), k
		case "-switch":
			i++
			sw = append(sw, specialize.Switch{Spec: strings.Trim(args[i], `"`)})
		default:
			c, err := specialize.ParseCopy(strings.Trim(a, `"`), 2)
			if err != nil {
				t.Fatal(err)
			}
			copies = append(copies, c)
		}
	}
	if len(copies) == 0 || len(sw) != 1 || len(cases) == 0 {
		t.Fatal("traverse.go's go:generate line lists no copies, or no switch over their cases")
	}
	sw[0].Cases = cases
	want, err := specialize.File("traverse.go", src, fns, "bvh", imports, copies, sw...)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("traverse_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("traverse_gen.go is out of date: run go generate ./bvh")
	}
}

// walkEach runs the query of fly at p against env with the copy of the
// traversal for their kind (copy) or with the generic one.
func walkEach(env, fly *Tree, p geom.Pose, qo QueryOptions, s *Scratch, fn func(Pair) bool, copy bool) Stats {
	o := qo.request()
	switch e := env.impl.(type) {
	case *tree[float32, [6]float32]:
		q := e.query(env, fly, p, o, s, fn)
		return walkWith(&q, traverseDOP, copy)
	case *tree[float64, [18]float64]:
		q := e.query(env, fly, p, o, s, fn)
		return walkWith(&q, traverseDOP, copy)
	case *ctree[[18]float32, [18]uint8]:
		q := dopcQuery[[18]float32, [18]uint8]{dopQuery: e.shim.query(env, fly, p, o, s, fn), ct: e}
		return walkWith(&q, traverseDOPC, copy)
	case *vtree[bv.OBB]:
		q := obbQuery{newMoveQuery[bv.OBB](env, fly, p, o, s, fn, true)}
		return walkWith(&q, traverseOBB, copy)
	case *vtree[bv.Sphere]:
		q := sphereQuery{newMoveQuery[bv.Sphere](env, fly, p, o, s, fn, false)}
		return walkWith(&q, traverseSphere, copy)
	case *vtree[box]:
		q := aabbQuery{newMoveQuery[box](env, fly, p, o, s, fn, false)}
		return walkWith(&q, traverseAABB, copy)
	case *vtree[bv.RSS]:
		q := rssQuery{newMoveQuery[bv.RSS](env, fly, p, o, s, fn, true)}
		return walkWith(&q, traverseRSS, copy)
	case *boxTree:
		q := newBoxQuery(env, fly, p, o, s, fn)
		return walkWith(&q, traverseBox, copy)
	}
	panic("walkEach: no case for this tree")
}

// walkWith runs the query p with its kind's copy of the traversal, fast,
// or with the generic one.
func walkWith[X any, P pairOps[X]](p P, fast func(P, *walk[X]), copy bool) Stats {
	if copy {
		fast(p, p.state())
	} else {
		traverse(p, p.state())
	}
	return p.base().st
}

// TestGenericWalk checks that the generic traversal and its copies walk
// alike: the same pairs in the same order and the same counts, for every
// kind and variant.
func TestGenericWalk(t *testing.T) {
	envM := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 600))
	flyM := gen.Must(gen.Icosphere(geom.V(1, 0, 0), 0.35, 320))
	rng := rand.New(rand.NewPCG(5, 6))
	poses := []geom.Pose{geom.Identity(), geom.Translation(geom.V(0.01, 0, 0))}
	for range 3 {
		poses = append(poses, geom.FromAxisAngle(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), rng.Float64(), geom.V(0.1*rng.NormFloat64(), 0, 0)))
	}
	opts := []Options{{K: bv.K6}, {K: bv.K18, Float64: true, Leaf: 4}, {K: bv.K18, Compact: true}, {Kind: OBB}, {Kind: Sphere, Leaf: 2}, {Kind: AABB}, {Kind: RSS, Leaf: 2}, {Kind: BoxTree, Leaf: 4}}
	type run struct {
		pairs []Pair
		st    Stats
	}
	walk := func(env, fly *Tree, p geom.Pose, q QueryOptions, copy bool) run {
		var r run
		r.st = walkEach(env, fly, p, q, new(Scratch), func(pr Pair) bool {
			r.pairs = append(r.pairs, pr)
			return true
		}, copy)
		return r
	}
	for _, o := range opts {
		env, err := Build(envM, o)
		if err != nil {
			t.Fatal(err)
		}
		fly, err := Build(flyM, o)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range poses {
			for _, q := range []QueryOptions{{}, {All: true}, {All: true, Eps: 0.01}, {All: true, Restart: true}} {
				a, b := walk(env, fly, p, q, true), walk(env, fly, p, q, false)
				if len(a.pairs) == 0 && q.All {
					t.Errorf("%v, pose %d, %+v: no pairs; a weak test", o.Kind, i, q)
				}
				if !slices.Equal(a.pairs, b.pairs) || a.st != b.st {
					t.Errorf("%v, pose %d, %+v: copy %d pairs %+v, generic %d pairs %+v", o.Kind, i, q, len(a.pairs), a.st, len(b.pairs), b.st)
				}
			}
		}
	}
}

// BenchmarkWalk compares the copies of the traversal with the generic
// function they are made from (see traverse.go), on the scene of
// BenchmarkQuery, all pairs.
func BenchmarkWalk(b *testing.B) {
	envM := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 20000))
	flyM := gen.Must(gen.Icosphere(geom.Vec3{}, 0.1, 2000))
	var poses []geom.Pose
	for i := range 100 {
		a := 2 * math.Pi * float64(i) / 100
		poses = append(poses, geom.FromAxisAngle(geom.V(1, 1, 1), a, geom.V(math.Cos(a), math.Sin(a), 0.25)))
	}
	for _, o := range []Options{{K: bv.K6}, {K: bv.K18, Float64: true}, {Kind: OBB}, {Kind: RSS}, {Kind: BoxTree, Leaf: 4}} {
		env, err := Build(envM, o)
		if err != nil {
			b.Fatal(err)
		}
		fly, err := Build(flyM, o)
		if err != nil {
			b.Fatal(err)
		}
		for _, copy := range []bool{true, false} {
			name := fmt.Sprintf("%v/k=%d/copy=%v", o.Kind, o.K, copy)
			b.Run(name, func(b *testing.B) {
				var s Scratch
				i := 0
				for b.Loop() {
					walkEach(env, fly, poses[i%len(poses)], QueryOptions{All: true}, &s, func(Pair) bool { return true }, copy)
					i++
				}
			})
		}
	}
}

// TestFrontSeeds checks the shape temporal coherence will use: a walk that
// records the pairs it ends at (walk.front.out) and a walk seeded with them
// find the same pairs at the same pose, for every kind.
func TestFrontSeeds(t *testing.T) {
	envM := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 600))
	flyM := gen.Must(gen.Icosphere(geom.V(1, 0, 0), 0.35, 320))
	pose := geom.FromAxisAngle(geom.V(1, 2, 3), 0.3, geom.V(0.05, 0, 0))
	for _, o := range []Options{{K: bv.K18}, {K: bv.K6, Float64: true, FlyLeaf: 4}, {Kind: OBB}, {Kind: Sphere, Leaf: 2}, {Kind: AABB}, {Kind: RSS}, {Kind: BoxTree, Leaf: 4}} {
		env, err := Build(envM, o)
		if err != nil {
			t.Fatal(err)
		}
		fly, err := Build(flyM, o)
		if err != nil {
			t.Fatal(err)
		}
		var first, second []Pair
		collect := func(dst *[]Pair) func(Pair) bool {
			return func(p Pair) bool { *dst = append(*dst, p); return true }
		}
		q := QueryOptions{All: true}.request()
		s := new(Scratch)
		switch o.Kind {
		case BoxTree:
			b := newBoxQuery(env, fly, pose, q, s, collect(&first))
			w := b.state()
			w.front.record, w.front.out = true, w.front.out[:0]
			traverseBox(&b, w)
			front := frontItems(w.front.out)
			b = newBoxQuery(env, fly, pose, q, s, collect(&second))
			w.front.record, w.stack = false, append(w.stack[:0], front...)
			traverseBox(&b, w)
		default:
			var front []item[noFrame]
			for pass, dst := range []*[]Pair{&first, &second} {
				var st *walk[noFrame]
				var run func()
				var prep func(f int32)
				switch o.Kind {
				case KDOP:
					var m dopQuery[float32, [18]float32]
					var m6 dopQuery[float64, [6]float64]
					if et, ok := env.impl.(*tree[float32, [18]float32]); ok {
						m = et.query(env, fly, pose, q, s, collect(dst))
						st, run, prep = m.state(), func() { traverseDOP(&m, st) }, m.tumble
					} else {
						m6 = env.impl.(*tree[float64, [6]float64]).query(env, fly, pose, q, s, collect(dst))
						st, run, prep = m6.state(), func() { traverseDOP(&m6, st) }, m6.tumble
					}
				case OBB:
					m := obbQuery{newMoveQuery[bv.OBB](env, fly, pose, q, s, collect(dst), true)}
					st, run = m.state(), func() { traverseOBB(&m, st) }
				case Sphere:
					m := sphereQuery{newMoveQuery[bv.Sphere](env, fly, pose, q, s, collect(dst), false)}
					st, run = m.state(), func() { traverseSphere(&m, st) }
				case AABB:
					m := aabbQuery{newMoveQuery[box](env, fly, pose, q, s, collect(dst), false)}
					st, run = m.state(), func() { traverseAABB(&m, st) }
				case RSS:
					m := rssQuery{newMoveQuery[bv.RSS](env, fly, pose, q, s, collect(dst), true)}
					st, run = m.state(), func() { traverseRSS(&m, st) }
				}
				if pass == 0 {
					st.front.record, st.front.out = true, st.front.out[:0]
				} else {
					st.front.record, st.stack = false, append(st.stack[:0], front...)
					for _, it := range front {
						if prep != nil {
							prep(it.f) // k-DOPs tumble their seeds first
						}
					}
				}
				run()
				front = frontItems(st.front.out)
			}
		}
		slices.SortFunc(first, func(a, b Pair) int { return cmp.Or(cmp.Compare(a.Env, b.Env), cmp.Compare(a.Fly, b.Fly)) })
		slices.SortFunc(second, func(a, b Pair) int { return cmp.Or(cmp.Compare(a.Env, b.Env), cmp.Compare(a.Fly, b.Fly)) })
		if len(first) == 0 || !slices.Equal(first, second) {
			t.Errorf("%v: %d pairs from the roots, %d from the front", o.Kind, len(first), len(second))
		}
	}
}

// frontItems returns the pairs of the front entries f.
func frontItems[X any](f []fentry[X]) []item[X] {
	out := make([]item[X], len(f))
	for i, e := range f {
		out[i] = e.item
	}
	return out
}
