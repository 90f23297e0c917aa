// Package scene describes scenes of many objects and plays them on a world
// (package world): shared models, objects with initial poses, groups,
// static flags and motions, the interest matrix, a number of steps, a seed
// and the bounds the motions keep to. A scene comes from a JSON file (Read,
// Load) or is built in (Builtin): CDFast's three scenes with their two
// movers, and many-body scenes of 10³ to 10⁵ small objects in Brownian
// motion, in free fall and in contracting clusters, as in Broadmark.
//
// # Playing
//
// Play (or a Player) builds each model once (collide.Build, with the
// model's bounding volume), however many objects share it, makes a world
// with the given world.Options, adds the objects at their initial poses
// and sets the interest matrix. The first step tests the objects where they
// are; every later step first asks each moving object's path for its next
// pose and moves the object only if the pose changed: static objects (and
// objects whose motion is static) are never moved, and an object that has
// stopped (a poses motion past its last pose, a fall that has settled) is
// not moved again, so the world does no work for it. A function called
// after every step sees the step's world.StepStats and the world, whose
// contacts name objects by world.ID (Player.Name gives their names).
//
// # Motions
//
// Every motion is kinematic (objects pass through each other; only the
// contacts are found) and deterministic: an object's path is a function of
// the motion's parameters, its model's bounding box, its initial pose, the
// scene's bounds and seed and the object's index (ObjectSeed), computed in
// float64 with math/rand/v2's PCG generator (its raw output, which is
// fixed) and the math package's functions (so the last bits of a pose may
// differ between platforms, never between runs on one). Rotations are
// built from unit quaternions, normalised, so every pose is a rotation to
// within world.RotationTol. A motion moves the centre of the model's
// bounding box and turns the object about it; "margin" is how far inside
// the bounds that centre stays (by default the half-diagonal of the model's
// box, so that the whole object stays inside; for fall, by default, the
// object's own extent along each axis at its orientation, so that it
// comes to rest touching the floor). Distances and angles a step are at
// most MaxPerStep (1e300); a fall whose gravity·dt overflows, or a
// gravity orbit that would leave the floats or turn by an infinite angle
// a step at its smallest radius, is refused when its path is made, before
// any step. The motions, with the defaults of scene files:
//
//	static    never moves (the default motion)
//	billiard  straight lines at constant speed and spin, both in random
//	          directions, reflected off the bounds (flight.Billiard with a
//	          fixed path); turn > 0 perturbs the direction at random each
//	          step, a random flight as in CDFast.
//	          speed 0.01 (distance/step), spin 0.01 (rad/step), turn 0, margin
//	poses     a pose file (one pose a line, 12 numbers, as flight --poses
//	          reads and --record writes), composed after the object's pose;
//	          after the last pose the object stays there (not moved again),
//	          or with cycle it starts again from the first.
//	          file (required, relative to the scene file), cycle false
//	brownian  a random walk: each step the centre moves step in a uniformly
//	          random direction and the object turns angle about a random
//	          axis; the centre reflects off the bounds.
//	          step 0.01, angle 0.02 (rad), margin
//	fall      free fall under gravity into the box of the bounds: velocity
//	          += gravity·dt, centre += velocity·dt; bounces off the floor
//	          and walls with restitution (friction takes as much of the
//	          other components and of the spin); a bounce too slow to lift
//	          the object settles it, and a settled object slows until it
//	          stops (Broadmark's free fall, without response between
//	          objects). Without a margin the object itself keeps inside
//	          the bounds (its hull's extent at each step's orientation)
//	          and rests on a wall touching it (sunk by 1e-9 of its radius,
//	          so that rounding leaves no gap); its speed along an axis is
//	          capped at four times the bounds' size a step.
//	          gravity [0,0,-9.81], dt 0.01 (s), restitution 0.5,
//	          velocity [0,0,0], spin 0 (rad/step), margin
//	gravity   clusters: each object orbits the cluster centre nearest its
//	          initial position, on a circle through it in a random plane,
//	          at strength·r^-1.5 rad/step (at most max_speed/r), its radius
//	          shrinking from r0 to collapse·r0 with time constant time steps
//	          (Broadmark's gravity, kinematic). The centres are centers, or
//	          clusters points drawn from the scene's seed in the middle 60%
//	          of the bounds.
//	          clusters 4, strength 0.05, max_speed 0.05, collapse 0.6,
//	          time 500 (steps), spin 0
//
// # Scene files
//
// A scene file is a JSON object; unknown fields are errors, at every
// level:
//
//	{
//	  "doc": "two balls on a floor",
//	  "steps": 200,
//	  "seed": 7,
//	  "bv": "kdop18",
//	  "bounds": {"min": [0, 0, 0], "max": [1, 1, 1]},
//	  "models": [
//	    {"name": "floor", "mesh": "floor.obj"},
//	    {"name": "ball", "mesh": "gen:icosphere:radius=0.1,tris=320", "bv": "kdop18"}
//	  ],
//	  "objects": [
//	    {"name": "floor", "model": "floor", "static": true},
//	    {"name": "ball1", "model": "ball", "position": [0.5, 0.5, 0.5], "group": 1,
//	     "motion": {"type": "billiard", "speed": 0.02, "spin": 0.05}},
//	    {"name": "ball2", "model": "ball", "position": [0.2, 0.5, 0.5],
//	     "orientation": [1, 0, 0, 0], "group": 1, "motion": "brownian"},
//	    {"name": "arm", "model": "ball", "motion": {"type": "poses", "file": "arm.txt"}}
//	  ],
//	  "interest": [
//	    {"groups": [1, 1], "on": false},
//	    {"objects": ["ball1", "ball2"], "on": true}
//	  ]
//	}
//
// The fields: "doc", a line describing the scene; "steps" (default 1);
// "seed" (default 0); "bv", the default bounding volume of the models (a
// name of collide.ParseBV; default kdop18); "bounds", the box of the
// motions (default: the box of the objects at their initial poses);
// "models", each with a "name", a "mesh" (a mesh file, .obj, .stl, .ply or
// .off, relative to the scene file's directory, or a generated model
// gen:KIND[:key=value,...]) and an optional "bv" (the models' volumes must
// be compatible: collide.BV.Compatible); "objects", each with a "name", a
// "model", its initial pose ("pose", the 12 numbers of a pose file, or
// "position" [x, y, z] and "orientation", a quaternion [w, x, y, z],
// normalised; default the identity; a pose's rotation must be orthonormal
// to within world.RotationTol), a "group" of the interest matrix (default
// 0, below world.MaxGroups), "static" (default false) and a "motion" (a
// name, or an object with a "type" and the motion's parameters; a static
// object has none); "interest", entries that set whether the pairs of two
// groups ("groups") or of two objects ("objects", overriding their groups)
// are tested ("on", required), in order. Names are unique among the models
// and among the objects.
//
// Read checks everything it can without loading meshes, and reads the pose
// files; meshes are loaded when the scene is played. Errors are *Error
// values that name the file, the line and the entry:
//
//	scene.json: line 12: objects[3] ("ball"): unknown motion "bounce" (motions: ...)
//
// A file larger than MaxFileSize, or with more than MaxObjects objects, is
// an error.
//
// # Built-in scenes
//
// Builtin(name, n, seed) returns a scene that is a pure function of its
// arguments. CDFast's scenes (Sanna and Milani; the paper gives only a few
// sizes) are in the unit cube, every object static but one mover on a
// random path of 10,000 steps (billiard, speed 0.005, spin 0.01 rad, turn
// 0.3, its centre kept 0.1 inside the cube, starting at a random pose in
// the middle 60% of the cube):
//
//	cdfast-room-*      a room: floor, ceiling and walls 0.02 thick, a table
//	                   with a vase, two chairs, a bookshelf with books, a
//	                   sofa, a floor lamp and a ceiling lamp, a rug; each part
//	                   a static object (59 objects, 1,612 triangles)
//	cdfast-spheres-*   n = 50 spheres of radius 0.0345 (320 triangles each),
//	                   at random, apart from each other
//	cdfast-mixed-*     n = 40 objects at random orientations, apart: a
//	                   hyperboloid of one sheet in a 0.27×0.31×0.23 box (the
//	                   largest), a sphere of radius 0.00656 (the smallest), and
//	                   spheres, boxes, cylinders, capsules, tetrahedra and tori
//	                   whose bounding spheres' radii are uniform in log scale
//	                   between 0.00656 and 0.1
//
// Each comes with a torus (-torus; the bare names are the torus variants)
// or an elongated object (-elongated). We read the paper's torus, "a
// radius of 0.11 and a ring 0.05 thick", as a torus whose tube's centre
// line has radius 0.11 and whose tube is 0.05 thick (radius 0.025): 0.27
// across, 990 triangles. The elongated object, of which the paper gives
// only its box, 0.4×0.23×0.23, is a fuselage (a capsule of radius 0.05,
// 0.4 long, along x) crossed by a wing (along y) and a fin (along z), 0.23
// across each: not convex, and loosely bounded by a sphere.
//
// The many-body scenes hold n objects (default 1,000; 10³ to 10⁵ are the
// sizes meant) of four shared models about 1 across: a sphere (80
// triangles), a 1×0.6×0.5 box (12), a tetrahedron (4) and a torus (48),
// chosen at random, at random orientations, every object moving:
//
//	brownian   in a cube whose inner part, where the centres go, has volume
//	           n/0.25; brownian step 0.05, angle 0.05 (about 0.3 pairs in
//	           contact per object); 100 steps
//	fall       dropped from heights of 9 to 30 into a box of floor n/0.5 (for
//	           the centres) with random horizontal velocities, dt 0.02 s,
//	           restitution 0.5, spin 0.05 rad/step; by step 400 all have
//	           settled on the floor, about 0.5 pairs in contact per object;
//	           400 steps
//	gravity    in 4 clusters of density 0.05 in a cube 4 cluster radii wide,
//	           orbiting (strength 0.3, max_speed 0.1, spin 0.03) and
//	           contracting to 0.6 of their radius (time 100): contacts grow
//	           from about 0.1 to 0.3 per object; 200 steps
package scene
