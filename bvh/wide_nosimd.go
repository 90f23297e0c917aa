//go:build !(goexperiment.simd && amd64)

package bvh

import "github.com/collide3d/collide/geom"

// wideSIMD says that the 4-wide AABB test runs on vectors: not in this
// build (see wide_simd.go).
const wideSIMD = false

// wideMask4 is wideMask for 4-wide nodes: the portable code.
func wideMask4(n *wideNode[[4]float64, [4]int32], x *wideAxes, r, absR *geom.Mat3) uint32 {
	return wideMask(n, x, r, absR)
}
