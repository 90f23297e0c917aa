package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"

	"github.com/collide3d/collide/beam/internal/posegen"
	"github.com/collide3d/collide/internal/jobs"
)

func TestMain(m *testing.M) {
	flag.Parse()
	if !testing.Verbose() {
		beamlog.LogLevel = "warn"
	}
	beam.Init()
	os.Exit(m.Run())
}

// setFlags sets collide-beam's flags for one test, as main's flag.Parse
// would.
func setFlags(t *testing.T, manifest, out string, shard int) {
	t.Helper()
	*manifestFlag, *outFlag, *shardFlag = manifest, out, shard
	t.Cleanup(func() { *manifestFlag, *outFlag, *shardFlag = "", "", jobs.DefaultShard })
}

func TestUsage(t *testing.T) {
	for _, c := range []struct {
		manifest, out string
		shard         int
		args          []string
		want          string
	}{
		{"", "out", 10, nil, "--manifest: required"},
		{"jobs.jsonl", "", 10, nil, "--out: required"},
		{"jobs.jsonl", "out", 0, nil, "--shard 0: want a positive number"},
		{"jobs.jsonl", "out", -3, nil, "--shard -3: want a positive number"},
		{"jobs.jsonl", "out", 10, []string{"more.jsonl"}, `unexpected argument "more.jsonl"`},
	} {
		setFlags(t, c.manifest, c.out, c.shard)
		var stderr bytes.Buffer
		status := run(context.Background(), c.args, &stderr)
		if status != exitUsage || !strings.HasPrefix(stderr.String(), "collide-beam: "+c.want) || !strings.Contains(stderr.String(), usage) {
			t.Errorf("--manifest %q --out %q --shard %d %q: status %d, stderr %q; want %d, %q and the usage", c.manifest, c.out, c.shard, c.args, status, stderr.String(), exitUsage, c.want)
		}
	}
}

func TestManifestErrors(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "jobs.jsonl")
	for _, c := range []struct{ content, want string }{
		{`{"id":"a","query":"check"}` + "\n" + `{"id":"b","query":"fly"}` + "\n", manifest + `: line 2: job "b": query "fly": want one of`},
		{"# nothing\n", manifest + ": no jobs"},
		{"", ""}, // no file: the error of os.Open
	} {
		os.Remove(manifest)
		if c.want != "" {
			os.WriteFile(manifest, []byte(c.content), 0o644)
		} else {
			c.want = "open " + manifest + ": no such file"
		}
		setFlags(t, manifest, filepath.Join(dir, "out"), 10)
		var stderr bytes.Buffer
		status := run(context.Background(), nil, &stderr)
		if status != exitError || !strings.HasPrefix(stderr.String(), "collide-beam: "+c.want) {
			t.Errorf("manifest %q: status %d, stderr %q; want %d and %q", c.content, status, stderr.String(), exitError, c.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
			t.Errorf("manifest %q: a bad manifest made the output directory", c.content)
		}
	}
}

// TestRun runs a good job and a bad one on Prism: the report names both,
// and the status is 1.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	poses := filepath.Join(dir, "poses.txt")
	var b bytes.Buffer
	posegen.Write(&b, 100, 1)
	os.WriteFile(poses, b.Bytes(), 0o644)
	missing := filepath.Join(dir, "missing.obj")
	manifest := filepath.Join(dir, "jobs.jsonl")
	os.WriteFile(manifest, []byte(`{"id":"good","query":"check","env":"gen:torus","fly":"gen:icosphere:radius=0.4","poses":"`+poses+`"}
{"id":"bad","query":"check","env":"`+missing+`","fly":"gen:torus","poses":"`+poses+`"}
`), 0o644)
	out := filepath.Join(dir, "out")
	setFlags(t, manifest, out, 30)
	var stderr bytes.Buffer
	status := run(context.Background(), nil, &stderr)
	lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
	if status != exitError || len(lines) != 2 || lines[0] != "good: ok: 100 poses, 100 lines" ||
		!strings.HasPrefix(lines[1], "bad: failed: 100 poses, 0 lines: collide check: ") || !strings.Contains(lines[1], missing) {
		t.Errorf("status %d, stderr:\n%s\nwant %d, good ok with 100 poses and bad failed with the CLI's message", status, stderr.String(), exitError)
	}
	for _, name := range []string{"good.jsonl", "good.summary.json", "bad.summary.json"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Error(err)
		}
	}
}

// TestPipelineFails makes the pipeline fail (its parts directory cannot be
// made): the status is 1 and the report says so.
func TestPipelineFails(t *testing.T) {
	dir := t.TempDir()
	poses := filepath.Join(dir, "poses.txt")
	var b bytes.Buffer
	posegen.Write(&b, 10, 1)
	os.WriteFile(poses, b.Bytes(), 0o644)
	manifest := filepath.Join(dir, "jobs.jsonl")
	os.WriteFile(manifest, []byte(`{"id":"j","query":"check","env":"gen:torus","fly":"gen:icosphere:radius=0.4","poses":"`+poses+`"}`+"\n"), 0o644)
	out := filepath.Join(dir, "out")
	os.MkdirAll(out, 0o777)
	os.WriteFile(filepath.Join(out, ".parts"), nil, 0o644) // not a directory
	setFlags(t, manifest, out, 30)
	var stderr bytes.Buffer
	status := run(context.Background(), nil, &stderr)
	if status != exitError || !strings.HasPrefix(stderr.String(), "j: failed: ") || !strings.Contains(stderr.String(), "no summary") ||
		!strings.Contains(stderr.String(), "collide-beam: the pipeline failed: ") || !strings.Contains(stderr.String(), "job j: shard 0: mkdir ") {
		t.Errorf("status %d, stderr:\n%s\nwant %d, the job without a summary and the pipeline's error", status, stderr.String(), exitError)
	}
}
