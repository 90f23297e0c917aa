package batch_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/batch"
	"github.com/collide3d/collide/geom"
)

// TestContactsMatchCollide checks that the batch gives each pose exactly
// the contacts of collide.Collide with Contacts, in its order, for every
// volume, mode, tolerance and number of workers, and the pairs of Check.
func TestContactsMatchCollide(t *testing.T) {
	ctx := context.Background()
	for _, s := range scenes(t, 11) {
		for _, bv := range collide.BVs() {
			env, fly := build(t, s, bv)
			for _, all := range []bool{false, true} {
				for _, eps := range []float64{0, 0.05} {
					qo := collide.QueryOptions{All: all, Eps: eps, Contacts: true}
					var want []batch.PoseContact
					kinds := map[geom.ContactKind]int{}
					for i, p := range s.poses {
						r, err := collide.Collide(env, s.envPose, fly, p, qo)
						if err != nil {
							t.Fatalf("%s %v: pose %d: %v", s.name, bv, i, err)
						}
						if len(r.Contacts) != len(r.Pairs) {
							t.Fatalf("%s %v: pose %d: %d contacts for %d pairs", s.name, bv, i, len(r.Contacts), len(r.Pairs))
						}
						for _, c := range r.Contacts {
							want = append(want, batch.PoseContact{Pose: int32(i), Contact: c})
							kinds[c.Kind]++
						}
					}
					if kinds[geom.Touch]+kinds[geom.Cross] == 0 {
						t.Fatalf("%s: no contact: the scene tests nothing", s.name)
					}
					for _, workers := range []int{1, 3} {
						name := fmt.Sprintf("%s/%v/all=%v/eps=%v/workers=%d", s.name, bv, all, eps, workers)
						o := batch.Options{All: all, Eps: eps, Workers: workers}
						prefix := []batch.PoseContact{{Pose: -1}} // kept: Contacts appends
						got, err := batch.Contacts(ctx, env, s.envPose, fly, s.poses, o, prefix)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if got[0].Pose != -1 {
							t.Errorf("%s: the contacts given were overwritten", name)
						}
						got = got[1:]
						if len(got) != len(want) {
							t.Fatalf("%s: %d contacts, want %d", name, len(got), len(want))
						}
						for i := range got {
							if !reflect.DeepEqual(got[i], want[i]) {
								t.Fatalf("%s: contact %d\n%+v, want\n%+v", name, i, got[i], want[i])
							}
						}
						hits := make([]bool, len(s.poses))
						pairs, err := batch.Check(ctx, env, s.envPose, fly, s.poses, o, hits, nil)
						if err != nil {
							t.Fatal(err)
						}
						if len(pairs) != len(got) {
							t.Fatalf("%s: %d contacts, Check gives %d pairs", name, len(got), len(pairs))
						}
						for i, p := range pairs {
							if g := got[i]; g.Pose != p.Pose || g.Pair.Env != p.Env || g.Pair.Fly != p.Fly {
								t.Fatalf("%s: contact %d of pose %d, pair %v; Check's pair %v", name, i, g.Pose, g.Pair, p)
							}
						}
					}
				}
			}
		}
	}
}

// TestContactsErrors checks that Contacts reports a bad pose by its index
// and a batch that cannot run as Check does, appending nothing.
func TestContactsErrors(t *testing.T) {
	s := scenes(t, 12)[1]
	env, fly := build(t, s, collide.KDOP18)
	poses := append([]geom.Pose(nil), s.poses...)
	poses[7] = geom.Pose{R: geom.Mat3{{2, 0, 0}, {0, 1, 0}, {0, 0, 1}}}
	for _, workers := range []int{1, 2} {
		got, err := batch.Contacts(context.Background(), env, geom.Pose{}, fly, poses, batch.Options{All: true, Workers: workers}, nil)
		var be *batch.Error
		if !errors.As(err, &be) || be.Index != 7 || len(got) != 0 {
			t.Errorf("%d workers: %d contacts, error %v; want none and pose 7's error", workers, len(got), err)
		}
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := batch.Contacts(cancelled, env, geom.Pose{}, fly, s.poses, batch.Options{}, nil); err != context.Canceled {
		t.Errorf("cancelled: error %v", err)
	}
	if _, err := batch.Contacts(context.Background(), env, geom.Pose{}, fly, s.poses, batch.Options{Eps: -1}, nil); err == nil {
		t.Errorf("eps -1: no error")
	}
	got, err := batch.Contacts(context.Background(), env, geom.Pose{}, fly, nil, batch.Options{All: true}, nil)
	if err != nil || len(got) != 0 {
		t.Errorf("no poses: %v, %v", got, err)
	}
}
