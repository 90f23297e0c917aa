package nc

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/nc/gcode"
	"github.com/collide3d/collide/nc/ncgen"
)

// cancelAt is the moves of a program, cancelling a context as it returns
// move at (never if at < 0).
type cancelAt struct {
	programMoves
	at     int
	cancel context.CancelFunc
}

func (m *cancelAt) Next() (gcode.Move, error) {
	if m.i == m.at {
		m.cancel()
	}
	return m.programMoves.Next()
}

// TestCheckContext stops checks by their context: before the first move
// (a context cancelled already), as move k is read (for every k: the
// check must have checked exactly the moves before it), and within a move
// (cancelled by the violation callback: the check stops at its next look,
// within a few hundred tests, in the move it was in, unless it ends
// first). Each returns an error wrapping
// context.Canceled and a Summary that says what was checked, every
// violation reported being the whole check's (checkStopped); a check
// after a stopped one, with a live context, gives the whole check's
// answer.
func TestCheckContext(t *testing.T) {
	part, o, p := budgetScene(t)
	full, fullSum := runBudget(t, part, o, p)
	c, err := New(part, o)
	if err != nil {
		t.Fatal(err)
	}
	collect := func(vs *[]Violation) func(Violation) bool {
		return func(v Violation) bool { *vs = append(*vs, v); return true }
	}
	canceled := func(name string, sum Summary, err error) {
		t.Helper()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: error %v, want context.Canceled", name, err)
		}
		if !sum.Stopped {
			t.Fatalf("%s: a stopped check's summary not Stopped: %+v", name, sum)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var vs []Violation
	sum, err := c.CheckContext(ctx, p, collect(&vs))
	canceled("cancelled before", sum, err)
	if len(vs) != 0 || sum.Reached != 0 || sum.Checked != 0 || sum.Stats != (Stats{}) {
		t.Fatalf("cancelled before: %d violations, %+v", len(vs), sum)
	}

	// Cancelled as move k is read: the moves before are checked whole.
	for k := 0; k <= len(p.Moves); k += max(1, len(p.Moves)/20) {
		name := fmt.Sprintf("cancelled at move %d of %d", k, len(p.Moves))
		ctx, cancel := context.WithCancel(context.Background())
		vs = nil
		sum, err := c.CheckReaderContext(ctx, &cancelAt{programMoves: programMoves{p: p}, at: k, cancel: cancel}, collect(&vs))
		cancel()
		if k == len(p.Moves) {
			// Cancelled after the last move: nothing left to stop.
			if err != nil || sum.Stopped || len(vs) != len(full) {
				t.Fatalf("%s: %v, %+v", name, err, sum)
			}
			continue
		}
		canceled(name, sum, err)
		if sum.Reached != k || sum.Unfinished != 0 {
			t.Fatalf("%s: reached %d, %d unfinished", name, sum.Reached, sum.Unfinished)
		}
		checkStopped(t, name, p, vs, sum, full, fullSum)
	}

	// Cancelled by the violation callback, inside a move.
	for j := 0; j < len(full); j += max(1, len(full)/20) {
		name := fmt.Sprintf("cancelled at violation %d of %d", j+1, len(full))
		ctx, cancel := context.WithCancel(context.Background())
		vs = nil
		sum, err := c.CheckContext(ctx, p, func(v Violation) bool {
			vs = append(vs, v)
			if len(vs) == j+1 {
				cancel()
			}
			return true
		})
		cancel()
		if err == nil && !sum.Stopped && reflect.DeepEqual(vs, full) {
			continue // the check ended before its next look
		}
		canceled(name, sum, err)
		if sum.Reached > full[j].Move+1 || len(vs) < j+1 {
			t.Fatalf("%s (move %d): reached %d, %d violations", name, full[j].Move, sum.Reached, len(vs))
		}
		checkStopped(t, name, p, vs, sum, full, fullSum)
	}

	// The checker is as good as new.
	vs = nil
	sum, err = c.CheckContext(context.Background(), p, collect(&vs))
	sum.Seconds, fullSum.Seconds = 0, 0
	if err != nil || !reflect.DeepEqual(vs, full) || !reflect.DeepEqual(sum, fullSum) {
		t.Fatalf("after stopped checks: %v, %+v, want %+v", err, sum, fullSum)
	}
}

// BenchmarkCheckContext checks BenchmarkZigZag's mold20k program with
// Check (no context to look at) and with CheckContext under a live
// cancellable context (looked at before each move and every 256 tests), to
// measure the looks.
func BenchmarkCheckContext(b *testing.B) {
	m := gen.Must(ncgen.Mold(100, 0))
	part, err := collide.Build(m, collide.BuildOptions{})
	if err != nil {
		b.Fatal(err)
	}
	text := ncgen.ZigZag(m, 3, ncgen.ZigZagOptions{Step: 0.5, Stepover: 1})
	p, err := gcode.Read(strings.NewReader(text), "zigzag.nc", gcode.Options{})
	if err != nil {
		b.Fatal(err)
	}
	tool, _ := ParseTool("ball 6 20, shank 6 30, holder 20 40")
	c, err := New(part, Options{Tool: tool, NoDetail: true})
	if err != nil {
		b.Fatal(err)
	}
	live, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
	}{{"check", nil}, {"cancellable", live}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if tc.ctx == nil {
					_, err = c.Check(p, nil)
				} else {
					_, err = c.CheckContext(tc.ctx, p, nil)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(p.Moves)), "ns/move")
		})
	}
}
