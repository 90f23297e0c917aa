// meshio.h: readers of mesh files (OBJ, OFF, STL) and pose files, matching
// the Go loaders of github.com/collide3d/collide triangle for triangle.
#ifndef COLLIDE_PEERS_MESHIO_H
#define COLLIDE_PEERS_MESHIO_H

#include <stdexcept>
#include <string>
#include <vector>

#include "peer.h"

namespace peers {

// InputError reports a bad input file. Its message names the file and the
// place: "FILE:LINE: problem", "FILE: offset N: problem" or "FILE: problem".
class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// readMesh reads the mesh file at path, picking the format by the extension
// (.obj, .off, .stl, case insensitive). Coordinates must be finite and
// indices in range. Throws InputError.
Mesh readMesh(const std::string& path);

// readPoses reads a pose file: one pose a line, 12 numbers "r00 r01 r02 r10
// r11 r12 r20 r21 r22 tx ty tz" separated by spaces, tabs or commas; '#'
// starts a comment; blank lines are skipped; at least one pose. Throws
// InputError.
std::vector<Pose> readPoses(const std::string& path);

}  // namespace peers

#endif  // COLLIDE_PEERS_MESHIO_H
