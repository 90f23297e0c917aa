package portable

import (
	"math"
	"testing"
)

func TestSinCosTurn(t *testing.T) {
	for _, n := range []int64{1, 2, 3, 4, 5, 6, 7, 8, 12, 100, 997, 1 << 20} {
		for k := -n; k <= 2*n; k += max(1, n/97) {
			s, c := SinCosTurn(k, n)
			kr := (k%n + n) % n // reduce the reference angle to (-π, π]
			if 2*kr > n {
				kr -= n
			}
			ws, wc := math.Sincos(2 * math.Pi * float64(kr) / float64(n))
			if math.Abs(s-ws) > 1e-15 || math.Abs(c-wc) > 1e-15 {
				t.Errorf("SinCosTurn(%d, %d) = %v, %v; math.Sincos gives %v, %v", k, n, s, c, ws, wc)
			}
			if math.Signbit(s) && s == 0 || math.Signbit(c) && c == 0 {
				t.Errorf("SinCosTurn(%d, %d) = %v, %v has a negative zero", k, n, s, c)
			}
			s2, c2 := SinCosTurn(n-k, n)
			if s2 != neg(s) || c2 != c {
				t.Errorf("SinCosTurn(%d, %d) = %v, %v is not the mirror of %v, %v", n-k, n, s2, c2, s, c)
			}
		}
		if n%4 == 0 {
			for q, want := range [][2]float64{{0, 1}, {1, 0}, {0, -1}, {-1, 0}} {
				if s, c := SinCosTurn(int64(q)*n/4, n); s != want[0] || c != want[1] {
					t.Errorf("SinCosTurn(%d, %d) = %v, %v, want %v", int64(q)*n/4, n, s, c, want)
				}
			}
		}
	}
}
