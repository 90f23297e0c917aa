package ply

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/textscan"
	"github.com/collide3d/collide/mesh"
)

// decoder reads the body, element by element.
type decoder struct {
	rd  *reader
	enc encoding
	l   layout
	m   *mesh.TriMesh
}

func offsetError(off int64, format string, args ...any) error {
	return &mesh.FormatError{Format: "ply", Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// truncated reports the end of the input (or a read error) inside instance
// i of e.
func (d *decoder) truncated(e *element, i int64) error {
	if d.rd.err != io.EOF {
		return d.rd.err
	}
	msg := fmt.Sprintf("unexpected end of data after %d of %d %s elements", i, e.count, e.name)
	if d.enc == ascii {
		return lineError(d.rd.EOFLine(), "%s", msg)
	}
	return offsetError(d.rd.end(), "%s", msg)
}

// growVerts makes room for k more vertices, if needed by doubling the
// capacity, but never beyond the declared count: the capacity stays below
// twice what has arrived (or minGrow).
func (d *decoder) growVerts(k int) {
	m := d.m
	if cap(m.Verts)-len(m.Verts) >= k {
		return
	}
	c := min(max(2*cap(m.Verts), len(m.Verts)+k, minGrow), int(d.l.nverts))
	m.Verts = slices.Grow(m.Verts, c-len(m.Verts))
}

// growTris makes room for k more triangles, if needed by doubling the
// capacity.
func (d *decoder) growTris(k int) {
	m := d.m
	if cap(m.Tris)-len(m.Tris) >= k {
		return
	}
	c := max(2*cap(m.Tris), len(m.Tris)+k, minGrow)
	m.Tris = slices.Grow(m.Tris, c-len(m.Tris))
}

// element reads or skips the instances of e.
func (d *decoder) element(e *element) error {
	if len(e.props) == 0 || e.count == 0 {
		return nil // nothing to read, whatever the count
	}
	switch {
	case e == d.l.vertex:
		if d.enc == ascii {
			return d.asciiVertices(e)
		}
		if _, ok := fixedSize(e); ok {
			return d.fixedVertices(e)
		}
		return d.binaryVertices(e)
	case e == d.l.face:
		if d.enc == ascii {
			return d.asciiFaces(e)
		}
		if len(e.props) == 1 {
			return d.fastFaces(e)
		}
		return d.binaryFaces(e)
	}
	if d.enc == ascii {
		return d.asciiSkip(e)
	}
	return d.binarySkip(e)
}

// fixedSize returns the record size of e if it has no list property.
func fixedSize(e *element) (int, bool) {
	n := 0
	for _, p := range e.props {
		if p.isList() {
			return 0, false
		}
		n += p.typ.size()
	}
	return n, true
}

// intAt decodes an integer of type t at the start of b.
func intAt(b []byte, t scalar, be bool) int64 {
	switch t {
	case tInt8:
		return int64(int8(b[0]))
	case tUint8:
		return int64(b[0])
	case tInt16, tUint16:
		var u uint16
		if be {
			u = binary.BigEndian.Uint16(b)
		} else {
			u = binary.LittleEndian.Uint16(b)
		}
		if t == tInt16 {
			return int64(int16(u))
		}
		return int64(u)
	case tInt32, tUint32:
		var u uint32
		if be {
			u = binary.BigEndian.Uint32(b)
		} else {
			u = binary.LittleEndian.Uint32(b)
		}
		if t == tInt32 {
			return int64(int32(u))
		}
		return int64(u)
	}
	panic("ply: intAt of a float type")
}

// floatAt decodes a value of type t at the start of b as a float64 (exactly:
// every PLY type fits).
func floatAt(b []byte, t scalar, be bool) float64 {
	switch t {
	case tFloat32:
		var u uint32
		if be {
			u = binary.BigEndian.Uint32(b)
		} else {
			u = binary.LittleEndian.Uint32(b)
		}
		return float64(math.Float32frombits(u))
	case tFloat64:
		var u uint64
		if be {
			u = binary.BigEndian.Uint64(b)
		} else {
			u = binary.LittleEndian.Uint64(b)
		}
		return math.Float64frombits(u)
	}
	return float64(intAt(b, t, be))
}

func isFinite(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) }

// fixedVertices reads vertices whose records have a fixed size, a buffer
// full at a time.
func (d *decoder) fixedVertices(e *element) error {
	rd, be := d.rd, d.enc == binaryBE
	size, _ := fixedSize(e)
	var offs [3]int
	var typs [3]scalar
	for k, j := range d.l.xyz {
		typs[k] = e.props[j].typ
		for _, p := range e.props[:j] {
			offs[k] += p.typ.size()
		}
	}
	fast := !be && typs == [3]scalar{tFloat32, tFloat32, tFloat32}
	for i := int64(0); i < e.count; {
		if !rd.fill(size) {
			return d.truncated(e, i)
		}
		k := int(min(int64(len(rd.avail())/size), e.count-i))
		b := rd.avail()[:k*size]
		d.growVerts(k)
		v0 := len(d.m.Verts)
		verts := d.m.Verts[v0 : v0+k]
		bad := -1
		if fast {
			for r := range verts {
				rec := b[r*size : (r+1)*size]
				x := binary.LittleEndian.Uint32(rec[offs[0]:])
				y := binary.LittleEndian.Uint32(rec[offs[1]:])
				z := binary.LittleEndian.Uint32(rec[offs[2]:])
				if x&0x7f800000 == 0x7f800000 || y&0x7f800000 == 0x7f800000 || z&0x7f800000 == 0x7f800000 {
					bad = r
					break
				}
				verts[r] = geom.Vec3{
					X: float64(math.Float32frombits(x)),
					Y: float64(math.Float32frombits(y)),
					Z: float64(math.Float32frombits(z)),
				}
			}
		} else {
			for r := range verts {
				rec := b[r*size : (r+1)*size]
				v := geom.Vec3{
					X: floatAt(rec[offs[0]:], typs[0], be),
					Y: floatAt(rec[offs[1]:], typs[1], be),
					Z: floatAt(rec[offs[2]:], typs[2], be),
				}
				if !v.IsFinite() {
					bad = r
					break
				}
				verts[r] = v
			}
		}
		if bad >= 0 {
			rec := b[bad*size:]
			for c := range 3 {
				if !isFinite(floatAt(rec[offs[c]:], typs[c], be)) {
					return offsetError(rd.offset()+int64(bad*size+offs[c]), "vertex %d: non-finite coordinate %c", i+int64(bad), "xyz"[c])
				}
			}
		}
		d.m.Verts = d.m.Verts[:v0+k]
		rd.r += k * size
		i += int64(k)
	}
	return nil
}

// binaryVertices reads vertices that have list properties, a value at a
// time.
func (d *decoder) binaryVertices(e *element) error {
	rd, be := d.rd, d.enc == binaryBE
	for i := int64(0); i < e.count; i++ {
		var c [3]float64
		for j := range e.props {
			p := &e.props[j]
			if p.isList() {
				if err := d.binarySkipList(e, i, p); err != nil {
					return err
				}
				continue
			}
			size := p.typ.size()
			if !rd.fill(size) {
				return d.truncated(e, i)
			}
			for k, x := range d.l.xyz {
				if x == j {
					c[k] = floatAt(rd.avail(), p.typ, be)
					if !isFinite(c[k]) {
						return offsetError(rd.offset(), "vertex %d: non-finite coordinate %c", i, "xyz"[k])
					}
				}
			}
			rd.r += size
		}
		d.growVerts(1)
		d.m.Verts = append(d.m.Verts, geom.Vec3{X: c[0], Y: c[1], Z: c[2]})
	}
	return nil
}

// binarySkipList skips one list value of p in instance i of e.
func (d *decoder) binarySkipList(e *element, i int64, p *property) error {
	rd := d.rd
	off := rd.offset()
	if !rd.fill(p.count.size()) {
		return d.truncated(e, i)
	}
	n := intAt(rd.avail(), p.count, d.enc == binaryBE)
	if n < 0 {
		return offsetError(off, "%s %d: negative list length %d for %s", e.name, i, n, p.name)
	}
	rd.r += p.count.size()
	if !rd.skip(n * int64(p.typ.size())) {
		return d.truncated(e, i)
	}
	return nil
}

// binarySkip skips the instances of an element that Decode does not use.
func (d *decoder) binarySkip(e *element) error {
	rd := d.rd
	if size, ok := fixedSize(e); ok {
		start := rd.offset()
		if !rd.skip(e.count * int64(size)) {
			return d.truncated(e, (rd.end()-start)/int64(size))
		}
		return nil
	}
	for i := int64(0); i < e.count; i++ {
		for j := range e.props {
			p := &e.props[j]
			if p.isList() {
				if err := d.binarySkipList(e, i, p); err != nil {
					return err
				}
			} else if !rd.skip(int64(p.typ.size())) {
				return d.truncated(e, i)
			}
		}
	}
	return nil
}

// polygonCount checks the vertex count n of face i; errorAt makes the error
// at the place of the count.
func (d *decoder) polygonCount(i, n int64, errorAt func(string, ...any) error) error {
	if n < 3 {
		return errorAt("face %d has %d vertices, want at least 3", i, n)
	}
	if n > maxPolygon {
		return errorAt("face %d has %d vertices, more than the limit %d", i, n, maxPolygon)
	}
	if int64(len(d.m.Tris))+n-2 > mesh.MaxTriangles {
		return errorAt("face %d: more than %d triangles", i, mesh.MaxTriangles)
	}
	return nil
}

// fastFaces reads faces whose only property is the index list: the faces
// that fit in the buffer are decoded in place, a buffer full at a time.
func (d *decoder) fastFaces(e *element) error {
	rd, be := d.rd, d.enc == binaryBE
	p := &e.props[0]
	cs, is := p.count.size(), p.typ.size()
	nv := d.l.nverts
	// The common layout: uchar counts, 4-byte little-endian indices.
	plain := !be && cs == 1 && is == 4
	for i := int64(0); i < e.count; {
		b := rd.avail()
		pos := 0
		for i < e.count && len(b)-pos >= cs {
			if plain {
				k := d.plainTriangles(b[pos:], e.count-i)
				pos += 13 * k
				i += int64(k)
				if i == e.count || len(b)-pos < cs {
					break
				}
			}
			// One face of any kind.
			n := intAt(b[pos:], p.count, be)
			if n < 3 || n > maxPolygon || int64(len(d.m.Tris))+n-2 > mesh.MaxTriangles {
				off := rd.offset() + int64(pos)
				return d.polygonCount(i, n, func(f string, a ...any) error { return offsetError(off, f, a...) })
			}
			need := cs + int(n)*is
			if len(b)-pos < need {
				break
			}
			items := b[pos+cs : pos+need]
			if cap(d.m.Tris)-len(d.m.Tris) < int(n)-2 {
				d.growTris(int(n) - 2)
			}
			var fan mesh.Fan
			for j := range int(n) {
				v := intAt(items[j*is:], p.typ, be)
				if v < 0 || v >= nv {
					off := rd.offset() + int64(pos+cs+j*is)
					return offsetError(off, "face %d: vertex index %d out of range [0, %d)", i, v, nv)
				}
				d.m.Tris = fan.Add(d.m.Tris, int32(v))
			}
			pos += need
			i++
		}
		rd.r += pos
		if i < e.count {
			// The next face is not all in the buffer: read it a value at a
			// time, which also refills the buffer.
			if err := d.binaryPolygon(e, i, p); err != nil {
				return err
			}
			i++
		}
	}
	return nil
}

// plainTriangles decodes the leading faces of b, at most limit, as long as
// they are triangles of 4-byte little-endian indices in range with a 1-byte
// count (13 bytes each), and returns how many it decoded. It leaves anything
// else, errors included, to the general code.
func (d *decoder) plainTriangles(b []byte, limit int64) int {
	k := int(min(int64(len(b)/13), limit, int64(mesh.MaxTriangles-len(d.m.Tris))))
	d.growTris(k)
	t0 := len(d.m.Tris)
	tris := d.m.Tris[t0 : t0+k]
	nv := uint32(d.l.nverts) // indices as uint32: a negative int32 is out of range too
	j := 0
	for ; j < k; j++ {
		f := b[13*j : 13*j+13]
		x := binary.LittleEndian.Uint32(f[1:])
		y := binary.LittleEndian.Uint32(f[5:])
		z := binary.LittleEndian.Uint32(f[9:])
		if f[0] != 3 || x >= nv || y >= nv || z >= nv {
			break
		}
		tris[j] = [3]int32{int32(x), int32(y), int32(z)}
	}
	d.m.Tris = d.m.Tris[:t0+j]
	return j
}

// binaryFaces reads faces with other properties than the index list, a
// value at a time.
func (d *decoder) binaryFaces(e *element) error {
	for i := int64(0); i < e.count; i++ {
		for j := range e.props {
			p := &e.props[j]
			var err error
			switch {
			case j == d.l.indices:
				err = d.binaryPolygon(e, i, p)
			case p.isList():
				err = d.binarySkipList(e, i, p)
			case !d.rd.skip(int64(p.typ.size())):
				err = d.truncated(e, i)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// binaryPolygon reads the index list p of face i and appends its fan of
// triangles.
func (d *decoder) binaryPolygon(e *element, i int64, p *property) error {
	rd, be := d.rd, d.enc == binaryBE
	off := rd.offset()
	if !rd.fill(p.count.size()) {
		return d.truncated(e, i)
	}
	n := intAt(rd.avail(), p.count, be)
	if err := d.polygonCount(i, n, func(f string, a ...any) error { return offsetError(off, f, a...) }); err != nil {
		return err
	}
	rd.r += p.count.size()
	var fan mesh.Fan
	is := p.typ.size()
	for j := range int(n) {
		if !rd.fill(is) {
			return d.truncated(e, i)
		}
		v := intAt(rd.avail(), p.typ, be)
		if v < 0 || v >= d.l.nverts {
			return offsetError(rd.offset(), "face %d: vertex index %d out of range [0, %d)", i, v, d.l.nverts)
		}
		rd.r += is
		if j >= 2 && len(d.m.Tris) == cap(d.m.Tris) {
			d.growTris(1) // as the data arrives, not by the count
		}
		d.m.Tris = fan.Add(d.m.Tris, int32(v))
	}
	return nil
}

func lineError(line int, format string, args ...any) error {
	return &mesh.FormatError{Format: "ply", Line: line, Msg: fmt.Sprintf(format, args...)}
}

// word returns the next word of an ASCII body inside instance i of e.
func (d *decoder) word(e *element, i int64) ([]byte, error) {
	w, ok, tooLong := d.rd.word()
	if tooLong {
		return nil, lineError(d.rd.Line, "word longer than %d bytes", maxLine)
	}
	if !ok {
		return nil, d.truncated(e, i)
	}
	return w, nil
}

// maxASCIIInt bounds the magnitude of the integers of an ASCII body:
// larger ones read as maxASCIIInt+1, which is out of range everywhere.
const maxASCIIInt = 1 << 53

// asciiInt reads an integer word (a list count or an index): a decimal
// integer with an optional sign.
func (d *decoder) asciiInt(e *element, i int64, what string) (int64, error) {
	w, err := d.word(e, i)
	if err != nil {
		return 0, err
	}
	n, ok := textscan.ParseInt(w, maxASCIIInt)
	if !ok {
		return 0, lineError(d.rd.Line, "%s %d: bad %s %s", e.name, i, what, quote(w))
	}
	return n, nil
}

// asciiSkipList skips one list value of p in instance i of e.
func (d *decoder) asciiSkipList(e *element, i int64, p *property) error {
	n, err := d.asciiInt(e, i, "list length for "+p.name)
	if err != nil {
		return err
	}
	if n < 0 {
		return lineError(d.rd.Line, "%s %d: negative list length %d for %s", e.name, i, n, p.name)
	}
	for range n {
		if _, err := d.word(e, i); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) asciiVertices(e *element) error {
	for i := int64(0); i < e.count; i++ {
		var c [3]float64
		for j := range e.props {
			p := &e.props[j]
			if p.isList() {
				if err := d.asciiSkipList(e, i, p); err != nil {
					return err
				}
				continue
			}
			w, err := d.word(e, i)
			if err != nil {
				return err
			}
			for k, x := range d.l.xyz {
				if x != j {
					continue
				}
				f, e := textscan.ParseFloat(w)
				switch e {
				case textscan.NumNonFinite:
					return lineError(d.rd.Line, "vertex %d: non-finite coordinate %c %s", i, "xyz"[k], quote(w))
				case textscan.NumRange:
					return lineError(d.rd.Line, "vertex %d: bad coordinate %c %s: beyond the float64 range", i, "xyz"[k], quote(w))
				case textscan.NumMalformed:
					return lineError(d.rd.Line, "vertex %d: bad coordinate %c %s: not a decimal number", i, "xyz"[k], quote(w))
				}
				c[k] = f
			}
		}
		d.growVerts(1)
		d.m.Verts = append(d.m.Verts, geom.Vec3{X: c[0], Y: c[1], Z: c[2]})
	}
	return nil
}

func (d *decoder) asciiFaces(e *element) error {
	for i := int64(0); i < e.count; i++ {
		for j := range e.props {
			p := &e.props[j]
			var err error
			switch {
			case j == d.l.indices:
				err = d.asciiPolygon(e, i)
			case p.isList():
				err = d.asciiSkipList(e, i, p)
			default:
				_, err = d.word(e, i)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// asciiPolygon reads the index list of face i and appends its fan of
// triangles.
func (d *decoder) asciiPolygon(e *element, i int64) error {
	n, err := d.asciiInt(e, i, "vertex count")
	if err != nil {
		return err
	}
	line := d.rd.Line
	if err := d.polygonCount(i, n, func(f string, a ...any) error { return lineError(line, f, a...) }); err != nil {
		return err
	}
	var fan mesh.Fan
	for j := range int(n) {
		v, err := d.asciiInt(e, i, "vertex index")
		if err != nil {
			return err
		}
		if v < 0 || v >= d.l.nverts {
			return lineError(d.rd.Line, "face %d: vertex index %d out of range [0, %d)", i, v, d.l.nverts)
		}
		if j >= 2 && len(d.m.Tris) == cap(d.m.Tris) {
			d.growTris(1) // as the data arrives, not by the count
		}
		d.m.Tris = fan.Add(d.m.Tris, int32(v))
	}
	return nil
}

func (d *decoder) asciiSkip(e *element) error {
	for i := int64(0); i < e.count; i++ {
		for j := range e.props {
			p := &e.props[j]
			if p.isList() {
				if err := d.asciiSkipList(e, i, p); err != nil {
					return err
				}
			} else if _, err := d.word(e, i); err != nil {
				return err
			}
		}
	}
	return nil
}
