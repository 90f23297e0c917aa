package boxtrace

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/collide3d/collide/geom"
)

func collectSource(t *testing.T, src Source) *Trace {
	t.Helper()
	objects, _ := src.Header()
	tr := &Trace{Objects: objects}
	for {
		var s Step
		err := src.Next(&s)
		if err == io.EOF {
			return tr
		}
		if err != nil {
			t.Fatal(err)
		}
		tr.Steps = append(tr.Steps, s)
	}
}

func encodeTrace(t *testing.T, tr *Trace) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, tr.Source()); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// normalize makes empty slices nil, so that traces compare with DeepEqual.
func normalize(tr *Trace) {
	for i := range tr.Steps {
		s := &tr.Steps[i]
		if len(s.Add) == 0 {
			s.Add = nil
		}
		if len(s.Move) == 0 {
			s.Move = nil
		}
		if len(s.Remove) == 0 {
			s.Remove = nil
		}
	}
}

func TestBoxTraceRoundTrip(t *testing.T) {
	for _, c := range []BrownianConfig{
		{N: 200, Steps: 12, Seed: 1, Static: 0.1},
		{N: 150, Steps: 20, Seed: 2, Static: 0.2, Grid: 0.25, Sigma: 0.2, Churn: 0.05},
		{N: 0, Steps: 3, Seed: 3},
	} {
		want := collectSource(t, c.Source())
		data := encodeTrace(t, want)
		got, err := Read(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		normalize(want)
		normalize(got)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%+v: the trace read back differs from the one written", c)
		}
		// Written through Writer directly from the generator: the
		// same bytes.
		var buf bytes.Buffer
		if err := Write(&buf, c.Source()); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), data) {
			t.Fatalf("%+v: the generator is not deterministic", c)
		}
	}
}

// TestBoxTraceLayout pins the bytes of a small trace: the format the C++
// driver reads.
func TestBoxTraceLayout(t *testing.T) {
	tr := &Trace{Objects: 3, Steps: []Step{
		{Add: []Added{{ID: 2, Static: true, Box: geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(1, 1, 1)}}}},
		{Move: []Moved{{ID: 2, Box: geom.AABB{Min: geom.V(-1, 0, 0), Max: geom.V(2, 1, 1)}}}, Add: []Added{{ID: 0, Box: geom.AABB{}}}},
		{Remove: []int32{2}},
	}}
	f := func(x float64) string {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
		return hex.EncodeToString(b[:])
	}
	u := func(x uint32) string {
		var b [4]byte
		binary.LittleEndian.PutUint32(b[:], x)
		return hex.EncodeToString(b[:])
	}
	want := hex.EncodeToString([]byte("BOXTRACE")) + u(1) + u(3) + u(3) + u(0) +
		u(0) + u(1) + u(0) + u(0) + u(2) + u(1) + f(0) + f(0) + f(0) + f(1) + f(1) + f(1) +
		u(1) + u(1) + u(1) + u(0) + u(0) + u(0) + f(0) + f(0) + f(0) + f(0) + f(0) + f(0) +
		u(2) + f(-1) + f(0) + f(0) + f(2) + f(1) + f(1) +
		u(2) + u(0) + u(0) + u(1) + u(2)
	if got := hex.EncodeToString(encodeTrace(t, tr)); got != want {
		t.Fatalf("bytes\n%s\nwant\n%s", got, want)
	}
}

func TestBoxTraceWriterErrors(t *testing.T) {
	box := geom.AABB{Max: geom.V(1, 1, 1)}
	for _, c := range []struct {
		name  string
		steps []Step
		want  string
	}{
		{"id out of range", []Step{{Add: []Added{{ID: 5, Box: box}}}}, "out of range"},
		{"negative id", []Step{{Add: []Added{{ID: -1, Box: box}}}}, "out of range"},
		{"twice", []Step{{Add: []Added{{ID: 1, Box: box}}, Move: []Moved{{ID: 1, Box: box}}}}, "twice"},
		{"move of absent", []Step{{Move: []Moved{{ID: 1, Box: box}}}}, "absent"},
		{"remove of absent", []Step{{Add: []Added{{ID: 0, Box: box}}}, {Remove: []int32{1}}}, "absent"},
		{"NaN", []Step{{Add: []Added{{ID: 0, Box: geom.AABB{Max: geom.V(math.NaN(), 1, 1)}}}}}, "not finite"},
		{"inverted", []Step{{Add: []Added{{ID: 0, Box: geom.AABB{Min: geom.V(0, 2, 0), Max: geom.V(1, 1, 1)}}}}}, "min > max"},
		{"too many steps", []Step{{}, {}, {}}, "more steps"},
	} {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, 3, 2)
		if err != nil {
			t.Fatal(err)
		}
		for i := range c.steps {
			if err = w.WriteStep(&c.steps[i]); err != nil {
				break
			}
		}
		var te *FormatError
		if !errors.As(err, &te) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
		}
	}
	w, _ := NewWriter(io.Discard, 3, 2)
	if err := w.Close(); err == nil || !strings.Contains(err.Error(), "declared") {
		t.Errorf("closing after too few steps: %v", err)
	}
	if _, err := NewWriter(io.Discard, MaxObjects+1, 1); err == nil {
		t.Errorf("no error for too many objects")
	}
}

func TestBoxTraceReaderErrors(t *testing.T) {
	tr := &Trace{Objects: 3, Steps: []Step{
		{Add: []Added{{ID: 0, Box: geom.AABB{Max: geom.V(1, 1, 1)}}, {ID: 1, Static: true, Box: geom.AABB{Max: geom.V(1, 1, 1)}}}},
		{Move: []Moved{{ID: 0, Box: geom.AABB{Max: geom.V(2, 1, 1)}}}, Remove: []int32{1}},
	}}
	good := encodeTrace(t, tr)
	if _, err := Read(bytes.NewReader(good)); err != nil {
		t.Fatal(err)
	}
	// Every truncation is an error naming the offset, never a panic.
	for n := range len(good) {
		_, err := Read(bytes.NewReader(good[:n]))
		var te *FormatError
		if !errors.As(err, &te) || !strings.Contains(err.Error(), "truncated") {
			t.Fatalf("truncated to %d bytes: %v", n, err)
		}
	}
	put32 := func(off int, x uint32) []byte {
		b := bytes.Clone(good)
		binary.LittleEndian.PutUint32(b[off:], x)
		return b
	}
	put64 := func(off int, x float64) []byte {
		b := bytes.Clone(good)
		binary.LittleEndian.PutUint64(b[off:], math.Float64bits(x))
		return b
	}
	// Offsets: header 0-23; step 0 header 24-39, add 0 at 40 (id, flags,
	// box at 48), add 1 at 96; step 1 header at 152, move at 168, remove
	// at 220.
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"magic", append([]byte("BOXTRACF"), good[8:]...), "offset 0 (header): bad magic"},
		{"version", put32(8, 2), "offset 8 (header): version 2"},
		{"objects", put32(12, MaxObjects+1), "exceeds the limit"},
		{"reserved", put32(20, 7), "reserved"},
		{"step number", put32(24, 1), "offset 24 (step 0): step number 1"},
		{"counts", put32(28, 4), "more operations than the 3 objects"},
		{"id range", put32(40, 3), "offset 40 (step 0): id 3 out of range"},
		{"flags", put32(44, 2), "unknown flags"},
		{"NaN", put64(48, math.NaN()), "offset 48 (step 0): add of id 0: box"},
		{"infinite", put64(72, math.Inf(1)), "not finite"},
		{"inverted", put64(48, 5), "min > max"},
		{"twice", put32(96, 0), "offset 96 (step 0): id 0 appears twice"},
		{"move of absent", put32(168, 2), "move of absent id 2"},
		{"remove of absent", put32(220, 2), "offset 220 (step 1): remove of absent id 2"},
		{"more steps declared", put32(16, 3), "truncated"},
		{"trailing data", append(bytes.Clone(good), 0), "data after the last step"},
	} {
		_, err := Read(bytes.NewReader(c.data))
		var te *FormatError
		if !errors.As(err, &te) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
		}
	}
}

// FuzzBoxTrace checks that reading any bytes gives a trace or an error,
// never a panic, and that a trace read writes back to the same bytes.
func FuzzBoxTrace(f *testing.F) {
	var buf bytes.Buffer
	Write(&buf, BrownianConfig{N: 5, Steps: 3, Seed: 1, Static: 0.3, Churn: 0.3}.Source())
	f.Add(buf.Bytes())
	f.Add([]byte("BOXTRACE"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := Write(&out, tr.Source()); err != nil {
			t.Fatalf("a trace read does not write: %v", err)
		}
		if !bytes.Equal(out.Bytes(), data) {
			t.Fatalf("a trace read writes back differently")
		}
	})
}
