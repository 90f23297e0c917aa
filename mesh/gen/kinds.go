package gen

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// Param is a named numeric parameter of a generator Kind.
type Param struct {
	Name    string
	Default float64
	Doc     string
	// Int marks a parameter that must be a whole number (a count or a seed).
	Int bool
}

// Kind describes one generator for command-line tools: its name, a one-line
// description, its parameters in a fixed order, and Make.
type Kind struct {
	Name, Doc string
	Params    []Param
	// Make generates the mesh from parameter values; a parameter missing from
	// p takes its default and names not among Params are ignored (Generate
	// rejects them). Make validates every value and returns an error, never
	// panics, on a bad one: NaN or infinite numbers, a fraction where a whole
	// number is needed, a non-positive size, a count below the minimum or
	// beyond MaxTriangles.
	Make func(p map[string]float64) (*mesh.TriMesh, error)
}

// Generate fills in the defaults of the parameters not in overrides, rejects
// names that are not parameters of k (the error lists the valid ones) and
// calls k.Make.
func (k Kind) Generate(overrides map[string]float64) (*mesh.TriMesh, error) {
	var unknown []string
	for name := range overrides {
		if !slices.ContainsFunc(k.Params, func(p Param) bool { return p.Name == name }) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		valid := make([]string, len(k.Params))
		for i, p := range k.Params {
			valid[i] = p.Name
		}
		return nil, fmt.Errorf("gen: %s: unknown parameter %q (valid: %s)", k.Name, unknown[0], strings.Join(valid, ", "))
	}
	return k.Make(overrides)
}

// Kinds returns the generators, sorted by name: box, capsule, cylinder,
// icosphere, terrain, tetrahedra, torus, uvsphere. The slice is new on every
// call; the caller may keep or modify it.
func Kinds() []Kind {
	center := []Param{
		{Name: "cx", Doc: "center x"},
		{Name: "cy", Doc: "center y"},
		{Name: "cz", Doc: "center z"},
	}
	bounds := func(lo, hi float64, what string) []Param {
		return []Param{
			{Name: "minx", Default: lo, Doc: what + " min x"},
			{Name: "miny", Default: lo, Doc: what + " min y"},
			{Name: "minz", Default: lo, Doc: what + " min z"},
			{Name: "maxx", Default: hi, Doc: what + " max x"},
			{Name: "maxy", Default: hi, Doc: what + " max y"},
			{Name: "maxz", Default: hi, Doc: what + " max z"},
		}
	}
	tris := func(def float64, min int) Param {
		return Param{Name: "tris", Default: def, Int: true,
			Doc: fmt.Sprintf("requested triangle count (the closest achievable is used; at least %d)", min)}
	}
	seed := Param{Name: "seed", Default: 1, Int: true, Doc: "random seed, a whole number in [0, 2^53]"}
	join := func(lists ...[]Param) []Param { return slices.Concat(lists...) }

	specs := []struct {
		name, doc string
		params    []Param
		run       func(v values) (*mesh.TriMesh, error)
	}{
		{
			"box", "closed box surface, each face an n×n grid: 12·n² triangles",
			join([]Param{{Name: "n", Default: 1, Int: true, Doc: "grid divisions per face edge"}}, bounds(-1, 1, "box")),
			func(v values) (*mesh.TriMesh, error) { return Box(v.box(), v.int("n")) },
		},
		{
			"capsule", "closed capsule around the segment (0,0,0)-(0,0,height): 2·s·R triangles",
			[]Param{
				{Name: "radius", Default: 1, Doc: "radius"},
				{Name: "height", Default: 2, Doc: "length of the axis segment (0: a sphere)"},
				tris(1000, 12),
			},
			func(v values) (*mesh.TriMesh, error) {
				return Capsule(v.float("radius"), v.float("height"), v.int("tris"))
			},
		},
		{
			"cylinder", "closed cylinder around the z axis from z=0 to z=height, caps as fans: 2·s·(m+1) triangles",
			[]Param{
				{Name: "radius", Default: 1, Doc: "radius"},
				{Name: "height", Default: 2, Doc: "height"},
				tris(1000, 12),
			},
			func(v values) (*mesh.TriMesh, error) {
				return Cylinder(v.float("radius"), v.float("height"), v.int("tris"))
			},
		},
		{
			"icosphere", "geodesic sphere (icosahedron with edges split in n): 20·n² triangles",
			join(center, []Param{{Name: "radius", Default: 1, Doc: "radius"}, tris(1280, 20)}),
			func(v values) (*mesh.TriMesh, error) {
				return Icosphere(v.center(), v.float("radius"), v.int("tris"))
			},
		},
		{
			"terrain", "fractal height field on an n×n grid over [0,size]²: 2·(n-1)² triangles (open surface)",
			[]Param{
				{Name: "n", Default: 129, Int: true, Doc: "grid vertices per side (at least 2)"},
				{Name: "size", Default: 100, Doc: "side length of the square"},
				{Name: "height", Default: 10, Doc: "heights lie in [0, height]"},
				{Name: "roughness", Default: 0.5, Doc: "weight ratio of successive octaves, in [0, 1]"},
				seed,
			},
			func(v values) (*mesh.TriMesh, error) {
				return Terrain(v.int("n"), v.float("size"), v.float("height"), v.float("roughness"), v.seed())
			},
		},
		{
			"tetrahedra", "n random pairwise disjoint tetrahedra of edge about size inside a box: 4·n triangles",
			join([]Param{
				{Name: "n", Default: 1000, Int: true, Doc: "number of tetrahedra"},
				{Name: "size", Default: 1, Doc: "nominal edge length"},
			}, bounds(-50, 50, "bounds"), []Param{seed}),
			func(v values) (*mesh.TriMesh, error) {
				return Tetrahedra(v.int("n"), v.box(), v.float("size"), v.seed())
			},
		},
		{
			"torus", "closed ring torus around the z axis: 2·a·b triangles",
			join(center, []Param{
				{Name: "major", Default: 2, Doc: "radius of the tube's center circle"},
				{Name: "minor", Default: 0.5, Doc: "radius of the tube (less than major)"},
				tris(2000, 18),
			}),
			func(v values) (*mesh.TriMesh, error) {
				return Torus(v.center(), v.float("major"), v.float("minor"), v.int("tris"))
			},
		},
		{
			"uvsphere", "latitude-longitude sphere with fan poles on the z axis: 2·s·(t-1) triangles",
			join(center, []Param{{Name: "radius", Default: 1, Doc: "radius"}, tris(1000, 6)}),
			func(v values) (*mesh.TriMesh, error) {
				return UVSphere(v.center(), v.float("radius"), v.int("tris"))
			},
		},
	}
	ks := make([]Kind, len(specs))
	for i, s := range specs {
		ks[i] = Kind{Name: s.name, Doc: s.doc, Params: s.params,
			Make: func(p map[string]float64) (*mesh.TriMesh, error) {
				v, err := resolve(s.name, s.params, p)
				if err != nil {
					return nil, err
				}
				return s.run(v)
			}}
	}
	return ks
}

// Lookup returns the Kind of the given name and whether there is one.
func Lookup(name string) (Kind, bool) {
	for _, k := range Kinds() {
		if k.Name == name {
			return k, true
		}
	}
	return Kind{}, false
}

// maxSeed is the largest seed a float64 parameter can carry exactly.
const maxSeed = 1 << 53

// values holds validated parameter values: every one finite, every Int one
// a whole number in [-2⁵³, 2⁵³] (seeds in [0, 2⁵³]).
type values map[string]float64

// resolve returns the values of params, taken from p or their defaults, and
// an error for the first invalid one (in the order of params).
func resolve(kind string, params []Param, p map[string]float64) (values, error) {
	v := make(values, len(params))
	for _, prm := range params {
		x, ok := p[prm.Name]
		if !ok {
			x = prm.Default
		}
		switch {
		case prm.Name == "seed" && !(x >= 0 && x <= maxSeed && x == math.Trunc(x)):
			return nil, errorf(kind, "seed must be a whole number in [0, 2^53], got %v", x)
		case !isFinite(x):
			return nil, errorf(kind, "%s must be finite, got %v", prm.Name, x)
		case prm.Int && x != math.Trunc(x):
			return nil, errorf(kind, "%s must be a whole number, got %v", prm.Name, x)
		case prm.Int && math.Abs(x) > maxSeed:
			return nil, errorf(kind, "%s = %v is out of range", prm.Name, x)
		}
		v[prm.Name] = x
	}
	return v, nil
}

func (v values) float(name string) float64 { return v[name] }

// int returns a whole-number value (at most 2⁵³ in magnitude) as an int:
// exactly where int has 64 bits, so that a generator's limit reports the
// value given; clamped to the int32 range (far beyond every generator's
// limit) where int has 32.
func (v values) int(name string) int {
	x := v[name]
	if strconv.IntSize == 32 {
		x = max(min(x, math.MaxInt32), math.MinInt32)
	}
	return int(x)
}

func (v values) seed() uint64 { return uint64(v["seed"]) }

func (v values) center() geom.Vec3 { return geom.Vec3{X: v["cx"], Y: v["cy"], Z: v["cz"]} }

func (v values) box() geom.AABB {
	return geom.AABB{
		Min: geom.Vec3{X: v["minx"], Y: v["miny"], Z: v["minz"]},
		Max: geom.Vec3{X: v["maxx"], Y: v["maxy"], Z: v["maxz"]},
	}
}
