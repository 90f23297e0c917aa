package depth

import (
	"errors"
	"runtime"
	"sync"
	"weak"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
)

// shape is what a query needs of one model whatever the pose: its merged
// topology, its merged vertices and its solid in its own frame, or the
// *OpenError of a mesh that is not closed.
type shape struct {
	t     *topo
	pts   []geom.Vec3
	solid *Solid
	open  *OpenError
}

// shapes caches the shape of each model a query has seen, while the model
// is reachable (a collide.Model is immutable): the closedness check, a
// pass with a hash map over the mesh, cost 10 times the distance query
// of a SignedDistance apart on meshes of a few thousand triangles. It
// holds about 130 bytes a triangle.
var shapes sync.Map // weak.Pointer[collide.Model] → *shape

// shapeOf returns m's shape, computed once (checkMesh), and the errors of
// checkMesh, the *OpenError naming the model name.
func shapeOf(m *collide.Model, name string) (*shape, error) {
	key := weak.Make(m)
	if v, ok := shapes.Load(key); ok {
		return v.(*shape).named(name)
	}
	sh := &shape{}
	t, err := checkMesh(m.Mesh(), name)
	if err != nil {
		if !errors.As(err, &sh.open) {
			return nil, err // invalid or empty: not kept
		}
	} else {
		sh.t = t
		mv := m.Mesh().Verts
		sh.pts = make([]geom.Vec3, len(t.verts))
		for i, v := range t.verts {
			sh.pts[i] = mv[v]
		}
		sh.solid = newSolid(trisOf(sh.pts, t.tris))
	}
	if v, loaded := shapes.LoadOrStore(key, sh); loaded {
		sh = v.(*shape)
	} else {
		runtime.AddCleanup(m, func(k weak.Pointer[collide.Model]) { shapes.Delete(k) }, key)
	}
	return sh.named(name)
}

// named returns sh, or its *OpenError naming the model name.
func (sh *shape) named(name string) (*shape, error) {
	if sh.open != nil {
		e := *sh.open
		e.Model = name
		return nil, &e
	}
	return sh, nil
}
