"""collide.contacts: each pair's contact geometry, against check's pairs,
the geometry of the triangles, and `collide check --contacts --json`."""

import numpy as np
import pytest

import collide
from conftest import pose, poses_near, rotation, run_json, write_poses

ENV = "gen:torus:tris=800"
FLY = "gen:icosphere:radius=0.4,tris=320"


def scene(seed, n=40):
    """Poses of FLY around the torus's tube: some touch it, some do not."""
    rng = np.random.default_rng(seed)
    angles = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    centers = np.stack([2 * np.cos(angles), 2 * np.sin(angles), np.zeros(16)], axis=1)
    return poses_near(rng, centers, n, 0.9)


def placed(m, tri, p):
    """The vertices (3, 3) of triangle tri of model m, placed by pose p (None: identity)."""
    v = m.vertices[m.faces[tri]]
    if p is None:
        return v
    return v @ p[:3, :3].T + p[:3, 3]


def point_triangle_distance(x, t):
    """The distance from point x to triangle t (3, 3) (Ericson's closest point)."""
    a, b, c = t
    ab, ac, ap = b - a, c - a, x - a
    d1, d2 = ab @ ap, ac @ ap
    if d1 <= 0 and d2 <= 0:
        return np.linalg.norm(x - a)
    bp = x - b
    d3, d4 = ab @ bp, ac @ bp
    if d3 >= 0 and d4 <= d3:
        return np.linalg.norm(x - b)
    vc = d1 * d4 - d3 * d2
    if vc <= 0 and d1 >= 0 and d3 <= 0:
        return np.linalg.norm(x - (a + d1 / (d1 - d3) * ab))
    cp = x - c
    d5, d6 = ab @ cp, ac @ cp
    if d6 >= 0 and d5 <= d6:
        return np.linalg.norm(x - c)
    vb = d5 * d2 - d1 * d6
    if vb <= 0 and d2 >= 0 and d6 <= 0:
        return np.linalg.norm(x - (a + d2 / (d2 - d6) * ac))
    va = d3 * d6 - d5 * d4
    if va <= 0 and d4 - d3 >= 0 and d5 - d6 >= 0:
        return np.linalg.norm(x - (b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b)))
    s = 1.0 / (va + vb + vc)
    return np.linalg.norm(x - (a + ab * vb * s + ac * vc * s))


def check_geometry(env, fly, poses, c, env_pose=None, eps=0.0):
    """Every point of c lies within its bound (and NumPy's rounding) of both
    triangles (an APART pair's first point on env's, its second on fly's, at
    most eps apart); normals are unit; padding is NaN."""
    assert c.points.shape == (len(c.pose), 6, 3) and c.normals.shape == (len(c.pose), 3)
    for i in range(len(c.pose)):
        k = int(c.num_points[i])
        assert 1 <= k <= 6
        assert np.isnan(c.points[i, k:]).all() and np.isfinite(c.points[i, :k]).all()
        assert abs(np.linalg.norm(c.normals[i]) - 1) < 1e-12, c.normals[i]
        te = placed(env, c.triangles[i, 0], env_pose)
        tf = placed(fly, c.triangles[i, 1], poses[c.pose[i]])
        slack = c.bounds[i] + 1e-12
        if c.kind[i] == collide.APART:
            assert eps > 0 and k == 2
            assert point_triangle_distance(c.points[i, 0], te) <= slack
            assert point_triangle_distance(c.points[i, 1], tf) <= slack
            assert np.linalg.norm(c.points[i, 1] - c.points[i, 0]) <= eps + 2 * slack
            continue
        assert c.kind[i] in (collide.TOUCH, collide.CROSS)
        for x in c.points[i, :k]:
            assert point_triangle_distance(x, te) <= slack, (i, x)
            assert point_triangle_distance(x, tf) <= slack, (i, x)


@pytest.mark.parametrize("eps", [0.0, 0.05])
def test_contacts_are_checks_pairs(eps):
    env, fly = collide.load(ENV), collide.load(FLY)
    poses = scene(5)
    env_pose = pose(rotation(np.random.default_rng(9)), [0.5, -1, 2])
    for ep in (None, env_pose):
        ps = poses if ep is None else ep @ poses  # the same scene, moved
        for all_pairs in (True, False):
            hits, pairs = collide.check(env, fly, ps, all_pairs=all_pairs, eps=eps, env_pose=ep, pairs=True)
            assert 0 < hits.sum() < len(hits)
            first = None
            for workers in (0, 1):
                c = collide.contacts(env, fly, ps, all_pairs=all_pairs, eps=eps, env_pose=ep, workers=workers)
                if first is not None:  # the same answer on any number of workers
                    for got, want in zip(c, first):
                        np.testing.assert_array_equal(got, want)
                first = c
                assert isinstance(c, collide.Contacts)
                assert c.kind.dtype == np.int8 and c.pose.dtype == np.int64 and c.triangles.shape == (len(pairs), 2)
                np.testing.assert_array_equal(np.column_stack([c.pose, c.triangles]), pairs)
            check_geometry(env, fly, ps, c, ep, eps)
            kinds = set(c.kind.tolist())
            if all_pairs:
                assert collide.CROSS in kinds and (collide.APART in kinds) == (eps > 0), kinds
            elif eps == 0:
                assert collide.APART not in kinds


def test_cube_resting_on_cube():
    box = collide.load("gen:box")  # [-1, 1]^3
    p = pose(np.eye(3), [0.5, 0.25, 2.0])  # on top, shifted
    c = collide.contacts(box, box, p)
    assert len(c.pose) > 0 and (c.pose == 0).all()
    assert (c.kind == collide.TOUCH).all()
    check_geometry(box, box, p[None], c)
    # The pairs of the top face (env's) and the bottom face (fly's): a
    # coplanar overlap, with the normal +z (from env towards fly).
    n_env = np.cross(*(np.diff(box.vertices[box.faces], axis=1).transpose(1, 0, 2)))
    faces = [i for i in range(len(c.pose)) if n_env[c.triangles[i, 0], 2] > 0 and n_env[c.triangles[i, 1], 2] < 0]
    assert faces
    for i in faces:
        np.testing.assert_array_equal(c.normals[i], [0, 0, 1])
        assert (c.points[i, : c.num_points[i], 2] == 1).all()
    assert max(c.num_points[i] for i in faces) >= 3
    assert (np.abs(c.normals[:, 2]) == 1).any()


def test_tetrahedron_through_tetrahedron():
    v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], float)
    f = np.array([[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])
    a = collide.Model(v, f)
    p = pose(rotation(np.random.default_rng(3)), [0.2, 0.15, 0.1])
    c = collide.contacts(a, a, p)
    assert len(c.pose) > 0
    assert collide.CROSS in c.kind.tolist() and collide.APART not in c.kind.tolist()
    check_geometry(a, a, p[None], c)
    cross = c.kind == collide.CROSS
    assert (c.num_points[cross] == 2).all()  # two triangles crossing share a segment
    # Far apart: no rows, the arrays of shape (0, ...).
    c = collide.contacts(a, a, pose(np.eye(3), [5, 0, 0]))
    assert c.points.shape == (0, 6, 3) and c.triangles.shape == (0, 2) and c.kind.shape == (0,)


def test_contacts_errors():
    box = collide.load("gen:box")
    ps = np.tile(np.eye(4), (3, 1, 1))
    ps[1, 0, 0] = 2
    with pytest.raises(ValueError, match=r"poses\[1\]: pose rotation is not orthonormal"):
        collide.contacts(box, box, ps)
    with pytest.raises(ValueError, match="--eps"):
        collide.contacts(box, box, np.eye(4), eps=-1)
    with pytest.raises(TypeError):
        collide.contacts(box, "gen:box", np.eye(4))


@pytest.mark.parametrize("eps", [0.0, 0.05])
def test_contacts_match_cli(cli, tmp_path, eps):
    env, fly = collide.load(ENV), collide.load(FLY)
    poses = scene(7)
    i = int(np.flatnonzero(collide.check(env, fly, poses))[0])
    pf = write_poses(tmp_path / "one.txt", poses[i : i + 1])
    (line,) = run_json(cli, "check", "--contacts", "--all", "--bv", "kdop18", "--eps", repr(eps), "--poses", pf, ENV, FLY)
    want = line["contacts"]
    c = collide.contacts(env, fly, poses[i], eps=eps)
    assert len(want) == len(c.pose) > 0
    names = {"apart": collide.APART, "touch": collide.TOUCH, "cross": collide.CROSS}
    for j, w in enumerate(want):
        assert c.pose[j] == 0
        assert list(c.triangles[j]) == w["pair"]
        assert c.kind[j] == names[w["kind"]]
        assert c.num_points[j] == len(w["points"])
        # Printed with the fewest digits that read back as the same float64.
        np.testing.assert_array_equal(c.points[j, : c.num_points[j]], np.array(w["points"], float))
        np.testing.assert_array_equal(c.normals[j], w["normal"])
        assert c.bounds[j] == w["bound"]
