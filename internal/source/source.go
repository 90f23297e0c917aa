// Package source reads a model argument as the command line and the C
// library (cmd/libcollide) take it: a mesh file (.obj, .stl, .ply, .off,
// .gltf, .glb), a saved model (collide build), or a generated model
// gen:KIND[:key=value,key=value...]. A file whose name starts with "gen:" can
// be given as ./gen:...
//
// A glTF file holds named meshes: FILE#NAME (scene.glb#Wheel) reads the one
// mesh NAME of FILE, in its own coordinates, as Options.Mesh does. The
// argument is split at its last '#' only when it is not an existing file as
// written, so a file whose name holds a '#' still reads whole.
//
// Errors name the argument (and, for a malformed file, the line or byte
// offset). A problem with a gen: argument itself (unknown kind or
// parameter, bad value) is a *UsageError.
//
// LoadPair and BuildPair load and build the two models of a query, ENV
// and FLY, with the command line's semantics (saved models agree with the
// options given explicitly, meshes are built like a saved model beside
// them, FLY's companion of ENV's volume is built when their volumes do not
// fly together): cmd/collide and the batch jobs (internal/jobs) share
// them, with the same messages.
package source

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/internal/textscan"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// GenPrefix starts a model argument that names a generated model rather
// than a file.
const GenPrefix = "gen:"

// SavedExt is the suggested extension of a saved model. Saved models are
// recognised by their first bytes whatever the extension.
const SavedExt = ".collide"

// SavedFormat is the Format of a saved model's Source.
const SavedFormat = "collide"

// A Source is a loaded model argument: a mesh to build, or a saved model.
type Source struct {
	Arg    string         // the argument, naming the model in messages
	Format string         // "obj", "stl", ..., "gen" or SavedFormat
	Mesh   *mesh.TriMesh  // the mesh (of a saved model too)
	Saved  *collide.Model // the saved model, or nil
}

// UsageError is a problem with the argument itself rather than with a
// file: an unknown generator or parameter, a bad parameter value.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error {
	return &UsageError{fmt.Sprintf(format, args...)}
}

// Options configures Load. The zero value reads files as they are.
type Options struct {
	// Mesh names the one mesh of a glTF file to read, in its own
	// coordinates; "" reads every mesh of its default scene (or the
	// mesh that an argument FILE#NAME names). Other formats refuse a
	// name.
	Mesh string
	// Wrap, if not nil, wraps the reader of a mesh file of size bytes (-1
	// if unknown), for example to report progress; done is called when
	// the file has been read.
	Wrap func(r io.Reader, size int64) (wrapped io.Reader, done func())
}

// Load reads the model named by arg: a mesh file, a saved model, or a
// generated model gen:KIND[:key=value,...]; a glTF file's one mesh as
// FILE#NAME.
func Load(arg string, o Options) (*Source, error) {
	if spec, ok := strings.CutPrefix(arg, GenPrefix); ok {
		kind, kv, _ := strings.Cut(spec, ":")
		var pairs []string
		if kv != "" {
			pairs = strings.Split(kv, ",")
		}
		m, err := Generate(arg, kind, pairs)
		if err != nil {
			return nil, err
		}
		if o.Mesh != "" {
			return nil, usagef("%s: a generated model has no named meshes (mesh %q)", arg, o.Mesh)
		}
		return &Source{Arg: arg, Format: "gen", Mesh: m}, nil
	}
	path, name := SplitMesh(arg)
	if name != "" || path != arg {
		if name == "" {
			return nil, usagef("%s: no mesh name after '#' (FILE#NAME reads the mesh NAME of a glTF file)", arg)
		}
		if o.Mesh != "" && o.Mesh != name {
			return nil, usagef("%s: names mesh %q, and the options name mesh %q", arg, name, o.Mesh)
		}
		o.Mesh = name
	}
	s, err := loadFile(path, o)
	if err != nil {
		return nil, err
	}
	s.Arg = arg
	return s, nil
}

// SplitMesh splits a model argument FILE#NAME into the file and the mesh
// name: at its last '#', when arg is not an existing file as written and
// holds a '#'. Otherwise it returns arg and "".
func SplitMesh(arg string) (path, name string) {
	i := strings.LastIndexByte(arg, '#')
	if i < 0 {
		return arg, ""
	}
	if _, err := os.Stat(arg); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return arg, ""
	}
	return arg[:i], arg[i+1:]
}

// Generate makes the mesh of generator kind with the parameters given as
// key=value strings, the others at their defaults. Errors start with label.
// Those in the parameters (the generator validates the values) are
// *UsageError.
func Generate(label, kind string, pairs []string) (*mesh.TriMesh, error) {
	k, ok := gen.Lookup(kind)
	if !ok {
		return nil, usagef("%s: unknown generator %q (kinds: %s)", label, kind, KindNames())
	}
	params := make(map[string]float64, len(k.Params))
	for _, p := range k.Params {
		params[p.Name] = p.Default
	}
	given := map[string]bool{}
	for _, kv := range pairs {
		key, val, ok := strings.Cut(kv, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			return nil, usagef("%s: parameter %q is not key=value (parameters: %s)", label, kv, ParamNames(k))
		}
		if !slices.ContainsFunc(k.Params, func(p gen.Param) bool { return p.Name == key }) {
			return nil, usagef("%s: unknown parameter %q (parameters: %s)", label, key, ParamNames(k))
		}
		if given[key] {
			return nil, usagef("%s: parameter %q given twice", label, key)
		}
		given[key] = true
		x, e := textscan.ParseFloat([]byte(strings.TrimSpace(val)))
		if e != textscan.NumOK {
			return nil, usagef("%s: parameter %s: %q is not a finite decimal number", label, key, val)
		}
		params[key] = x
	}
	m, err := k.Make(params)
	if err != nil {
		// The generators' errors start "gen: KIND: ".
		msg := strings.TrimPrefix(err.Error(), "gen: "+kind+": ")
		return nil, usagef("%s: %s", label, msg)
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("%s: generated an invalid mesh: %w", label, err)
	}
	return m, nil
}

// KindNames lists the generators' names, separated by commas.
func KindNames() string {
	var names []string
	for _, k := range gen.Kinds() {
		names = append(names, k.Name)
	}
	return strings.Join(names, ", ")
}

// ParamNames lists k's parameters as name=default, separated by commas.
func ParamNames(k gen.Kind) string {
	if len(k.Params) == 0 {
		return "none"
	}
	var names []string
	for _, p := range k.Params {
		names = append(names, fmt.Sprintf("%s=%s", p.Name, strconv.FormatFloat(p.Default, 'g', -1, 64)))
	}
	return strings.Join(names, ", ")
}

// sniffLen is the number of leading bytes that tell a saved model from a
// mesh file.
const sniffLen = 8

// loadFile reads the file at path: a saved model if its first bytes say so
// (or its extension is SavedExt), else a mesh in the format its extension
// names.
func loadFile(path string, o Options) (*Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, sniffLen)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	head = head[:n]
	if collide.IsSavedModel(head) || strings.EqualFold(filepath.Ext(path), SavedExt) {
		if o.Mesh != "" {
			return nil, fmt.Errorf("%s: a saved model has no named meshes (mesh %q; FILE#NAME reads a mesh of a glTF file)", path, o.Mesh)
		}
		return loadSaved(path)
	}
	format, ok := mesh.FormatFor(path)
	if !ok {
		_, err := mesh.LoadReader(path, strings.NewReader("")) // the unknown-format error
		return nil, err
	}
	var r io.Reader = io.MultiReader(bytes.NewReader(head), f)
	if o.Wrap != nil {
		size := int64(-1)
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
		var done func()
		r, done = o.Wrap(r, size)
		if done != nil {
			defer done()
		}
	}
	m, err := mesh.LoadReaderWith(path, r, mesh.ReadOptions{Dir: os.DirFS(filepath.Dir(path)), Mesh: o.Mesh})
	if err != nil {
		return nil, err
	}
	return &Source{Arg: path, Format: format.Name, Mesh: m}, nil
}

// loadSaved loads the saved model at path. Errors name the file (and, for
// bad contents, the byte offset).
func loadSaved(path string) (*Source, error) {
	model, err := collide.LoadModel(path)
	if err != nil {
		var fe *mesh.FormatError
		if errors.As(err, &fe) && fe.File == "" {
			fe.File = path
		}
		if !strings.Contains(err.Error(), path) {
			err = fmt.Errorf("%s: %w", path, err)
		}
		return nil, err
	}
	return &Source{Arg: path, Format: SavedFormat, Mesh: model.Mesh(), Saved: model}, nil
}

// IsModelArg reports whether arg names a model (a mesh file by its
// extension, a gen: model or a saved model's suggested extension) rather
// than another file, such as collide nc's program.
func IsModelArg(arg string) bool {
	if strings.HasPrefix(arg, GenPrefix) || strings.EqualFold(filepath.Ext(arg), SavedExt) {
		return true
	}
	path, _ := SplitMesh(arg)
	_, ok := mesh.FormatFor(path)
	return ok
}
