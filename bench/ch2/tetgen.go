package ch2

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/collide3d/collide/geom"
)

// TetGenArgs are the switches the mesh method gives TetGen 1.5: a
// piecewise linear complex (-p), numbered from zero (-z), neighbours
// written (-n), quiet (-Q). TetGen may add Steiner points, on the
// obstacles' facets too; the faces it writes carry their facet's marker.
const TetGenArgs = "-pznQ"

// ErrNoTetGen is wrapped by the error of a mesh build when the tetgen
// program is not installed (Debian's package tetgen).
var ErrNoTetGen = errors.New("tetgen not installed")

// RejectedError is the error of a mesh build that TetGen refused, with
// what it said (and, when TetGen's own check finds them, how many pairs of
// obstacle faces intersect).
type RejectedError struct {
	// Status is TetGen's exit status (-1: killed by a signal, as its
	// failed assertions abort).
	Status int
	Output string
}

func (e *RejectedError) Error() string { return "tetgen rejected the obstacles: " + e.Output }

// ParseError is the error of a TetGen output file that does not parse:
// the file, the line and what is wrong.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// maxItems caps every count a TetGen file declares.
const maxItems = 1 << 27

// writePoly writes the environment's obstacle triangles, their vertices
// welded, as a TetGen .poly file: one facet per triangle, marked with its
// index + 1, and the six faces of box, marked len(tris)+1.
func writePoly(w io.Writer, e *Env, box geom.AABB) error {
	bw := bufio.NewWriter(w)
	index := map[geom.Vec3]int32{}
	var verts []geom.Vec3
	id := func(v geom.Vec3) int32 {
		if i, ok := index[v]; ok {
			return i
		}
		index[v] = int32(len(verts))
		verts = append(verts, v)
		return int32(len(verts) - 1)
	}
	tris := make([][3]int32, len(e.Tris))
	for i, t := range e.Tris {
		tris[i] = [3]int32{id(t[0]), id(t[1]), id(t[2])}
	}
	var corners [8]int32
	for i := range corners {
		corners[i] = id(box.Corner(i))
	}
	fmt.Fprintf(bw, "# %s: %d obstacle triangles in a box\n%d 3 0 0\n", e.Name, len(e.Tris), len(verts))
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for i, v := range verts {
		fmt.Fprintf(bw, "%d %s %s %s\n", i, g(v.X), g(v.Y), g(v.Z))
	}
	fmt.Fprintf(bw, "%d 1\n", len(tris)+6)
	for i, t := range tris {
		fmt.Fprintf(bw, "1 0 %d\n3 %d %d %d\n", i+1, t[0], t[1], t[2])
	}
	// geom.AABB.Corner(i): bit 0 of i picks x, bit 1 y, bit 2 z.
	for _, f := range [6][4]int{{0, 1, 3, 2}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 3, 7, 5}} {
		fmt.Fprintf(bw, "1 0 %d\n4 %d %d %d %d\n", len(tris)+1, corners[f[0]], corners[f[1]], corners[f[2]], corners[f[3]])
	}
	bw.WriteString("0\n0\n")
	return bw.Flush()
}

// tetgenOutput is what TetGen wrote: the points (the input's and its
// Steiner points), the tetrahedra with their neighbours (neigh[t][i] is
// across the face opposite corner i, -1 on the hull), and the faces on
// facets with their markers.
type tetgenOutput struct {
	points  []geom.Vec3
	tets    [][4]int32
	neigh   [][4]int32
	faces   [][3]int32
	markers []int32
}

// runTetGen meshes e's obstacles inside box with TetGen in a temporary
// folder and reads what it writes.
func runTetGen(ctx context.Context, e *Env, box geom.AABB) (*tetgenOutput, error) {
	bin, err := exec.LookPath("tetgen")
	if err != nil {
		return nil, fmt.Errorf("%w (apt-get install tetgen): %v", ErrNoTetGen, err)
	}
	dir, err := os.MkdirTemp("", "collide-ch2-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	poly := filepath.Join(dir, "env.poly")
	f, err := os.Create(poly)
	if err != nil {
		return nil, err
	}
	if err := writePoly(f, e, box); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, TetGenArgs, poly)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var x *exec.ExitError
		if !errors.As(err, &x) {
			return nil, fmt.Errorf("tetgen: %w", err)
		}
		msg := strings.TrimSpace(strings.ReplaceAll(out.String(), "Opening "+poly+".", ""))
		// An assertion's message names TetGen's source path: keep what
		// failed.
		if i := strings.Index(msg, "Assertion"); i >= 0 {
			msg = "assertion " + strings.TrimPrefix(msg[i:], "Assertion ")
		}
		if x.ExitCode() < 0 {
			msg = x.ProcessState.String() + ": " + msg
		}
		// TetGen's own check of the input names intersecting facets.
		var chk bytes.Buffer
		dc := exec.CommandContext(ctx, bin, "-dz", poly)
		dc.Stdout, dc.Stderr = &chk, &chk
		if dc.Run() == nil {
			first, found := "", ""
			for _, line := range strings.Split(chk.String(), "\n") {
				line = strings.TrimSpace(strings.TrimLeft(line, "! "))
				switch {
				case strings.HasPrefix(line, "Facet #") && first == "":
					first = strings.TrimSuffix(strings.TrimSuffix(line, ":"), " at triangles")
				case strings.HasPrefix(line, "Found "):
					found = strings.TrimSuffix(line, ".")
				}
			}
			if found != "" {
				msg += "; tetgen -d: " + found
				if first != "" {
					msg += " (" + first + ": facet #k is obstacle triangle k-1)"
				}
			}
		}
		return nil, &RejectedError{Status: x.ExitCode(), Output: msg}
	}
	base := filepath.Join(dir, "env.1")
	o := &tetgenOutput{}
	if o.points, err = readNode(base + ".node"); err != nil {
		return nil, err
	}
	if o.tets, err = readInts(base+".ele", len(o.points), false); err != nil {
		return nil, err
	}
	if o.neigh, err = readInts(base+".neigh", len(o.tets), true); err != nil {
		return nil, err
	}
	if len(o.neigh) != len(o.tets) {
		return nil, &ParseError{base + ".neigh", 1, fmt.Sprintf("%d tetrahedra, the .ele file has %d", len(o.neigh), len(o.tets))}
	}
	if o.faces, o.markers, err = readFaces(base+".face", len(o.points)); err != nil {
		return nil, err
	}
	return o, nil
}

// scanner reads a TetGen file's lines, skipping blank ones and comments,
// and splits them into fields.
type scanner struct {
	file string
	s    *bufio.Scanner
	line int
}

func newScanner(file string, r io.Reader) *scanner {
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 0, 4096), 1<<20)
	return &scanner{file: file, s: s}
}

// next returns the next line's fields, or nil at the end.
func (s *scanner) next() ([]string, error) {
	for s.s.Scan() {
		s.line++
		text := s.s.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		if f := strings.Fields(text); len(f) > 0 {
			return f, nil
		}
	}
	if err := s.s.Err(); err != nil {
		return nil, &ParseError{s.file, s.line + 1, err.Error()}
	}
	return nil, nil
}

func (s *scanner) errorf(format string, args ...any) error {
	return &ParseError{s.file, s.line, fmt.Sprintf(format, args...)}
}

// header reads the first line: the count (capped) and the other numbers.
func (s *scanner) header(min int) (int, []int, error) {
	f, err := s.next()
	if err != nil {
		return 0, nil, err
	}
	if f == nil {
		return 0, nil, s.errorf("empty file")
	}
	if len(f) < min {
		return 0, nil, s.errorf("a header of %d numbers, want at least %d", len(f), min)
	}
	nums := make([]int, len(f))
	for i, x := range f {
		n, err := strconv.Atoi(x)
		if err != nil || n < 0 {
			return 0, nil, s.errorf("header field %d is %q, not a count", i+1, x)
		}
		nums[i] = n
	}
	if nums[0] > maxItems {
		return 0, nil, s.errorf("%d items, more than %d", nums[0], maxItems)
	}
	return nums[0], nums[1:], nil
}

// item reads item i's line: its index (i, numbered from zero) and at
// least want more fields.
func (s *scanner) item(i, want int) ([]string, error) {
	f, err := s.next()
	if err != nil {
		return nil, err
	}
	if f == nil {
		return nil, s.errorf("the file ends before item %d", i)
	}
	if len(f) < want+1 {
		return nil, s.errorf("item %d has %d fields, want %d", i, len(f), want+1)
	}
	if n, err := strconv.Atoi(f[0]); err != nil || n != i {
		return nil, s.errorf("item %q, want %d (numbered from zero: tetgen -z)", f[0], i)
	}
	return f[1:], nil
}

func open(file string) (*os.File, *scanner, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, nil, err
	}
	return f, newScanner(file, f), nil
}

// readNode reads a .node file: the points.
func readNode(file string) ([]geom.Vec3, error) {
	f, s, err := open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseNode(s)
}

func parseNode(s *scanner) ([]geom.Vec3, error) {
	n, rest, err := s.header(2)
	if err != nil {
		return nil, err
	}
	if rest[0] != 3 {
		return nil, s.errorf("points of dimension %d, want 3", rest[0])
	}
	pts := make([]geom.Vec3, n)
	for i := range pts {
		f, err := s.item(i, 3)
		if err != nil {
			return nil, err
		}
		var c [3]float64
		for k := range c {
			x, err := strconv.ParseFloat(f[k], 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, s.errorf("point %d: coordinate %q is not a finite number", i, f[k])
			}
			c[k] = x
		}
		pts[i] = geom.Vec3{X: c[0], Y: c[1], Z: c[2]}
	}
	return pts, nil
}

// readInts reads an .ele or .neigh file: 4 indices per item, each in [0,
// limit), or -1 when hull is true (a neighbour on the hull).
func readInts(file string, limit int, hull bool) ([][4]int32, error) {
	f, s, err := open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseInts(s, limit, hull)
}

func parseInts(s *scanner, limit int, hull bool) ([][4]int32, error) {
	n, rest, err := s.header(2)
	if err != nil {
		return nil, err
	}
	if rest[0] != 4 {
		return nil, s.errorf("%d numbers per tetrahedron, want 4 (linear tetrahedra)", rest[0])
	}
	out := make([][4]int32, n)
	for i := range out {
		f, err := s.item(i, 4)
		if err != nil {
			return nil, err
		}
		for k := range 4 {
			x, err := strconv.Atoi(f[k])
			if err != nil || x >= limit || x < 0 && !(hull && x == -1) {
				return nil, s.errorf("item %d: index %q is not in [0, %d)", i, f[k], limit)
			}
			out[i][k] = int32(x)
		}
	}
	return out, nil
}

// readFaces reads a .face file: the faces on facets and their markers.
func readFaces(file string, points int) ([][3]int32, []int32, error) {
	f, s, err := open(file)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return parseFaces(s, points)
}

func parseFaces(s *scanner, points int) ([][3]int32, []int32, error) {
	n, rest, err := s.header(2)
	if err != nil {
		return nil, nil, err
	}
	if rest[0] != 1 {
		return nil, nil, s.errorf("faces without boundary markers")
	}
	faces, markers := make([][3]int32, n), make([]int32, n)
	for i := range faces {
		f, err := s.item(i, 4)
		if err != nil {
			return nil, nil, err
		}
		for k := range 3 {
			x, err := strconv.Atoi(f[k])
			if err != nil || x < 0 || x >= points {
				return nil, nil, s.errorf("face %d: index %q is not in [0, %d)", i, f[k], points)
			}
			faces[i][k] = int32(x)
		}
		m, err := strconv.Atoi(f[3])
		if err != nil || m < math.MinInt32 || m > math.MaxInt32 {
			return nil, nil, s.errorf("face %d: marker %q is not a number", i, f[3])
		}
		markers[i] = int32(m)
	}
	return faces, markers, nil
}
