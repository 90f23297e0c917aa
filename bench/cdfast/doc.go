// Package cdfast runs CDFast's experiments (Sanna and Milani, notes
// seed-003 §2): a torus and an elongated object fly random paths of 10,000
// steps through three scenes in the unit cube; the paper times CDFast's
// broad phase (its recursive grid, the mover bounded by one sphere or by a
// sphere-tree) and QuickCD's exact test (18-DOP trees), and counts
// "collisions", a unit it does not define. Run runs the same on the
// built-in scenes cdfast-{room,spheres,mixed}-{torus,elongated}: CDFast's
// broad phase alone (package broad/rgrid, driven directly, the mover
// bounded by its spheres at each level of detail or by its tight box) with
// every counter the paper may have meant, and the exact world (rgrid's
// boxes, then 18-DOP trees, first contact and all pairs), with contacts and
// triangle pairs.
//
// The Report writes itself as markdown, on its own or as a section of
// package bench/worlds' report (`collide bench --worlds`).
package cdfast
