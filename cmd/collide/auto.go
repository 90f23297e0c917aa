package main

import (
	"fmt"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/auto"
	"github.com/collide3d/collide/geom"
)

// autoName is the --bv value that asks package auto to choose the kind of
// tree for the pair of models (check, distance, flight, view).
const autoName = "auto"

// isAuto reports whether --bv is auto.
func (b *buildFlags) isAuto() bool { return b.bv == autoName }

// autoSource returns the source package auto chooses from for s: its
// mesh, built with bo, or the saved model, one of the candidates as it
// is, with the options it was saved with.
func autoSource(s *source, bo collide.BuildOptions) auto.Source {
	if s.Saved != nil {
		return auto.FromModel(s.Saved)
	}
	return auto.Source{Mesh: s.Mesh, Options: bo}
}

// chooseModels chooses the trees of ENV and FLY (--bv auto) before the
// first query (auto.ChooseContext, with o's modes, tolerance and poses:
// those of the queries to come), showing progress on a terminal for large
// models; an interrupt stops it. A mesh's errors name it, as a build's do.
func chooseModels(e *env, envSrc, flySrc *source, bo collide.BuildOptions, o auto.Options) (*auto.Choice, error) {
	if err := validateSources(envSrc, flySrc); err != nil {
		return nil, err
	}
	var c auto.Choice
	var err error
	n := len(envSrc.Mesh.Tris) + len(flySrc.Mesh.Tris)
	// An interrupt gives the choice up (exit status 130).
	ctx, stop := interruptible(e)
	defer stop()
	withTicker(e, n > buildProgressMin, func(elapsed time.Duration) string {
		return fmt.Sprintf("choosing the trees of %s and %s (--bv auto): %d triangles, %.1f s", envSrc.Arg, flySrc.Arg, n, elapsed.Seconds())
	}, func() {
		c, err = auto.ChooseContext(ctx, autoSource(envSrc, bo), autoSource(flySrc, bo), o)
	})
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// sayChoice says on stderr what auto chose for the queries of mode all,
// how long it took and how the candidates measured.
func sayChoice(e *env, cmd string, c *auto.Choice, all bool) error {
	_, err := fmt.Fprintf(e.stderr, "collide %s: --bv auto chose %s in %s (building candidates %s; %d %s, %d in contact): %s\n",
		cmd, c.For(all).BV, fmtDuration(c.Time), fmtDuration(c.Build), c.Probes, plural(c.Probes, "probe", "probes"), c.Contacts,
		c.Measures(all))
	return err
}

// validateSources returns the error of ENV's or FLY's mesh that cannot be
// built, naming it, as building it would (saved models are valid).
func validateSources(envSrc, flySrc *source) error {
	for _, s := range []*source{envSrc, flySrc} {
		if s.Saved == nil {
			if err := s.Mesh.Validate(); err != nil {
				return fmt.Errorf("%s: %w", s.Arg, err)
			}
		}
	}
	return nil
}

// modesOf returns the mode of queries that find all pairs, or not.
func modesOf(all bool) auto.Modes {
	if all {
		return auto.AllPairs
	}
	return auto.FirstContact
}

// checkPoses returns the error of the first of poses that cannot place
// FLY (s), as posesAndModels checks them: before the choice of --bv auto,
// which builds FLY's trees, with a model of FLY that builds none.
func checkPoses(s *source, poses []geom.Pose, where *checkOptions) error {
	m := s.Saved
	if m == nil {
		var err error
		if m, err = collide.Build(s.Mesh, collide.BuildOptions{BV: collide.Brute}); err != nil {
			return fmt.Errorf("%s: %w", s.Arg, err)
		}
	}
	for i, p := range poses {
		if err := m.CheckPose(p); err != nil {
			return poseError(where, i, err)
		}
	}
	return nil
}

// chooseForPoses is posesAndModels with --bv auto: it loads ENV and FLY
// (args), checks the poses, then chooses the trees for where's mode and
// tolerance at the poses and returns the models chosen.
func chooseForPoses(e *env, cmd string, args []string, where *checkOptions, b *buildFlags, bo collide.BuildOptions, poses []geom.Pose) (envModel, flyModel *collide.Model, err error) {
	envSrc, flySrc, bo, err := loadSources(e, args[0], args[1], b, bo)
	if err != nil {
		return nil, nil, err
	}
	if err := validateSources(envSrc, flySrc); err != nil {
		return nil, nil, err
	}
	if err := checkPoses(flySrc, poses, where); err != nil {
		return nil, nil, err
	}
	c, err := chooseModels(e, envSrc, flySrc, bo, auto.Options{Modes: modesOf(where.all), Eps: where.eps, Poses: poses})
	if err != nil {
		return nil, nil, err
	}
	m := c.For(where.all)
	return m.Env, m.Fly, sayChoice(e, cmd, c, where.all)
}
