package main

/*
#include "cgotypes.h"
*/
import "C"

import (
	"context"
	"math"

	"github.com/collide3d/collide/batch"
	"github.com/collide3d/collide/geom"
)

// The layout of a contact in collide_contacts' buffer (collide.h's
// COLLIDE_CONTACT_* offsets).
const (
	contactStride  = 27
	contactPose    = 0
	contactEnv     = 1
	contactFly     = 2
	contactKind    = 3
	contactNPoints = 4
	contactPoints  = 5
	contactNormal  = 23
	contactBound   = 26
	maxPoints      = (contactNormal - contactPoints) / 3
)

// The constants above are collide.h's: a difference is a constant index
// out of range, which does not compile.
var _ = [1]int{}[(contactStride-C.COLLIDE_CONTACT_STRIDE)*(contactStride-C.COLLIDE_CONTACT_STRIDE)+
	(contactPose-C.COLLIDE_CONTACT_POSE)*(contactPose-C.COLLIDE_CONTACT_POSE)+
	(contactEnv-C.COLLIDE_CONTACT_ENV)*(contactEnv-C.COLLIDE_CONTACT_ENV)+
	(contactFly-C.COLLIDE_CONTACT_FLY)*(contactFly-C.COLLIDE_CONTACT_FLY)+
	(contactKind-C.COLLIDE_CONTACT_KIND)*(contactKind-C.COLLIDE_CONTACT_KIND)+
	(contactNPoints-C.COLLIDE_CONTACT_NPOINTS)*(contactNPoints-C.COLLIDE_CONTACT_NPOINTS)+
	(contactPoints-C.COLLIDE_CONTACT_POINTS)*(contactPoints-C.COLLIDE_CONTACT_POINTS)+
	(contactNormal-C.COLLIDE_CONTACT_NORMAL)*(contactNormal-C.COLLIDE_CONTACT_NORMAL)+
	(contactBound-C.COLLIDE_CONTACT_BOUND)*(contactBound-C.COLLIDE_CONTACT_BOUND)+
	(int(geom.Apart)-C.COLLIDE_APART)*(int(geom.Apart)-C.COLLIDE_APART)+
	(int(geom.Touch)-C.COLLIDE_TOUCH)*(int(geom.Touch)-C.COLLIDE_TOUCH)+
	(int(geom.Cross)-C.COLLIDE_CROSS)*(int(geom.Cross)-C.COLLIDE_CROSS)]

//export collide_contacts
func collide_contacts(env C.collide_handle, envPose *C.collide_cdouble, fly C.collide_handle,
	poses *C.collide_cdouble, n C.int64_t, allPairs C.int32_t, eps C.double, workers C.int32_t,
	out *C.collide_handle, errbuf *C.char, errcap C.size_t) (rc C.int32_t) {
	defer recovered(&rc, errbuf, errcap)
	if out == nil {
		return status(argf("out is NULL"), errbuf, errcap)
	}
	*out = 0
	k, err := count(int64(n), 16, "n")
	if err != nil {
		return status(err, errbuf, errcap)
	}
	h, err := contacts(uint64(env), sliceAt[float64](envPose, 16), uint64(fly), sliceAt[float64](poses, 16*k), k,
		allPairs != 0, float64(eps), int32(workers))
	if err == nil {
		*out = C.collide_handle(h)
	}
	return status(err, errbuf, errcap)
}

// contacts is collide_contacts in Go's types: it returns the handle of the
// buffer of contacts (0 when there are none).
func contacts(env uint64, envPose []float64, fly uint64, poses []float64, n int, all bool, eps float64, workers int32) (uint64, error) {
	p, ps, o, err := queryArgs(env, envPose, fly, poses, n, all, eps, workers)
	if err != nil {
		return 0, err
	}
	cs, err := batch.Contacts(context.Background(), p.env, p.envPose, p.fly, ps, o, nil)
	if err != nil {
		return 0, batchError(err)
	}
	return bufferF64Handle(contactRows(cs)), nil
}

// contactRows lays cs out as collide_contacts' buffer.
func contactRows(cs []batch.PoseContact) []float64 {
	out := make([]float64, contactStride*len(cs))
	nan := math.NaN()
	for i, c := range cs {
		r := out[contactStride*i : contactStride*(i+1)]
		r[contactPose], r[contactEnv], r[contactFly] = float64(c.Pose), float64(c.Pair.Env), float64(c.Pair.Fly)
		r[contactKind] = float64(c.Kind)
		if len(c.Points) > maxPoints {
			panic("libcollide: a contact of more than 6 points") // geom.TriContact has 6 at most
		}
		r[contactNPoints] = float64(len(c.Points))
		pts := r[contactPoints:contactNormal]
		for j := range pts {
			pts[j] = nan
		}
		for j, q := range c.Points {
			pts[3*j], pts[3*j+1], pts[3*j+2] = q.X, q.Y, q.Z
		}
		r[contactNormal], r[contactNormal+1], r[contactNormal+2] = c.Normal.X, c.Normal.Y, c.Normal.Z
		r[contactBound] = c.Bound
	}
	return out
}

// bufferF64Handle makes a buffer of doubles (0 for an empty slice).
func bufferF64Handle(v []float64) uint64 {
	if len(v) == 0 {
		return 0
	}
	return putHandle(v)
}

//export collide_buffer_copy_f64
func collide_buffer_copy_f64(h C.collide_handle, dst *C.double, n C.int64_t, errbuf *C.char, errcap C.size_t) (rc C.int32_t) {
	defer recovered(&rc, errbuf, errcap)
	k, err := count(int64(n), 1, "n")
	if err != nil {
		return status(err, errbuf, errcap)
	}
	return status(bufferCopyF64(uint64(h), sliceAt[float64](dst, k), k), errbuf, errcap)
}

// bufferCopyF64 copies the n elements of buffer of doubles h into dst (nil
// for NULL). Handle 0 is the empty buffer.
func bufferCopyF64(h uint64, dst []float64, n int) error {
	return copyBuffer[float64, int64](h, dst, n, "collide_buffer_copy")
}
