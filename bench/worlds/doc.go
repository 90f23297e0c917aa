// Package worlds runs the worlds' experiments: CDFast's (package
// bench/cdfast) and the many-body scenes of Broadmark's kind (brownian,
// fall, gravity) on every broad phase, with the speed-up of the exact tests
// on every core and Zachmann's two ways of sharing them out (static shares,
// dynamic chunks).
//
// Run plays them and returns a Report, which writes itself as markdown
// (`collide bench --worlds` writes it as worlds.md). The same scenes'
// box traces through the peers' broad phases are package bench/broadpeers.
package worlds
