package main

/*
#include "cgotypes.h"
*/
import "C"

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/world"
)

// worldHandle is the object of a world handle: a world.World and the pairs
// its callbacks collect during a step. mu serialises the calls made on one
// world (collide.h: "a world serialises the calls made on it"), which
// package world requires of its writers.
type worldHandle struct {
	mu           sync.Mutex
	w            *world.World
	began, ended []int64 // (a, b) pairs of the step running
}

func (*worldHandle) handleKind() string { return "a world" }

// newWorld makes the world of collide_world_new.
func newWorld(all bool, eps float64, broad string, workers int) (*worldHandle, error) {
	if !(eps >= 0) || math.IsInf(eps, 0) {
		return nil, argf("eps: %v is not a finite number >= 0", eps)
	}
	if workers < 0 {
		return nil, argf("workers: %d is negative", workers)
	}
	if broad == "" {
		broad = world.DefaultBroad()
	}
	mk, err := world.NewBroad(broad)
	if err != nil {
		return nil, argf("broad: unknown broad phase %q (known: %s)", broad, strings.Join(world.BroadPhases(), ", "))
	}
	w, err := world.New(world.Options{All: all, Eps: eps, Broad: mk, Workers: workers})
	if err != nil {
		return nil, argf("%v", err)
	}
	h := &worldHandle{w: w}
	w.SetCallbacks(world.Callbacks{
		Begin: func(c *world.Contact) { h.began = append(h.began, int64(c.A), int64(c.B)) },
		End:   func(c *world.Contact) { h.ended = append(h.ended, int64(c.A), int64(c.B)) },
	})
	return h, nil
}

// add is collide_world_add.
func (h *worldHandle) add(m *collide.Model, p geom.Pose, static bool, group int) (int64, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	id, err := h.w.Add(m, p, world.ObjectOptions{Static: static, Group: group})
	if err != nil {
		return -1, argf("%v", err)
	}
	return int64(id), nil
}

// id checks that x names an object of the world.
func (h *worldHandle) id(x int64, what string) (world.ID, error) {
	if x < 0 || x > math.MaxInt32 || h.w.Model(world.ID(x)) == nil {
		return -1, argf("%s: no object %d in the world", what, x)
	}
	return world.ID(x), nil
}

// move is collide_world_move: every id is checked before any object moves,
// and if a pose is refused (package world asks a rotation orthonormal to
// within world.RotationTol), the objects moved before it go back to their
// poses, so that a failed call changes no pose.
func (h *worldHandle) move(ids []int64, poses []geom.Pose) error {
	if len(ids) != len(poses) {
		return argf("move: %d ids for %d poses", len(ids), len(poses))
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, x := range ids {
		if _, err := h.id(x, fmt.Sprintf("ids[%d]", i)); err != nil {
			return err
		}
	}
	olds := make([]geom.Pose, len(ids))
	for i, x := range ids {
		id := world.ID(x)
		olds[i] = h.w.Pose(id)
		if err := h.w.Move(id, poses[i]); err != nil {
			for j := i - 1; j >= 0; j-- {
				// A pose the world had is accepted again.
				_ = h.w.Move(world.ID(ids[j]), olds[j])
			}
			return argf("poses[%d]: %v", i, err)
		}
	}
	return nil
}

// remove is collide_world_remove.
func (h *worldHandle) remove(x int64) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	id, err := h.id(x, "id")
	if err != nil {
		return err
	}
	if err := h.w.Remove(id); err != nil {
		return argf("%v", err)
	}
	return nil
}

// step is collide_world_step: the contacts after the step as (a, b,
// triangle of a, triangle of b) quadruples, and the pairs (a, b) that began
// and ended touching, each in ascending order.
func (h *worldHandle) step() (contacts, began, ended []int64, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.began, h.ended = h.began[:0], h.ended[:0]
	if _, err := h.w.Step(); err != nil {
		return nil, nil, nil, argf("%v", err)
	}
	for c := range h.w.AllContacts() {
		for tp := range c.All() {
			contacts = append(contacts, int64(c.A), int64(c.B), int64(tp.A), int64(tp.B))
		}
	}
	return contacts, sortedPairs(h.began), sortedPairs(h.ended), nil
}

// sortedPairs returns a copy of the (a, b) pairs of v in ascending order
// (Step calls its callbacks in that order already: this keeps the contract
// whatever it does).
func sortedPairs(v []int64) []int64 {
	if len(v) == 0 {
		return nil
	}
	ps := make([][2]int64, len(v)/2)
	for i := range ps {
		ps[i] = [2]int64{v[2*i], v[2*i+1]}
	}
	slices.SortFunc(ps, func(x, y [2]int64) int {
		if x[0] != y[0] {
			return int(x[0] - y[0])
		}
		return int(x[1] - y[1])
	})
	out := make([]int64, 0, len(v))
	for _, p := range ps {
		out = append(out, p[0], p[1])
	}
	return out
}

//export collide_world_new
func collide_world_new(allPairs C.int32_t, eps C.double, broad *C.collide_cchar, workers C.int32_t, out *C.collide_handle, errbuf *C.char, errcap C.size_t) (rc C.int32_t) {
	defer recovered(&rc, errbuf, errcap)
	if out == nil {
		return status(argf("world: NULL for the handle"), errbuf, errcap)
	}
	h, err := newWorld(allPairs != 0, float64(eps), cstring(broad), int(workers))
	if err != nil {
		return status(err, errbuf, errcap)
	}
	*out = newHandle(h)
	return status(nil, errbuf, errcap)
}

//export collide_world_add
func collide_world_add(wh C.collide_handle, mh C.collide_handle, pose *C.collide_cdouble, isStatic C.int32_t, group C.int32_t, id *C.int64_t, errbuf *C.char, errcap C.size_t) (rc C.int32_t) {
	defer recovered(&rc, errbuf, errcap)
	h, err := lookup[*worldHandle](wh, "world")
	if err != nil {
		return status(err, errbuf, errcap)
	}
	m, err := lookup[*collide.Model](mh, "model")
	if err != nil {
		return status(err, errbuf, errcap)
	}
	p, err := poseAt(pose, "pose")
	if err != nil {
		return status(err, errbuf, errcap)
	}
	x, err := h.add(m, p, isStatic != 0, int(group))
	if err != nil {
		return status(err, errbuf, errcap)
	}
	if id != nil {
		*id = C.int64_t(x)
	}
	return status(nil, errbuf, errcap)
}

//export collide_world_move
func collide_world_move(wh C.collide_handle, ids *C.collide_cint64, poses *C.collide_cdouble, n C.int64_t, errbuf *C.char, errcap C.size_t) (rc C.int32_t) {
	defer recovered(&rc, errbuf, errcap)
	h, err := lookup[*worldHandle](wh, "world")
	if err != nil {
		return status(err, errbuf, errcap)
	}
	if n > 0 && ids == nil {
		return status(argf("ids: NULL for %d objects", int64(n)), errbuf, errcap)
	}
	ps, err := posesAt(poses, int64(n), "poses")
	if err != nil {
		return status(err, errbuf, errcap)
	}
	var xs []int64
	if n > 0 {
		xs = unsafe.Slice((*int64)(unsafe.Pointer(ids)), int(n))
	}
	return status(h.move(xs, ps), errbuf, errcap)
}

//export collide_world_remove
func collide_world_remove(wh C.collide_handle, id C.int64_t, errbuf *C.char, errcap C.size_t) (rc C.int32_t) {
	defer recovered(&rc, errbuf, errcap)
	h, err := lookup[*worldHandle](wh, "world")
	if err != nil {
		return status(err, errbuf, errcap)
	}
	return status(h.remove(int64(id)), errbuf, errcap)
}

//export collide_world_step
func collide_world_step(wh C.collide_handle, contacts, began, ended *C.collide_handle, errbuf *C.char, errcap C.size_t) (rc C.int32_t) {
	defer recovered(&rc, errbuf, errcap)
	h, err := lookup[*worldHandle](wh, "world")
	if err != nil {
		return status(err, errbuf, errcap)
	}
	cs, bs, es, err := h.step()
	if err != nil {
		return status(err, errbuf, errcap)
	}
	for _, o := range []struct {
		dst *C.collide_handle
		v   []int64
	}{{contacts, cs}, {began, bs}, {ended, es}} {
		if o.dst != nil {
			*o.dst = newBuffer(o.v)
		}
	}
	return status(nil, errbuf, errcap)
}
