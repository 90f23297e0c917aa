package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	srcpkg "github.com/collide3d/collide/internal/source"

	"github.com/collide3d/collide"
)

// maxLeaf is the largest leaf size the hierarchies accept (bvh's limit).
const maxLeaf = 1 << 16

// savedExt is the suggested extension of a saved model. Saved models are
// recognised by their first bytes, whatever their name.
const savedExt = srcpkg.SavedExt

// buildFlags are the flags that choose how hierarchies are built, shared by
// check and build.
type buildFlags struct {
	fs      *flag.FlagSet // the flag set they were defined in, to tell which were given
	bv      string
	rule    string
	split   string
	envLeaf int
	leaf    int
	compact bool
}

// The default bounding volumes of the commands (--bv), chosen by
// measurement (README, "Which tree by default"): AABB trees were the
// fastest to the first contact, to all pairs and to the time of impact
// nearly everywhere, and within 1.6x of it elsewhere, where every other
// kind was 3x to 5x slower somewhere; for distance, RSS trees were within
// 5x of the fastest everywhere, where every kind that bounds a distance by
// separating axes (AABB, OBB, k-DOPs) was over 200x slower somewhere. The
// library's zero BuildOptions keep QuickCD's 18-DOPs (collide.BVDefault),
// and nc keeps them too (its exact tools are fastest with them).
const (
	// defaultBV is the default of check (and check --ccd), flight, build
	// and view.
	defaultBV = collide.AABB
	// defaultDistanceBV is the default of distance.
	defaultDistanceBV = collide.RSS
)

// define defines the flags in fs, with the default bounding volume
// defaultBV. bvs lists the bounding volumes the command accepts.
func (b *buildFlags) define(fs *flag.FlagSet, bvs []collide.BV) {
	b.defineWith(fs, bvs, defaultBV)
}

// defineWith is define with the default bounding volume def.
func (b *buildFlags) defineWith(fs *flag.FlagSet, bvs []collide.BV, def collide.BV) {
	b.fs = fs
	names := bvNames(bvs)
	if slices.Contains(bvs, collide.Brute) { // check and flight, which query
		names += ", or auto (the kind chosen per pair of models, measured before the first query)"
	}
	fs.StringVar(&b.bv, "bv", def.String(), "bounding volume `NAME`: "+names)
	fs.StringVar(&b.rule, "rule", collide.Splatter.String(), "splitting `RULE` of the hierarchies (the axis a node is split along): "+strings.Join(ruleNames(), ", "))
	fs.StringVar(&b.split, "split", collide.Mean.String(), "split `POINT` along that axis: "+strings.Join(splitNames(), ", "))
	intFlag(fs, &b.envLeaf, "env-leaf", 1, fmt.Sprintf("largest number `N` of triangles in a leaf of the hierarchies, 1 to %d", maxLeaf))
	intFlag(fs, &b.leaf, "leaf", 0, fmt.Sprintf("leaf threshold `N` (τ) of the flying hierarchy, 0 to %d: nodes of at most N triangles are tested triangle by triangle "+
		"(0, the default: chosen by the size of the model and k)", maxLeaf))
	fs.BoolVar(&b.compact, "compact", false, "store the k-DOP hierarchies' bounds in 8 bits each (--bv kdop*: an 18-DOP tree with its mesh "+
		"takes about 81 bytes a triangle instead of 176; queries take 5 to 30% longer)")
}

func ruleNames() []string {
	var names []string
	for r := collide.Splatter; r <= collide.MinMax; r++ {
		names = append(names, r.String())
	}
	return names
}

func splitNames() []string {
	var names []string
	for s := collide.Mean; s <= collide.Median; s++ {
		names = append(names, s.String())
	}
	return names
}

// bvNames returns the names of bvs, comma-separated.
func bvNames(bvs []collide.BV) string {
	names := make([]string, len(bvs))
	for i, b := range bvs {
		names[i] = b.String()
	}
	return strings.Join(names, ", ")
}

// hierarchies returns the bounding volumes that have a hierarchy (all but
// brute).
func hierarchies() []collide.BV {
	return slices.DeleteFunc(collide.BVs(), func(b collide.BV) bool { return b == collide.Brute })
}

// given reports whether the flag name was set on the command line.
func (b *buildFlags) given(name string) bool {
	found := false
	if b.fs != nil {
		b.fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	}
	return found
}

// options checks the flags and returns the build options they give. Bad
// values are usage errors.
func (b *buildFlags) options() (collide.BuildOptions, error) {
	bv := collide.BVDefault // --bv auto: the kind is chosen later (package auto)
	if !b.isAuto() {
		var err error
		if bv, err = collide.ParseBV(b.bv); err != nil {
			return collide.BuildOptions{}, usagef("--bv: %v %q (known: %s, %s)", collide.ErrUnknownBV, b.bv, bvNames(collide.BVs()), autoName)
		}
	}
	rule, err := collide.ParseRule(b.rule)
	if err != nil {
		return collide.BuildOptions{}, usagef("--rule: %v", err)
	}
	split, err := collide.ParseSplit(b.split)
	if err != nil {
		return collide.BuildOptions{}, usagef("--split: %v", err)
	}
	if b.envLeaf < 1 || b.envLeaf > maxLeaf {
		return collide.BuildOptions{}, usagef("--env-leaf must be a whole number from 1 to %d, not %d", maxLeaf, b.envLeaf)
	}
	if b.leaf < 0 || b.leaf > maxLeaf {
		return collide.BuildOptions{}, usagef("--leaf must be a whole number from 0 (by size) to %d, not %d", maxLeaf, b.leaf)
	}
	kdop := strings.HasPrefix(b.bv, "kdop")
	if rule == collide.RAPID && bv != collide.OBB && !b.isAuto() {
		return collide.BuildOptions{}, usagef("--rule rapid applies to --bv obb only")
	}
	if b.leaf > 0 && !kdop && bv != collide.Brute && !b.isAuto() {
		return collide.BuildOptions{}, usagef("--leaf applies to the k-DOP hierarchies only (--bv %s flies with its own leaves)", b.bv)
	}
	if b.compact && !kdop {
		return collide.BuildOptions{}, usagef("--compact applies to the k-DOP hierarchies only (--bv kdop6, kdop8, kdop12, kdop14, kdop18, kdop20 or kdop26)")
	}
	return collide.BuildOptions{BV: bv, Rule: rule, Split: split, Leaf: b.envLeaf, FlyLeaf: b.leaf, Compact: b.compact}, nil
}

// buildProgressMin is the number of triangles above which building shows
// progress on a terminal.
var buildProgressMin = 200_000

// buildWithProgress builds the model of the mesh s, showing a progress line
// on stderr when it is a terminal and the mesh is large (the library does
// not report progress: the line shows the time spent).
func buildWithProgress(e *env, s *source, bo collide.BuildOptions) (*collide.Model, error) {
	var model *collide.Model
	var err error
	n := len(s.Mesh.Tris)
	withTicker(e, n > buildProgressMin, func(elapsed time.Duration) string {
		return fmt.Sprintf("building %s: %d triangles, %.1f s", s.Arg, n, elapsed.Seconds())
	}, func() {
		model, err = collide.Build(s.Mesh, bo)
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Arg, err)
	}
	return model, nil
}

type buildCmdOptions struct {
	build buildFlags
	out   string
	force bool
}

func buildCommand() *command {
	return &command{
		name:  "build",
		usage: "build [flags] ENV -o FILE",
		help: fmt.Sprintf(`
Builds the hierarchy of ENV, a mesh file or a generated model
gen:KIND[:key=value,...], with %s trees unless --bv says otherwise (check's
default), and saves the model (mesh and hierarchy) to FILE.
check and info accept the saved model wherever they accept a mesh, and load
it without building. A saved model is recognised by its first bytes,
whatever its name; the suggested extension is %s. ENV may itself be a
saved model: its mesh is then built again with the flags given.

The flags choose the hierarchy, and are saved with the model: --bv, the
bounding volume (%s);
--rule and --split, how nodes are split; --env-leaf, the triangles per leaf;
--leaf, the leaf threshold when the model flies; --compact, k-DOP bounds in
8 bits each (less than half the memory, queries 5 to 30%% slower).

An existing FILE is kept unless --force is given; the model is written to a
temporary file beside FILE and renamed into place, so a failed build leaves
nothing behind. Prints one line: triangles, nodes, height, bytes written and
the time the hierarchy took to build.`, defaultBV, savedExt, bvNames(hierarchies())),
		flags: func(fs *flag.FlagSet) any {
			o := &buildCmdOptions{}
			o.build.define(fs, hierarchies())
			fs.StringVar(&o.out, "o", "", "output `FILE` (suggested extension "+savedExt+"); required")
			fs.BoolVar(&o.force, "force", false, "overwrite FILE if it exists")
			return o
		},
		run: runBuild,
	}
}

func runBuild(e *env, opts any, args []string) error {
	o := opts.(*buildCmdOptions)
	if len(args) != 1 {
		return usagef("need 1 model ENV; got %d", len(args))
	}
	if o.out == "" {
		return usagef("-o FILE is required")
	}
	bo, err := o.build.options()
	if err != nil {
		return err
	}
	if bo.BV == collide.Brute {
		return usagef("--bv brute has no hierarchy: nothing to save (use one of %s)", bvNames(hierarchies()))
	}
	if o.build.isAuto() {
		return usagef("--bv auto chooses the kind of tree per pair of models, when they are checked or flown together: "+
			"there is no one hierarchy to save (save one of %s; check and flight take --bv auto, and a saved model with it "+
			"is one of the candidates)", bvNames(hierarchies()))
	}
	if err := keep(o.out, o.force); err != nil {
		return err
	}
	src, err := loadSource(e, args[0])
	if err != nil {
		return err
	}
	if err := hasTriangles(src); err != nil {
		return err
	}
	start := time.Now()
	model, err := buildWithProgress(e, src, bo)
	if err != nil {
		return err
	}
	took := time.Since(start)
	var written int64
	err = writeFileAtomic(o.out, o.force, func(w io.Writer) error {
		cw := &countingWriter{w: w}
		err := model.Save(cw)
		written = cw.n
		return err
	})
	if err != nil {
		return err
	}
	t := model.Tree()
	_, err = fmt.Fprintf(e.stdout, "%s: %s, %d triangles, %d nodes, height %d, %d bytes, built in %s\n",
		o.out, model.BV(), len(src.Mesh.Tris), t.Nodes(), t.Height(), written, fmtDuration(took))
	return err
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
