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
// multiply-add), so the same verdicts, bit for bit; |t| is max(t, −t), a
// verdict fl(s − |t|) < 0 (s > 0, never −0: see wide.go), and a child's
// the least of its six differences below 0 (min is exact).
func wideMask4(n *wideNode[[4]float64, [4]int32], x *wideAxes, r, absR *geom.Mat3) uint32 {
	if !wideSIMD {
		return wideMask(n, x, r, absR)
	}
	zero := archsimd.BroadcastFloat64x4(0)
	hx, hy, hz := archsimd.LoadFloat64x4(&n.hx), archsimd.LoadFloat64x4(&n.hy), archsimd.LoadFloat64x4(&n.hz)
	tx := archsimd.BroadcastFloat64x4(x.w.X).Sub(archsimd.LoadFloat64x4(&n.cx))
	ty := archsimd.BroadcastFloat64x4(x.w.Y).Sub(archsimd.LoadFloat64x4(&n.cy))
	tz := archsimd.BroadcastFloat64x4(x.w.Z).Sub(archsimd.LoadFloat64x4(&n.cz))
	ax, ay, az := tx.Max(zero.Sub(tx)), ty.Max(zero.Sub(ty)), tz.Max(zero.Sub(tz))
	d := hx.Add(archsimd.BroadcastFloat64x4(x.rb[0])).Sub(ax).
		Min(hy.Add(archsimd.BroadcastFloat64x4(x.rb[1])).Sub(ay)).
		Min(hz.Add(archsimd.BroadcastFloat64x4(x.rb[2])).Sub(az))
	s0 := hx.Mul(archsimd.BroadcastFloat64x4(absR[0][0])).Add(hy.Mul(archsimd.BroadcastFloat64x4(absR[1][0]))).Add(hz.Mul(archsimd.BroadcastFloat64x4(absR[2][0]))).Add(archsimd.BroadcastFloat64x4(x.bp[0]))
	p0 := tx.Mul(archsimd.BroadcastFloat64x4(r[0][0])).Add(ty.Mul(archsimd.BroadcastFloat64x4(r[1][0]))).Add(tz.Mul(archsimd.BroadcastFloat64x4(r[2][0])))
	s1 := hx.Mul(archsimd.BroadcastFloat64x4(absR[0][1])).Add(hy.Mul(archsimd.BroadcastFloat64x4(absR[1][1]))).Add(hz.Mul(archsimd.BroadcastFloat64x4(absR[2][1]))).Add(archsimd.BroadcastFloat64x4(x.bp[1]))
	p1 := tx.Mul(archsimd.BroadcastFloat64x4(r[0][1])).Add(ty.Mul(archsimd.BroadcastFloat64x4(r[1][1]))).Add(tz.Mul(archsimd.BroadcastFloat64x4(r[2][1])))
	s2 := hx.Mul(archsimd.BroadcastFloat64x4(absR[0][2])).Add(hy.Mul(archsimd.BroadcastFloat64x4(absR[1][2]))).Add(hz.Mul(archsimd.BroadcastFloat64x4(absR[2][2]))).Add(archsimd.BroadcastFloat64x4(x.bp[2]))
	p2 := tx.Mul(archsimd.BroadcastFloat64x4(r[0][2])).Add(ty.Mul(archsimd.BroadcastFloat64x4(r[1][2]))).Add(tz.Mul(archsimd.BroadcastFloat64x4(r[2][2])))
	d = d.Min(s0.Sub(p0.Max(zero.Sub(p0)))).Min(s1.Sub(p1.Max(zero.Sub(p1)))).Min(s2.Sub(p2.Max(zero.Sub(p2))))
	dis := d.Less(zero)
	return uint32(^dis.ToBits()) & (1<<uint(n.n) - 1)
}
