package geom_test

import (
	"math/big"

	"github.com/collide3d/collide/geom"
)

// Independent exact references with math/big.Rat.

func rat(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

func sub(a, b float64) *big.Rat { return new(big.Rat).Sub(rat(a), rat(b)) }

func mul(a, b *big.Rat) *big.Rat { return new(big.Rat).Mul(a, b) }

func sign2Big(ax, ay, bx, by, cx, cy float64) int {
	l := mul(sub(bx, ax), sub(cy, ay))
	r := mul(sub(by, ay), sub(cx, ax))
	return l.Cmp(r)
}

func sign3Big(a, b, c, d geom.Vec3) int {
	ux, uy, uz := sub(b.X, a.X), sub(b.Y, a.Y), sub(b.Z, a.Z)
	vx, vy, vz := sub(c.X, a.X), sub(c.Y, a.Y), sub(c.Z, a.Z)
	wx, wy, wz := sub(d.X, a.X), sub(d.Y, a.Y), sub(d.Z, a.Z)
	m := func(p, q, r, s *big.Rat) *big.Rat { return new(big.Rat).Sub(mul(p, q), mul(r, s)) }
	t := mul(ux, m(vy, wz, vz, wy))
	t.Add(t, mul(uy, m(vz, wx, vx, wz)))
	t.Add(t, mul(uz, m(vx, wy, vy, wx)))
	return t.Sign()
}
