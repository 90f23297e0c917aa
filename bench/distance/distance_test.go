package distance

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// TestDistancePeersCompare compares collide's distance queries (RSS, OBB,
// 18-DOP trees) with the driver's (when $COLLIDE_PEERS names it; collide
// alone otherwise) on the small test scene: collide must agree with brute
// force and give valid witnesses at every pose; the peers' rows are logged
// (their distances are checked by TestDistancePeersDriver). The table is
// logged as markdown.
func TestDistancePeersCompare(t *testing.T) {
	env, fly, poses, _ := distanceTestScene(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	rep, err := Run(ctx, Config{
		Env: env, Fly: fly, Poses: poses, Driver: os.Getenv("COLLIDE_PEERS"), Rounds: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Reference != "brute force" || rep.Poses != len(poses) {
		t.Errorf("reference %q, %d poses", rep.Reference, rep.Poses)
	}
	collides := 0
	for _, row := range rep.Rows {
		if row.Err != "" {
			t.Errorf("%s: %s", row.System, row.Err)
			continue
		}
		if len(row.Answers) != len(poses) || row.Median <= 0 || row.P90 < row.Median {
			t.Errorf("%s: %d answers, median %v, p90 %v", row.System, len(row.Answers), row.Median, row.P90)
		}
		if !strings.HasPrefix(row.System, "collide ") {
			continue
		}
		collides++
		if row.Off != 0 || row.Valid != len(poses) {
			t.Errorf("%s: %d distances off (max rel. diff %g), %d/%d valid witnesses (%v)", row.System, row.Off, row.MaxRelDiff, row.Valid, len(poses), row.Problems)
		}
	}
	if collides != len(BVs) {
		t.Errorf("%d collide rows, want %d", collides, len(BVs))
	}
	var b strings.Builder
	if err := rep.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", b.String())
}
