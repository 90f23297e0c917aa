package obj_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/obj"
)

// FuzzDecode checks that Decode never panics, that what it accepts is a
// valid mesh, and that Encode writes it back exactly; that the result does
// not depend on how the reader splits the input; and that an input without
// CRs gives the same result (the same mesh, or the same error on the same
// line) with its LFs turned into any other line end.
func FuzzDecode(f *testing.F) {
	seeds := []string{
		"",
		square + "f 1 2 3\n",
		square + "f 1/1 2/2 3/3 4/4\n",
		square + "f 1//1 2//2 3//3\n",
		square + "vt 0 0\nvn 0 0 1\nf 1/1/1 2/1/1 3/1/1 4/1/1\n",
		square + "f -4 -3 -2 -1\n",
		"f 1 2 3\n" + square,
		strings.ReplaceAll(square+"f 1 2 3 4\n", "\n", "\r\n"),
		"# c\no x\ng y\ns 1\nusemtl m\nmtllib m.mtl\nl 1 2\np 1\n" + square + "f 1 2 3 # c\n",
		square + "f 1 2 \\\n 3 4\n",
		"v 1e308 -1e-308 5e-324 1\nv 125e-3 .5 -0\nv 1 2 3 0.5 0.5 0.5\nf 1 2 3\n",
		"v 0x1p-3 1_0 0\nv 0 0 0\nv 1 1 1\nf 1 2 0x3\n",
		strings.ReplaceAll(square+"f 1 2 3 4\n", "\n", "\r"),
		"v 0 0 0\rv 1 0 0\r\nv 1 1 0\r\r\nf 1 2 \\\r3\r\r",
		"v 1 2\n",
		"v nan 0 0\nv inf 0 0\nv 1e400 0 0\n",
		square + "f 1 2\n",
		square + "f 0 1 2\n",
		square + "f 1 2 9\n",
		square + "f -9 1 2\n",
		square + "f 1 2 99999999999999999999\n",
		square + "f a/b c//d\n",
		"v 0 0 0\nv\tv 1 1 1 \\",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := obj.Decode(bytes.NewReader(data))
		m1, err1 := obj.Decode(iotest.OneByteReader(bytes.NewReader(data)))
		if !sameResult(m, err, m1, err1) {
			t.Fatalf("a bytes.Reader gives %v, a one-byte reader %v", err, err1)
		}
		if bytes.IndexByte(data, '\r') < 0 {
			for _, eol := range []string{"\r", "\r\n", "\r\r\n"} {
				m2, err2 := obj.Decode(bytes.NewReader(bytes.ReplaceAll(data, []byte("\n"), []byte(eol))))
				if !sameResult(m, err, m2, err2) {
					t.Fatalf("with LF line ends: %v; with %q: %v", err, eol, err2)
				}
			}
		}
		if err != nil {
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("Decode accepted an invalid mesh: %v", err)
		}
		var buf bytes.Buffer
		if err := obj.Encode(&buf, m); err != nil {
			t.Fatalf("Encode: %v", err)
		}
		m2, err := obj.Decode(&buf)
		if err != nil {
			t.Fatalf("Decode(Encode(m)): %v\n%s", err, buf.Bytes())
		}
		if !sameVerts(m.Verts, m2.Verts) || !sameTris(m.Tris, m2.Tris) {
			t.Fatalf("round trip changed the mesh:\n%v\n%v", m, m2)
		}
	})
}

// sameResult reports whether two decodings gave the same error, or the same
// mesh.
func sameResult(m *mesh.TriMesh, err error, m1 *mesh.TriMesh, err1 error) bool {
	if err != nil || err1 != nil {
		return fmt.Sprint(err) == fmt.Sprint(err1)
	}
	return sameVerts(m.Verts, m1.Verts) && sameTris(m.Tris, m1.Tris)
}
