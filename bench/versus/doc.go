// Package versus compares collide with its peers, FCL, OPCODE, ODE and
// Bullet: it flies every scene of bench/scenes through collide (each kind
// of tree, first contact and all pairs) and through the peers driver
// (package bench/peers), all on the same poses, taking turns, checks every
// answer against collide's reference and, where they differ, against the
// brute-force oracle.
//
// Run flies them and returns a Report, which writes itself as markdown and
// its disagreements as CSV (`collide bench --peers` writes peers.md and
// peers-disagreements.csv). Flown with AutoBV among the kinds, the report
// also says how auto chose (Report.WriteAutoMarkdown), as the last section
// of both collide bench's report and peers.md.
package versus
