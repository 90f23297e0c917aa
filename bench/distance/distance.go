package distance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/internal/flights"
	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/bench/peers"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// BVs are collide's bounding volumes of Run by default:
// RSS (FCL's distance volume), OBB and the default 18-DOP.
var BVs = []string{"rss", "obb", "kdop18"}

// Config configures Run.
type Config struct {
	// Env and Fly are the meshes, Poses the poses of Fly (Env at the
	// identity).
	Env, Fly *mesh.TriMesh
	Poses    []geom.Pose
	// Driver is the path of collide-peers. Empty: collide alone.
	Driver string
	// BVs are collide's bounding volumes (nil: BVs).
	BVs []string
	// Systems are the driver's distance systems (nil: all it lists).
	Systems []string
	// Rounds is how many times every system answers every pose, the
	// systems taking turns; a pose's time is the fastest of its rounds
	// (0: 3).
	Rounds int
	// Timeout bounds one run of the driver (0: 10 minutes).
	Timeout time.Duration
	// Tol is the absolute tolerance of the witness checks and of distance
	// agreement near 0 (0: 1e-9 times the scale of the scene: the largest
	// coordinate of the meshes' boxes plus the largest translation).
	Tol float64
}

// Row is one system's line of the comparison.
type Row struct {
	// System is "collide BV" or the driver's name ("fcl-rss").
	System string
	// Err is set when the system failed; the figures are then zero.
	Err string
	// Build is the time to build both models (the fastest of the rounds);
	// Bytes what the driver's models retain (collide: Model.Bytes of both).
	Build time.Duration
	Bytes int64
	// Median and P90 are quantiles of the time per query (each pose's
	// fastest round).
	Median, P90 time.Duration
	// MaxRelDiff is the largest difference of the distance from the
	// reference over the poses, relative to the reference (or to Tol when
	// the reference is below it). Off counts the poses whose distance is
	// off by more than Tol and a relative RelTol.
	MaxRelDiff float64
	Off        int
	// Valid counts the poses whose witnesses pass CheckWitness
	// (every problem but WitnessDistance); Problems counts the poses with
	// each kind of witness problem.
	Valid    int
	Problems map[WitnessProblem]int
	// Answers are the system's answers, in pose order.
	Answers []PeerDistance
}

// Report is the result of Run.
type Report struct {
	Poses, EnvTris, FlyTris int
	// Reference says what the distances are compared with: "brute force"
	// (every pair of triangles, when there are at most BruteForcePairs) or
	// a collide system (flights.ReferenceBV's if it ran, else the first).
	Reference string
	// Contact counts the poses whose reference distance is 0.
	Contact int
	Tol     float64
	Rows    []Row
}

// distanceSystem is one system of Run: collide with a volume,
// or the driver's.
type distanceSystem struct {
	name string
	bv   collide.BV
	peer bool
	row  *Row
	// times holds each pose's fastest time so far.
	times []time.Duration
	// q is collide's scratch state, kept across the rounds.
	q collide.Query
}

// Run answers every pose with collide's Query.Distance (one
// model pair per volume of c.BVs) and with the driver's distance systems,
// and compares them: time per query, agreement of the distances with the
// reference, validity of the witnesses. A failing driver system is
// reported in its row; an error is returned for bad inputs or when
// collide fails.
func Run(ctx context.Context, c Config) (*Report, error) {
	if c.Env == nil || c.Fly == nil || len(c.Poses) == 0 {
		return nil, errors.New("distance.Run: no meshes or no poses")
	}
	if c.BVs == nil {
		c.BVs = BVs
	}
	if c.Rounds <= 0 {
		c.Rounds = 3
	}
	if c.Timeout <= 0 {
		c.Timeout = 10 * time.Minute
	}
	if c.Tol <= 0 {
		c.Tol = 1e-9 * distanceScale(c.Env, c.Fly, c.Poses)
	}
	rep := &Report{Poses: len(c.Poses), EnvTris: c.Env.NumTriangles(), FlyTris: c.Fly.NumTriangles(), Tol: c.Tol}

	var systems []*distanceSystem
	for _, name := range c.BVs {
		bv, err := collide.ParseBV(name)
		if err != nil {
			return nil, err
		}
		systems = append(systems, &distanceSystem{name: "collide " + bv.String(), bv: bv})
	}
	var envPath, flyPath, posesPath string
	if c.Driver != "" {
		peerNames := c.Systems
		if peerNames == nil {
			var err error
			if peerNames, err = DriverSystems(c.Driver); err != nil {
				return nil, err
			}
		}
		for _, p := range peerNames {
			systems = append(systems, &distanceSystem{name: p, peer: true})
		}
		dir, err := os.MkdirTemp("", "collide-distance-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		envPath, flyPath, posesPath = filepath.Join(dir, "env.obj"), filepath.Join(dir, "fly.obj"), filepath.Join(dir, "poses.txt")
		if err := peers.WriteInputs(envPath, flyPath, posesPath, c.Env, c.Fly, c.Poses, fmt.Sprintf("%d poses of the flying model", len(c.Poses))); err != nil {
			return nil, err
		}
	}
	for _, s := range systems {
		s.row = &Row{System: s.name, Problems: map[WitnessProblem]int{}}
		s.times = make([]time.Duration, len(c.Poses))
	}

	for round := range c.Rounds {
		for k := range systems {
			s := systems[(k+round)%len(systems)]
			if s.row.Err != "" {
				continue
			}
			var err error
			if s.peer {
				err = s.runPeer(ctx, c, envPath, flyPath, posesPath, round)
			} else {
				err = s.runCollide(c, round)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", s.name, err)
				}
			}
			if err != nil {
				s.row.Err = err.Error()
				s.row.Answers = nil
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
		}
	}

	// The reference distances: brute force, or collide's answers with
	// flights.ReferenceBV (else its first volume).
	var refSys *distanceSystem
	for _, s := range systems {
		if !s.peer && s.row.Err == "" && (refSys == nil || s.bv.String() == flights.ReferenceBV) {
			refSys = s
		}
	}
	ref := make([]float64, len(c.Poses))
	switch {
	case rep.EnvTris*rep.FlyTris <= BruteForcePairs:
		rep.Reference = "brute force"
		for i, p := range c.Poses {
			ref[i], _, _ = BruteForceDistance(c.Env, c.Fly, p)
		}
	case refSys != nil:
		rep.Reference = refSys.name
		for i, a := range refSys.row.Answers {
			ref[i] = a.Distance
		}
	default:
		return nil, fmt.Errorf("distance.Run: %d×%d triangle pairs are too many for brute force, and no collide system to compare with", rep.EnvTris, rep.FlyTris)
	}
	for _, d := range ref {
		if d == 0 {
			rep.Contact++
		}
	}
	for _, s := range systems {
		row := s.row
		rep.Rows = append(rep.Rows, *row)
		if row.Err != "" {
			continue
		}
		out := &rep.Rows[len(rep.Rows)-1]
		out.Median, out.P90 = md.Quantile(s.times, 0.5), md.Quantile(s.times, 0.9)
		known := math.NaN()
		for i, a := range row.Answers {
			diff := math.Abs(a.Distance - ref[i])
			if math.IsNaN(diff) {
				diff = math.Inf(1)
			}
			out.MaxRelDiff = max(out.MaxRelDiff, diff/max(ref[i], c.Tol))
			if diff > max(c.Tol, RelTol*ref[i]) {
				out.Off++
			}
			want := known
			if rep.Reference == "brute force" {
				want = ref[i]
			}
			valid := true
			for _, w := range WitnessProblems(checkWitness(c.Env, c.Fly, c.Poses[i], a, c.Tol, want)) {
				if w.Problem != WitnessDistance {
					valid = false
					out.Problems[w.Problem]++
				}
			}
			if valid {
				out.Valid++
			}
		}
	}
	return rep, nil
}

// runCollide builds collide's models and answers every pose with
// Query.Distance once (after an untimed query at the first pose, as the
// driver does), keeping each pose's fastest time.
func (s *distanceSystem) runCollide(c Config, round int) error {
	t0 := time.Now()
	env, err := collide.Build(c.Env, collide.BuildOptions{BV: s.bv})
	if err != nil {
		return err
	}
	fly, err := collide.Build(c.Fly, collide.BuildOptions{BV: s.bv})
	if err != nil {
		return err
	}
	fly.PrepareFlying()
	build := time.Since(t0)
	if round == 0 || build < s.row.Build {
		s.row.Build = build
	}
	s.row.Bytes = env.Bytes() + fly.Bytes()
	answers := make([]PeerDistance, len(c.Poses))
	// One untimed query first, as the driver does.
	if _, err := s.q.Distance(env, fly, c.Poses[0], collide.DistanceOptions{}); err != nil {
		return fmt.Errorf("pose 0: %w", err)
	}
	for i, p := range c.Poses {
		t := time.Now()
		r, err := s.q.Distance(env, fly, p, collide.DistanceOptions{})
		dt := time.Since(t)
		if err != nil {
			return fmt.Errorf("pose %d: %w", i, err)
		}
		answers[i] = PeerDistance{Pose: i, Distance: r.Distance, Env: r.Env, Fly: r.Fly, PEnv: r.PEnv, PFly: r.PFly, Nanos: dt.Nanoseconds()}
		if round == 0 || dt < s.times[i] {
			s.times[i] = dt
		}
	}
	s.row.Answers = answers
	return nil
}

// runPeer answers every pose with the driver's system once, keeping each
// pose's fastest time.
func (s *distanceSystem) runPeer(ctx context.Context, c Config, envPath, flyPath, posesPath string, round int) error {
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	b, answers, err := RunPeerBuild(ctx, c.Driver, s.name, envPath, flyPath, posesPath)
	if err != nil {
		return err
	}
	if round == 0 || b.Build < s.row.Build {
		s.row.Build = b.Build
	}
	s.row.Bytes = b.Bytes
	for i, a := range answers {
		dt := time.Duration(a.Nanos)
		if round == 0 || dt < s.times[i] {
			s.times[i] = dt
		}
	}
	s.row.Answers = answers
	return nil
}

// distanceScale returns the largest coordinate of the meshes' boxes plus
// the largest translation of the poses (at least 1).
func distanceScale(env, fly *mesh.TriMesh, poses []geom.Pose) float64 {
	big := func(b geom.AABB) float64 {
		m := b.Min.Abs().Max(b.Max.Abs())
		return max(m.X, m.Y, m.Z)
	}
	t := 0.0
	for _, p := range poses {
		a := p.T.Abs()
		t = max(t, a.X, a.Y, a.Z)
	}
	return max(1, big(env.Bounds())+big(fly.Bounds())+t)
}

// WriteMarkdown prints the report as a markdown table: per system,
// the build time, the median and 90th percentile of the time per query
// (µs), the largest relative difference of its distances from the
// reference and the poses off by more than a relative RelTol, and
// the poses whose witnesses are valid (with the kinds of the invalid ones).
func (r *Report) WriteMarkdown(w io.Writer) error {
	ew := &md.ErrWriter{W: w}
	ew.Printf("%d poses (%d in contact), %d × %d triangles; distances compared with %s; witness tolerance %.3g.\n\n",
		r.Poses, r.Contact, r.EnvTris, r.FlyTris, r.Reference, r.Tol)
	ew.Printf("| system | build ms | median µs | p90 µs | max rel. diff | off | valid witnesses |\n")
	ew.Printf("|---|--:|--:|--:|--:|--:|---|\n")
	for _, row := range r.Rows {
		if row.Err != "" {
			ew.Printf("| %s | failed: %s | | | | | |\n", row.System, row.Err)
			continue
		}
		valid := fmt.Sprintf("%d/%d", row.Valid, r.Poses)
		var kinds []string
		for _, k := range []WitnessProblem{WitnessTriangle, WitnessPoint, WitnessLength, WitnessPair} {
			if n := row.Problems[k]; n > 0 {
				kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
			}
		}
		if len(kinds) > 0 {
			valid += " (" + strings.Join(kinds, ", ") + ")"
		}
		ew.Printf("| %s | %.2f | %.1f | %.1f | %.2g | %d | %s |\n", row.System,
			float64(row.Build)/float64(time.Millisecond), md.Micros(row.Median), md.Micros(row.P90), row.MaxRelDiff, row.Off, valid)
	}
	return ew.Err
}
