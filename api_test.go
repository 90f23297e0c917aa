package collide_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/ccd"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh/gen"
)

// sortedPairs returns ps as [env, fly] pairs, sorted.
func sortedPairs(ps []collide.Pair) [][2]int32 {
	out := make([][2]int32, len(ps))
	for i, p := range ps {
		out[i] = [2]int32{p.Env, p.Fly}
	}
	slices.SortFunc(out, func(a, b [2]int32) int {
		if a[0] != b[0] {
			return int(a[0] - b[0])
		}
		return int(a[1] - b[1])
	})
	return out
}

// TestCollideBothPoses checks the pairwise query with both models placed:
// on the adversarial scenes, at random relative poses where the models
// meet and random environment poses near and far from the origin (10^6
// sizes), Collide, Query.Collide, CollideFunc and Pairs at (envPose,
// flyPose) find exactly the brute-force oracle's pairs at the relative
// pose envPose⁻¹∘flyPose as composed, which Check at that pose finds too;
// first contact gives one of them; and with a tolerance the same holds.
func TestCollideBothPoses(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 1))
	scenes := testgeom.AdversarialScenes(11)
	checked := 0
	for bi, b := range []collide.BV{collide.KDOP18, collide.OBB, collide.AABB, collide.Sphere, collide.Brute} {
		var q collide.Query
		for si, sc := range scenes {
			if !longtest.Enabled() && (si+bi)%3 != 0 {
				continue // by default a third of the scenes per volume, in turn
			}
			env, err := collide.Build(sc.Env, collide.BuildOptions{BV: b})
			if err != nil {
				t.Fatal(err)
			}
			fly, err := collide.Build(sc.Fly, collide.BuildOptions{BV: b})
			if err != nil {
				t.Fatal(err)
			}
			size := sc.Env.Bounds().Size().Norm()
			c := sc.Env.Bounds().Center()
			for i, far := range []float64{0, 1, 1e6} {
				rel := randomPose(rng, 0.05*size)
				rel.T = rel.T.Add(c).Sub(rel.R.MulVec(c)) // about the scene's centre: the models still meet
				envPose := randomPose(rng, far*size)
				flyPose := envPose.Compose(rel)
				pose := collide.RelativePose(envPose, flyPose)
				name := sc.Name + "/" + b.String()
				for _, eps := range []float64{0, 0.01 * size} {
					want := testgeom.Brute(sc.Env, sc.Fly, pose, eps)
					checked += len(want)
					o := collide.QueryOptions{All: true, Eps: eps}
					r, err := collide.Collide(env, envPose, fly, flyPose, o)
					if err != nil {
						t.Fatalf("%s pose %d: %v", name, i, err)
					}
					if got := pairsOf(r); !slices.Equal(got, want) || r.Collide != (len(want) > 0) {
						t.Fatalf("%s pose %d eps %g: Collide %d pairs, oracle %d", name, i, eps, len(got), len(want))
					}
					if got := pairsOf(mustCheck(t, env, fly, pose, o)); !slices.Equal(got, want) {
						t.Fatalf("%s pose %d eps %g: Check at the relative pose %d pairs, oracle %d", name, i, eps, len(got), len(want))
					}
					qr, err := q.Collide(env, envPose, fly, flyPose, o)
					if err != nil || !slices.Equal(pairsOf(qr), want) {
						t.Fatalf("%s pose %d eps %g: Query.Collide %d pairs (%v), oracle %d", name, i, eps, len(qr.Pairs), err, len(want))
					}
					var fn []collide.Pair
					if _, err := q.CollideFunc(env, envPose, fly, flyPose, o, func(p collide.Pair) bool { fn = append(fn, p); return true }); err != nil || !slices.Equal(sortedPairs(fn), want) {
						t.Fatalf("%s pose %d eps %g: CollideFunc %d pairs (%v), oracle %d", name, i, eps, len(fn), err, len(want))
					}
					seq, err := q.Pairs(env, envPose, fly, flyPose, o)
					if err != nil {
						t.Fatal(err)
					}
					var it []collide.Pair
					for p := range seq {
						it = append(it, p)
					}
					if !slices.Equal(sortedPairs(it), want) {
						t.Fatalf("%s pose %d eps %g: Pairs %d pairs, oracle %d", name, i, eps, len(it), len(want))
					}
					first, err := collide.Collide(env, envPose, fly, flyPose, collide.QueryOptions{Eps: eps})
					switch {
					case err != nil:
						t.Fatal(err)
					case len(want) == 0 && first.Collide:
						t.Fatalf("%s pose %d: first contact %v, oracle none", name, i, first.Pairs)
					case len(want) > 0 && (len(first.Pairs) != 1 || !slices.Contains(want, pairsOf(first)[0])):
						t.Fatalf("%s pose %d: first contact %v is not an oracle pair", name, i, first.Pairs)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no scene had a pair in contact")
	}
}

// TestZeroPoseIsIdentity checks that the zero Pose is the identity in
// every pairwise call, for either model, that Pose{T: v} is the
// translation by v, and that the deprecated calls answer as the new ones
// with the environment at the identity: the same pairs, distances, times
// and counts.
func TestZeroPoseIsIdentity(t *testing.T) {
	ctx := context.Background()
	_, _, poses := torusScene(t, collide.Brute)
	for _, b := range []collide.BV{collide.KDOP18, collide.RSS, collide.Brute} {
		env, fly := smallScene(t, b)
		var q collide.Query
		for i, p := range poses[:16] {
			o := collide.QueryOptions{All: true}
			want := mustCheck(t, env, fly, p, o)
			for _, ep := range []geom.Pose{{}, geom.Identity()} {
				got, err := collide.Collide(env, ep, fly, p, o)
				if err != nil || !slices.Equal(got.Pairs, want.Pairs) || got.Stats != want.Stats {
					t.Fatalf("%v pose %d, env at %v: %v %v %v, Check: %v %v", b, i, ep, got.Pairs, got.Stats, err, want.Pairs, want.Stats)
				}
			}
			v, w := p.T, geom.V(0.5, -0.25, 0.125)
			a, err1 := q.Collide(env, geom.Pose{T: w}, fly, geom.Pose{T: v.Add(w)}, o)
			a.Pairs = slices.Clone(a.Pairs)
			c, err2 := q.Collide(env, geom.Translation(w), fly, geom.Translation(v.Add(w)), o)
			if err1 != nil || err2 != nil || !slices.Equal(a.Pairs, c.Pairs) || a.Stats != c.Stats {
				t.Fatalf("%v pose %d: Pose{T} %v, Translation %v (%v %v)", b, i, a.Pairs, c.Pairs, err1, err2)
			}
			d0, _ := collide.Distance(env, fly, p, collide.DistanceOptions{})
			d1, err := collide.DistanceBetween(ctx, env, geom.Pose{}, fly, p, collide.DistanceOptions{})
			if err != nil || d0 != d1 {
				t.Fatalf("%v pose %d: DistanceBetween %+v (%v), Distance %+v", b, i, d1, err, d0)
			}
			var n0, n1 []int32
			collide.Near(env, fly, p, 0.01, func(e int32) bool { n0 = append(n0, e); return true })
			q.NearTriangles(env, geom.Pose{}, fly, p, 0.01, func(e int32) bool { n1 = append(n1, e); return true })
			if !slices.Equal(n0, n1) {
				t.Fatalf("%v pose %d: NearTriangles %d triangles, Near %d", b, i, len(n1), len(n0))
			}
		}
		from, to := geom.Pose{T: geom.V(0, 0, 2)}, geom.Pose{T: geom.V(1, 0, 0.1)}
		t0, err0 := collide.TimeOfImpact(env, fly, geom.Translation(from.T), geom.Translation(to.T))
		t1, err1 := collide.Impact(ctx, env, geom.Pose{}, fly, from, to, collide.TOIOptions{})
		if err0 != nil || err1 != nil || t0 != t1 || !t1.Hit {
			t.Fatalf("%v: Impact %+v (%v), TimeOfImpact %+v (%v)", b, t1, err1, t0, err0)
		}
		if r, err := collide.Collide(env, geom.Identity(), fly, geom.Pose{}, collide.QueryOptions{All: true}); err != nil || r.Collide {
			t.Fatalf("%v: the sphere at the zero pose (inside the torus's hole) collides: %v %v", b, r.Pairs, err)
		}
	}
}

// TestPairsBreak checks that breaking out of a Pairs loop stops the query:
// fewer tests than the whole query's, and the pairs seen are in contact;
// CollideFunc's callback stops it the same way; without All the iterator
// yields one pair.
func TestPairsBreak(t *testing.T) {
	torus := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 4000))
	for _, b := range []collide.BV{collide.KDOP18, collide.OBB, collide.Brute} {
		env, err := collide.Build(torus, collide.BuildOptions{BV: b})
		if err != nil {
			t.Fatal(err)
		}
		fly, err := collide.Build(torus, collide.BuildOptions{BV: b})
		if err != nil {
			t.Fatal(err)
		}
		envPose := geom.FromAxisAngle(geom.V(0, 1, 0), 0.3, geom.V(5, 6, 7))
		flyPose := envPose.Compose(geom.FromAxisAngle(geom.V(1, 0, 0), 0.2, geom.V(0.05, 0, 0)))
		var q collide.Query
		o := collide.QueryOptions{All: true}
		full, err := q.CollideFunc(env, envPose, fly, flyPose, o, func(collide.Pair) bool { return true })
		if err != nil {
			t.Fatal(err)
		}
		all, _ := collide.Collide(env, envPose, fly, flyPose, o)
		if len(all.Pairs) < 20 {
			t.Fatalf("%v: only %d pairs", b, len(all.Pairs))
		}
		seq, err := q.Pairs(env, envPose, fly, flyPose, o)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for p := range seq {
			if !slices.Contains(all.Pairs, p) {
				t.Fatalf("%v: Pairs yielded %v, not in contact", b, p)
			}
			if n++; n == 3 {
				break
			}
		}
		st := q.IterStats()
		if n != 3 || st.TriTests >= full.TriTests || st.BVTests+st.LeafTests > full.BVTests+full.LeafTests {
			t.Errorf("%v: a break after %d pairs: %v; the whole query %v", b, n, st, full)
		}
		k := 0
		part, _ := q.CollideFunc(env, envPose, fly, flyPose, o, func(collide.Pair) bool { k++; return k < 3 })
		if k != 3 || part.TriTests >= full.TriTests {
			t.Errorf("%v: a callback stopping at pair %d: %v; the whole query %v", b, k, part, full)
		}
		one, _ := q.Pairs(env, envPose, fly, flyPose, collide.QueryOptions{})
		n = 0
		for range one {
			n++
		}
		if n != 1 {
			t.Errorf("%v: first contact yielded %d pairs", b, n)
		}
	}
}

// TestPoseErrors checks that each pairwise call rejects a bad pose of
// either model, and a relative pose that is not finite, with an error
// wrapping ErrInvalidPose that names the pose, before it calls back; and
// a nil context with ErrInvalidQuery.
func TestPoseErrors(t *testing.T) {
	env, fly, poses := torusScene(t, collide.KDOP18)
	good := poses[3]
	scaled := geom.Pose{R: geom.Mat3{{2, 0, 0}, {0, 1, 0}, {0, 0, 1}}}
	nan := geom.Translation(geom.V(math.NaN(), 0, 0))
	huge, minus := geom.Translation(geom.V(1e308, 0, 0)), geom.Translation(geom.V(-1e308, 0, 0))
	type pp struct{ env, fly geom.Pose }
	cases := []struct {
		name  string
		poses pp
		want  string
	}{
		{"env scaled", pp{scaled, good}, "the environment's pose"},
		{"env NaN", pp{nan, good}, "the environment's pose"},
		{"fly scaled", pp{geom.Identity(), scaled}, "the flying model's pose"},
		{"fly NaN at a posed env", pp{good, nan}, "the flying model's pose"},
		{"relative overflows", pp{huge, minus}, "the relative pose envPose⁻¹∘"},
	}
	ctx := context.Background()
	var q collide.Query
	called := false
	fn := func(collide.Pair) bool { called = true; return true }
	for _, c := range cases {
		e, f := c.poses.env, c.poses.fly
		errs := map[string]error{}
		_, errs["Collide"] = collide.Collide(env, e, fly, f, collide.QueryOptions{})
		_, errs["Query.Collide"] = q.Collide(env, e, fly, f, collide.QueryOptions{All: true})
		_, errs["CollideFunc"] = q.CollideFunc(env, e, fly, f, collide.QueryOptions{All: true}, fn)
		seq, err := q.Pairs(env, e, fly, f, collide.QueryOptions{All: true})
		errs["Pairs"] = err
		for range seq {
			called = true
		}
		_, errs["DistanceBetween"] = collide.DistanceBetween(ctx, env, e, fly, f, collide.DistanceOptions{})
		_, errs["Impact from"] = collide.Impact(ctx, env, e, fly, f, good, collide.TOIOptions{})
		_, errs["NearTriangles"] = q.NearTriangles(env, e, fly, f, 0.01, func(int32) bool { called = true; return true })
		for call, err := range errs {
			if !errors.Is(err, collide.ErrInvalidPose) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %s: %v, want ErrInvalidPose naming %q", c.name, call, err, c.want)
			}
		}
		if called {
			t.Errorf("%s: a callback or a loop ran", c.name)
		}
	}
	_, err := collide.Impact(ctx, env, geom.Pose{}, fly, good, scaled, collide.TOIOptions{})
	if !errors.Is(err, collide.ErrInvalidPose) || !strings.Contains(err.Error(), "(flyTo)") {
		t.Errorf("Impact, a bad end pose: %v", err)
	}
	//lint:ignore SA1012 a nil context is the error tested
	if _, err := collide.DistanceBetween(nil, env, geom.Pose{}, fly, good, collide.DistanceOptions{}); !errors.Is(err, collide.ErrInvalidQuery) { //nolint:staticcheck
		t.Errorf("DistanceBetween, a nil context: %v", err)
	}
	//lint:ignore SA1012 a nil context is the error tested
	if _, err := collide.Impact(nil, env, geom.Pose{}, fly, good, good, collide.TOIOptions{}); !errors.Is(err, collide.ErrInvalidQuery) { //nolint:staticcheck
		t.Errorf("Impact, a nil context: %v", err)
	}
}

// lateCancel is a context cancelled between the query's first look at it
// (Err, at its start, says nil) and its walk's (Done is closed): a
// cancellation during the call, without timing.
type lateCancel struct {
	context.Context
	done  chan struct{}
	calls atomic.Int32
}

func newLateCancel() *lateCancel {
	c := &lateCancel{Context: context.Background(), done: make(chan struct{})}
	close(c.done)
	return c
}

func (c *lateCancel) Done() <-chan struct{} { return c.done }

func (c *lateCancel) Err() error {
	if c.calls.Add(1) == 1 {
		return nil
	}
	return context.Canceled
}

// denseScene returns two dense tori (20,000 triangles each) of kind b,
// and a pose where they are apart by about 0.01 with much of their
// surfaces near: a long distance query.
func denseScene(t *testing.T, b collide.BV) (env, fly *collide.Model, near geom.Pose) {
	t.Helper()
	tor := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 20000))
	var err error
	if env, err = collide.Build(tor, collide.BuildOptions{BV: b}); err != nil {
		t.Fatal(err)
	}
	if fly, err = collide.Build(tor, collide.BuildOptions{BV: b}); err != nil {
		t.Fatal(err)
	}
	return env, fly, geom.Translation(geom.V(0, 0, 0.61))
}

func work(st collide.Stats) int64 { return st.BVTests + st.LeafTests + st.TriTests }

// TestContextCancel checks that a context stops DistanceBetween and Impact
// on dense models: cancelled before the call, it returns at once (no
// work), Stopped, with an error wrapping context.Canceled; cancelled
// during it (lateCancel), it stops the search part way with what it proved
// (Lower ≤ the distance ≤ Distance; no contact before TOI.Lo); a deadline
// passed gives context.DeadlineExceeded; context.Background changes
// nothing.
func TestContextCancel(t *testing.T) {
	env, fly, near := denseScene(t, collide.KDOP18)
	ep := geom.FromAxisAngle(geom.V(1, 1, 0), 0.4, geom.V(3, 2, 1))
	fp := ep.Compose(near)
	bg := context.Background()
	full, err := collide.DistanceBetween(bg, env, ep, fly, fp, collide.DistanceOptions{})
	if err != nil || full.Stopped || work(full.Stats) < 4*256 {
		t.Fatalf("no context: %+v %v (too little work to stop)", full, err)
	}
	cancelled, cancel := context.WithCancel(bg)
	cancel()
	past, cancel2 := context.WithDeadline(bg, time.Now().Add(-time.Second))
	defer cancel2()
	for _, c := range []struct {
		name string
		ctx  context.Context
		want error
	}{
		{"cancelled before", cancelled, context.Canceled},
		{"deadline passed", past, context.DeadlineExceeded},
		{"cancelled during", newLateCancel(), context.Canceled},
	} {
		r, err := collide.DistanceBetween(c.ctx, env, ep, fly, fp, collide.DistanceOptions{})
		if !errors.Is(err, c.want) || !r.Stopped || r.Far || work(r.Stats) >= work(full.Stats) {
			t.Errorf("distance, %s: %+v, %v; want Stopped and %v", c.name, r, err, c.want)
		}
		if r.Lower > full.Distance || r.Distance < full.Distance {
			t.Errorf("distance, %s: lower %g, distance %g, the whole search's %g", c.name, r.Lower, r.Distance, full.Distance)
		}
		if c.name != "cancelled during" && work(r.Stats) != 0 {
			t.Errorf("distance, %s: %v of work, want none", c.name, r.Stats)
		}
		if c.name == "cancelled during" && work(r.Stats) == 0 {
			t.Errorf("distance, %s: no work done", c.name)
		}
	}

	// A motion from far above down through the torus: many steps.
	from := ep.Compose(geom.Translation(geom.V(0.3, 0.2, 3)))
	to := ep.Compose(geom.FromAxisAngle(geom.V(0, 0, 1), 0.3, geom.V(0.3, 0.2, 0.4)))
	tfull, err := collide.Impact(bg, env, ep, fly, from, to, collide.TOIOptions{})
	if err != nil || tfull.Stopped || !tfull.Hit {
		t.Fatalf("impact, no context: %+v %v", tfull, err)
	}
	for _, c := range []struct {
		name string
		ctx  context.Context
		want error
	}{
		{"cancelled before", cancelled, context.Canceled},
		{"deadline passed", past, context.DeadlineExceeded},
		{"cancelled during", newLateCancel(), context.Canceled},
	} {
		r, err := collide.Impact(c.ctx, env, ep, fly, from, to, collide.TOIOptions{})
		if !errors.Is(err, c.want) || !r.Stopped || r.Hit || r.TOI.Lo > tfull.TOI.Hi || r.TOI.Hi != 1 {
			t.Errorf("impact, %s: %+v, %v; want Stopped and %v", c.name, r, err, c.want)
		}
		if c.name != "cancelled during" && (work(r.Stats) != 0 || r.TOI != (ccd.Interval{Lo: 0, Hi: 1})) {
			t.Errorf("impact, %s: %v of work, TOI %v, want none and [0, 1]", c.name, r.Stats, r.TOI)
		}
	}

	// Brute-force models look at the context between flying triangles.
	be, _ := collide.Build(gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 300)), collide.BuildOptions{BV: collide.Brute})
	bf, _ := collide.Build(gen.Must(gen.Icosphere(geom.Vec3{}, 0.1, 80)), collide.BuildOptions{BV: collide.Brute})
	if r, err := collide.DistanceBetween(newLateCancel(), be, geom.Pose{}, bf, geom.Pose{}, collide.DistanceOptions{}); !errors.Is(err, context.Canceled) || !r.Stopped || r.Lower != 0 {
		t.Errorf("brute-force distance, cancelled during: %+v, %v", r, err)
	}
}

// TestDistanceBetweenFrames checks DistanceBetween with both models
// placed: the answer of the query at the relative pose (the same distance,
// bit for bit, and witnesses), its witnesses placed in the common frame
// by envPose with Bound covering their rounding (|PEnv − PFly| within
// Bound of Distance), and the brute-force oracle's distance.
func TestDistanceBetweenFrames(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(32, 2))
	_, _, poses := torusScene(t, collide.Brute)
	be, bf := smallScene(t, collide.Brute)
	for _, b := range []collide.BV{collide.KDOP18, collide.OBB, collide.Brute} {
		env, fly := smallScene(t, b)
		for i, rel := range poses[:12] {
			rel.T = rel.T.Add(geom.V(0, 0, 0.1*float64(i%4)))
			envPose := randomPose(rng, []float64{1, 1e3, 1e6}[i%3])
			if i%4 == 3 {
				// A rotation only to within 10⁻⁶, as read from a file:
				// it stretches lengths by 10⁻⁷, which Bound covers.
				for r := range 3 {
					envPose.R[r] = [3]float64{envPose.R[r][0] * (1 + 1e-7), envPose.R[r][1] * (1 + 1e-7), envPose.R[r][2] * (1 + 1e-7)}
				}
			}
			flyPose := envPose.Compose(rel)
			pose := collide.RelativePose(envPose, flyPose)
			in, err := collide.DistanceBetween(ctx, env, geom.Pose{}, fly, pose, collide.DistanceOptions{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := collide.DistanceBetween(ctx, env, envPose, fly, flyPose, collide.DistanceOptions{})
			if err != nil {
				t.Fatal(err)
			}
			oracle, _ := collide.Distance(be, bf, pose, collide.DistanceOptions{})
			if r.Distance != in.Distance || r.Env != in.Env || r.Fly != in.Fly || r.Distance != oracle.Distance {
				t.Fatalf("%v pose %d: %g (%d, %d), at the relative pose %g (%d, %d), oracle %g", b, i, r.Distance, r.Env, r.Fly, in.Distance, in.Env, in.Fly, oracle.Distance)
			}
			if r.PEnv != envPose.Apply(in.PEnv) || r.PFly != envPose.Apply(in.PFly) || r.Bound < in.Bound || (r.Distance == 0) != (r.Bound == 0) {
				t.Fatalf("%v pose %d: witnesses %v %v bound %g; in env's frame %v %v bound %g", b, i, r.PEnv, r.PFly, r.Bound, in.PEnv, in.PFly, in.Bound)
			}
			if d := r.PEnv.Distance(r.PFly); math.Abs(d-r.Distance) > r.Bound {
				t.Fatalf("%v pose %d: |PEnv − PFly| = %g, Distance %g, Bound %g", b, i, d, r.Distance, r.Bound)
			}
		}
	}
}

// TestImpactFrames checks Impact with the environment placed: the answer
// of the motion relative to it, bit for bit; and for a translating motion
// the exact answer of brute-force models (the oracle), whose interval
// overlaps.
func TestImpactFrames(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(32, 3))
	env, fly := smallScene(t, collide.KDOP18)
	be, bf := smallScene(t, collide.Brute)
	for i := range 6 {
		envPose := randomPose(rng, []float64{1, 1e3, 1e6}[i%3])
		r0 := geom.FromAxisAngle(geom.V(rng.NormFloat64(), 1, 0), rng.Float64(), geom.V(1, 0, 1.5))
		r1 := r0
		r1.T = geom.V(1+0.1*rng.NormFloat64(), 0.1*rng.NormFloat64(), -0.2)
		if i%2 == 1 {
			r1 = geom.FromAxisAngle(geom.V(0, 1, 1), 0.5, r1.T) // turning
		}
		from, to := envPose.Compose(r0), envPose.Compose(r1)
		got, err := collide.Impact(ctx, env, envPose, fly, from, to, collide.TOIOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rf, rt := collide.RelativePose(envPose, from), collide.RelativePose(envPose, to)
		want, _ := collide.Impact(ctx, env, geom.Pose{}, fly, rf, rt, collide.TOIOptions{})
		if got != want {
			t.Fatalf("motion %d: %+v, relative to env %+v", i, got, want)
		}
		if i%2 == 0 {
			o, _ := collide.Impact(ctx, be, geom.Pose{}, bf, rf, rt, collide.TOIOptions{})
			if o.Hit != got.Hit || got.Hit && (got.TOI.Lo > o.TOI.Hi || o.TOI.Lo > got.TOI.Hi) {
				t.Fatalf("motion %d: %+v, the oracle %+v", i, got, o)
			}
		}
	}
}

// smallScene returns a torus of 300 triangles and a sphere of radius 0.3
// of 80, of kind b: quick for brute force's time of impact.
func smallScene(t *testing.T, b collide.BV) (env, fly *collide.Model) {
	t.Helper()
	var err error
	if env, err = collide.Build(gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 300)), collide.BuildOptions{BV: b}); err != nil {
		t.Fatal(err)
	}
	if fly, err = collide.Build(gen.Must(gen.Icosphere(geom.Vec3{}, 0.3, 80)), collide.BuildOptions{BV: b}); err != nil {
		t.Fatal(err)
	}
	return env, fly
}

// TestStatsString checks Stats.String's labels and its fixed order, the
// last two counts only when not 0.
func TestStatsString(t *testing.T) {
	for _, c := range []struct {
		st   collide.Stats
		want string
	}{
		{collide.Stats{}, "bv tests 0, tri tests 0, updates 0"},
		{collide.Stats{BVTests: 120, TriTests: 8, Updates: 3}, "bv tests 120, tri tests 8, updates 3"},
		{collide.Stats{BVTests: 1, TriTests: 2, Updates: 3, LeafTests: 4}, "bv tests 1, tri tests 2, updates 3, leaf tests 4"},
		{collide.Stats{Skipped: 7}, "bv tests 0, tri tests 0, updates 0, skipped 7"},
		{collide.Stats{BVTests: 1, TriTests: 2, Updates: 3, LeafTests: 4, Skipped: 5}, "bv tests 1, tri tests 2, updates 3, leaf tests 4, skipped 5"},
	} {
		if got := c.st.String(); got != c.want {
			t.Errorf("%#v.String() = %q, want %q", c.st, got, c.want)
		}
	}
}

// BenchmarkCollide times Query.Collide on the torus scene, first contact,
// for the default bounding volume, beside BenchmarkCheck: with the
// environment at the zero pose (nothing to compose: Check's cost), and
// with both models placed by a world's poses (the relative pose composed
// and checked once per query).
func BenchmarkCollide(b *testing.B) {
	env, fly, poses := torusScene(b, collide.BVDefault)
	envPose := geom.FromAxisAngle(geom.V(1, 2, 3), 0.4, geom.V(10, 20, 30))
	placed := make([]geom.Pose, len(poses))
	for i, p := range poses {
		placed[i] = envPose.Compose(p)
	}
	for _, c := range []struct {
		name    string
		envPose geom.Pose
		poses   []geom.Pose
	}{{"identity", geom.Pose{}, poses}, {"placed", envPose, placed}} {
		b.Run(c.name, func(b *testing.B) {
			var q collide.Query
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := q.Collide(env, c.envPose, fly, c.poses[i%len(c.poses)], collide.QueryOptions{}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// TestCollideAllocs checks that Query.Collide and CollideFunc allocate
// nothing once warm with both models placed, as with one pose.
func TestCollideAllocs(t *testing.T) {
	env, fly, poses := torusScene(t, collide.BVDefault)
	envPose := geom.FromAxisAngle(geom.V(1, 2, 3), 0.4, geom.V(10, 20, 30))
	for _, o := range []collide.QueryOptions{{}, {All: true}} {
		var q collide.Query
		for _, p := range poses {
			if _, err := q.Collide(env, envPose, fly, envPose.Compose(p), o); err != nil {
				t.Fatal(err)
			}
		}
		fn := func(collide.Pair) bool { return true }
		i := 0
		allocs := testing.AllocsPerRun(100, func() {
			p := envPose.Compose(poses[i%len(poses)])
			q.Collide(env, envPose, fly, p, o)
			q.CollideFunc(env, envPose, fly, p, o, fn)
			i++
		})
		if allocs != 0 {
			t.Errorf("%+v: %v allocations per query, want 0", o, allocs)
		}
	}
}
