package ch2_test

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/collide3d/collide/bench/ch2"
)

// TestQuick runs a short study with the oracle at every step: every
// method, and the k-d tree of every axis rule, answers as the path (and
// the oracle) at every step, the flights collide now and then, and the
// report has its sections.
func TestQuick(t *testing.T) {
	r, err := ch2.Run(context.Background(), ch2.Config{Quick: true, Seed: 1, Steps: 60, Static: 5, Oracle: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Envs) != 3 || len(r.Flights) != 3*len(r.Flyers) {
		t.Fatalf("%d environments, %d flights", len(r.Envs), len(r.Flights))
	}
	hits := 0
	for _, f := range r.Flights {
		hits += f.Hits
		for m, run := range f.Method {
			if !run.Ran && m != ch2.MMesh {
				t.Errorf("%s, %s: %s did not fly", f.Env, f.Fly, ch2.Methods[m])
			}
			if run.Differ != 0 {
				t.Errorf("%s, %s: %s differs from the path at %d steps", f.Env, f.Fly, ch2.Methods[m], run.Differ)
			}
		}
		for i, run := range f.KD {
			if run.Differ != 0 {
				t.Errorf("%s, %s: the k-d tree of %s differs at %d steps", f.Env, f.Fly, ch2.AxisRules[i], run.Differ)
			}
		}
	}
	if hits == 0 {
		t.Error("no flight collided: the study tests little")
	}
	// The quick environments' obstacles are disjoint: TetGen meshes them
	// all, and without TetGen every mesh row says so.
	_, noTetGen := exec.LookPath("tetgen")
	for _, e := range r.Envs {
		switch {
		case noTetGen != nil && e.MeshErr != "tetgen not installed":
			t.Errorf("%s: no tetgen, and the mesh says %q", e.Spec.Name, e.MeshErr)
		case noTetGen == nil && (e.MeshErr != "" || e.Tets == 0):
			t.Errorf("%s: no mesh: %s", e.Spec.Name, e.MeshErr)
		}
	}
	if r.OracleSteps != 60*len(r.Flights) {
		t.Errorf("%d steps checked against the oracle", r.OracleSteps)
	}
	var b bytes.Buffer
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"# collide bench --ch2", "## The environments", "## The flights", "## Full-resolution checks per second",
		"## The chapter's scoring", "R-tree 1st, grid a close 2nd", "## The k-d tree's axis rules", "## Verdict", "synthetic DEM"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("the report lacks %q", s)
		}
	}
	if testing.Verbose() {
		t.Log(b.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ch2.Run(ctx, ch2.Config{Quick: true}); err == nil {
		t.Error("a cancelled run: no error")
	}
	if _, err := ch2.Run(context.Background(), ch2.Config{Quick: true, FlySize: 2}); err == nil {
		t.Error("flying objects bigger than the cube: no error")
	}
}
