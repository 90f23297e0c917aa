// Package nc verifies tool paths for 3-axis machining: it checks that a
// milling tool, moved along a G-code program (package nc/gcode), never
// cuts into the part it is making (a gouge), that its shank and holder
// touch nothing, and that its rapid moves (G0) meet neither the part, the
// stock nor the fixtures. It is the application of Klosowski's
// dissertation (chapter 8), with exact tools rather than polyhedral ones.
//
// # Tools
//
// A Tool is a stack of solids of revolution about a vertical axis, from
// its tip up: a ball end (a ball and a cylinder), a flat end (a
// cylinder), a bull nose (a rounded corner and a cylinder), a taper (a
// cone), then cutting cylinders or cones, a shank and a holder of stacked
// cylinders and cones (ParseTool). The tool translates and never turns.
//
// # What is decided, and how exactly
//
// A move's swept volume is checked as a whole, never only at sampled
// positions. Contact is closed: a tool touching the part at a point is a
// violation (Options.MinDepth filters contacts by depth; Options.Eps
// makes anything closer than Eps one).
//
//   - The targets' trees (every kind of tree, through collide.Near: the
//     one traversal, with the tool's axis as the flying model and its
//     radius and the move's length as the tolerance) find the candidate
//     triangles; each candidate is then decided against the whole move.
//   - Balls and cylinders (a ball end's ball, every cylinder of a tool,
//     and the balls and cylinders that a tolerance grows) are decided
//     exactly by package nc/shape, for straight moves: the ball sweeps a
//     capsule, a cylinder a swept cylinder.
//   - Cones, bull-nose corners and the rounded rims that a tolerance adds
//     are conservative by themselves. A plane parallel to the triangle
//     that separates them, its rounding bounded, proves a miss first (a
//     face parallel to a cone's side). Otherwise each is bracketed by
//     cylinders, the one inside and the one around each slab of heights,
//     halving the slabs, breadth first, until one proves contact or every
//     one a miss. After 40 halvings, or 256 cylinders, a slab still
//     undecided is reported as contact, marked Graze, with Within the
//     difference of its cylinders' radii: the triangle is that close to
//     the surface, and may not touch it.
//   - Arcs (G2, G3) are bisected in angle: a piece of an arc lies in the
//     triangle of its ends and its end tangents' meeting point (for a helix,
//     raised over its rise), so the tool swept over that triangle missing
//     proves a miss, and the tool at an end of the piece meeting proves
//     contact. After 26 halvings, or 128 pieces, a piece still undecided
//     is a graze, with Within bounding how far the triangle may be (for
//     exact tangency about 2^-43 of the arc's size and coordinates). An
//     arc's positions are computed in floating point (gcode.Move.At): the
//     triangles are grown by a bound on that rounding, and a contact proved
//     at an end is proved at that computed position.
//   - The stock is a box: a rapid, the shank or the holder meeting its
//     faces, or starting inside it, is a violation; the cutter may cut it.
//     The stock is the raw box throughout (material removed by earlier
//     moves is not tracked).
//   - Coordinates may span the whole float64 range: a straight move whose
//     length overflows (from x = −9e307 to 9e307) is decided like any
//     other, its positions computed without overflow (gcode.Move.At) and
//     its candidates found from the box of its whole path. An arc whose
//     circle or length reaches beyond the range (gcode.ArcInRange), or a
//     move with a coordinate that is not finite, is an error naming the
//     line.
//   - The tool is a solid: a triangle inside the swept tool meets it, so
//     a piece of the part swallowed whole by the cutter is a gouge. The
//     part and the fixtures are their surfaces, as everywhere in collide: a
//     tool entirely inside a closed part, touching none of its triangles,
//     is not detected unless Options.Solid asks, and a path that enters the
//     part is reported on the move that crosses the surface. With Options.Solid they are the solids
//     they bound (each must be closed and oriented: collide.Model.Solid):
//     a tool part that meets no triangle of one over a move is connected
//     and off its surface, so one point of it decides whether it is
//     inside, exactly, by the solid's winding number (package solid; a
//     part above one that met nothing either takes its answer); if it is,
//     that is a violation (Violation.Inside) of the kind the surface
//     would give, with the part's radius as its depth (it stays inside
//     however much it shrinks) and no triangles. The point is the tool's
//     tip at the move's end for the cutter, the lowest float on the axis
//     of the shank or the holder there; only when no float lies on that
//     axis (the position's z beyond 2^52 times the part's length) is it
//     the float nearest the axis's lowest point instead.
//
// Check checks a gcode.Program; CheckReader checks moves as a
// gcode.Reader reads them, keeping none, so that a program of any length
// is checked in bounded memory. A program may also be checked in parts,
// apart (PartReader: each part's moves numbered from its first's index in
// the program), the parts' Summaries added (Summary.Add): a move's
// violations depend on the move alone, never on the moves checked before
// it, so the parts give the whole program's violations. ValidMove says
// beforehand which moves a check refuses, so that a program read whole
// before its parts are checked is refused at the move a check stops at.
//
// A Grouper gathers the violations into runs (Group: one kind, tool part
// and target on consecutive moves), deepest first, keeping a bounded
// number of runs.
//
// Options.Budget (collide.Budget, the time-critical queries' type) bounds
// a whole check, Options.MoveBudget each move, so that no check runs for
// minutes unasked: the tests they count are the exact tests of a solid
// against a triangle, the searches of the trees and the tests of a point
// against a solid (Stats.Exact + Stats.Queries + Stats.Inside), looked at between two triangles' tests, two pieces of a
// move and two moves, the clock every 256 tests. A move a budget cuts
// short is Unfinished in the Summary (with its line); the whole run's
// budget also stops the check (Summary.Stopped, Reached). A violation is
// never invented: one is reported only once all its triangles are known,
// so every move checked before the stop is complete and exact, and a
// violation whose detail was cut says so (Violation.Stopped).
//
// CheckContext and CheckReaderContext stop when their context is done
// (cancelled, as on Ctrl-C, or past its deadline), looked at where the
// budgets are: the check stops as a whole run's budget stops it, returning
// the Summary of what it checked and an error wrapping ctx.Err(). Check
// and CheckReader are them with a context never done.
//
// Each violation says the program line, the tool part and the target, the
// triangles met, the range of the move's parameter where it happens, how
// deep the triangles reach into the tool (the most each part of the tool
// could shrink and still meet them; 0 for a touch), as a certified
// interval [Depth, DepthMax], and with a tolerance the least distance
// (Clearance); these are found by bisection with the same exact tests. The
// parts shrunk by Depth are proved to meet the triangles, shrunk by
// DepthMax proved to miss them (their sizes rounded inwards for the one
// proof, outwards for the other); Options.MinDepth drops only what the
// parts shrunk by MinDepth are proved to miss.
package nc
