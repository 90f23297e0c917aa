package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/mesh/obj"
)

// TestGenStdout checks that gen without -o, or with -o -, writes the mesh
// to standard output as OBJ: the bytes gen -o FILE.obj writes, reading back
// as the generated mesh, every vertex exact.
func TestGenStdout(t *testing.T) {
	dir := t.TempDir()
	for _, k := range gen.Kinds() {
		want, err := k.Make(defaults(k))
		if err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		file := filepath.Join(dir, k.Name+".obj")
		if _, stderr, code := runCLI(t, "gen", k.Name, "-o", file); code != exitOK {
			t.Fatalf("gen %s -o %s: exit %d\n%s", k.Name, file, code, stderr)
		}
		fileBytes, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"gen", k.Name}, {"gen", k.Name, "-o", "-"}, {"gen", "--force", k.Name}} {
			stdout, stderr, code := runCLI(t, args...)
			if code != exitOK || stderr != "" {
				t.Errorf("collide %q: exit %d, stderr %q", args, code, stderr)
				continue
			}
			if stdout != string(fileBytes) {
				t.Errorf("collide %q: standard output (%d bytes) differs from gen -o %s (%d bytes)", args, len(stdout), filepath.Base(file), len(fileBytes))
			}
			got, err := obj.Decode(strings.NewReader(stdout))
			if err != nil {
				t.Errorf("collide %q: the output does not parse as OBJ: %v", args, err)
				continue
			}
			if !slices.Equal(got.Verts, want.Verts) || !slices.Equal(got.Tris, want.Tris) {
				t.Errorf("collide %q: read back %d vertices, %d triangles; want the generated %d, %d, the same", args, len(got.Verts), len(got.Tris), len(want.Verts), len(want.Tris))
			}
		}
	}

	// Parameters apply as with -o.
	stdout, stderr, code := runCLI(t, "gen", "icosphere", "tris=80", "radius=2")
	if code != exitOK {
		t.Fatalf("gen icosphere tris=80 radius=2: exit %d\n%s", code, stderr)
	}
	m, err := obj.Decode(strings.NewReader(stdout))
	if err != nil || len(m.Tris) != 80 || m.Bounds().Max.X != 2 {
		t.Errorf("gen icosphere tris=80 radius=2 to standard output: %v, %d triangles, bounds %v", err, len(m.Tris), m.Bounds())
	}

	// Errors print nothing on standard output: a bad kind or parameter
	// is a usage error, as with -o.
	for _, args := range [][]string{{"gen", "nosuchkind"}, {"gen", "icosphere", "nosuchparam=1"}, {"gen", "icosphere", "tris=abc"}, {"gen", "-o", "-"}} {
		stdout, stderr, code := runCLI(t, args...)
		if code != exitUsage || stdout != "" || stderr == "" {
			t.Errorf("collide %q: exit %d, stdout %.40q, stderr %q; want exit 2, nothing on stdout", args, code, stdout, stderr)
		}
	}

	// A failed write to standard output is an error (exit 1) that says so.
	var errb bytes.Buffer
	if code := run([]string{"gen", "icosphere"}, strings.NewReader(""), failingWriter{}, &errb); code != exitError || !strings.Contains(errb.String(), "writing standard output") {
		t.Errorf("gen to a failing standard output: exit %d, stderr %q", code, errb.String())
	}
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }
