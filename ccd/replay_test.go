package ccd

import (
	"bufio"
	"compress/gzip"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/collide3d/collide/geom"
)

// The replays are the triangle pairs that `collide check --ccd` hands to
// TriTri for a vertical drop of gen:icosphere:radius=0.1,tris=320 onto
// gen:torus, from pose "1 0 0 0 1 0 0 0 1 X Y 3" to "… X Y -3" (aabb
// trees): drop-axis.tt.gz at X, Y = 2, 0 (a motion along an axis, the
// positions symmetric about y = 0), drop-offaxis.tt.gz at 1.713, 0.211.
// Each line is a0, b0, a1, b1 as 36 floats.

// replay reads the pairs of testdata/name.
func replay(tb testing.TB, name string) [][4]geom.Triangle {
	f, err := os.Open("testdata/" + name)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	var out [][4]geom.Triangle
	sc := bufio.NewScanner(z)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 36 {
			tb.Fatalf("%s: a line of %d fields", name, len(fs))
		}
		var x [36]float64
		for i, s := range fs {
			if x[i], err = strconv.ParseFloat(s, 64); err != nil {
				tb.Fatal(err)
			}
		}
		var p [4]geom.Triangle
		for i := range 12 {
			p[i/3][i%3] = geom.V(x[3*i], x[3*i+1], x[3*i+2])
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

var replays = []string{"drop-axis.tt.gz", "drop-offaxis.tt.gz"}

// BenchmarkTriTriDrop replays every pair of a drop per iteration.
func BenchmarkTriTriDrop(b *testing.B) {
	for _, name := range replays {
		b.Run(strings.TrimSuffix(name, ".tt.gz"), func(b *testing.B) {
			ps := replay(b, name)
			b.ReportAllocs()
			for b.Loop() {
				for i := range ps {
					p := &ps[i]
					TriTri(p[0], p[1], p[2], p[3])
				}
			}
		})
	}
}
