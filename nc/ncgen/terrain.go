// Package ncgen generates the parts and tool paths of the tool-path
// verification demo, tests and experiments, after the NC verification
// chapter of Klosowski's dissertation: terrains like its USGS elevation
// models (Terrain), mold-like parts like its industrial bottle molds
// (Mold), zig-zag finishing programs for a ball-end tool made by
// drop-cutter sampling (ZigZag), and the built-in demo of collide nc
// (Demo).
//
// Every generator is a pure function of its arguments: the same arguments
// give the same bytes, on every platform (the arithmetic rounds every
// product, as package mesh/gen does, so that fused multiply-adds cannot
// change a bit). Units are millimetres.
package ncgen

import (
	"fmt"
	"slices"

	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// TerrainSize is the side of the square that Terrain covers, in mm: the
// terrains span [0, TerrainSize]² in x and y.
const TerrainSize = 100.0

// terrainPreset is one of Terrain's presets.
type terrainPreset struct {
	name      string
	doc       string
	height    float64 // heights in [0, height] mm (before the lake)
	roughness float64 // gen.Terrain's roughness
	stream    uint64  // xored into the seed, so that presets differ
	lake      bool
}

// terrainPresets lists the presets, gentlest first.
var terrainPresets = []terrainPreset{
	{"buffalo", "gentle hills beside a lake: a third of the square exactly flat", 10, 0.35, 0xb0ff, true},
	{"denver", "plains rising to foothills", 14, 0.45, 0xde4e, false},
	{"eagle", "mountain valleys", 20, 0.55, 0xea61, false},
	{"seattle", "rugged, with fine ridges", 20, 0.7, 0x5ea7, false},
}

// TerrainPresets returns the names of Terrain's presets, from the gentlest
// to the most rugged: buffalo, denver, eagle, seattle.
func TerrainPresets() []string {
	names := make([]string, len(terrainPresets))
	for i, p := range terrainPresets {
		names[i] = p.name
	}
	return names
}

// lakeShore is the x (mm) below which buffalo's ground is lowered under the
// lake's level, and lakeRamp the width of its shore.
const (
	lakeShore = 35.0
	lakeRamp  = 10.0
)

// Terrain returns a terrain like the USGS elevation models of the
// dissertation's NC experiments: an n×n grid (2·(n-1)² triangles, facing
// up) over [0, 100]² mm, made by mesh/gen.Terrain, with heights between 0
// and 10 to 20 mm by preset:
//
//   - buffalo: gentle hills (roughness 0.35, up to 10 mm) beside a lake:
//     west of x ≈ 30 mm the ground drops below the lake's level, and every
//     vertex below it is raised to it, so the lake is one large, exactly
//     planar region (like the Lake Erie of the dissertation's Buffalo set,
//     where OBB trees were wasteful);
//   - denver: plains and foothills (roughness 0.45, up to 14 mm);
//   - eagle: mountain valleys (roughness 0.55, up to 20 mm);
//   - seattle: rugged ground with fine ridges (roughness 0.7, up to 20 mm).
//
// n must be at least 2. The presets differ for the same seed.
func Terrain(preset string, n int, seed uint64) (*mesh.TriMesh, error) {
	i := slices.IndexFunc(terrainPresets, func(p terrainPreset) bool { return p.name == preset })
	if i < 0 {
		return nil, fmt.Errorf("ncgen: unknown terrain preset %q (presets: buffalo, denver, eagle, seattle)", preset)
	}
	p := terrainPresets[i]
	m, err := gen.Terrain(n, TerrainSize, p.height, p.roughness, seed^(p.stream<<48))
	if err != nil {
		return nil, fmt.Errorf("ncgen: %s: %w", preset, err)
	}
	if p.lake {
		makeLake(m, p.height)
	}
	return m, nil
}

// makeLake lowers the ground west of lakeShore by up to twice height and
// raises every vertex below the lake's level (a fifth of height) to it.
func makeLake(m *mesh.TriMesh, height float64) {
	level := float64(0.2 * height)
	for k, v := range m.Verts {
		t := (v.X - (lakeShore - lakeRamp)) / lakeRamp // 0 at the shore's foot, 1 inland
		drop := float64(float64(2*height) * (1 - smoothstep(t)))
		m.Verts[k].Z = max(v.Z-drop, level)
	}
}

// smoothstep returns 3t² - 2t³ for t clamped to [0, 1].
func smoothstep(t float64) float64 {
	t = min(max(t, 0), 1)
	return float64(float64(t*t) * (3 - float64(2*t)))
}
