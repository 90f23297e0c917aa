"""The package's API: models and their arrays, errors, handles, the GIL."""

import gc
import sys
import threading
import types

import numpy as np
import pytest

import collide
from conftest import pose, run

# A unit tetrahedron: 4 vertices, 4 triangles.
V = np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
F = np.array([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])


def test_model_arrays_round_trip():
    m = collide.Model(V, F)
    assert (m.num_vertices, m.num_triangles, m.bv) == (4, 4, "kdop18")
    np.testing.assert_array_equal(m.vertices, V)
    np.testing.assert_array_equal(m.faces, F)
    assert m.vertices.dtype == np.float64 and m.faces.dtype == np.int64
    assert not m.vertices.flags.writeable
    assert repr(m) == "<collide.Model 4 triangles, 4 vertices, bv=kdop18>"
    for bv in collide.BVs:
        assert collide.Model(V, F, bv=bv).bv == bv


def test_model_converts_exactly():
    """float32, int32 vertices and int32, uint16 faces convert losslessly."""
    want = collide.check(collide.Model(V, F), collide.Model(V, F), pose(np.eye(3), [0.5, 0, 0]), all_pairs=True)[1]
    for v, f in [
        (V.astype(np.float32), F.astype(np.int32)),
        (V.astype(np.int32), F.astype(np.uint16)),
        (V.tolist(), F.tolist()),
        (V.astype(np.int64), F.astype(np.uint64)),
    ]:
        m = collide.Model(v, f)
        np.testing.assert_array_equal(m.vertices, V)
        got = collide.check(m, m, pose(np.eye(3), [0.5, 0, 0]), all_pairs=True)[1]
        np.testing.assert_array_equal(got, want)


def test_model_from_mesh_object():
    """Any object with .vertices and .faces, as a trimesh.Trimesh."""
    m = collide.Model(types.SimpleNamespace(vertices=V, faces=F), bv="obb")
    assert (m.num_triangles, m.bv) == (4, "obb")
    with pytest.raises(TypeError, match="vertices and faces"):
        collide.Model(V)


def test_model_non_contiguous_is_copied():
    """Non-contiguous arrays are accepted (copied): the same model as from
    contiguous ones, which later changes to the arrays do not touch."""
    wide = np.zeros((4, 5))
    wide[:, 1:4] = V
    v = wide[:, 1:4]
    f = np.asfortranarray(F)
    ft = F.T.copy().T  # a transposed view
    assert not v.flags.c_contiguous and not ft.flags.c_contiguous
    m = collide.Model(v, ft)
    wide[:] = 100
    f[:] = 0
    np.testing.assert_array_equal(m.vertices, V)
    np.testing.assert_array_equal(m.faces, F)
    poses = np.tile(np.eye(4), (3, 1, 1))[:, :, :]
    poses[:, 0, 3] = [0.5, 1.0, 1.5]
    strided = np.repeat(poses, 2, axis=0)[::2]
    assert not strided.flags.c_contiguous
    np.testing.assert_array_equal(collide.check(m, m, strided), [True, True, False])


@pytest.mark.parametrize(
    "v, f, msg",
    [
        (V[:, :2], F, r"^vertices: shape \(4, 2\), want \(V, 3\)$"),
        (V.ravel(), F, r"^vertices: shape \(12,\), want \(V, 3\)$"),
        (V, F[:, :2], r"^faces: shape \(4, 2\), want \(F, 3\)$"),
        (V, F.astype(np.float64), r"^faces: dtype float64 is not an integer type \(vertex indices\)$"),
        (V, F.astype(bool), r"^faces: dtype bool is not an integer type"),
        (V.astype(complex), F, r"^vertices: dtype complex128 is not a real number type"),
        (V.astype(object), F, r"^vertices: dtype object is not a real number type"),
        (np.where(V == 1, 2**53 + 1, 0).astype(np.int64), F, r"^vertices\[1\]\[0\] = 9007199254740993 is not exactly a float64"),
        (V, np.where(F == 3, 2**63, F).astype(np.uint64), r"^faces\[1\]\[2\] = 9223372036854775808 is out of range$"),
        (np.where(V == 1, np.nan, V), F, r"^vertices\[1\]\[0\] is NaN"),
        (np.where(V == 1, np.inf, V), F, r"^vertices\[1\]\[0\] is \+Inf"),
        (V, np.where(F == 3, 99, F), r"^faces\[1\]\[2\] = 99 is out of range \[0, 4\)"),
        (V, np.where(F == 3, -1, F), r"^faces\[1\]\[2\] = -1 is out of range \[0, 4\)"),
    ],
)
def test_model_bad_arrays(v, f, msg):
    with pytest.raises(ValueError, match=msg):
        collide.Model(v, f)


def test_model_longdouble():
    if np.finfo(np.longdouble).nmant <= 52:
        pytest.skip("long double is float64 here")
    v = V.astype(np.longdouble)
    collide.Model(v, F)  # exact
    v[2, 1] = np.longdouble(1) / 3
    with pytest.raises(ValueError, match=r"^vertices\[2\]\[1\] = .* is not exactly a float64"):
        collide.Model(v, F)


def test_model_empty_and_bad_bv():
    with pytest.raises(ValueError):
        collide.Model(np.zeros((0, 3)), np.zeros((0, 3), np.int64))
    with pytest.raises(ValueError, match="nope"):
        collide.Model(V, F, bv="nope")


def test_save_load(tmp_path):
    m = collide.Model(V, F, bv="obb")
    path = tmp_path / "tet.collide"
    m.save(path)
    m2 = collide.load(path)
    assert m2.bv == "obb"
    np.testing.assert_array_equal(m2.vertices, V)
    np.testing.assert_array_equal(m2.faces, F)
    with pytest.raises(ValueError):
        collide.load(str(path), bv="kdop18")  # a saved model keeps its volume
    g = collide.load("gen:icosphere:tris=80", bv="aabb")
    assert (g.num_triangles, g.bv) == (80, "aabb")


def test_load_errors_are_the_clis(cli, tmp_path):
    """A missing file is FileNotFoundError, a malformed OBJ ValueError, with
    the message `collide info FILE` prints after its prefix."""
    bad = tmp_path / "bad.obj"
    bad.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 x\n")
    missing = tmp_path / "missing.obj"
    folder = tmp_path / "folder.obj"
    folder.mkdir()
    for path, exc in [(bad, ValueError), (missing, FileNotFoundError), ("gen:nope", ValueError), (folder, OSError)]:
        p = run(cli, "info", path, ok=False)
        assert p.returncode != 0
        want = p.stderr.splitlines()[0]
        assert want.startswith("collide info: ")
        want = want[len("collide info: ") :]
        with pytest.raises(exc) as e:
            collide.load(path)
        assert type(e.value) is exc and str(e.value) == want
        assert "gen:nope" in want or str(path) in want
    with pytest.raises(FileNotFoundError) as e:
        collide.Model(V, F).save(tmp_path / "no" / "such" / "dir" / "m.collide")
    assert "m.collide" in str(e.value)
    with pytest.raises(OSError) as e:
        collide.Model(V, F).save(folder)  # EIO: not a file
    assert type(e.value) is OSError and str(folder) in str(e.value)


@pytest.fixture(scope="module")
def pair():
    return collide.Model(V, F), collide.Model(V, F)


@pytest.mark.parametrize(
    "poses, msg",
    [
        (np.eye(3), r"^poses: shape \(3, 3\), want \(4, 4\) or \(N, 4, 4\)$"),
        (np.zeros((2, 3, 4)), r"^poses: shape \(2, 3, 4\), want \(4, 4\) or \(N, 4, 4\)$"),
        (np.eye(4).astype(complex), r"^poses: dtype complex128 is not a real number type"),
        (np.stack([np.eye(4), np.diag([2.0, 1, 1, 1])]), r"^poses\[1\]: .*orthonormal"),
        (np.stack([np.eye(4), np.eye(4), np.eye(4) + np.outer([0, 0, 0, 1], [0, 0, 1, 0])]), r"^poses\[2\]: the last row is 0 0 1 1, not 0 0 0 1$"),
        (np.array([np.eye(4), [[1, 0, 0, np.nan], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]]), r"^poses\[1\]\[0\]\[3\] is NaN$"),
    ],
)
def test_bad_poses(pair, poses, msg):
    env, fly = pair
    with pytest.raises(ValueError, match=msg):
        collide.check(env, fly, poses)
    if "shape" not in msg and "dtype" not in msg:
        with pytest.raises(ValueError, match=msg):
            collide.distance(env, fly, poses)


def test_bad_arguments(pair):
    env, fly = pair
    with pytest.raises(ValueError, match=r"^env_pose: shape \(3, 3\), want \(4, 4\)$"):
        collide.check(env, fly, np.eye(4), env_pose=np.eye(3))
    with pytest.raises(ValueError, match=r"^workers: -1 is not in"):
        collide.check(env, fly, np.eye(4), workers=-1)
    with pytest.raises(ValueError):
        collide.check(env, fly, np.eye(4), eps=-1.0)
    with pytest.raises(ValueError):
        collide.check(env, fly, np.eye(4), eps=float("nan"))
    with pytest.raises(TypeError, match="fly: 'ndarray' is not a collide.Model"):
        collide.check(env, V, np.eye(4))
    with pytest.raises(ValueError, match=r"^pose0 and pose1: shapes"):
        collide.time_of_impact(env, fly, np.eye(4), np.tile(np.eye(4), (2, 1, 1)))


def test_single_pose_is_a_batch_of_one(pair):
    env, fly = pair
    hits = collide.check(env, fly, np.eye(4))
    assert hits.shape == (1,) and hits.dtype == np.bool_ and hits[0]
    hits, pairs = collide.check(env, fly, np.eye(4), all_pairs=True)
    assert pairs.shape[1] == 3 and (pairs[:, 0] == 0).all() and len(pairs) >= 4
    d, w = collide.distance(env, fly, pose(np.eye(3), [3.0, 0, 0]))
    assert d.shape == (1,) and w.shape == (1, 2, 3) and d[0] == 2.0
    far = collide.distance(env, fly, pose(np.eye(3), [3.0, 0, 0]), max_distance=1.0, details=True)
    assert far.distances[0] == np.inf and np.isnan(far.witnesses).all() and (far.triangles == -1).all()
    r = collide.time_of_impact(env, fly, pose(np.eye(3), [3.0, 0, 0]), pose(np.eye(3), [-3.0, 0, 0]))
    assert r.hit and r.toi[0] <= 1 / 3 <= r.toi[1] and not r.maybe
    r = collide.time_of_impact(env, fly, pose(np.eye(3), [3.0, 0, 0]), pose(np.eye(3), [3.0, 5, 0]))
    assert r == collide.Impact(False, (1.0, 1.0), (-1, -1), False)
    assert collide.check(env, fly, np.zeros((0, 4, 4))).shape == (0,)


def test_env_pose(pair):
    """Moving both models by the same pose changes nothing."""
    env, fly = pair
    rng = np.random.default_rng(3)
    from conftest import poses_near, rotation

    poses = poses_near(rng, [np.zeros(3)], 50, 1.0)
    g = pose(np.eye(3), [10.0, -4, 2])
    moved = np.einsum("ij,njk->nik", g, poses)
    want = collide.check(env, fly, poses)
    assert want.any() and not want.all()
    np.testing.assert_array_equal(collide.check(env, fly, moved, env_pose=g), want)


def test_handles():
    m = collide.Model(V, F)
    with collide.Model(V, F) as m2:
        collide.check(m, m2, np.eye(4))
    assert repr(m2) == "<collide.Model closed>"
    with pytest.raises(ValueError, match="closed"):
        collide.check(m, m2, np.eye(4))
    m2.close()  # twice is fine
    with pytest.raises(ValueError, match="closed"):
        m2.save("x.collide")
    # Many models made and dropped: each released by the finaliser.
    for _ in range(200):
        collide.Model(V, F)
    gc.collect()
    assert collide.library_version()


def test_batch_releases_the_gil():
    """Another Python thread runs while a batch of 10^5 poses runs in Go.

    The switch interval is set far beyond the test's length, so the
    interpreter never takes the GIL from a running thread: the helper thread
    can run only when the main thread releases the GIL itself. The main
    thread sets phase = 1, calls check, sets phase = 2, with nothing that
    blocks in between but the call (its arrays are float64 and contiguous:
    no copy). The helper, woken by an event set just before the call, reads
    phase as soon as it holds the GIL: it reads 1 only if it ran while the
    main thread was inside the call, which released the GIL. Without the
    release it can only ever read 2, whatever the machine's load; with it,
    a read of 2 means only that the helper's thread was scheduled late, and
    the round is tried again (up to 50 times: each round is a 10^5-pose
    call of many milliseconds, so one succeeds).
    """
    env = collide.load("gen:torus:tris=800")
    fly = collide.load("gen:icosphere:radius=0.4,tris=320")
    n = 100_000
    poses = np.tile(np.eye(4), (n, 1, 1))
    a = np.linspace(0, 2 * np.pi, n)
    poses[:, 0, 3] = 2.5 * np.cos(a)
    poses[:, 1, 3] = 2.5 * np.sin(a)  # around the tube's outside: every pose touches
    state = {"phase": 0, "seen": [], "stop": False}
    go, ready = threading.Event(), threading.Event()

    def helper():
        while True:
            ready.set()
            go.wait()
            go.clear()
            if state["stop"]:
                return
            state["seen"].append(state["phase"])

    old = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    t = threading.Thread(target=helper)
    try:
        t.start()
        for _ in range(50):
            ready.wait()
            ready.clear()
            state["phase"] = 1
            go.set()
            hits = collide.check(env, fly, poses)
            state["phase"] = 2
            if 1 in state["seen"]:
                break
        assert hits.all()
    finally:
        state["stop"] = True
        ready.wait(60)
        go.set()
        t.join(60)
        sys.setswitchinterval(old)
    assert 1 in state["seen"], "the helper thread never ran while check ran: %s" % state["seen"]


def test_load_gltf(tmp_path):
    """A glTF file with nested node transforms and an embedded base64
    buffer: every mesh of the default scene, placed; or one named mesh."""
    import base64
    import json
    import struct

    data = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0) + struct.pack("<3H", 0, 1, 2) + b"\0\0"
    doc = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"translation": [10, 0, 0], "children": [1, 2]}, {"mesh": 0}, {"mesh": 1, "translation": [0, 5, 0]}],
        "meshes": [
            {"name": "a", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]},
            {"name": "b", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]},
        ],
        "buffers": [{"byteLength": len(data), "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 6}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
            {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"},
        ],
    }
    path = tmp_path / "two.gltf"
    path.write_text(json.dumps(doc))
    m = collide.load(path)
    assert m.num_triangles == 2
    want = [[10, 0, 0], [11, 0, 0], [10, 1, 0], [10, 5, 0], [11, 5, 0], [10, 6, 0]]
    tri = m.vertices[m.faces].reshape(-1, 3)
    assert sorted(map(list, tri.tolist())) == sorted(want)
    b = collide.load(path, mesh="b")
    assert b.num_triangles == 1
    np.testing.assert_array_equal(collide.load(str(path) + "#b").vertices, b.vertices)
    with pytest.raises(ValueError, match="nope"):
        collide.load(path, mesh="nope")
