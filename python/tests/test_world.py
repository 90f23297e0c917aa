"""collide.World: add, move, step, remove; contacts against pairwise checks."""

import threading

import numpy as np
import pytest

import collide
from conftest import pose, poses_near


@pytest.fixture(scope="module")
def models():
    # Different sizes, so that which object is a pair's environment (the
    # one with more triangles) is known.
    return [
        collide.load("gen:icosphere:tris=320"),
        collide.load("gen:torus:tris=500"),
        collide.load("gen:box:n=3"),
    ]


def pairwise(objs, all_pairs, eps):
    """The contacts of objs {id: (model, pose, static)} found pair by pair
    with check, as World.step gives them: each pair tested in the frame of
    the object with more triangles (the lower id on a tie), as the world
    does, rows (a, b, triangle of a, triangle of b), sorted."""
    rows = []
    ids = sorted(objs)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            (ma, pa, sa), (mb, pb, sb) = objs[a], objs[b]
            if sa and sb:
                continue
            if mb.num_triangles > ma.num_triangles:
                hit, pairs = collide.check(mb, ma, pa, env_pose=pb, all_pairs=True, eps=eps)
                pairs = pairs[:, [0, 2, 1]]
            else:
                hit, pairs = collide.check(ma, mb, pb, env_pose=pa, all_pairs=True, eps=eps)
            for _, ta, tb in pairs:
                rows.append((a, b, ta, tb))
    return np.array(sorted(rows), dtype=np.int64).reshape(-1, 4)


def object_pairs(rows):
    return sorted({(int(r[0]), int(r[1])) for r in rows})


@pytest.mark.parametrize("all_pairs", [True, False])
@pytest.mark.parametrize("eps", [0.0, 0.05])
@pytest.mark.parametrize("broad", [None, "sap", "brute"])
def test_world_steps(models, all_pairs, eps, broad):
    rng = np.random.default_rng(12)
    objs = {}
    prev = set()
    with collide.World(all_pairs=all_pairs, eps=eps, broad=broad, workers=2) as w:
        for step in range(10):
            if step < 2 or len(objs) < 3:
                for _ in range(3):
                    m = models[rng.integers(len(models))]
                    p = poses_near(rng, [np.zeros(3)], 1, 2.5)[0]
                    static = rng.integers(4) == 0
                    objs[w.add(m, p, static=static)] = (m, p, static)
            elif step % 4 == 3:
                gone = sorted(objs)[rng.integers(len(objs))]
                w.remove(gone)
                del objs[gone]
            else:
                ids = [i for i in sorted(objs) if rng.integers(2)]
                ps = poses_near(rng, [np.zeros(3)], len(ids), 2.5)
                w.move(ids, ps)
                for i, p in zip(ids, ps):
                    objs[i] = (objs[i][0], p, objs[i][2])
            st = w.step()
            assert st.contacts.dtype == np.int64 and st.contacts.shape[1] == 4
            want = pairwise(objs, all_pairs, eps)
            if all_pairs:
                np.testing.assert_array_equal(st.contacts, want, err_msg="step %d" % step)
            else:
                # One triangle pair per pair of objects, one in contact.
                assert object_pairs(st.contacts) == object_pairs(want)
                assert len(st.contacts) == len(object_pairs(want))
                assert {tuple(r) for r in st.contacts} <= {tuple(r) for r in want}
            now = set(object_pairs(want))
            assert [tuple(r) for r in st.began] == sorted(now - prev)
            assert [tuple(r) for r in st.ended] == sorted(prev - now)
            prev = now
        assert prev, "the scene never touched"


def test_world_move_one_and_errors(models):
    w = collide.World()
    a = w.add(models[0])
    b = w.add(models[2], pose(np.eye(3), [10.0, 0, 0]))
    st = w.step()
    assert st.contacts.shape == (0, 4) and st.began.shape == (0, 2)
    w.move(b, pose(np.eye(3), [1.5, 0, 0]))  # one id, one pose
    st = w.step()
    assert [tuple(r) for r in st.began] == [(a, b)]
    assert object_pairs(st.contacts) == [(a, b)]
    with pytest.raises(ValueError, match=r"ids\[1\]: no object 7 in the world"):
        w.move([a, 7], np.tile(np.eye(4), (2, 1, 1)))
    with pytest.raises(ValueError, match=r"^move: 2 ids for 1 poses$"):
        w.move([a, b], np.eye(4))
    with pytest.raises(ValueError, match=r"poses\[0\]: .*orthonormal"):
        w.move([a], np.diag([2.0, 1, 1, 1]))
    with pytest.raises(ValueError, match="no object 9"):
        w.remove(9)
    with pytest.raises(ValueError, match=r"^group: 1024 is not in \[0, 1024\)$"):
        w.add(models[0], group=1024)
    w.remove(b)
    st = w.step()
    assert [tuple(r) for r in st.ended] == [(a, b)] and len(st.contacts) == 0
    w.close()
    with pytest.raises(ValueError, match="closed"):
        w.step()
    with pytest.raises(ValueError, match="unknown broad phase"):
        collide.World(broad="nope")
    with pytest.raises(ValueError):
        collide.World(eps=-1)


def test_world_shared_between_threads(models):
    """Calls on one world from several threads are serialised: each
    thread moves its own object; the last step sees every move."""
    w = collide.World(all_pairs=True)
    ids = [w.add(models[0], pose(np.eye(3), [3.0 * i, 0, 0])) for i in range(4)]
    w.step()

    def mover(i):
        for k in range(50):
            w.move(ids[i], pose(np.eye(3), [3.0 * i + 0.01 * k, 0, 0]))
            if k % 10 == 0:
                w.step()

    ts = [threading.Thread(target=mover, args=(i,)) for i in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    w.step()
    w.move(ids[1], pose(np.eye(3), [1.0, 0, 0]))
    st = w.step()
    objs = {i: (models[0], pose(np.eye(3), [3.0 * j + 0.01 * 49, 0, 0]), False) for j, i in enumerate(ids)}
    objs[ids[1]] = (models[0], pose(np.eye(3), [1.0, 0, 0]), False)
    np.testing.assert_array_equal(st.contacts, pairwise(objs, True, 0.0))
