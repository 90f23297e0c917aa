package broad

import "github.com/collide3d/collide/geom"

// Brute is the brute-force broad phase, the oracle: Pairs tests every moved
// object against every other object, O(m·n) box tests for m moved objects
// among n, and a moved static object against the moving objects only. The
// zero value is an empty phase ready to use.
type Brute struct {
	box    []geom.AABB
	state  []uint8 // 0 absent; bit 1 present, bit 2 static, bit 4 moved
	moved  []int32
	n      int
	dyn    []int32 // the present moving objects, ascending (if !dirty)
	dirty  bool
	visits int64
}

const (
	brPresent = 1 << iota
	brStatic
	brMoved
)

// NewBrute returns an empty brute-force phase.
func NewBrute() *Brute { return &Brute{} }

func (p *Brute) grow(id int32) {
	if id < 0 {
		panic("broad: negative object id")
	}
	for int(id) >= len(p.box) {
		p.box = append(p.box, geom.AABB{})
		p.state = append(p.state, 0)
	}
}

// Add implements Phase.
func (p *Brute) Add(id int32, b geom.AABB, static bool) {
	p.grow(id)
	if p.state[id]&brPresent == 0 {
		p.n++
	}
	s := uint8(brPresent)
	if static {
		s |= brStatic
	}
	p.box[id] = b
	p.mark(id, s)
	p.dirty = true
}

func (p *Brute) mark(id int32, s uint8) {
	if p.state[id]&brMoved == 0 {
		p.moved = append(p.moved, id)
	}
	p.state[id] = s | brMoved
}

// Move implements Phase.
func (p *Brute) Move(id int32, b geom.AABB) {
	if int(id) >= len(p.state) || p.state[id]&brPresent == 0 {
		panic("broad: Move of an absent object")
	}
	p.box[id] = b
	p.mark(id, p.state[id]&(brPresent|brStatic))
}

// Remove implements Phase.
func (p *Brute) Remove(id int32) {
	if id < 0 || int(id) >= len(p.state) || p.state[id]&brPresent == 0 {
		return
	}
	p.n--
	p.state[id] &= brMoved // still in the moved list: Pairs skips it
	p.dirty = true
}

// Len implements Phase.
func (p *Brute) Len() int { return p.n }

// Pairs implements Phase.
func (p *Brute) Pairs(fn func(a, b int32) bool) {
	moved := p.moved
	p.moved = p.moved[:0]
	if p.dirty {
		p.dyn = p.dyn[:0]
		for id, s := range p.state {
			if s&(brPresent|brStatic) == brPresent {
				p.dyn = append(p.dyn, int32(id))
			}
		}
		p.dirty = false
	}
	// The moved marks become seen marks for the duration of the call, so
	// that a pair of two moved objects is reported once, from its lower id.
	for _, a := range moved {
		p.state[a] = p.state[a]&^brMoved | brSeen
	}
	defer func() {
		for _, a := range moved {
			p.state[a] &^= brSeen
		}
	}()
	for _, a := range moved {
		sa := p.state[a]
		if sa&brPresent == 0 {
			continue
		}
		ba := &p.box[a]
		// A static object against the moving ones only.
		n := int32(len(p.box))
		if sa&brStatic != 0 {
			n = int32(len(p.dyn))
		}
		p.visits += int64(n)
		for i := range n {
			b := i
			if sa&brStatic != 0 {
				b = p.dyn[i]
			}
			sb := p.state[b]
			if b == a || sb&brPresent == 0 || sa&sb&brStatic != 0 {
				continue
			}
			if b < a && sb&brSeen != 0 {
				continue
			}
			if !Overlaps(ba, &p.box[b]) {
				continue
			}
			lo, hi := a, b
			if hi < lo {
				lo, hi = hi, lo
			}
			if !fn(lo, hi) {
				return
			}
		}
	}
}

const brSeen = 8

// Visits returns the number of candidate pairs the phase has visited (box
// tests): a measure of its work for tests (broadtest.Linear).
func (p *Brute) Visits() int64 { return p.visits }
