package bvh

// SetMinItems sets the least number of pairs of nodes the first walk of
// m's queries leaves for the two workers, and the pairs it tests first,
// so that small trees split too.
func (m *Medium) SetMinItems(n, first int) { m.minItems, m.firstTests = n, first }

// Shared returns the number of pairs of nodes the two workers shared in
// m's last query that split (0 if it ran on one goroutine).
func (m *Medium) Shared() int { return m.n }

// SetDynamic makes m's workers take the pairs one at a time (see work).
func (m *Medium) SetDynamic(on bool) { m.dynamic = on }
