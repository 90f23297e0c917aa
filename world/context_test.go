package world_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/world"
)

// event is a callback as a test records it.
type event struct {
	kind byte
	a, b world.ID
	n    int
}

// recorder returns callbacks that append their events to *evs.
func recorder(evs *[]event) world.Callbacks {
	rec := func(kind byte) func(c *world.Contact) {
		return func(c *world.Contact) { *evs = append(*evs, event{kind, c.A, c.B, c.Len()}) }
	}
	return world.Callbacks{Begin: rec('b'), Keep: rec('k'), End: rec('e')}
}

// contactsOf returns the world's contacts: the pairs of objects and their
// triangle pairs, read with the iterators.
func contactsOf(w *world.World) map[[2]world.ID][]world.TriPair {
	out := map[[2]world.ID][]world.TriPair{}
	for c := range w.AllContacts() {
		out[[2]world.ID{c.A, c.B}] = slices.Collect(c.All())
	}
	return out
}

func sameContacts(a, b map[[2]world.ID][]world.TriPair, all bool) error {
	if len(a) != len(b) {
		return fmt.Errorf("%d contacts, want %d", len(a), len(b))
	}
	for k, ps := range b {
		g, ok := a[k]
		if !ok {
			return fmt.Errorf("no contact %v", k)
		}
		if all && !slices.Equal(g, ps) {
			return fmt.Errorf("contact %v: pairs %v, want %v", k, g, ps)
		}
	}
	return nil
}

// cancelAfter returns a context cancelled by the k-th call of the function
// it also returns (a world's tested hook: after k pairs' exact tests).
func cancelAfter(k int64) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var n atomic.Int64
	return ctx, func() {
		if n.Add(1) == k {
			cancel()
		}
	}
}

// TestStepContextAbandons plays two worlds through the same seeded scene
// (adds, moves, removes): one steps with Step; the other first tries each
// step with a context cancelled after k pairs' exact tests (k random, 0
// before the first), which must return an error wrapping
// context.Canceled, make no callback and leave the contacts of the last
// complete step; then the same changes are made to both (so that the
// step done again has more to do), and both step. Their contacts,
// callbacks and step numbers must be the same after every step, and equal
// to testing every pair (checkContacts), whatever the workers, the mode,
// the fronts and the broad phase.
func TestStepContextAbandons(t *testing.T) {
	ms := models(t, collide.KDOP18)
	opts := []world.Options{
		{All: true, Workers: 1}, {Workers: 1}, {All: true, Workers: 3}, {Workers: 2, Fronts: world.FrontOn},
		{All: true, Workers: 2, Fronts: world.FrontOn, Static: true}, {All: true, Eps: 0.05, Workers: 1},
	}
	// Every broad phase (the rollback marks the objects moved again in
	// it), CDFast's spheres too.
	broads := make([]string, len(opts))
	for _, name := range world.BroadPhases() {
		mk, err := world.NewBroad(name)
		if err != nil {
			t.Fatal(err)
		}
		opts = append(opts, world.Options{All: true, Workers: 2, Broad: mk, Spheres: name == "rgrid"})
		broads = append(broads, name)
	}
	for i, o := range opts {
		t.Run(fmt.Sprintf("%d/all=%v/workers=%d/fronts=%v/static=%v/broad=%s", i, o.All, o.Workers, o.Fronts, o.Static, broads[i]), func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, uint64(o.Workers)))
			a, err := world.New(o)
			if err != nil {
				t.Fatal(err)
			}
			b, err := world.New(o)
			if err != nil {
				t.Fatal(err)
			}
			var evA, evB []event
			a.SetCallbacks(recorder(&evA))
			b.SetCallbacks(recorder(&evB))
			both := func(f func(w *world.World) error) {
				t.Helper()
				if err := f(a); err != nil {
					t.Fatal(err)
				}
				if err := f(b); err != nil {
					t.Fatal(err)
				}
			}
			var live []world.ID
			add := func(static bool) {
				m, p := ms[r.IntN(len(ms))], scenePose(r, r.IntN(3), 6)
				ia, err := a.Add(m, p, world.ObjectOptions{Static: static})
				if err != nil {
					t.Fatal(err)
				}
				ib, err := b.Add(m, p, world.ObjectOptions{Static: static})
				if err != nil {
					t.Fatal(err)
				}
				if ia != ib {
					t.Fatalf("Add gave IDs %d and %d", ia, ib)
				}
				live = append(live, ia)
			}
			change := func() {
				for i := 0; i < len(live); i++ {
					id := live[i]
					switch x := r.IntN(20); {
					case x < 6 && (!a.Static(id) || x == 0): // static objects move too, now and then
						p := scenePose(r, r.IntN(3), 6)
						both(func(w *world.World) error { return w.Move(id, p) })
					case x == 9:
						both(func(w *world.World) error { return w.Remove(id) })
						live = slices.Delete(live, i, i+1)
						i--
					case x == 10:
						add(false)
					}
				}
			}
			for i := range 30 {
				add(i%6 == 0)
			}
			abandoned := 0
			for step := range 10 {
				if step > 0 {
					change()
				}
				before := contactsOf(b)
				nev := len(evB)
				k := r.Int64N(40)
				ctx, hook := cancelAfter(k)
				world.SetTestedHook(b, hook)
				if k == 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithCancel(context.Background())
					cancel()
				}
				st, err := b.StepContext(ctx)
				world.SetTestedHook(b, nil)
				switch {
				case err == nil:
					// Fewer than k pairs to test: the step is done; so
					// must a's be.
					if _, err := a.Step(); err != nil {
						t.Fatal(err)
					}
				case errors.Is(err, context.Canceled):
					abandoned++
					if st != (world.StepStats{}) {
						t.Errorf("step %d: abandoned with stats %+v, want zero", step, st)
					}
					if len(evB) != nev {
						t.Errorf("step %d: abandoned after %d callbacks", step, len(evB)-nev)
					}
					if err := sameContacts(contactsOf(b), before, true); err != nil {
						t.Fatalf("step %d: abandoned: the contacts changed: %v", step, err)
					}
				default:
					t.Fatalf("step %d: StepContext: %v", step, err)
				}
				change()
				sa, err := a.Step()
				if err != nil {
					t.Fatal(err)
				}
				sb, err := b.StepContext(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if sa.Step != sb.Step || sa.Contacts != sb.Contacts || sa.Began != sb.Began || sa.Ended != sb.Ended || sa.Kept != sb.Kept || sa.Tested != sb.Tested {
					t.Fatalf("step %d: stats %+v, want those of a world never stopped %+v", step, sb, sa)
				}
				if err := sameContacts(contactsOf(b), contactsOf(a), o.All); err != nil {
					t.Fatalf("step %d: %v", step, err)
				}
				checkContacts(t, b, o.All, o.Eps, fmt.Sprintf("step %d", step))
				if len(evA) != len(evB) {
					t.Fatalf("step %d: %d callbacks, want %d", step, len(evB), len(evA))
				}
				for i := range evA {
					if x, y := evA[i], evB[i]; x.kind != y.kind || x.a != y.a || x.b != y.b || o.All && x.n != y.n {
						t.Fatalf("step %d: callback %d %+v, want %+v", step, i, y, x)
					}
				}
			}
			if abandoned < 5 {
				t.Errorf("only %d of 10 steps abandoned: the test tests little", abandoned)
			}
		})
	}
}

// TestStepContextRace cancels steps from another goroutine at whatever
// moment it comes (the assertion holds for any): each StepContext either
// completes or is abandoned with context.Canceled, and a final Step gives
// the contacts of testing every pair.
func TestStepContextRace(t *testing.T) {
	ms := models(t, collide.KDOP18)
	r := rand.New(rand.NewPCG(11, 3))
	w, err := world.New(world.Options{All: true, Workers: 2, Fronts: world.FrontOn})
	if err != nil {
		t.Fatal(err)
	}
	var ids []world.ID
	for i := range 40 {
		id, err := w.Add(ms[i%len(ms)], scenePose(r, i%3, 6), world.ObjectOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	for range 20 {
		for _, id := range ids {
			if r.IntN(3) == 0 {
				if err := w.Move(id, scenePose(r, r.IntN(3), 6)); err != nil {
					t.Fatal(err)
				}
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { defer wg.Done(); cancel() }()
		_, err := w.StepContext(ctx)
		wg.Wait()
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Fatal(err)
		}
	}
	if _, err := w.Step(); err != nil {
		t.Fatal(err)
	}
	checkContacts(t, w, true, 0, "after the cancelled steps")
}

// TestStepContextDeadline: an expired context's error is
// context.DeadlineExceeded, and nothing changes.
func TestStepContextDeadline(t *testing.T) {
	ms := models(t, collide.KDOP18)
	w, _ := world.New(world.Options{})
	w.Add(ms[0], geom.Pose{}, world.ObjectOptions{})
	w.Add(ms[1], geom.Pose{T: geom.V(1.5, 0, 0)}, world.ObjectOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	<-ctx.Done()
	if _, err := w.StepContext(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("StepContext(expired) = %v, want context.DeadlineExceeded", err)
	}
	if w.NumContacts() != 0 {
		t.Fatalf("%d contacts after a step not begun", w.NumContacts())
	}
	st, err := w.Step()
	if err != nil || st.Step != 1 || st.Contacts != 1 {
		t.Fatalf("Step() = %+v, %v; want step 1, one contact (the zero Pose the identity)", st, err)
	}
}

// TestIterators checks that AllContacts, AllObjects and Contact.All give
// the callbacks' sequences (Contacts, Objects, Pairs with Env as A's
// triangle), that At and Len agree, and that breaking out of a loop stops
// each iterator.
func TestIterators(t *testing.T) {
	ms := models(t, collide.KDOP18)
	r := rand.New(rand.NewPCG(3, 3))
	w, _ := world.New(world.Options{All: true})
	for i := range 30 {
		if _, err := w.Add(ms[i%len(ms)], scenePose(r, i%3, 5), world.ObjectOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	w.Remove(4)
	if _, err := w.Step(); err != nil {
		t.Fatal(err)
	}
	var objs []world.ID
	w.Objects(func(id world.ID) bool { objs = append(objs, id); return true })
	if got := slices.Collect(w.AllObjects()); !slices.Equal(got, objs) || len(got) != 29 {
		t.Fatalf("AllObjects = %v, want %v (29 objects)", got, objs)
	}
	var cs []*world.Contact
	w.Contacts(func(c *world.Contact) bool { cs = append(cs, c); return true })
	if len(cs) < 3 {
		t.Fatalf("%d contacts: the scene tests little", len(cs))
	}
	if got := slices.Collect(w.AllContacts()); !slices.Equal(got, cs) {
		t.Fatalf("AllContacts differs from Contacts")
	}
	multi := 0
	for _, c := range cs {
		all := slices.Collect(c.All())
		if len(all) != c.Len() || c.Len() != len(c.Pairs) {
			t.Fatalf("contact %d-%d: All has %d pairs, Len %d, Pairs %d", c.A, c.B, len(all), c.Len(), len(c.Pairs))
		}
		for i, tp := range all {
			if want := (world.TriPair{A: c.Pairs[i].Env, B: c.Pairs[i].Fly}); tp != want || c.At(i) != want {
				t.Fatalf("contact %d-%d: pair %d: All %v, At %v, want %v", c.A, c.B, i, tp, c.At(i), want)
			}
			// A's triangle is one of A's model's, B's of B's.
			if int(tp.A) >= len(w.Model(c.A).Mesh().Tris) || int(tp.B) >= len(w.Model(c.B).Mesh().Tris) {
				t.Fatalf("contact %d-%d: pair %v out of its models' triangles", c.A, c.B, tp)
			}
		}
		if c.Len() > 1 {
			multi++
			n := 0
			for range c.All() {
				n++
				break
			}
			if n != 1 {
				t.Fatalf("break after one pair: %d iterations", n)
			}
		}
	}
	if multi == 0 {
		t.Fatal("no contact with several pairs: the test tests little")
	}
	// Break stops the world's iterators.
	n := 0
	for range w.AllContacts() {
		if n++; n == 2 {
			break
		}
	}
	m := 0
	for range w.AllObjects() {
		if m++; m == 3 {
			break
		}
	}
	if n != 2 || m != 3 {
		t.Fatalf("break: %d contacts and %d objects visited, want 2 and 3", n, m)
	}
	// A contact's iterator allocates nothing.
	c := cs[0]
	if a := testing.AllocsPerRun(100, func() {
		for tp := range c.All() {
			_ = tp
		}
	}); a != 0 {
		t.Errorf("Contact.All allocates %v times", a)
	}
}

// TestTriPairsNameObjects checks that TriPair.A is a triangle of object A
// when A is the smaller model (tested in B's frame, its triangles swapped
// into place) and when it is the larger: the triangles named touch at the
// objects' poses.
func TestTriPairsNameObjects(t *testing.T) {
	ms := models(t, collide.KDOP18)
	small, large := ms[1], ms[0] // a cube of 12 triangles, a sphere of 80
	for _, order := range [][2]*collide.Model{{small, large}, {large, small}} {
		w, _ := world.New(world.Options{All: true})
		a, _ := w.Add(order[0], geom.Pose{}, world.ObjectOptions{})
		b, _ := w.Add(order[1], geom.Pose{T: geom.V(1.6, 0.1, 0.05)}, world.ObjectOptions{})
		if _, err := w.Step(); err != nil {
			t.Fatal(err)
		}
		c, ok := w.Contact(a, b)
		if !ok {
			t.Fatal("no contact")
		}
		for tp := range c.All() {
			ta := w.Pose(c.A).ApplyTriangle(w.Model(c.A).Mesh().Triangle(int(tp.A)))
			tb := w.Pose(c.B).ApplyTriangle(w.Model(c.B).Mesh().Triangle(int(tp.B)))
			if !geom.TriTri(ta, tb) {
				t.Fatalf("objects %d (%d triangles), %d: pair %v does not touch", c.A, len(w.Model(c.A).Mesh().Tris), c.B, tp)
			}
		}
	}
}

// BenchmarkStepContext times BenchmarkStep's steps of 1,000 objects on one
// worker under a context that is never done (Step: no look at it) and
// under a live cancellable one (a receive that does not block between two
// pairs), to measure the looks.
func BenchmarkStepContext(b *testing.B) {
	ms := models(b, collide.KDOP18)
	const n = 1000
	live, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, c := range []struct {
		name string
		ctx  context.Context
	}{{"background", context.Background()}, {"cancellable", live}} {
		b.Run(c.name, func(b *testing.B) {
			w, _ := world.New(world.Options{Workers: 1})
			r := rand.New(rand.NewPCG(1, 1))
			span := 4 * math.Cbrt(float64(n))
			poses := make([]geom.Pose, n)
			for i := range n {
				poses[i] = randPose(r, span)
				w.Add(ms[i%len(ms)], poses[i], world.ObjectOptions{})
			}
			w.Step()
			turn := geom.FromAxisAngle(geom.V(1, 2, 3), 0.01, geom.V(0.01, 0, 0))
			tested := 0
			b.ReportAllocs()
			for b.Loop() {
				for i := range n {
					poses[i] = turn.Compose(poses[i])
					w.Move(world.ID(i), poses[i])
				}
				st, err := w.StepContext(c.ctx)
				if err != nil {
					b.Fatal(err)
				}
				tested += st.Tested
			}
			b.ReportMetric(float64(tested)/float64(b.N), "tested/step")
		})
	}
}

// TestStepContextInCallback: StepContext from a callback is ErrInStep, as
// Step is, and changes nothing.
func TestStepContextInCallback(t *testing.T) {
	ms := models(t, collide.KDOP18)
	w, _ := world.New(world.Options{})
	var errs []error
	w.SetCallbacks(world.Callbacks{Begin: func(c *world.Contact) {
		_, err := w.StepContext(context.Background())
		errs = append(errs, err)
	}})
	w.Add(ms[0], geom.Pose{}, world.ObjectOptions{})
	w.Add(ms[0], geom.Pose{T: geom.V(1.5, 0, 0)}, world.ObjectOptions{})
	st, err := w.Step()
	if err != nil || st.Began != 1 || len(errs) != 1 || !errors.Is(errs[0], world.ErrInStep) {
		t.Fatalf("Step: %+v, %v; StepContext in Begin: %v", st, err, errs)
	}
}
