package bvh

import (
	"fmt"
	"strings"

	"github.com/collide3d/collide/bv"
)

// Rule chooses the axis (x, y or z; or, with Options.SplitDirs, any
// direction of the k-DOP) of the plane that splits a node.
type Rule uint8

// The splitting rules of Klosowski et al.
const (
	// Splatter splits along the axis of largest variance of the triangle
	// centroids (the default).
	Splatter Rule = iota
	// LongestSide splits along the axis on which the node's k-DOP is longest.
	LongestSide
	// MinSum splits along the axis that minimises the sum of the volumes of
	// the two children's k-DOPs.
	MinSum
	// MinMax splits along the axis that minimises the larger of the two
	// children's k-DOP volumes.
	MinMax
	// RAPID is the split of the RAPID library, for OBB trees only: the box's
	// axis of largest variance, at the area-weighted mean of the triangle
	// centroids; when every centroid falls on one side, the triangles are
	// halved by count rather than trying the other axes.
	RAPID
)

var ruleNames = []string{"splatter", "longest", "minsum", "minmax", "rapid"}

// String returns the rule's name: splatter, longest, minsum, minmax or
// rapid.
func (r Rule) String() string { return nameOf(ruleNames, r, "Rule") }

// ParseRule returns the rule named s (see Rule.String).
func ParseRule(s string) (Rule, error) { return parseName[Rule](ruleNames, s, "splitting rule") }

// nameOf returns names[v], or typ(v) if v is out of range.
func nameOf[T ~uint8](names []string, v T, typ string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, v)
}

// parseName returns the value whose name in names is s, or an error
// naming what it is.
func parseName[T ~uint8](names []string, s, what string) (T, error) {
	for i, n := range names {
		if s == n {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q (known: %s)", what, s, strings.Join(names, ", "))
}

// Split chooses where along the axis a node is split.
type Split uint8

// The split points.
const (
	// Mean splits at the mean of the centroid coordinates (the default).
	Mean Split = iota
	// Median splits at the median, giving a balanced tree.
	Median
)

var splitNames = []string{"mean", "median"}

// String returns the split point's name: mean or median.
func (s Split) String() string { return nameOf(splitNames, s, "Split") }

// ParseSplit returns the split point named s (see Split.String).
func ParseSplit(s string) (Split, error) { return parseName[Split](splitNames, s, "split point") }

// Kind is the type of bounding volume of a tree.
type Kind uint8

// The kinds of tree.
const (
	// KDOP trees bound nodes by k-DOPs (Klosowski et al.); a flying model's
	// k-DOPs are recomputed in the environment's frame for each pose
	// ("tumbling").
	KDOP Kind = iota
	// OBB trees bound nodes by oriented boxes fitted to the covariance of
	// the convex hull's surface (Gottschalk et al., RAPID), tested with the
	// 15-axis separating-axis test under the relative pose.
	OBB
	// Sphere trees bound nodes by near-minimal spheres, moved with the pose.
	Sphere
	// AABB trees bound nodes by boxes aligned with the model's own axes,
	// tested as oriented boxes under the relative pose (no tumbling: the
	// approach of OPCODE and ColDet).
	AABB
	// BoxTree is Zachmann's box-tree: each node cuts its box by a plane;
	// triangles crossing the (thick) plane go to both children, and boxes
	// are derived from the cuts during traversal rather than stored.
	BoxTree
	// RSS trees bound nodes by rectangle swept spheres (the points within
	// a radius of a rectangle; Larsen et al., PQP), moved with the pose.
	RSS
)

// Options configures Build. The zero value is the default: 18-DOPs, the
// Splatter rule, mean split point, one triangle per leaf, flying leaf size by
// the size rule, float32 storage.
type Options struct {
	// Kind is the type of bounding volume (the zero value is KDOP).
	Kind Kind
	// K is the k-DOP direction set of KDOP trees (0: bv.K18); other kinds
	// ignore it.
	K bv.K
	// Rule is the axis rule.
	Rule Rule
	// Split is the split point.
	Split Split
	// Leaf is the largest number of triangles in a leaf (0: 1, a complete
	// tree, as the papers use for environments).
	Leaf int
	// FlyLeaf is the leaf threshold τ of a KDOP hierarchy when the model
	// flies: nodes with at most FlyLeaf triangles are treated as leaves, and
	// their triangles tested directly (0: the size rule, see FlyLeafFor).
	FlyLeaf int
	// Float64 stores the k-DOP bounds in float64 rather than float32 (both
	// conservative); float32 halves the memory of the tree and is as fast.
	// The other kinds always store float64.
	Float64 bool
	// Compact stores a float32 k-DOP tree's bounds in 8 bits each, relative
	// to a block of 16 nodes (kind_dopc.go): 24 bytes a node for 18-DOPs
	// instead of 76, at some cost in query time (decoding) and in
	// tightness (a quantum of a block's extent per bound). It applies to
	// k-DOP trees in float32 only; Build keeps the float32 layout (and
	// clears Compact in the tree's options) for a tree whose bounds do not
	// all fit float32.
	Compact bool
	// SplitDirs lets a k-DOP tree split a node along any of its k/2
	// directions (the centroids projected onto each), rather than along x,
	// y or z only; every Rule weighs the directions as it weighs the axes,
	// the spread and lengths divided by |d_i| (Klosowski's "splitting along
	// any of the k/2 directions"). Measured by collide bench --ch6, it
	// builds slower and, as in the dissertation, rarely queries faster:
	// it is off by default. Like Oscillate, it is a choice of the build
	// that the saved tree does not record (the tree itself is saved).
	SplitDirs bool
	// Oscillate, when L > 0, builds Klosowski's oscillating k-DOP tree: a
	// node is split temporarily L levels down by the rule (up to 2^L
	// sets), and the sets are regrouped into the two children by the best
	// of their 2^(2^L−1) − 1 bipartitions by the Min Sum objective (the
	// sum of the two children's k-DOP volumes; the larger of them with the
	// MinMax rule), the plain split winning ties. L is at most 3; 2 is the
	// dissertation's. Measured by collide bench --ch6, it builds several
	// times slower and queries no faster: it is off by default. Other
	// kinds ignore it, and SplitDirs.
	Oscillate int
}

// withDefaults returns o with its zero fields set to the defaults.
func (o Options) withDefaults() Options {
	switch {
	case o.Kind != KDOP:
		o.K, o.FlyLeaf, o.Float64 = 0, 0, true
		o.SplitDirs, o.Oscillate = false, 0
	case o.K == 0:
		o.K = bv.K18
	}
	if o.Leaf == 0 {
		o.Leaf = 1
	}
	return o
}

func (o Options) validate() error {
	switch {
	case int(o.Kind) >= len(kinds):
		return fmt.Errorf("bvh: unknown tree kind %d", o.Kind)
	case o.Rule == RAPID && o.Kind != OBB:
		return fmt.Errorf("bvh: the rapid splitting rule applies to OBB trees only")
	case o.Kind == KDOP && !o.K.Valid():
		return fmt.Errorf("bvh: unsupported k = %d (want 6, 8, 12, 14, 18, 20 or 26)", int(o.K))
	case o.Rule > RAPID:
		return fmt.Errorf("bvh: unknown splitting rule %d", o.Rule)
	case o.Split > Median:
		return fmt.Errorf("bvh: unknown split point %d", o.Split)
	case o.Leaf < 1 || o.Leaf > maxLeaf:
		return fmt.Errorf("bvh: leaf size %d out of range [1, %d]", o.Leaf, maxLeaf)
	case o.FlyLeaf < 0 || o.FlyLeaf > maxLeaf:
		return fmt.Errorf("bvh: flying leaf size %d out of range [0, %d]", o.FlyLeaf, maxLeaf)
	case o.Compact && (o.Kind != KDOP || o.Float64):
		return fmt.Errorf("bvh: the compact layout applies to float32 k-DOP trees only")
	case o.Oscillate < 0 || o.Oscillate > maxOscillate:
		return fmt.Errorf("bvh: oscillation levels %d out of range [0, %d]", o.Oscillate, maxOscillate)
	}
	return nil
}

// maxLeaf bounds the leaf sizes.
const maxLeaf = 1 << 16

// maxOscillate bounds Options.Oscillate: 3 levels regroup 8 sets, by the
// best of 127 bipartitions.
const maxOscillate = 3

// FlyLeafFor returns the leaf threshold τ the size rule gives a flying model
// of n triangles with k-DOPs of the given k: 2 below 500 triangles; 4 for
// 6-DOPs and 8 for the others below 5,000; above that 4, 8, 16 and 16 for
// k = 6, 14, 18 and 26 (and 16 for 8, 12 and 20, not measured apart).
//
// The rule comes from BenchmarkFlyLeaf (spheres of 180, 2,000 and 20,480
// triangles flying around a 100,000-triangle torus, all pairs), as
// Klosowski's came from his: small models are fastest with small leaves;
// larger ones gain from larger leaves, more so as k, and with it the cost of
// updating a node, grows. Times within 10% of the best span about a factor
// of 4 in τ, so the rule is not sensitive to its constants.
func FlyLeafFor(k bv.K, n int) int {
	switch {
	case n < 500:
		return 2
	case k == bv.K6:
		return 4
	case n < 5000 || k == bv.K14:
		return 8
	}
	return 16
}
