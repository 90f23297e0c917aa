// Package continuous compares collide's continuous collision
// (TimeOfImpact) with FCL's (continuousCollide, through the driver's --ccd
// mode) on the motions of its scenes (pose i to pose i+1), every motion's
// contacts found by dense exact sampling.
//
// Run returns a Report, which writes itself as markdown (`collide bench
// --ccd-peers` writes ccd-peers.md).
package continuous
