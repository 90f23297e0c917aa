package mesh

// Fan fan-triangulates one polygon as its vertex indices arrive, in the order
// every codec uses: p0 p1 p2, p0 p2 p3, ... The zero value starts a polygon.
type Fan struct {
	first, prev int32
	n           int
}

// Add takes the next vertex index v of the polygon and appends to tris the
// triangle it closes, if any (from the third vertex on).
func (f *Fan) Add(tris [][3]int32, v int32) [][3]int32 {
	switch f.n {
	case 0:
		f.first = v
	case 1:
		f.prev = v
	default:
		tris = append(tris, [3]int32{f.first, f.prev, v})
		f.prev = v
	}
	f.n++
	return tris
}

// Len returns the number of vertices added so far.
func (f *Fan) Len() int { return f.n }
