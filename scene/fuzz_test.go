package scene

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"
)

// FuzzRead checks that no scene file, however malformed, makes Read panic,
// and that every error it returns is an *Error naming the file.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"steps": 3, "models": [{"name": "b", "mesh": "gen:box"}], "objects": [{"name": "o", "model": "b", "motion": "brownian"}]}`))
	f.Add([]byte(`{"models": [{"name": "b", "mesh": "gen:icosphere:tris=80"}], "objects": [{"name": "a", "model": "b", "static": true}, {"name": "c", "model": "b", "position": [1, 0, 0], "motion": {"type": "billiard", "speed": 0.1}}], "interest": [{"groups": [0, 0], "on": false}]}`))
	f.Add([]byte(`{"objects": [{"name": "x", "model": "nope"}]}`))
	f.Add([]byte(`{"models": [{"name": "b", "mesh": "gen:box"}], "objects": [{"name": "o", "model": "b", "pose": [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1e308]}]}`))
	f.Add([]byte(`[`))
	name := filepath.Join(f.TempDir(), "fuzz.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Read(bytes.NewReader(data), name)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is not a *scene.Error", err, err)
			}
			return
		}
		if s == nil {
			t.Fatal("nil scene without an error")
		}
	})
}
