package ch6

import (
	"cmp"
	"slices"

	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/mesh"
)

// SkinnyFraction is the fraction of each model's triangles, the longest
// (by their longest side), that Skinny halves: the count grows by as much.
const SkinnyFraction = 0.05

// halve returns m with the fraction frac of its triangles of the longest
// sides halved across their longest sides, and for each triangle of the
// result the original it is (a piece of). The halving point is the side's
// midpoint rounded, so that the halves are the original triangle only to
// within a rounding: an experiment's approximation, which is why the
// library does not offer it.
func halve(m *mesh.TriMesh, frac float64) (out *mesh.TriMesh, orig []int32, halved int) {
	n := len(m.Tris)
	longest := func(i int) (float64, int) {
		t := m.Triangle(i)
		best, side := -1.0, 0
		for s := range 3 {
			if l := t[(s+1)%3].Sub(t[s]).Norm2(); l > best {
				best, side = l, s
			}
		}
		return best, side
	}
	ids := make([]int, n)
	lens := make([]float64, n)
	for i := range ids {
		ids[i] = i
		lens[i], _ = longest(i)
	}
	slices.SortStableFunc(ids, func(a, b int) int { return cmp.Compare(lens[b], lens[a]) })
	halved = int(frac * float64(n))
	split := make([]bool, n)
	for _, i := range ids[:halved] {
		split[i] = true
	}
	out = &mesh.TriMesh{Verts: slices.Clone(m.Verts)}
	for i, tr := range m.Tris {
		if !split[i] {
			out.Tris = append(out.Tris, tr)
			orig = append(orig, int32(i))
			continue
		}
		_, s := longest(i)
		a, b, c := tr[s], tr[(s+1)%3], tr[(s+2)%3]
		pa, pb := m.Verts[a], m.Verts[b]
		mid := int32(len(out.Verts))
		out.Verts = append(out.Verts, pa.Scale(0.5).Add(pb.Scale(0.5)))
		out.Tris = append(out.Tris, [3]int32{a, mid, c}, [3]int32{mid, b, c})
		orig = append(orig, int32(i), int32(i))
	}
	return out, orig, halved
}

// skinny flies f (the Pipes scene) with both models' longest triangles
// halved, against the plain trees; the halved trees' answers, mapped back
// to the original triangles, are checked against the flight's.
func skinny(f *flight, rounds int) (*Skinny, error) {
	env, eo, eh := halve(f.sc.Env, SkinnyFraction)
	fly, fo, fh := halve(f.sc.Fly, SkinnyFraction)
	plain, err := buildBoth(f, bvh.Options{})
	if err != nil {
		return nil, err
	}
	hf := &flight{sc: f.sc, poses: f.poses, sums: f.sums}
	cp := *f.sc
	cp.Env, cp.Fly = env, fly
	hf.sc = &cp
	split, err := buildBoth(hf, bvh.Options{})
	if err != nil {
		return nil, err
	}
	runs := compare(f, []trees{plain, split}, rounds)
	s := &Skinny{Halved: [2]int{eh, fh}, Tris: [2]int{len(f.sc.Env.Tris), len(f.sc.Fly.Tris)}, Plain: runs[0], Split: runs[1]}
	// The answers, mapped back.
	s.Split.Differ = 0
	var sc bvh.Scratch
	seen := map[[2]int32]bool{}
	for i, p := range f.poses {
		clear(seen)
		var ps pairSum
		bvh.Collide(split.env, split.fly, p, bvh.QueryOptions{All: true}, &sc, func(q bvh.Pair) bool {
			k := [2]int32{eo[q.Env], fo[q.Fly]}
			if !seen[k] {
				seen[k] = true
				ps.add(k[0], k[1])
			}
			return true
		})
		if ps != f.sums[i] {
			s.Split.Differ++
		}
	}
	return s, nil
}
