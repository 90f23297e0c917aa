"""Fixtures of the tests of the package collide: the command line to compare
with, and seeded poses.

The package under test is the installed one (pip install ./python), or the
sources with an in-place library (python3 python/setup.py build_go
--inplace; PYTHONPATH=python). The CLI is $COLLIDE_BIN, or built once per
session from this repository with `go build`.
"""

import json
import os
import shutil
import subprocess

import numpy as np
import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="session")
def cli(tmp_path_factory):
    """The path of the collide command line."""
    b = os.environ.get("COLLIDE_BIN")
    if b:
        return b
    go = os.environ.get("GO") or shutil.which("go")
    if not go:
        pytest.skip("no go command to build the CLI with, and COLLIDE_BIN not set")
    out = str(tmp_path_factory.mktemp("cli") / "collide")
    subprocess.run([go, "build", "-o", out, "./cmd/collide"], cwd=REPO, check=True)
    return out


def run(cli, *args, ok=True):
    """Runs the CLI; returns its CompletedProcess (exit status 0 unless not ok)."""
    p = subprocess.run([cli] + [str(a) for a in args], capture_output=True, text=True)
    if ok and p.returncode != 0:
        raise AssertionError("collide %s: exit %d: %s" % (" ".join(map(str, args)), p.returncode, p.stderr))
    return p


def run_json(cli, *args):
    """Runs the CLI with --json; returns its JSON lines, decoded."""
    p = run(cli, *(args[:1] + ("--json",) + args[1:]))
    return [json.loads(line) for line in p.stdout.splitlines() if line.strip()]


def write_poses(path, poses):
    """Writes poses ((N, 4, 4)) for --poses: 12 numbers a line, r00..r22 tx ty
    tz, with repr() so that they read back as the same float64."""
    with open(path, "w") as f:
        for p in poses:
            nums = [p[i, j] for i in range(3) for j in range(3)] + [p[0, 3], p[1, 3], p[2, 3]]
            f.write(" ".join(repr(float(x)) for x in nums) + "\n")
    return path


def rotation(rng):
    """A random rotation matrix (from a normalised Gaussian quaternion)."""
    w, x, y, z = rng.normal(size=4)
    n = np.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


def pose(r, t):
    p = np.eye(4)
    p[:3, :3] = r
    p[:3, 3] = t
    return p


def poses_near(rng, centers, n, spread):
    """n random poses whose translations are random points of centers moved
    by up to spread on each axis, with random rotations."""
    out = np.empty((n, 4, 4))
    for i in range(n):
        c = centers[rng.integers(len(centers))]
        out[i] = pose(rotation(rng), c + rng.uniform(-spread, spread, size=3))
    return out
