package batch

import (
	"context"
	"sync/atomic"
	"testing"
)

// TestWorkerPanic checks that a panic in a worker goroutine is raised again
// in the caller's, where it can be recovered, rather than ending the
// process, and that the other workers stop.
func TestWorkerPanic(t *testing.T) {
	for _, workers := range []int{1, 3} {
		b := newRun(100_000, workers, "pose")
		var chunks atomic.Int64
		got := func() (r any) {
			defer func() { r = recover() }()
			b.parallel(context.Background(), func(w int, next func() (int, int, bool)) {
				for {
					lo, _, ok := next()
					if !ok {
						return
					}
					chunks.Add(1)
					if lo >= 10*b.chunk {
						panic("boom")
					}
				}
			})
			return nil
		}()
		if got != "boom" {
			t.Errorf("%d workers: recovered %v, want the worker's panic", workers, got)
		}
		if n := chunks.Load(); n >= int64(b.chunks()) {
			t.Errorf("%d workers: %d chunks of %d ran: the others did not stop", workers, n, b.chunks())
		}
	}
}
