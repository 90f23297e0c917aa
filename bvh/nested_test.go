package bvh_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/collide3d/collide/bench/paper"
	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

// The nested-spheres test of Klosowski et al. (Tables 6 and 7): a sphere of
// radius 1 - α inside one of radius 1, with the same tessellation, so that
// they never touch; Nv is the number of volume tests the query makes to
// find that out, with complete trees on both sides (flying τ = 1, as the
// paper sets it to match RAPID).
var nestedAlphas = paper.NestedAlphas()

// nestedTypes are the trees of the experiment, by the names of the facade.
var nestedTypes = []struct {
	name string
	opts bvh.Options
}{
	{"kdop6", bvh.Options{K: bv.K6, FlyLeaf: 1}},
	{"kdop14", bvh.Options{K: bv.K14, FlyLeaf: 1}},
	{"kdop18", bvh.Options{K: bv.K18, FlyLeaf: 1}},
	{"kdop26", bvh.Options{K: bv.K26, FlyLeaf: 1}},
	{"obb", bvh.Options{Kind: bvh.OBB}},
	{"obb-longest", bvh.Options{Kind: bvh.OBB, Rule: bvh.LongestSide}},
	{"obb-rapid", bvh.Options{Kind: bvh.OBB, Rule: bvh.RAPID}},
	{"sphere", bvh.Options{Kind: bvh.Sphere}},
	{"aabb", bvh.Options{Kind: bvh.AABB}},
	{"boxtree", bvh.Options{Kind: bvh.BoxTree}},
}

// nestedNv returns Nv for each type and α on spheres of about tris
// triangles (icospheres: 2,000 and 20,480).
func nestedNv(t testing.TB, tris int) map[string][]int64 {
	outer := gen.Must(gen.Icosphere(geom.Vec3{}, 1, tris))
	nv := map[string][]int64{}
	var s bvh.Scratch
	for _, ty := range nestedTypes {
		env, err := bvh.Build(outer, ty.opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range nestedAlphas {
			inner := gen.Must(gen.Icosphere(geom.Vec3{}, 1-a, tris))
			fly, err := bvh.Build(inner, ty.opts)
			if err != nil {
				t.Fatal(err)
			}
			st := bvh.Collide(env, fly, geom.Identity(), bvh.QueryOptions{All: true}, &s, func(p bvh.Pair) bool {
				t.Errorf("%s α=%g: the nested spheres touch at %v", ty.name, a, p)
				return false
			})
			nv[ty.name] = append(nv[ty.name], st.BVTests)
		}
	}
	return nv
}

// nestedTable formats the measured Nv beside the paper's.
func nestedTable(tris int, nv map[string][]int64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%d triangles: Nv (paper's in parentheses)\n| α |", tris)
	for _, a := range nestedAlphas {
		fmt.Fprintf(&b, " %g |", a)
	}
	b.WriteString("\n|---|")
	b.WriteString(strings.Repeat("---|", len(nestedAlphas)))
	b.WriteString("\n")
	paper := paper.PaperNested(tris)
	for _, ty := range nestedTypes {
		fmt.Fprintf(&b, "| %s |", ty.name)
		for i, n := range nv[ty.name] {
			if p, ok := paper[ty.name]; ok {
				fmt.Fprintf(&b, " %d (%d) |", n, p[i])
			} else {
				fmt.Fprintf(&b, " %d |", n)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestNestedSpheres runs the nested-spheres experiment on 2,000 triangles
// (and 20,480 with COLLIDE_LONG=1), logs the table (go test -v) and checks the
// paper's finding: in parallel close proximity (0.01 ≤ α ≤ 0.1 here), OBB
// trees need far fewer volume tests than 6-DOP trees (at most half; the
// paper's ratios are 2.6 to 15).
func TestNestedSpheres(t *testing.T) {
	sizes := []int{2000}
	if os.Getenv("COLLIDE_LONG") != "" {
		sizes = append(sizes, 20000)
	}
	for _, tris := range sizes {
		nv := nestedNv(t, tris)
		t.Log(nestedTable(tris, nv))
		for i, a := range nestedAlphas {
			if a > 0.1 || a < 0.01 {
				continue
			}
			if o, k := nv["obb"][i], nv["kdop6"][i]; 2*o > k {
				t.Errorf("%d triangles, α = %g: OBB trees made %d volume tests, 6-DOP trees %d: not far fewer", tris, a, o, k)
			}
		}
	}
}
