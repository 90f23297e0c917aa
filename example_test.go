package collide_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// Example shows the whole path from mesh files to a contact list.
func Example() {
	dir, err := os.MkdirTemp("", "collide-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	// A floor of two triangles, and a tetrahedron standing on it.
	floor := filepath.Join(dir, "floor.obj")
	tet := filepath.Join(dir, "tet.off")
	os.WriteFile(floor, []byte("v 0 0 0\nv 4 0 0\nv 4 4 0\nv 0 4 0\nf 1 2 3 4\n"), 0o644)
	os.WriteFile(tet, []byte("OFF\n4 4 0\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 2 1\n3 0 1 3\n3 1 2 3\n3 0 3 2\n"), 0o644)

	envMesh, err := mesh.Load(floor)
	if err != nil {
		log.Fatal(err)
	}
	flyMesh, err := mesh.Load(tet)
	if err != nil {
		log.Fatal(err)
	}
	// Build 18-DOP hierarchies (the default) once.
	env, err := collide.Build(envMesh, collide.BuildOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fly, err := collide.Build(flyMesh, collide.BuildOptions{})
	if err != nil {
		log.Fatal(err)
	}

	// The floor placed 5 units up (the zero Pose is the identity, so
	// Pose{T: v} is a translation), the tetrahedron at (1, 1, 5): its base
	// lies on the floor, a coplanar contact.
	floorPose := geom.Pose{T: geom.V(0, 0, 5)}
	res, err := collide.Collide(env, floorPose, fly, geom.Translation(geom.V(1, 1, 5)), collide.QueryOptions{All: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Collide, res.Pairs)
	// Lifted by 1e-9 it touches nothing.
	res, err = collide.Collide(env, floorPose, fly, geom.Translation(geom.V(1, 1, 5+1e-9)), collide.QueryOptions{All: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Collide, res.Pairs)
	// Output:
	// true [{0 0} {0 1} {0 2} {0 3} {1 0} {1 1} {1 2} {1 3}]
	// false []
}

// ExampleQuery shows a query loop as a haptic or simulation loop runs it:
// one Query reused for every pose, so that queries allocate nothing.
func ExampleQuery() {
	torus, err := gen.Torus(geom.Vec3{}, 1, 0.25, 20000)
	if err != nil {
		log.Fatal(err)
	}
	ball, err := gen.Icosphere(geom.Vec3{}, 0.1, 1280)
	if err != nil {
		log.Fatal(err)
	}
	env, err := collide.Build(torus, collide.BuildOptions{BV: collide.KDOP18})
	if err != nil {
		log.Fatal(err)
	}
	fly, err := collide.Build(ball, collide.BuildOptions{})
	if err != nil {
		log.Fatal(err)
	}
	var q collide.Query
	for _, z := range []float64{0.5, 0.36, 0.34, 0} {
		// The ball, spinning, over the torus's ring at height z. At z = 0
		// it is inside the tube: surfaces do not touch, no contact.
		pose := geom.FromAxisAngle(geom.V(0, 0, 1), z, geom.V(1, 0, z))
		res, err := q.Collide(env, geom.Pose{}, fly, pose, collide.QueryOptions{All: true})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("z=%.2f: collide %v, %d pairs\n", z, res.Collide, len(res.Pairs))
	}
	// Output:
	// z=0.50: collide false, 0 pairs
	// z=0.36: collide false, 0 pairs
	// z=0.34: collide true, 56 pairs
	// z=0.00: collide false, 0 pairs
}

// ExampleModel_Save builds a model once, saves it, and loads it back
// without building.
func ExampleModel_Save() {
	terrain, err := gen.Terrain(65, 10, 1, 0.5, 7)
	if err != nil {
		log.Fatal(err)
	}
	env, err := collide.Build(terrain, collide.BuildOptions{BV: collide.KDOP26})
	if err != nil {
		log.Fatal(err)
	}
	var buf bytes.Buffer
	if err := env.Save(&buf); err != nil {
		log.Fatal(err)
	}
	loaded, err := collide.ReadModel(&buf)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(loaded.BV(), len(loaded.Mesh().Tris), loaded.Tree().Nodes())
	// Output:
	// kdop26 8192 16383
}

// ExampleBVs builds the same two models with every bounding volume: each
// gives the same pairs, with different amounts of work.
func ExampleBVs() {
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 2000))
	ball := gen.Must(gen.Icosphere(geom.Vec3{}, 0.3, 500))
	pose := geom.FromAxisAngle(geom.V(0, 0, 1), 0.5, geom.V(1, 0, 0.2))
	for _, b := range collide.BVs() {
		env, err := collide.Build(torus, collide.BuildOptions{BV: b})
		if err != nil {
			log.Fatal(err)
		}
		fly, err := collide.Build(ball, collide.BuildOptions{BV: b})
		if err != nil {
			log.Fatal(err)
		}
		res, err := collide.Collide(env, geom.Pose{}, fly, pose, collide.QueryOptions{All: true})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-7s %d pairs\n", b, len(res.Pairs))
	}
	// Output:
	// kdop6   102 pairs
	// kdop8   102 pairs
	// kdop12  102 pairs
	// kdop14  102 pairs
	// kdop18  102 pairs
	// kdop20  102 pairs
	// kdop26  102 pairs
	// obb     102 pairs
	// sphere  102 pairs
	// aabb    102 pairs
	// boxtree 102 pairs
	// rss     102 pairs
	// brute   102 pairs
}

// ExampleModel_Spheres shows a model's spheres at levels of detail, as a
// broad phase uses them: one sphere at level 0, more and tighter ones below.
func ExampleModel_Spheres() {
	m, err := collide.Build(gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 2000)), collide.BuildOptions{BV: collide.Sphere})
	if err != nil {
		log.Fatal(err)
	}
	for l := range 4 {
		s := m.Spheres(l)
		fmt.Printf("level %d: %d spheres, the largest of radius %.2f\n", l, len(s), largest(s))
	}
	// Output:
	// level 0: 1 spheres, the largest of radius 1.30
	// level 1: 2 spheres, the largest of radius 1.30
	// level 2: 4 spheres, the largest of radius 0.93
	// level 3: 8 spheres, the largest of radius 0.66
}

func largest(s []bv.Sphere) float64 {
	r := 0.0
	for _, x := range s {
		r = max(r, x.R)
	}
	return r
}

// exampleModels returns a torus (the environment) and a small ball, built
// with 18-DOP trees.
func exampleModels() (env, fly *collide.Model) {
	env, err := collide.Build(gen.Must(gen.Torus(geom.Vec3{}, 1, 0.25, 2000)), collide.BuildOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fly, err = collide.Build(gen.Must(gen.Icosphere(geom.Vec3{}, 0.2, 320)), collide.BuildOptions{})
	if err != nil {
		log.Fatal(err)
	}
	return env, fly
}

// ExampleCollide places both models in a world's frame: the torus turned
// and moved, the ball on its ring. The query composes the relative pose
// once; the answer is the one of the ball at that pose against the torus
// where its mesh is.
func ExampleCollide() {
	env, fly := exampleModels()
	torusPose := geom.FromAxisAngle(geom.V(1, 0, 0), math.Pi/2, geom.V(10, 20, 30))
	// The ball's centre on the ring, at (1, 0, 0) in the torus's frame.
	ballPose := torusPose.Compose(geom.Translation(geom.V(1, 0, 0)))
	res, err := collide.Collide(env, torusPose, fly, ballPose, collide.QueryOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("inside the tube:", res.Collide)
	ballPose = torusPose.Compose(geom.Translation(geom.V(1, 0, 0.3)))
	res, err = collide.Collide(env, torusPose, fly, ballPose, collide.QueryOptions{All: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("on the tube:", res.Collide, len(res.Pairs) > 0)
	// Output:
	// inside the tube: false
	// on the tube: true true
}

// ExampleQuery_Pairs ranges over the pairs in contact and stops after
// five: breaking out of the loop ends the query.
func ExampleQuery_Pairs() {
	env, fly := exampleModels()
	var q collide.Query
	pairs, err := q.Pairs(env, geom.Pose{}, fly, geom.Translation(geom.V(1, 0, 0.3)), collide.QueryOptions{All: true})
	if err != nil {
		log.Fatal(err)
	}
	n := 0
	for range pairs {
		if n++; n == 5 {
			break
		}
	}
	fmt.Println(n, "pairs seen")
	// Output:
	// 5 pairs seen
}

// ExampleDistanceBetween measures how far the ball is from the torus, with
// a context that bounds the time the search may take.
func ExampleDistanceBetween() {
	env, fly := exampleModels()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := collide.DistanceBetween(ctx, env, geom.Pose{}, fly, geom.Translation(geom.V(0, 0, 1)), collide.DistanceOptions{})
	if errors.Is(err, context.DeadlineExceeded) {
		fmt.Println("stopped; the distance is between", r.Lower, "and", r.Distance)
		return
	} else if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%.3f, error below 1e-12: %v\n", r.Distance, r.Bound < 1e-12)
	// Output:
	// 0.963, error below 1e-12: true
}

// ExampleImpact finds when the ball, dropped from above the torus's ring,
// first touches it.
func ExampleImpact() {
	env, fly := exampleModels()
	from, to := geom.Translation(geom.V(1, 0, 2)), geom.Translation(geom.V(1, 0, 0))
	r, err := collide.Impact(context.Background(), env, geom.Pose{}, fly, from, to, collide.TOIOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("hit %v at t = %.3f\n", r.Hit, r.TOI.Lo)
	// Output:
	// hit true at t = 0.775
}

// ExampleQuery_NearTriangles lists the torus's triangles within 0.05 of the
// ball, the candidates a caller with its own exact test would examine.
func ExampleQuery_NearTriangles() {
	env, fly := exampleModels()
	var q collide.Query
	near := map[int32]bool{}
	_, err := q.NearTriangles(env, geom.Pose{}, fly, geom.Translation(geom.V(1, 0, 0.48)), 0.05, func(tri int32) bool {
		near[tri] = true
		return true
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(near) > 0)
	// Output:
	// true
}

// ExampleStats_String prints a query's counts, labelled.
func ExampleStats_String() {
	st := collide.Stats{BVTests: 120, TriTests: 8, Updates: 3}
	fmt.Println(st)
	// Output:
	// bv tests 120, tri tests 8, updates 3
}
