package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/internal/textscan"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// genPrefix starts a model argument that names a generated model rather than
// a file: gen:KIND[:key=value,key=value...]. (A file whose name starts with
// "gen:" can be given as ./gen:...)
const genPrefix = "gen:"

// A source is a loaded MODEL argument: a mesh to build, or a saved model.
type source struct {
	arg    string         // the argument, naming the model in messages
	format string         // "obj", "stl", ..., "gen" or savedFormat
	mesh   *mesh.TriMesh  // the mesh (of a saved model too)
	saved  *collide.Model // the saved model, or nil
}

// savedFormat is the format name of saved models.
const savedFormat = "collide"

// loadSource reads the model named by arg: a mesh file, a saved model, or a
// generated model gen:KIND[:key=value,...]. Problems with a gen: argument
// (unknown kind or parameter, bad value) are usage errors.
func loadSource(e *env, arg string) (*source, error) {
	if spec, ok := strings.CutPrefix(arg, genPrefix); ok {
		kind, kv, _ := strings.Cut(spec, ":")
		var pairs []string
		if kv != "" {
			pairs = strings.Split(kv, ",")
		}
		m, err := generate(arg, kind, pairs)
		if err != nil {
			return nil, err
		}
		return &source{arg: arg, format: "gen", mesh: m}, nil
	}
	return loadFile(e, arg)
}

// generate makes the mesh of generator kind with the parameters given as
// key=value strings, the others at their defaults. Errors start with label.
// Those in the parameters (the generator validates the values) are usage
// errors.
func generate(label, kind string, pairs []string) (*mesh.TriMesh, error) {
	k, ok := gen.Lookup(kind)
	if !ok {
		return nil, usagef("%s: unknown generator %q (kinds: %s)", label, kind, kindNames())
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
			return nil, usagef("%s: parameter %q is not key=value (parameters: %s)", label, kv, paramNames(k))
		}
		if !slices.ContainsFunc(k.Params, func(p gen.Param) bool { return p.Name == key }) {
			return nil, usagef("%s: unknown parameter %q (parameters: %s)", label, key, paramNames(k))
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

func kindNames() string {
	var names []string
	for _, k := range gen.Kinds() {
		names = append(names, k.Name)
	}
	return strings.Join(names, ", ")
}

func paramNames(k gen.Kind) string {
	if len(k.Params) == 0 {
		return "none"
	}
	var names []string
	for _, p := range k.Params {
		names = append(names, fmt.Sprintf("%s=%s", p.Name, formatFloat(p.Default)))
	}
	return strings.Join(names, ", ")
}

// listKinds prints every generator with its parameters and their defaults.
func listKinds(w io.Writer) {
	fmt.Fprintf(w, "generators (collide gen KIND [key=value ...] -o FILE, or model gen:KIND[:key=value,...]):\n")
	for _, k := range gen.Kinds() {
		fmt.Fprintf(w, "\n  %s\n", k.Name)
		if k.Doc != "" {
			fmt.Fprintf(w, "      %s\n", oneLine(k.Doc))
		}
		for _, p := range k.Params {
			fmt.Fprintf(w, "      %-12s default %-8s %s\n", p.Name, formatFloat(p.Default), oneLine(p.Doc))
		}
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func formatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// Progress reporting for large files on a terminal.
var (
	// progressMin is the file size above which loading shows progress.
	progressMin int64 = 8 << 20
	// progressEvery is the shortest time between two progress updates.
	progressEvery = 100 * time.Millisecond
	// isTerminal reports whether w is a terminal (a variable for tests).
	isTerminal = func(w io.Writer) bool {
		f, ok := w.(*os.File)
		if !ok {
			return false
		}
		fi, err := f.Stat()
		return err == nil && fi.Mode()&os.ModeCharDevice != 0
	}
)

// sniffLen is the number of leading bytes that tell a saved model from a
// mesh file.
const sniffLen = 8

// loadFile reads the file at path: a saved model if its first bytes say so
// (or its extension is savedExt), else a mesh in the format its extension
// names. It shows progress on stderr when stderr is a terminal and the file
// is large. Errors name the file (and the line or byte offset).
func loadFile(e *env, path string) (*source, error) {
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
	if collide.IsSavedModel(head) || strings.EqualFold(filepath.Ext(path), savedExt) {
		return loadSaved(path)
	}
	format, ok := mesh.FormatFor(path)
	if !ok {
		_, err := mesh.LoadReader(path, strings.NewReader("")) // the unknown-format error
		return nil, err
	}
	var r io.Reader = io.MultiReader(bytes.NewReader(head), f)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > progressMin && isTerminal(e.stderr) {
		p := &progressReader{r: r, w: e.stderr, name: path, total: fi.Size()}
		defer p.clear()
		r = p
	}
	m, err := mesh.LoadReader(path, r)
	if err != nil {
		return nil, err
	}
	return &source{arg: path, format: format.Name, mesh: m}, nil
}

// loadSaved loads the saved model at path. Errors name the file (and, for
// bad contents, the byte offset).
func loadSaved(path string) (*source, error) {
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
	return &source{arg: path, format: savedFormat, mesh: model.Mesh(), saved: model}, nil
}

// progressReader counts the bytes read through it and keeps a progress line
// up to date on w, at most once per progressEvery.
type progressReader struct {
	r     io.Reader
	w     io.Writer
	name  string
	total int64
	n     int64
	last  time.Time
	width int // length of the line on screen
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.n += int64(n)
	if now := time.Now(); now.Sub(p.last) >= progressEvery {
		p.last = now
		pct := 100 * p.n / max(p.total, 1)
		line := fmt.Sprintf("loading %s: %d%% (%d MB)", p.name, min(pct, 100), p.n>>20)
		pad := max(p.width-len(line), 0)
		fmt.Fprintf(p.w, "\r%s%s", line, strings.Repeat(" ", pad))
		p.width = len(line)
	}
	return n, err
}

// clear erases the progress line, if one was printed.
func (p *progressReader) clear() {
	if p.width > 0 {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.width))
		p.width = 0
	}
}
