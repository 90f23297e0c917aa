package obj

import (
	"bytes"
	"fmt"
	"math"
	"testing"
)

// gridOBJ returns an OBJ height field of n×n quads split into 2n² triangles,
// with coordinates printed with six decimals as most exporters do. With full
// set, it also has vt and vn lines and faces in the v/vt/vn form.
func gridOBJ(n int, full bool) []byte {
	var b bytes.Buffer
	b.WriteString("# generated grid\no grid\n")
	for i := 0; i <= n; i++ {
		for j := 0; j <= n; j++ {
			x, y := float64(i)/float64(n), float64(j)/float64(n)
			fmt.Fprintf(&b, "v %.6f %.6f %.6f\n", x*10-5, y*10-5, math.Sin(7*x)*math.Cos(5*y))
		}
	}
	if full {
		for i := 0; i <= n; i++ {
			for j := 0; j <= n; j++ {
				fmt.Fprintf(&b, "vt %.6f %.6f\n", float64(i)/float64(n), float64(j)/float64(n))
			}
		}
		for i := 0; i <= n; i++ {
			for j := 0; j <= n; j++ {
				fmt.Fprintf(&b, "vn %.4f %.4f %.4f\n", 0.0, 0.0, 1.0)
			}
		}
		b.WriteString("usemtl default\ns 1\n")
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a := i*(n+1) + j + 1
			c := a + n + 1
			if full {
				fmt.Fprintf(&b, "f %d/%d/%d %d/%d/%d %d/%d/%d\n", a, a, a, c, c, c, c+1, c+1, c+1)
				fmt.Fprintf(&b, "f %d/%d/%d %d/%d/%d %d/%d/%d\n", a, a, a, c+1, c+1, c+1, a+1, a+1, a+1)
			} else {
				fmt.Fprintf(&b, "f %d %d %d\n", a, c, c+1)
				fmt.Fprintf(&b, "f %d %d %d\n", a, c+1, a+1)
			}
		}
	}
	return b.Bytes()
}

func benchDecode(b *testing.B, data []byte, wantTris int) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		m, err := Decode(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		if len(m.Tris) != wantTris {
			b.Fatalf("got %d triangles, want %d", len(m.Tris), wantTris)
		}
	}
}

// BenchmarkDecode decodes a ~200k-triangle grid of "v" and "f a b c" lines.
func BenchmarkDecode(b *testing.B) {
	const n = 317 // 2·317² = 200,978 triangles
	benchDecode(b, gridOBJ(n, false), 2*n*n)
}

// BenchmarkDecodeFull decodes the same grid with vt and vn lines and faces of
// the form v/vt/vn.
func BenchmarkDecodeFull(b *testing.B) {
	const n = 317
	benchDecode(b, gridOBJ(n, true), 2*n*n)
}

// BenchmarkDecodeShortest decodes the grid as written by Encode: shortest
// round-trip decimals, up to 17 significant digits (the slow float path).
func BenchmarkDecodeShortest(b *testing.B) {
	const n = 317
	m, err := Decode(bytes.NewReader(gridOBJ(n, false)))
	if err != nil {
		b.Fatal(err)
	}
	for i := range m.Verts {
		m.Verts[i].X = m.Verts[i].X / 3 // full-precision decimals
		m.Verts[i].Z = m.Verts[i].Z / 7
	}
	var buf bytes.Buffer
	if err := Encode(&buf, m); err != nil {
		b.Fatal(err)
	}
	benchDecode(b, buf.Bytes(), 2*n*n)
}

func BenchmarkEncode(b *testing.B) {
	const n = 317
	m, err := Decode(bytes.NewReader(gridOBJ(n, false)))
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, m); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := Encode(&buf, m); err != nil {
			b.Fatal(err)
		}
	}
}
