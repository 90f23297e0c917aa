package auto

import (
	"syscall"
	"time"
	"unsafe"
)

// threadTime returns the CPU time of the calling thread (Linux's
// CLOCK_THREAD_CPUTIME_ID), which time spent waiting for a processor does
// not inflate, so that Choose's timings hold on a busy machine; the wall
// clock if the system call fails.
func threadTime() time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTime = 3
	if _, _, e := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return wallTime()
	}
	return time.Duration(ts.Nano())
}
