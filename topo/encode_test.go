package topo

import (
	"encoding/binary"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// roundTrip checks that Decode reads back what Encode writes of tp, the
// topology of m, equal field by field.
func roundTrip(t *testing.T, name string, m *mesh.TriMesh, tp *Topology) {
	t.Helper()
	got, err := Decode(m, Encode(m, tp))
	if err != nil {
		t.Fatalf("%s: Decode: %v", name, err)
	}
	if !reflect.DeepEqual(got, tp) {
		t.Fatalf("%s: Decode gives\n%+v\nwant\n%+v", name, got, tp)
	}
}

// formatError returns err as a *mesh.FormatError of this package, failing
// if it is not one.
func formatError(t *testing.T, what string, err error) *mesh.FormatError {
	t.Helper()
	var fe *mesh.FormatError
	if !errors.As(err, &fe) || fe.Format != FormatName {
		t.Fatalf("%s: error %v is not a topology *mesh.FormatError", what, err)
	}
	return fe
}

// layout gives the offsets of an encoding's parts.
type layout struct {
	list                   [6]int // Degenerate, Boundary, NonManifoldEdges, NonManifoldVerts, Misoriented, Flipped
	lists, notConvex, weld int
	order, first, edges    int
}

func layoutOf(b []byte) layout {
	le := binary.LittleEndian
	l := layout{lists: headSize}
	at := headSize
	for i, size := range []int{4, 12, 12, 4, 12, 4} {
		l.list[i] = at
		at += 4 + size*int(le.Uint32(b[at:]))
	}
	l.notConvex = at
	l.weld = at + 20
	l.order = l.weld + 4*int(le.Uint64(b))
	l.first = l.order + 4*int(le.Uint64(b[8:]))
	l.edges = len(b) - 4*int(le.Uint64(b[16:]))
	return l
}

// TestDecodeForged alters the encodings of broken and sound meshes, field
// by field, and checks that Decode rejects each with the offset of the
// field at fault.
func TestDecodeForged(t *testing.T) {
	le := binary.LittleEndian
	box := generate(t, "box", nil)
	// The box with a duplicate of vertex 0, used by triangle 0 in its
	// place: welded into vertex 0.
	dup := generate(t, "box", nil)
	dup.Verts = append(dup.Verts, dup.Verts[dup.Tris[0][0]])
	dup.Tris[0][0] = int32(len(dup.Verts) - 1)
	flipped := generate(t, "box", nil)
	flipped.Tris[5][0], flipped.Tris[5][1] = flipped.Tris[5][1], flipped.Tris[5][0]
	torus := generate(t, "torus", map[string]float64{"tris": 200})
	hole := generate(t, "box", nil)
	hole.Tris = hole.Tris[1:]
	// Unused vertex 0 and a degenerate triangle.
	loose := generate(t, "box", nil)
	loose.Verts = append([]geom.Vec3{{X: 7}}, loose.Verts...)
	for i := range loose.Tris {
		for k := range 3 {
			loose.Tris[i][k]++
		}
	}
	loose.Tris = append(loose.Tris, [3]int32{1, 1, 2})
	count := func(i int) int { return 28 + 8*i }
	set32 := func(b []byte, at int, v int32) { le.PutUint32(b[at:], uint32(v)) }
	get32 := func(b []byte, at int) int32 { return int32(le.Uint32(b[at:])) }
	cases := []struct {
		name string
		m    *mesh.TriMesh
		edit func(b []byte, l layout) []byte
		msg  string
		at   func(l layout) int
	}{
		{"nv", box, func(b []byte, l layout) []byte { le.PutUint64(b, 9); return b }, "topology of 9 vertices", func(layout) int { return 0 }},
		{"nw", box, func(b []byte, l layout) []byte { le.PutUint64(b[8:], 99); return b }, "99 welded vertices", func(layout) int { return 8 }},
		{"nw-short", box, func(b []byte, l layout) []byte {
			le.PutUint64(b[8:], le.Uint64(b[8:])-1)
			return b[:len(b)-4]
		}, "out of range [-1, 7)", nil},
		{"flag-closed", box, func(b []byte, l layout) []byte { b[24] &^= 2; return b }, "stored Closed = false", func(layout) int { return 24 }},
		{"flag-convex", torus, func(b []byte, l layout) []byte { b[24] |= 16; return b }, "stored Convex = true", func(layout) int { return 24 }},
		{"flag-convex-off", box, func(b []byte, l layout) []byte { b[24] &^= 16; return b }, "stored Convex = false", func(layout) int { return 24 }},
		{"flag-unknown", box, func(b []byte, l layout) []byte { b[24] |= 32; return b }, "unknown flags", func(layout) int { return 24 }},
		{"edges", box, func(b []byte, l layout) []byte { le.PutUint64(b[count(1):], 17); return b }, "stored Edges = 17", func(layout) int { return count(1) }},
		{"genus", torus, func(b []byte, l layout) []byte { le.PutUint64(b[count(5):], 0); return b }, "stored Genus = 0", func(layout) int { return count(5) }},
		{"volume", box, func(b []byte, l layout) []byte { le.PutUint64(b[count(7):], ^uint64(0)); return b }, "stored VolumeSign = -1", func(layout) int { return count(7) }},
		{"welded", dup, func(b []byte, l layout) []byte { le.PutUint64(b[count(6):], 0); return b }, "stored Welded = 0", func(layout) int { return count(6) }},
		{"flipped-list", flipped, func(b []byte, l layout) []byte {
			set32(b, l.list[5]+4, 4) // Flipped[0]: 5 → 4
			return b
		}, "stored Flipped [4]", func(l layout) int { return l.list[5] }},
		{"boundary-list", hole, func(b []byte, l layout) []byte {
			set32(b, l.lists+4+4, get32(b, l.lists+4+4)+1) // Boundary[0].Tri
			return b
		}, "stored Boundary", func(l layout) int { return l.lists + 4 }},
		{"list-long", box, func(b []byte, l layout) []byte { set32(b, l.lists, MaxListed+1); return b }, "more than 16", func(l layout) int { return l.lists }},
		{"notconvex-reason", torus, func(b []byte, l layout) []byte { set32(b, l.notConvex, 9); return b }, "unknown NotConvex reason 9", func(l layout) int { return l.notConvex }},
		{"notconvex-other", torus, func(b []byte, l layout) []byte { set32(b, l.notConvex, 6); return b }, "stored NotConvex", func(l layout) int { return l.notConvex }},
		{"notconvex-none", torus, func(b []byte, l layout) []byte { set32(b, l.notConvex, 0); return b }, "stored NotConvex", func(l layout) int { return l.notConvex }},
		{"weld-range", box, func(b []byte, l layout) []byte { set32(b, l.weld+4*3, 1000); return b }, "vertex 3 welded to 1000, out of range", func(l layout) int { return l.weld + 12 }},
		{"weld-swap", box, func(b []byte, l layout) []byte {
			// Two welded vertices renumbered: not in the order of first use.
			v0, v1 := box.Tris[0][0], box.Tris[0][1]
			x, y := get32(b, l.weld+4*int(v0)), get32(b, l.weld+4*int(v1))
			set32(b, l.weld+4*int(v0), y)
			set32(b, l.weld+4*int(v1), x)
			return b
		}, "before 0 is used", func(l layout) int { return l.weld + 4*int(box.Tris[0][0]) }},
		{"weld-other-position", box, func(b []byte, l layout) []byte {
			// Triangle 1's last corner welded to triangle 0's first.
			v := box.Tris[1][2]
			set32(b, l.weld+4*int(v), 0)
			return b
		}, "welded to 0 at vertex", func(l layout) int { return l.weld + 4*int(box.Tris[1][2]) }},
		{"weld-unused", loose, func(b []byte, l layout) []byte { set32(b, l.weld, 0); return b }, "which no triangle uses, is welded to 0", func(l layout) int { return l.weld }},
		{"weld-none", box, func(b []byte, l layout) []byte { set32(b, l.weld+4*int(box.Tris[2][1]), -1); return b }, "is welded to none", func(l layout) int { return l.weld + 4*int(box.Tris[2][1]) }},
		{"order-twice", box, func(b []byte, l layout) []byte { copy(b[l.order+4:], b[l.order:l.order+4]); return b }, "listed twice", func(l layout) int { return l.order + 4 }},
		{"order-swap", box, func(b []byte, l layout) []byte {
			x := slices.Clone(b[l.order : l.order+4])
			copy(b[l.order:], b[l.order+4:l.order+8])
			copy(b[l.order+4:], x)
			return b
		}, "does not come after", func(l layout) int { return l.order + 4 }},
		{"ne", box, func(b []byte, l layout) []byte { le.PutUint64(b[16:], 99); return b }, "99 edges, more than the 36 half-edges", func(layout) int { return 16 }},
		{"ne-short", box, func(b []byte, l layout) []byte {
			le.PutUint64(b[16:], le.Uint64(b[16:])-1)
			return b[:len(b)-4]
		}, "17 edges, the half-edges give 18", func(layout) int { return 16 }},
		{"first-range", box, func(b []byte, l layout) []byte { set32(b, l.first+4*5, 6); return b }, "half-edge 5 given edge 6, out of range [0, 5]", func(l layout) int { return l.first + 20 }},
		{"first-other", box, func(b []byte, l layout) []byte {
			// Half-edge 1's edge given as half-edge 0's.
			set32(b, l.first+4, 0)
			return b
		}, "half-edge 1", func(l layout) int { return l.first + 4 }},
		{"first-not-first", box, func(b []byte, l layout) []byte {
			// The twin (the later use) of half-edge 0 given as its own edge's
			// first, and half-edge 0 given it.
			tw := Of(box).Twin[0]
			set32(b, l.first, tw)
			return b
		}, "out of range", func(l layout) int { return l.first }},
		{"first-degenerate", loose, func(b []byte, l layout) []byte { set32(b, l.first+4*3*12, 0); return b }, "of degenerate triangle 12 given edge 0 (want -1)", func(l layout) int { return l.first + 4*36 }},
		{"first-split", box, func(b []byte, l layout) []byte {
			// The later use of an edge made an edge of its own, listed
			// after the first in the order: the order proves them one.
			tw := Of(box).Twin[0]
			set32(b, l.first+4*int(tw), tw)
			le.PutUint64(b[16:], le.Uint64(b[16:])+1)
			e := slices.Clone(b[l.edges:])
			i := slices.Index(slices.Collect(func(yield func(int32) bool) {
				for j := 0; j < len(e); j += 4 {
					if !yield(get32(e, j)) {
						return
					}
				}
			}), 0)
			b = append(b[:l.edges+4*i+4], le.AppendUint32(nil, uint32(tw))...)
			return append(b, e[4*i+4:]...)
		}, "the order is wrong or they are one", nil},
		{"edges-swap", box, func(b []byte, l layout) []byte {
			x := slices.Clone(b[l.edges : l.edges+4])
			copy(b[l.edges:], b[l.edges+4:l.edges+8])
			copy(b[l.edges+4:], x)
			return b
		}, "does not come after", func(l layout) int { return l.edges + 4 }},
		{"edges-twice", box, func(b []byte, l layout) []byte { copy(b[l.edges+4:], b[l.edges:l.edges+4]); return b }, "does not come after", func(l layout) int { return l.edges + 4 }},
		{"edges-not-first", box, func(b []byte, l layout) []byte { set32(b, l.edges, Of(box).Twin[0]); return b }, "is not an edge's first half-edge", func(l layout) int { return l.edges }},
		{"size", box, func(b []byte, l layout) []byte { return append(b, 0) }, "want", nil},
		{"truncated", box, func(b []byte, l layout) []byte { return b[:50] }, "truncated", func(layout) int { return 50 }},
	}
	for _, c := range cases {
		tp := Of(c.m)
		data := Encode(c.m, tp)
		if _, err := Decode(c.m, data); err != nil {
			t.Fatalf("%s: the unaltered encoding: %v", c.name, err)
		}
		b := slices.Clone(data)
		b = c.edit(b, layoutOf(data))
		got, err := Decode(c.m, b)
		if err == nil {
			t.Errorf("%s: accepted: %+v", c.name, got)
			continue
		}
		fe := formatError(t, c.name, err)
		if !strings.Contains(fe.Msg, c.msg) {
			t.Errorf("%s: %v, want %q", c.name, err, c.msg)
		}
		if c.at != nil && fe.Offset != int64(c.at(layoutOf(data))) {
			t.Errorf("%s: offset %d, want %d (%v)", c.name, fe.Offset, c.at(layoutOf(data)), err)
		}
	}
}

// TestDecodeSplitWeld forges a weld that keeps two vertices at one
// position apart, consistent in every other way (a new welded vertex
// numbered in order, listed in the order): the order proves it wrong.
func TestDecodeSplitWeld(t *testing.T) {
	// Two triangles sharing an edge, its vertices given twice.
	m := &mesh.TriMesh{Verts: []geom.Vec3{{X: 0}, {X: 1}, {Y: 1}, {X: 1}, {Y: 1}, {X: 1, Y: 1}},
		Tris: [][3]int32{{0, 1, 2}, {3, 5, 4}}}
	tp := Of(m)
	if tp.Welded != 2 || tp.Edges != 5 {
		t.Fatalf("%+v", tp)
	}
	// Of welds 3 into 1 and 4 into 2: forge 3 and 4 as welded vertices of
	// their own (numbered 3 and 5, with 5 as 4), the topology of the
	// unwelded mesh (two triangles apart), and the order of all five.
	unwelded := &mesh.TriMesh{Verts: []geom.Vec3{{X: 0}, {X: 1}, {Y: 1}, {X: 1, Y: 1.5}, {Y: 1.5}, {X: 1, Y: 1}},
		Tris: m.Tris}
	forged := Of(unwelded)
	b := Encode(unwelded, forged)
	if _, err := Decode(m, b); err == nil {
		t.Fatal("a split weld is accepted")
	} else if fe := formatError(t, "split", err); !strings.Contains(fe.Msg, "the order is wrong or they are one") {
		t.Errorf("split: %v", err)
	}
}

// TestDecodeTruncated cuts an encoding at every length: each is an error.
func TestDecodeTruncated(t *testing.T) {
	m := generate(t, "torus", map[string]float64{"tris": 100})
	data := Encode(m, Of(m))
	for n := range len(data) {
		if _, err := Decode(m, data[:n]); err == nil {
			t.Fatalf("cut at %d: accepted", n)
		} else if fe := formatError(t, "cut", err); fe.Offset > int64(n) {
			t.Fatalf("cut at %d: offset %d", n, fe.Offset)
		}
	}
}

// FuzzDecode alters the encoding of a small mesh (as FuzzOf makes them) at
// the positions the bytes say: Decode never panics, and what it accepts is
// Of's topology.
func FuzzDecode(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 0, 1, 2, 0, 2, 3, 0, 3, 1, 1, 3, 2}, []byte{16, 1})
	f.Add([]byte{0, 9, 26, 13, 4, 5, 0, 1, 2, 2, 1, 0, 3, 4, 5}, []byte{200, 255, 201, 0})
	f.Fuzz(func(t *testing.T, mb, edits []byte) {
		if len(mb) < 6 || len(mb) > 120 || len(edits) > 64 {
			return
		}
		nv := int(mb[0])%12 + 3
		if len(mb) < 1+nv {
			return
		}
		m := &mesh.TriMesh{}
		for _, c := range mb[1 : 1+nv] {
			c %= 27
			m.Verts = append(m.Verts, geom.Vec3{X: float64(c % 3), Y: float64(c / 3 % 3), Z: float64(c / 9)})
		}
		rest := mb[1+nv:]
		for i := 0; i+2 < len(rest); i += 3 {
			m.Tris = append(m.Tris, [3]int32{int32(int(rest[i]) % nv), int32(int(rest[i+1]) % nv), int32(int(rest[i+2]) % nv)})
		}
		want := Of(m)
		b := Encode(m, want)
		// Each pair of bytes: a position (scaled over the encoding) and a
		// value to xor there; an odd last byte cuts the encoding.
		for i := 0; i+1 < len(edits); i += 2 {
			b[int(edits[i])*len(b)/256] ^= edits[i+1]
		}
		if len(edits)%2 == 1 {
			b = b[:int(edits[len(edits)-1])*len(b)/256]
		}
		got, err := Decode(m, b)
		if err != nil {
			formatError(t, "fuzz", err)
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("accepted %+v\nwant %+v", got, want)
		}
	})
}

// BenchmarkDecode measures Decode beside Of, on a convex and a non-convex
// mesh of 10^6 triangles (Decode rechecks convexity when the surface is
// outward).
func BenchmarkDecode(b *testing.B) {
	for _, kind := range []string{"icosphere", "torus"} {
		m := generate(b, kind, map[string]float64{"tris": 1000000})
		tp := Of(m)
		data := Encode(m, tp)
		b.Run(kind+"/Of", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Of(m)
			}
		})
		b.Run(kind+"/Decode", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Decode(m, data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(kind+"/Encode", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Encode(m, tp)
			}
		})
	}
}
