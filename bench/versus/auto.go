package versus

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"strings"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/auto"
	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/flight"
)

// AutoBV is the name of auto (package auto) among the bounding volumes of
// the harnesses: a scene's two models of the kind auto.Choose chooses per
// mode before the first query, the choice counted in their build time.
const AutoBV = "auto"

// chooseScene chooses the trees of sc's two models (auto.Choose, both
// modes): at the scene's path when it is planned in advance (sc.Poses, or
// the first sc.Steps poses of a billiard path that ignores collisions), as
// an application that knows its path would, else at the probes of random
// flights (a billiard path that reverses at contacts is decided as it
// flies, so nothing is known of it ahead).
func chooseScene(sc *scenes.Scene) (auto.Choice, error) {
	poses := sc.Poses
	if poses == nil && sc.Billiard.Fixed {
		m, err := sc.Motion()
		if err != nil {
			return auto.Choice{}, err
		}
		poses = flight.Path(m, sc.Steps)
	}
	return auto.Choose(auto.Source{Mesh: sc.Env}, auto.Source{Mesh: sc.Fly}, auto.Options{Poses: poses})
}

// AutoRow is how auto did on one scene in one mode, beside every kind of
// tree flown on the same poses.
type AutoRow struct {
	Scene string
	All   bool
	// Pick is the kind auto's queries ran on: the kind whose counts (volume
	// tests, triangle tests, updates, summed over the flight's first
	// round) are auto's, the same trees doing the same work ("" if none
	// is).
	Pick string
	// Best is the fastest kind flown (by mean query time; kinds that flew
	// only the first steps, capped for being slow, are left out), Kinds
	// the number of kinds it was the fastest of.
	Best  string
	Kinds int
	// PickMean, BestMean and AutoMean are the mean query times of the
	// kind picked (flown on its own), of the fastest kind, and of auto's
	// own flight.
	PickMean, BestMean, AutoMean time.Duration
	// AutoBuild is the build time of auto's two models, the choice
	// included; BestBuild that of the fastest kind's.
	AutoBuild, BestBuild time.Duration
}

// Gap is how much slower the kind picked was than the fastest kind:
// PickMean/BestMean − 1 (0 when auto picked the fastest).
func (a AutoRow) Gap() float64 { return float64(a.PickMean)/float64(a.BestMean) - 1 }

// AutoGap is how much slower auto's own flight was than the fastest
// kind's: AutoMean/BestMean − 1. It differs from Gap by the noise of the
// two measures (auto's queries run on models of the kind picked).
func (a AutoRow) AutoGap() float64 { return float64(a.AutoMean)/float64(a.BestMean) - 1 }

// AutoRows returns auto's rows of a report whose collide
// systems include AutoBV, per scene and mode (all pairs first), or nil if
// auto did not fly.
func (r *Report) AutoRows() []AutoRow {
	var rows []AutoRow
	for _, s := range r.Scenes {
		for _, all := range []bool{true, false} {
			auto := r.Runs[s.Name][System{Name: "collide " + AutoBV, BV: AutoBV, All: all, Complete: all}.String()]
			if auto == nil || len(auto.Sum.Times) == 0 || auto.Capped {
				continue
			}
			row := AutoRow{Scene: s.Name, All: all, AutoMean: auto.Sum.Mean(), AutoBuild: auto.Build}
			var best *PeerRun
			for _, sys := range r.Systems {
				run := r.Runs[s.Name][sys.String()]
				if sys.Peer || sys.BV == AutoBV || sys.All != all || run == nil || len(run.Sum.Times) == 0 || run.Err != "" {
					continue
				}
				if row.Pick == "" && maps.Equal(run.Counters, auto.Counters) {
					row.Pick, row.PickMean = sys.BV, run.Sum.Mean()
				}
				if run.Capped {
					continue
				}
				row.Kinds++
				if best == nil || run.Sum.Mean() < best.Sum.Mean() {
					best = run
				}
			}
			if best == nil {
				continue
			}
			row.Best, row.BestMean, row.BestBuild = best.System.BV, best.Sum.Mean(), best.Build
			rows = append(rows, row)
		}
	}
	return rows
}

// WriteAutoMarkdown writes the section of the reports on auto: per scene
// and mode, the kind auto picked, the fastest kind, and how far the pick
// was from it; then how often auto picked the fastest. level is the
// heading's level ("##").
func (r *Report) WriteAutoMarkdown(out io.Writer, level string) error {
	rows := r.AutoRows()
	if len(rows) == 0 {
		return nil
	}
	w := bufio.NewWriter(out)
	fmt.Fprintf(w, "%s auto: the kind of tree chosen per pair of models\n\n", level)
	fmt.Fprintf(w, "`--bv auto` (package auto) builds the candidate trees (%s) of both models and times them "+
		"before the first query (auto.Choose): at the scene's path when it is planned in advance "+
		"(swept, interior, gears and the real-mesh scenes), else, for the billiard paths, at poses of random flights "+
		"chosen before the flight, knowing nothing of it. Its build time includes the choice. "+
		"\"pick\" is the kind auto's queries ran on (the kind whose counts are auto's), \"fastest\" the fastest of the %d kinds flown "+
		"on the same poses (each a step's fastest of %d rounds, taking turns); the gap is the pick's mean over the fastest's; "+
		"auto's own flight is beside it.\n\n",
		bvNames(auto.Candidates()), maxKinds(rows), r.Config.Rounds)
	t := md.NewTable(w, "scene", "mode", "pick", "fastest", "pick's mean (µs)", "fastest's mean (µs)", "gap", "auto's mean (µs)", "auto's gap",
		"auto's build (ms)", "fastest's build (ms)")
	fastest, worst := 0, 0.0
	worstAt := ""
	for _, a := range rows {
		mode := "first contact"
		if a.All {
			mode = "all pairs"
		}
		pick, gap := a.Pick, "–"
		if pick == "" {
			pick = "?"
		} else {
			gap = md.Pct(a.Gap())
			if a.Pick == a.Best {
				fastest++
			} else if a.Gap() > worst {
				worst, worstAt = a.Gap(), a.Scene+", "+mode
			}
		}
		pickMean := "–"
		if a.Pick != "" {
			pickMean = md.Us(a.PickMean)
		}
		t.Row(a.Scene, mode, pick, a.Best, pickMean, md.Us(a.BestMean), gap, md.Us(a.AutoMean), md.Pct(a.AutoGap()), md.Ms(a.AutoBuild), md.Ms(a.BestBuild))
	}
	fmt.Fprintf(w, "\nauto picked the fastest kind in %d of %d cases", fastest, len(rows))
	if fastest < len(rows) {
		fmt.Fprintf(w, "; where it did not, the pick was at most %s slower (%s)", md.Pct(worst), worstAt)
	}
	w.WriteString(".\n\n")
	return w.Flush()
}

// maxKinds returns the most kinds a row was compared with.
func maxKinds(rows []AutoRow) int {
	n := 0
	for _, a := range rows {
		n = max(n, a.Kinds)
	}
	return n
}

// bvNames returns the names of bvs, comma-separated.
func bvNames(bvs []collide.BV) string {
	names := make([]string, len(bvs))
	for i, b := range bvs {
		names[i] = b.String()
	}
	return strings.Join(names, ", ")
}
