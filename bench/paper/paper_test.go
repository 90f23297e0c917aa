package paper

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/collide3d/collide/bench/scenes"
)

// TestRunBeyondPaper runs the paper's experiments on a scene of ours
// (gears), which has no figures of the paper: the report has our figures
// alone there.
func TestRunBeyondPaper(t *testing.T) {
	r, err := Run(context.Background(), Config{Size: scenes.Quick, Seed: 1, Scenes: []string{"gears", "torus"}, Steps: 12,
		CostTime: time.Millisecond, NestedSizes: []int{80}})
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| gears | a spur gear", "| torus |", "(0.184)"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(md.String(), "(NaN") || strings.Contains(md.String(), "(–)") {
		t.Errorf("the report shows missing figures of the paper:\n%s", md.String())
	}
}
