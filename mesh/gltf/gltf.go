// Package gltf reads the triangles of glTF 2.0 models: .gltf files (JSON,
// with buffers in .bin files beside them or embedded as base64 data: URIs)
// and .glb files (the binary container: a JSON chunk and a BIN chunk).
//
// # Semantics
//
// Decode returns the triangles of every primitive of every mesh instanced
// by the nodes of the default scene: the scene named by the file's "scene",
// else scenes[0]. Each instance is placed by its node's world transform:
// the node's matrix (column-major, as glTF stores it) or its translation,
// rotation (a quaternion x, y, z, w, used as given) and scale composed as
// T·R·S, multiplied parent to child (world = parent · local), all in
// float64 from the file's numbers; a vertex x goes to world · (x, 1). An
// instance whose world transform is the identity keeps its coordinates
// bit for bit. A transform whose 3×3 part has a negative determinant (a
// mirror) reverses each of the instance's triangles (its second and third
// vertices swap), so that a face's outward side stays outward. A file
// without scenes gives every mesh once, in mesh order, untransformed.
//
// Options.Mesh instead reads the one mesh of that name (the first, if
// several share it), in its own coordinates (no node transform); an
// unknown name is an error that lists the names the file has.
//
// Triangle order (the index every collide report uses): nodes depth-first
// in the scene's order, a node's own mesh (once per instance of
// EXT_mesh_gpu_instancing, in order) before its children (in the order of
// its children list); within a mesh, its primitives in order;
// within a primitive, its triangles in index order. Each instanced
// primitive keeps its own vertices: its POSITION elements, in order,
// transformed, appended after those of the primitives before it (a mesh
// instanced twice has its vertices twice). Primitive modes:
//
//   - TRIANGLES (4, the default): elements 3i, 3i+1, 3i+2; an incomplete
//     last triangle is ignored;
//   - TRIANGLE_STRIP (5): triangle i is (i, i+1, i+2) for even i and
//     (i, i+2, i+1) for odd i, the alternating winding of the
//     specification;
//   - TRIANGLE_FAN (6): triangle i is (0, i+1, i+2);
//   - POINTS, LINES, LINE_LOOP, LINE_STRIP (0-3) give no triangles (and
//     no vertices); any other mode is an error.
//
// The elements are those of the primitive's indices accessor (unsigned
// byte, short or int) or, without one, the vertices 0, 1, 2, ... in order.
//
// POSITION is a VEC3 accessor of float32 (widened exactly to float64) or,
// as KHR_mesh_quantization allows, of signed or unsigned bytes or shorts,
// normalized (to [-1, 1] or [0, 1], as the specification divides) or not.
// Interleaved buffer views (byteStride) and sparse accessors are read; an
// accessor without a buffer view is zeros (with its sparse values), at
// most 65,536 elements. Normals, texture coordinates, materials, images
// (never read), cameras, animations, skins and morph targets are ignored:
// a skinned or morphed mesh is read in its bind pose, placed by its node.
//
// # Extensions
//
// EXT_mesh_gpu_instancing is read: a node with it instances its mesh once
// per element of its TRANSLATION, ROTATION and SCALE accessors (any of
// them; float, or normalized integers as KHR_mesh_quantization allows), in
// their order, instance i placed by world · T_i·R_i·S_i (the node's world
// transform after the instance's own). Its children are placed by the
// node's world transform alone, as without the extension.
//
// Compressed geometry (KHR_draco_mesh_compression, EXT_meshopt_compression)
// is refused with an error naming the extension: when the file requires it,
// when a read primitive or buffer view uses it. Other extensions do not
// change the geometry and are ignored. glTF 1.0 files are refused.
//
// # Buffers
//
// A buffer is the GLB file's BIN chunk (buffer 0 without a uri in a .glb),
// a data: URI with base64 content, or a file named by a relative URI
// (percent-encoded, as URIs are), read from Options.Dir (mesh.Load passes
// the .gltf's directory). Absolute paths, URIs with a scheme (http:, file:)
// and relative paths that climb out of the directory (..) are refused, and
// so is any external buffer when no directory is given (Decode). Only the
// buffers that the read accessors use are read, each at most its
// byteLength.
//
// # Errors
//
// Malformed input yields a *mesh.FormatError with Format "gltf" or "glb"
// (by the content: a .glb starts with the bytes "glTF"). Errors in the JSON
// syntax and in the GLB container carry the byte offset; errors in the
// document name the element by its JSON path, such as
// "meshes[2].primitives[0].indices: accessor 9 out of range (3
// accessors)", with no offset. Every index is checked against its array,
// every accessor against its buffer view and buffer, every vertex index
// against the vertex count, before it is used; the output's size is checked
// against mesh.MaxVertices and mesh.MaxTriangles before it is allocated
// (instancing repeats a mesh's data, so the output can outgrow the file
// within those limits), and no other allocation is sized by a number from
// the file beyond the data actually read, but for the at most 65,536 zeros
// of an accessor without a buffer view. A transformed vertex that is not
// finite is an error.
//
// # The module github.com/qmuntal/gltf
//
// The reader is this package's own. The module qmuntal/gltf (pinned in
// go.mod, used by the tests to write models) was read and found unfit for
// hostile input: its decoder allocates a GLB buffer's declared byteLength
// before reading it, its accessor reader allocates the declared count
// first and panics on an out-of-range byteOffset or sparse index, and its
// JSON decoding silently maps an unknown componentType to FLOAT and an
// unknown primitive mode to TRIANGLES, and pads a short matrix with zeros.
package gltf

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"reflect"
	"slices"
	"strings"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

func init() {
	mesh.RegisterFormat(mesh.Format{
		Name:       "gltf",
		Extensions: []string{".gltf", ".glb"},
		Decode:     Decode,
		DecodeWith: func(r io.Reader, o mesh.ReadOptions) (*mesh.TriMesh, error) {
			return DecodeWith(r, Options{Mesh: o.Mesh, Dir: o.Dir})
		},
	})
}

// Options configures DecodeWith. The zero value reads the default scene
// and no external buffer.
type Options struct {
	// Mesh, if not "", names the one mesh to read, in its own
	// coordinates.
	Mesh string
	// Dir holds the files that buffers name by relative URIs (usually
	// os.DirFS of the .gltf's directory); nil refuses external buffers.
	Dir fs.FS
}

// Decode reads a .gltf or .glb model from r (see the package doc for what
// it reads). A .gltf whose buffers are separate files needs DecodeWith and
// a directory; mesh.Load gives it one.
func Decode(r io.Reader) (*mesh.TriMesh, error) {
	return DecodeWith(r, Options{})
}

// DecodeWith reads a .gltf or .glb model from r with options: a mesh name,
// and the directory of external buffers. Errors in the data are of type
// *mesh.FormatError; errors from r are returned as they are.
func DecodeWith(r io.Reader, o Options) (*mesh.TriMesh, error) {
	data, err := readAll(r)
	if err != nil {
		return nil, err
	}
	d := &decoder{o: o, format: "gltf"}
	if err := d.decode(data); err != nil {
		return nil, err
	}
	return &d.out, nil
}

// readAll reads r to its end, into one allocation when r tells its size (a
// *bytes.Reader, a regular *os.File): a hint only, the data read decides.
func readAll(r io.Reader) ([]byte, error) {
	var hint int64
	switch r := r.(type) {
	case interface{ Len() int }:
		hint = int64(r.Len())
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() {
			hint = fi.Size()
		}
	}
	if hint <= 0 || hint > 1<<30 {
		return io.ReadAll(r)
	}
	var b bytes.Buffer
	b.Grow(int(hint) + bytes.MinRead)
	_, err := b.ReadFrom(r)
	return b.Bytes(), err
}

// GLB container constants.
const (
	glbMagic  = 0x46546C67 // "glTF"
	chunkJSON = 0x4E4F534A // "JSON"
	chunkBIN  = 0x004E4942 // "BIN\x00"
	glbHeader = 12
	chunkHead = 8
	maxZeros  = 1 << 16 // elements of an accessor without a buffer view
	maxStride = 252     // the specification's largest byteStride
)

// The JSON document: only what the geometry needs, with pointers where a
// member may be absent and slices where a fixed length must be checked.
type document struct {
	Asset *struct {
		Version string `json:"version"`
	} `json:"asset"`
	ExtensionsRequired []string     `json:"extensionsRequired"`
	Scene              *int         `json:"scene"`
	Scenes             []scene      `json:"scenes"`
	Nodes              []node       `json:"nodes"`
	Meshes             []jsonMesh   `json:"meshes"`
	Accessors          []accessor   `json:"accessors"`
	BufferViews        []bufferView `json:"bufferViews"`
	Buffers            []buffer     `json:"buffers"`
}

type scene struct {
	Nodes []int `json:"nodes"`
}

type node struct {
	Mesh        *int                       `json:"mesh"`
	Children    []int                      `json:"children"`
	Matrix      []float64                  `json:"matrix"`
	Translation []float64                  `json:"translation"`
	Rotation    []float64                  `json:"rotation"`
	Scale       []float64                  `json:"scale"`
	Extensions  map[string]json.RawMessage `json:"extensions"`
}

type jsonMesh struct {
	Name       string      `json:"name"`
	Primitives []primitive `json:"primitives"`
}

type primitive struct {
	Attributes map[string]int             `json:"attributes"`
	Indices    *int                       `json:"indices"`
	Mode       *int                       `json:"mode"`
	Extensions map[string]json.RawMessage `json:"extensions"`
}

type accessor struct {
	BufferView    *int    `json:"bufferView"`
	ByteOffset    int64   `json:"byteOffset"`
	ComponentType int     `json:"componentType"`
	Normalized    bool    `json:"normalized"`
	Count         int64   `json:"count"`
	Type          string  `json:"type"`
	Sparse        *sparse `json:"sparse"`
}

type sparse struct {
	Count   int64 `json:"count"`
	Indices struct {
		BufferView    *int  `json:"bufferView"`
		ByteOffset    int64 `json:"byteOffset"`
		ComponentType int   `json:"componentType"`
	} `json:"indices"`
	Values struct {
		BufferView *int  `json:"bufferView"`
		ByteOffset int64 `json:"byteOffset"`
	} `json:"values"`
}

type bufferView struct {
	Buffer     *int                       `json:"buffer"`
	ByteOffset int64                      `json:"byteOffset"`
	ByteLength int64                      `json:"byteLength"`
	ByteStride int64                      `json:"byteStride"`
	Extensions map[string]json.RawMessage `json:"extensions"`
}

type buffer struct {
	URI        *string `json:"uri"`
	ByteLength int64   `json:"byteLength"`
}

// Component types (the WebGL enums).
const (
	compByte   = 5120
	compUbyte  = 5121
	compShort  = 5122
	compUshort = 5123
	compUint   = 5125
	compFloat  = 5126
)

func compSize(c int) int {
	switch c {
	case compByte, compUbyte:
		return 1
	case compShort, compUshort:
		return 2
	case compUint, compFloat:
		return 4
	}
	return 0
}

var typeComponents = map[string]int{"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}

// unsupported lists the extensions that change the geometry and are not
// read.
var unsupported = []string{"KHR_draco_mesh_compression", "EXT_meshopt_compression"}

// gpuInstancing names the extension that instances a node's mesh many
// times.
const gpuInstancing = "EXT_mesh_gpu_instancing"

type decoder struct {
	o      Options
	format string // "gltf" or "glb"
	doc    document
	bin    []byte // the GLB BIN chunk, or nil
	binOff int64  // its offset in the file

	bufs   [][]byte // loaded buffers (nil: not yet)
	bufOK  []bool
	pos    map[int][]geom.Vec3 // decoded POSITION accessors
	idx    map[int][]uint32    // decoded index accessors
	out    mesh.TriMesh
	nVerts int64
	nTris  int64
}

// errAt is an error at a byte offset of the file.
func (d *decoder) errAt(off int64, format string, args ...any) error {
	return &mesh.FormatError{Format: d.format, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// errf is an error in the document, its message starting with a JSON path.
func (d *decoder) errf(format string, args ...any) error {
	return &mesh.FormatError{Format: d.format, Offset: -1, Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) decode(data []byte) error {
	jsonData, jsonOff := data, int64(0)
	if len(data) >= 4 && binary.LittleEndian.Uint32(data) == glbMagic {
		d.format = "glb"
		var err error
		if jsonData, jsonOff, err = d.container(data); err != nil {
			return err
		}
	}
	if bytes.HasPrefix(jsonData, []byte("\xEF\xBB\xBF")) {
		jsonData, jsonOff = jsonData[3:], jsonOff+3
	}
	if err := json.Unmarshal(jsonData, &d.doc); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return d.errAt(jsonOff+max(se.Offset-1, 0), "JSON: %v", se) // at the bad byte
		case errors.As(err, &te):
			field := te.Field
			if field == "" {
				field = "the document"
			}
			return d.errAt(jsonOff+te.Offset, "JSON: %s: %s where %s belongs", field, te.Value, jsonKind(te.Type))
		}
		return d.errAt(jsonOff, "JSON: %v", err)
	}
	doc := &d.doc
	if doc.Asset == nil {
		return d.errf("asset: missing (not a glTF 2.0 file)")
	}
	if v := doc.Asset.Version; !strings.HasPrefix(v, "2.") {
		return d.errf("asset.version: %q is not supported (glTF 2.x only)", v)
	}
	for i, e := range doc.ExtensionsRequired {
		for _, u := range unsupported {
			if e == u {
				return d.errf("extensionsRequired[%d]: %s is not supported", i, e)
			}
		}
	}
	d.bufs = make([][]byte, len(doc.Buffers))
	d.bufOK = make([]bool, len(doc.Buffers))
	d.pos = map[int][]geom.Vec3{}
	d.idx = map[int][]uint32{}
	insts, err := d.instances()
	if err != nil {
		return err
	}
	// Read and count every instance first (prepare stops beyond the
	// limits), then allocate the output once.
	for i := range insts {
		if err := d.prepare(&insts[i]); err != nil {
			return err
		}
	}
	d.out.Verts = make([]geom.Vec3, 0, d.nVerts)
	d.out.Tris = make([][3]int32, 0, d.nTris)
	for i := range insts {
		if err := d.emit(&insts[i]); err != nil {
			return err
		}
	}
	return nil
}

// container checks a GLB file's header and chunks, keeps its BIN chunk and
// returns its JSON chunk and that chunk's offset.
func (d *decoder) container(data []byte) ([]byte, int64, error) {
	if len(data) < glbHeader {
		return nil, 0, d.errAt(0, "GLB header: %d bytes, want %d", len(data), glbHeader)
	}
	if v := binary.LittleEndian.Uint32(data[4:]); v != 2 {
		return nil, 0, d.errAt(4, "GLB version %d is not supported (2 only)", v)
	}
	total := int64(binary.LittleEndian.Uint32(data[8:]))
	if total > int64(len(data)) {
		return nil, 0, d.errAt(8, "GLB header says %d bytes, the file has %d", total, len(data))
	}
	if total < glbHeader+chunkHead {
		return nil, 0, d.errAt(8, "GLB header says %d bytes, too short for a JSON chunk", total)
	}
	data = data[:total] // bytes after the declared length are ignored
	var jsonData []byte
	var jsonOff int64
	off := int64(glbHeader)
	for n := 0; off < total; n++ {
		if total-off < chunkHead {
			return nil, 0, d.errAt(off, "GLB chunk header: %d bytes left, want %d", total-off, chunkHead)
		}
		length := int64(binary.LittleEndian.Uint32(data[off:]))
		typ := binary.LittleEndian.Uint32(data[off+4:])
		start := off + chunkHead
		if length > total-start {
			return nil, 0, d.errAt(off, "GLB chunk %d: length %d runs past the end of the file (%d bytes left)", n, length, total-start)
		}
		body := data[start : start+length]
		switch {
		case n == 0 && typ != chunkJSON:
			return nil, 0, d.errAt(off+4, "GLB chunk 0: type 0x%08x, want JSON (0x%08x)", typ, chunkJSON)
		case n == 0:
			jsonData, jsonOff = body, start
		case n == 1 && typ == chunkBIN:
			d.bin, d.binOff = body, start
		case typ == chunkJSON || typ == chunkBIN:
			return nil, 0, d.errAt(off+4, "GLB chunk %d: a %s chunk out of place (the JSON chunk comes first, then at most one BIN chunk)", n, chunkName(typ))
		}
		// Chunks of other types are skipped, as the specification says.
		off = start + length
	}
	return jsonData, jsonOff, nil
}

// jsonKind names what a Go type reads from JSON.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		return "an integer"
	case reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "another value"
}

func chunkName(typ uint32) string {
	if typ == chunkJSON {
		return "JSON"
	}
	return "BIN"
}

// An instance is one mesh placed by one world transform.
type instance struct {
	mesh   int
	world  mat4
	ident  bool // world is the identity: coordinates are kept as they are
	mirror bool // world reverses orientation
	node   int  // the node that instances it, or -1
	prims  []prim
}

// A prim is a primitive of an instance, prepared: its vertices, its mode
// and its elements (the indices, or nil for 0, 1, 2, ...), n of them.
type prim struct {
	verts []geom.Vec3
	elems []uint32
	mode  int
	n     int
	ntris int
}

// at returns element i of p.
func (p *prim) at(i int) uint32 {
	if p.elems != nil {
		return p.elems[i]
	}
	return uint32(i)
}

// tri returns triangle i of p by its mode (before any mirroring).
func (p *prim) tri(i int) [3]uint32 {
	switch {
	case p.mode == 4:
		return [3]uint32{p.at(3 * i), p.at(3*i + 1), p.at(3*i + 2)}
	case p.mode == 5 && i%2 == 0:
		return [3]uint32{p.at(i), p.at(i + 1), p.at(i + 2)}
	case p.mode == 5:
		return [3]uint32{p.at(i), p.at(i + 2), p.at(i + 1)}
	}
	return [3]uint32{p.at(0), p.at(i + 1), p.at(i + 2)} // fan
}

// instances lists the meshes to read with their world transforms, in
// triangle order.
func (d *decoder) instances() ([]instance, error) {
	doc := &d.doc
	if d.o.Mesh != "" {
		for i, m := range doc.Meshes {
			if m.Name == d.o.Mesh {
				return []instance{{mesh: i, world: identity, ident: true, node: -1}}, nil
			}
		}
		return nil, d.errf("no mesh named %q (%s)", d.o.Mesh, d.meshNames())
	}
	if doc.Scene == nil && len(doc.Scenes) == 0 {
		insts := make([]instance, len(doc.Meshes))
		for i := range insts {
			insts[i] = instance{mesh: i, world: identity, ident: true, node: -1}
		}
		return insts, nil
	}
	si, path := 0, "scenes[0]"
	if doc.Scene != nil {
		si = *doc.Scene
		if si < 0 || si >= len(doc.Scenes) {
			return nil, d.errf("scene: %d out of range (%d scenes)", si, len(doc.Scenes))
		}
		path = fmt.Sprintf("scenes[%d]", si)
	}
	// The nodes must form disjoint trees: each node has at most one
	// parent, and a scene's roots have none. Then the walk below visits
	// each node at most once.
	parent := make([]int, len(doc.Nodes))
	for i := range parent {
		parent[i] = -1
	}
	for i, n := range doc.Nodes {
		for j, c := range n.Children {
			if c < 0 || c >= len(doc.Nodes) {
				return nil, d.errf("nodes[%d].children[%d]: node %d out of range (%d nodes)", i, j, c, len(doc.Nodes))
			}
			if parent[c] >= 0 {
				return nil, d.errf("nodes[%d].children[%d]: node %d is already a child of node %d (nodes form trees)", i, j, c, parent[c])
			}
			if c == i {
				return nil, d.errf("nodes[%d].children[%d]: a node cannot be its own child", i, j)
			}
			parent[c] = i
		}
	}
	seen := make(map[int]bool)
	var insts []instance
	var walk func(n int, parentWorld mat4) error
	walk = func(n int, parentWorld mat4) error {
		nd := &doc.Nodes[n]
		local, err := d.localTransform(n)
		if err != nil {
			return err
		}
		world := parentWorld.mul(local)
		if nd.Mesh != nil {
			m := *nd.Mesh
			if m < 0 || m >= len(doc.Meshes) {
				return d.errf("nodes[%d].mesh: %d out of range (%d meshes)", n, m, len(doc.Meshes))
			}
			if raw, ok := nd.Extensions[gpuInstancing]; ok {
				locals, err := d.gpuInstances(n, raw)
				if err != nil {
					return err
				}
				for _, l := range locals {
					w := world.mul(l)
					insts = append(insts, instance{mesh: m, world: w, ident: w == identity, mirror: w.det3() < 0, node: n})
				}
			} else {
				insts = append(insts, instance{mesh: m, world: world, ident: world == identity, mirror: world.det3() < 0, node: n})
			}
		}
		for _, c := range nd.Children {
			if err := walk(c, world); err != nil {
				return err
			}
		}
		return nil
	}
	for j, r := range doc.Scenes[si].Nodes {
		if r < 0 || r >= len(doc.Nodes) {
			return nil, d.errf("%s.nodes[%d]: node %d out of range (%d nodes)", path, j, r, len(doc.Nodes))
		}
		if parent[r] >= 0 {
			return nil, d.errf("%s.nodes[%d]: node %d is a child of node %d, not a root", path, j, r, parent[r])
		}
		if seen[r] {
			return nil, d.errf("%s.nodes[%d]: node %d listed twice", path, j, r)
		}
		seen[r] = true
		if err := walk(r, identity); err != nil {
			return nil, err
		}
	}
	return insts, nil
}

func (d *decoder) meshNames() string {
	var names []string
	unnamed := 0
	for _, m := range d.doc.Meshes {
		if m.Name == "" {
			unnamed++
		} else {
			names = append(names, fmt.Sprintf("%q", m.Name))
		}
	}
	if unnamed > 0 {
		names = append(names, fmt.Sprintf("%d unnamed", unnamed))
	}
	if len(names) == 0 {
		return "the file has no meshes"
	}
	return "meshes: " + strings.Join(names, ", ")
}

// gpuInstances reads node n's EXT_mesh_gpu_instancing extension: the T·R·S
// of each instance, from its TRANSLATION, ROTATION and SCALE accessors.
func (d *decoder) gpuInstances(n int, raw json.RawMessage) ([]mat4, error) {
	path := fmt.Sprintf("nodes[%d].extensions.%s", n, gpuInstancing)
	var ext struct {
		Attributes map[string]int `json:"attributes"`
	}
	if err := json.Unmarshal(raw, &ext); err != nil {
		return nil, d.errf("%s: %v", path, err)
	}
	count := -1
	var cols [3][]float64 // translation, rotation, scale
	for k, c := range []struct {
		name string
		n    int
	}{{"TRANSLATION", 3}, {"ROTATION", 4}, {"SCALE", 3}} {
		ai, ok := ext.Attributes[c.name]
		if !ok {
			continue
		}
		v, err := d.vectors(ai, path+".attributes."+c.name, c.n)
		if err != nil {
			return nil, err
		}
		if count >= 0 && len(v)/c.n != count {
			return nil, d.errf("%s.attributes.%s: %d instances, the other attributes %d", path, c.name, len(v)/c.n, count)
		}
		count = len(v) / c.n
		cols[k] = v
	}
	if count < 0 {
		return nil, d.errf("%s.attributes: none of TRANSLATION, ROTATION, SCALE", path)
	}
	locals := make([]mat4, count)
	for i := range locals {
		t, q, s := [3]float64{}, [4]float64{0, 0, 0, 1}, [3]float64{1, 1, 1}
		if cols[0] != nil {
			copy(t[:], cols[0][3*i:])
		}
		if cols[1] != nil {
			copy(q[:], cols[1][4*i:])
		}
		if cols[2] != nil {
			copy(s[:], cols[2][3*i:])
		}
		locals[i] = trs(t, q, s)
	}
	return locals, nil
}

// vectors decodes accessor ai, referred to at path, as n-vectors (VEC3 or
// VEC4), flat.
func (d *decoder) vectors(ai int, path string, n int) ([]float64, error) {
	a, err := d.accessor(ai, path)
	if err != nil {
		return nil, err
	}
	if a.ncomp != n || a.Type == "MAT2" {
		return nil, d.errf("accessors[%d]: type %s, want VEC%d for %s", ai, a.Type, n, path)
	}
	out := make([]float64, int(a.Count)*n)
	read := func(dst []float64, b []byte, stride int) {
		for i := range len(dst) / n {
			for j := range n {
				dst[i*n+j] = component(b[i*stride+j*a.csize:], a.ComponentType, a.Normalized)
			}
		}
	}
	if a.data != nil {
		read(out, a.data, a.stride)
	}
	if a.Sparse != nil {
		vals := make([]float64, len(a.sparseIdx)*n)
		read(vals, a.sparseVals, a.elem)
		for i, j := range a.sparseIdx {
			copy(out[int(j)*n:], vals[i*n:(i+1)*n])
		}
	}
	return out, nil
}

// localTransform returns node n's matrix, or its T·R·S.
func (d *decoder) localTransform(n int) (mat4, error) {
	nd := &d.doc.Nodes[n]
	check := func(name string, v []float64, want int) error {
		if v != nil && len(v) != want {
			return d.errf("nodes[%d].%s: %d numbers, want %d", n, name, len(v), want)
		}
		return nil
	}
	for _, c := range []struct {
		name string
		v    []float64
		n    int
	}{{"matrix", nd.Matrix, 16}, {"translation", nd.Translation, 3}, {"rotation", nd.Rotation, 4}, {"scale", nd.Scale, 3}} {
		if err := check(c.name, c.v, c.n); err != nil {
			return mat4{}, err
		}
	}
	if nd.Matrix != nil {
		if nd.Translation != nil || nd.Rotation != nil || nd.Scale != nil {
			return mat4{}, d.errf("nodes[%d]: both a matrix and a translation, rotation or scale", n)
		}
		var m mat4
		for c := range 4 {
			for r := range 4 {
				m[r][c] = nd.Matrix[4*c+r]
			}
		}
		if m[3] != [4]float64{0, 0, 0, 1} {
			return mat4{}, d.errf("nodes[%d].matrix: last row %v is not 0 0 0 1 (not an affine transform)", n, m[3])
		}
		return m, nil
	}
	t, q, s := [3]float64{}, [4]float64{0, 0, 0, 1}, [3]float64{1, 1, 1}
	copy(t[:], nd.Translation)
	copy(q[:], nd.Rotation)
	copy(s[:], nd.Scale)
	return trs(t, q, s), nil
}

// prepare reads the vertices and triangles of every primitive of inst's
// mesh, and counts them.
func (d *decoder) prepare(inst *instance) error {
	m := &d.doc.Meshes[inst.mesh]
	for p := range m.Primitives {
		pr, err := d.primitive(inst.mesh, p)
		if err != nil {
			return err
		}
		inst.prims = append(inst.prims, pr)
		d.nVerts += int64(len(pr.verts))
		d.nTris += int64(pr.ntris)
		if d.nVerts > mesh.MaxVertices || d.nTris > mesh.MaxTriangles {
			return d.errf("meshes[%d].primitives[%d]: the scene has more than %d vertices or %d triangles", inst.mesh, p, mesh.MaxVertices, mesh.MaxTriangles)
		}
	}
	return nil
}

// emit appends inst's transformed vertices and its triangles to the output.
func (d *decoder) emit(inst *instance) error {
	for p := range inst.prims {
		pr := &inst.prims[p]
		base := int32(len(d.out.Verts))
		if inst.ident {
			d.out.Verts = append(d.out.Verts, pr.verts...)
		} else {
			for _, v := range pr.verts {
				v = inst.world.apply(v)
				if !v.IsFinite() {
					return d.errf("nodes[%d]: its transform takes a vertex of meshes[%d].primitives[%d] to %v, not finite", inst.node, inst.mesh, p, v)
				}
				d.out.Verts = append(d.out.Verts, v)
			}
		}
		a, b := 1, 2 // a mirror swaps each triangle's second and third vertices
		if inst.mirror {
			a, b = 2, 1
		}
		if pr.mode == 4 && pr.elems != nil {
			for e := range slices.Chunk(pr.elems[:3*pr.ntris], 3) {
				d.out.Tris = append(d.out.Tris, [3]int32{base + int32(e[0]), base + int32(e[a]), base + int32(e[b])})
			}
			continue
		}
		for i := range pr.ntris {
			t := pr.tri(i)
			d.out.Tris = append(d.out.Tris, [3]int32{base + int32(t[0]), base + int32(t[a]), base + int32(t[b])})
		}
	}
	return nil
}

// primitive reads primitive p of mesh m: its positions, and its triangles
// by its mode.
func (d *decoder) primitive(m, pi int) (prim, error) {
	path := fmt.Sprintf("meshes[%d].primitives[%d]", m, pi)
	p := &d.doc.Meshes[m].Primitives[pi]
	for _, u := range unsupported {
		if _, ok := p.Extensions[u]; ok {
			return prim{}, d.errf("%s.extensions: %s is not supported", path, u)
		}
	}
	mode := 4
	if p.Mode != nil {
		mode = *p.Mode
	}
	switch {
	case mode >= 0 && mode <= 3:
		return prim{}, nil // points and lines
	case mode > 6 || mode < 0:
		return prim{}, d.errf("%s.mode: %d is not a primitive mode (0-6)", path, mode)
	}
	ai, ok := p.Attributes["POSITION"]
	if !ok {
		return prim{}, d.errf("%s.attributes: no POSITION", path)
	}
	verts, err := d.positions(ai, path+".attributes.POSITION")
	if err != nil {
		return prim{}, err
	}
	pr := prim{verts: verts, mode: mode, n: len(verts)}
	if p.Indices != nil {
		ipath := path + ".indices"
		if pr.elems, err = d.indices(*p.Indices, ipath); err != nil {
			return prim{}, err
		}
		nv := uint32(len(verts))
		for i, e := range pr.elems {
			if e >= nv {
				return prim{}, d.errf("%s: element %d is vertex %d, out of range (%d vertices)", ipath, i, e, nv)
			}
		}
		pr.n = len(pr.elems)
	}
	if mode == 4 {
		pr.ntris = pr.n / 3
	} else {
		pr.ntris = max(pr.n-2, 0)
	}
	return pr, nil
}
