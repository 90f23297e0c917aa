package bvh

import (
	"bytes"
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
// go:generate line of traverse.go makes of the traversal as it is.
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
		default:
			c, err := specialize.ParseCopy(strings.Trim(a, `"`), 2)
			if err != nil {
				t.Fatal(err)
			}
			copies = append(copies, c)
		}
	}
	want, err := specialize.File("traverse.go", src, fns, "bvh", imports, copies)
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
	opts := []Options{{K: bv.K6}, {K: bv.K18, Float64: true, Leaf: 4}, {Kind: OBB}, {Kind: Sphere, Leaf: 2}, {Kind: AABB}, {Kind: RSS, Leaf: 2}, {Kind: BoxTree, Leaf: 4}}
	type run struct {
		pairs []Pair
		st    Stats
	}
	walk := func(env, fly *Tree, p geom.Pose, q QueryOptions, generic bool) run {
		genericWalk = generic
		defer func() { genericWalk = false }()
		var r run
		r.st = Collide(env, fly, p, q, nil, func(pr Pair) bool {
			r.pairs = append(r.pairs, pr)
			return true
		})
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
				a, b := walk(env, fly, p, q, false), walk(env, fly, p, q, true)
				if !slices.Equal(a.pairs, b.pairs) || a.st != b.st {
					t.Errorf("%v, pose %d, %+v: copy %d pairs %+v, generic %d pairs %+v", o.Kind, i, q, len(a.pairs), a.st, len(b.pairs), b.st)
				}
			}
		}
	}
}
