package nc

import (
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/nc/gcode"
)

// heapInUse returns the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// genMoves is a MoveReader of n generated moves, every tenth into the
// stock box [0, 10]^3 (the others far above it), that samples the live
// heap every 40,000 moves.
type genMoves struct {
	n, i int
	peak uint64
}

func (g *genMoves) Name() string { return "gen.nc" }

func (g *genMoves) Next() (gcode.Move, error) {
	if g.i == g.n {
		return gcode.Move{}, io.EOF
	}
	if g.i%40_000 == 0 {
		g.peak = max(g.peak, heapInUse())
	}
	i := g.i
	g.i++
	z := 100.0
	if i%10 == 0 {
		z = 5
	}
	x := float64(i % 5)
	return gcode.Move{Line: i + 1, N: i, Kind: gcode.Rapid, From: geom.V(x, 5, z), To: geom.V(x+1, 5, z)}, nil
}

// TestCheckReaderBounded checks 200,000 moves from a MoveReader: the
// checker keeps none of them (the live heap does not grow with the moves,
// which would take 29 MB), finds every tenth (a rapid inside the stock),
// and names its lines and N numbers.
func TestCheckReaderBounded(t *testing.T) {
	box := geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(10, 10, 10)}
	c, err := New(nil, Options{Tool: mustTool(t, "flat 2 3"), Stock: &box, NoDetail: true})
	if err != nil {
		t.Fatal(err)
	}
	g := &genMoves{n: 200_000}
	base := heapInUse()
	hits, bad := 0, 0
	sum, err := c.CheckReader(g, func(v Violation) bool {
		hits++
		if v.Line != v.Move+1 || v.N != v.Move || v.Move%10 != 0 {
			bad++
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Moves != g.n || sum.Checked != g.n {
		t.Errorf("summary: %d moves, %d checked, want %d", sum.Moves, sum.Checked, g.n)
	}
	if hits != g.n/10 || bad > 0 {
		t.Errorf("%d violations (%d with a wrong move, line or N)", hits, bad)
	}
	if grew := int64(g.peak) - int64(base); grew > 8<<20 {
		t.Errorf("the heap grew by %d MB checking %d moves", grew>>20, g.n)
	}
}

// TestCheckReaderError checks that an error of the reader ends the check
// with that error, after the moves before it were checked.
func TestCheckReaderError(t *testing.T) {
	box := geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(10, 10, 10)}
	c, err := New(nil, Options{Tool: mustTool(t, "flat 2 3"), Stock: &box})
	if err != nil {
		t.Fatal(err)
	}
	src := "G0 X-5 Y5 Z5\nG0 X15\nG0 X20\nG1 X1 #5\n"
	found := 0
	_, err = c.CheckReader(gcode.NewReader(strings.NewReader(src), "e.nc", gcode.Options{}), func(v Violation) bool {
		found++
		return true
	})
	if err == nil || !strings.Contains(err.Error(), "e.nc: line 4: gcode: ") || found != 1 {
		t.Errorf("error %v after %d violations; want the line 4 error after the rapid through the stock", err, found)
	}
}
