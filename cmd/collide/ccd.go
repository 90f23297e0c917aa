package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/collide3d/collide/internal/jsonl"

	"github.com/collide3d/collide/ccd"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/textscan"
)

type ccdOptions struct {
	summary bool
}

func ccdCommand() *command {
	return &command{
		name:  "ccd",
		usage: "ccd [--summary] FILE",
		help: `
Answers continuous-collision queries between primitives moving linearly in
time, one a line of FILE (- reads the standard input), with package ccd:
does a vertex touch a triangle (vf), or an edge an edge (ee), at some time
t in [0, 1], and if so when first. Every point moves on a straight line
from its position at t = 0 to its position at t = 1. Triangles and edges
are closed point sets: touching counts.

Each line that is not blank or a comment (# to the end of the line) is a
kind, vf or ee, then 24 decimal numbers separated by spaces or tabs: the
eight points at t = 0, then the same eight points at t = 1, each as x y z:
  vf  p a b c (at t = 0)  p a b c (at t = 1)    vertex p, triangle abc
  ee  p q r s (at t = 0)  p q r s (at t = 1)    edge pq, edge rs

Each query prints one line (JSON Lines), in the order of the file:
  {"line":N,"hit":true,"toi":[LO,HI]}
  {"line":N,"hit":false}
N is the query's line in FILE (from 1). On a hit, the earliest time of
contact t lies in [LO, HI], an interval at most 2^-40 wide (a single point
when the primitives touch at t = 0). The answer is exact for the numbers
as given. Numbers are printed with as many digits as read back the same
float64.

A bad line (a kind other than vf or ee, other than 24 numbers, a number
that is not a finite decimal number) is an error naming FILE and the line:
the output streams, so the lines before it have been printed, and nothing
is printed for it or the lines after it. Lines are read and answered one
at a time: a file of any length runs in constant memory.

--summary prints a last line
  {"summary":{"queries":N,"vf":N,"ee":N,"hits":N,"seconds":S}}
seconds being the time of the queries alone.`,
		flags: func(fs *flag.FlagSet) any {
			o := &ccdOptions{}
			fs.BoolVar(&o.summary, "summary", false, "print a last line with the number of queries and hits and the time they took")
			return o
		},
		run: runCCD,
	}
}

func runCCD(e *env, opts any, args []string) error {
	o := opts.(*ccdOptions)
	if len(args) != 1 {
		return usagef("need 1 FILE (- for the standard input); got %d arguments", len(args))
	}
	name, r := args[0], e.stdin
	if name == "-" {
		name = "stdin"
	} else {
		f, err := os.Open(args[0])
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	w := bufio.NewWriter(e.stdout)
	sum, err := answerCCD(r, name, w)
	if err == nil && o.summary {
		b := strconv.AppendInt(append([]byte(nil), `{"summary":{"queries":`...), sum.queries(), 10)
		b = strconv.AppendInt(append(b, `,"vf":`...), sum.n[vfKind], 10)
		b = strconv.AppendInt(append(b, `,"ee":`...), sum.n[eeKind], 10)
		b = strconv.AppendInt(append(b, `,"hits":`...), sum.hits, 10)
		b = jsonl.AppendNumber(append(b, `,"seconds":`...), sum.time.Seconds())
		_, err = w.Write(append(b, "}}\n"...))
		if err != nil {
			err = fmt.Errorf("writing output: %w", err)
		}
	}
	// The lines before an error are printed.
	if ferr := w.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("writing output: %w", ferr)
	}
	return err
}

// ccdKind is the kind of a line of ccd's input.
type ccdKind uint8

const (
	vfKind ccdKind = iota
	eeKind
)

// ccdQuery is one query of ccd's input: its kind and its eight points,
// those at t = 0 then those at t = 1.
type ccdQuery struct {
	kind ccdKind
	line int
	p    [8]geom.Vec3
}

// answer returns the query's answer.
func (q *ccdQuery) answer() (ccd.Interval, bool) {
	p := &q.p
	if q.kind == vfKind {
		return ccd.VertexFace(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7])
	}
	return ccd.EdgeEdge(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7])
}

// ccdSummary counts ccd's queries.
type ccdSummary struct {
	n    [2]int64 // queries of each kind
	hits int64
	time time.Duration
}

func (s *ccdSummary) queries() int64 { return s.n[vfKind] + s.n[eeKind] }

// answerCCD reads the queries of r (named name in errors) one line at a
// time and writes each answer's line to w, reusing one buffer: nothing is
// allocated per line.
func answerCCD(r io.Reader, name string, w io.Writer) (ccdSummary, error) {
	var sum ccdSummary
	cr := newCCDReader(r)
	var q ccdQuery
	var b []byte
	for {
		ok, err := cr.next(&q)
		if err != nil {
			return sum, fmt.Errorf("%s: %w", name, err)
		}
		if !ok {
			return sum, nil
		}
		start := time.Now()
		toi, hit := q.answer()
		sum.time += time.Since(start)
		sum.n[q.kind]++
		if hit {
			sum.hits++
		}
		b = appendCCDLine(b[:0], q.line, toi, hit)
		if _, err := w.Write(b); err != nil {
			return sum, fmt.Errorf("writing output: %w", err)
		}
	}
}

// appendCCDLine appends the JSON line of the answer to the query of line
// n: {"line":N,"hit":true,"toi":[LO,HI]} or {"line":N,"hit":false}.
func appendCCDLine(b []byte, n int, toi ccd.Interval, hit bool) []byte {
	b = strconv.AppendInt(append(b, `{"line":`...), int64(n), 10)
	if !hit {
		return append(b, `,"hit":false}`+"\n"...)
	}
	b = jsonl.AppendNumber(append(b, `,"hit":true,"toi":[`...), toi.Lo)
	b = jsonl.AppendNumber(append(b, ','), toi.Hi)
	return append(b, "]}\n"...)
}

// ccdReader reads the queries of ccd's input, a line at a time.
type ccdReader struct {
	lr *textscan.LineReader
}

func newCCDReader(r io.Reader) *ccdReader {
	return &ccdReader{lr: textscan.NewLineReader(r)}
}

// ccdNumbers is the count of numbers after the kind: eight points.
const ccdNumbers = 24

// next reads the next query into q, skipping blank and comment lines. It
// returns false at the end of the input, and an error naming the line for
// a bad line or a failed read.
func (cr *ccdReader) next(q *ccdQuery) (bool, error) {
	lr := cr.lr
	for {
		b, ok := lr.Next()
		if !ok {
			break
		}
		kind, i := textscan.Field(b, 0)
		if len(kind) == 0 {
			continue // blank or a comment
		}
		q.line = lr.Line
		switch string(kind) { // (no allocation: compared in place)
		case "vf":
			q.kind = vfKind
		case "ee":
			q.kind = eeKind
		default:
			return false, fmt.Errorf("line %d: unknown query kind %s (want vf or ee, then %d numbers)", lr.Line, textscan.Quote(kind), ccdNumbers)
		}
		var x [ccdNumbers]float64
		n := 0
		for {
			var tok []byte
			tok, i = textscan.Field(b, i)
			if len(tok) == 0 {
				break
			}
			if n < ccdNumbers {
				v, e := textscan.ParseFloat(tok)
				if e != textscan.NumOK {
					return false, fmt.Errorf("line %d: number %d: %s", lr.Line, n+1, e.Describe(tok))
				}
				x[n] = v
			}
			n++
		}
		if n != ccdNumbers {
			return false, fmt.Errorf("line %d: %s wants %d numbers (%s at t = 0, then at t = 1, x y z each), got %d",
				lr.Line, kind, ccdNumbers, ccdPoints[q.kind], n)
		}
		for k := range q.p {
			q.p[k] = geom.Vec3{X: x[3*k], Y: x[3*k+1], Z: x[3*k+2]}
		}
		return true, nil
	}
	if err := lr.Err; err != nil {
		if errors.Is(err, textscan.ErrLineTooLong) {
			return false, fmt.Errorf("line %d: line longer than %d bytes", lr.Line+1, textscan.MaxLine)
		}
		return false, fmt.Errorf("reading: %w", err)
	}
	return false, nil
}

// ccdPoints names the four points of each kind, for errors.
var ccdPoints = [2]string{
	vfKind: "the vertex and the triangle's three vertices",
	eeKind: "the first edge's two ends and the second's",
}
