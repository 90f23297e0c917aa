package collide

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"

	// The codecs register themselves with mesh.Load.
	_ "github.com/collide3d/collide/mesh/obj"
	_ "github.com/collide3d/collide/mesh/off"
	_ "github.com/collide3d/collide/mesh/ply"
	_ "github.com/collide3d/collide/mesh/stl"
)

// BVBrute names the brute-force model: no hierarchy, every triangle pair is
// tested (after an exact bounding-box filter). It is the oracle every
// accelerated structure is checked against.
const BVBrute = "brute"

// BVNames returns the names of the bounding-volume types Build accepts.
func BVNames() []string { return []string{BVBrute} }

// ErrUnknownBV is returned (wrapped) by Build for an unknown BV name.
var ErrUnknownBV = errors.New("unknown bounding volume")

// BuildOptions configures Build.
type BuildOptions struct {
	// BV names the bounding-volume type (see BVNames).
	BV string
}

// QueryOptions configures a query.
type QueryOptions struct {
	// All asks for every intersecting pair; otherwise the query stops at the
	// first one.
	All bool
	// Eps ≥ 0 is the tolerance: pairs at distance at most Eps are reported.
	// 0 is exact contact.
	Eps float64
}

// Pair names two triangles in contact by their indices in the environment
// and the flying model.
type Pair struct {
	Env, Fly int32
}

// Stats counts the work of one query, in the terms of the cost model
// T = Nv·Cv + Np·Cp + Nu·Cu.
type Stats struct {
	BVTests  int64 // Nv: bounding-volume overlap tests
	TriTests int64 // Np: exact triangle-triangle tests
	Updates  int64 // Nu: bounding-volume updates of the flying model
}

// Result is the answer to one query.
type Result struct {
	Collide bool
	Pairs   []Pair // ascending by (Env, Fly); one pair in first-contact mode
	Stats   Stats
}

// Model is a built, immutable collision model.
type Model struct {
	mesh  *mesh.TriMesh
	bv    string
	boxes []geom.AABB // per-triangle bounds in model coordinates
}

// Build validates m and builds a model for it. The model keeps m, which must
// not be modified afterwards.
func Build(m *mesh.TriMesh, o BuildOptions) (*Model, error) {
	if o.BV == "" {
		o.BV = BVBrute
	}
	if !slices.Contains(BVNames(), o.BV) {
		return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownBV, o.BV, strings.Join(BVNames(), ", "))
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	boxes := make([]geom.AABB, len(m.Tris))
	for i := range m.Tris {
		boxes[i] = m.Triangle(i).Bounds()
	}
	return &Model{mesh: m, bv: o.BV, boxes: boxes}, nil
}

// Mesh returns the mesh the model was built from.
func (m *Model) Mesh() *mesh.TriMesh { return m.mesh }

// BV returns the name of the model's bounding-volume type.
func (m *Model) BV() string { return m.bv }

// Check tests fly, placed at pose, against env at the identity pose.
func Check(env, fly *Model, pose geom.Pose, o QueryOptions) Result {
	var r Result
	r.Pairs = bruteForce(env, fly, pose, o, &r.Stats, nil)
	r.Collide = len(r.Pairs) > 0
	return r
}

// bruteForce appends to dst every pair of triangles within o.Eps (the first
// one only unless o.All), in ascending order.
func bruteForce(env, fly *Model, pose geom.Pose, o QueryOptions, st *Stats, dst []Pair) []Pair {
	fm := fly.mesh
	ident := pose.IsIdentity()
	tris := make([]geom.Triangle, len(fm.Tris))
	boxes := make([]geom.AABB, len(fm.Tris))
	scene := geom.EmptyAABB()
	for i := range fm.Tris {
		t := fm.Triangle(i)
		if !ident {
			t = pose.ApplyTriangle(t)
		}
		tris[i] = t
		boxes[i] = t.Bounds()
		scene = scene.Union(boxes[i])
	}
	if o.Eps > 0 {
		// The box filter must never drop a pair that the floating-point
		// distance would accept: pad eps by more than the rounding of the
		// box arithmetic and of the distance.
		for _, b := range env.boxes {
			scene = scene.Union(b)
		}
		m := scene.Min.Abs().Max(scene.Max.Abs())
		pad := o.Eps + 1e-9*o.Eps + 1e-12*max(m.X, m.Y, m.Z)
		for i := range boxes {
			boxes[i] = boxes[i].Expanded(pad)
		}
	}
	for i, eb := range env.boxes {
		et := env.mesh.Triangle(i)
		for j := range tris {
			if !eb.Overlaps(boxes[j]) {
				continue
			}
			st.TriTests++
			if geom.TriTriWithin(et, tris[j], o.Eps) {
				dst = append(dst, Pair{int32(i), int32(j)})
				if !o.All {
					return dst
				}
			}
		}
	}
	return dst
}
