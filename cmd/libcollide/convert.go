package main

/*
#include "cgotypes.h"
*/
import "C"

import (
	"math"
	"strconv"
	"unsafe"

	"github.com/collide3d/collide/geom"
)

// maxElems bounds the number of elements of an array the caller passes,
// far above anything real, so that a wrong count is an error rather than
// a fault.
const maxElems = 1 << 40

// count returns n as a count of elements of per numbers each, or an error
// naming it as what ("n", "nverts") if it is negative or absurd.
func count(n int64, per int64, what string) (int, error) {
	if n < 0 {
		return 0, argf("%s = %d is negative", what, n)
	}
	if n > maxElems/per {
		return 0, argf("%s = %d is too large", what, n)
	}
	return int(n), nil
}

// sliceAt returns the n elements of type T at p, without copying (nil if p
// is NULL or n is 0). The caller's memory: the slice must not outlive the
// call.
func sliceAt[T, P any](p *P, n int) []T {
	if p == nil || n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(p)), n)
}

// need returns an error if the array s, named what, is NULL (nil) where n
// elements are expected.
func need[T any](s []T, n int, what string) error {
	if s == nil && n > 0 {
		return argf("%s is NULL", what)
	}
	return nil
}

// posesAt converts n row-major 4x4 matrices at p into poses, validating
// each (last row exactly 0 0 0 1, finite, a rotation to within 1e-6 as
// geom.Pose.Validate says, the zero matrix not); errors name the index:
// "poses[3]: ...".
func posesAt(p *C.double, n int64, what string) ([]geom.Pose, error) {
	k, err := count(n, 16, "n")
	if err != nil {
		return nil, err
	}
	m := sliceAt[float64](p, 16*k)
	if err := need(m, k, what); err != nil {
		return nil, err
	}
	return posesOf(m, what)
}

// poseAt converts the one pose at p; NULL is the identity.
func poseAt(p *C.double, what string) (geom.Pose, error) {
	return poseOrIdentity(sliceAt[float64](p, 16), what)
}

// poseOrIdentity converts the 16 numbers of m (nil: the identity) as
// poseAt does.
func poseOrIdentity(m []float64, what string) (geom.Pose, error) {
	if m == nil {
		return geom.Identity(), nil
	}
	return poseOf((*[16]float64)(m), what, -1)
}

// posesOf converts the len(m)/16 matrices of m, as posesAt.
func posesOf(m []float64, what string) ([]geom.Pose, error) {
	out := make([]geom.Pose, len(m)/16)
	for i := range out {
		p, err := poseOf((*[16]float64)(m[16*i:]), what, i)
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

// poseOf converts the row-major 4x4 matrix m into a pose, validating it;
// errors start with what, and [index] unless index < 0 (made only then:
// a pose that is fine costs no allocation).
func poseOf(m *[16]float64, what string, index int) (geom.Pose, error) {
	name := func() string {
		if index < 0 {
			return what
		}
		return what + "[" + strconv.Itoa(index) + "]"
	}
	for i, x := range m {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return geom.Pose{}, argf("%s[%d][%d] is %v", name(), i/4, i%4, x)
		}
	}
	if m[12] != 0 || m[13] != 0 || m[14] != 0 || m[15] != 1 {
		return geom.Pose{}, argf("%s: the last row is %v %v %v %v, not 0 0 0 1", name(), m[12], m[13], m[14], m[15])
	}
	p := geom.Pose{
		R: geom.Mat3{{m[0], m[1], m[2]}, {m[4], m[5], m[6]}, {m[8], m[9], m[10]}},
		T: geom.Vec3{X: m[3], Y: m[7], Z: m[11]},
	}
	// geom.Pose.Validate's test once the numbers are known finite, but
	// for the zero rotation, which a geom.Pose takes for the identity and
	// a matrix must not.
	if !p.R.IsRotation(1e-6) {
		return geom.Pose{}, argf("%s: pose rotation is not orthonormal with determinant 1", name())
	}
	return p, nil
}

// newBuffer makes an int64 buffer handle (0 for an empty slice).
func newBuffer(v []int64) C.collide_handle { return C.collide_handle(bufferHandle(v)) }

// bufferHandle is newBuffer in Go's types.
func bufferHandle(v []int64) uint64 {
	if len(v) == 0 {
		return 0
	}
	return putHandle(v)
}

// cstring returns the C string at p ("" for NULL), copied.
func cstring(p *C.char) string {
	if p == nil {
		return ""
	}
	return C.GoString(p)
}

// writeCString writes s into the buffer of capacity n at p, NUL-terminated
// and cut at a UTF-8 boundary (nothing if p is NULL or n is 0).
func writeCString(s string, p *C.char, n C.size_t) {
	if p == nil || n == 0 {
		return
	}
	dst := unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n))
	dst[copy(dst, cutUTF8(s, len(dst)-1))] = 0
}
