// Package distance compares collide's distance queries with FCL's
// (through the driver's --distance mode) on one pair of meshes at many
// poses: the distances against each other, and every witness checked.
//
// Run returns a Report, which writes itself as markdown.
package distance
