package sap

import (
	"testing"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/broad/broadtest"
)

func BenchmarkPairs(b *testing.B) { broadtest.BenchPairs(b, func() broad.Phase { return New() }) }

func BenchmarkBulk(b *testing.B) { broadtest.BenchBulk(b, func() broad.Phase { return New() }) }
