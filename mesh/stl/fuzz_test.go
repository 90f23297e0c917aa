package stl

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/collide3d/collide/geom"
)

func FuzzDecode(f *testing.F) {
	f.Add([]byte(asciiTri))
	f.Add([]byte(asciiTri + asciiTri))
	f.Add([]byte("solid\nendsolid\n"))
	f.Add([]byte("solid x\nfacet normal 0 0 1\nouter loop\nvertex 1e38 -1e-38 0.1\nvertex 1 2 3\nvertex 4 5 6\nendloop\nendfacet\nendsolid\n"))
	f.Add([]byte(strings.Replace(asciiTri, "vertex 0 1 0\n", "", 1)))
	f.Add([]byte(strings.Replace(asciiTri, "vertex 0 1 0", "vertex 0 nan 0", 1)))
	f.Add(binarySTL("", -1, []facet{unitTri, oddTri}, nil))
	f.Add(binarySTL("solid x", -1, []facet{unitTri}, []byte("trailing")))
	f.Add(binarySTL("solid x\nfacet", -1, nil, nil))
	f.Add(binarySTL("", 4e9, nil, nil))
	f.Add(binarySTL("", 3, []facet{unitTri}, nil))
	f.Add(binarySTL("", -1, []facet{{3: float32(math.NaN())}}, nil))
	f.Add([]byte{})
	f.Add([]byte("solid"))
	f.Add(triFile("\r", "0x1p3"))
	f.Add(triFile("\r\r\n", "1_0"))
	f.Add([]byte(strings.ReplaceAll(asciiTri, "\n", "\r")))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(bytes.NewReader(data))
		// The result must not depend on how the reader splits the data.
		m1, err1 := Decode(iotest.OneByteReader(bytes.NewReader(data)))
		if fmt.Sprint(err) != fmt.Sprint(err1) || (err == nil && (len(m.Verts) != len(m1.Verts) || len(m.Tris) != len(m1.Tris))) {
			t.Fatalf("a bytes.Reader gives error %v, a one-byte reader %v", err, err1)
		}
		// ASCII input without CRs gives the same result (the same mesh, or
		// the same error on the same line) with its LFs turned into any
		// other line end.
		if isASCII(data[:min(len(data), sniffSize)]) && bytes.IndexByte(data, '\r') < 0 {
			for _, eol := range []string{"\r", "\r\n", "\r\r\n"} {
				m2, err2 := Decode(bytes.NewReader(bytes.ReplaceAll(data, []byte("\n"), []byte(eol))))
				if fmt.Sprint(err) != fmt.Sprint(err2) || err == nil && !slices.Equal(m.Verts, m2.Verts) {
					t.Fatalf("with LF line ends: %v; with %q: %v", err, eol, err2)
				}
			}
		}
		if err != nil {
			checkIsFormatError(t, err)
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("decoded mesh is invalid: %v", err)
		}
		var buf bytes.Buffer
		if err := Encode(&buf, m); err != nil {
			// Only float32 overflow of ASCII coordinates may fail.
			for _, v := range m.Verts {
				for _, c := range [3]float64{v.X, v.Y, v.Z} {
					if math.IsInf(float64(float32(c)), 0) {
						return
					}
				}
			}
			t.Fatalf("Encode: %v", err)
		}
		m2, err := Decode(&buf)
		if err != nil {
			t.Fatalf("decoding the encoded mesh: %v", err)
		}
		// Triangle i is facet i, its vertices narrowed to float32; welded
		// anew, vertices that narrow to the same float32 become one.
		if len(m2.Tris) != len(m.Tris) || len(m2.Verts) > len(m.Verts) {
			t.Fatalf("round trip: %d triangles, %d vertices; want %d, at most %d", len(m2.Tris), len(m2.Verts), len(m.Tris), len(m.Verts))
		}
		narrow := func(v geom.Vec3) geom.Vec3 {
			return geom.Vec3{X: float64(float32(v.X)), Y: float64(float32(v.Y)), Z: float64(float32(v.Z))}
		}
		exact := true // every coordinate of m is a float32
		for _, v := range m.Verts {
			exact = exact && sameBits(narrow(v), v)
		}
		for i := range m.Tris {
			for j := range 3 {
				if got, want := m2.Verts[m2.Tris[i][j]], narrow(m.Verts[m.Tris[i][j]]); !sameBits(got, want) {
					t.Fatalf("round trip: triangle %d vertex %d = %v, want %v", i, j, got, want)
				}
			}
			if exact && m2.Tris[i] != m.Tris[i] {
				t.Fatalf("round trip: triangle %d = %v, want %v", i, m2.Tris[i], m.Tris[i])
			}
		}
		if exact && len(m2.Verts) != len(m.Verts) {
			t.Fatalf("round trip: %d vertices, want %d", len(m2.Verts), len(m.Verts))
		}
		// The vertices are welded: no two have the same bits.
		seen := map[[3]uint64]bool{}
		for i, v := range m.Verts {
			key := [3]uint64{math.Float64bits(v.X), math.Float64bits(v.Y), math.Float64bits(v.Z)}
			if seen[key] {
				t.Fatalf("vertex %d = %v appears twice", i, v)
			}
			seen[key] = true
		}
	})
}
