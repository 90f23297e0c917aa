// Package boxtrace reads and writes box traces. A box trace records what
// a world does to its broad phase, step by step: the objects added (with their box and whether they are static), moved
// (with their new box) and removed. Collide's broad phases (package broad)
// and the peers' (collide-peers --broad) replay the same trace, so that
// their pair sets can be compared at every step and their times side by
// side (package bench/broadpeers).
//
// The file is little-endian binary:
//
//	header, 24 bytes:
//	  magic     [8]byte  "BOXTRACE"
//	  version   uint32   1
//	  objects   uint32   ids are in [0, objects), at most MaxObjects
//	  steps     uint32
//	  reserved  uint32   0
//	then steps times:
//	  step      uint32   the step's number, from 0
//	  adds      uint32
//	  moves     uint32
//	  removes   uint32
//	  adds times:    id uint32, flags uint32 (bit 0: static; others 0), box
//	  moves times:   id uint32, box
//	  removes times: id uint32
//
// where a box is 6 float64, min x y z then max x y z, finite, min <= max on
// every axis (a flat box or a point is allowed). Nothing follows the last
// step.
//
// The semantics are those of broad.Phase: an add of a present id replaces
// that object; a move is of a present object, which is moving from then on
// (even if it was added static); a remove is of a present object. An id
// appears at most once in a step (adds, moves and removes together), so the
// order of the operations within a step does not matter.
package boxtrace
