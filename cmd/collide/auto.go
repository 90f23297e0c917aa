package main

import (
	"fmt"
	"strings"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
)

// chooseAuto makes the choice of two auto models (--bv auto) before the
// first query, for the mode of the queries to come and at their poses,
// and says on stderr what it chose, how long it took and how the
// candidates measured. It does nothing for other models.
func chooseAuto(e *env, cmd string, envModel, flyModel *collide.Model, poses []geom.Pose, all bool, eps float64) error {
	if envModel.BV() != collide.Auto || flyModel.BV() != collide.Auto {
		return nil
	}
	modes := collide.FirstContact
	if all {
		modes = collide.AllPairs
	}
	c, err := collide.Choose(envModel, flyModel, collide.ChooseOptions{Modes: modes, Eps: eps, Poses: poses})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stderr, "collide %s: --bv auto chose %s in %s (building candidates %s; %d %s, %d in contact): %s\n",
		cmd, c.For(all), fmtDuration(c.Time), fmtDuration(c.Build), c.Probes, plural(c.Probes, "probe", "probes"), c.Contacts,
		strings.TrimPrefix(strings.TrimPrefix(c.String(), "first contact: "), "all pairs: "))
	return err
}
