package ch2

import (
	"context"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestParseErrors checks that every malformed TetGen file gives a
// ParseError naming the file and the line.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		name, text string
		parse      func(*scanner) error
		line       int
		want       string
	}{
		{"empty node", "# nothing\n", node, 1, "empty file"},
		{"2d node", "2 2 0 0\n0 0 0\n1 1 1\n", node, 1, "dimension 2"},
		{"bad count", "x 3 0 0\n", node, 1, "not a count"},
		{"huge count", "999999999999 3 0 0\n", node, 1, "more than"},
		{"short node", "2 3 0 0\n0 0 0 0\n", node, 2, "ends before item 1"},
		{"nan", "1 3 0 0\n0 0 nan 0\n", node, 2, "not a finite number"},
		{"renumbered", "1 3 0 0\n1 0 0 0\n", node, 2, "numbered from zero"},
		{"few fields", "1 3 0 0\n0 0 0\n", node, 2, "fields"},
		{"ele out of range", "1 4 0\n0 0 1 2 9\n", ele, 2, "not in [0, 4)"},
		{"ele -1", "1 4 0\n0 0 1 2 -1\n", ele, 2, "not in [0, 4)"},
		{"quadratic ele", "1 10 0\n0 0 1 2 3 0 1 2 3 0 1\n", ele, 1, "want 4"},
		{"neigh bad", "1 4\n0 -2 -1 -1 -1\n", neigh, 2, "not in"},
		{"face no markers", "1 0\n0 0 1 2\n", faces, 1, "without boundary markers"},
		{"face marker", "1 1\n0 0 1 2 x\n", faces, 2, "marker"},
		{"face index", "1 1\n0 0 1 7 1\n", faces, 2, "not in [0, 4)"},
	} {
		err := c.parse(newScanner("env.1.x", strings.NewReader(c.text)))
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: %v, want a ParseError", c.name, err)
			continue
		}
		if pe.File != "env.1.x" || pe.Line != c.line || !strings.Contains(pe.Msg, c.want) {
			t.Errorf("%s: %v, want line %d and %q", c.name, err, c.line, c.want)
		}
	}
	// Good files parse, comments and blank lines skipped.
	s := newScanner("ok.node", strings.NewReader("# head\n2 3 0 0\n\n0 0 0 0\n1 1.5 -2 3e-3 # last\n"))
	pts, err := parseNode(s)
	if err != nil || len(pts) != 2 || pts[1].Y != -2 {
		t.Errorf("a good .node: %v, %v", pts, err)
	}
	n, err := parseInts(newScanner("ok.neigh", strings.NewReader("1 4\n0 -1 -1 -1 -1\n")), 1, true)
	if err != nil || n[0] != [4]int32{-1, -1, -1, -1} {
		t.Errorf("a good .neigh: %v, %v", n, err)
	}
}

func node(s *scanner) error { _, err := parseNode(s); return err }

func ele(s *scanner) error { _, err := parseInts(s, 4, false); return err }

func neigh(s *scanner) error { _, err := parseInts(s, 4, true); return err }

func faces(s *scanner) error { _, _, err := parseFaces(s, 4); return err }

// TestMeshChecks checks that the mesh's checks catch a mesh that does not
// conform (an obstacle triangle's face missing) and neighbours without a
// common face.
func TestMeshChecks(t *testing.T) {
	if _, err := exec.LookPath("tetgen"); err != nil {
		t.Skip("tetgen not installed")
	}
	env, err := envOf("tetra", "tetrahedra", TetraEnv(20, 0.6, 5))
	if err != nil {
		t.Fatal(err)
	}
	box := env.Bounds.Expanded(0.25)
	out, err := runTetGen(context.Background(), env, box)
	if err != nil {
		t.Fatal(err)
	}
	mk := func(o *tetgenOutput) (*Mesh, error) {
		m := &Mesh{env: env, box: box, points: o.points, tets: o.tets, neigh: o.neigh}
		return m, m.index(o)
	}
	m, err := mk(out)
	if err != nil || m.Misfit != 0 || m.Faces < len(env.Tris) {
		t.Fatalf("TetGen's mesh: misfit %d, %d faces for %d triangles, %v", m.Misfit, m.Faces, len(env.Tris), err)
	}
	// One obstacle face dropped: its triangle is not covered.
	cut := *out
	for i, mkr := range out.markers {
		if mkr >= 1 && int(mkr) <= len(env.Tris) {
			cut.faces = append(slices.Clone(out.faces[:i]), out.faces[i+1:]...)
			cut.markers = append(slices.Clone(out.markers[:i]), out.markers[i+1:]...)
			break
		}
	}
	if m, err := mk(&cut); err != nil || m.Misfit != 1 {
		t.Errorf("a face dropped: misfit %d, %v", m.Misfit, err)
	}
	// Two neighbours swapped.
	bad := *out
	bad.neigh = slices.Clone(out.neigh)
	for t := range bad.neigh {
		if bad.neigh[t][0] >= 0 && bad.neigh[t][1] >= 0 {
			bad.neigh[t][0], bad.neigh[t][1] = bad.neigh[t][1], bad.neigh[t][0]
			break
		}
	}
	if _, err := mk(&bad); err == nil || !strings.Contains(err.Error(), "without a common face") {
		t.Errorf("neighbours swapped: %v", err)
	}
}
