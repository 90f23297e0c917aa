package mesh

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// FormatError reports malformed input: which format, where (a 1-based line
// for text formats, a byte offset for binary ones) and what is wrong. Load
// fills in File.
type FormatError struct {
	Format string // "obj", "stl", "ply", "off"
	File   string // file name, when known
	Line   int    // 1-based line number, or 0
	Offset int64  // byte offset, meaningful when Line == 0
	Msg    string
}

// Error formats the error as "FILE: line N: FORMAT: MSG" (or "offset N").
func (e *FormatError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(": ")
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	} else {
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
// example to report progress.
func LoadReader(path string, r io.Reader) (*TriMesh, error) {
	format, ok := FormatFor(path)
	if !ok {
		return nil, fmt.Errorf("%s: %w (extension %q; known: %s)", path, ErrUnknownFormat, filepath.Ext(path), knownExtensions())
	}
	m, err := format.Decode(r)
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
