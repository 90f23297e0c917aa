package bvh

import (
	"math/rand/v2"

	"github.com/collide3d/collide/geom"
)

// costPose is the relative pose of the cost probes (see Tree.CostProbes): a
// small rotation and translation, so that nearby nodes overlap about half
// the time.
var costPose = geom.FromAxisAngle(geom.V(1, 2, 3), 0.02, geom.V(0.001, 0.002, 0.003))

// CostPose returns the relative pose of the cost probes of
// Tree.CostProbes, for probes of other operations (package bench's
// triangle test) to run under the same pose.
func CostPose() geom.Pose { return costPose }

// probePairs returns n pairs of node indices (a, b), a in [0, ne) and b
// close to it in [0, nf): a little after a if ne = nf (> 64), else at the
// same fraction of the range.
func probePairs(ne, nf int) (ia, ib []int32) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 4096
	ia, ib = make([]int32, n), make([]int32, n)
	for i := range n {
		ia[i] = int32(rng.IntN(ne - 64))
		if ne == nf {
			ib[i] = ia[i] + 1 + int32(rng.IntN(32))
		} else {
			ib[i] = int32(min(nf-1, int(ia[i])*nf/ne+rng.IntN(4)))
		}
	}
	return ia, ib
}
