package collide

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/topo"
)

// Save writes m, its mesh, its hierarchy and its topology (Model.Topology,
// computed first if it was not yet), to w in the binary format of
// bvh.Tree.WriteExtra, the topology in the extra section (package topo's
// encoding, about 4 bytes a vertex), from which ReadModel loads it much
// faster than Build builds it and Topology computes it. A model read from
// a file of format version 1 is saved in that version, without its
// topology. Brute-force models have no hierarchy and cannot be saved.
func (m *Model) Save(w io.Writer) error {
	if m.tree == nil {
		return errors.New("collide: brute-force models have no hierarchy to save")
	}
	_, err := m.tree.WriteExtra(w, topo.Encode(m.mesh, m.Topology()))
	if errors.Is(err, bvh.ErrAllHeld) {
		_, err = m.tree.WriteTo(w)
	}
	return err
}

// ReadModel reads a model written by Model.Save. It checks the data fully
// (see bvh.Read, and topo.Decode for the topology): malformed, corrupt or
// forged data is reported as a *mesh.FormatError with Format bvh.FormatName
// and the byte offset of the problem. The model's bounding volume and
// options are those it was saved with (see Model.Options); its topology is
// the one saved with it, or, from a file without (format versions 1 and
// 2), computed when first asked.
func ReadModel(r io.Reader) (*Model, error) {
	t, extra, at, err := bvh.ReadExtra(r)
	if err != nil {
		return nil, err
	}
	b, ok := bvOf(t)
	if !ok {
		return nil, fmt.Errorf("collide: a saved %s tree of k = %d has no bounding volume here", t.Kind(), int(t.K()))
	}
	md := newModel(t.Mesh(), BuildOptions{BV: b}, t)
	if len(extra) > 0 {
		tp, err := topo.Decode(md.mesh, extra)
		if err != nil {
			var fe *mesh.FormatError
			if errors.As(err, &fe) {
				return nil, &mesh.FormatError{Format: bvh.FormatName, Offset: at + fe.Offset, Msg: "topology: " + fe.Msg}
			}
			return nil, err
		}
		md.topoOnce.Do(func() { md.topo = tp; md.convex.topoKnown.Store(true) })
	}
	return md, nil
}

// IsSavedModel reports whether head, the first bytes of a file, starts like
// a saved model (with bvh.Magic, 8 bytes).
func IsSavedModel(head []byte) bool {
	return strings.HasPrefix(string(head), bvh.Magic)
}

// LoadModel reads the saved model in the file at path (see ReadModel). A
// *mesh.FormatError names the file; so do other errors. The file must end
// with the model.
func LoadModel(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := ReadModel(f)
	if err != nil {
		var fe *mesh.FormatError
		if errors.As(err, &fe) {
			fe.File = path
			return nil, fe
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// Trailing bytes mean the file is not what it seems.
	var b [1]byte
	if n, err := f.Read(b[:]); n > 0 || (err != nil && err != io.EOF) {
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		at, _ := f.Seek(0, io.SeekCurrent)
		return nil, &mesh.FormatError{Format: bvh.FormatName, File: path, Offset: at - 1,
			Msg: "unexpected data after the checksum"}
	}
	return m, nil
}
