package view

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// The page receives meshes and poses as little-endian binary (see the
// package documentation for the layouts), everything else as JSON.
const (
	meshMagic   = "CVMS"
	posesMagic  = "CVPS"
	wireVersion = 1

	meshHeader  = 40 // magic, version, vertices, triangles, centre (3 float64)
	posesHeader = 48 // magic, version, objects, moving, steps, 0, origin (3 float64)
)

// appendMesh appends the wire form of m: its vertices less the centre of
// its bounding box, as float32 (so that a model far from the origin keeps
// its shape: float32 is exact to 2^-24 of the model's size, not of its
// distance from the origin), and its triangles' vertex indices as uint32.
// c is the centre of m's bounding box.
func appendMesh(b []byte, m *mesh.TriMesh, c geom.Vec3) []byte {
	b = append(b, meshMagic...)
	b = binary.LittleEndian.AppendUint32(b, wireVersion)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(m.Verts)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(m.Tris)))
	b = appendVec64(b, c)
	b = slices.Grow(b, 12*len(m.Verts)+12*len(m.Tris))
	for _, v := range m.Verts {
		d := v.Sub(c)
		b = appendFloat32(b, d.X)
		b = appendFloat32(b, d.Y)
		b = appendFloat32(b, d.Z)
	}
	for _, t := range m.Tris {
		for _, i := range t {
			b = binary.LittleEndian.AppendUint32(b, uint32(i))
		}
	}
	return b
}

// renderPose returns the 12 numbers the page draws a model of bounding-box
// centre c at pose p with, relative to origin o: the rows of p.R, then
// p.R·c + p.T − o, the translation that moves the mesh's wire vertices
// (less c) to their place relative to o. They are computed in float64 and
// rounded once to float32.
func renderPose(p geom.Pose, c, o geom.Vec3) [12]float32 {
	t := p.R.MulVec(c).Add(p.T).Sub(o)
	var f [12]float32
	for i := range 3 {
		for j := range 3 {
			f[3*i+j] = float32(p.R[i][j])
		}
	}
	f[9], f[10], f[11] = float32(t.X), float32(t.Y), float32(t.Z)
	return f
}

// appendPoses appends the wire form of r's poses relative to origin o:
// every object's Pose, then, step by step, the poses of the moving
// objects, each as renderPose's 12 float32. boxes are the models'
// bounding boxes.
func appendPoses(b []byte, r *Recording, boxes []geom.AABB, o geom.Vec3) []byte {
	b = append(b, posesMagic...)
	b = binary.LittleEndian.AppendUint32(b, wireVersion)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(r.Objects)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(r.Moving)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(r.Steps)))
	b = binary.LittleEndian.AppendUint32(b, 0)
	b = appendVec64(b, o)
	b = slices.Grow(b, 48*(len(r.Objects)+len(r.Steps)*len(r.Moving)))
	put := func(p geom.Pose, model int) {
		for _, x := range renderPose(p, boxes[model].Center(), o) {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	for _, ob := range r.Objects {
		put(ob.Pose, ob.Model)
	}
	for n := range r.Steps {
		for k, i := range r.Moving {
			put(r.Steps[n].Poses[k], r.Objects[i].Model)
		}
	}
	return b
}

// modelBoxes returns the bounding boxes of r's models.
func (r *Recording) modelBoxes() []geom.AABB {
	boxes := make([]geom.AABB, len(r.Models))
	for i, m := range r.Models {
		boxes[i] = m.Mesh.Bounds()
	}
	return boxes
}

// bounds returns the box of every object over every step (the box of its
// model's box, of boxes, at each pose).
func (r *Recording) bounds(boxes []geom.AABB) geom.AABB {
	box := geom.EmptyAABB()
	for _, ob := range r.Objects {
		box = box.Union(boxes[ob.Model].Transform(ob.Pose))
	}
	for n := range r.Steps {
		for k, i := range r.Moving {
			box = box.Union(boxes[r.Objects[i].Model].Transform(r.Steps[n].Poses[k]))
		}
	}
	return box
}

func appendFloat32(b []byte, x float64) []byte {
	return binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(x)))
}

func appendVec64(b []byte, v geom.Vec3) []byte {
	for _, x := range [3]float64{v.X, v.Y, v.Z} {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}
