package threadcpu

import (
	"runtime"
	"testing"
)

// TestNowAdvances checks that the thread's CPU time grows with work done
// and never goes back.
func TestNowAdvances(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, _ := Now()
	x := 1.0
	for i := range 20_000_000 {
		x = x*1.0000001 + float64(i&1)
	}
	t1, _ := Now()
	if t1 <= t0 {
		t.Errorf("CPU time went from %v to %v over 20 M multiplications (x = %v)", t0, t1, x)
	}
}
