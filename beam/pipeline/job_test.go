package pipeline

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/collide3d/collide/internal/jobs"
)

// writeParts writes the part files of job id in out, one a string.
func writeParts(t *testing.T, out, id string, parts ...string) []jobs.Result {
	t.Helper()
	if err := os.MkdirAll(partsDir(out, id), 0o777); err != nil {
		t.Fatal(err)
	}
	var rs []jobs.Result
	for i, p := range parts {
		if err := os.WriteFile(partPath(out, id, i), []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
		rs = append(rs, jobs.Result{Job: id, Index: i, Lines: int64(strings.Count(p, "\n"))})
	}
	return rs
}

func readSummary(t *testing.T, out, id string) Summary {
	t.Helper()
	b, err := os.ReadFile(SummaryPath(out, id))
	if err != nil {
		t.Fatal(err)
	}
	var s Summary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("%s: %v", SummaryPath(out, id), err)
	}
	return s
}

func exists(name string) bool {
	_, err := os.Stat(name)
	return !errors.Is(err, fs.ErrNotExist)
}

func TestAssemble(t *testing.T) {
	out := t.TempDir()
	rs := writeParts(t, out, "j", "a\nb\n", "", "c\n")
	// Results in any order: assemble takes them sorted, as finishJob does.
	n, err := assemble(out, "j", rs, []byte("tail\n"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(OutputPath(out, "j"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "a\nb\nc\ntail\n"; string(got) != want || n != int64(len(want)) {
		t.Errorf("assemble wrote %q (%d bytes), want %q (%d)", got, n, want, len(want))
	}

	// A part that does not hold its shard's lines (a stale or truncated
	// one) is an error, and the output is left as it was.
	for _, bad := range []string{"a\n", "a\nb\nc\n", "a\nb"} {
		rs := writeParts(t, out, "j", bad)
		rs[0].Lines = 2
		if _, err := assemble(out, "j", rs, nil); err == nil || !strings.Contains(err.Error(), partPath(out, "j", 0)) {
			t.Errorf("assemble of part %q for 2 lines: error %v, want one naming the part", bad, err)
		}
		if got, _ := os.ReadFile(OutputPath(out, "j")); string(got) != "a\nb\nc\ntail\n" {
			t.Errorf("a failed assemble left %q", got)
		}
	}
	// A missing part is an error.
	if _, err := assemble(out, "j", []jobs.Result{{Job: "j", Index: 7}}, nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("assemble of a missing part: error %v, want not exist", err)
	}
	if names, _ := filepath.Glob(filepath.Join(out, ".*.tmp*")); len(names) > 0 {
		t.Errorf("temporary files left: %v", names)
	}
}

func TestFinishFailed(t *testing.T) {
	out := t.TempDir()
	// A stale output and parts of an earlier run.
	if err := os.WriteFile(OutputPath(out, "bad"), []byte("stale\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeParts(t, out, "bad", "x\n")
	j := jobs.Job{ID: "bad", Query: "check", Env: "missing.obj", Fly: "fly.obj", Poses: "poses.txt"}
	failed := jobs.Failed(j, &jobs.Failure{Job: "bad", Message: "collide check: missing.obj: no such file"})
	s, err := finishJob(out, &planned{Failed: &failed}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.OK || s.Error != "collide check: missing.obj: no such file" {
		t.Errorf("summary %+v, want failed with the CLI's message", s)
	}
	if got := readSummary(t, out, "bad"); got.OK || got.Error != s.Error || got.ID != "bad" || got.Output != "" {
		t.Errorf("summary file %+v, want %+v", got, s)
	}
	if exists(OutputPath(out, "bad")) {
		t.Errorf("the failed job's stale output is left")
	}
	if exists(partsDir(out, "bad")) || exists(filepath.Join(out, ".parts")) {
		t.Errorf("the failed job's parts are left")
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	for _, content := range []string{"first, longer\n", "second\n"} {
		err := writeFile(name, func(w io.Writer) error {
			_, err := io.WriteString(w, content)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(name); string(got) != content {
			t.Errorf("writeFile wrote %q, want %q (whole, replacing)", got, content)
		}
	}
	// A fill that fails leaves the file as it was and no temporary file.
	err := writeFile(name, func(w io.Writer) error {
		io.WriteString(w, "partial")
		return errors.New("broken")
	})
	if err == nil || err.Error() != "broken" {
		t.Errorf("writeFile error %v, want broken", err)
	}
	if got, _ := os.ReadFile(name); string(got) != "second\n" {
		t.Errorf("a failed writeFile left %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left: %v", entries)
	}
}

func TestSummariesMissing(t *testing.T) {
	ss := Summaries(t.TempDir(), []jobs.Job{{ID: "gone", Query: "nc"}})
	if len(ss) != 1 || ss[0].OK || ss[0].ID != "gone" || !strings.Contains(ss[0].Error, "no summary") {
		t.Errorf("Summaries of a job with no summary file = %+v, want one saying so", ss)
	}
}
