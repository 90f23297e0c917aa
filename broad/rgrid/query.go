package rgrid

// queryStatic reports the pairs of the moved object a with the static
// objects, by its spheres if it has some, else by its box. It returns false
// when the caller asked to stop.
func (p *Phase) queryStatic(a int32) bool {
	s := &p.st
	q := &p.box[a]
	if len(s.ids) == 0 || !q.overlaps(&s.bounds) {
		return true // outside the static bounds: no static object to meet
	}
	sph := p.sph[a]
	if len(sph) == 0 {
		ok := false
		if p.opt.LinearScan {
			ok = p.scanBox(a, q)
		} else {
			ok = p.walkBox(0, a, q)
		}
		return ok && p.bigBox(a, q)
	}
	for j := range sph {
		sp := &sph[j]
		if !(sp.R >= 0) {
			continue // empty (or NaN): meets nothing
		}
		c := [3]float64{sp.C.X, sp.C.Y, sp.C.Z}
		sb := sphereBounds(&c, sp.R)
		if !sb.overlaps(&s.bounds) {
			continue
		}
		p.nextSphereStamp()
		var ok bool
		if p.opt.LinearScan {
			ok = p.scanSphere(a, &c, sp.R)
		} else {
			root := &s.grids[0]
			pin := sphereBoxFilter(&c, sp.R, &box3{root.lo, root.hi}) == sphereIn
			ok = p.walkSphere(0, a, &c, sp.R, &sb, pin)
		}
		if !ok || len(s.big) > 0 && !p.leafSphere(a, &c, sp.R, cell{}, false) {
			return false
		}
	}
	return true
}

// walkBox visits the cells of grid gi that box q reaches, descending into
// subdivided ones.
func (p *Phase) walkBox(gi int32, a int32, q *box3) bool {
	s := &p.st
	g := &s.grids[gi]
	r := g.rangeOf(q)
	for z := r.lo[2]; z <= r.hi[2]; z++ {
		for y := r.lo[1]; y <= r.hi[1]; y++ {
			row := g.base + (z*g.n[1]+y)*g.n[0]
			for x := r.lo[0]; x <= r.hi[0]; x++ {
				c := s.cells[row+x]
				if c.n < 0 {
					if !p.walkBox(c.first, a, q) {
						return false
					}
					continue
				}
				p.stats.CellsVisited++
				if c.n > 0 && !p.leafBox(a, q, c) {
					return false
				}
			}
		}
	}
	return true
}

// bigBox tests the big static boxes against the box q of object a.
func (p *Phase) bigBox(a int32, q *box3) bool {
	return p.boxes(a, q, p.st.big, 0)
}

// leafBox tests the boxes of leaf c against the box q of object a.
//
// The boxes that contain the closed cell (the first c.nfull) need no test:
// q meets them. Along each axis let [l, h] be the leaf's extent. q meets
// the static bounds, which lie in the root box, and reached the leaf, at
// every level of the descent: there the cell index of q.lo is at most the
// cell's, so q.lo < h, or the cell is the last of its grid and then q.lo
// ≤ h by induction (at the root, because q meets the root box); and the
// index of q.hi is at least the cell's, so l ≤ q.hi, or the cell is the
// first and the same induction gives it (the index of x counts the
// boundaries at most x). So [q.lo, q.hi] meets [l, h] on every axis: q
// meets the closed cell, which lies in the box.
func (p *Phase) leafBox(a int32, q *box3, c cell) bool {
	return p.boxes(a, q, p.st.items[c.first:c.first+c.n], c.nfull)
}

// boxes tests the static boxes ks against the box q of object a, the first
// nfull known to meet it, skipping those this query has tested already.
func (p *Phase) boxes(a int32, q *box3, ks []int32, nfull int32) bool {
	s := &p.st
	for i, k := range ks {
		if s.stamp[k] == p.q {
			continue
		}
		s.stamp[k] = p.q
		if int32(i) < nfull {
			p.stats.FullHits++
		} else {
			p.stats.BoxTests++
			if !q.overlaps(&s.box[k]) {
				continue
			}
		}
		b := s.ids[k]
		if !p.sphOK(b, q) {
			continue
		}
		p.stats.StaticPairs++
		if !p.emit(a, b) {
			return false
		}
	}
	return true
}

// walkSphere visits the cells of grid gi that the sphere (c, r), of bounds
// sb, reaches. pin says the sphere is known to meet the closed extent of
// the grid.
//
// A sphere whose bounds reach a single cell of the grid meets that cell
// when it meets the grid: every point of its bounds inside the grid's
// closed extent lies in that closed cell. Otherwise each cell is tested (a
// float filter, conservative: a cell is skipped only when the sphere
// certainly misses it, and taken as met only when it certainly meets it).
func (p *Phase) walkSphere(gi int32, a int32, c *[3]float64, r float64, sb *box3, pin bool) bool {
	s := &p.st
	g := &s.grids[gi]
	rg := g.rangeOf(sb)
	single := rg.lo == rg.hi
	var cb box3
	for z := rg.lo[2]; z <= rg.hi[2]; z++ {
		cb.lo[2], cb.hi[2] = g.cellAxis(2, z)
		for y := rg.lo[1]; y <= rg.hi[1]; y++ {
			cb.lo[1], cb.hi[1] = g.cellAxis(1, y)
			row := g.base + (z*g.n[1]+y)*g.n[0]
			for x := rg.lo[0]; x <= rg.hi[0]; x++ {
				cl := s.cells[row+x]
				in := pin && single
				if !in {
					cb.lo[0], cb.hi[0] = g.cellAxis(0, x)
					p.stats.CellTests++
					switch sphereBoxFilter(c, r, &cb) {
					case sphereOut:
						continue
					case sphereIn:
						in = true
					}
				}
				if cl.n < 0 {
					if !p.walkSphere(cl.first, a, c, r, sb, in) {
						return false
					}
					continue
				}
				p.stats.CellsVisited++
				if cl.n > 0 && !p.leafSphere(a, c, r, cl, in) {
					return false
				}
			}
		}
	}
	return true
}

// leafSphere tests the boxes of leaf cl against the sphere (c, r) of
// object a. in says the sphere certainly meets the closed cell, so it meets
// the boxes that contain the cell without a test.
func (p *Phase) leafSphere(a int32, c *[3]float64, r float64, cl cell, in bool) bool {
	s := &p.st
	items := s.items[cl.first : cl.first+cl.n]
	if cl == (cell{}) {
		items = s.big // the big boxes, each tested
	}
	for i, k := range items {
		if s.sstamp[k] == p.qs {
			continue
		}
		s.sstamp[k] = p.qs
		if in && int32(i) < cl.nfull {
			p.stats.FullHits++
		} else {
			p.stats.SphereBoxTests++
			if !p.sphereMeets(c, r, &s.box[k]) {
				continue
			}
		}
		p.stats.SphereBoxHits++
		if s.stamp[k] == p.q {
			continue // the pair is decided already, by another sphere
		}
		s.stamp[k] = p.q
		p.stats.BoxTests++
		q := &p.box[a]
		if !q.overlaps(&s.box[k]) {
			continue
		}
		b := s.ids[k]
		if !p.sphOK(b, q) {
			continue
		}
		p.stats.StaticPairs++
		if !p.emit(a, b) {
			return false
		}
	}
	return true
}

// sphereMeets is the exact sphere-box test on the sphere's parts.
func (p *Phase) sphereMeets(c *[3]float64, r float64, b *box3) bool {
	switch sphereBoxFilter(c, r, b) {
	case sphereIn:
		return true
	case sphereOut:
		return false
	}
	p.stats.ExactSphereTests++
	return sphereBoxExact(c, r, b)
}

// scanBox is walkBox in LinearScan mode: every leaf is tested, and those
// whose closed extent q meets are visited (those of the indexed walk, and
// the next ones when q ends on a boundary). q meets the closed cell, so
// the Full shortcut holds as in leafBox.
func (p *Phase) scanBox(a int32, q *box3) bool {
	s := &p.st
	for li, ci := range s.leaves {
		p.stats.CellTests++
		if !q.overlaps(&s.leafBox[li]) {
			continue
		}
		p.stats.CellsVisited++
		if c := s.cells[ci]; c.n > 0 && !p.leafBox(a, q, c) {
			return false
		}
	}
	return true
}

// scanSphere is walkSphere in LinearScan mode.
func (p *Phase) scanSphere(a int32, c *[3]float64, r float64) bool {
	s := &p.st
	for li, ci := range s.leaves {
		p.stats.CellTests++
		f := sphereBoxFilter(c, r, &s.leafBox[li])
		if f == sphereOut {
			continue
		}
		p.stats.CellsVisited++
		if cl := s.cells[ci]; cl.n > 0 && !p.leafSphere(a, c, r, cl, f == sphereIn) {
			return false
		}
	}
	return true
}
