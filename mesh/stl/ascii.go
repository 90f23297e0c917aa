package stl

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// scanner splits ASCII STL text into white-space separated words and counts
// lines. A word must fit its buffer.
type scanner struct {
	r        io.Reader
	buf      []byte
	pos, end int   // buf[pos:end] is unread
	line     int   // 1-based line of the next unread byte
	last     byte  // the last byte of the previous buffer load
	err      error // sticky error from r (io.EOF at the end)
}

// reset empties the buffer before a new load, remembering its last byte.
func (s *scanner) reset() {
	if s.end > 0 {
		s.last = s.buf[s.end-1]
	}
	s.pos, s.end = 0, 0
}

// eofLine is the line to report for an unexpected end of input: the last
// line, not the empty one after a final newline.
func (s *scanner) eofLine() int {
	if s.pos == s.end && s.line > 1 && (s.end > 0 && s.buf[s.end-1] == '\n' || s.end == 0 && s.last == '\n') {
		return s.line - 1
	}
	return s.line
}

// read appends at least one byte from r to buf[end:], or reports false with
// s.err set. buf[end:] must not be empty.
func (s *scanner) read() bool {
	for range 100 {
		if s.err != nil {
			return false
		}
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err != nil {
			s.err = err
		}
		if n > 0 {
			return true
		}
	}
	s.err = io.ErrNoProgress
	return false
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
				return s.word()
			}
			if c == '\n' {
				s.line++
			}
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
			return nil, lineError(s.line, "word longer than %d bytes", len(s.buf))
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

// skipLine discards the input up to and including the next newline.
func (s *scanner) skipLine() error {
	for {
		for s.pos < s.end {
			c := s.buf[s.pos]
			s.pos++
			if c == '\n' {
				s.line++
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
		return nil, lineError(s.eofLine(), "unexpected end of input, want %s", want)
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
	m := &mesh.TriMesh{}
	for {
		w, err := s.next()
		if err == io.EOF {
			return m, nil // isASCII guarantees a first "solid"
		}
		if err != nil {
			return nil, err
		}
		if !equalFold(w, "solid") {
			return nil, lineError(s.line, "want \"solid\" or the end of the input after \"endsolid\", found %s", quote(w))
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
func decodeSolid(s *scanner, m *mesh.TriMesh) error {
	for {
		w, err := s.expect("\"facet\" or \"endsolid\"")
		if err != nil {
			return err
		}
		if equalFold(w, "endsolid") {
			return s.skipLine()
		}
		if !equalFold(w, "facet") {
			return lineError(s.line, "want \"facet\" or \"endsolid\", found %s", quote(w))
		}
		if len(m.Tris) >= maxFacets {
			return lineError(s.line, "more than %d facets", maxFacets)
		}
		if w, err = s.expect("\"outer loop\""); err != nil {
			return err
		}
		if equalFold(w, "normal") {
			// The normal is ignored, and not parsed: some writers put
			// "nan" there for degenerate facets.
			for range 4 {
				if w, err = s.expect("\"outer loop\""); err != nil {
					return err
				}
			}
		}
		if !equalFold(w, "outer") {
			return lineError(s.line, "want \"outer loop\", found %s", quote(w))
		}
		if w, err = s.expect("\"loop\""); err != nil {
			return err
		}
		if !equalFold(w, "loop") {
			return lineError(s.line, "want \"loop\" after \"outer\", found %s", quote(w))
		}
		var tri [3]geom.Vec3
		n := 0
		for {
			if w, err = s.expect("\"vertex\" or \"endloop\""); err != nil {
				return err
			}
			if equalFold(w, "endloop") {
				break
			}
			if !equalFold(w, "vertex") {
				return lineError(s.line, "want \"vertex\" or \"endloop\", found %s", quote(w))
			}
			if n == 3 {
				return lineError(s.line, "facet with more than 3 vertices")
			}
			var c [3]float64
			for i := range c {
				if w, err = s.expect("a vertex coordinate"); err != nil {
					return err
				}
				if c[i], err = parseCoord(w); err != nil {
					return lineError(s.line, "%v", err)
				}
			}
			tri[n] = geom.Vec3{X: c[0], Y: c[1], Z: c[2]}
			n++
		}
		if n != 3 {
			return lineError(s.line, "facet with %d vertices, want 3", n)
		}
		if w, err = s.expect("\"endfacet\""); err != nil {
			return err
		}
		if !equalFold(w, "endfacet") {
			return lineError(s.line, "want \"endfacet\", found %s", quote(w))
		}
		if len(m.Tris) == cap(m.Tris) {
			// Double (append alone grows large slices by 1.25).
			n := max(2*len(m.Tris), 1024)
			m.Tris = slices.Grow(m.Tris, n-len(m.Tris))
			m.Verts = slices.Grow(m.Verts, 3*n-len(m.Verts))
		}
		k := int32(len(m.Verts))
		m.Verts = append(m.Verts, tri[0], tri[1], tri[2])
		m.Tris = append(m.Tris, [3]int32{k, k + 1, k + 2})
	}
}

// parseCoord parses a finite float64 coordinate.
func parseCoord(w []byte) (float64, error) {
	f, err := strconv.ParseFloat(string(w), 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) && !math.IsInf(f, 0) {
			return f, nil // underflow to zero or a subnormal: a fine value
		}
		return 0, fmt.Errorf("bad vertex coordinate %s", quote(w))
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, fmt.Errorf("non-finite vertex coordinate %s", quote(w))
	}
	return f, nil
}
