//go:build goexperiment.simd && amd64

package bvh

import (
	"simd/archsimd"

	"github.com/collide3d/collide/geom"
)

// wideSIMD says that the 4-wide AABB test runs on archsimd's 256-bit
// vectors (GOEXPERIMENT=simd, amd64 with AVX2).
var wideSIMD = archsimd.X86.AVX2()

// wideMask4 is wideMask for 4-wide nodes, the four children in the lanes
// of AVX2 vectors: the same products and sums, in the same order (no fused
// multiply-add), so the same verdicts, bit for bit; |t| is max(t, −t), and
// a verdict fl(s − |t|) < 0 (s > 0, never −0: see wide.go).
func wideMask4(n *wideNode[[4]float64, [4]int32], x *wideAxes, r, absR *geom.Mat3) uint32 {
	if !wideSIMD {
		return wideMask(n, x, r, absR)
	}
	b := archsimd.BroadcastFloat64x4
	zero := b(0)
	abs := func(v archsimd.Float64x4) archsimd.Float64x4 { return v.Max(zero.Sub(v)) }
	hx, hy, hz := archsimd.LoadFloat64x4(&n.hx), archsimd.LoadFloat64x4(&n.hy), archsimd.LoadFloat64x4(&n.hz)
	tx := b(x.w.X).Sub(archsimd.LoadFloat64x4(&n.cx))
	ty := b(x.w.Y).Sub(archsimd.LoadFloat64x4(&n.cy))
	tz := b(x.w.Z).Sub(archsimd.LoadFloat64x4(&n.cz))
	dis := hx.Add(b(x.rb[0])).Sub(abs(tx)).Less(zero).
		Or(hy.Add(b(x.rb[1])).Sub(abs(ty)).Less(zero)).
		Or(hz.Add(b(x.rb[2])).Sub(abs(tz)).Less(zero))
	for j := range 3 {
		s := hx.Mul(b(absR[0][j])).Add(hy.Mul(b(absR[1][j]))).Add(hz.Mul(b(absR[2][j]))).Add(b(x.bp[j]))
		p := tx.Mul(b(r[0][j])).Add(ty.Mul(b(r[1][j]))).Add(tz.Mul(b(r[2][j])))
		dis = dis.Or(s.Sub(abs(p)).Less(zero))
	}
	return uint32(^dis.ToBits()) & (1<<uint(n.n) - 1)
}
