package ch2

import (
	"math"
	"slices"
	"time"
)

// Tie is the chapter's tie margin: a method within 5% of the fastest
// shares the win, and of two methods within 5% of each other neither
// outranks the other.
const Tie = 1.05

// Score is the chapter's scoring of a set of methods over the flights:
// the flights each method won (the fastest per step, ties within 5%
// counting for all), and its rank in each (1 + the methods faster by more
// than 5%), summed and averaged over the flights it flew (the mesh does
// not fly where TetGen refused the environment).
type Score struct {
	Set     []int
	Wins    [nMethods]int
	RankSum [nMethods]int
	Flights [nMethods]int
	// Slow is the geometric mean over the flights of a method's time per
	// step ÷ the fastest's (the scoring above counts a win by 1 µs as one
	// by 100); Total the sum of its times per step (over the flights it
	// flew).
	Slow  [nMethods]float64
	Total [nMethods]time.Duration
}

// MeanRank returns method m's mean rank.
func (s *Score) MeanRank(m int) float64 {
	if s.Flights[m] == 0 {
		return 0
	}
	return float64(s.RankSum[m]) / float64(s.Flights[m])
}

// Order returns the set's methods from the best mean rank to the worst.
func (s *Score) Order() []int {
	o := slices.Clone(s.Set)
	slices.SortStableFunc(o, func(a, b int) int {
		switch ra, rb := s.MeanRank(a), s.MeanRank(b); {
		case ra < rb:
			return -1
		case ra > rb:
			return 1
		}
		return 0
	})
	return o
}

// WinOrder returns the set's methods from the most wins to the fewest.
func (s *Score) WinOrder() []int {
	o := slices.Clone(s.Set)
	slices.SortStableFunc(o, func(a, b int) int { return s.Wins[b] - s.Wins[a] })
	return o
}

// score scores the methods of set over the flights.
func score(flights []*FlightRun, set []int) *Score {
	s := &Score{Set: set}
	var logs [nMethods]float64
	for _, f := range flights {
		best := time.Duration(math.MaxInt64)
		for _, m := range set {
			if f.Method[m].Ran {
				best = min(best, max(f.Method[m].Step, 1))
			}
		}
		for _, m := range set {
			if f.Method[m].Ran {
				logs[m] += math.Log(float64(max(f.Method[m].Step, 1)) / float64(best))
				s.Total[m] += f.Method[m].Step
			}
		}
		for _, m := range set {
			run := &f.Method[m]
			if !run.Ran {
				continue
			}
			rank := rankOf(f, m, set)
			s.Flights[m]++
			s.RankSum[m] += rank
			if rank == 1 {
				s.Wins[m]++
			}
		}
	}
	for _, m := range set {
		if s.Flights[m] > 0 {
			s.Slow[m] = math.Exp(logs[m] / float64(s.Flights[m]))
		}
	}
	return s
}

// rankOf returns method m's rank among set in flight f: 1 + the methods
// that flew it faster by more than Tie.
func rankOf(f *FlightRun, m int, set []int) int {
	rank := 1
	for _, o := range set {
		if o != m && f.Method[o].Ran && float64(f.Method[o].Step)*Tie < float64(f.Method[m].Step) {
			rank++
		}
	}
	return rank
}
