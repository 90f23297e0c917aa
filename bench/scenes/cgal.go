package scenes

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sync"

	"github.com/collide3d/collide/mesh"
	_ "github.com/collide3d/collide/mesh/off" // the meshes are OFF files
)

// CGALDataEnv is the environment variable that tells where the meshes of
// Debian's libcgal-demo package are, when they are not where the package
// puts them (CGALArchive): a copy of its data.tar.gz, or a folder holding
// the meshes (as NAME.off, meshes/NAME.off or data/meshes/NAME.off).
const CGALDataEnv = "COLLIDE_CGAL_DATA"

// CGALArchive is where Debian's libcgal-demo package installs CGAL's data,
// the meshes among it (data/meshes/*.off in the archive).
const CGALArchive = "/usr/share/doc/libcgal-dev/data.tar.gz"

// CGALInstall is how to install the meshes on Debian and Ubuntu.
const CGALInstall = "apt-get install libcgal-demo"

// A MissingDataError says that a scene needs data that is not installed.
type MissingDataError struct {
	Scene string
	// Source is where the data was looked for.
	Source string
	Err    error
}

func (e *MissingDataError) Error() string {
	return fmt.Sprintf("scene %s needs the meshes of Debian's libcgal-demo package, not found (%v): "+
		"install them with `%s` (as root), or set %s to a copy of its data.tar.gz or of its data/meshes folder",
		e.Scene, e.Err, CGALInstall, CGALDataEnv)
}

func (e *MissingDataError) Unwrap() error { return e.Err }

// cgalSource returns where the meshes are looked for: $COLLIDE_CGAL_DATA,
// or CGALArchive.
func cgalSource() string {
	if s := os.Getenv(CGALDataEnv); s != "" {
		return s
	}
	return CGALArchive
}

// cgalCache holds the meshes read, by source and name: the archive is read
// once per process for all the meshes of a scene.
var cgalCache struct {
	sync.Mutex
	m map[[2]string]*mesh.TriMesh
}

// CGALMesh reads the mesh called name (such as "ChineseDragon-10kv.off")
// from the meshes of Debian's libcgal-demo package (see CGALDataEnv). The
// error is a *MissingDataError when the meshes are not installed.
func CGALMesh(name string) (*mesh.TriMesh, error) {
	ms, err := cgalMeshes("", name)
	if err != nil {
		return nil, err
	}
	m := ms[0]
	return &mesh.TriMesh{Verts: slices.Clone(m.Verts), Tris: slices.Clone(m.Tris)}, nil
}

// cgalMeshes reads the meshes called names for scene, reading the archive
// at most once. The meshes are shared: the caller must not modify them.
func cgalMeshes(scene string, names ...string) ([]*mesh.TriMesh, error) {
	src := cgalSource()
	cgalCache.Lock()
	defer cgalCache.Unlock()
	if cgalCache.m == nil {
		cgalCache.m = map[[2]string]*mesh.TriMesh{}
	}
	var want []string
	for _, n := range names {
		if cgalCache.m[[2]string{src, n}] == nil {
			want = append(want, n)
		}
	}
	if len(want) > 0 {
		got, err := readCGAL(src, want)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, &MissingDataError{Scene: scene, Source: src, Err: err}
			}
			return nil, err
		}
		for n, m := range got {
			cgalCache.m[[2]string{src, n}] = m
		}
	}
	out := make([]*mesh.TriMesh, len(names))
	for i, n := range names {
		out[i] = cgalCache.m[[2]string{src, n}]
	}
	return out, nil
}

// readCGAL reads the meshes names from src, a folder or a .tar.gz archive.
func readCGAL(src string, names []string) (map[string]*mesh.TriMesh, error) {
	st, err := os.Stat(src)
	if err != nil {
		return nil, err
	}
	out := map[string]*mesh.TriMesh{}
	if st.IsDir() {
		for _, n := range names {
			var m *mesh.TriMesh
			for _, dir := range []string{"", "meshes", filepath.Join("data", "meshes")} {
				p := filepath.Join(src, dir, n)
				if m, err = mesh.Load(p); !errors.Is(err, fs.ErrNotExist) {
					break
				}
			}
			if err != nil {
				return nil, err
			}
			out[n] = m
		}
		return out, nil
	}
	f, err := os.Open(src)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	tr := tar.NewReader(gz)
	for len(out) < len(names) {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src, err)
		}
		n := path.Base(h.Name)
		if path.Base(path.Dir(h.Name)) != "meshes" || !slices.Contains(names, n) || out[n] != nil {
			continue
		}
		m, err := mesh.LoadReader(src+": "+h.Name, tr)
		if err != nil {
			return nil, err
		}
		out[n] = m
	}
	for _, n := range names {
		if out[n] == nil {
			return nil, fmt.Errorf("%s: no mesh %s: %w", src, n, fs.ErrNotExist)
		}
	}
	return out, nil
}
