package gen

import (
	"math"
	"math/rand/v2"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// terrainSeq is the base PCG stream selector of Terrain (octave o uses
// terrainSeq+o); changing it changes every generated terrain.
const terrainSeq = 0x7e77a1e5eed00000

// Terrain returns a fractal height field over the square [0, size]² of the
// xy plane: an n×n grid of vertices, n ≥ 2, vertex (i, j), number j·n+i, at
// x = size·i/(n-1), y = size·j/(n-1) (exactly 0 and size at the edges), and
// two triangles per grid square, facing up (+z): 2·(n-1)² triangles and n²
// vertices. It is an open surface, not a closed one.
//
// The heights are summed octaves of value noise (smoothly interpolated
// random lattice values): octave o has 2^(o+1) lattice cells across the
// square and weight roughness^o, and octaves go down to the grid spacing
// (at least one). The sum is normalised so that every height lies in
// [0, height]. roughness, in [0, 1], sets how much the fine octaves count: 0
// gives a smooth landscape of one octave, 1 weighs all octaves alike, 0.5 is
// the classic "1/f" fractal. height may be 0 (a flat grid). The lattice
// values are the raw outputs of math/rand/v2's PCG seeded with (seed, a
// constant + o), so the same arguments give the same terrain, and the
// coarse octaves (hence the overall landscape) do not depend on n.
func Terrain(n int, size, height, roughness float64, seed uint64) (*mesh.TriMesh, error) {
	const kind = "terrain"
	if n < 2 {
		return nil, errorf(kind, "n must be at least 2, got %d", n)
	}
	if n > 1<<20 || 2*int64(n-1)*int64(n-1) > MaxTriangles {
		return nil, errorf(kind, "n = %d gives more than %d triangles", n, MaxTriangles)
	}
	if err := checkPositive(kind, "size", size); err != nil {
		return nil, err
	}
	if !(height >= 0) || math.IsInf(height, 0) {
		return nil, errorf(kind, "height must be finite and non-negative, got %v", height)
	}
	if !(roughness >= 0 && roughness <= 1) {
		return nil, errorf(kind, "roughness must be in [0, 1], got %v", roughness)
	}

	heights := make([]float64, n*n)
	cell := make([]int, n)      // lattice cell of each grid line, per octave
	blend := make([]float64, n) // smoothstep weight within the cell
	weight, total := 1.0, 0.0
	for o, f := 0, 2; o == 0 || f <= n-1; o, f = o+1, 2*f {
		src := rand.NewPCG(seed, terrainSeq+uint64(o))
		lat := make([]float64, (f+1)*(f+1))
		for k := range lat {
			lat[k] = unitFloat(src.Uint64())
		}
		for i := range n {
			q, r := i*f/(n-1), i*f%(n-1)
			t := float64(r) / float64(n-1)
			if q == f { // the last grid line is the far edge of the last cell
				q, t = f-1, 1
			}
			cell[i] = q
			blend[i] = float64(t*t) * (3 - float64(2*t))
		}
		for j := range n {
			row0 := lat[cell[j]*(f+1):]
			row1 := lat[(cell[j]+1)*(f+1):]
			sy := blend[j]
			acc := heights[j*n : (j+1)*n]
			for i := range n {
				c, sx := cell[i], blend[i]
				v0 := lerp(row0[c], row0[c+1], sx)
				v1 := lerp(row1[c], row1[c+1], sx)
				acc[i] += float64(weight * lerp(v0, v1, sy))
			}
		}
		total += weight
		weight = float64(weight * roughness)
	}

	m := &mesh.TriMesh{
		Verts: make([]geom.Vec3, n*n),
		Tris:  make([][3]int32, 0, 2*(n-1)*(n-1)),
	}
	coord := make([]float64, n)
	for i := range n {
		coord[i] = float64(size * (float64(i) / float64(n-1)))
	}
	for j := range n {
		for i := range n {
			k := j*n + i
			m.Verts[k] = geom.Vec3{X: coord[i], Y: coord[j], Z: float64(height * (heights[k] / total))}
		}
	}
	for j := range n - 1 {
		for i := range n - 1 {
			p00 := int32(j*n + i)
			p10, p01, p11 := p00+1, p00+int32(n), p00+int32(n)+1
			m.Tris = append(m.Tris, [3]int32{p00, p10, p11}, [3]int32{p00, p11, p01})
		}
	}
	return m, nil
}

// lerp returns a + s·(b-a), with the product rounded.
func lerp(a, b, s float64) float64 { return a + float64(s*(b-a)) }
