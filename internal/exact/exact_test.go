package exact

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

func rat(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

// float returns a random float of random sign with an exponent in [-e, e].
func float(rng *rand.Rand, e int) float64 {
	x := math.Ldexp(1+rng.Float64(), rng.IntN(2*e+1)-e)
	if rng.IntN(2) == 0 {
		x = -x
	}
	return x
}

func TestTwoSumTwoProd(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for range 20000 {
		a, b := float(rng, 200), float(rng, 200)
		if rng.IntN(4) == 0 {
			b = -a * (1 + 0x1p-52*float64(rng.IntN(8)))
		}
		s, e := TwoSum(a, b)
		if s != a+b || new(big.Rat).Add(rat(s), rat(e)).Cmp(new(big.Rat).Add(rat(a), rat(b))) != 0 {
			t.Fatalf("TwoSum(%g, %g) = %g, %g", a, b, s, e)
		}
		p, f := TwoProd(a, b)
		if p != a*b || new(big.Rat).Add(rat(p), rat(f)).Cmp(new(big.Rat).Mul(rat(a), rat(b))) != 0 {
			t.Fatalf("TwoProd(%g, %g) = %g, %g", a, b, p, f)
		}
	}
}

// TestExpansion sums products of two and three floats, with cancellation,
// and checks the sign and the invariants against math/big.
func TestExpansion(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for it := range 4000 {
		var e Expansion
		want := new(big.Rat)
		n := 1 + rng.IntN(MaxLen/4)
		type term struct{ s, a, b, c float64 }
		terms := make([]term, 0, 2*n)
		for range n {
			s := float64(2*rng.IntN(2) - 1)
			terms = append(terms, term{s, float(rng, 60), float(rng, 60), float(rng, 60)})
			if it%2 == 0 && len(terms) < cap(terms) { // cancel it again, split differently
				x := terms[len(terms)-1]
				terms = append(terms, term{-x.s, x.b, x.c, x.a})
			}
		}
		rng.Shuffle(len(terms), func(i, j int) { terms[i], terms[j] = terms[j], terms[i] })
		used := 0
		for _, x := range terms {
			if used+4 > MaxLen {
				break
			}
			r := new(big.Rat).Mul(rat(x.a), rat(x.b))
			if it%3 == 0 {
				e.AddProd2(x.s, x.a, x.b)
				used += 2
			} else {
				e.AddProd3(x.s, x.a, x.b, x.c)
				r.Mul(r, rat(x.c))
				used += 4
			}
			if x.s < 0 {
				r.Neg(r)
			}
			want.Add(want, r)
		}
		got := new(big.Rat)
		for i := range e.n {
			c := e.c[i]
			if c == 0 {
				t.Fatalf("case %d: zero component", it)
			}
			if i > 0 && math.Abs(c) <= math.Abs(e.c[i-1]) {
				t.Fatalf("case %d: components not increasing: %v", it, e.c[:e.n])
			}
			got.Add(got, rat(c))
		}
		if got.Cmp(want) != 0 {
			t.Fatalf("case %d: expansion sums to %v, want %v", it, got, want)
		}
		if e.Sign() != want.Sign() {
			t.Fatalf("case %d: Sign() = %d, want %d", it, e.Sign(), want.Sign())
		}
	}
	var z Expansion
	z.Add(0)
	z.AddProd2(1, 0, 3)
	if z.n != 0 || z.Sign() != 0 {
		t.Errorf("zero expansion: %v, sign %d", z.c[:z.n], z.Sign())
	}
}

// TestApprox checks Expansion.Approx against math/big: its error bound
// holds and its sign is the expansion's, on sums of products some of which
// nearly cancel.
func TestApprox(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 32))
	for i := range 3000 {
		var e Expansion
		sum := new(big.Rat)
		n := 1 + rng.IntN(20)
		for range n {
			a, b, c := float(rng, 60), float(rng, 60), float(rng, 60)
			s := 1.0
			if rng.IntN(2) == 0 {
				s = -1
			}
			if i%3 == 0 {
				// Products that cancel: a·b·c, then minus a·b·c', c' near c.
				e.AddProd3(s, a, b, c)
				sum.Add(sum, new(big.Rat).Mul(rat(s), new(big.Rat).Mul(rat(a), new(big.Rat).Mul(rat(b), rat(c)))))
				c = math.Nextafter(c, 0)
				s = -s
			}
			e.AddProd3(s, a, b, c)
			sum.Add(sum, new(big.Rat).Mul(rat(s), new(big.Rat).Mul(rat(a), new(big.Rat).Mul(rat(b), rat(c)))))
		}
		v, err := e.Approx()
		if e.Sign() != sum.Sign() || sgn(v) != sum.Sign() {
			t.Fatalf("case %d: Approx %g, Sign %d, exact sign %d", i, v, e.Sign(), sum.Sign())
		}
		d := new(big.Rat).Sub(rat(v), sum)
		if d.Abs(d).Cmp(rat(err)) > 0 {
			t.Fatalf("case %d: Approx %g off by %s, bound %g", i, v, d.FloatString(30), err)
		}
	}
}

func sgn(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
