package stl

import (
	"math"
	"math/bits"
	"slices"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// welder appends facets to a mesh, giving bit-identical vertices one index
// (see the package documentation, "Vertices"). Its table is open-addressed
// with linear probing: slot s holds 1 + the index of a vertex of m, or 0 when
// empty; it is kept at most half full.
type welder struct {
	m     *mesh.TriMesh
	table []int32
	shift uint // 64 - log2(len(table))
}

// sameBits reports whether a and b are the same vertex bit for bit (so -0
// and +0 stay apart: Encode writes them apart).
func sameBits(a, b geom.Vec3) bool {
	return math.Float64bits(a.X) == math.Float64bits(b.X) &&
		math.Float64bits(a.Y) == math.Float64bits(b.Y) &&
		math.Float64bits(a.Z) == math.Float64bits(b.Z)
}

// slot returns v's first slot: a multiplicative hash of its bits, high bits
// kept (a widened float32 has its low 29 mantissa bits zero).
func (w *welder) slot(v geom.Vec3) uint64 {
	const k1, k2 = 0x9e3779b97f4a7c15, 0xc2b2ae3d27d4eb4f
	h := math.Float64bits(v.X) * k1
	h = (bits.RotateLeft64(h, 23) ^ math.Float64bits(v.Y)) * k2
	h = (bits.RotateLeft64(h, 23) ^ math.Float64bits(v.Z)) * k1
	return h >> w.shift
}

// grow doubles the table (sized for 512 vertices at first) and enters the
// vertices of m again.
func (w *welder) grow() {
	n := max(2*len(w.table), 1024)
	w.table = make([]int32, n)
	w.shift = 64 - uint(bits.TrailingZeros(uint(n)))
	mask := uint64(n - 1)
	for i, v := range w.m.Verts {
		s := w.slot(v)
		for w.table[s] != 0 {
			s = (s + 1) & mask
		}
		w.table[s] = int32(i + 1)
	}
}

// vertex returns the index of v in m, appending it if m has no vertex with
// its bits.
func (w *welder) vertex(v geom.Vec3) int32 {
	if 2*(len(w.m.Verts)+1) > len(w.table) {
		w.grow()
	}
	mask := uint64(len(w.table) - 1)
	for s := w.slot(v); ; s = (s + 1) & mask {
		e := w.table[s]
		if e == 0 {
			w.m.Verts = append(w.m.Verts, v)
			w.table[s] = int32(len(w.m.Verts))
			return int32(len(w.m.Verts) - 1)
		}
		if sameBits(w.m.Verts[e-1], v) {
			return e - 1
		}
	}
}

// facet appends the triangle t as the next triangle of m.
func (w *welder) facet(t [3]geom.Vec3) {
	w.m.Tris = append(w.m.Tris, [3]int32{w.vertex(t[0]), w.vertex(t[1]), w.vertex(t[2])})
}

// done returns m with its arrays trimmed to their length where more than an
// eighth of one is spare capacity (they grow by doubling), and drops the
// table.
func (w *welder) done() *mesh.TriMesh {
	m := w.m
	if cap(m.Verts)-len(m.Verts) > len(m.Verts)/8 {
		m.Verts = slices.Clone(m.Verts)
	}
	if cap(m.Tris)-len(m.Tris) > len(m.Tris)/8 {
		m.Tris = slices.Clone(m.Tris)
	}
	w.table = nil
	return m
}
