package main

/*
#include "cgotypes.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path/filepath"
	"strings"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/outfile"
	"github.com/collide3d/collide/internal/source"
	"github.com/collide3d/collide/mesh"
)

// defaultBV is the bounding volume of a model built when bv is NULL or ""
// (collide.h: kdop18, the library's default, collide.BVDefault).
const defaultBV = collide.BVDefault

// parseBV returns the bounding volume named s and whether one was named
// ("" names none: def).
func parseBV(s string) (collide.BV, bool, error) {
	if s == "" {
		return defaultBV, false, nil
	}
	b, err := collide.ParseBV(s)
	if err != nil {
		return 0, false, fmt.Errorf("--bv: %w", err)
	}
	return b, true, nil
}

//export collide_model_new
func collide_model_new(verts *C.collide_cdouble, nverts C.int64_t, faces *C.collide_cint64, nfaces C.int64_t,
	bv *C.collide_cchar, model *C.collide_handle, errbuf *C.char, errcap C.size_t) (rc C.int32_t) {
	defer recovered(&rc, errbuf, errcap)
	if model == nil {
		return status(argf("model is NULL"), errbuf, errcap)
	}
	*model = 0
	nv, err := count(int64(nverts), 3, "nverts")
	if err != nil {
		return status(err, errbuf, errcap)
	}
	nf, err := count(int64(nfaces), 3, "nfaces")
	if err != nil {
		return status(err, errbuf, errcap)
	}
	m, err := modelNew(sliceAt[float64](verts, 3*nv), nv, sliceAt[int64](faces, 3*nf), nf, cstring(bv))
	if err == nil {
		*model = C.collide_handle(putHandle(m))
	}
	return status(err, errbuf, errcap)
}

// modelNew builds the model of the nv vertices verts (3 nv numbers) and
// the nf triangles faces (3 nf indices) with the volume named bv. verts
// and faces are nil where the caller passed NULL.
func modelNew(verts []float64, nv int, faces []int64, nf int, bv string) (*collide.Model, error) {
	b, _, err := parseBV(bv)
	if err != nil {
		return nil, err
	}
	switch {
	case nv > mesh.MaxVertices:
		return nil, argf("nverts = %d is more than %d (mesh.MaxVertices)", nv, mesh.MaxVertices)
	case nf > mesh.MaxTriangles:
		return nil, argf("nfaces = %d is more than %d (mesh.MaxTriangles)", nf, mesh.MaxTriangles)
	case nf == 0:
		return nil, argf("nfaces = 0: the model has no triangles")
	}
	if err := need(verts, nv, "verts"); err != nil {
		return nil, err
	}
	if err := need(faces, nf, "faces"); err != nil {
		return nil, err
	}
	m := &mesh.TriMesh{Verts: make([]geom.Vec3, nv), Tris: make([][3]int32, nf)}
	for i := range m.Verts {
		v := verts[3*i : 3*i+3]
		for j, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, argf("vertices[%d][%d] is %v", i, j, x)
			}
		}
		m.Verts[i] = geom.Vec3{X: v[0], Y: v[1], Z: v[2]}
	}
	for i := range m.Tris {
		for j, k := range faces[3*i : 3*i+3] {
			if k < 0 || k >= int64(nv) {
				return nil, argf("faces[%d][%d] = %d is out of range [0, %d)", i, j, k, nv)
			}
			m.Tris[i][j] = int32(k)
		}
	}
	return collide.Build(m, collide.BuildOptions{BV: b})
}

//export collide_model_load
func collide_model_load(path, bv, mesh *C.collide_cchar, model *C.collide_handle, errbuf *C.char, errcap C.size_t) (rc C.int32_t) {
	defer recovered(&rc, errbuf, errcap)
	if model == nil {
		return status(argf("model is NULL"), errbuf, errcap)
	}
	*model = 0
	if path == nil {
		return status(argf("path is NULL"), errbuf, errcap)
	}
	m, err := modelLoad(cstring(path), cstring(bv), cstring(mesh))
	if err == nil {
		*model = C.collide_handle(putHandle(m))
	}
	return status(err, errbuf, errcap)
}

// modelLoad reads the model named path as the command line reads a model
// argument (internal/source), with the bounding volume bv ("" the
// default) and the glTF mesh meshName ("" every mesh): a mesh is built
// with bv; a saved model keeps its own volume, and a bv named that differs
// is an error, as check and build say it.
func modelLoad(path, bv, meshName string) (*collide.Model, error) {
	b, given, err := parseBV(bv)
	if err != nil {
		return nil, err
	}
	s, err := source.Load(path, source.Options{Mesh: meshName})
	if err != nil {
		return nil, loadError(err, path, meshName)
	}
	if err := s.HasTriangles(); err != nil {
		return nil, &contentError{err}
	}
	if s.Saved != nil {
		if given {
			if err := s.AgreeBV(b); err != nil {
				return nil, err
			}
		}
		return s.Saved, nil
	}
	m, err := collide.Build(s.Mesh, collide.BuildOptions{BV: b})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Arg, err)
	}
	return m, nil
}

// loadError classifies an error of source.Load of path with the mesh
// name meshName: those that are neither about the argument (a usage
// error, an unknown extension), nor about reading the file (a missing
// file, an I/O error), are about its contents (a mesh that fails
// validation after decoding), but for a mesh named in a file that is not
// glTF (a mesh file of another format, or a saved model: files without
// named meshes), which is a bad argument.
func loadError(err error, path, meshName string) error {
	var pe *fs.PathError
	switch c := code(err); {
	case c != codeEIO:
		return err
	case errors.As(err, &pe), errors.Is(err, io.ErrUnexpectedEOF):
		return err
	}
	file, name := source.SplitMesh(path)
	if meshName != "" || name != "" {
		if ext := strings.ToLower(filepath.Ext(file)); ext != ".gltf" && ext != ".glb" {
			return &argError{err.Error()}
		}
	}
	return &contentError{err}
}

//export collide_model_save
func collide_model_save(model C.collide_handle, path *C.collide_cchar, errbuf *C.char, errcap C.size_t) (rc C.int32_t) {
	defer recovered(&rc, errbuf, errcap)
	if path == nil {
		return status(argf("path is NULL"), errbuf, errcap)
	}
	return status(modelSave(uint64(model), cstring(path)), errbuf, errcap)
}

// modelSave writes the model of handle h to path, in the format collide
// build writes: into a temporary file beside it, then moved into place
// (replacing a file there), as the command line's outputs are written.
func modelSave(h uint64, path string) error {
	m, err := lookupID[*collide.Model](h, "model")
	if err != nil {
		return err
	}
	if m.BV() == collide.Brute {
		return argf("model: a brute-force model has no hierarchy to save (build it with another bv)")
	}
	if path == "" {
		return argf("path is empty")
	}
	return outfile.Write(path, true, m.Save)
}

//export collide_model_info
func collide_model_info(model C.collide_handle, nverts, nfaces *C.int64_t, bv *C.char, bvcap C.size_t, errbuf *C.char, errcap C.size_t) (rc C.int32_t) {
	defer recovered(&rc, errbuf, errcap)
	nv, nf, name, err := modelInfo(uint64(model))
	if err == nil {
		if nverts != nil {
			*nverts = C.int64_t(nv)
		}
		if nfaces != nil {
			*nfaces = C.int64_t(nf)
		}
		writeCString(name, bv, bvcap)
	}
	return status(err, errbuf, errcap)
}

// modelInfo returns the numbers of vertices and triangles of the model of
// handle h and the name of its bounding volume.
func modelInfo(h uint64) (nv, nf int, bv string, err error) {
	m, err := lookupID[*collide.Model](h, "model")
	if err != nil {
		return 0, 0, "", err
	}
	return len(m.Mesh().Verts), len(m.Mesh().Tris), m.BV().String(), nil
}

//export collide_model_mesh
func collide_model_mesh(model C.collide_handle, verts *C.double, faces *C.int64_t, errbuf *C.char, errcap C.size_t) (rc C.int32_t) {
	defer recovered(&rc, errbuf, errcap)
	m, err := lookupID[*collide.Model](uint64(model), "model")
	if err != nil {
		return status(err, errbuf, errcap)
	}
	me := m.Mesh()
	copyMesh(me, sliceAt[float64](verts, 3*len(me.Verts)), sliceAt[int64](faces, 3*len(me.Tris)))
	return status(nil, errbuf, errcap)
}

// copyMesh copies m's vertices into verts and its triangles into faces,
// each unless nil.
func copyMesh(m *mesh.TriMesh, verts []float64, faces []int64) {
	if verts != nil {
		for i, v := range m.Verts {
			verts[3*i], verts[3*i+1], verts[3*i+2] = v.X, v.Y, v.Z
		}
	}
	if faces != nil {
		for i, t := range m.Tris {
			faces[3*i], faces[3*i+1], faces[3*i+2] = int64(t[0]), int64(t[1]), int64(t[2])
		}
	}
}
