package off_test

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/off"
)

// FuzzDecode checks that Decode never panics and that what it accepts is a
// valid mesh; that the result does not depend on how the reader splits the
// input; and that an input without CRs gives the same result (the same
// mesh, or the same error on the same line) with its LFs turned into any
// other line end.
func FuzzDecode(f *testing.F) {
	seeds := []string{
		"",
		"OFF\n4 1 0\n" + squareVerts + "3 0 1 2\n",
		"OFF 4 2 0\n" + squareVerts + "4 0 1 2 3 255 0 0\n3 3 2 1\n",
		"4 1\n" + squareVerts + "3 0 1 2\n",
		"# c\nCOFF # h\n\n4 1 0\n0 0 0 1 1 1 1\n1 0 0 1 1 1 1\n1 1 0 1 1 1 1\n0 1 0 1 1 1 1\n3 0 1 2\n",
		"nOFF\n3\n4 1 0\n" + squareVerts + "3 0 1 2\n",
		strings.ReplaceAll("NOFF\n4 1 0\n"+squareVerts+"4 0 1 2 3\n", "\n", "\r\n"),
		"STCNOFF\n3 1 0\n1e308 -1e-308 5e-324\n125e-3 .5 -0\n1 2 3\n3 0 1 2\n",
		"OFF\n3 1 0\n0x1p-3 1_0 0\n0 0 0\n1 1 1\n0x3 0 1 2\n",
		strings.ReplaceAll("OFF\n4 1 0\n"+squareVerts+"4 0 1 2 3\n", "\n", "\r"),
		"OFF\r4 1 0\r\n0 0 0\n1 0 0\r\r\n1 1 0\r0 1 0\r\r3 0 1 2\r",
		"OFF BINARY\n",
		"4OFF\n",
		"OFF\n8 1 0\n" + squareVerts,
		"OFF\n4 1 0\n0 0 nan\n",
		"OFF\n4 1 0\n" + squareVerts + "4 0 1 2\n",
		"OFF\n4 1 0\n" + squareVerts + "3 0 1 9\n",
		"OFF\n268435456 268435456 0\n",
		"OFF\n4 1 0\n" + squareVerts + "99999999 0 1 2\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := off.Decode(bytes.NewReader(data))
		m1, err1 := off.Decode(iotest.OneByteReader(bytes.NewReader(data)))
		if !sameResult(m, err, m1, err1) {
			t.Fatalf("a bytes.Reader gives %v, a one-byte reader %v", err, err1)
		}
		if bytes.IndexByte(data, '\r') < 0 {
			for _, eol := range []string{"\r", "\r\n", "\r\r\n"} {
				m2, err2 := off.Decode(bytes.NewReader(bytes.ReplaceAll(data, []byte("\n"), []byte(eol))))
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
	})
}

// sameResult reports whether two decodings gave the same error, or the same
// mesh (the same vertices bit for bit, and the same triangles).
func sameResult(m *mesh.TriMesh, err error, m1 *mesh.TriMesh, err1 error) bool {
	if err != nil || err1 != nil {
		return fmt.Sprint(err) == fmt.Sprint(err1)
	}
	bits := func(v geom.Vec3) [3]uint64 {
		return [3]uint64{math.Float64bits(v.X), math.Float64bits(v.Y), math.Float64bits(v.Z)}
	}
	return slices.EqualFunc(m.Verts, m1.Verts, func(a, b geom.Vec3) bool { return bits(a) == bits(b) }) &&
		slices.Equal(m.Tris, m1.Tris)
}
