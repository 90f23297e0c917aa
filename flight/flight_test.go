package flight_test

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

func TestPoseRoundTrip(t *testing.T) {
	b := mustBilliard(t, flight.BilliardConfig{
		Bounds: geom.AABB{Min: geom.Vec3{X: -1e6, Y: -1e6, Z: -1e6}, Max: geom.Vec3{X: 1e6, Y: 1e6, Z: 1e6}},
		Start:  geom.Vec3{X: 12345.678, Y: -0.1, Z: 1e-300}, Speed: 0.3, Spin: 0.2, Turn: 0.5, Seed: 7,
	})
	poses := flight.Path(b, 200)
	var buf bytes.Buffer
	if err := flight.WritePoses(&buf, "a header\nof two lines", poses); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "# a header\n# of two lines\n") {
		t.Errorf("header not written as comments: %q", buf.String()[:40])
	}
	got, err := flight.ReadPoses(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, poses) {
		t.Fatal("poses read back differ from the poses written")
	}
}

func TestReadPosesErrors(t *testing.T) {
	const id = "1 0 0 0 1 0 0 0 1 0 0 0"
	tests := []struct {
		name, text string
		line       int // 0: no line in the error
		want       string
	}{
		{"empty", "", 0, "no poses"},
		{"comments only", "# nothing\n\n  # more\n", 0, "no poses"},
		{"too few", id + "\n1 0 0\n", 2, "want 12 numbers"},
		{"not a number", "# c\n\n1 0 0 0 1 0 0 0 1 0 x 0\n", 3, `"x" is not a number`},
		{"nan", "1 0 0 0 1 0 0 0 1 NaN 0 0", 1, "NaN"},
		{"inf", "1 0 0 0 1 0 0 0 1 0 +Inf 0", 1, "Inf"},
		{"not rigid", "2 0 0 0 1 0 0 0 1 0 0 0", 1, "orthonormal"},
		{"mirror", "-1 0 0 0 1 0 0 0 1 0 0 0", 1, "determinant"},
		{"zero rotation", id + "\n0 0 0 0 0 0 0 0 0 1 2 3\n", 2, "all zeros"},
		{"long line", id + "\n" + strings.Repeat(" ", flight.MaxLine+1) + id + "\n", 2, "longer than"},
		{"underscore", id + "\n1 0 0 0 1 0 0 0 1 1_0 0 0\n", 2, `"1_0" is not a number`},
		{"hex float", id + "\n1 0 0 0 1 0 0 0 1 0x1p3 0 0\n", 2, `"0x1p3" is not a number`},
		{"hex integer", "0x1 0 0 0 1 0 0 0 1 0 0 0\n", 1, `"0x1" is not a number`},
		{"lone CR", id + "\r" + id + "\r1 0 0 0 1 0 0 0 1 0 y 0\r", 3, `"y" is not a number`},
		{"out of range", id + "\n1 0 0 0 1 0 0 0 1 1e400 0 0\n", 2, "out of float64 range"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := flight.ReadPoses(strings.NewReader(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			var pe *flight.PoseError
			if got := errors.As(err, &pe); got != (tc.line > 0) || got && pe.Line != tc.line {
				t.Errorf("error %v: want a PoseError at line %d", err, tc.line)
			}
		})
	}
	poses, err := flight.ReadPoses(strings.NewReader("# c\n" + id + " # trailing\n\n1,0,0, 0,1,0, 0,0,1, 1,2,3\r\n"))
	if err != nil || len(poses) != 2 || poses[1].T != (geom.Vec3{X: 1, Y: 2, Z: 3}) {
		t.Errorf("got %v, %v", poses, err)
	}
}

func mustBilliard(t *testing.T, c flight.BilliardConfig) *flight.Billiard {
	t.Helper()
	b, err := flight.NewBilliard(c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func unitBox() geom.AABB { return geom.AABB{Max: geom.Vec3{X: 1, Y: 1, Z: 1}} }

func TestBilliardConfigErrors(t *testing.T) {
	ok := flight.BilliardConfig{Bounds: unitBox(), Start: geom.Vec3{X: 0.5, Y: 0.5, Z: 0.5}, Speed: 0.01, Spin: 0.01, Turn: 0.3}
	tests := []struct {
		name   string
		change func(*flight.BilliardConfig)
	}{
		{"nan speed", func(c *flight.BilliardConfig) { c.Speed = math.NaN() }},
		{"negative spin", func(c *flight.BilliardConfig) { c.Spin = -1 }},
		{"turn above 2", func(c *flight.BilliardConfig) { c.Turn = 2.5 }},
		{"start outside", func(c *flight.BilliardConfig) { c.Start.X = 2 }},
		{"inf center", func(c *flight.BilliardConfig) { c.Center.Y = math.Inf(1) }},
		{"empty bounds", func(c *flight.BilliardConfig) { c.Bounds = geom.EmptyAABB() }},
		{"nan orientation", func(c *flight.BilliardConfig) { c.Orient.X = math.NaN() }},
	}
	if _, err := flight.NewBilliard(ok); err != nil {
		t.Fatalf("valid config: %v", err)
	}
	for _, tc := range tests {
		c := ok
		tc.change(&c)
		if _, err := flight.NewBilliard(c); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func TestBilliard(t *testing.T) {
	c := flight.BilliardConfig{
		Center: geom.Vec3{X: 1, Y: 2, Z: 3}, Start: geom.Vec3{X: 0.5, Y: 0.5, Z: 0.5}, Bounds: unitBox(),
		Speed: 0.05, Spin: 0.1, Turn: 0.4, Seed: 3,
	}
	a := flight.Path(mustBilliard(t, c), 3000)
	if b := flight.Path(mustBilliard(t, c), 3000); !slices.Equal(a, b) {
		t.Fatal("the same configuration gave two paths")
	}
	c2 := c
	c2.Seed = 4
	if b := flight.Path(mustBilliard(t, c2), 3000); slices.Equal(a, b) {
		t.Fatal("two seeds gave the same path")
	}
	if a[0].Apply(c.Center) != c.Start || !a[0].R.IsRotation(1e-15) {
		t.Errorf("first pose %v does not put the center at the start", a[0])
	}
	for i, p := range a {
		if err := p.Validate(); err != nil {
			t.Fatalf("pose %d: %v", i, err)
		}
		if !p.R.IsRotation(1e-12) {
			t.Fatalf("pose %d: rotation drifts from orthonormal", i)
		}
		if ctr := p.Apply(c.Center); !c.Bounds.Expanded(1e-12).Contains(ctr) {
			t.Fatalf("pose %d: center %v left the bounds", i, ctr)
		}
		if i > 0 {
			step := p.Apply(c.Center).Distance(a[i-1].Apply(c.Center))
			if step > c.Speed*(1+1e-9) {
				t.Fatalf("pose %d: moved %v, more than the speed %v", i, step, c.Speed)
			}
		}
	}
}

// TestBilliardReverses checks that a step after a collision retraces the
// last one, and that a second collision in a row does not swing back.
func TestBilliardReverses(t *testing.T) {
	c := flight.BilliardConfig{Start: geom.Vec3{X: 50, Y: 50, Z: 50}, Bounds: geom.AABB{Max: geom.Vec3{X: 100, Y: 100, Z: 100}},
		Speed: 0.5, Spin: 0.05, Turn: 0.3, Seed: 9}
	b := mustBilliard(t, c)
	var ps []geom.Pose
	// The collided flag of call k is about the pose of call k-1: ps[2] and
	// ps[3] collide.
	for _, hit := range []bool{false, false, false, true, true, false} {
		p, _ := b.Next(hit)
		ps = append(ps, p)
	}
	ctr := func(i int) geom.Vec3 { return ps[i].Apply(c.Center) }
	if d := ctr(3).Distance(ctr(1)); d > 1e-12 {
		t.Errorf("after a collision the path went to %v, not back to %v", ctr(3), ctr(1))
	}
	if !sameRotation(ps[3].R, ps[1].R, 1e-12) {
		t.Errorf("after a collision the rotation did not turn back")
	}
	back, next := ctr(3).Sub(ctr(2)), ctr(4).Sub(ctr(3))
	if back.Dot(next) <= 0 {
		t.Errorf("a second collision in a row swung back: step %v after %v", next, back)
	}
	c.Fixed = true
	fixed := mustBilliard(t, c)
	free := mustBilliard(t, c)
	for i := range 50 {
		p, _ := fixed.Next(i%3 == 1)
		q, _ := free.Next(false)
		if p != q {
			t.Fatalf("step %d: a fixed path changed with collisions", i)
		}
	}
}

func TestRecorded(t *testing.T) {
	poses := []geom.Pose{geom.Identity(), geom.Translation(geom.Vec3{X: 1})}
	r := &flight.Recorded{Poses: poses}
	for i := range 2 {
		if p, ok := r.Next(i == 1); !ok || p != poses[i] {
			t.Fatalf("step %d: %v %v", i, p, ok)
		}
	}
	if _, ok := r.Next(false); ok {
		t.Fatal("a recorded motion went past its end")
	}
}

// TestFlyReplays records a billiard flight and replays it: the contacts are
// the same, and they are the brute-force oracle's.
func TestFlyReplays(t *testing.T) {
	envMesh := gen.Must(gen.Tetrahedra(120, geom.AABB{Max: geom.Vec3{X: 4, Y: 4, Z: 4}}, 0.4, 1))
	flyMesh := gen.Must(gen.Torus(geom.Vec3{}, 0.3, 0.1, 400))
	env, fly, brute := build(t, envMesh, collide.KDOP18), build(t, flyMesh, collide.KDOP18), build(t, envMesh, collide.Brute)
	bruteFly := build(t, flyMesh, collide.Brute)
	b := mustBilliard(t, flight.BilliardConfig{Start: geom.Vec3{X: 2, Y: 2, Z: 2}, Bounds: geom.AABB{Max: geom.Vec3{X: 4, Y: 4, Z: 4}},
		Speed: 0.05, Spin: 0.05, Turn: 0.5, Seed: 1})
	// A front kept throughout (not FrontAuto, which keeps it while it
	// measures faster: the counts would depend on the machine's timing).
	o := flight.Options{Steps: 400, Query: collide.QueryOptions{All: true}, Front: flight.FrontOn}
	var poses []geom.Pose
	var pairs [][]collide.Pair
	s, err := flight.Fly(env, fly, b, o, func(st *flight.Step) error {
		poses = append(poses, st.Pose)
		pairs = append(pairs, slices.Clone(st.Result.Pairs))
		if st.Index%10 == 0 {
			want, err := collide.Check(brute, bruteFly, st.Pose, o.Query)
			if err != nil {
				return err
			}
			if !slices.Equal(st.Result.Pairs, want.Pairs) {
				t.Errorf("step %d: pairs %v, the oracle's %v", st.Index, st.Result.Pairs, want.Pairs)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if s.Steps != 400 || s.Colliding == 0 || s.Colliding == 400 || len(s.Times) != 400 {
		t.Fatalf("%d steps, %d in contact: want 400 steps, some in contact and some not", s.Steps, s.Colliding)
	}
	var buf bytes.Buffer
	if err := flight.WritePoses(&buf, "", poses); err != nil {
		t.Fatal(err)
	}
	replay, err := flight.ReadPoses(&buf)
	if err != nil {
		t.Fatal(err)
	}
	o.Steps = 1000 // the recording ends first
	s2, err := flight.Fly(env, fly, &flight.Recorded{Poses: replay}, o, func(st *flight.Step) error {
		if !slices.Equal(st.Result.Pairs, pairs[st.Index]) {
			t.Errorf("replayed step %d: pairs %v, recorded %v", st.Index, st.Result.Pairs, pairs[st.Index])
		}
		return nil
	})
	if err != nil || s2.Steps != s.Steps || s2.Pairs != s.Pairs || s2.Colliding != s.Colliding || s2.Stats != s.Stats {
		t.Errorf("replay: %d steps, %d in contact, %d pairs, %+v, %v; want the recorded %d, %d, %d, %+v",
			s2.Steps, s2.Colliding, s2.Pairs, s2.Stats, err, s.Steps, s.Colliding, s.Pairs, s.Stats)
	}
	stop := errors.New("stop")
	s3, err := flight.Fly(env, fly, &flight.Recorded{Poses: replay}, o, func(st *flight.Step) error {
		if st.Index == 4 {
			return stop
		}
		return nil
	})
	if err != stop || s3.Steps != 5 {
		t.Errorf("stopping: %d steps, %v", s3.Steps, err)
	}
}

func build(t *testing.T, m *mesh.TriMesh, b collide.BV) *collide.Model {
	t.Helper()
	mm, err := collide.Build(m, collide.BuildOptions{BV: b})
	if err != nil {
		t.Fatal(err)
	}
	return mm
}

func TestSummary(t *testing.T) {
	s := &flight.Summary{Steps: 4, Times: []time.Duration{4, 1, 3, 2}}
	tests := []struct {
		q    float64
		want time.Duration
	}{{0, 1}, {0.25, 1}, {0.5, 2}, {0.51, 3}, {0.99, 4}, {1, 4}}
	for _, tc := range tests {
		if got := s.Quantile(tc.q); got != tc.want {
			t.Errorf("Quantile(%v) = %v, want %v", tc.q, got, tc.want)
		}
	}
	if s.Mean() != 2 || s.Per(10) != 2.5 {
		t.Errorf("mean %v, per %v", s.Mean(), s.Per(10))
	}
	if (&flight.Summary{}).Quantile(0.5) != 0 || (&flight.Summary{}).Mean() != 0 {
		t.Error("an empty summary has non-zero times")
	}
}

func sameRotation(a, b geom.Mat3, tol float64) bool {
	for i := range 3 {
		for j := range 3 {
			if math.Abs(a[i][j]-b[i][j]) > tol {
				return false
			}
		}
	}
	return true
}

// TestFlyManySteps checks that a flight of a huge number of steps makes
// room for its figures as it flies, not ahead for every step: Options.Steps
// = 2^40 (8 TiB of query times) flies, and stops at its callback's error,
// with the steps flown.
func TestFlyManySteps(t *testing.T) {
	envMesh := gen.Must(gen.Tetrahedra(20, geom.AABB{Max: geom.Vec3{X: 4, Y: 4, Z: 4}}, 0.4, 1))
	flyMesh := gen.Must(gen.Torus(geom.Vec3{}, 0.3, 0.1, 100))
	env, fly := build(t, envMesh, collide.KDOP18), build(t, flyMesh, collide.KDOP18)
	b := mustBilliard(t, flight.BilliardConfig{Start: geom.Vec3{X: 2, Y: 2, Z: 2}, Bounds: geom.AABB{Max: geom.Vec3{X: 4, Y: 4, Z: 4}},
		Speed: 0.05, Spin: 0.05, Turn: 0.5, Seed: 1})
	stop := errors.New("enough")
	for _, ccd := range []bool{false, true} {
		s, err := flight.Fly(env, fly, b, flight.Options{Steps: 1 << 40, CCD: ccd}, func(st *flight.Step) error {
			if st.Index == 9 {
				return stop
			}
			return nil
		})
		if !errors.Is(err, stop) {
			t.Fatalf("ccd %v: error %v, want the callback's", ccd, err)
		}
		if s == nil || len(s.Times) != 10 || cap(s.Times) > flight.PreallocSteps {
			t.Errorf("ccd %v: summary %v: want the 10 steps' times in at most PreallocSteps of room", ccd, s)
		}
	}
}
