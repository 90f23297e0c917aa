package main

/*
#include "cgotypes.h"
*/
import "C"

import (
	"fmt"
	"sync"

	"github.com/collide3d/collide"
)

// handles is the handle table. Handles count from 1 and are never reused,
// so a released handle stays an error rather than naming a later object.
var handles = struct {
	sync.Mutex
	next uint64
	m    map[uint64]any
}{m: map[uint64]any{}}

// newHandle stores v and returns its handle.
func newHandle(v any) C.collide_handle { return C.collide_handle(putHandle(v)) }

// putHandle stores v and returns its handle, in Go's type.
func putHandle(v any) uint64 {
	handles.Lock()
	defer handles.Unlock()
	handles.next++
	handles.m[handles.next] = v
	return handles.next
}

// freeHandle releases h; 0 is a no-op. An object with a release method
// (a kind of object that holds more than memory) has it called, outside
// the table's lock, once its handle is gone.
func freeHandle(h uint64) error {
	if h == 0 {
		return nil
	}
	handles.Lock()
	v, ok := handles.m[h]
	delete(handles.m, h)
	handles.Unlock()
	if !ok {
		return argf("handle %d is not a live object (already released, or never issued)", h)
	}
	if r, ok := v.(interface{ release() }); ok {
		r.release()
	}
	return nil
}

// lookup returns the object of handle h, which must be a T; what names the
// argument in the error ("env", "model", ...).
func lookup[T any](h C.collide_handle, what string) (T, error) { return lookupID[T](uint64(h), what) }

// lookupID is lookup in Go's types.
func lookupID[T any](h uint64, what string) (T, error) {
	var zero T
	if h == 0 {
		return zero, argf("%s: handle 0 is no object", what)
	}
	handles.Lock()
	v, ok := handles.m[h]
	handles.Unlock()
	if !ok {
		return zero, argf("%s: handle %d is not a live object (already released, or never issued)", what, h)
	}
	t, ok := v.(T)
	if !ok {
		return zero, argf("%s: handle %d is %s, not %s", what, h, kindName(v), kindName(any(zero)))
	}
	return t, nil
}

// kindName names the kind of object v is, or would be, for messages: "a
// model", "a buffer", or what v's handleKind method says (the other kinds
// of object, such as worlds, have one; it is called on a nil pointer
// too, so it must not use its receiver).
func kindName(v any) string {
	switch v.(type) {
	case *collide.Model:
		return "a model"
	case []int64:
		return "a buffer"
	case []float64:
		return "a buffer of doubles"
	}
	if n, ok := v.(interface{ handleKind() string }); ok {
		return n.handleKind()
	}
	return fmt.Sprintf("a %T", v)
}
