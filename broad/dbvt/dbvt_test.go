package dbvt

import (
	"testing"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/broad/broadtest"
)

func TestConformance(t *testing.T) {
	broadtest.Run(t, func() broad.Phase { return New() })
}

// TestInvariants runs the conformance scenes with the invariants checked
// after every step, with a few margins and rebuild fractions.
func TestInvariants(t *testing.T) {
	cases := []struct {
		name string
		opt  Options
	}{
		{"default", Options{}},
		{"no-margin", Options{Margin: -1}},
		{"wide-margin", Options{Margin: 2}},
		{"always-rebuild", Options{RebuildFraction: 1e-9}},
		{"never-rebuild", Options{RebuildFraction: 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, sc := range broadtest.Scenes() {
				if sc.Big {
					continue
				}
				t.Run(sc.Name, func(t *testing.T) {
					for seed := range uint64(3) {
						broadtest.RunScene(t, sc, seed+1, checked{NewWith(c.opt), t})
					}
				})
			}
			broadtest.EarlyStop(t, checked{NewWith(c.opt), t})
		})
	}
}
