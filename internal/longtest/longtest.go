// Package longtest says whether the long test cases run.
//
// `go test ./...` runs a suite sized for a two-core machine: every kind of
// tree, every query mode and every code path against its oracle, on fewer
// seeds, smaller scenes and a deterministic sample of the larger matrices.
// With COLLIDE_LONG_TESTS=1 in the environment (which .ci/run sets) the
// tests run every case: the full conformance matrix, the exact sweeps, the
// long seeded runs. A test chooses its size with [Pick] or skips a long case
// with [Skip]; no assertion depends on the mode, only which cases run.
//
// COLLIDE_LONG=1 asks for the runs longer still, made by hand and not by CI
// (a million triangle pairs, full-size scenes, the exact sweeps of every
// other configuration): [Exhaustive] says whether they run, and the long
// cases run with them.
package longtest

import (
	"os"
	"testing"
)

// Env is the environment variable that turns the long cases on.
const Env = "COLLIDE_LONG_TESTS"

// ExhaustiveEnv is the environment variable that turns on the runs made
// by hand, longer than CI's.
const ExhaustiveEnv = "COLLIDE_LONG"

// Enabled reports whether the long cases run: Env (or ExhaustiveEnv) is
// set and neither empty nor "0".
func Enabled() bool { return set(Env) || Exhaustive() }

// Exhaustive reports whether the runs made by hand run: ExhaustiveEnv is
// set and neither empty nor "0".
func Exhaustive() bool { return set(ExhaustiveEnv) }

// set reports whether the environment variable name is set, and neither
// empty nor "0".
func set(name string) bool {
	v := os.Getenv(name)
	return v != "" && v != "0"
}

// Pick returns long when the long cases run and short otherwise.
func Pick[T any](short, long T) T {
	if Enabled() {
		return long
	}
	return short
}

// Skip skips t unless the long cases run, saying how to run it.
func Skip(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skip("a long case: " + Env + "=1 runs it")
	}
}
