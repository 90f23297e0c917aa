package collide_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/topo"
)

// TestModelTopology checks that a model's topology is computed once (the
// same value from concurrent callers), and equal after Save and ReadModel.
func TestModelTopology(t *testing.T) {
	k, _ := gen.Lookup("torus")
	m, err := k.Generate(map[string]float64{"tris": 400})
	if err != nil {
		t.Fatal(err)
	}
	md, err := collide.Build(m, collide.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	got := make([]any, 4)
	for i := range got {
		wg.Go(func() { got[i] = md.Topology() })
	}
	wg.Wait()
	tp := md.Topology()
	for _, g := range got {
		if g != any(tp) {
			t.Fatal("Topology returned different values")
		}
	}
	if !tp.Closed || !tp.Outward || tp.Convex || tp.Genus != 1 {
		t.Errorf("torus: %+v", tp)
	}
	var buf bytes.Buffer
	if err := md.Save(&buf); err != nil {
		t.Fatal(err)
	}
	r, err := collide.ReadModel(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if rt := r.Topology(); rt.Closed != tp.Closed || rt.Genus != tp.Genus || rt.Edges != tp.Edges || rt.Convex != tp.Convex {
		t.Errorf("read back: %+v", rt)
	}
}

// BenchmarkBuildTopology measures Build and Topology on 10^6 triangles,
// to compare their costs.
func BenchmarkBuildTopology(b *testing.B) {
	k, _ := gen.Lookup("icosphere")
	m, _ := k.Generate(map[string]float64{"tris": 1000000})
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			collide.Build(m, collide.BuildOptions{})
		}
	})
	b.Run("build+topology", func(b *testing.B) {
		for b.Loop() {
			md, _ := collide.Build(m, collide.BuildOptions{})
			md.Topology()
		}
	})
}

// topologyMeshes are meshes of every kind of topology: closed, convex,
// holed, flipped, non-manifold, degenerate with an unused vertex, and a
// soup whose vertices must be welded.
func topologyMeshes(t *testing.T) map[string]*mesh.TriMesh {
	box := func() *mesh.TriMesh { return gen.Must(gen.Box(geom.Box(geom.Vec3{}, geom.V(1, 2, 3)), 1)) }
	hole, flipped, degen, soup := box(), box(), box(), &mesh.TriMesh{}
	hole.Tris = hole.Tris[1:]
	flipped.Tris[5][0], flipped.Tris[5][1] = flipped.Tris[5][1], flipped.Tris[5][0]
	degen.Verts = append(degen.Verts, geom.V(9, 9, 9), degen.Verts[0])
	degen.Tris = append(degen.Tris, [3]int32{0, int32(len(degen.Verts) - 1), 1})
	for _, tr := range box().Tris {
		n := int32(len(soup.Verts))
		for _, v := range tr {
			soup.Verts = append(soup.Verts, box().Verts[v])
		}
		soup.Tris = append(soup.Tris, [3]int32{n, n + 1, n + 2})
	}
	two := &mesh.TriMesh{Verts: []geom.Vec3{{X: 0}, {X: 1}, {Y: 1}, {Z: 1}, {Y: -1}, {Z: -1}},
		Tris: [][3]int32{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}, {0, 1, 4}, {0, 5, 1}, {0, 4, 5}, {1, 5, 4}}}
	return map[string]*mesh.TriMesh{
		"torus": gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 400)), "sphere": gen.Must(gen.Icosphere(geom.V(1e6, -3, 0.5), 2, 300)),
		"hole": hole, "flipped": flipped, "degenerate": degen, "soup": soup, "non-manifold": two,
	}
}

// TestSaveTopology checks that a saved model holds its topology, which
// ReadModel gives back equal field by field to topo.Of, for every kind of
// mesh; that files of the older formats (versions 1 and 2, which do not
// hold it) still load, the topology computed when asked; and that a
// model read from a version 1 file saves in version 1.
func TestSaveTopology(t *testing.T) {
	for name, m := range topologyMeshes(t) {
		md, err := collide.Build(m, collide.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := topo.Of(m)
		var buf bytes.Buffer
		if err := md.Save(&buf); err != nil {
			t.Fatal(err)
		}
		data := buf.Bytes()
		if _, extra, _, err := bvh.ReadExtra(bytes.NewReader(data)); err != nil || len(extra) == 0 {
			t.Fatalf("%s: the saved model holds no topology (%v)", name, err)
		}
		r, err := collide.ReadModel(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := r.Topology(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read back\n%+v\nwant\n%+v", name, got, want)
		}

		// Version 2, as bvh.Tree.WriteTo writes it; then version 1 (the
		// same bytes for a mesh without identical triangles).
		tr, err := bvh.Build(m, bvh.Options{})
		if err != nil {
			t.Fatal(err)
		}
		buf.Reset()
		tr.WriteTo(&buf)
		v2 := buf.Bytes()
		v1 := slices.Clone(v2)
		binary.LittleEndian.PutUint32(v1[8:], 1)
		fixCRC(v1)
		for v, old := range [][]byte{v2, v1} {
			r, err := collide.ReadModel(bytes.NewReader(old))
			if err != nil {
				t.Fatalf("%s: version %d: %v", name, 2-v, err)
			}
			if got := r.Topology(); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: version %d: %+v", name, 2-v, got)
			}
			if v == 1 {
				buf.Reset()
				if err := r.Save(&buf); err != nil {
					t.Fatalf("%s: version 1 saved again: %v", name, err)
				}
				if !bytes.Equal(buf.Bytes(), v1) {
					t.Errorf("%s: version 1 saved again gives other bytes", name)
				}
			}
		}
	}
	// The saved fixtures of bvh (version 2).
	files, _ := filepath.Glob("bvh/testdata/layout1/*.collide")
	if len(files) == 0 {
		t.Fatal("no fixtures in bvh/testdata/layout1")
	}
	for _, f := range files {
		md, err := collide.LoadModel(f)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := md.Topology(), topo.Of(md.Mesh()); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v", f, got)
		}
	}
}

func fixCRC(b []byte) {
	n := len(b) - 4
	binary.LittleEndian.PutUint32(b[n:], crc32.Checksum(b[:n], crc32.MakeTable(crc32.Castagnoli)))
}

// TestSaveTopologyForged alters the topology in a saved model (fixing the
// checksum) and checks that ReadModel and LoadModel reject it at the
// offset of the field in the file: a flag, a weld, the order of the welded
// vertices, the section's length, a truncation.
func TestSaveTopologyForged(t *testing.T) {
	m := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 400))
	md, err := collide.Build(m, collide.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := md.Save(&buf); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	_, extra, at, err := bvh.ReadExtra(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	tp := topo.Of(m)
	weld := len(extra) - 4*(len(m.Verts)+len(tp.Rep)+3*len(m.Tris)+tp.Edges) // the Weld array, in the section
	cases := []struct {
		name string
		edit func(b []byte) []byte
		at   int64
		msg  string
	}{
		{"closed", func(b []byte) []byte { b[at+24] &^= 2; return b }, at + 24, "topology: stored Closed = false, the mesh gives true"},
		{"convex", func(b []byte) []byte { b[at+24] |= 16; return b }, at + 24, "topology: stored Convex = true"},
		{"genus", func(b []byte) []byte { le.PutUint64(b[at+28+8*5:], 2); return b }, at + 28 + 8*5, "topology: stored Genus = 2"},
		{"weld", func(b []byte) []byte { le.PutUint32(b[at+int64(weld)+4*7:], 3); return b }, at + int64(weld) + 4*7, "topology: vertex 7"},
		{"edge order", func(b []byte) []byte {
			o := at + int64(len(extra)) - 8 // the last two edges swapped
			x := le.Uint64(b[o:])
			le.PutUint64(b[o:], x>>32|x<<32)
			return b
		}, at + int64(len(extra)) - 4, "does not come after"},
		{"length", func(b []byte) []byte { le.PutUint64(b[at-8:], 1<<40); return b }, at - 8, "extra section of 1099511627776 bytes, more than the limit"},
		{"short", func(b []byte) []byte { le.PutUint64(b[at-8:], uint64(len(extra)-4)); return b }, -1, "checksum mismatch"},
	}
	for _, c := range cases {
		b := c.edit(slices.Clone(data))
		fixCRC(b)
		_, err := collide.ReadModel(bytes.NewReader(b))
		var fe *mesh.FormatError
		if !errors.As(err, &fe) || fe.Format != bvh.FormatName {
			t.Fatalf("%s: %v, want a *mesh.FormatError", c.name, err)
		}
		if !strings.Contains(fe.Msg, c.msg) || c.at >= 0 && fe.Offset != c.at {
			t.Errorf("%s: %v, want %q at %d", c.name, err, c.msg, c.at)
		}
	}
	// Cut inside the section; and a file named in LoadModel's error.
	for _, n := range []int64{at - 3, at, at + 17, at + int64(len(extra)) - 1} {
		_, err := collide.ReadModel(bytes.NewReader(data[:n]))
		var fe *mesh.FormatError
		if !errors.As(err, &fe) || fe.Offset != n || !strings.HasPrefix(fe.Msg, "truncated") {
			t.Errorf("cut at %d: %v", n, err)
		}
	}
	b := slices.Clone(data)
	b[at+24] ^= 1
	fixCRC(b)
	path := filepath.Join(t.TempDir(), "forged.collide")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := collide.LoadModel(path); err == nil || !strings.Contains(err.Error(), "forged.collide") || !strings.Contains(err.Error(), "stored Manifold") {
		t.Errorf("LoadModel: %v", err)
	}
}

// BenchmarkReadModelTopology measures loading a saved model of 10^6
// triangles, alone and then asking its topology, from a file without the
// topology (format version 2: computed when asked) and with it (version 3:
// checked as read), for a convex mesh (whose convexity the check
// recomputes) and a non-convex one; it reports the file size per triangle.
func BenchmarkReadModelTopology(b *testing.B) {
	for _, kind := range []string{"icosphere", "torus"} {
		k, _ := gen.Lookup(kind)
		m, _ := k.Generate(map[string]float64{"tris": 1000000})
		md, err := collide.Build(m, collide.BuildOptions{})
		if err != nil {
			b.Fatal(err)
		}
		var buf bytes.Buffer
		if err := md.Save(&buf); err != nil {
			b.Fatal(err)
		}
		v3 := slices.Clone(buf.Bytes())
		tr, err := bvh.Read(bytes.NewReader(v3))
		if err != nil {
			b.Fatal(err)
		}
		buf.Reset()
		tr.WriteTo(&buf)
		v2 := buf.Bytes()
		for _, c := range []struct {
			name string
			data []byte
			topo bool
		}{{"v2-load", v2, false}, {"v2-load+topology", v2, true}, {"v3-load+topology", v3, true}} {
			b.Run(kind+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					md, err := collide.ReadModel(bytes.NewReader(c.data))
					if err != nil {
						b.Fatal(err)
					}
					if c.topo {
						md.Topology()
					}
				}
				b.ReportMetric(float64(len(c.data))/float64(len(m.Tris)), "B/tri")
			})
		}
	}
}
