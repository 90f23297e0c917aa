package ply

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"testing"
	"testing/iotest"
)

func FuzzDecode(f *testing.F) {
	for _, enc := range encodings {
		f.Add(pyramid(enc))
		f.Add(plyFile(enc, triHeader, triRows(list("uchar", "int", 0, 1, 2))...))
		f.Add(plyFile(enc, triHeader, triRows(list("uchar", "int", 0, 1))...))
		f.Add(plyFile(enc, "element vertex 1\nproperty float x\nproperty float y\nproperty float z\nproperty list uchar int l\n"+
			"element face 1\nproperty uchar c\nproperty list int uint vertex_index\nelement edge 1\nproperty list char short e\n",
			row(c("float", 1), c("float", math.NaN()), c("float", 0), list("uchar", "int", 1)),
			row(c("uchar", 1), list("int", "uint", 0, 0, 0)), list("char", "short", 5)))
	}
	f.Add([]byte("ply\nformat ascii 1.0\nelement vertex 2000000000\nend_header\n"))
	f.Add([]byte("ply\nformat binary_little_endian 1.0\nelement face 5\nproperty list uchar int vertex_indices\nend_header\n\x03\x00\x00\x00\x00"))
	f.Add([]byte("ply\r\nformat ascii 1.0\r\ncomment c\r\nend_header\r\n"))
	f.Add([]byte{})
	for _, eol := range []string{"\r", "\r\r\n"} {
		f.Add(asciiTri(eol))
		f.Add(asciiTri(eol, "%y", "0x1p3", "%i", "0x1"))
		f.Add(asciiTri(eol, "%n", "1_0", "%v", "1_0"))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(bytes.NewReader(data))
		// The result must not depend on how the reader splits the data.
		m1, err1 := Decode(iotest.OneByteReader(bytes.NewReader(data)))
		if fmt.Sprint(err) != fmt.Sprint(err1) || (err == nil && (len(m.Verts) != len(m1.Verts) || len(m.Tris) != len(m1.Tris))) {
			t.Fatalf("a bytes.Reader gives error %v, a one-byte reader %v", err, err1)
		}
		// ASCII input without CRs gives the same result (the same mesh, or
		// the same error on the same line) with its LFs turned into any
		// other line end.
		if enc, _, herr := readHeader(newReader(bytes.NewReader(data))); (herr != nil || enc == ascii) && bytes.IndexByte(data, '\r') < 0 {
			for _, eol := range []string{"\r", "\r\n", "\r\r\n"} {
				m2, err2 := Decode(bytes.NewReader(bytes.ReplaceAll(data, []byte("\n"), []byte(eol))))
				if fmt.Sprint(err) != fmt.Sprint(err2) || err == nil && (!slices.Equal(m.Verts, m2.Verts) || !slices.Equal(m.Tris, m2.Tris)) {
					t.Fatalf("with LF line ends: %v; with %q: %v", err, eol, err2)
				}
			}
		}
		if err != nil {
			checkIsFormatError(t, err)
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("decoded mesh is invalid: %v", err)
		}
	})
}
