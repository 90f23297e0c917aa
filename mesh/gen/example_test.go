package gen_test

import (
	"fmt"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
)

func ExampleIcosphere() {
	// 1000 triangles requested: 20·7² = 980 is the closest geodesic sphere.
	m, err := gen.Icosphere(geom.V(0, 0, 0), 1, 1000)
	if err != nil {
		panic(err)
	}
	fmt.Println(m.NumTriangles(), "triangles,", len(m.Verts), "vertices")
	// Output: 980 triangles, 492 vertices
}

func ExampleTetrahedra() {
	// The obstacle field of QuickCD's 747 experiment: 25,000 disjoint
	// random tetrahedra.
	bounds := geom.AABB{Min: geom.V(-50, -50, -50), Max: geom.V(50, 50, 50)}
	m, err := gen.Tetrahedra(25000, bounds, 1, 1)
	if err != nil {
		panic(err)
	}
	fmt.Println(m.NumTriangles(), "triangles, inside bounds:", bounds.ContainsBox(m.Bounds()))
	// Output: 100000 triangles, inside bounds: true
}

func ExampleKind_Generate() {
	k, _ := gen.Lookup("box")
	m, err := k.Generate(map[string]float64{"n": 3})
	if err != nil {
		panic(err)
	}
	fmt.Println(m.NumTriangles())
	_, err = k.Generate(map[string]float64{"size": 3})
	fmt.Println(err)
	// Output:
	// 108
	// gen: box: unknown parameter "size" (valid: n, minx, miny, minz, maxx, maxy, maxz)
}

func ExampleKinds() {
	for _, k := range gen.Kinds() {
		fmt.Printf("%-10s", k.Name)
		for _, p := range k.Params {
			fmt.Printf(" %s=%g", p.Name, p.Default)
		}
		fmt.Println()
	}
	// Output:
	// box        n=1 minx=-1 miny=-1 minz=-1 maxx=1 maxy=1 maxz=1
	// capsule    radius=1 height=2 tris=1000
	// cylinder   radius=1 height=2 tris=1000
	// icosphere  cx=0 cy=0 cz=0 radius=1 tris=1280
	// terrain    n=129 size=100 height=10 roughness=0.5 seed=1
	// tetrahedra n=1000 size=1 minx=-50 miny=-50 minz=-50 maxx=50 maxy=50 maxz=50 seed=1
	// torus      cx=0 cy=0 cz=0 major=2 minor=0.5 tris=2000
	// uvsphere   cx=0 cy=0 cz=0 radius=1 tris=1000
}
