#!/usr/bin/env python3
"""Per-pose cost of a batch call from Python, against a loop of single calls.

Prints, for collide.check of a torus (2,000 triangles) and a sphere (1,280)
at N poses far apart (each query about one test of the two root volumes, so
that what is measured is the cost of a pose beyond its query):

  python batch    ns/pose of one call with N poses (workers=1, then every core);
                  far/sphere: sphere trees, whose far query is one sphere test,
                  so that the figure bounds the batch's own cost a pose
  python loop     ns/pose of N calls with one pose each
  fixed           µs of one call with one pose (argument checks, ctypes, Go's entry)

and the same batch at poses that touch (first contact), for scale. Each
figure is the least of --repeat runs (the machine is shared: the least is
the least disturbed). Usage: python3 python/bench/bench_batch.py [-n N]

The Go side of the same batch, without Python: go run ./python/bench/gobatch
(-bv sphere for the far/sphere line); the difference of the two is the cost
of the Python path a pose.
"""

import argparse
import time

import numpy as np

import collide


def best(fn, repeat):
    t = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        t = min(t, time.perf_counter() - t0)
    return t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=100_000, help="poses in the batch")
    ap.add_argument("--loop", type=int, default=20_000, help="single calls in the loop")
    ap.add_argument("--repeat", type=int, default=7, help="runs of each measure (the least is printed)")
    a = ap.parse_args()
    n = a.n
    env = collide.load("gen:torus")
    fly = collide.load("gen:icosphere:radius=0.4")
    rng = np.random.default_rng(1)
    far = np.tile(np.eye(4), (n, 1, 1))
    far[:, :3, 3] = rng.uniform(-1, 1, (n, 3)) + [100.0, 0, 0]
    ang = rng.uniform(0, 2 * np.pi, n)
    touch = np.tile(np.eye(4), (n, 1, 1))
    touch[:, 0, 3], touch[:, 1, 3] = 2.5 * np.cos(ang), 2.5 * np.sin(ang)  # across the tube's outside
    print("collide %s, library %s; env %r, fly %r; %d poses" % (collide.__version__, collide.library_version(), env, fly, n))
    assert not collide.check(env, fly, far).any() and collide.check(env, fly, touch).all()

    for name, poses in (("far", far), ("touching", touch)):
        for workers in (1, 0):
            t = best(lambda: collide.check(env, fly, poses, workers=workers), a.repeat)
            print("python batch    %-9s workers=%d  %8.1f ns/pose" % (name, workers, t / n * 1e9))
    # Sphere trees far apart: the query is one test of two spheres (some
    # ns), so that the time a pose is nearly all the batch's own cost: the
    # pose's conversion and checks, the answer's, the workers' bookkeeping.
    senv = collide.load("gen:torus", bv="sphere")
    sfly = collide.load("gen:icosphere:radius=0.4", bv="sphere")
    for workers in (1, 0):
        t = best(lambda: collide.check(senv, sfly, far, workers=workers), a.repeat)
        print("python batch    far/sphere workers=%d  %7.1f ns/pose (the batch's own cost, at most)" % (workers, t / n * 1e9))
    m = min(a.loop, n)
    singles = [far[i] for i in range(m)]

    def loop():
        for p in singles:
            collide.check(env, fly, p, workers=1)

    t = best(loop, max(1, a.repeat // 2))
    print("python loop     far        workers=1  %8.1f ns/pose (%d calls)" % (t / m * 1e9, m))
    one = far[:1]
    t = best(lambda: collide.check(env, fly, one, workers=1), 200)
    print("fixed           far        workers=1  %8.2f µs a call of one pose" % (t * 1e6))


if __name__ == "__main__":
    main()
