package plot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestLinearTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   []float64
	}{
		{0, 0.93, []float64{0, 0.2, 0.4, 0.6, 0.8}},
		{0, 1, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{0, 100, []float64{0, 20, 40, 60, 80, 100}},
		{-3, 7, []float64{-2, 0, 2, 4, 6}},
		{0.001, 0.0042, []float64{0.001, 0.0015, 0.002, 0.0025, 0.003, 0.0035, 0.004}},
		{0.3, 0.9, []float64{0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}},
		{1e6, 1e6 + 10, []float64{1e6, 1e6 + 2, 1e6 + 4, 1e6 + 6, 1e6 + 8, 1e6 + 10}},
		{-1e-9, 0, []float64{-1e-9, -8e-10, -6e-10, -4e-10, -2e-10, 0}},
		{2, 3e4, []float64{0.5e4, 1e4, 1.5e4, 2e4, 2.5e4, 3e4}},
		{5, 5, nil},           // empty range
		{5, 4, nil},           // reversed
		{0, math.Inf(1), nil}, // not finite
		{math.NaN(), 1, nil},  // not finite
		{1, 1 + 1e-12, nil},   // too narrow for its magnitude
		{0, 5e-324 * 4, nil},  // subnormal
		{-1e308, 1e308, []float64{-1e308, -5e307, 0, 5e307, 1e308}},
	} {
		if got := linearTicks(c.lo, c.hi, 5); !slices.Equal(got, c.want) {
			t.Errorf("linearTicks(%g, %g) = %v, want %v", c.lo, c.hi, got, c.want)
		}
	}
}

func TestLogTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   []float64
	}{
		{0.03, 20, []float64{0.1, 1, 10}},
		{1, 1000, []float64{1, 10, 100, 1000}},
		{0.1, 0.1, []float64{0.1}},
		{2, 8, nil},
		{1e-9, 1e9, []float64{1e-9, 1e-6, 1e-3, 1, 1e3, 1e6, 1e9}}, // every third decade
		{0, 10, nil},
		{-1, 10, nil},
		{1, math.Inf(1), nil},
	} {
		if got := logTicks(c.lo, c.hi); !slices.Equal(got, c.want) {
			t.Errorf("logTicks(%g, %g) = %v, want %v", c.lo, c.hi, got, c.want)
		}
	}
}

func TestLabels(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {0.6, "0.6"}, {-2.5, "-2.5"}, {123456, "123456"},
		{1e-4, "0.0001"}, {1e7, "1e7"}, {2.5e-7, "2.5e-7"}, {-3e12, "-3e12"}, {1e-300, "1e-300"},
	} {
		if got := label(c.v); got != c.want {
			t.Errorf("label(%g) = %q, want %q", c.v, got, c.want)
		}
	}
	for _, c := range []struct {
		k    int
		want string
	}{{0, "1"}, {3, "1000"}, {-1, "0.1"}, {-4, "0.0001"}, {-5, "1e-5"}, {9, "1e9"}} {
		if got := decadeLabel(c.k); got != c.want {
			t.Errorf("decadeLabel(%d) = %q, want %q", c.k, got, c.want)
		}
	}
	for _, c := range []struct {
		v    float64
		want string
	}{{12.34, "12.3"}, {12.36, "12.4"}, {-0.01, "0"}, {7, "7"}, {math.NaN(), "0"}} {
		if got := num(c.v); got != c.want {
			t.Errorf("num(%g) = %q, want %q", c.v, got, c.want)
		}
	}
}

// TestScales checks the axis ranges of edge-case data: finite, non-empty,
// containing the data, with finite ticks inside.
func TestScales(t *testing.T) {
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	for _, c := range []struct {
		lo, hi   float64
		withZero bool
	}{
		{0, 0.93, false}, {0, 0, false}, {0, 0, true}, {5, 5, false}, {5, 5, true}, {-5, -5, true},
		{1e10, 1e10 + 1e-5, false}, {5e-324, 1e-323, false}, {-1.7e308, 1.7e308, false},
		{1e300, 1e300, true}, {math.Inf(1), math.Inf(-1), false}, // the empty range
	} {
		s := linearScale(dataRange{c.lo, c.hi}, c.withZero)
		if !finite(s.lo) || !finite(s.hi) || !(s.lo < s.hi) {
			t.Errorf("linear [%g, %g]: axis [%g, %g]", c.lo, c.hi, s.lo, s.hi)
			continue
		}
		if c.lo <= c.hi && (c.lo < s.lo || c.hi > s.hi) {
			t.Errorf("linear [%g, %g]: axis [%g, %g] does not contain the data", c.lo, c.hi, s.lo, s.hi)
		}
		if len(s.ticks) < 2 || len(s.ticks) != len(s.labels) {
			t.Errorf("linear [%g, %g]: ticks %v labels %v", c.lo, c.hi, s.ticks, s.labels)
		}
		for _, v := range s.ticks {
			if p := s.pos(v, 0, 100); !finite(v) || v < s.lo || v > s.hi || !finite(p) {
				t.Errorf("linear [%g, %g]: tick %g at %g", c.lo, c.hi, v, p)
			}
		}
	}
	for _, c := range []struct{ lo, hi float64 }{
		{0.03, 20}, {10, 10}, {3, 3}, {5e-324, 1.7e308}, {1e-320, 1e-320}, {math.Inf(1), math.Inf(-1)},
	} {
		s := logScale(dataRange{c.lo, c.hi})
		if !(s.lo < s.hi) {
			t.Errorf("log [%g, %g]: axis [%g, %g]", c.lo, c.hi, s.lo, s.hi)
		}
		if c.lo <= c.hi {
			if p, q := s.pos(c.lo, 0, 100), s.pos(c.hi, 0, 100); p < -1 || q > 101 {
				t.Errorf("log [%g, %g]: data at %g, %g of [0, 100]", c.lo, c.hi, p, q)
			}
		}
		for _, v := range append(s.ticks, s.minor...) {
			if p := s.pos(v, 0, 100); !finite(v) || !finite(p) || p < -0.5 || p > 100.5 {
				t.Errorf("log [%g, %g]: tick %g at %g", c.lo, c.hi, v, p)
			}
		}
	}
}

// parseSVG reads every token of the document, checks that the root is an
// svg element, and returns the text content.
func parseSVG(t *testing.T, out []byte) string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(out))
	var text strings.Builder
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("invalid XML: %v\n%s", err, out)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = tok.Name.Space + " " + tok.Name.Local
			}
		case xml.CharData:
			text.Write(tok)
			text.WriteByte('\n')
		}
	}
	if root != "http://www.w3.org/2000/svg svg" {
		t.Fatalf("root element %q, want svg", root)
	}
	return text.String()
}

// svgOf writes a chart.
func svgOf(t *testing.T, c interface{ WriteSVG(io.Writer) error }) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := c.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

var (
	nan, inf = math.NaN(), math.Inf(1)
	steps    = func() (x, y []float64) {
		for i := range 3000 {
			x = append(x, float64(i))
			y = append(y, 1e-4*(2+math.Sin(float64(i)/100))*(1+float64(i%7)))
		}
		return x, y
	}
)

func TestLineChart(t *testing.T) {
	sx, sy := steps()
	many := make([]Series, 12)
	for i := range many {
		many[i] = Series{Name: "s" + string(rune('a'+i)), Y: []float64{float64(i), float64(i + 1)}}
	}
	for _, c := range []struct {
		name  string
		chart LineChart
		want  []string // in the text content
	}{
		{"normal", LineChart{Title: "Query time per step", XLabel: "step", YLabel: "time (s)",
			Series: []Series{{Name: "OBB", X: sx, Y: sy}, {Name: "AABB", X: sx, Y: sy[:2000]}}},
			[]string{"Query time per step", "step", "time (s)", "OBB", "AABB"}},
		{"log", LineChart{Title: "log", LogY: true, Series: []Series{{Name: "OBB", X: sx, Y: sy}}},
			[]string{"0.0001", "0.001"}},
		{"escaped", LineChart{Title: `<b> & "q" 'a'`, XLabel: "x<1", YLabel: "y&z",
			Series: []Series{{Name: "a<b & c>d", Y: []float64{1, 2}}, {Name: "bad \xff utf8 \x01 ctl", Y: []float64{2, 1}}}},
			[]string{`<b> & "q" 'a'`, "x<1", "y&z", "a<b & c>d", "bad \uFFFD utf8 \uFFFD ctl"}},
		{"empty chart", LineChart{}, nil},
		{"empty series", LineChart{Title: "t", Series: []Series{{Name: "none"}, {Name: "nil X", X: []float64{1}}}}, []string{"none"}},
		{"single point", LineChart{Series: []Series{{Name: "p", X: []float64{3}, Y: []float64{7}}}}, []string{"p"}},
		{"single point log", LineChart{LogY: true, Series: []Series{{Name: "p", X: []float64{3}, Y: []float64{7}}}}, nil},
		{"equal", LineChart{Series: []Series{{Name: "flat", Y: []float64{2, 2, 2, 2}}}}, nil},
		{"equal zero", LineChart{Series: []Series{{Name: "zero", Y: []float64{0, 0, 0}}}}, nil},
		{"equal x", LineChart{Series: []Series{{Name: "vertical", X: []float64{1, 1, 1}, Y: []float64{1, 2, 3}}}}, nil},
		{"equal log", LineChart{LogY: true, Series: []Series{{Name: "flat", Y: []float64{10, 10}}}}, []string{"1", "100"}},
		{"nan inf", LineChart{Series: []Series{
			{Name: "gaps", X: []float64{0, 1, 2, nan, 4, 5, 6, 7}, Y: []float64{1, nan, 3, 4, inf, 6, -inf, 8}},
			{Name: "all bad", X: []float64{nan, inf}, Y: []float64{1, 2}},
		}}, nil},
		{"all nan", LineChart{LogY: true, Series: []Series{{Name: "n", Y: []float64{nan, nan}}}}, nil},
		{"log zeros", LineChart{LogY: true, Series: []Series{{Name: "z", Y: []float64{0, 0, 1e-3, -1, 0, 5}}}}, nil},
		{"log only zeros", LineChart{LogY: true, Series: []Series{{Name: "z", Y: []float64{0, -1, 0}}}}, nil},
		{"mismatched", LineChart{Series: []Series{{Name: "m", X: []float64{1, 2, 3}, Y: []float64{1}}}}, nil},
		{"extreme", LineChart{Series: []Series{{Name: "e", X: []float64{-1.7e308, 1.7e308}, Y: []float64{5e-324, 1.7e308}}}}, nil},
		{"extreme log", LineChart{LogY: true, Series: []Series{{Name: "e", Y: []float64{5e-324, 1.7e308}}}}, nil},
		{"narrow", LineChart{Series: []Series{{Name: "n", X: []float64{1e10, 1e10 + 1e-5}, Y: []float64{1, 1 + 1e-15}}}}, nil},
		{"many series", LineChart{Series: many}, []string{"sa", "sl"}},
		{"tiny", LineChart{Title: "tiny", Width: 10, Height: -3, Series: []Series{{Name: "a long series name that will not fit", Y: []float64{1, 2}}}}, nil},
		{"unnamed", LineChart{Series: []Series{{Y: []float64{1, 2}}}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := svgOf(t, &c.chart)
			text := parseSVG(t, out)
			for _, bad := range []string{"NaN", "Inf"} {
				if bytes.Contains(out, []byte(bad)) {
					t.Errorf("output contains %q", bad)
				}
			}
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("text %q missing", w)
				}
			}
			if again := svgOf(t, &c.chart); !bytes.Equal(out, again) {
				t.Errorf("output not deterministic")
			}
		})
	}
}

func TestLineChartOutput(t *testing.T) {
	sx, sy := steps()
	out := svgOf(t, &LineChart{Series: []Series{{Name: "s", X: sx, Y: sy}}})
	if len(out) > 60_000 {
		t.Errorf("3000 points take %d bytes", len(out))
	}
	for _, pts := range regexp.MustCompile(`points="([^"]*)"`).FindAllSubmatch(out, -1) {
		if m := regexp.MustCompile(`\.\d\d`).Find(pts[1]); m != nil {
			t.Errorf("coordinate %q has more than one decimal", m)
		}
	}
	// Gaps: NaN and Inf split the line; isolated points become dots.
	out = svgOf(t, &LineChart{Series: []Series{{Name: "g",
		Y: []float64{1, 2, 3, nan, 4, 5, inf, 6, nan, 7, 8}}}})
	if n := bytes.Count(out, []byte("<polyline")); n != 3 {
		t.Errorf("%d polylines, want 3 (1-3, 4-5, 7-8)", n)
	}
	if n := bytes.Count(out, []byte("<circle")); n != 1 {
		t.Errorf("%d dots, want 1 (6)", n)
	}
	// Distinct colours, in palette order.
	var series []Series
	for range len(Palette) {
		series = append(series, Series{Name: "x", Y: []float64{1, 2}})
	}
	out = svgOf(t, &LineChart{Series: series})
	for _, col := range Palette {
		if !bytes.Contains(out, []byte(`stroke="`+col+`"`)) {
			t.Errorf("colour %s not used", col)
		}
	}
	if bytes.Contains(out, []byte("stroke-dasharray")) {
		t.Errorf("dashes in the first %d series", len(Palette))
	}
	// Dashed series: the line and its legend entry.
	out = svgOf(t, &LineChart{Series: []Series{{Name: "measured", Y: []float64{1, 2}}, {Name: "paper", Y: []float64{1, 3}, Dashed: true}}})
	if n := bytes.Count(out, []byte(`stroke-dasharray="6 3"`)); n != 2 {
		t.Errorf("%d dashed elements, want 2 (line, legend)", n)
	}
}

func TestBarChart(t *testing.T) {
	for _, c := range []struct {
		name  string
		chart BarChart
		want  []string
		bars  int
	}{
		{"normal", BarChart{Title: "Time per scene", YLabel: "ms", Categories: []string{"torus", "bunny", "<lattice & co>"},
			Series: []Series{{Name: "OBB", Y: []float64{1, 2, 3}}, {Name: "AABB & sphere", Y: []float64{2, 0.5, 1}}}},
			[]string{"Time per scene", "ms", "torus", "<lattice & co>", "AABB & sphere"}, 6},
		{"log", BarChart{LogY: true, Categories: []string{"a", "b", "c"},
			Series: []Series{{Name: "s", Y: []float64{0.03, 20, 0}}}}, []string{"0.01", "0.1", "1", "10", "100"}, 2},
		{"negative", BarChart{Categories: []string{"a", "b"}, Series: []Series{{Name: "s", Y: []float64{-3, 4}}}}, nil, 2},
		{"empty", BarChart{}, nil, 0},
		{"no series", BarChart{Categories: []string{"a"}}, []string{"a"}, 0},
		{"no categories", BarChart{Series: []Series{{Name: "s", Y: []float64{1}}}}, nil, 0},
		{"missing values", BarChart{Categories: []string{"a", "b", "c"},
			Series: []Series{{Name: "short", Y: []float64{1}}, {Name: "bad", Y: []float64{nan, inf, 2, 9}}}}, nil, 2},
		{"equal", BarChart{Categories: []string{"a", "b"}, Series: []Series{{Name: "s", Y: []float64{5, 5}}}}, nil, 2},
		{"zeros", BarChart{Categories: []string{"a", "b"}, Series: []Series{{Name: "s", Y: []float64{0, 0}}}}, nil, 2},
		{"log zeros", BarChart{LogY: true, Categories: []string{"a", "b"}, Series: []Series{{Name: "s", Y: []float64{0, -2}}}}, nil, 0},
		{"long labels", BarChart{Categories: []string{"a very long category name", "another very long category name", "x", "y", "z", "w"},
			Series: []Series{{Name: "s", Y: []float64{1, 2, 3, 4, 5, 6}}}}, []string{"a very long category name"}, 6},
		{"many series", BarChart{Categories: []string{"a"}, Series: func() []Series {
			s := make([]Series, 10)
			for i := range s {
				s[i] = Series{Name: "s", Y: []float64{float64(i + 1)}}
			}
			return s
		}()}, nil, 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := svgOf(t, &c.chart)
			text := parseSVG(t, out)
			for _, bad := range []string{"NaN", "Inf"} {
				if bytes.Contains(out, []byte(bad)) {
					t.Errorf("output contains %q", bad)
				}
			}
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("text %q missing", w)
				}
			}
			if n := bytes.Count(out, []byte("<title>")); n != c.bars {
				t.Errorf("%d bars, want %d", n, c.bars)
			}
			if again := svgOf(t, &c.chart); !bytes.Equal(out, again) {
				t.Errorf("output not deterministic")
			}
		})
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteError(t *testing.T) {
	if err := (&LineChart{}).WriteSVG(failWriter{}); err == nil {
		t.Errorf("LineChart: no error")
	}
	if err := (&BarChart{}).WriteSVG(failWriter{}); err == nil {
		t.Errorf("BarChart: no error")
	}
}

func ExampleLineChart() {
	c := LineChart{
		Title:  "Query time per step",
		XLabel: "step",
		YLabel: "time (ms)",
		LogY:   true,
		Series: []Series{
			{Name: "OBB tree", Y: []float64{0.8, 0.9, 1.4, 2.2, 1.1, 0.7}},
			{Name: "AABB tree", Y: []float64{1.2, 1.5, 2.9, 4.1, 1.8, 1.0}},
		},
	}
	if err := c.WriteSVG(os.Stdout); err != nil {
		panic(err)
	}
}

func ExampleBarChart() {
	c := BarChart{
		Title:      "Build time",
		YLabel:     "ms",
		Categories: []string{"torus", "bunny", "dragon"},
		Series: []Series{
			{Name: "OBB", Y: []float64{3.1, 12.5, 140}},
			{Name: "AABB", Y: []float64{1.2, 5.0, 61}},
		},
	}
	if err := c.WriteSVG(os.Stdout); err != nil {
		panic(err)
	}
}
