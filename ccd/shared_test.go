package ccd

import (
	"bufio"
	"compress/gzip"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
)

// sharedQuery returns a seeded query with the structure shared.go and
// planar.go decide: points on a grid of quarters (ties and touching
// contacts are common) or uniform, moving along one axis or freely, with
// three or all of its points sharing a coordinate at every time, or two
// sharing two; then, sometimes, moved far from the origin, scaled, or
// one coordinate moved by one ulp (the structure broken by a hair).
func sharedQuery(r *rand.Rand) (q [8]geom.Vec3, what string) {
	grid := r.IntN(3) != 0
	c := func() float64 {
		if grid {
			return float64(r.IntN(17)-8) / 4
		}
		return 4*r.Float64() - 2
	}
	for i := range q {
		q[i] = geom.V(c(), c(), c())
	}
	set := func(v *geom.Vec3, i int, x float64) {
		switch i {
		case 0:
			v.X = x
		case 1:
			v.Y = x
		default:
			v.Z = x
		}
	}
	if r.IntN(2) == 0 { // every point moves along axis k only
		k := r.IntN(3)
		for j := range 4 {
			for i := range 3 {
				if i != k {
					set(&q[j+4], i, q[j].Index(i))
				}
			}
		}
		what += "along an axis, "
	}
	i := r.IntN(3)
	if r.IntN(6) == 0 { // edges translating with parallel vectors (read as ee)
		u := geom.V(c(), c(), c())
		k := []float64{-2, -1, -0.5, 0.5, 1, 2}[r.IntN(6)]
		q[1], q[5] = q[0].Add(u), q[4].Add(u)
		q[3], q[7] = q[2].Add(u.Scale(k)), q[6].Add(u.Scale(k))
		what += "parallel translating edges, "
	}
	switch r.IntN(4) {
	case 0: // three share coordinate i
		o := r.IntN(4)
		for j := range 4 {
			if j != o {
				set(&q[j], i, q[(o+1)%4].Index(i))
				set(&q[j+4], i, q[(o+1)%4+4].Index(i))
			}
		}
		what += "three sharing a coordinate"
	case 1: // all share coordinate i
		for j := range 4 {
			set(&q[j], i, q[0].Index(i))
			set(&q[j+4], i, q[4].Index(i))
		}
		what += "in an axis plane"
	case 2: // two share the coordinates other than i
		a, b := r.IntN(4), r.IntN(4)
		for _, k := range [2]int{(i + 1) % 3, (i + 2) % 3} {
			set(&q[b], k, q[a].Index(k))
			set(&q[b+4], k, q[a+4].Index(k))
		}
		what += "two sharing two coordinates"
	default: // three share coordinate i, two of them another
		o, k := r.IntN(4), (i+1+r.IntN(2))%3
		for j := range 4 {
			if j != o {
				set(&q[j], i, q[(o+1)%4].Index(i))
				set(&q[j+4], i, q[(o+1)%4+4].Index(i))
			}
		}
		a, b := r.IntN(4), r.IntN(4)
		set(&q[b], k, q[a].Index(k))
		set(&q[b+4], k, q[a+4].Index(k))
		what += "three sharing a coordinate, two another"
	}
	switch r.IntN(8) {
	case 0:
		for j := range q {
			q[j] = q[j].Add(geom.V(1e9, -1e9, 1e9))
		}
		what += ", far"
	case 1:
		for j := range q {
			q[j] = q[j].Scale(0x1p-600)
		}
		what += ", tiny"
	case 2:
		j, i := r.IntN(8), r.IntN(3)
		x := q[j].Index(i)
		set(&q[j], i, math.Nextafter(x, math.Inf(2*r.IntN(2)-1)))
		what += ", one ulp off"
	}
	return q, what
}

// agrees reports whether an answer (toi, hit) agrees with the exact
// path's (etoi, ehit): the same hit and, on a hit, an interval at most
// MaxWidth wide meeting the exact one (both hold the earliest time), [0,
// 0] when the exact one is.
func agrees(toi Interval, hit bool, etoi Interval, ehit bool) bool {
	if hit != ehit {
		return false
	}
	if !hit {
		return true
	}
	if etoi == (Interval{}) {
		return toi == etoi
	}
	return toi.Width() <= MaxWidth && toi.Lo <= etoi.Hi && etoi.Lo <= toi.Hi
}

// TestSharedAgainstExact runs the fast path and the exact path (forced) on
// seeded structured queries: wherever the fast path decides it decides
// as the exact path does, with an interval that holds the exact one's,
// and solve (the queries' path, filters included) agrees too. The fast
// path must decide most of them. 1500 queries by default, 6000 with
// COLLIDE_LONG_TESTS=1.
func TestSharedAgainstExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 2))
	n := longtest.Pick(1500, 6000)
	decided, hits := 0, 0
	for m := range n {
		q, what := sharedQuery(rng)
		k := kind(m % 2)
		etoi, ehit := exactSolve(&q, k)
		check := func(path string, toi Interval, hit bool) {
			t.Helper()
			if !agrees(toi, hit, etoi, ehit) {
				t.Fatalf("query %d (%v, %s): %s %v %v, exact %v %v: %v", m, k, what, path, hit, toi, ehit, etoi, q)
			}
		}
		if toi, hit, ok := fast(&q, k); ok {
			decided++
			if hit {
				hits++
			}
			check("fast", toi, hit)
		}
		toi, hit := solve(&q, k)
		check("solve", toi, hit)
	}
	t.Logf("%d of %d decided by the fast path, %d hits", decided, n, hits)
	if decided < n*3/4 || hits < n/10 {
		t.Errorf("the fast path decided %d of %d, %d hits", decided, n, hits)
	}
}

// TestDropReplays replays the pairs of the drops (replay_test.go): no
// query goes to the exact path, and every feature query the fast path
// decides is decided as the exact path does (forced, on a sample).
func TestDropReplays(t *testing.T) {
	for _, name := range replays {
		ps := replay(t, name)
		before := ExactCalls()
		for _, p := range ps {
			TriTri(p[0], p[1], p[2], p[3])
		}
		if d := ExactCalls() - before; d != 0 {
			t.Errorf("%s: %d queries went to the exact path", name, d)
		}
		checked := 0
		for n, p := range ps {
			if n%3 != 0 {
				continue
			}
			a0, b0, a1, b1 := p[0], p[1], p[2], p[3]
			var qs [15][8]geom.Vec3
			var ks [15]kind
			for i := range 3 {
				qs[2*i] = [8]geom.Vec3{a0[i], b0[0], b0[1], b0[2], a1[i], b1[0], b1[1], b1[2]}
				qs[2*i+1] = [8]geom.Vec3{b0[i], a0[0], a0[1], a0[2], b1[i], a1[0], a1[1], a1[2]}
				for j := range 3 {
					i2, j2 := (i+1)%3, (j+1)%3
					qs[6+3*i+j] = [8]geom.Vec3{a0[i], a0[i2], b0[j], b0[j2], a1[i], a1[i2], b1[j], b1[j2]}
					ks[6+3*i+j] = ee
				}
			}
			for m := range qs {
				q, k := &qs[m], ks[m]
				if sweptApart(q, k) {
					continue
				}
				toi, hit, ok := fast(q, k)
				if !ok {
					continue
				}
				checked++
				etoi, ehit := exactSolve(q, k)
				if !agrees(toi, hit, etoi, ehit) {
					t.Fatalf("%s: pair %d, query %d: fast %v %v, exact %v %v: %v", name, n, m, hit, toi, ehit, etoi, *q)
				}
			}
		}
		t.Logf("%s: %d pairs, %d feature queries checked against the exact path", name, len(ps), checked)
	}
}

// TestGrazeQueries runs the distinct vertex-face and edge-edge queries of
// `collide bench --ccd-peers`' graze scene (a corner skimming an edge, on
// a grid of halves) that went to the exact path before the structured
// fast paths (testdata/graze-exact.txt.gz: 4795, each a kind and 24
// floats): wherever the fast path decides one (most now), it decides as
// the exact path does (forced, on every fourth by default).
func TestGrazeQueries(t *testing.T) {
	qs, ks := grazeQueries(t)
	decided, checked := 0, 0
	every := longtest.Pick(4, 1)
	for n := range qs {
		q, k := &qs[n], ks[n]
		toi, hit, ok := fast(q, k)
		if !ok {
			continue
		}
		decided++
		if n%every != 0 {
			continue
		}
		checked++
		etoi, ehit := exactSolve(q, k)
		if !agrees(toi, hit, etoi, ehit) {
			t.Fatalf("%v: fast %v %v, exact %v %v: %v", k, hit, toi, ehit, etoi, *q)
		}
	}
	t.Logf("%d queries, %d decided by the fast path, %d checked against the exact path", len(qs), decided, checked)
	if decided < len(qs)/2 {
		t.Errorf("the fast path decided %d of %d", decided, len(qs))
	}
}

// grazeQueries reads testdata/graze-exact.txt.gz.
func grazeQueries(tb testing.TB) (qs [][8]geom.Vec3, ks []kind) {
	f, err := os.Open("testdata/graze-exact.txt.gz")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	sc := bufio.NewScanner(z)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 25 {
			tb.Fatalf("a line of %d fields", len(fs))
		}
		k := vf
		if fs[0] == "ee" {
			k = ee
		}
		var q [8]geom.Vec3
		for i := range 8 {
			var x [3]float64
			for j := range 3 {
				if x[j], err = strconv.ParseFloat(fs[1+3*i+j], 64); err != nil {
					tb.Fatal(err)
				}
			}
			q[i] = geom.V(x[0], x[1], x[2])
		}
		qs, ks = append(qs, q), append(ks, k)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return qs, ks
}

// BenchmarkGrazeQueries answers every query of testdata/graze-exact.txt.gz
// per iteration, through VertexFace and EdgeEdge.
func BenchmarkGrazeQueries(b *testing.B) {
	qs, ks := grazeQueries(b)
	b.ReportAllocs()
	for b.Loop() {
		for n := range qs {
			q := &qs[n]
			if ks[n] == vf {
				VertexFace(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7])
			} else {
				EdgeEdge(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7])
			}
		}
	}
}
