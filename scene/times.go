package scene

import (
	"math"
	"math/bits"
	"slices"
	"time"
)

// Times of a play are kept in bounded memory, whatever the number of
// steps: the durations of the first ExactTimes steps exactly, and from
// then on a histogram of timeBuckets buckets of relative width at most
// 2⁻⁷ (a log-linear histogram: 128 buckets per doubling, one a nanosecond
// below 128 ns). A quantile of a play of at most ExactTimes steps is
// exact; of a longer play it is the upper end of the bucket that holds the
// exact quantile, capped at the largest duration: at most 0.8% above the
// exact one, never below it. Total and Max are always exact.
const ExactTimes = 1 << 14

const (
	subBits     = 7 // 2^subBits buckets per doubling
	subBuckets  = 1 << subBits
	timeBuckets = subBuckets + (63-subBits)*subBuckets
)

// bucket returns the bucket of a duration of v ≥ 0 nanoseconds.
func bucket(v uint64) int {
	if v < subBuckets {
		return int(v)
	}
	e := bits.Len64(v) - subBits - 1 // v>>e is in [128, 256)
	return subBuckets + e*subBuckets + int(v>>e) - subBuckets
}

// bucketHigh returns the largest duration (ns) of bucket i.
func bucketHigh(i int) uint64 {
	if i < subBuckets {
		return uint64(i)
	}
	e := (i - subBuckets) / subBuckets
	m := uint64(i-subBuckets-e*subBuckets) + subBuckets
	return (m+1)<<e - 1
}

// timeAcc accumulates the durations of one phase of a play.
type timeAcc struct {
	n          int64
	total, max time.Duration
	exact      []time.Duration // the durations while n ≤ ExactTimes
	hist       []uint64        // the histogram after (nil before)
}

func (a *timeAcc) add(d time.Duration) {
	d = max(d, 0)
	a.n++
	a.total += d
	a.max = max(a.max, d)
	if a.hist == nil {
		if len(a.exact) < ExactTimes {
			a.exact = append(a.exact, d)
			return
		}
		a.hist = make([]uint64, timeBuckets)
		for _, x := range a.exact {
			a.hist[bucket(uint64(x))]++
		}
		a.exact = nil
	}
	a.hist[bucket(uint64(d))]++
}

// times returns the summary of the durations added.
func (a *timeAcc) times() Times {
	if a.n == 0 {
		return Times{}
	}
	t := Times{Total: a.total, Max: a.max}
	if a.hist == nil {
		s := slices.Clone(a.exact)
		slices.Sort(s)
		t.Median, t.P99 = quantile(s, 0.5), quantile(s, 0.99)
		return t
	}
	t.Median, t.P99 = a.histQuantile(0.5), a.histQuantile(0.99)
	return t
}

// histQuantile returns the nearest-rank q-quantile from the histogram:
// the upper end of its bucket, at most the largest duration.
func (a *timeAcc) histQuantile(q float64) time.Duration {
	rank := uint64(min(max(math.Ceil(q*float64(a.n)), 1), float64(a.n)))
	var sum uint64
	for i, c := range a.hist {
		if sum += c; sum >= rank {
			return min(time.Duration(bucketHigh(i)), a.max)
		}
	}
	return a.max
}
