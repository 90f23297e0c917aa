// Package coherence runs the front experiments of Klosowski's
// dissertation (section 6.3.3 and chapter 7: front tracking, a query
// starting where the pair's last query ended) and the time-critical
// queries' budget: every scene of the paper flown with every kind of tree,
// in both modes, from the roots and with a collide.Front, the two checked
// against each other at every step; then, in first-contact mode, how often
// a budget (a deadline, a number of tests) answers a step, and how many
// resumes a "maybe" needs.
//
// Run flies them and returns a Report, which writes itself as markdown
// (`collide bench --front` writes it as front.md).
package coherence
