package queries

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/collide3d/collide/bench/distance"
	"github.com/collide3d/collide/bench/internal/md"
	"github.com/collide3d/collide/bench/peers"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// peers adds the driver's systems to a row: its distance systems on a
// distance row (the same pose; the time per query, and the distance
// checked against the row's reference), its mesh systems' builds on a
// build row (the row's mesh as the environment, a small sphere far above
// it flying, at one pose). A time-of-impact row has none (package
// bench/continuous compares continuous collision). Every run of the driver
// is a process of its own, killed at the build cap.
func (m *measure) peers(row *Row, env, fly *mesh.TriMesh) error {
	if row.Scene.Op == TOI {
		return nil
	}
	dir, err := os.MkdirTemp("", "collide-queries-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	envPath, flyPath, posesPath := filepath.Join(dir, "env.obj"), filepath.Join(dir, "fly.obj"), filepath.Join(dir, "poses.txt")
	pose := row.Scene.From
	if row.Scene.Op == Build {
		// A sphere of 20 triangles far above the model: the query at the
		// pose costs little beside the build.
		if fly, err = gen.Icosphere(geom.V(0, 0, 0), 1, 20); err != nil {
			return err
		}
		b := env.Bounds()
		pose = geom.Translation(b.Center().Add(geom.V(0, 0, 10+2*b.Max.Sub(b.Min).Norm())))
	}
	if err := peers.WriteInputs(envPath, flyPath, posesPath, env, fly, []geom.Pose{pose}, "the row's pose"); err != nil {
		return err
	}
	var results []*Result
	var times [][]time.Duration
	type runner func(ctx context.Context, system string) (peers.Build, time.Duration, float64, error)
	var names []string
	var runOne runner
	if row.Scene.Op == Distance {
		if names, err = distance.DriverSystems(m.c.Driver); err != nil {
			return err
		}
		runOne = func(ctx context.Context, system string) (peers.Build, time.Duration, float64, error) {
			b, ans, err := distance.RunPeerBuild(ctx, m.c.Driver, system, envPath, flyPath, posesPath)
			if err != nil {
				return b, 0, 0, err
			}
			return b, time.Duration(ans[0].Nanos), ans[0].Distance, nil
		}
	} else {
		list, err := peers.List(m.c.Driver, "--list")
		if err != nil {
			return err
		}
		modes := map[string]string{}
		for _, l := range list {
			names = append(names, l.System)
			modes[l.System] = "first"
			if !slices.Contains(l.Modes, "first") {
				modes[l.System] = "all"
			}
		}
		runOne = func(ctx context.Context, system string) (peers.Build, time.Duration, float64, error) {
			b, err := peerBuild(ctx, m.c.Driver, system, modes[system], envPath, flyPath, posesPath)
			return b, b.Build, 0, err
		}
	}
	for _, n := range names {
		results = append(results, &Result{System: n, Peer: true})
		times = append(times, nil)
	}
	for round := range m.c.Rounds {
		for k := range results {
			i := (k + round) % len(results)
			r := results[i]
			if r.Err != "" || r.Capped {
				continue
			}
			m.progress("%s: %s, round %d of %d", row.Scene.Name, r.System, round+1, m.c.Rounds)
			ctx, cancel := context.WithTimeout(m.ctx, m.c.BuildCap)
			b, t, d, err := runOne(ctx, r.System)
			timedOut := ctx.Err() != nil
			cancel()
			switch {
			case m.ctx.Err() != nil:
				return m.ctx.Err()
			case timedOut:
				r.Capped = true
				continue
			case err != nil:
				r.Err = err.Error()
				continue
			}
			times[i] = append(times[i], t)
			r.Distance = d
			r.Bytes, r.Peak = b.Bytes, max(r.Peak, b.Peak)
		}
	}
	for i, r := range results {
		r.Rounds = len(times[i])
		if r.Rounds > 0 {
			r.Min, r.Median = slices.Min(times[i]), md.Quantile(times[i], 0.5)
		}
		checkAgainst(row, r)
		row.Results = append(row.Results, *r)
	}
	return nil
}

// peerBuild runs the driver's mesh system on the files in mode ("first"
// or "all") and returns its build line (the rest of its output is not
// read).
func peerBuild(ctx context.Context, driver, system, mode, envPath, flyPath, posesPath string) (peers.Build, error) {
	args := []string{"--system", system}
	if mode == "all" {
		args = append(args, "--all")
	}
	p, err := peers.Start(ctx, driver, append(args, envPath, flyPath, posesPath)...)
	if err != nil {
		return peers.Build{}, err
	}
	line, rerr := bufio.NewReaderSize(p.Stdout(), 1<<16).ReadBytes('\n')
	werr := p.Wait()
	switch {
	case ctx.Err() != nil:
		return peers.Build{}, ctx.Err()
	case werr != nil:
		return peers.Build{}, werr
	case rerr != nil:
		return peers.Build{}, fmt.Errorf("collide-peers --system %s: no build line (%v)", system, rerr)
	}
	b, err := peers.ParseBuild(line, system, mode)
	if err != nil {
		return peers.Build{}, fmt.Errorf("collide-peers --system %s: %w", system, err)
	}
	return b, nil
}
