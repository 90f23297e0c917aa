package main

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	srcpkg "github.com/collide3d/collide/internal/source"
)

// forgetPath is a coherent path of FLY (a sphere) along ENV (a torus),
// the tube's surface through the sphere: a small step a pose, the models
// in contact at every pose.
func forgetPath() []geom.Pose {
	var poses []geom.Pose
	for i := range 40 {
		a := 0.02 * float64(i) // along the tube, its surface through the sphere
		poses = append(poses, geom.Pose{R: geom.Identity().R, T: geom.Vec3{X: 2.55 * math.Cos(a), Y: 2.55 * math.Sin(a), Z: 0.1}})
	}
	return poses
}

// timing masks the fields of a JSON line that depend on the run: its stats
// and seconds.
var timing = regexp.MustCompile(`,"stats":\{[^}]*\},"seconds":[^,}]*`)

// TestCheckPosesIndependent checks the contract that each pose of check is
// answered independently of the poses before it: the poses of a file and
// of the same file reversed print the same line per pose (timing masked).
// The path is one along which a query that remembers its last first
// contact answers differently in the two orders (checked first, so that
// the test could fail).
func TestCheckPosesIndependent(t *testing.T) {
	const envArg, flyArg = "gen:torus", "gen:icosphere:radius=0.4"
	poses := forgetPath()

	// A remembering query (no Forget) gives another first pair somewhere
	// when the path is run backwards.
	load := func(arg string) *collide.Model {
		s, err := srcpkg.Load(arg, srcpkg.Options{})
		if err != nil {
			t.Fatal(err)
		}
		m, err := collide.Build(s.Mesh, collide.BuildOptions{BV: defaultBV})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	envModel, flyModel := load(envArg), load(flyArg)
	firstPairs := func(order []int) map[int]collide.Pair {
		var q collide.Query
		got := map[int]collide.Pair{}
		for _, i := range order {
			r, err := q.Check(envModel, flyModel, poses[i], collide.QueryOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Pairs) > 0 {
				got[i] = r.Pairs[0]
			}
		}
		return got
	}
	order := make([]int, len(poses))
	for i := range order {
		order[i] = i
	}
	forward := firstPairs(order)
	slices.Reverse(order)
	backward := firstPairs(order)
	if len(forward) < len(poses)/2 {
		t.Fatalf("the path is in contact at %d poses of %d: want most", len(forward), len(poses))
	}
	differ := 0
	for i, p := range forward {
		if backward[i] != p {
			differ++
		}
	}
	if differ == 0 {
		t.Fatal("a query that remembers its last contact answers the same in both orders: the path does not test the contract")
	}

	// The CLI answers each pose alone.
	dir := t.TempDir()
	var fw, bw []string
	for _, p := range poses {
		fw = append(fw, formatPose(p))
	}
	bw = slices.Clone(fw)
	slices.Reverse(bw)
	fwFile := writeFile(t, dir, "forward.txt", []byte(strings.Join(fw, "\n")+"\n"))
	bwFile := writeFile(t, dir, "backward.txt", []byte(strings.Join(bw, "\n")+"\n"))
	lines := func(file string) []string {
		out, stderr, code := runCLI(t, "check", "--json", "--poses", file, envArg, flyArg)
		if code != exitOK {
			t.Fatalf("check --poses %s: exit %d\n%s", file, code, stderr)
		}
		ls := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(ls) != len(poses) {
			t.Fatalf("check --poses %s: %d lines, want %d", file, len(ls), len(poses))
		}
		for i, l := range ls {
			ls[i] = timing.ReplaceAllString(l, "")
		}
		return ls
	}
	fl, bl := lines(fwFile), lines(bwFile)
	n := len(poses)
	posePrefix := regexp.MustCompile(`^\{"pose":\d+,`)
	for i := range n {
		f := posePrefix.ReplaceAllString(fl[i], "")
		b := posePrefix.ReplaceAllString(bl[n-1-i], "")
		if f != b {
			t.Errorf("pose %d: forward %s, backward (pose %d) %s", i, fl[i], n-1-i, bl[n-1-i])
		}
	}
}
