package off_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/collide3d/collide/mesh/off"
)

// FuzzDecode checks that Decode never panics and that what it accepts is a
// valid mesh.
func FuzzDecode(f *testing.F) {
	seeds := []string{
		"",
		"OFF\n4 1 0\n" + squareVerts + "3 0 1 2\n",
		"OFF 4 2 0\n" + squareVerts + "4 0 1 2 3 255 0 0\n3 3 2 1\n",
		"4 1\n" + squareVerts + "3 0 1 2\n",
		"# c\nCOFF # h\n\n4 1 0\n0 0 0 1 1 1 1\n1 0 0 1 1 1 1\n1 1 0 1 1 1 1\n0 1 0 1 1 1 1\n3 0 1 2\n",
		"nOFF\n3\n4 1 0\n" + squareVerts + "3 0 1 2\n",
		strings.ReplaceAll("NOFF\n4 1 0\n"+squareVerts+"4 0 1 2 3\n", "\n", "\r\n"),
		"STCNOFF\n3 1 0\n1e308 -1e-308 5e-324\n0x1p-3 .5 -0\n1 2 3\n3 0 1 2\n",
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
		if err != nil {
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("Decode accepted an invalid mesh: %v", err)
		}
	})
}
