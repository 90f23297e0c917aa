package distance

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/collide3d/collide/bench/peers"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// PeerDistance is a peer's answer to one distance query: one pose line of
// `collide-peers --distance NAME ENV FLY POSES` (see bench/peers/README.md).
type PeerDistance struct {
	// Pose is the pose's number in the pose file, from 0.
	Pose int
	// Distance is the smallest distance the peer found between the
	// triangles (0 when it finds two in contact; a peer may report a
	// negative value, which CheckWitness flags).
	Distance float64
	// Env and Fly are the witness triangles the peer names (-1: none).
	Env, Fly int32
	// PEnv and PFly are the peer's closest points, both in the
	// environment's (world) frame; NaN where the driver printed null (a
	// point that is not finite).
	PEnv, PFly geom.Vec3
	// Nanos is the query's wall time in nanoseconds (steady clock).
	Nanos int64
}

// DriverSystems runs `driver --list-distance` and returns the names
// of the distance systems it offers.
func DriverSystems(driver string) ([]string, error) {
	return peers.Names(driver, "--list-distance")
}

// RunPeer runs the driver's distance system on the mesh and pose
// files and returns its answer at every pose, in pose order. It fails with
// a *peers.OutputError when a line of the output is malformed, names a
// triangle out of range or a pose out of order, or when the output has not
// one line per pose of the file; with the driver's message when it fails;
// and with ctx's error when ctx ends first.
func RunPeer(ctx context.Context, driver, system, envPath, flyPath, posesPath string) ([]PeerDistance, error) {
	_, out, err := RunPeerBuild(ctx, driver, system, envPath, flyPath, posesPath)
	return out, err
}

// RunPeerBuild is RunPeer that also returns the build line.
func RunPeerBuild(ctx context.Context, driver, system, envPath, flyPath, posesPath string) (peers.Build, []PeerDistance, error) {
	poses, err := peers.ReadPoses(posesPath)
	if err != nil {
		return peers.Build{}, nil, err
	}
	p, err := peers.Start(ctx, driver, "--distance", system, envPath, flyPath, posesPath)
	if err != nil {
		return peers.Build{}, nil, err
	}
	build, out, perr := ParsePeer(p.Stdout(), system, len(poses))
	werr := p.Wait()
	switch {
	case ctx.Err() != nil:
		return peers.Build{}, nil, fmt.Errorf("collide-peers --distance %s: %w", system, ctx.Err())
	case werr != nil:
		return peers.Build{}, nil, werr
	case perr != nil:
		return peers.Build{}, nil, perr
	}
	return build, out, nil
}

type distancePoseLine struct {
	Pose     *int          `json:"pose"`
	Distance *peers.Float  `json:"distance"`
	Env      *int64        `json:"env"`
	Fly      *int64        `json:"fly"`
	PEnv     []peers.Float `json:"p_env"`
	PFly     []peers.Float `json:"p_fly"`
	Ns       *int64        `json:"ns"`
}

// ParsePeer reads the output of `collide-peers --distance system`
// for a pose file of poses poses: the build line, then one line per pose.
// Errors are *peers.OutputError.
func ParsePeer(r io.Reader, system string, poses int) (peers.Build, []PeerDistance, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	lineNo := 0
	bad := func(text []byte, format string, args ...any) error {
		return peers.BadLine("distance", system, lineNo, text, format, args...)
	}
	next := func() ([]byte, error) {
		line, err := br.ReadBytes('\n')
		if err == io.EOF && len(line) > 0 {
			err = nil
		}
		if err == nil {
			lineNo++
		}
		return line, err
	}

	var build peers.Build
	line, err := next()
	if err != nil {
		lineNo++
		return build, nil, bad(nil, "no build line (%v)", err)
	}
	build, err = peers.ParseBuild(line, system, "distance")
	if err != nil {
		return build, nil, bad(line, "%v", err)
	}

	out := make([]PeerDistance, 0, poses)
	for {
		line, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return build, nil, fmt.Errorf("collide-peers --distance %s: reading the output: %w", system, err)
		}
		i := len(out)
		var l distancePoseLine
		if err := json.Unmarshal(line, &l); err != nil {
			return build, nil, bad(line, "%v", err)
		}
		switch {
		case l.Pose == nil || l.Distance == nil || l.Env == nil || l.Fly == nil || l.PEnv == nil || l.PFly == nil || l.Ns == nil:
			return build, nil, bad(line, "want the fields pose, distance, env, fly, p_env, p_fly and ns")
		case *l.Pose != i:
			return build, nil, bad(line, "pose %d, want %d", *l.Pose, i)
		case i >= poses:
			return build, nil, bad(line, "more lines than the %d poses", poses)
		case *l.Env < -1 || *l.Env >= int64(build.EnvTris):
			return build, nil, bad(line, "env triangle %d out of range (%d triangles)", *l.Env, build.EnvTris)
		case *l.Fly < -1 || *l.Fly >= int64(build.FlyTris):
			return build, nil, bad(line, "fly triangle %d out of range (%d triangles)", *l.Fly, build.FlyTris)
		case len(l.PEnv) != 3 || len(l.PFly) != 3:
			return build, nil, bad(line, "p_env and p_fly must have 3 coordinates")
		case *l.Ns < 0:
			return build, nil, bad(line, "negative time %d ns", *l.Ns)
		}
		out = append(out, PeerDistance{
			Pose: i, Distance: float64(*l.Distance), Env: int32(*l.Env), Fly: int32(*l.Fly),
			PEnv:  geom.V(float64(l.PEnv[0]), float64(l.PEnv[1]), float64(l.PEnv[2])),
			PFly:  geom.V(float64(l.PFly[0]), float64(l.PFly[1]), float64(l.PFly[2])),
			Nanos: *l.Ns,
		})
	}
	if len(out) != poses {
		lineNo++
		return build, nil, bad(nil, "%d pose lines, want %d", len(out), poses)
	}
	return build, out, nil
}

// WitnessProblem classifies what CheckWitness finds wrong.
type WitnessProblem int

const (
	// WitnessTriangle: a witness triangle is missing or out of range.
	WitnessTriangle WitnessProblem = iota
	// WitnessPoint: a witness point is not finite, or not on its triangle.
	WitnessPoint
	// WitnessLength: |p_env − p_fly| is not the reported distance.
	WitnessLength
	// WitnessPair: the two witness triangles are not at the reported
	// distance (their own distance differs).
	WitnessPair
	// WitnessDistance: the reported distance is not the smallest distance
	// over all pairs of triangles (by brute force), or is negative or not
	// finite. This is the only problem with the value itself; the others are
	// problems of the witnesses.
	WitnessDistance
)

func (p WitnessProblem) String() string {
	switch p {
	case WitnessTriangle:
		return "triangle"
	case WitnessPoint:
		return "point"
	case WitnessLength:
		return "length"
	case WitnessPair:
		return "pair"
	case WitnessDistance:
		return "distance"
	}
	return fmt.Sprintf("WitnessProblem(%d)", int(p))
}

// WitnessError is one problem CheckWitness finds in a peer's answer.
type WitnessError struct {
	Pose    int
	Problem WitnessProblem
	Msg     string
}

func (e *WitnessError) Error() string {
	return fmt.Sprintf("pose %d: %s: %s", e.Pose, e.Problem, e.Msg)
}

// BruteForcePairs is the largest number of triangle pairs (env triangles
// times fly triangles) for which CheckWitness compares the distance
// with the brute-force minimum; above it that check is skipped.
const BruteForcePairs = 1 << 22

// RelTol is the relative tolerance of the distance comparisons of
// CheckWitness, beside its absolute tol.
const RelTol = 1e-6

// BruteForceDistance returns the smallest distance between a triangle of
// env and one of fly at pose (geom.TriTriDistance over every pair) and the
// first pair that realises it.
func BruteForceDistance(env, fly *mesh.TriMesh, pose geom.Pose) (dist float64, e, f int32) {
	moved := make([]geom.Triangle, fly.NumTriangles())
	for j := range moved {
		moved[j] = pose.ApplyTriangle(fly.Triangle(j))
	}
	dist, e, f = math.Inf(1), -1, -1
	for i := range env.NumTriangles() {
		a := env.Triangle(i)
		box := a.Bounds()
		for j := range moved {
			// A cheap lower bound first: the distance of the boxes.
			if boxDistance2(box, moved[j].Bounds()) >= dist*dist {
				continue
			}
			d, _, _ := geom.TriTriDistance(a, moved[j])
			if d < dist {
				dist, e, f = d, int32(i), int32(j)
			}
		}
	}
	return dist, e, f
}

func boxDistance2(a, b geom.AABB) float64 {
	gap := func(lo1, hi1, lo2, hi2 float64) float64 {
		switch {
		case hi1 < lo2:
			return lo2 - hi1
		case hi2 < lo1:
			return lo1 - hi2
		}
		return 0
	}
	x := gap(a.Min.X, a.Max.X, b.Min.X, b.Max.X)
	y := gap(a.Min.Y, a.Max.Y, b.Min.Y, b.Max.Y)
	z := gap(a.Min.Z, a.Max.Z, b.Min.Z, b.Max.Z)
	return x*x + y*y + z*z
}

// CheckWitness verifies a peer's answer d at pose independently of
// the peer: that the witness triangles exist, that PEnv lies on env's
// triangle d.Env and PFly on fly's triangle d.Fly moved by pose (within
// tol), that |PEnv − PFly| is d.Distance, that the two triangles are at
// d.Distance (geom.TriTriDistance), and, when the meshes have at most
// BruteForcePairs pairs, that d.Distance is the brute-force minimum over
// all pairs. Distances are compared within tol or a relative
// RelTol, whichever is larger. It returns nil, or the problems
// found as *WitnessError joined (errors.Join); a problem of kind
// WitnessDistance means the value is wrong, the others that the witnesses
// are.
func CheckWitness(envMesh, flyMesh *mesh.TriMesh, pose geom.Pose, d PeerDistance, tol float64) error {
	want := math.NaN()
	if envMesh.NumTriangles()*flyMesh.NumTriangles() <= BruteForcePairs {
		want, _, _ = BruteForceDistance(envMesh, flyMesh, pose)
	}
	return checkWitness(envMesh, flyMesh, pose, d, tol, want)
}

// checkWitness is CheckWitness with the brute-force distance given
// (NaN: unknown, not compared).
func checkWitness(envMesh, flyMesh *mesh.TriMesh, pose geom.Pose, d PeerDistance, tol, want float64) error {
	var errs []error
	add := func(p WitnessProblem, format string, args ...any) {
		errs = append(errs, &WitnessError{Pose: d.Pose, Problem: p, Msg: fmt.Sprintf(format, args...)})
	}
	near := func(a, b float64) bool {
		return math.Abs(a-b) <= max(tol, RelTol*max(math.Abs(a), math.Abs(b)))
	}
	if math.IsNaN(d.Distance) || math.IsInf(d.Distance, 0) || d.Distance < 0 {
		add(WitnessDistance, "distance %g is not a finite number >= 0", d.Distance)
	}
	if !math.IsNaN(want) && !near(d.Distance, want) {
		add(WitnessDistance, "distance %.17g, brute force %.17g", d.Distance, want)
	}
	okTris := true
	if d.Env < 0 || int(d.Env) >= envMesh.NumTriangles() {
		add(WitnessTriangle, "env triangle %d out of range (%d triangles)", d.Env, envMesh.NumTriangles())
		okTris = false
	}
	if d.Fly < 0 || int(d.Fly) >= flyMesh.NumTriangles() {
		add(WitnessTriangle, "fly triangle %d out of range (%d triangles)", d.Fly, flyMesh.NumTriangles())
		okTris = false
	}
	okPoints := d.PEnv.IsFinite() && d.PFly.IsFinite()
	if !okPoints {
		add(WitnessPoint, "points %v and %v are not finite", d.PEnv, d.PFly)
	}
	if okTris {
		te := envMesh.Triangle(int(d.Env))
		tf := pose.ApplyTriangle(flyMesh.Triangle(int(d.Fly)))
		if okPoints {
			if off := d.PEnv.Distance(geom.ClosestPointTriangle(d.PEnv, te)); off > tol {
				add(WitnessPoint, "p_env %v is %.3g off env triangle %d", d.PEnv, off, d.Env)
			}
			if off := d.PFly.Distance(geom.ClosestPointTriangle(d.PFly, tf)); off > tol {
				add(WitnessPoint, "p_fly %v is %.3g off fly triangle %d (at the pose)", d.PFly, off, d.Fly)
			}
		}
		if pd, _, _ := geom.TriTriDistance(te, tf); !near(d.Distance, pd) {
			add(WitnessPair, "triangles %d and %d are at %.17g, not %.17g", d.Env, d.Fly, pd, d.Distance)
		}
	}
	if okPoints {
		if l := d.PEnv.Distance(d.PFly); !near(l, d.Distance) {
			add(WitnessLength, "|p_env - p_fly| = %.17g, distance %.17g", l, d.Distance)
		}
	}
	return errors.Join(errs...)
}

// WitnessProblems returns the *WitnessError in err (as CheckWitness
// returns it).
func WitnessProblems(err error) []*WitnessError {
	var out []*WitnessError
	var walk func(error)
	walk = func(err error) {
		if err == nil {
			return
		}
		if w, ok := err.(*WitnessError); ok {
			out = append(out, w)
			return
		}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
		}
	}
	walk(err)
	return out
}
