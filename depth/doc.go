// Package depth computes the translational penetration depth of two closed
// triangle meshes: exactly when both are convex, and as certified lower and
// upper bounds otherwise (which FCL and coal decline to do for non-convex
// meshes). On top of it, SignedDistance answers apart, touching and
// penetrating in one call, both models placed by their own poses, and
// PatchDepths bounds the penetration along the normal of each contact
// patch (collide.Patch).
//
// # Solids and penetration depth
//
// A mesh is closed when, after merging vertices with identical coordinates
// (+0 and −0 alike), its triangles form a 2-cycle: every edge between two
// distinct positions is used as many times from a to b as from b to a.
// An oriented 2-manifold without boundary (the generators' meshes, most
// CAD output) is closed; so are two closed meshes in one soup, a closed mesh
// with a doubled wall, and non-manifold edges shared by balanced fans.
// Translation and NewSolid reject any other mesh with an *OpenError naming
// the first triangle, in mesh order, with an unbalanced edge, the edge's
// coordinates, its counts in both directions and every triangle using it.
//
// For a closed mesh M the winding number w_M(p) is defined, and an integer,
// at every point p off the surface |M|; it is 0 far away. The interior
// Ω_M is the open set of points off the surface with w_M(p) ≠ 0 (the
// nonzero rule: a consistently outward mesh has w = 1 inside; an inward
// one, w = −1, bounds the same solid). Solid.Winding computes w_M(p)
// exactly: p on the surface is decided by geom.TriTri against the point;
// otherwise the ray from p along +x counts the triangles it crosses, with
// the sign of their normal's x component, its origin perturbed
// symbolically to (p.X, p.Y+ε, p.Z+ε²) (simulation of simplicity), so that
// a ray through an edge or a vertex is counted once, consistently between
// the triangles sharing it; every sign is an exact geom.Orient2D or
// geom.Orient3D (there is no retry and no tolerance).
//
// env stays at the identity; fly is at pose (its vertices computed as
// geom.Pose.Apply computes them, which is what collide.Check uses). They
// interpenetrate when Ω_env ∩ Ω_fly ≠ ∅: surfaces crossing, or one solid
// inside the other; surfaces that only touch do not. The translational
// penetration depth is
//
//	PD = min{ |v| : Ω_env ∩ (Ω_fly + v) = ∅ },
//
// (the set of such v is closed, so the minimum exists), and PD = 0 exactly
// when the solids do not interpenetrate.
//
// # Certificates
//
// Upper: a translation v is certified separating, exactly for the float64
// coordinates of fly at pose {R, T+v}, by either (a) a plane: some axis u
// with max u·a over env's vertices ≤ min u·b over fly's, compared exactly
// (a float filter with an error bound, math/big on ties); every interior
// lies in the convex hull of its mesh's vertices, so the interiors are
// disjoint, touching allowed; or (b) no contact between the surfaces by
// collide.Check (exact) and, for one vertex of each connected component
// of each surface, a winding number 0 with respect to the other solid.
// (b) suffices: each component of fly's surface then lies where w_env = 0;
// if a point x had w_env(x) ≠ 0 ≠ w_fly(x), the bounded component U of the
// complement of env's surface holding x would miss fly's surface, so
// w_fly would be constant, nonzero, on U and its boundary, which lies on
// env's surface, where w_fly = 0: a contradiction. Result.Move is such a
// translation and Upper its length.
//
// Lower: if p lies in both interiors, the open balls around p of radii
// d_env(p) and d_fly(p) (the distances from p to the surfaces) miss the
// surfaces, so they lie in Ω_env and Ω_fly; after a translation v with
// |v| < d_env(p) + d_fly(p) the moved ball still overlaps the fixed one.
// Hence PD ≥ d_env(p) + d_fly(p) for every such p, with equality for two
// balls and for a ball at the centre of another. Lower is the largest sum
// found, over points certified inside both (exact winding numbers): a grid
// over the overlap of the bounding boxes, vertices of each surface inside
// the other solid and points of the surfaces' intersection, each pushed a
// little into the solids, then hill climbing on the sum. The distances are
// computed in floating point; Lower subtracts 2·2^-44 times the largest
// coordinate magnitude to cover their rounding. Lower = 0 says no point
// was found (surfaces that touch without interpenetrating, or a thin
// overlap that the search missed); Result.Witness is the point.
//
// # Convex meshes: the exact answer
//
// A closed mesh is convex when every vertex lies on or below the plane of
// every non-degenerate triangle (exact Orient3D, O(triangles × vertices),
// skipped above 2·10^7 and treated as non-convex) and some vertex strictly
// below one: then each triangle lies in the boundary of the hull of the
// vertices with its normal out, and the interior is the hull's interior.
// Env is checked at the identity and fly in its own frame. For two convex
// solids PD is the distance from the origin to the boundary of the
// Minkowski difference env − fly, the least support h(u) = max u·a −
// min u·b over the facet normals of env − fly: the face normals of env,
// the negated face normals of fly, and the cross products of the edge pairs
// whose arcs on the Gauss map cross (Gregorius's test, with a tolerance
// that only ever keeps more axes, each an upper bound). Supports are exact
// maximisers (hull.Extreme); the values are rounded float64 dot products.
// Then Lower = PD (to that rounding), Dir is the axis, Move = PD·Dir,
// lengthened by a few ulps when rounding leaves fly's vertices short of
// the plane, certified by (a), and Exact is set.
//
// # The non-convex search
//
// For a direction d the surfaces touch, as fly moves by t·d, on a union of
// intervals of t: for each pair of triangles whose projections along d
// overlap (a sweep over projected boxes), the line ℝd clipped by the slabs
// of the pair's Minkowski difference over its candidate facet normals, in
// float64. In each gap between them the surfaces do not touch, so whether
// the interiors overlap cannot change: the search certifies the start of
// each gap in turn (nudged by 2^-36 of the scale), or, when rounding defeats
// that, the middle of the gap and bisects down. The first certified gap
// gives the direction's length (separation along a direction is not
// monotone for non-convex solids: a later gap can separate when an earlier
// one does not). Directions: the witness's ways out of each solid, the
// normals at the contacts, the convex hulls' penetration axis, the six
// axes, Options.Directions spread on the sphere, then rounds of local
// refinement around the best. Only certified lengths are kept, so Upper is
// an upper bound however good the search; the intervals only guide it.
//
// # Signed distance and patch depths
//
// SignedDistance answers, in one call, for env and fly each placed by its
// own pose: the surfaces' distance when apart (collide.Distance), 0 when
// they touch (the surfaces meet and the certificates above hold at the
// pose itself), and, when the solids of closed meshes interpenetrate,
// −Upper with [Lower, Upper] holding PD and Move a certified way out; a
// Kind says which (Apart, Touching, Penetrating, Overlapping for meshes
// that are not closed, where there is no depth). A solid holding a part
// of the other without surface contact is Penetrating: the exact winding
// numbers of one vertex per component tell it.
//
// PatchDepths bounds, for each contact patch (collide.Patch), the
// penetration along the patch's normal n, D(n) = inf{ t ≥ 0 : Ω_env ∩
// (Ω_fly + t·n) = ∅ } ≥ PD: above by a certified separating t along n,
// below by PD's Lower and by chains of balls inside both solids along n
// (patch.go derives the bound).
//
// Both run in env's frame with fly at envPose⁻¹∘flyPose (computed in
// float64, or flyPose itself when envPose is the identity; a zero
// rotation stands for the identity) and map points back by envPose.
//
// # Cost and limits
//
// Point classification and distances are linear in the triangles of the
// solid (with a box filter): the lower bound costs (Samples³ + seeds +
// 8·Climb) such passes, and each direction a sweep plus a few certificates,
// each an exact collide.Check and a pass per component. That suits meshes
// of up to a few thousand triangles. The gap between Lower and Upper is
// what the non-convex case leaves open; the tests measure it.
//
// Certificate (b) needs surfaces without contact, and (a) convex hulls
// apart. A non-convex configuration whose interiors are disjoint while the
// surfaces touch under every small translation (a box in a slot of its own
// width, a piece wedged between two walls) is certified by neither: there
// PD may be 0, or reached only at that touching position, and Upper is the
// next certifiable way out. Lower is 0 when the search finds no point
// inside both solids, even if they interpenetrate slightly.
//
// # Budget
//
// Options.Budget (collide.Budget, the time-critical queries' type) bounds
// the search so that no call runs for minutes unasked: Tests counts its
// exact steps (a separation certificate, a point classification, the
// contact query seeding Lower; Stats.Tests), and the deadline is looked at
// before each step, every 256 iterations of the loops between steps (the
// sweep of triangle pairs, the convexity and separating-axis loops) and,
// as a time-critical query's, within each exact contact query. When it
// runs out the search stops and answers with what it has proved
// (Result.Stopped): Lower is the best bound found so far (0 if none; PD
// if the convex path computed it), Upper the shorter of the best
// translation certified so far and the shortest that a plane certifies
// along the six axes or the convex hulls' axis (a linear pass after the
// stop). PD stays in [Lower, Upper]; only the interval is wider.
//
// # Cancellation
//
// TranslationContext, SignedDistance and PatchDepths take a
// context.Context: the search looks at it where it looks at the budget's
// deadline, and its deadline, if earlier, becomes the budget's (the exact
// contact and distance queries stop at it too). A call the context stops
// returns an error wrapping ctx.Err() (TranslationContext with the bounds
// certified so far, as a budget's stop leaves them).
//
// # Concurrency
//
// Translation, SignedDistance and PatchDepths allocate their own state;
// concurrent calls on the same models are safe. Each model's closedness
// check and solid in its own frame are computed once and kept while the
// model is reachable (about 130 bytes a triangle): a collide.Model is
// immutable. A Solid is immutable and safe for concurrent use.
package depth
