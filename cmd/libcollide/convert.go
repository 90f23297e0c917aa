package main

/*
#include "collide.h"
*/
import "C"

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/collide3d/collide/geom"
)

// posesAt converts n row-major 4x4 matrices at p into poses, validating
// each (last row exactly 0 0 0 1, finite, geom.Pose.Validate); errors name
// the index: "poses[3]: ...".
func posesAt(p *C.double, n int64, what string) ([]geom.Pose, error) {
	if n < 0 {
		return nil, argf("%s: count %d is negative", what, n)
	}
	if n == 0 {
		return nil, nil
	}
	if p == nil {
		return nil, argf("%s: NULL for %d poses", what, n)
	}
	if n > maxElems/16 {
		return nil, argf("%s: %d poses is too many", what, n)
	}
	return posesOf(unsafe.Slice((*float64)(unsafe.Pointer(p)), 16*n), what)
}

// poseAt converts the one pose at p; NULL is the identity.
func poseAt(p *C.double, what string) (geom.Pose, error) {
	if p == nil {
		return geom.Identity(), nil
	}
	return poseOf((*[16]float64)(unsafe.Pointer(p)), what)
}

// maxElems bounds the length of an array given by the caller, far above
// anything real, so that a wrong count is an error rather than a fault.
const maxElems = 1 << 40

// posesOf converts the len(m)/16 matrices of m, as posesAt.
func posesOf(m []float64, what string) ([]geom.Pose, error) {
	out := make([]geom.Pose, len(m)/16)
	for i := range out {
		p, err := poseOf((*[16]float64)(m[16*i:]), fmt.Sprintf("%s[%d]", what, i))
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

// poseOf converts the row-major 4x4 matrix m into a pose, validating it;
// errors start with what.
func poseOf(m *[16]float64, what string) (geom.Pose, error) {
	for i, x := range m {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return geom.Pose{}, argf("%s: element [%d][%d] is %v", what, i/4, i%4, x)
		}
	}
	if m[12] != 0 || m[13] != 0 || m[14] != 0 || m[15] != 1 {
		return geom.Pose{}, argf("%s: the last row is %v %v %v %v, not 0 0 0 1", what, m[12], m[13], m[14], m[15])
	}
	p := geom.Pose{
		R: geom.Mat3{{m[0], m[1], m[2]}, {m[4], m[5], m[6]}, {m[8], m[9], m[10]}},
		T: geom.Vec3{X: m[3], Y: m[7], Z: m[11]},
	}
	if err := p.Validate(); err != nil {
		return geom.Pose{}, argf("%s: %v", what, err)
	}
	return p, nil
}

// newBuffer makes an int64 buffer handle (0 for an empty slice).
func newBuffer(v []int64) C.collide_handle {
	if len(v) == 0 {
		return 0
	}
	return newHandle(v)
}
