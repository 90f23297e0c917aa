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
}

// Step is one step of a flight, as Fly passes it to its callback.
type Step struct {
	Index  int       // 0-based
	Pose   geom.Pose // of the flying model
	Result collide.Result
	// Time is the query's own time (the motion and the callback are not
	// counted).
	Time time.Duration
}

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
// a step has found).
func Fly(env, fly *collide.Model, m Motion, o Options, fn func(*Step) error) (*Summary, error) {
	if o.Steps < 0 {
		return nil, errors.New("flight: negative number of steps")
	}
	s := &Summary{Times: make([]time.Duration, 0, o.Steps)}
	var q collide.Query
	t0 := time.Now()
	if err := q.Prepare(env, fly, o.Query); err != nil {
		return s, fmt.Errorf("flight: %w", err)
	}
	s.Prepare = time.Since(t0)
	var st Step
	collided := false
	for i := range o.Steps {
		pose, ok := m.Next(collided)
		if !ok {
			break
		}
		t0 := time.Now()
		res, err := q.Check(env, fly, pose, o.Query)
		d := time.Since(t0)
		if err != nil {
			return s, fmt.Errorf("flight: step %d: %w", i, err)
		}
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
			st = Step{Index: i, Pose: pose, Result: res, Time: d}
			if err := fn(&st); err != nil {
				return s, err
			}
		}
	}
	return s, nil
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
func (s *Summary) TimeStats() TimeStats {
	if len(s.Times) == 0 {
		return TimeStats{}
	}
	sorted := slices.Clone(s.Times)
	slices.Sort(sorted)
	return TimeStats{
		Mean: s.Mean(), Median: quantile(sorted, 0.5), P99: quantile(sorted, 0.99),
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
