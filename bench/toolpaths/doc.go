// Package toolpaths runs the NC verification experiments of Klosowski's
// dissertation (chapter 8): zig-zag finishing paths of a ball-end tool over
// terrains and mold parts, each checked with every kind of tree: the exact
// ball at the moves' ends, the exact ball and its swept volume (package
// nc), and polyhedral tools at the moves' ends.
//
// Run returns a Report, which writes itself as markdown (`collide bench
// --nc` writes nc.md).
package toolpaths
