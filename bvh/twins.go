package bvh

import (
	"math"
	"runtime"
	"sync"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// Twins are identical triangles: the same three vertex coordinates, bit for
// bit, in the same order. A soup of many copies of one triangle (stacked
// parts, exported instances, careless merges) makes every query quadratic:
// no volume can separate copies, so the traversal reaches every pair of
// them. A tree therefore holds one triangle of each group of twins, its
// representative (the first in the mesh), and a query that finds two
// representatives in contact reports every pair of their twins, without
// testing them: twins give the same answer to every triangle test, at any
// pose and tolerance, since they are computed from the same numbers.
//
// twinList holds the groups as lists threaded through the triangles:
// next[t] is the next twin of t after it (a representative's list holds
// its whole group), or -1; twin is the set of the triangles that are not
// representatives, as a bit set. Both are nil when no triangle has a twin
// (or when a tree holds every triangle, as saved trees of format version 1
// do).
type twinList struct {
	next []int32
	twin []uint64
}

// held reports whether the leaves hold triangle t: whether it is the
// first of its twins.
func (tw twinList) held(t int32) bool { return !hasBit(tw.twin, t) }

// heldTriangles returns the triangles of [0, n) that the leaves hold.
func (tw twinList) heldTriangles(n int) []int32 {
	ids := make([]int32, 0, n)
	for t := range int32(n) {
		if tw.held(t) {
			ids = append(ids, t)
		}
	}
	return ids
}

// findTwins returns the twins of m's triangles and the representatives:
// every triangle that is the first of its group (all of them, in order,
// when there are no twins, with next nil). It sorts the triangles by a
// hash of their nine coordinates (a radix sort on 32 bits, stable, so that
// equal hashes keep the triangles' order) and compares the triangles whose
// hashes are equal, so its cost is linear.
func findTwins(m *mesh.TriMesh) (twinList, []int32) {
	n := len(m.Tris)
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = int32(i)
	}
	if n < 2 {
		return twinList{}, ids
	}
	// A key holds a hash in its high 32 bits and the triangle below.
	keys := make([]uint64, n)
	parallelFor(n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			keys[i] = triangleHash(m, i)&^(1<<32-1) | uint64(i)
		}
	})
	keys = sortByHash(keys)
	var next []int32
	var heads []int32
	for i := 0; i < n; {
		j := i + 1
		for j < n && keys[j]>>32 == keys[i]>>32 {
			j++
		}
		if j-i > 1 {
			// Equal hashes, in the triangles' order: each joins the
			// group of the first earlier one it equals, or heads one.
			heads = heads[:0]
		run:
			for _, k := range keys[i:j] {
				t := int32(uint32(k))
				for _, h := range heads {
					if sameTriangle(m, int(h), int(t)) {
						if next == nil {
							next = make([]int32, n)
							for x := range next {
								next[x] = -1
							}
						}
						next[t], next[h] = next[h], t
						continue run
					}
				}
				heads = append(heads, t)
			}
		}
		i = j
	}
	if next == nil {
		return twinList{}, ids
	}
	tw := twinList{next: next, twin: make([]uint64, (n+63)/64)}
	for i := range n {
		if hasBit(tw.twin, int32(i)) {
			continue
		}
		for t := next[i]; t >= 0; t = next[t] {
			tw.twin[t>>6] |= 1 << (t & 63)
		}
	}
	return tw, tw.heldTriangles(n)
}

// sortByHash sorts keys by their high 32 bits, stably (a radix sort of
// three passes of 11, 11 and 10 bits, each counting and scattering the
// keys of each CPU's share of them in parallel), and returns them sorted:
// in keys or in a slice of its length.
func sortByHash(keys []uint64) []uint64 {
	n := len(keys)
	const digit = 11
	parts := 1
	if n >= parallelMin {
		parts = runtime.GOMAXPROCS(0)
	}
	size := (n + parts - 1) / parts
	at := make([][1 << digit]int, parts)
	tmp := make([]uint64, n)
	var wg sync.WaitGroup
	for shift := 32; shift < 64; shift += digit {
		for q := range parts {
			wg.Go(func() {
				c := &at[q]
				clear(c[:])
				for _, k := range keys[min(q*size, n):min((q+1)*size, n)] {
					c[k>>shift&(1<<digit-1)]++
				}
			})
		}
		wg.Wait()
		// Part q's keys of digit d go after those of smaller digits, and
		// after those of digit d in earlier parts.
		sum := 0
		for d := range 1 << digit {
			for q := range parts {
				at[q][d], sum = sum, sum+at[q][d]
			}
		}
		for q := range parts {
			wg.Go(func() {
				c := &at[q]
				for _, k := range keys[min(q*size, n):min((q+1)*size, n)] {
					d := k >> shift & (1<<digit - 1)
					tmp[c[d]] = k
					c[d]++
				}
			})
		}
		wg.Wait()
		keys, tmp = tmp, keys
	}
	return keys
}

// byIndex reports whether the twins of tw are exactly the groups of
// triangles of m with the same three vertex indices (in order): whether
// every group tw threads is of such triangles. Triangles with equal
// indices are twins at any vertices, so the twins found over m's
// coordinates (tw) always include those groups.
func (tw twinList) byIndex(m *mesh.TriMesh) bool {
	if !tw.has() {
		return true
	}
	for t := range int32(len(m.Tris)) {
		if n := tw.next[t]; n >= 0 && m.Tris[n] != m.Tris[t] {
			return false
		}
	}
	return true
}

// distinctVerts reports whether no two vertices of vs are equal, bit for
// bit. Then two triangles over vs are twins exactly when their vertex
// indices are equal. Its cost is linear (a radix sort of the vertices by a
// hash of their coordinates).
func distinctVerts(vs []geom.Vec3) bool {
	n := len(vs)
	if n < 2 {
		return true
	}
	keys := make([]uint64, n)
	parallelFor(n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			v := vs[i]
			h := math.Float64bits(v.X)*0x9e3779b97f4a7c15 + math.Float64bits(v.Y)*0xbf58476d1ce4e5b9 +
				math.Float64bits(v.Z)*0x94d049bb133111eb
			h ^= h >> 29
			h *= 0xbf58476d1ce4e5b9
			keys[i] = (h^h>>32)&^(1<<32-1) | uint64(i)
		}
	})
	keys = sortByHash(keys)
	for i := 0; i < n; {
		j := i + 1
		for j < n && keys[j]>>32 == keys[i]>>32 {
			j++
		}
		for a := i; a < j; a++ {
			for b := a + 1; b < j; b++ {
				if equalBits(vs[uint32(keys[a])], vs[uint32(keys[b])]) {
					return false
				}
			}
		}
		i = j
	}
	return true
}

// equalBits reports whether u and v are equal bit for bit.
func equalBits(u, v geom.Vec3) bool {
	return math.Float64bits(u.X) == math.Float64bits(v.X) && math.Float64bits(u.Y) == math.Float64bits(v.Y) &&
		math.Float64bits(u.Z) == math.Float64bits(v.Z)
}

// triangleHash mixes the bits of triangle i's nine coordinates: a sum of
// their products with nine odd constants (independent multiplications,
// which pipeline), then a final mix that spreads every bit over the top 32.
func triangleHash(m *mesh.TriMesh, i int) uint64 {
	t := m.Tris[i]
	a, b, c := m.Verts[t[0]], m.Verts[t[1]], m.Verts[t[2]]
	h := math.Float64bits(a.X)*0x9e3779b97f4a7c15 + math.Float64bits(a.Y)*0xbf58476d1ce4e5b9 +
		math.Float64bits(a.Z)*0x94d049bb133111eb + math.Float64bits(b.X)*0xd6e8feb86659fd93 +
		math.Float64bits(b.Y)*0xa0761d6478bd642f + math.Float64bits(b.Z)*0xe7037ed1a0b428db +
		math.Float64bits(c.X)*0x8ebc6af09c88c6e3 + math.Float64bits(c.Y)*0x589965cc75374cc3 +
		math.Float64bits(c.Z)*0x1d8e4e27c47d124f
	h ^= h >> 29
	h *= 0xbf58476d1ce4e5b9
	return h ^ h>>32
}

// sameTriangle reports whether triangles i and j of m are twins.
func sameTriangle(m *mesh.TriMesh, i, j int) bool {
	a, b := m.Tris[i], m.Tris[j]
	for k := range 3 {
		if !equalBits(m.Verts[a[k]], m.Verts[b[k]]) {
			return false
		}
	}
	return true
}

// has reports whether there are twins.
func (tw twinList) has() bool { return tw.next != nil }
