package main

/*
#include "cgotypes.h"
*/
import "C"

import (
	"context"
	"errors"
	"math"
	"strings"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/batch"
	"github.com/collide3d/collide/geom"
)

// pair is what the batch calls share: the two models and env's pose.
type pair struct {
	env, fly *collide.Model
	envPose  geom.Pose
}

// pairOf looks up the models of handles env and fly and converts env's
// pose (nil: the identity).
func pairOf(env uint64, envPose []float64, fly uint64) (pair, error) {
	var p pair
	var err error
	if p.env, err = lookupID[*collide.Model](env, "env"); err != nil {
		return p, err
	}
	if p.fly, err = lookupID[*collide.Model](fly, "fly"); err != nil {
		return p, err
	}
	p.envPose, err = poseOrIdentity(envPose, "env_pose")
	return p, err
}

// workersOf checks a workers argument.
func workersOf(w int32) (int, error) {
	if w < 0 {
		return 0, argf("workers = %d is negative (0: every core)", w)
	}
	return int(w), nil
}

// batchArgs names the arguments of the C functions that hold the poses
// a *batch.Error names by its What.
var batchArgs = map[string]string{"pose": "poses", "from pose": "from", "to pose": "to", "motion": "from"}

// batchError words an error of package batch as the C library names its
// arguments: a pose's error as "poses[i]: ...", the message after it
// without the library's "collide: " (as the command line words a pose's
// error).
func batchError(err error) error {
	var be *batch.Error
	if errors.As(err, &be) {
		return argf("%s[%d]: %s", batchArgs[be.What], be.Index, strings.TrimPrefix(be.Err.Error(), "collide: "))
	}
	return err
}

//export collide_check
func collide_check(env C.collide_handle, envPose *C.collide_cdouble, fly C.collide_handle,
	poses *C.collide_cdouble, n C.int64_t, allPairs C.int32_t, eps C.double, workers C.int32_t,
	hits *C.uint8_t, pairs *C.collide_handle, errbuf *C.char, errcap C.size_t) (rc C.int32_t) {
	defer recovered(&rc, errbuf, errcap)
	if pairs != nil {
		*pairs = 0
	}
	k, err := count(int64(n), 16, "n")
	if err != nil {
		return status(err, errbuf, errcap)
	}
	ph, err := check(uint64(env), sliceAt[float64](envPose, 16), uint64(fly), sliceAt[float64](poses, 16*k), k,
		allPairs != 0, float64(eps), int32(workers), sliceAt[bool](hits, k), pairs != nil)
	if err == nil && pairs != nil {
		*pairs = C.collide_handle(ph)
	}
	return status(err, errbuf, errcap)
}

// queryArgs checks and converts the arguments that collide_check and
// collide_contacts share.
func queryArgs(env uint64, envPose []float64, fly uint64, poses []float64, n int, all bool, eps float64, workers int32) (pair, []geom.Pose, batch.Options, error) {
	p, err := pairOf(env, envPose, fly)
	if err != nil {
		return p, nil, batch.Options{}, err
	}
	ps, err := posesOf16(poses, n, "poses")
	if err != nil {
		return p, nil, batch.Options{}, err
	}
	if math.IsNaN(eps) || math.IsInf(eps, 0) || eps < 0 {
		return p, nil, batch.Options{}, argf("--eps must be a finite number >= 0, not %v", eps)
	}
	w, err := workersOf(workers)
	return p, ps, batch.Options{All: all, Eps: eps, Workers: w}, err
}

// check is collide_check in Go's types: the arrays are nil where the
// caller passed NULL; it returns the handle of the buffer of pairs if
// wantPairs (0 when there are none).
func check(env uint64, envPose []float64, fly uint64, poses []float64, n int, all bool, eps float64, workers int32,
	hits []bool, wantPairs bool) (uint64, error) {
	p, ps, o, err := queryArgs(env, envPose, fly, poses, n, all, eps, workers)
	if err != nil {
		return 0, err
	}
	if err := need(hits, n, "hits"); err != nil {
		return 0, err
	}
	pairs, err := batch.Check(context.Background(), p.env, p.envPose, p.fly, ps, o, hits, nil)
	if err != nil {
		return 0, batchError(err)
	}
	if !wantPairs {
		return 0, nil
	}
	out := make([]int64, 3*len(pairs))
	for i, q := range pairs {
		out[3*i], out[3*i+1], out[3*i+2] = int64(q.Pose), int64(q.Env), int64(q.Fly)
	}
	return bufferHandle(out), nil
}

// posesOf16 converts the n poses of m (nil where the caller passed NULL),
// as posesAt.
func posesOf16(m []float64, n int, what string) ([]geom.Pose, error) {
	if err := need(m, n, what); err != nil {
		return nil, err
	}
	return posesOf(m, what)
}

//export collide_distance
func collide_distance(env C.collide_handle, envPose *C.collide_cdouble, fly C.collide_handle,
	poses *C.collide_cdouble, n C.int64_t, max C.double, workers C.int32_t,
	dist, bound, witness *C.double, tris *C.int64_t, errbuf *C.char, errcap C.size_t) (rc C.int32_t) {
	defer recovered(&rc, errbuf, errcap)
	k, err := count(int64(n), 16, "n")
	if err != nil {
		return status(err, errbuf, errcap)
	}
	err = distance(uint64(env), sliceAt[float64](envPose, 16), uint64(fly), sliceAt[float64](poses, 16*k), k,
		float64(max), int32(workers), sliceAt[float64](dist, k), sliceAt[float64](bound, k),
		sliceAt[float64](witness, 6*k), sliceAt[int64](tris, 2*k))
	return status(err, errbuf, errcap)
}

// distance is collide_distance in Go's types.
func distance(env uint64, envPose []float64, fly uint64, poses []float64, n int, max float64, workers int32,
	dist, bound, witness []float64, tris []int64) error {
	p, err := pairOf(env, envPose, fly)
	if err != nil {
		return err
	}
	ps, err := posesOf16(poses, n, "poses")
	if err != nil {
		return err
	}
	if math.IsNaN(max) || max < 0 {
		return argf("max must be a number >= 0 (0 or +inf: no limit), not %v", max)
	}
	if math.IsInf(max, 1) {
		max = 0
	}
	w, err := workersOf(workers)
	if err != nil {
		return err
	}
	if err := need(dist, n, "dist"); err != nil {
		return err
	}
	if err := need(bound, n, "bound"); err != nil {
		return err
	}
	out := make([]collide.DistanceResult, n)
	err = batch.Distance(context.Background(), p.env, p.envPose, p.fly, ps, collide.DistanceOptions{Max: max}, w, out)
	if err != nil {
		return batchError(err)
	}
	nan := math.NaN()
	for i, r := range out {
		dist[i], bound[i] = r.Distance, r.Bound
		if r.Far {
			dist[i], bound[i] = math.Inf(1), 0
			r.PEnv, r.PFly = geom.Vec3{X: nan, Y: nan, Z: nan}, geom.Vec3{X: nan, Y: nan, Z: nan}
			r.Env, r.Fly = -1, -1
		}
		if witness != nil {
			copy(witness[6*i:], []float64{r.PEnv.X, r.PEnv.Y, r.PEnv.Z, r.PFly.X, r.PFly.Y, r.PFly.Z})
		}
		if tris != nil {
			tris[2*i], tris[2*i+1] = int64(r.Env), int64(r.Fly)
		}
	}
	return nil
}

//export collide_time_of_impact
func collide_time_of_impact(env C.collide_handle, envPose *C.collide_cdouble, fly C.collide_handle,
	from, to *C.collide_cdouble, n C.int64_t, workers C.int32_t,
	hit *C.uint8_t, toi *C.double, tris *C.int64_t, maybe *C.uint8_t, errbuf *C.char, errcap C.size_t) (rc C.int32_t) {
	defer recovered(&rc, errbuf, errcap)
	k, err := count(int64(n), 16, "n")
	if err != nil {
		return status(err, errbuf, errcap)
	}
	err = timeOfImpact(uint64(env), sliceAt[float64](envPose, 16), uint64(fly), sliceAt[float64](from, 16*k), sliceAt[float64](to, 16*k), k,
		int32(workers), sliceAt[uint8](hit, k), sliceAt[float64](toi, 2*k), sliceAt[int64](tris, 2*k), sliceAt[uint8](maybe, k))
	return status(err, errbuf, errcap)
}

// timeOfImpact is collide_time_of_impact in Go's types.
func timeOfImpact(env uint64, envPose []float64, fly uint64, from, to []float64, n int, workers int32,
	hit []uint8, toi []float64, tris []int64, maybe []uint8) error {
	p, err := pairOf(env, envPose, fly)
	if err != nil {
		return err
	}
	fs, err := posesOf16(from, n, "from")
	if err != nil {
		return err
	}
	ts, err := posesOf16(to, n, "to")
	if err != nil {
		return err
	}
	w, err := workersOf(workers)
	if err != nil {
		return err
	}
	for _, a := range []struct {
		nil  bool
		name string
	}{{hit == nil, "hit"}, {toi == nil, "toi"}, {tris == nil, "tris"}} {
		if a.nil && n > 0 {
			return argf("%s is NULL", a.name)
		}
	}
	out := make([]collide.TOIResult, n)
	if err := batch.Impact(context.Background(), p.env, p.envPose, p.fly, fs, ts, collide.TOIOptions{}, w, out); err != nil {
		return batchError(err)
	}
	for i, r := range out {
		hit[i] = b2u(r.Hit)
		if r.Hit {
			toi[2*i], toi[2*i+1] = r.TOI.Lo, r.TOI.Hi
			tris[2*i], tris[2*i+1] = int64(r.Pair.Env), int64(r.Pair.Fly)
		} else {
			toi[2*i], toi[2*i+1] = 1, 1
			tris[2*i], tris[2*i+1] = -1, -1
		}
		if maybe != nil {
			maybe[i] = b2u(r.Maybe)
		}
	}
	return nil
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
