package scenes

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/portable"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// The shape generators below follow the conventions of mesh/gen: every one
// is a pure function of its arguments (a random one takes a seed, fed with a
// per-generator stream constant to math/rand/v2's PCG, whose raw 64-bit
// outputs are the only random numbers used), and none calls math.Sin,
// math.Cos or another function whose bits may differ between platforms:
// angles are rational fractions of a turn (sincosTurn), and every product
// that feeds a sum is wrapped in an explicit float64 conversion so that the
// compiler cannot fuse it into a multiply-add. The meshes are triangle
// soups: parts may overlap and touch each other, and only some parts are
// closed surfaces.

// errorf returns an error prefixed with "scenes: kind: ".
func errorf(kind, format string, args ...any) error {
	return fmt.Errorf("scenes: "+kind+": "+format, args...)
}

// checkTris returns an error unless min ≤ tris ≤ gen.MaxTriangles.
func checkTris(kind string, tris, min int) error {
	if tris < min {
		return errorf(kind, "tris must be at least %d, got %d", min, tris)
	}
	if tris > gen.MaxTriangles {
		return errorf(kind, "tris = %d exceeds the limit of %d triangles", tris, gen.MaxTriangles)
	}
	return nil
}

// checkResult returns an error if m is not valid (a non-finite coordinate
// or an index out of range, which would be a bug) or has more triangles than
// gen.MaxTriangles.
func checkResult(kind string, m *mesh.TriMesh) (*mesh.TriMesh, error) {
	if err := m.Validate(); err != nil {
		return nil, errorf(kind, "invalid result: %v", err)
	}
	if len(m.Tris) > gen.MaxTriangles {
		return nil, errorf(kind, "%d triangles exceed the limit of %d", len(m.Tris), gen.MaxTriangles)
	}
	return m, nil
}

// appendMesh appends the vertices of src, mapped by p, and its triangles,
// renumbered, to dst.
func appendMesh(dst, src *mesh.TriMesh, p geom.Pose) {
	appendMapped(dst, src, p.Apply, false)
}

// appendMapped appends the vertices of src mapped by f and its triangles,
// renumbered, to dst; flip reverses the orientation of every triangle (for
// a map f that reverses orientation, such as a mirror).
func appendMapped(dst, src *mesh.TriMesh, f func(geom.Vec3) geom.Vec3, flip bool) {
	base := int32(len(dst.Verts))
	for _, v := range src.Verts {
		dst.Verts = append(dst.Verts, f(v))
	}
	for _, t := range src.Tris {
		if flip {
			t[1], t[2] = t[2], t[1]
		}
		dst.Tris = append(dst.Tris, [3]int32{t[0] + base, t[1] + base, t[2] + base})
	}
}

// rng draws the random numbers of a generator from the raw outputs of a
// PCG (not from math/rand's derived methods, whose algorithms may change).
type rng struct{ src *rand.PCG }

func newRNG(seed, stream uint64) rng { return rng{rand.NewPCG(seed, stream)} }

// float returns a number uniform in [0, 1) (a multiple of 2⁻⁵³).
func (r rng) float() float64 { return float64(r.src.Uint64()>>11) * 0x1p-53 }

// between returns a number uniform in [lo, hi].
func (r rng) between(lo, hi float64) float64 {
	u := r.float()
	return float64(lo*(1-u)) + float64(hi*u)
}

// intn returns an integer uniform in [0, n), n > 0.
func (r rng) intn(n int) int {
	hi, _ := bits.Mul64(r.src.Uint64(), uint64(n))
	return int(hi)
}

// chance returns true with probability p.
func (r rng) chance(p float64) bool { return r.float() < p }

// sign returns -1 or +1 with equal probability.
func (r rng) sign() float64 {
	if r.src.Uint64()>>63 == 0 {
		return -1
	}
	return 1
}

// madd returns a + s·v with every product rounded on its own.
func madd(a geom.Vec3, s float64, v geom.Vec3) geom.Vec3 {
	return geom.Vec3{X: a.X + float64(s*v.X), Y: a.Y + float64(s*v.Y), Z: a.Z + float64(s*v.Z)}
}

// scl returns s·v.
func scl(s float64, v geom.Vec3) geom.Vec3 {
	return geom.Vec3{X: float64(s * v.X), Y: float64(s * v.Y), Z: float64(s * v.Z)}
}

// comb returns a·u + b·v with every product rounded on its own.
func comb(a float64, u geom.Vec3, b float64, v geom.Vec3) geom.Vec3 {
	return geom.Vec3{
		X: float64(a*u.X) + float64(b*v.X),
		Y: float64(a*u.Y) + float64(b*v.Y),
		Z: float64(a*u.Z) + float64(b*v.Z),
	}
}

// perpendicular returns the unit vector of a - (a·t)·t for unit t (a must
// not be parallel to t).
func perpendicular(a, t geom.Vec3) geom.Vec3 { return portable.Unit(madd(a, -a.Dot(t), t)) }

// anyPerpendicular returns a unit vector perpendicular to the unit vector t:
// the projection of the coordinate axis on which t has its smallest
// component (exactly a coordinate axis when t is one).
func anyPerpendicular(t geom.Vec3) geom.Vec3 {
	a := t.Abs()
	e := geom.Vec3{X: 1}
	switch {
	case a.Y < a.X && a.Y <= a.Z:
		e = geom.Vec3{Y: 1}
	case a.Z < a.X && a.Z < a.Y:
		e = geom.Vec3{Z: 1}
	}
	return perpendicular(e, t)
}

// rotTurn returns the rotation by the angle 2π·k/n about the unit axis a
// (right-handed), by Rodrigues' formula with every product rounded.
func rotTurn(a geom.Vec3, k, n int64) geom.Mat3 {
	s, c := portable.SinCosTurn(k, n)
	t := 1 - c
	x, y, z := a.X, a.Y, a.Z
	return geom.Mat3{
		{float64(t*float64(x*x)) + c, float64(t*float64(x*y)) - float64(s*z), float64(t*float64(x*z)) + float64(s*y)},
		{float64(t*float64(x*y)) + float64(s*z), float64(t*float64(y*y)) + c, float64(t*float64(y*z)) - float64(s*x)},
		{float64(t*float64(x*z)) - float64(s*y), float64(t*float64(y*z)) + float64(s*x), float64(t*float64(z*z)) + c},
	}
}

// trig holds the sines and cosines of the angles 2π·j/s, j < s.
type trig struct{ sin, cos []float64 }

// trigCache returns the table for s sides, computed once per cache.
type trigCache map[int]trig

func (tc trigCache) get(s int) trig {
	if t, ok := tc[s]; ok {
		return t
	}
	t := trig{make([]float64, s), make([]float64, s)}
	for j := range s {
		t.sin[j], t.cos[j] = portable.SinCosTurn(int64(j), int64(s))
	}
	tc[s] = t
	return t
}

// ellipse returns the s = len(t.sin) points c + ru·cos(2πj/s)·u +
// rv·sin(2πj/s)·v: a ring counterclockwise about u×v.
func ellipse(c, u, v geom.Vec3, ru, rv float64, t trig) []geom.Vec3 {
	pts := make([]geom.Vec3, len(t.sin))
	for j := range pts {
		pts[j] = c.Add(comb(float64(ru*t.cos[j]), u, float64(rv*t.sin[j]), v))
	}
	return pts
}

// loftCount returns the number of triangles loft makes: 2·s·(rings-1)
// between the rings and s per fan.
func loftCount(s, rings, fans int) int { return 2*s*(rings-1) + s*fans }

// loft appends to m the tube through rings, each of the same number s ≥ 3
// of points listed counterclockwise about the direction in which the rings
// follow each other (so that the normals point outward): two triangles per
// quad between consecutive rings, and a fan of s triangles to *start before
// the first ring and to *end after the last when these are not nil. It
// returns the number of triangles added.
func loft(m *mesh.TriMesh, rings [][]geom.Vec3, start, end *geom.Vec3) int {
	s := len(rings[0])
	n0 := len(m.Tris)
	base := int32(len(m.Verts))
	at := func(k, j int) int32 { return base + int32(k*s+j%s) }
	for _, r := range rings {
		m.Verts = append(m.Verts, r...)
	}
	for k := 0; k+1 < len(rings); k++ {
		for j := range s {
			a, b, c, d := at(k, j), at(k, j+1), at(k+1, j), at(k+1, j+1)
			m.Tris = append(m.Tris, [3]int32{a, b, d}, [3]int32{a, d, c})
		}
	}
	if start != nil {
		p := int32(len(m.Verts))
		m.Verts = append(m.Verts, *start)
		for j := range s {
			m.Tris = append(m.Tris, [3]int32{p, at(0, j+1), at(0, j)})
		}
	}
	if end != nil {
		p := int32(len(m.Verts))
		m.Verts = append(m.Verts, *end)
		last := len(rings) - 1
		for j := range s {
			m.Tris = append(m.Tris, [3]int32{p, at(last, j), at(last, j+1)})
		}
	}
	return len(m.Tris) - n0
}

// transport returns, for the unit tangents ts of the rings of a tube, unit
// normals us perpendicular to them carried along without twist (each the
// previous one projected on the plane of the next tangent), starting from
// u0 projected on the plane of ts[0]; the ring frames are (us[k], ts[k]×us[k]).
// Consecutive tangents must turn by less than 90°.
func transport(ts []geom.Vec3, u0 geom.Vec3) (us, vs []geom.Vec3) {
	us = make([]geom.Vec3, len(ts))
	vs = make([]geom.Vec3, len(ts))
	u := u0
	for k, t := range ts {
		u = perpendicular(u, t)
		us[k], vs[k] = u, t.Cross(u)
	}
	return us, vs
}

// gridBox appends the closed surface of the box b, each face a grid of
// n[u]×n[v] quads (n[a] ≥ 1 divisions along axis a), to m: 4·(n₀n₁ + n₁n₂ +
// n₂n₀) triangles, outward normals, the vertices of the six faces kept
// apart (the edges of adjacent faces have the same coordinates).
func gridBox(m *mesh.TriMesh, b geom.AABB, n [3]int) {
	lo, hi := [3]float64{b.Min.X, b.Min.Y, b.Min.Z}, [3]float64{b.Max.X, b.Max.Y, b.Max.Z}
	var cs [3][]float64
	for a := range 3 {
		cs[a] = splits(lo[a], hi[a], n[a])
	}
	for a := range 3 {
		u, v := (a+1)%3, (a+2)%3
		for side := range 2 {
			base := int32(len(m.Verts))
			for i := 0; i <= n[u]; i++ {
				for j := 0; j <= n[v]; j++ {
					var p [3]float64
					p[a] = cs[a][side*n[a]]
					p[u], p[v] = cs[u][i], cs[v][j]
					m.Verts = append(m.Verts, geom.Vec3{X: p[0], Y: p[1], Z: p[2]})
				}
			}
			at := func(i, j int) int32 { return base + int32(i*(n[v]+1)+j) }
			for i := range n[u] {
				for j := range n[v] {
					q00, q10, q11, q01 := at(i, j), at(i+1, j), at(i+1, j+1), at(i, j+1)
					if side == 1 {
						m.Tris = append(m.Tris, [3]int32{q00, q10, q11}, [3]int32{q00, q11, q01})
					} else {
						m.Tris = append(m.Tris, [3]int32{q00, q11, q10}, [3]int32{q00, q01, q11})
					}
				}
			}
		}
	}
}

// gridBoxCount returns the number of triangles of gridBox with divisions n.
func gridBoxCount(n [3]int) int { return 4 * (n[0]*n[1] + n[1]*n[2] + n[2]*n[0]) }

// splits returns the n+1 numbers lo + (hi-lo)·i/n, exactly lo and hi at the
// ends.
func splits(lo, hi float64, n int) []float64 {
	c := make([]float64, n+1)
	c[0], c[n] = lo, hi
	for i := 1; i < n; i++ {
		c[i] = float64(lo*(float64(n-i)/float64(n))) + float64(hi*(float64(i)/float64(n)))
	}
	return c
}

// lerp returns a + t·(b-a) with the product rounded.
func lerp(a, b, t float64) float64 { return a + float64(t*(b-a)) }

// clampInt returns x clamped to [lo, hi].
func clampInt(x, lo, hi int) int { return max(lo, min(hi, x)) }

// roundInt returns math.Round(x) as an int; x must be finite and moderate.
func roundInt(x float64) int { return int(math.Round(x)) }

// closest returns the integer closest to t/k, the smaller one on a tie, for
// t ≥ 0 and k > 0.
func closest(t, k int) int { return (2*t + k - 1) / (2 * k) }

// lerpVec returns a + t·(b-a) with every product rounded.
func lerpVec(a, b geom.Vec3, t float64) geom.Vec3 { return madd(a, t, b.Sub(a)) }
