package testgeom

import (
	"math"
	"math/rand/v2"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// Scene is a named pair of models for all-pairs cross-checks: Fly is tested
// against Env.
type Scene struct {
	Name     string
	Env, Fly *mesh.TriMesh
}

// soupBuilder appends triangles with their own three vertices (a soup: no
// vertex sharing).
type soupBuilder struct{ m mesh.TriMesh }

func (s *soupBuilder) add(t geom.Triangle) {
	n := int32(len(s.m.Verts))
	s.m.Verts = append(s.m.Verts, t[0], t[1], t[2])
	s.m.Tris = append(s.m.Tris, [3]int32{n, n + 1, n + 2})
}

func (s *soupBuilder) mesh() *mesh.TriMesh { m := s.m; return &m }

// RandomSoup returns n triangles: each has one vertex uniform in box and
// the other two within ±size of it on every axis.
func RandomSoup(rng *rand.Rand, n int, box geom.AABB, size float64) *mesh.TriMesh {
	var s soupBuilder
	for range n {
		c := geom.Vec3{
			X: uniform(rng, box.Min.X, box.Max.X),
			Y: uniform(rng, box.Min.Y, box.Max.Y),
			Z: uniform(rng, box.Min.Z, box.Max.Z),
		}
		s.add(geom.Triangle{c, c.Add(randVec(rng, -size, size)), c.Add(randVec(rng, -size, size))})
	}
	return s.mesh()
}

// LatticeSoup returns n small triangles with integer coordinates: one vertex
// in [-extent, extent]³, the others within ±2 of it on every axis. Many are
// degenerate, coplanar with or touching one another.
func LatticeSoup(rng *rand.Rand, n, extent int) *mesh.TriMesh {
	var s soupBuilder
	for range n {
		c := latPoint(rng, extent)
		s.add(geom.Triangle{c.Add(latPoint(rng, 1)), c.Add(latPoint(rng, 2)), c.Add(latPoint(rng, 2))})
	}
	return s.mesh()
}

// NearMissSoup returns n triangles (n rounded down to even) in pairs
// (2i, 2i+1) built like KindNearMiss and KindVertexOnFace pairs, each pair
// scaled to size about 1 and moved (exactly) to its own integer position in
// a cube of side about n^(1/3)·4, then possibly moved by one ulp: contacts and
// one-ulp misses, with few contacts between different pairs.
func NearMissSoup(rng *rand.Rand, n int) *mesh.TriMesh {
	env, fly := nearMissPairs(rng, n/2)
	var s soupBuilder
	for i := range env.Tris {
		s.add(env.Triangle(i))
		s.add(fly.Triangle(i))
	}
	return s.mesh()
}

// nearMissPairs returns n pairs split into two meshes: triangle i of env
// and triangle i of fly form a near-miss or exact-contact pair.
func nearMissPairs(rng *rand.Rand, n int) (env, fly *mesh.TriMesh) {
	var se, sf soupBuilder
	side := 1
	for side*side*side < n {
		side++
	}
	for i := range n {
		var a, b geom.Triangle
		switch rng.IntN(4) {
		case 0:
			a, b = Pair(KindVertexOnFace, rng)
		case 1:
			a, b = Pair(KindEdgeCrossEdge, rng)
		default:
			a, b = Pair(KindNearMiss, rng)
		}
		// Size about 1 (exact power-of-two scale), then an exact integer
		// offset: the coordinates keep at most 53 significant bits when the
		// construction had at most 36 fraction bits below size 1.
		a, b = normalise(a, b, 0)
		o := geom.Vec3{X: float64(4 * (i % side)), Y: float64(4 * (i / side % side)), Z: float64(4 * (i / (side * side)))}
		a, b = offsetTri(a, o), offsetTri(b, o)
		a, b = maybeNudge(rng, a, b)
		se.add(a)
		sf.add(b)
	}
	return se.mesh(), sf.mesh()
}

// Far returns a copy of m with offset added to every coordinate (rounded to
// float64: the copy is a new model, not exactly m translated).
func Far(m *mesh.TriMesh, offset float64) *mesh.TriMesh {
	o := geom.Vec3{X: offset, Y: offset, Z: offset}
	out := &mesh.TriMesh{Verts: make([]geom.Vec3, len(m.Verts)), Tris: append([][3]int32(nil), m.Tris...)}
	for i, v := range m.Verts {
		out.Verts[i] = v.Add(o)
	}
	return out
}

// Tiny returns a copy of m with every coordinate multiplied by scale
// (rounded to float64).
func Tiny(m *mesh.TriMesh, scale float64) *mesh.TriMesh {
	out := &mesh.TriMesh{Verts: make([]geom.Vec3, len(m.Verts)), Tris: append([][3]int32(nil), m.Tris...)}
	for i, v := range m.Verts {
		out.Verts[i] = v.Scale(scale)
	}
	return out
}

// pairSoup returns n pairs of the given kind, pair i scaled to size about 1
// and offset to its own cell as in nearMissPairs, split into env and fly.
func pairSoup(rng *rand.Rand, kind PairKind, n int, spacing float64) (env, fly *mesh.TriMesh) {
	var se, sf soupBuilder
	side := 1
	for side*side*side < n {
		side++
	}
	for i := range n {
		a, b := Pair(kind, rng)
		a, b = normalise(a, b, 0)
		o := geom.Vec3{X: spacing * float64(i%side), Y: spacing * float64(i/side%side), Z: spacing * float64(i/(side*side))}
		se.add(offsetTri(a, o))
		sf.add(offsetTri(b, o))
	}
	return se.mesh(), sf.mesh()
}

// AdversarialScenes returns the scenes for all-pairs cross-checks of the
// collision queries against Brute, deterministic from seed: lattice soups
// (touching, coplanar, degenerate and identical triangles), near-miss pairs,
// their copies offset by 1e6 and scaled by 1e-7, coplanar, degenerate and
// sliver pair soups, and random soups. Each model has a few hundred triangles, so
// that Brute stays fast.
func AdversarialScenes(seed uint64) []Scene {
	rng := rand.New(rand.NewPCG(seed, 0x5ce7e5))
	var sc []Scene
	add := func(name string, env, fly *mesh.TriMesh) {
		sc = append(sc, Scene{Name: name, Env: env, Fly: fly})
	}

	latEnv, latFly := LatticeSoup(rng, 300, 5), LatticeSoup(rng, 300, 5)
	add("lattice", latEnv, latFly)
	// The same soup against itself: identical triangles, shared vertices.
	add("lattice-self", latEnv, latEnv)
	add("lattice-far", Far(latEnv, 1e6), Far(latFly, 1e6))
	add("lattice-tiny", Tiny(latEnv, 1e-7), Tiny(latFly, 1e-7))
	add("lattice-far-tiny", Far(Tiny(latEnv, 1e-7), 1e6), Far(Tiny(latFly, 1e-7), 1e6))

	nmEnv, nmFly := nearMissPairs(rng, 250)
	add("near-miss", nmEnv, nmFly)
	add("near-miss-far", Far(nmEnv, 1e6), Far(nmFly, 1e6))
	add("near-miss-tiny", Tiny(nmEnv, 1e-7), Tiny(nmFly, 1e-7))

	cpEnv, cpFly := pairSoup(rng, KindCoplanarTouch, 250, 3)
	add("coplanar-touch", cpEnv, cpFly)
	coEnv, coFly := pairSoup(rng, KindCoplanarOverlap, 250, 3)
	add("coplanar-overlap", coEnv, coFly)
	dgEnv, dgFly := pairSoup(rng, KindDegenerate, 250, 3)
	add("degenerate", dgEnv, dgFly)
	add("degenerate-far", Far(dgEnv, 1e6), Far(dgFly, 1e6))
	slEnv, slFly := pairSoup(rng, KindSliver, 250, 3)
	add("sliver", slEnv, slFly)

	box := geom.AABB{Min: geom.Vec3{}, Max: geom.Vec3{X: 10, Y: 10, Z: 10}}
	rEnv, rFly := RandomSoup(rng, 300, box, 1), RandomSoup(rng, 300, box, 1)
	add("random", rEnv, rFly)
	add("random-far", Far(rEnv, 1e6), Far(rFly, 1e6))
	add("random-tiny", Tiny(rEnv, 1e-7), Tiny(rFly, 1e-7))

	// Identical triangles (twins), which trees test once: copies mixed
	// into soups in contact, and many copies of one near-missing pair.
	tEnv, tFly := WithTwins(rng, LatticeSoup(rng, 80, 4), 4), WithTwins(rng, LatticeSoup(rng, 80, 4), 4)
	add("twins", tEnv, tFly)
	add("twins-self", tEnv, tEnv)
	add("twins-coplanar", WithTwins(rng, cpEnv, 3), WithTwins(rng, cpFly, 3))
	nmA, nmB := nearMissPairs(rng, 1)
	add("twins-near-miss", Copies(nmA.Triangle(0), 120), Copies(nmB.Triangle(0), 120))
	return sc
}

// WithTwins returns m with copies of its triangles mixed in: each triangle
// is followed, at random places further on, by up to maxCopies identical
// copies (the same coordinates in the same order), half of them sharing
// its vertex indices and half with vertices of their own.
func WithTwins(rng *rand.Rand, m *mesh.TriMesh, maxCopies int) *mesh.TriMesh {
	out := &mesh.TriMesh{Verts: append([]geom.Vec3(nil), m.Verts...)}
	for _, t := range m.Tris {
		out.Tris = append(out.Tris, t)
		for range rng.IntN(maxCopies + 1) {
			c := t
			if rng.IntN(2) == 0 {
				n := int32(len(out.Verts))
				out.Verts = append(out.Verts, m.Verts[t[0]], m.Verts[t[1]], m.Verts[t[2]])
				c = [3]int32{n, n + 1, n + 2}
			}
			// Somewhere at or after the original's place.
			at := len(out.Tris) - rng.IntN(1+len(out.Tris)/4)
			out.Tris = append(out.Tris, [3]int32{})
			copy(out.Tris[at+1:], out.Tris[at:])
			out.Tris[at] = c
		}
	}
	return out
}

// Copies returns n copies of t, each with its own vertices: the hostile
// input that makes every traversal quadratic unless identical triangles
// are tested once.
func Copies(t geom.Triangle, n int) *mesh.TriMesh {
	var s soupBuilder
	for range n {
		s.add(t)
	}
	return s.mesh()
}

// FirstOfTwins reports, for each triangle of m, whether no earlier
// triangle is identical to it (the same coordinates, bit for bit, in the
// same order).
func FirstOfTwins(m *mesh.TriMesh) []bool {
	type key [9]uint64
	seen := map[key]bool{}
	first := make([]bool, len(m.Tris))
	for i := range m.Tris {
		var k key
		for j, v := range m.Triangle(i) {
			k[3*j], k[3*j+1], k[3*j+2] = math.Float64bits(v.X), math.Float64bits(v.Y), math.Float64bits(v.Z)
		}
		first[i] = !seen[k]
		seen[k] = true
	}
	return first
}
