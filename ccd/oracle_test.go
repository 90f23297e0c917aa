package ccd_test

import (
	"fmt"
	"math"
	"math/big"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/collide3d/collide/ccd"
	"github.com/collide3d/collide/ccd/internal/ratccd"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
)

// These tests compare ccd.VertexFace, ccd.EdgeEdge and ccd.TriTri with the
// exact rational oracle of package ratccd (an independent formulation, see
// its doc) on generated families (gen_test.go) and named cases
// (cases_test.go). For every case: the same hit (no false negative, no
// false positive) and, on a hit, toi.Lo ≤ earliest ≤ toi.Hi exactly,
// toi.Hi − toi.Lo ≤ ccd.MaxWidth exactly, and toi = [0, 0] when the
// earliest time is 0. COLLIDE_LONG_TESTS=1 runs twice as many as the
// default run, COLLIDE_LONG=1 (by hand) twenty times as many.

// orcFloat formats x so that it reads back as the same float64 in Go
// source (negative zero included).
func orcFloat(x float64) string {
	switch {
	case x == 0 && math.Signbit(x):
		return "math.Copysign(0, -1)"
	case math.IsInf(x, 1):
		return "math.Inf(1)"
	case math.IsInf(x, -1):
		return "math.Inf(-1)"
	case math.IsNaN(x):
		return "math.NaN()"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// repro returns c as a Go literal that can be pasted into orcNamedCases
// (cases_test.go) to reproduce it.
func (c orcCase) repro() string {
	s := make([]string, len(c.x))
	for i, x := range c.x {
		s[i] = orcFloat(x)
	}
	return fmt.Sprintf("{%q, %q, []float64{%s}, \"?\"}", c.name, c.kind, strings.Join(s, ", "))
}

// orcRun runs ccd on c, turning a panic into an error.
func orcRun(c orcCase) (toi ccd.Interval, hit bool, err error) {
	defer func() {
		if e := recover(); e != nil {
			err = fmt.Errorf("ccd panicked: %v", e)
		}
	}()
	p := c.points()
	switch c.kind {
	case "vf":
		toi, hit = ccd.VertexFace(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7])
	case "ee":
		toi, hit = ccd.EdgeEdge(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7])
	default:
		toi, hit = ccd.TriTri(geom.Triangle(p[0:3]), geom.Triangle(p[3:6]), geom.Triangle(p[6:9]), geom.Triangle(p[9:12]))
	}
	return toi, hit, nil
}

// orcOracle runs the oracle on c.
func orcOracle(c orcCase) (*ratccd.Time, bool) {
	p := c.points()
	switch c.kind {
	case "vf":
		return ratccd.VertexFace(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7])
	case "ee":
		return ratccd.EdgeEdge(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7])
	default:
		return ratccd.TriTri(geom.Triangle(p[0:3]), geom.Triangle(p[3:6]), geom.Triangle(p[6:9]), geom.Triangle(p[9:12]))
	}
}

var orcMaxWidth = new(big.Rat).SetFloat64(ccd.MaxWidth)

// orcCompare checks ccd's answer on c against the oracle's; it returns
// "" when they agree, else what is wrong. oracleHit is the oracle's hit.
func orcCompare(c orcCase) (problem string, oracleHit bool) {
	problem, oracleHit, _, _ = orcCompareTimed(c)
	return problem, oracleHit
}

// orcCompareTimed is orcCompare, also returning how long the oracle and
// ccd took.
func orcCompareTimed(c orcCase) (problem string, oracleHit bool, tOracle, tCCD time.Duration) {
	start := time.Now()
	want, whit := orcOracle(c)
	mid := time.Now()
	toi, hit, err := orcRun(c)
	tOracle, tCCD = mid.Sub(start), time.Since(mid)
	problem, oracleHit = orcJudge(want, whit, toi, hit, err)
	return problem, oracleHit, tOracle, tCCD
}

// orcJudge compares ccd's answer (toi, hit, err) with the oracle's.
func orcJudge(want *ratccd.Time, whit bool, toi ccd.Interval, hit bool, err error) (problem string, oracleHit bool) {
	if err != nil {
		return err.Error(), whit
	}
	switch {
	case hit && !whit:
		return fmt.Sprintf("false positive: ccd hit %v, the oracle finds no contact", toi), whit
	case !hit && whit:
		return fmt.Sprintf("false negative: ccd finds no contact, the oracle's earliest time is %v", want), whit
	case !hit:
		return "", whit
	}
	var bad []string
	if math.IsNaN(toi.Lo) || math.IsNaN(toi.Hi) || math.IsInf(toi.Lo, 0) || math.IsInf(toi.Hi, 0) || toi.Lo > toi.Hi {
		bad = append(bad, "not a finite interval")
	} else {
		w := new(big.Rat).Sub(new(big.Rat).SetFloat64(toi.Hi), new(big.Rat).SetFloat64(toi.Lo))
		if w.Cmp(orcMaxWidth) > 0 {
			bad = append(bad, fmt.Sprintf("width %g > 2^-40", toi.Hi-toi.Lo))
		}
	}
	if !want.In(toi.Lo, toi.Hi) {
		bad = append(bad, "does not contain the earliest time")
	}
	if want.IsZero() && (toi.Lo != 0 || toi.Hi != 0) {
		bad = append(bad, "is not [0, 0] for contact at 0")
	}
	if len(bad) > 0 {
		return fmt.Sprintf("ccd's interval [%.17g, %.17g] %s; the oracle's earliest time is %v",
			toi.Lo, toi.Hi, strings.Join(bad, ", "), want), whit
	}
	return "", whit
}

// orcReport is the outcome of checking a set of cases.
type orcReport struct {
	n, hits        int
	failures       []string // the first few, in full
	failed         int
	took           time.Duration // wall time
	oracle, solver time.Duration // summed over the cases
}

// orcMaxShown is how many failures of a family are printed in full.
const orcMaxShown = 5

// orcCheck compares ccd with the oracle on every case, on all CPUs, and
// keeps the first shown failures in full.
func orcCheck(cs []orcCase, shown int) orcReport {
	start := time.Now()
	type result struct {
		i       int
		problem string
		hit     bool
		to, tc  time.Duration
	}
	res := make([]result, len(cs))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				p, h, to, tc := orcCompareTimed(cs[i])
				res[i] = result{i, p, h, to, tc}
			}
		})
	}
	for i := range cs {
		next <- i
	}
	close(next)
	wg.Wait()
	rep := orcReport{n: len(cs), took: time.Since(start)}
	for _, r := range res {
		rep.oracle += r.to
		rep.solver += r.tc
		if r.hit {
			rep.hits++
		}
		if r.problem == "" {
			continue
		}
		rep.failed++
		if len(rep.failures) < shown {
			c := cs[r.i]
			rep.failures = append(rep.failures, fmt.Sprintf("%s %s: %s\n\tinputs: %v\n\trepro:  %s",
				c.kind, c.name, r.problem, orcFloats(c.x), c.repro()))
		}
	}
	return rep
}

// orcFloats formats xs as %v does, with every float printed exactly
// (strconv 'g', -1).
func orcFloats(xs []float64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// orcTestFamilies checks every generated family of kind, n cases a
// family (fewer in some): n/2 by default, n with COLLIDE_LONG_TESTS=1, 10n
// with COLLIDE_LONG=1.
func orcTestFamilies(t *testing.T, kind string, n int) {
	n = longtest.Pick(n/2, n)
	if longtest.Exhaustive() {
		n *= 10
	}
	total, hits := 0, 0
	for _, f := range orcFamilies(kind, n, 1) {
		t.Run(f.name, func(t *testing.T) {
			rep := orcCheck(f.cases, orcMaxShown)
			total += rep.n
			hits += rep.hits
			t.Logf("%d cases, %d hits, %v (oracle %v, ccd %v)", rep.n, rep.hits, rep.took.Round(time.Millisecond),
				rep.oracle.Round(time.Millisecond), rep.solver.Round(time.Millisecond))
			for _, s := range rep.failures {
				t.Error(s)
			}
			if rep.failed > len(rep.failures) {
				t.Errorf("%d more failures of %d cases", rep.failed-len(rep.failures), rep.n)
			}
		})
	}
	t.Logf("%s: %d cases, %d hits", kind, total, hits)
}

func TestOracleVertexFace(t *testing.T) { orcTestFamilies(t, "vf", 320) }

func TestOracleEdgeEdge(t *testing.T) { orcTestFamilies(t, "ee", 320) }

func TestOracleTriTri(t *testing.T) { orcTestFamilies(t, "tt", 48) }

// TestOracleNonFinite checks that a NaN or infinite coordinate anywhere
// gives no contact and an interval of NaNs.
func TestOracleNonFinite(t *testing.T) {
	base := map[string][]float64{
		"vf": orcNamedCases[0].x,
		"ee": orcNamedCases[0].x,
		"tt": make([]float64, 36),
	}
	for kind, x := range base {
		for i := range x {
			for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
				c := orcCase{"non-finite", kind, append([]float64(nil), x...)}
				c.x[i] = bad
				toi, hit, err := orcRun(c)
				if err != nil || hit || !math.IsNaN(toi.Lo) || !math.IsNaN(toi.Hi) {
					t.Errorf("%s with x[%d] = %v: %v %v %v, want no contact and NaNs\n\tinputs: %v",
						kind, i, bad, toi, hit, err, orcFloats(c.x))
				}
			}
		}
	}
}

// orcFuzz is the body of the fuzz targets: finite inputs only.
func orcFuzz(t *testing.T, kind string, x []float64) {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Skip()
		}
	}
	c := orcCase{"fuzz", kind, x}
	if p, _ := orcCompare(c); p != "" {
		t.Fatalf("%s: %s\n\tinputs: %v\n\trepro:  %s", kind, p, orcFloats(x), c.repro())
	}
}

// orcSeeds adds the named cases of kind to the fuzz corpus.
func orcSeeds(f *testing.F, kind string) {
	for _, c := range orcNamedCases {
		if c.kind != kind {
			continue
		}
		args := make([]any, 24)
		for i, v := range c.x {
			args[i] = v
		}
		f.Add(args...)
	}
}

func FuzzVertexFace(f *testing.F) {
	orcSeeds(f, "vf")
	f.Fuzz(func(t *testing.T, x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11,
		x12, x13, x14, x15, x16, x17, x18, x19, x20, x21, x22, x23 float64) {
		orcFuzz(t, "vf", []float64{x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11,
			x12, x13, x14, x15, x16, x17, x18, x19, x20, x21, x22, x23})
	})
}

func FuzzEdgeEdge(f *testing.F) {
	orcSeeds(f, "ee")
	f.Fuzz(func(t *testing.T, x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11,
		x12, x13, x14, x15, x16, x17, x18, x19, x20, x21, x22, x23 float64) {
		orcFuzz(t, "ee", []float64{x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11,
			x12, x13, x14, x15, x16, x17, x18, x19, x20, x21, x22, x23})
	})
}

// TestOracleRepro checks one query given in the environment, for
// debugging a failure: COLLIDE_CCD_REPRO="vf x0 x1 ... x23" (or "ee ...",
// or "tt" and 36 numbers, as strconv.ParseFloat reads them). It logs both
// answers and how long each took.
func TestOracleRepro(t *testing.T) {
	env := os.Getenv("COLLIDE_CCD_REPRO")
	if env == "" {
		t.Skip("COLLIDE_CCD_REPRO not set")
	}
	f := strings.Fields(strings.NewReplacer(",", " ", "[", " ", "]", " ").Replace(env))
	c := orcCase{name: "repro", kind: f[0]}
	for _, s := range f[1:] {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		c.x = append(c.x, x)
	}
	if len(c.x) != 3*orcNPoints(c.kind) {
		t.Fatalf("%d numbers for %q, want %d", len(c.x), c.kind, 3*orcNPoints(c.kind))
	}
	start := time.Now()
	want, whit := orcOracle(c)
	t.Logf("oracle: hit %v, %v (%v)", whit, want, time.Since(start))
	start = time.Now()
	toi, hit, err := orcRun(c)
	t.Logf("ccd: hit %v, [%.17g, %.17g], err %v (%v)", hit, toi.Lo, toi.Hi, err, time.Since(start))
	if p, _ := orcCompare(c); p != "" {
		t.Errorf("%s\n\tinputs: %v\n\trepro:  %s", p, orcFloats(c.x), c.repro())
	}
}
