// Package collide is exact, fast collision detection between polygonal
// models: load a mesh, build a model once, and ask, at any rigid pose, whether
// it touches another model and which triangle pairs touch.
//
// # Semantics
//
// Models are triangle soups (see package mesh). Triangles are closed point
// sets: two triangles are in contact iff they share a point, so touching at a
// vertex or along an edge counts, and so does coplanar overlap; a degenerate
// triangle is the segment or point it is. With eps = 0 the answer is exact for
// the float64 coordinates, after the pose has been applied in float64 (see
// package geom). With eps > 0 a pair is reported when its distance is at most
// eps.
//
// A report names triangles by their index in their model (Pair.Env,
// Pair.Fly). In first-contact mode a query stops at the first pair found; in
// all-pairs mode it reports every pair exactly once, in ascending order.
//
// # Models and queries
//
// Build makes a Model from a mesh: by default a tree of 18-DOPs (QuickCD's
// choice, the zero BV); BuildOptions choose the bounding volume (a BV:
// KDOP6, KDOP14, KDOP18, KDOP26, OBB, Sphere, AABB, BoxTree, RSS, or Brute,
// the brute-force model, the oracle), the splitting Rule and Split point,
// and the leaf sizes. Model.Save and LoadModel store and load a built
// model with its mesh.
//
// Every pairwise query places both models, the environment's pose first:
//
//	res, err := collide.Collide(env, envPose, fly, flyPose, collide.QueryOptions{All: true})
//
// Collide says whether they touch and which triangle pairs do;
// Query.Collide does the same with reusable scratch state and allocates
// nothing once warm; Query.CollideFunc streams the pairs to a callback
// that can stop early, and Query.Pairs returns them as an iterator
// (iter.Seq) whose loop can break. DistanceBetween measures the distance
// with its witnesses, Impact the earliest time of contact of a motion, and
// Query.NearTriangles hands a callback the environment's triangles near a
// flying model, for callers that decide contact themselves (package nc's
// swept tools). Stats counts a query's work; its String labels the counts.
//
// The calls of earlier versions, Check, Query.Check, Query.Each, Distance,
// TimeOfImpact, TimeOfImpactWith and Near, keep working, with the
// environment at the identity; they are deprecated and call the new ones.
//
// # Poses and frames
//
// A geom.Pose is a rigid transform, and its zero value the identity:
// geom.Pose{} leaves a model where its mesh is, geom.Pose{T: v} translates
// it. A query places env at envPose and fly at flyPose in a common frame
// (a world's) and decides it in env's frame, with fly at the relative pose
// envPose⁻¹∘flyPose, composed once in float64 (when envPose is the
// identity there is nothing to compose, and the query costs what a query
// of one pose costs). The answer is exact for the relative pose as
// composed: DESIGN's rule, exact for the computed coordinates; with
// envPose the identity that is flyPose itself. Points in a result
// (DistanceResult.PEnv and PFly) are placed in the common frame by
// envPose, their error bound widened by its rounding (see DistanceResult).
// A pose that is not finite, not a rotation, or that moves its model's
// vertices beyond the float64 range is an error wrapping ErrInvalidPose
// that names the pose: the environment's, the flying model's, or the
// relative one.
//
// # Cancellation
//
// The calls that can run long take a context.Context first
// (DistanceBetween, Impact): its cancellation or deadline stops the search
// (the walks look at it every 256 pairs of nodes, as they look at a
// Budget's deadline), and the call returns what it proved so far (Stopped)
// with an error wrapping ctx.Err(), for errors.Is(err, context.Canceled) or
// context.DeadlineExceeded. A context already done returns at once.
//
// The two models of a query have the same bounding volume, or are k-DOP
// trees of any two k, or one is a brute-force model (BV.Compatible).
// Otherwise the query is an error, not a hidden build: Model.WithBV builds
// the flying model's companion of the environment's volume over the same
// mesh, explicitly, and Model.Bytes reports its memory.
//
// # Deforming meshes
//
// Model.Refit gives a model of the same triangles at new vertex positions
// (cloth, soft bodies, animation, an edit moving vertices): a new model
// whose tree keeps the old one's shape, its volumes refitted bottom up
// with Build's fits and rounding, so that it answers every query exactly,
// several times faster than Build; m itself is unchanged, as models are
// shared. What depends on coordinates (topology, solid, flying views) is
// computed again when asked. As the mesh deforms the shape loosens:
// Model.RefitQuality measures it, and past about 2 a Build pays.
//
// # Changing environments
//
// Model.Edit gives a model with triangles deleted and inserted (a part
// removed, added, moved or replaced) without a build: its tree is the old
// one edited as an R-tree is, the changed volumes computed again exactly,
// so that it answers every query exactly; m itself is unchanged, and a
// query never sees a half-changed tree. The survivors keep their order and
// the inserted triangles follow (Edit.Renumber gives the map); a deleted
// triangle is never reported. Model.EditQuality says how far the edited
// tree has drifted from a built one.
//
// No kind of tree is fastest everywhere: package auto chooses one for a
// pair of models by timing the candidates' queries, and gives the models
// of the kind chosen, built as any other.
//
// # Convex objects
//
// QueryOptions.Method chooses a pair's exact test. MethodTree walks the
// two trees. MethodConvex first looks for a plane that separates the two
// models' vertices (package sep: the pair's last plane, kept in a Plane,
// then GJK), proved for the computed coordinates, so that "apart" is exact
// for any models; when no plane is proved the tree test decides. Two
// convex models that are apart have a plane, which GJK finds unless their
// gap is within its rounding; while they move
// little the last one proves the next query with one hill-climbing step or
// two on each model's hull. MethodAuto, the zero value, takes MethodConvex
// for two models whose topology says they are convex: a model of at most
// AutoConvexTris triangles has its topology computed for that on first
// use (about 1 µs a triangle, once); a bigger one counts only when its
// topology is already known (Model.Topology). Result.Method says which
// test decided, and Stats counts the convex tests, the plane hits and the
// new planes. A query decided by a plane does not walk the trees: its Front
// keeps the state of the last walk, still valid for the next.
//
// QueryOptions.Experiment holds traversal variants for the experiments of
// the k-DOP paper, and Model.Tree the hierarchy, for experiments that need
// package bvh; applications need neither.
//
// # Packages
//
//   - collide (this package): the library's API: Build, Model, Collide, Query
//   - auto: chooses the kind of tree per pair of models by measuring
//   - geom: vectors, poses, boxes, exact predicates, the triangle-triangle test
//   - mesh: TriMesh, its validation and bounds, and Load, which reads a file by its extension
//   - mesh/gltf: the glTF 2.0 reader (.gltf with its buffers, and .glb)
//   - mesh/obj: the Wavefront OBJ codec
//   - mesh/off: the OFF codec
//   - mesh/ply: the PLY codec (ASCII and binary)
//   - mesh/stl: the STL codec (ASCII and binary)
//   - mesh/gen: deterministic mesh generators
//   - bv: bounding volumes: k-DOPs, oriented boxes, spheres (fitting, overlap, tumbling)
//   - hull: convex hulls, exactly, and hill climbing on them
//   - topo: the edge structure of a mesh and its flags, exactly: manifold, closed, oriented, outward, convex
//   - sep: proving two point sets apart with a separating plane (GJK, certified exactly), with a per-pair cache
//   - solid: exact point-in-polyhedron: inside the solid a closed, oriented surface bounds
//   - bvh: the bounding-volume trees: build, traverse, save and load (the engine)
//   - bvh/internal/specialize (internal): copies a generic function per type arguments (bvh's traversal, per kind)
//   - bvh/internal/specialize/cmd/specialize (internal): the command go generate runs for it
//   - ccd: exact continuous collision of primitives moving linearly: vertex-face, edge-edge, triangle-triangle
//   - ccd/internal/ratccd (internal): the exact rational oracle that checks ccd
//   - depth: translational penetration depth, exact for convex meshes, certified bounds otherwise
//   - flight: motion: pose files, billiard paths, recorded paths, flights
//   - batch: one query at many poses in one call, on every core
//   - world: many objects tested against each other at once, step by step, with contacts and callbacks
//   - broad: the broad phase's interface: boxes in, pairs of overlapping boxes out
//   - broad/sap: incremental sweep and prune, exact on float64
//   - broad/grid: a uniform grid
//   - broad/rgrid: CDFast's recursive uniform grid, with sphere levels of detail
//   - broad/octree: Zachmann's octree
//   - broad/dbvt: a dynamic AABB tree with fattened boxes
//   - broad/dopsap: incremental sweep and prune on the k/2 directions of a k-DOP, each object bounded by its world DOP
//   - broad/broadtest: checks a broad phase against the brute-force oracle on seeded scenes
//   - broad/internal/pairset (internal): the set of overlapping pairs the sweep-and-prune phases keep
//   - scene: scene files of many objects (models, objects, groups, motions), played on a world
//   - nc: tool-path verification for 3-axis machining: gouges, shank and holder, rapid moves
//   - nc/gcode: the G-code reader (RS-274, LinuxCNC's dialect)
//   - nc/shape: exact tests of a milling tool's primitive solids, swept, against a triangle
//   - nc/ncgen: the parts and tool paths of the NC demo, tests and experiments
//   - view: the web page that plays recorded motions and shows where models touch
//   - view/headless: drives a headless Chromium (view's snapshots and browser tests)
//   - bench: the experiments' shape (Run, Report) and the table of their families
//   - bench/paper: the k-DOP paper's Tables 1 to 7 and Fig. 3
//   - bench/versus: collide against FCL, OPCODE, ODE and Bullet on the same flights, and how auto chose
//   - bench/coherence: front tracking and time-critical budgets
//   - bench/worlds: many bodies on every broad phase and every core
//   - bench/cdfast: CDFast's experiments
//   - bench/broadpeers: collide's broad phases against Bullet's and FCL's on box traces
//   - bench/boxtrace: box traces: what a world does to its broad phase, step by step
//   - bench/continuous: collide's time of impact against FCL's continuous collision
//   - bench/distance: collide's distance queries against FCL's
//   - bench/toolpaths: the dissertation's NC tool-path verification experiments
//   - bench/queries: issue 30's queries (distance, time of impact, builds) with every kind, each in a process of its own
//   - bench/grains: Zachmann's medium grain and concurrent module against the coarse grain
//   - bench/objects: Zachmann's convex objects and separating planes, and a world of convex objects, tree test against convex test
//   - bench/ch2: the dissertation's chapter 2 study: grid of boxes, k-d tree, R-tree and TetGen mesh beside the BV-trees
//   - bench/dops: the dissertation's comparison of k (6, 8, 12, 14, 18, 20, 26) on the paper's scenes, ranks beside its conclusions
//   - bench/ch6: the dissertation's chapter 6 tree designs (split directions, the oscillating tree, τ, skinny triangles) and ordered and truncated overlap tests
//   - bench/peers: the Go side of collide-peers, the driver of the peer libraries
//   - python/bench/gobatch: the Go side of the Python package's batch benchmark (python/bench/bench_batch.py)
//   - bench/internal/md (internal): the reports' markdown tables and formats
//   - bench/internal/flights (internal): making and building the scenes the experiments fly
//   - bench/internal/boundsonly (internal): a broad phase that finds no pairs
//   - bench/scenes: the paper's scenes and gears, generated, and two scenes
//     of real meshes from Debian's libcgal-demo when it is installed
//   - bench/plot: SVG charts of the reports
//   - cmd/collide: the command-line tool
//   - cmd/libcollide: the C library (collide.h), which the Python package in python/ loads
//   - internal/exact (internal): exact floating-point expansions
//   - internal/longtest (internal): whether the long test cases run (COLLIDE_LONG_TESTS=1)
//   - internal/jobs (internal): batch jobs of the CLI run in shards, the core of the Beam pipeline (module beam)
//   - internal/jsonl (internal): the JSON Lines the commands print with --json, shared with the Beam pipeline
//   - internal/source (internal): reading a model argument (mesh file, saved model, gen:KIND) as the CLI and the C library do
//   - internal/oracle (internal): the brute-force all-pairs oracle for big scenes
//   - internal/outfile (internal): output files written whole or not at all (the CLI's -o, the C library's saves)
//   - internal/portable (internal): arithmetic with the same bits on every platform
//   - internal/threadcpu (internal): the CPU time of the calling thread, for benchmarks on a busy machine
//   - internal/testgeom (internal): test oracles and adversarial generators
//   - internal/textscan (internal): the text formats' line reader and number parser
//   - internal/textscan/syntaxtest (internal): the text codecs' shared test cases
//
// The Beam pipeline (cmd/collide-beam, which runs the CLI's batch jobs
// in shards on Beam's runners, through internal/jobs) is a module of its
// own, in beam/, so that this module's dependencies stay few.
//
// # Concurrency
//
// A built Model is immutable: any number of goroutines may query it at once,
// through Check (which takes its scratch state from a pool) or through one
// Query per goroutine. The first query that flies a model prepares its
// flying view (about a tenth of the build's work), under a lock, unless
// Query.Prepare did so ahead of time: Prepare builds what a pair's first
// query would, so that the first query costs what the others do.
package collide
