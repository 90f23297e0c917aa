package main

import (
	"errors"
	"flag"
	"strconv"

	"github.com/collide3d/collide/internal/textscan"
)

// Numeric flags read decimal numbers only, with the grammar of the mesh
// and pose files (internal/textscan): Go's other spellings, which the flag
// package would accept ("0x10", "1_0", "0x1p-3"), are usage errors.

// floatValue is a float64 flag.
type floatValue struct{ p *float64 }

func (v floatValue) String() string {
	if v.p == nil {
		return "0"
	}
	return strconv.FormatFloat(*v.p, 'g', -1, 64)
}

func (v floatValue) Set(s string) error {
	x, e := textscan.ParseFloat([]byte(s))
	if e != textscan.NumOK {
		return errors.New(e.Describe([]byte(s)))
	}
	*v.p = x
	return nil
}

// intValue is a whole-number flag of type T.
type intValue[T int | int64 | uint64] struct{ p *T }

func (v intValue[T]) String() string {
	if v.p == nil {
		return "0"
	}
	if u, ok := any(*v.p).(uint64); ok {
		return strconv.FormatUint(u, 10)
	}
	return strconv.FormatInt(int64(*v.p), 10)
}

func (v intValue[T]) Set(s string) error {
	var z T
	if _, unsigned := any(z).(uint64); unsigned {
		u, err := strconv.ParseUint(s, 10, 64) // base 10: no prefix, no underscore
		if err != nil {
			return errors.New("want a decimal whole number >= 0")
		}
		*v.p = T(u)
		return nil
	}
	x, err := strconv.ParseInt(s, 10, strconv.IntSize)
	if err != nil {
		return errors.New("want a decimal whole number")
	}
	*v.p = T(x)
	return nil
}

// floatFlag defines a float64 flag with default value, read as a decimal
// number.
func floatFlag(fs *flag.FlagSet, p *float64, name string, value float64, usage string) {
	*p = value
	fs.Var(floatValue{p}, name, usage)
}

// intFlag defines a whole-number flag with default value, read in decimal.
func intFlag[T int | int64 | uint64](fs *flag.FlagSet, p *T, name string, value T, usage string) {
	*p = value
	fs.Var(intValue[T]{p}, name, usage)
}
