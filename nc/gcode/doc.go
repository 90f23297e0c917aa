// Package gcode reads the common subset of G-code (RS-274, LinuxCNC's
// dialect) that 3-axis tool paths use, as a list of moves for tool-path
// verification: straight moves (G0, G1) and circular or helical arcs (G2,
// G3), in millimetres and absolute coordinates.
//
// Read never guesses a path. A word that would move the tool or shift the
// coordinates in a way this package does not model is an error naming the
// line and the word; a word it does not know is a warning (an error with
// Options.Strict); a malformed program is an error. Every error is an *Error
// whose message reads "part.nc: line 12: gcode: ...".
//
// # Lines and words
//
// A line is one block. Lines end at LF, CR LF or CR (as in
// internal/textscan); a UTF-8 byte order mark is skipped; a line longer than
// 1 MiB is an error. A word is a letter and a decimal number, in either case:
// "G1", "g01", "X-1.5", "X.5", "X+2", "Y2." are words. As RS-274 says, spaces
// and tabs mean nothing outside comments, even inside a number ("X 1 2 . 5"
// is X12.5). Numbers have no exponent ("X1E3" is X1 followed by the word
// E3); a number beyond the float64 range, or one that becomes infinite in
// millimetres, is an error. Besides words a line may hold:
//
//   - comments "( ... )", which do not nest (a "(" inside one is an error, as
//     in LinuxCNC) and must close on their line, and ";" comments to the end
//     of the line;
//   - a "/" (block delete) before the first word: the block is read, as if
//     the block delete switch were off;
//   - an N word (line number, a whole number up to 2³¹−1), recorded as
//     Move.N.
//
// A line starting with "%" is a tape mark, skipped with the rest of its
// text. If the first non-blank line is one, the next one ends the program.
//
// Parameters ("#1", "#<x>"), expressions ("[1+2]") and O-words followed by
// anything (subroutines, loops, conditions) are errors. An O-word alone on a
// line (a Fanuc program number) is an unknown word. Any other character
// outside comments is an error.
//
// # Blocks
//
// A block may hold several G words of different modal groups (two of one
// group are an error, as in LinuxCNC), several M words of different groups,
// and at most one of each other letter. It is executed in RS-274's order:
// G20/G21, F, S, T, M6, G17–G19, G90/G91, G90.1/G91.1, the motion, then
// M2/M30. So every number of a block, F included, is in the units that the
// block itself selects ("G20 F10" is 10 inches a minute).
//
// Motion:
//
//   - G0, G1, G2, G3 set the motion mode (modal). A block with an X, Y or Z
//     word moves in the motion mode in force, whether or not it repeats the
//     G word; a G0 or G1 without axis words only sets the mode. Axis words
//     before any motion mode, or after G80 (which cancels the mode, as in
//     LinuxCNC), are an error.
//   - G90 (the default) and G91 make X, Y, Z absolute or incremental.
//   - G17 (the default), G18, G19 select the arc plane: XY about Z, ZX
//     about Y, YZ about X (Plane.Axes). G2 is clockwise and G3
//     counter-clockwise seen from the positive end of the normal axis.
//   - An arc gives its centre with the two centre words of its plane (I J
//     for XY, K I for ZX, J K for YZ; a missing one is 0), relative to the
//     start (G91.1, the default, as in LinuxCNC) or absolute (G90.1, where
//     both are required). The third centre word (K in the XY plane) is an
//     error, as in LinuxCNC; so are I, J, K or R in a block that does not
//     move along an arc, both R and centre words, neither, and an arc
//     block without either of its plane's axis words.
//   - Or an arc gives its radius R: R > 0 is the arc of at most half a turn,
//     R < 0 the longer one. An R arc that ends where it starts is an error
//     (its centre is undetermined: a full circle needs centre words). If
//     |R| is less than half the chord, up to 0.00127 mm less (LinuxCNC's
//     RADIUS_TOLERANCE, 0.00005 inch) is read as a half turn about the
//     chord's midpoint; more is an error.
//   - A centre-word arc whose end is its start in the plane is a full
//     circle. The start and end radii must agree as LinuxCNC's defaults
//     require: with t = 0.02·√2 mm (≈ 0.0283 mm; 0.002·√2 inch ≈ 0.0718 mm
//     while the program is in G20) and d the difference of the radii, d >
//     100·t is an error, and so is d > t when d is also more than 0.1% of the
//     larger radius. A radius under 0.00127 mm at either end is an error.
//     Within the tolerance the path is a spiral: Move.At moves the radius
//     linearly from the start radius to the end radius, so that it ends
//     exactly at To.
//   - A move along the normal axis during an arc makes a helix.
//   - P on G2/G3 is LinuxCNC's number of turns, a whole number from 1 (the
//     default: a plain arc) to 1,000,000; Move.Turns is P − 1, the number of
//     extra full turns.
//
// Units, feed, spindle, tools:
//
//   - G21 (the default) is millimetres; after G20 every length (X Y Z I J K
//     R) and F is in inches and is multiplied by 25.4, correctly rounded
//     from the decimal as written when it has at most 13 significant digits
//     (so 1.5 inches is the float64 nearest 38.1, where 1.5·25.4 in float64
//     is 38.099999999999994). Program.Inches records that G20 was used.
//   - F (mm/min, not negative) and S (not negative) are modal and recorded
//     on every move, G0 included; they are 0 until set. A move at F0 is
//     not an error: timing is not this package's concern.
//   - T selects a tool (a whole number ≥ 0) and M6 puts the selected tool
//     in the spindle. Move.Tool is the tool in the spindle, or, in a program
//     that never uses M6, the last T word. Program.Tools lists the non-zero
//     tools of the moves.
//   - M2 and M30 end the program (as does the closing "%" of a program that
//     opened with one). The lines after the end are not read as G-code;
//     the first of them that has an X, Y or Z outside comments gives one
//     warning. M0, M1 (pauses), M3, M4, M5 (spindle) and M7, M8, M9
//     (coolant) are read and ignored.
//
// Known and ignored, without a warning: G4 (dwell) and its P; G40, G49, G54,
// G61, G61.1, G64 (and its P and Q), G80 (see above), G94, G98, G99, and
// G28.1 and G30.1 (which store a position without moving).
//
// Errors, because the path would depend on state this package does not
// model: G5–G5.3 (splines), G10, G28 and G30, G33, G33.1 and G76
// (spindle-synchronized motion), G38.2–G38.5 (probing: the tool stops where
// it touches), G41, G41.1, G42, G42.1 (cutter compensation), G43–G43.2 (tool
// length offset), G52, G53, G54.1, G55–G59.3 (other coordinate systems),
// G73, G74, G81–G89 (canned cycles), G92–G92.3, M98 and M99 (subprograms),
// and the axis words A, B, C, U, V, W (only X, Y, Z are modelled).
//
// Any other word is unknown: a warning "unknown word E5 (ignored)", or an
// error with Options.Strict. So are G and M numbers that are not of the form
// digits with at most one non-zero decimal ("G1.05"), and D, E, H, L. A P
// or Q word that nothing in its block uses is a warning "unused word P2
// (ignored)" (an error with Strict). At most MaxWarnings warnings are kept.
//
// # Positions
//
// With Options.Start nil, the tool starts at the first value the program
// gives each axis: the moves before that value keep the axis at it, so a
// program that begins "G0 Z5" then "G0 X10 Y20" does not start at an
// invented origin (the first move goes from (10, 20, 5) to (10, 20, 5)).
// This looking ahead is done without reading the input twice: moves are
// corrected when an axis gets its first value. An axis whose first word is
// incremental starts at 0, as does an axis never given. An absolute-centre
// (G90.1) arc before its plane's axes have values is an error.
//
// Zero-length moves are kept (a checker can skip them).
//
// # Limits
//
// Read holds every move: Options.MaxMoves (default DefaultMaxMoves, 50
// million) bounds them; one more is an error. Memory grows only with the
// moves and warnings actually read.
//
// A Reader (NewReader) returns the same moves one at a time, in memory
// that does not grow with the program: it holds back at most
// Options.Lookahead moves (DefaultLookahead), those read while an axis has
// no value yet or, until the first M6, after a T word. Beyond that it
// returns the oldest as they are; an axis first given later, not at 0, is
// an error naming the line (give Options.Start), and a first M6 later
// leaves the moves before it their T word's tool, with a warning.
package gcode
