package bench_test

import (
	"context"
	"log"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/collide3d/collide/bench"
	"github.com/collide3d/collide/bench/broadpeers"
	"github.com/collide3d/collide/bench/cdfast"
	"github.com/collide3d/collide/bench/ch2"
	"github.com/collide3d/collide/bench/ch6"
	"github.com/collide3d/collide/bench/coherence"
	"github.com/collide3d/collide/bench/continuous"
	"github.com/collide3d/collide/bench/distance"
	"github.com/collide3d/collide/bench/dops"
	"github.com/collide3d/collide/bench/grains"
	"github.com/collide3d/collide/bench/objects"
	"github.com/collide3d/collide/bench/paper"
	"github.com/collide3d/collide/bench/queries"
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
	_ bench.Run[queries.Config, *queries.Report]       = queries.Run
	_ bench.Run[grains.Config, *grains.Report]         = grains.Run
	_ bench.Run[objects.Config, *objects.Report]       = objects.Run
	_ bench.Run[ch2.Config, *ch2.Report]               = ch2.Run
	_ bench.Run[dops.Config, *dops.Report]             = dops.Run
	_ bench.Run[ch6.Config, *ch6.Report]               = ch6.Run
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

// helpers are bench's folders that are not experiments.
var helpers = []string{"boxtrace", "internal", "peers", "plot", "scenes"}

// TestDocListsFamilies checks that the table of the package doc names
// every family, a folder of bench that is not a helper, and no other.
func TestDocListsFamilies(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	// The table: the indented lines between the section's heading and the
	// paragraph after it.
	table := string(src)
	table = table[strings.Index(table, "# The families"):]
	table = table[:strings.Index(table, "// Beside them")]
	var listed []string
	for _, line := range strings.Split(table, "\n") {
		if f := strings.Fields(strings.TrimPrefix(line, "//\t")); strings.HasPrefix(line, "//\t") && len(f) > 1 {
			listed = append(listed, f[0])
		}
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var families []string
	for _, e := range entries {
		if e.IsDir() && !slices.Contains(helpers, e.Name()) {
			families = append(families, e.Name())
		}
	}
	slices.Sort(listed)
	if !slices.Equal(listed, families) {
		t.Errorf("the package doc lists the families %v; the folders are %v", listed, families)
	}
}
