package paper

import (
	"math"
	"slices"

	"github.com/collide3d/collide/bench/scenes"
)

// The figures of Klosowski, Held, Mitchell, Sowizral and Zikan, "Efficient
// collision detection using bounding volume hierarchies of k-DOPs" (IEEE
// TVCG 4(1), 1998), measured on an SGI Indigo2 (195 MHz R10000). Times are
// in milliseconds; "obb" is RAPID's OBB-tree.

// paperKs are the bounding volumes of the paper's tables, in their order.
var paperKs = []string{"kdop6", "kdop14", "kdop18", "kdop26"}

// paperCosts is Table 1: Cv and Cu per k (Cp = 0.0035 for all).
var paperCosts = map[string][2]float64{
	"kdop6":  {0.0008, 0.0045},
	"kdop14": {0.0016, 0.0174},
	"kdop18": {0.0020, 0.0235},
	"kdop26": {0.0028, 0.0509},
}

const paperCp = 0.0035

// paperCD is Table 2: the mean time of a query (all pairs) per scene, in
// the order of scenes.PaperNames, with the Splatter rule and mean split points.
var paperCD = map[string][5]float64{
	"kdop6":  {0.487, 0.294, 1.639, 0.582, 4.375},
	"kdop14": {0.392, 0.191, 0.760, 0.153, 2.701},
	"kdop18": {0.366, 0.184, 0.356, 0.109, 2.754},
	"kdop26": {0.525, 0.210, 0.415, 0.076, 2.639},
	"obb":    {0.934, 0.242, 0.494, 0.556, 4.375},
}

// paperBuild is Table 3: the preprocessing time of 18-DOP trees, in
// minutes, per rule (and RAPID's OBB-trees).
var paperBuild = map[string][5]float64{
	"longest":  {3.61, 1.61, 1.69, 0.31, 5.78},
	"minsum":   {26.75, 19.12, 20.98, 7.17, 31.03},
	"minmax":   {28.03, 19.16, 20.87, 7.19, 31.13},
	"splatter": {3.63, 1.62, 1.71, 0.32, 5.71},
	"obb":      {1.05, 0.69, 0.71, 0.26, 1.31},
}

// paperRuleCD are Tables 4 (mean split points) and 5 (median): the mean
// query time of 18-DOP trees per rule.
var paperRuleCD = map[string]map[string][5]float64{
	"mean": {
		"longest":  {0.384, 0.192, 0.366, 0.111, 3.036},
		"minsum":   {0.356, 0.185, 0.330, 0.108, 2.667},
		"minmax":   {0.391, 0.191, 0.439, 0.111, 2.783},
		"splatter": {0.366, 0.184, 0.356, 0.109, 2.754},
	},
	"median": {
		"longest":  {0.476, 0.193, 0.412, 0.116, 3.164},
		"minsum":   {0.450, 0.192, 0.359, 0.111, 2.822},
		"minmax":   {0.530, 0.196, 0.450, 0.114, 3.080},
		"splatter": {0.481, 0.194, 0.396, 0.113, 2.774},
	},
}

// nestedAlphas are the gaps of Tables 6 and 7: the inner sphere's radius is
// 1 - α.
var nestedAlphas = []float64{0.55, 0.1, 0.055, 0.01, 0.0055, 0.001, 0.00055, 0.0001}

// paperNested are Tables 6 (2,000 triangles) and 7 (20,000): Nv per α.
var paperNested = map[int]map[string][]int64{
	2000: {
		"kdop6":  {388, 49494, 76506, 109086, 113200, 116340, 116710, 116948},
		"kdop14": {32, 16888, 41782, 85656, 90896, 95150, 95564, 96056},
		"kdop18": {46, 11236, 34744, 79968, 86036, 91482, 92124, 92684},
		"kdop26": {22, 4652, 23774, 74052, 81160, 87622, 88322, 88968},
		"obb":    {121, 3333, 7479, 41645, 60327, 91983, 95717, 100047},
	},
	20000: {
		"kdop6":  {278, 289126, 494278, 1129398, 1223900, 1320158, 1329154, 1337116},
		"kdop14": {14, 85012, 239884, 831528, 960952, 1102260, 1115030, 1127908},
		"kdop18": {46, 55390, 194414, 762668, 903056, 1063346, 1079676, 1095868},
		"kdop26": {14, 12218, 119556, 675152, 831104, 1019272, 1038126, 1058072},
		"obb":    {117, 2441, 5495, 43589, 87071, 428027, 609843, 932561},
	},
}

// PaperNested returns the paper's Nv for nested spheres of about tris
// triangles (Table 6 below 10,000, Table 7 from there), by bounding volume
// (kdop6, kdop14, kdop18, kdop26, obb), one figure per α of NestedAlphas.
func PaperNested(tris int) map[string][]int64 {
	if tris >= 10000 {
		return paperNested[20000]
	}
	return paperNested[2000]
}

// paperAt returns the paper's figure for scene in row (a row of paperCD,
// paperBuild or paperRuleCD, in the order of scenes.PaperNames), or NaN
// for a scene of ours beyond the paper.
func paperAt(row [5]float64, scene string) float64 {
	if i := slices.Index(scenes.PaperNames(), scene); i >= 0 {
		return row[i]
	}
	return math.NaN()
}

// withPaper returns "ours (paper)", or ours alone for a scene beyond the
// paper.
func withPaper(ours, scene, paper string) string {
	if !slices.Contains(scenes.PaperNames(), scene) {
		return ours
	}
	return ours + " (" + paper + ")"
}
