package testgeom

import (
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/oracle"
	"github.com/collide3d/collide/mesh"
)

// BruteSweep is oracle.Sweep, which moved to package internal/oracle so
// that package bench does not import this test-helper package.
//
// Deprecated: use oracle.Sweep. This forwarder stays only until the tests
// of package bvh (read_kinds_test.go) switch; then it goes.
func BruteSweep(env, fly *mesh.TriMesh, pose geom.Pose, eps float64) [][2]int32 {
	return oracle.Sweep(env, fly, pose, eps)
}
