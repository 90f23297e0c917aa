package ch2

import (
	"math/rand/v2"

	"github.com/collide3d/collide/geom"
	"testing"
)

// BenchmarkFrameSet times moving the balloon (320 triangles) to a pose:
// the part of the chapter's methods' step that the BV-trees skip.
func BenchmarkFrameSet(b *testing.B) {
	flies, err := flyingObjects(0.06)
	if err != nil {
		b.Fatal(err)
	}
	fly := flies[1].Mesh
	r := rand.New(rand.NewPCG(1, 1))
	var f Frame
	f.Set(geom.Pose{R: randomRotation(r)}, fly)
	b.ReportAllocs()
	for b.Loop() {
		f.Set(f.Pose, fly)
	}
}
