package bvh

import (
	"runtime"
	"slices"
	"sync"
)

// This file holds what the builders of every kind share: building on the
// available CPUs, and partitioning triangles about a split point.

// parallelMin is the number of triangles below which a subtree is built on
// the calling goroutine.
const parallelMin = 1 << 14

// parallelFor runs f over [0, n) in chunks on the available CPUs.
func parallelFor(n int, f func(lo, hi int)) {
	p := runtime.GOMAXPROCS(0)
	if n < parallelMin || p == 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	chunk := (n + p - 1) / p
	for lo := 0; lo < n; lo += chunk {
		wg.Go(func() { f(lo, min(lo+chunk, n)) })
	}
	wg.Wait()
}

// partitionBy splits ids at the split point of the keys key(t): the mean,
// keys below it first; or the median. ok is false when one side would be
// empty.
func partitionBy(ids []int32, split Split, key func(t int32) float64) (mid int, ok bool) {
	if split == Median {
		mid = len(ids) / 2
		selectNth(ids, mid, key)
		return mid, true
	}
	mean := 0.0
	for _, t := range ids {
		mean += key(t)
	}
	mean /= float64(len(ids))
	return partitionAt(ids, mean, key)
}

// partitionAt puts the triangles whose key is below x first and returns how
// many there are; ok is false when one side is empty.
func partitionAt(ids []int32, x float64, key func(t int32) float64) (mid int, ok bool) {
	i, j := 0, len(ids)-1
	for i <= j {
		if key(ids[i]) < x {
			i++
		} else {
			ids[i], ids[j] = ids[j], ids[i]
			j--
		}
	}
	return i, i > 0 && i < len(ids)
}

// selectNth reorders ids so that ids[n] holds the triangle whose key would
// be there if sorted, smaller ones before it and larger ones after (ties in
// any order).
func selectNth(ids []int32, n int, key func(t int32) float64) {
	lo, hi := 0, len(ids)-1
	for lo < hi {
		// Median of three as the pivot.
		m := lo + (hi-lo)/2
		if key(ids[m]) < key(ids[lo]) {
			ids[m], ids[lo] = ids[lo], ids[m]
		}
		if key(ids[hi]) < key(ids[lo]) {
			ids[hi], ids[lo] = ids[lo], ids[hi]
		}
		if key(ids[hi]) < key(ids[m]) {
			ids[hi], ids[m] = ids[m], ids[hi]
		}
		p := key(ids[m])
		i, j := lo, hi
		for i <= j {
			for key(ids[i]) < p {
				i++
			}
			for key(ids[j]) > p {
				j--
			}
			if i <= j {
				ids[i], ids[j] = ids[j], ids[i]
				i++
				j--
			}
		}
		switch {
		case n <= j:
			hi = j
		case n >= i:
			lo = i
		default:
			return
		}
	}
}

// rank returns the indices of s sorted by score, largest first if desc, ties
// (and NaN) to the lower index.
func rank(s [3]float64, desc bool) [3]int {
	r := [3]int{0, 1, 2}
	slices.SortStableFunc(r[:], func(i, j int) int {
		a, b := s[i], s[j]
		if desc {
			a, b = b, a
		}
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	})
	return r
}
