package main

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/world"
)

func TestNewWorldErrors(t *testing.T) {
	tests := []struct {
		eps     float64
		broad   string
		workers int
		want    string
	}{
		{math.NaN(), "", 0, "eps: NaN is not a finite number >= 0"},
		{-1, "", 0, "eps: -1 is not a finite number >= 0"},
		{math.Inf(1), "", 0, "eps: +Inf is not a finite number >= 0"},
		{0, "", -2, "workers: -2 is negative"},
		{0, "nope", 0, `broad: unknown broad phase "nope" (known: ` + strings.Join(world.BroadPhases(), ", ") + ")"},
	}
	for _, tt := range tests {
		_, err := newWorld(false, tt.eps, tt.broad, tt.workers)
		if err == nil || err.Error() != tt.want || code(err) != codeEINVAL {
			t.Errorf("newWorld(eps %v, broad %q, workers %d) = %v (code %d), want %q (EINVAL)", tt.eps, tt.broad, tt.workers, err, code(err), tt.want)
		}
	}
	for _, b := range append(world.BroadPhases(), "") {
		if _, err := newWorld(true, 0.01, b, 1); err != nil {
			t.Errorf("newWorld(broad %q) = %v", b, err)
		}
	}
}

func worldModels(t *testing.T) []*collide.Model {
	t.Helper()
	var out []*collide.Model
	for _, m := range []struct {
		kind string
		p    map[string]float64
	}{{"icosphere", nil}, {"torus", nil}, {"box", nil}} {
		k, ok := gen.Lookup(m.kind)
		if !ok {
			t.Fatalf("no generator %q", m.kind)
		}
		params := map[string]float64{}
		for _, p := range k.Params {
			params[p.Name] = p.Default
		}
		tm, err := k.Make(params)
		if err != nil {
			t.Fatal(err)
		}
		md, err := collide.Build(tm, collide.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, md)
	}
	return out
}

// pairwise returns the contacts of h's world as collide.Check finds them
// pair by pair, at the relative pose the world tests each pair at, as the
// quadruples of step.
func pairwise(t *testing.T, h *worldHandle, all bool, eps float64) []int64 {
	t.Helper()
	var ids []world.ID
	for id := range h.w.AllObjects() {
		ids = append(ids, id)
	}
	var out []int64
	for i, a := range ids {
		for _, b := range ids[i+1:] {
			if h.w.Static(a) && h.w.Static(b) {
				continue
			}
			env, fly, pose := h.w.RelativePose(a, b)
			r, err := collide.Check(h.w.Model(env), h.w.Model(fly), pose, collide.QueryOptions{All: all, Eps: eps})
			if err != nil {
				t.Fatal(err)
			}
			var ps [][2]int64
			for _, p := range r.Pairs {
				if env == a {
					ps = append(ps, [2]int64{int64(p.Env), int64(p.Fly)})
				} else {
					ps = append(ps, [2]int64{int64(p.Fly), int64(p.Env)})
				}
			}
			slices.SortFunc(ps, func(x, y [2]int64) int {
				if x[0] != y[0] {
					return int(x[0] - y[0])
				}
				return int(x[1] - y[1])
			})
			for _, p := range ps {
				out = append(out, int64(a), int64(b), p[0], p[1])
			}
		}
	}
	return out
}

func randPose(r *rand.Rand, span float64) geom.Pose {
	q := geom.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}
	return geom.FromQuat(q, geom.V(span*r.Float64(), span*r.Float64(), span*r.Float64()))
}

// TestWorldSteps adds, moves and removes objects over seeded steps and
// compares each step's contacts with the pairwise checks, and its began
// and ended pairs with the contacts before and after.
func TestWorldSteps(t *testing.T) {
	ms := worldModels(t)
	for _, all := range []bool{false, true} {
		for _, eps := range []float64{0, 0.05} {
			r := rand.New(rand.NewPCG(33, uint64(len(ms))))
			h, err := newWorld(all, eps, "", 2)
			if err != nil {
				t.Fatal(err)
			}
			var live []int64
			prev := map[[2]int64]bool{}
			for step := range 12 {
				switch {
				case step < 3 || len(live) < 3:
					for range 3 {
						id, err := h.add(ms[r.IntN(len(ms))], randPose(r, 3), r.IntN(4) == 0, 0)
						if err != nil {
							t.Fatal(err)
						}
						live = append(live, id)
					}
				case step%4 == 3:
					k := r.IntN(len(live))
					if err := h.remove(live[k]); err != nil {
						t.Fatal(err)
					}
					live = slices.Delete(live, k, k+1)
				default:
					var ids []int64
					var ps []geom.Pose
					for _, id := range live {
						if r.IntN(2) == 0 {
							ids = append(ids, id)
							ps = append(ps, randPose(r, 3))
						}
					}
					if err := h.move(ids, ps); err != nil {
						t.Fatal(err)
					}
				}
				cs, began, ended, err := h.step()
				if err != nil {
					t.Fatal(err)
				}
				want := pairwise(t, h, true, eps)
				if all && !slices.Equal(cs, want) {
					t.Fatalf("all %v eps %v step %d: contacts %v, want %v", all, eps, step, cs, want)
				}
				if !all {
					// One pair of triangles per pair of objects, one of
					// those in contact (the first found depends on the
					// world's fronts, kept from step to step).
					in := map[[4]int64]bool{}
					var objs, wobjs [][2]int64
					for i := 0; i < len(want); i += 4 {
						in[[4]int64(want[i:i+4])] = true
						if o := [2]int64(want[i : i+2]); len(wobjs) == 0 || wobjs[len(wobjs)-1] != o {
							wobjs = append(wobjs, o)
						}
					}
					for i := 0; i < len(cs); i += 4 {
						objs = append(objs, [2]int64(cs[i:i+2]))
						if !in[[4]int64(cs[i:i+4])] {
							t.Errorf("all %v eps %v step %d: contact %v is not a pair in contact", all, eps, step, cs[i:i+4])
						}
					}
					if !slices.Equal(objs, wobjs) {
						t.Fatalf("all %v eps %v step %d: objects in contact %v, want %v", all, eps, step, objs, wobjs)
					}
				}
				now := map[[2]int64]bool{}
				for i := 0; i < len(cs); i += 4 {
					now[[2]int64{cs[i], cs[i+1]}] = true
				}
				var wb, we []int64
				for _, p := range sortedKeys(now) {
					if !prev[p] {
						wb = append(wb, p[0], p[1])
					}
				}
				for _, p := range sortedKeys(prev) {
					if !now[p] {
						we = append(we, p[0], p[1])
					}
				}
				if !slices.Equal(began, wb) || !slices.Equal(ended, we) {
					t.Fatalf("all %v eps %v step %d: began %v ended %v, want %v and %v", all, eps, step, began, ended, wb, we)
				}
				prev = now
			}
		}
	}
}

func sortedKeys(m map[[2]int64]bool) [][2]int64 {
	var ks [][2]int64
	for k := range m {
		ks = append(ks, k)
	}
	slices.SortFunc(ks, func(x, y [2]int64) int {
		if x[0] != y[0] {
			return int(x[0] - y[0])
		}
		return int(x[1] - y[1])
	})
	return ks
}

func TestWorldErrors(t *testing.T) {
	ms := worldModels(t)
	h, err := newWorld(false, 0, "sap", 1)
	if err != nil {
		t.Fatal(err)
	}
	a, err := h.add(ms[0], geom.Identity(), false, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := h.add(ms[1], geom.Translation(geom.V(10, 0, 0)), false, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := h.step(); err != nil {
		t.Fatal(err)
	}
	// A rotation within Pose.Validate's 1e-6 but not the world's tolerance.
	skew := geom.Identity()
	skew.R[0][1] = 5e-7
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"remove unknown", h.remove(7), "id: no object 7 in the world"},
		{"remove negative", h.remove(-1), "id: no object -1 in the world"},
		{"move unknown", h.move([]int64{a, 9}, []geom.Pose{geom.Identity(), geom.Identity()}), "ids[1]: no object 9 in the world"},
		{"move count", h.move([]int64{a}, nil), "move: 1 ids for 0 poses"},
		{"move skew", h.move([]int64{b, a}, []geom.Pose{geom.Translation(geom.V(0.5, 0, 0)), skew}), "poses[1]: world: Move 0: "},
	}
	for _, tt := range tests {
		if tt.err == nil || !strings.HasPrefix(tt.err.Error(), tt.want) || code(tt.err) != codeEINVAL {
			t.Errorf("%s: %v (code %d), want %q... (EINVAL)", tt.name, tt.err, code(tt.err), tt.want)
		}
	}
	// The failed move moved nothing: b is back where it was.
	if got := h.w.Pose(world.ID(b)); got != geom.Translation(geom.V(10, 0, 0)) {
		t.Errorf("after a failed move, object %d is at %v", b, got)
	}
	if _, err := h.add(ms[0], geom.Identity(), false, world.MaxGroups); err == nil || code(err) != codeEINVAL {
		t.Errorf("add in group %d: %v, want EINVAL", world.MaxGroups, err)
	}
	other, err := ms[2].WithBV(collide.OBB)
	if err == nil {
		if _, err := h.add(other, geom.Identity(), false, 0); err == nil || code(err) != codeEINVAL {
			t.Errorf("add of an obb model to a kdop18 world: %v, want EINVAL", err)
		}
	}
	// A world's handle is not a model's, and the other way round.
	wh := putHandle(h)
	defer freeHandle(wh)
	if _, err := lookupID[*collide.Model](wh, "model"); err == nil || !strings.Contains(err.Error(), "is a world, not a model") {
		t.Errorf("lookup of a world as a model: %v", err)
	}
	mh := putHandle(ms[0])
	defer freeHandle(mh)
	if _, err := lookupID[*worldHandle](mh, "world"); err == nil || !errors.As(err, new(*argError)) {
		t.Errorf("lookup of a model as a world: %v", err)
	}
}

// TestWorldSerialised calls one world from several goroutines at once:
// the handle's mutex serialises them (go test -race sees no race), and the
// last step finds the contacts of the last poses.
func TestWorldSerialised(t *testing.T) {
	ms := worldModels(t)
	h, err := newWorld(true, 0, "", 2)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, 4)
	for i := range ids {
		if ids[i], err = h.add(ms[0], geom.Translation(geom.V(3*float64(i), 0, 0)), false, 0); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 40 {
				if err := h.move(ids[i:i+1], []geom.Pose{geom.Translation(geom.V(3*float64(i)+0.01*float64(k), 0, 0))}); err != nil {
					t.Error(err)
					return
				}
				if k%8 == 0 {
					if _, _, _, err := h.step(); err != nil {
						t.Error(err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if err := h.move(ids[1:2], []geom.Pose{geom.Translation(geom.V(1, 0, 0))}); err != nil {
		t.Fatal(err)
	}
	cs, _, _, err := h.step()
	if err != nil {
		t.Fatal(err)
	}
	if want := pairwise(t, h, true, 0); !slices.Equal(cs, want) || len(cs) == 0 {
		t.Errorf("contacts %v, want %v (not none)", cs, want)
	}
}
