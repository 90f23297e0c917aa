// Package threadcpu reads the CPU time of the calling thread, for
// benchmarks that compare builds on a busy machine: the time a thread
// waits for a processor does not count, where the wall clock swings by
// tens of percent. Lock the goroutine to its thread (runtime.LockOSThread)
// around what is measured.
package threadcpu

import "time"

// Now returns the CPU time the calling thread has used (Linux's
// CLOCK_THREAD_CPUTIME_ID), or the wall clock where that clock cannot be
// read (ok false).
func Now() (d time.Duration, ok bool) {
	if d, ok := now(); ok {
		return d, true
	}
	return time.Duration(time.Now().UnixNano()), false
}
