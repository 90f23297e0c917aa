package stl

import (
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/textscan"
	"github.com/collide3d/collide/mesh"
)

// scanner splits ASCII STL text into white-space separated words and counts
// lines (LF, CRLF, CR CR LF and lone CR line ends, by the rule of
// textscan.LineCounter). A word must fit its buffer.
type scanner struct {
	r        io.Reader
	buf      []byte
	pos, end int   // buf[pos:end] is unread
	err      error // sticky error from r (io.EOF at the end)
	textscan.LineCounter
}

// reset empties the buffer before a new load.
func (s *scanner) reset() {
	s.pos, s.end = 0, 0
}

// read appends at least one byte from r to buf[end:], or reports false with
// s.err set. buf[end:] must not be empty.
func (s *scanner) read() bool {
	if s.err != nil {
		return false
	}
	n, err := textscan.ReadSome(s.r, s.buf[s.end:])
	s.end += n
	s.err = err
	return n > 0
}

// readErr turns the sticky read error into the error to return: io.EOF
// stays io.EOF (the caller decides), anything else is passed on.
func (s *scanner) readErr() error {
	if s.err == nil {
		return io.EOF
	}
	return s.err
}

// next returns the next word, valid until the following call, or io.EOF at
// the end of the input.
func (s *scanner) next() ([]byte, error) {
	for {
		for s.pos < s.end {
			c := s.buf[s.pos]
			if !isSpace(c) {
				s.Other()
				return s.word()
			}
			s.Byte(c)
			s.pos++
		}
		s.reset()
		if !s.read() {
			return nil, s.readErr()
		}
	}
}

// word scans the word starting at s.pos.
func (s *scanner) word() ([]byte, error) {
	start := s.pos
	for {
		for s.pos < s.end && !isSpace(s.buf[s.pos]) {
			s.pos++
		}
		if s.pos < s.end {
			return s.buf[start:s.pos], nil
		}
		if start == 0 && s.end == len(s.buf) {
			return nil, lineError(s.Line, "word longer than %d bytes", len(s.buf))
		}
		copy(s.buf, s.buf[start:s.end])
		s.pos -= start
		s.end -= start
		start = 0
		if !s.read() {
			if s.err == io.EOF {
				return s.buf[:s.pos], nil
			}
			return nil, s.err
		}
	}
}

// skipLine discards the input up to and including the next line end (its
// first byte: next skips the rest of a CR LF or CR CR LF).
func (s *scanner) skipLine() error {
	s.Other()
	for {
		for s.pos < s.end {
			c := s.buf[s.pos]
			s.pos++
			if c == '\n' || c == '\r' {
				s.Byte(c)
				return nil
			}
		}
		s.reset()
		if !s.read() {
			if s.err == io.EOF {
				return nil
			}
			return s.err
		}
	}
}

// expect returns the next word; the end of the input is an error that says
// what was wanted.
func (s *scanner) expect(want string) ([]byte, error) {
	w, err := s.next()
	if err == io.EOF {
		return nil, lineError(s.EOFLine(), "unexpected end of input, want %s", want)
	}
	return w, err
}

// quote renders a word for an error message, shortened if long.
func quote(w []byte) string {
	if len(w) > 40 {
		return strconv.Quote(string(w[:40])) + "..."
	}
	return strconv.Quote(string(w))
}

// decodeASCII reads one or more "solid ... endsolid" blocks.
func decodeASCII(s *scanner) (*mesh.TriMesh, error) {
	m := &welder{m: &mesh.TriMesh{}}
	for {
		w, err := s.next()
		if err == io.EOF {
			return m.done(), nil // isASCII guarantees a first "solid"
		}
		if err != nil {
			return nil, err
		}
		if !textscan.EqualFold(w, "solid") {
			return nil, lineError(s.Line, "want \"solid\" or the end of the input after \"endsolid\", found %s", quote(w))
		}
		if err := s.skipLine(); err != nil {
			return nil, err
		}
		if err := decodeSolid(s, m); err != nil {
			return nil, err
		}
	}
}

// decodeSolid reads facets up to and including "endsolid" and its line.
func decodeSolid(s *scanner, wm *welder) error {
	m := wm.m
	for {
		w, err := s.expect("\"facet\" or \"endsolid\"")
		if err != nil {
			return err
		}
		if textscan.EqualFold(w, "endsolid") {
			return s.skipLine()
		}
		if !textscan.EqualFold(w, "facet") {
			return lineError(s.Line, "want \"facet\" or \"endsolid\", found %s", quote(w))
		}
		if len(m.Tris) >= maxFacets {
			return lineError(s.Line, "more than %d facets", maxFacets)
		}
		if w, err = s.expect("\"outer loop\""); err != nil {
			return err
		}
		if textscan.EqualFold(w, "normal") {
			// The normal is ignored, and not parsed: some writers put
			// "nan" there for degenerate facets.
			for range 4 {
				if w, err = s.expect("\"outer loop\""); err != nil {
					return err
				}
			}
		}
		if !textscan.EqualFold(w, "outer") {
			return lineError(s.Line, "want \"outer loop\", found %s", quote(w))
		}
		if w, err = s.expect("\"loop\""); err != nil {
			return err
		}
		if !textscan.EqualFold(w, "loop") {
			return lineError(s.Line, "want \"loop\" after \"outer\", found %s", quote(w))
		}
		var tri [3]geom.Vec3
		n := 0
		for {
			if w, err = s.expect("\"vertex\" or \"endloop\""); err != nil {
				return err
			}
			if textscan.EqualFold(w, "endloop") {
				break
			}
			if !textscan.EqualFold(w, "vertex") {
				return lineError(s.Line, "want \"vertex\" or \"endloop\", found %s", quote(w))
			}
			if n == 3 {
				return lineError(s.Line, "facet with more than 3 vertices")
			}
			var c [3]float64
			for i := range c {
				if w, err = s.expect("a vertex coordinate"); err != nil {
					return err
				}
				if c[i], err = parseCoord(w); err != nil {
					return lineError(s.Line, "%v", err)
				}
			}
			tri[n] = geom.Vec3{X: c[0], Y: c[1], Z: c[2]}
			n++
		}
		if n != 3 {
			return lineError(s.Line, "facet with %d vertices, want 3", n)
		}
		if w, err = s.expect("\"endfacet\""); err != nil {
			return err
		}
		if !textscan.EqualFold(w, "endfacet") {
			return lineError(s.Line, "want \"endfacet\", found %s", quote(w))
		}
		if len(m.Tris) == cap(m.Tris) {
			// Double (append alone grows large slices by 1.25).
			n := max(2*len(m.Tris), 1024)
			m.Tris = slices.Grow(m.Tris, n-len(m.Tris))
		}
		wm.facet(tri)
	}
}

// parseCoord parses a decimal coordinate into a finite float64 (see
// textscan.ParseFloat; an underflow to zero or a subnormal is a fine value).
func parseCoord(w []byte) (float64, error) {
	f, e := textscan.ParseFloat(w)
	switch e {
	case textscan.NumOK:
		return f, nil
	case textscan.NumNonFinite:
		return 0, fmt.Errorf("non-finite vertex coordinate %s", quote(w))
	case textscan.NumRange:
		return 0, fmt.Errorf("bad vertex coordinate %s: beyond the float64 range", quote(w))
	}
	return 0, fmt.Errorf("bad vertex coordinate %s: not a decimal number", quote(w))
}
