package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/topo"
)

type infoOptions struct {
	json bool
}

func infoCommand() *command {
	return &command{
		name:  "info",
		usage: "info [--json] MODEL...",
		help: `
Describes each MODEL (a mesh file, gen:KIND[:key=value,...] or a model saved
by 'collide build'): its format, vertex and triangle counts, bounds, and how
many triangles are degenerate (zero area, decided exactly) or duplicates of an
earlier triangle; then its topology (package topo): vertices with equal
coordinates welded, whether the surface is manifold (at most two triangles
an edge, one fan of triangles a vertex), closed (manifold, no boundary
edge), oriented (every edge used once each way), outward (closed, oriented,
positive volume) and convex (the boundary of a convex solid), each decided
exactly, the counts of vertices, edges, faces and components, the Euler
characteristic and the genus, and a line for each flag that fails naming
what breaks it (the first few edges, as two mesh vertices and a triangle
that joins them, vertices or triangles). For a saved model (format "collide") it also describes the
hierarchy: bounding volume, k, splitting rule and point, leaf size, flying
leaf threshold τ, nodes, height and the bytes of the tree in memory. A MODEL
that cannot be read is reported on stderr and the others are still described
(the exit status is then 1).

With --json each model prints one line:
  {"file":F,"format":F,"vertices":N,"triangles":N,
   "bounds":{"min":[x,y,z],"max":[x,y,z]},"degenerate":N,"duplicate":N}
("bounds" is null for a mesh without triangles), then the keys
  "manifold":BOOL,"closed":BOOL,"oriented":BOOL,"outward":BOOL,"convex":BOOL,
  "topology":{"vertices":N,"welded":N,"edges":N,"faces":N,"components":N,
    "euler":N,"genus":N,"volume_sign":S,"degenerate":L,"boundary_edges":E,
    "non_manifold_edges":E,"non_manifold_vertices":L,"misoriented_edges":E,
    "flipped":L,"non_orientable_components":N,"not_convex":C}
(vertices counts the welded vertices, welded the mesh vertices merged; genus
is null unless closed and oriented; volume_sign is the sign of the volume,
0 unless closed and oriented; E is {"count":N,"first":[{"tri":T,"v":[A,B]},
...]} and L is {"count":N,"first":[I,...]}, with up to 16 first offenders:
degenerate lists the triangles collapsed by welding, flipped those whose
orientation disagrees with the rest of their component; C is null or
{"reason":R,"edge":{"tri":T,"v":[A,B]} or null,"vertex":V or null}), and
for a saved model a further key
  "tree":{"bv":NAME,"k":N,"rule":R,"split":S,"leaf":N,"fly_leaf":N,
          "fly_leaf_auto":BOOL,"float64":BOOL,"compact":BOOL,"nodes":N,
          "height":N,"bytes":N}
(fly_leaf is the threshold τ in use; fly_leaf_auto tells whether it was
chosen by the size of the model rather than given to build with --leaf;
k and fly_leaf are 0 for the bounding volumes other than k-DOPs).`,
		flags: func(fs *flag.FlagSet) any {
			o := &infoOptions{}
			fs.BoolVar(&o.json, "json", false, "print one JSON object per model, a line each")
			return o
		},
		run: runInfo,
	}
}

type jsonInfo struct {
	File       string        `json:"file"`
	Format     string        `json:"format"`
	Vertices   int           `json:"vertices"`
	Triangles  int           `json:"triangles"`
	Bounds     *jsonBounds   `json:"bounds"`
	Degenerate int           `json:"degenerate"`
	Duplicate  int           `json:"duplicate"`
	Tree       *jsonTree     `json:"tree,omitempty"` // saved models only
	Manifold   bool          `json:"manifold"`
	Closed     bool          `json:"closed"`
	Oriented   bool          `json:"oriented"`
	Outward    bool          `json:"outward"`
	Convex     bool          `json:"convex"`
	Topology   *jsonTopology `json:"topology"`
}

// jsonTree describes the hierarchy of a saved model.
type jsonTree struct {
	BV          string `json:"bv"`
	K           int    `json:"k"`
	Rule        string `json:"rule"`
	Split       string `json:"split"`
	Leaf        int    `json:"leaf"`
	FlyLeaf     int    `json:"fly_leaf"`
	FlyLeafAuto bool   `json:"fly_leaf_auto"`
	Float64     bool   `json:"float64"`
	Compact     bool   `json:"compact"`
	Nodes       int    `json:"nodes"`
	Height      int    `json:"height"`
	Bytes       int64  `json:"bytes"`
}

// treeInfo describes the hierarchy of s, if it is a saved model (else nil).
func treeInfo(s *source) *jsonTree {
	if s.Saved == nil || s.Saved.Tree() == nil {
		return nil
	}
	t := s.Saved.Tree()
	o := t.Options()
	return &jsonTree{
		BV:          s.Saved.BV().String(),
		K:           int(t.K()),
		Rule:        o.Rule.String(),
		Split:       o.Split.String(),
		Leaf:        o.Leaf,
		FlyLeaf:     t.FlyLeaf(),
		FlyLeafAuto: o.FlyLeaf == 0,
		Float64:     o.Float64,
		Compact:     o.Compact,
		Nodes:       t.Nodes(),
		Height:      t.Height(),
		Bytes:       t.Bytes(),
	}
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
		src, err := loadSource(e, arg)
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
		if o.json {
			err = writeJSONInfo(w, src)
		} else {
			if i > 0 {
				fmt.Fprintln(w)
			}
			err = writeTextInfo(w, src)
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

func writeJSONInfo(w io.Writer, src *source) error {
	s := src.Mesh.Stats()
	r := jsonInfo{
		File:       src.Arg,
		Format:     src.Format,
		Tree:       treeInfo(src),
		Vertices:   s.Vertices,
		Triangles:  s.Triangles,
		Degenerate: s.Degenerate,
		Duplicate:  s.Duplicate,
	}
	if !s.Bounds.IsEmpty() {
		r.Bounds = &jsonBounds{vecArray(s.Bounds.Min), vecArray(s.Bounds.Max)}
	}
	t, err := topologyOf(src)
	if err != nil {
		return err
	}
	r.Manifold, r.Closed, r.Oriented, r.Outward, r.Convex = t.Manifold, t.Closed, t.Oriented, t.Outward, t.Convex
	r.Topology = topologyJSON(t)
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func writeTextInfo(w io.Writer, src *source) error {
	s := src.Mesh.Stats()
	bounds := "none (no triangles)"
	if !s.Bounds.IsEmpty() {
		bounds = fmt.Sprintf("min %s  max %s", fmtVec(s.Bounds.Min), fmtVec(s.Bounds.Max))
	}
	_, err := fmt.Fprintf(w, "%s\n  format      %s\n  vertices    %d\n  triangles   %d\n  bounds      %s\n  degenerate  %d\n  duplicate   %d\n",
		src.Arg, src.Format, s.Vertices, s.Triangles, bounds, s.Degenerate, s.Duplicate)
	if err == nil {
		var t *topo.Topology
		if t, err = topologyOf(src); err == nil {
			err = writeTextTopology(w, t)
		}
	}
	if t := treeInfo(src); t != nil && err == nil {
		fly := "given to build"
		if t.FlyLeafAuto {
			fly = "by size"
		}
		bounds := "float32"
		switch {
		case t.Float64:
			bounds = "float64"
		case t.Compact:
			bounds = "8-bit (compact)"
		}
		if t.K > 0 {
			_, err = fmt.Fprintf(w, "  bv          %s (k = %d, %s bounds)\n  rule        %s\n  split       %s\n  leaf        %d\n  fly leaf    %d (%s)\n  nodes       %d\n  height      %d\n  tree bytes  %d\n",
				t.BV, t.K, bounds, t.Rule, t.Split, t.Leaf, t.FlyLeaf, fly, t.Nodes, t.Height, t.Bytes)
		} else {
			_, err = fmt.Fprintf(w, "  bv          %s (%s bounds)\n  rule        %s\n  split       %s\n  leaf        %d\n  nodes       %d\n  height      %d\n  tree bytes  %d\n",
				t.BV, bounds, t.Rule, t.Split, t.Leaf, t.Nodes, t.Height, t.Bytes)
		}
	}
	return err
}

// topologyOf returns the topology of src's mesh: the saved model's, which
// it keeps, or computed.
func topologyOf(src *source) (*topo.Topology, error) {
	if src.Saved != nil {
		return src.Saved.Topology(), nil
	}
	if err := src.Mesh.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", src.Arg, err)
	}
	return topo.Of(src.Mesh), nil
}

func vecArray(v geom.Vec3) [3]float64 { return [3]float64{v.X, v.Y, v.Z} }

func fmtVec(v geom.Vec3) string {
	return fmt.Sprintf("(%s, %s, %s)", formatFloat(v.X), formatFloat(v.Y), formatFloat(v.Z))
}
