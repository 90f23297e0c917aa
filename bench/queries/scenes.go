package queries

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
	_ "github.com/collide3d/collide/mesh/obj" // the children read OBJ files
)

// Op is what a scene measures.
type Op int

const (
	// Distance is Query.Distance with the flying model at From.
	Distance Op = iota
	// TOI is Query.TimeOfImpact from From to To.
	TOI
	// Build is collide.Build of the environment (a scene without Fly).
	Build
)

// String names the op as the report does.
func (o Op) String() string {
	switch o {
	case Distance:
		return "distance"
	case TOI:
		return "time of impact"
	case Build:
		return "build"
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// A Scene is a row of the experiment: a query of a flying model against an
// environment (which stays at the identity), or the build of a model.
type Scene struct {
	// Name names the row (Config.Scenes, the report).
	Name string
	Op   Op
	// Env and Fly name the meshes (see LoadMesh); a build has no Fly.
	Env, Fly string
	// From is the pose of a distance query, From and To the ends of a
	// motion.
	From, To geom.Pose
	// About says what the row is, in a few words.
	About string
}

// Terrain sizes: the grid of gen:terrain whose 2·(n−1)² triangles are
// about 10^6 (999,698) and, with Config.Quick, 10^5 (100,352).
const (
	TerrainN      = 708
	QuickTerrainN = 225
)

// at returns the pose that translates by (x, y, z).
func at(x, y, z float64) geom.Pose { return geom.Translation(geom.V(x, y, z)) }

// Scenes returns issue 30's rows: its table's queries and the terrain build
// of its item 4 (10^5 triangles instead of 10^6 when quick).
func Scenes(quick bool) []Scene {
	const (
		bull, homer = "cgal:bull.off", "cgal:homer.off"
		torus       = "gen:torus"
		ball        = "gen:icosphere:radius=0.4"
		pebble      = "gen:icosphere:radius=0.1,tris=320"
	)
	n := TerrainN
	if quick {
		n = QuickTerrainN
	}
	return []Scene{
		{Name: "bull-homer", Op: Distance, Env: bull, Fly: homer, From: at(3, 3, 3),
			About: "homer 4.2 from bull, at the diagonal pose"},
		{Name: "torus-far", Op: Distance, Env: torus, Fly: ball, From: at(10, 10, 10),
			About: "a ball far from a torus, off every axis"},
		{Name: "torus-touch", Op: Distance, Env: torus, Fly: ball, From: at(2.5, 0, 0),
			About: "the ball's centre on the torus: in contact"},
		{Name: "slide", Op: TOI, Env: bull, Fly: homer, From: at(2, 0, 0), To: at(0, 0, 0),
			About: "homer sliding into bull along x"},
		{Name: "drop", Op: TOI, Env: torus, Fly: pebble, From: at(2, 0, 3), To: at(2, 0, -3),
			About: "a pebble dropped onto the torus, along z at y = 0"},
		{Name: "drop-off-axis", Op: TOI, Env: torus, Fly: pebble, From: at(1.713, 0.211, 3), To: at(1.713, 0.211, -3),
			About: "the same drop at x = 1.713, y = 0.211"},
		{Name: "terrain", Op: Build, Env: fmt.Sprintf("gen:terrain:n=%d", n),
			About: fmt.Sprintf("a fractal terrain of %d triangles", 2*(n-1)*(n-1))},
	}
}

// SceneNames returns the names of Scenes' rows.
func SceneNames() []string {
	var names []string
	for _, s := range Scenes(false) {
		names = append(names, s.Name)
	}
	return names
}

// LoadMesh makes the mesh src names: "cgal:NAME", the mesh NAME of Debian's
// libcgal-demo package (see bench/scenes.CGALMesh; its error is then a
// *scenes.MissingDataError when they are not installed),
// "gen:KIND[:key=value,...]", a generated mesh as the command line's
// models name them (package mesh/gen), or else a mesh file (mesh.Load).
func LoadMesh(src string) (*mesh.TriMesh, error) {
	if name, ok := strings.CutPrefix(src, "cgal:"); ok {
		return scenes.CGALMesh(name)
	}
	spec, ok := strings.CutPrefix(src, "gen:")
	if !ok {
		return mesh.Load(src)
	}
	kind, kv, _ := strings.Cut(spec, ":")
	k, ok := gen.Lookup(kind)
	if !ok {
		return nil, fmt.Errorf("mesh %q: no generator %q", src, kind)
	}
	params := map[string]float64{}
	if kv != "" {
		for _, p := range strings.Split(kv, ",") {
			key, val, ok := strings.Cut(p, "=")
			x, err := strconv.ParseFloat(val, 64)
			if !ok || err != nil {
				return nil, fmt.Errorf("mesh %q: %q is not key=number", src, p)
			}
			params[key] = x
		}
	}
	m, err := k.Generate(params)
	if err != nil {
		return nil, fmt.Errorf("mesh %q: %w", src, err)
	}
	return m, nil
}
