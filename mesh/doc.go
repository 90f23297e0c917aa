// Package mesh holds TriMesh, the indexed triangle soup that every collide
// model is built from, with its validation, bounds and transforms, and Load,
// which reads a mesh file by its extension.
//
// # Triangle indexing
//
// A mesh is a vertex array and a list of index triples. Codecs fan-triangulate
// each polygon of a file in order (p0 p1 p2, p0 p2 p3, ...), and a triangle's
// index is its position in Tris after that triangulation; every collide report
// names triangles by this index.
//
// # Codecs
//
// The codecs live in subpackages (mesh/obj, mesh/stl, mesh/ply, mesh/off,
// mesh/gltf), each with Decode(io.Reader) and errors of type *FormatError
// that carry the line or byte offset of the problem (or, for glTF, the JSON
// path of the element). A codec registers itself with RegisterFormat when
// imported; Load picks the codec by file extension, so a program that calls
// Load imports the codecs it wants, usually all of them:
//
//	import (
//		"github.com/collide3d/collide/mesh"
//		_ "github.com/collide3d/collide/mesh/gltf"
//		_ "github.com/collide3d/collide/mesh/obj"
//		_ "github.com/collide3d/collide/mesh/off"
//		_ "github.com/collide3d/collide/mesh/ply"
//		_ "github.com/collide3d/collide/mesh/stl"
//	)
//
// (The collide package imports all five, so users of the facade need nothing
// more.) Load reads the files that a file refers to (a .gltf's buffers) from
// the file's directory; LoadReaderWith takes that directory, and the name
// of the one mesh to read from a glTF file.
//
// The text formats (OBJ, ASCII STL, OFF, ASCII PLY) share one syntax for
// numbers and line ends. Coordinates are decimal numbers: an optional sign,
// digits with an optional decimal point (at least one digit before or after
// it), and an optional exponent "e" or "E" with an optional sign and digits,
// such as 1, -1.5e-3, .5, 5. or +2E3, read correctly rounded to float64;
// counts and indices are decimal integers, digits with an optional sign.
// Other spellings that Go's strconv would accept (1_0, 0x1p3, 0x10) are
// errors. Lines end at LF, CRLF or a lone CR (old Mac files); the CR CR LF of
// files converted to CRLF twice is one line end.
//
// Decoders accept polygon soup as it comes: degenerate, duplicate and
// intersecting triangles are kept. They reject what cannot be a mesh:
// malformed numbers, indices out of range, non-finite coordinates, counts
// beyond MaxVertices or MaxTriangles. Every allocation whose size comes from
// the input is capped, so a hostile header cannot make a decoder allocate more
// than the data it actually delivers.
package mesh
