package world

import "fmt"

// interest is the collision interest matrix: a bit per pair of groups and
// a map of per-pair overrides, looked up only when both objects have one.
type interest struct {
	groups []uint64 // MaxGroups × MaxGroups bits, 1 = not interesting
	pairs  map[uint64]bool
}

func (in *interest) init() {
	in.groups = make([]uint64, MaxGroups*MaxGroups/64)
	in.pairs = map[uint64]bool{}
}

func pairKey(a, b ID) uint64 {
	if a > b {
		a, b = b, a
	}
	return uint64(uint32(a))<<32 | uint64(uint32(b))
}

func (in *interest) groupOff(g, h uint16) bool {
	i := int(g)*MaxGroups + int(h)
	return in.groups[i>>6]>>(i&63)&1 != 0
}

// wants reports whether the pair of a and b is interesting: O(1).
func (w *World) wants(a, b ID) bool {
	oa, ob := &w.objs[a], &w.objs[b]
	if oa.ovr > 0 && ob.ovr > 0 {
		if on, ok := w.inter.pairs[pairKey(a, b)]; ok {
			return on
		}
	}
	return !w.inter.groupOff(oa.group, ob.group)
}

// SetGroupInterest sets whether pairs of an object of group g and one of
// group h are tested (both orders; g may equal h). Every pair of groups is
// tested unless set otherwise. It takes effect at the next Step for the
// pairs that step tests: a pair that stops being interesting ends (End) at
// the next move of one of its objects.
func (w *World) SetGroupInterest(g, h int, on bool) error {
	if g < 0 || g >= MaxGroups || h < 0 || h >= MaxGroups {
		return fmt.Errorf("world: SetGroupInterest: group %d or %d is not in [0, %d)", g, h, MaxGroups)
	}
	for _, i := range [2]int{g*MaxGroups + h, h*MaxGroups + g} {
		if on {
			w.inter.groups[i>>6] &^= 1 << (i & 63)
		} else {
			w.inter.groups[i>>6] |= 1 << (i & 63)
		}
	}
	return nil
}

// SetInterest sets whether the pair of objects a and b is tested,
// overriding their groups' interest, until ClearInterest or the removal of
// either object. Like SetGroupInterest it takes effect for the pairs a step
// tests.
func (w *World) SetInterest(a, b ID, on bool) error {
	if _, err := w.get(a); err != nil {
		return err
	}
	if _, err := w.get(b); err != nil {
		return err
	}
	if a == b {
		return fmt.Errorf("world: SetInterest: object %d paired with itself", a)
	}
	k := pairKey(a, b)
	if _, ok := w.inter.pairs[k]; !ok {
		w.objs[a].ovr++
		w.objs[b].ovr++
	}
	w.inter.pairs[k] = on
	return nil
}

// ClearInterest removes the override of the pair a, b: its groups decide
// again.
func (w *World) ClearInterest(a, b ID) {
	k := pairKey(a, b)
	if _, ok := w.inter.pairs[k]; ok {
		delete(w.inter.pairs, k)
		w.objs[a].ovr--
		w.objs[b].ovr--
	}
}

// Interested reports whether the pair of objects a and b would be tested
// (false if either is absent, if a == b, or if both are static).
func (w *World) Interested(a, b ID) bool {
	oa, err1 := w.get(a)
	ob, err2 := w.get(b)
	if err1 != nil || err2 != nil || a == b || oa.static && ob.static {
		return false
	}
	return w.wants(a, b)
}

// forget drops the overrides naming object id, which is being removed:
// O(overrides) when it has any, nothing otherwise.
func (w *World) forget(id ID) {
	if w.objs[id].ovr == 0 {
		return
	}
	for k := range w.inter.pairs {
		a, b := ID(k>>32), ID(uint32(k))
		if a == id || b == id {
			delete(w.inter.pairs, k)
			w.objs[a].ovr--
			w.objs[b].ovr--
		}
	}
}
