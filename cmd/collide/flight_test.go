package main

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFlightDefault runs the main job as the README gives it: no flags, the
// Swept scene with AABB trees (the default --bv), which must find no
// contact.
func TestFlightDefault(t *testing.T) {
	if testing.Short() {
		t.Skip("the full Swept scene")
	}
	stdout, stderr, code := runCLI(t, "flight")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"flight swept: aabb", "1000, 0 in contact, 0 contact pairs", "query time   mean", "p99", "Nv", "Np", "Nu", "built in"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the summary lacks %q:\n%s", want, stdout)
		}
	}
}

// TestFlightRecordReplay records a quick billiard flight and replays it:
// the same steps find the same pairs. With the front on or off the replay
// also does the same work (the same counters); with auto, whether a step
// flies from a front depends on how long probes took, so only the answers
// must repeat.
func TestFlightRecordReplay(t *testing.T) {
	dir := t.TempDir()
	poses := filepath.Join(dir, "poses.txt")
	svg := filepath.Join(dir, "steps.svg")
	first, stderr, code := runCLI(t, "flight", "--scene", "747", "--quick", "--all", "--json", "--record", poses, "--plot", svg)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	a := jsonSteps(t, first)
	if len(a) != 500 {
		t.Fatalf("%d steps recorded; want 500", len(a))
	}
	contacts := 0
	for i := range a {
		if strings.Contains(a[i], `"collide":true`) {
			contacts++
		}
	}
	if contacts == 0 || contacts == len(a) {
		t.Errorf("%d of %d steps in contact: the flight should meet some tetrahedra and miss others", contacts, len(a))
	}
	for _, front := range []string{"off", "on", "auto"} {
		rec, stderr, code := runCLI(t, "flight", "--scene", "747", "--quick", "--all", "--json", "--front", front)
		if code != exitOK {
			t.Fatalf("--front %s: exit %d: %s", front, code, stderr)
		}
		again, stderr, code := runCLI(t, "flight", "--scene", "747", "--quick", "--all", "--json", "--front", front, "--poses", poses)
		if code != exitOK {
			t.Fatalf("--front %s replay: exit %d: %s", front, code, stderr)
		}
		r, b := jsonSteps(t, rec), jsonSteps(t, again)
		if len(b) != len(a) || len(r) != len(a) {
			t.Fatalf("--front %s: %d steps flown, %d replayed; want %d", front, len(r), len(b), len(a))
		}
		for i := range a {
			if answer(t, a[i]) != answer(t, b[i]) {
				t.Fatalf("--front %s, step %d: recorded %s, replayed %s", front, i, a[i], b[i])
			}
			if front != "auto" && r[i] != b[i] {
				t.Fatalf("--front %s, step %d: flown %s, replayed %s", front, i, r[i], b[i])
			}
		}
	}
	f, err := os.Open(svg)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := xml.NewDecoder(f)
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("the plot is not XML: %v", err)
		}
	}
	// Outputs are not overwritten without --force.
	_, stderr, code = runCLI(t, "flight", "--scene", "747", "--quick", "--steps", "3", "--record", poses)
	if code != exitError || !strings.Contains(stderr, "--force") {
		t.Errorf("overwriting the record: exit %d, %s", code, stderr)
	}
	if _, stderr, code = runCLI(t, "flight", "--scene", "747", "--quick", "--steps", "3", "--record", poses, "--force"); code != exitOK {
		t.Errorf("with --force: exit %d, %s", code, stderr)
	}
}

// jsonSteps returns the per-step lines of flight --json without their
// timings, checking the last line is the summary.
// answer is a JSON step line without its counters: what it found.
func answer(t *testing.T, step string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(step), &m); err != nil {
		t.Fatalf("not JSON: %q", step)
	}
	delete(m, "stats")
	b, _ := json.Marshal(m)
	return string(b)
}

func jsonSteps(t *testing.T, out string) []string {
	t.Helper()
	var steps []string
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	var last map[string]json.RawMessage
	for sc.Scan() {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("not JSON: %q", sc.Text())
		}
		if _, ok := m["summary"]; ok {
			last = m
			continue
		}
		delete(m, "seconds")
		b, _ := json.Marshal(m)
		steps = append(steps, string(b))
	}
	if last == nil {
		t.Fatal("no summary line")
	}
	return steps
}

func TestFlightEnvFly(t *testing.T) {
	stdout, stderr, code := runCLI(t, "flight", "--env", "gen:tetrahedra", "--fly", "gen:torus:major=0.3,minor=0.1", "--steps", "50", "--bv", "obb")
	if code != exitOK || !strings.Contains(stdout, "steps               50") || !strings.Contains(stdout, ": obb, first contact") {
		t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
	}
}

func TestFlightUsage(t *testing.T) {
	tests := [][]string{
		{"flight", "extra"},
		{"flight", "--scene", "nope"},
		{"flight", "--env", "gen:torus"},
		{"flight", "--scene", "pipes", "--env", "gen:torus", "--fly", "gen:torus"},
		{"flight", "--steps", "-1"},
		{"flight", "--eps", "NaN"},
		{"flight", "--bv", "kdop7"},
		{"flight", "--env", "gen:torus", "--fly", "gen:torus", "--quick"},
		{"bench", "--scenes", "pipes,nope"},
		{"bench", "extra"},
	}
	for _, args := range tests {
		if _, stderr, code := runCLI(t, args...); code != exitUsage {
			t.Errorf("%q: exit %d, want %d (%s)", args, code, exitUsage, stderr)
		}
	}
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.txt", []byte("1 0 0 0 1 0 0 0 1 0 0 0\n1 0 0\n"))
	_, stderr, code := runCLI(t, "flight", "--quick", "--poses", bad)
	if code != exitError || !strings.Contains(stderr, bad+": line 2: want 12 numbers") {
		t.Errorf("a bad pose file: exit %d, %s", code, stderr)
	}
}

// TestBenchQuick runs collide bench --quick on two scenes and checks the
// report: every table, with the paper's figures beside ours, and its
// charts.
func TestBenchQuick(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runCLI(t, "bench", "--quick", "--scenes", "torus,swept", "--steps", "60", "-o", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "report.md") {
		t.Errorf("stdout: %s", stdout)
	}
	report, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Table 1", "Table 2", "Table 3", "Table 4", "Table 5", "Table 6", "Table 7",
		"| kdop18 | ", "(0.184)", "obb / kdop18", "(23.5)", "steps-torus.svg", "nested-2000.svg"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	for _, name := range []string{"steps-torus.svg", "steps-swept.svg", "table2.svg", "nested-2000.svg", "nested-20000.svg"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	if _, stderr, code := runCLI(t, "bench", "--quick", "--scenes", "torus", "-o", dir); code != exitError || !strings.Contains(stderr, "--force") {
		t.Errorf("a second run into the same folder: exit %d, %s", code, stderr)
	}
}

// TestBenchPeersUsage checks bench --peers's errors: flags that need
// --peers, and a driver that is not there.
func TestBenchPeersUsage(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"bench", "--driver", "x"},
		{"bench", "--rounds", "2"},
		{"bench", "--peers", "--rounds", "-1"},
	} {
		if _, stderr, code := runCLI(t, args...); code != exitUsage {
			t.Errorf("%q: exit %d, %s", args, code, stderr)
		}
	}
	missing := filepath.Join(dir, "no-driver")
	_, stderr, code := runCLI(t, "bench", "--peers", "--driver", missing, "-o", dir)
	if code != exitError || !strings.Contains(stderr, missing) || !strings.Contains(stderr, "bench/peers/build.sh") {
		t.Errorf("a missing driver: exit %d, %s", code, stderr)
	}
}

// TestBenchPeers runs collide bench --peers --quick with the real peers
// driver when $COLLIDE_PEERS names it (CI builds it with
// bench/peers/build.sh), on one scene, and checks that every system ran and
// that collide was right at every step.
func TestBenchPeers(t *testing.T) {
	driver := os.Getenv("COLLIDE_PEERS")
	if driver == "" {
		t.Skip("COLLIDE_PEERS is not set: build the driver with bench/peers/build.sh and point COLLIDE_PEERS at it")
	}
	dir := t.TempDir()
	stdout, stderr, code := runCLI(t, "bench", "--peers", "--quick", "--scenes", "torus", "--steps", "100", "--rounds", "1", "-o", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "peers.md") {
		t.Errorf("stdout: %s", stdout)
	}
	report, err := os.ReadFile(filepath.Join(dir, "peers.md"))
	if err != nil {
		t.Fatal(err)
	}
	md := string(report)
	for _, want := range []string{"| collide kdop18 | all |", "| fcl-obb | first |", "| fcl-kdop18 | all |", "| opcode-tc | first |", "| ode | all |", "| bullet | all |",
		"## Collide's best against each peer's best", "| scene | mode | collide | fcl | opcode | ode | bullet | fastest peer |", "| torus | first |"} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(md, "failed: ") {
		t.Errorf("a system failed:\n%s", md)
	}
	csv, err := os.ReadFile(filepath.Join(dir, "peers-disagreements.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(csv), "\n") {
		if strings.HasPrefix(line, "torus,collide ") {
			t.Errorf("collide was wrong: %s", line)
		}
	}
}
