package broadpeers

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/collide3d/collide/bench/boxtrace"
	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/geom"
)

// latticeTrace is a trace of unit cubes on an integer lattice, so that
// neighbours touch exactly at faces, edges and corners: half the sites
// filled, a third of them static; each step moves a quarter of the moving
// cubes by a lattice step, wakes a static cube now and then (a move of a
// static object), removes a few cubes and brings removed ones back,
// replaces a few in place (an add of a present id), and adds points and
// flat boxes.
func latticeTrace(seed uint64, steps int) *boxtrace.Trace {
	r := rand.New(rand.NewPCG(seed, 7))
	const n = 8
	objects := n*n*n + 40
	t := &boxtrace.Trace{Objects: objects}
	box := make([]geom.AABB, objects)
	static := make([]bool, objects)
	present := make([]bool, objects)
	var s0 boxtrace.Step
	id := int32(0)
	for x := range n {
		for y := range n {
			for z := range n {
				box[id] = geom.AABB{Min: geom.V(float64(x), float64(y), float64(z)), Max: geom.V(float64(x+1), float64(y+1), float64(z+1))}
				if r.IntN(2) == 0 {
					static[id], present[id] = r.IntN(3) == 0, true
					s0.Add = append(s0.Add, boxtrace.Added{ID: id, Static: static[id], Box: box[id]})
				}
				id++
			}
		}
	}
	for k := range 40 { // points and flat boxes on lattice planes
		id := int32(n*n*n + k)
		p := geom.V(float64(r.IntN(n+1)), float64(r.IntN(n+1)), float64(r.IntN(n+1)))
		b := geom.AABB{Min: p, Max: p}
		if k%2 == 1 {
			b.Max = p.Add(geom.V(1, 1, 0))
		}
		box[id], static[id], present[id] = b, k%4 == 0, true
		s0.Add = append(s0.Add, boxtrace.Added{ID: id, Static: static[id], Box: b})
	}
	t.Steps = append(t.Steps, s0)
	for range steps - 1 {
		var s boxtrace.Step
		for id := range int32(objects) {
			x := r.IntN(100)
			switch {
			case !present[id]:
				if x < 30 {
					present[id], static[id] = true, x < 5
					s.Add = append(s.Add, boxtrace.Added{ID: id, Static: static[id], Box: box[id]})
				}
			case x < 3:
				present[id] = false
				s.Remove = append(s.Remove, id)
			case x < 5:
				static[id] = x < 4
				s.Add = append(s.Add, boxtrace.Added{ID: id, Static: static[id], Box: box[id]}) // replace in place
			case static[id]:
				if x < 8 {
					static[id] = false
					s.Move = append(s.Move, boxtrace.Moved{ID: id, Box: box[id]}) // woken where it is
				}
			case x < 30:
				d := geom.V(float64(r.IntN(3)-1), float64(r.IntN(3)-1), float64(r.IntN(3)-1))
				box[id] = geom.AABB{Min: box[id].Min.Add(d), Max: box[id].Max.Add(d)}
				s.Move = append(s.Move, boxtrace.Moved{ID: id, Box: box[id]})
			}
		}
		t.Steps = append(t.Steps, s)
	}
	return t
}

// testBroadScenes are the small scenes of the tests: Brownian boxes (a
// tenth static), Brownian boxes on a grid (exact touches) with objects
// removed, re-added and woken, and the lattice.
func testBroadScenes() []Scene {
	return []Scene{
		{Name: "brownian", Doc: "300 boxes in Brownian motion.", Source: func() boxtrace.Source { return boxtrace.Brownian(300, 25, 1) }},
		{Name: "grid", Doc: "300 boxes on a 1/4 grid, churning.", Source: func() boxtrace.Source {
			return boxtrace.BrownianConfig{N: 300, Steps: 25, Seed: 2, Static: 0.2, Grid: 0.25, Sigma: 0.2, Churn: 0.05}.Source()
		}},
		{Name: "lattice", Doc: "Unit cubes on a lattice.", Source: func() boxtrace.Source { return latticeTrace(3, 20).Source() }},
	}
}

// dropper is a broken phase: brute force that drops every fifth pair it
// reports, and reports the first pair of each call again.
type dropper struct {
	broad.Brute
}

func (d *dropper) Pairs(fn func(a, b int32) bool) {
	n := 0
	var first [2]int32
	d.Brute.Pairs(func(a, b int32) bool {
		n++
		if n == 1 {
			first = [2]int32{a, b}
		}
		if n%5 == 0 {
			return true
		}
		return fn(a, b)
	})
	if n > 0 {
		fn(first[0], first[1])
	}
}

// TestBroadPeersOracle checks the sort and sweep of the exact sets against
// every pair.
func TestBroadPeersOracle(t *testing.T) {
	for _, sc := range testBroadScenes() {
		src := sc.Source()
		objects, _ := src.Header()
		w := newBoxWorld(objects)
		var s boxtrace.Step
		for step := 0; src.Next(&s) == nil; step++ {
			w.apply(&s)
			got := w.exactPairs(nil)
			var want []uint64
			for a := range int32(objects) {
				for b := a + 1; b < int32(objects); b++ {
					if w.present[a] && w.present[b] && !(w.static[a] && w.static[b]) && broad.Overlaps(&w.box[a], &w.box[b]) {
						want = append(want, pack(a, b))
					}
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s step %d: sweep found %d pairs, all pairs %d", sc.Name, step, len(got), len(want))
			}
		}
	}
}

func TestBroadPeersGo(t *testing.T) {
	phases := append(CollidePhases(), Phase{Name: "dropper", New: func() broad.Phase { return &dropper{} }})
	r, err := Replay(context.Background(), ReplayConfig{Scenes: testBroadScenes(), Phases: phases, Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	touched := 0
	for _, s := range r.Scenes {
		for _, p := range CollidePhases() {
			run := r.Run(s.Name, p.Name)
			if run.Err != "" || len(run.Update) != s.Steps || len(run.Missed) != s.Steps {
				t.Fatalf("%s: %s ran %d of %d steps: %s", s.Name, p.Name, len(run.Update), s.Steps, run.Err)
			}
			missed, extra, _ := run.Sums()
			if missed != 0 || extra != 0 || run.Invalid != 0 || !slices.Equal(run.Distinct, s.Exact) {
				t.Errorf("%s: %s missed %d, extra %d, invalid %d", s.Name, p.Name, missed, extra, run.Invalid)
			}
		}
		bad := r.Run(s.Name, "dropper")
		missed, _, _ := bad.Sums()
		if missed == 0 || bad.Invalid == 0 || len(bad.Examples) == 0 || !bad.Examples[0].Missed {
			t.Errorf("%s: the dropper missed %d pairs, invalid %d, examples %v", s.Name, missed, bad.Invalid, bad.Examples)
		}
		touched += bad.MissedTouching
		if bad.Rounds != 2 {
			t.Errorf("%s: %d rounds", s.Name, bad.Rounds)
		}
	}
	if touched == 0 {
		t.Errorf("no touching pair among those missed: the scenes have no touching boxes?")
	}
	checkReport(t, r)
}

func checkReport(t *testing.T, r *Report) {
	t.Helper()
	var md, js bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Scenes) != len(r.Scenes) {
		t.Fatalf("the JSON report does not read back: %v", err)
	}
	for _, s := range r.Scenes {
		if !strings.Contains(md.String(), "## "+s.Name) {
			t.Errorf("the markdown lacks scene %s", s.Name)
		}
	}
	for _, sys := range r.Systems {
		if !strings.Contains(md.String(), "| "+sys) {
			t.Errorf("the markdown lacks system %s", sys)
		}
	}
	t.Logf("report:\n%s", md.String())
}

func TestBroadPeersParse(t *testing.T) {
	var l broadLine
	if err := l.parse([]byte(`{"step":3,"update_ns":10,"pairs_ns":20,"reported":3,"distinct":2,"bytes":7,"pairs":[[1,2],[ 4 , 9 ]]}`)); err != nil {
		t.Fatal(err)
	}
	if l.step != 3 || l.updateNS != 10 || l.pairsNS != 20 || l.reported != 3 || l.distinct != 2 || l.bytes != 7 ||
		!slices.Equal(l.pairs, []uint64{1<<32 | 2, 4<<32 | 9}) || !l.hasPairs || l.hasHash {
		t.Errorf("parsed %+v", l)
	}
	if err := l.parse([]byte(`{"step":0,"pairs":[],"hash":"00000000000000ff"}`)); err != nil || l.hash != 255 || len(l.pairs) != 0 {
		t.Errorf("parsed %+v, %v", l, err)
	}
	for _, bad := range []string{``, `{`, `{"step":-1}`, `{"step":1,}`, `{"pairs":[[1,2]}`, `{"pairs":[[1]]}`, `{"hash":"xyz"}`,
		`{"step":1} x`, `{"step":"a"}`, `{"pairs":[[1,99999999999]]}`} {
		if err := l.parse([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// peersDriver returns the driver named by $COLLIDE_PEERS, or skips.
func peersDriver(t *testing.T) string {
	driver := os.Getenv("COLLIDE_PEERS")
	if driver == "" {
		t.Skip("COLLIDE_PEERS is not set: build the driver with bench/peers/build.sh and point COLLIDE_PEERS at it")
	}
	return driver
}

// TestBroadPeersDriver replays the test scenes through every broad system
// of the driver named by $COLLIDE_PEERS, checks that each replayed every
// step, that Bullet's (fattened, quantised: supersets) missed no pair and
// reported none that names an absent object or two static ones, and that
// the driver's hashes agree with the pairs.
func TestBroadPeersDriver(t *testing.T) {
	driver := peersDriver(t)
	systems, err := DriverSystems(driver)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"bullet-dbvt", "bullet-axissweep3", "fcl-dynamic-aabb", "fcl-sap"} {
		if !slices.Contains(systems, want) {
			t.Errorf("the driver lacks %s (it has %v)", want, systems)
		}
	}
	c := ReplayConfig{Scenes: testBroadScenes(), Driver: driver}
	r, err := Replay(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	c.Hash = true
	rh, err := Replay(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Scenes {
		for _, sys := range r.Systems {
			run := r.Run(s.Name, sys)
			if run.Err != "" || len(run.Update) != s.Steps || len(run.Missed) != s.Steps {
				t.Errorf("%s, %s: %d of %d steps: %s", s.Name, sys, len(run.Update), s.Steps, run.Err)
				continue
			}
			missed, extra, _ := run.Sums()
			t.Logf("%s, %s: missed %d (%d touching), extra %d, invalid %d", s.Name, sys, missed, run.MissedTouching, extra, run.Invalid)
			if strings.HasPrefix(sys, "bullet") && (missed != 0 || run.Invalid != 0) {
				t.Errorf("%s, %s: missed %d, invalid %d", s.Name, sys, missed, run.Invalid)
			}
			hr := rh.Run(s.Name, sys)
			for i := range run.Missed {
				if exact := run.Missed[i] == 0 && run.Extra[i] == 0; exact != (hr.Missed[i] == 0) {
					t.Errorf("%s, %s, step %d: the pairs say exact %v, the hash %v", s.Name, sys, i, exact, hr.Missed[i] == 0)
					break
				}
			}
		}
	}
	checkReport(t, r)
}

// TestBroadPeersDriverErrors checks that the driver rejects a bad trace
// with the byte offset, and that the harness reports the run as failed.
func TestBroadPeersDriverErrors(t *testing.T) {
	driver := peersDriver(t)
	dir := t.TempDir()
	var enc bytes.Buffer
	if err := boxtrace.Write(&enc, latticeTrace(1, 3).Source()); err != nil {
		t.Fatal(err)
	}
	data := enc.Bytes()
	path := filepath.Join(dir, "bad.boxtrace")
	if err := os.WriteFile(path, data[:len(data)-3], 0o644); err != nil {
		t.Fatal(err)
	}
	// The driver names the place as the Go reader does.
	_, gerr := boxtrace.Read(bytes.NewReader(data[:len(data)-3]))
	want := strings.TrimPrefix(gerr.Error(), "box trace: ")
	sys := "bullet-dbvt"
	res := &stepTimes{}
	err := replayDriver(context.Background(), driver, sys, path, false, time.Hour, res, nil)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a truncated trace: %v, want an error with %q", err, want)
	}
	r, err := Replay(context.Background(), ReplayConfig{Scenes: []Scene{{Name: "bad", Path: path}}, Driver: driver, Systems: []string{sys}, Phases: []Phase{}})
	if err == nil {
		t.Errorf("a bad trace: no error from the harness (report %v)", r)
	}
	// An unknown system is a usage error (exit status 2).
	if err := replayDriver(context.Background(), driver, "no-such-system", filepath.Join(dir, "none"), false, time.Hour, &stepTimes{}, nil); err == nil || !strings.Contains(err.Error(), "exit status 2") {
		t.Errorf("an unknown system: %v", err)
	}
}
