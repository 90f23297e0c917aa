package off

import (
	"bytes"
	"fmt"
	"math"
	"testing"
)

// gridOFF returns an OFF height field of n×n quads split into 2n² triangles,
// with coordinates printed with six decimals.
func gridOFF(n int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "OFF\n%d %d 0\n", (n+1)*(n+1), 2*n*n)
	for i := 0; i <= n; i++ {
		for j := 0; j <= n; j++ {
			x, y := float64(i)/float64(n), float64(j)/float64(n)
			fmt.Fprintf(&b, "%.6f %.6f %.6f\n", x*10-5, y*10-5, math.Sin(7*x)*math.Cos(5*y))
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a := i*(n+1) + j
			c := a + n + 1
			fmt.Fprintf(&b, "3 %d %d %d\n3 %d %d %d\n", a, c, c+1, a, c+1, a+1)
		}
	}
	return b.Bytes()
}

// BenchmarkDecode decodes a ~200k-triangle OFF grid.
func BenchmarkDecode(b *testing.B) {
	const n = 317 // 2·317² = 200,978 triangles
	data := gridOFF(n)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		m, err := Decode(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		if len(m.Tris) != 2*n*n {
			b.Fatalf("got %d triangles", len(m.Tris))
		}
	}
}
