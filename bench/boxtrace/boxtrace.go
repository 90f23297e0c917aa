package boxtrace

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/collide3d/collide/geom"
)

// The file format's magic and version, and the largest object count
// (see the package doc).
const (
	Magic   = "BOXTRACE"
	Version = 1
	// MaxObjects caps the object count of a trace (the readers
	// allocate per-object state up front).
	MaxObjects = 1 << 22
)

// Added is an object added in a step of a box trace.
type Added struct {
	ID     int32
	Static bool
	Box    geom.AABB
}

// Moved is an object moved in a step of a box trace.
type Moved struct {
	ID  int32
	Box geom.AABB
}

// Step is one step of a box trace.
type Step struct {
	Add    []Added
	Move   []Moved
	Remove []int32
}

// Reset empties s, keeping its slices' storage.
func (s *Step) Reset() {
	s.Add, s.Move, s.Remove = s.Add[:0], s.Move[:0], s.Remove[:0]
}

// A Source gives a box trace step by step: a trace file being read
// (Reader) or a scene being generated (Brownian).
type Source interface {
	// Header returns the object count (ids are below it) and the number of
	// steps.
	Header() (objects, steps int)
	// Next fills s (reusing its storage) with the next step; it returns
	// io.EOF after the last one.
	Next(s *Step) error
}

// FormatError reports a malformed box trace (reading) or a step that
// breaks the trace's rules (writing).
type FormatError struct {
	Offset int64 // byte offset in the file where the problem is; -1 when writing
	Step   int   // the step, or -1 for the header
	Msg    string
}

func (e *FormatError) Error() string {
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

// Writer writes a box trace, checking each step against the rules.
type Writer struct {
	w       *bufio.Writer
	state   *traceState
	steps   int
	written int
	buf     [64]byte
	err     error
}

// NewWriter writes the header of a trace of steps steps on ids in
// [0, objects) to w and returns the writer of its steps.
func NewWriter(w io.Writer, objects, steps int) (*Writer, error) {
	if objects < 0 || objects > MaxObjects {
		return nil, &FormatError{Offset: -1, Step: -1, Msg: fmt.Sprintf("object count %d out of range [0, %d]", objects, MaxObjects)}
	}
	if steps < 0 || steps > math.MaxUint32 {
		return nil, &FormatError{Offset: -1, Step: -1, Msg: fmt.Sprintf("step count %d out of range", steps)}
	}
	tw := &Writer{w: bufio.NewWriterSize(w, 1<<16), state: newTraceState(objects), steps: steps}
	var h [24]byte
	copy(h[:8], Magic)
	binary.LittleEndian.PutUint32(h[8:], Version)
	binary.LittleEndian.PutUint32(h[12:], uint32(objects))
	binary.LittleEndian.PutUint32(h[16:], uint32(steps))
	if _, err := tw.w.Write(h[:]); err != nil {
		return nil, err
	}
	return tw, nil
}

func (tw *Writer) u32(x uint32) {
	binary.LittleEndian.PutUint32(tw.buf[:4], x)
	tw.w.Write(tw.buf[:4])
}

func (tw *Writer) box(b *geom.AABB) {
	v := [6]float64{b.Min.X, b.Min.Y, b.Min.Z, b.Max.X, b.Max.Y, b.Max.Z}
	for i, x := range v {
		binary.LittleEndian.PutUint64(tw.buf[8*i:], math.Float64bits(x))
	}
	tw.w.Write(tw.buf[:48])
}

// WriteStep writes the next step. A step that breaks the rules is an error
// (*FormatError), and so is every later call.
func (tw *Writer) WriteStep(s *Step) error {
	if tw.err != nil {
		return tw.err
	}
	step := tw.written
	fail := func(msg string) error {
		tw.err = &FormatError{Offset: -1, Step: step, Msg: msg}
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
func (tw *Writer) Close() error {
	if tw.err != nil {
		return tw.err
	}
	if tw.written != tw.steps {
		tw.err = &FormatError{Offset: -1, Step: tw.written, Msg: fmt.Sprintf("%d steps written, %d declared", tw.written, tw.steps)}
		return tw.err
	}
	return tw.w.Flush()
}

// Write writes every step of src to w as a box trace.
func Write(w io.Writer, src Source) error {
	objects, steps := src.Header()
	tw, err := NewWriter(w, objects, steps)
	if err != nil {
		return err
	}
	var s Step
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

// Reader reads a box trace step by step, checking it; it is a
// Source.
type Reader struct {
	r       *bufio.Reader
	off     int64
	objects int
	steps   int
	next    int
	state   *traceState
	buf     [64]byte
	err     error
}

// NewReader reads the header of a box trace from r.
func NewReader(r io.Reader) (*Reader, error) {
	tr := &Reader{r: bufio.NewReaderSize(r, 1<<16)}
	var h [24]byte
	if _, err := io.ReadFull(tr.r, h[:]); err != nil {
		return nil, tr.ioError(-1, err, "reading the header")
	}
	tr.off = 24
	bad := func(off int64, msg string) error { return &FormatError{Offset: off, Step: -1, Msg: msg} }
	if string(h[:8]) != Magic {
		return nil, bad(0, fmt.Sprintf("bad magic %q, want %q (not a box trace)", h[:8], Magic))
	}
	if v := binary.LittleEndian.Uint32(h[8:]); v != Version {
		return nil, bad(8, fmt.Sprintf("version %d, want %d", v, Version))
	}
	objects := binary.LittleEndian.Uint32(h[12:])
	if objects > MaxObjects {
		return nil, bad(12, fmt.Sprintf("object count %d exceeds the limit %d", objects, MaxObjects))
	}
	if x := binary.LittleEndian.Uint32(h[20:]); x != 0 {
		return nil, bad(20, fmt.Sprintf("reserved field is %d, want 0", x))
	}
	tr.objects = int(objects)
	tr.steps = int(binary.LittleEndian.Uint32(h[16:]))
	tr.state = newTraceState(tr.objects)
	return tr, nil
}

// Header implements Source.
func (tr *Reader) Header() (objects, steps int) { return tr.objects, tr.steps }

func (tr *Reader) ioError(step int, err error, what string) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return &FormatError{Offset: tr.off, Step: step, Msg: "truncated file, " + what}
	}
	return fmt.Errorf("box trace: offset %d: %s: %w", tr.off, what, err)
}

func (tr *Reader) read(n int) ([]byte, error) {
	b := tr.buf[:n]
	if _, err := io.ReadFull(tr.r, b); err != nil {
		return nil, err
	}
	tr.off += int64(n)
	return b, nil
}

func (tr *Reader) readBox(b *geom.AABB) error {
	p, err := tr.read(48)
	if err != nil {
		return err
	}
	f := func(i int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:])) }
	*b = geom.AABB{Min: geom.V(f(0), f(1), f(2)), Max: geom.V(f(3), f(4), f(5))}
	return nil
}

// Next implements Source: it reads the next step into s, reusing its
// storage. After the last step it checks that the file ends there and
// returns io.EOF. Errors are *FormatError for a malformed file.
func (tr *Reader) Next(s *Step) error {
	if tr.err != nil {
		return tr.err
	}
	tr.err = tr.nextStep(s)
	if tr.err == nil {
		return nil
	}
	return tr.err
}

func (tr *Reader) nextStep(s *Step) error {
	step := tr.next
	s.Reset()
	if step == tr.steps {
		var b [1]byte
		if n, _ := io.ReadFull(tr.r, b[:]); n > 0 {
			return &FormatError{Offset: tr.off, Step: step - 1, Msg: "data after the last step"}
		}
		return io.EOF
	}
	bad := func(off int64, msg string) error { return &FormatError{Offset: off, Step: step, Msg: msg} }
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
		var a Added
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
		var m Moved
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

// Trace is a whole box trace in memory (small traces, tests).
type Trace struct {
	Objects int
	Steps   []Step
}

// Header implements part of Source (with Source).
func (t *Trace) Header() (objects, steps int) { return t.Objects, len(t.Steps) }

// Source returns a Source giving t's steps.
func (t *Trace) Source() Source { return &traceSource{t: t} }

type traceSource struct {
	t    *Trace
	next int
}

func (s *traceSource) Header() (int, int) { return s.t.Header() }

func (s *traceSource) Next(st *Step) error {
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

// Read reads a whole box trace from r.
func Read(r io.Reader) (*Trace, error) {
	tr, err := NewReader(r)
	if err != nil {
		return nil, err
	}
	t := &Trace{Objects: tr.objects}
	for {
		var s Step
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
