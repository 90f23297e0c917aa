package broadpeers

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/collide3d/collide/bench/boxtrace"
	"github.com/collide3d/collide/bench/internal/boundsonly"
	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/bench/worlds"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/scene"
	"github.com/collide3d/collide/world"
)

// SceneBoxes returns the box trace of playing s for steps steps (0: the
// scene's) on a world: step 0 adds every object with its world box
// (world.World.Bounds: the tight box of its convex hull at its pose,
// padded) and whether it is static, each later step moves the objects whose
// pose the step changed, with their new boxes. Object ids are the world's
// IDs, 0 to len(s.Objects)-1. The world bounds the objects and tests
// nothing; the scene is played as Next is called, and an error in it (a
// model that does not build) is returned by Next.
func SceneBoxes(s *scene.Scene, steps int) boxtrace.Source {
	if steps <= 0 {
		steps = s.Steps
	}
	return &sceneBoxes{s: s, steps: steps}
}

type sceneBoxes struct {
	s     *scene.Scene
	steps int
	p     *scene.Player
	prev  []geom.Pose
	done  int
	err   error
}

func (b *sceneBoxes) Header() (objects, steps int) { return len(b.s.Objects), b.steps }

func (b *sceneBoxes) Next(st *boxtrace.Step) error {
	if b.err != nil {
		return b.err
	}
	if b.done >= b.steps {
		return io.EOF
	}
	if b.p == nil {
		b.p, b.err = scene.NewPlayer(b.s, world.Options{Workers: 1, Broad: boundsonly.New})
		if b.err != nil {
			return b.err
		}
		b.prev = make([]geom.Pose, len(b.s.Objects))
	}
	if _, b.err = b.p.Step(); b.err != nil {
		return b.err
	}
	st.Reset()
	w := b.p.World()
	for i := range b.s.Objects {
		id := b.p.ID(i)
		pose := w.Pose(id)
		switch {
		case b.done == 0:
			st.Add = append(st.Add, boxtrace.Added{ID: int32(id), Static: b.s.Objects[i].Static, Box: w.Bounds(id)})
		case pose != b.prev[i]:
			st.Move = append(st.Move, boxtrace.Moved{ID: int32(id), Box: w.Bounds(id)})
		}
		b.prev[i] = pose
	}
	b.done++
	return nil
}

// Config configures Run.
type Config struct {
	Seed uint64
	// Quick: sizes 10³ and 10⁴ and at most worlds.QuickSteps steps.
	Quick bool
	// Sizes, Scenes and Steps are as in worlds.Config.
	Sizes  []int
	Scenes []string
	Steps  int
	// Driver, Systems, Rounds, Timeout and Progress are as in
	// ReplayConfig, but a Timeout of 0 is Timeout.
	Driver   string
	Systems  []string
	Rounds   int
	Timeout  time.Duration
	Progress func(line string)
}

// Timeout bounds one system's replay of one scene in
// Run (the steps done by then are kept, and the run marked):
// some peers take minutes on a trace others replay in milliseconds.
const Timeout = 2 * time.Minute

// Run replays the box traces of the many-body built-in scenes
// (SceneBoxes) through collide's broad phases (but brute, which tests every
// pair: the pairs are checked against a sort and sweep anyway) and the
// peers driver's broad systems (Replay, which says how ctx stops it).
func Run(ctx context.Context, c Config) (*Report, error) {
	if c.Sizes == nil {
		c.Sizes = []int{1000, 10000}
		if !c.Quick {
			c.Sizes = append(c.Sizes, 100000)
		}
	}
	if c.Scenes == nil {
		c.Scenes = worlds.Scenes
	}
	if c.Steps == 0 && c.Quick {
		c.Steps = worlds.QuickSteps
	}
	var scenes []Scene
	for _, name := range c.Scenes {
		for _, n := range c.Sizes {
			s, err := scene.Builtin(name, n, c.Seed)
			if err != nil {
				return nil, err
			}
			steps := s.Steps
			if c.Steps > 0 {
				steps = min(steps, c.Steps)
			}
			scenes = append(scenes, Scene{
				Name:   fmt.Sprintf("%s %s", name, md.Thousands(n)),
				Doc:    fmt.Sprintf("The built-in scene %s (seed %d): the world boxes of its objects as a world bounds them, %d steps.", name, c.Seed, steps),
				Source: func() boxtrace.Source { return SceneBoxes(s, steps) },
			})
		}
	}
	var phases []Phase
	for _, p := range CollidePhases() {
		if p.Name != "collide brute" {
			phases = append(phases, p)
		}
	}
	if c.Timeout <= 0 {
		c.Timeout = Timeout
	}
	return Replay(ctx, ReplayConfig{Scenes: scenes, Phases: phases, Driver: c.Driver, Systems: c.Systems, Rounds: c.Rounds, Timeout: c.Timeout, Progress: c.Progress})
}
