package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	srcpkg "github.com/collide3d/collide/internal/source"

	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// A source is a loaded MODEL argument: a mesh to build, or a saved model
// (internal/source reads them, for the C library too).
type source = srcpkg.Source

// savedFormat is the format name of saved models.
const savedFormat = srcpkg.SavedFormat

// loadSource reads the model named by arg: a mesh file, a saved model, or a
// generated model gen:KIND[:key=value,...]. Problems with a gen: argument
// (unknown kind or parameter, bad value) are usage errors. It shows progress
// on stderr when stderr is a terminal and the file is large.
func loadSource(e *env, arg string) (*source, error) {
	s, err := srcpkg.Load(arg, srcpkg.Options{Wrap: func(r io.Reader, size int64) (io.Reader, func()) {
		if size > progressMin && isTerminal(e.stderr) {
			p := &progressReader{r: r, w: e.stderr, name: arg, total: size}
			return p, p.clear
		}
		return r, nil
	}})
	return s, usageOf(err)
}

// generate makes the mesh of generator kind with the parameters given as
// key=value strings (see srcpkg.Generate); problems with them are usage
// errors.
func generate(label, kind string, pairs []string) (*mesh.TriMesh, error) {
	m, err := srcpkg.Generate(label, kind, pairs)
	return m, usageOf(err)
}

// usageOf returns err as a usage error if it is a problem with a model
// argument itself, else err.
func usageOf(err error) error {
	var ue *srcpkg.UsageError
	if errors.As(err, &ue) {
		return &usageError{ue.Msg}
	}
	return err
}

func kindNames() string { return srcpkg.KindNames() }

func paramNames(k gen.Kind) string { return srcpkg.ParamNames(k) }

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
