package gltf

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"strings"

	"github.com/collide3d/collide/geom"
)

// positions decodes accessor ai as POSITION.
func (d *decoder) positions(ai int, path string) ([]geom.Vec3, error) {
	if v, ok := d.pos[ai]; ok {
		return v, nil
	}
	a, err := d.accessor(ai, path)
	if err != nil {
		return nil, err
	}
	path = fmt.Sprintf("accessors[%d]", ai)
	if a.ncomp != 3 || a.Type != "VEC3" {
		return nil, d.errf("%s: POSITION of type %s, want VEC3", path, a.Type)
	}
	if a.ComponentType == compUint {
		return nil, d.errf("%s: POSITION of component type UNSIGNED_INT (5125), want FLOAT or, quantized, a byte or short type", path)
	}
	verts := make([]geom.Vec3, a.Count)
	read := func(dst []geom.Vec3, b []byte, stride int) {
		if a.ComponentType == compFloat {
			for i := range dst {
				e := b[i*stride : i*stride+12]
				dst[i] = geom.Vec3{
					X: float64(math.Float32frombits(binary.LittleEndian.Uint32(e))),
					Y: float64(math.Float32frombits(binary.LittleEndian.Uint32(e[4:]))),
					Z: float64(math.Float32frombits(binary.LittleEndian.Uint32(e[8:]))),
				}
			}
			return
		}
		for i := range dst {
			e := b[i*stride:]
			dst[i] = geom.Vec3{
				X: component(e, a.ComponentType, a.Normalized),
				Y: component(e[a.csize:], a.ComponentType, a.Normalized),
				Z: component(e[2*a.csize:], a.ComponentType, a.Normalized),
			}
		}
	}
	if a.data != nil {
		read(verts, a.data, a.stride)
	}
	if a.Sparse != nil {
		vals := make([]geom.Vec3, len(a.sparseIdx))
		read(vals, a.sparseVals, a.elem)
		for i, j := range a.sparseIdx {
			verts[j] = vals[i]
		}
	}
	for i, v := range verts {
		if !v.IsFinite() {
			return nil, d.errf("%s: element %d is %v, not finite", path, i, v)
		}
	}
	d.pos[ai] = verts
	return verts, nil
}

// indices decodes accessor ai as vertex indices.
func (d *decoder) indices(ai int, path string) ([]uint32, error) {
	if v, ok := d.idx[ai]; ok {
		return v, nil
	}
	a, err := d.accessor(ai, path)
	if err != nil {
		return nil, err
	}
	path = fmt.Sprintf("accessors[%d]", ai)
	if a.Type != "SCALAR" {
		return nil, d.errf("%s: indices of type %s, want SCALAR", path, a.Type)
	}
	switch a.ComponentType {
	case compUbyte, compUshort, compUint:
	default:
		return nil, d.errf("%s: indices of component type %d, want UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT (5121, 5123, 5125)", path, a.ComponentType)
	}
	idx := make([]uint32, a.Count)
	if a.data != nil {
		for i := range idx {
			idx[i] = indexAt(a.data[i*a.stride:], a.ComponentType)
		}
	}
	for i, j := range a.sparseIdx {
		idx[j] = indexAt(a.sparseVals[i*a.elem:], a.ComponentType)
	}
	d.idx[ai] = idx
	return idx, nil
}

// A checked accessor: its data is in range for Count elements.
type checked struct {
	accessor
	ncomp, csize, elem int
	data               []byte // element i at data[i*stride:], nil for zeros
	stride             int
	sparseIdx          []uint32 // increasing, each < Count
	sparseVals         []byte   // tightly packed elements
}

// accessor checks accessor ai, referred to at path, and finds its bytes.
func (d *decoder) accessor(ai int, path string) (*checked, error) {
	if ai < 0 || ai >= len(d.doc.Accessors) {
		return nil, d.errf("%s: accessor %d out of range (%d accessors)", path, ai, len(d.doc.Accessors))
	}
	a := &checked{accessor: d.doc.Accessors[ai]}
	path = fmt.Sprintf("accessors[%d]", ai)
	a.csize = compSize(a.ComponentType)
	if a.csize == 0 {
		return nil, d.errf("%s.componentType: %d is not a component type", path, a.ComponentType)
	}
	var ok bool
	if a.ncomp, ok = typeComponents[a.Type]; !ok {
		return nil, d.errf("%s.type: %q is not an accessor type", path, a.Type)
	}
	if a.Count < 1 {
		return nil, d.errf("%s.count: %d, want at least 1", path, a.Count)
	}
	if a.ByteOffset < 0 {
		return nil, d.errf("%s.byteOffset: %d is negative", path, a.ByteOffset)
	}
	a.elem = a.csize * a.ncomp
	a.stride = a.elem
	if a.BufferView == nil {
		if a.Count > maxZeros {
			return nil, d.errf("%s: %d elements without a bufferView (zeros): at most %d are read", path, a.Count, maxZeros)
		}
	} else {
		bvi := *a.BufferView
		view, bv, err := d.bufferView(bvi, path+".bufferView")
		if err != nil {
			return nil, err
		}
		if bv.ByteStride != 0 {
			if bv.ByteStride < int64(a.elem) || bv.ByteStride > maxStride {
				return nil, d.errf("bufferViews[%d].byteStride: %d, want %d to %d for %s", bvi, bv.ByteStride, a.elem, maxStride, path)
			}
			a.stride = int(bv.ByteStride)
		}
		// Elements 0 .. Count-1 at ByteOffset + i·stride, each elem long.
		avail := int64(len(view)) - a.ByteOffset
		if avail < int64(a.elem) || (avail-int64(a.elem))/int64(a.stride) < a.Count-1 {
			return nil, d.errf("%s: %d elements of %d bytes every %d from byte %d do not fit in bufferViews[%d] (%d bytes)", path, a.Count, a.elem, a.stride, a.ByteOffset, bvi, len(view))
		}
		a.data = view[a.ByteOffset:]
	}
	if s := a.Sparse; s != nil {
		sp := path + ".sparse"
		if s.Count < 1 || s.Count > a.Count {
			return nil, d.errf("%s.count: %d, want 1 to %d (the accessor's count)", sp, s.Count, a.Count)
		}
		isz := compSize(s.Indices.ComponentType)
		if s.Indices.ComponentType != compUbyte && s.Indices.ComponentType != compUshort && s.Indices.ComponentType != compUint {
			return nil, d.errf("%s.indices.componentType: %d, want 5121, 5123 or 5125", sp, s.Indices.ComponentType)
		}
		ib, err := d.sparseBytes(s.Indices.BufferView, s.Indices.ByteOffset, s.Count, isz, sp+".indices")
		if err != nil {
			return nil, err
		}
		vb, err := d.sparseBytes(s.Values.BufferView, s.Values.ByteOffset, s.Count, a.elem, sp+".values")
		if err != nil {
			return nil, err
		}
		a.sparseIdx = make([]uint32, s.Count)
		for i := range a.sparseIdx {
			j := indexAt(ib[i*isz:], s.Indices.ComponentType)
			if int64(j) >= a.Count || i > 0 && j <= a.sparseIdx[i-1] {
				return nil, d.errf("%s.indices: element %d is %d: sparse indices must increase and stay below the count %d", sp, i, j, a.Count)
			}
			a.sparseIdx[i] = j
		}
		a.sparseVals = vb
	}
	return a, nil
}

// sparseBytes returns count tightly packed elements of size bytes from a
// sparse accessor's buffer view.
func (d *decoder) sparseBytes(bvp *int, off, count int64, size int, path string) ([]byte, error) {
	if bvp == nil {
		return nil, d.errf("%s.bufferView: missing", path)
	}
	view, _, err := d.bufferView(*bvp, path+".bufferView")
	if err != nil {
		return nil, err
	}
	if off < 0 || off > int64(len(view)) || (int64(len(view))-off)/int64(size) < count {
		return nil, d.errf("%s: %d elements of %d bytes from byte %d do not fit in bufferViews[%d] (%d bytes)", path, count, size, off, *bvp, len(view))
	}
	return view[off : off+count*int64(size)], nil
}

// bufferView checks buffer view i, referred to at path, and returns its
// bytes.
func (d *decoder) bufferView(i int, path string) ([]byte, *bufferView, error) {
	if i < 0 || i >= len(d.doc.BufferViews) {
		return nil, nil, d.errf("%s: buffer view %d out of range (%d buffer views)", path, i, len(d.doc.BufferViews))
	}
	bv := &d.doc.BufferViews[i]
	path = fmt.Sprintf("bufferViews[%d]", i)
	for _, u := range unsupported {
		if _, ok := bv.Extensions[u]; ok {
			return nil, nil, d.errf("%s.extensions: %s is not supported", path, u)
		}
	}
	if bv.Buffer == nil {
		return nil, nil, d.errf("%s.buffer: missing", path)
	}
	buf, err := d.buffer(*bv.Buffer, path+".buffer")
	if err != nil {
		return nil, nil, err
	}
	if bv.ByteOffset < 0 || bv.ByteLength < 1 || bv.ByteOffset > int64(len(buf)) || bv.ByteLength > int64(len(buf))-bv.ByteOffset {
		return nil, nil, d.errf("%s: bytes %d to %d (byteOffset %d, byteLength %d) are not within buffers[%d] (%d bytes)", path, bv.ByteOffset, bv.ByteOffset+bv.ByteLength, bv.ByteOffset, bv.ByteLength, *bv.Buffer, len(buf))
	}
	return buf[bv.ByteOffset : bv.ByteOffset+bv.ByteLength], bv, nil
}

// buffer loads buffer i, referred to at path, at most its byteLength.
func (d *decoder) buffer(i int, path string) ([]byte, error) {
	if i < 0 || i >= len(d.doc.Buffers) {
		return nil, d.errf("%s: buffer %d out of range (%d buffers)", path, i, len(d.doc.Buffers))
	}
	if d.bufOK[i] {
		return d.bufs[i], nil
	}
	b := &d.doc.Buffers[i]
	path = fmt.Sprintf("buffers[%d]", i)
	if b.ByteLength < 1 {
		return nil, d.errf("%s.byteLength: %d, want at least 1", path, b.ByteLength)
	}
	var data []byte
	switch {
	case b.URI == nil && i == 0 && d.format == "glb":
		if d.bin == nil {
			return nil, d.errf("%s: no uri, and the GLB file has no BIN chunk", path)
		}
		if b.ByteLength > int64(len(d.bin)) {
			return nil, d.errAt(d.binOff-chunkHead, "%s: byteLength %d, but the GLB BIN chunk has %d bytes", path, b.ByteLength, len(d.bin))
		}
		data = d.bin
	case b.URI == nil:
		return nil, d.errf("%s.uri: missing", path)
	case strings.HasPrefix(*b.URI, "data:"):
		var err error
		if data, err = d.dataURI(*b.URI, path); err != nil {
			return nil, err
		}
	default:
		var err error
		if data, err = d.external(*b.URI, b.ByteLength, path); err != nil {
			return nil, err
		}
	}
	if int64(len(data)) < b.ByteLength {
		return nil, d.errf("%s: byteLength %d, but its data has %d bytes", path, b.ByteLength, len(data))
	}
	data = data[:b.ByteLength:b.ByteLength]
	d.bufs[i], d.bufOK[i] = data, true
	return data, nil
}

// dataURI decodes a data: URI with base64 content.
func (d *decoder) dataURI(uri, path string) ([]byte, error) {
	head, payload, ok := strings.Cut(uri, ",")
	if !ok {
		return nil, d.errf("%s.uri: a data: URI without a comma", path)
	}
	if !strings.HasSuffix(head, ";base64") {
		return nil, d.errf("%s.uri: data: URI %q is not base64", path, head)
	}
	data, err := base64Decode(payload)
	if err != nil {
		return nil, d.errf("%s.uri: bad base64 content: %v", path, err)
	}
	return data, nil
}

// external reads at most n bytes of the file uri names in o.Dir.
func (d *decoder) external(uri string, n int64, path string) ([]byte, error) {
	name, err := localName(uri)
	if err != nil {
		return nil, d.errf("%s.uri: %q: %v", path, uri, err)
	}
	if d.o.Dir == nil {
		return nil, d.errf("%s.uri: external buffer %q: no directory to read it from (mesh.Load reads it beside the .gltf file)", path, uri)
	}
	f, err := d.o.Dir.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, d.errf("%s.uri: file %q not found", path, name)
	}
	if err != nil {
		return nil, d.errf("%s.uri: cannot read %q: %v", path, name, unwrapPath(err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, n))
	if err != nil {
		return nil, d.errf("%s.uri: reading %q: %v", path, name, unwrapPath(err))
	}
	if int64(len(data)) < n {
		return nil, d.errf("%s: byteLength %d, but the file %q has %d bytes", path, n, name, len(data))
	}
	return data, nil
}

// unwrapPath drops the *fs.PathError wrapping, whose path the message
// already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func component(b []byte, c int, normalized bool) float64 {
	switch c {
	case compFloat:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case compByte:
		v := float64(int8(b[0]))
		if normalized {
			return max(v/127, -1)
		}
		return v
	case compUbyte:
		v := float64(b[0])
		if normalized {
			return v / 255
		}
		return v
	case compShort:
		v := float64(int16(binary.LittleEndian.Uint16(b)))
		if normalized {
			return max(v/32767, -1)
		}
		return v
	case compUshort:
		v := float64(binary.LittleEndian.Uint16(b))
		if normalized {
			return v / 65535
		}
		return v
	}
	return float64(binary.LittleEndian.Uint32(b)) // compUint
}

func indexAt(b []byte, c int) uint32 {
	switch c {
	case compUbyte:
		return uint32(b[0])
	case compUshort:
		return uint32(binary.LittleEndian.Uint16(b))
	}
	return binary.LittleEndian.Uint32(b)
}
