package ncgen

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/nc/gcode"
	"github.com/collide3d/collide/topo"
)

// meshHash hashes a mesh's coordinates' bits and its triangles.
func meshHash(m *mesh.TriMesh) uint64 {
	h := fnv.New64a()
	var b [8]byte
	put := func(u uint64) {
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
		h.Write(b[:])
	}
	for _, v := range m.Verts {
		put(math.Float64bits(v.X))
		put(math.Float64bits(v.Y))
		put(math.Float64bits(v.Z))
	}
	for _, t := range m.Tris {
		put(uint64(t[0]) | uint64(t[1])<<21 | uint64(t[2])<<42)
	}
	return h.Sum64()
}

type genCase struct {
	name string
	make func(seed uint64) (*mesh.TriMesh, error)
	n    int
	box  geom.AABB // the part lies within
}

func genCases() []genCase {
	var cs []genCase
	for _, p := range TerrainPresets() {
		cs = append(cs, genCase{"terrain " + p, func(seed uint64) (*mesh.TriMesh, error) { return Terrain(p, 33, seed) }, 33,
			geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(100, 100, 20)}})
	}
	for v := range uint64(MoldVariants) {
		cs = append(cs, genCase{"mold " + MoldName(v), func(seed uint64) (*mesh.TriMesh, error) { return Mold(41, seed*MoldVariants+v) }, 41,
			geom.AABB{Min: geom.V(0, 0, -25), Max: geom.V(MoldX, MoldY, 25)}})
	}
	return cs
}

// TestGenerators checks the counts, bounds and determinism of Terrain and
// Mold: the same seed gives the same bits, another seed other ones.
func TestGenerators(t *testing.T) {
	for _, c := range genCases() {
		m, err := c.make(1)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if err := m.Validate(); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		if len(m.Verts) != c.n*c.n || len(m.Tris) != 2*(c.n-1)*(c.n-1) {
			t.Errorf("%s: %d vertices, %d triangles; want %d, %d", c.name, len(m.Verts), len(m.Tris), c.n*c.n, 2*(c.n-1)*(c.n-1))
		}
		if b := m.Bounds(); !c.box.ContainsBox(b) || b.Min.X != c.box.Min.X || b.Max.Y != c.box.Max.Y {
			t.Errorf("%s: bounds %v, want within %v spanning x and y", c.name, b, c.box)
		}
		again, _ := c.make(1)
		other, _ := c.make(2)
		if meshHash(again) != meshHash(m) {
			t.Errorf("%s: two meshes of seed 1 differ", c.name)
		}
		if meshHash(other) == meshHash(m) {
			t.Errorf("%s: seeds 1 and 2 give the same mesh", c.name)
		}
	}
}

// TestMoldShapes checks what the variants promise: a core rises above
// the parting plane, a cavity sinks below it, and a wide border of the
// plane is exactly z = 0.
func TestMoldShapes(t *testing.T) {
	for v := range uint64(MoldVariants) {
		m, err := Mold(81, v)
		if err != nil {
			t.Fatal(err)
		}
		b := m.Bounds()
		cavity := strings.Contains(MoldName(v), "cavity")
		if cavity && !(b.Max.Z == 0 && b.Min.Z < -10) || !cavity && !(b.Min.Z == 0 && b.Max.Z > 8) {
			t.Errorf("%s: heights %v to %v", MoldName(v), b.Min.Z, b.Max.Z)
		}
		flat := 0
		for _, p := range m.Verts {
			if p.Z == 0 && !math.Signbit(p.Z) {
				flat++
			}
			if p.X < 5 || p.X > MoldX-5 || p.Y < 2 || p.Y > MoldY-2 {
				if p.Z != 0 {
					t.Errorf("%s: border vertex %v off the parting plane", MoldName(v), p)
					break
				}
			}
		}
		if flat < len(m.Verts)/4 {
			t.Errorf("%s: %d of %d vertices on the parting plane", MoldName(v), flat, len(m.Verts))
		}
	}
}

// TestBuffaloLake checks that buffalo's lake is a large exactly flat
// region and that the other presets have none.
func TestBuffaloLake(t *testing.T) {
	for _, p := range TerrainPresets() {
		m, err := Terrain(p, 65, 7)
		if err != nil {
			t.Fatal(err)
		}
		lo := m.Bounds().Min.Z
		flat := 0
		for _, tri := range m.Tris {
			if m.Verts[tri[0]].Z == lo && m.Verts[tri[1]].Z == lo && m.Verts[tri[2]].Z == lo {
				flat++
			}
		}
		frac := float64(flat) / float64(len(m.Tris))
		if want := p == "buffalo"; want != (frac > 0.2) {
			t.Errorf("%s: %.1f%% of the triangles on the lowest plane", p, 100*frac)
		}
	}
}

// TestErrors checks the generators' errors.
func TestErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"unknown preset", second(Terrain("boston", 10, 1)), `"boston"`},
		{"terrain n", second(Terrain("eagle", 1, 1)), "n must be at least 2"},
		{"mold n", second(Mold(1, 1)), "n must be at least 2"},
		{"mold huge", second(Mold(1<<21, 1)), "triangles"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, c.err, c.want)
		}
	}
}

func second(_ *mesh.TriMesh, err error) error { return err }

// minDistance returns the least distance from p to the triangles of m
// whose bounds come within reach of p, or reach if none.
func minDistance(m *mesh.TriMesh, p geom.Vec3, reach float64) float64 {
	best := reach
	for i := range m.Tris {
		tri := m.Triangle(i)
		b := geom.EmptyAABB().AddPoint(tri[0]).AddPoint(tri[1]).AddPoint(tri[2]).Expanded(best)
		if !b.Contains(p) {
			continue
		}
		best = min(best, geom.ClosestPointTriangle(p, tri).Distance(p))
	}
	return best
}

// soup returns n random triangles in [0, 10]³ with some vertical,
// degenerate and tiny ones, for the drop-cutter.
func soup(n int, seed uint64) *mesh.TriMesh {
	rng := rand.New(rand.NewPCG(seed, 1))
	m := &mesh.TriMesh{}
	pt := func() geom.Vec3 { return geom.V(10*rng.Float64(), 10*rng.Float64(), 10*rng.Float64()) }
	for i := range n {
		a, b, c := pt(), pt(), pt()
		switch i % 6 {
		case 1: // vertical
			c = geom.V(a.X, a.Y, c.Z)
			b = geom.V(a.X+0.3*(b.X-a.X), a.Y+0.3*(b.Y-a.Y), b.Z)
			c = geom.V(b.X, b.Y, a.Z+2)
		case 2: // a segment
			c = a.Lerp(b, 0.25)
		case 3: // a point
			b, c = a, a
		case 4: // small
			b = a.Add(b.Sub(a).Scale(0.05))
			c = a.Add(c.Sub(a).Scale(0.05))
		}
		k := int32(len(m.Verts))
		m.Verts = append(m.Verts, a, b, c)
		m.Tris = append(m.Tris, [3]int32{k, k + 1, k + 2})
	}
	return m
}

// TestDropCutter checks the drop-cutter against brute force: the ball at
// the drop height touches the part (its least distance to a triangle is r
// within 1e-9), and 1e-6 lower it cuts into it; the grid finds what every
// triangle says.
func TestDropCutter(t *testing.T) {
	terrain, _ := Terrain("seattle", 25, 3)
	mold, _ := Mold(31, 0)
	for _, c := range []struct {
		name string
		m    *mesh.TriMesh
		r    float64
	}{
		{"soup", soup(200, 1), 0.7},
		{"soup big ball", soup(60, 2), 3},
		{"terrain", terrain, 3},
		{"terrain small ball", terrain, 0.4},
		{"mold", mold, 3},
	} {
		d := newDropper(c.m, c.r)
		b := c.m.Bounds()
		rng := rand.New(rand.NewPCG(9, 9))
		hits := 0
		for range 300 {
			x := b.Min.X + (b.Max.X-b.Min.X)*rng.Float64()
			y := b.Min.Y + (b.Max.Y-b.Min.Y)*rng.Float64()
			z, ok := d.drop(x, y)
			want, wantOK := math.Inf(-1), false
			for i := range c.m.Tris {
				if zt, okt := dropTriangle(c.m.Triangle(i), x, y, c.r); okt && zt > want {
					want, wantOK = zt, true
				}
			}
			if ok != wantOK || z != want {
				t.Fatalf("%s: drop(%v, %v) = %v, %v; every triangle says %v, %v", c.name, x, y, z, ok, want, wantOK)
			}
			if !ok {
				continue
			}
			hits++
			reach := 2 * c.r
			at := minDistance(c.m, geom.V(x, y, z), reach)
			below := minDistance(c.m, geom.V(x, y, z-1e-6), reach)
			if math.Abs(at-c.r) > 1e-9 || !(below < c.r) {
				t.Fatalf("%s: ball of radius %v at (%v, %v, %v): distance %v to the part (%v 1e-6 lower)", c.name, c.r, x, y, z, at, below)
			}
		}
		if hits < 100 {
			t.Errorf("%s: only %d of 300 drops met the part", c.name, hits)
		}
	}
}

// readProgram reads a generated program, failing on an error or a
// warning.
func readProgram(t *testing.T, name, prog string) *gcode.Program {
	t.Helper()
	p, err := gcode.Read(strings.NewReader(prog), name, gcode.Options{Strict: true})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(p.Warnings) > 0 {
		t.Fatalf("%s: warnings %v", name, p.Warnings)
	}
	return p
}

// sampleDepths returns, for every feed move's end below the approach
// height, how far the ball there, lowered by lower, cuts into the part (r
// less its distance to the part; negative when clear).
func sampleDepths(part *mesh.TriMesh, p *gcode.Program, r, below, lower float64) []float64 {
	var ds []float64
	for _, m := range p.Moves {
		if m.Kind == gcode.Rapid || m.To.Z >= below {
			continue
		}
		c := m.To.Add(geom.V(0, 0, r-lower))
		ds = append(ds, r-minDistance(part, c, 2*r))
	}
	return ds
}

// TestZigZag checks programs on every kind of part: they read without a
// warning, they have the header and the rows promised, and every sample
// is right: the ball there clears the part by 1 nm to 0.1 µm (the
// rounding up of the heights), with Allowance added.
func TestZigZag(t *testing.T) {
	buffalo, _ := Terrain("buffalo", 41, 5)
	eagle, _ := Terrain("eagle", 41, 5)
	core, _ := Mold(41, 0)
	cavity, _ := Mold(41, 1)
	for _, c := range []struct {
		name string
		part *mesh.TriMesh
		r    float64
		o    ZigZagOptions
		rows int
		arcs bool
	}{
		{"buffalo", buffalo, 2, ZigZagOptions{Stepover: 10, Step: 2.5}, 11, false},
		{"buffalo arcs", buffalo, 2, ZigZagOptions{Stepover: 10, Step: 2.5, Arcs: true}, 11, true},
		{"eagle arcs", eagle, 3, ZigZagOptions{Stepover: 12.5, Step: 2, Arcs: true, Numbers: true}, 9, true},
		{"core arcs", core, 3, ZigZagOptions{Stepover: 8, Step: 1.5, Arcs: true}, 11, true},
		{"cavity", cavity, 2.5, ZigZagOptions{Stepover: 10, Step: 2}, 9, false},
		{"core allowance", core, 3, ZigZagOptions{Stepover: 20, Step: 3, Allowance: 0.25}, 5, false},
	} {
		prog := ZigZag(c.part, c.r, c.o)
		if again := ZigZag(c.part, c.r, c.o); again != prog {
			t.Errorf("%s: two programs differ", c.name)
		}
		for _, w := range []string{"G21 G90 G17\n", "T1 M6\n", "S12000 M3\n", "F1000", "M5\n", "M30\n"} {
			if !strings.Contains(prog, w) {
				t.Errorf("%s: no %q", c.name, w)
			}
		}
		p := readProgram(t, c.name, prog)
		arcs, rows := 0, map[float64]bool{}
		for _, m := range p.Moves {
			if m.Kind.IsArc() {
				arcs++
			}
			if m.Kind == gcode.Linear {
				rows[m.To.Y] = true
			}
		}
		if len(rows) != c.rows {
			t.Errorf("%s: %d rows, want %d", c.name, len(rows), c.rows)
		}
		if c.arcs != (arcs > 0) {
			t.Errorf("%s: %d arcs", c.name, arcs)
		}
		top := c.part.Bounds().Max.Z
		ds := sampleDepths(c.part, p, c.r, top+1, c.o.Allowance)
		if len(ds) < c.rows*10 {
			t.Fatalf("%s: %d samples", c.name, len(ds))
		}
		for i, d := range ds {
			if d >= -0.5e-9 && c.o.Allowance == 0 {
				t.Fatalf("%s: sample %d cuts %v into the part, or clears it by less than 1 nm", c.name, i, d)
			}
			if d < -1.01e-4 {
				t.Fatalf("%s: sample %d, lowered by the allowance %v, is %v above the part", c.name, i, c.o.Allowance, -d)
			}
		}
	}
}

// TestDistort checks that Distort lowers exactly its count of samples by
// its depth, picked by the seed.
func TestDistort(t *testing.T) {
	part, _ := Mold(41, 2)
	const r, depth = 3.0, 0.5
	var picked [2]string
	for i, seed := range []uint64{1, 2} {
		o := ZigZagOptions{Stepover: 10, Step: 2, Distort: Distortion{Count: 7, Depth: depth}, Seed: seed}
		p := readProgram(t, "distorted", ZigZag(part, r, o))
		cut := 0
		var at strings.Builder
		for k, d := range sampleDepths(part, p, r, part.Bounds().Max.Z+1, 0) {
			if d > 1e-9 {
				cut++
				at.WriteString(" " + string(rune('0'+k%10)))
				if d > depth+1e-4 {
					t.Errorf("seed %d: a sample cuts %v deep", seed, d)
				}
			}
		}
		if cut != 7 {
			t.Errorf("seed %d: %d samples cut into the part, want 7", seed, cut)
		}
		picked[i] = at.String()
	}
	if picked[0] == picked[1] {
		t.Errorf("seeds 1 and 2 distort the same samples")
	}
}

// TestFaults checks the injected rapid errors: RapidDown's rapid ends 1
// mm above its row's first sample, NoRetract's crosses the part.
func TestFaults(t *testing.T) {
	part, _ := Mold(41, 0)
	top := part.Bounds().Max.Z
	p := readProgram(t, "faults", ZigZag(part, 3, ZigZagOptions{Stepover: 10, Step: 2, RapidDown: 3, NoRetract: true}))
	low := 0
	for i, m := range p.Moves {
		if m.Kind != gcode.Rapid || m.To.Z >= top {
			continue
		}
		low++
		if next := p.Moves[i+1]; m.From.Z > top && (next.Kind != gcode.Linear || math.Abs(m.To.Z-next.To.Z-1) > 1e-9) {
			t.Errorf("line %d: the low rapid down does not end 1 mm above the next cut", m.Line)
		}
	}
	last := p.Moves[len(p.Moves)-2] // the rapid home, then the retract
	if low != 2 || last.Kind != gcode.Rapid || last.To.X != 0 || last.To.Y != 0 || last.To.Z > top {
		t.Errorf("%d low rapids, the last %v", low, last)
	}
}

// TestZigZagEmpty checks the programs without cuts.
func TestZigZagEmpty(t *testing.T) {
	part, _ := Mold(5, 0)
	for _, c := range []struct {
		name string
		m    *mesh.TriMesh
		r    float64
	}{
		{"no triangles", &mesh.TriMesh{}, 3},
		{"zero radius", part, 0},
		{"NaN radius", part, math.NaN()},
	} {
		p := readProgram(t, c.name, ZigZag(c.m, c.r, ZigZagOptions{}))
		for _, m := range p.Moves {
			if m.Kind != gcode.Rapid {
				t.Errorf("%s: a %v move", c.name, m.Kind)
			}
		}
	}
}

// TestDemo checks the built-in demo's size and that it is the same on
// every call.
func TestDemo(t *testing.T) {
	part, prog, tool := Demo()
	part2, prog2, _ := Demo()
	if meshHash(part) != meshHash(part2) || prog != prog2 {
		t.Error("two demos differ")
	}
	if n := len(part.Tris); n < 45000 || n > 55000 {
		t.Errorf("%d triangles", n)
	}
	p := readProgram(t, "demo", prog)
	if n := len(p.Moves); n < 2000 || n > 5000 {
		t.Errorf("%d moves", n)
	}
	if !strings.HasPrefix(tool, "ball 6 ") {
		t.Errorf("tool %q", tool)
	}
	// The demo's part is large: the samples are checked against the
	// drop-cutter, which TestDropCutter checks against brute force.
	d := newDropper(part, DemoRadius)
	cut, top := 0, part.Bounds().Max.Z
	for _, m := range p.Moves {
		if m.Kind != gcode.Linear || m.To.Z > top {
			continue
		}
		if c, ok := d.drop(m.To.X, m.To.Y); ok && m.To.Z+DemoRadius < c-1e-9 {
			cut++
		}
	}
	if cut != demoOptions.Distort.Count {
		t.Errorf("%d samples cut into the part, want %d", cut, demoOptions.Distort.Count)
	}
}

// TestBlock checks that a mold and a terrain closed into blocks are
// solids (closed, manifold, oriented outwards), and that Block refuses
// what is not a height field's grid or a bottom not below it.
func TestBlock(t *testing.T) {
	mold, err := Mold(12, 3)
	if err != nil {
		t.Fatal(err)
	}
	terr, err := Terrain(TerrainPresets()[0], 9, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, hf := range []*mesh.TriMesh{mold, terr} {
		b, err := Block(hf, hf.Bounds().Min.Z-1)
		if err != nil {
			t.Fatal(err)
		}
		tp := topo.Of(b)
		if !tp.Closed || !tp.Manifold || !tp.Oriented || !tp.Outward {
			t.Errorf("Block: closed %v, manifold %v, oriented %v, outward %v: want a solid", tp.Closed, tp.Manifold, tp.Oriented, tp.Outward)
		}
		if _, err := Block(hf, hf.Bounds().Min.Z); err == nil {
			t.Error("Block with its bottom at the lowest vertex: no error")
		}
	}
	if _, err := Block(&mesh.TriMesh{Verts: mold.Verts[:5], Tris: mold.Tris[:2]}, -100); err == nil {
		t.Error("Block of 5 vertices: no error")
	}
}
