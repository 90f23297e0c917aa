package mesh_test

import (
	"slices"
	"testing"

	"github.com/collide3d/collide/mesh"
)

func TestFan(t *testing.T) {
	tests := []struct {
		poly []int32
		want [][3]int32
	}{
		{[]int32{4}, nil},
		{[]int32{4, 5}, nil},
		{[]int32{4, 5, 6}, [][3]int32{{4, 5, 6}}},
		{[]int32{1, 2, 3, 4, 5}, [][3]int32{{1, 2, 3}, {1, 3, 4}, {1, 4, 5}}},
	}
	for _, tc := range tests {
		var f mesh.Fan
		var got [][3]int32
		for _, v := range tc.poly {
			got = f.Add(got, v)
		}
		if !slices.Equal(got, tc.want) || f.Len() != len(tc.poly) {
			t.Errorf("fan of %v = %v (Len %d), want %v", tc.poly, got, f.Len(), tc.want)
		}
	}
}
