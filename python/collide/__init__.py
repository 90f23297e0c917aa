"""collide: exact, fast collision detection between triangle meshes.

The Go library collide (github.com/collide3d/collide) through its C
interface (cmd/libcollide/collide.h), loaded with ctypes; NumPy arrays in
and out. One call tests a model at N poses on every core inside Go::

    import numpy as np
    import collide

    env = collide.load("gen:torus")                 # or a .obj/.stl/.ply/.off/.gltf/.glb file
    fly = collide.load("gen:icosphere:radius=0.4")
    poses = np.tile(np.eye(4), (1000, 1, 1))
    poses[:, 0, 3] = np.linspace(-3, 3, 1000)       # slide along x
    hits = collide.check(env, fly, poses)           # bool (1000,)
    hits, pairs = collide.check(env, fly, poses, all_pairs=True)  # pairs (M, 3)
    c = collide.contacts(env, fly, poses)           # each pair's points, normal, kind

Conventions
-----------
- A pose is a 4x4 matrix [R t; 0 0 0 1] (float64, row-major as NumPy stores
  it): a point x of the model goes to R x + t. R must be a rotation to within
  1e-6 (orthonormal, determinant +1), the last row exactly 0 0 0 1, every
  number finite; a bad pose raises ValueError naming its index
  ("poses[3]: ..."). Batch calls take one 4x4 (a batch of one) or (N, 4, 4).
- The environment stays at the identity unless env_pose is given.
- Triangles are numbered from 0 in the order of the model's faces (polygons
  of a file fan-triangulated in file order), as the command line numbers
  them; answers are exact (touching counts as contact) as the command line's.
- Arrays are converted to float64 (vertices, poses) and int64 (faces) only
  when that loses nothing; anything else (a wrong shape, a float array of
  faces, complex numbers, NaN or infinite coordinates, faces out of range)
  raises ValueError with a message naming the array and element.
  Non-contiguous arrays (slices, transposes) are accepted: they are copied.
- Errors are the library's, with the message the command line prints for
  the same problem: ValueError for a bad argument or a malformed file
  (EINVAL, EFORMAT), FileNotFoundError for a missing file, OSError for one
  that cannot be read or written, RuntimeError for a cancelled call or a
  fault inside the library. Nothing crashes the interpreter.

Threads
-------
ctypes releases the GIL for the whole of every call into the library, so a
batch call (check, contacts, distance, time_of_impact) or a World.step
runs on Go's workers (workers=0: every core) while the interpreter's other
threads go on. Every function may be called from any thread; a World serialises the
calls made on it. A batch goes into the library in chunks of poses of
about CHUNK_SECONDS each, so that Ctrl-C (KeyboardInterrupt) stops it
between two; the answers are the same.

Handles
-------
A Model and a World own an object of the library, released by close(), by
leaving a ``with`` block, or when they are garbage collected.
"""

import collections
import ctypes
import math
import os
import re
import time

import numpy as np

from . import _lib
from ._lib import call, lib

__version__ = "0.1.0"

__all__ = [
    "BVs",
    "BROAD_PHASES",
    "DEFAULT_BV",
    "Model",
    "load",
    "check",
    "contacts",
    "Contacts",
    "APART",
    "TOUCH",
    "CROSS",
    "distance",
    "time_of_impact",
    "Impact",
    "Impacts",
    "Distances",
    "World",
    "Step",
    "library_version",
]

#: The bounding volumes a model can be built with, as the command line's
#: --bv names them ("brute" is no hierarchy: every pair tested, the oracle).
BVs = ("kdop6", "kdop8", "kdop12", "kdop14", "kdop18", "kdop20", "kdop26", "obb", "sphere", "aabb", "boxtree", "rss", "brute")

#: The bounding volume of Model and load when none is given.
DEFAULT_BV = "kdop18"

#: The broad phases of a World, as `collide world --broad` names them.
BROAD_PHASES = ("brute", "dbvt", "dopsap", "grid", "octree", "rgrid", "sap")

_MAX_EXACT_INT = 2**53  # integers up to this convert to float64 exactly
_I64 = np.iinfo(np.int64)


def library_version():
    """The version string of the Go library (collide_version)."""
    return lib.collide_version().decode()


# ---- array conversions -------------------------------------------------


def _elem(name, idx):
    return name + "".join("[%d]" % i for i in idx)


def _float64(a, name):
    """a as a float64 array if that is exact, else ValueError."""
    a = np.asarray(a)
    k = a.dtype.kind
    if k == "f":
        if a.dtype.itemsize > 8:
            b = a.astype(np.float64)
            bad = ~((b == a) | np.isnan(a))
            if bad.any():
                idx = tuple(int(i) for i in np.argwhere(bad)[0])
                raise ValueError(
                    "%s = %r is not exactly a float64 (%s array)" % (_elem(name, idx), a[idx], a.dtype)
                )
            return b
        return a.astype(np.float64, copy=False)
    if k in "iu":
        if a.dtype.itemsize >= 8 and a.size:
            # Compared in a's own type (a uint64 against a Python int
            # would be compared as float64, inexactly).
            lim = a.dtype.type(_MAX_EXACT_INT)
            big = (a > lim) | (a < -lim) if k == "i" else a > lim
            if big.any():
                idx = tuple(int(i) for i in np.argwhere(big)[0])
                raise ValueError(
                    "%s = %d is not exactly a float64 (beyond 2**53)" % (_elem(name, idx), int(a[idx]))
                )
        return a.astype(np.float64)
    raise ValueError("%s: dtype %s is not a real number type (want float64, or floats or integers that convert exactly)" % (name, a.dtype))


def _vertices(v, name="vertices"):
    a = np.asarray(v)
    if a.ndim != 2 or a.shape[1] != 3:
        raise ValueError("%s: shape %s, want (V, 3)" % (name, a.shape))
    return np.ascontiguousarray(_float64(a, name))


def _faces(f, name="faces"):
    a = np.asarray(f)
    if a.ndim != 2 or a.shape[1] != 3:
        raise ValueError("%s: shape %s, want (F, 3)" % (name, a.shape))
    if a.dtype.kind not in "iu":
        if a.size or a.dtype.kind != "f":
            raise ValueError("%s: dtype %s is not an integer type (vertex indices)" % (name, a.dtype))
        a = a.astype(np.int64)  # an empty float array, as np.zeros((0, 3)) makes
    if a.dtype.kind == "u" and a.dtype.itemsize == 8 and a.size and a.max() > np.uint64(_I64.max):
        idx = tuple(int(i) for i in np.argwhere(a > np.uint64(_I64.max))[0])
        raise ValueError("%s = %d is out of range" % (_elem(name, idx), int(a[idx])))
    return np.ascontiguousarray(a, dtype=np.int64)


def _poses(p, name="poses"):
    """p as a contiguous (N, 4, 4) float64 array and whether it was one 4x4."""
    if type(p) is np.ndarray and p.dtype == np.float64 and p.flags.c_contiguous:
        # The common case, without a copy or a check of the values (the
        # library checks them).
        if p.ndim == 3 and p.shape[1:] == (4, 4):
            return p, False
        if p.shape == (4, 4):
            return p.reshape(1, 4, 4), True
    a = np.asarray(p)
    if a.shape == (4, 4):
        return np.ascontiguousarray(_float64(a, name)).reshape(1, 4, 4), True
    if a.ndim != 3 or a.shape[1:] != (4, 4):
        raise ValueError("%s: shape %s, want (4, 4) or (N, 4, 4)" % (name, a.shape))
    return np.ascontiguousarray(_float64(a, name)), False


def _pose_ptr(p, name):
    """The pointer to one pose (None: NULL, the identity) and the array to keep."""
    if p is None:
        return None, None
    a = np.asarray(p)
    if a.shape != (4, 4):
        raise ValueError("%s: shape %s, want (4, 4)" % (name, a.shape))
    a = np.ascontiguousarray(_float64(a, name))
    return a.ctypes.data, a


def _workers(w):
    w = int(w)
    if not 0 <= w < 2**31:
        raise ValueError("workers: %d is not in [0, 2**31) (0: every core)" % w)
    return w


def _str(s, name):
    if s is None:
        return None
    if not isinstance(s, str):
        raise ValueError("%s: %r is not a string" % (name, s))
    return s.encode()


def _path(p):
    return os.fsencode(os.fspath(p))


# ---- models --------------------------------------------------------------


class _Owned:
    """An object of the library's, named by a handle: released by close, at
    the end of a with block, or when collected."""

    __slots__ = ("_h", "__weakref__")

    _kind = "object"

    def _handle(self):
        if not self._h:
            raise ValueError("collide.%s: the %s is closed" % (type(self).__name__, self._kind))
        return self._h

    def close(self):
        """Releases the library's object (a closed one cannot be used)."""
        h, self._h = self._h, 0
        _lib.free(h)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # pragma: no cover: interpreter shutdown
            pass


class Model(_Owned):
    """A triangle mesh with its bounding-volume hierarchy, ready to query.

    Model(vertices, faces, bv="kdop18"): vertices a (V, 3) array of float64
    (or of numbers that convert to float64 exactly), faces an (F, 3) integer
    array of vertex indices in [0, V). Instead of the two arrays, any object
    with .vertices and .faces (a trimesh.Trimesh) can be given. bv is the
    bounding volume (see BVs). The arrays are copied: changing them later
    does not change the model. Bad arrays raise ValueError naming the
    element ("vertices[12][1] is NaN", "faces[3][2] = 99 is out of range
    [0, 50)"); a model without triangles is an error as on the command line.

    See also load, for mesh files, saved models and generated models.
    """

    __slots__ = ("_nv", "_nf", "_bv", "_v", "_f")
    _kind = "model"

    def __init__(self, vertices, faces=None, bv=DEFAULT_BV):
        self._h = 0
        if faces is None:
            if hasattr(vertices, "vertices") and hasattr(vertices, "faces"):
                vertices, faces = vertices.vertices, vertices.faces
            else:
                raise TypeError(
                    "Model: give vertices and faces, or one object with .vertices and .faces (such as a trimesh.Trimesh)"
                )
        v = _vertices(vertices)
        f = _faces(faces)
        h = _lib.H()
        call(lib.collide_model_new, v.ctypes.data, len(v), f.ctypes.data, len(f), _str(bv, "bv"), ctypes.byref(h))
        self._adopt(h.value)

    @classmethod
    def _from_handle(cls, h):
        m = cls.__new__(cls)
        m._h = 0
        m._adopt(h)
        return m

    def _adopt(self, h):
        self._h = h
        self._v = self._f = None
        nv, nf = _lib.I64(), _lib.I64()
        bv = ctypes.create_string_buffer(64)
        call(lib.collide_model_info, h, ctypes.byref(nv), ctypes.byref(nf), bv, 64)
        self._nv, self._nf, self._bv = nv.value, nf.value, bv.value.decode()

    @property
    def num_vertices(self):
        """The number of vertices."""
        return self._nv

    @property
    def num_triangles(self):
        """The number of triangles."""
        return self._nf

    @property
    def bv(self):
        """The name of the bounding volume of its hierarchy (see BVs)."""
        return self._bv

    def _mesh(self):
        if self._v is None:
            v = np.empty((self._nv, 3), np.float64)
            f = np.empty((self._nf, 3), np.int64)
            call(lib.collide_model_mesh, self._handle(), v.ctypes.data, f.ctypes.data)
            v.flags.writeable = False
            f.flags.writeable = False
            self._v, self._f = v, f
        return self._v, self._f

    @property
    def vertices(self):
        """The vertices, a read-only (V, 3) float64 array."""
        return self._mesh()[0]

    @property
    def faces(self):
        """The triangles, a read-only (F, 3) int64 array of vertex indices."""
        return self._mesh()[1]

    def save(self, path):
        """Writes the model (mesh and hierarchy) to path, in the format of
        `collide build`: load reads it back without building. The file is
        replaced only once written whole."""
        call(lib.collide_model_save, self._handle(), _path(path))

    def close(self):
        """Releases the library's model (a closed model cannot be queried;
        worlds it was added to keep their own reference)."""
        super().close()

    def __repr__(self):
        if not self._h:
            return "<collide.Model closed>"
        return "<collide.Model %d triangles, %d vertices, bv=%s>" % (self._nf, self._nv, self._bv)


def load(path, bv=None, mesh=None):
    """Reads a model as the command line reads a model argument.

    path is a mesh file (.obj, .stl, .ply, .off, .gltf, .glb), a model saved
    by Model.save or `collide build` (recognised by its first bytes), or a
    generated model "gen:KIND[:key=value,...]" (`collide gen` lists the
    kinds). bv is the bounding volume (None: the default, kdop18; a saved
    model keeps its own, and a bv that differs raises ValueError). mesh
    names the one mesh of a glTF file to read, in its own coordinates (as
    path "FILE.gltf#NAME" does on the command line); None reads every mesh
    of the default scene, each instance placed by its node's transform.

    A missing file raises FileNotFoundError, a malformed one ValueError
    naming the line or byte offset, with the message `collide info` prints.
    """
    h = _lib.H()
    call(lib.collide_model_load, _path(path), _str(bv, "bv"), _str(mesh, "mesh"), ctypes.byref(h))
    return Model._from_handle(h.value)


def _model(m, name):
    if not isinstance(m, Model):
        raise TypeError("%s: %r is not a collide.Model" % (name, type(m).__name__))
    return m._handle()


# ---- batch queries --------------------------------------------------------

#: The time a batch call spends in the library at a stretch: a batch runs in
#: chunks of poses of about this long, and the interpreter sees Ctrl-C
#: (KeyboardInterrupt) between two (it cannot while the library runs).
CHUNK_SECONDS = 0.1

_POSE_INDEX = re.compile(r"^(poses|from|to)\[(\d+)\]")


def _in_chunks(n, run):
    """Calls run(lo, hi) over [0, n) in consecutive chunks, each of about
    CHUNK_SECONDS, so that Ctrl-C interrupts a long batch between chunks.
    Chunks start at 16 poses and grow (at most 8-fold from one chunk to the
    next) towards that time; a pose's answer does not depend on its chunk
    (each is the single call's). n = 0 makes one call, which checks the
    other arguments. A pose's error names its index in the whole batch."""
    lo, size = 0, 16
    while True:
        hi = min(n, lo + size)
        t0 = time.perf_counter()
        try:
            run(lo, hi)
        except ValueError as e:
            if lo == 0:
                raise
            msg = _POSE_INDEX.sub(lambda m: "%s[%d]" % (m.group(1), int(m.group(2)) + lo), str(e), count=1)
            raise ValueError(msg) from None
        lo = hi
        if lo >= n:
            return
        dt = time.perf_counter() - t0
        size = max(1, int(size * min(8.0, CHUNK_SECONDS / dt))) if dt > 0 else 8 * size


def check(env, fly, poses, all_pairs=False, eps=0.0, env_pose=None, workers=0, pairs=None):
    """Tests fly at each pose against env: one call for N poses.

    poses is one 4x4 pose or an (N, 4, 4) array (one 4x4 is a batch of one:
    N = 1). Returns hits, a bool array (N,), True where fly touches env.
    With all_pairs=True it returns the tuple (hits, pairs): pairs an (M, 3)
    int64 array of (pose index, env triangle, fly triangle), every pair in
    contact at every pose, ordered by pose, then env triangle, then fly
    triangle, as `collide check --all --json` prints them. pairs=True without
    all_pairs gives (hits, pairs) too, with the first pair found at each
    pose that collides (the pair `collide check` prints without --all).

    eps > 0 reports the pairs at distance at most eps instead of in contact.
    env_pose (None: the identity) places env. workers is the number of
    threads (0: every core). The GIL is released while the call runs.
    """
    ps, _ = _poses(poses)
    n = len(ps)
    ep, keep = _pose_ptr(env_pose, "env_pose")
    want = bool(all_pairs) if pairs is None else bool(pairs)
    e, f, w = _model(env, "env"), _model(fly, "fly"), _workers(workers)
    hits = np.empty(n, np.uint8)  # every element written by the library
    found = []

    def run(lo, hi):
        buf = _lib.H()
        call(
            lib.collide_check, e, ep, f, ps[lo:hi].ctypes.data, hi - lo, 1 if all_pairs else 0,
            float(eps), w, hits[lo:hi].ctypes.data, ctypes.byref(buf) if want else None,
        )
        if want:
            got = _lib.take_buffer(buf.value).reshape(-1, 3)
            got[:, 0] += lo
            found.append(got)

    _in_chunks(n, run)
    del keep
    hits = hits.view(np.bool_)
    if not want:
        return hits
    return hits, np.concatenate(found) if len(found) != 1 else found[0]


#: The kinds of Contacts.kind: APART (only with eps > 0: within eps, not
#: touching), TOUCH (the triangles meet and some plane weakly separates
#: them), CROSS (their interiors meet).
APART, TOUCH, CROSS = 0, 1, 2

#: contacts' answer: M contacts, one row per pair, each field an array:
#: pose (M,) int64, the pose's index; triangles (M, 2) int64, (env triangle,
#: fly triangle); kind (M,) int8, APART, TOUCH or CROSS; points (M, 6, 3)
#: float64, the first num_points[i] of row i the points where the triangles
#: meet, the rest NaN; num_points (M,) int64; normals (M, 3) float64, unit;
#: bounds (M,) float64, how far each point may be from the exact one.
Contacts = collections.namedtuple("Contacts", "pose triangles kind points num_points normals bounds")


def contacts(env, fly, poses, all_pairs=True, eps=0.0, env_pose=None, workers=0):
    """The contact geometry of each pair of triangles in contact: one call
    for N poses.

    Returns Contacts(pose, triangles, kind, points, num_points, normals,
    bounds), one row per pair in the order of check's pairs for the same
    arguments (by pose, then env triangle, then fly triangle): every pair in
    contact at every pose with all_pairs=True (the default), else the first
    pair found at each pose that collides. Each row is the answer of
    `collide check --contacts` for its pair: the shared point, segment or
    (coplanar triangles) convex polygon of up to 6 points, num_points of
    them, each within bounds of the exact point; kind TOUCH (a plane weakly
    separates the triangles) or CROSS (they pass through each other); the
    unit normal from env's triangle towards fly's (for a touch a
    separating direction, for a crossing env's triangle's normal). With
    eps > 0 a pair within eps that does not touch has kind APART, its two
    closest points (env's, fly's) and the direction between them. Points and
    normals are in the common frame (env's when env_pose is None).

    poses is one 4x4 pose or (N, 4, 4); env_pose and workers as for check.
    The GIL is released while the call runs.
    """
    ps, _ = _poses(poses)
    n = len(ps)
    ep, keep = _pose_ptr(env_pose, "env_pose")
    e, f, w = _model(env, "env"), _model(fly, "fly"), _workers(workers)
    found = []

    def run(lo, hi):
        buf = _lib.H()
        call(lib.collide_contacts, e, ep, f, ps[lo:hi].ctypes.data, hi - lo, 1 if all_pairs else 0, float(eps), w, ctypes.byref(buf))
        got = _lib.take_buffer(buf.value, np.float64).reshape(-1, _lib.CONTACT_STRIDE)
        got[:, _lib.CONTACT_POSE] += lo
        found.append(got)

    _in_chunks(n, run)
    del keep
    rows = np.concatenate(found) if len(found) != 1 else found[0]
    ints = rows[:, : _lib.CONTACT_POINTS].astype(np.int64)
    return Contacts(
        pose=np.ascontiguousarray(ints[:, _lib.CONTACT_POSE]),
        triangles=np.ascontiguousarray(ints[:, _lib.CONTACT_ENV : _lib.CONTACT_FLY + 1]),
        kind=ints[:, _lib.CONTACT_KIND].astype(np.int8),
        points=rows[:, _lib.CONTACT_POINTS : _lib.CONTACT_NORMAL].reshape(-1, 6, 3).copy(),
        num_points=np.ascontiguousarray(ints[:, _lib.CONTACT_NPOINTS]),
        normals=rows[:, _lib.CONTACT_NORMAL : _lib.CONTACT_BOUND].copy(),
        bounds=rows[:, _lib.CONTACT_BOUND].copy(),
    )


#: distance's answer with details=True.
Distances = collections.namedtuple("Distances", "distances witnesses bounds triangles")


def distance(env, fly, poses, max_distance=math.inf, env_pose=None, workers=0, details=False):
    """The distance between env and fly at each pose: one call for N poses.

    poses is one 4x4 pose or (N, 4, 4) (one 4x4 is a batch of one). Returns
    (distances, witnesses): distances (N,) float64, 0 where the models touch
    (exactly, as check decides), else within bounds of the exact distance;
    witnesses (N, 2, 3), the closest points of env's and of fly's triangles,
    both in the common frame (env's when env_pose is None). With
    details=True it returns Distances(distances, witnesses, bounds,
    triangles): bounds (N,) and triangles (N, 2) int64, the two witness
    triangles (env's, fly's). max_distance stops the search there: poses
    with nothing closer give inf, NaN witnesses and triangles -1. The GIL is
    released while the call runs.
    """
    ps, _ = _poses(poses)
    n = len(ps)
    ep, keep = _pose_ptr(env_pose, "env_pose")
    mx = float(max_distance)
    if not mx > 0:
        raise ValueError("max_distance: %r is not > 0 (inf: no limit)" % max_distance)
    dist = np.empty(n, np.float64)
    bound = np.empty(n, np.float64)
    wit = np.empty((n, 2, 3), np.float64)
    tris = np.empty((n, 2), np.int64)
    e, f, w = _model(env, "env"), _model(fly, "fly"), _workers(workers)
    _in_chunks(
        n,
        lambda lo, hi: call(
            lib.collide_distance, e, ep, f, ps[lo:hi].ctypes.data, hi - lo, mx, w,
            dist[lo:hi].ctypes.data, bound[lo:hi].ctypes.data, wit[lo:hi].ctypes.data, tris[lo:hi].ctypes.data,
        ),
    )
    del keep
    if details:
        return Distances(dist, wit, bound, tris)
    return dist, wit


#: time_of_impact's answer for one motion: hit (bool); toi, (lo, hi) floats
#: holding the earliest time of contact in [0, 1] ((1.0, 1.0) without a
#: hit); triangles, (env triangle, fly triangle) touching then ((-1, -1)
#: without a hit); maybe (bool), a turning motion passing within rounding of
#: env with no contact proved.
Impact = collections.namedtuple("Impact", "hit toi triangles maybe")

#: time_of_impact's answer for N motions: hit (N,) bool, toi (N, 2) float64,
#: triangles (N, 2) int64, maybe (N,) bool, each row as Impact's fields.
Impacts = collections.namedtuple("Impacts", "hit toi triangles maybe")


def time_of_impact(env, fly, pose0, pose1, env_pose=None, workers=0):
    """Whether fly touches env while it moves from pose0 to pose1, and when.

    The motion is a screw motion: the translation moves linearly in time t
    in [0, 1], the rotation turns at a constant rate about a fixed axis (as
    `collide check --ccd`). With pose0 and pose1 each one 4x4 pose the answer
    is an Impact (hit, toi=(lo, hi), triangles=(env, fly), maybe); with two
    (N, 4, 4) arrays, N motions from pose0[i] to pose1[i] in one call, it is
    an Impacts of arrays. The GIL is released while the call runs.
    """
    a, one = _poses(pose0, "pose0")
    b, one1 = _poses(pose1, "pose1")
    if a.shape != b.shape or one != one1:
        raise ValueError("pose0 and pose1: shapes %s and %s differ" % (np.shape(pose0), np.shape(pose1)))
    n = len(a)
    ep, keep = _pose_ptr(env_pose, "env_pose")
    hit = np.zeros(n, np.uint8)
    maybe = np.zeros(n, np.uint8)
    toi = np.empty((n, 2), np.float64)
    tris = np.empty((n, 2), np.int64)
    e, f, w = _model(env, "env"), _model(fly, "fly"), _workers(workers)
    _in_chunks(
        n,
        lambda lo, hi: call(
            lib.collide_time_of_impact, e, ep, f, a[lo:hi].ctypes.data, b[lo:hi].ctypes.data, hi - lo, w,
            hit[lo:hi].ctypes.data, toi[lo:hi].ctypes.data, tris[lo:hi].ctypes.data, maybe[lo:hi].ctypes.data,
        ),
    )
    del keep
    hit, maybe = hit.view(np.bool_), maybe.view(np.bool_)
    if one:
        return Impact(bool(hit[0]), (float(toi[0, 0]), float(toi[0, 1])), (int(tris[0, 0]), int(tris[0, 1])), bool(maybe[0]))
    return Impacts(hit, toi, tris, maybe)


# ---- worlds ----------------------------------------------------------------

#: World.step's answer: contacts (K, 4) int64 rows (a, b, triangle of a,
#: triangle of b), a < b, for every pair of objects in contact after the
#: step and each of its triangle pairs (one per pair of objects unless
#: all_pairs), ordered; began and ended (B, 2) and (E, 2) int64 rows (a, b),
#: a < b, the pairs of objects that started or stopped touching at the step.
Step = collections.namedtuple("Step", "contacts began ended")


class World(_Owned):
    """Many objects tested against each other by steps (package world).

    World(all_pairs=False, eps=0.0, broad=None, workers=0): all_pairs asks
    for every pair of triangles of each pair of objects in contact (else the
    first found), eps > 0 for the pairs closer than eps, broad names the
    broad phase (see BROAD_PHASES; None: the default), workers the threads
    of a step's exact tests (0: every core).

    add places an instance of a model; move changes poses; step tests what
    moved since the last step and returns a Step of arrays. Static objects
    are never tested against each other. Calls on one world are serialised
    (it may be shared between threads); step releases the GIL.
    """

    __slots__ = ()
    _kind = "world"

    def __init__(self, all_pairs=False, eps=0.0, broad=None, workers=0):
        self._h = 0
        h = _lib.H()
        call(lib.collide_world_new, 1 if all_pairs else 0, float(eps), _str(broad, "broad"), _workers(workers), ctypes.byref(h))
        self._h = h.value

    def add(self, model, pose=None, static=False, group=0):
        """Adds an instance of model at pose (4x4; None: the identity) and
        returns its id (an int >= 0). group is its group in [0, 1024)."""
        p, keep = _pose_ptr(pose, "pose")
        g = int(group)
        if not 0 <= g < 1024:
            raise ValueError("group: %d is not in [0, 1024)" % g)
        out = _lib.I64()
        call(lib.collide_world_add, self._handle(), _model(model, "model"), p, 1 if static else 0, g, ctypes.byref(out))
        del keep
        return out.value

    def move(self, ids, poses):
        """Moves objects: ids one id and poses one 4x4, or ids a sequence of
        n ids and poses (n, 4, 4). They are tested at the next step. A bad
        id or pose raises ValueError and moves nothing."""
        ids = np.ascontiguousarray(np.atleast_1d(np.asarray(ids)))
        if ids.ndim != 1 or (ids.size and ids.dtype.kind not in "iu"):
            raise ValueError("ids: want one id or a sequence of integer ids, not shape %s dtype %s" % (ids.shape, ids.dtype))
        ids = ids.astype(np.int64)
        ps, _ = _poses(poses)
        if len(ps) != len(ids):
            raise ValueError("move: %d ids for %d poses" % (len(ids), len(ps)))
        call(lib.collide_world_move, self._handle(), ids.ctypes.data, ps.ctypes.data, len(ids))

    def remove(self, id):
        """Removes object id; its contacts end at the next step."""
        call(lib.collide_world_remove, self._handle(), int(id))

    def step(self):
        """Tests the objects moved since the last step; returns a Step
        (contacts (K, 4), began (B, 2), ended (E, 2), int64 arrays)."""
        c, b, e = _lib.H(), _lib.H(), _lib.H()
        call(lib.collide_world_step, self._handle(), ctypes.byref(c), ctypes.byref(b), ctypes.byref(e))
        return Step(
            _lib.take_buffer(c.value).reshape(-1, 4),
            _lib.take_buffer(b.value).reshape(-1, 2),
            _lib.take_buffer(e.value).reshape(-1, 2),
        )

    def __repr__(self):
        return "<collide.World%s>" % ("" if self._h else " closed")
