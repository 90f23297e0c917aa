// Package md holds what the experiments' reports share: markdown tables,
// the figures' formats (milliseconds, microseconds, ratios, percentages,
// counts) and the few statistics they quote (means, quantiles).
//
// Every format gives "–" for a figure that is not a number, so that a table
// never shows NaN or Inf.
package md

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Machine describes the machine a report was measured on: the system, the
// processor's architecture, the count of CPUs and Go's version.
func Machine() string {
	return fmt.Sprintf("%s/%s, %d CPUs, %s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
}

// LoadAverage returns the first three fields of /proc/loadavg (the load a
// report's times were measured under), or "" where there is none.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// Capacity measures how much faster k goroutines get through k
// units of a pure arithmetic loop than one goroutine through one unit, k
// times over: k on an idle k-core machine, less when others' work holds
// cores.
func Capacity(k int) float64 {
	spin := func(n int) float64 {
		x := 1.0
		for i := range n {
			x = x*1.0000001 + float64(i&7)
		}
		return x
	}
	const n = 20_000_000
	var sink float64
	t0 := time.Now()
	sink += spin(n)
	one := time.Since(t0)
	var wg sync.WaitGroup
	var mu sync.Mutex
	t0 = time.Now()
	for range k {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := spin(n)
			mu.Lock()
			sink += x
			mu.Unlock()
		}()
	}
	wg.Wait()
	all := time.Since(t0)
	if sink == 0 || all == 0 {
		return 0
	}
	return float64(k) * float64(one) / float64(all)
}

// Ms formats a duration in milliseconds, to 3 significant digits.
func Ms(d time.Duration) string { return Sig(float64(d.Nanoseconds()) / 1e6) }

// Us formats a duration in microseconds, to 3 significant digits.
func Us(d time.Duration) string { return Sig(float64(d.Nanoseconds()) / 1e3) }

// Micros returns d in microseconds.
func Micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// MB formats bytes in megabytes.
func MB(n int64) string { return Sig(float64(n) / 1e6) }

// Sig formats x to 3 significant digits.
func Sig(x float64) string {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return "–"
	case x == 0:
		return "0"
	case math.Abs(x) >= 1000:
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.3g", x)
}

// Ratio formats a/b as "1.23×".
func Ratio(a, b float64) string {
	if b == 0 || math.IsNaN(a/b) {
		return "–"
	}
	return fmt.Sprintf("%.2f×", a/b)
}

// Pct formats a fraction as a signed percentage, "+3.2%".
func Pct(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "–"
	}
	return fmt.Sprintf("%+.1f%%", 100*x)
}

// Percent formats a fraction as a percentage, "3.2%".
func Percent(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}

// Thousands formats n with commas between groups of three digits.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Count formats a total that may be unknown (-1).
func Count(n int) string {
	if n < 0 {
		return "–"
	}
	return strconv.Itoa(n)
}

// Verdict says whether a claim checked against the figures holds.
func Verdict(ok bool) string {
	if ok {
		return "holds"
	}
	return "does not hold"
}

// Geomean returns the geometric mean of xs (NaN for none).
func Geomean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(xs)))
}

// Mean returns the arithmetic mean of xs (NaN for none).
func Mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// Quantile returns the q-quantile of times (the smallest time with at least
// a fraction q of them at or below it; 0 for none).
func Quantile(times []time.Duration, q float64) time.Duration {
	if len(times) == 0 {
		return 0
	}
	s := slices.Clone(times)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// A Table writes a markdown table, a row at a time.
type Table struct {
	w    *bufio.Writer
	cols int
}

// NewTable writes the head of a table with the columns head and returns it.
func NewTable(w *bufio.Writer, head ...string) *Table {
	t := &Table{w: w, cols: len(head)}
	t.Row(head...)
	t.w.WriteString("|" + strings.Repeat("---|", len(head)) + "\n")
	return t
}

// Row writes a row of cells.
func (t *Table) Row(cells ...string) {
	t.w.WriteString("| " + strings.Join(cells, " | ") + " |\n")
}

// WriteSkipped notes the scenes left out of a run, and why.
func WriteSkipped(w *bufio.Writer, skipped []string) {
	if len(skipped) == 0 {
		return
	}
	w.WriteString("\nLeft out:\n\n")
	for _, s := range skipped {
		fmt.Fprintf(w, "- %s\n", s)
	}
}

// ErrWriter is a writer that keeps its first error.
type ErrWriter struct {
	W   io.Writer
	Err error
}

// Printf writes like fmt.Fprintf, unless an earlier write failed.
func (e *ErrWriter) Printf(format string, args ...any) {
	if e.Err == nil {
		_, e.Err = fmt.Fprintf(e.W, format, args...)
	}
}

// Total returns the sum of times.
func Total(times []time.Duration) time.Duration {
	var t time.Duration
	for _, x := range times {
		t += x
	}
	return t
}

// Distinct returns the keys of xs (key of each), each once, in the order
// they first appear.
func Distinct[T any](xs []T, key func(T) string) []string {
	var out []string
	for _, x := range xs {
		if k := key(x); !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}
