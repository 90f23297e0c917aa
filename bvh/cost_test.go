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

// BenchmarkCvKinds measures Cv for the kinds tested under the relative
// pose: one test between random nearby nodes of the tree and of the same
// tree moved by a small rotation (the flying volumes already moved, as a
// query caches them: that is Cu). For box-trees, which derive their boxes,
// the test includes moving the flying box's centre.
func BenchmarkCvKinds(b *testing.B) {
	m := costMesh(b)
	pose := geom.FromAxisAngle(geom.V(1, 2, 3), 0.02, geom.V(0.001, 0.002, 0.003))
	for _, kind := range []Kind{OBB, Sphere, AABB, BoxTree} {
		t, err := Build(m, Options{Kind: kind})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(kind.String(), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			const n = 4096
			n0 := t.Nodes()
			var ia, ib [n]int32
			for i := range n {
				ia[i] = int32(rng.IntN(n0 - 64))
				ib[i] = ia[i] + 1 + int32(rng.IntN(32))
			}
			var sep func(e, f int32) bool
			if kind == BoxTree {
				bt := t.impl.(*boxTree)
				q := bquery{tester: tester{pose: pose}, et: bt, ft: bt, r: pose.R, pad: padding(pose, 0, bt.mag, bt.mag)}
				var boxes [n][2]geom.AABB
				for i := range n {
					boxes[i] = [2]geom.AABB{dopBox(t.Node(int(ia[i]), nil)), dopBox(t.Node(int(ib[i]), nil))}
				}
				sep = func(e, f int32) bool {
					i := int(e) // e indexes boxes here
					eb, fb := boxes[i][0], boxes[i][1]
					ec, fc := eb.Min.Add(eb.Max).Scale(0.5), fb.Min.Add(fb.Max).Scale(0.5)
					eh, fh := eb.Max.Sub(eb.Min).Scale(0.5), fb.Max.Sub(fb.Min).Scale(0.5)
					return bv.OBBDisjoint(eh, fh, &q.r, &q.absR, q.pose.Apply(fc).Sub(ec), q.pad)
				}
				q.absR = absMat(q.r)
				for i := range n {
					ia[i], ib[i] = int32(i), int32(i)
				}
			} else {
				rt := t.impl.(*rigid)
				sc := &rscratch{}
				sc.begin(rt.len(), len(m.Verts), kind == OBB)
				q := &rquery{tester: tester{pose: pose}, et: rt, ft: rt, r: pose.R, sc: sc, pad: padding(pose, 0, rt.mag, rt.mag)}
				q.absR = absMat(q.r)
				for f := range int32(rt.len()) {
					q.move(f)
				}
				sep = q.disjoint
			}
			hits := 0
			for i := range n {
				if !sep(ia[i], ib[i]) {
					hits++
				}
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if sep(ia[i%n], ib[i%n]) {
					i += 2
				} else {
					i++
				}
			}
			b.ReportMetric(float64(hits)/n, "overlap-fraction")
		})
	}
}

// dopBox returns the box of a 6-DOP.
func dopBox(d bv.DOP, _, _ int, _ []int32) geom.AABB {
	return geom.AABB{Min: geom.V(d.Lo[0], d.Lo[1], d.Lo[2]), Max: geom.V(d.Hi[0], d.Hi[1], d.Hi[2])}
}
