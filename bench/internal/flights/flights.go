// Package flights holds what the experiments that fly the scenes of
// bench/scenes share: making a scene (capped at a number of steps, or
// left out when its data is not installed here), building its two models,
// and how they are split.
package flights

import (
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/scenes"
)

// SceneInfo describes a scene of a report.
type SceneInfo struct {
	Name, Doc        string
	EnvTris, FlyTris int
	Steps            int
	Paper            scenes.Paper
	Make             time.Duration // the time to generate it
}

// AvailableScenes returns the scenes of scenes.Names() that can be made
// here and, for each of the others, why not.
func AvailableScenes() (names, skipped []string) {
	for _, n := range scenes.Names() {
		if err := scenes.Available(n); err != nil {
			skipped = append(skipped, err.Error())
			continue
		}
		names = append(names, n)
	}
	return names, skipped
}

// MakeScene makes a scene and describes it, its flight capped at steps
// steps when steps > 0 (sc.Steps and a path planned in advance, sc.Poses,
// are cut there too: auto chooses at the poses flown).
func MakeScene(name string, size scenes.Size, seed uint64, steps int) (*scenes.Scene, *SceneInfo, error) {
	t0 := time.Now()
	sc, err := scenes.New(name, size, seed)
	if err != nil {
		return nil, nil, err
	}
	info := &SceneInfo{Name: name, Doc: sc.Doc, EnvTris: sc.Env.NumTriangles(), FlyTris: sc.Fly.NumTriangles(),
		Steps: sc.Steps, Paper: sc.Paper, Make: time.Since(t0)}
	if steps > 0 {
		info.Steps = min(info.Steps, steps)
		sc.Steps = info.Steps
		if sc.Poses != nil {
			sc.Poses = sc.Poses[:min(len(sc.Poses), steps)]
		}
	}
	return sc, info, nil
}

// BuildScene builds sc's models with o, the flying one prepared to fly.
func BuildScene(sc *scenes.Scene, o collide.BuildOptions) (env, fly *collide.Model, err error) {
	if env, err = collide.Build(sc.Env, o); err != nil {
		return nil, nil, err
	}
	if fly, err = collide.Build(sc.Fly, o); err != nil {
		return nil, nil, err
	}
	fly.PrepareFlying()
	return env, fly, nil
}

// Splitting returns how the experiments split the trees of kind bv, as
// Table 2 of the paper does: by the splatter rule at the mean, but
// OBB-trees by RAPID's rule.
func Splitting(bv string) (collide.Rule, collide.Split) {
	if bv == "obb" {
		return collide.RAPID, collide.Mean
	}
	return collide.Splatter, collide.Mean
}

// TableBVs are the kinds of tree the experiments fly by default, as Table 2
// of the paper does: the paper's four k-DOPs and RAPID's OBB-trees, then
// ours beyond the paper.
var TableBVs = []string{"kdop6", "kdop14", "kdop18", "kdop26", "obb", "sphere", "aabb", "boxtree", "rss"}

// ReferenceBV is the kind of tree of the experiments' reference: collide's
// answers with it are what every system is compared with.
const ReferenceBV = "kdop18"
