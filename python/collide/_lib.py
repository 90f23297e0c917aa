"""The C library's functions through ctypes (private: use the package's API).

The library is collide.h's, built by the package's build step as
_libcollide.so next to this file ($COLLIDE_LIBRARY names another copy).
ctypes.CDLL releases the GIL for the duration of every foreign call, so a
batch call lets the interpreter's other threads run while Go works.
"""

import ctypes
import errno
import os
import threading

import numpy as np

_here = os.path.dirname(os.path.abspath(__file__))
PATH = os.environ.get("COLLIDE_LIBRARY") or os.path.join(_here, "_libcollide.so")

try:
    lib = ctypes.CDLL(PATH)
except OSError as e:  # pragma: no cover: a broken installation
    raise ImportError(
        "collide: cannot load its Go library %s (%s): build the package with "
        "`pip install --no-build-isolation ./python`, or for development "
        "`python3 python/setup.py build_go --inplace`" % (PATH, e)
    ) from e

# Status codes of collide.h.
OK, EINVAL, ENOENT, EIO, EFORMAT, ECANCELED, EINTERNAL = range(7)

# collide_contacts' buffer: COLLIDE_CONTACT_STRIDE doubles a contact, at the
# offsets COLLIDE_CONTACT_* of collide.h.
CONTACT_STRIDE = 27
CONTACT_POSE, CONTACT_ENV, CONTACT_FLY, CONTACT_KIND, CONTACT_NPOINTS = range(5)
CONTACT_POINTS, CONTACT_NORMAL, CONTACT_BOUND = 5, 23, 26

H = ctypes.c_uint64  # collide_handle
P = ctypes.c_void_p  # an array's data
I32 = ctypes.c_int32
I64 = ctypes.c_int64
F64 = ctypes.c_double
S = ctypes.c_char_p
SZ = ctypes.c_size_t
PH = ctypes.POINTER(H)
PI64 = ctypes.POINTER(I64)
ERR = (ctypes.c_char_p, SZ)  # every fallible function's last two parameters

_sigs = {
    "collide_version": (S, ()),
    "collide_free": (I32, (H,) + ERR),
    "collide_buffer_len": (I64, (H,)),
    "collide_buffer_copy": (I32, (H, P, I64) + ERR),
    "collide_buffer_copy_f64": (I32, (H, P, I64) + ERR),
    "collide_model_new": (I32, (P, I64, P, I64, S, PH) + ERR),
    "collide_model_load": (I32, (S, S, S, PH) + ERR),
    "collide_model_save": (I32, (H, S) + ERR),
    "collide_model_info": (I32, (H, PI64, PI64, ctypes.c_char_p, SZ) + ERR),
    "collide_model_mesh": (I32, (H, P, P) + ERR),
    "collide_check": (I32, (H, P, H, P, I64, I32, F64, I32, P, PH) + ERR),
    "collide_distance": (I32, (H, P, H, P, I64, F64, I32, P, P, P, P) + ERR),
    "collide_contacts": (I32, (H, P, H, P, I64, I32, F64, I32, PH) + ERR),
    "collide_time_of_impact": (I32, (H, P, H, P, P, I64, I32, P, P, P, P) + ERR),
    "collide_world_new": (I32, (I32, F64, S, I32, PH) + ERR),
    "collide_world_add": (I32, (H, H, P, I32, I32, PI64) + ERR),
    "collide_world_move": (I32, (H, P, P, I64) + ERR),
    "collide_world_remove": (I32, (H, I64) + ERR),
    "collide_world_step": (I32, (H, PH, PH, PH) + ERR),
}
for _name, (_res, _args) in _sigs.items():
    _f = getattr(lib, _name)
    _f.restype, _f.argtypes = _res, list(_args)

ERRCAP = 4096


def error(rc, msg):
    """The Python exception of status rc with the library's message msg."""
    if rc in (EINVAL, EFORMAT):
        return ValueError(msg)
    if rc == ENOENT:
        e = FileNotFoundError(msg)
        e.errno = errno.ENOENT  # str(e) stays the message
        return e
    if rc == EIO:
        return OSError(msg)
    if rc in (ECANCELED, EINTERNAL):
        return RuntimeError(msg)
    return RuntimeError("collide: unknown status %d: %s" % (rc, msg))


_tls = threading.local()


def call(fn, *args):
    """Calls fn(*args, err, errcap) and raises the exception of its status.

    err is a buffer of the calling thread's, made once (a call runs on one
    thread, which it blocks until the library has returned)."""
    err = getattr(_tls, "err", None)
    if err is None:
        err = _tls.err = ctypes.create_string_buffer(ERRCAP)
    rc = fn(*args, err, ERRCAP)
    if rc != OK:
        raise error(rc, err.value.decode("utf-8", "replace"))


def free(h):
    """Releases handle h (0 is a no-op); errors are ignored (a finaliser's)."""
    if h:
        lib.collide_free(h, None, 0)


def take_buffer(h, dtype=np.int64):
    """The elements of buffer h as a 1-D array; h is released. dtype is
    np.int64 (collide_buffer_copy) or np.float64 (collide_buffer_copy_f64)."""
    if not h:
        return np.empty(0, dtype)
    try:
        n = lib.collide_buffer_len(h)
        if n < 0:
            raise RuntimeError("collide: handle %d is not a buffer" % h)
        out = np.empty(n, dtype)
        copy = lib.collide_buffer_copy_f64 if dtype == np.float64 else lib.collide_buffer_copy
        call(copy, h, out.ctypes.data, n)
        return out
    finally:
        free(h)
