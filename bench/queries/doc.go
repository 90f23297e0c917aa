// Package queries measures the queries of issue 30 ("no pathological
// query") with every kind of tree, as its table has them: the distance of
// two real meshes (bull and homer, from Debian's libcgal-demo package) at a
// diagonal pose, of a torus and a sphere far apart and in contact, the time
// of impact of homer sliding past bull and of a small sphere dropped onto
// a torus (along an axis and off it), and the build of a terrain of 10^6
// triangles. Every row is timed with every kind (the least and the median
// of the rounds), with its counts and its answer, checked against the
// other kinds' and against brute force where that is affordable, and
// marked against the target (Target). With the peers driver,
// FCL's distance queries on the same poses and the peers' builds of the
// same terrain stand beside them.
//
// No row can stall the run: every kind runs every row in a process of its
// own (the program run again, see RunChild), killed when a query passes
// its cap of wall time (Config.Cap; builds and references Config.BuildCap)
// and reported as "> cap". Today's distance and time-of-impact queries take
// no deadline, and a goroutine cannot be stopped: one left running would
// slow every row after it. With Config.Before, every row runs in an
// earlier build of the program too, for figures before and after a change
// from the same run.
//
// Run returns a Report, which writes itself as markdown (`collide bench
// --queries` writes queries.md).
package queries
