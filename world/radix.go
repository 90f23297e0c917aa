package world

import (
	"math/bits"
	"slices"
)

// sortKeys sorts the pair keys ascending: an LSD radix sort, 11 bits a
// pass over the bits the keys use (two IDs below 2^17 make 3 passes of a
// key's 34 bits, where pdqsort took 2 ms for 38,000 pairs), or slices.Sort
// when there are few. tmp is scratch, grown as needed and returned.
func sortKeys(keys, tmp []uint64, maxID ID) []uint64 {
	if len(keys) < 512 {
		slices.Sort(keys)
		return tmp
	}
	idBits := bits.Len32(uint32(maxID))
	// Only the low idBits of each half are used: pack them together.
	for i, k := range keys {
		keys[i] = k>>32<<idBits | k&(1<<idBits-1)
	}
	tmp = slices.Grow(tmp[:0], len(keys))[:len(keys)]
	const digit = 11
	src, dst := keys, tmp
	var count [1 << digit]int
	for shift := 0; shift < 2*idBits; shift += digit {
		clear(count[:])
		for _, k := range src {
			count[k>>shift&(1<<digit-1)]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, k := range src {
			d := k >> shift & (1<<digit - 1)
			dst[count[d]] = k
			count[d]++
		}
		src, dst = dst, src
	}
	for i, k := range src {
		keys[i] = k>>idBits<<32 | k&(1<<idBits-1)
	}
	return tmp
}
