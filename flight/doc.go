// Package flight moves a flying model through an environment, as in the
// experiments of Klosowski et al.: pose files (one rigid pose a line, the
// 12 numbers of `collide check --poses`), billiard paths (a random flight
// that reverses on collision), recorded paths, and Fly, which runs a query
// at every step and gathers the figures of the flight.
//
// A flight is deterministic: a billiard path is a function of its
// configuration and seed, and the poses a flight took, written with
// WritePoses and replayed with Recorded, give the same queries again.
package flight
