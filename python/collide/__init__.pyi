# Type stubs of the package collide (see __init__.py for the documentation).
import os
from typing import Any, Literal, NamedTuple, Optional, Sequence, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

__version__: str
BVs: Tuple[str, ...]
DEFAULT_BV: str
CHUNK_SECONDS: float
BROAD_PHASES: Tuple[str, ...]

_Path = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
_Poses = npt.ArrayLike  # one 4x4 pose or (N, 4, 4)
_F64 = npt.NDArray[np.float64]
_I64 = npt.NDArray[np.int64]
_Bool = npt.NDArray[np.bool_]

def library_version() -> str: ...

class Model:
    def __init__(self, vertices: Any, faces: Optional[npt.ArrayLike] = ..., bv: Optional[str] = ...) -> None: ...
    @property
    def num_vertices(self) -> int: ...
    @property
    def num_triangles(self) -> int: ...
    @property
    def bv(self) -> str: ...
    @property
    def vertices(self) -> _F64: ...
    @property
    def faces(self) -> _I64: ...
    def save(self, path: _Path) -> None: ...
    def close(self) -> None: ...
    def __enter__(self) -> "Model": ...
    def __exit__(self, *exc: object) -> None: ...

def load(path: _Path, bv: Optional[str] = ..., mesh: Optional[str] = ...) -> Model: ...

@overload
def check(
    env: Model, fly: Model, poses: _Poses, all_pairs: Literal[False] = ..., eps: float = ...,
    env_pose: Optional[npt.ArrayLike] = ..., workers: int = ..., pairs: Literal[None, False] = ...,
) -> _Bool: ...
@overload
def check(
    env: Model, fly: Model, poses: _Poses, all_pairs: bool = ..., eps: float = ...,
    env_pose: Optional[npt.ArrayLike] = ..., workers: int = ..., pairs: Optional[bool] = ...,
) -> Union[_Bool, Tuple[_Bool, _I64]]: ...

APART: int
TOUCH: int
CROSS: int

class Contacts(NamedTuple):
    pose: _I64
    triangles: _I64
    kind: npt.NDArray[np.int8]
    points: _F64
    num_points: _I64
    normals: _F64
    bounds: _F64

def contacts(
    env: Model, fly: Model, poses: _Poses, all_pairs: bool = ..., eps: float = ...,
    env_pose: Optional[npt.ArrayLike] = ..., workers: int = ...,
) -> Contacts: ...

class Distances(NamedTuple):
    distances: _F64
    witnesses: _F64
    bounds: _F64
    triangles: _I64

@overload
def distance(
    env: Model, fly: Model, poses: _Poses, max_distance: float = ..., env_pose: Optional[npt.ArrayLike] = ...,
    workers: int = ..., details: Literal[False] = ...,
) -> Tuple[_F64, _F64]: ...
@overload
def distance(
    env: Model, fly: Model, poses: _Poses, max_distance: float = ..., env_pose: Optional[npt.ArrayLike] = ...,
    workers: int = ..., details: Literal[True] = ...,
) -> Distances: ...

class Impact(NamedTuple):
    hit: bool
    toi: Tuple[float, float]
    triangles: Tuple[int, int]
    maybe: bool

class Impacts(NamedTuple):
    hit: _Bool
    toi: _F64
    triangles: _I64
    maybe: _Bool

def time_of_impact(
    env: Model, fly: Model, pose0: _Poses, pose1: _Poses, env_pose: Optional[npt.ArrayLike] = ..., workers: int = ...,
) -> Union[Impact, Impacts]: ...

class Step(NamedTuple):
    contacts: _I64
    began: _I64
    ended: _I64

class World:
    def __init__(self, all_pairs: bool = ..., eps: float = ..., broad: Optional[str] = ..., workers: int = ...) -> None: ...
    def add(self, model: Model, pose: Optional[npt.ArrayLike] = ..., static: bool = ..., group: int = ...) -> int: ...
    def move(self, ids: Union[int, Sequence[int], npt.ArrayLike], poses: _Poses) -> None: ...
    def remove(self, id: int) -> None: ...
    def step(self) -> Step: ...
    def close(self) -> None: ...
    def __enter__(self) -> "World": ...
    def __exit__(self, *exc: object) -> None: ...
