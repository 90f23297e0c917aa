// Package jsonl writes the JSON Lines that collide's commands print with
// --json: one function for each kind of line, used by cmd/collide and by
// the Beam pipeline's shards (package internal/jobs), so that the two print
// the same bytes for the same answer.
//
// Numbers are written as encoding/json writes a float64: the shortest
// decimal that reads back as the same float64.
package jsonl

import (
	"encoding/json"
	"io"
	"math"
	"strconv"

	"github.com/collide3d/collide/geom"
)

// AppendFloat appends x (finite) as encoding/json writes a float64: the
// shortest decimal that reads back as x, with an exponent below 10^-6 and
// from 10^21 on (as in ECMAScript), not padded to two digits.
func AppendFloat(b []byte, x float64) []byte {
	f := byte('f')
	if a := math.Abs(x); a != 0 && (a < 1e-6 || a >= 1e21) {
		f = 'e'
	}
	b = strconv.AppendFloat(b, x, f, -1, 64)
	if n := len(b); f == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1] // e-07 → e-7
		b = b[:n-1]
	}
	return b
}

// AppendNumber appends x as AppendFloat does, or null if x is not finite,
// which JSON cannot write.
func AppendNumber(b []byte, x float64) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return append(b, "null"...)
	}
	return AppendFloat(b, x)
}

// AppendVec appends v as a JSON array [x,y,z].
func AppendVec(b []byte, v geom.Vec3) []byte {
	b = AppendNumber(append(b, '['), v.X)
	b = AppendNumber(append(b, ','), v.Y)
	b = AppendNumber(append(b, ','), v.Z)
	return append(b, ']')
}

// WriteLine writes v, marshalled by encoding/json, as one line.
func WriteLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
