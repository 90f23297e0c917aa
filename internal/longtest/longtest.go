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
// COLLIDE_LONG=1, which some packages read on their own, is another thing:
// the runs longer still (a million triangle pairs, full-size scenes) that
// are made by hand.
package longtest

import (
	"os"
	"testing"
)

// Env is the environment variable that turns the long cases on.
const Env = "COLLIDE_LONG_TESTS"

// Enabled reports whether the long cases run: Env is set and neither empty
// nor "0".
func Enabled() bool {
	v := os.Getenv(Env)
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
