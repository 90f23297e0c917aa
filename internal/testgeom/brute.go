package testgeom

import (
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// Brute returns every pair (i, j), triangle i of env and triangle j of fly
// with fly placed at pose (pose.ApplyTriangle, in float64), that is in
// contact (geom.TriTri, when eps == 0) or within distance eps
// (geom.TriTriWithin, when eps > 0). It tests every pair, with no bounding
// volume or box filter, and returns the pairs in ascending order. It is the
// oracle every accelerated query is checked against.
func Brute(env, fly *mesh.TriMesh, pose geom.Pose, eps float64) [][2]int32 {
	ft := make([]geom.Triangle, fly.NumTriangles())
	for j := range ft {
		ft[j] = pose.ApplyTriangle(fly.Triangle(j))
	}
	var out [][2]int32
	for i := range env.NumTriangles() {
		et := env.Triangle(i)
		for j, t := range ft {
			var hit bool
			if eps == 0 {
				hit = geom.TriTri(et, t)
			} else {
				hit = geom.TriTriWithin(et, t, eps)
			}
			if hit {
				out = append(out, [2]int32{int32(i), int32(j)})
			}
		}
	}
	return out
}
