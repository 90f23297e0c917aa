package shape

import (
	"testing"

	"github.com/collide3d/collide/geom"
)

// TestHugeSegments checks both tests on straight paths whose length, and
// whose coordinates' differences, overflow float64 (from x = -9e307 to
// 9e307): a triangle on the path's line at 0 is met, one exactly at the
// solid's radius beside it is met (a touch), one an ulp farther is not,
// and so is one beyond the path's end.
func TestHugeSegments(t *testing.T) {
	path := Segment(geom.V(-9e307, 0, 0), geom.V(9e307, 0, 0))
	tri := func(y, x float64) geom.Triangle {
		return geom.Triangle{geom.V(x, y, -1), geom.V(x+1, y, 1), geom.V(x, y, 1)}
	}
	const r = 3.0
	far := 3.0000000000000004 // the float after 3
	for _, c := range []struct {
		name string
		t    geom.Triangle
		want bool
	}{
		{"on the line", tri(0, 0), true},
		{"at the radius", tri(r, 100), true},
		{"an ulp farther", tri(far, 100), false},
		{"near the end", tri(0, 8.9e307), true},
		{"beyond the end", tri(0, 1.7e308), false},
	} {
		if got := Ball(path, 0, r, c.t); got != c.want {
			t.Errorf("ball, %s: %v, want %v", c.name, got, c.want)
		}
		if got := Cylinder(path, r, -1, 1, c.t); got != c.want {
			t.Errorf("cylinder, %s: %v, want %v", c.name, got, c.want)
		}
	}
}
