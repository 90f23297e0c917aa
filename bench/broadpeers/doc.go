// Package broadpeers compares collide's broad phases with the peers'
// (Bullet's and FCL's, through the driver's --broad mode): every system
// replays the same box traces (package bench/boxtrace), each step timed and
// its set of pairs checked against a sort and sweep.
//
// Run replays the traces of the many-body scenes of package bench/worlds
// and returns a Report, which writes itself as markdown and JSON (`collide
// bench --worlds --peers` writes worlds-peers.md); Replay replays any
// traces.
package broadpeers
