// Package rgrid is CDFast's recursive uniform grid (Sanna and Milani,
// seed 003) as a broad phase (package broad): the static objects are binned
// into a uniform grid over their bounds whose crowded cells are subdivided
// again, recursively, and each moving object, bounded by its box or by a set
// of spheres (CDFast's levels of detail, broad.Spheres), finds the static
// objects it may touch in the leaf cells it reaches.
//
// # The static grid
//
// The root grid has Root×Root×Root cells over the box of the static objects
// (or Options.Bounds, CDFast's unit cube). A cell touched by more than
// Threshold static boxes is cut into Split×Split×Split cells, and so on:
// CDFast's rule. That rule need not stop (Threshold+1 nested, identical or
// corner-sharing boxes touch every cell around a common point, however
// small), so a cell also stays a leaf, holding more than Threshold boxes,
// when it is MaxDepth levels below the root, when its children would be
// narrower than MinCellSize, when the grid would exceed MaxCells cells, or
// when more than Threshold of its boxes contain it whole (every descendant
// would hold them all). A leaf is Empty (no box), Full (a static box
// contains the whole cell) or Partial.
//
// A static box that reaches more than 64 root cells stays out of the grid,
// in a list that every query tests (Stats.Big): boxes stacked on each
// other across the whole root box made every cell list every box, N² in
// all (6,000 identical boxes took 0.7 GB). And the cells' lists hold at
// most Options.MaxItems entries in all: boxes sharing a face across a cell
// go into the same children at every level, so that subdivision does not
// thin them (6,000 such boxes took 0.9 GB).
//
// The grid is built in Pairs, in bulk, whenever the static set changed since
// the last build: each box is binned into the cells its bounds reach, level
// by level (O(N_s) per level when boxes touch few cells), never by testing
// every box against every cell.
//
// # Exact cells
//
// A grid's cell boundaries are float64 values computed by one function,
// strictly increasing; along each axis a cell holds the coordinates from
// its lower boundary up to, not including, its upper one (the last cell of
// the root box includes its end), so the leaves partition the root box,
// which holds every static box. The cell of a coordinate is counted against
// those same boundaries (a floor estimate, corrected), so a box is listed
// in exactly the leaves it meets, and a point shared by a query volume and
// a static box lies in a leaf that both reach: no rounding can lose a pair.
// The Full state is exact too: a query box that meets the static bounds and
// reaches a leaf meets its closed cell, so it meets every box that contains
// the cell, which Pairs reports without a box test.
//
// # Moving objects
//
// At each Pairs every object added or moved since the last one finds its
// leaves by index arithmetic, level by level, or, with Options.LinearScan,
// by testing every leaf cell (CDFast's O(C·T·N_d·S) cost, kept for the
// ablation). Empty leaves are skipped; the boxes of a Full leaf that contain
// it are hits; the others are tested. A static object is reported once per
// Pairs (a stamp per static box).
//
// With spheres (SetSpheres), each sphere walks the leaves of its own bounds
// and is tested against the cells it reaches (a sphere inside one cell needs
// no test) and against their boxes: a pair is reported when a sphere meets
// the static box, both closed (the squared distance from the centre to the
// box at most r²), and the two objects' boxes overlap too, as broad.Spheres
// asks (spheres given for both objects of a pair must both pass: a sphere
// of each meets the other's box). The sphere-box test is exact for float64
// input: a float filter with a proven error bound (that of
// bv.Sphere.Overlaps) decides almost every case and rational arithmetic the
// rest (that path allocates; it is taken only when the squared distance and
// r² agree to about 46 bits). The spheres of one level are tested flat, one
// walk each, as the paper's S factor reads; there is no descent from level
// 0 to the chosen level.
//
// Pairs of two moving objects are beyond the paper, which handles only
// moving against static: here the moving objects are also kept in a second,
// single-level uniform grid (cell size from the median object size, rebuilt
// when enough objects have left the cells they were binned in; the others
// sit in an overflow list binned each Pairs), so that every moving-moving
// pair is found. Moving objects outside the static bounds meet no static
// object and skip the static grid, but still meet each other.
//
// A Phase is not safe for concurrent use. Pairs allocates nothing in steady
// state (the static set unchanged, the objects' spheres no more numerous
// than before).
package rgrid

import (
	"math"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/geom"
)

var (
	_ broad.Phase   = (*Phase)(nil)
	_ broad.Spheres = (*Phase)(nil)
)

// Options configures a Phase. The zero value gives the defaults.
type Options struct {
	// Root is the number of root cells per axis (R); 0 chooses
	// round(cbrt(N_s)) clamped to [1, 64] at each build, N_s the number of
	// static objects, so that a root cell holds about one box when they are
	// spread evenly. An axis along which the bounds are flat gets one cell.
	Root int
	// Split is the number of child cells per axis of a subdivided cell (S);
	// 0 means 2, CDFast's octree-like refinement.
	Split int
	// Threshold is CDFast's T: a cell touched by more than Threshold static
	// boxes is subdivided; 0 means 16. The paper gives no value; on its
	// scene grown to 5000 boxes (package benchmarks) 8 made a grid of 10^5
	// small cells that the moving torus crossed by the thousand (30 µs a
	// step), 16 one of 7000 (5 µs), and larger values little better.
	Threshold int
	// MaxDepth is the number of levels allowed below the root; 0 means 6, a
	// negative value means none (a single uniform grid).
	MaxDepth int
	// MinCellSize stops subdivision along an axis where the child cells
	// would be narrower; 0 means the largest extent of the root box times
	// 2^-20.
	MinCellSize float64
	// MaxCells caps the number of cells in the grid, inner and leaf; 0 means
	// max(2^16, 64·N_s). Cells are subdivided breadth first, so the cap cuts
	// off the deepest level.
	MaxCells int
	// MaxItems caps the entries of the cells' box lists, counted as the
	// cells are binned: a cell is not subdivided when its children's
	// lists would take the total past it; 0 means max(2^18, 64·N_s).
	// Boxes sharing a face across a cell go into the same children at
	// every level, so that without a cap the lists grew as N_s times the
	// cells (6,000 stacked boxes took 0.9 GB).
	MaxItems int
	// Bounds, when not nil and not empty, is the root box (the paper's unit
	// cube) instead of the box of the static objects; it is grown to hold
	// every static box.
	Bounds *geom.AABB
	// LinearScan makes each query test every leaf cell of the grid rather
	// than find the cells it reaches by index arithmetic: the paper's
	// O(C·T·N_d·S) reading, for the ablation. The pairs are the same.
	LinearScan bool
}

// Stats are the counters of a Phase: the shape of its static grid as last
// built and the work of its queries since New or ResetStats. The units are
// those CDFast's experiments may have counted (its "collision number" is not
// defined): object pairs, sphere-box events, cell events.
type Stats struct {
	Builds        int // static grid builds
	Cells         int // cells of the grid, inner and leaf
	Leaves        int // leaf cells
	Depth         int // levels below the root of the deepest cells
	Items         int // entries of the leaves' box lists
	OverThreshold int // leaves holding more than Threshold boxes (stopped by a guard)
	FullCells     int // leaves in the Full state
	Root          int // root cells per axis of the last build
	Big           int // static boxes too big for the grid, tested by every query

	CellTests        int64 // cells tested against a sphere or, in LinearScan mode, against a query box
	CellsVisited     int64 // leaf cells reached by a query (Empty ones included)
	FullHits         int64 // static boxes found by a Full cell without a test
	BoxTests         int64 // box-box tests against static boxes
	SphereBoxTests   int64 // sphere-box tests against static boxes
	SphereBoxHits    int64 // (sphere, static box) pairs that overlap, once per sphere and box
	StaticPairs      int64 // (moving, static) object pairs reported
	MovingPairs      int64 // (moving, moving) object pairs reported
	MovingBoxTests   int64 // box tests between moving objects
	MovingRebuilds   int   // rebuilds of the moving objects' grid
	Pairs            int64 // object pairs reported, of both kinds
	ExactSphereTests int64 // sphere-box tests decided in rational arithmetic
}

// per-object flags
const (
	fPresent uint8 = 1 << iota
	fStatic
	fMoved  // added or moved since the last Pairs: in p.changed
	fInOver // in p.mv.over (which may be stale)
	fInBig  // in p.mv.big (which may be stale)
)

// homes of a moving object in the moving grid
const (
	hNone uint8 = iota
	hMain       // binned in the main lists at mv.rng[id]
	hOver       // in the overflow list
	hBig        // in the list of objects too large to bin
)

// box3 is a closed box as two arrays, so that code can loop over the axes.
type box3 struct{ lo, hi [3]float64 }

func toBox3(b geom.AABB) box3 {
	return box3{[3]float64{b.Min.X, b.Min.Y, b.Min.Z}, [3]float64{b.Max.X, b.Max.Y, b.Max.Z}}
}

func (b *box3) overlaps(c *box3) bool {
	return b.lo[0] <= c.hi[0] && c.lo[0] <= b.hi[0] &&
		b.lo[1] <= c.hi[1] && c.lo[1] <= b.hi[1] &&
		b.lo[2] <= c.hi[2] && c.lo[2] <= b.hi[2]
}

func emptyBox3() box3 {
	inf := math.Inf(1)
	return box3{[3]float64{inf, inf, inf}, [3]float64{-inf, -inf, -inf}}
}

func (b *box3) union(c *box3) {
	for a := range 3 {
		b.lo[a] = min(b.lo[a], c.lo[a])
		b.hi[a] = max(b.hi[a], c.hi[a])
	}
}

// Phase is CDFast's recursive grid as a broad.Phase and broad.Spheres. The
// zero value is not ready: use New.
type Phase struct {
	opt Options

	// per object id
	box    []box3
	flag   []uint8
	home   []uint8
	sph    [][]bv.Sphere
	mstamp []uint32 // moving-grid dedupe stamp
	n      int

	changed     []int32 // ids with fMoved
	staticDirty bool

	st staticGrid
	mv movingGrid

	// query state
	fn    func(a, b int32) bool
	stop  bool
	q, qs uint32 // stamps: per query object, per sphere

	stats Stats
}

// New returns an empty phase with the given options.
func New(opt Options) *Phase {
	return &Phase{opt: opt, q: 1, qs: 1}
}

func (p *Phase) grow(id int32) {
	if id < 0 {
		panic("rgrid: negative object id")
	}
	for int(id) >= len(p.box) {
		p.box = append(p.box, box3{})
		p.flag = append(p.flag, 0)
		p.home = append(p.home, hNone)
		p.sph = append(p.sph, nil)
		p.mstamp = append(p.mstamp, 0)
		p.mv.rng = append(p.mv.rng, irange{})
	}
}

func (p *Phase) mark(id int32) {
	if p.flag[id]&fMoved == 0 {
		p.flag[id] |= fMoved
		p.changed = append(p.changed, id)
	}
}

// leave takes the present object id out of the structures it is in: the
// static set (which then needs a build) or its home in the moving grid.
func (p *Phase) leave(id int32) {
	if p.flag[id]&fStatic != 0 {
		p.staticDirty = true
	} else if p.home[id] == hMain {
		p.mv.stale++
	}
	p.home[id] = hNone
}

// Add implements broad.Phase. It drops the object's spheres: give them again
// with SetSpheres.
func (p *Phase) Add(id int32, b geom.AABB, static bool) {
	p.grow(id)
	f := p.flag[id]
	if f&fPresent == 0 {
		p.n++
	} else {
		p.leave(id)
	}
	f = f&(fMoved|fInOver|fInBig) | fPresent
	if static {
		f |= fStatic
		p.staticDirty = true
	}
	p.flag[id] = f
	p.box[id] = toBox3(b)
	p.sph[id] = p.sph[id][:0]
	p.mark(id)
}

// Move implements broad.Phase. A static object stays static: the static
// grid is built again at the next Pairs, and the object paired with the
// moving objects only. It drops the object's spheres, which bounded it at
// its old place: give them again with SetSpheres.
func (p *Phase) Move(id int32, b geom.AABB) {
	if id < 0 || int(id) >= len(p.flag) || p.flag[id]&fPresent == 0 {
		panic("rgrid: Move of an absent object")
	}
	if p.flag[id]&fStatic != 0 {
		p.leave(id)
	}
	p.box[id] = toBox3(b)
	p.sph[id] = p.sph[id][:0]
	p.mark(id)
}

// Remove implements broad.Phase.
func (p *Phase) Remove(id int32) {
	if id < 0 || int(id) >= len(p.flag) || p.flag[id]&fPresent == 0 {
		return
	}
	p.n--
	p.leave(id)
	p.flag[id] &^= fPresent | fStatic
	p.sph[id] = p.sph[id][:0]
}

// SetSpheres implements broad.Spheres: from now until the object's next Add
// or Move, a pair of object id and another is reported only when one of the
// spheres s meets the other's box (closed sets, decided exactly) and the
// two boxes overlap. The spheres are copied. A sphere with a negative radius
// is empty and meets nothing; s must not hold a NaN (such a sphere meets
// nothing either). A nil or empty s goes back to the box alone. It is
// meant to follow the Add or Move that set the box the spheres go with: on
// its own it does not mark the object moved. Spheres may bound a static
// object too; they then filter its pairs the same way.
func (p *Phase) SetSpheres(id int32, s []bv.Sphere) {
	if id < 0 || int(id) >= len(p.flag) || p.flag[id]&fPresent == 0 {
		panic("rgrid: SetSpheres of an absent object")
	}
	p.sph[id] = append(p.sph[id][:0], s...)
}

// Len implements broad.Phase.
func (p *Phase) Len() int { return p.n }

// Stats returns the phase's counters.
func (p *Phase) Stats() Stats { return p.stats }

// ResetStats zeroes the query counters, keeping the grid's shape.
func (p *Phase) ResetStats() {
	s := p.stats
	p.stats = Stats{Builds: s.Builds, Cells: s.Cells, Leaves: s.Leaves, Depth: s.Depth,
		Items: s.Items, OverThreshold: s.OverThreshold, FullCells: s.FullCells, Root: s.Root, Big: s.Big}
}

// Pairs implements broad.Phase. The static grid is rebuilt first if the
// static set changed.
func (p *Phase) Pairs(fn func(a, b int32) bool) {
	if p.staticDirty {
		p.build()
		p.staticDirty = false
	}
	p.updateMoving()
	p.fn, p.stop = fn, false
	for _, a := range p.changed {
		if p.stop {
			break
		}
		f := p.flag[a]
		if f&fPresent == 0 {
			continue
		}
		p.nextStamp()
		if f&fStatic != 0 {
			// A new or moved static object against the moving objects
			// that did not move (those that did find it in the grid).
			p.queryMoving(a, &p.box[a], false)
			continue
		}
		if p.queryStatic(a) {
			p.queryMoving(a, &p.box[a], true)
		}
	}
	for _, a := range p.changed {
		p.flag[a] &^= fMoved
	}
	p.changed = p.changed[:0]
	p.fn = nil
}

func (p *Phase) nextStamp() {
	p.q++
	if p.q == 0 {
		clear(p.st.stamp)
		clear(p.mstamp)
		p.q = 1
	}
}

func (p *Phase) nextSphereStamp() {
	p.qs++
	if p.qs == 0 {
		clear(p.st.sstamp)
		p.qs = 1
	}
}

// emit reports the pair (a, b) in ascending order and records whether the
// caller asked to stop.
func (p *Phase) emit(a, b int32) bool {
	if a > b {
		a, b = b, a
	}
	p.stats.Pairs++
	if !p.fn(a, b) {
		p.stop = true
		return false
	}
	return true
}

// sphOK reports whether object id has no spheres or one of them meets b.
func (p *Phase) sphOK(id int32, b *box3) bool {
	s := p.sph[id]
	if len(s) == 0 {
		return true
	}
	for j := range s {
		if p.sphereBox(&s[j], b) {
			return true
		}
	}
	return false
}
