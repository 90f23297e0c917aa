package mesh

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// FormatError reports malformed input: which format, where (a 1-based line
// for text formats, a byte offset for binary ones, or, for glTF, the JSON
// path of the element in Msg) and what is wrong. Load fills in File.
type FormatError struct {
	Format string // "obj", "stl", "ply", "off", "gltf", "glb"
	File   string // file name, when known
	Line   int    // 1-based line number, or 0
	// Offset is the byte offset, meaningful when Line == 0; a negative
	// Offset means no position in the file: Msg names the element (a glTF
	// JSON path such as meshes[2].primitives[0].indices).
	Offset int64
	Msg    string
}

// Error formats the error as "FILE: line N: FORMAT: MSG" (or "offset N", or
// neither when Offset is negative).
func (e *FormatError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(": ")
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	} else if e.Offset >= 0 {
		fmt.Fprintf(&b, "offset %d: ", e.Offset)
	}
	fmt.Fprintf(&b, "%s: %s", e.Format, e.Msg)
	return b.String()
}

// Format is a registered mesh codec.
type Format struct {
	Name       string   // short name, e.g. "stl"
	Extensions []string // lower-case extensions with the dot, e.g. ".stl"
	Decode     func(io.Reader) (*TriMesh, error)
	// DecodeWith, if not nil, decodes with ReadOptions: the codec of a
	// format whose files refer to other files (a .gltf's buffers) or
	// hold named meshes (glTF) sets it. Without it the format takes no
	// options (LoadReaderWith refuses a Mesh name).
	DecodeWith func(io.Reader, ReadOptions) (*TriMesh, error)
}

// ReadOptions configures LoadReaderWith. The zero value reads the whole
// file and no file beside it.
type ReadOptions struct {
	// Dir is the directory of the file, for the files it refers to by
	// relative names (a .gltf's .bin buffers); nil lets none be read.
	Dir fs.FS
	// Mesh names the one mesh to read from a file that holds named
	// meshes (glTF); "" reads the whole file. Formats without named
	// meshes refuse a name.
	Mesh string
}

var (
	formatsMu sync.RWMutex
	formats   []Format
)

// RegisterFormat makes a codec available to Load. Codec packages call it from
// init.
func RegisterFormat(f Format) {
	formatsMu.Lock()
	defer formatsMu.Unlock()
	formats = append(formats, f)
}

// FormatFor returns the registered format for the extension of path (case
// insensitive).
func FormatFor(path string) (Format, bool) {
	ext := strings.ToLower(filepath.Ext(path))
	formatsMu.RLock()
	defer formatsMu.RUnlock()
	for _, f := range formats {
		for _, e := range f.Extensions {
			if e == ext {
				return f, true
			}
		}
	}
	return Format{}, false
}

// ErrUnknownFormat is returned (wrapped) by Load for an extension that no
// imported codec handles.
var ErrUnknownFormat = errors.New("unknown mesh format")

// Load reads the mesh in the file at path with the codec registered for its
// extension and validates it. Errors name the file; a *FormatError inside
// also names the line or byte offset.
func Load(path string) (*TriMesh, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return LoadReader(path, f)
}

// LoadReader decodes r as the mesh file named path (the name picks the codec
// and labels errors), then validates it. It lets callers wrap the file, for
// example to report progress. Files that the file refers to by relative
// names (a .gltf's buffers) are read from the directory of path.
func LoadReader(path string, r io.Reader) (*TriMesh, error) {
	return LoadReaderWith(path, r, ReadOptions{Dir: os.DirFS(filepath.Dir(path))})
}

// LoadReaderWith is LoadReader with options: the directory the file's
// relative references are read from (o.Dir, nil for none), and the one
// named mesh to read (o.Mesh), which only formats with named meshes
// (glTF) accept.
func LoadReaderWith(path string, r io.Reader, o ReadOptions) (*TriMesh, error) {
	format, ok := FormatFor(path)
	if !ok {
		return nil, fmt.Errorf("%s: %w (extension %q; known: %s)", path, ErrUnknownFormat, filepath.Ext(path), knownExtensions())
	}
	var m *TriMesh
	var err error
	switch {
	case format.DecodeWith != nil:
		m, err = format.DecodeWith(r, o)
	case o.Mesh != "":
		return nil, fmt.Errorf("%s: cannot read the mesh named %q: %s files have no named meshes (glTF files do)", path, o.Mesh, format.Name)
	default:
		m, err = format.Decode(r)
	}
	if err != nil {
		var fe *FormatError
		if errors.As(err, &fe) {
			fe.File = path
			return nil, fe
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

func knownExtensions() string {
	formatsMu.RLock()
	defer formatsMu.RUnlock()
	var exts []string
	for _, f := range formats {
		exts = append(exts, f.Extensions...)
	}
	if len(exts) == 0 {
		return "none imported"
	}
	return strings.Join(exts, " ")
}
