// Package bench holds collide's experiments, one package per family, all
// of one shape, and says what that shape is.
//
// # The families
//
//	paper       the paper's Tables 1 to 7 and Fig. 3 (Klosowski et al., 1998)     collide bench
//	versus      collide against FCL, OPCODE, ODE and Bullet on the same flights   collide bench --peers
//	coherence   front tracking and time-critical budgets (dissertation, 6.3.3)    collide bench --front
//	worlds      many bodies on every broad phase, and on every core               collide bench --worlds
//	cdfast      CDFast's experiments (Sanna and Milani), in worlds' report
//	broadpeers  collide's broad phases against Bullet's and FCL's, on box traces  collide bench --worlds --peers
//	continuous  collide's time of impact against FCL's continuous collision       collide bench --ccd-peers
//	distance    collide's distance queries against FCL's
//	toolpaths   the dissertation's NC tool-path verification (chapter 8)          collide bench --nc
//	queries     issue 30's queries and builds with every kind, beside the peers'  collide bench --queries
//	grains      Zachmann's medium grain and concurrent module (thesis, 6.3-6.6)  collide bench --grains
//	objects     Zachmann's convex objects, separating planes, a convex world      collide bench --objects
//	ch2         the dissertation's chapter 2: grid, k-d tree, R-tree, mesh         collide bench --ch2
//	dops        the dissertation's comparison of k, its 8-, 12- and 20-DOPs too   collide bench --dops
//	ch6         the dissertation's chapter 6 tree designs and overlap tests       collide bench --ch6
//
// Beside them: bench/scenes makes the paper's scenes and ours, bench/plot
// draws the charts, bench/boxtrace reads and writes the box traces that
// broadpeers replays, and bench/peers is the Go side of collide-peers, the
// C++ driver of the peer libraries (its sources in bench/peers/driver,
// built by bench/peers/build.sh), which versus, broadpeers, continuous,
// distance and queries run.
//
// # The shape of an experiment
//
// Every family exports a Config, a Report and
//
//	func Run(ctx context.Context, c Config) (*Report, error)
//
// (the type Run names it), and its *Report has
//
//	func (r *Report) WriteMarkdown(w io.Writer) error
//
// (the interface Report). Run runs the whole experiment and returns its
// figures. Nothing in the families prints: a Config's Progress (where there
// is one), when not nil, is called with a line as each stage starts. Run
// stops between two stages when ctx ends, returning ctx's error. A
// Config's zero fields take the defaults it documents, and its Quick (or
// Size, for the paper's scenes) picks the short run where the family has
// one. Some reports write more than markdown: versus its disagreements as
// CSV, broadpeers JSON, paper its charts as SVG.
//
// A new experiment is a new family of the same shape, a line in the table
// above, a line in this package's test (which checks the shape when it
// compiles, and that the table names every family) and a mode of `collide
// bench` (cmd/collide/bench.go).
package bench

import (
	"context"
	"io"
)

// Report is what every experiment's Run returns: figures that write
// themselves as a markdown report.
type Report interface {
	WriteMarkdown(w io.Writer) error
}

// Run is the entry point of an experiment: it runs the experiment that
// c configures and returns its report, or stops with ctx's error when ctx
// ends first.
type Run[C any, R Report] func(ctx context.Context, c C) (R, error)
