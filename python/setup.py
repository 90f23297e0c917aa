"""Build of the Python package collide: the Go library as a C shared library.

The build step runs, from the repository's root (the parent of python/),

    go build -buildmode=c-shared -o <build_lib>/collide/_libcollide.so ./cmd/libcollide

and ships the library inside the package, loaded with ctypes. Install with
the system's pip and setuptools into a virtual environment:

    /usr/bin/python3 -m venv --system-site-packages VENV
    VENV/bin/pip install --no-build-isolation ./python

For development, build the library next to the sources instead:

    python3 python/setup.py build_go --inplace      # then PYTHONPATH=python

($GO names the go command when it is not on PATH; $COLLIDE_REPO the
repository when python/ is not inside it.)
"""

import os
import shutil
import subprocess
import sys

from setuptools import Command, Distribution, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
LIBNAME = "_libcollide.so"


def repo_root():
    """The repository holding cmd/libcollide: $COLLIDE_REPO or python/'s parent."""
    root = os.environ.get("COLLIDE_REPO") or os.path.dirname(HERE)
    if not os.path.isfile(os.path.join(root, "go.mod")) or not os.path.isdir(
        os.path.join(root, "cmd", "libcollide")
    ):
        sys.exit(
            "collide: %s is not the collide repository (no go.mod and "
            "cmd/libcollide): build the package from a clone of the repository "
            "(pip install ./python), or set COLLIDE_REPO to one" % root
        )
    return root


def go_command():
    """The go command: $GO, else go on PATH; a clear error without one."""
    go = os.environ.get("GO") or shutil.which("go")
    if not go:
        sys.exit(
            "collide: the go command was not found on PATH: the package builds "
            "the Go library with `go build -buildmode=c-shared` and needs Go "
            "(the version go.mod names) and a C "
            "compiler (apt-get install gcc); or set GO to the go command"
        )
    return go


def build_library(dest_dir):
    """Builds the C shared library into dest_dir/_libcollide.so."""
    dest_dir = os.path.abspath(dest_dir)
    os.makedirs(dest_dir, exist_ok=True)
    out = os.path.join(dest_dir, LIBNAME)
    cmd = [go_command(), "build", "-buildmode=c-shared", "-o", out, "./cmd/libcollide"]
    print("collide: " + " ".join(cmd), flush=True)
    env = dict(os.environ)
    env.setdefault("CGO_ENABLED", "1")
    try:
        subprocess.run(cmd, cwd=repo_root(), env=env, check=True)
    except subprocess.CalledProcessError as e:
        sys.exit("collide: go build failed (exit status %d): see its output above" % e.returncode)
    # go build writes the cgo header next to the library: the package has
    # collide.h's contract already, not this one.
    header = os.path.splitext(out)[0] + ".h"
    if os.path.exists(header):
        os.remove(header)
    return out


class build_go(Command):
    """Builds the Go library: into the build tree, or next to the sources (--inplace)."""

    description = "build the Go library (go build -buildmode=c-shared)"
    user_options = [("inplace", "i", "build into python/collide/ for development")]
    boolean_options = ["inplace"]

    def initialize_options(self):
        self.inplace = False
        self.build_lib = None

    def finalize_options(self):
        self.set_undefined_options("build", ("build_lib", "build_lib"))

    def run(self):
        if self.inplace:
            build_library(os.path.join(HERE, "collide"))
        else:
            build_library(os.path.join(self.build_lib, "collide"))


class build_py_go(build_py):
    """build_py, then the Go library into the package."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            # pip install -e: the package is imported from the sources.
            build_library(os.path.join(HERE, "collide"))
        else:
            build_library(os.path.join(self.build_lib, "collide"))


class BinaryDistribution(Distribution):
    """A distribution with a platform library in it (a platform wheel)."""

    def has_ext_modules(self):
        return True


setup(
    distclass=BinaryDistribution,
    cmdclass={"build_py": build_py_go, "build_go": build_go},
    packages=["collide"],
    package_data={"collide": ["py.typed", "__init__.pyi"]},
    zip_safe=False,
)
