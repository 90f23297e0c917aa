package collide

import (
	"syscall"
	"time"
	"unsafe"
)

// clock returns the CPU time of the calling thread (Linux's
// CLOCK_THREAD_CPUTIME_ID), which time spent waiting for a processor does
// not inflate, so that Choose's timings hold on a busy machine; the wall
// clock if the system call fails.
func clock() time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTime = 3
	if _, _, e := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return wallClock()
	}
	return time.Duration(ts.Nano())
}
