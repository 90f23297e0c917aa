package queries

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/ccd"
)

// TestMain makes the test binary a child of Run when ChildEnv says so: Run
// measures in the program run again, here this binary.
func TestMain(m *testing.M) {
	if Child() {
		os.Exit(RunChild(os.Stdout))
	}
	os.Exit(m.Run())
}

// tinyScenes are the rows of the tests: small versions of each kind of row,
// and one of libcgal-demo's meshes.
func tinyScenes() []Scene {
	const torus, ball = "gen:torus:tris=120", "gen:icosphere:radius=0.4,tris=80"
	return []Scene{
		{Name: "cgal", Op: Distance, Env: "cgal:bull.off", Fly: "cgal:homer.off", From: at(3, 3, 3)},
		{Name: "far", Op: Distance, Env: torus, Fly: ball, From: at(10, 10, 10)},
		{Name: "touch", Op: Distance, Env: torus, Fly: ball, From: at(2.5, 0, 0)},
		{Name: "drop", Op: TOI, Env: torus, Fly: "gen:icosphere:radius=0.1,tris=20", From: at(2, 0, 3), To: at(2, 0, -3)},
		{Name: "miss", Op: TOI, Env: torus, Fly: ball, From: at(0, 5, 3), To: at(0, 5, -3)},
		{Name: "terrain", Op: Build, Env: "gen:terrain:n=9"},
	}
}

// TestRunTiny runs the experiment on small rows without libcgal-demo's
// meshes: every kind answers every row, in agreement with brute force or
// SweepAll, the row of real meshes is skipped saying how to install them,
// and the report has every section. Nothing is timed: the cap is far from
// any of these queries.
func TestRunTiny(t *testing.T) {
	t.Setenv(scenes.CGALDataEnv, filepath.Join(t.TempDir(), "nowhere"))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var lines []string
	rep, err := Run(ctx, Config{Scenes: tinyScenes(), Rounds: 2, Cap: time.Minute,
		Progress: func(l string) { lines = append(lines, l) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Skipped) != 1 || !strings.Contains(rep.Skipped[0], scenes.CGALInstall) || !strings.HasPrefix(rep.Skipped[0], "cgal: ") {
		t.Errorf("skipped %q, want the cgal row, saying how to install the meshes", rep.Skipped)
	}
	if len(rep.Rows) != len(tinyScenes()) || len(lines) == 0 {
		t.Fatalf("%d rows, %d progress lines", len(rep.Rows), len(lines))
	}
	wantRef := map[string]string{"far": "brute force", "touch": "brute force", "drop": "SweepAll", "miss": "SweepAll", "terrain": ""}
	for _, row := range rep.Rows {
		name := row.Scene.Name
		if name == "cgal" {
			if row.Skipped == "" || len(row.Results) != 0 {
				t.Errorf("cgal: not skipped (%d results)", len(row.Results))
			}
			continue
		}
		if row.Reference != wantRef[name] {
			t.Errorf("%s: reference %q (%s), want %q", name, row.Reference, row.RefNote, wantRef[name])
		}
		if len(row.Results) != len(Kinds()) {
			t.Errorf("%s: %d results, want one per kind", name, len(row.Results))
		}
		for _, r := range row.Results {
			if !r.Answered() || r.Capped || r.Rounds != 2 || r.Min <= 0 || r.Median < r.Min {
				t.Errorf("%s, %s: answered %v, capped %v, %d rounds, min %v, median %v (%s)", name, r.System, r.Answered(), r.Capped, r.Rounds, r.Min, r.Median, r.Err)
				continue
			}
			if row.Scene.Op == Build {
				if r.Bytes <= 0 || r.RSS <= 0 {
					t.Errorf("%s, %s: model %d bytes, process %d", name, r.System, r.Bytes, r.RSS)
				}
				continue
			}
			if !r.Agrees {
				t.Errorf("%s, %s: distance %v (bound %g), hit %v %v, disagrees with %s: %v (bound %g), hit %v %v",
					name, r.System, r.Distance, r.Bound, r.Hit, r.TOI, row.Reference, row.RefDistance, row.RefBound, row.RefHit, row.RefTOI)
			}
		}
		switch name {
		case "touch":
			if row.RefDistance != 0 {
				t.Errorf("touch: distance %v, want contact", row.RefDistance)
			}
		case "far":
			if row.RefDistance < 10 {
				t.Errorf("far: distance %v", row.RefDistance)
			}
		case "drop":
			if !row.RefHit {
				t.Error("drop: no hit")
			}
		case "miss":
			if row.RefHit {
				t.Error("miss: a hit")
			}
		}
	}
	var b strings.Builder
	if err := rep.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, s := range []string{"## Summary", "## Distance", "## Time of impact", "## Builds", "### touch:", "### drop:",
		"| cgal | distance | 20 ms | skipped |", "Left out:", scenes.CGALInstall, "| kdop18 |", "hit in ["} {
		if !strings.Contains(md, s) {
			t.Errorf("the report lacks %q", s)
		}
	}
	if t.Failed() {
		t.Logf("\n%s", md)
	}
}

// TestCapKills runs a row with a cap no query can keep (a nanosecond):
// every kind passes it, killed before its first round ends or late, and
// the report says so.
func TestCapKills(t *testing.T) {
	sc := tinyScenes()[2]
	rep, err := Run(context.Background(), Config{Scenes: []Scene{sc}, Kinds: []string{"kdop18", "rss"}, Rounds: 3,
		Cap: time.Nanosecond, BuildCap: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Rows[0].Results {
		if !r.Capped || r.Err != "" || r.Rounds > 1 || (r.Rounds == 1) != r.Late || r.Met(Target) {
			t.Errorf("%s: capped %v, late %v, %d rounds, met %v (%s)", r.System, r.Capped, r.Late, r.Rounds, r.Met(Target), r.Err)
		}
	}
	var b strings.Builder
	if err := rep.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| kdop18 | > ") && !strings.Contains(b.String(), "(past cap)") {
		t.Errorf("the report does not show the cap:\n%s", b.String())
	}

	// With a drain of a minute, every kind's first round ends within it:
	// timed, late, and the last.
	rep, err = Run(context.Background(), Config{Scenes: []Scene{sc}, Kinds: []string{"kdop18", "rss"}, Rounds: 3,
		Cap: time.Nanosecond, BuildCap: time.Minute, Drain: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Rows[0].Results {
		if !r.Capped || !r.Late || r.Rounds != 1 || !r.Agrees || r.Met(Target) {
			t.Errorf("drained %s: capped %v, late %v, %d rounds, agrees %v, met %v (%s)", r.System, r.Capped, r.Late, r.Rounds, r.Agrees, r.Met(Target), r.Err)
		}
	}
}

// TestBefore runs a row in a program "before" a change (here this test
// binary again) and in this one: both answer, in agreement, and the
// summary shows both times.
func TestBefore(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Config{Scenes: []Scene{tinyScenes()[2], tinyScenes()[5]}, Kinds: []string{"rss", "kdop18"},
		Rounds: 1, Cap: time.Minute, Before: exe})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rep.Rows {
		if len(row.Results) != 4 {
			t.Fatalf("%s: %d results, want 2 per kind", row.Scene.Name, len(row.Results))
		}
		for i, r := range row.Results {
			if r.Before != (i%2 == 0) || !r.Answered() || (row.Scene.Op != Build && !r.Agrees) {
				t.Errorf("%s, %s: before %v, answered %v, agrees %v (%s)", row.Scene.Name, r.System, r.Before, r.Answered(), r.Agrees, r.Err)
			}
		}
	}
	// A time-of-impact reference from the program before agrees with this
	// one's answers when the intervals overlap (each program's are exact,
	// but may differ within their widths), and must be equal within one.
	row := Row{Scene: tinyScenes()[3], Reference: "collide rss (before)", RefBefore: true, RefHit: true, RefTOI: ccd.Interval{Lo: 0.3, Hi: 0.5}}
	for _, c := range []struct {
		before bool
		toi    ccd.Interval
		want   bool
	}{
		{false, ccd.Interval{Lo: 0.4, Hi: 0.6}, true},
		{false, ccd.Interval{Lo: 0.6, Hi: 0.7}, false},
		{true, ccd.Interval{Lo: 0.4, Hi: 0.6}, false},
		{true, ccd.Interval{Lo: 0.3, Hi: 0.5}, true},
	} {
		r := Result{System: "kdop18", Before: c.before, Rounds: 1, Hit: true, TOI: c.toi}
		if checkAgainst(&row, &r); r.Agrees != c.want {
			t.Errorf("before %v, %v against %v: agrees %v", c.before, c.toi, row.RefTOI, r.Agrees)
		}
	}

	var b strings.Builder
	if err := rep.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), " → ") || !strings.Contains(b.String(), "| rss (before) |") {
		t.Errorf("the report does not show before and after:\n%s", b.String())
	}
}

// TestLoadMesh checks the names of meshes: a generator with parameters, a
// file, and the errors.
func TestLoadMesh(t *testing.T) {
	m, err := LoadMesh("gen:icosphere:radius=0.1,tris=20")
	if err != nil || m.NumTriangles() != 20 {
		t.Fatalf("icosphere: %v", err)
	}
	for _, src := range []string{"gen:nothing", "gen:torus:tris", "gen:torus:size=3", filepath.Join(t.TempDir(), "none.obj")} {
		if _, err := LoadMesh(src); err == nil {
			t.Errorf("%s: no error", src)
		}
	}
	if names := SceneNames(); len(names) != len(Scenes(true)) || names[0] != "bull-homer" {
		t.Errorf("scene names %q", names)
	}
}

// TestVersusPeers checks the line comparing collide with the peers:
// collide's fastest kind against the fastest peer on a distance row, OBB,
// RSS and AABB builds against FCL's and Bullet's; nothing without peers.
func TestVersusPeers(t *testing.T) {
	res := func(system string, peer bool, ms float64) Result {
		d := time.Duration(ms * float64(time.Millisecond))
		return Result{System: system, Peer: peer, Rounds: 1, Min: d, Median: d}
	}
	row := Row{Scene: Scene{Op: Distance}, Results: []Result{res("rss", false, 2), res("obb", false, 1), res("fcl-rss", true, 0.5), res("fcl-obbrss", true, 4)}}
	if got, want := row.versusPeers(), "collide's obb, 1 ms; the peers' fcl-rss, 0.5 ms: collide takes 2.00×"; !strings.Contains(got, want) {
		t.Errorf("distance: %q, want %q", got, want)
	}
	row = Row{Scene: Scene{Op: Build}, Results: []Result{res("obb", false, 8), res("aabb", false, 1), res("fcl-obb", true, 4), res("bullet", true, 0.5)}}
	if got, want := row.versusPeers(), "obb ÷ fcl-obb 2.00×, obb ÷ bullet 16.00×, aabb ÷ bullet 2.00×."; !strings.Contains(got, want) {
		t.Errorf("build: %q, want %q", got, want)
	}
	row.Results = row.Results[:2]
	if got := row.versusPeers(); got != "" {
		t.Errorf("without peers: %q", got)
	}
}
