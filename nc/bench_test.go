package nc

import (
	"math"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/nc/gcode"
	"github.com/collide3d/collide/nc/ncgen"
)

// heightAt returns the largest height of m's vertices within r of (x, y)
// horizontally: a ball-end path clears a terrain whose triangles are no
// larger than their vertex spacing when its tip is r above it.
func surfaceMoves(m *mesh.TriMesh, n int, size, step, above float64) []gcode.Move {
	// The terrain's vertices are a grid of n×n over [0, size]².
	h := func(x, y float64) float64 {
		i := min(n-1, max(0, int(math.Round(x/size*float64(n-1)))))
		j := min(n-1, max(0, int(math.Round(y/size*float64(n-1)))))
		return m.Verts[j*n+i].Z
	}
	var ms []gcode.Move
	var at geom.Vec3
	first := true
	for row := 0; ; row++ {
		y := 1 + float64(row)*step*7
		if y > size-1 {
			break
		}
		for k := 0; ; k++ {
			x := 1 + float64(k)*step
			if x > size-1 {
				break
			}
			if row%2 == 1 {
				x = size - x
			}
			p := geom.V(x, y, h(x, y)+above)
			if !first {
				ms = append(ms, gcode.Move{Line: len(ms) + 1, Kind: gcode.Linear, From: at, To: p})
			}
			at, first = p, false
		}
	}
	return ms
}

// BenchmarkMoves checks linear moves of half a millimetre along a terrain
// of about 10^6 triangles (100 mm square), each ball-end move just above
// the surface, with a shank and a holder, one core: the figure the README
// gives as moves a minute (ns/move).
func BenchmarkMoves(b *testing.B) {
	for _, tc := range []struct {
		name string
		n    int
		bv   collide.BV
	}{{"1M/kdop18", 708, collide.KDOP18}, {"1M/kdop6", 708, collide.KDOP6}, {"1M/obb", 708, collide.OBB}, {"1M/aabb", 708, collide.AABB}} {
		b.Run(tc.name, func(b *testing.B) {
			m := gen.Must(gen.Terrain(tc.n, 100, 10, 0.5, 1))
			part, err := collide.Build(m, collide.BuildOptions{BV: tc.bv})
			if err != nil {
				b.Fatal(err)
			}
			moves := surfaceMoves(m, tc.n, 100, 0.5, 0.5)
			tool, _ := ParseTool("ball 6 20, shank 6 30, holder 20 40")
			c, err := New(part, Options{Tool: tool, NoDetail: true})
			if err != nil {
				b.Fatal(err)
			}
			ts, _ := c.state(tool)
			b.ReportAllocs()
			b.ResetTimer()
			i, hits := 0, 0
			for b.Loop() {
				c.move(i, moves[i], ts, func(Violation) bool { hits++; return true })
				i = (i + 1) % len(moves)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Minutes(), "moves/min")
			b.ReportMetric(float64(hits)/float64(b.N), "violations/move")
		})
	}
}

// BenchmarkZigZag checks a ball-end finishing program made by drop-cutter
// sampling (nc/ncgen.ZigZag: the ball touches a mold part at every sample,
// and its chords cut ridges and valleys), whole programs with their
// violations (ranges and depths not searched), one core: ns a move.
func BenchmarkZigZag(b *testing.B) {
	for _, tc := range []struct {
		name string
		n    int
	}{{"mold20k", 100}, {"mold1M", 708}} {
		b.Run(tc.name, func(b *testing.B) {
			m := gen.Must(ncgen.Mold(tc.n, 0))
			part, err := collide.Build(m, collide.BuildOptions{})
			if err != nil {
				b.Fatal(err)
			}
			text := ncgen.ZigZag(m, 3, ncgen.ZigZagOptions{Step: 0.5, Stepover: 1})
			p, err := gcode.Read(strings.NewReader(text), "zigzag.nc", gcode.Options{})
			if err != nil {
				b.Fatal(err)
			}
			tool, _ := ParseTool("ball 6 20, shank 6 30, holder 20 40")
			c, err := New(part, Options{Tool: tool, NoDetail: true})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var sum Summary
			for b.Loop() {
				sum, err = c.Check(p, nil)
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*len(p.Moves))/b.Elapsed().Minutes(), "moves/min")
			b.ReportMetric(float64(sum.Violations), "violations")
			b.ReportMetric(float64(len(p.Moves)), "moves")
			b.ReportMetric(float64(sum.Stats.Candidates)/float64(len(p.Moves)), "cand/move")
			b.ReportMetric(float64(sum.Stats.Exact)/float64(len(p.Moves)), "exact/move")
		})
	}
}

// BenchmarkSolid checks whole programs against mold parts closed into
// blocks, as surfaces and as solids (Options.Solid), one core: what the
// inside tests cost a move. demo is collide nc's demo (its program and
// tool, violations in full detail, as the command prints them); mold1M
// the zig-zag of BenchmarkZigZag over a mold of 10^6 triangles (2·10^6
// closed), without detail.
func BenchmarkSolid(b *testing.B) {
	for _, tc := range []struct {
		name     string
		n        int
		demo     bool
		noDetail bool
	}{{"demo", 0, true, false}, {"mold1M", 708, false, true}} {
		b.Run(tc.name, func(b *testing.B) {
			var (
				hf   *mesh.TriMesh
				text string
				spec = "ball 6 20, shank 6 30, holder 20 40"
			)
			if tc.demo {
				hf, text, spec = ncgen.Demo()
			} else {
				hf = gen.Must(ncgen.Mold(tc.n, 0))
				text = ncgen.ZigZag(hf, 3, ncgen.ZigZagOptions{Step: 0.5, Stepover: 1})
			}
			blk, err := ncgen.Block(hf, hf.Bounds().Min.Z-10)
			if err != nil {
				b.Fatal(err)
			}
			part, err := collide.Build(blk, collide.BuildOptions{})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := part.Solid(); err != nil {
				b.Fatal(err)
			}
			p, err := gcode.Read(strings.NewReader(text), "zigzag.nc", gcode.Options{})
			if err != nil {
				b.Fatal(err)
			}
			tool, _ := ParseTool(spec)
			for _, solid := range []bool{false, true} {
				name := "surface"
				if solid {
					name = "solid"
				}
				b.Run(name, func(b *testing.B) {
					c, err := New(part, Options{Tool: tool, NoDetail: tc.noDetail, Solid: solid})
					if err != nil {
						b.Fatal(err)
					}
					b.ReportAllocs()
					var sum Summary
					for b.Loop() {
						sum, err = c.Check(p, nil)
						if err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(p.Moves)), "ns/move")
					b.ReportMetric(float64(sum.Violations), "violations")
					b.ReportMetric(float64(len(p.Moves)), "moves")
					b.ReportMetric(float64(sum.Stats.Inside)/float64(len(p.Moves)), "inside/move")
				})
			}
		})
	}
}

// BenchmarkInsideTest times one inside test of a point against the demo's
// mold closed into a block (101,120 triangles), as the checker makes it
// (solid.Winding), at the ends of the demo's moves.
func BenchmarkInsideTest(b *testing.B) {
	hf, text, _ := ncgen.Demo()
	blk, err := ncgen.Block(hf, hf.Bounds().Min.Z-10)
	if err != nil {
		b.Fatal(err)
	}
	part, err := collide.Build(blk, collide.BuildOptions{})
	if err != nil {
		b.Fatal(err)
	}
	s, err := part.Solid()
	if err != nil {
		b.Fatal(err)
	}
	p, err := gcode.Read(strings.NewReader(text), "demo.nc", gcode.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i, in := 0, 0
	for b.Loop() {
		if w, _ := s.Winding(p.Moves[i].To); w != 0 {
			in++
		}
		i = (i + 1) % len(p.Moves)
	}
	b.ReportMetric(float64(in)/float64(b.N), "inside/test")
}
