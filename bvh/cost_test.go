package bvh

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// The cost benchmarks measure the constants of the cost model
// T = Nv·Cv + Np·Cp + Nu·Cu on a 20,000-triangle torus: Cv, one k-DOP
// overlap test between random nodes of the tree, and Cu, one tumble of a
// random flying node at a random rotation. (Cp is geom's BenchmarkTriTri.)

func costMesh(b *testing.B) *mesh.TriMesh {
	b.Helper()
	return gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 20000))
}

func BenchmarkCv(b *testing.B) {
	m := costMesh(b)
	for _, k := range bv.Ks {
		for _, f64 := range []bool{false, true} {
			t, err := Build(m, Options{K: k, Float64: f64})
			if err != nil {
				b.Fatal(err)
			}
			name := fmt.Sprintf("k=%d/float32", k)
			if f64 {
				name = fmt.Sprintf("k=%d/float64", k)
			}
			b.Run(name, func(b *testing.B) {
				switch tr := t.impl.(type) {
				case *tree[float32, [6]float32]:
					benchOverlap(b, tr)
				case *tree[float32, [14]float32]:
					benchOverlap(b, tr)
				case *tree[float32, [18]float32]:
					benchOverlap(b, tr)
				case *tree[float32, [26]float32]:
					benchOverlap(b, tr)
				case *tree[float64, [6]float64]:
					benchOverlap(b, tr)
				case *tree[float64, [14]float64]:
					benchOverlap(b, tr)
				case *tree[float64, [18]float64]:
					benchOverlap(b, tr)
				case *tree[float64, [26]float64]:
					benchOverlap(b, tr)
				}
			})
		}
	}
}

// benchOverlap tests pairs of nodes close in the layout, and so in space,
// as the pairs a query tests are: they overlap about half the time.
func benchOverlap[F bv.Float, A bv.Slabs[F]](b *testing.B, t *tree[F, A]) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 4096
	var ia, ib [n]int32
	hits := 0
	for i := range n {
		ia[i] = int32(rng.IntN(len(t.nodes) - 64))
		ib[i] = ia[i] + 1 + int32(rng.IntN(32))
		if bv.Overlap[F](&t.nodes[ia[i]].s, &t.nodes[ib[i]].s) {
			hits++
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if bv.Overlap[F](&t.nodes[ia[i%n]].s, &t.nodes[ib[i%n]].s) {
			i += 2
		} else {
			i++
		}
	}
	b.ReportMetric(float64(hits)/n, "overlap-fraction")
}

func BenchmarkCu(b *testing.B) {
	m := costMesh(b)
	for _, k := range bv.Ks {
		t, err := Build(m, Options{K: k})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			switch tr := t.impl.(type) {
			case *tree[float32, [6]float32]:
				benchTumble(b, tr, t)
			case *tree[float32, [14]float32]:
				benchTumble(b, tr, t)
			case *tree[float32, [18]float32]:
				benchTumble(b, tr, t)
			case *tree[float32, [26]float32]:
				benchTumble(b, tr, t)
			}
		})
	}
}

// benchTumble tumbles random internal nodes of the flying view (those
// bounded by the vertices of their k-DOP) at a random rotation.
func benchTumble[F bv.Float, A bv.Slabs[F]](b *testing.B, et *tree[F, A], t *Tree) {
	fv := t.view(t.opts.K)
	var s scratch[F, A]
	s.begin(fv, len(t.mesh.Verts))
	rng := rand.New(rand.NewPCG(3, 4))
	pose := geom.FromAxisAngle(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), 1, geom.V(0.1, 0.2, 0.3))
	q := query[F, A]{tester: tester{pose: pose}, et: et, fv: fv, sc: &s}
	var nodes []int32
	verts := 0
	for i, c := range fv.kid {
		if c >= 0 {
			nodes = append(nodes, int32(i))
			verts += int(fv.voff[i+1] - fv.voff[i])
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		s.stamp[nodes[i%len(nodes)]] = 0
		q.tumble(nodes[i%len(nodes)])
		i++
	}
	b.ReportMetric(float64(verts)/float64(len(nodes)), "points/node")
}
