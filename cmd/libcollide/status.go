package main

/*
#include <stdlib.h>
#include "cgotypes.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"unicode/utf8"
	"unsafe"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/batch"
	"github.com/collide3d/collide/internal/source"
	"github.com/collide3d/collide/mesh"
)

// Status codes, as collide.h numbers them.
const (
	codeOK        = 0
	codeEINVAL    = 1
	codeENOENT    = 2
	codeEIO       = 3
	codeEFORMAT   = 4
	codeECANCELED = 5
	codeEINTERNAL = 6
)

// argError is a bad argument of a call (COLLIDE_EINVAL).
type argError struct{ msg string }

func (e *argError) Error() string { return e.msg }

// argf makes a COLLIDE_EINVAL error.
func argf(format string, args ...any) error { return &argError{fmt.Sprintf(format, args...)} }

// contentError is a file whose contents cannot be a model, though it was
// read whole and its syntax is fine (no triangles, a vertex that is not
// finite): COLLIDE_EFORMAT, as a *mesh.FormatError is.
type contentError struct{ err error }

func (e *contentError) Error() string { return e.err.Error() }

func (e *contentError) Unwrap() error { return e.err }

// internalError is a fault inside the library (COLLIDE_EINTERNAL).
type internalError struct{ msg string }

func (e *internalError) Error() string { return e.msg }

// code maps err to its status code: nil OK; a bad argument (argError,
// source.UsageError, batch.Error, the library's invalid queries, poses,
// volumes and file extensions) EINVAL; a missing file ENOENT; a malformed
// file EFORMAT; cancellation ECANCELED; a recovered panic EINTERNAL; any
// other error (reading or writing a file) EIO.
func code(err error) int32 {
	var (
		ae *argError
		ue *source.UsageError
		be *batch.Error
		fe *mesh.FormatError
		ce *contentError
		ie *internalError
	)
	switch {
	case err == nil:
		return codeOK
	case errors.As(err, &ie):
		return codeEINTERNAL
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return codeECANCELED
	case errors.As(err, &ae), errors.As(err, &ue), errors.As(err, &be),
		errors.Is(err, collide.ErrInvalidQuery), errors.Is(err, collide.ErrInvalidPose),
		errors.Is(err, collide.ErrUnknownBV), errors.Is(err, mesh.ErrUnknownFormat):
		return codeEINVAL
	case errors.As(err, &fe), errors.As(err, &ce):
		return codeEFORMAT
	case errors.Is(err, fs.ErrNotExist):
		return codeENOENT
	}
	return codeEIO
}

// status writes err's message into errbuf (at most errcap bytes,
// NUL-terminated, cut at a UTF-8 boundary) and returns its code
// (COLLIDE_OK for nil, with an empty message).
func status(err error, errbuf *C.char, errcap C.size_t) C.int32_t {
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	writeCString(msg, errbuf, errcap)
	return C.int32_t(code(err))
}

// cutUTF8 returns the longest prefix of s of at most n bytes that does not
// end inside a UTF-8 sequence.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// recovered, deferred first in every export (defer recovered(&rc, errbuf,
// errcap)), turns a panic into COLLIDE_EINTERNAL with the panic's message.
func recovered(rc *C.int32_t, errbuf *C.char, errcap C.size_t) {
	if r := recover(); r != nil {
		*rc = status(panicError(r), errbuf, errcap)
	}
}

// panicError is the error of a recovered panic r, worded as the command
// line words it.
func panicError(r any) error {
	return &internalError{fmt.Sprintf("internal error: %v", r)}
}

// statusOf runs fn as an export runs its body, under recovered, with a
// message buffer of errcap bytes in C memory, and returns the status and
// the message as the caller would read them: the whole path from an
// error (or a panic) to the caller's buffer, in Go's types for the tests.
func statusOf(errcap int, fn func() error) (code int32, msg string) {
	buf := (*C.char)(C.malloc(C.size_t(max(errcap, 1))))
	defer C.free(unsafe.Pointer(buf))
	*buf = 'x' // a message of zero bytes leaves the buffer as it is
	var rc C.int32_t
	func() {
		defer recovered(&rc, buf, C.size_t(errcap))
		rc = status(fn(), buf, C.size_t(errcap))
	}()
	if errcap == 0 {
		return int32(rc), ""
	}
	return int32(rc), C.GoString(buf)
}
