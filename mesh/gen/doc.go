// Package gen generates triangle meshes for tests, benchmarks and the
// papers' experiments: spheres, a torus, boxes, cylinders, capsules, fields of
// disjoint random tetrahedra and fractal terrains.
//
// # Determinism
//
// Every generator is a pure function of its arguments (a random one takes a
// seed): the same call returns the same mesh, bit for bit, on every platform
// and every run. To make that hold, the package never uses math.Sin, math.Cos
// or math/rand's derived methods, whose results may change with the platform
// or the Go release (math.Sin and math.Cos do give different bits on amd64,
// arm64 and s390x: the compiler fuses their polynomial steps into fused
// multiply-adds where the hardware has them). It uses only correctly
// rounded operations (+, -, ×, /, math.Sqrt, math.Floor, math.Round), with
// every product wrapped in an explicit float64 conversion so that it cannot
// be fused, its own sine and cosine of rational multiples of 2π, and the raw
// 64-bit output of math/rand/v2's PCG generator. The package's tests pin the
// exact bits of a mesh of every kind.
//
// # Generators and their triangle counts
//
// Generators that take a requested triangle count tris pick a resolution and
// return a mesh whose count follows the formula below; requests below the
// minimum are an error. With T the request and closest(T, k) the integer
// closest to T/k (ties to the smaller one):
//
//	Icosphere   20·n²       n ≥ 1 makes 20·n² closest to T (ties to the smaller);
//	                        at least 20. The icosahedron's edges are split into n
//	                        parts (a geodesic sphere of frequency n), 10·n²+2 vertices.
//	UVSphere    2·s·(t-1)   t = max(2, round((1+√(1+T))/2)) stacks, then
//	                        s = max(3, closest(T, 2(t-1))) slices, so s ≈ 2t; at
//	                        least 6, within t-1 of T. Poles are fans; s·(t-1)+2 vertices.
//	Torus       2·a·b       b = max(3, round(√(T·minor/(2·major)))) segments around
//	                        the tube, then a = max(3, closest(T, 2b)) around the
//	                        axis, so the quads are about square; at least 18,
//	                        within b of T; a·b vertices.
//	Cylinder    2·s·(m+1)   m ≥ 1 side rows making the side quads about square,
//	                        then s = max(3, closest(T, 2(m+1))) slices; caps are
//	                        fans; at least 12, within m+1 of T; s·(m+1)+2 vertices.
//	Capsule     2·s·R       R = 2q+m-1 rings: q per hemisphere (including the
//	                        equator), m ≥ 1 side rows (m = 0 when height = 0),
//	                        spaced about evenly; s = max(3, closest(T, 2R));
//	                        at least 12 (6 when height = 0), within R of T;
//	                        s·R+2 vertices.
//	Box         12·n²       each face an n×n grid of quads; 6·n²+2 vertices.
//	Tetrahedra  4·n         n disjoint tetrahedra, 4 vertices each (not shared).
//	Terrain     2·(n-1)²    a height field on an n×n grid of vertices.
//
// The "within" bounds hold whenever the slice count s (or a) is above its
// minimum of 3, that is for all but the smallest requests or extreme
// proportions.
//
// No generator returns more than MaxTriangles triangles; a request that would
// is an error, so that a mistyped count cannot exhaust memory.
//
// Every closed surface (all but Terrain) is watertight and consistently
// oriented with outward normals (counterclockwise seen from outside): each
// directed edge occurs in exactly one triangle and its reverse in exactly one
// other. Vertices are shared, none is unused, and no triangle is degenerate.
//
// # The generator table
//
// Kinds lists every generator with its named float64 parameters and defaults,
// for command-line tools:
//
//	k, _ := gen.Lookup("icosphere")
//	m, err := k.Generate(map[string]float64{"radius": 2, "tris": 5000})
package gen
