package scene

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
)

// Motion is how an object moves: the description of a scene file's
// "motion" entry, which makes each object's Path. Every motion is
// kinematic (no object pushes another) and deterministic: a path is a
// function of the motion's parameters, the object's model and initial pose,
// the scene's bounds and seed, and the object's index. Every pose it gives
// has a rotation built from a unit quaternion, normalised, orthonormal to
// within world.RotationTol.
type Motion interface {
	// Kind is the motion's name in scene files: static, billiard, poses,
	// brownian, fall or gravity.
	Kind() string
	// Validate checks the parameters.
	Validate() error
	// Path returns the path of one object.
	Path(c PathContext) (Path, error)
}

// PathContext is what a Motion knows of the object it moves.
type PathContext struct {
	// Start is the object's initial pose.
	Start geom.Pose
	// Center is the centre of the model's bounding box, in the model's
	// coordinates: the point a path moves, about which it turns the
	// object. Radius is half the box's diagonal: the object at any pose
	// lies within Radius of its centre.
	Center geom.Vec3
	Radius float64
	// Points, if not nil, are points of the model (the vertices of its
	// convex hull) in its coordinates: a Fall with AutoMargin then keeps
	// the object itself inside the bounds at each step's orientation, so
	// that it comes to rest touching the floor, rather than keeping its
	// centre Radius inside.
	Points []geom.Vec3
	// Bounds is the scene's box (never empty).
	Bounds geom.AABB
	// Seed is the object's own seed (from the scene's seed and the
	// object's index); SceneSeed the scene's, for what the objects of a
	// motion share (the clusters of Gravity).
	Seed, SceneSeed uint64
}

// Path is the poses of one object, one per step.
type Path interface {
	// Next returns the pose of the next step and whether it differs from
	// the pose of the step before. The first call returns the initial
	// pose, at which the object is added (and true).
	Next() (geom.Pose, bool)
}

// AutoMargin, as a Margin, keeps the whole object inside the bounds: the
// margin is the object's PathContext.Radius.
const AutoMargin = -1

// inner returns the box that an object's centre keeps to: b shrunk by
// margin (AutoMargin: radius) on every side; an axis on which b is thinner
// than twice the margin collapses to its middle.
func inner(b geom.AABB, margin, radius float64) geom.AABB {
	if margin < 0 {
		margin = radius
	}
	lo, hi := b.Min, b.Max
	for a := range 3 {
		l, h := lo.Index(a)+margin, hi.Index(a)-margin
		if l > h {
			l = 0.5*lo.Index(a) + 0.5*hi.Index(a)
			h = l
		}
		lo, hi = lo.SetIndex(a, l), hi.SetIndex(a, h)
	}
	return geom.AABB{Min: lo, Max: hi}
}

func checkMargin(m float64) error {
	if m != AutoMargin && !(m >= 0 && m <= math.MaxFloat64) {
		return fmt.Errorf("margin %v is not a finite number >= 0", m)
	}
	return nil
}

// MaxPerStep bounds a motion's distances and angles a step (a billiard's
// speed and spin, a random walk's step and angle, a spin): larger ones
// would overflow the sums of a path.
const MaxPerStep = 1e300

// checkPerStep checks a distance or an angle a step.
func checkPerStep(name string, x float64) error {
	if !(x >= 0 && x <= MaxPerStep) {
		return fmt.Errorf("%s %v is not a number in [0, %g]", name, x, MaxPerStep)
	}
	return nil
}

func checkNonNeg(name string, x float64) error {
	if !(x >= 0 && x <= math.MaxFloat64) {
		return fmt.Errorf("%s %v is not a finite number >= 0", name, x)
	}
	return nil
}

// Streams of the PCG generators of the motions.
const (
	streamObject   = 0x7363656e652d6f62 // "scene-ob"
	streamBrownian = 0x62726f776e69616e // "brownian"
	streamFall     = 0x66616c6c2d2d2d2d
	streamGravity  = 0x6772617669747979
	streamClusters = 0x636c757374657273 // "clusters"
)

// ObjectSeed returns the seed of object i of a scene of seed seed: its
// paths' random numbers come from it.
func ObjectSeed(seed uint64, i int) uint64 {
	r := rand.NewPCG(seed, streamObject^uint64(i))
	return r.Uint64()
}

// unit returns a random unit vector, uniform on the sphere.
func unit(r *rand.Rand) geom.Vec3 {
	for {
		v := geom.Vec3{X: 2*r.Float64() - 1, Y: 2*r.Float64() - 1, Z: 2*r.Float64() - 1}
		if n := v.Norm(); n > 0.01 && n <= 1 {
			return v.Scale(1 / n)
		}
	}
}

// quatOf returns a unit quaternion of rotation m (Shepperd's method).
func quatOf(m geom.Mat3) geom.Quat {
	tr := m[0][0] + m[1][1] + m[2][2]
	var q geom.Quat
	switch {
	case tr > 0:
		s := 2 * math.Sqrt(1+tr)
		q = geom.Quat{W: s / 4, X: (m[2][1] - m[1][2]) / s, Y: (m[0][2] - m[2][0]) / s, Z: (m[1][0] - m[0][1]) / s}
	case m[0][0] > m[1][1] && m[0][0] > m[2][2]:
		s := 2 * math.Sqrt(1+m[0][0]-m[1][1]-m[2][2])
		q = geom.Quat{W: (m[2][1] - m[1][2]) / s, X: s / 4, Y: (m[0][1] + m[1][0]) / s, Z: (m[0][2] + m[2][0]) / s}
	case m[1][1] > m[2][2]:
		s := 2 * math.Sqrt(1+m[1][1]-m[0][0]-m[2][2])
		q = geom.Quat{W: (m[0][2] - m[2][0]) / s, X: (m[0][1] + m[1][0]) / s, Y: s / 4, Z: (m[1][2] + m[2][1]) / s}
	default:
		s := 2 * math.Sqrt(1+m[2][2]-m[0][0]-m[1][1])
		q = geom.Quat{W: (m[1][0] - m[0][1]) / s, X: (m[0][2] + m[2][0]) / s, Y: (m[1][2] + m[2][1]) / s, Z: s / 4}
	}
	return q.Unit()
}

// poseAt returns the pose that puts the model's centre c at p, turned by
// q: R·c + T = p.
func poseAt(q geom.Quat, c, p geom.Vec3) geom.Pose {
	r := q.Unit().Mat3()
	return geom.Pose{R: r, T: p.Sub(r.MulVec(c))}
}

// turn returns q turned by the rotation vector w (axis·angle), normalised.
// An angle too large for its norm to be a float (a spin near the largest
// float) is taken from half of w, reduced by whole turns.
func turn(q geom.Quat, w geom.Vec3) geom.Quat {
	a := w.Norm()
	if math.IsInf(a, 1) {
		w = w.Scale(0.5)
		a = 2 * math.Mod(w.Norm(), 2*math.Pi)
	}
	if a > 0 {
		return geom.AxisAngle(w, a).Mul(q).Unit()
	}
	return q
}

// fold folds p back into box b along each axis it left, reflecting off
// the wall it crossed (and scaling the velocity's component by -e, if v is
// not nil). It reports the axes and walls hit: -1 for a low wall, +1 for a
// high one.
func fold(p *geom.Vec3, v *geom.Vec3, b geom.AABB, e float64) (hit [3]int8) {
	for a := range 3 {
		x, lo, hi := p.Index(a), b.Min.Index(a), b.Max.Index(a)
		var s int8
		switch {
		case x < lo:
			x, s = math.Min(lo+e*(lo-x), hi), -1
		case x > hi:
			x, s = math.Max(hi-e*(x-hi), lo), 1
		default:
			continue
		}
		*p = p.SetIndex(a, x)
		if v != nil {
			*v = v.SetIndex(a, -float64(s)*e*math.Abs(v.Index(a)))
		}
		hit[a] = s
	}
	return hit
}

// still is the path of an object that does not move.
type still struct {
	p       geom.Pose
	started bool
}

func (s *still) Next() (geom.Pose, bool) {
	first := !s.started
	s.started = true
	return s.p, first
}

// Static does not move: the object keeps its initial pose. A Play never
// moves it.
type Static struct{}

// Kind returns "static".
func (Static) Kind() string { return "static" }

// Validate returns nil.
func (Static) Validate() error { return nil }

// Path returns the path that stays at the start.
func (Static) Path(c PathContext) (Path, error) { return &still{p: c.Start}, nil }

// Billiard moves the object's centre in a straight line at constant speed,
// turning it at a constant rate about a fixed axis, both in random
// directions (from the object's seed), and reflects the centre off the
// walls of the scene's bounds shrunk by Margin: flight.Billiard with a
// Fixed path (objects pass through each other). Turn > 0 makes it a random
// flight instead: each step's direction is perturbed at random (see
// flight.BilliardConfig.Turn), as in CDFast's random paths.
type Billiard struct {
	Speed  float64 // distance per step
	Spin   float64 // radians per step
	Turn   float64 // in [0, 2]; 0: straight lines
	Margin float64 // ≥ 0, or AutoMargin (the object stays inside the bounds)
}

// Kind returns "billiard".
func (Billiard) Kind() string { return "billiard" }

// Validate checks the parameters.
func (m Billiard) Validate() error {
	if err := checkPerStep("speed", m.Speed); err != nil {
		return err
	}
	if err := checkPerStep("spin", m.Spin); err != nil {
		return err
	}
	if !(m.Turn >= 0 && m.Turn <= 2) {
		return fmt.Errorf("turn %v is not in [0, 2]", m.Turn)
	}
	return checkMargin(m.Margin)
}

// Path returns the object's path.
func (m Billiard) Path(c PathContext) (Path, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if m.Speed == 0 && m.Spin == 0 {
		return &still{p: c.Start}, nil
	}
	box := inner(c.Bounds, m.Margin, c.Radius)
	start := c.Start.Apply(c.Center).Max(box.Min).Min(box.Max)
	b, err := flight.NewBilliard(flight.BilliardConfig{
		Center: c.Center, Start: start, Orient: quatOf(c.Start.R), Bounds: box,
		Speed: m.Speed, Spin: m.Spin, Turn: m.Turn, Fixed: true, Seed: c.Seed,
	})
	if err != nil {
		return nil, err
	}
	b.Next(false) // the start
	return &billiardPath{b: b, start: c.Start}, nil
}

type billiardPath struct {
	b       *flight.Billiard
	start   geom.Pose
	started bool
}

func (p *billiardPath) Next() (geom.Pose, bool) {
	if !p.started {
		p.started = true
		return p.start, true
	}
	pose, _ := p.b.Next(false)
	return pose, true
}

// Poses replays a list of poses, such as a pose file read by flight --poses
// or written by flight --record, composed after the object's pose (its
// frame: with the identity, the file's poses are the object's world poses):
// the object is at Frame∘Poses[0] at the first step, Frame∘Poses[1] at the
// second, and so on. After the last pose the object stays there (it is no
// longer moved), or with Cycle starts again from the first.
type Poses struct {
	// File is the pose file's name, for messages.
	File  string
	Poses []geom.Pose
	Cycle bool
}

// Kind returns "poses".
func (Poses) Kind() string { return "poses" }

// Validate checks the parameters.
func (m Poses) Validate() error {
	if len(m.Poses) == 0 {
		return errors.New("no poses")
	}
	for i, p := range m.Poses {
		if err := checkPose(p); err != nil {
			return fmt.Errorf("pose %d of %s: %w", i, m.File, err)
		}
	}
	return nil
}

// Path returns the object's path.
func (m Poses) Path(c PathContext) (Path, error) {
	if len(m.Poses) == 0 {
		return nil, errors.New("no poses")
	}
	ps := make([]geom.Pose, len(m.Poses))
	for i, p := range m.Poses {
		ps[i] = c.Start.Compose(p)
		if err := checkPose(ps[i]); err != nil {
			return nil, fmt.Errorf("pose %d of %s composed with the object's pose: %w", i, m.File, err)
		}
	}
	return &posesPath{ps: ps, cycle: m.Cycle}, nil
}

type posesPath struct {
	ps    []geom.Pose
	i     int
	cycle bool
}

func (p *posesPath) Next() (geom.Pose, bool) {
	switch {
	case p.i < len(p.ps):
		p.i++
		prev := p.i - 2
		return p.ps[p.i-1], prev < 0 || p.ps[prev] != p.ps[p.i-1]
	case p.cycle:
		p.i = 1
		return p.ps[0], p.ps[0] != p.ps[len(p.ps)-1]
	}
	return p.ps[len(p.ps)-1], false
}

// Brownian is a random walk: at every step the object's centre moves Step
// in a direction uniform on the sphere, and the object turns by Angle
// radians about an axis uniform on the sphere (both drawn afresh each step
// from the object's seed). The centre reflects off the walls of the
// scene's bounds shrunk by Margin.
type Brownian struct {
	Step   float64 // distance per step
	Angle  float64 // radians per step
	Margin float64 // ≥ 0, or AutoMargin
}

// Kind returns "brownian".
func (Brownian) Kind() string { return "brownian" }

// Validate checks the parameters.
func (m Brownian) Validate() error {
	if err := checkPerStep("step", m.Step); err != nil {
		return err
	}
	if err := checkPerStep("angle", m.Angle); err != nil {
		return err
	}
	return checkMargin(m.Margin)
}

// Path returns the object's path.
func (m Brownian) Path(c PathContext) (Path, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if m.Step == 0 && m.Angle == 0 {
		return &still{p: c.Start}, nil
	}
	return &brownianPath{m: m, c: c, box: inner(c.Bounds, m.Margin, c.Radius),
		r: rand.New(rand.NewPCG(c.Seed, streamBrownian)), pos: c.Start.Apply(c.Center), q: quatOf(c.Start.R)}, nil
}

type brownianPath struct {
	m       Brownian
	c       PathContext
	box     geom.AABB
	r       *rand.Rand
	pos     geom.Vec3
	q       geom.Quat
	started bool
}

func (p *brownianPath) Next() (geom.Pose, bool) {
	if !p.started {
		p.started = true
		return p.c.Start, true
	}
	if p.m.Step > 0 {
		p.pos = p.pos.Add(unit(p.r).Scale(p.m.Step))
		fold(&p.pos, nil, p.box, 1)
	}
	if p.m.Angle > 0 {
		p.q = turn(p.q, unit(p.r).Scale(p.m.Angle))
	}
	return poseAt(p.q, p.c.Center, p.pos), true
}

// Fall is free fall under gravity into the box of the scene's bounds, as
// in Broadmark's free-fall scene but kinematic (objects fall through each
// other): every step of DT seconds the velocity gains Gravity·DT and the
// centre moves by the velocity times DT. The centre, kept in the bounds
// shrunk by Margin, bounces off the floor and the walls: the velocity's
// component across the wall is reversed and scaled by Restitution, the
// others, and the spin, are scaled by it too (friction). A bounce too
// slow to lift the object for more than two steps settles it on that wall;
// an object settled on a wall slows by a fifth a step, and stops when it
// moves less than 10⁻⁶ of its radius and turns less than 10⁻⁶ radians a
// step: it is no longer moved. The
// object turns by Spin radians a step about an axis drawn from its seed.
// With AutoMargin and the model's points (PathContext.Points, which a
// Player gives), the object itself keeps inside the bounds, its extent
// along each axis taken at each step's orientation, and an object settled
// on a wall touches it (sunk by 10⁻⁹ of its radius, so that the rounding
// of its pose leaves no gap); without points its centre keeps Radius
// inside. Its speed along an axis is capped at four times the bounds'
// size a step (it would cross them more than once a step), and a
// Gravity·DT that overflows is refused by Path.
type Fall struct {
	Gravity     geom.Vec3 // acceleration, distance/s²
	DT          float64   // seconds per step (> 0)
	Restitution float64   // in [0, 1]
	Velocity    geom.Vec3 // initial velocity, distance/s
	Spin        float64   // radians per step
	Margin      float64   // ≥ 0, or AutoMargin
}

// Kind returns "fall".
func (Fall) Kind() string { return "fall" }

// Validate checks the parameters.
func (m Fall) Validate() error {
	if !m.Gravity.IsFinite() || !m.Velocity.IsFinite() {
		return errors.New("gravity and velocity must be finite")
	}
	if !(m.DT > 0 && m.DT <= math.MaxFloat64) {
		return fmt.Errorf("dt %v is not a finite number > 0", m.DT)
	}
	if !(m.Restitution >= 0 && m.Restitution <= 1) {
		return fmt.Errorf("restitution %v is not in [0, 1]", m.Restitution)
	}
	if err := checkPerStep("spin", m.Spin); err != nil {
		return err
	}
	return checkMargin(m.Margin)
}

// Path returns the object's path.
func (m Fall) Path(c PathContext) (Path, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if gd := m.Gravity.Scale(m.DT); !gd.IsFinite() {
		return nil, fmt.Errorf("gravity %v times dt %g overflows: give a smaller gravity or dt", m.Gravity, m.DT)
	}
	r := rand.New(rand.NewPCG(c.Seed, streamFall))
	p := &fallPath{m: m, c: c, box: inner(c.Bounds, m.Margin, c.Radius),
		pos: c.Start.Apply(c.Center), v: m.Velocity, q: quatOf(c.Start.R), w: unit(r).Scale(m.Spin)}
	if m.Margin == AutoMargin && len(c.Points) > 0 {
		p.pts = c.Points
	}
	// The cap on the speed along each axis: four times the box's size a
	// step (or its gain from gravity), never more than a quarter of the
	// largest float, so that no velocity or position overflows.
	size := c.Bounds.Size()
	for a := range 3 {
		vc := max(4*size.Index(a)/m.DT, 4*math.Abs(m.Gravity.Index(a))*m.DT)
		p.vcap[a] = min(vc, math.MaxFloat64/4)
	}
	return p, nil
}

// sink is how far an object with Points resting on a wall is put into
// it, relative to its radius (with a few units in the last place of its
// coordinates): so that the rounding of its pose cannot leave a gap
// between two surfaces that touch.
const sink = 1e-9

// extentBox returns the box that the centre of an object with points
// keeps to at orientation q: the bounds shrunk on each side by the
// object's own extent from its centre along that axis (an axis on which
// the object is larger than the bounds collapses to its middle).
func (p *fallPath) extentBox(q geom.Quat) geom.AABB {
	r := q.Unit().Mat3()
	lo := [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi := [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, x := range p.pts {
		y := r.MulVec(x.Sub(p.c.Center))
		for a := range 3 {
			lo[a] = min(lo[a], y.Index(a))
			hi[a] = max(hi[a], y.Index(a))
		}
	}
	b := p.c.Bounds
	for a := range 3 {
		l, h := b.Min.Index(a)-lo[a], b.Max.Index(a)-hi[a]
		if !(l <= h) {
			l = 0.5*b.Min.Index(a) + 0.5*b.Max.Index(a)
			h = l
		}
		b.Min, b.Max = b.Min.SetIndex(a, l), b.Max.SetIndex(a, h)
	}
	return b
}

// An object of a Fall settled on a wall slows by settleDamping a step, and
// stops when it moves less than settleStop of its radius (and turns less
// than settleStop radians) a step.
const (
	settleDamping = 0.8
	settleStop    = 1e-6
)

type fallPath struct {
	m       Fall
	c       PathContext
	box     geom.AABB
	pos, v  geom.Vec3
	q       geom.Quat
	w       geom.Vec3 // rotation vector per step
	rest    [3]int8   // the wall an axis has settled on (-1 low, +1 high)
	pose    geom.Pose
	started bool
	stopped bool
	pts     []geom.Vec3 // PathContext.Points with AutoMargin, or nil
	vcap    [3]float64  // the largest speed along each axis
}

func (p *fallPath) Next() (geom.Pose, bool) {
	if !p.started {
		p.started = true
		p.pose = p.c.Start
		p.stopped = p.m.Gravity == (geom.Vec3{}) && p.v == (geom.Vec3{}) && p.w == (geom.Vec3{})
		return p.pose, true
	}
	if p.stopped {
		return p.pose, false
	}
	m := &p.m
	g := m.Gravity
	for a := range 3 {
		if p.rest[a] != 0 {
			g = g.SetIndex(a, 0)
			p.v = p.v.SetIndex(a, 0)
		}
	}
	if p.pts != nil {
		// The step's orientation first: the box is the object's own.
		p.q = turn(p.q, p.w)
		p.box = p.extentBox(p.q)
	}
	p.v = p.v.Add(g.Scale(m.DT))
	for a := range 3 {
		p.v = p.v.SetIndex(a, min(max(p.v.Index(a), -p.vcap[a]), p.vcap[a]))
	}
	p.pos = p.pos.Add(p.v.Scale(m.DT))
	for a, s := range p.rest {
		// A settled axis stays on its wall, which moves with the
		// orientation when the box is the object's own.
		if s < 0 {
			p.pos = p.pos.SetIndex(a, p.box.Min.Index(a))
		} else if s > 0 {
			p.pos = p.pos.SetIndex(a, p.box.Max.Index(a))
		}
	}
	hit := fold(&p.pos, &p.v, p.box, m.Restitution)
	settled := false
	for a, s := range hit {
		if s == 0 {
			continue
		}
		// Friction: the other components and the spin lose as much.
		for b := range 3 {
			if b != a {
				p.v = p.v.SetIndex(b, m.Restitution*p.v.Index(b))
			}
		}
		p.w = p.w.Scale(m.Restitution)
		ga := m.Gravity.Index(a)
		if float64(s)*ga > 0 && math.Abs(p.v.Index(a)) <= 2*math.Abs(ga)*m.DT {
			p.rest[a] = s
			wall := p.box.Min.Index(a)
			if s > 0 {
				wall = p.box.Max.Index(a)
			}
			p.pos = p.pos.SetIndex(a, wall)
			p.v = p.v.SetIndex(a, 0)
		}
	}
	for _, s := range p.rest {
		settled = settled || s != 0
	}
	if settled {
		p.v = p.v.Scale(settleDamping)
		p.w = p.w.Scale(settleDamping)
		if p.v.Norm()*m.DT < settleStop*p.c.Radius {
			p.v = geom.Vec3{}
		}
		if p.w.Norm() < settleStop {
			p.w = geom.Vec3{}
		}
	}
	pos := p.pos
	if p.pts == nil {
		p.q = turn(p.q, p.w)
	} else {
		// Resting on a wall: into it by a hair, so that the object
		// touches it whatever the rounding of its pose.
		scale := max(math.Abs(p.c.Center.X), math.Abs(p.c.Center.Y), math.Abs(p.c.Center.Z)) + p.c.Radius
		for a, s := range p.rest {
			if s != 0 {
				x := pos.Index(a)
				d := sink*p.c.Radius + 16*ulp(max(math.Abs(x), scale))
				pos = pos.SetIndex(a, x+float64(s)*d)
			}
		}
	}
	p.pose = poseAt(p.q, p.c.Center, pos)
	// Settled with nothing left to move it: this is the last move.
	if settled && p.v == (geom.Vec3{}) && p.w == (geom.Vec3{}) {
		free := false
		for a := range 3 {
			free = free || p.rest[a] == 0 && m.Gravity.Index(a) != 0
		}
		p.stopped = !free
	}
	return p.pose, true
}

// ulp returns the gap from x ≥ 0 to the next float.
func ulp(x float64) float64 { return math.Nextafter(x, math.Inf(1)) - x }

// Gravity gathers the objects in clusters, as in Broadmark's gravity scene
// but kinematic: each object orbits the cluster centre nearest its initial
// position on a circle through that position, in a plane drawn from its
// seed, at the angular speed of a Kepler orbit, Strength·r^-1.5 radians a
// step at radius r (at most MaxSpeed/r: a speed of at most MaxSpeed), while
// the radius shrinks from its initial r0 toward Collapse·r0 with time
// constant Time steps (r = r0·(Collapse + (1-Collapse)·e^(-step/Time))),
// so that the clusters grow denser. The object turns by Spin radians a
// step about an axis drawn from its seed. The centres are Centers, or, if
// none are given, Clusters points drawn from the scene's seed, uniform in
// the middle 60% of the bounds along each axis. Orbits may leave the
// bounds.
type Gravity struct {
	Clusters int
	Centers  []geom.Vec3
	Strength float64 // radians per step at radius 1
	MaxSpeed float64 // distance per step (> 0)
	Collapse float64 // in (0, 1]; 1: circular orbits
	Time     float64 // steps (> 0)
	Spin     float64 // radians per step
}

// Kind returns "gravity".
func (Gravity) Kind() string { return "gravity" }

// Validate checks the parameters.
func (m Gravity) Validate() error {
	if len(m.Centers) == 0 && (m.Clusters < 1 || m.Clusters > 1<<16) {
		return fmt.Errorf("clusters %d is not in [1, %d]", m.Clusters, 1<<16)
	}
	if len(m.Centers) > 1<<16 {
		return fmt.Errorf("%d centers: more than %d", len(m.Centers), 1<<16)
	}
	for i, c := range m.Centers {
		if !c.IsFinite() {
			return fmt.Errorf("centers[%d] is not finite", i)
		}
	}
	if err := checkNonNeg("strength", m.Strength); err != nil {
		return err
	}
	if !(m.MaxSpeed > 0 && m.MaxSpeed <= math.MaxFloat64) {
		return fmt.Errorf("max_speed %v is not a finite number > 0", m.MaxSpeed)
	}
	if !(m.Collapse > 0 && m.Collapse <= 1) {
		return fmt.Errorf("collapse %v is not in (0, 1]", m.Collapse)
	}
	if !(m.Time > 0 && m.Time <= math.MaxFloat64) {
		return fmt.Errorf("time %v is not a finite number > 0", m.Time)
	}
	return checkPerStep("spin", m.Spin)
}

// ClusterCenters returns the centres of the clusters of m in a scene of
// bounds b and seed seed.
func (m Gravity) ClusterCenters(b geom.AABB, seed uint64) []geom.Vec3 {
	if len(m.Centers) > 0 {
		return m.Centers
	}
	r := rand.New(rand.NewPCG(seed, streamClusters))
	cs := make([]geom.Vec3, m.Clusters)
	size := b.Size()
	for i := range cs {
		cs[i] = geom.Vec3{
			X: b.Min.X + size.X*(0.2+0.6*r.Float64()),
			Y: b.Min.Y + size.Y*(0.2+0.6*r.Float64()),
			Z: b.Min.Z + size.Z*(0.2+0.6*r.Float64()),
		}
	}
	return cs
}

// Path returns the object's path.
func (m Gravity) Path(c PathContext) (Path, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	p0 := c.Start.Apply(c.Center)
	cs := m.ClusterCenters(c.Bounds, c.SceneSeed)
	best := 0
	for i := range cs {
		if p0.Sub(cs[i]).Norm2() < p0.Sub(cs[best]).Norm2() {
			best = i
		}
	}
	r := rand.New(rand.NewPCG(c.Seed, streamGravity))
	g := &gravityPath{m: m, c: c, center: cs[best], q: quatOf(c.Start.R), w: unit(r).Scale(m.Spin)}
	d := p0.Sub(g.center)
	g.r0 = d.Norm()
	// The orbit must stay within the floats (its coordinates are within
	// r0 of the centre's), and so must its angle a step, largest at the
	// smallest radius it reaches, collapse·r0.
	reach := max(math.Abs(g.center.X), math.Abs(g.center.Y), math.Abs(g.center.Z)) + g.r0
	if !(reach <= math.MaxFloat64/2) {
		return nil, fmt.Errorf("the orbit about centre %v through the start %v reaches beyond %g", g.center, p0, math.MaxFloat64/2)
	}
	if g.r0 > 0 {
		rmin := g.r0 * m.Collapse
		g.maxTurn = m.turnAt(rmin)
		if !(g.maxTurn <= math.MaxFloat64) {
			return nil, fmt.Errorf("strength %g and max_speed %g turn the orbit by an angle too large for a float (%v radians a step) at its smallest radius %g (collapse %g of %g): give a smaller max_speed", m.Strength, m.MaxSpeed, g.maxTurn, rmin, m.Collapse, g.r0)
		}
	}
	if g.r0 > 0 {
		g.u = d.Scale(1 / g.r0)
	} else {
		g.u = unit(r)
	}
	for {
		w := unit(r)
		v := w.Sub(g.u.Scale(w.Dot(g.u)))
		if n := v.Norm(); n > 0.1 {
			g.v = v.Scale(1 / n)
			break
		}
	}
	return g, nil
}

// turnAt returns the angle of an orbit a step at radius r > 0: that of a
// Kepler orbit, Strength·r^-1.5, at most MaxSpeed/r (+Inf if both
// overflow; never NaN).
func (m Gravity) turnAt(r float64) float64 {
	k := 0.0
	if m.Strength > 0 {
		k = m.Strength * math.Pow(r, -1.5)
	}
	return min(k, m.MaxSpeed/r)
}

type gravityPath struct {
	m       Gravity
	c       PathContext
	center  geom.Vec3
	r0      float64
	u, v    geom.Vec3 // the orbit's plane, u toward the start
	theta   float64
	maxTurn float64 // the angle a step at the smallest radius
	step    int
	q       geom.Quat
	w       geom.Vec3
	started bool
}

func (p *gravityPath) Next() (geom.Pose, bool) {
	if !p.started {
		p.started = true
		return p.c.Start, true
	}
	if p.r0 == 0 && p.w == (geom.Vec3{}) {
		return p.c.Start, false // at its cluster's centre, not turning
	}
	p.step++
	m := &p.m
	r := p.r0 * (m.Collapse + (1-m.Collapse)*math.Exp(-float64(p.step)/m.Time))
	if r > 0 {
		// At most the angle at the smallest radius, which r may pass
		// by a rounding.
		p.theta += math.Mod(min(m.turnAt(r), p.maxTurn), 2*math.Pi)
		p.theta = math.Mod(p.theta, 2*math.Pi)
	}
	s, co := math.Sincos(p.theta)
	pos := p.center.Add(p.u.Scale(r * co)).Add(p.v.Scale(r * s))
	p.q = turn(p.q, p.w)
	return poseAt(p.q, p.c.Center, pos), true
}
