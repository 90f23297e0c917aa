package ch2

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/collide3d/collide/geom"
)

// Mesh is the mesh (ray-shooting) method of the dissertation's 2.1: a
// constrained Delaunay tetrahedralization (TetGen's, of the obstacles and
// a box around them) whose faces include every obstacle triangle, split
// into several faces where TetGen added Steiner points; each tetrahedron
// knows its four neighbours and which of its faces lie on which obstacle
// triangle. A query locates a corner of bb(F) by walking from the
// tetrahedron of the previous query toward it (a visibility walk: cross
// a face the goal point is beyond, by exact orientation tests, as a ray
// shot from the previous location crosses the faces on its way); then
// searches breadth first over the neighbouring tetrahedra whose boxes
// meet bb(F) (grown by a billionth of the scene, a margin for the rounding
// of Steiner points), collecting the obstacle triangles of their faces
// whose boxes meet bb(F) (phase I: none, no collision); then tests each
// flying triangle f exactly against those whose boxes meet bb(f) (phase
// II), stopping at the first contact.
//
// The mesh covers the obstacles' insides as well as the free space (the
// chapter meshed the free space; TetGen would need a point inside every
// obstacle to leave them out, which a soup does not give), so the search
// may cross an obstacle's inside.
type Mesh struct {
	env    *Env
	box    geom.AABB // the box the mesh fills
	margin float64
	points []geom.Vec3
	tets   [][4]int32
	neigh  [][4]int32
	// obst[t][i] is the obstacle triangle the face of t opposite corner i
	// lies on, or -1.
	obst   [][4]int32
	boxes  []geom.AABB
	orient []int8 // each tetrahedron's orientation
	// Faces counts the faces on obstacle triangles, Steiner the points
	// TetGen added.
	Faces, Steiner int
	// Misfit counts the obstacle triangles that the faces marked with them
	// do not cover (a non-conforming mesh: 0, or the method is not used).
	Misfit int

	seenTet, seenTri stamps
	queue, cand      []int32
	last             int32
	rot              int
	// Walked counts the tetrahedra the walks crossed.
	Walked int64
}

// NewMesh meshes e with TetGen (see Mesh); its errors wrap ErrNoTetGen,
// or are a *RejectedError or a *ParseError.
func NewMesh(ctx context.Context, e *Env) (*Mesh, error) {
	size := e.Bounds.Size()
	ext := math.Max(size.X, math.Max(size.Y, size.Z))
	if ext == 0 {
		ext = 1
	}
	for i := range e.Tris {
		t := &e.Tris[i]
		if t[1].Sub(t[0]).Cross(t[2].Sub(t[0])) == (geom.Vec3{}) {
			return nil, &RejectedError{Status: -1, Output: fmt.Sprintf("obstacle triangle %d is degenerate (TetGen takes no zero-area facet)", i)}
		}
	}
	box := e.Bounds.Expanded(0.25 * ext)
	out, err := runTetGen(ctx, e, box)
	if err != nil {
		return nil, err
	}
	m := &Mesh{env: e, box: box, margin: 1e-9 * ext, points: out.points, tets: out.tets, neigh: out.neigh}
	m.Steiner = len(out.points) - distinct(e, box)
	if err := m.index(out); err != nil {
		return nil, err
	}
	m.seenTet, m.seenTri = newStamps(len(m.tets)), newStamps(len(e.Tris))
	return m, nil
}

// distinct counts the distinct points writePoly gives TetGen.
func distinct(e *Env, box geom.AABB) int {
	seen := map[geom.Vec3]bool{}
	for _, t := range e.Tris {
		seen[t[0]], seen[t[1]], seen[t[2]] = true, true, true
	}
	for i := range 8 {
		seen[box.Corner(i)] = true
	}
	return len(seen)
}

// index checks TetGen's output (neighbours share their face, every
// tetrahedron has volume) and maps each tetrahedron's faces to the
// obstacle triangles they lie on, then checks that the mesh conforms.
func (m *Mesh) index(out *tetgenOutput) error {
	n := len(m.env.Tris)
	onTri := make(map[[3]int32]int32, len(out.faces))
	area := make([]float64, n)
	for i, f := range out.faces {
		mk := out.markers[i]
		if mk < 1 || int(mk) > n {
			continue
		}
		t := mk - 1
		k := f
		slices.Sort(k[:])
		onTri[k] = t
		m.Faces++
		a, b, c := m.points[f[0]], m.points[f[1]], m.points[f[2]]
		area[t] += 0.5 * b.Sub(a).Cross(c.Sub(a)).Norm()
		// Every corner of the face lies on the triangle's plane.
		tri := &m.env.Tris[t]
		nrm := tri[1].Sub(tri[0]).Cross(tri[2].Sub(tri[0]))
		for _, p := range [3]geom.Vec3{a, b, c} {
			if math.Abs(nrm.Dot(p.Sub(tri[0]))) > 1e-9*nrm.Norm()*(1+maxAbs(p)) {
				return fmt.Errorf("ch2: mesh of %s: a face marked with triangle %d is off its plane", m.env.Name, t)
			}
		}
	}
	for t := range n {
		tri := &m.env.Tris[t]
		want := 0.5 * tri[1].Sub(tri[0]).Cross(tri[2].Sub(tri[0])).Norm()
		if math.Abs(area[t]-want) > 1e-6*want {
			m.Misfit++
		}
	}
	m.obst = make([][4]int32, len(m.tets))
	m.boxes = make([]geom.AABB, len(m.tets))
	m.orient = make([]int8, len(m.tets))
	for t, v := range m.tets {
		p := [4]geom.Vec3{m.points[v[0]], m.points[v[1]], m.points[v[2]], m.points[v[3]]}
		m.boxes[t] = geom.AABB{Min: p[0].Min(p[1]).Min(p[2]).Min(p[3]), Max: p[0].Max(p[1]).Max(p[2]).Max(p[3])}
		o := geom.Orient3D(p[0], p[1], p[2], p[3])
		if o == 0 {
			return fmt.Errorf("ch2: mesh of %s: tetrahedron %d is flat", m.env.Name, t)
		}
		m.orient[t] = int8(o)
		for i := range 4 {
			k := face(v, i)
			m.obst[t][i] = -1
			if ob, ok := onTri[k]; ok {
				m.obst[t][i] = ob
			}
			if nb := m.neigh[t][i]; nb >= 0 {
				j := slices.Index(m.neigh[nb][:], int32(t))
				if j < 0 || face(m.tets[nb], j) != k {
					return fmt.Errorf("ch2: mesh of %s: tetrahedra %d and %d are neighbours without a common face", m.env.Name, t, nb)
				}
			}
		}
	}
	return nil
}

// face returns the corners of tetrahedron v other than corner i, sorted.
func face(v [4]int32, i int) [3]int32 {
	var k [3]int32
	j := 0
	for c := range 4 {
		if c != i {
			k[j] = v[c]
			j++
		}
	}
	slices.Sort(k[:])
	return k
}

// Tets returns the number of tetrahedra.
func (m *Mesh) Tets() int { return len(m.tets) }

// Bytes returns the memory of the mesh's arrays.
func (m *Mesh) Bytes() int64 {
	return int64(len(m.tets))*(16+16+16+48+1+4) + int64(len(m.points))*24 + 4*int64(len(m.env.Tris))
}

// Reset starts the next walk from tetrahedron 0, as a static query does
// (the chapter shot its first ray from a tetrahedron's centre of
// gravity).
func (m *Mesh) Reset() { m.last = 0 }

// locate returns a tetrahedron containing p (inside the mesh's box),
// walking from m.last, or -1 when the walk does not end (then the caller
// scans).
func (m *Mesh) locate(p geom.Vec3) int32 {
	t := m.last
	for range 4*len(m.tets) + 16 {
		v := &m.tets[t]
		q := [4]geom.Vec3{m.points[v[0]], m.points[v[1]], m.points[v[2]], m.points[v[3]]}
		m.rot++
		moved := false
		for k := range 4 {
			i := (k + m.rot) & 3
			c := q[i]
			q[i] = p
			s := geom.Orient3D(q[0], q[1], q[2], q[3])
			q[i] = c
			if s != 0 && int8(s) != m.orient[t] {
				nb := m.neigh[t][i]
				if nb < 0 {
					return -1
				}
				t, moved = nb, true
				m.Walked++
				break
			}
		}
		if !moved {
			return t
		}
	}
	return -1
}

// Collide is the mesh method's query (see Mesh).
func (m *Mesh) Collide(f *Frame, c *Counts) bool {
	e := m.env
	if !overlaps(&e.Bounds, &f.Box) {
		return false
	}
	q := f.Box.Expanded(m.margin)
	p := f.Box.Min.Max(m.box.Min) // in bb(F) and in the mesh's box
	start := m.locate(p)
	if start < 0 {
		for t := range m.boxes {
			if overlaps(&m.boxes[t], &q) {
				start = int32(t)
				break
			}
		}
	}
	m.last = start
	m.seenTet.next()
	m.seenTri.next()
	m.queue = append(m.queue[:0], start)
	m.seenTet.first(start)
	m.cand = m.cand[:0]
	for h := 0; h < len(m.queue); h++ {
		t := m.queue[h]
		for i := range 4 {
			if ob := m.obst[t][i]; ob >= 0 && m.seenTri.first(ob) {
				c.BoxTests++
				if overlaps(&e.Boxes[ob], &f.Box) {
					m.cand = append(m.cand, ob)
				}
			}
			if nb := m.neigh[t][i]; nb >= 0 && m.seenTet.mark[nb] != m.seenTet.cur {
				c.BoxTests++
				if overlaps(&m.boxes[nb], &q) {
					m.seenTet.mark[nb] = m.seenTet.cur
					m.queue = append(m.queue, nb)
				}
			}
		}
	}
	if len(m.cand) == 0 {
		return false
	}
	c.FullRes++
	f.Full()
	for j := range f.Tris {
		fb := &f.Boxes[j]
		for _, t := range m.cand {
			c.BoxTests++
			if overlaps(&e.Boxes[t], fb) {
				c.TriTests++
				if geom.TriTri(e.Tris[t], f.Tris[j]) {
					return true
				}
			}
		}
	}
	return false
}
