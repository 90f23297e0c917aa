package testgeom

import (
	"fmt"
	"math/big"

	"github.com/collide3d/collide/geom"
)

// RatSolid is the reference point-in-polyhedron test of package solid: the
// winding number of a closed, oriented triangle surface around a point, in
// rational arithmetic (math/big), sharing no code with package solid.
type RatSolid struct {
	tris []geom.Triangle
	v    [][3]ratVec // each triangle's corners as rationals
	n    []ratVec    // each triangle's (b−a)×(c−a)
}

type ratVec [3]*big.Rat

// NewRatSolid returns the reference solid of tris (closed and oriented, as
// the caller knows).
func NewRatSolid(tris []geom.Triangle) *RatSolid {
	r := &RatSolid{tris: tris, v: make([][3]ratVec, len(tris)), n: make([]ratVec, len(tris))}
	for i, t := range tris {
		for k := range 3 {
			r.v[i][k] = ratOf(t[k])
		}
		r.n[i] = ratCross(ratSub(r.v[i][1], r.v[i][0]), ratSub(r.v[i][2], r.v[i][0]))
	}
	return r
}

func ratOf(p geom.Vec3) ratVec {
	return ratVec{new(big.Rat).SetFloat64(p.X), new(big.Rat).SetFloat64(p.Y), new(big.Rat).SetFloat64(p.Z)}
}

func ratSub(a, b ratVec) ratVec {
	return ratVec{new(big.Rat).Sub(a[0], b[0]), new(big.Rat).Sub(a[1], b[1]), new(big.Rat).Sub(a[2], b[2])}
}

func ratMul(a, b *big.Rat) *big.Rat { return new(big.Rat).Mul(a, b) }

func ratCross(a, b ratVec) ratVec {
	return ratVec{
		new(big.Rat).Sub(ratMul(a[1], b[2]), ratMul(a[2], b[1])),
		new(big.Rat).Sub(ratMul(a[2], b[0]), ratMul(a[0], b[2])),
		new(big.Rat).Sub(ratMul(a[0], b[1]), ratMul(a[1], b[0])),
	}
}

func ratDotSign(a, b ratVec) int {
	s := ratMul(a[0], b[0])
	s.Add(s, ratMul(a[1], b[1]))
	s.Add(s, ratMul(a[2], b[2]))
	return s.Sign()
}

// Winding returns the winding number of the surface around p and whether p
// is on it. On is decided by RatTriTri against the point; w by a ray from p
// in the first direction of a fixed sequence, (1, (3k+1)/11, (5k+2)/13) for
// k = 0, 1, ..., along which the ray is checked, exactly, to meet no
// triangle on its boundary (an edge or a vertex) and to lie in no
// triangle's plane: w is then the sum, over the triangles the ray crosses,
// of the sign of the direction's dot product with their normal. Triangles
// of zero area are skipped (they bound nothing). It panics if 64
// directions all fail, which a point off a closed surface of a few
// thousand triangles does not make happen.
func (r *RatSolid) Winding(p geom.Vec3) (w int, on bool) {
	pt := geom.Triangle{p, p, p}
	for _, t := range r.tris {
		if RatTriTri(t, pt) {
			return 0, true
		}
	}
	// Every direction has positive components: the ray meets no triangle
	// whose box lies below p on an axis (a comparison of floats, exact).
	var near []int
	for i, t := range r.tris {
		b := t.Bounds()
		if b.Max.X >= p.X && b.Max.Y >= p.Y && b.Max.Z >= p.Z {
			near = append(near, i)
		}
	}
	rp := ratOf(p)
	for k := range int64(64) {
		d := ratVec{big.NewRat(1, 1), big.NewRat(3*k+1, 11), big.NewRat(5*k+2, 13)}
		if w, ok := r.along(rp, d, near); ok {
			return w, false
		}
	}
	panic(fmt.Sprintf("testgeom: RatSolid: no clear ray from %v", p))
}

// along returns the winding number counted along the ray from p in
// direction d, or false if the ray meets a triangle's boundary or lies in
// a triangle's plane.
func (r *RatSolid) along(p, d ratVec, near []int) (w int, ok bool) {
	for _, i := range near {
		n := r.n[i]
		if n[0].Sign() == 0 && n[1].Sign() == 0 && n[2].Sign() == 0 {
			continue // zero area
		}
		a := ratSub(r.v[i][0], p)
		dn := ratDotSign(d, n)
		side := ratDotSign(n, a) // the plane's side, seen from p: sign of t·dn
		if dn == 0 {
			if side == 0 {
				return 0, false // the ray lies in the plane
			}
			continue // parallel
		}
		if side != dn {
			continue // the plane is behind p (side 0: p on the plane, off the triangle)
		}
		b, c := ratSub(r.v[i][1], p), ratSub(r.v[i][2], p)
		zero := false
		miss := false
		for _, e := range [3][2]ratVec{{a, b}, {b, c}, {c, a}} {
			switch s := ratDotSign(d, ratCross(e[0], e[1])); {
			case s == 0:
				zero = true
			case s != dn:
				miss = true
			}
		}
		switch {
		case miss:
		case zero:
			return 0, false // through an edge or a vertex
		default:
			w += dn
		}
	}
	return w, true
}
