package scene

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/world"
)

// checkPairwise checks the world's contacts after a step against a check
// of every pair of objects with collide.Check, all pairs, at the relative
// pose the world tests it at (world.RelativePose): every contact's
// triangle pairs are those of the check (with all, or one of them
// without), and no other interesting pair touches. It returns the number
// of contacts.
func checkPairwise(t *testing.T, p *Player, all bool) int {
	t.Helper()
	w := p.World()
	got := map[[2]world.ID][]collide.Pair{}
	w.Contacts(func(c *world.Contact) bool {
		got[[2]world.ID{c.A, c.B}] = slices.Clone(c.Pairs)
		return true
	})
	n := len(p.Scene().Objects)
	for i := range n {
		for j := i + 1; j < n; j++ {
			a, b := p.ID(i), p.ID(j)
			if a > b {
				a, b = b, a
			}
			key := [2]world.ID{a, b}
			pairs, touching := got[key]
			if !w.Interested(a, b) {
				if touching {
					t.Fatalf("step %d: %s and %s are not tested, yet in contact", p.Steps(), p.Name(a), p.Name(b))
				}
				continue
			}
			env, fly, pose := w.RelativePose(a, b)
			res, err := collide.Check(w.Model(env), w.Model(fly), pose, collide.QueryOptions{All: true})
			if err != nil {
				t.Fatal(err)
			}
			want := res.Pairs
			if env != a {
				for k := range want {
					want[k].Env, want[k].Fly = want[k].Fly, want[k].Env
				}
				slices.SortFunc(want, collide.ComparePairs)
			}
			switch {
			case res.Collide != touching:
				t.Fatalf("step %d: %s and %s: the world says contact %v, check says %v (%d pairs)", p.Steps(), p.Name(a), p.Name(b), touching, res.Collide, len(want))
			case !touching:
			case all && !slices.Equal(pairs, want):
				t.Fatalf("step %d: %s and %s: the world's pairs %v, check's %v", p.Steps(), p.Name(a), p.Name(b), pairs, want)
			case !all && (len(pairs) != 1 || !slices.Contains(want, pairs[0])):
				t.Fatalf("step %d: %s and %s: the world's first pair %v is not one of check's %v", p.Steps(), p.Name(a), p.Name(b), pairs, want)
			}
		}
	}
	return len(got)
}

// TestAgreesWithCheck plays built-in scenes and, at sampled steps, checks
// every pair of objects against collide.Check (see checkPairwise).
func TestAgreesWithCheck(t *testing.T) {
	tests := []struct {
		name         string
		n            int
		steps, every int
		all          bool
		workers      int
		broad        string
	}{
		{"cdfast-spheres-torus", 0, 3000, 60, true, 0, ""},
		{"cdfast-mixed-elongated", 0, 3000, 60, true, 1, ""},
		{"cdfast-room-torus", 0, 3000, 60, true, 2, ""},
		{"cdfast-room-elongated", 0, 1000, 50, false, 0, ""},
		{"fall", 60, 300, 20, true, 0, ""},
		{"gravity", 60, 100, 10, true, 0, ""},
		{"gravity", 60, 30, 3, false, 1, ""},
	}
	for _, b := range world.BroadPhases() {
		tests = append(tests, struct {
			name         string
			n            int
			steps, every int
			all          bool
			workers      int
			broad        string
		}{"brownian", 60, 30, 1, true, 2, b})
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/n=%d/all=%v/%s", tc.name, tc.n, tc.all, tc.broad), func(t *testing.T) {
			s, err := Builtin(tc.name, tc.n, 5)
			if err != nil {
				t.Fatal(err)
			}
			o := Options{Steps: tc.steps, World: world.Options{All: tc.all, Workers: tc.workers}}
			if tc.broad != "" {
				if o.World.Broad, err = world.NewBroad(tc.broad); err != nil {
					t.Fatal(err)
				}
			}
			sampled, contacts := 0, 0
			_, err = Play(s, o, func(p *Player, st world.StepStats) error {
				if p.Steps()%tc.every == 0 || p.Steps() == 1 {
					sampled++
					contacts += checkPairwise(t, p, tc.all)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if contacts == 0 {
				t.Errorf("no contact in %d sampled steps: the test tests nothing", sampled)
			}
			t.Logf("%d contacts in %d sampled steps", contacts, sampled)
		})
	}
}

// TestPlayMovesOnlyMoving checks that static objects are never moved and
// that objects whose path stopped are not moved again: a settled fall, a
// pose file past its end.
func TestPlayMovesOnlyMoving(t *testing.T) {
	s, err := Builtin("fall", 40, 2)
	if err != nil {
		t.Fatal(err)
	}
	s.Models = append(s.Models, Model{Name: "floor", Mesh: centeredBox(geom.V(100, 100, 1), 1)})
	s.Objects = append(s.Objects,
		Object{Name: "floor", Model: "floor", Pose: geom.Translation(geom.V(0, 0, -0.5)), Static: true},
		Object{Name: "replay", Model: "box", Pose: geom.Identity(), Motion: Poses{Poses: []geom.Pose{geom.Identity(), geom.Translation(geom.V(1, 0, 0)), geom.Translation(geom.V(2, 0, 0))}}},
	)
	moved := make([]int, 0, 800)
	p, err := NewPlayer(s, world.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Moving() != 41 {
		t.Errorf("%d moving objects, want 41", p.Moving())
	}
	floor := p.ID(40)
	if _, err := p.Play(800, func(p *Player, st world.StepStats) error {
		moved = append(moved, st.Moved)
		if got := p.World().Pose(floor); got != s.Objects[40].Pose {
			t.Fatalf("step %d: the static floor moved to %v", p.Steps(), got)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if moved[0] != 42 || moved[1] != 41 || moved[3] != 40 {
		t.Errorf("moved %v at the first steps, want 42 (all added), 41, 41, 40 (the replay ended)", moved[:4])
	}
	if last := moved[len(moved)-1]; last != 0 {
		t.Errorf("%d objects moved at step 800: the fall should have settled", last)
	}
}

// radius returns the largest distance of m's vertices from the origin.
func radius(m *mesh.TriMesh) float64 {
	r := 0.0
	for _, v := range m.Verts {
		r = max(r, v.Norm())
	}
	return r
}

// TestBuiltins makes every built-in scene twice (the same), and checks the
// parameters the CDFast paper gives.
func TestBuiltins(t *testing.T) {
	unit := geom.AABB{Max: geom.V(1, 1, 1)}
	for _, info := range Builtins() {
		n := 0
		if info.N > 0 && info.MaxN == MaxObjects {
			n = 50
		}
		a, err := Builtin(info.Name, n, 3)
		if err != nil {
			t.Fatalf("%s: %v", info.Name, err)
		}
		b, _ := Builtin(info.Name, n, 3)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two scenes of the same seed differ", info.Name)
		}
		c, _ := Builtin(info.Name, n, 4)
		if reflect.DeepEqual(a, c) {
			t.Errorf("%s: the seed changes nothing", info.Name)
		}
		if a.Steps != info.Steps || a.Name != "builtin:"+info.Name || a.Doc == "" {
			t.Errorf("%s: steps %d, name %q", info.Name, a.Steps, a.Name)
		}
		want := n
		if n == 0 {
			want = info.N
		}
		if !strings.HasPrefix(info.Name, "cdfast-") && len(a.Objects) != want {
			t.Errorf("%s: %d objects, want %d", info.Name, len(a.Objects), want)
		}
		if !strings.HasPrefix(info.Name, "cdfast-") {
			continue
		}
		if a.Bounds != unit || a.Steps != CDFastSteps {
			t.Errorf("%s: bounds %v, %d steps", info.Name, a.Bounds, a.Steps)
		}
		moving := 0
		for i, o := range a.Objects {
			m := a.Models[a.ModelIndex(o.Model)].Mesh
			box := m.Bounds().Transform(o.Pose)
			if o.Static {
				if !unit.Expanded(1e-12).ContainsBox(box) {
					t.Errorf("%s: objects[%d] (%s) at %v is not in the unit cube", info.Name, i, o.Name, box)
				}
				continue
			}
			moving++
			size := m.Bounds().Size()
			if strings.HasSuffix(info.Name, "-torus") {
				if d := 2 * (TorusMajor + TorusTube/2); math.Abs(size.X-d) > 2e-2*d || math.Abs(size.Z-TorusTube) > 2e-2*TorusTube {
					t.Errorf("%s: the torus is %v", info.Name, size)
				}
			} else if size.Sub(ElongatedSize).Norm() > 1e-12 {
				t.Errorf("%s: the elongated object is %v, want %v", info.Name, size, ElongatedSize)
			}
		}
		if moving != 1 {
			t.Errorf("%s: %d moving objects, want 1", info.Name, moving)
		}
		switch {
		case strings.HasPrefix(info.Name, "cdfast-spheres"):
			if len(a.Objects) != 51 {
				t.Errorf("%s: %d objects", info.Name, len(a.Objects))
			}
			if r := radius(a.Models[a.ModelIndex("sphere")].Mesh); math.Abs(r-CDFastSphereR) > 1e-15 {
				t.Errorf("%s: the spheres' radius is %v", info.Name, r)
			}
		case strings.HasPrefix(info.Name, "cdfast-mixed"):
			if size := a.Models[a.ModelIndex("hyperboloid1")].Mesh.Bounds().Size(); size.Sub(CDFastLargest).Norm() > 1e-12 {
				t.Errorf("%s: the hyperboloid is %v", info.Name, size)
			}
			if r := radius(a.Models[a.ModelIndex("sphere1")].Mesh); math.Abs(r-CDFastSmallestR) > 1e-15 {
				t.Errorf("%s: the smallest sphere's radius is %v", info.Name, r)
			}
		}
	}
	if _, err := Builtin("cdfast-spheres", 0, 1); err != nil {
		t.Errorf("the bare name: %v", err)
	}
	for _, bad := range []struct {
		name string
		n    int
	}{{"nothing", 0}, {"cdfast-room", 5}, {"brownian", -1}, {"brownian", MaxObjects + 1}, {"cdfast-spheres-torus", 5000}} {
		if _, err := Builtin(bad.name, bad.n, 1); err == nil {
			t.Errorf("Builtin(%q, %d): no error", bad.name, bad.n)
		}
	}
}

// TestFallTouchesFloor drops a ball, and a spinning box, onto a static
// floor (the bottom of the scene's default bounds) and checks that each
// comes to rest touching it, in contact, and never sinks into it by more
// than a hair: they hovered the default margin (half the box's diagonal,
// less the object's own extent) above it, 0.07 for a ball of radius 0.1.
func TestFallTouchesFloor(t *testing.T) {
	floor := &mesh.TriMesh{Verts: []geom.Vec3{{X: -2, Y: -2}, {X: 2, Y: -2}, {X: 2, Y: 2}, {X: -2, Y: 2}}, Tris: [][3]int32{{0, 1, 2}, {0, 2, 3}}}
	for _, tc := range []struct {
		name string
		m    *mesh.TriMesh
		spin float64
	}{
		{"ball", gen.Must(gen.Icosphere(geom.Vec3{}, 0.1, 320)), 0},
		{"box", centeredBox(geom.V(0.3, 0.2, 0.1), 1), 0.3},
	} {
		s := &Scene{Name: tc.name, Steps: 400}
		s.addModel("floor", floor)
		s.addModel("m", tc.m)
		s.add("floor", "floor", geom.Identity(), true, 0, nil)
		f := DefaultFall
		f.Spin = tc.spin
		f.Velocity = geom.V(0.3, -0.2, 0)
		s.add("o", "m", geom.FromQuat(geom.Quat{W: 1, X: 0.2, Y: 0.1}, geom.V(0.5, 0.5, 0.8)), false, 0, f)
		low := math.Inf(1)
		_, err := Play(s, Options{World: world.Options{Workers: 1}}, func(p *Player, st world.StepStats) error {
			w := p.World()
			pose := w.Pose(p.ID(1))
			low = math.Inf(1)
			for _, v := range tc.m.Verts {
				low = min(low, pose.Apply(v).Z)
			}
			if low < -1e-6 {
				return fmt.Errorf("step %d: the %s is %g into the floor", p.Steps(), tc.name, -low)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if low > 1e-6 {
			t.Errorf("%s: at rest %g above the floor", tc.name, low)
		}
		p, _ := NewPlayer(s, world.Options{Workers: 1})
		p.Play(s.Steps, nil)
		if _, ok := p.World().Contact(p.ID(0), p.ID(1)); !ok {
			t.Errorf("%s: at rest, not in contact with the floor", tc.name)
		}
	}
}
