package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
)

type infoOptions struct {
	json bool
}

func infoCommand() *command {
	return &command{
		name:  "info",
		usage: "info [--json] MODEL...",
		help: `
Describes each MODEL (a mesh file or gen:KIND[:key=value,...]): its format,
vertex and triangle counts, bounds, and how many triangles are degenerate
(zero area, decided exactly) or duplicates of an earlier triangle. A MODEL
that cannot be read is reported on stderr and the others are still described
(the exit status is then 1).

With --json each model prints one line:
  {"file":F,"format":F,"vertices":N,"triangles":N,
   "bounds":{"min":[x,y,z],"max":[x,y,z]},"degenerate":N,"duplicate":N}
("bounds" is null for a mesh without triangles).`,
		flags: func(fs *flag.FlagSet) any {
			o := &infoOptions{}
			fs.BoolVar(&o.json, "json", false, "print one JSON object per model, a line each")
			return o
		},
		run: runInfo,
	}
}

type jsonInfo struct {
	File       string      `json:"file"`
	Format     string      `json:"format"`
	Vertices   int         `json:"vertices"`
	Triangles  int         `json:"triangles"`
	Bounds     *jsonBounds `json:"bounds"`
	Degenerate int         `json:"degenerate"`
	Duplicate  int         `json:"duplicate"`
}

type jsonBounds struct {
	Min [3]float64 `json:"min"`
	Max [3]float64 `json:"max"`
}

func runInfo(e *env, opts any, args []string) error {
	o := opts.(*infoOptions)
	if len(args) == 0 {
		return usagef("need at least one MODEL")
	}
	w := bufio.NewWriter(e.stdout)
	failed := 0
	for i, arg := range args {
		m, err := loadModel(e, arg)
		if err != nil {
			var ue *usageError
			if errors.As(err, &ue) {
				w.Flush()
				return err
			}
			w.Flush()
			fmt.Fprintf(e.stderr, "collide info: %v\n", err)
			failed++
			continue
		}
		s := m.Stats()
		if o.json {
			err = writeJSONInfo(w, arg, s)
		} else {
			if i > 0 {
				fmt.Fprintln(w)
			}
			err = writeTextInfo(w, arg, s)
		}
		if err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return fmt.Errorf("writing output: %w", err)
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d models could not be read", failed, len(args))
	}
	return nil
}

func writeJSONInfo(w io.Writer, arg string, s mesh.Stats) error {
	r := jsonInfo{
		File:       arg,
		Format:     modelFormat(arg),
		Vertices:   s.Vertices,
		Triangles:  s.Triangles,
		Degenerate: s.Degenerate,
		Duplicate:  s.Duplicate,
	}
	if !s.Bounds.IsEmpty() {
		r.Bounds = &jsonBounds{vecArray(s.Bounds.Min), vecArray(s.Bounds.Max)}
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func writeTextInfo(w io.Writer, arg string, s mesh.Stats) error {
	bounds := "none (no triangles)"
	if !s.Bounds.IsEmpty() {
		bounds = fmt.Sprintf("min %s  max %s", fmtVec(s.Bounds.Min), fmtVec(s.Bounds.Max))
	}
	_, err := fmt.Fprintf(w, "%s\n  format      %s\n  vertices    %d\n  triangles   %d\n  bounds      %s\n  degenerate  %d\n  duplicate   %d\n",
		arg, modelFormat(arg), s.Vertices, s.Triangles, bounds, s.Degenerate, s.Duplicate)
	return err
}

func vecArray(v geom.Vec3) [3]float64 { return [3]float64{v.X, v.Y, v.Z} }

func fmtVec(v geom.Vec3) string {
	return fmt.Sprintf("(%s, %s, %s)", formatFloat(v.X), formatFloat(v.Y), formatFloat(v.Z))
}
