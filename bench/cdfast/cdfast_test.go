package cdfast

import (
	"bytes"
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestCDFastShort runs CDFast's experiments on short paths and checks
// what the counts must satisfy whatever the machine: the spheres and
// boxes bound the mover, so the broad phase reports every pair the exact
// test finds in contact; one sphere meets a static box exactly when its
// object pair is reported; both exact modes find the same object pairs.
func TestCDFastShort(t *testing.T) {
	const steps = 40
	r, err := Run(context.Background(), Config{Seed: 1, Steps: steps, SphereCounts: []int{50, 200, 2000}, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Runs) != len(Scenes)*len(Movers) {
		t.Fatalf("%d runs", len(r.Runs))
	}
	for _, run := range r.Runs {
		name := run.Scene + "-" + run.Mover
		if run.Statics == 0 || run.MoverTris == 0 {
			t.Errorf("%s: %d statics, %d mover triangles", name, run.Statics, run.MoverTris)
		}
		for _, l := range []int{-1, 0, 1, 2, 3} {
			if run.Level(l) == nil {
				t.Errorf("%s: no run at level %d", name, l)
			}
		}
		f, a := run.First, run.All
		if f.Steps != steps || a.Steps != steps {
			t.Errorf("%s: exact runs of %d and %d steps", name, f.Steps, a.Steps)
		}
		if f.Contacts != a.Contacts || f.StepsHit != a.StepsHit || f.Tested != a.Tested {
			t.Errorf("%s: first contact found %d contacts in %d steps (%d tests), all pairs %d in %d (%d)",
				name, f.Contacts, f.StepsHit, f.Tested, a.Contacts, a.StepsHit, a.Tested)
		}
		if f.TriPairs != f.Contacts || a.TriPairs < a.Contacts {
			t.Errorf("%s: %d and %d triangle pairs for %d contacts", name, f.TriPairs, a.TriPairs, a.Contacts)
		}
		for _, b := range run.Broad {
			if b.Steps != steps || b.StepsHit > int64(steps) {
				t.Errorf("%s level %d: %d steps, %d with an interference", name, b.Level, b.Steps, b.StepsHit)
			}
			if b.StepsHit < a.StepsHit || b.ObjectPairs < a.Contacts {
				t.Errorf("%s level %d: %d object pairs in %d steps, fewer than the %d contacts in %d steps",
					name, b.Level, b.ObjectPairs, b.StepsHit, a.Contacts, a.StepsHit)
			}
			if b.Level == 0 && b.SphereBoxHits != b.ObjectPairs {
				t.Errorf("%s level 0: %d sphere-box pairs, %d object pairs", name, b.SphereBoxHits, b.ObjectPairs)
			}
			if (b.Level < 0) != (b.Spheres == 0) || (b.Level < 0) != (b.SphereBoxTests == 0) {
				t.Errorf("%s level %d: %d spheres, %d sphere-box tests", name, b.Level, b.Spheres, b.SphereBoxTests)
			}
			if b.Total <= 0 || b.Median > b.P99 {
				t.Errorf("%s level %d: times %v, median %v, p99 %v", name, b.Level, b.Total, b.Median, b.P99)
			}
		}
	}
	// Fixed radius: 50 and 200 (2000 capped at 1000); fixed volume: all three.
	want := map[string][]int{"fixed radius": {50, 200, 1000}, "fixed volume": {50, 200, 2000}}
	for _, mover := range Movers {
		for series, ns := range want {
			var got []int
			for _, x := range r.Ns {
				if x.Mover == mover && x.Series == series {
					got = append(got, x.N)
					if len(x.Broad) != 2 || x.Broad[0].Level != 0 || x.Broad[1].Level != TreeLevel[mover] {
						t.Errorf("%s %s %d: levels %v", mover, series, x.N, x.Broad)
					}
				}
			}
			if !slices.Equal(got, ns) {
				t.Errorf("%s %s: N_s %v, want %v", mover, series, got, ns)
			}
		}
	}
	var buf bytes.Buffer
	if err := r.WriteSection(&buf, "##"); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, s := range []string{"## CDFast's experiments", "### Table 1: the torus", "### Table 2", "11,390", "210,540", "3,166,900",
		"### CDFast's time against N_s", "**Time independent of N_s**", "**Level 1 vs one sphere**", "**Level 3 vs one sphere** (torus", "**Exact vs broad phase alone**"} {
		if !strings.Contains(md, s) {
			t.Errorf("the report lacks %q", s)
		}
	}
	if strings.Contains(md, "NaN") {
		t.Error("the report holds a NaN")
	}
}

// TestCDFastPlaceSpheres checks the fixed-volume placement: inside the
// unit cube and apart.
func TestCDFastPlaceSpheres(t *testing.T) {
	boxes, err := placeSpheres(rand.New(rand.NewPCG(1, 2)), 500, 0.016)
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range boxes {
		if !unitCube.ContainsBox(b) {
			t.Fatalf("sphere %d's box %v leaves the cube", i, b)
		}
		for j := range i {
			if b.Center().Sub(boxes[j].Center()).Norm() <= 2*0.016 {
				t.Fatalf("spheres %d and %d overlap", j, i)
			}
		}
	}
}
