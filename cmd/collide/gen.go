package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/obj"
	"github.com/collide3d/collide/mesh/stl"
)

type genOptions struct {
	out   string
	force bool
}

// encoders maps an output extension to the encoder gen writes it with.
var encoders = map[string]func(io.Writer, *mesh.TriMesh) error{
	".obj": obj.Encode,
	".stl": stl.Encode, // binary STL
}

func genCommand() *command {
	return &command{
		name:  "gen",
		usage: "gen KIND [key=value ...] [-o FILE]",
		help: `
Writes the mesh of generator KIND, with the given parameters (the others at
their defaults), to FILE: .obj (Wavefront OBJ, coordinates written exactly) or
.stl (binary STL, float32). An existing FILE is kept unless --force is given;
the mesh is written to a temporary file beside FILE and renamed into place, so
a failed write leaves nothing behind. Without -o (or with -o -) the mesh is
written to standard output as OBJ, as in
  collide gen icosphere tris=2000 > ball.obj

'collide gen' alone lists the generators and their parameters.`,
		flags: func(fs *flag.FlagSet) any {
			o := &genOptions{}
			fs.StringVar(&o.out, "o", "", "output `FILE` (.obj or .stl; - or none: OBJ on standard output)")
			fs.BoolVar(&o.force, "force", false, "overwrite FILE if it exists")
			return o
		},
		run: runGen,
	}
}

func runGen(e *env, opts any, args []string) error {
	o := opts.(*genOptions)
	if len(args) == 0 {
		if o.out != "" {
			return usagef("missing KIND (run 'collide gen' for the list)")
		}
		listKinds(e.stdout)
		return nil
	}
	if o.out == "" || o.out == "-" {
		m, err := generate(args[0], args[0], args[1:])
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(e.stdout, 1<<16)
		if err = obj.Encode(w, m); err == nil {
			err = w.Flush()
		}
		if err != nil {
			return fmt.Errorf("writing standard output: %w", err)
		}
		return nil
	}
	ext := strings.ToLower(filepath.Ext(o.out))
	encode, ok := encoders[ext]
	if !ok {
		return usagef("-o %s: cannot write extension %q (use .obj or .stl)", o.out, filepath.Ext(o.out))
	}
	if err := keep(o.out, o.force); err != nil {
		return err
	}
	m, err := generate(args[0], args[0], args[1:])
	if err != nil {
		return err
	}
	return writeFileAtomic(o.out, o.force, func(w io.Writer) error { return encode(w, m) })
}
