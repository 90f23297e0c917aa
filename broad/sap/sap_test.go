package sap

import (
	"testing"

	"github.com/collide3d/collide/broad"
	"github.com/collide3d/collide/broad/broadtest"
)

func TestArray(t *testing.T) {
	broadtest.Run(t, func() broad.Phase { return NewArray() })
}

func TestAxis3(t *testing.T) {
	broadtest.Run(t, func() broad.Phase { return NewAxis3() })
}
