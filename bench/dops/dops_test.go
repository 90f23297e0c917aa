package dops

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/collide3d/collide/bv"
)

// TestRunQuick runs a short comparison on two scenes with every k and
// the turned pipes: a row per scene and k, ranks 1 to len(Ks) on each
// scene, every k reporting the same pairs on a scene (the answer does not
// depend on the volume), and the report's sections.
func TestRunQuick(t *testing.T) {
	r, err := Run(context.Background(), Config{Quick: true, Seed: 1, Scenes: []string{"pipes", "torus"}, Steps: 8})
	if err != nil {
		t.Fatal(err)
	}
	scenes := []string{"pipes", "torus", Turned}
	if len(r.Rows) != len(scenes)*len(bv.Ks) {
		t.Fatalf("%d rows, want %d", len(r.Rows), len(scenes)*len(bv.Ks))
	}
	for _, s := range scenes {
		seen := map[int]bool{}
		var pairs int64 = -1
		for _, k := range bv.Ks {
			row, ok := r.row(s, k)
			if !ok {
				t.Fatalf("no row for %s, %v", s, k)
			}
			if row.Rank < 1 || row.Rank > len(bv.Ks) || row.Steps != 8 || row.Stats.BVTests == 0 || row.Bytes <= 0 {
				t.Errorf("%s, %v: %+v", s, k, row)
			}
			seen[row.Rank] = true
			if pairs >= 0 && row.Pairs != pairs {
				t.Errorf("%s: %v reports %d pairs, the others %d", s, k, row.Pairs, pairs)
			}
			pairs = row.Pairs
		}
		if !seen[1] {
			t.Errorf("%s: no k ranked first", s)
		}
	}
	avg := r.AverageRanks(false)
	if len(avg) != len(bv.Ks) {
		t.Errorf("average ranks of %d k, want %d", len(avg), len(bv.Ks))
	}
	var out bytes.Buffer
	if err := r.WriteMarkdown(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## pipes", "## " + Turned, "## Ranks", "average rank", "8-DOP", "20-DOP",
		"## The dissertation's conclusions", "the worst", "## Ours", "Orientation:", "stripped"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}

// TestRank checks ties and order.
func TestRank(t *testing.T) {
	rows := []Row{{Mean: 3}, {Mean: 1}, {Mean: 3}, {Mean: 2}}
	rank(rows)
	got := []int{rows[0].Rank, rows[1].Rank, rows[2].Rank, rows[3].Rank}
	want := []int{3, 1, 3, 2}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("ranks %v, want %v", got, want)
		}
	}
}

// TestBadK checks that an unsupported k is an error, not a panic.
func TestBadK(t *testing.T) {
	if _, err := Run(context.Background(), Config{Quick: true, Scenes: []string{"torus"}, Ks: []bv.K{10}}); err == nil {
		t.Error("k = 10 ran")
	}
}
