package grid

import (
	"math/bits"
	"slices"
)

// table holds the non-empty cells: an open-addressing hash table (linear
// probing, backward-shift deletion) whose slots hold each cell's key and
// its list of objects, so that finding a cell is one probe into one cache
// line and its list one more. Keys are never 0, which marks an empty slot.
//
// The hash keeps each run of four cells along x (the same key but for the
// two low bits of x) in four adjacent slots: a query, which visits the
// cells of a box row by row, and the next query, which in the query order
// is its neighbour, find them in the lines just read.
type table struct {
	slots []slot
	n     int
	shift uint          // 64 - log2(len(slots)/4)
	free  [32][][]int32 // free lists by class: class c holds capacity 8<<c
}

// block returns an empty list of capacity 8<<c, from the free lists or
// from a new slab of 64 of them: in steady state the lists' memory is
// recycled and nothing is allocated.
func (t *table) block(c int) []int32 {
	if n := len(t.free[c]); n > 0 {
		b := t.free[c][n-1]
		t.free[c] = t.free[c][:n-1]
		return b
	}
	size := 8 << c
	slab := make([]int32, 64*size)
	for i := 1; i < 64; i++ {
		t.free[c] = append(t.free[c], slab[i*size:i*size:(i+1)*size])
	}
	return slab[0:0:size]
}

// release gives a list's memory back.
func (t *table) release(b []int32) {
	c := bits.TrailingZeros(uint(cap(b) >> 3))
	t.free[c] = append(t.free[c], b[:0])
}

// slot is one cell: its key and the objects (slots of Phase) that overlap
// it, in ascending order.
type slot struct {
	key  uint64
	objs []int32
}

func (t *table) home(k uint64) int {
	return int((k>>2)*0x9E3779B97F4A7C15>>t.shift)<<2 | int(k&3)
}

// reset empties the table, keeping the lists' memory for reuse.
func (t *table) reset() {
	for i := range t.slots {
		s := &t.slots[i]
		if s.key != 0 {
			t.release(s.objs)
			*s = slot{}
		}
	}
	t.n = 0
}

// get returns the cell of key k, or nil.
func (t *table) get(k uint64) *slot {
	if len(t.slots) == 0 {
		return nil
	}
	mask := len(t.slots) - 1
	for h := t.home(k); ; h = (h + 1) & mask {
		s := &t.slots[h]
		switch s.key {
		case k:
			return s
		case 0:
			return nil
		}
	}
}

// add appends id to the cell of key k, making the cell if need be.
func (t *table) add(k uint64, id int32) {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	mask := len(t.slots) - 1
	h := t.home(k)
	for {
		s := &t.slots[h]
		if s.key == k {
			// Keep the list in ascending order.
			i := len(s.objs)
			if i == cap(s.objs) {
				b := t.block(bits.TrailingZeros(uint(cap(s.objs)>>3)) + 1)
				t.release(s.objs)
				s.objs = append(b, s.objs...)
			}
			s.objs = append(s.objs, id)
			for ; i > 0 && s.objs[i-1] > id; i-- {
				s.objs[i] = s.objs[i-1]
			}
			s.objs[i] = id
			return
		}
		if s.key == 0 {
			break
		}
		h = (h + 1) & mask
	}
	s := &t.slots[h]
	s.key = k
	s.objs = append(t.block(0), id)
	t.n++
}

func (t *table) grow() {
	old := t.slots
	size := max(64, 2*len(old))
	t.slots = make([]slot, size)
	t.shift = 64
	for 4<<(64-t.shift) < size {
		t.shift--
	}
	mask := size - 1
	for _, s := range old {
		if s.key == 0 {
			continue
		}
		h := t.home(s.key)
		for t.slots[h].key != 0 {
			h = (h + 1) & mask
		}
		t.slots[h] = s
	}
}

// remove takes id out of the cell of key k, which holds it, and drops the
// cell if it is then empty.
func (t *table) remove(k uint64, id int32) {
	mask := len(t.slots) - 1
	h := t.home(k)
	for t.slots[h].key != k {
		h = (h + 1) & mask
	}
	s := &t.slots[h]
	i := slices.Index(s.objs, id)
	s.objs = slices.Delete(s.objs, i, i+1)
	if len(s.objs) > 0 {
		return
	}
	t.release(s.objs)
	t.n--
	for {
		t.slots[h] = slot{}
		j := h
		for {
			j = (j + 1) & mask
			if t.slots[j].key == 0 {
				return
			}
			// slots[j] may fill the hole at h unless its home lies
			// cyclically in (h, j].
			if d := t.home(t.slots[j].key); (j-d)&mask >= (j-h)&mask {
				t.slots[h] = t.slots[j]
				h = j
				break
			}
		}
	}
}
