package testgeom

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

// WriteOBJ writes m to the file path as a Wavefront OBJ ("v x y z" lines,
// then "f i j k" lines with 1-based indices). Coordinates are written with
// the shortest decimal that parses back to the same float64, so the file
// replays a failure exactly.
func WriteOBJ(path string, m *mesh.TriMesh) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	w := bufio.NewWriter(f)
	var buf []byte
	for _, v := range m.Verts {
		buf = append(buf[:0], 'v')
		for _, x := range [3]float64{v.X, v.Y, v.Z} {
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, x, 'g', -1, 64)
		}
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	for _, t := range m.Tris {
		if _, err := fmt.Fprintf(w, "f %d %d %d\n", t[0]+1, t[1]+1, t[2]+1); err != nil {
			return err
		}
	}
	return w.Flush()
}

// FormatTriangle returns t as a Go expression of type geom.Triangle with
// exact hexadecimal float literals, for pasting a failing case into a test,
// e.g. geom.Triangle{{X: 0x1p+00, Y: 0x0p+00, Z: -0x1.8p+01}, ...}.
// Negative zero is written as math.Copysign(0, -1), infinities and NaN as
// math.Inf and math.NaN calls.
func FormatTriangle(t geom.Triangle) string {
	var sb strings.Builder
	sb.WriteString("geom.Triangle{")
	for i, v := range t {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "{X: %s, Y: %s, Z: %s}", hexFloat(v.X), hexFloat(v.Y), hexFloat(v.Z))
	}
	sb.WriteString("}")
	return sb.String()
}

func hexFloat(x float64) string {
	switch {
	case math.IsNaN(x):
		return "math.NaN()"
	case math.IsInf(x, 1):
		return "math.Inf(1)"
	case math.IsInf(x, -1):
		return "math.Inf(-1)"
	case x == 0 && math.Signbit(x):
		return "math.Copysign(0, -1)"
	}
	return fmt.Sprintf("%x", x)
}
