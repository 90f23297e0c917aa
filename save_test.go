package collide_test

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// saved builds a model of m and returns it and its saved bytes.
func saved(t *testing.T, m *mesh.TriMesh, o collide.BuildOptions) (*collide.Model, []byte) {
	t.Helper()
	model, err := collide.Build(m, o)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := model.Save(&buf); err != nil {
		t.Fatalf("Save: %v", err)
	}
	return model, buf.Bytes()
}

func TestSaveRoundTrip(t *testing.T) {
	env := gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 600))
	fly := gen.Must(gen.Icosphere(geom.V(1, 0, 0), 0.35, 300))
	rng := rand.New(rand.NewPCG(21, 22))
	var poses []geom.Pose
	for range 3 {
		axis := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
		poses = append(poses, geom.FromAxisAngle(axis, rng.Float64()*6.3, geom.V(0.1*rng.NormFloat64(), 0.1*rng.NormFloat64(), 0)))
	}
	for _, name := range testBVs() {
		if name == collide.Brute {
			continue
		}
		for _, o := range []collide.BuildOptions{
			{BV: name},
			{BV: name, Float64: true, Rule: collide.MinSum, Split: collide.Median, Leaf: 3, FlyLeaf: 2},
		} {
			e1, data := saved(t, env, o)
			f1, fdata := saved(t, fly, o)
			e2, err := collide.ReadModel(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("%+v: ReadModel: %v", o, err)
			}
			f2, err := collide.ReadModel(bytes.NewReader(fdata))
			if err != nil {
				t.Fatalf("%+v: ReadModel: %v", o, err)
			}
			if e2.BV() != name || e2.Tree().Options() != e1.Tree().Options() {
				t.Errorf("%+v: loaded %s %+v", o, e2.BV(), e2.Tree().Options())
			}
			if !slices.Equal(e2.Mesh().Verts, env.Verts) || !slices.Equal(e2.Mesh().Tris, env.Tris) {
				t.Errorf("%+v: mesh differs", o)
			}
			hits := 0
			for i, p := range poses {
				q := collide.QueryOptions{All: true}
				want := mustCheck(t, e1, f1, p, q)
				hits += len(want.Pairs)
				for _, got := range []collide.Result{mustCheck(t, e2, f2, p, q), mustCheck(t, e2, f1, p, q), mustCheck(t, e1, f2, p, q)} {
					if !slices.Equal(got.Pairs, want.Pairs) {
						t.Errorf("%+v pose %d: %d pairs, want %d", o, i, len(got.Pairs), len(want.Pairs))
					}
				}
			}
			if hits == 0 {
				t.Errorf("%+v: no contacts at any pose; a weak test", o)
			}
		}
	}
}

func TestSaveBrute(t *testing.T) {
	m, err := collide.Build(gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 100)), collide.BuildOptions{BV: collide.Brute})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Save(&buf); err == nil || !strings.Contains(err.Error(), "brute-force models have no hierarchy to save") {
		t.Errorf("Save(brute) = %v", err)
	}
	if buf.Len() != 0 {
		t.Errorf("Save(brute) wrote %d bytes", buf.Len())
	}
}

func TestSaveIsSavedModel(t *testing.T) {
	_, data := saved(t, gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 100)), collide.BuildOptions{})
	for _, c := range []struct {
		head []byte
		want bool
	}{
		{data, true},
		{data[:8], true},
		{[]byte(bvh.Magic), true},
		{data[:7], false},
		{nil, false},
		{[]byte("solid cube\n"), false},
		{[]byte("# OBJ file\nv 0 0 0\n"), false},
		{[]byte("collide\x1a"), false},
	} {
		if got := collide.IsSavedModel(c.head); got != c.want {
			t.Errorf("IsSavedModel(%q) = %v", c.head, got)
		}
	}
}

func TestSaveLoadModel(t *testing.T) {
	m, data := saved(t, gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 300)), collide.BuildOptions{BV: collide.KDOP14, Float64: true})
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.collide", data)
	got, err := collide.LoadModel(good)
	if err != nil {
		t.Fatalf("LoadModel: %v", err)
	}
	if got.BV() != collide.KDOP14 || got.Tree().Nodes() != m.Tree().Nodes() || !got.Tree().Options().Float64 {
		t.Errorf("loaded %s with %d nodes", got.BV(), got.Tree().Nodes())
	}
	if err := got.Tree().Validate(); err != nil {
		t.Error(err)
	}

	corrupt := slices.Clone(data)
	corrupt[len(corrupt)/2] ^= 0x40
	for _, c := range []struct {
		name string
		data []byte
		msg  string
		at   int64
	}{
		{"corrupt.collide", corrupt, "checksum mismatch", int64(len(data) - 4)},
		{"short.collide", data[:len(data)-10], "truncated: file ends at byte", int64(len(data) - 10)},
		{"trailing.collide", append(slices.Clone(data), '\n'), "unexpected data after the checksum", int64(len(data))},
		{"mesh.obj", []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), "bad magic", 0},
		{"empty.collide", nil, "truncated", 0},
	} {
		p := write(c.name, c.data)
		_, err := collide.LoadModel(p)
		var fe *mesh.FormatError
		if !errors.As(err, &fe) {
			t.Errorf("%s: %v is not a *mesh.FormatError", c.name, err)
			continue
		}
		if fe.File != p || fe.Format != bvh.FormatName || !strings.Contains(fe.Msg, c.msg) || fe.Offset != c.at {
			t.Errorf("%s: %+v, want %q at %d", c.name, fe, c.msg, c.at)
		}
		if !strings.HasPrefix(err.Error(), p+": ") {
			t.Errorf("%s: error %q does not name the file", c.name, err)
		}
	}
	if _, err := collide.LoadModel(filepath.Join(dir, "missing.collide")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
