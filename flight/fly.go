package flight

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
)

// Options configures Fly.
type Options struct {
	// Steps is the number of steps (queries) to fly; a motion that ends
	// earlier ends the flight.
	Steps int
	// Query is the query of every step (first contact or all pairs,
	// tolerance; Query.MaxPairs bounds a step's pairs, and its memory,
	// whatever the models).
	Query collide.QueryOptions
	// Front says whether the steps use temporal coherence (a
	// collide.Front kept from step to step: the same answers, found from
	// where the last step ended). The default, FrontAuto, uses it while
	// it pays; Query.Front, if set, overrides it.
	Front FrontPolicy
	// CCD asks, at every step after the first, for the continuous query of
	// the motion from the previous step's pose to this one
	// (collide.Query.TimeOfImpact, with the same models), besides the
	// step's own query: Step.CCD holds its answer, and the summary counts
	// the steps where it found a contact that the queries at both poses
	// missed (Step.Missed). Its time is not counted in the step's Time
	// (see Step.CCDTime).
	CCD bool
}

// FrontPolicy says when a flight keeps a collide.Front.
type FrontPolicy uint8

const (
	// FrontAuto keeps a front while it pays: every probeEvery steps, the
	// step's query is timed again from the roots (not counted in the
	// flight's times), and when the front has been slower on the median of
	// the last probes, the rest of the flight goes without it.
	FrontAuto FrontPolicy = iota
	// FrontOn keeps a front at every step.
	FrontOn
	// FrontOff queries from the roots at every step.
	FrontOff
)

// String returns auto, on or off.
func (p FrontPolicy) String() string {
	switch p {
	case FrontAuto:
		return "auto"
	case FrontOn:
		return "on"
	case FrontOff:
		return "off"
	}
	return fmt.Sprintf("FrontPolicy(%d)", uint8(p))
}

// ParseFrontPolicy parses auto, on or off.
func ParseFrontPolicy(s string) (FrontPolicy, error) {
	for p := FrontAuto; p <= FrontOff; p++ {
		if p.String() == s {
			return p, nil
		}
	}
	return 0, fmt.Errorf("flight: unknown front policy %q (want auto, on or off)", s)
}

// probeEvery is how often FrontAuto times a step again from the roots, and
// probes how many probes it compares.
const (
	probeEvery = 16
	probes     = 3
)

// Step is one step of a flight, as Fly passes it to its callback.
type Step struct {
	Index  int       // 0-based
	Pose   geom.Pose // of the flying model
	Result collide.Result
	// Time is the query's own time (the motion and the callback are not
	// counted).
	Time time.Duration
	// With Options.CCD, from the second step on (HasCCD), CCD is the
	// answer of the continuous query of the motion from the previous
	// step's pose to Pose, which took CCDTime; Missed says that it found a
	// contact (CCD.Hit) while the queries at both poses found none: the
	// flight passed through a contact between its samples.
	HasCCD  bool
	CCD     collide.TOIResult
	CCDTime time.Duration
	Missed  bool
}

// PreallocSteps is the most steps whose per-step figures Fly makes room
// for ahead of the flight (see Fly).
const PreallocSteps = 1 << 20

// Summary gathers a flight's figures.
type Summary struct {
	Steps     int           // steps flown
	Colliding int           // steps in contact
	Truncated int           // steps with more pairs than Query.MaxPairs
	Pairs     int64         // pairs reported, summed over the steps
	Stats     collide.Stats // Nv, Np and Nu, summed over the steps
	// Prepare is the time Fly took to prepare the query before its first
	// step (collide.Query.Prepare), not counted in Times.
	Prepare time.Duration
	Times   []time.Duration // each step's query time, in step order
	// Front says whether the flight kept a front to its end; FrontSteps
	// counts the steps that used one (FrontAuto stops when it does not
	// pay).
	Front      bool
	FrontSteps int
	// With Options.CCD: CCDSteps counts the continuous queries (one per
	// step after the first), CCDHits those that found a contact, CCDMaybe
	// those that answered Maybe (turning motions that pass within rounding
	// of a contact), and Missed the steps whose motion touched with no
	// contact found at either end (Step.Missed). CCDStats sums their
	// counts and CCDTimes holds their times, in step order.
	CCDSteps, CCDHits, CCDMaybe, Missed int
	CCDStats                            collide.Stats
	CCDTimes                            []time.Duration
}

// Fly flies fly through env (at the identity pose) along m: at each step it
// asks m for a pose, telling it whether the previous step collided, and
// queries. fn, when not nil, sees every step; the Step and its Pairs are
// valid only during the call. Fly stops at o.Steps steps, when m ends, at a
// query's error (a pose that cannot place fly: see collide.Check), which it
// returns naming the step, or at the first error fn returns, which it
// returns.
//
// Before the first step Fly prepares the query (collide.Query.Prepare: the
// flying model's flying view, the scratch state sized for the two models),
// so that the first step costs what the others do; Summary.Prepare says how
// long that took, and an error it returns (models that cannot fly
// together, a bad tolerance) is Fly's. Every step then reuses the same
// scratch state, so the flight allocates nothing per step beyond what fn
// does (and, in all-pairs mode, the pairs buffer growing to the most pairs
// a step has found). The summary keeps each step's query time (8 bytes a
// step, 16 with o.CCD), made ahead for up to PreallocSteps steps; a longer
// flight grows them as it goes (an allocation now and then), so that
// memory follows the steps flown, not o.Steps.
//
// With o.CCD, every step after the first also asks the continuous query of
// the motion from the previous step's pose to its own (the rigid motion of
// ccd.Motion; with the same models, in scratch state of its own, prepared
// with the step's: Summary.Prepare counts both); it is timed apart
// (Step.CCDTime, Summary.CCDTimes), and its error is Fly's, naming the
// step. The continuous query may allocate. The motion
// still moves as the discrete queries tell it (a contact found only by the
// continuous query does not turn a billiard back).
func Fly(env, fly *collide.Model, m Motion, o Options, fn func(*Step) error) (*Summary, error) {
	if o.Steps < 0 {
		return nil, errors.New("flight: negative number of steps")
	}
	s := &Summary{Times: make([]time.Duration, 0, min(o.Steps, PreallocSteps))}
	var q collide.Query
	t0 := time.Now()
	if err := q.Prepare(env, fly, o.Query); err != nil {
		return s, fmt.Errorf("flight: %w", err)
	}
	s.Prepare = time.Since(t0)
	var st Step
	collided := false
	qo := o.Query
	var front collide.Front
	if qo.Front == nil && o.Front != FrontOff {
		qo.Front = &front
	}
	var cq *collide.Query // the continuous queries' (only with o.CCD: a Query is large)
	if o.CCD {
		cq = new(collide.Query)
		t0 := time.Now()
		if err := cq.Prepare(env, fly, collide.QueryOptions{}); err != nil {
			return s, fmt.Errorf("flight: %w", err)
		}
		s.Prepare += time.Since(t0)
		s.CCDTimes = make([]time.Duration, 0, min(max(o.Steps-1, 0), PreallocSteps))
	}
	var prev geom.Pose                // the previous step's pose
	var with, without []time.Duration // FrontAuto's probes
	var probe collide.Query
	if qo.Front != nil {
		if err := q.Prepare(env, fly, qo); err != nil {
			return s, fmt.Errorf("flight: %w", err)
		}
		if o.Query.Front == nil && o.Front == FrontAuto {
			n := min(o.Steps, PreallocSteps)/probeEvery + 1
			with, without = make([]time.Duration, 0, n), make([]time.Duration, 0, n)
			if err := probe.Prepare(env, fly, o.Query); err != nil {
				return s, fmt.Errorf("flight: %w", err)
			}
		}
	}
	for i := range o.Steps {
		pose, ok := m.Next(collided)
		if !ok {
			break
		}
		t0 := time.Now()
		res, err := q.Check(env, fly, pose, qo)
		d := time.Since(t0)
		if err != nil {
			return s, fmt.Errorf("flight: step %d: %w", i, err)
		}
		if qo.Front != nil {
			s.FrontSteps++
			if o.Query.Front == nil && o.Front == FrontAuto && i%probeEvery == probeEvery-1 {
				p := o.Query
				t1 := time.Now()
				if _, err := probe.Check(env, fly, pose, p); err == nil {
					with, without = append(with, d), append(without, time.Since(t1))
				}
				if len(with) >= probes && median(with[len(with)-probes:]) > median(without[len(without)-probes:]) {
					qo.Front = nil
				}
			}
		}
		var toi collide.TOIResult
		var dc time.Duration
		hasCCD := o.CCD && i > 0
		if hasCCD {
			t1 := time.Now()
			toi, err = cq.TimeOfImpact(env, fly, prev, pose)
			dc = time.Since(t1)
			if err != nil {
				return s, fmt.Errorf("flight: step %d: continuous query from step %d: %w", i, i-1, err)
			}
		}
		missed := hasCCD && toi.Hit && !collided && !res.Collide
		if hasCCD {
			s.CCDSteps++
			switch {
			case toi.Hit:
				s.CCDHits++
			case toi.Maybe:
				s.CCDMaybe++
			}
			if missed {
				s.Missed++
			}
			s.CCDStats.Add(toi.Stats)
			s.CCDTimes = append(s.CCDTimes, dc)
		}
		prev = pose
		collided = res.Collide
		s.Steps++
		if collided {
			s.Colliding++
		}
		if res.Truncated {
			s.Truncated++
		}
		s.Pairs += int64(len(res.Pairs))
		s.Stats.Add(res.Stats)
		s.Times = append(s.Times, d)
		if fn != nil {
			st = Step{Index: i, Pose: pose, Result: res, Time: d, HasCCD: hasCCD, CCD: toi, CCDTime: dc, Missed: missed}
			if err := fn(&st); err != nil {
				return s, err
			}
		}
	}
	s.Front = qo.Front != nil
	return s, nil
}

// median returns the median of the probes ts (len(ts) == probes).
func median(ts []time.Duration) time.Duration {
	var c [probes]time.Duration
	copy(c[:], ts)
	slices.Sort(c[:])
	return c[probes/2]
}

// Mean returns the mean query time (0 for no step).
func (s *Summary) Mean() time.Duration {
	if len(s.Times) == 0 {
		return 0
	}
	var sum time.Duration
	for _, t := range s.Times {
		sum += t
	}
	return sum / time.Duration(len(s.Times))
}

// Quantile returns the q-quantile of the query times, 0 ≤ q ≤ 1, by the
// nearest-rank rule: the smallest time at least a fraction q of the steps
// do not exceed (Quantile(0.5) is the median, Quantile(1) the maximum).
// The rank ⌈q·n⌉ of n steps is taken with q·n rounded to 2^-40 of itself,
// so that a decimal q names the rank it says: 0.999 of 1,000 steps is the
// 999th time, although the float64 nearest 0.999 is a little less.
func (s *Summary) Quantile(q float64) time.Duration {
	if len(s.Times) == 0 {
		return 0
	}
	sorted := slices.Clone(s.Times)
	slices.Sort(sorted)
	return quantile(sorted, q)
}

// quantile returns the q-quantile of sorted, which is not empty.
func quantile(sorted []time.Duration, q float64) time.Duration {
	r := q * float64(len(sorted))
	k := int(math.Ceil(r-r*0x1p-40)) - 1 // rank ⌈q·n⌉, 1-based
	return sorted[min(max(k, 0), len(sorted)-1)]
}

// TimeStats are the figures of a flight's query times that the command
// line prints: the mean, the median, the 99th and 99.9th percentiles (by
// the nearest-rank rule of Quantile) and the maximum. With fewer than
// 1,000 steps P999 is the maximum; with fewer than 100, so is P99.
type TimeStats struct {
	Mean, Median, P99, P999, Max time.Duration
}

// TimeStats returns the summary's time statistics (all 0 for no step),
// sorting a copy of Times once.
func (s *Summary) TimeStats() TimeStats { return timeStats(s.Times) }

// CCDTimeStats returns the statistics of the continuous queries' times
// (CCDTimes; all 0 for none), as TimeStats does those of the steps.
func (s *Summary) CCDTimeStats() TimeStats { return timeStats(s.CCDTimes) }

// timeStats returns the statistics of times, sorting a copy once.
func timeStats(times []time.Duration) TimeStats {
	if len(times) == 0 {
		return TimeStats{}
	}
	sorted := slices.Clone(times)
	slices.Sort(sorted)
	var sum time.Duration
	for _, t := range times {
		sum += t
	}
	return TimeStats{
		Mean: sum / time.Duration(len(times)), Median: quantile(sorted, 0.5), P99: quantile(sorted, 0.99),
		P999: quantile(sorted, 0.999), Max: sorted[len(sorted)-1],
	}
}

// Per returns the mean of a count per step.
func (s *Summary) Per(n int64) float64 {
	if s.Steps == 0 {
		return 0
	}
	return float64(n) / float64(s.Steps)
}
