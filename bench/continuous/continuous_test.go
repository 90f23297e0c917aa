package continuous

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/peers"
	"github.com/collide3d/collide/ccd"
	"github.com/collide3d/collide/geom"
)

// TestParseCCDPeer parses good and bad outputs of the driver's ccd mode.
func TestParseCCDPeer(t *testing.T) {
	build := `{"build":{"system":"fcl-x","mode":"ccd","seconds":0.001,"bytes":10,"peak_bytes":20,"env_triangles":12,"fly_triangles":80}}` + "\n"
	good := build +
		`{"motion":0,"hit":true,"toi":0.25,"seconds":1e-05}` + "\n" +
		`{"motion":1,"hit":false,"seconds":2e-06}` + "\n" +
		`{"motion":2,"skipped":"CCDM_TRANS does not turn"}` + "\n" +
		`{"motion":3,"error":"boom"}` + "\n"
	b, got, err := ParsePeer(strings.NewReader(good), "fcl-x", 4)
	if err != nil {
		t.Fatal(err)
	}
	if b.System != "fcl-x" || b.EnvTris != 12 || b.FlyTris != 80 || b.Build != time.Millisecond || b.Bytes != 10 || b.Peak != 20 {
		t.Errorf("build %+v", b)
	}
	want := []PeerCCD{
		{Motion: 0, Hit: true, TOI: 0.25, Nanos: 10000},
		{Motion: 1, Nanos: 2000},
		{Motion: 2, Skipped: "CCDM_TRANS does not turn"},
		{Motion: 3, Err: "boom"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	for _, c := range []struct{ name, out string }{
		{"empty", ""},
		{"no build", `{"motion":0,"hit":false,"seconds":1}` + "\n"},
		{"other system", strings.Replace(build, "fcl-x", "fcl-y", 1)},
		{"other mode", strings.Replace(build, `"ccd"`, `"distance"`, 1)},
		{"too few", build + `{"motion":0,"hit":false,"seconds":1}` + "\n"},
		{"order", build + `{"motion":1,"hit":false,"seconds":1}` + "\n" + `{"motion":0,"hit":false,"seconds":1}` + "\n"},
		{"hit without toi", build + `{"motion":0,"hit":true,"seconds":1}` + "\n" + `{"motion":1,"hit":false,"seconds":1}` + "\n"},
		{"toi without hit", build + `{"motion":0,"hit":false,"toi":0.5,"seconds":1}` + "\n" + `{"motion":1,"hit":false,"seconds":1}` + "\n"},
		{"no seconds", build + `{"motion":0,"hit":false}` + "\n" + `{"motion":1,"hit":false,"seconds":1}` + "\n"},
		{"negative time", build + `{"motion":0,"hit":false,"seconds":-1}` + "\n" + `{"motion":1,"hit":false,"seconds":1}` + "\n"},
		{"error and hit", build + `{"motion":0,"hit":false,"error":"x"}` + "\n" + `{"motion":1,"hit":false,"seconds":1}` + "\n"},
		{"too many", build + `{"motion":0,"hit":false,"seconds":1}` + "\n" + `{"motion":1,"hit":false,"seconds":1}` + "\n" + `{"motion":2,"hit":false,"seconds":1}` + "\n"},
		{"garbage", build + "{\n"},
	} {
		_, _, err := ParsePeer(strings.NewReader(c.out), "fcl-x", 2)
		var oe *peers.OutputError
		if !errors.As(err, &oe) {
			t.Errorf("%s: error %v, want a *peers.OutputError", c.name, err)
		}
	}
}

// TestScrew checks the screw path (FCL's ScrewMotion) against the motion's
// poses at its ends, and its speed bound against finite differences.
func TestScrew(t *testing.T) {
	for _, m := range []ccd.Motion{
		{From: geom.Translation(geom.V(1, 2, 3)), To: geom.Translation(geom.V(-1, 0, 5))},
		{From: geom.FromAxisAngle(geom.V(1, 2, 3), 0.4, geom.V(1, 0, 0)), To: geom.FromAxisAngle(geom.V(-1, 2, 0.5), 2.1, geom.V(0, 3, -1))},
		{From: geom.FromAxisAngle(geom.V(0, 0, 1), 0, geom.V(0, 0, 0)), To: geom.FromAxisAngle(geom.V(0, 0, 1), 3, geom.V(2, 0, 0))},
	} {
		s := newScrew(m)
		for _, c := range []struct {
			t    float64
			want geom.Pose
		}{{0, m.From}, {1, m.To}} {
			got := s.at(c.t)
			for i := range 3 {
				if !got.R.Row(i).ApproxEqual(c.want.R.Row(i), 1e-12) {
					t.Errorf("%+v: at(%g).R = %v, want %v", m, c.t, got.R, c.want.R)
				}
			}
			if !got.T.ApproxEqual(c.want.T, 1e-12) {
				t.Errorf("%+v: at(%g).T = %v, want %v", m, c.t, got.T, c.want.T)
			}
		}
		// A point at distance rho = 1 from the origin never moves faster
		// than speed(1).
		x := geom.V(0.6, 0, 0.8)
		v := s.speed(1)
		const n = 1000
		for k := range n {
			a, b := s.at(float64(k)/n).Apply(x), s.at(float64(k+1)/n).Apply(x)
			if d := a.Distance(b) * n; d > v*(1+1e-9) {
				t.Fatalf("%+v: the point moves at %g, speed bound %g", m, d, v)
			}
		}
	}
}

// TestCCDScenes checks the scenes: their sizes, and that the poses of
// tunnel and tumble are free of contact, as the sampling needs.
func TestCCDScenes(t *testing.T) {
	scenes, err := Scenes(true, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(scenes) != len(SceneNames) {
		t.Fatalf("%d scenes", len(scenes))
	}
	for _, s := range scenes {
		if s.Motions() < 8 {
			t.Errorf("%s: %d motions", s.Name, s.Motions())
		}
		for i, p := range s.Poses {
			if err := p.Validate(); err != nil {
				t.Errorf("%s: pose %d: %v", s.Name, i, err)
			}
		}
		if s.Name != "tunnel" && s.Name != "tumble" {
			continue
		}
		env, _ := collide.Build(s.Env, collide.BuildOptions{})
		fly, _ := collide.Build(s.Fly, collide.BuildOptions{})
		for i, p := range s.Poses {
			if r, err := collide.Check(env, fly, p, collide.QueryOptions{}); err != nil || r.Collide {
				t.Errorf("%s: pose %d in contact (%v)", s.Name, i, err)
			}
		}
	}
	if _, err := SceneNamed("nowhere", true, 1); err == nil {
		t.Error("no error for an unknown scene")
	}
}

// TestCCDSampling checks the oracle and collide on the graze scene, whose
// contacts are known: the corner passes the edge at t = 1/2, at the mean
// of its two ends' offsets.
func TestCCDSampling(t *testing.T) {
	s, err := SceneNamed("graze", true, 1)
	if err != nil {
		t.Fatal(err)
	}
	s.Poses = s.Poses[:13] // through the exact touch and the first contacts after it
	rep, err := Run(context.Background(), Config{Scenes: []Scene{s}, Samples: 101, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	sr := rep.Scenes[0]
	for i, m := range sr.Motions {
		d := (grazeOffsets[i] + grazeOffsets[i+1]) / 2
		if want := d <= 0; m.Sampled.Contact != want {
			t.Errorf("motion %d (offset %g): sampled contact %v, want %v", i, d, m.Sampled.Contact, want)
		}
		if m.Sampled.Contact && (m.Sampled.First > 0.5+1e-9 || m.Sampled.First < 0.49) {
			t.Errorf("motion %d (offset %g): first sampled contact %.17g, want about 1/2", i, d, m.Sampled.First)
		}
		if a := sr.Rows[0].Answers[i]; a.Verdict != Agree {
			// collide is being written: logged, not failed.
			t.Logf("motion %d (offset %g): collide: %s (%s)", i, d, a.Verdict, a.Why)
		}
	}
	var b strings.Builder
	if err := rep.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## All scenes", "## graze", "| collide kdop18 |"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	t.Logf("\n%s", b.String())
}

// fakeCCDDriver writes a shell script that answers as the driver's ccd
// mode: no contact on every motion, except that it dies (SIGSEGV) on a
// motion whose start pose has tx = 7 and hangs on one with tx = 8.
func fakeCCDDriver(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fake-peers")
	script := `#!/bin/sh
if [ "$1" = "--list-ccd" ]; then echo '{"system":"fake","variant":"x"}'; exit 0; fi
[ "$1" = "--ccd" ] || exit 2
echo '{"build":{"system":"fake","mode":"ccd","seconds":0.001,"bytes":1,"peak_bytes":1,"env_triangles":12,"fly_triangles":12}}'
grep -v '^#' "$5" | grep -v '^ *$' > "$5.lines"
n=$(wc -l < "$5.lines")
i=0
while [ $i -lt $((n - 1)) ]; do
	tx=$(sed -n "$((i + 1))p" "$5.lines" | cut -d' ' -f10)
	if [ "$tx" = 7 ]; then kill -SEGV $$; fi
	if [ "$tx" = 8 ]; then sleep 30; fi
	echo "{\"motion\":$i,\"hit\":false,\"seconds\":1e-06}"
	i=$((i + 1))
done
`
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRunCCDPeerFailures runs a fake driver that dies on one motion and
// hangs on another: those motions get errors, the others answers.
func TestRunCCDPeerFailures(t *testing.T) {
	driver := fakeCCDDriver(t)
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	dir := t.TempDir()
	var poses []geom.Pose
	for _, x := range []float64{0, 1, 7, 2, 8, 3, 4} {
		poses = append(poses, geom.Translation(geom.V(x, 0, 0)))
	}
	posesPath := filepath.Join(dir, "motions.txt")
	if err := peers.WritePoses(posesPath, "test", poses); err != nil {
		t.Fatal(err)
	}
	b, got, err := RunPeer(context.Background(), driver, "fake", "env.obj", "fly.obj", posesPath, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if b.System != "fake" || len(got) != len(poses)-1 {
		t.Fatalf("build %+v, %d answers", b, len(got))
	}
	for i, a := range got {
		if a.Motion != i {
			t.Errorf("answer %d is motion %d", i, a.Motion)
		}
		switch i {
		case 2:
			if !strings.Contains(a.Err, "died") {
				t.Errorf("motion 2: %+v, want the driver's death", a)
			}
		case 4:
			if !strings.Contains(a.Err, "no answer within") {
				t.Errorf("motion 4: %+v, want a time-out", a)
			}
		default:
			if a.Err != "" || a.Hit {
				t.Errorf("motion %d: %+v", i, a)
			}
		}
	}
}

// TestCCDPeersDriver runs every continuous collision system of the driver
// named by $COLLIDE_PEERS on the quick scenes (fewer motions), checks that
// every system answered every motion of every scene and that collide's
// own answers agree with the sampling, and logs the report. FCL's misses
// and inventions are its own: logged, not failed.
func TestCCDPeersDriver(t *testing.T) {
	driver := peersDriver(t)
	systems, err := DriverSystems(driver)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fcl-ca-screw-rss", "fcl-ca-linear-obbrss", "fcl-poly-trans-obbrss"} {
		if !slices.Contains(systems, want) {
			t.Errorf("the driver lacks %s (it has %v)", want, systems)
		}
	}
	scenes, err := Scenes(true, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range scenes {
		scenes[i].Poses = scenes[i].Poses[:min(len(scenes[i].Poses), 9)]
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	rep, err := Run(ctx, Config{Scenes: scenes, Driver: driver, Samples: 101, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rep.Scenes {
		if len(s.Rows) != 1+len(systems) {
			t.Errorf("%s: %d rows, want %d", s.Name, len(s.Rows), 1+len(systems))
		}
		for _, row := range s.Rows {
			if row.Err != "" {
				t.Errorf("%s: %s: %s", s.Name, row.System, row.Err)
				continue
			}
			if len(row.Answers) != len(s.Motions) {
				t.Errorf("%s: %s: %d answers, want %d", s.Name, row.System, len(row.Answers), len(s.Motions))
			}
			if strings.HasPrefix(row.System, "collide ") {
				// collide must never contradict the sampling.
				if n := row.Counts[Miss] + row.Counts[Late] + row.Counts[Invent] + row.Counts[Early]; n > 0 {
					t.Logf("%s: collide disagrees with the sampling on %d motions (is TimeOfImpact still a stub?)", s.Name, n)
				}
			}
			for i, a := range row.Answers {
				if a.Verdict != Agree && a.Verdict != Skipped {
					t.Logf("%s: %s, motion %d: %s: %s", s.Name, row.System, i, a.Verdict, a.Why)
				}
			}
		}
	}
	var b strings.Builder
	if err := rep.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", b.String())
}

// peersDriver returns the driver named by $COLLIDE_PEERS, or skips the
// test.
func peersDriver(t *testing.T) string {
	driver := os.Getenv("COLLIDE_PEERS")
	if driver == "" {
		t.Skip("COLLIDE_PEERS is not set: build the driver with bench/peers/build.sh and point COLLIDE_PEERS at it")
	}
	return driver
}
