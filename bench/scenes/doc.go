// Package scenes makes the scenes of collide's experiments: an
// environment, a flying model and the flight's motion.
//
// The paper's scenes (PaperNames: pipes, torus, 747, swept, interior) are
// generated stand-ins for those of Klosowski et al. (1998), whose models are
// not public. Beyond them, the scenes of close proximity (ProximityNames)
// put every pose in close proximity, touching, nearly touching or
// pressing: gears, two spur gears in mesh (Gear), and eight scenes of real
// meshes from Debian's libcgal-demo package, CAD parts and scanned models:
// dragon, knot, parts (CAD parts sliding past each other), blades, handle
// and cylinders (open half cylinders against a handle and against a larger
// copy), shell (a bone against a thin curved shell) and camel. New reads
// their meshes when the package is installed (see CGALArchive and
// CGALDataEnv) and otherwise refuses with a *MissingDataError saying how to
// install it.
//
// Every scene is a function of its name, size and seed (and, for the real
// meshes, of the meshes installed); the shape generators are pure
// functions of their arguments, the same bits on every platform.
package scenes
