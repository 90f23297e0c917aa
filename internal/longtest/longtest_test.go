package longtest_test

import (
	"testing"

	"github.com/collide3d/collide/internal/longtest"
)

func TestEnabled(t *testing.T) {
	for _, c := range []struct {
		v    string
		want bool
	}{{"", false}, {"0", false}, {"1", true}, {"yes", true}} {
		t.Setenv(longtest.Env, c.v)
		if got := longtest.Enabled(); got != c.want {
			t.Errorf("%s=%q: Enabled() = %v, want %v", longtest.Env, c.v, got, c.want)
		}
		if got, want := longtest.Pick(1, 2), map[bool]int{false: 1, true: 2}[c.want]; got != want {
			t.Errorf("%s=%q: Pick(1, 2) = %d, want %d", longtest.Env, c.v, got, want)
		}
	}
}

func TestSkip(t *testing.T) {
	t.Setenv(longtest.Env, "")
	ran := false
	t.Run("short", func(t *testing.T) {
		longtest.Skip(t)
		ran = true
	})
	if ran {
		t.Error("Skip let a long case run without " + longtest.Env)
	}
	t.Setenv(longtest.Env, "1")
	t.Run("long", func(t *testing.T) {
		longtest.Skip(t)
		ran = true
	})
	if !ran {
		t.Error("Skip skipped a long case with " + longtest.Env + "=1")
	}
}
