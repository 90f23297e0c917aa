package gltf_test

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	qgltf "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gltf"
	"github.com/collide3d/collide/mesh/obj"
)

// The test scene, written with the module qmuntal/gltf (an independent
// writer): a box, and a ribbon of a strip, a fan, lines and indexed
// triangles, placed by nested nodes.
var (
	boxVerts = [][3]float32{
		{-0.5, -0.25, -0.125}, {0.5, -0.25, -0.125}, {0.5, 0.25, -0.125}, {-0.5, 0.25, -0.125},
		{-0.5, -0.25, 0.375}, {0.5, -0.25, 0.375}, {0.5, 0.25, 0.375}, {-0.5, 0.25, 0.1},
	}
	boxIdx = []uint16{
		0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
		1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7,
	}
	stripVerts = [][3]float32{{0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 1, 0.1}, {2, 0, 0.2}, {2, 1, 0.3}}
	fanVerts   = [][3]float32{{0, 0, 1}, {1, 0, 1}, {0.7, 0.7, 1}, {0, 1, 1}, {-0.7, 0.7, 1.1}}
	fanIdx     = []uint8{0, 1, 2, 3, 4}
	lineVerts  = [][3]float32{{5, 5, 5}, {6, 6, 6}}
	triVerts   = [][3]float32{{0.1, 0.2, 0.3}, {1.1, 0.2, 0.3}, {0.1, 1.2, 0.3}, {1.1, 1.2, 0.35}}
	triIdx     = []uint32{0, 1, 2, 2, 1, 3}
)

// quat returns the unit quaternion of the rotation by angle about axis.
func quat(axis [3]float64, angle float64) [4]float64 {
	n := math.Sqrt(axis[0]*axis[0] + axis[1]*axis[1] + axis[2]*axis[2])
	s := math.Sin(angle/2) / n
	return [4]float64{axis[0] * s, axis[1] * s, axis[2] * s, math.Cos(angle / 2)}
}

// The nodes: their transforms (TRS, or a row-major matrix) and meshes.
var (
	parentT = [3]float64{1, -2, 0.5}
	parentR = quat([3]float64{1, 2, 3}, 0.7)
	parentS = [3]float64{2, 0.5, 1.5}
	// childM is row-major here; glTF stores it column-major.
	childM  = [4][4]float64{{0, -1, 0.2, 3}, {1, 0, 0, -1}, {0.1, 0, 1.25, 2}, {0, 0, 0, 1}}
	mirrorS = [3]float64{-1, 1, 1}
	mirrorT = [3]float64{0, 0, 4}
	grandR  = quat([3]float64{0, 0, 1}, math.Pi/2)
)

// sceneDoc builds the test document; bufURI is its buffer's uri ("" for a
// GLB's BIN chunk).
func sceneDoc(bufURI string) *qgltf.Document {
	doc := qgltf.NewDocument()
	box := &qgltf.Mesh{Name: "Box", Primitives: []*qgltf.Primitive{{
		Attributes: qgltf.PrimitiveAttributes{qgltf.POSITION: modeler.WritePosition(doc, boxVerts)},
		Indices:    qgltf.Index(modeler.WriteIndices(doc, boxIdx)),
	}}}
	strip := modeler.WritePosition(doc, stripVerts)
	fan := modeler.WritePosition(doc, fanVerts)
	fanI := modeler.WriteAccessor(doc, qgltf.TargetElementArrayBuffer, fanIdx)
	lines := modeler.WritePosition(doc, lineVerts)
	tris := modeler.WritePosition(doc, triVerts)
	trisI := modeler.WriteIndices(doc, triIdx)
	ribbon := &qgltf.Mesh{Name: "Ribbon", Primitives: []*qgltf.Primitive{
		{Attributes: qgltf.PrimitiveAttributes{qgltf.POSITION: strip}, Mode: qgltf.PrimitiveTriangleStrip},
		{Attributes: qgltf.PrimitiveAttributes{qgltf.POSITION: fan}, Indices: qgltf.Index(fanI), Mode: qgltf.PrimitiveTriangleFan},
		{Attributes: qgltf.PrimitiveAttributes{qgltf.POSITION: lines}, Mode: qgltf.PrimitiveLines},
		{Attributes: qgltf.PrimitiveAttributes{qgltf.POSITION: tris}, Indices: qgltf.Index(trisI)},
	}}
	doc.Meshes = []*qgltf.Mesh{box, ribbon}
	var cm [16]float64
	for r := range 4 {
		for c := range 4 {
			cm[4*c+r] = childM[r][c]
		}
	}
	doc.Nodes = []*qgltf.Node{
		{Name: "Parent", Mesh: qgltf.Index(0), Children: []int{1, 2}, Translation: parentT, Rotation: parentR, Scale: parentS},
		{Name: "Child", Mesh: qgltf.Index(1), Children: []int{3}, Matrix: cm, Rotation: qgltf.DefaultRotation, Scale: qgltf.DefaultScale},
		{Name: "Mirrored", Mesh: qgltf.Index(0), Translation: mirrorT, Rotation: qgltf.DefaultRotation, Scale: mirrorS},
		{Name: "Grandchild", Mesh: qgltf.Index(0), Rotation: grandR, Scale: qgltf.DefaultScale},
		{Name: "Loose", Mesh: qgltf.Index(1), Rotation: qgltf.DefaultRotation, Scale: qgltf.DefaultScale},
		{Name: "Unused", Mesh: qgltf.Index(0), Rotation: qgltf.DefaultRotation, Scale: qgltf.DefaultScale},
	}
	doc.Scenes[0].Nodes = []int{0, 4}
	doc.Buffers[0].URI = bufURI
	return doc
}

// The test's own float64 transforms, written as the specification says
// (the same operations, in the same order, as the decoder's, so that the
// bits agree).
type m4 [4][4]float64

var ident = m4{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}

func (a m4) mul(b m4) m4 {
	var c m4
	for r := range 4 {
		for k := range 4 {
			c[r][k] = float64(a[r][0]*b[0][k]) + float64(a[r][1]*b[1][k]) + float64(a[r][2]*b[2][k]) + float64(a[r][3]*b[3][k])
		}
	}
	return c
}

func (m m4) apply(v geom.Vec3) geom.Vec3 {
	return geom.Vec3{
		X: float64(m[0][0]*v.X) + float64(m[0][1]*v.Y) + float64(m[0][2]*v.Z) + m[0][3],
		Y: float64(m[1][0]*v.X) + float64(m[1][1]*v.Y) + float64(m[1][2]*v.Z) + m[1][3],
		Z: float64(m[2][0]*v.X) + float64(m[2][1]*v.Y) + float64(m[2][2]*v.Z) + m[2][3],
	}
}

func trsM(t [3]float64, q [4]float64, s [3]float64) m4 {
	x, y, z, w := q[0], q[1], q[2], q[3]
	xx, yy, zz := float64(x*x), float64(y*y), float64(z*z)
	xy, xz, yz := float64(x*y), float64(x*z), float64(y*z)
	wx, wy, wz := float64(w*x), float64(w*y), float64(w*z)
	r := [3][3]float64{
		{1 - 2*(yy+zz), 2 * (xy - wz), 2 * (xz + wy)},
		{2 * (xy + wz), 1 - 2*(xx+zz), 2 * (yz - wx)},
		{2 * (xz - wy), 2 * (yz + wx), 1 - 2*(xx+yy)},
	}
	m := ident
	for i := range 3 {
		for j := range 3 {
			m[i][j] = r[i][j] * s[j]
		}
		m[i][3] = t[i]
	}
	return m
}

// expected builds the scene's mesh by hand: the instances in the documented
// order, each primitive's triangles by its mode, mirrored where the
// transform mirrors.
func expected() *mesh.TriMesh {
	parent := trsM(parentT, parentR, parentS)
	child := parent.mul(childM)
	mirrored := parent.mul(trsM(mirrorT, qgltf.DefaultRotation, mirrorS))
	grand := child.mul(trsM([3]float64{}, grandR, qgltf.DefaultScale))
	out := &mesh.TriMesh{}
	add := func(w m4, mirror bool, verts [][3]float32, tris [][3]int) {
		base := int32(len(out.Verts))
		for _, v := range verts {
			p := geom.Vec3{X: float64(v[0]), Y: float64(v[1]), Z: float64(v[2])}
			if w != ident {
				p = w.apply(p)
			}
			out.Verts = append(out.Verts, p)
		}
		for _, t := range tris {
			tri := [3]int32{base + int32(t[0]), base + int32(t[1]), base + int32(t[2])}
			if mirror {
				tri[1], tri[2] = tri[2], tri[1]
			}
			out.Tris = append(out.Tris, tri)
		}
	}
	var box, strip, fan, tri [][3]int
	for i := 0; i < len(boxIdx); i += 3 {
		box = append(box, [3]int{int(boxIdx[i]), int(boxIdx[i+1]), int(boxIdx[i+2])})
	}
	// A strip's triangles alternate their winding; a fan's share vertex 0.
	strip = [][3]int{{0, 1, 2}, {1, 3, 2}, {2, 3, 4}, {3, 5, 4}}
	fan = [][3]int{{0, 1, 2}, {0, 2, 3}, {0, 3, 4}}
	tri = [][3]int{{0, 1, 2}, {2, 1, 3}}
	ribbon := func(w m4, mirror bool) {
		add(w, mirror, stripVerts, strip)
		add(w, mirror, fanVerts, fan)
		add(w, mirror, triVerts, tri)
	}
	// Depth first: Parent (Box), Child (Ribbon), Grandchild (Box),
	// Mirrored (Box), then the second root, Loose (Ribbon).
	add(parent, false, boxVerts, box)
	ribbon(child, false)
	add(grand, false, boxVerts, box)
	add(mirrored, true, boxVerts, box)
	ribbon(ident, false)
	return out
}

// objRoundTrip writes m as OBJ with exact (shortest round-trip) numbers and
// reads it back with mesh/obj.
func objRoundTrip(t *testing.T, m *mesh.TriMesh) *mesh.TriMesh {
	t.Helper()
	var b bytes.Buffer
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, v := range m.Verts {
		b.WriteString("v " + f(v.X) + " " + f(v.Y) + " " + f(v.Z) + "\n")
	}
	for _, tr := range m.Tris {
		b.WriteString("f " + strconv.Itoa(int(tr[0])+1) + " " + strconv.Itoa(int(tr[1])+1) + " " + strconv.Itoa(int(tr[2])+1) + "\n")
	}
	out, err := obj.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameMesh(t *testing.T, what string, got, want *mesh.TriMesh) {
	t.Helper()
	if len(got.Verts) != len(want.Verts) || len(got.Tris) != len(want.Tris) {
		t.Fatalf("%s: %d vertices, %d triangles; want %d, %d", what, len(got.Verts), len(got.Tris), len(want.Verts), len(want.Tris))
	}
	for i := range got.Verts {
		g, w := got.Verts[i], want.Verts[i]
		if math.Float64bits(g.X) != math.Float64bits(w.X) || math.Float64bits(g.Y) != math.Float64bits(w.Y) || math.Float64bits(g.Z) != math.Float64bits(w.Z) {
			t.Fatalf("%s: vertex %d is %v, want %v", what, i, g, w)
		}
	}
	for i := range got.Tris {
		if got.Tris[i] != want.Tris[i] {
			t.Fatalf("%s: triangle %d is %v, want %v", what, i, got.Tris[i], want.Tris[i])
		}
	}
}

// encodeGLTF writes doc as a .gltf (JSON) or, with glb, as a .glb.
func encodeGLTF(t testing.TB, doc *qgltf.Document, glb bool) []byte {
	t.Helper()
	var b bytes.Buffer
	e := qgltf.NewEncoder(&b)
	e.AsBinary = glb
	if err := e.Encode(doc); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestGLTFNestedTransforms reads the scene as .gltf + .bin (through
// mesh.Load), as .glb and as .gltf with an embedded base64 buffer: each
// gives the triangles of the same model written to OBJ with the transforms
// applied, bit for bit and in the same order.
func TestGLTFNestedTransforms(t *testing.T) {
	want := objRoundTrip(t, expected())

	dir := t.TempDir()
	path := filepath.Join(dir, "scene.gltf")
	if err := qgltf.Save(sceneDoc("scene data.bin"), path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "scene data.bin")); err != nil {
		t.Fatalf("the writer wrote no .bin: %v", err)
	}
	ext, err := mesh.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	sameMesh(t, ".gltf + .bin", ext, want)

	glb, err := gltf.Decode(bytes.NewReader(encodeGLTF(t, sceneDoc(""), true)))
	if err != nil {
		t.Fatal(err)
	}
	sameMesh(t, ".glb", glb, want)

	doc := sceneDoc("")
	doc.Buffers[0].EmbeddedResource()
	embedded := encodeGLTF(t, doc, false)
	if !bytes.Contains(embedded, []byte(`"uri":"data:application/octet-stream;base64,`)) {
		t.Fatalf("no embedded buffer in %.200s", embedded)
	}
	emb, err := gltf.Decode(bytes.NewReader(embedded))
	if err != nil {
		t.Fatal(err)
	}
	sameMesh(t, "embedded base64", emb, want)

	// The instances lie where composing the nodes' transforms one by one
	// puts them (an independent computation, to rounding).
	parent := func(v geom.Vec3) geom.Vec3 {
		v = geom.Vec3{X: v.X * parentS[0], Y: v.Y * parentS[1], Z: v.Z * parentS[2]}
		v = rotate(parentR, v)
		return v.Add(geom.Vec3{X: parentT[0], Y: parentT[1], Z: parentT[2]})
	}
	child := func(v geom.Vec3) geom.Vec3 { return parent(m4(childM).apply(v)) }
	grand := func(v geom.Vec3) geom.Vec3 { return child(rotate(grandR, v)) }
	v := boxVerts[6]
	p := geom.Vec3{X: float64(v[0]), Y: float64(v[1]), Z: float64(v[2])}
	for _, c := range []struct {
		name string
		i    int
		want geom.Vec3
	}{
		{"Parent's box", 6, parent(p)},
		{"Grandchild's box", 8 + 15 + 6, grand(p)},
		{"Mirrored box", 8 + 15 + 8 + 6, parent(geom.Vec3{X: -p.X, Y: p.Y, Z: p.Z + 4})},
	} {
		if d := ext.Verts[c.i].Sub(c.want).Norm(); d > 1e-12 {
			t.Errorf("%s: vertex %v, want %v (off by %g)", c.name, ext.Verts[c.i], c.want, d)
		}
	}
	// The mirrored box keeps its outward normals: its first triangle's
	// normal points the way the parent's instance's does, mirrored.
	n := func(m *mesh.TriMesh, i int) geom.Vec3 {
		tr := m.Triangle(i)
		return tr[1].Sub(tr[0]).Cross(tr[2].Sub(tr[0]))
	}
	const boxTris = 12
	first := boxTris + 4 + 3 + 2 + boxTris // the mirrored box's first triangle
	centre := func(m *mesh.TriMesh, from, to int) geom.Vec3 {
		var c geom.Vec3
		for i := from; i < to; i++ {
			c = c.Add(m.Verts[i])
		}
		return c.Scale(1 / float64(to-from))
	}
	vb := 8 + 15 + 8 // the mirrored box's first vertex
	for i := first; i < first+boxTris; i++ {
		tr := ext.Triangle(i)
		if n(ext, i).Dot(tr[0].Sub(centre(ext, vb, vb+8))) <= 0 {
			t.Errorf("mirrored box: triangle %d faces inwards", i)
		}
	}
	for i := range boxTris {
		tr := ext.Triangle(i)
		if n(ext, i).Dot(tr[0].Sub(centre(ext, 0, 8))) <= 0 {
			t.Errorf("parent's box: triangle %d faces inwards", i)
		}
	}
}

// rotate turns v by the unit quaternion q (v' = q v q*).
func rotate(q [4]float64, v geom.Vec3) geom.Vec3 {
	u := geom.Vec3{X: q[0], Y: q[1], Z: q[2]}
	w := q[3]
	t := u.Cross(v).Scale(2)
	return v.Add(t.Scale(w)).Add(u.Cross(t))
}

// TestGLTFNamedMesh reads one mesh by name, untransformed, and names the
// file's meshes when the name is unknown.
func TestGLTFNamedMesh(t *testing.T) {
	data := encodeGLTF(t, sceneDoc(""), true)
	m, err := gltf.DecodeWith(bytes.NewReader(data), gltf.Options{Mesh: "Ribbon"})
	if err != nil {
		t.Fatal(err)
	}
	want := expected()
	// The untransformed ribbon is the scene's last instance (node Loose).
	nb := len(want.Verts) - len(stripVerts) - len(fanVerts) - len(triVerts)
	tail := &mesh.TriMesh{Verts: want.Verts[nb:]}
	for _, tr := range want.Tris[len(want.Tris)-9:] {
		tail.Tris = append(tail.Tris, [3]int32{tr[0] - int32(nb), tr[1] - int32(nb), tr[2] - int32(nb)})
	}
	sameMesh(t, "Ribbon", m, tail)

	_, err = gltf.DecodeWith(bytes.NewReader(data), gltf.Options{Mesh: "Wheel"})
	if got, w := errString(err), `glb: no mesh named "Wheel" (meshes: "Box", "Ribbon")`; got != w {
		t.Errorf("unknown mesh: got %q, want %q", got, w)
	}

	// Through mesh.LoadReaderWith, the way the CLI's FILE#NAME reads.
	m2, err := mesh.LoadReaderWith("x.glb", bytes.NewReader(data), mesh.ReadOptions{Mesh: "Box"})
	if err != nil {
		t.Fatal(err)
	}
	if len(m2.Tris) != 12 || len(m2.Verts) != 8 || m2.Verts[7] != (geom.Vec3{X: -0.5, Y: 0.25, Z: float64(float32(0.1))}) {
		t.Errorf("Box: %d triangles, %d vertices, last %v", len(m2.Tris), len(m2.Verts), m2.Verts[len(m2.Verts)-1])
	}
	_, err = mesh.LoadReaderWith("x.obj", strings.NewReader(""), mesh.ReadOptions{Mesh: "Box"})
	if got, w := errString(err), `x.obj: cannot read the mesh named "Box": obj files have no named meshes (glTF files do)`; got != w {
		t.Errorf("named mesh of an OBJ: got %q, want %q", got, w)
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// TestGLTFNoScene reads a file without scenes: every mesh once, in order,
// untransformed.
func TestGLTFNoScene(t *testing.T) {
	doc := sceneDoc("")
	doc.Scene, doc.Scenes, doc.Nodes = nil, nil, nil
	m, err := gltf.Decode(bytes.NewReader(encodeGLTF(t, doc, true)))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(m.Tris), 12+9; got != want {
		t.Errorf("%d triangles, want %d", got, want)
	}
	if m.Verts[0] != (geom.Vec3{X: -0.5, Y: -0.25, Z: -0.125}) {
		t.Errorf("vertex 0 is %v", m.Verts[0])
	}
}

// A minimal document: one triangle (positions and u16 indices) in an
// embedded buffer, instanced by one node.
func triangleBin() []byte {
	var b bytes.Buffer
	for _, f := range []float32{0, 0, 0, 1, 0, 0, 0, 1, 0} {
		binary.Write(&b, binary.LittleEndian, f)
	}
	binary.Write(&b, binary.LittleEndian, []uint16{0, 1, 2, 0})
	return b.Bytes() // 44 bytes
}

func baseDoc() map[string]any {
	const base = `{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],
	"meshes":[{"name":"T","primitives":[{"attributes":{"POSITION":0},"indices":1}]}],
	"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"},{"bufferView":1,"componentType":5123,"count":3,"type":"SCALAR"}],
	"bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":6}],
	"buffers":[{"byteLength":44}]}`
	var m map[string]any
	if err := json.Unmarshal([]byte(base), &m); err != nil {
		panic(err)
	}
	set(m, "buffers.0.uri", "data:application/octet-stream;base64,"+base64.StdEncoding.EncodeToString(triangleBin()))
	return m
}

// set sets the member at a dotted path (numbers index arrays).
func set(m map[string]any, path string, v any) {
	keys := strings.Split(path, ".")
	var cur any = m
	for i, k := range keys {
		last := i == len(keys)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				if v == nil {
					delete(c, k)
				} else {
					c[k] = v
				}
				return
			}
			cur = c[k]
		case []any:
			j, _ := strconv.Atoi(k)
			if last {
				c[j] = v
				return
			}
			cur = c[j]
		}
	}
}

func marshal(m map[string]any) []byte {
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}

// glbOf wraps a JSON document and a BIN chunk in a GLB container.
func glbOf(js, bin []byte) []byte {
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	var b bytes.Buffer
	total := 12 + 8 + len(js)
	if bin != nil {
		total += 8 + len(bin)
	}
	binary.Write(&b, binary.LittleEndian, []uint32{0x46546C67, 2, uint32(total), uint32(len(js)), 0x4E4F534A})
	b.Write(js)
	if bin != nil {
		binary.Write(&b, binary.LittleEndian, []uint32{uint32(len(bin)), 0x004E4942})
		b.Write(bin)
	}
	return b.Bytes()
}

// TestGLTFModes checks the triangles of strips and fans, indexed and not,
// and that points and lines give none.
func TestGLTFModes(t *testing.T) {
	for _, c := range []struct {
		mode    int
		indices bool
		want    [][3]int32
	}{
		{4, true, [][3]int32{{0, 1, 2}}},
		{4, false, [][3]int32{{0, 1, 2}}},
		{5, false, [][3]int32{{0, 1, 2}}},
		{6, false, [][3]int32{{0, 1, 2}}},
		{0, false, nil},
		{1, false, nil},
		{2, true, nil},
		{3, true, nil},
	} {
		m := baseDoc()
		set(m, "meshes.0.primitives.0.mode", c.mode)
		if !c.indices {
			set(m, "meshes.0.primitives.0.indices", nil)
		}
		got, err := gltf.Decode(bytes.NewReader(marshal(m)))
		if err != nil {
			t.Fatalf("mode %d: %v", c.mode, err)
		}
		if len(got.Tris) != len(c.want) || len(c.want) > 0 && got.Tris[0] != c.want[0] {
			t.Errorf("mode %d, indices %v: %v, want %v", c.mode, c.indices, got.Tris, c.want)
		}
	}
	// Six indices 0 5 1 4 2 3 into six vertices, as a strip and as a fan.
	six := func(mode int) [][3]int32 {
		bin := make([]byte, 6*12+12)
		for i := range 6 {
			binary.LittleEndian.PutUint32(bin[12*i:], math.Float32bits(float32(i)))
		}
		for i, x := range []uint16{0, 5, 1, 4, 2, 3} {
			binary.LittleEndian.PutUint16(bin[72+2*i:], x)
		}
		m := baseDoc()
		set(m, "meshes.0.primitives.0.mode", mode)
		set(m, "accessors.0.count", 6)
		set(m, "accessors.1.count", 6)
		set(m, "bufferViews.0.byteLength", 72)
		set(m, "bufferViews.1.byteOffset", 72)
		set(m, "bufferViews.1.byteLength", 12)
		set(m, "buffers.0.byteLength", len(bin))
		set(m, "buffers.0.uri", nil)
		got, err := gltf.Decode(bytes.NewReader(glbOf(marshal(m), bin)))
		if err != nil {
			t.Fatalf("mode %d: %v", mode, err)
		}
		return got.Tris
	}
	if got, want := six(5), [][3]int32{{0, 5, 1}, {5, 4, 1}, {1, 4, 2}, {4, 3, 2}}; !equalTris(got, want) {
		t.Errorf("strip: %v, want %v", got, want)
	}
	if got, want := six(6), [][3]int32{{0, 5, 1}, {0, 1, 4}, {0, 4, 2}, {0, 2, 3}}; !equalTris(got, want) {
		t.Errorf("fan: %v, want %v", got, want)
	}
}

func equalTris(a, b [][3]int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestGLTFQuantizedSparse reads KHR_mesh_quantization positions (normalized
// shorts, interleaved with a stride) and a sparse accessor.
func TestGLTFQuantizedSparse(t *testing.T) {
	bin := make([]byte, 3*8+8+4+12)
	for i, v := range [][3]int16{{0, 0, 0}, {32767, 0, 0}, {-32768, 16384, 0}} {
		for j := range 3 {
			binary.LittleEndian.PutUint16(bin[8*i+2*j:], uint16(v[j]))
		}
	}
	binary.LittleEndian.PutUint16(bin[24:], 0) // indices 0 1 2
	binary.LittleEndian.PutUint16(bin[26:], 1)
	binary.LittleEndian.PutUint16(bin[28:], 2)
	binary.LittleEndian.PutUint32(bin[32:], 2)  // sparse: element 2 ...
	for j, f := range []float32{0.5, 0.25, 2} { // ... becomes (0.5, 0.25, 2)
		binary.LittleEndian.PutUint32(bin[36+4*j:], math.Float32bits(f))
	}
	m := baseDoc()
	set(m, "buffers.0.uri", nil)
	set(m, "buffers.0.byteLength", len(bin))
	set(m, "bufferViews.0.byteLength", 24)
	set(m, "bufferViews.0.byteStride", 8)
	set(m, "bufferViews.1.byteOffset", 24)
	set(m, "accessors.0.componentType", 5122)
	set(m, "accessors.0.normalized", true)
	quant := marshal(m)
	got, err := gltf.Decode(bytes.NewReader(glbOf(quant, bin)))
	if err != nil {
		t.Fatal(err)
	}
	if want := []geom.Vec3{{}, {X: 1}, {X: -1, Y: 16384.0 / 32767}}; got.Verts[0] != want[0] || got.Verts[1] != want[1] || got.Verts[2] != want[2] {
		t.Errorf("quantized: %v, want %v", got.Verts, want)
	}

	m = baseDoc()
	set(m, "buffers.0.uri", nil)
	set(m, "buffers.0.byteLength", len(bin))
	set(m, "bufferViews.0.byteOffset", 24)
	set(m, "bufferViews.0.byteLength", 24)
	set(m, "bufferViews.1.byteOffset", 24)
	set(m, "accessors.0.bufferView", nil) // zeros ...
	set(m, "accessors.0.sparse", map[string]any{"count": 1,
		"indices": map[string]any{"bufferView": 0, "byteOffset": 8, "componentType": 5125},
		"values":  map[string]any{"bufferView": 0, "byteOffset": 12}})
	got, err = gltf.Decode(bytes.NewReader(glbOf(marshal(m), bin)))
	if err != nil {
		t.Fatal(err)
	}
	if want := []geom.Vec3{{}, {}, {X: 0.5, Y: 0.25, Z: 2}}; got.Verts[0] != want[0] || got.Verts[1] != want[1] || got.Verts[2] != want[2] {
		t.Errorf("sparse: %v, want %v", got.Verts, want)
	}
}

// TestGLTFErrors checks that each kind of bad input gives a FormatError
// naming the place, with the given message.
func TestGLTFErrors(t *testing.T) {
	doc := func(mod func(m map[string]any)) []byte {
		m := baseDoc()
		mod(m)
		return marshal(m)
	}
	glbDoc := func(mod func(m map[string]any), bin []byte) []byte {
		m := baseDoc()
		set(m, "buffers.0.uri", nil)
		mod(m)
		return glbOf(marshal(m), bin)
	}
	at := func(path string, v any) func(m map[string]any) { return func(m map[string]any) { set(m, path, v) } }
	header := func(words ...uint32) []byte {
		var b bytes.Buffer
		binary.Write(&b, binary.LittleEndian, words)
		return b.Bytes()
	}
	bin := triangleBin()
	twoJSON := append(glbOf([]byte(`{"asset":{"version":"2.0"}}`), nil), header(4, 0x4E4F534A, 0)...)
	binary.LittleEndian.PutUint32(twoJSON[8:], uint32(len(twoJSON)))
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"JSON syntax", []byte(`{"asset":{"version":"2.0"},,}`), `offset 27: gltf: JSON: invalid character ',' looking for beginning of object key string`},
		{"JSON type", []byte(`{"asset":{"version":"2.0"},"scene":"x"}`), `offset 38: gltf: JSON: scene: string where an integer belongs`},
		{"JSON type deep", []byte(`{"asset":{"version":"2.0"},"nodes":[{"matrix":[1,"x"]}]}`), `offset 52: gltf: JSON: nodes.matrix: string where a number belongs`},
		{"JSON not an object", []byte(`[1]`), `offset 1: gltf: JSON: the document: array where an object belongs`},
		{"no asset", []byte(`{}`), `gltf: asset: missing (not a glTF 2.0 file)`},
		{"glTF 1", []byte(`{"asset":{"version":"1.0"}}`), `gltf: asset.version: "1.0" is not supported (glTF 2.x only)`},
		{"scene out of range", doc(at("scene", 3)), `gltf: scene: 3 out of range (1 scenes)`},
		{"root out of range", doc(at("scenes.0.nodes", []any{7})), `gltf: scenes[0].nodes[0]: node 7 out of range (1 nodes)`},
		{"child out of range", doc(at("nodes.0.children", []any{-1})), `gltf: nodes[0].children[0]: node -1 out of range (1 nodes)`},
		{"own child", doc(at("nodes.0.children", []any{0})), `gltf: nodes[0].children[0]: a node cannot be its own child`},
		{"two parents", doc(func(m map[string]any) {
			set(m, "nodes", []any{map[string]any{"children": []any{2}}, map[string]any{"children": []any{2}}, map[string]any{"mesh": 0}})
			set(m, "scenes.0.nodes", []any{0, 1})
		}), `gltf: nodes[1].children[0]: node 2 is already a child of node 0 (nodes form trees)`},
		{"cycle", doc(func(m map[string]any) {
			set(m, "nodes", []any{map[string]any{"children": []any{1}}, map[string]any{"children": []any{0}}})
		}), `gltf: scenes[0].nodes[0]: node 0 is a child of node 1, not a root`},
		{"root twice", doc(at("scenes.0.nodes", []any{0, 0})), `gltf: scenes[0].nodes[1]: node 0 listed twice`},
		{"mesh out of range", doc(at("nodes.0.mesh", 2)), `gltf: nodes[0].mesh: 2 out of range (1 meshes)`},
		{"short matrix", doc(at("nodes.0.matrix", []any{1, 0, 0})), `gltf: nodes[0].matrix: 3 numbers, want 16`},
		{"matrix and TRS", doc(func(m map[string]any) {
			set(m, "nodes.0.matrix", []any{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1})
			set(m, "nodes.0.scale", []any{1, 2, 3})
		}), `gltf: nodes[0]: both a matrix and a translation, rotation or scale`},
		{"projective matrix", doc(at("nodes.0.matrix", []any{1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1})), `gltf: nodes[0].matrix: last row [1 0 0 1] is not 0 0 0 1 (not an affine transform)`},
		{"overflowing transform", doc(func(m map[string]any) {
			set(m, "nodes.0.scale", []any{1e308, 1, 1})
			set(m, "nodes.0.translation", []any{1e308, 0, 0})
		}), `gltf: nodes[0]: its transform takes a vertex of meshes[0].primitives[0] to (+Inf, 0, 0), not finite`},
		{"mode out of range", doc(at("meshes.0.primitives.0.mode", 7)), `gltf: meshes[0].primitives[0].mode: 7 is not a primitive mode (0-6)`},
		{"no POSITION", doc(at("meshes.0.primitives.0.attributes", map[string]any{"NORMAL": 0})), `gltf: meshes[0].primitives[0].attributes: no POSITION`},
		{"accessor out of range", doc(at("meshes.0.primitives.0.indices", 9)), `gltf: meshes[0].primitives[0].indices: accessor 9 out of range (2 accessors)`},
		{"POSITION out of range", doc(at("meshes.0.primitives.0.attributes.POSITION", -1)), `gltf: meshes[0].primitives[0].attributes.POSITION: accessor -1 out of range (2 accessors)`},
		{"bad componentType", doc(at("accessors.0.componentType", 5124)), `gltf: accessors[0].componentType: 5124 is not a component type`},
		{"bad type", doc(at("accessors.0.type", "VEC5")), `gltf: accessors[0].type: "VEC5" is not an accessor type`},
		{"POSITION not VEC3", doc(at("accessors.0.type", "VEC2")), `gltf: accessors[0]: POSITION of type VEC2, want VEC3`},
		{"float indices", doc(func(m map[string]any) {
			set(m, "accessors.1.componentType", 5126)
			set(m, "accessors.1.count", 1)
		}), `gltf: accessors[1]: indices of component type 5126, want UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT (5121, 5123, 5125)`},
		{"absurd count", doc(at("accessors.0.count", 1<<40)), `gltf: accessors[0]: 1099511627776 elements of 12 bytes every 12 from byte 0 do not fit in bufferViews[0] (36 bytes)`},
		{"zero count", doc(at("accessors.0.count", 0)), `gltf: accessors[0].count: 0, want at least 1`},
		{"zeros beyond the cap", doc(func(m map[string]any) {
			set(m, "accessors.0.bufferView", nil)
			set(m, "accessors.0.count", 1<<30)
		}), `gltf: accessors[0]: 1073741824 elements without a bufferView (zeros): at most 65536 are read`},
		{"accessor past its view", doc(at("accessors.0.byteOffset", 4)), `gltf: accessors[0]: 3 elements of 12 bytes every 12 from byte 4 do not fit in bufferViews[0] (36 bytes)`},
		{"bad stride", doc(at("bufferViews.0.byteStride", 8)), `gltf: bufferViews[0].byteStride: 8, want 12 to 252 for accessors[0]`},
		{"index out of range", doc(at("accessors.0.count", 2)), `gltf: meshes[0].primitives[0].indices: element 2 is vertex 2, out of range (2 vertices)`},
		{"bufferView out of range", doc(at("accessors.0.bufferView", 5)), `gltf: accessors[0].bufferView: buffer view 5 out of range (2 buffer views)`},
		{"bufferView past its buffer", doc(at("bufferViews.1.byteLength", 1<<50)), `gltf: bufferViews[1]: bytes 36 to 1125899906842660 (byteOffset 36, byteLength 1125899906842624) are not within buffers[0] (44 bytes)`},
		{"buffer out of range", doc(at("bufferViews.0.buffer", 1)), `gltf: bufferViews[0].buffer: buffer 1 out of range (1 buffers)`},
		{"absurd byteLength", doc(at("buffers.0.byteLength", 1<<60)), `gltf: buffers[0]: byteLength 1152921504606846976, but its data has 44 bytes`},
		{"bad base64", doc(at("buffers.0.uri", "data:application/octet-stream;base64,AAA*")), `gltf: buffers[0].uri: bad base64 content: illegal base64 data at input byte 3`},
		{"not base64", doc(at("buffers.0.uri", "data:text/plain,hello")), `gltf: buffers[0].uri: data: URI "data:text/plain" is not base64`},
		{"no uri", doc(at("buffers.0.uri", nil)), `gltf: buffers[0].uri: missing`},
		{"external without a directory", doc(at("buffers.0.uri", "tri.bin")), `gltf: buffers[0].uri: external buffer "tri.bin": no directory to read it from (mesh.Load reads it beside the .gltf file)`},
		{"absolute uri", doc(at("buffers.0.uri", "/etc/passwd")), `gltf: buffers[0].uri: "/etc/passwd": an absolute path (only names relative to the .gltf's directory are read)`},
		{"escaping uri", doc(at("buffers.0.uri", "a/../../x.bin")), `gltf: buffers[0].uri: "a/../../x.bin": climbs out of the .gltf's directory (..)`},
		{"escaping encoded uri", doc(at("buffers.0.uri", "%2E%2E/x.bin")), `gltf: buffers[0].uri: "%2E%2E/x.bin": climbs out of the .gltf's directory (..)`},
		{"uri with a scheme", doc(at("buffers.0.uri", "https://example.com/x.bin")), `gltf: buffers[0].uri: "https://example.com/x.bin": not a relative file name (only names relative to the .gltf's directory and data: URIs are read)`},
		{"draco required", doc(at("extensionsRequired", []any{"KHR_draco_mesh_compression"})), `gltf: extensionsRequired[0]: KHR_draco_mesh_compression is not supported`},
		{"draco primitive", doc(at("meshes.0.primitives.0.extensions", map[string]any{"KHR_draco_mesh_compression": map[string]any{}})), `gltf: meshes[0].primitives[0].extensions: KHR_draco_mesh_compression is not supported`},
		{"meshopt view", doc(at("bufferViews.0.extensions", map[string]any{"EXT_meshopt_compression": map[string]any{}})), `gltf: bufferViews[0].extensions: EXT_meshopt_compression is not supported`},
		{"beyond the limits", doc(func(m map[string]any) {
			// 65,536 instances of a strip of 65,536 vertices (all zeros).
			set(m, "meshes.0.primitives.0.indices", nil)
			set(m, "meshes.0.primitives.0.mode", 5)
			set(m, "accessors.0", map[string]any{"componentType": 5126, "count": 65536, "type": "VEC3"})
			set(m, "accessors.1", map[string]any{"componentType": 5126, "count": 65536, "type": "VEC3"})
			set(m, "nodes.0.extensions", map[string]any{"EXT_mesh_gpu_instancing": map[string]any{"attributes": map[string]any{"TRANSLATION": 1}}})
		}), `gltf: meshes[0].primitives[0]: the scene has more than 268435456 vertices or 268435456 triangles`},
		{"gpu instancing without attributes", doc(at("nodes.0.extensions", map[string]any{"EXT_mesh_gpu_instancing": map[string]any{}})), `gltf: nodes[0].extensions.EXT_mesh_gpu_instancing.attributes: none of TRANSLATION, ROTATION, SCALE`},
		{"gpu instancing counts", doc(func(m map[string]any) {
			instancing(m)
			set(m, "accessors.3.count", 1)
		}), `gltf: nodes[0].extensions.EXT_mesh_gpu_instancing.attributes.SCALE: 1 instances, the other attributes 2`},
		{"gpu instancing type", doc(func(m map[string]any) {
			instancing(m)
			set(m, "accessors.2.type", "VEC4")
			set(m, "accessors.2.count", 1)
		}), `gltf: accessors[2]: type VEC4, want VEC3 for nodes[0].extensions.EXT_mesh_gpu_instancing.attributes.TRANSLATION`},
		{"sparse index out of range", doc(at("accessors.0.sparse", map[string]any{"count": 1,
			"indices": map[string]any{"bufferView": 1, "componentType": 5125},
			"values":  map[string]any{"bufferView": 0}})), `gltf: accessors[0].sparse.indices: element 0 is 65536: sparse indices must increase and stay below the count 3`},
		{"GLB short header", []byte("glTF\x02\x00\x00"), `offset 0: glb: GLB header: 7 bytes, want 12`},
		{"GLB version", header(0x46546C67, 1, 12), `offset 4: glb: GLB version 1 is not supported (2 only)`},
		{"GLB absurd length", header(0x46546C67, 2, 0xFFFFFFF0, 4, 0x4E4F534A), `offset 8: glb: GLB header says 4294967280 bytes, the file has 20`},
		{"GLB absurd chunk", header(0x46546C67, 2, 24, 0xFFFFFFF0, 0x4E4F534A, 0), `offset 12: glb: GLB chunk 0: length 4294967280 runs past the end of the file (4 bytes left)`},
		{"GLB first chunk not JSON", header(0x46546C67, 2, 24, 4, 0x004E4942, 0), `offset 16: glb: GLB chunk 0: type 0x004e4942, want JSON (0x4e4f534a)`},
		{"GLB no BIN chunk", glbDoc(func(map[string]any) {}, nil), `glb: buffers[0]: no uri, and the GLB file has no BIN chunk`},
		{"GLB short BIN chunk", glbDoc(func(map[string]any) {}, bin[:40]), `offset 444: glb: buffers[0]: byteLength 44, but the GLB BIN chunk has 40 bytes`},
		{"GLB second JSON chunk", twoJSON, `offset 52: glb: GLB chunk 1: a JSON chunk out of place (the JSON chunk comes first, then at most one BIN chunk)`},
		{"GLB JSON syntax", glbOf([]byte(`{"asset":1x}`), nil), `offset 30: glb: JSON: invalid character 'x' after object key:value pair`},
	} {
		_, err := gltf.Decode(bytes.NewReader(c.data))
		var fe *mesh.FormatError
		if !errors.As(err, &fe) {
			t.Errorf("%s: got %v (%T), want a *mesh.FormatError", c.name, err, err)
			continue
		}
		if got := err.Error(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// instancing adds to the base document an EXT_mesh_gpu_instancing of two
// instances of its triangle on node 0: translations (0,0,0) and (5,0,0),
// scales (1,1,1) and (-1,1,1), as accessors 2 and 3 in a second buffer.
func instancing(m map[string]any) {
	var b bytes.Buffer
	for _, f := range []float32{0, 0, 0, 5, 0, 0, 1, 1, 1, -1, 1, 1} {
		binary.Write(&b, binary.LittleEndian, f)
	}
	set(m, "buffers", append(m["buffers"].([]any), map[string]any{"byteLength": 48, "uri": "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(b.Bytes())}))
	set(m, "bufferViews", append(m["bufferViews"].([]any), map[string]any{"buffer": 1, "byteLength": 48}))
	set(m, "accessors", append(m["accessors"].([]any),
		map[string]any{"bufferView": 2, "componentType": 5126, "count": 2, "type": "VEC3"},
		map[string]any{"bufferView": 2, "byteOffset": 24, "componentType": 5126, "count": 2, "type": "VEC3"}))
	set(m, "nodes.0.extensions", map[string]any{"EXT_mesh_gpu_instancing": map[string]any{"attributes": map[string]any{"TRANSLATION": 2, "SCALE": 3}}})
}

// TestGLTFGPUInstancing reads a node's mesh once per instance of
// EXT_mesh_gpu_instancing, the second one mirrored.
func TestGLTFGPUInstancing(t *testing.T) {
	m := baseDoc()
	instancing(m)
	set(m, "nodes.0.translation", []any{0, 0, 1})
	got, err := gltf.Decode(bytes.NewReader(marshal(m)))
	if err != nil {
		t.Fatal(err)
	}
	want := &mesh.TriMesh{
		Verts: []geom.Vec3{{Z: 1}, {X: 1, Z: 1}, {Y: 1, Z: 1}, {X: 5, Z: 1}, {X: 4, Z: 1}, {X: 5, Y: 1, Z: 1}},
		Tris:  [][3]int32{{0, 1, 2}, {3, 5, 4}},
	}
	sameMesh(t, "instanced", got, want)
}

// TestGLTFExternalBuffer reads .gltf files whose buffer is a file beside
// them, through mesh.Load, and checks the errors that name the file.
func TestGLTFExternalBuffer(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("sub/tri.bin", triangleBin())
	m := baseDoc()
	set(m, "buffers.0.uri", "sub/tri.bin")
	got, err := mesh.Load(write("ok.gltf", marshal(m)))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Tris) != 1 || got.Verts[1] != (geom.Vec3{X: 1}) {
		t.Errorf("got %v", got)
	}

	set(m, "buffers.0.uri", "missing.bin")
	p := write("missing.gltf", marshal(m))
	_, err = mesh.Load(p)
	if got, want := errString(err), p+`: gltf: buffers[0].uri: file "missing.bin" not found`; got != want {
		t.Errorf("missing .bin:\n got %s\nwant %s", got, want)
	}

	write("short.bin", triangleBin()[:40])
	set(m, "buffers.0.uri", "short.bin")
	p = write("short.gltf", marshal(m))
	_, err = mesh.Load(p)
	if got, want := errString(err), p+`: gltf: buffers[0]: byteLength 44, but the file "short.bin" has 40 bytes`; got != want {
		t.Errorf("short .bin:\n got %s\nwant %s", got, want)
	}

	// An fs.FS other than a directory works too.
	set(m, "buffers.0.uri", "tri.bin")
	got, err = gltf.DecodeWith(bytes.NewReader(marshal(m)), gltf.Options{Dir: fstest.MapFS{"tri.bin": {Data: triangleBin()}}})
	if err != nil || len(got.Tris) != 1 {
		t.Errorf("MapFS: %v, %v", got, err)
	}
}
