// Package outfile writes an output file named by the user, whole or not at
// all: the command line's outputs (collide build -o, gen -o, ...) and the C
// library's collide_model_save.
package outfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes the file at path (an output named by the user)
// through write: into a temporary file in the same directory, then moved
// into place, so that a failed write leaves nothing behind. Without force
// an existing path is never replaced. With force, only a regular file is
// replaced, keeping its permissions; a symbolic link is written through:
// the file it points to is replaced and the link stays. Errors name path,
// never the temporary file.
func Write(path string, force bool, write func(io.Writer) error) (err error) {
	target, mode, err := outputTarget(path, force)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		return outputError(path, "cannot create a temporary file beside it", err)
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
		return outputError(path, "writing", err)
	}
	if err := bw.Flush(); err != nil {
		return outputError(path, "writing", err)
	}
	if err := tmp.Chmod(mode); err != nil {
		return outputError(path, "setting permissions", err)
	}
	if err := tmp.Sync(); err != nil {
		return outputError(path, "writing", err)
	}
	if err := tmp.Close(); err != nil {
		return outputError(path, "writing", err)
	}
	if force {
		// outputTarget checked the target; check again just before the
		// rename, in case something else was put there meanwhile.
		if _, _, err := outputTarget(path, force); err != nil {
			return err
		}
		if err := os.Rename(tmpName, target); err != nil {
			return outputError(path, "moving into place", err)
		}
		return nil
	}
	// A hard link fails if path exists, so a file created meanwhile is not
	// replaced either; where links are not supported, check then rename.
	switch err := os.Link(tmpName, target); {
	case err == nil:
		os.Remove(tmpName)
		return nil
	case errors.Is(err, fs.ErrExist):
		return errExists(path)
	}
	if err := Keep(path, false); err != nil {
		return err
	}
	if err := os.Rename(tmpName, target); err != nil {
		return outputError(path, "moving into place", err)
	}
	return nil
}

// Keep returns an error if path cannot be written as an output: if
// something is there and force is false (the user's files are not
// overwritten without --force), or if, with force, what is there is not a
// regular file (or a link to one).
func Keep(path string, force bool) error {
	_, _, err := outputTarget(path, force)
	return err
}

// outputTarget returns the file that writing the output path replaces or
// creates (path itself, or the file a symbolic link at path points to) and
// the permissions to give it: those of the file replaced, else 0644.
func outputTarget(path string, force bool) (target string, mode fs.FileMode, err error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return path, 0o644, nil
	case err != nil:
		return "", 0, outputError(path, "cannot check it", err)
	case !force:
		return "", 0, errExists(path)
	}
	target = path
	if fi.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(path); errors.Is(err, fs.ErrNotExist) {
			return "", 0, fmt.Errorf("%s is a symbolic link to nothing; not written", path)
		} else if err != nil {
			return "", 0, outputError(path, "cannot follow the link", err)
		}
		if fi, err = os.Stat(target); err != nil {
			return "", 0, outputError(path, "cannot check its target", err)
		}
	}
	if !fi.Mode().IsRegular() {
		return "", 0, fmt.Errorf("%s is %s, not a regular file; not overwritten", path, fileKind(fi.Mode()))
	}
	return target, fi.Mode().Perm(), nil
}

// fileKind names the kind of file of mode, with an article.
func fileKind(mode fs.FileMode) string {
	switch {
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a device"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// outputError is the error of doing what to the output path: err's cause
// without the name of a temporary file.
func outputError(path, what string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	return fmt.Errorf("%s: %s: %w", path, what, err)
}

func errExists(path string) error {
	return fmt.Errorf("%s already exists (use --force to overwrite it)", path)
}
