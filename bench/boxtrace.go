package bench

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/collide3d/collide/geom"
)

// A box trace records what a world does to its broad phase, step by step:
// the objects added (with their box and whether they are static), moved
// (with their new box) and removed. Collide's broad phases (package broad)
// and the peers' (collide-peers --broad) replay the same trace, so that
// their pair sets can be compared at every step and their times side by
// side (RunBroadPeers).
//
// The file is little-endian binary:
//
//	header, 24 bytes:
//	  magic     [8]byte  "BOXTRACE"
//	  version   uint32   1
//	  objects   uint32   ids are in [0, objects), at most MaxBoxTraceObjects
//	  steps     uint32
//	  reserved  uint32   0
//	then steps times:
//	  step      uint32   the step's number, from 0
//	  adds      uint32
//	  moves     uint32
//	  removes   uint32
//	  adds times:    id uint32, flags uint32 (bit 0: static; others 0), box
//	  moves times:   id uint32, box
//	  removes times: id uint32
//
// where a box is 6 float64, min x y z then max x y z, finite, min <= max on
// every axis (a flat box or a point is allowed). Nothing follows the last
// step.
//
// The semantics are those of broad.Phase: an add of a present id replaces
// that object; a move is of a present object, which is moving from then on
// (even if it was added static); a remove is of a present object. An id
// appears at most once in a step (adds, moves and removes together), so the
// order of the operations within a step does not matter.
const (
	BoxTraceMagic   = "BOXTRACE"
	BoxTraceVersion = 1
	// MaxBoxTraceObjects caps the object count of a trace (the readers
	// allocate per-object state up front).
	MaxBoxTraceObjects = 1 << 22
)

// BoxAdd is an object added in a step of a box trace.
type BoxAdd struct {
	ID     int32
	Static bool
	Box    geom.AABB
}

// BoxMove is an object moved in a step of a box trace.
type BoxMove struct {
	ID  int32
	Box geom.AABB
}

// BoxStep is one step of a box trace.
type BoxStep struct {
	Add    []BoxAdd
	Move   []BoxMove
	Remove []int32
}

// Reset empties s, keeping its slices' storage.
func (s *BoxStep) Reset() {
	s.Add, s.Move, s.Remove = s.Add[:0], s.Move[:0], s.Remove[:0]
}

// A BoxSource gives a box trace step by step: a trace file being read
// (BoxTraceReader) or a scene being generated (BrownianBoxes).
type BoxSource interface {
	// Header returns the object count (ids are below it) and the number of
	// steps.
	Header() (objects, steps int)
	// Next fills s (reusing its storage) with the next step; it returns
	// io.EOF after the last one.
	Next(s *BoxStep) error
}

// BoxTraceError reports a malformed box trace (reading) or a step that
// breaks the trace's rules (writing).
type BoxTraceError struct {
	Offset int64 // byte offset in the file where the problem is; -1 when writing
	Step   int   // the step, or -1 for the header
	Msg    string
}

func (e *BoxTraceError) Error() string {
	where := "header"
	if e.Step >= 0 {
		where = fmt.Sprintf("step %d", e.Step)
	}
	if e.Offset < 0 {
		return fmt.Sprintf("box trace: %s: %s", where, e.Msg)
	}
	return fmt.Sprintf("box trace: offset %d (%s): %s", e.Offset, where, e.Msg)
}

// traceState checks the rules of a trace as its steps go by: ids in range,
// each at most once a step, moves and removes of present objects, valid
// boxes.
type traceState struct {
	objects int
	present []bool
	stamp   []uint32 // step+1 when the id was last seen
}

func newTraceState(objects int) *traceState {
	return &traceState{objects: objects, present: make([]bool, objects), stamp: make([]uint32, objects)}
}

// op checks one operation ('a', 'm' or 'r') of step on id and applies it.
func (t *traceState) op(step int, kind byte, id int64) string {
	if id < 0 || id >= int64(t.objects) {
		return fmt.Sprintf("id %d out of range [0, %d)", id, t.objects)
	}
	if t.stamp[id] == uint32(step)+1 {
		return fmt.Sprintf("id %d appears twice in the step", id)
	}
	t.stamp[id] = uint32(step) + 1
	switch kind {
	case 'a':
		t.present[id] = true
	case 'm':
		if !t.present[id] {
			return fmt.Sprintf("move of absent id %d", id)
		}
	case 'r':
		if !t.present[id] {
			return fmt.Sprintf("remove of absent id %d", id)
		}
		t.present[id] = false
	}
	return ""
}

// checkBox returns what is wrong with b, or "".
func checkBox(b *geom.AABB) string {
	v := [6]float64{b.Min.X, b.Min.Y, b.Min.Z, b.Max.X, b.Max.Y, b.Max.Z}
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Sprintf("box %v has a coordinate that is not finite", *b)
		}
	}
	if !(b.Min.X <= b.Max.X && b.Min.Y <= b.Max.Y && b.Min.Z <= b.Max.Z) {
		return fmt.Sprintf("box %v has min > max", *b)
	}
	return ""
}

// BoxTraceWriter writes a box trace, checking each step against the rules.
type BoxTraceWriter struct {
	w       *bufio.Writer
	state   *traceState
	steps   int
	written int
	buf     [64]byte
	err     error
}

// NewBoxTraceWriter writes the header of a trace of steps steps on ids in
// [0, objects) to w and returns the writer of its steps.
func NewBoxTraceWriter(w io.Writer, objects, steps int) (*BoxTraceWriter, error) {
	if objects < 0 || objects > MaxBoxTraceObjects {
		return nil, &BoxTraceError{Offset: -1, Step: -1, Msg: fmt.Sprintf("object count %d out of range [0, %d]", objects, MaxBoxTraceObjects)}
	}
	if steps < 0 || steps > math.MaxUint32 {
		return nil, &BoxTraceError{Offset: -1, Step: -1, Msg: fmt.Sprintf("step count %d out of range", steps)}
	}
	tw := &BoxTraceWriter{w: bufio.NewWriterSize(w, 1<<16), state: newTraceState(objects), steps: steps}
	var h [24]byte
	copy(h[:8], BoxTraceMagic)
	binary.LittleEndian.PutUint32(h[8:], BoxTraceVersion)
	binary.LittleEndian.PutUint32(h[12:], uint32(objects))
	binary.LittleEndian.PutUint32(h[16:], uint32(steps))
	if _, err := tw.w.Write(h[:]); err != nil {
		return nil, err
	}
	return tw, nil
}

func (tw *BoxTraceWriter) u32(x uint32) {
	binary.LittleEndian.PutUint32(tw.buf[:4], x)
	tw.w.Write(tw.buf[:4])
}

func (tw *BoxTraceWriter) box(b *geom.AABB) {
	v := [6]float64{b.Min.X, b.Min.Y, b.Min.Z, b.Max.X, b.Max.Y, b.Max.Z}
	for i, x := range v {
		binary.LittleEndian.PutUint64(tw.buf[8*i:], math.Float64bits(x))
	}
	tw.w.Write(tw.buf[:48])
}

// WriteStep writes the next step. A step that breaks the rules is an error
// (*BoxTraceError), and so is every later call.
func (tw *BoxTraceWriter) WriteStep(s *BoxStep) error {
	if tw.err != nil {
		return tw.err
	}
	step := tw.written
	fail := func(msg string) error {
		tw.err = &BoxTraceError{Offset: -1, Step: step, Msg: msg}
		return tw.err
	}
	if step >= tw.steps {
		return fail(fmt.Sprintf("more steps than the %d declared", tw.steps))
	}
	for i := range s.Add {
		if msg := checkBox(&s.Add[i].Box); msg != "" {
			return fail(fmt.Sprintf("add of id %d: %s", s.Add[i].ID, msg))
		}
		if msg := tw.state.op(step, 'a', int64(s.Add[i].ID)); msg != "" {
			return fail(msg)
		}
	}
	for i := range s.Move {
		if msg := checkBox(&s.Move[i].Box); msg != "" {
			return fail(fmt.Sprintf("move of id %d: %s", s.Move[i].ID, msg))
		}
		if msg := tw.state.op(step, 'm', int64(s.Move[i].ID)); msg != "" {
			return fail(msg)
		}
	}
	for _, id := range s.Remove {
		if msg := tw.state.op(step, 'r', int64(id)); msg != "" {
			return fail(msg)
		}
	}
	tw.u32(uint32(step))
	tw.u32(uint32(len(s.Add)))
	tw.u32(uint32(len(s.Move)))
	tw.u32(uint32(len(s.Remove)))
	for i := range s.Add {
		a := &s.Add[i]
		tw.u32(uint32(a.ID))
		flags := uint32(0)
		if a.Static {
			flags = 1
		}
		tw.u32(flags)
		tw.box(&a.Box)
	}
	for i := range s.Move {
		tw.u32(uint32(s.Move[i].ID))
		tw.box(&s.Move[i].Box)
	}
	for _, id := range s.Remove {
		tw.u32(uint32(id))
	}
	tw.written++
	return nil
}

// Close flushes the trace; it is an error if fewer steps were written than
// declared.
func (tw *BoxTraceWriter) Close() error {
	if tw.err != nil {
		return tw.err
	}
	if tw.written != tw.steps {
		tw.err = &BoxTraceError{Offset: -1, Step: tw.written, Msg: fmt.Sprintf("%d steps written, %d declared", tw.written, tw.steps)}
		return tw.err
	}
	return tw.w.Flush()
}

// WriteBoxTrace writes every step of src to w as a box trace.
func WriteBoxTrace(w io.Writer, src BoxSource) error {
	objects, steps := src.Header()
	tw, err := NewBoxTraceWriter(w, objects, steps)
	if err != nil {
		return err
	}
	var s BoxStep
	for {
		s.Reset()
		err := src.Next(&s)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := tw.WriteStep(&s); err != nil {
			return err
		}
	}
	return tw.Close()
}

// BoxTraceReader reads a box trace step by step, checking it; it is a
// BoxSource.
type BoxTraceReader struct {
	r       *bufio.Reader
	off     int64
	objects int
	steps   int
	next    int
	state   *traceState
	buf     [64]byte
	err     error
}

// NewBoxTraceReader reads the header of a box trace from r.
func NewBoxTraceReader(r io.Reader) (*BoxTraceReader, error) {
	tr := &BoxTraceReader{r: bufio.NewReaderSize(r, 1<<16)}
	var h [24]byte
	if _, err := io.ReadFull(tr.r, h[:]); err != nil {
		return nil, tr.ioError(-1, err, "reading the header")
	}
	tr.off = 24
	bad := func(off int64, msg string) error { return &BoxTraceError{Offset: off, Step: -1, Msg: msg} }
	if string(h[:8]) != BoxTraceMagic {
		return nil, bad(0, fmt.Sprintf("bad magic %q, want %q (not a box trace)", h[:8], BoxTraceMagic))
	}
	if v := binary.LittleEndian.Uint32(h[8:]); v != BoxTraceVersion {
		return nil, bad(8, fmt.Sprintf("version %d, want %d", v, BoxTraceVersion))
	}
	objects := binary.LittleEndian.Uint32(h[12:])
	if objects > MaxBoxTraceObjects {
		return nil, bad(12, fmt.Sprintf("object count %d exceeds the limit %d", objects, MaxBoxTraceObjects))
	}
	if x := binary.LittleEndian.Uint32(h[20:]); x != 0 {
		return nil, bad(20, fmt.Sprintf("reserved field is %d, want 0", x))
	}
	tr.objects = int(objects)
	tr.steps = int(binary.LittleEndian.Uint32(h[16:]))
	tr.state = newTraceState(tr.objects)
	return tr, nil
}

// Header implements BoxSource.
func (tr *BoxTraceReader) Header() (objects, steps int) { return tr.objects, tr.steps }

func (tr *BoxTraceReader) ioError(step int, err error, what string) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return &BoxTraceError{Offset: tr.off, Step: step, Msg: "truncated file, " + what}
	}
	return fmt.Errorf("box trace: offset %d: %s: %w", tr.off, what, err)
}

func (tr *BoxTraceReader) read(n int) ([]byte, error) {
	b := tr.buf[:n]
	if _, err := io.ReadFull(tr.r, b); err != nil {
		return nil, err
	}
	tr.off += int64(n)
	return b, nil
}

func (tr *BoxTraceReader) readBox(b *geom.AABB) error {
	p, err := tr.read(48)
	if err != nil {
		return err
	}
	f := func(i int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:])) }
	*b = geom.AABB{Min: geom.V(f(0), f(1), f(2)), Max: geom.V(f(3), f(4), f(5))}
	return nil
}

// Next implements BoxSource: it reads the next step into s, reusing its
// storage. After the last step it checks that the file ends there and
// returns io.EOF. Errors are *BoxTraceError for a malformed file.
func (tr *BoxTraceReader) Next(s *BoxStep) error {
	if tr.err != nil {
		return tr.err
	}
	tr.err = tr.nextStep(s)
	if tr.err == nil {
		return nil
	}
	return tr.err
}

func (tr *BoxTraceReader) nextStep(s *BoxStep) error {
	step := tr.next
	s.Reset()
	if step == tr.steps {
		var b [1]byte
		if n, _ := io.ReadFull(tr.r, b[:]); n > 0 {
			return &BoxTraceError{Offset: tr.off, Step: step - 1, Msg: "data after the last step"}
		}
		return io.EOF
	}
	bad := func(off int64, msg string) error { return &BoxTraceError{Offset: off, Step: step, Msg: msg} }
	start := tr.off
	p, err := tr.read(16)
	if err != nil {
		return tr.ioError(step, err, "reading a step header")
	}
	if n := binary.LittleEndian.Uint32(p); n != uint32(step) {
		return bad(start, fmt.Sprintf("step number %d, want %d", n, step))
	}
	adds, moves, removes := binary.LittleEndian.Uint32(p[4:]), binary.LittleEndian.Uint32(p[8:]), binary.LittleEndian.Uint32(p[12:])
	if uint64(adds)+uint64(moves)+uint64(removes) > uint64(tr.objects) {
		return bad(start+4, fmt.Sprintf("%d adds, %d moves and %d removes: more operations than the %d objects", adds, moves, removes, tr.objects))
	}
	// The slices grow as records are read: counts are capped by the object
	// count, and a short file fails before it allocates much.
	for range adds {
		off := tr.off
		p, err := tr.read(8)
		if err != nil {
			return tr.ioError(step, err, "reading an add")
		}
		id, flags := binary.LittleEndian.Uint32(p), binary.LittleEndian.Uint32(p[4:])
		if flags&^1 != 0 {
			return bad(off+4, fmt.Sprintf("add of id %d: unknown flags %#x", id, flags))
		}
		var a BoxAdd
		if err := tr.readBox(&a.Box); err != nil {
			return tr.ioError(step, err, "reading an add")
		}
		if msg := checkBox(&a.Box); msg != "" {
			return bad(off+8, fmt.Sprintf("add of id %d: %s", id, msg))
		}
		if msg := tr.state.op(step, 'a', int64(id)); msg != "" {
			return bad(off, msg)
		}
		a.ID, a.Static = int32(id), flags&1 != 0
		s.Add = append(s.Add, a)
	}
	for range moves {
		off := tr.off
		p, err := tr.read(4)
		if err != nil {
			return tr.ioError(step, err, "reading a move")
		}
		id := binary.LittleEndian.Uint32(p)
		var m BoxMove
		if err := tr.readBox(&m.Box); err != nil {
			return tr.ioError(step, err, "reading a move")
		}
		if msg := checkBox(&m.Box); msg != "" {
			return bad(off+4, fmt.Sprintf("move of id %d: %s", id, msg))
		}
		if msg := tr.state.op(step, 'm', int64(id)); msg != "" {
			return bad(off, msg)
		}
		m.ID = int32(id)
		s.Move = append(s.Move, m)
	}
	for range removes {
		off := tr.off
		p, err := tr.read(4)
		if err != nil {
			return tr.ioError(step, err, "reading a remove")
		}
		id := binary.LittleEndian.Uint32(p)
		if msg := tr.state.op(step, 'r', int64(id)); msg != "" {
			return bad(off, msg)
		}
		s.Remove = append(s.Remove, int32(id))
	}
	tr.next++
	return nil
}

// BoxTrace is a whole box trace in memory (small traces, tests).
type BoxTrace struct {
	Objects int
	Steps   []BoxStep
}

// Header implements part of BoxSource (with Source).
func (t *BoxTrace) Header() (objects, steps int) { return t.Objects, len(t.Steps) }

// Source returns a BoxSource giving t's steps.
func (t *BoxTrace) Source() BoxSource { return &traceSource{t: t} }

type traceSource struct {
	t    *BoxTrace
	next int
}

func (s *traceSource) Header() (int, int) { return s.t.Header() }

func (s *traceSource) Next(st *BoxStep) error {
	if s.next == len(s.t.Steps) {
		return io.EOF
	}
	src := &s.t.Steps[s.next]
	s.next++
	st.Add = append(st.Add[:0], src.Add...)
	st.Move = append(st.Move[:0], src.Move...)
	st.Remove = append(st.Remove[:0], src.Remove...)
	return nil
}

// ReadBoxTrace reads a whole box trace from r.
func ReadBoxTrace(r io.Reader) (*BoxTrace, error) {
	tr, err := NewBoxTraceReader(r)
	if err != nil {
		return nil, err
	}
	t := &BoxTrace{Objects: tr.objects}
	for {
		var s BoxStep
		err := tr.Next(&s)
		if errors.Is(err, io.EOF) {
			return t, nil
		}
		if err != nil {
			return nil, err
		}
		t.Steps = append(t.Steps, s)
	}
}
