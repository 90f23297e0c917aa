package broad_test

import (
	"testing"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/broad/broadtest"
)

// TestBrute checks the oracle against broadtest's own (a sort and sweep) on
// every scene but the 10^5 one, where Brute's O(n²) first step takes a
// minute.
func TestBrute(t *testing.T) {
	for _, sc := range broadtest.Scenes() {
		if sc.Big {
			continue
		}
		t.Run(sc.Name, func(t *testing.T) {
			for seed := range uint64(3) {
				broadtest.RunScene(t, sc, seed, broad.NewBrute())
			}
		})
	}
}

func TestBruteEarlyStop(t *testing.T) { broadtest.EarlyStop(t, broad.NewBrute()) }

// TestBruteLinear checks that the oracle, too, pairs a static object with
// the moving ones only: its work on stacked static boxes is linear.
func TestBruteLinear(t *testing.T) {
	broadtest.Linear(t, func() broad.Phase { return broad.NewBrute() })
}
