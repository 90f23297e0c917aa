package jobs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/collide3d/collide/geom"
)

// runPosesCLI runs the CLI with args in the working directory, returning
// its stdout, stderr and exit status.
func runPosesCLI(t *testing.T, args []string) (stdout, stderr string, code int) {
	t.Helper()
	out, errb, code := runCLI(t, "", args)
	return string(out), string(errb), code
}

// posesTiming matches the fields of a line that depend on the run.
var posesTiming = regexp.MustCompile(`"stats":\{[^}]*\}|"seconds":[^,}]*`)

func maskTiming(s string) string { return posesTiming.ReplaceAllString(s, "T") }

// posesFile writes a pose file of the poses, one a line, with comments,
// blank lines and mixed line ends (LF, CRLF, CR), and returns its path.
func posesFile(t *testing.T, dir, name string, poses []geom.Pose) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("# a pose file\r\n\r\n")
	ends := []string{"\n", "\r\n", "\n", "\r\n  # a comment\r\n", "\n\n", "\r"}
	for i, p := range poses {
		for k, x := range p.Array() {
			if k > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%v", x)
		}
		if i%5 == 2 {
			b.WriteString(" # pose comment")
		}
		if i == len(poses)-1 {
			b.WriteString("\r\n# the end\n")
			break
		}
		b.WriteString(ends[i%len(ends)])
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// posesPath is a path of FLY past ENV (a torus of radius 2, its tube
// 0.5): in contact at some poses, apart at others, turning.
func posesPath(n int) []geom.Pose {
	var poses []geom.Pose
	for i := range n {
		a := 0.15 * float64(i)
		r := 2.0 + 1.3*math.Sin(0.7*float64(i))
		rot := geom.AxisAngle(geom.Vec3{X: 0.3, Y: 1, Z: 0.2}, 0.05*float64(i)).Mat3()
		poses = append(poses, geom.Pose{R: rot, T: geom.Vec3{X: r * math.Cos(a), Y: r * math.Sin(a), Z: 0.1}})
	}
	return poses
}

// runJob plans j in shards of size, runs every shard (in reverse order,
// each on its own) and returns the lines joined in shard order.
func runJob(t *testing.T, j Job, size int, c *Cache) (string, Summary) {
	t.Helper()
	ctx := context.Background()
	p, err := PlanJob(ctx, j, size, c)
	if err != nil {
		t.Fatalf("%s: plan: %v", j.ID, err)
	}
	outs := make([]bytes.Buffer, len(p.Shards))
	var rs []Result
	for i := len(p.Shards) - 1; i >= 0; i-- {
		r, err := Run(ctx, &p.Shards[i], c, &outs[i])
		if err != nil {
			t.Fatalf("%s: shard %d: %v", j.ID, i, err)
		}
		if r.Err != "" {
			t.Fatalf("%s: shard %d: %s", j.ID, i, r.Err)
		}
		rs = append(rs, r)
	}
	var all bytes.Buffer
	for i := range outs {
		all.Write(outs[i].Bytes())
	}
	tail, s := Finish(p, rs)
	all.Write(tail)
	return all.String(), s
}

// jobSummary runs job j in shards of size (in reverse order) and returns
// its summary: that of its failed plan, or Finish's.
func jobSummary(t *testing.T, j Job, size int, c *Cache) Summary {
	t.Helper()
	ctx := context.Background()
	p, err := PlanJob(ctx, j, size, c)
	if err != nil {
		var f *Failure
		if !errors.As(err, &f) || f.Job != j.ID {
			t.Fatalf("%s: plan: %v, want a Failure", j.ID, err)
		}
		return Failed(j, err)
	}
	var rs []Result
	for i := len(p.Shards) - 1; i >= 0; i-- {
		r, err := Run(ctx, &p.Shards[i], c, discard{})
		if err != nil {
			t.Fatalf("%s: shard %d: %v", j.ID, i, err)
		}
		rs = append(rs, r)
	}
	_, s := Finish(p, rs)
	return s
}

// TestPoseJobsMatchCLI checks each kind's lines, joined in shard order for
// shards of 1, 2, 3, 7 poses and one shard of all, against the CLI's
// output for Job.Command(), byte for byte but for the timing fields.
func TestPoseJobsMatchCLI(t *testing.T) {
	dir := t.TempDir()
	poses := posesFile(t, dir, "path.txt", posesPath(23))
	const env, fly = "gen:torus:tris=600", "gen:icosphere:radius=0.4,tris=80"
	const ball = "gen:icosphere:radius=0.2,tris=80" // inside the torus's tube at some poses
	jobs := []Job{
		{ID: "check", Query: "check", Env: env, Fly: fly, Poses: poses},
		{ID: "check-all", Query: "check", Env: env, Fly: fly, Poses: poses, All: true},
		{ID: "check-eps", Query: "check", Env: env, Fly: fly, Poses: poses, All: true, Eps: 0.05, BV: "obb"},
		{ID: "distance", Query: "distance", Env: env, Fly: fly, Poses: poses},
		{ID: "distance-max", Query: "distance", Env: env, Fly: fly, Poses: poses, Max: 0.3, BV: "kdop18"},
		{ID: "check-solid", Query: "check", Env: env, Fly: ball, Poses: poses, Solid: true},
		{ID: "distance-solid", Query: "distance", Env: env, Fly: ball, Poses: poses, Solid: true, BV: "kdop18"},
		{ID: "ccd", Query: "ccd", Env: env, Fly: fly, Poses: poses},
		{ID: "ccd-obb", Query: "ccd", Env: env, Fly: fly, Poses: poses, BV: "obb"},
	}
	c := NewCache()
	for _, j := range jobs {
		out, stderr, code := runPosesCLI(t, j.Command())
		if code != 0 {
			t.Fatalf("%s: collide %q: exit %d\n%s", j.ID, j.Command(), code, stderr)
		}
		want := maskTiming(out)
		// The path gives every answer of the kind.
		answers := map[string][]string{
			"check": {`"collide":true`, `"collide":false`}, "check-all": {`"collide":false`, `"collide":true`}, "check-eps": {`"collide":true`},
			"distance": {`"distance":0,`, `"distance":0.`}, "distance-max": {`"distance":0,`, `"far":true`},
			"ccd": {`"hit":true`, `"hit":false`}, "ccd-obb": {`"hit":true`, `"hit":false`},
			"check-solid": {`"collide":false`, `"inside":"fly"`}, "distance-solid": {`"inside":"fly"`, `"distance":0.`},
		}
		for _, a := range answers[j.ID] {
			if !strings.Contains(out, a) {
				t.Errorf("%s: no %s in\n%s", j.ID, a, out)
			}
		}
		for _, size := range []int{1, 2, 3, 7, 100} {
			got, s := runJob(t, j, size, c)
			if maskTiming(got) != want {
				t.Errorf("%s, shards of %d: lines\n%s\nwant (the CLI's)\n%s", j.ID, size, got, out)
			}
			lines := int64(strings.Count(out, "\n"))
			if !s.OK || s.Lines != lines || s.Hits == 0 || s.Units != int(lines) {
				t.Errorf("%s, shards of %d: summary %+v, want ok, %d lines and units, hits", j.ID, size, s, lines)
			}
		}
	}
	// Every job loaded the same two meshes, and built each one's tree
	// of each kind once.
	if n := c.Len(); n != 3+2*4+2 {
		t.Errorf("cache: %d entries, want 13 (3 meshes, the first two's aabb, obb, rss and kdop18 trees, the ball's aabb and kdop18 trees)", n)
	}
}

// TestPoseJobCommand checks the CLI's arguments of each kind.
func TestPoseJobCommand(t *testing.T) {
	tests := []struct {
		j    Job
		want string
	}{
		{Job{Query: "check", Env: "e.obj", Fly: "f.obj", Poses: "p.txt"}, "check --json --poses p.txt e.obj f.obj"},
		{Job{Query: "check", Env: "e", Fly: "f", Poses: "p", All: true, Eps: 1e-7, BV: "obb"}, "check --json --all --eps 1e-07 --bv obb --poses p e f"},
		{Job{Query: "distance", Env: "e", Fly: "f", Poses: "p", Max: 0.5}, "distance --json --max 0.5 --poses p e f"},
		{Job{Query: "ccd", Env: "e", Fly: "f", Poses: "p", BV: "kdop18"}, "check --ccd --json --bv kdop18 --poses p e f"},
	}
	for _, tc := range tests {
		if got := strings.Join(tc.j.Command(), " "); got != tc.want {
			t.Errorf("%+v: command %q, want %q", tc.j, got, tc.want)
		}
	}
}

// TestPoseJobErrors checks that a job the CLI refuses fails to plan with
// the CLI's first line on stderr, and the errors of keys a query does not
// take.
func TestPoseJobErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const id = "1 0 0 0 1 0 0 0 1 "
	good := write("good.txt", id+"0 0 0\n"+id+"1 0 0\n")
	one := write("one.txt", "# one pose\n"+id+"0 0 0\n")
	bad := write("bad.txt", id+"0 0 0\r\n\r\n"+id+"0 x 0\r\n")
	short := write("short.txt", id+"0 0 0\n1 0 0 0 1 0\n")
	rot := write("rot.txt", id+"0 0 0\n2 0 0 0 1 0 0 0 1 0 0 0\n")
	none := write("none.txt", "# nothing\n\n")
	far := write("far.txt", id+"0 0 0\n"+id+"1e308 0 0\n")
	huge := write("huge.obj", "v 1e308 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\n")
	tooLong := write("long.txt", strings.Repeat(" ", 1<<20+1)+"\n")
	const env, fly = "gen:torus:tris=200", "gen:icosphere:tris=20"
	saved := filepath.Join(dir, "env.collide")
	if _, stderr, code := runPosesCLI(t, []string{"build", "--bv", "obb", "-o", saved, env}); code != 0 {
		t.Fatalf("collide build: %s", stderr)
	}
	empty := write("empty.obj", "v 0 0 0\n")
	cliJobs := []Job{
		{Query: "check", Env: env, Fly: fly, Poses: filepath.Join(dir, "missing.txt")},
		{Query: "check", Env: env, Fly: fly, Poses: bad},
		{Query: "distance", Env: env, Fly: fly, Poses: short},
		{Query: "ccd", Env: env, Fly: fly, Poses: rot},
		{Query: "check", Env: env, Fly: fly, Poses: none},
		{Query: "check", Env: env, Fly: fly, Poses: tooLong},
		{Query: "check", Env: env, Fly: huge, Poses: far},
		{Query: "distance", Env: env, Fly: huge, Poses: far},
		{Query: "ccd", Env: env, Fly: fly, Poses: one},
		{Query: "check", Env: saved, Fly: fly, Poses: good, BV: "kdop18"},
		{Query: "distance", Env: saved, Fly: fly, Poses: good, BV: "aabb"},
		{Query: "check", Env: env, Fly: fly, Poses: good, BV: "nope"},
		{Query: "check", Env: "gen:nope", Fly: fly, Poses: good},
		{Query: "check", Env: filepath.Join(dir, "missing.obj"), Fly: fly, Poses: good},
		{Query: "distance", Env: env, Fly: empty, Poses: good},
		{Query: "check", Env: env, Fly: fly, Poses: good, Eps: -1},
		{Query: "distance", Env: env, Fly: fly, Poses: good, Max: -1},
		{Query: "check", Env: env, Fly: write("open.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), Poses: good, Solid: true},
		{Query: "distance", Env: write("open-env.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), Fly: fly, Poses: good, Solid: true},
		// Several errors at once: the CLI's first is the job's (the poses
		// are read, then the models loaded, then the poses placed).
		{Query: "check", Env: filepath.Join(dir, "missing.obj"), Fly: fly, Poses: bad},
		{Query: "ccd", Env: filepath.Join(dir, "missing.obj"), Fly: fly, Poses: one},
		{Query: "check", Env: filepath.Join(dir, "missing.obj"), Fly: huge, Poses: far},
		{Query: "distance", Env: env, Fly: huge, Poses: write("far-bad.txt", id+"1e308 0 0\n"+id+"0 0\n")},
		{Query: "check", Env: env, Fly: fly, Poses: write("bad-long.txt", id+"0 0 0\n"+id+"0 x 0\n"+strings.Repeat(" ", 1<<20+1)+"\n")},
		{Query: "check", Env: env, Fly: fly, Poses: write("good-long.txt", id+"0 0 0\n"+id+"0 1 0\n"+strings.Repeat(" ", 1<<20+1)+"\n")},
		{Query: "ccd", Env: filepath.Join(dir, "missing.obj"), Fly: fly, Poses: write("one-bad.txt", "# one bad pose\n"+id+"0 x\n")},
		{Query: "check", Env: env, Fly: huge, Poses: write("far-late.txt", id+"0 0 0\n"+id+"0 0 0\n"+id+"1e308 0 0\n"+id+"1e308 0 0\n")},
	}
	c := NewCache()
	for i, j := range cliJobs {
		j.ID = fmt.Sprintf("job%d", i)
		_, stderr, code := runPosesCLI(t, j.Command())
		if code == 0 {
			t.Errorf("%s: collide %q succeeded", j.ID, j.Command())
			continue
		}
		want, _, _ := strings.Cut(stderr, "\n")
		for _, size := range []int{1, 2, 1000} {
			if s := jobSummary(t, j, size, c); s.OK || s.Error != want {
				t.Errorf("%s: collide %q, shards of %d: summary %+v, want the CLI's error %q", j.ID, j.Command(), size, s, want)
			}
		}
	}

	record := write("record.txt", "# flight: --env a.obj --fly b.obj --seed 1\n"+id+"0 0 0\n")
	own := []struct {
		j    Job
		want string
	}{
		{Job{Query: "check", Env: env, Fly: fly, Poses: good, Max: 1}, `query check does not take "max"`},
		{Job{Query: "distance", Env: env, Fly: fly, Poses: good, All: true}, `query distance does not take "all"`},
		{Job{Query: "distance", Env: env, Fly: fly, Poses: good, Eps: 0.1}, `query distance does not take "eps"`},
		{Job{Query: "ccd", Env: env, Fly: fly, Poses: good, Eps: 0.1}, `query ccd does not take "eps"`},
		{Job{Query: "ccd", Env: env, Fly: fly, Poses: good, All: true}, `query ccd does not take "all"`},
		{Job{Query: "ccd", Env: env, Fly: fly, Poses: good, Solid: true}, `query ccd does not take "solid"`},
		{Job{Query: "check", Env: env, Fly: fly, Poses: good, Program: "p.nc"}, `query check does not take "program"`},
		{Job{Query: "check", Env: env, Fly: fly}, `query check needs "poses"`},
		{Job{Query: "distance", Fly: fly, Poses: good}, `query distance needs "env"`},
		{Job{Query: "distance", Env: "-e.obj", Fly: fly, Poses: good}, `"env" "-e.obj" starts with '-'`},
		{Job{Query: "check", Env: env, Fly: fly, Poses: good, BV: "auto"}, `"bv": auto chooses the kind by timing`},
		{Job{Query: "check", Env: env, Fly: fly, Poses: record}, "record.txt:1: a flight record"},
	}
	for _, tc := range own {
		tc.j.ID = "own"
		_, err := PlanJob(context.Background(), tc.j, 1, c)
		var f *Failure
		if !errors.As(err, &f) || !strings.Contains(f.Message, tc.want) {
			t.Errorf("%+v: plan: %v, want a Failure with %q", tc.j, err, tc.want)
		}
	}
}

// TestPoseJobChanged checks that a shard fails when its bytes of the pose
// file, or a model file, changed since the plan, and that the job fails
// with the first failing shard's message.
func TestPoseJobChanged(t *testing.T) {
	dir := t.TempDir()
	poses := posesFile(t, dir, "path.txt", posesPath(9))
	data, err := os.ReadFile(poses)
	if err != nil {
		t.Fatal(err)
	}
	env := filepath.Join(dir, "env.obj")
	const tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"
	if err := os.WriteFile(env, []byte(tri), 0o644); err != nil {
		t.Fatal(err)
	}
	j := Job{ID: "j", Query: "check", Env: env, Fly: "gen:icosphere:tris=20", Poses: poses}
	ctx := context.Background()
	run := func(p *Plan, c *Cache) []Result {
		var rs []Result
		for i := range p.Shards {
			r, err := Run(ctx, &p.Shards[i], c, discard{})
			if err != nil {
				t.Fatal(err)
			}
			rs = append(rs, r)
		}
		return rs
	}
	p, err := PlanJob(ctx, j, 4, NewCache())
	if err != nil {
		t.Fatal(err)
	}
	// One number of the last pose changed, the length kept.
	changed := bytes.Clone(data)
	i := bytes.LastIndex(changed, []byte("0.1"))
	changed[i+2] = '2'
	if err := os.WriteFile(poses, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	rs := run(p, NewCache())
	for i, r := range rs {
		last := i == len(rs)-1
		if got := r.Err != ""; got != last {
			t.Errorf("shard %d of %d: error %q, want one for the last only", i, len(rs), r.Err)
		}
	}
	if _, s := Finish(p, rs); s.OK || !strings.Contains(s.Error, "path.txt: changed since the job was planned") {
		t.Errorf("summary %+v, want the pose file changed", s)
	}
	// Shorter.
	if err := os.WriteFile(poses, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, s := Finish(p, run(p, NewCache())); s.OK || !strings.Contains(s.Error, "changed since the job was planned") {
		t.Errorf("summary %+v, want the pose file changed", s)
	}
	// The model changed.
	if err := os.WriteFile(poses, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, s := Finish(p, run(p, NewCache())); !s.OK {
		t.Fatalf("the file restored: summary %+v", s)
	}
	if err := os.WriteFile(env, []byte(tri+"v 0 0 1\nf 1 2 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "collide check: " + env + ": changed since the job was planned"
	if _, s := Finish(p, run(p, NewCache())); s.OK || !strings.HasPrefix(s.Error, want) {
		t.Errorf("summary %+v, want %q", s, want)
	}
}

type discard struct{}

func (discard) Write(b []byte) (int, error) { return len(b), nil }

// TestReadManifestErrors checks the errors of ReadManifest, each naming
// the manifest and the line.
func TestReadManifestErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "m.jsonl: no jobs"},
		{"# only a comment\n\n", "m.jsonl: no jobs"},
		{`{"id":"a","query":"check"}` + "\n" + `{"id":"a","query":"check"}`, `m.jsonl: line 2: id "a" is the id of line 1 too`},
		{`{"id":"a","query":"check","bogus":1}`, `m.jsonl: line 1: unknown field "bogus"`},
		{`{"id":"a","query":"check","eps":"x"}`, `m.jsonl: line 1: "eps": want a float64, got a JSON string`},
		{`{"query":"check"}`, `m.jsonl: line 1: no "id"`},
		{`{"id":"a/b","query":"check"}`, `m.jsonl: line 1: id "a/b": use letters, digits`},
		{`{"id":"a","query":"sweep"}`, `m.jsonl: line 1: job "a": query "sweep": want one of check, distance, ccd, nc`},
		{`{"id":"a","query":"check"} {"id":"b"}`, `m.jsonl: line 1: more than one JSON value`},
		{`{"id":"a",`, `m.jsonl: line 1: unexpected EOF`},
	}
	for _, tc := range tests {
		_, err := ReadManifest(strings.NewReader(tc.in), "m.jsonl")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.want)
		}
	}
	js, err := ReadManifest(strings.NewReader("# jobs\n"+`{"id":"a","query":"check","env":"e","fly":"f","poses":"p","all":true}`+"\n\n"), "m.jsonl")
	if err != nil || len(js) != 1 || js[0] != (Job{ID: "a", Query: "check", Env: "e", Fly: "f", Poses: "p", All: true}) {
		t.Errorf("one job: %+v, %v", js, err)
	}
}

// TestPoseJobSavedModels checks jobs of models saved by collide build, of
// volumes that do not fly together (FLY's companion of ENV's volume is
// built, as the CLI builds it), and of a mesh file built like the saved
// model beside it.
func TestPoseJobSavedModels(t *testing.T) {
	dir := t.TempDir()
	poses := posesFile(t, dir, "path.txt", posesPath(12))
	env, fly := filepath.Join(dir, "env.collide"), filepath.Join(dir, "fly.collide")
	for _, b := range [][]string{
		{"build", "--bv", "obb", "-o", env, "gen:torus:tris=400"},
		{"build", "--bv", "aabb", "-o", fly, "gen:icosphere:radius=0.4,tris=80"},
		{"gen", "icosphere", "radius=0.4", "tris=80", "-o", filepath.Join(dir, "fly.obj")},
	} {
		if _, stderr, code := runPosesCLI(t, b); code != 0 {
			t.Fatalf("collide %q: %s", b, stderr)
		}
	}
	c := NewCache()
	for _, j := range []Job{
		{ID: "saved", Query: "check", Env: env, Fly: fly, Poses: poses, All: true},
		{ID: "saved-ccd", Query: "ccd", Env: env, Fly: fly, Poses: poses},
		{ID: "mesh", Query: "distance", Env: env, Fly: filepath.Join(dir, "fly.obj"), Poses: poses},
	} {
		out, stderr, code := runPosesCLI(t, j.Command())
		if code != 0 {
			t.Fatalf("%s: collide %q: exit %d\n%s", j.ID, j.Command(), code, stderr)
		}
		for _, size := range []int{2, 5} {
			if got, _ := runJob(t, j, size, c); maskTiming(got) != maskTiming(out) {
				t.Errorf("%s, shards of %d: lines\n%s\nwant (the CLI's)\n%s", j.ID, size, got, out)
			}
		}
	}
}

// TestPoseJobConcurrent runs the shards of jobs at once, sharing one cache
// (the models loaded once, a query per goroutine), and checks their lines
// against the shards run one by one.
func TestPoseJobConcurrent(t *testing.T) {
	dir := t.TempDir()
	poses := posesFile(t, dir, "path.txt", posesPath(30))
	const env, fly = "gen:torus:tris=400", "gen:icosphere:radius=0.4,tris=80"
	ctx := context.Background()
	for _, j := range []Job{
		{ID: "check", Query: "check", Env: env, Fly: fly, Poses: poses},
		{ID: "ccd", Query: "ccd", Env: env, Fly: fly, Poses: poses},
	} {
		want, _ := runJob(t, j, 30, NewCache())
		c := NewCache()
		p, err := PlanJob(ctx, j, 2, c)
		if err != nil {
			t.Fatal(err)
		}
		outs := make([]bytes.Buffer, len(p.Shards))
		errs := make([]error, len(p.Shards))
		var wg sync.WaitGroup
		for i := range p.Shards {
			wg.Go(func() {
				var r Result
				r, errs[i] = Run(ctx, &p.Shards[i], Shared, &outs[i])
				if errs[i] == nil && r.Err != "" {
					errs[i] = errors.New(r.Err)
				}
			})
		}
		wg.Wait()
		var got strings.Builder
		for i := range outs {
			if errs[i] != nil {
				t.Fatalf("%s: shard %d: %v", j.ID, i, errs[i])
			}
			got.Write(outs[i].Bytes())
		}
		if maskTiming(got.String()) != maskTiming(want) {
			t.Errorf("%s: concurrent shards' lines\n%s\nwant\n%s", j.ID, got.String(), want)
		}
	}
}

// BenchmarkPoseJob plans and runs a check job of 10^4 poses of a coherent
// path in the default shards, against a warm cache (the models built
// once): the plan's pass over the pose file and the shards' re-reading of
// it beside the queries.
func BenchmarkPoseJob(b *testing.B) {
	dir := b.TempDir()
	var sb strings.Builder
	for i := range 10000 {
		a := 0.0006 * float64(i)
		fmt.Fprintf(&sb, "1 0 0 0 1 0 0 0 1 %v %v 0.1\n", 2.55*math.Cos(a), 2.55*math.Sin(a))
	}
	poses := filepath.Join(dir, "path.txt")
	if err := os.WriteFile(poses, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, q := range []string{"check", "distance", "ccd"} {
		j := Job{ID: q, Query: q, Env: "gen:torus:tris=40000", Fly: "gen:icosphere:radius=0.4,tris=8000", Poses: poses}
		c := NewCache()
		ctx := context.Background()
		b.Run(q+"/plan", func(b *testing.B) {
			for b.Loop() {
				if _, err := PlanJob(ctx, j, 0, c); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/10000, "ns/pose")
		})
		p, err := PlanJob(ctx, j, 0, c)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(q+"/run", func(b *testing.B) {
			for b.Loop() {
				for i := range p.Shards {
					if r, err := Run(ctx, &p.Shards[i], c, discard{}); err != nil || r.Err != "" {
						b.Fatal(err, r.Err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/10000, "ns/pose")
		})
	}
}
