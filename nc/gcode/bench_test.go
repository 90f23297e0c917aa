package gcode

import (
	"bytes"
	"fmt"
	"math"
	"testing"
)

// benchProgram returns a program of n lines as a CAM post-processor writes
// them: a header, then a spiral pocket of G1 moves with four decimals, every
// tenth line an arc (alternately I J and R), with N numbers on some lines and
// a comment now and then.
func benchProgram(n int) (src []byte, moves int) {
	var b bytes.Buffer
	b.WriteString("%\n(generated pocket)\nG21 G90 G17 G40 G49 G80 G94 G54\nT1 M6\nS12000 M3\nG0 Z5.0000\nG0 X0.0000 Y0.0000\nG1 Z-1.0000 F600\n")
	moves = 3
	x, y := 0.0, 0.0
	for i := 8; i < n-2; i++ {
		switch {
		case i%10 == 0:
			// A half turn about a centre 2.5 to the side, alternately
			// described by I J and by R.
			ang := float64(i) * 0.01
			cx, cy := 2.5*math.Cos(ang), 2.5*math.Sin(ang)
			ex, ey := x+2*cx, y+2*cy
			if i%20 == 0 {
				fmt.Fprintf(&b, "G3 X%.4f Y%.4f I%.4f J%.4f\n", ex, ey, cx, cy)
			} else {
				fmt.Fprintf(&b, "N%d G2 X%.4f Y%.4f R2.5\n", i, ex, ey)
			}
			x, y = ex, ey
		case i%37 == 0:
			fmt.Fprintf(&b, "(pass %d)\n", i)
			moves--
		default:
			x += 0.731 * math.Cos(float64(i)*0.001)
			y += 0.731 * math.Sin(float64(i)*0.001)
			fmt.Fprintf(&b, "G1 X%.4f Y%.4f\n", x, y)
		}
		moves++
	}
	b.WriteString("G0 Z5.0000\nM30\n")
	return b.Bytes(), moves + 1
}

// BenchmarkRead reads a generated 100,000-line program.
func BenchmarkRead(b *testing.B) {
	src, moves := benchProgram(100_000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		p, err := Read(bytes.NewReader(src), "bench.nc", Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(p.Moves) != moves {
			b.Fatalf("%d moves, want %d", len(p.Moves), moves)
		}
	}
}
