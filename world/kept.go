package world

// kept holds a state per pair of objects that a pair keeps from one step
// to the next while it is tested at every step (a front, a separating
// plane), and reuses the states of pairs that stopped being tested.
type kept[T any, P interface {
	*T
	Reset()
}] struct {
	m     map[uint64]*keptState[T]
	spare []*keptState[T]
}

// keptState is a pair's state, with the step that last used it.
type keptState[T any] struct {
	v    T
	step int64
}

// at returns the state of the pair key for step: the one it kept at its
// last step, or a reset one.
func (k *kept[T, P]) at(key uint64, step int64) *T {
	s := k.m[key]
	if s == nil {
		if n := len(k.spare); n > 0 {
			s, k.spare = k.spare[n-1], k.spare[:n-1]
			P(&s.v).Reset()
		} else {
			s = new(keptState[T])
		}
		if k.m == nil {
			k.m = map[uint64]*keptState[T]{}
		}
		k.m[key] = s
	}
	s.step = step
	return &s.v
}

// drop sets aside the states of the pairs not used at step.
func (k *kept[T, P]) drop(step int64) {
	for key, s := range k.m {
		if s.step != step {
			delete(k.m, key)
			k.spare = append(k.spare, s)
		}
	}
}
