package broadpeers

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"time"

	"github.com/collide3d/collide/bench/boxtrace"
	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/bench/peers"
	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/world"
)

// Phase names a constructor of one of collide's broad phases.
type Phase struct {
	Name string // as reported, e.g. "collide brute"
	New  func() broad.Phase
}

// CollidePhases returns collide's broad phases for Replay: every
// phase of world.BroadPhases, the brute-force oracle among them.
func CollidePhases() []Phase {
	var out []Phase
	for _, name := range world.BroadPhases() {
		mk, _ := world.NewBroad(name)
		out = append(out, Phase{Name: "collide " + name, New: mk})
	}
	return out
}

// Scene is a box trace that every system replays.
type Scene struct {
	Name string
	Doc  string // a sentence describing it, for the report
	// Path is the trace file; when empty, Source is written to a temporary
	// file.
	Path   string
	Source func() boxtrace.Source
}

// ReplayConfig configures Replay.
type ReplayConfig struct {
	Scenes []Scene
	// Phases are collide's broad phases (nil: CollidePhases).
	Phases []Phase
	// Driver is the path of collide-peers (empty: collide alone), and
	// Systems the names of its broad systems to run (nil: all those of
	// --list-broad).
	Driver  string
	Systems []string
	// Rounds is how many times every system replays every scene, taking
	// turns in an order rotated each round; a step's time is the fastest of
	// its rounds. Pair sets are checked in the first round (0: 1).
	Rounds int
	// Hash makes the driver print a hash of each step's pairs instead of
	// the pairs: a step then only agrees with the exact set or not, and
	// missed and extra pairs are not counted (-1).
	Hash bool
	// Timeout bounds one system's replay of one scene (0: 10 minutes); the
	// steps done by then are kept, and the run is marked.
	Timeout time.Duration
	// Progress, when not nil, is called with a line as each run starts.
	Progress func(line string)
}

// SceneInfo describes a scene of the report.
type SceneInfo struct {
	Name, Doc      string
	Objects, Steps int
	// Static counts the objects added static; Adds, Moves and Removes the
	// operations of the whole trace.
	Static, Adds, Moves, Removes int
	// Exact is the number of exact pairs at each step (overlapping closed
	// boxes, not both static).
	Exact []int
	// OracleTime is the time the sort-and-sweep oracle took on the whole
	// trace (the reference for the exact sets, not a contender).
	OracleTime time.Duration
}

// SystemRun is one system's replay of one scene.
type SystemRun struct {
	Scene, System string
	// Peer is set for the driver's systems; Variant is the library's
	// class (for bullet-axissweep3, which one the object count chose).
	Peer    bool
	Variant string
	// Err is set when the run failed or timed out; the steps done before
	// are kept.
	Err    string
	Rounds int
	// Setup is the time to make the peer's broad phase (its constructor).
	Setup time.Duration
	// Update and Pairs are the times of each step (the fastest of the
	// rounds): applying the step's adds, moves and removes, then finding
	// the pairs.
	Update, Pairs []time.Duration
	// Reported is the number of pairs the system reported at each step:
	// for collide, the pairs that changed (Phase.Pairs); for a peer, its
	// whole set, duplicates included. Distinct is the size of the
	// system's whole set of pairs at each step (for collide, the pairs
	// kept from before plus those reported).
	Reported, Distinct []int
	// Missed and Extra count, at each step, the exact pairs missing from
	// the system's set (false negatives) and the pairs in it that are not
	// exact (false positives: not overlapping, a removed object, two static
	// ones); -1 when not known (Hash).
	Missed, Extra []int
	// MissedTouching counts the missed pairs whose boxes only touch (their
	// intersection is flat); Invalid the reported pairs that break the
	// contract: for a peer, a pair naming an absent object or two static
	// ones; for collide, a pair out of order, reported twice, or of which
	// neither object changed in the step.
	MissedTouching, Invalid int
	// Bytes is the most heap the peer's broad phase held at the end of a
	// step (0 for collide's, not measured).
	Bytes int64
	// Examples are a few missed and extra pairs, missed first.
	Examples []PairNote
}

// PairNote is an example of a missed or extra pair.
type PairNote struct {
	Step             int
	A, B             int32
	BoxA, BoxB       geom.AABB
	StaticA, StaticB bool
	// Missed: an exact pair not reported (else a reported pair that is not
	// exact). Touching: the boxes overlap in a flat set only.
	Missed, Touching bool
}

// Examples is how many missed and how many extra pairs a run keeps as
// examples.
const Examples = 5

// Times returns the time of each step, update plus pairs.
func (r *SystemRun) Times() []time.Duration {
	t := make([]time.Duration, len(r.Update))
	for i := range t {
		t[i] = r.Update[i] + r.Pairs[i]
	}
	return t
}

// Quantile returns the q-quantile of the step times (nearest rank; 0.5 the
// median).
func (r *SystemRun) Quantile(q float64) time.Duration {
	s := flight.Summary{Times: r.Times()}
	return s.Quantile(q)
}

// Total returns the time of all the steps.
func (r *SystemRun) Total() time.Duration {
	var t time.Duration
	for i := range r.Update {
		t += r.Update[i] + r.Pairs[i]
	}
	return t
}

// Sums returns the totals of Missed and Extra over the steps (-1 when one
// is unknown), and the steps with a missed pair.
func (r *SystemRun) Sums() (missed, extra, stepsMissing int) {
	for i := range r.Missed {
		if r.Missed[i] < 0 || missed < 0 {
			missed = -1
		} else {
			missed += r.Missed[i]
		}
		if r.Extra[i] < 0 || extra < 0 {
			extra = -1
		} else {
			extra += r.Extra[i]
		}
		if r.Missed[i] != 0 {
			stepsMissing++
		}
	}
	return missed, extra, stepsMissing
}

// Report holds the figures of Replay.
type Report struct {
	Config  ReplayConfig `json:"-"`
	Rounds  int
	Machine string
	Scenes  []*SceneInfo
	// Systems are collide's phases, then the driver's systems.
	Systems []string
	// Runs are keyed by scene, then by system.
	Runs    map[string]map[string]*SystemRun
	Elapsed time.Duration
}

// Run returns the run of system on scene, or nil.
func (r *Report) Run(scene, system string) *SystemRun { return r.Runs[scene][system] }

// DriverSystems runs `driver --list-broad` and returns the names of
// its broad systems.
func DriverSystems(driver string) ([]string, error) {
	return peers.Names(driver, "--list-broad")
}

// Replay replays every scene's box trace through each of collide's
// broad phases (in this process) and each broad system of the peers
// driver, timing every step, and compares each system's set of pairs at
// every step with the exact set.
//
// The sets compared are whole sets: every pair of overlapping boxes, not
// both static, at that step (the peers report theirs whole; for collide's
// phases, which report only the pairs that changed, the set is the pairs
// kept from the step before whose objects were neither added, moved nor
// removed, plus the pairs reported). The exact set comes from a sort and
// sweep over every box, exact on closed boxes. It stops between two runs
// when ctx ends, returning ctx's error (a driver running then is killed).
func Replay(ctx context.Context, c ReplayConfig) (*Report, error) {
	start := time.Now()
	if c.Phases == nil {
		c.Phases = CollidePhases()
	}
	if c.Rounds <= 0 {
		c.Rounds = 1
	}
	if c.Timeout <= 0 {
		c.Timeout = 10 * time.Minute
	}
	progress := c.Progress
	if progress == nil {
		progress = func(string) {}
	}
	if c.Driver != "" && c.Systems == nil {
		names, err := DriverSystems(c.Driver)
		if err != nil {
			return nil, err
		}
		c.Systems = names
	}
	if c.Driver == "" {
		c.Systems = nil
	}
	type system struct {
		name  string
		phase *Phase
	}
	var systems []system
	r := &Report{
		Config:  c,
		Rounds:  c.Rounds,
		Machine: md.Machine(),
		Runs:    map[string]map[string]*SystemRun{},
	}
	for i := range c.Phases {
		systems = append(systems, system{name: c.Phases[i].Name, phase: &c.Phases[i]})
	}
	for _, s := range c.Systems {
		systems = append(systems, system{name: s})
	}
	for _, s := range systems {
		if slices.Contains(r.Systems, s.name) {
			return nil, fmt.Errorf("two systems named %q", s.name)
		}
		r.Systems = append(r.Systems, s.name)
	}

	dir, err := os.MkdirTemp("", "collide-broadpeers-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)

	total := len(c.Scenes) * len(systems) * c.Rounds
	done := 0
	for si, sc := range c.Scenes {
		path := sc.Path
		if path == "" {
			if sc.Source == nil {
				return nil, fmt.Errorf("scene %s: neither a path nor a source", sc.Name)
			}
			progress(fmt.Sprintf("%s: writing the box trace", sc.Name))
			path = filepath.Join(dir, fmt.Sprintf("scene%d.boxtrace", si))
			if err := writeTraceFile(path, sc.Source()); err != nil {
				return nil, fmt.Errorf("scene %s: %w", sc.Name, err)
			}
		}
		progress(fmt.Sprintf("%s: exact pairs (sort and sweep)", sc.Name))
		exactPath := filepath.Join(dir, fmt.Sprintf("scene%d.exact", si))
		info, hashes, err := writeExact(path, exactPath)
		if err != nil {
			return nil, fmt.Errorf("scene %s: %w", sc.Name, err)
		}
		info.Name, info.Doc = sc.Name, sc.Doc
		r.Scenes = append(r.Scenes, info)
		runs := map[string]*SystemRun{}
		r.Runs[sc.Name] = runs
		for round := range c.Rounds {
			for j := range systems {
				sys := systems[(j+round*len(systems)/c.Rounds)%len(systems)]
				done++
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				progress(fmt.Sprintf("run %d of %d: %s, %s, round %d", done, total, sc.Name, sys.name, round+1))
				run := runs[sys.name]
				if run == nil {
					run = &SystemRun{Scene: sc.Name, System: sys.name, Peer: sys.phase == nil}
					runs[sys.name] = run
				} else if run.Err != "" {
					continue
				}
				res := &stepTimes{}
				var chk *checker
				if round == 0 {
					chk, err = newChecker(path, exactPath, hashes, run)
					if err != nil {
						return nil, err
					}
				}
				var rerr error
				if sys.phase != nil {
					rerr = replayPhase(sys.phase.New(), path, c.Timeout, res, chk)
				} else {
					rerr = replayDriver(ctx, c.Driver, sys.name, path, c.Hash || round > 0, c.Timeout, res, chk)
				}
				if chk != nil {
					chk.close()
				}
				if rerr != nil {
					var cerr *checkError
					if errors.As(rerr, &cerr) {
						return nil, fmt.Errorf("%s, %s: %w", sc.Name, sys.name, rerr)
					}
					run.Err = rerr.Error()
				}
				merge(run, res, round)
				run.Rounds++
			}
		}
	}
	r.Elapsed = time.Since(start)
	return r, nil
}

func writeTraceFile(path string, src boxtrace.Source) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := boxtrace.Write(f, src); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// stepTimes are the figures of one replay.
type stepTimes struct {
	setup         time.Duration
	update, pairs []time.Duration
	reported      []int
	variant       string
	bytes         int64
}

// merge takes a replay's times into run: the first round's as they are,
// later rounds' where faster (over the steps both did).
func merge(run *SystemRun, res *stepTimes, round int) {
	if round == 0 {
		run.Setup, run.Update, run.Pairs, run.Reported = res.setup, res.update, res.pairs, res.reported
		run.Variant, run.Bytes = res.variant, res.bytes
		return
	}
	run.Setup = min(run.Setup, res.setup)
	for i := range min(len(run.Update), len(res.update)) {
		if t := res.update[i] + res.pairs[i]; t < run.Update[i]+run.Pairs[i] {
			run.Update[i], run.Pairs[i] = res.update[i], res.pairs[i]
		}
	}
	run.Bytes = max(run.Bytes, res.bytes)
}

// --- the exact sets ------------------------------------------------------------

// boxWorld is the state of a trace being replayed.
type boxWorld struct {
	box     []geom.AABB
	static  []bool
	present []bool
	ids     []int32
	minX    []float64
}

func newBoxWorld(objects int) *boxWorld {
	return &boxWorld{box: make([]geom.AABB, objects), static: make([]bool, objects), present: make([]bool, objects)}
}

func (w *boxWorld) apply(s *boxtrace.Step) {
	for _, id := range s.Remove {
		w.present[id] = false
	}
	for _, a := range s.Add {
		w.box[a.ID], w.static[a.ID], w.present[a.ID] = a.Box, a.Static, true
	}
	for _, m := range s.Move {
		w.box[m.ID], w.static[m.ID] = m.Box, false
	}
}

func pack(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

func unpack(p uint64) (a, b int32) { return int32(p >> 32), int32(uint32(p)) }

// exactPairs appends to out the exact pairs of the world, sorted: a sort
// along x and a sweep, testing closed boxes, leaving out static pairs.
func (w *boxWorld) exactPairs(out []uint64) []uint64 {
	w.ids = w.ids[:0]
	for i, ok := range w.present {
		if ok {
			w.ids = append(w.ids, int32(i))
		}
	}
	slices.SortFunc(w.ids, func(a, b int32) int {
		x, y := w.box[a].Min.X, w.box[b].Min.X
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	w.minX = w.minX[:0]
	for _, id := range w.ids {
		w.minX = append(w.minX, w.box[id].Min.X)
	}
	start := len(out)
	for i, a := range w.ids {
		ba := &w.box[a]
		sa := w.static[a]
		for j := i + 1; j < len(w.ids) && w.minX[j] <= ba.Max.X; j++ {
			b := w.ids[j]
			if sa && w.static[b] {
				continue
			}
			bb := &w.box[b]
			if ba.Min.Y <= bb.Max.Y && bb.Min.Y <= ba.Max.Y && ba.Min.Z <= bb.Max.Z && bb.Min.Z <= ba.Max.Z {
				out = append(out, pack(min(a, b), max(a, b)))
			}
		}
	}
	slices.Sort(out[start:])
	return out
}

// touching reports whether the overlapping boxes a and b share a flat set
// only (they touch at a face, an edge or a corner).
func touching(a, b *geom.AABB) bool {
	return a.Max.X == b.Min.X || b.Max.X == a.Min.X || a.Max.Y == b.Min.Y || b.Max.Y == a.Min.Y ||
		a.Max.Z == b.Min.Z || b.Max.Z == a.Min.Z
}

// fnv1a returns the 64-bit FNV-1a hash of sorted pairs, each as two
// little-endian uint32 (lo, hi): the driver's --hash.
func fnv1a(pairs []uint64) uint64 {
	h := uint64(14695981039346656037)
	var b [8]byte
	for _, p := range pairs {
		binary.LittleEndian.PutUint32(b[:4], uint32(p>>32))
		binary.LittleEndian.PutUint32(b[4:], uint32(p))
		for _, c := range b {
			h ^= uint64(c)
			h *= 1099511628211
		}
	}
	return h
}

// writeExact replays the trace at path, writes the exact pairs of every
// step to exactPath (per step: a uint32 count, then the pairs as uint64
// lo<<32|hi, little-endian) and returns the scene's figures and the hash of
// each step's pairs.
func writeExact(path, exactPath string) (*SceneInfo, []uint64, error) {
	in, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer in.Close()
	tr, err := boxtrace.NewReader(in)
	if err != nil {
		return nil, nil, err
	}
	out, err := os.Create(exactPath)
	if err != nil {
		return nil, nil, err
	}
	defer out.Close()
	bw := bufio.NewWriterSize(out, 1<<16)
	info := &SceneInfo{}
	info.Objects, info.Steps = tr.Header()
	w := newBoxWorld(info.Objects)
	var hashes []uint64
	var s boxtrace.Step
	var pairs []uint64
	var b [8]byte
	for {
		if err := tr.Next(&s); err == io.EOF {
			break
		} else if err != nil {
			return nil, nil, err
		}
		for _, a := range s.Add {
			if a.Static {
				info.Static++
			}
		}
		info.Adds += len(s.Add)
		info.Moves += len(s.Move)
		info.Removes += len(s.Remove)
		w.apply(&s)
		t := time.Now()
		pairs = w.exactPairs(pairs[:0])
		info.OracleTime += time.Since(t)
		info.Exact = append(info.Exact, len(pairs))
		hashes = append(hashes, fnv1a(pairs))
		binary.LittleEndian.PutUint32(b[:4], uint32(len(pairs)))
		bw.Write(b[:4])
		for _, p := range pairs {
			binary.LittleEndian.PutUint64(b[:], p)
			bw.Write(b[:])
		}
	}
	if err := bw.Flush(); err != nil {
		return nil, nil, err
	}
	return info, hashes, out.Close()
}

// checkError is a failure of the harness's own files (not of a system).
type checkError struct{ err error }

func (e *checkError) Error() string { return "checking: " + e.err.Error() }
func (e *checkError) Unwrap() error { return e.err }

// checker compares a system's pairs, step by step, with the exact pairs,
// keeping the trace's state for the examples.
type checker struct {
	trace, exact *os.File
	tr           *boxtrace.Reader
	er           *bufio.Reader
	hashes       []uint64
	world        *boxWorld
	step         boxtrace.Step
	want         []uint64
	next         int
	run          *SystemRun
	nMissed      int
	nExtra       int
}

func newChecker(path, exactPath string, hashes []uint64, run *SystemRun) (*checker, error) {
	c := &checker{hashes: hashes, run: run}
	var err error
	if c.trace, err = os.Open(path); err != nil {
		return nil, err
	}
	if c.tr, err = boxtrace.NewReader(c.trace); err != nil {
		c.trace.Close()
		return nil, err
	}
	if c.exact, err = os.Open(exactPath); err != nil {
		c.trace.Close()
		return nil, err
	}
	c.er = bufio.NewReaderSize(c.exact, 1<<16)
	objects, _ := c.tr.Header()
	c.world = newBoxWorld(objects)
	run.Missed, run.Extra = run.Missed[:0], run.Extra[:0]
	run.Distinct = run.Distinct[:0]
	run.MissedTouching, run.Invalid = 0, 0
	run.Examples = nil
	return c, nil
}

func (c *checker) close() {
	c.trace.Close()
	c.exact.Close()
}

// advance reads the next step of the trace and its exact pairs.
func (c *checker) advance() error {
	if err := c.tr.Next(&c.step); err != nil {
		if err == io.EOF {
			err = errors.New("the system reported more steps than the trace has")
		}
		return &checkError{err}
	}
	c.world.apply(&c.step)
	var b [8]byte
	if _, err := io.ReadFull(c.er, b[:4]); err != nil {
		return &checkError{err}
	}
	n := int(binary.LittleEndian.Uint32(b[:4]))
	c.want = c.want[:0]
	for range n {
		if _, err := io.ReadFull(c.er, b[:]); err != nil {
			return &checkError{err}
		}
		c.want = append(c.want, binary.LittleEndian.Uint64(b[:]))
	}
	c.next++
	return nil
}

func (c *checker) note(a, b int32, missed bool) {
	w := c.world
	n := PairNote{Step: c.next - 1, A: a, B: b, Missed: missed}
	if int(b) < len(w.box) && a >= 0 {
		n.BoxA, n.BoxB, n.StaticA, n.StaticB = w.box[a], w.box[b], w.static[a], w.static[b]
		n.Touching = missed && touching(&w.box[a], &w.box[b])
	}
	c.run.Examples = append(c.run.Examples, n)
}

// compare takes the system's whole set of pairs at the step (sorted,
// distinct, lo < hi) and counts its missed and extra pairs.
func (c *checker) compare(got []uint64) {
	want, w := c.want, c.world
	missed, extra := 0, 0
	i, j := 0, 0
	for i < len(want) || j < len(got) {
		switch {
		case j == len(got) || i < len(want) && want[i] < got[j]:
			a, b := unpack(want[i])
			if touching(&w.box[a], &w.box[b]) {
				c.run.MissedTouching++
			}
			if c.nMissed < Examples {
				c.note(a, b, true)
				c.nMissed++
			}
			missed++
			i++
		case i == len(want) || got[j] < want[i]:
			a, b := unpack(got[j])
			if int(b) >= len(w.present) || !w.present[a] || !w.present[b] || w.static[a] && w.static[b] {
				c.run.Invalid++
			}
			if c.nExtra < Examples {
				c.note(a, b, false)
				c.nExtra++
			}
			extra++
			j++
		default:
			i++
			j++
		}
	}
	c.run.Missed = append(c.run.Missed, missed)
	c.run.Extra = append(c.run.Extra, extra)
	c.run.Distinct = append(c.run.Distinct, len(got))
}

// compareHash takes the hash of the system's pairs at the step.
func (c *checker) compareHash(h uint64, distinct int) {
	n := -1
	if h == c.hashes[c.next-1] {
		n = 0
	}
	c.run.Missed = append(c.run.Missed, n)
	c.run.Extra = append(c.run.Extra, n)
	c.run.Distinct = append(c.run.Distinct, distinct)
}

// sortExamples puts the missed examples first.
func sortExamples(run *SystemRun) {
	slices.SortStableFunc(run.Examples, func(a, b PairNote) int {
		if a.Missed == b.Missed {
			return 0
		}
		if a.Missed {
			return -1
		}
		return 1
	})
}

// --- collide's phases ------------------------------------------------------------

// replayPhase replays the trace at path through p, timing each step, and
// (chk not nil) checks its pairs; it stops once the steps have taken more
// than timeout.
func replayPhase(p broad.Phase, path string, timeout time.Duration, res *stepTimes, chk *checker) error {
	f, err := os.Open(path)
	if err != nil {
		return &checkError{err}
	}
	defer f.Close()
	tr, err := boxtrace.NewReader(f)
	if err != nil {
		return &checkError{err}
	}
	objects, _ := tr.Header()
	var (
		s        boxtrace.Step
		got      []uint64
		full     []uint64
		merged   []uint64
		stamp    = make([]int32, objects)
		static   = make([]bool, objects) // by id: added static, not moved since
		elapsed  time.Duration
		reported = func(a, b int32) bool {
			got = append(got, pack(a, b))
			return true
		}
	)
	runtime.GC()
	for step := 0; ; step++ {
		if err := tr.Next(&s); err == io.EOF {
			break
		} else if err != nil {
			return &checkError{err}
		}
		got = got[:0]
		t0 := time.Now()
		for _, id := range s.Remove {
			p.Remove(id)
		}
		for i := range s.Add {
			p.Add(s.Add[i].ID, s.Add[i].Box, s.Add[i].Static)
			static[s.Add[i].ID] = s.Add[i].Static
		}
		for i := range s.Move {
			// A trace's move wakes a static object (it becomes moving);
			// a phase's Move keeps it static: add it again as moving.
			if id := s.Move[i].ID; static[id] {
				p.Add(id, s.Move[i].Box, false)
				static[id] = false
			} else {
				p.Move(id, s.Move[i].Box)
			}
		}
		t1 := time.Now()
		p.Pairs(reported)
		t2 := time.Now()
		res.update = append(res.update, t1.Sub(t0))
		res.pairs = append(res.pairs, t2.Sub(t1))
		res.reported = append(res.reported, len(got))
		elapsed += t2.Sub(t0)

		if chk != nil {
			if err := chk.advance(); err != nil {
				return err
			}
			// The whole set: the pairs kept whose objects did not change,
			// and the pairs reported.
			mark := int32(step + 1)
			for _, id := range s.Remove {
				stamp[id] = mark
			}
			for _, a := range s.Add {
				stamp[a.ID] = mark
			}
			for _, m := range s.Move {
				stamp[m.ID] = mark
			}
			kept := full[:0]
			for _, q := range full {
				a, b := unpack(q)
				if stamp[a] != mark && stamp[b] != mark {
					kept = append(kept, q)
				}
			}
			for k, q := range got {
				a, b := unpack(q)
				if a >= b || a < 0 || int(b) >= objects {
					chk.run.Invalid++
					got[k] = pack(min(a, b), max(a, b))
				} else if stamp[a] != mark && stamp[b] != mark {
					chk.run.Invalid++ // neither object changed
				}
			}
			slices.Sort(got)
			n := len(got)
			got = slices.Compact(got)
			chk.run.Invalid += n - len(got)
			merged = mergeSorted(merged[:0], kept, got)
			full, merged = merged, full
			chk.compare(full)
		}
		if elapsed > timeout {
			return fmt.Errorf("timed out after %s, at step %d", timeout, step)
		}
	}
	if chk != nil {
		sortExamples(chk.run)
	}
	return nil
}

// mergeSorted appends the union of the sorted sets a and b to out.
func mergeSorted(out, a, b []uint64) []uint64 {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// --- the driver ------------------------------------------------------------------

// broadHeader is the first line of `collide-peers --broad`.
type broadHeader struct {
	Broad *struct {
		System  string `json:"system"`
		Variant string `json:"variant"`
		Objects int    `json:"objects"`
		Steps   int    `json:"steps"`
		SetupNS int64  `json:"setup_ns"`
		Bytes   int64  `json:"bytes"`
	} `json:"broad"`
}

// broadLine is a step line of `collide-peers --broad`.
type broadLine struct {
	step, updateNS, pairsNS, reported, distinct, bytes uint64
	hash                                               uint64
	hasHash, hasPairs                                  bool
	pairs                                              []uint64
}

// replayDriver runs the driver's broad system on the trace at path,
// reading its steps' times and (chk not nil) checking its pairs.
func replayDriver(ctx context.Context, driver, system, path string, hash bool, timeout time.Duration, res *stepTimes, chk *checker) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	args := []string{"--broad", system}
	if hash {
		args = append(args, "--hash")
	}
	p, err := peers.Start(ctx, driver, append(args, path)...)
	if err != nil {
		return err
	}
	perr := parseBroad(bufio.NewReaderSize(p.Stdout(), 1<<20), hash, res, chk)
	werr := p.Wait()
	if chk != nil {
		sortExamples(chk.run)
	}
	var cerr *checkError
	switch {
	case errors.As(perr, &cerr):
		return perr
	case ctx.Err() != nil:
		return fmt.Errorf("timed out after %s, at step %d", timeout, len(res.update))
	case werr != nil:
		return werr
	case perr != nil:
		return perr
	}
	return nil
}

// readLine returns the next line of r (without its newline) in buf's
// storage, or io.EOF.
func readLine(r *bufio.Reader, buf []byte) ([]byte, error) {
	buf = buf[:0]
	for {
		chunk, err := r.ReadSlice('\n')
		buf = append(buf, chunk...)
		switch err {
		case nil:
			return buf[:len(buf)-1], nil
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			if len(buf) > 0 {
				return nil, io.ErrUnexpectedEOF
			}
		}
		return nil, err
	}
}

// parseBroad reads the driver's output.
func parseBroad(r *bufio.Reader, hash bool, res *stepTimes, chk *checker) error {
	line, err := readLine(r, nil)
	if err != nil {
		return fmt.Errorf("driver output: %v", err)
	}
	var h broadHeader
	if err := json.Unmarshal(line, &h); err != nil || h.Broad == nil {
		return fmt.Errorf("driver output: the first line is not the broad header: %.100q", line)
	}
	res.setup = time.Duration(h.Broad.SetupNS)
	res.variant = h.Broad.Variant
	res.bytes = h.Broad.Bytes
	objects := uint64(h.Broad.Objects)
	var l broadLine
	for i := 0; ; i++ {
		line, err = readLine(r, line)
		if err == io.EOF {
			if i != h.Broad.Steps {
				return fmt.Errorf("driver output: %d steps, want %d", i, h.Broad.Steps)
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("driver output, step %d: %v", i, err)
		}
		if err := l.parse(line); err != nil {
			return fmt.Errorf("driver output, step %d: %v", i, err)
		}
		if l.step != uint64(i) {
			return fmt.Errorf("driver output: line %d is not step %d", i+2, i)
		}
		if hash != l.hasHash || hash == l.hasPairs {
			return fmt.Errorf("driver output, step %d: want a line with %s", i, map[bool]string{true: "a hash", false: "pairs"}[hash])
		}
		for k, p := range l.pairs {
			a, b := p>>32, p&0xffffffff
			if a >= b || b >= objects || k > 0 && p <= l.pairs[k-1] {
				return fmt.Errorf("driver output, step %d: pair [%d,%d] is out of order or range (%d objects)", i, a, b, objects)
			}
		}
		if !hash && l.distinct != uint64(len(l.pairs)) {
			return fmt.Errorf("driver output, step %d: distinct %d, but %d pairs", i, l.distinct, len(l.pairs))
		}
		res.update = append(res.update, time.Duration(l.updateNS))
		res.pairs = append(res.pairs, time.Duration(l.pairsNS))
		res.reported = append(res.reported, int(l.reported))
		res.bytes = max(res.bytes, int64(l.bytes))
		if chk != nil {
			if err := chk.advance(); err != nil {
				return err
			}
			if hash {
				chk.compareHash(l.hash, int(l.distinct))
			} else {
				chk.compare(l.pairs)
			}
		}
	}
}

// parse reads a step line: an object of number fields, "hash" (16 hex
// digits) and "pairs" ([[a,b],...]), written without spaces by the driver
// (spaces are allowed).
func (l *broadLine) parse(b []byte) error {
	*l = broadLine{pairs: l.pairs[:0]}
	i := 0
	space := func() {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r') {
			i++
		}
	}
	expect := func(c byte) error {
		space()
		if i >= len(b) || b[i] != c {
			return fmt.Errorf("at byte %d: want %q", i, c)
		}
		i++
		return nil
	}
	number := func() (uint64, error) {
		space()
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == j {
			return 0, fmt.Errorf("at byte %d: want a number", j)
		}
		return strconv.ParseUint(string(b[j:i]), 10, 64)
	}
	str := func() (string, error) {
		if err := expect('"'); err != nil {
			return "", err
		}
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return "", fmt.Errorf("at byte %d: unterminated string", i)
		}
		s := string(b[i : i+j])
		i += j + 1
		return s, nil
	}
	if err := expect('{'); err != nil {
		return err
	}
	for first := true; ; first = false {
		space()
		if i < len(b) && b[i] == '}' && first {
			i++
			break
		}
		key, err := str()
		if err != nil {
			return err
		}
		if err := expect(':'); err != nil {
			return err
		}
		switch key {
		case "hash":
			s, err := str()
			if err != nil {
				return err
			}
			if l.hash, err = strconv.ParseUint(s, 16, 64); err != nil || len(s) != 16 {
				return fmt.Errorf("bad hash %q", s)
			}
			l.hasHash = true
		case "pairs":
			l.hasPairs = true
			if err := expect('['); err != nil {
				return err
			}
			space()
			if i < len(b) && b[i] == ']' {
				i++
				break
			}
			for {
				if err := expect('['); err != nil {
					return err
				}
				a, err := number()
				if err != nil {
					return err
				}
				if err := expect(','); err != nil {
					return err
				}
				c, err := number()
				if err != nil {
					return err
				}
				if err := expect(']'); err != nil {
					return err
				}
				if a > 0xffffffff || c > 0xffffffff {
					return fmt.Errorf("pair [%d,%d] out of range", a, c)
				}
				l.pairs = append(l.pairs, a<<32|c)
				space()
				if i < len(b) && b[i] == ',' {
					i++
					continue
				}
				if err := expect(']'); err != nil {
					return err
				}
				break
			}
		default:
			x, err := number()
			if err != nil {
				return fmt.Errorf("field %q: %v", key, err)
			}
			switch key {
			case "step":
				l.step = x
			case "update_ns":
				l.updateNS = x
			case "pairs_ns":
				l.pairsNS = x
			case "reported":
				l.reported = x
			case "distinct":
				l.distinct = x
			case "bytes":
				l.bytes = x
			}
		}
		space()
		if i < len(b) && b[i] == ',' {
			i++
			continue
		}
		if err := expect('}'); err != nil {
			return err
		}
		break
	}
	space()
	if i != len(b) {
		return fmt.Errorf("at byte %d: data after the object", i)
	}
	return nil
}
