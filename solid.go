package collide

import (
	"errors"
	"math"
	"strings"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/solid"
)

// ErrNotSolid is wrapped by the error of a query that treats a model as a
// solid (QueryOptions.Solid) when the model's surface bounds none: it is
// not closed, manifold and oriented. The error names the model and what
// breaks (a *solid.NotSolidError).
var ErrNotSolid = errors.New("not a solid")

// Inside says which model of a pair is inside the other, when a query of
// solids (QueryOptions.Solid) finds one inside the other with their surfaces
// apart.
type Inside uint8

const (
	NotInside Inside = iota // neither model is inside the other
	FlyInEnv                // (a part of) the flying model is inside the environment
	EnvInFly                // (a part of) the environment is inside the flying model
)

// Solid returns the solid that m's surface bounds (package solid), made
// the first time it is asked and kept, or an error wrapping ErrNotSolid
// that says what breaks. Safe for concurrent use.
func (m *Model) Solid() (*solid.Solid, error) {
	m.solidOnce.Do(func() {
		var err error
		if m.solid, err = solid.New(m.mesh, m.Topology()); err != nil {
			m.solidErr = &notSolidError{err}
		}
	})
	return m.solid, m.solidErr
}

// notSolidError is the error of Model.Solid: "collide: not a solid: " and
// what breaks, wrapping ErrNotSolid and package solid's error.
type notSolidError struct{ err error }

func (e *notSolidError) Error() string {
	msg := e.err.Error()
	if !strings.HasPrefix(msg, ErrNotSolid.Error()) {
		msg = ErrNotSolid.Error() + ": " + msg
	}
	return "collide: " + msg
}

func (e *notSolidError) Unwrap() []error { return []error{ErrNotSolid, e.err} }

// Inside returns what the containment test of q's last query of solids
// found (Result.Inside), for the callers of CollideFunc, which returns its
// Stats only; NotInside after a query that is not of solids or found a
// pair.
func (q *Query) Inside() Inside { return q.in }

// inside decides, for solids whose surfaces the tree test found apart,
// whether one is inside the other, fly at pose rel in env's frame; it
// counts its point tests in st (SolidTests) and returns which, the vertex
// found inside in q.sol.at (in env's frame).
//
// Apart, each connected component of one surface is wholly inside or
// wholly outside the other solid, so one vertex per component decides
// (solid.Solid.Components). Fly's vertices are placed as the tree test
// places them (rel.Apply, the identity left as is), so the answer is exact
// for the coordinates the tree test decided on: first fly's components
// against env's solid (its index, in env's frame); then env's components
// against fly's surface placed at rel, by a scan of its triangles, placed
// in q's scratch only when a component's box lies in fly's placed box (a
// conservative filter). Fly inside env is reported when both hold.
func (q *Query) inside(env, fly *Model, rel *geom.Pose, o *QueryOptions, st *Stats) Inside {
	es, err := env.Solid()
	if err != nil {
		return NotInside // checkOptions refused it
	}
	fs, err := fly.Solid()
	if err != nil {
		return NotInside
	}
	ident := rel.IsIdentity()
	eb := es.Bounds()
	fv, _ := fs.Components()
	for _, v := range fv {
		p := fly.mesh.Verts[v]
		if !ident {
			p = rel.Apply(p)
		}
		if !eb.Contains(p) {
			continue
		}
		st.SolidTests++
		if es.Contains(p) {
			q.sol.at = p
			return FlyInEnv
		}
	}
	ev, eboxes := es.Components()
	fb := fs.Bounds()
	if !ident {
		fb = placedBox(fb, rel)
	}
	placed := false
	for i, v := range ev {
		if !fb.ContainsBox(eboxes[i]) {
			continue // a component inside fly lies in fly's box
		}
		if !placed {
			q.sol.place(fly.mesh, rel, ident)
			placed = true
		}
		st.SolidTests++
		if w, on := solid.Scan(q.sol.tris, q.sol.boxes, env.mesh.Verts[v]); !on && w != 0 {
			q.sol.at = env.mesh.Verts[v]
			return EnvInFly
		}
	}
	return NotInside
}

// solidScratch is a Query's scratch for the solid test: the flying
// model's triangles placed at the query's pose, and their boxes.
type solidScratch struct {
	tris  []geom.Triangle
	boxes []geom.AABB
	at    geom.Vec3 // the vertex inside, of the last test that found one
}

// place fills sc with m's triangles placed at rel, vertex by vertex as the
// tree test places them.
func (sc *solidScratch) place(m *mesh.TriMesh, rel *geom.Pose, ident bool) {
	n := len(m.Tris)
	if cap(sc.tris) < n {
		sc.tris, sc.boxes = make([]geom.Triangle, n), make([]geom.AABB, n)
	}
	sc.tris, sc.boxes = sc.tris[:n], sc.boxes[:n]
	for i, ix := range m.Tris {
		t := &sc.tris[i]
		for k, x := range ix {
			if t[k] = m.Verts[x]; !ident {
				t[k] = rel.Apply(t[k])
			}
		}
		sc.boxes[i] = t.Bounds()
	}
}

// placedBox returns a box that holds every point of b as rel.Apply places
// it: the box of b's placed corners (the placed box is their hull, exactly
// for the pose's R and T), padded by more than twice the rounding of
// Apply, 3·2⁻⁵²·(3m·r + |T|) for coordinates of magnitude m and rows of R
// of magnitude r.
func placedBox(b geom.AABB, rel *geom.Pose) geom.AABB {
	out := geom.EmptyAABB()
	for c := range 8 {
		p := b.Min
		if c&1 != 0 {
			p.X = b.Max.X
		}
		if c&2 != 0 {
			p.Y = b.Max.Y
		}
		if c&4 != 0 {
			p.Z = b.Max.Z
		}
		out = out.Union(geom.AABB{Min: rel.Apply(p), Max: rel.Apply(p)})
	}
	m := b.Min.Abs().Max(b.Max.Abs())
	r := 1.0
	for _, row := range rel.Normalize().R {
		r = max(r, math.Abs(row[0]), math.Abs(row[1]), math.Abs(row[2]))
	}
	t := rel.T.Abs()
	pad := 1e-14*(3*max(m.X, m.Y, m.Z)*r+max(t.X, t.Y, t.Z)) + 1e-300
	return out.Expanded(pad)
}
