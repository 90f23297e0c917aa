package main

import (
	"io"

	"github.com/collide3d/collide/internal/outfile"
)

// writeFileAtomic writes the output file at path through write, whole or
// not at all, replacing an existing file only with force (see
// outfile.Write, shared with the C library).
func writeFileAtomic(path string, force bool, write func(io.Writer) error) error {
	return outfile.Write(path, force, write)
}

// keep returns an error if path cannot be written as an output (see
// outfile.Keep).
func keep(path string, force bool) error { return outfile.Keep(path, force) }
