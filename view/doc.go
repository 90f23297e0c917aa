// Package view serves a web page that plays recorded motions of models and
// shows where they touch: the models drawn with three.js, a slider and
// play/pause over the steps, the triangles in contact at each step
// highlighted with the intersection curves and contact normals (see
// Contact geometry), each step's figures and a chart of the query time
// with the step shown marked. `collide view` serves it; package view/headless
// renders it to PNG.
//
// A Recording holds the models, the objects that show them, and per step
// the poses of the moving objects, the pairs of triangles in contact, the
// query's time and counts. RecordFlight records a flight (package flight),
// RecordScene a scene of many objects played on a world (package scene).
// Handler serves a recording: the page and its scripts are embedded in the
// binary (three.js 0.187.0 from the npm registry, unchanged, with its
// licence: assets/three, made by assets/vendor.sh), so nothing is fetched
// from the network; the handler serves only them and the recording's data,
// and by default only to requests addressed to a loopback host.
//
// # What the page asks for
//
//	GET /recording.json  titles, models, objects, the moving objects, the
//	                     box of everything over the steps, and by step the
//	                     time, counts, pairs and contacts (for the chart)
//	GET /mesh/K          model K, binary (below)
//	GET /poses           every pose, binary (below)
//	GET /step/N          step N's contacts, JSON:
//	                     {"step":N,"pairs":P,"time":S,"bv_tests":..,
//	                      "tri_tests":..,"updates":..,"truncated":B,
//	                      "contacts":[{"a":I,"b":J,"pairs":[e0,f0,e1,f1,...]}],
//	                      "curves":[x0,y0,z0,x1,y1,z1,...],
//	                      "normals":[px,py,pz,nx,ny,nz,...],
//	                      "focus":{"min":[x,y,z],"max":[x,y,z]} or null}
//	                     (triangle e of object I touches triangle f of J;
//	                     curves are the intersection curves' segments,
//	                     normals a point and a unit normal from I towards
//	                     J at each contact patch, focus their box; all
//	                     relative to the origin)
//
// # Contact geometry
//
// Each step's curves and normals are computed in Go when the page asks for
// the step, not recorded: for a pair of objects whose models were built
// (Model.Built, as RecordFlight and RecordScene set it), they are the
// facade's contacts and patches (collide.QueryOptions{Patches: true}) at
// the step's poses, with the recording's tolerance: each crossing's or
// touch's segment, each coplanar overlap's polygon outline, and each
// patch's point and normal. For models without Built, and where that
// query finds other pairs than the step recorded (a first-contact
// recording, pairs bounded by MaxPairs), they are the recorded pairs'
// contacts one by one (geom.TriTriContact), each contact's normal at the
// centre of its points: what is drawn is always the highlighted pairs'. The page draws the curves over the
// surfaces (no depth test) in a contrasting colour, and the normals as
// short lines scaled to the contact region. ?frame=contact (what
// collide view --snapshot asks) points the camera at focus grown by a
// margin instead of the whole scene.
//
// # Binary layouts
//
// Both are little-endian, and start with a magic and a version (1), so
// that the page refuses anything else.
//
// A mesh ("CVMS") is: the magic, the version, the number of vertices V and
// of triangles T (uint32), the centre c of the mesh's bounding box (3
// float64), then the V vertices less c (3 float32 each) and the T
// triangles' vertex indices (3 uint32 each): 40 + 12V + 12T bytes. The
// vertices are sent relative to c so that a model far from the origin
// keeps its shape in float32.
//
// The poses ("CVPS") are: the magic, the version, the number of objects O,
// of moving objects M and of steps S (uint32), a zero uint32, the origin o
// (3 float64: the centre of the box of everything), then 12 float32 for
// each object (its pose when it does not move), then 12 for each moving
// object at each step, step by step: 48 + 48·O + 48·M·S bytes. The 12
// numbers are the rows of the rotation R, then R·c + T − o for the pose
// (R, T) of an object whose model's centre is c: the transform that takes
// the mesh's vertices as sent to their place relative to o. They are
// computed in float64 and rounded once.
package view
