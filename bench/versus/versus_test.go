package versus

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/internal/flights"
	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/mesh"
)

// fakeDriverEnv, when set, makes the test binary act as a peers driver
// (fakeDriver), so that Run can be tested without the C++ peers.
const fakeDriverEnv = "COLLIDE_FAKE_PEERS"

func TestMain(m *testing.M) {
	if os.Getenv(fakeDriverEnv) != "" {
		if err := fakeDriver(os.Args[1:]); err != nil {
			fmt.Fprintln(os.Stderr, "fake-peers:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeDriver speaks the driver's protocol with collide's own answers:
// fake-exact and fake-contacts answer right (fake-contacts reporting only
// the first pair, as a contact-point system would); fake-wrong drops a pair
// at the first step with several and claims a contact at the first step
// without one; fake-slow answers right but claims 50 ms a query; fake-fail
// fails.
func fakeDriver(args []string) error {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	if len(args) == 1 && args[0] == "--list" {
		fmt.Fprintln(w, `{"system":"fake-exact","modes":["first","all"],"pairs":"all"}`)
		fmt.Fprintln(w, `{"system":"fake-wrong","modes":["all"],"pairs":"all"}`)
		fmt.Fprintln(w, `{"system":"fake-contacts","modes":["all"],"pairs":"some"}`)
		fmt.Fprintln(w, `{"system":"fake-fail","modes":["first"],"pairs":"all"}`)
		fmt.Fprintln(w, `{"system":"fake-slow","modes":["all"],"pairs":"all"}`)
		return nil
	}
	if len(args) < 5 || args[0] != "--system" {
		return fmt.Errorf("usage: --system NAME [--all] ENV FLY POSES (got %q)", args)
	}
	name, all := args[1], args[2] == "--all"
	files := args[len(args)-3:]
	if name == "fake-fail" {
		return fmt.Errorf("fake failure")
	}
	load := func(path string) (*collide.Model, error) {
		m, err := mesh.Load(path)
		if err != nil {
			return nil, err
		}
		return collide.Build(m, collide.BuildOptions{})
	}
	env, err := load(files[0])
	if err != nil {
		return err
	}
	fly, err := load(files[1])
	if err != nil {
		return err
	}
	f, err := os.Open(files[2])
	if err != nil {
		return err
	}
	defer f.Close()
	poses, err := flight.ReadPoses(f)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, `{"build":{"system":"`+name+`","seconds":0.001,"bytes":1000,"peak_bytes":2000}}`)
	dropped, claimed := false, false
	for i, p := range poses {
		res, err := collide.Check(env, fly, p, collide.QueryOptions{All: all})
		if err != nil {
			return err
		}
		pairs := [][2]int32{}
		for _, q := range res.Pairs {
			pairs = append(pairs, [2]int32{q.Env, q.Fly})
		}
		switch {
		case name == "fake-contacts" && len(pairs) > 1:
			pairs = pairs[:1]
		case name == "fake-wrong" && !dropped && len(pairs) > 1:
			pairs, dropped = pairs[1:], true
		case name == "fake-wrong" && !claimed && !res.Collide:
			pairs, claimed = [][2]int32{{0, 0}}, true
		}
		seconds := 1e-6
		if name == "fake-slow" {
			seconds = 0.05
		}
		line, _ := json.Marshal(map[string]any{"pose": i, "collide": len(pairs) > 0, "pairs": pairs,
			"stats": map[string]int64{"tests": 1}, "seconds": seconds})
		w.Write(append(line, '\n'))
	}
	return nil
}

func TestRunPeersFake(t *testing.T) {
	t.Setenv(fakeDriverEnv, "1")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), Config{Size: scenes.Quick, Seed: 1, Scenes: []string{"torus"}, Steps: 60,
		Driver: exe, BVs: []string{"kdop18", "obb"}, Rounds: 2, SlowSteps: 20})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(r.Systems), 4+6; got != want {
		t.Fatalf("%d systems, want %d: %v", got, want, r.Systems)
	}
	if r.Systems[0] != (System{Name: "collide kdop18", BV: "kdop18", All: true, Complete: true}) {
		t.Errorf("the reference is not first: %v", r.Systems[0])
	}
	ref := r.Run("torus", r.Systems[0])
	if ref.Sum.Colliding == 0 || ref.Sum.Colliding == ref.Sum.Steps {
		t.Fatalf("the flight must have steps with and without contact (%d of %d in contact)", ref.Sum.Colliding, ref.Sum.Steps)
	}
	for _, sys := range r.Systems {
		run := r.Run("torus", sys)
		if run == nil {
			t.Fatalf("%s: no run", sys)
		}
		switch sys.Name {
		case "fake-fail":
			if !strings.Contains(run.Err, "fake failure") || len(run.Sum.Times) != 0 {
				t.Errorf("%s: error %q, %d times; want the driver's message and no times", sys, run.Err, len(run.Sum.Times))
			}
			continue
		case "fake-wrong":
			if run.Disagree != 2 || run.Wrong != 2 {
				t.Errorf("%s: %d disagreements, %d wrong; want 2 and 2", sys, run.Disagree, run.Wrong)
			}
		default:
			if run.Disagree != 0 || run.Wrong != 0 || run.Err != "" {
				t.Errorf("%s: %d disagreements, %d wrong, error %q; want none", sys, run.Disagree, run.Wrong, run.Err)
			}
		}
		if sys.Name == "fake-slow" {
			if !run.Capped || run.Rounds != 1 || len(run.Sum.Times) != 20 || run.Sum.Steps != 20 {
				t.Errorf("%s: capped %v after %d rounds, %d steps (%d times); want capped at 20 steps, once",
					sys, run.Capped, run.Rounds, run.Sum.Steps, len(run.Sum.Times))
			}
			if run.Disagree != 0 {
				t.Errorf("%s: %d disagreements", sys, run.Disagree)
			}
			continue
		}
		if run.Capped {
			t.Errorf("%s: capped", sys)
		}
		if run.Sum.Steps != ref.Sum.Steps || len(run.Sum.Times) != ref.Sum.Steps || run.Build <= 0 || run.Bytes <= 0 {
			t.Errorf("%s: %d steps, %d times, build %v, %d bytes", sys, run.Sum.Steps, len(run.Sum.Times), run.Build, run.Bytes)
		}
		if sys.Name != "fake-wrong" && run.Sum.Colliding != ref.Sum.Colliding {
			t.Errorf("%s: %d steps in contact, want %d", sys, run.Sum.Colliding, ref.Sum.Colliding)
		}
	}
	var kinds []string
	for _, d := range r.Disagreements {
		if d.System.Name != "fake-wrong" {
			t.Errorf("disagreement of %s at step %d: %s", d.System, d.Step, d.Kind())
			continue
		}
		kinds = append(kinds, fmt.Sprintf("%s %d %d %s", d.Kind(), d.Missing, d.Extra, d.ExampleString()))
	}
	slices.Sort(kinds)
	if len(kinds) != 2 || kinds[0] != "false contact 0 1 +0/0" || !strings.HasPrefix(kinds[1], "missing pairs 1 0 -") {
		t.Errorf("disagreements %q, want a false contact (+0/0) and one missing pair", kinds)
	}
	if r.Oracle != 2 {
		t.Errorf("%d steps checked by the oracle, want 2", r.Oracle)
	}

	var md, csv bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, all := range []bool{true, false} {
		c, peers := r.Best("torus", all)
		if c.Run == nil || c.Run.System.Peer || c.Run.System.All != all || c.Ratio != 1 {
			t.Errorf("all %v: collide's best %+v", all, c)
		}
		// One family, fake; in first-contact mode fake-exact alone
		// (fake-fail failed).
		if len(peers) != 1 || Family(peers[0].Run.System.Name) != "fake" || peers[0].Ratio <= 0 ||
			!all && peers[0].Run.System.Name != "fake-exact" {
			t.Errorf("all %v: the peers' best %+v", all, peers)
		}
	}
	for _, want := range []string{"## torus", "| fake-wrong | all |", "false contact", "failed: ", "## Agreement",
		"## Collide's best against each peer's best", "| torus | first |",
		"| fake-slow | all | 20 (capped) |", "first 20 steps"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if err := r.WriteDisagreementsCSV(&csv); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(csv.String(), "\n"); n != 3 {
		t.Errorf("the CSV has %d lines, want a header and 2 rows:\n%s", n, csv.String())
	}
}

func TestParseDriver(t *testing.T) {
	build := `{"build":{"seconds":0.5,"bytes":10,"peak_bytes":20}}` + "\n"
	tests := []struct {
		name, out, err string
	}{
		{"good", build + `{"pose":0,"collide":true,"pairs":[[3,4],[1,2],[3,4]],"stats":{},"seconds":0.25}` + "\n" +
			`{"pose":1,"collide":false,"pairs":[],"stats":{"x":2},"seconds":0.5}`, ""},
		{"empty", "", "driver output: EOF"},
		{"no build line", `{"pose":0,"collide":false,"pairs":[],"seconds":1}`, "not the build line"},
		{"short", build + `{"pose":0,"collide":false,"pairs":[],"seconds":1}`, "1 poses, want 2"},
		{"out of order", build + `{"pose":1,"collide":false,"pairs":[],"seconds":1}`, "line 2 is not pose 0"},
		{"garbage", build + `{"pose":0,"collide":false,"pairs":[],"seconds":1}` + "\nnot json", "pose 1: invalid character"},
		{"short pair", build + `{"pose":0,"collide":true,"pairs":[[1]],"seconds":1}`, "pair [1] is not"},
		{"long pair", build + `{"pose":0,"collide":true,"pairs":[[1,2,3]],"seconds":1}`, "pair [1 2 3] is not"},
		{"negative", build + `{"pose":0,"collide":true,"pairs":[[-1,2]],"seconds":1}`, "pair [-1 2] is not"},
		{"out of range", build + `{"pose":0,"collide":true,"pairs":[[10,2]],"seconds":1}`, "pair [10 2] is not [env triangle, fly triangle] (10 and 5 triangles)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := parseDriver(strings.NewReader(tc.out), 2, 10, 5, capRule{})
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				want := []collide.Pair{{Env: 1, Fly: 2}, {Env: 3, Fly: 4}}
				if !slices.Equal(res.pairs[0], want) || len(res.pairs[1]) != 0 || !res.collide[0] || res.collide[1] ||
					res.times[1].Seconds() != 0.5 || res.build.Seconds() != 0.5 || res.peak != 20 || res.counters["x"] != 2 {
					t.Errorf("parsed %+v", res)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("error %v, want one containing %q", err, tc.err)
			}
		})
	}
}

// TestRunPeersSharesTrees checks that the two modes of a kind fly the same
// trees, built once a round (a kind's builds were most of a quick run's
// time): their runs report the same build, to the nanosecond, and the same
// memory, and find the answers the reference finds (the first-contact run
// in contact at the same steps).
func TestRunPeersSharesTrees(t *testing.T) {
	r, err := Run(context.Background(), Config{Size: scenes.Quick, Seed: 1, Scenes: []string{"torus"}, Steps: 40, BVs: []string{"kdop18", "aabb"}, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, bv := range []string{"kdop18", "aabb"} {
		first := r.Run("torus", System{Name: "collide " + bv, BV: bv})
		all := r.Run("torus", System{Name: "collide " + bv, BV: bv, All: true, Complete: true})
		if first == nil || all == nil {
			t.Fatalf("%s: runs %v and %v", bv, first, all)
		}
		if first.Build != all.Build || first.Bytes != all.Bytes || first.Peak != all.Peak || first.Build <= 0 {
			t.Errorf("%s: first contact built in %v (%d bytes, peak %d), all pairs in %v (%d, %d): not the same trees",
				bv, first.Build, first.Bytes, first.Peak, all.Build, all.Bytes, all.Peak)
		}
		if first.Sum.Colliding != all.Sum.Colliding || first.Disagree != 0 || all.Disagree != 0 {
			t.Errorf("%s: %d steps in contact to the first contact, %d with all pairs; %d and %d disagreements",
				bv, first.Sum.Colliding, all.Sum.Colliding, first.Disagree, all.Disagree)
		}
	}
}

// TestRunProximitySuite flies the two smallest scenes of the proximity
// suite (CAD parts sliding past each other, and half cylinders), when
// Debian's libcgal-demo is installed, with every kind of tree in both
// modes beside a driver (the fake one): every run flies every pose, no
// system disagrees with collide, and the report gives each scene's doc.
func TestRunProximitySuite(t *testing.T) {
	names := []string{"parts", "cylinders"}
	for _, n := range names {
		if err := scenes.Available(n); err != nil {
			t.Skip(err)
		}
	}
	t.Setenv(fakeDriverEnv, "1")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), Config{Size: scenes.Quick, Seed: 1, Scenes: names, Steps: 16, Driver: exe, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, info := range r.Scenes {
		if info.Steps != 16 || !strings.Contains(md.String(), info.Doc) {
			t.Errorf("%s: %d steps, doc %q in the report: %v", info.Name, info.Steps, info.Doc, strings.Contains(md.String(), info.Doc))
		}
		for _, bv := range flights.TableBVs {
			for _, sys := range CollideSystems([]string{bv}) {
				if run := r.Run(info.Name, sys); run == nil || run.Err != "" || run.Sum.Steps != 16 || run.Disagree != 0 {
					t.Errorf("%s, %s: %+v", info.Name, sys, run)
				}
			}
		}
		ref := r.Run(info.Name, r.Systems[0])
		if ref.Sum.Colliding == 0 || ref.Sum.Colliding == ref.Sum.Steps {
			t.Errorf("%s: %d of %d steps in contact: want some of each", info.Name, ref.Sum.Colliding, ref.Sum.Steps)
		}
		if run := r.Run(info.Name, System{Name: "fake-exact", Peer: true, All: true, Complete: true}); run == nil || run.Disagree != 0 {
			t.Errorf("%s: fake-exact, all pairs: %+v", info.Name, run)
		}
	}
}
