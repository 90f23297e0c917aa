"""Batches run in chunks, so that Ctrl-C interrupts them: the answers and
the errors are the whole batch's."""

import _thread

import numpy as np
import pytest

import collide


@pytest.fixture
def models():
    return collide.load("gen:torus"), collide.load("gen:icosphere:radius=0.4")


def ring(n, radius=2.5, seed=3):
    """n poses around the torus' tube (about half of them touch)."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(0, 2 * np.pi, n)
    p = np.tile(np.eye(4), (n, 1, 1))
    r = radius + rng.uniform(-0.6, 0.6, n)
    p[:, 0, 3], p[:, 1, 3], p[:, 2, 3] = r * np.cos(a), r * np.sin(a), rng.uniform(-0.5, 0.5, n)
    return p


def test_chunks_of_one_pose_answer_as_the_whole(models, monkeypatch):
    env, fly = models
    poses = ring(300)
    whole = [
        collide.check(env, fly, poses, all_pairs=True),
        collide.check(env, fly, poses, pairs=True),
        collide.distance(env, fly, poses[:40], details=True),
        collide.time_of_impact(env, fly, poses[:40], poses[40:80]),
        collide.contacts(env, fly, poses[:40]),
    ]
    assert 0 < whole[0][0].sum() < 300
    assert len(whole[4].pose) > 0
    monkeypatch.setattr(collide, "CHUNK_SECONDS", 1e-12)  # every chunk one pose
    calls = []
    real = collide.call
    monkeypatch.setattr(collide, "call", lambda fn, *a: (calls.append(fn), real(fn, *a)))
    chunked = [
        collide.check(env, fly, poses, all_pairs=True),
        collide.check(env, fly, poses, pairs=True),
        collide.distance(env, fly, poses[:40], details=True),
        collide.time_of_impact(env, fly, poses[:40], poses[40:80]),
        collide.contacts(env, fly, poses[:40]),
    ]
    # 16 poses, then one a chunk: 1 + 284 calls for 300 poses, 1 + 24 for 40.
    assert len(calls) == 2 * (1 + 284) + 3 * (1 + 24)
    for w, c in zip(whole, chunked):
        for a, b in zip(w, c):
            np.testing.assert_array_equal(a, b)


def test_a_later_chunks_bad_pose_is_named_by_its_index_in_the_batch(models, monkeypatch):
    env, fly = models
    monkeypatch.setattr(collide, "CHUNK_SECONDS", 1e-12)
    poses = ring(100)
    poses[57, 0, 0] = 2.0
    with pytest.raises(ValueError, match=r"^poses\[57\]: .*orthonormal"):
        collide.check(env, fly, poses)
    with pytest.raises(ValueError, match=r"^poses\[57\]: .*orthonormal"):
        collide.distance(env, fly, poses)
    with pytest.raises(ValueError, match=r"^poses\[57\]: .*orthonormal"):
        collide.contacts(env, fly, poses)
    with pytest.raises(ValueError, match=r"^to\[57\]: .*orthonormal"):
        collide.time_of_impact(env, fly, ring(100), poses)


def test_ctrl_c_stops_a_batch_between_chunks(models, monkeypatch):
    """interrupt_main, as Ctrl-C does, once the first chunk is done: the
    batch raises KeyboardInterrupt before it has tested its 1,000 poses."""
    env, fly = models
    monkeypatch.setattr(collide, "CHUNK_SECONDS", 1e-12)
    calls = []
    real = collide.call

    def call(fn, *a):
        real(fn, *a)
        calls.append(a[4])  # collide_check's n: the poses of the chunk
        if len(calls) == 1:
            _thread.interrupt_main()

    monkeypatch.setattr(collide, "call", call)
    with pytest.raises(KeyboardInterrupt):
        collide.check(env, fly, ring(1000))
    assert sum(calls) < 100  # of the 1,000 poses
