package flight

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/collide3d/collide/geom"
)

// Motion yields the poses of a flight, one per step.
type Motion interface {
	// Next returns the pose of the next step, given whether the pose of the
	// previous step collided (false before the first step), and false
	// when the motion has ended.
	Next(collided bool) (geom.Pose, bool)
}

// BilliardConfig describes a billiard path, the random flight of Held,
// Klosowski and Mitchell: the flying model moves by a displacement and turns
// by a rotation each step, both perturbed at random from the previous step,
// and when a step collides the motion is reversed, so that the next step
// backs out along the way it came.
type BilliardConfig struct {
	// Center is the point of the flying model (in its own coordinates)
	// that follows the path; the model turns about it.
	Center geom.Vec3
	// Start is where Center is at the first step; Orient is the model's
	// orientation there (the zero Quat is the identity).
	Start  geom.Vec3
	Orient geom.Quat
	// Bounds is the box Center stays in: a step that would leave it is
	// reflected off its walls. It must contain Start.
	Bounds geom.AABB
	// Speed is the length of every step's displacement, and Spin the angle,
	// in radians, of every step's rotation (both ≥ 0).
	Speed, Spin float64
	// Turn, in [0, 2], is how fast the direction of motion wanders: each
	// step adds a random vector of length up to Turn·Speed to the
	// displacement (and up to Turn·Spin to the rotation vector), then
	// restores the length. 0 flies straight.
	Turn float64
	// Fixed ignores collisions: the path is the same whatever the flight
	// meets (a path planned in advance, or a hand that goes where it
	// goes).
	Fixed bool
	// Seed selects the random perturbations: a path is a function of its
	// configuration alone.
	Seed uint64
}

// Billiard is a Motion along a billiard path. It never ends.
type Billiard struct {
	c        BilliardConfig
	rng      *rand.Rand
	pos      geom.Vec3
	q        geom.Quat
	vel, rot geom.Vec3 // displacement and rotation vector (axis·angle) of a step
	started  bool
	inside   bool // the previous step collided
}

// billiardStream is the PCG stream of billiard paths.
const billiardStream = 0x62696c6c69617264 // "billiard"

// NewBilliard validates c and returns the path at its start.
func NewBilliard(c BilliardConfig) (*Billiard, error) {
	vals := []float64{c.Speed, c.Spin, c.Turn, c.Orient.W, c.Orient.X, c.Orient.Y, c.Orient.Z}
	for _, x := range vals {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, errors.New("flight: billiard: every number must be finite")
		}
	}
	if !c.Center.IsFinite() || !c.Start.IsFinite() || !c.Bounds.Min.IsFinite() || !c.Bounds.Max.IsFinite() {
		return nil, errors.New("flight: billiard: every coordinate must be finite")
	}
	if c.Speed < 0 || c.Spin < 0 {
		return nil, fmt.Errorf("flight: billiard: speed %v and spin %v must not be negative", c.Speed, c.Spin)
	}
	if c.Turn < 0 || c.Turn > 2 {
		return nil, fmt.Errorf("flight: billiard: turn %v must be in [0, 2]", c.Turn)
	}
	if !c.Bounds.Contains(c.Start) {
		return nil, fmt.Errorf("flight: billiard: start %v is outside bounds %v-%v", c.Start, c.Bounds.Min, c.Bounds.Max)
	}
	if c.Orient == (geom.Quat{}) {
		c.Orient = geom.Quat{W: 1}
	}
	b := &Billiard{c: c, rng: rand.New(rand.NewPCG(c.Seed, billiardStream)), pos: c.Start, q: c.Orient.Unit()}
	b.vel = b.unit().Scale(c.Speed)
	b.rot = b.unit().Scale(c.Spin)
	return b, nil
}

// Pose returns the pose of the current step: the model turned by the
// current orientation about Center, with Center moved to the current
// position.
func (b *Billiard) Pose() geom.Pose {
	r := b.q.Mat3()
	return geom.Pose{R: r, T: b.pos.Sub(r.MulVec(b.c.Center))}
}

// Next moves one step and returns its pose. The first call returns the
// start. After a step that collided when the one before did not, the
// displacement and the rotation are negated, unperturbed, so that the path
// retraces its last step; while steps go on colliding (a flight that starts
// in contact, or one that backs into another obstacle) the path goes on
// without reversing again, since reversing would swing it between colliding
// poses.
func (b *Billiard) Next(collided bool) (geom.Pose, bool) {
	if !b.started {
		b.started = true
		return b.Pose(), true
	}
	if collided && !b.inside && !b.c.Fixed {
		b.vel = b.vel.Neg()
		b.rot = b.rot.Neg()
	} else {
		b.vel = b.perturb(b.vel, b.c.Speed)
		b.rot = b.perturb(b.rot, b.c.Spin)
	}
	b.inside = collided
	b.pos = b.pos.Add(b.vel)
	b.reflect()
	if angle := b.rot.Norm(); angle > 0 {
		b.q = geom.AxisAngle(b.rot, angle).Mul(b.q).Unit()
	}
	return b.Pose(), true
}

// perturb adds a random vector of length up to Turn·length to v and scales
// the sum back to length.
func (b *Billiard) perturb(v geom.Vec3, length float64) geom.Vec3 {
	if length == 0 {
		return v
	}
	w := v.Add(b.unit().Scale(b.c.Turn * length * b.rng.Float64()))
	if n := w.Norm(); n > 1e-9*length {
		return w.Scale(length / n)
	}
	return b.unit().Scale(length)
}

// reflect folds the position back into Bounds, reversing the displacement
// along each axis whose wall it crossed.
func (b *Billiard) reflect() {
	lo, hi := b.c.Bounds.Min, b.c.Bounds.Max
	for a := range 3 {
		p, v := b.pos.Index(a), b.vel.Index(a)
		switch {
		case p < lo.Index(a):
			p, v = math.Min(2*lo.Index(a)-p, hi.Index(a)), math.Abs(v)
		case p > hi.Index(a):
			p, v = math.Max(2*hi.Index(a)-p, lo.Index(a)), -math.Abs(v)
		default:
			continue
		}
		b.pos = b.pos.SetIndex(a, p)
		b.vel = b.vel.SetIndex(a, v)
	}
}

// unit returns a random unit vector, uniform on the sphere.
func (b *Billiard) unit() geom.Vec3 {
	for {
		v := geom.Vec3{X: 2*b.rng.Float64() - 1, Y: 2*b.rng.Float64() - 1, Z: 2*b.rng.Float64() - 1}
		if n := v.Norm(); n > 0.01 && n <= 1 {
			return v.Scale(1 / n)
		}
	}
}

// Recorded replays a list of poses, whatever the flight meets.
type Recorded struct {
	Poses []geom.Pose
	next  int
}

// Next returns the next recorded pose, and false after the last.
func (r *Recorded) Next(bool) (geom.Pose, bool) {
	if r.next >= len(r.Poses) {
		return geom.Pose{}, false
	}
	r.next++
	return r.Poses[r.next-1], true
}

// Path returns the first n poses of m, flown with no collision.
func Path(m Motion, n int) []geom.Pose {
	poses := make([]geom.Pose, 0, n)
	for range n {
		p, ok := m.Next(false)
		if !ok {
			break
		}
		poses = append(poses, p)
	}
	return poses
}
