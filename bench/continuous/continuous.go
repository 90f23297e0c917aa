package continuous

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/internal/flights"
	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/bench/peers"
	"github.com/collide3d/collide/ccd"
	"github.com/collide3d/collide/geom"
)

// Config configures Run.
type Config struct {
	// Scenes are the scenes (nil: Scenes(Quick, Seed)).
	Scenes []Scene
	Quick  bool
	Seed   uint64
	// Driver is the path of collide-peers. Empty: collide and the oracle
	// alone.
	Driver string
	// Systems are the driver's continuous collision systems (nil: all it
	// lists).
	Systems []string
	// BV is the bounding volume of collide's models (empty: flights.ReferenceBV).
	BV string
	// Samples is how many evenly spaced times of each motion the sampling
	// oracle checks (0: 1001, or 201 with Quick).
	Samples int
	// Rounds is how many times every system answers every motion, the
	// systems taking turns; a motion's time is the fastest of its rounds
	// (0: 3, or 2 with Quick).
	Rounds int
	// Tol is the tolerance on times of contact (0: DefaultTol).
	Tol float64
	// MotionTimeout bounds the driver's time on one motion (0:
	// DefaultMotionTimeout); Timeout one run of the driver (0: 30 minutes).
	MotionTimeout, Timeout time.Duration
	// Progress, if set, is told what is being run.
	Progress func(string)
}

// DefaultTol is Run' default tolerance on times of contact.
const DefaultTol = 1e-3

// Path is the path a system moves the flying model on between two
// poses.
type Path int

const (
	// PathLinear is collide's ccd.Motion: the translation linear in time,
	// the rotation turning at a constant angular velocity about a fixed
	// axis through the model's origin. FCL's CCDM_LINEAR (InterpMotion
	// with its reference point at the origin) is the same motion, and so
	// are CCDM_TRANS and CCDM_SCREW on motions that do not turn.
	PathLinear Path = iota
	// PathScrew is FCL's CCDM_SCREW (ScrewMotion): a screw about a fixed
	// axis in space. Its poses at 0 and 1 are the motion's, but a turning
	// motion goes through other poses in between.
	PathScrew
)

func (p Path) String() string {
	if p == PathScrew {
		return "screw"
	}
	return "linear"
}

// pathOf returns the path of a driver system, by its name.
func pathOf(system string) Path {
	if strings.Contains(system, "-screw") {
		return PathScrew
	}
	return PathLinear
}

// Verdict is what Run makes of a system's answer for a motion.
type Verdict int

const (
	// Agree: the answer agrees with the reference (no contact both, or
	// contact both at times within the tolerance).
	Agree Verdict = iota
	// Miss: no contact, but the reference has one (collide's answer or
	// a sampled contact).
	Miss
	// Invent: a contact, but collide certifies that there is none (no
	// hit, no maybe) and sampling saw none; or, where collide does not
	// answer for the path (a screw), sampling saw none and the models are
	// apart at the reported time by more than the tolerance allows.
	Invent
	// Late: a contact later than the reference's by more than the
	// tolerance: a sampled contact, or collide's, proves an earlier one.
	Late
	// Early: a contact earlier than the reference's by more than the
	// tolerance: collide proves no contact before its time, or the models
	// are apart at the reported time by more than the tolerance allows.
	Early
	// Unsure: no reference to compare with (collide says maybe, or a
	// screw contact that sampling did not see, with the models close at
	// its time).
	Unsure
	// Failed: the system failed on the motion.
	Failed
	// Skipped: the system does not take the motion.
	Skipped
	numVerdicts
)

func (v Verdict) String() string {
	switch v {
	case Agree:
		return "agree"
	case Miss:
		return "miss"
	case Invent:
		return "invent"
	case Late:
		return "late"
	case Early:
		return "early"
	case Unsure:
		return "unsure"
	case Failed:
		return "error"
	case Skipped:
		return "skipped"
	}
	return fmt.Sprintf("CCDVerdict(%d)", int(v))
}

// Answer is one system's answer for one motion, and its verdict.
type Answer struct {
	// Hit says that the system reports a contact; Lo and Hi then bound
	// its time (collide's interval; Lo = Hi = time_of_contact for FCL).
	Hit    bool
	Lo, Hi float64
	// Maybe is collide's TOIResult.Maybe.
	Maybe bool
	// Nanos is the fastest time of the query over the rounds.
	Nanos int64
	// Err and Skipped are set when the system failed on, or did not take,
	// the motion.
	Err, Skipped string
	// Unstable says that another round gave another answer: Other (as
	// Answer.Text puts it).
	Unstable bool
	Other    string
	Verdict  Verdict
	// Gap is the distance between the models at the reported time on the
	// system's path (measured for the contacts that are not agreed with;
	// NaN otherwise), less its error bound.
	Gap float64
	// Why says, for a verdict other than agree, what the reference is.
	Why string
}

// Text says what the answer is, in a few words.
func (a Answer) Text() string {
	switch {
	case a.Err != "":
		return "failed"
	case a.Skipped != "":
		return "skipped"
	case a.Hit && a.Lo == a.Hi:
		return fmt.Sprintf("contact at %.9g", a.Lo)
	case a.Hit:
		return fmt.Sprintf("contact in [%.9g, %.9g]", a.Lo, a.Hi)
	case a.Maybe:
		return "maybe"
	}
	return "no contact"
}

// Sampling is what the sampling oracle saw on one motion.
type Sampling struct {
	// Contact says that one of the sampled times has a contact (exact
	// discrete check, collide.Check); First is then the earliest time found
	// in contact by bisecting between the last free sample and the first
	// in contact: the first contact of the motion is at or before First.
	Contact bool
	First   float64
	// Checks counts the discrete checks.
	Checks int
}

// Motion is the reference data of one motion.
type Motion struct {
	// Turns says that the rotations of the two poses differ.
	Turns bool
	// Speed bounds how fast a point of the flying model moves on the
	// linear path (distance per unit of time); ScrewSpeed on the screw.
	Speed, ScrewSpeed float64
	// Sampled is the oracle on the linear path; Screw on the screw path
	// (the same when the motion does not turn).
	Sampled, Screw Sampling
}

// Row is one system's line of a scene.
type Row struct {
	// System is "collide BV" or the driver's name.
	System string
	Path   Path
	// Err is set when the system failed as a whole (the figures are then
	// zero).
	Err string
	// Build is the time to build both models (the fastest of the rounds).
	Build time.Duration
	// Counts counts the motions of each verdict.
	Counts [numVerdicts]int
	// Unstable counts the motions whose answer changed between rounds.
	Unstable int
	// Median and P90 are quantiles of the time per motion over the motions
	// the system answered.
	Median, P90 time.Duration
	// MaxLate is the largest delay of a late contact (its time less the
	// reference's); MaxInventGap the largest gap at an invented contact.
	MaxLate, MaxInventGap float64
	Answers               []Answer
}

// SceneReport is the comparison on one scene.
type SceneReport struct {
	Name, About      string
	EnvTris, FlyTris int
	// Motions holds the reference data of each motion.
	Motions []Motion
	// Rows are collide's row, then the driver's systems.
	Rows []Row
}

// Report is the result of Run.
type Report struct {
	BV      string
	Samples int
	Rounds  int
	Tol     float64
	Scenes  []SceneReport
	Elapsed time.Duration
}

// Run flies every motion of every scene through collide's
// TimeOfImpact and through the driver's continuous collision systems
// (FCL's continuousCollide), finds each motion's contacts by dense
// sampling (exact discrete checks at c.Samples times, the first contact
// refined by bisection), and classifies every answer against the
// reference: collide's answer where it is certified, the sampled contacts
// (which prove a contact at or before their time), and the distance of the
// models at a reported time (which, over the fastest a point moves, proves
// no contact within that much time of it). A failing driver system is
// reported in its row; an error is returned for bad inputs or when collide
// fails.
func Run(ctx context.Context, c Config) (*Report, error) {
	start := time.Now()
	if c.Scenes == nil {
		var err error
		if c.Scenes, err = Scenes(c.Quick, c.Seed); err != nil {
			return nil, err
		}
	}
	if c.BV == "" {
		c.BV = flights.ReferenceBV
	}
	if c.Samples <= 0 {
		c.Samples = 1001
		if c.Quick {
			c.Samples = 201
		}
	}
	if c.Samples < 2 {
		c.Samples = 2
	}
	if c.Rounds <= 0 {
		c.Rounds = 3
		if c.Quick {
			c.Rounds = 2
		}
	}
	if c.Tol <= 0 {
		c.Tol = DefaultTol
	}
	if c.Timeout <= 0 {
		c.Timeout = 30 * time.Minute
	}
	bv, err := collide.ParseBV(c.BV)
	if err != nil {
		return nil, err
	}
	var peerNames []string
	if c.Driver != "" {
		peerNames = c.Systems
		if peerNames == nil {
			if peerNames, err = DriverSystems(c.Driver); err != nil {
				return nil, err
			}
		}
	}
	progress := func(format string, args ...any) {
		if c.Progress != nil {
			c.Progress(fmt.Sprintf(format, args...))
		}
	}
	rep := &Report{BV: bv.String(), Samples: c.Samples, Rounds: c.Rounds, Tol: c.Tol}
	for _, s := range c.Scenes {
		if s.Env == nil || s.Fly == nil || len(s.Poses) < 2 {
			return nil, fmt.Errorf("continuous.Run: scene %q has no meshes or fewer than two poses", s.Name)
		}
		sr, err := runCCDScene(ctx, c, bv, peerNames, s, progress)
		if err != nil {
			return nil, fmt.Errorf("scene %s: %w", s.Name, err)
		}
		rep.Scenes = append(rep.Scenes, *sr)
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// ccdScene holds a scene's models and motions while it runs.
type ccdScene struct {
	c        Config
	env, fly *collide.Model
	motions  []ccd.Motion
	screws   []screw
	q        collide.Query
}

func runCCDScene(ctx context.Context, c Config, bv collide.BV, peerNames []string, s Scene, progress func(string, ...any)) (*SceneReport, error) {
	sc := &ccdScene{c: c}
	var err error
	if sc.env, err = collide.Build(s.Env, collide.BuildOptions{BV: bv}); err != nil {
		return nil, err
	}
	if sc.fly, err = collide.Build(s.Fly, collide.BuildOptions{BV: bv}); err != nil {
		return nil, err
	}
	sc.fly.PrepareFlying()
	n := len(s.Poses) - 1
	rho := 0.0
	for _, v := range s.Fly.Verts {
		rho = max(rho, v.Norm())
	}
	sr := &SceneReport{Name: s.Name, About: s.About, EnvTris: s.Env.NumTriangles(), FlyTris: s.Fly.NumTriangles(), Motions: make([]Motion, n)}
	for i := range n {
		m := ccd.Motion{From: s.Poses[i], To: s.Poses[i+1]}
		sc.motions = append(sc.motions, m)
		sw := newScrew(m)
		sc.screws = append(sc.screws, sw)
		_, angle := m.Rotation()
		mi := &sr.Motions[i]
		mi.Turns = !m.Translating()
		mi.Speed = m.To.T.Sub(m.From.T).Norm() + angle*rho
		mi.ScrewSpeed = sw.speed(rho)
	}

	// The oracle.
	progress("%s: sampling %d motions at %d times", s.Name, n, c.Samples)
	for i, m := range sc.motions {
		mi := &sr.Motions[i]
		if mi.Sampled, err = sc.sample(m.At); err != nil {
			return nil, fmt.Errorf("motion %d: %w", i, err)
		}
		mi.Screw = mi.Sampled
		if mi.Turns {
			if mi.Screw, err = sc.sample(sc.screws[i].at); err != nil {
				return nil, fmt.Errorf("motion %d: %w", i, err)
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}

	// The systems, taking turns.
	type system struct {
		row   *Row
		peer  bool
		times []int64
	}
	systems := []*system{{row: &Row{System: "collide " + bv.String(), Path: PathLinear}}}
	for _, p := range peerNames {
		systems = append(systems, &system{row: &Row{System: p, Path: pathOf(p)}, peer: true})
	}
	var envPath, flyPath, posesPath string
	if len(peerNames) > 0 {
		dir, err := os.MkdirTemp("", "collide-ccd-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		envPath, flyPath, posesPath = filepath.Join(dir, "env.obj"), filepath.Join(dir, "fly.obj"), filepath.Join(dir, "motions.txt")
		if err := peers.WriteInputs(envPath, flyPath, posesPath, s.Env, s.Fly, s.Poses, fmt.Sprintf("%d poses of the flying model", len(s.Poses))); err != nil {
			return nil, err
		}
	}
	for round := range c.Rounds {
		for k := range systems {
			sy := systems[(k+round)%len(systems)]
			if sy.row.Err != "" {
				continue
			}
			progress("%s: %s, round %d of %d", s.Name, sy.row.System, round+1, c.Rounds)
			var answers []Answer
			var build time.Duration
			if sy.peer {
				rctx, cancel := context.WithTimeout(ctx, c.Timeout)
				b, got, err := RunPeer(rctx, c.Driver, sy.row.System, envPath, flyPath, posesPath, c.MotionTimeout)
				cancel()
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				if err != nil {
					sy.row.Err = err.Error()
					sy.row.Answers = nil
					continue
				}
				build = b.Build
				for _, a := range got {
					answers = append(answers, Answer{Hit: a.Hit, Lo: a.TOI, Hi: a.TOI, Nanos: a.Nanos, Err: a.Err, Skipped: a.Skipped})
				}
			} else {
				if build, answers, err = sc.runCollide(); err != nil {
					return nil, err
				}
			}
			if round == 0 || build < sy.row.Build {
				sy.row.Build = build
			}
			if sy.row.Answers == nil {
				sy.row.Answers = answers
				sy.times = make([]int64, len(answers))
				for i, a := range answers {
					sy.times[i] = a.Nanos
				}
				continue
			}
			for i, a := range answers {
				old := &sy.row.Answers[i]
				if a.Hit != old.Hit || a.Hit && (a.Lo != old.Lo || a.Hi != old.Hi) || a.Maybe != old.Maybe || (a.Err == "") != (old.Err == "") {
					old.Unstable = true
					old.Other = a.Text()
				}
				if a.Err == "" && a.Skipped == "" && (old.Err != "" || a.Nanos < sy.times[i]) {
					sy.times[i] = a.Nanos
				}
			}
		}
	}

	// The verdicts, collide's first: the peers' reference uses its answers.
	var collideAnswers []Answer
	for _, sy := range systems {
		row := sy.row
		if row.Err == "" {
			for i := range row.Answers {
				row.Answers[i].Nanos = sy.times[i]
			}
			if !sy.peer {
				collideAnswers = row.Answers
			}
			if err := sc.judge(sr, row, collideAnswers, !sy.peer); err != nil {
				return nil, err
			}
		}
		sr.Rows = append(sr.Rows, *row)
	}
	return sr, nil
}

// runCollide answers every motion with collide's TimeOfImpact (its models
// built again, timed as the build).
func (sc *ccdScene) runCollide() (time.Duration, []Answer, error) {
	t0 := time.Now()
	bv := sc.env.BV()
	env, err := collide.Build(sc.env.Mesh(), collide.BuildOptions{BV: bv})
	if err != nil {
		return 0, nil, err
	}
	fly, err := collide.Build(sc.fly.Mesh(), collide.BuildOptions{BV: bv})
	if err != nil {
		return 0, nil, err
	}
	fly.PrepareFlying()
	build := time.Since(t0)
	out := make([]Answer, len(sc.motions))
	// One untimed query first, as the driver does.
	if _, err := sc.q.TimeOfImpact(env, fly, sc.motions[0].From, sc.motions[0].To); err != nil {
		return 0, nil, fmt.Errorf("motion 0: %w", err)
	}
	for i, m := range sc.motions {
		t := time.Now()
		r, err := sc.q.TimeOfImpact(env, fly, m.From, m.To)
		dt := time.Since(t)
		if err != nil {
			return 0, nil, fmt.Errorf("motion %d: %w", i, err)
		}
		out[i] = Answer{Hit: r.Hit, Maybe: r.Maybe, Nanos: dt.Nanoseconds()}
		if r.Hit {
			out[i].Lo, out[i].Hi = r.TOI.Lo, r.TOI.Hi
		}
	}
	return build, out, nil
}

// sample runs the sampling oracle on the path at.
func (sc *ccdScene) sample(at func(float64) geom.Pose) (Sampling, error) {
	n := sc.c.Samples
	var s Sampling
	check := func(t float64) (bool, error) {
		s.Checks++
		r, err := sc.q.Check(sc.env, sc.fly, at(t), collide.QueryOptions{})
		return r.Collide, err
	}
	free := math.NaN()
	for k := range n {
		t := float64(k) / float64(n-1)
		hit, err := check(t)
		if err != nil {
			return s, fmt.Errorf("t = %g: %w", t, err)
		}
		if !hit {
			free = t
			continue
		}
		s.Contact, s.First = true, t
		if k == 0 {
			return s, nil
		}
		// Bisect between the last free sample and t: any time found in
		// contact bounds the first contact from above.
		lo, hi := free, t
		for range 60 {
			mid := lo + (hi-lo)/2
			if mid <= lo || mid >= hi {
				break
			}
			hit, err := check(mid)
			if err != nil {
				return s, fmt.Errorf("t = %g: %w", mid, err)
			}
			if hit {
				hi = mid
			} else {
				lo = mid
			}
		}
		s.First = hi
		return s, nil
	}
	s.First = math.NaN()
	return s, nil
}

// gap returns the distance of the models at time t of motion i on path p,
// less its error bound (at least 0).
func (sc *ccdScene) gap(i int, p Path, t float64) (float64, error) {
	pose := sc.motions[i].At(t)
	if p == PathScrew {
		pose = sc.screws[i].at(t)
	}
	r, err := sc.q.Distance(sc.env, sc.fly, pose, collide.DistanceOptions{})
	if err != nil {
		return 0, err
	}
	return max(r.Distance-r.Bound, 0), nil
}

// judge gives every answer of row its verdict, and sums them up. collide
// holds collide's answers (nil if it failed); self says that row is
// collide's own, judged against the sampling alone.
func (sc *ccdScene) judge(sr *SceneReport, row *Row, collideAnswers []Answer, self bool) error {
	tol := sc.c.Tol
	var times []time.Duration
	for i := range row.Answers {
		a := &row.Answers[i]
		a.Gap = math.NaN()
		mi := sr.Motions[i]
		path := row.Path
		if !mi.Turns {
			path = PathLinear // every path is the straight one
		}
		samp, speed := mi.Sampled, mi.Speed
		if path == PathScrew {
			samp, speed = mi.Screw, mi.ScrewSpeed
		}
		// slack is the gap that proves no contact within tol of a time: no
		// point moves faster than speed (with some room for rounding).
		slack := tol*speed + 1e-9
		// The reference: a contact proved at or before upper; none before
		// lower (collide's, when sampling does not contradict it); no
		// contact at all (certified: collide says so, sampling agrees;
		// sampled: only sampling says so).
		var col *Answer
		if !self && path == PathLinear && collideAnswers != nil && collideAnswers[i].Err == "" {
			col = &collideAnswers[i]
		}
		contact := samp.Contact || col != nil && col.Hit
		upper, lower := math.Inf(1), math.NaN()
		if samp.Contact {
			upper = samp.First
		}
		if col != nil && col.Hit {
			upper = min(upper, col.Hi)
			if !samp.Contact || col.Lo <= samp.First {
				lower = col.Lo
			}
		}
		certifiedNone := !contact && col != nil && !col.Maybe
		ref := func() string {
			var parts []string
			if col != nil {
				switch {
				case col.Hit:
					parts = append(parts, fmt.Sprintf("collide [%.9g, %.9g]", col.Lo, col.Hi))
				case col.Maybe:
					parts = append(parts, "collide maybe")
				default:
					parts = append(parts, "collide none")
				}
			}
			if samp.Contact {
				parts = append(parts, fmt.Sprintf("sampled contact by %.9g", samp.First))
			} else {
				parts = append(parts, "no sampled contact")
			}
			if path == PathScrew {
				parts = append(parts, "on the screw path")
			}
			return strings.Join(parts, ", ")
		}
		gapAt := func(t float64) (float64, error) {
			g, err := sc.gap(i, path, t)
			a.Gap = g
			return g, err
		}
		switch {
		case a.Err != "":
			a.Verdict = Failed
			a.Why = a.Err
		case a.Skipped != "":
			a.Verdict = Skipped
			a.Why = a.Skipped
		case self:
			// collide, against the sampling of its own path.
			switch {
			case a.Maybe:
				a.Verdict = Unsure
				a.Why = ref()
			case !a.Hit && samp.Contact:
				a.Verdict = Miss
				a.Why = ref()
			case !a.Hit:
				a.Verdict = Agree
			case samp.Contact && a.Lo > samp.First+1e-9:
				a.Verdict = Late
				a.Why = ref()
				row.MaxLate = max(row.MaxLate, a.Lo-samp.First)
			default:
				g, err := gapAt(a.Hi)
				if err != nil {
					return err
				}
				switch {
				case g <= slack:
					a.Verdict = Agree
				case samp.Contact:
					a.Verdict = Early
					a.Why = fmt.Sprintf("%s; models %.3g apart at %.9g", ref(), g, a.Hi)
				default:
					a.Verdict = Invent
					a.Why = fmt.Sprintf("%s; models %.3g apart at %.9g", ref(), g, a.Hi)
					row.MaxInventGap = max(row.MaxInventGap, g)
				}
			}
		case !a.Hit:
			switch {
			case contact:
				a.Verdict = Miss
				a.Why = ref()
			case col != nil && col.Maybe:
				a.Verdict = Unsure
				a.Why = ref()
			default:
				a.Verdict = Agree
			}
		default:
			t := a.Lo
			if math.IsNaN(t) || t < 0 || t > 1 {
				a.Verdict = Failed
				a.Why = fmt.Sprintf("time of contact %v out of [0, 1]", t)
				break
			}
			g, err := gapAt(t)
			if err != nil {
				return err
			}
			far := g > slack
			switch {
			case contact && t > upper+tol:
				a.Verdict = Late
				a.Why = ref()
				row.MaxLate = max(row.MaxLate, t-upper)
			case contact && (far || !math.IsNaN(lower) && t < lower-tol):
				a.Verdict = Early
				a.Why = fmt.Sprintf("%s; models %.3g apart at %.9g", ref(), g, t)
			case contact:
				a.Verdict = Agree
			case certifiedNone || far:
				a.Verdict = Invent
				a.Why = fmt.Sprintf("%s; models %.3g apart at %.9g", ref(), g, t)
				row.MaxInventGap = max(row.MaxInventGap, g)
			default:
				a.Verdict = Unsure
				a.Why = fmt.Sprintf("%s; models %.3g apart at %.9g", ref(), g, t)
			}
		}
		if a.Verdict == Agree {
			a.Gap = math.NaN()
		}
		row.Counts[a.Verdict]++
		if a.Unstable {
			row.Unstable++
		}
		if a.Err == "" && a.Skipped == "" {
			times = append(times, time.Duration(a.Nanos))
		}
	}
	row.Median, row.P90 = md.Quantile(times, 0.5), md.Quantile(times, 0.9)
	return nil
}

// screw is FCL's ScrewMotion between two poses (fcl/math/motion/
// screw_motion-inl.h): a rotation by t·angle about the axis through p, and
// a translation by t·lin along it.
type screw struct {
	from      geom.Pose
	translate bool
	d         geom.Vec3 // the translation, when the motion does not turn
	axis, p   geom.Vec3
	angle     float64
	lin       float64
}

func newScrew(m ccd.Motion) screw {
	s := screw{from: m.From}
	axis, angle := m.Rotation()
	o := m.To.T.Sub(m.From.T)
	if angle < 1e-10 { // as FCL
		s.translate, s.d = true, o
		return s
	}
	s.axis, s.angle = axis, angle
	s.p = m.From.T.Add(m.To.T).Add(axis.Cross(o).Scale(1 / math.Tan(angle/2))).Scale(0.5)
	s.lin = o.Dot(axis)
	return s
}

// at returns the screw's pose at time t.
func (s screw) at(t float64) geom.Pose {
	if s.translate {
		return geom.Pose{R: s.from.R, T: s.from.T.Add(s.d.Scale(t))}
	}
	rot := geom.AxisAngle(s.axis, t*s.angle).Mat3()
	return geom.Pose{R: rot.Mul(s.from.R), T: s.p.Add(s.axis.Scale(t * s.lin)).Add(rot.MulVec(s.from.T.Sub(s.p)))}
}

// speed bounds how fast a point of a model within rho of its origin moves
// on the screw.
func (s screw) speed(rho float64) float64 {
	if s.translate {
		return s.d.Norm()
	}
	return s.angle*(rho+s.from.T.Sub(s.p).Norm()) + math.Abs(s.lin)
}
