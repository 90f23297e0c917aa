package sap

import (
	"testing"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/broad/broadtest"
)

func TestConformance(t *testing.T) {
	broadtest.Run(t, func() broad.Phase { return New() })
}
