"""The package's answers against the command line's on the same models and
poses: pairs identical, for every bounding volume."""

import os
import re
import tarfile

import numpy as np
import pytest

import collide
from conftest import pose, poses_near, rotation, run, run_json, write_poses

ENV = "gen:torus:tris=800"
FLIES = ["gen:icosphere:radius=0.4,tris=320", "gen:box:minx=-0.3,miny=-0.3,minz=-0.3,maxx=0.3,maxy=0.3,maxz=0.3,n=2"]


def test_bvs_are_the_clis(cli):
    """collide.BVs lists the volumes of `collide check --help`, in order."""
    p = run(cli, "check", "--help", ok=False)
    m = re.search(r"Bounding volumes \(--bv\): ([^.]*)\.", p.stdout + p.stderr)
    assert m, "no list of bounding volumes in collide check --help"
    assert tuple(s.strip() for s in m.group(1).split(",")) == collide.BVs


def test_broad_phases_are_the_clis(cli):
    p = run(cli, "world", "--help", ok=False)
    m = re.search(r"Broad phases \(--broad\): ([^.]*)\.", p.stdout + p.stderr)
    assert m, "no list of broad phases in collide world --help"
    assert tuple(s.strip() for s in m.group(1).split(",")) == collide.BROAD_PHASES


def scene_poses(seed):
    """Poses of a fly near the torus's tube (some touching it, some not),
    then axis-aligned ones (the identity and a permutation of the axes) at
    translations grazing the tube from above, below and outside, at its
    centre and inside the hole."""
    rng = np.random.default_rng(seed)
    angles = rng.uniform(0, 2 * np.pi, 16)
    centers = np.stack([2 * np.cos(angles), 2 * np.sin(angles), np.zeros(16)], axis=1)
    ps = list(poses_near(rng, centers, 24, 0.9))
    perm = np.array([[0.0, 1, 0], [0, 0, 1], [1, 0, 0]])
    for t in ([2.0, 0, 0.8], [2.0, 0, -0.8], [0, 2.0, 0.8], [2.8, 0, 0], [0, 0, 0], [1.2, 0, 0]):
        ps.append(pose(np.eye(3), t))
        ps.append(pose(perm, t))
    return np.array(ps)


def cli_pairs(lines):
    """(hits, pairs) of check's JSON lines, pairs as (pose, env, fly) rows."""
    hits = np.array([ln["collide"] for ln in lines], dtype=bool)
    rows = [(ln["pose"], e, f) for ln in lines for e, f in ln["pairs"]]
    return hits, np.array(rows, dtype=np.int64).reshape(-1, 3)


def first_pairs_alone(cli, tmp_path, args, poses, got, want):
    """want, the first pairs of `collide check` over all the poses, with
    those of the poses where got differs replaced by the CLI's answer for
    that pose alone.

    One CLI run over many poses reuses one query, which tests the last
    first contact first: where that pair still touches, it is the pair
    printed, so a pose's first pair depends on the poses before it. A batch
    answers each pose as a fresh query (whatever the order and the workers),
    which is the CLI's answer for that pose alone: compared so where they
    differ.
    """
    rows = {int(r[0]): r for r in want}
    for r in got:
        i = int(r[0])
        if i in rows and list(rows[i]) == list(r):
            continue
        pf = write_poses(tmp_path / "one.txt", poses[i : i + 1])
        k = args.index("--poses")
        (line,) = run_json(cli, *(args[: k + 1] + [pf] + args[k + 2 :]))
        rows[i] = np.array([i] + line["pairs"][0], dtype=np.int64) if line["pairs"] else None
    return np.array([rows[i] for i in sorted(rows) if rows[i] is not None], dtype=np.int64).reshape(-1, 3)


def compare_check(cli, tmp_path, env_arg, fly_arg, env, fly, poses, bv, eps):
    pf = write_poses(tmp_path / "poses.txt", poses)
    for all_pairs in (True, False):
        args = ["check", "--bv", bv, "--poses", pf, "--eps", repr(eps)] + (["--all"] if all_pairs else []) + [env_arg, fly_arg]
        want_hits, want_pairs = cli_pairs(run_json(cli, *args))
        hits, pairs = collide.check(env, fly, poses, all_pairs=all_pairs, eps=eps, pairs=True)
        assert hits.dtype == np.bool_ and hits.shape == (len(poses),)
        assert pairs.dtype == np.int64 and pairs.shape[1] == 3
        where = "bv %s eps %r all %s" % (bv, eps, all_pairs)
        np.testing.assert_array_equal(hits, want_hits, err_msg=where)
        if not all_pairs:
            want_pairs = first_pairs_alone(cli, tmp_path, args, poses, pairs, want_pairs)
        np.testing.assert_array_equal(pairs, want_pairs, err_msg=where)
        if all_pairs:
            # The default form: hits alone, and all_pairs's tuple.
            np.testing.assert_array_equal(collide.check(env, fly, poses, eps=eps), want_hits, err_msg=where)
            h2, p2 = collide.check(env, fly, poses, all_pairs=True, eps=eps, workers=1)
            np.testing.assert_array_equal(p2, want_pairs, err_msg=where + " workers 1")
    return want_hits


@pytest.mark.parametrize("bv", collide.BVs)
def test_check_matches_cli(cli, tmp_path, bv):
    poses = scene_poses(33)
    env = collide.load(ENV, bv=bv)
    assert env.bv == bv
    for k, fly_arg in enumerate(FLIES):
        fly = collide.load(fly_arg, bv=bv)
        for eps in (0.0, 0.05):
            hits = compare_check(cli, tmp_path, ENV, fly_arg, env, fly, poses, bv, eps)
            # The scene is worth comparing: poses that touch, poses that do not.
            assert 0 < hits.sum() < len(hits), (fly_arg, eps, hits)


def test_check_touching_boxes_matches_cli(cli, tmp_path):
    """Boxes touching exactly at a face, an edge, a corner; apart by one ulp."""
    env_arg = fly_arg = "gen:box"
    env, fly = collide.load(env_arg), collide.load(fly_arg)
    ts = [[2.0, 0, 0], [2.0, 2.0, 0], [2.0, 2.0, 2.0], [2.0, 0.5, 0.25], [np.nextafter(2.0, 3), 0, 0], [0, 0, -2.0]]
    poses = np.array([pose(np.eye(3), t) for t in ts])
    hits = compare_check(cli, tmp_path, env_arg, fly_arg, env, fly, poses, "kdop18", 0.0)
    assert list(hits) == [True, True, True, True, False, True]


def cgal_meshes(tmp_path, names):
    """Paths of CGAL's meshes names: from $COLLIDE_CGAL_DATA (a folder, or a
    copy of the data.tar.gz of Debian's libcgal-demo) or from the package's
    archive; None when absent."""
    src = os.environ.get("COLLIDE_CGAL_DATA") or "/usr/share/doc/libcgal-dev/data.tar.gz"
    if os.path.isdir(src):
        out = []
        for n in names:
            for d in ("", "meshes", os.path.join("data", "meshes")):
                p = os.path.join(src, d, n)
                if os.path.isfile(p):
                    out.append(p)
                    break
            else:
                return None
        return out
    if not os.path.isfile(src):
        return None
    out = []
    with tarfile.open(src) as tf:
        for n in names:
            try:
                f = tf.extractfile("data/meshes/" + n)
            except KeyError:
                return None
            p = tmp_path / n
            p.write_bytes(f.read())
            out.append(str(p))
    return out


def test_check_cgal_meshes_match_cli(cli, tmp_path):
    paths = cgal_meshes(tmp_path, ["elephant.off", "mushroom.off"])
    if paths is None:
        pytest.skip("the meshes of Debian's libcgal-demo are not installed (apt-get install libcgal-demo, or set COLLIDE_CGAL_DATA)")
    env_arg, fly_arg = paths
    rng = np.random.default_rng(7)
    env0 = collide.load(env_arg)
    fly0 = collide.load(fly_arg)
    # The fly, scaled as it is, centred on points of the environment.
    centre = fly0.vertices.mean(axis=0)
    size = np.ptp(env0.vertices, axis=0).max()
    picks = env0.vertices[rng.integers(env0.num_vertices, size=8)]
    poses = np.empty((8, 4, 4))
    for i, c in enumerate(picks):
        r = rotation(rng)
        poses[i] = pose(r, c - r @ centre + rng.uniform(-0.05, 0.05, 3) * size)
    seen = np.zeros(len(poses), bool)
    for bv in collide.BVs:
        env, fly = collide.load(env_arg, bv=bv), collide.load(fly_arg, bv=bv)
        for eps in (0.0, 0.01 * size):
            seen |= compare_check(cli, tmp_path, env_arg, fly_arg, env, fly, poses, bv, eps)
    assert seen.any()


def test_distance_matches_cli(cli, tmp_path):
    env_arg, fly_arg = ENV, FLIES[0]
    poses = scene_poses(5)[:20]
    pf = write_poses(tmp_path / "poses.txt", poses)
    for bv in ("rss", "kdop18"):
        env, fly = collide.load(env_arg, bv=bv), collide.load(fly_arg, bv=bv)
        lines = run_json(cli, "distance", "--bv", bv, "--poses", pf, env_arg, fly_arg)
        d = collide.distance(env, fly, poses, details=True)
        dist, wit = collide.distance(env, fly, poses)
        np.testing.assert_array_equal(dist, d.distances)
        np.testing.assert_array_equal(wit, d.witnesses)
        assert d.witnesses.shape == (len(poses), 2, 3)
        for i, ln in enumerate(lines):
            assert ln["pose"] == i
            assert d.distances[i] == ln["distance"], (bv, i)
            assert d.bounds[i] == ln["bound"], (bv, i)
            assert list(d.triangles[i]) == [ln["env"], ln["fly"]], (bv, i)
            assert list(d.witnesses[i, 0]) == ln["p_env"] and list(d.witnesses[i, 1]) == ln["p_fly"], (bv, i)
        assert (d.distances == 0).any() and (d.distances > 0).any()


def test_time_of_impact_matches_cli(cli, tmp_path):
    """Motions from pose i to pose i+1, as check --ccd numbers them."""
    env_arg, fly_arg = ENV, FLIES[0]
    rng = np.random.default_rng(11)
    ps = []
    for k in range(6):
        a = rng.uniform(0, 2 * np.pi)
        ps.append(pose(np.eye(3), [2 * np.cos(a), 2 * np.sin(a), 1.5]))  # above the tube
        ps.append(pose(rotation(rng) if k % 2 else np.eye(3), [2 * np.cos(a), 2 * np.sin(a), -1.5]))  # through it
    ps = np.array(ps)
    pf = write_poses(tmp_path / "poses.txt", ps)
    env, fly = collide.load(env_arg, bv="aabb"), collide.load(fly_arg, bv="aabb")
    lines = run_json(cli, "check", "--ccd", "--bv", "aabb", "--poses", pf, env_arg, fly_arg)
    r = collide.time_of_impact(env, fly, ps[:-1], ps[1:])
    assert isinstance(r, collide.Impacts) and r.toi.shape == (len(ps) - 1, 2)
    for i, ln in enumerate(lines):
        assert ln["motion"] == i
        assert bool(r.hit[i]) == ln["hit"], i
        assert bool(r.maybe[i]) == ln.get("maybe", False), i
        if ln["hit"]:
            assert list(r.toi[i]) == ln["toi"] and list(r.triangles[i]) == ln["pair"], i
        one = collide.time_of_impact(env, fly, ps[i], ps[i + 1])
        assert isinstance(one, collide.Impact)
        assert one.hit == bool(r.hit[i]) and one.toi == tuple(r.toi[i]) and one.triangles == tuple(r.triangles[i])
    assert r.hit.any() and not r.hit.all()
