package stl

import (
	"bytes"
	"fmt"
	"math"
	"testing"
)

// benchFacets returns n facets on a wavy surface, with unit normals.
func benchFacets(n int) []facet {
	fs := make([]facet, n)
	side := int(math.Sqrt(float64(n/2))) + 1
	for i := range fs {
		q := i / 2
		x, y := float32(q%side), float32(q/side)
		z := func(x, y float32) float32 { return float32(math.Sin(float64(x)*0.1) * math.Cos(float64(y)*0.1)) }
		a := [3]float32{x, y, z(x, y)}
		b := [3]float32{x + 1, y, z(x+1, y)}
		c := [3]float32{x, y + 1, z(x, y+1)}
		if i%2 == 1 {
			a = [3]float32{x + 1, y + 1, z(x+1, y+1)}
		}
		fs[i] = tri(a, b, c)
		fs[i][2] = 1
	}
	return fs
}

func asciiSTL(fs []facet) []byte {
	var b bytes.Buffer
	b.WriteString("solid bench\n")
	for _, f := range fs {
		fmt.Fprintf(&b, "  facet normal %g %g %g\n    outer loop\n", f[0], f[1], f[2])
		for j := 3; j < 12; j += 3 {
			fmt.Fprintf(&b, "      vertex %g %g %g\n", f[j], f[j+1], f[j+2])
		}
		b.WriteString("    endloop\n  endfacet\n")
	}
	b.WriteString("endsolid bench\n")
	return b.Bytes()
}

func benchDecode(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeBinary(b *testing.B) {
	benchDecode(b, binarySTL("solid bench", -1, benchFacets(200_000), nil))
}

func BenchmarkDecodeASCII(b *testing.B) {
	benchDecode(b, asciiSTL(benchFacets(200_000)))
}

func BenchmarkEncode(b *testing.B) {
	m, err := Decode(bytes.NewReader(binarySTL("", -1, benchFacets(200_000), nil)))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(84 + 50*len(m.Tris)))
	b.ReportAllocs()
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := Encode(&buf, m); err != nil {
			b.Fatal(err)
		}
	}
}
