package scenes

import (
	"math"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/portable"
	"github.com/collide3d/collide/mesh"
)

// pipesStream is the PCG stream selector of Pipes.
const pipesStream = 0x9193e5eed0000001

const (
	// PipesMinTris is the smallest request Pipes accepts.
	PipesMinTris = 500
	// pipesMargin keeps the pipes' center lines inside [m, 1-m]³, so that
	// their surfaces (at most pipesRadius·1.4·1.6 from it, on a valve)
	// stay inside the unit cube.
	pipesMargin = 0.06
	// pipesRadius is the nominal pipe radius.
	pipesRadius = 0.025
	// pipesReserve is the part of the budget kept for the filler pipes that
	// bring the count to the request.
	pipesReserve = 48
	// pipesFine is the triangle count above which pipes get finer rather
	// than more numerous.
	pipesFine = 4000
)

// Pipes returns an interweaving pipe network in the unit cube [0, 1]³, like
// the piping of a plant: the "pipeline" of Klosowski et al.'s Table 2
// (143,690 triangles there).
//
// The network is a soup of routes. A route is a random Manhattan polyline
// of 2 to 8 straight legs along the coordinate axes (each of length 0.06 to
// 0.7, at least six pipe radii), starting at a random point or, three times
// in ten, from the axis of an earlier run (a tee branch, marked with a
// collar, its radius at most 0.8 of the main pipe's). It is swept by a
// circle of f·8, f·10, f·12, f·14 or f·16 sides and of radius 0.025 times
// a random factor in [0.6, 1.4], with a 90° elbow of bend radius 2r at every
// corner (two segments per elbow) and flat caps at both ends. Straight runs
// have no ring along their length, or (four times in ten, on runs over 0.3
// long) one ring in the middle, so they are made of long skinny triangles,
// as in the paper's data. Flanges (short capped cylinders of 1.35r) mark two
// corners in ten, and 15% of the runs over 0.2 long get a parallel companion
// pipe at 1.1 to 1.6 times the sum of the radii, so that parallel pipes
// pass close to each other.
//
// The network does not grow past about 6,000 triangles: a larger request
// makes its pipes finer instead, with f = max(1, round(tris/4000)) times as
// many sides (f = 36 at 143,690 triangles: 288 to 576 sides, triangles
// about a thousand times longer than wide). With the same seed, a request
// of 4,000·f triangles gives about the network of 4,000 (the same at
// 143,690 for seed 1), so that a network flying through a copy of itself
// 2.5 times larger meets it about as often at every size, with about f
// times more triangle pairs in contact. From 3,000 triangles up, the legs
// add up to a length of about 10 to 25 and the pipes fill 2 to 5% of the
// cube. The center lines stay in [0.06, 0.94]³ and every vertex lies
// inside the unit cube. Pipes may intersect each other.
//
// Routes are added, and the last one cut short, while they fit in the
// budget of tris triangles less 48; a few short straight pipes (4·s
// triangles, s ≤ 16·f) and valves (double cones of 2·s triangles, 1.6r
// wide, on random runs) then fill the rest, so the count is tris or
// tris-1. Every pipe, flange, collar and valve is a closed surface with
// outward normals (the mesh is watertight by index). tris must be at least
// PipesMinTris (500).
func Pipes(tris int, seed uint64) (*mesh.TriMesh, error) {
	const kind = "pipes"
	if err := checkTris(kind, tris, PipesMinTris); err != nil {
		return nil, err
	}
	p := &pipeNet{
		m:      &mesh.TriMesh{Verts: make([]geom.Vec3, 0, tris/2+16), Tris: make([][3]int32, 0, tris)},
		budget: tris,
		rnd:    newRNG(seed, pipesStream),
		tc:     trigCache{},
	}
	// Finer sections rather than more pipes: a network of many
	// triangles has as many pipes as one of pipesFine, each with
	// proportionally more sides (and so skinnier triangles).
	p.fine = max(1, int(math.Round(float64(tris)/pipesFine)))
	for fails := 0; fails < 100; {
		switch p.route() {
		case routeAdded:
			fails = 0
		case routeFailed:
			fails++
		case routeFull:
			fails = 100
		}
	}
	maxSides := 16 * p.fine
	for p.left() >= 64 {
		p.filler(min(maxSides, (p.left()-32)/4))
	}
	for p.left() >= 16 {
		if p.left() > 32 {
			p.valve(min(maxSides, (p.left()-16)/2))
		} else {
			p.valve(p.left() / 2)
		}
	}
	return checkResult(kind, p.m)
}

// pipeRun is a straight run of a pipe: its center line from a to b along
// axis, and its radius.
type pipeRun struct {
	a, b geom.Vec3
	axis int
	r    float64
}

// pipeNet is the state of the Pipes generator.
type pipeNet struct {
	m      *mesh.TriMesh
	budget int
	rnd    rng
	fine   int // the number of sides is multiplied by fine
	runs   []pipeRun
	tc     trigCache
}

// left returns the number of triangles still to generate; room, the number
// routes and their parts may use.
func (p *pipeNet) left() int { return p.budget - len(p.m.Tris) }
func (p *pipeNet) room() int { return p.left() - pipesReserve }

// sides returns a random number of sides: fine times 8, 10, 12, 14 or 16.
func (p *pipeNet) sides() int { return p.fine * (8 + 2*p.rnd.intn(5)) }

// axisVec returns the unit vector of axis a times sg (±1).
func axisVec(a int, sg float64) geom.Vec3 {
	var v [3]float64
	v[a] = sg
	return geom.Vec3{X: v[0], Y: v[1], Z: v[2]}
}

// comp returns coordinate a of v.
func comp(v geom.Vec3, a int) float64 {
	switch a {
	case 0:
		return v.X
	case 1:
		return v.Y
	}
	return v.Z
}

// leg picks the next leg of a route from cur: an axis other than prev (any
// when prev < 0), a direction with room for at least minLen, and a length;
// ok is false when none was found.
func (p *pipeNet) leg(cur geom.Vec3, prev int, minLen float64) (d geom.Vec3, length float64, axis int, ok bool) {
	const maxLen = 0.7
	for range 4 {
		a := p.rnd.intn(3)
		if prev >= 0 {
			a = (prev + 1 + p.rnd.intn(2)) % 3
		}
		sg := p.rnd.sign()
		for _, s := range [2]float64{sg, -sg} {
			room := (1 - pipesMargin) - comp(cur, a)
			if s < 0 {
				room = comp(cur, a) - pipesMargin
			}
			if room >= minLen {
				return axisVec(a, s), p.rnd.between(minLen, min(maxLen, room)), a, true
			}
		}
	}
	return geom.Vec3{}, 0, 0, false
}

type routeResult int

const (
	routeAdded  routeResult = iota
	routeFailed             // no room in the cube for a first leg
	routeFull               // not even one leg fits in the budget
)

// pipeSection is one ring of a route: its center and the tangent there.
type pipeSection struct{ c, t geom.Vec3 }

// route adds one route with its flanges, collar and companions.
func (p *pipeNet) route() routeResult {
	s := p.sides()
	r := float64(pipesRadius * p.rnd.between(0.6, 1.4))
	prev := -1
	var start geom.Vec3
	var main *pipeRun
	if len(p.runs) > 0 && p.rnd.chance(0.3) {
		run := p.runs[p.rnd.intn(len(p.runs))]
		main = &run
		start = lerpVec(run.a, run.b, p.rnd.between(0.2, 0.8))
		prev = run.axis
		r = min(r, float64(0.8*run.r))
	} else {
		start = geom.Vec3{
			X: p.rnd.between(pipesMargin, 1-pipesMargin),
			Y: p.rnd.between(pipesMargin, 1-pipesMargin),
			Z: p.rnd.between(pipesMargin, 1-pipesMargin),
		}
	}
	rb := 2 * r
	minLen := max(0.06, 6*r)

	// Plan the polyline.
	nlegs := 2 + p.rnd.intn(7)
	pts := []geom.Vec3{start}
	var dirs []geom.Vec3
	var axes []int
	var mids []bool
	for range nlegs {
		d, l, a, ok := p.leg(pts[len(pts)-1], prev, minLen)
		if !ok {
			break
		}
		pts = append(pts, madd(pts[len(pts)-1], l, d))
		dirs = append(dirs, d)
		axes = append(axes, a)
		mids = append(mids, l > 0.3 && p.rnd.chance(0.4))
		prev = a
	}
	if len(dirs) == 0 {
		return routeFailed
	}
	// Keep the most legs that fit: k legs have 3(k-1) corner rings, the
	// middle rings and the two ends.
	cost := func(k int) int {
		rings := 2 + 3*(k-1)
		for i := range k {
			if mids[i] {
				rings++
			}
		}
		return loftCount(s, rings, 2)
	}
	k := len(dirs)
	for k > 0 && cost(k) > p.room() {
		k--
	}
	if k == 0 {
		return routeFull
	}

	// The rings: the start, then for every corner the end of the run, the
	// middle of the elbow and the start of the next run, then the end.
	s45 := math.Sqrt2 / 2
	secs := []pipeSection{{start, dirs[0]}}
	var corners []geom.Vec3 // the ring before each elbow
	runStart := start
	for i := range k {
		var runEnd geom.Vec3
		if i == k-1 {
			runEnd = pts[k]
		} else {
			runEnd = madd(pts[i+1], -rb, dirs[i])
		}
		if mids[i] {
			secs = append(secs, pipeSection{lerpVec(runStart, runEnd, 0.5), dirs[i]})
		}
		p.runs = append(p.runs, pipeRun{runStart, runEnd, axes[i], r})
		if i == k-1 {
			secs = append(secs, pipeSection{runEnd, dirs[i]})
			break
		}
		din, dout := dirs[i], dirs[i+1]
		mid := madd(pts[i+1], -float64(rb*(1-s45)), din.Sub(dout))
		runStart = madd(pts[i+1], rb, dout)
		secs = append(secs,
			pipeSection{runEnd, din},
			pipeSection{mid, portable.Unit(din.Add(dout))},
			pipeSection{runStart, dout})
		corners = append(corners, runEnd)
	}
	p.sweep(secs, r, s)

	// Flanges just before some elbows, a collar on a branch, companions.
	for i, c := range corners {
		if p.rnd.chance(0.2) && loftCount(s, 2, 2) <= p.room() {
			d := dirs[i]
			p.straight(madd(c, -float64(0.65*r), d), madd(c, -float64(0.15*r), d), float64(1.35*r), s)
		}
	}
	if main != nil && loftCount(s, 2, 2) <= p.room() {
		d := dirs[0]
		p.straight(madd(start, main.r, d), madd(start, main.r+float64(0.8*r), d), float64(1.3*r), s)
	}
	runs := p.runs[len(p.runs)-k:]
	for _, run := range runs {
		if run.b.Sub(run.a).Norm2() < 0.2*0.2 || !p.rnd.chance(0.15) {
			continue
		}
		s2 := p.sides()
		r2 := float64(r * p.rnd.between(0.5, 1))
		o := (run.axis + 1 + p.rnd.intn(2)) % 3
		off := scl(float64((r+r2)*p.rnd.between(1.1, 1.6)), axisVec(o, p.rnd.sign()))
		t0, t1 := p.rnd.between(0, 0.3), p.rnd.between(0.7, 1)
		a := lerpVec(run.a, run.b, t0).Add(off)
		b := lerpVec(run.a, run.b, t1).Add(off)
		if c := comp(a, o); c < pipesMargin || c > 1-pipesMargin || loftCount(s2, 2, 2) > p.room() {
			continue
		}
		p.straight(a, b, r2, s2)
		p.runs = append(p.runs, pipeRun{a, b, run.axis, r2})
	}
	return routeAdded
}

// sweep appends the closed tube of radius r and s sides through the
// sections, with flat caps at both ends.
func (p *pipeNet) sweep(secs []pipeSection, r float64, s int) {
	ts := make([]geom.Vec3, len(secs))
	for i, sec := range secs {
		ts[i] = sec.t
	}
	us, vs := transport(ts, anyPerpendicular(ts[0]))
	tab := p.tc.get(s)
	rings := make([][]geom.Vec3, len(secs))
	for i, sec := range secs {
		rings[i] = ellipse(sec.c, us[i], vs[i], r, r, tab)
	}
	a, b := secs[0].c, secs[len(secs)-1].c
	loft(p.m, rings, &a, &b)
}

// straight appends a straight capped pipe from a to b of one segment: 4·s
// triangles.
func (p *pipeNet) straight(a, b geom.Vec3, r float64, s int) {
	t := portable.Unit(b.Sub(a))
	p.sweep([]pipeSection{{a, t}, {b, t}}, r, s)
}

// filler appends a short straight capped pipe of s sides at a random
// place: 4·s triangles.
func (p *pipeNet) filler(s int) {
	r := float64(pipesRadius * p.rnd.between(0.5, 1))
	for {
		a := geom.Vec3{
			X: p.rnd.between(pipesMargin, 1-pipesMargin),
			Y: p.rnd.between(pipesMargin, 1-pipesMargin),
			Z: p.rnd.between(pipesMargin, 1-pipesMargin),
		}
		d, l, _, ok := p.leg(a, -1, 0.06)
		if ok {
			p.straight(a, madd(a, min(l, 0.3), d), r, s)
			return
		}
	}
}

// valve appends a valve of s sides on a random run (there is one: the
// first route always fits in a request of PipesMinTris): a double cone
// about the run's axis, its rim of radius 1.6r, its tips 2r away along the
// axis on either side: 2·s triangles.
func (p *pipeNet) valve(s int) {
	run := p.runs[p.rnd.intn(len(p.runs))]
	c := lerpVec(run.a, run.b, p.rnd.between(0.2, 0.8))
	d := portable.Unit(run.b.Sub(run.a))
	u := anyPerpendicular(d)
	ring := ellipse(c, u, d.Cross(u), float64(1.6*run.r), float64(1.6*run.r), p.tc.get(s))
	a, b := madd(c, float64(-2*run.r), d), madd(c, float64(2*run.r), d)
	loft(p.m, [][]geom.Vec3{ring}, &a, &b)
}
