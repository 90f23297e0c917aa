package jsonl

import (
	"bytes"
	"testing"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
)

// TestPairs checks the lines of Pairs: sorted pairs, streaming past
// SortLimit (the held ones sorted, then as found), truncated at Max.
func TestPairs(t *testing.T) {
	found := []collide.Pair{{Env: 5, Fly: 1}, {Env: 2, Fly: 9}, {Env: 2, Fly: 3}, {Env: 9, Fly: 0}, {Env: 1, Fly: 1}}
	st := collide.Stats{BVTests: 7, TriTests: 3, Updates: 2, LeafTests: 1}
	const tail = `,"stats":{"bv_tests":7,"tri_tests":3,"updates":2,"leaf_tests":1},"seconds":0.25}` + "\n"
	tests := []struct {
		limit int
		max   int64
		n     int // pairs found
		want  string
	}{
		{0, 0, 0, `{"pose":4,"collide":false,"pairs":[]` + tail},
		{0, 0, 5, `{"pose":4,"collide":true,"pairs":[[1,1],[2,3],[2,9],[5,1],[9,0]]` + tail},
		{3, 0, 5, `{"pose":4,"collide":true,"pairs":[[2,3],[2,9],[5,1],[9,0],[1,1]]` + tail},
		{3, 4, 5, `{"pose":4,"collide":true,"pairs":[[2,3],[2,9],[5,1],[9,0]],"truncated":true` + tail},
		{0, 2, 5, `{"pose":4,"collide":true,"pairs":[[2,9],[5,1]],"truncated":true` + tail},
		{0, 5, 5, `{"pose":4,"collide":true,"pairs":[[1,1],[2,3],[2,9],[5,1],[9,0]]` + tail},
	}
	for _, tc := range tests {
		var b bytes.Buffer
		p := &Pairs{W: &b, Max: tc.max, SortLimit: tc.limit}
		for range 2 { // twice: Begin resets the pose
			b.Reset()
			p.Begin(4)
			for _, pr := range found[:tc.n] {
				if !p.Add(pr) {
					break
				}
			}
			p.End(st, 250*time.Millisecond)
			if b.String() != tc.want {
				t.Errorf("limit %d, max %d, %d pairs: %s want %s", tc.limit, tc.max, tc.n, b.String(), tc.want)
			}
		}
	}
}

// TestAppendDistance checks the forms of distance's line.
func TestAppendDistance(t *testing.T) {
	const stats = `"stats":{"bv_tests":1,"tri_tests":2,"updates":3,"leaf_tests":4},"seconds":0.5}` + "\n"
	st := collide.Stats{BVTests: 1, TriTests: 2, Updates: 3, LeafTests: 4}
	tests := []struct {
		r    collide.DistanceResult
		want string
	}{
		{collide.DistanceResult{Distance: 0.1, Bound: 1e-15, Env: 3, Fly: 4, PEnv: geom.Vec3{X: 1}, PFly: geom.Vec3{X: 1.1}, Stats: st},
			`{"pose":2,"distance":0.1,"bound":1e-15,"env":3,"fly":4,"p_env":[1,0,0],"p_fly":[1.1,0,0],` + stats},
		{collide.DistanceResult{Far: true, Env: -1, Fly: -1, Stats: st}, `{"pose":2,"far":true,"max":0.75,` + stats},
		{collide.DistanceResult{Stopped: true, Lower: 0.5, Env: -1, Fly: -1, Stats: st}, `{"pose":2,"stopped":true,"lower":0.5,` + stats},
	}
	for _, tc := range tests {
		if got := string(AppendDistance(nil, 2, &tc.r, 0.75, 500*time.Millisecond)); got != tc.want {
			t.Errorf("%+v: %s want %s", tc.r, got, tc.want)
		}
	}
}

// TestAppendMotion checks the forms of check --ccd's line.
func TestAppendMotion(t *testing.T) {
	const stats = `"stats":{"bv_tests":0,"tri_tests":0,"updates":0,"leaf_tests":0,"spans":0,"exact":0},"seconds":1}` + "\n"
	hit := collide.TOIResult{Hit: true, Pair: collide.Pair{Env: 1, Fly: 2}}
	hit.TOI.Lo, hit.TOI.Hi = 0.25, 0.5
	miss := collide.TOIResult{}
	if got, want := string(AppendMotion(nil, 3, &hit, time.Second)), `{"motion":3,"hit":true,"toi":[0.25,0.5],"pair":[1,2],"maybe":false,`+stats; got != want {
		t.Errorf("hit: %s want %s", got, want)
	}
	if got, want := string(AppendMotion(nil, 3, &miss, time.Second)), `{"motion":3,"hit":false,"maybe":false,`+stats; got != want {
		t.Errorf("miss: %s want %s", got, want)
	}
}
