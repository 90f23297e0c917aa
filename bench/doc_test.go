package bench_test

import (
	"context"
	"log"
	"os"
	"time"

	"github.com/collide3d/collide/bench"
	"github.com/collide3d/collide/bench/broadpeers"
	"github.com/collide3d/collide/bench/cdfast"
	"github.com/collide3d/collide/bench/coherence"
	"github.com/collide3d/collide/bench/continuous"
	"github.com/collide3d/collide/bench/distance"
	"github.com/collide3d/collide/bench/paper"
	"github.com/collide3d/collide/bench/toolpaths"
	"github.com/collide3d/collide/bench/versus"
	"github.com/collide3d/collide/bench/worlds"
)

// Every family keeps the shape of package bench's doc: a Run of its Config
// to its *Report, which writes itself as markdown. The compiler checks it.
var (
	_ bench.Run[paper.Config, *paper.Report]           = paper.Run
	_ bench.Run[versus.Config, *versus.Report]         = versus.Run
	_ bench.Run[coherence.Config, *coherence.Report]   = coherence.Run
	_ bench.Run[worlds.Config, *worlds.Report]         = worlds.Run
	_ bench.Run[cdfast.Config, *cdfast.Report]         = cdfast.Run
	_ bench.Run[broadpeers.Config, *broadpeers.Report] = broadpeers.Run
	_ bench.Run[continuous.Config, *continuous.Report] = continuous.Run
	_ bench.Run[distance.Config, *distance.Report]     = distance.Run
	_ bench.Run[toolpaths.Config, *toolpaths.Report]   = toolpaths.Run
)

// Every experiment runs the same way: a Config, Run with a context, and
// the report written as markdown.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := toolpaths.Run(ctx, toolpaths.Config{Quick: true, Seed: 1, Envs: []string{"part1"}, Rounds: 1})
	if err != nil {
		log.Fatal(err)
	}
	if err := r.WriteMarkdown(os.Stdout); err != nil {
		log.Fatal(err)
	}
}
