package testgeom

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

func TestSoups(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	box := geom.AABB{Min: geom.Vec3{X: -1, Y: 2, Z: 3}, Max: geom.Vec3{X: 1, Y: 4, Z: 9}}
	r := RandomSoup(rng, 100, box, 0.5)
	if r.NumTriangles() != 100 || r.Validate() != nil {
		t.Fatalf("RandomSoup: %d triangles, %v", r.NumTriangles(), r.Validate())
	}
	if !box.Expanded(0.5).ContainsBox(r.Bounds()) {
		t.Errorf("RandomSoup bounds %v outside %v grown by 0.5", r.Bounds(), box)
	}
	l := LatticeSoup(rng, 100, 3)
	if l.NumTriangles() != 100 || l.Validate() != nil {
		t.Fatalf("LatticeSoup: %d triangles, %v", l.NumTriangles(), l.Validate())
	}
	for _, v := range l.Verts {
		if v.X != float64(int(v.X)) || v.Y != float64(int(v.Y)) || v.Z != float64(int(v.Z)) {
			t.Fatalf("LatticeSoup vertex %v not on the lattice", v)
		}
	}
	if st := l.Stats(); st.Degenerate == 0 {
		t.Errorf("LatticeSoup: no degenerate triangle in 100")
	}
	nm := NearMissSoup(rng, 101)
	if nm.NumTriangles() != 100 || nm.Validate() != nil {
		t.Fatalf("NearMissSoup: %d triangles, %v", nm.NumTriangles(), nm.Validate())
	}
	hits := 0
	for i := 0; i < 100; i += 2 {
		if RatTriTri(nm.Triangle(i), nm.Triangle(i+1)) {
			hits++
		}
	}
	if hits < 5 || hits > 45 {
		t.Errorf("NearMissSoup: %d of 50 pairs in contact: want a mix", hits)
	}
	f, s := Far(l, 1e6), Tiny(l, 1e-7)
	for i, v := range l.Verts {
		if f.Verts[i] != v.Add(geom.Vec3{X: 1e6, Y: 1e6, Z: 1e6}) || s.Verts[i] != v.Scale(1e-7) {
			t.Fatalf("Far/Tiny vertex %d wrong", i)
		}
	}
	if &f.Tris[0] == &l.Tris[0] {
		t.Errorf("Far shares the triangle slice with its input")
	}
}

func TestAdversarialScenes(t *testing.T) {
	sc := AdversarialScenes(1)
	sc2 := AdversarialScenes(1)
	names := map[string]bool{}
	for i, s := range sc {
		if names[s.Name] {
			t.Errorf("duplicate scene name %q", s.Name)
		}
		names[s.Name] = true
		for _, m := range []*mesh.TriMesh{s.Env, s.Fly} {
			if err := m.Validate(); err != nil {
				t.Errorf("%s: %v", s.Name, err)
			}
			if n := m.NumTriangles(); n < 100 || n > 1000 {
				t.Errorf("%s: %d triangles", s.Name, n)
			}
		}
		if !slices.Equal(s.Env.Verts, sc2[i].Env.Verts) || !slices.Equal(s.Fly.Verts, sc2[i].Fly.Verts) {
			t.Errorf("%s: not deterministic", s.Name)
		}
	}
	for _, want := range []string{"lattice", "near-miss", "lattice-far", "lattice-tiny", "random", "twins", "twins-near-miss"} {
		if !names[want] {
			t.Errorf("no scene %q", want)
		}
	}
}

// ratBrute is Brute with RatTriTri.
func ratBrute(env, fly *mesh.TriMesh, pose geom.Pose) [][2]int32 {
	var out [][2]int32
	for i := range env.NumTriangles() {
		for j := range fly.NumTriangles() {
			if RatTriTri(env.Triangle(i), pose.ApplyTriangle(fly.Triangle(j))) {
				out = append(out, [2]int32{int32(i), int32(j)})
			}
		}
	}
	return out
}

// TestBrute checks Brute (and so geom.TriTri) against the rational oracle on
// a few scenes, and that a positive eps only adds pairs.
func TestBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	env, fly := LatticeSoup(rng, 60, 3), LatticeSoup(rng, 60, 3)
	nmEnv, nmFly := nearMissPairs(rng, 60)
	pose := geom.FromAxisAngle(geom.Vec3{X: 1, Y: 2, Z: 3}, 0.3, geom.Vec3{X: 0.5})
	for _, c := range []struct {
		name     string
		env, fly *mesh.TriMesh
		pose     geom.Pose
	}{
		{"lattice", env, fly, geom.Identity()},
		{"lattice posed", env, fly, pose},
		{"near-miss", nmEnv, nmFly, geom.Identity()},
	} {
		got := Brute(c.env, c.fly, c.pose, 0)
		want := ratBrute(c.env, c.fly, c.pose)
		if !slices.Equal(got, want) {
			t.Errorf("%s: Brute found %d pairs, RatTriTri %d", c.name, len(got), len(want))
		}
		if !slices.IsSortedFunc(got, func(a, b [2]int32) int {
			return cmpPair(a, b)
		}) {
			t.Errorf("%s: Brute pairs not ascending", c.name)
		}
		wide := Brute(c.env, c.fly, c.pose, 0.25)
		for _, p := range got {
			if _, ok := slices.BinarySearchFunc(wide, p, cmpPair); !ok {
				t.Errorf("%s: pair %v in contact but not within eps", c.name, p)
			}
		}
		if len(wide) < len(got) {
			t.Errorf("%s: eps 0.25 finds fewer pairs (%d) than eps 0 (%d)", c.name, len(wide), len(got))
		}
	}
}

func cmpPair(a, b [2]int32) int {
	if a[0] != b[0] {
		return int(a[0] - b[0])
	}
	return int(a[1] - b[1])
}

// TestBruteScenes checks Brute against the rational oracle on every
// adversarial scene, at the identity pose (exact) and at a rotated pose.
func TestBruteScenes(t *testing.T) {
	pose := geom.FromAxisAngle(geom.Vec3{X: 0.3, Y: -1, Z: 0.2}, 1e-3, geom.Vec3{X: 1e-3})
	for _, sc := range AdversarialScenes(4) {
		for _, p := range []geom.Pose{geom.Identity(), pose} {
			got := Brute(sc.Env, sc.Fly, p, 0)
			want := ratBrute(sc.Env, sc.Fly, p)
			if !slices.Equal(got, want) {
				t.Errorf("%s: Brute found %d pairs, RatTriTri %d", sc.Name, len(got), len(want))
			}
			if p.IsIdentity() {
				t.Logf("%-18s %4d × %4d triangles, %5d pairs in contact", sc.Name, sc.Env.NumTriangles(), sc.Fly.NumTriangles(), len(got))
			}
		}
	}
}
