package batch_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/batch"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// scene is a pair of meshes and poses of the flying one, some apart, some
// overlapping, some touching exactly and some missing by a hair.
type scene struct {
	name     string
	env, fly *mesh.TriMesh
	envPose  geom.Pose
	poses    []geom.Pose
}

// randomRotation returns a random rotation.
func randomRotation(rng *rand.Rand) geom.Mat3 {
	axis := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
	return geom.AxisAngle(axis, rng.Float64()*2*math.Pi).Mat3()
}

// randomPoses returns n poses of random rotations and translations in
// [-r, r]³.
func randomPoses(rng *rand.Rand, n int, r float64) []geom.Pose {
	out := make([]geom.Pose, n)
	for i := range out {
		out[i] = geom.Pose{R: randomRotation(rng), T: geom.Vec3{
			X: (2*rng.Float64() - 1) * r, Y: (2*rng.Float64() - 1) * r, Z: (2*rng.Float64() - 1) * r}}
	}
	return out
}

// scenes returns the test scenes, made from seed.
func scenes(t testing.TB, seed uint64) []scene {
	rng := rand.New(rand.NewPCG(seed, 33))
	unit := geom.AABB{Min: geom.Vec3{X: -1, Y: -1, Z: -1}, Max: geom.Vec3{X: 1, Y: 1, Z: 1}}
	box := gen.Must(gen.Box(unit, 2))
	var boxes []geom.Pose
	// Translations along an axis by 2 put a face on a face (touching);
	// by the next float64 above 2, a hair apart; by 1.5, overlapping; by
	// 3, apart. Each at a few axis permutations.
	for _, d := range []float64{2, math.Nextafter(2, 3), 1.5, 3, -2, math.Nextafter(-2, -3)} {
		boxes = append(boxes,
			geom.Translation(geom.Vec3{X: d}),
			geom.Translation(geom.Vec3{Y: d, Z: 0.5}),
			geom.Translation(geom.Vec3{X: 2, Y: 2, Z: d}), // an edge or a corner
		)
	}
	boxes = append(boxes, randomPoses(rng, 20, 3)...)

	ico := gen.Must(gen.Icosphere(geom.Vec3{}, 1, 320))
	torus := gen.Must(gen.Torus(geom.Vec3{}, 0.6, 0.2, 200))
	tetra := gen.Must(gen.Tetrahedra(40, geom.AABB{Min: geom.Vec3{X: -2, Y: -2, Z: -2}, Max: geom.Vec3{X: 2, Y: 2, Z: 2}}, 0.5, seed))
	envPose := geom.Pose{R: randomRotation(rng), T: geom.Vec3{X: 0.25, Y: -0.5, Z: 1}}
	// Poses relative to envPose: the same scene seen from elsewhere.
	moved := randomPoses(rng, 40, 2.5)
	for i := range moved {
		moved[i] = envPose.Compose(moved[i])
	}
	return []scene{
		{"boxes", box, box, geom.Identity(), boxes},
		{"sphere-torus", ico, torus, geom.Identity(), randomPoses(rng, 60, 2)},
		{"tetrahedra-torus", tetra, torus, geom.Identity(), randomPoses(rng, 60, 2.5)},
		{"tetrahedra-torus-placed", tetra, torus, envPose, moved},
	}
}

// build returns the models of s with volume bv.
func build(t testing.TB, s scene, bv collide.BV) (env, fly *collide.Model) {
	t.Helper()
	env, err := collide.Build(s.env, collide.BuildOptions{BV: bv})
	if err != nil {
		t.Fatal(err)
	}
	fly, err = collide.Build(s.fly, collide.BuildOptions{BV: bv})
	if err != nil {
		t.Fatal(err)
	}
	return env, fly
}

// TestCheckMatchesCollide checks that the batch gives each pose exactly
// collide.Collide's answer, for every volume, mode, tolerance and number of
// workers.
func TestCheckMatchesCollide(t *testing.T) {
	ctx := context.Background()
	for _, s := range scenes(t, 1) {
		for _, bv := range collide.BVs() {
			env, fly := build(t, s, bv)
			for _, all := range []bool{false, true} {
				for _, eps := range []float64{0, 0.05} {
					qo := collide.QueryOptions{All: all, Eps: eps}
					var want []batch.Pair
					wantHits := make([]bool, len(s.poses))
					collisions := 0
					for i, p := range s.poses {
						r, err := collide.Collide(env, s.envPose, fly, p, qo)
						if err != nil {
							t.Fatalf("%s %v: pose %d: %v", s.name, bv, i, err)
						}
						wantHits[i] = r.Collide
						if r.Collide {
							collisions++
						}
						for _, q := range r.Pairs {
							want = append(want, batch.Pair{Pose: int32(i), Env: q.Env, Fly: q.Fly})
						}
					}
					if collisions == 0 || collisions == len(s.poses) {
						t.Fatalf("%s: %d of %d poses collide: the scene tests nothing", s.name, collisions, len(s.poses))
					}
					for _, workers := range []int{1, 3} {
						name := fmt.Sprintf("%s/%v/all=%v/eps=%v/workers=%d", s.name, bv, all, eps, workers)
						hits := make([]bool, len(s.poses))
						prefix := []batch.Pair{{Pose: -1, Env: -1, Fly: -1}} // kept: Check appends
						got, err := batch.Check(ctx, env, s.envPose, fly, s.poses, batch.Options{All: all, Eps: eps, Workers: workers}, hits, prefix)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if got[0] != prefix[0] {
							t.Errorf("%s: the pairs given were overwritten", name)
						}
						if !reflect.DeepEqual(hits, wantHits) {
							t.Errorf("%s: hits\n%v, want\n%v", name, hits, wantHits)
						}
						if !reflect.DeepEqual(got[1:], want) && !(len(got) == 1 && len(want) == 0) {
							t.Errorf("%s: %d pairs, want %d:\n%v\nwant\n%v", name, len(got)-1, len(want), got[1:], want)
						}
					}
				}
			}
		}
	}
}

// TestCheckDeterministic runs one batch of many poses on several workers
// again and again: the same pairs each time (the first contact at each
// pose does not depend on which poses a worker ran before).
func TestCheckDeterministic(t *testing.T) {
	s := scenes(t, 2)[2]
	env, fly := build(t, s, collide.KDOP18)
	rng := rand.New(rand.NewPCG(7, 7))
	poses := randomPoses(rng, 3000, 2.5)
	var first []batch.Pair
	for run := range 4 {
		hits := make([]bool, len(poses))
		pairs, err := batch.Check(context.Background(), env, geom.Pose{}, fly, poses, batch.Options{Workers: 1 + run%3}, hits, nil)
		if err != nil {
			t.Fatal(err)
		}
		if run == 0 {
			first = pairs
			if len(first) == 0 {
				t.Fatal("no pose collides")
			}
			continue
		}
		if !reflect.DeepEqual(pairs, first) {
			t.Fatalf("run %d: the pairs differ from the first run's", run)
		}
	}
}

// TestDistanceMatchesDistanceBetween checks the batch's distances against
// collide.DistanceBetween pose by pose.
func TestDistanceMatchesDistanceBetween(t *testing.T) {
	ctx := context.Background()
	for _, s := range scenes(t, 3) {
		for _, bv := range collide.BVs() {
			env, fly := build(t, s, bv)
			n := 24
			if bv == collide.Brute {
				n = 6 // the oracle measures every pair of triangles
			}
			poses := s.poses[:min(len(s.poses), n)]
			for _, o := range []collide.DistanceOptions{{}, {Max: 0.3}} {
				want := make([]collide.DistanceResult, len(poses))
				for i, p := range poses {
					r, err := collide.DistanceBetween(ctx, env, s.envPose, fly, p, o)
					if err != nil {
						t.Fatal(err)
					}
					want[i] = r
				}
				for _, workers := range []int{1, 3} {
					got := make([]collide.DistanceResult, len(poses))
					if err := batch.Distance(ctx, env, s.envPose, fly, poses, o, workers, got); err != nil {
						t.Fatal(err)
					}
					for i := range got {
						if !sameDistance(got[i], want[i]) {
							t.Errorf("%s/%v/max=%v/workers=%d: pose %d: %+v, want %+v", s.name, bv, o.Max, workers, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// sameDistance compares two results field by field, NaN witnesses equal.
func sameDistance(a, b collide.DistanceResult) bool {
	nan := func(v geom.Vec3) geom.Vec3 {
		if math.IsNaN(v.X) || math.IsNaN(v.Y) || math.IsNaN(v.Z) {
			return geom.Vec3{X: 1e300}
		}
		return v
	}
	a.PEnv, a.PFly, b.PEnv, b.PFly = nan(a.PEnv), nan(a.PFly), nan(b.PEnv), nan(b.PFly)
	return reflect.DeepEqual(a, b)
}

// TestImpactMatchesImpact checks the batch's times of impact against
// collide.Impact motion by motion, turning and not.
func TestImpactMatchesImpact(t *testing.T) {
	ctx := context.Background()
	for _, s := range scenes(t, 4) {
		for _, bv := range []collide.BV{collide.KDOP18, collide.OBB, collide.Brute} {
			if bv == collide.Brute && s.name != "boxes" {
				continue // the oracle decides every pair of triangles of every motion
			}
			env, fly := build(t, s, bv)
			// Motions from the scene's poses: turning by 0.3 radians and
			// moving by 1.5, and straight (the same rotation at both ends).
			rng := rand.New(rand.NewPCG(9, 9))
			var from, to []geom.Pose
			for i := range min(len(s.poses), 16) {
				p := s.poses[i]
				q := p
				q.T = q.T.Add(geom.Vec3{X: 1.5*rng.Float64() - 0.75, Y: 1.5*rng.Float64() - 0.75, Z: 0.5})
				if i%2 == 0 {
					axis := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
					q.R = geom.AxisAngle(axis, 0.3).Mat3().Mul(p.Normalize().R)
				}
				from, to = append(from, p), append(to, q)
			}
			want := make([]collide.TOIResult, len(from))
			hits := 0
			for i := range from {
				r, err := collide.Impact(ctx, env, s.envPose, fly, from[i], to[i], collide.TOIOptions{})
				if err != nil {
					t.Fatal(err)
				}
				want[i] = r
				if r.Hit {
					hits++
				}
			}
			if hits == 0 {
				t.Fatalf("%s/%v: no motion hits", s.name, bv)
			}
			for _, workers := range []int{1, 3} {
				got := make([]collide.TOIResult, len(from))
				if err := batch.Impact(ctx, env, s.envPose, fly, from, to, collide.TOIOptions{}, workers, got); err != nil {
					t.Fatal(err)
				}
				for i := range got {
					if !sameTOI(got[i], want[i]) {
						t.Errorf("%s/%v/workers=%d: motion %d: %+v, want %+v", s.name, bv, workers, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// sameTOI compares two results field by field, NaN times equal.
func sameTOI(a, b collide.TOIResult) bool {
	nan := func(x float64) float64 {
		if math.IsNaN(x) {
			return -1e300
		}
		return x
	}
	a.TOI.Lo, a.TOI.Hi, b.TOI.Lo, b.TOI.Hi = nan(a.TOI.Lo), nan(a.TOI.Hi), nan(b.TOI.Lo), nan(b.TOI.Hi)
	return reflect.DeepEqual(a, b)
}

// TestBadPose checks that a bad pose is named by its index, whatever the
// number of workers, and the lowest bad one when there are several.
func TestBadPose(t *testing.T) {
	s := scenes(t, 5)[1]
	env, fly := build(t, s, collide.KDOP18)
	ctx := context.Background()
	nan := geom.Translation(geom.Vec3{Y: math.NaN()})
	scaled := geom.Pose{R: geom.Mat3{{2, 0, 0}, {0, 1, 0}, {0, 0, 1}}}
	// At envPose's translation -1e308, a pose at +1e308 is valid, but the
	// relative pose is not: an error the query finds.
	farEnv := geom.Translation(geom.Vec3{X: -1e308})
	far := geom.Translation(geom.Vec3{X: 1e308})
	for _, tc := range []struct {
		name    string
		envPose geom.Pose
		bad     map[int]geom.Pose
		index   int
		what    string
	}{
		{"NaN", geom.Pose{}, map[int]geom.Pose{700: scaled, 345: nan}, 345, "pose number 11 is NaN"},
		{"scaled", geom.Pose{}, map[int]geom.Pose{3: scaled}, 3, "not orthonormal"},
		{"relative", farEnv, map[int]geom.Pose{612: far, 900: far, 1500: far}, 612, "relative pose"},
	} {
		for _, workers := range []int{1, 2, 3} {
			poses := randomPoses(rand.New(rand.NewPCG(1, 2)), 2000, 2)
			for i := range poses {
				poses[i] = tc.envPose.Compose(poses[i])
			}
			for i, p := range tc.bad {
				poses[i] = p
			}
			hits := make([]bool, len(poses))
			_, err := batch.Check(ctx, env, tc.envPose, fly, poses, batch.Options{Workers: workers}, hits, nil)
			var be *batch.Error
			if !errors.As(err, &be) || be.Index != tc.index || !containsStr(err.Error(), tc.what) {
				t.Errorf("%s, %d workers: error %v, want a *batch.Error of pose %d saying %q", tc.name, workers, err, tc.index, tc.what)
				continue
			}
			if want := fmt.Sprintf("pose %d: ", tc.index); err.Error()[:len(want)] != want {
				t.Errorf("%s: error %q does not start %q", tc.name, err, want)
			}
			out := make([]collide.DistanceResult, len(poses))
			err = batch.Distance(ctx, env, tc.envPose, fly, poses, collide.DistanceOptions{}, workers, out)
			if !errors.As(err, &be) || be.Index != tc.index {
				t.Errorf("%s, %d workers: Distance's error %v, want one of pose %d", tc.name, workers, err, tc.index)
			}
		}
	}

	from := randomPoses(rand.New(rand.NewPCG(3, 4)), 10, 2)
	to := randomPoses(rand.New(rand.NewPCG(5, 6)), 10, 2)
	to[4] = scaled
	out := make([]collide.TOIResult, 10)
	err := batch.Impact(ctx, env, geom.Pose{}, fly, from, to, collide.TOIOptions{}, 2, out)
	var be *batch.Error
	if !errors.As(err, &be) || be.Index != 4 || be.What != "to pose" {
		t.Errorf("Impact: error %v, want a *batch.Error of to pose 4", err)
	}
}

func containsStr(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestErrors checks the errors of batches that cannot run.
func TestErrors(t *testing.T) {
	s := scenes(t, 6)[1]
	env, fly := build(t, s, collide.KDOP18)
	obb, _ := build(t, s, collide.OBB)
	poses := s.poses[:10]
	hits := make([]bool, len(poses))
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		err  error
		is   error
	}{
		{"cancelled", func() error {
			_, err := batch.Check(cancelled, env, geom.Pose{}, fly, poses, batch.Options{}, hits, nil)
			return err
		}(), context.Canceled},
		{"cancelled distance", batch.Distance(cancelled, env, geom.Pose{}, fly, poses, collide.DistanceOptions{}, 2, make([]collide.DistanceResult, 10)), context.Canceled},
		{"cancelled impact", batch.Impact(cancelled, env, geom.Pose{}, fly, poses, poses, collide.TOIOptions{}, 2, make([]collide.TOIResult, 10)), context.Canceled},
		{"hits", func() error {
			_, err := batch.Check(ctx, env, geom.Pose{}, fly, poses, batch.Options{}, hits[:3], nil)
			return err
		}(), nil},
		{"eps", func() error {
			_, err := batch.Check(ctx, env, geom.Pose{}, fly, nil, batch.Options{Eps: -1}, nil, nil)
			return err
		}(), collide.ErrInvalidQuery},
		{"volumes", func() error {
			_, err := batch.Check(ctx, obb, geom.Pose{}, fly, nil, batch.Options{}, nil, nil)
			return err
		}(), collide.ErrInvalidQuery},
		{"env pose", func() error {
			_, err := batch.Check(ctx, env, geom.Translation(geom.Vec3{Z: math.Inf(1)}), fly, poses, batch.Options{}, hits, nil)
			return err
		}(), collide.ErrInvalidPose},
		{"nil model", func() error {
			_, err := batch.Check(ctx, nil, geom.Pose{}, fly, poses, batch.Options{}, hits, nil)
			return err
		}(), collide.ErrInvalidQuery},
		{"distance lengths", batch.Distance(ctx, env, geom.Pose{}, fly, poses, collide.DistanceOptions{}, 1, nil), nil},
		{"impact lengths", batch.Impact(ctx, env, geom.Pose{}, fly, poses, poses[:3], collide.TOIOptions{}, 1, make([]collide.TOIResult, 10)), nil},
	} {
		if tc.err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if tc.is != nil && !errors.Is(tc.err, tc.is) {
			t.Errorf("%s: error %v is not %v", tc.name, tc.err, tc.is)
		}
		var be *batch.Error
		if errors.As(tc.err, &be) {
			t.Errorf("%s: error %v names a pose", tc.name, tc.err)
		}
	}
}

// TestEmpty checks that a batch of no poses does nothing, and succeeds.
func TestEmpty(t *testing.T) {
	s := scenes(t, 6)[1]
	env, fly := build(t, s, collide.KDOP18)
	pairs, err := batch.Check(context.Background(), env, geom.Pose{}, fly, nil, batch.Options{All: true}, nil, nil)
	if err != nil || len(pairs) != 0 {
		t.Errorf("Check of no poses: %v, %v", pairs, err)
	}
}

// countdown is a context that is cancelled once Err has been asked n
// times: a cancellation at a known point of the batch, whatever the
// timing.
type countdown struct {
	context.Context
	mu sync.Mutex
	n  int
}

func (c *countdown) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n <= 0 {
		return context.Canceled
	}
	c.n--
	return nil
}

// TestCancelledMidway checks that a context cancelled during the batch
// stops it between chunks: the error is the context's, the answers
// written are their poses', the others untouched.
func TestCancelledMidway(t *testing.T) {
	s := scenes(t, 8)[1]
	env, fly := build(t, s, collide.KDOP18)
	far := make([]geom.Pose, 5000)
	for i := range far {
		far[i] = geom.Translation(geom.Vec3{X: 100})
	}
	for _, workers := range []int{1, 2} {
		hits := make([]bool, len(far))
		for i := range hits {
			hits[i] = true // no pose collides: a pose run sets false
		}
		// One look before the batch, then one per chunk: three chunks.
		ctx := &countdown{Context: context.Background(), n: 4}
		_, err := batch.Check(ctx, env, geom.Pose{}, fly, far, batch.Options{Workers: workers}, hits, nil)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%d workers: error %v, want context.Canceled", workers, err)
		}
		run := 0
		for _, h := range hits {
			if !h {
				run++
			}
		}
		if run == 0 || run == len(hits) {
			t.Errorf("%d workers: %d poses of %d ran: the batch did not stop midway", workers, run, len(hits))
		}
		// The poses run are whole chunks from the start.
		for i := 1; i < len(hits); i++ {
			if !hits[i-1] && hits[i] && slices.Contains(hits[i:], false) {
				t.Errorf("%d workers: the poses run are not a prefix", workers)
				break
			}
		}
	}
}
