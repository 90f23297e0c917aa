package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
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
		usage: "gen KIND [key=value ...] -o FILE",
		help: `
Writes the mesh of generator KIND, with the given parameters (the others at
their defaults), to FILE: .obj (Wavefront OBJ, coordinates written exactly) or
.stl (binary STL, float32). An existing FILE is kept unless --force is given;
the mesh is written to a temporary file beside FILE and renamed into place, so
a failed write leaves nothing behind.

'collide gen' alone lists the generators and their parameters.`,
		flags: func(fs *flag.FlagSet) any {
			o := &genOptions{}
			fs.StringVar(&o.out, "o", "", "output `FILE` (.obj or .stl); required")
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
	if o.out == "" {
		return usagef("-o FILE is required")
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

// writeFileAtomic writes path through write: into a temporary file in the
// same directory, then moved into place. Without force an existing path is
// never replaced. On failure the temporary file is removed.
func writeFileAtomic(path string, force bool, write func(io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmpName := tmp.Name()
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmpName)
		}
	}()
	bw := bufio.NewWriterSize(tmp, 1<<16)
	if err := write(bw); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if force {
		return os.Rename(tmpName, path)
	}
	// A hard link fails if path exists, so a file created meanwhile is not
	// replaced either; where links are not supported, check then rename.
	switch err := os.Link(tmpName, path); {
	case err == nil:
		os.Remove(tmpName)
		return nil
	case errors.Is(err, fs.ErrExist):
		return errExists(path)
	}
	if err := keep(path, false); err != nil {
		return err
	}
	return os.Rename(tmpName, path)
}

// keep returns an error if something is at path and force is false: the
// user's files are not overwritten without --force.
func keep(path string, force bool) error {
	if _, err := os.Lstat(path); err == nil && !force {
		return errExists(path)
	}
	return nil
}

func errExists(path string) error {
	return fmt.Errorf("%s already exists (use --force to overwrite it)", path)
}
