package scene

import (
	"math"
	"strings"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/world"
)

// pathContext is an object of box [-0.5, 0.5]³ (radius √3/2) in bounds
// [0, 10]³, at a turned pose.
func pathContext(seed uint64) PathContext {
	return PathContext{
		Start:  geom.FromQuat(geom.Quat{W: 1, X: 0.3, Y: -0.2, Z: 0.1}, geom.V(5, 5, 8)),
		Center: geom.Vec3{}, Radius: math.Sqrt(3) / 2,
		Bounds: geom.AABB{Max: geom.V(10, 10, 10)}, Seed: seed, SceneSeed: 99,
	}
}

// TestMotions flies every motion for a few hundred steps and checks that
// the first pose is the start, every pose a rotation to within
// world.RotationTol, the centre within the bounds shrunk by the margin,
// and the path the same for the same seed.
func TestMotions(t *testing.T) {
	posesMotion := Poses{File: "p", Poses: []geom.Pose{geom.Identity(), geom.Translation(geom.V(0.5, 0, 0)), geom.FromAxisAngle(geom.V(0, 0, 1), 0.5, geom.Vec3{})}}
	motions := []Motion{
		Static{},
		DefaultBilliard,
		Billiard{Speed: 0.3, Spin: 0.2, Turn: 0.5, Margin: 0},
		DefaultBrownian,
		Brownian{Step: 0.4, Angle: 0.3, Margin: 1},
		DefaultFall,
		Fall{Gravity: geom.V(0, -3, -9.81), DT: 0.05, Restitution: 0.9, Velocity: geom.V(4, 0, 0), Spin: 0.2, Margin: AutoMargin},
		DefaultGravity,
		Gravity{Centers: []geom.Vec3{{X: 5, Y: 5, Z: 5}}, Strength: 1, MaxSpeed: 0.5, Collapse: 0.2, Time: 20, Spin: 0.1},
		posesMotion,
	}
	for _, m := range motions {
		c := pathContext(3)
		box := c.Bounds
		margin := -1.0
		switch m := m.(type) {
		case Billiard:
			margin = m.Margin
		case Brownian:
			margin = m.Margin
		case Fall:
			margin = m.Margin
		}
		if margin == AutoMargin {
			margin = c.Radius
		}
		if margin >= 0 {
			box = inner(box, margin, c.Radius)
		}
		a, err := m.Path(c)
		if err != nil {
			t.Fatalf("%s: %v", m.Kind(), err)
		}
		b, _ := m.Path(c)
		other, _ := m.Path(pathContext(4))
		moved, differs := 0, false
		for i := range 300 {
			p, changed := a.Next()
			q, _ := b.Next()
			o, _ := other.Next()
			if p != q {
				t.Fatalf("%s: step %d: two paths of the same seed differ", m.Kind(), i)
			}
			differs = differs || o != p
			if i == 0 && (p != c.Start || !changed) {
				t.Fatalf("%s: the first pose %v is not the start %v", m.Kind(), p, c.Start)
			}
			if !p.R.IsRotation(world.RotationTol) {
				t.Fatalf("%s: step %d: the rotation %v is not one to within %g", m.Kind(), i, p.R, world.RotationTol)
			}
			if i > 0 && changed {
				moved++
			}
			if margin >= 0 && i > 0 && !box.Expanded(1e-9).Contains(p.Apply(c.Center)) {
				t.Fatalf("%s: step %d: centre %v outside %v", m.Kind(), i, p.Apply(c.Center), box)
			}
		}
		switch m.(type) {
		case Static:
			if moved != 0 || differs {
				t.Errorf("static moved %d times", moved)
			}
		case Poses:
			if moved != 2 {
				t.Errorf("poses moved %d times, want 2 (then held)", moved)
			}
		default:
			// A fall without spin draws nothing from its seed.
			if f, ok := m.(Fall); ok && f.Spin == 0 {
				differs = true
			}
			if moved < 200 || !differs {
				t.Errorf("%s moved %d times of 299; another seed differs: %v", m.Kind(), moved, differs)
			}
		}
	}
}

// TestPosesCycle checks that a cycled pose list starts again, composed
// with the object's pose.
func TestPosesCycle(t *testing.T) {
	ps := []geom.Pose{geom.Translation(geom.V(1, 0, 0)), geom.Translation(geom.V(2, 0, 0))}
	c := pathContext(1)
	c.Start = geom.Translation(geom.V(0, 10, 0))
	p, err := Poses{Poses: ps, Cycle: true}.Path(c)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1, 2, 1, 2, 1}
	for i, x := range want {
		q, changed := p.Next()
		if q.T != geom.V(x, 10, 0) || !changed {
			t.Errorf("step %d: %v (changed %v), want x = %v, y = 10", i, q.T, changed, x)
		}
	}
}

// TestFallSettles drops an object, which bounces, settles on the floor and
// stops: its path then never changes again.
func TestFallSettles(t *testing.T) {
	c := pathContext(1)
	p, err := Fall{Gravity: geom.V(0, 0, -9.81), DT: 0.02, Restitution: 0.5, Velocity: geom.V(1, 0, 0), Spin: 0.1, Margin: AutoMargin}.Path(c)
	if err != nil {
		t.Fatal(err)
	}
	floor := c.Radius
	var last geom.Pose
	stopped := -1
	for i := range 2000 {
		q, changed := p.Next()
		if stopped >= 0 && (changed || q != last) {
			t.Fatalf("step %d: moved after stopping at step %d", i, stopped)
		}
		if !changed && stopped < 0 {
			stopped = i
		}
		last = q
	}
	if stopped < 0 {
		t.Fatal("never stopped")
	}
	if z := last.Apply(c.Center).Z; z != floor {
		t.Errorf("stopped at height %v, want the floor's %v", z, floor)
	}
	t.Logf("stopped at step %d", stopped)
}

// TestGravityOrbits checks that an orbit keeps its cluster's centre at the
// radius the collapse gives.
func TestGravityOrbits(t *testing.T) {
	g := Gravity{Centers: []geom.Vec3{{X: 5, Y: 5, Z: 5}, {X: 0, Y: 0, Z: 0}}, Strength: 0.5, MaxSpeed: 0.3, Collapse: 0.5, Time: 10}
	c := pathContext(1) // starts at (5, 5, 8): 3 from the first centre
	p, err := g.Path(c)
	if err != nil {
		t.Fatal(err)
	}
	p.Next()
	for s := 1; s <= 100; s++ {
		q, _ := p.Next()
		r := q.Apply(c.Center).Distance(geom.V(5, 5, 5))
		want := 3 * (0.5 + 0.5*math.Exp(-float64(s)/10))
		if math.Abs(r-want) > 1e-9 {
			t.Fatalf("step %d: radius %v, want %v", s, r, want)
		}
	}
}

func TestQuatOf(t *testing.T) {
	for _, q := range []geom.Quat{{W: 1}, {X: 1}, {Y: 1}, {Z: 1}, {W: 0.1, X: 0.9, Y: -0.3, Z: 0.2}, {W: -0.5, X: 0.5, Y: 0.5, Z: -0.5}, {W: 0.01, X: 0.02, Y: 0.03, Z: 0.99}} {
		m := q.Mat3()
		back := quatOf(m).Mat3()
		for i := range 3 {
			for j := range 3 {
				if math.Abs(back[i][j]-m[i][j]) > 1e-14 {
					t.Fatalf("%v: %v, back %v", q, m, back)
				}
			}
		}
	}
}

// TestMotionsExtreme gives every motion kind each parameter at extreme
// values that Validate accepts (0, the smallest and largest floats, 1e308,
// with tiny, unit and huge objects and bounds, near and far from the
// origin), and checks that each either refuses to make the path, naming a
// parameter, or plays finite poses: a gravity motion of strength and
// max_speed 1e308 made a NaN translation at its second step.
func TestMotionsExtreme(t *testing.T) {
	big := []float64{0, 5e-324, 1e-300, 0.5, 1, 1e300, 1e308, math.MaxFloat64}
	var motions []Motion
	for _, x := range big {
		for _, y := range big {
			motions = append(motions,
				Billiard{Speed: x, Spin: y, Turn: min(y, 2), Margin: AutoMargin},
				Billiard{Speed: x, Spin: 0.1, Margin: y},
				Brownian{Step: x, Angle: y, Margin: AutoMargin},
				Brownian{Step: x, Angle: 0.1, Margin: y},
				Fall{Gravity: geom.V(0, 0, -x), DT: max(y, 5e-324), Restitution: 0, Spin: 0.1, Margin: AutoMargin},
				Fall{Gravity: geom.V(x, -x, -x), DT: max(y, 5e-324), Restitution: 1, Velocity: geom.V(x, -y, 0), Spin: y, Margin: AutoMargin},
				Fall{Gravity: geom.V(0, 0, -1), DT: 0.1, Restitution: 0.5, Velocity: geom.V(x, y, -x), Margin: y},
				Gravity{Clusters: 2, Strength: x, MaxSpeed: max(y, 5e-324), Collapse: 0.6, Time: 10, Spin: y},
				Gravity{Centers: []geom.Vec3{{X: x, Y: -y}}, Strength: y, MaxSpeed: max(x, 5e-324), Collapse: 5e-324, Time: 5e-324},
				Gravity{Centers: []geom.Vec3{{X: -x}}, Strength: x, MaxSpeed: max(x, 5e-324), Collapse: 1, Time: max(y, 5e-324), Spin: x},
			)
		}
	}
	contexts := []PathContext{pathContext(1)}
	for _, s := range []float64{1e-300, 1e300, 1e307} {
		c := pathContext(2)
		c.Start.T = geom.V(s, -s, s/2)
		c.Radius = s
		c.Bounds = geom.AABB{Min: geom.V(-s, -s, -s), Max: geom.V(s, s, s)}
		contexts = append(contexts, c)
		c.Radius = 1e-300
		contexts = append(contexts, c)
	}
	for _, m := range motions {
		if err := m.Validate(); err != nil {
			continue
		}
		for ci, c := range contexts {
			p, err := m.Path(c)
			if err != nil {
				if !strings.ContainsAny(err.Error(), "_ ") {
					t.Errorf("%s %+v, context %d: error %q names nothing", m.Kind(), m, ci, err)
				}
				continue
			}
			for step := range 40 {
				pose, _ := p.Next()
				a := pose.Array()
				for _, x := range a {
					if math.IsNaN(x) || math.IsInf(x, 0) {
						t.Fatalf("%s %+v, context %d: step %d: pose %v is not finite", m.Kind(), m, ci, step+1, a)
					}
				}
			}
		}
	}
}
