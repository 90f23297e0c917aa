package collide

import (
	"errors"
	"fmt"
	"strings"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh"
)

// BV is a type of bounding volume: the kind of hierarchy Build builds for a
// model. Its zero value is KDOP18, QuickCD's choice and the default, so the
// zero BuildOptions build 18-DOP trees. Its name (String, ParseBV) is the
// one the command line's --bv flag takes.
type BV uint8

// The bounding volumes, listed by BVs in the order kdop6, kdop8, kdop12,
// kdop14, kdop18, kdop20, kdop26, obb, sphere, aabb, boxtree, rss, brute.
// The values of the first ten are those they had before the dissertation's
// 8-, 12- and 20-DOPs joined, after Brute.
const (
	// KDOP18 trees bound nodes by 18-DOPs (the zero value: the default).
	// The k-DOP trees (Klosowski et al.) recompute the flying model's
	// k-DOPs for each pose (tumbling).
	KDOP18 BV = iota
	// KDOP6 trees bound nodes by 6-DOPs (boxes aligned with the world's
	// axes, re-bounded for each pose).
	KDOP6
	// KDOP14 trees bound nodes by 14-DOPs.
	KDOP14
	// KDOP26 trees bound nodes by 26-DOPs.
	KDOP26
	// OBB trees bound nodes by oriented boxes (Gottschalk et al., RAPID).
	OBB
	// Sphere trees bound nodes by near-minimal spheres.
	Sphere
	// AABB trees bound nodes by boxes aligned with the model's own axes,
	// tested as oriented boxes under the relative pose (as OPCODE does).
	AABB
	// BoxTree is Zachmann's box-tree.
	BoxTree
	// RSS trees bound nodes by rectangle swept spheres (Larsen et al.,
	// PQP).
	RSS
	// Brute is the brute-force model: no hierarchy, every triangle pair is
	// tested (after an exact bounding-box filter). It is the oracle every
	// hierarchy is checked against.
	Brute
	// KDOP8 trees bound nodes by 8-DOPs: the 4 corner diagonals, without
	// the axes (Klosowski's dissertation, Chapter 6).
	KDOP8
	// KDOP12 trees bound nodes by 12-DOPs: the 6 edge diagonals, without
	// the axes.
	KDOP12
	// KDOP20 trees bound nodes by 20-DOPs: the corner and the edge
	// diagonals, without the axes.
	KDOP20
)

// BVDefault is the bounding volume of the zero BuildOptions: KDOP18.
const BVDefault = KDOP18

// volumes is the table of the bounding volumes, in the order BVs lists
// them: each one's name and the tree that package bvh builds for it.
var volumes = [...]struct {
	id   BV
	name string
	kind bvh.Kind // the tree's kind (none for Brute)
	k    bv.K     // k of a k-DOP tree, else 0
}{
	{KDOP6, "kdop6", bvh.KDOP, bv.K6},
	{KDOP8, "kdop8", bvh.KDOP, bv.K8},
	{KDOP12, "kdop12", bvh.KDOP, bv.K12},
	{KDOP14, "kdop14", bvh.KDOP, bv.K14},
	{KDOP18, "kdop18", bvh.KDOP, bv.K18},
	{KDOP20, "kdop20", bvh.KDOP, bv.K20},
	{KDOP26, "kdop26", bvh.KDOP, bv.K26},
	{OBB, "obb", bvh.OBB, 0},
	{Sphere, "sphere", bvh.Sphere, 0},
	{AABB, "aabb", bvh.AABB, 0},
	{BoxTree, "boxtree", bvh.BoxTree, 0},
	{RSS, "rss", bvh.RSS, 0},
	{Brute, "brute", 0, 0},
}

// index returns b's position in volumes, or -1 for an unknown value.
func (b BV) index() int {
	for i := range volumes {
		if volumes[i].id == b {
			return i
		}
	}
	return -1
}

// BVs returns every bounding volume, k-DOPs first by k, Brute last.
func BVs() []BV {
	out := make([]BV, len(volumes))
	for i, v := range volumes {
		out[i] = v.id
	}
	return out
}

// String returns b's name: kdop6, kdop8, kdop12, kdop14, kdop18, kdop20,
// kdop26, obb, sphere, aabb, boxtree, rss or brute (BV(n) for an unknown
// value).
func (b BV) String() string {
	if i := b.index(); i >= 0 {
		return volumes[i].name
	}
	return fmt.Sprintf("BV(%d)", uint8(b))
}

// ErrUnknownBV is wrapped by the error of ParseBV for an unknown name, and
// by that of Build for an unknown BV value.
var ErrUnknownBV = errors.New("unknown bounding volume")

// ParseBV returns the bounding volume named s (see BV.String). An unknown
// name is an error wrapping ErrUnknownBV that lists the known ones; "auto"
// is one that says where the choice of a kind per pair of models is made
// (package auto).
func ParseBV(s string) (BV, error) {
	for _, v := range volumes {
		if v.name == s {
			return v.id, nil
		}
	}
	if s == "auto" {
		return 0, fmt.Errorf("%w %q (known: %s): auto is not a volume but the choice of one per pair of models, "+
			"which package auto (auto.Choose) makes", ErrUnknownBV, s, knownBVs())
	}
	return 0, fmt.Errorf("%w %q (known: %s)", ErrUnknownBV, s, knownBVs())
}

// knownBVs returns the names of the bounding volumes, comma-separated.
func knownBVs() string {
	names := make([]string, len(volumes))
	for i, v := range volumes {
		names[i] = v.name
	}
	return strings.Join(names, ", ")
}

// Compatible reports whether models of bounding volumes b and c can be
// checked against each other: models of the same volume, k-DOP trees of
// any two k (the flying model's k-DOPs are computed in the environment's
// directions), and a brute-force model against any model. For other pairs, fly a model of the environment's volume (see
// Model.WithBV).
func (b BV) Compatible(c BV) bool {
	return b == c || b == Brute || c == Brute || b.isKDOP() && c.isKDOP()
}

// isKDOP reports whether b is one of the k-DOPs.
func (b BV) isKDOP() bool {
	i := b.index()
	return i >= 0 && b != Brute && volumes[i].kind == bvh.KDOP
}

// bvOf returns the bounding volume of the tree t.
func bvOf(t *bvh.Tree) (BV, bool) {
	for _, v := range volumes {
		if v.id != Brute && v.kind == t.Kind() && (v.kind != bvh.KDOP || v.k == t.K()) {
			return v.id, true
		}
	}
	return 0, false
}

// Rule chooses the axis along which each node of a hierarchy is split
// (the splitting rules of Klosowski et al.).
type Rule uint8

// The splitting rules.
const (
	// Splatter splits along the axis of largest variance of the triangle
	// centroids (the default).
	Splatter = Rule(bvh.Splatter)
	// LongestSide splits along the axis on which the node's volume is
	// longest.
	LongestSide = Rule(bvh.LongestSide)
	// MinSum splits along the axis that minimises the sum of the volumes of
	// the two children's k-DOPs.
	MinSum = Rule(bvh.MinSum)
	// MinMax splits along the axis that minimises the larger of the two
	// children's k-DOP volumes.
	MinMax = Rule(bvh.MinMax)
	// RAPID is the split of the RAPID library, for OBB trees only: the
	// box's axis of largest variance, at the area-weighted mean of the
	// triangle centroids.
	RAPID = Rule(bvh.RAPID)
)

// String returns the rule's name: splatter, longest, minsum, minmax or
// rapid.
func (r Rule) String() string { return bvh.Rule(r).String() }

// ParseRule returns the rule named s (see Rule.String).
func ParseRule(s string) (Rule, error) {
	r, err := bvh.ParseRule(s)
	return Rule(r), err
}

// Split chooses where along its axis a node is split.
type Split uint8

// The split points.
const (
	// Mean splits at the mean of the centroid coordinates (the default).
	Mean = Split(bvh.Mean)
	// Median splits at their median, giving a balanced tree.
	Median = Split(bvh.Median)
)

// String returns the split point's name: mean or median.
func (s Split) String() string { return bvh.Split(s).String() }

// ParseSplit returns the split point named s (see Split.String).
func ParseSplit(s string) (Split, error) {
	p, err := bvh.ParseSplit(s)
	return Split(p), err
}
