package world_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/world"
)

// models returns a few small models of the given BV: a sphere, a cube, a
// torus, an elongated box and a field of tetrahedra.
func models(t testing.TB, b collide.BV) []*collide.Model {
	t.Helper()
	ms := []*mesh.TriMesh{
		gen.Must(gen.Icosphere(geom.V(0, 0, 0), 1, 80)),
		gen.Must(gen.Box(geom.AABB{Min: geom.V(-1, -1, -1), Max: geom.V(1, 1, 1)}, 1)),
		gen.Must(gen.Torus(geom.V(0, 0, 0), 1, 0.3, 60)),
		gen.Must(gen.Box(geom.AABB{Min: geom.V(-2, -0.3, -0.3), Max: geom.V(2, 0.3, 0.3)}, 2)),
		gen.Must(gen.Tetrahedra(6, geom.AABB{Min: geom.V(-1.5, -1.5, -1.5), Max: geom.V(1.5, 1.5, 1.5)}, 0.5, 7)),
	}
	var out []*collide.Model
	for _, m := range ms {
		md, err := collide.Build(m, collide.BuildOptions{BV: b})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, md)
	}
	return out
}

func randPose(r *rand.Rand, span float64) geom.Pose {
	q := geom.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}
	return geom.FromQuat(q, geom.V(span*r.Float64(), span*r.Float64(), span*r.Float64()))
}

// scenePose returns the pose of object i at a step of a seeded scene: a
// random pose, an axis-aligned one on a lattice (cubes touching exactly at
// faces, edges and corners), or one whose rotation is off orthonormal by
// up to 1e-7.
func scenePose(r *rand.Rand, kind int, span float64) geom.Pose {
	switch kind {
	case 0:
		return randPose(r, span)
	case 1:
		return geom.Translation(geom.V(2*float64(r.IntN(4)), 2*float64(r.IntN(4)), 2*float64(r.IntN(3))))
	default:
		p := randPose(r, span)
		for i := range 3 {
			for j := range 3 {
				p.R[i][j] *= 1 + 3e-8*(2*r.Float64()-1)
			}
		}
		return p
	}
}

// oracle returns the contacts of a world by testing every pair of its
// objects (not both static, interesting) at the pose Step uses.
func oracle(t *testing.T, w *world.World, all bool, eps float64) map[[2]world.ID][]collide.Pair {
	t.Helper()
	var ids []world.ID
	w.Objects(func(id world.ID) bool { ids = append(ids, id); return true })
	out := map[[2]world.ID][]collide.Pair{}
	for i, a := range ids {
		for _, b := range ids[i+1:] {
			if !w.Interested(a, b) {
				continue
			}
			env, fly, pose := w.RelativePose(a, b)
			res, err := collide.Check(w.Model(env), w.Model(fly), pose, collide.QueryOptions{All: true, Eps: eps})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Collide {
				continue
			}
			ps := res.Pairs
			if env != a {
				ps = slices.Clone(ps)
				for j := range ps {
					ps[j].Env, ps[j].Fly = ps[j].Fly, ps[j].Env
				}
				slices.SortFunc(ps, collide.ComparePairs)
			}
			out[[2]world.ID{a, b}] = ps
		}
	}
	_ = all
	return out
}

// checkContacts compares a world's contacts with the oracle's: the same
// pairs of objects, and the same triangle pairs (all mode) or one of them.
func checkContacts(t *testing.T, w *world.World, all bool, eps float64, where string) {
	t.Helper()
	want := oracle(t, w, all, eps)
	got := map[[2]world.ID][]collide.Pair{}
	w.Contacts(func(c *world.Contact) bool {
		got[[2]world.ID{c.A, c.B}] = slices.Clone(c.Pairs)
		return true
	})
	for k, ps := range want {
		g, ok := got[k]
		if !ok {
			t.Fatalf("%s: objects %d and %d touch (%d triangle pairs, first %v) but the world has no contact; boxes %v %v", where, k[0], k[1], len(ps), ps[0], w.Bounds(k[0]), w.Bounds(k[1]))
		}
		if all && !slices.Equal(g, ps) {
			t.Fatalf("%s: objects %d and %d: world pairs %v, want %v", where, k[0], k[1], g, ps)
		}
		if !all && (len(g) != 1 || !slices.Contains(ps, g[0])) {
			t.Fatalf("%s: objects %d and %d: first contact %v is not one of %v", where, k[0], k[1], g, ps)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Fatalf("%s: world contact %d-%d that the pairwise test does not find", where, k[0], k[1])
		}
	}
}

// TestWorldOracle plays seeded scenes of random, lattice and nearly
// orthonormal poses, with adds, moves and removes, and checks the contacts
// after every step against testing every pair of objects, for several
// bounding volumes, both modes, a tolerance and several worker counts, with
// the default broad phase; TestWorldBroadPhases plays them with every broad
// phase.
func TestWorldOracle(t *testing.T) {
	for _, b := range []collide.BV{collide.KDOP18, collide.OBB, collide.AABB, collide.Sphere, collide.RSS, collide.KDOP6} {
		ms := models(t, b)
		for _, o := range []world.Options{{All: true, Workers: 1}, {Workers: 2}, {All: true, Eps: 0.05, Workers: 3}, {All: true, Workers: 2, Fronts: world.FrontOn}, {Eps: 0.02, Fronts: world.FrontOn}, {All: true, Fronts: world.FrontOff}} {
			t.Run(fmt.Sprintf("%v/all=%v/eps=%v/workers=%d", b, o.All, o.Eps, o.Workers), func(t *testing.T) {
				playOracle(t, ms, o, uint64(b)+1)
			})
		}
	}
}

func TestWorldBroadPhases(t *testing.T) {
	ms := models(t, collide.KDOP18)
	for _, name := range world.BroadPhases() {
		mk, err := world.NewBroad(name)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(3) {
			t.Run(fmt.Sprintf("%s/seed=%d", name, seed), func(t *testing.T) {
				playOracle(t, ms, world.Options{All: true, Broad: mk}, seed)
			})
		}
	}
	// CDFast's spheres at levels of detail 0 to 2 bound the moving objects.
	mk, _ := world.NewBroad("rgrid")
	for l := range 3 {
		t.Run(fmt.Sprintf("rgrid/spheres=%d", l), func(t *testing.T) {
			playOracle(t, ms, world.Options{All: true, Broad: mk, Spheres: true, SphereLevel: l}, uint64(l))
		})
	}
}

// playOracle plays one seeded scene and checks every step with oracle.
func playOracle(t *testing.T, ms []*collide.Model, o world.Options, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 99))
	w, err := world.New(o)
	if err != nil {
		t.Fatal(err)
	}
	var live []world.ID
	for i := range 40 {
		p := scenePose(r, i%3, 7)
		id, err := w.Add(ms[i%len(ms)], p, world.ObjectOptions{Static: i%5 == 0})
		if err != nil {
			t.Fatal(err)
		}
		live = append(live, id)
	}
	for step := range 12 {
		if _, err := w.Step(); err != nil {
			t.Fatal(err)
		}
		checkContacts(t, w, o.All, o.Eps, fmt.Sprintf("step %d", step))
		for i := 0; i < len(live); i++ {
			id := live[i]
			switch x := r.IntN(20); {
			case x < 8 && !w.Static(id):
				if err := w.Move(id, scenePose(r, (i+step)%3, 7)); err != nil {
					t.Fatal(err)
				}
			case x == 9:
				if err := w.Remove(id); err != nil {
					t.Fatal(err)
				}
				live = slices.Delete(live, i, i+1)
				i--
			case x == 10:
				id, err := w.Add(ms[r.IntN(len(ms))], scenePose(r, step%3, 7), world.ObjectOptions{})
				if err != nil {
					t.Fatal(err)
				}
				live = append(live, id)
			}
		}
	}
}

// TestCallbacks checks that Begin, Keep and End keep a set equal to the
// world's contacts, come in ascending order, and are the same whatever the
// number of workers and the balancing.
func TestCallbacks(t *testing.T) {
	ms := models(t, collide.KDOP18)
	type ev struct {
		kind byte
		a, b world.ID
		n    int
	}
	play := func(workers int, static bool) []ev {
		r := rand.New(rand.NewPCG(5, 5))
		w, err := world.New(world.Options{All: true, Workers: workers, Static: static})
		if err != nil {
			t.Fatal(err)
		}
		var evs []ev
		set := map[[2]world.ID]bool{}
		var last [2]world.ID
		check := func(kind byte, c *world.Contact) {
			k := [2]world.ID{c.A, c.B}
			if c.A >= c.B || k[0] < last[0] || k[0] == last[0] && k[1] < last[1] {
				t.Fatalf("callback %c for %v after %v: not ascending", kind, k, last)
			}
			last = k
			switch kind {
			case 'b':
				if set[k] {
					t.Fatalf("Begin for %v, which touches already", k)
				}
				set[k] = true
			case 'k', 'e':
				if !set[k] {
					t.Fatalf("%c for %v, which does not touch", kind, k)
				}
				if kind == 'e' {
					delete(set, k)
				}
			}
			evs = append(evs, ev{kind, c.A, c.B, len(c.Pairs)})
		}
		w.SetCallbacks(world.Callbacks{
			Begin: func(c *world.Contact) { check('b', c) },
			Keep:  func(c *world.Contact) { check('k', c) },
			End:   func(c *world.Contact) { check('e', c) },
		})
		var ids []world.ID
		for i := range 300 {
			id, err := w.Add(ms[i%len(ms)], randPose(r, 14), world.ObjectOptions{Static: i%7 == 0})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		for step := range 8 {
			last = [2]world.ID{-1, -1}
			if _, err := w.Step(); err != nil {
				t.Fatal(err)
			}
			n := 0
			w.Contacts(func(c *world.Contact) bool {
				if !set[[2]world.ID{c.A, c.B}] {
					t.Fatalf("step %d: contact %d-%d without a Begin", step, c.A, c.B)
				}
				n++
				return true
			})
			if n != len(set) {
				t.Fatalf("step %d: %d contacts, the callbacks say %d", step, n, len(set))
			}
			for _, id := range ids {
				if !w.Static(id) && r.IntN(3) == 0 {
					p := w.Pose(id)
					p.T = p.T.Add(geom.V(r.NormFloat64()*0.3, r.NormFloat64()*0.3, r.NormFloat64()*0.3))
					if err := w.Move(id, p); err != nil {
						t.Fatal(err)
					}
				}
			}
			if step == 5 {
				for _, id := range ids[:50] {
					if err := w.Remove(id); err != nil {
						t.Fatal(err)
					}
				}
				ids = ids[50:]
			}
		}
		return evs
	}
	ref := play(1, false)
	if len(ref) < 50 {
		t.Fatalf("only %d callbacks: the scene does not exercise them", len(ref))
	}
	for _, c := range []struct {
		w int
		s bool
	}{{2, false}, {4, false}, {7, true}, {3, true}} {
		if got := play(c.w, c.s); !slices.Equal(got, ref) {
			t.Fatalf("workers %d static %v: callbacks differ from one worker's", c.w, c.s)
		}
	}
}

// counting wraps a broad phase and counts the calls of Pairs.
type counting struct {
	broad.Phase
	pairs int
}

func (c *counting) Pairs(fn func(a, b int32) bool) { c.pairs++; c.Phase.Pairs(fn) }

// TestNothingMoved checks that a step with nothing changed does no work.
func TestNothingMoved(t *testing.T) {
	ms := models(t, collide.KDOP18)
	var ph *counting
	w, _ := world.New(world.Options{Broad: func() broad.Phase { ph = &counting{Phase: broad.NewBrute()}; return ph }})
	for i := range 10 {
		if _, err := w.Add(ms[0], geom.Translation(geom.V(float64(i)*1.5, 0, 0)), world.ObjectOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	st, err := w.Step()
	if err != nil || st.Step != 1 || st.Contacts != 9 {
		t.Fatalf("first step: %+v, %v; want step 1 with 9 contacts", st, err)
	}
	for range 3 {
		st, err = w.Step()
		if err != nil || st.Step != 0 || st.Moved != 0 || st.Contacts != 9 {
			t.Fatalf("step with nothing moved: %+v, %v", st, err)
		}
	}
	if ph.pairs != 1 {
		t.Fatalf("the broad phase was asked for pairs %d times, want once", ph.pairs)
	}
	if err := w.Move(3, geom.Translation(geom.V(100, 0, 0))); err != nil {
		t.Fatal(err)
	}
	st, _ = w.Step()
	if st.Moved != 1 || st.Ended != 2 || st.Contacts != 7 {
		t.Fatalf("after moving object 3 away: %+v, want 1 moved, 2 ended, 7 contacts", st)
	}
}

// TestInterest checks the group matrix and the pair overrides.
func TestInterest(t *testing.T) {
	ms := models(t, collide.KDOP18)
	w, _ := world.New(world.Options{})
	var ids []world.ID
	for i := range 6 {
		id, err := w.Add(ms[0], geom.Translation(geom.V(float64(i)*1.5, 0, 0)), world.ObjectOptions{Group: i % 2})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := w.SetGroupInterest(0, 1, false); err != nil {
		t.Fatal(err)
	}
	if err := w.SetInterest(ids[2], ids[3], true); err != nil {
		t.Fatal(err)
	}
	st, _ := w.Step()
	// Neighbours are always of different groups: only the override 2-3 is
	// tested.
	if st.Contacts != 1 {
		t.Fatalf("%d contacts, want 1 (the override)", st.Contacts)
	}
	if _, ok := w.Contact(ids[2], ids[3]); !ok {
		t.Fatal("the overridden pair is not in contact")
	}
	if w.Interested(ids[0], ids[1]) || !w.Interested(ids[3], ids[2]) || !w.Interested(ids[0], ids[2]) {
		t.Fatal("Interested disagrees with the matrix")
	}
	if err := w.SetGroupInterest(-1, 0, true); err == nil {
		t.Fatal("a negative group was accepted")
	}
	if err := w.Remove(ids[2]); err != nil {
		t.Fatal(err)
	}
	w.Step()
	if w.Interested(ids[2], ids[3]) {
		t.Fatal("an override outlived its object")
	}
}

// TestBoundsTight checks that a rotated object's world box is its hull's
// box at the pose, within the pad, and far tighter than a sphere's.
func TestBoundsTight(t *testing.T) {
	m := gen.Must(gen.Box(geom.AABB{Min: geom.V(-4, -0.1, -0.1), Max: geom.V(4, 0.1, 0.1)}, 1))
	md, _ := collide.Build(m, collide.BuildOptions{})
	w, _ := world.New(world.Options{})
	r := rand.New(rand.NewPCG(1, 2))
	id, _ := w.Add(md, geom.Identity(), world.ObjectOptions{})
	for i := range 200 {
		p := randPose(r, 1e3*float64(i%3))
		if err := w.Move(id, p); err != nil {
			t.Fatal(err)
		}
		w.Step()
		exact := geom.EmptyAABB()
		for _, v := range m.Verts {
			exact = exact.AddPoint(p.Apply(v))
		}
		got := w.Bounds(id)
		if !got.ContainsBox(exact) {
			t.Fatalf("pose %d: box %v does not contain the vertices' box %v", i, got, exact)
		}
		slack := got.Size().Sub(exact.Size())
		if math.Max(slack.X, math.Max(slack.Y, slack.Z)) > 1e-9 {
			t.Fatalf("pose %d: box %v is looser than the vertices' box %v by %v", i, got, exact, slack)
		}
	}
}

// TestErrors checks the errors of bad calls.
func TestErrors(t *testing.T) {
	kd := models(t, collide.KDOP18)
	obb := models(t, collide.OBB)
	if _, err := world.New(world.Options{Eps: math.NaN()}); err == nil {
		t.Fatal("NaN eps accepted")
	}
	w, _ := world.New(world.Options{})
	if _, err := w.Add(kd[0], geom.Identity(), world.ObjectOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Add(obb[0], geom.Identity(), world.ObjectOptions{}); !errors.Is(err, collide.ErrInvalidQuery) {
		t.Fatalf("OBB model in a k-DOP world: %v", err)
	}
	if _, err := w.Add(nil, geom.Identity(), world.ObjectOptions{}); err == nil {
		t.Fatal("nil model accepted")
	}
	bad := geom.Identity()
	bad.R[0][0] = 1.001
	if _, err := w.Add(kd[1], bad, world.ObjectOptions{}); !errors.Is(err, collide.ErrInvalidPose) {
		t.Fatalf("non-rotation accepted: %v", err)
	}
	if _, err := w.Add(kd[1], geom.Identity(), world.ObjectOptions{Group: world.MaxGroups}); err == nil {
		t.Fatal("group out of range accepted")
	}
	if err := w.Move(7, geom.Identity()); !errors.Is(err, world.ErrNoObject) {
		t.Fatalf("Move of an absent object: %v", err)
	}
	if err := w.Remove(7); !errors.Is(err, world.ErrNoObject) {
		t.Fatalf("Remove of an absent object: %v", err)
	}
	id, _ := w.Add(kd[0], geom.Translation(geom.V(0.5, 0, 0)), world.ObjectOptions{})
	var inCB error
	w.SetCallbacks(world.Callbacks{Begin: func(c *world.Contact) {
		inCB = w.Remove(id)
		if _, err := w.Step(); !errors.Is(err, world.ErrInStep) {
			t.Errorf("Step from a callback: %v", err)
		}
	}})
	if _, err := w.Step(); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(inCB, world.ErrInStep) {
		t.Fatalf("Remove from a callback: %v", inCB)
	}
}

// TestConcurrentReads reads a world from many goroutines at once while no
// step runs (meaningful under the race detector).
func TestConcurrentReads(t *testing.T) {
	ms := models(t, collide.KDOP18)
	w, _ := world.New(world.Options{})
	r := rand.New(rand.NewPCG(3, 3))
	for i := range 100 {
		w.Add(ms[i%len(ms)], randPose(r, 8), world.ObjectOptions{})
	}
	w.Step()
	var wg sync.WaitGroup
	counts := make([]int, 4)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.Contacts(func(c *world.Contact) bool {
				if _, ok := w.Contact(c.A, c.B); ok && w.Interested(c.A, c.B) {
					counts[g]++
				}
				_ = w.Bounds(c.A)
				return true
			})
		}()
	}
	wg.Wait()
	for g := range counts {
		if counts[g] != w.NumContacts() || counts[g] == 0 {
			t.Fatalf("reader %d saw %d contacts of %d", g, counts[g], w.NumContacts())
		}
	}
}

// TestBoundsParallel checks that bounding many moved objects on several
// goroutines gives the boxes of one.
func TestBoundsParallel(t *testing.T) {
	ms := models(t, collide.KDOP18)
	var boxes [2][]geom.AABB
	for k, workers := range []int{1, 3} {
		w, _ := world.New(world.Options{Workers: workers, Broad: func() broadPhase { return nop{} }})
		r := rand.New(rand.NewPCG(8, 8))
		n := 10000
		for i := range n {
			w.Add(ms[i%len(ms)], randPose(r, 50), world.ObjectOptions{})
		}
		w.Step()
		for i := range n {
			w.Move(world.ID(i), randPose(r, 50))
		}
		w.Step()
		for i := range n {
			boxes[k] = append(boxes[k], w.Bounds(world.ID(i)))
		}
	}
	if !slices.Equal(boxes[0], boxes[1]) {
		t.Fatal("boxes bounded on 3 goroutines differ from those of one")
	}
}

// TestStepStillAllocatesNothing checks that a step with nothing moved
// allocates nothing: its stats were put on the heap, 176 bytes a step,
// which a play of 2^30 steps kept adding to its garbage.
func TestStepStillAllocatesNothing(t *testing.T) {
	ms := models(t, collide.KDOP18)
	w, err := world.New(world.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range ms {
		if _, err := w.Add(m, geom.Translation(geom.V(float64(i), 0, 0)), world.ObjectOptions{Static: i == 0}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Step(); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { w.Step() }); n != 0 {
		t.Errorf("a step with nothing moved allocates %v times", n)
	}
}

// TestMovedStaticStaysStatic moves a static box onto another static box,
// and onto a moving one, under every broad phase: the two static boxes
// are never tested (no Begin, no Contact), as the package documentation
// says, while the moved static box and the moving one are. They were
// tested and reported in contact: the broad phases made a moved static
// object a moving one.
func TestMovedStaticStaysStatic(t *testing.T) {
	box := func() *collide.Model {
		m, err := collide.Build(gen.Must(gen.Box(geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(1, 1, 1)}, 1)), collide.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}()
	for _, name := range world.BroadPhases() {
		mk, _ := world.NewBroad(name)
		w, err := world.New(world.Options{Broad: mk, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		var began [][2]world.ID
		w.SetCallbacks(world.Callbacks{Begin: func(c *world.Contact) { began = append(began, [2]world.ID{c.A, c.B}) }})
		a, _ := w.Add(box, geom.Translation(geom.V(0, 0, 0)), world.ObjectOptions{Static: true})
		b, _ := w.Add(box, geom.Translation(geom.V(5, 0, 0)), world.ObjectOptions{Static: true})
		c, _ := w.Add(box, geom.Translation(geom.V(10, 0, 0)), world.ObjectOptions{})
		if _, err := w.Step(); err != nil {
			t.Fatal(err)
		}
		// b onto a: both static.
		if err := w.Move(b, geom.Translation(geom.V(0.5, 0.5, 0))); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Step(); err != nil {
			t.Fatal(err)
		}
		if _, ok := w.Contact(a, b); ok || len(began) != 0 || !w.Static(b) {
			t.Errorf("%s: two static objects, one moved onto the other: contact %v, began %v, static %v", name, ok, began, w.Static(b))
		}
		// b onto the moving c, still static: tested against it.
		if err := w.Move(b, geom.Translation(geom.V(10.5, 0, 0))); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Step(); err != nil {
			t.Fatal(err)
		}
		if _, ok := w.Contact(b, c); !ok || !slices.Equal(began, [][2]world.ID{{b, c}}) {
			t.Errorf("%s: a static object moved onto a moving one: contact %v, began %v", name, ok, began)
		}
		// Back onto a, with c there too: only the pair with c.
		if err := w.Move(c, geom.Translation(geom.V(0.2, 0.3, 0.4))); err != nil {
			t.Fatal(err)
		}
		if err := w.Move(b, geom.Translation(geom.V(0.5, 0, 0))); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Step(); err != nil {
			t.Fatal(err)
		}
		var got [][2]world.ID
		w.Contacts(func(k *world.Contact) bool { got = append(got, [2]world.ID{k.A, k.B}); return true })
		if want := [][2]world.ID{{a, c}, {b, c}}; !slices.Equal(got, want) {
			t.Errorf("%s: contacts %v, want %v", name, got, want)
		}
	}
}
