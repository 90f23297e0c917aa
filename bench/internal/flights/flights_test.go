package flights

import (
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide/bench/scenes"
)

// TestAvailableScenes checks that a run of every scene leaves out the
// scenes of real meshes when they are not installed, saying how to
// install them.
func TestAvailableScenes(t *testing.T) {
	t.Setenv(scenes.CGALDataEnv, t.TempDir()+"/nowhere")
	names, skipped := AvailableScenes()
	want := slices.DeleteFunc(scenes.Names(), scenes.NeedsData)
	if !slices.Equal(names, want) || len(skipped) != len(scenes.Names())-len(want) {
		t.Fatalf("scenes %v, left out %q; want %v and the others", names, skipped, want)
	}
	for _, s := range skipped {
		if !strings.Contains(s, scenes.CGALInstall) {
			t.Errorf("%q does not say how to install the meshes", s)
		}
	}
}
