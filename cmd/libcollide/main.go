// Command libcollide is collide's C library: the functions that collide.h
// declares, built as a shared library with
//
//	go build -buildmode=c-shared -o libcollide.so ./cmd/libcollide
//
// (go build also writes libcollide.h, cgo's own declarations of the same
// functions; include collide.h, the interface). The Python package in
// python/ builds and loads it.
//
// # Conventions
//
// collide.h states them for the caller; inside:
//
//   - Objects are named by handles: small integers counted from 1, never
//     reused, in one table guarded by a mutex (handles.go). A handle
//     released, never issued or of another kind of object is
//     COLLIDE_EINVAL naming the argument ("env: handle 7 is a buffer, not
//     a model"). Models are *collide.Model, buffers []int64 or
//     []float64 (collide_contacts').
//   - No pointer of the caller's is kept past a call, and no Go pointer is
//     handed out: the caller's arrays are read and written in place during
//     the call (batch calls work on them from several goroutines, and
//     return when all is done).
//   - Every export defers recovered first: a panic becomes
//     COLLIDE_EINTERNAL with its message, never a crash of the caller.
//   - Each export is a thin wrapper: it converts the C arguments (arrays
//     to Go slices over the caller's memory, nil for NULL) and calls a Go
//     function of the same name in Go's types (modelNew, check, ...),
//     which the tests call directly (a _test.go file cannot use cgo).
//   - Errors map to status codes by kind (status.go): a bad argument
//     EINVAL, a missing file ENOENT, a malformed file EFORMAT, other file
//     errors EIO, cancellation ECANCELED, a panic EINTERNAL. The message
//     is the one the command line prints after "collide COMMAND: " for the
//     same problem (a model argument, --bv, --eps), and for the arrays,
//     which the command line does not have, it names the element:
//     "vertices[12][1] is NaN", "faces[3][2] = 99 is out of range [0, 50)",
//     "poses[3]: pose rotation is not orthonormal with determinant 1".
//   - Models are read as the command line reads a model argument
//     (internal/source): a mesh file, a saved model, gen:KIND[:k=v,...].
//     A mesh is built with the bounding volume asked (default kdop18, as
//     collide.h says: the library's default, where the command line's
//     check defaults to aabb); a saved model keeps its own, and a bv that
//     differs is check's error. Saving writes a temporary file beside the
//     target and moves it into place (internal/outfile, build -o's).
//   - The batch calls are package batch's: each pose's answer is the
//     single call's (collide.Collide, with Contacts for collide_contacts,
//     DistanceBetween, Impact), on workers goroutines.
//
// A Go file of the package that exports functions includes cgotypes.h
// (collide.h and the const types cgo needs) in its preamble, so that the
// C compiler checks every export against collide.h.
package main

/*
#include "cgotypes.h"
*/
import "C"

import (
	"runtime/debug"
	"sync"
)

func main() {}

// version is the library's version: the module's version as the Go
// toolchain stamped it (a pseudo-version with the commit), made once.
var version = sync.OnceValue(func() *C.char {
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		v = bi.Main.Version
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && (v == "" || v == "(devel)") {
				v = s.Value
			}
		}
	}
	return C.CString("collide " + v) // kept for the life of the process
})

//export collide_version
func collide_version() *C.collide_cchar { return version() }

//export collide_free
func collide_free(h C.collide_handle, errbuf *C.char, errcap C.size_t) (rc C.int32_t) {
	defer recovered(&rc, errbuf, errcap)
	return status(freeHandle(uint64(h)), errbuf, errcap)
}

//export collide_buffer_len
func collide_buffer_len(h C.collide_handle) (n C.int64_t) {
	defer func() {
		if recover() != nil {
			n = -1
		}
	}()
	if h == 0 {
		return 0 // no buffer: the empty one
	}
	if b, err := lookupID[[]float64](uint64(h), "buffer"); err == nil {
		return C.int64_t(len(b))
	}
	b, err := lookupID[[]int64](uint64(h), "buffer")
	if err != nil {
		return -1
	}
	return C.int64_t(len(b))
}

//export collide_buffer_copy
func collide_buffer_copy(h C.collide_handle, dst *C.int64_t, n C.int64_t, errbuf *C.char, errcap C.size_t) (rc C.int32_t) {
	defer recovered(&rc, errbuf, errcap)
	k, err := count(int64(n), 1, "n")
	if err != nil {
		return status(err, errbuf, errcap)
	}
	return status(bufferCopy(uint64(h), sliceAt[int64](dst, k), k), errbuf, errcap)
}

// bufferCopy copies the n elements of buffer h into dst (nil for NULL).
// Handle 0, which the calls return for no results, is the empty buffer.
func bufferCopy(h uint64, dst []int64, n int) error {
	return copyBuffer[int64, float64](h, dst, n, "collide_buffer_copy_f64")
}

// copyBuffer copies the n elements of buffer h, of elements T, into dst;
// a buffer of the other kind U is named with the function that copies it
// (other).
func copyBuffer[T, U int64 | float64](h uint64, dst []T, n int, other string) error {
	var b []T
	if h != 0 {
		var err error
		if _, e := lookupID[[]U](h, "buffer"); e == nil {
			return argf("buffer: handle %d holds %s, not %s: copy it with %s", h, elements[U](), elements[T](), other)
		}
		if b, err = lookupID[[]T](h, "buffer"); err != nil {
			return err
		}
	}
	if n != len(b) {
		return argf("n = %d, but the buffer holds %d elements", n, len(b))
	}
	if err := need(dst, n, "dst"); err != nil {
		return err
	}
	copy(dst, b)
	return nil
}

// elements names the elements of a buffer of T in messages.
func elements[T int64 | float64]() string {
	var z T
	if _, ok := any(z).(int64); ok {
		return "int64 elements"
	}
	return "doubles"
}
