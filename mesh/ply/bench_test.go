package ply

import (
	"bytes"
	"math"
	"testing"
)

// benchPLY returns a grid of about n triangles: float32 vertices and faces
// as uchar/int lists of 3 indices, in the given encoding.
func benchPLY(enc string, n int) []byte {
	side := int(math.Sqrt(float64(n/2))) + 1
	nv := (side + 1) * (side + 1)
	header := "element vertex " + itoa(nv) + "\nproperty float x\nproperty float y\nproperty float z\n" +
		"element face " + itoa(2*side*side) + "\nproperty list uchar int vertex_indices\n"
	rows := make([][]cell, 0, nv+2*side*side)
	for j := 0; j <= side; j++ {
		for i := 0; i <= side; i++ {
			z := math.Sin(float64(i)*0.1) * math.Cos(float64(j)*0.1)
			rows = append(rows, row(c("float", float64(i)), c("float", float64(j)), c("float", float64(float32(z)))))
		}
	}
	for j := range side {
		for i := range side {
			a := float64(j*(side+1) + i)
			b, cc, d := a+1, a+float64(side+1), a+float64(side+2)
			rows = append(rows, list("uchar", "int", a, b, d), list("uchar", "int", a, d, cc))
		}
	}
	return plyFile(enc, header, rows...)
}

func itoa(n int) string { return string(encodeCell(nil, "ascii", c("int", float64(n)))) }

func benchDecode(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeBinaryLE(b *testing.B) { benchDecode(b, benchPLY("binary_little_endian", 200_000)) }
func BenchmarkDecodeBinaryBE(b *testing.B) { benchDecode(b, benchPLY("binary_big_endian", 200_000)) }
func BenchmarkDecodeASCII(b *testing.B)    { benchDecode(b, benchPLY("ascii", 200_000)) }
