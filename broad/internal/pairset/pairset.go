// Package pairset is the set of overlapping pairs of objects that the
// sweep-and-prune broad phases (sap, dopsap) keep between calls.
package pairset

// Set is the set of overlapping pairs: a dense list to iterate (List) and an
// open-addressing table (linear probing, backward-shift deletion) from a
// pair's key to its place in the list. A key is lo<<32 | hi with lo < hi,
// so it is never 0, which marks an empty slot.
type Set struct {
	List  []uint64 // the pairs, in no order
	keys  []uint64
	idx   []int32
	shift uint
}

// Key returns the key of the pair of objects a and b, in either order.
func Key(a, b uint32) uint64 {
	if a > b {
		a, b = b, a
	}
	return uint64(a)<<32 | uint64(b)
}

func (s *Set) home(k uint64) int { return int((k * 0x9E3779B97F4A7C15) >> s.shift) }

// Reset empties the set, keeping its memory.
func (s *Set) Reset() {
	s.List = s.List[:0]
	clear(s.keys)
}

// reserve grows the table to hold n pairs at a load of at most one half.
func (s *Set) reserve(n int) {
	size := 16
	for size < 2*n {
		size *= 2
	}
	if size <= len(s.keys) {
		return
	}
	s.keys = make([]uint64, size)
	s.idx = make([]int32, size)
	s.shift = 64
	for 1<<(64-s.shift) < size {
		s.shift--
	}
	for i, k := range s.List {
		s.put(k, int32(i))
	}
}

func (s *Set) put(k uint64, i int32) {
	mask := len(s.keys) - 1
	h := s.home(k)
	for s.keys[h] != 0 {
		h = (h + 1) & mask
	}
	s.keys[h], s.idx[h] = k, i
}

// Add inserts k, which must not be in the set.
func (s *Set) Add(k uint64) {
	if 2*(len(s.List)+1) > len(s.keys) {
		s.reserve(len(s.List) + 1)
	}
	s.put(k, int32(len(s.List)))
	s.List = append(s.List, k)
}

func (s *Set) Find(k uint64) int {
	if len(s.keys) == 0 {
		return -1
	}
	mask := len(s.keys) - 1
	h := s.home(k)
	for s.keys[h] != k {
		if s.keys[h] == 0 {
			return -1
		}
		h = (h + 1) & mask
	}
	return h
}

// Remove deletes k if it is in the set.
func (s *Set) Remove(k uint64) {
	h := s.Find(k)
	if h < 0 {
		return
	}
	i := s.idx[h]
	last := s.List[len(s.List)-1]
	s.List[i] = last
	s.List = s.List[:len(s.List)-1]
	if last != k {
		s.idx[s.Find(last)] = i
	}
	mask := len(s.keys) - 1
	for {
		s.keys[h] = 0
		j := h
		for {
			j = (j + 1) & mask
			if s.keys[j] == 0 {
				return
			}
			// keys[j] may fill the hole at h unless its home lies
			// cyclically in (h, j].
			d := s.home(s.keys[j])
			if (j-d)&mask >= (j-h)&mask {
				s.keys[h], s.idx[h] = s.keys[j], s.idx[j]
				h = j
				break
			}
		}
	}
}

// Filter keeps the pairs for which keep is true.
func (s *Set) Filter(keep func(k uint64) bool) {
	l := s.List[:0]
	for _, k := range s.List {
		if keep(k) {
			l = append(l, k)
		}
	}
	s.List = l
	clear(s.keys)
	for i, k := range s.List {
		s.put(k, int32(i))
	}
}
