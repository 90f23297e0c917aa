package ply

import (
	"io"

	"github.com/collide3d/collide/internal/textscan"
)

const (
	bufSize = 64 << 10 // the usual buffer size
	maxLine = 64 << 10 // longest header line (and longest ASCII word)
)

// reader buffers the input for the header lines, the ASCII words and the
// binary records, and keeps track of the byte offset and, in text, of the
// line number of buf[r] (LF, CRLF, CR CR LF and lone CR line ends, by the
// rule of textscan.LineCounter).
type reader struct {
	src  io.Reader
	buf  []byte
	r, w int   // buf[r:w] is buffered and unread
	base int64 // input offset of buf[0]
	err  error // sticky error from src (io.EOF at the end)
	textscan.LineCounter
}

func newReader(src io.Reader) *reader {
	rd := &reader{src: src, buf: make([]byte, bufSize)}
	rd.Line = 1
	return rd
}

// offset returns the input offset of the next unread byte.
func (rd *reader) offset() int64 { return rd.base + int64(rd.r) }

// end returns the input offset where the buffered data ends: after a failed
// fill, where the input ended.
func (rd *reader) end() int64 { return rd.base + int64(rd.w) }

// avail returns the buffered, unread bytes.
func (rd *reader) avail() []byte { return rd.buf[rd.r:rd.w] }

// fill makes at least n bytes available in buf[r:w], and reports whether it
// could (it cannot at the end of the input or on a read error, in rd.err).
func (rd *reader) fill(n int) bool {
	if rd.w-rd.r >= n {
		return true
	}
	return rd.fillSlow(n)
}

func (rd *reader) fillSlow(n int) bool {
	rd.compact()
	if n > len(rd.buf) {
		// Only for records larger than the buffer: their size is given by
		// the header, so this stays proportional to the input read.
		b := make([]byte, max(n, 2*len(rd.buf)))
		copy(b, rd.buf[:rd.w])
		rd.buf = b
	}
	for rd.w < n {
		if !rd.read() {
			return false
		}
	}
	return true
}

// compact moves the unread bytes to the start of buf.
func (rd *reader) compact() {
	if rd.r == 0 {
		return
	}
	copy(rd.buf, rd.buf[rd.r:rd.w])
	rd.base += int64(rd.r)
	rd.w -= rd.r
	rd.r = 0
}

// read appends at least one byte to buf[w:] (which must not be empty) or
// reports false with rd.err set.
func (rd *reader) read() bool {
	if rd.err != nil {
		return false
	}
	n, err := textscan.ReadSome(rd.src, rd.buf[rd.w:])
	rd.w += n
	rd.err = err
	return n > 0
}

// skip discards n bytes, and reports whether there were that many.
func (rd *reader) skip(n int64) bool {
	for {
		k := int64(rd.w - rd.r)
		if k >= n {
			rd.r += int(n)
			return true
		}
		n -= k
		rd.r = rd.w
		rd.compact()
		if !rd.read() {
			return false
		}
	}
}

// readLine returns the next line without its line end (LF, CR LF, CR CR LF
// or a lone CR), valid until the next call; the whole line end is consumed,
// so that a binary body starts right after it. At the end of the input it
// returns the last, unterminated line (ok) or nothing (not ok); too long a
// line is not ok with tooLong set.
func (rd *reader) readLine() (line []byte, ok, tooLong bool) {
	scanned := 0
	for {
		data := rd.buf[rd.r:rd.w]
		p := scanned
		for p < len(data) && data[p] != '\n' && data[p] != '\r' {
			p++
		}
		if p >= maxLine {
			return nil, false, true
		}
		if p < len(data) {
			if data[p] == '\r' && len(data) < p+3 && rd.err == nil {
				// Too few bytes after the CR to tell its kind.
				rd.fill(p + 3)
				scanned = p
				continue
			}
			n := 1 // LF, or a lone CR
			if data[p] == '\r' && p+1 < len(data) && data[p+1] == '\n' {
				n = 2
			} else if data[p] == '\r' && p+2 < len(data) && data[p+1] == '\r' && data[p+2] == '\n' {
				n = 3
			}
			rd.r += p + n
			rd.LF() // one line end, whatever its bytes
			return data[:p], true, false
		}
		scanned = p
		rd.compact()
		if rd.w == len(rd.buf) {
			return nil, false, true
		}
		if !rd.read() {
			if rd.err == io.EOF && rd.w > rd.r {
				line = rd.buf[rd.r:rd.w]
				rd.r = rd.w
				rd.Other()
				return line, true, false
			}
			return nil, false, false
		}
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// word returns the next white-space separated word of an ASCII body, valid
// until the next call, with ok false at the end of the input (or on a read
// error) and tooLong set for a word longer than maxLine.
func (rd *reader) word() (w []byte, ok, tooLong bool) {
	for {
		for rd.r < rd.w {
			c := rd.buf[rd.r]
			if !isSpace(c) {
				rd.Other()
				return rd.wordTail()
			}
			rd.Byte(c)
			rd.r++
		}
		rd.compact()
		if !rd.read() {
			return nil, false, false
		}
	}
}

func (rd *reader) wordTail() (w []byte, ok, tooLong bool) {
	i := rd.r
	for {
		for i < rd.w && !isSpace(rd.buf[i]) {
			i++
		}
		if i < rd.w {
			w = rd.buf[rd.r:i]
			rd.r = i
			return w, true, false
		}
		if i-rd.r >= maxLine {
			return nil, false, true
		}
		k := rd.r
		rd.compact()
		i -= k
		if rd.w == len(rd.buf) {
			return nil, false, true
		}
		if !rd.read() {
			w = rd.buf[rd.r:i]
			rd.r = i
			return w, rd.err == io.EOF, false
		}
	}
}
