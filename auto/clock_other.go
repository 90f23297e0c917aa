//go:build !linux

package auto

import "time"

// threadTime returns the wall clock (on Linux, the thread's CPU time).
func threadTime() time.Duration { return wallTime() }
