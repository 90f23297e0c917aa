package pipeline

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"

	"github.com/collide3d/collide/beam/internal/posegen"
	"github.com/collide3d/collide/internal/jobs"
)

// The tests run the pipeline on Prism in the test process (Beam's
// default runner) and compare every line it writes with the CLI's, built
// from this clone.
func TestMain(m *testing.M) {
	flag.Parse()
	if !testing.Verbose() {
		beamlog.LogLevel = "warn"
	}
	beam.Init()
	status := m.Run()
	if fix.dir != "" {
		os.RemoveAll(fix.dir)
	}
	os.Exit(status)
}

// fix holds what the tests share, made once: the CLI and the models and
// pose files of the jobs.
var fix struct {
	once    sync.Once
	err     error
	dir     string
	collide string // the CLI
	env     string // gen:torus written as OBJ
	fly     string // a generated model given as a gen: argument
	poses   string // 300 poses, about half in contact
	motions string // 40 poses: 39 motions for ccd
	bad     string // a pose file whose line 3 is malformed
}

func fixtures(t *testing.T) {
	t.Helper()
	fix.once.Do(func() {
		fix.dir, fix.err = os.MkdirTemp("", "collide-beam-test")
		if fix.err != nil {
			return
		}
		d := fix.dir
		fix.collide = filepath.Join(d, "collide")
		build := exec.Command("go", "build", "-o", fix.collide, "./cmd/collide")
		build.Dir = filepath.Join("..", "..") // the main module's root
		if out, err := build.CombinedOutput(); err != nil {
			fix.err = fmt.Errorf("go build ./cmd/collide: %v\n%s", err, out)
			return
		}
		fix.env = filepath.Join(d, "torus.obj")
		if out, err := exec.Command(fix.collide, "gen", "torus", "-o", fix.env).CombinedOutput(); err != nil {
			fix.err = fmt.Errorf("collide gen torus: %v\n%s", err, out)
			return
		}
		fix.fly = "gen:icosphere:radius=0.4"
		fix.poses = filepath.Join(d, "poses.txt")
		fix.motions = filepath.Join(d, "motions.txt")
		fix.bad = filepath.Join(d, "bad.txt")
		for _, f := range []struct {
			name string
			n    int
			seed uint64
		}{{fix.poses, 300, 1}, {fix.motions, 40, 2}} {
			var b bytes.Buffer
			posegen.Write(&b, f.n, f.seed)
			if fix.err = os.WriteFile(f.name, b.Bytes(), 0o644); fix.err != nil {
				return
			}
		}
		bad := "# two good poses, then a bad one\n1 0 0 0 1 0 0 0 1 2 0 0\n1 0 0 0 1 0 0 0 1 2 0 0.5 7\n"
		fix.err = os.WriteFile(fix.bad, []byte(bad), 0o644)
	})
	if fix.err != nil {
		t.Fatal(fix.err)
	}
}

// goodJobs are jobs of every query that run.
func goodJobs() []jobs.Job {
	return []jobs.Job{
		{ID: "first", Query: "check", Env: fix.env, Fly: fix.fly, Poses: fix.poses},
		{ID: "all", Query: "check", Env: fix.env, Fly: fix.fly, Poses: fix.poses, All: true, BV: "obb"},
		{ID: "eps", Query: "check", Env: fix.env, Fly: fix.fly, Poses: fix.poses, Eps: 0.05},
		{ID: "distance", Query: "distance", Env: fix.env, Fly: fix.fly, Poses: fix.poses, Max: 1},
		{ID: "ccd", Query: "ccd", Env: fix.env, Fly: fix.fly, Poses: fix.motions},
		{ID: "nc-demo", Query: "nc"},
	}
}

// badJobs are jobs that fail before their first line: a missing model, a
// malformed pose file.
func badJobs() []jobs.Job {
	return []jobs.Job{
		{ID: "missing", Query: "check", Env: filepath.Join(fix.dir, "missing.obj"), Fly: fix.fly, Poses: fix.poses},
		{ID: "malformed", Query: "distance", Env: fix.env, Fly: fix.fly, Poses: fix.bad},
	}
}

// testShard is the shard size of the tests: a few shards a job, the last
// one partial.
const testShard = 37

// runPipeline runs js on Prism into out.
func runPipeline(t *testing.T, out string, js []jobs.Job) {
	t.Helper()
	if err := Run(context.Background(), js, Options{Out: out, Shard: testShard}); err != nil {
		t.Fatalf("the pipeline failed: %v", err)
	}
}

// cli runs the CLI for j and returns its stdout, its stderr and whether it
// succeeded.
func cli(t *testing.T, j jobs.Job) (stdout []byte, stderr string, ok bool) {
	t.Helper()
	args := j.Command()
	if len(args) == 0 {
		t.Fatalf("job %s: no command", j.ID)
	}
	var o, e bytes.Buffer
	c := exec.Command(fix.collide, args...)
	c.Stdout, c.Stderr = &o, &e
	err := c.Run()
	if _, exit := err.(*exec.ExitError); err != nil && !exit {
		t.Fatalf("collide %s: %v", strings.Join(args, " "), err)
	}
	return o.Bytes(), e.String(), err == nil
}

// sameLines reports how got differs from want, line by line, after mask
// ("" if they are the same).
func sameLines(got, want []byte) string {
	g, w := bytes.SplitAfter(got, []byte("\n")), bytes.SplitAfter(want, []byte("\n"))
	for i := 0; i < len(g) || i < len(w); i++ {
		switch {
		case i >= len(g):
			return fmt.Sprintf("line %d missing: want %s", i+1, w[i])
		case i >= len(w):
			return fmt.Sprintf("line %d more than the CLI's: %s", i+1, g[i])
		case !bytes.Equal(mask(g[i]), mask(w[i])):
			return fmt.Sprintf("line %d:\n got  %s\n want %s", i+1, g[i], w[i])
		}
	}
	return ""
}

// checkLikeCLI checks that job j ran in out and wrote the CLI's lines.
func checkLikeCLI(t *testing.T, out string, j jobs.Job) {
	t.Helper()
	want, stderr, ok := cli(t, j)
	if !ok {
		t.Fatalf("job %s: the CLI failed: %s", j.ID, stderr)
	}
	s := readSummary(t, out, j.ID)
	if !s.OK || s.Error != "" {
		t.Fatalf("job %s: summary %+v, want ok", j.ID, s)
	}
	got, err := os.ReadFile(OutputPath(out, j.ID))
	if err != nil {
		t.Fatal(err)
	}
	if d := sameLines(got, want); d != "" {
		t.Errorf("job %s: %s: not the lines of collide %s: %s", j.ID, OutputPath(out, j.ID), strings.Join(j.Command(), " "), d)
	}
	if lines := int64(bytes.Count(want, []byte("\n"))); s.Lines != lines || s.Bytes != int64(len(got)) || s.Output != j.ID+".jsonl" {
		t.Errorf("job %s: summary lines %d, bytes %d, output %q; want %d, %d, %q", j.ID, s.Lines, s.Bytes, s.Output, lines, len(got), j.ID+".jsonl")
	}
	if s.Shards < 2 {
		t.Errorf("job %s: %d shards: the test wants several", j.ID, s.Shards)
	}
	if want := j.Command(); strings.Join(s.Command, " ") != strings.Join(want, " ") {
		t.Errorf("job %s: summary's command %q, want %q", j.ID, s.Command, want)
	}
}

// checkClean checks that out holds no parts and no temporary files.
func checkClean(t *testing.T, out string) {
	t.Helper()
	if exists(filepath.Join(out, ".parts")) {
		t.Errorf("%s: parts left", out)
	}
	if names, _ := filepath.Glob(filepath.Join(out, ".*tmp*")); len(names) > 0 {
		t.Errorf("temporary files left: %v", names)
	}
}

func TestMixedJobs(t *testing.T) {
	fixtures(t)
	out := t.TempDir()
	js := goodJobs()
	runPipeline(t, out, js)
	for _, j := range js {
		checkLikeCLI(t, out, j)
	}
	checkClean(t, out)
}

func TestBadJobs(t *testing.T) {
	fixtures(t)
	good, bad := goodJobs()[:2], badJobs()
	out, alone := t.TempDir(), t.TempDir()
	// A stale output of a bad job, which the run removes.
	os.WriteFile(OutputPath(out, "missing"), []byte("stale\n"), 0o644)
	runPipeline(t, out, append(append([]jobs.Job{bad[0]}, good...), bad[1]))
	runPipeline(t, alone, good)
	for _, j := range bad {
		_, stderr, ok := cli(t, j)
		if ok {
			t.Fatalf("job %s: the CLI did not fail", j.ID)
		}
		want, _, _ := strings.Cut(stderr, "\n")
		s := readSummary(t, out, j.ID)
		if s.OK || s.Error != want || s.Lines != 0 || s.Output != "" {
			t.Errorf("job %s: summary ok %v, error %q, lines %d, output %q; want failed with the CLI's %q", j.ID, s.OK, s.Error, s.Lines, s.Output, want)
		}
		if exists(OutputPath(out, j.ID)) {
			t.Errorf("job %s failed and left %s", j.ID, OutputPath(out, j.ID))
		}
	}
	for _, j := range good {
		checkLikeCLI(t, out, j)
		got, _ := os.ReadFile(OutputPath(out, j.ID))
		want, _ := os.ReadFile(OutputPath(alone, j.ID))
		if d := sameLines(got, want); d != "" {
			t.Errorf("job %s beside bad jobs differs from it alone: %s", j.ID, d)
		}
	}
	checkClean(t, out)
}

// TestRunTwice runs the pipeline twice on the same OUT, as a runner
// retrying everything would: each job's lines once.
func TestRunTwice(t *testing.T) {
	fixtures(t)
	out := t.TempDir()
	js := goodJobs()[:1]
	runPipeline(t, out, js)
	runPipeline(t, out, js)
	checkLikeCLI(t, out, js[0])
	checkClean(t, out)
}

// TestShardTwice runs a shard of a job twice, as a runner retrying a
// bundle or running a slow one twice would, and finishes the job with the
// Result of each run: its lines once.
func TestShardTwice(t *testing.T) {
	fixtures(t)
	out := t.TempDir()
	for _, j := range []jobs.Job{goodJobs()[0], goodJobs()[5]} {
		ctx := context.Background()
		p, shards := planJob(ctx, j, testShard)
		if p.Failed != nil {
			t.Fatalf("job %s: %s", j.ID, p.Failed.Error)
		}
		if len(shards) < 3 {
			t.Fatalf("job %s: %d shards, want 3 or more", j.ID, len(shards))
		}
		var rs []jobs.Result
		var once []byte
		for i := range shards {
			r, err := runShard(ctx, out, &shards[i])
			if err != nil {
				t.Fatal(err)
			}
			rs = append(rs, r)
			if i == 1 {
				once, _ = os.ReadFile(partPath(out, j.ID, 1))
				r, err := runShard(ctx, out, &shards[i])
				if err != nil {
					t.Fatal(err)
				}
				rs = append(rs, r)
				twice, _ := os.ReadFile(partPath(out, j.ID, 1))
				if d := sameLines(twice, once); d != "" {
					t.Errorf("job %s: shard 1 run twice wrote another part: %s", j.ID, d)
				}
			}
		}
		if _, err := finishJob(out, p, rs); err != nil {
			t.Fatal(err)
		}
		checkLikeCLI(t, out, j)
	}
	checkClean(t, out)
}

// TestShardFails changes a pose file between the plan and the shards: the
// shards refuse it, and the job fails with their message, leaving no
// output and no parts.
func TestShardFails(t *testing.T) {
	fixtures(t)
	out := t.TempDir()
	poses := filepath.Join(t.TempDir(), "poses.txt")
	data, err := os.ReadFile(fix.poses)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(poses, data, 0o644)
	j := jobs.Job{ID: "changed", Query: "check", Env: fix.env, Fly: fix.fly, Poses: poses}
	ctx := context.Background()
	p, shards := planJob(ctx, j, testShard)
	if p.Failed != nil {
		t.Fatalf("job %s: %s", j.ID, p.Failed.Error)
	}
	os.WriteFile(poses, bytes.Replace(data, []byte("1"), []byte("2"), 1), 0o644)
	rs := runShards(t, out, shards)
	s, err := finishJob(out, p, rs)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the shard's message: %s", s.Error)
	if s.OK || !strings.HasPrefix(s.Error, "collide check: ") || s.Lines != 0 {
		t.Errorf("summary ok %v, error %q, lines %d; want failed with a message of the CLI's form", s.OK, s.Error, s.Lines)
	}
	if got := readSummary(t, out, j.ID); got.Error != s.Error {
		t.Errorf("summary file's error %q, want %q", got.Error, s.Error)
	}
	if exists(OutputPath(out, j.ID)) {
		t.Errorf("the failed job left %s", OutputPath(out, j.ID))
	}
	checkClean(t, out)
}

// TestFinishTwice finishes a job twice, as a runner retrying the finish
// after it wrote the summary would: the second keeps the output.
func TestFinishTwice(t *testing.T) {
	fixtures(t)
	out := t.TempDir()
	ctx := context.Background()
	for _, j := range []jobs.Job{goodJobs()[0], badJobs()[0]} {
		p, shards := planJob(ctx, j, testShard)
		rs := runShards(t, out, shards)
		first, err := finishJob(out, p, rs)
		if err != nil {
			t.Fatal(err)
		}
		output, _ := os.ReadFile(OutputPath(out, j.ID))
		second, err := finishJob(out, p, rs)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(second) != fmt.Sprint(first) {
			t.Errorf("job %s: finished again: %+v, want %+v", j.ID, second, first)
		}
		if again, _ := os.ReadFile(OutputPath(out, j.ID)); !bytes.Equal(again, output) {
			t.Errorf("job %s: finished again, its output changed", j.ID)
		}
	}
	checkLikeCLI(t, out, goodJobs()[0])
	checkClean(t, out)
}

// runShards runs shards into out, in order, and returns their Results.
func runShards(t *testing.T, out string, shards []jobs.Shard) []jobs.Result {
	t.Helper()
	var rs []jobs.Result
	for i := range shards {
		r, err := runShard(context.Background(), out, &shards[i])
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	return rs
}
