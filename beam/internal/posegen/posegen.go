// Package posegen writes pose files (collide check --poses) for the tests
// and measurements of the Beam pipeline: random rigid poses of a sphere of
// radius 0.4 (gen:icosphere:radius=0.4) about collide's default torus
// (gen:torus: the tube of radius 0.5 around the circle of radius 2 in the
// plane z = 0), about half of them in contact.
//
// Each pose is a uniformly random rotation (a random unit quaternion) and a
// translation: a uniformly random point of the tube's center circle, moved
// across the tube, in a uniformly random direction of the circle's normal
// plane, by a distance uniform in [0, 1.6]. The sphere's surface meets the
// tube's when that distance is within 0.4 of 0.5, in [0.1, 0.9]: half the
// range (the meshes are polyhedra: about half). Closer than 0.1 it is inside
// the tube, which is no contact (surfaces).
package posegen

import (
	"bufio"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
)

// Write writes n poses drawn from seed to w, one a line.
func Write(w io.Writer, n int, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	b := bufio.NewWriterSize(w, 1<<16)
	var line []byte
	for range n {
		line = AppendPose(line[:0], r)
		if _, err := b.Write(line); err != nil {
			return err
		}
	}
	return b.Flush()
}

// AppendPose appends a pose drawn from r, as a line of a pose file.
func AppendPose(b []byte, r *rand.Rand) []byte {
	// A random unit quaternion (Shoemake) and its rotation matrix.
	u1, u2, u3 := r.Float64(), 2*math.Pi*r.Float64(), 2*math.Pi*r.Float64()
	s1, s2 := math.Sqrt(1-u1), math.Sqrt(u1)
	x, y, z, w := s1*math.Sin(u2), s1*math.Cos(u2), s2*math.Sin(u3), s2*math.Cos(u3)
	m := [9]float64{
		1 - 2*(y*y+z*z), 2 * (x*y - z*w), 2 * (x*z + y*w),
		2 * (x*y + z*w), 1 - 2*(x*x+z*z), 2 * (y*z - x*w),
		2 * (x*z - y*w), 2 * (y*z + x*w), 1 - 2*(x*x+y*y),
	}
	// A point of the tube's center circle, moved across the tube.
	theta, phi, d := 2*math.Pi*r.Float64(), 2*math.Pi*r.Float64(), 1.6*r.Float64()
	radial := 2 + d*math.Cos(phi)
	t := [3]float64{radial * math.Cos(theta), radial * math.Sin(theta), d * math.Sin(phi)}
	for i, v := range m {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendFloat(b, v, 'g', -1, 64)
	}
	for _, v := range t {
		b = strconv.AppendFloat(append(b, ' '), v, 'g', -1, 64)
	}
	return append(b, '\n')
}
