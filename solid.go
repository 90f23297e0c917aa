package collide

import (
	"errors"
	"strconv"
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

// String returns "not inside", "fly in env" or "env in fly".
func (in Inside) String() string {
	switch in {
	case NotInside:
		return "not inside"
	case FlyInEnv:
		return "fly in env"
	case EnvInFly:
		return "env in fly"
	}
	return "Inside(" + strconv.Itoa(int(in)) + ")"
}

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
// against fly's surface placed at rel, by a scan of its triangles
// (solid.ScanMesh) over its vertices placed in q's scratch, only when a
// component's box lies in fly's placed box (a conservative filter). Fly
// inside env is reported when both hold.
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
	if !ident && len(ev) > 0 {
		fb = placedBox(fb, rel)
	}
	var placed []geom.Vec3
	for i, v := range ev {
		if !fb.ContainsBox(eboxes[i]) {
			continue // a component inside fly lies in fly's box
		}
		if placed == nil {
			placed = q.sol.place(fly.mesh, rel, ident)
		}
		st.SolidTests++
		if w, on := solid.ScanMesh(placed, fly.mesh.Tris, env.mesh.Verts[v]); !on && w != 0 {
			q.sol.at = env.mesh.Verts[v]
			return EnvInFly
		}
	}
	return NotInside
}

// solidScratch is a Query's scratch for the solid test: the flying
// model's vertices placed at the query's pose.
type solidScratch struct {
	verts []geom.Vec3
	at    geom.Vec3 // the vertex inside, of the last test that found one
}

// place returns m's vertices placed at rel, as the tree test places them
// (the identity: m's own), in sc's buffer.
func (sc *solidScratch) place(m *mesh.TriMesh, rel *geom.Pose, ident bool) []geom.Vec3 {
	if ident {
		return m.Verts
	}
	n := len(m.Verts)
	if cap(sc.verts) < n {
		sc.verts = make([]geom.Vec3, n)
	}
	sc.verts = sc.verts[:n]
	r := *rel
	for i, v := range m.Verts {
		sc.verts[i] = r.Apply(v)
	}
	return sc.verts
}

// placedBox returns a box that holds every point of b as rel.Apply places
// it, rel's rotation orthonormal to within 10⁻⁶ (as every query's pose
// is checked to be): the box around the ball about b's placed center of
// radius |b's half diagonal|·(1 + 10⁻⁵) (R stretches a length by less
// than 1 + 4·10⁻⁶), padded by 10⁻¹⁴·(3m + |T|∞), more than twice the
// rounding of Apply (a point's and the center's, each below 5·2⁻⁵³ of
// that) and of the center and the half diagonal, for coordinates of
// magnitude m. One Apply: cheaper than the box of the placed corners.
func placedBox(b geom.AABB, rel *geom.Pose) geom.AABB {
	m := b.Min.Abs().Max(b.Max.Abs())
	t := rel.T.Abs()
	c := rel.Apply(b.Min.Add(b.Max).Scale(0.5))
	r := b.Max.Sub(b.Min).Scale(0.5).Norm()*(1+1e-5) + 1e-14*(3*max(m.X, m.Y, m.Z)+max(t.X, t.Y, t.Z)) + 1e-300
	d := geom.Vec3{X: r, Y: r, Z: r}
	return geom.AABB{Min: c.Sub(d), Max: c.Add(d)}
}
