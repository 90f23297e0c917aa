// Package plot draws the line and bar charts of collide's benchmark reports
// as standalone SVG.
//
// A chart is a plain struct (LineChart, BarChart) whose WriteSVG method
// writes a complete SVG document: title, axes with 'nice' tick values (steps
// of 1, 2 or 5 × 10^k, or decades on a logarithmic axis), axis labels, a
// legend and one colour per series from a fixed colour-blind-friendly
// palette. Coordinates are written with one decimal, so that charts of
// thousands of points stay small. NaN and infinite values (and values ≤ 0 on
// a logarithmic axis) are skipped; empty charts, single points and constant
// series are drawn without error. The output depends only on the chart.
package plot

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Series is one line of a line chart, or one group of a bar chart.
//
// In a LineChart, point i is (X[i], Y[i]) for i < min(len(X), len(Y)); if X
// is nil the points are (i, Y[i]) for every i. In a BarChart, Y[i] is the
// bar of the series in category i and X is ignored. An empty Name leaves
// the series out of the legend.
type Series struct {
	Name   string
	X, Y   []float64
	Dashed bool // draw the line dashed (line charts only)
}

// LineChart is a chart of one or more series against a shared x axis, like
// the per-step query-time plot of Klosowski et al.'s Fig. 3. Each series is
// drawn as a polyline, broken where a point is skipped (NaN or infinite
// coordinates, or Y ≤ 0 with LogY); an isolated point is drawn as a dot. A
// linear y axis always includes 0.
type LineChart struct {
	Title, XLabel, YLabel string
	Series                []Series
	LogY                  bool // logarithmic y axis (values ≤ 0 are skipped)
	Width, Height         int  // pixels; 0 means 720×360 (at least 240×160)
}

// BarChart is a grouped bar chart: Categories along x (e.g. scene names),
// one bar per series in each group, of height Y[i] for category i (only
// Name and Y of each series are used). A missing, NaN or infinite value (or
// one ≤ 0 with LogY) leaves its bar out. On a linear axis, bars start at 0
// (negative values go down); on a logarithmic axis, at the bottom of the
// axis.
type BarChart struct {
	Title, YLabel string
	Categories    []string
	Series        []Series
	LogY          bool // logarithmic y axis (values ≤ 0 are skipped)
	Width, Height int  // pixels; 0 means 720×360 (at least 240×160)
}

// Palette holds the series colours, used in order and then cycled (with
// dotted lines, or lighter bars, from the ninth series on): the colour-blind
// safe palette of Okabe and Ito, its yellow last.
var Palette = [...]string{
	"#0072B2", // blue
	"#D55E00", // vermillion
	"#009E73", // bluish green
	"#E69F00", // orange
	"#CC79A7", // reddish purple
	"#56B4E9", // sky blue
	"#000000", // black
	"#F0E442", // yellow
}

// Layout constants, in pixels.
const (
	defaultWidth, defaultHeight = 720, 360
	minWidth, minHeight         = 240, 160
	fontSize                    = 12
	titleSize                   = 16
	charWidth                   = 7 // estimated width of a character at fontSize
	tickLen                     = 5
	targetTicks                 = 5 // about this many linear ticks per axis
	maxDecadeTicks              = 8 // at most about this many decade labels
)

// WriteSVG writes the chart as a standalone SVG document.
func (c *LineChart) WriteSVG(w io.Writer) error {
	// Data ranges.
	xr, yr := newRange(), newRange()
	for _, s := range c.Series {
		forPoints(s, c.LogY, func(x, y float64) { xr.add(x); yr.add(y) })
	}
	xs := linearScale(xr, false)
	var ys scale
	if c.LogY {
		ys = logScale(yr)
	} else {
		ys = linearScale(yr, true)
	}

	var d doc
	f := d.begin(layout{
		width: c.Width, height: c.Height, title: c.Title, xLabel: c.XLabel != "",
		yLabel: c.YLabel, yTicks: ys.labels, series: c.Series,
	})
	d.grid(f, ys)
	d.xAxis(f, xs)
	d.yAxis(f, ys)

	d.printf(`<g fill="none" stroke-width="1.5" stroke-linejoin="round">`)
	for i, s := range c.Series {
		color, dash := style(c.Series, i)
		d.printf(`<g stroke="%s"%s>`, color, dash)
		if s.Name != "" {
			d.printf(`<title>%s</title>`, escape(s.Name))
		}
		var run []byte    // the points of the current polyline
		var px, py string // the last point
		n := 0
		flush := func() {
			switch {
			case n == 1: // an isolated point: a dot
				d.printf(`<circle cx="%s" cy="%s" r="2" fill="%s" stroke="none"/>`, px, py, color)
			case n > 1:
				d.printf(`<polyline points="%s"/>`, run)
			}
			run, px, py, n = run[:0], "", "", 0
		}
		forPointsGaps(s, c.LogY, func(x, y float64, ok bool) {
			if !ok {
				flush()
				return
			}
			qx, qy := num(xs.pos(x, f.x0, f.x1)), num(ys.pos(y, f.y1, f.y0))
			if n > 0 && qx == px && qy == py {
				return // the same pixel as the previous point
			}
			if n > 0 {
				run = append(run, ' ')
			}
			run = append(append(append(run, qx...), ','), qy...)
			px, py = qx, qy
			n++
		})
		flush()
		d.printf(`</g>`)
	}
	d.printf(`</g>`)

	d.legend(f, c.Series, false)
	if c.XLabel != "" {
		d.printf(`<text x="%s" y="%s" text-anchor="middle">%s</text>`,
			num((f.x0+f.x1)/2), num(f.y1+tickLen+2*fontSize+8), escape(c.XLabel))
	}
	return d.end(w)
}

// WriteSVG writes the chart as a standalone SVG document.
func (c *BarChart) WriteSVG(w io.Writer) error {
	yr := newRange()
	for _, s := range c.Series {
		for i, y := range s.Y {
			if i < len(c.Categories) && valid(y, c.LogY) {
				yr.add(y)
			}
		}
	}
	var ys scale
	if c.LogY {
		ys = logScale(yr)
	} else {
		ys = linearScale(yr, true)
	}

	// Category labels turn (by 35°) when they do not fit under their
	// group; then they need room below the axis, and the first one room on
	// the left.
	lay := layout{width: c.Width, height: c.Height, title: c.Title, yLabel: c.YLabel, yTicks: ys.labels, series: c.Series}
	width, height := size(c.Width, c.Height)
	turn := false
	if nc := len(c.Categories); nc > 0 {
		longest := 0
		for _, name := range c.Categories {
			longest = max(longest, utf8.RuneCountInString(name))
		}
		group := float64(width-120) / float64(nc) // roughly
		if float64(longest*charWidth) > 0.9*group {
			turn = true
			lay.extraBottom = min(float64(longest*charWidth)*0.6, float64(height)/3)
			first := float64(utf8.RuneCountInString(c.Categories[0])*charWidth) * 0.82
			lay.minLeft = min(first-group/2+4, float64(width)/3)
		}
	}
	var d doc
	f := d.begin(lay)
	d.grid(f, ys)
	d.yAxis(f, ys)

	// Bars.
	nc, ns := len(c.Categories), len(c.Series)
	if nc > 0 && ns > 0 {
		group := (f.x1 - f.x0) / float64(nc)
		bw := group * 0.8 / float64(ns)
		base := f.y1 // bars start at the bottom of a log axis
		if !c.LogY {
			base = ys.pos(0, f.y1, f.y0)
		}
		for j, s := range c.Series {
			color, _ := style(c.Series, j)
			opacity := ""
			if j >= len(Palette) {
				opacity = ` fill-opacity="0.5"`
			}
			d.printf(`<g fill="%s"%s>`, color, opacity)
			for i, y := range s.Y {
				if i >= nc || !valid(y, c.LogY) {
					continue
				}
				x := f.x0 + group*(float64(i)+0.1) + bw*float64(j)
				top := ys.pos(y, f.y1, f.y0)
				lo, hi := min(top, base), max(top, base)
				tip := label(y)
				if s.Name != "" {
					tip = s.Name + ": " + tip
				}
				d.printf(`<rect x="%s" y="%s" width="%s" height="%s"><title>%s</title></rect>`,
					num(x), num(lo), num(bw), num(hi-lo), escape(tip))
			}
			d.printf(`</g>`)
		}
	}

	// The x axis and the category labels.
	d.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>`, num(f.x0), num(f.y1), num(f.x1), num(f.y1))
	for i, name := range c.Categories {
		x := f.x0 + (f.x1-f.x0)*(float64(i)+0.5)/float64(nc)
		y := f.y1 + tickLen + fontSize + 2
		if turn {
			d.printf(`<text text-anchor="end" transform="translate(%s,%s) rotate(-35)">%s</text>`, num(x), num(y-4), escape(name))
		} else {
			d.printf(`<text x="%s" y="%s" text-anchor="middle">%s</text>`, num(x), num(y), escape(name))
		}
	}
	d.legend(f, c.Series, true)
	return d.end(w)
}

// style returns the colour of series i of ss and the dash attribute of its
// line: dashed if Dashed, else solid for the first len(Palette) series,
// then dotted, then dash-dotted as the colours repeat.
func style(ss []Series, i int) (color, dash string) {
	color = Palette[i%len(Palette)]
	switch {
	case ss[i].Dashed:
		dash = ` stroke-dasharray="6 3"`
	case i < len(Palette):
	case i < 2*len(Palette):
		dash = ` stroke-dasharray="2 3"`
	default:
		dash = ` stroke-dasharray="8 3 2 3"`
	}
	return color, dash
}

// valid reports whether y can be drawn: finite, and > 0 on a log axis.
func valid(y float64, logY bool) bool {
	return !math.IsNaN(y) && !math.IsInf(y, 0) && (!logY || y > 0)
}

// forPoints calls fn for every drawable point of s.
func forPoints(s Series, logY bool, fn func(x, y float64)) {
	forPointsGaps(s, logY, func(x, y float64, ok bool) {
		if ok {
			fn(x, y)
		}
	})
}

// forPointsGaps calls fn for every point of s, in order, with ok false for
// a point that cannot be drawn.
func forPointsGaps(s Series, logY bool, fn func(x, y float64, ok bool)) {
	n := len(s.Y)
	if s.X != nil {
		n = min(n, len(s.X))
	}
	for i := range n {
		x := float64(i)
		if s.X != nil {
			x = s.X[i]
		}
		y := s.Y[i]
		fn(x, y, valid(x, false) && valid(y, logY))
	}
}

// dataRange is the range of the finite values added to it.
type dataRange struct{ lo, hi float64 }

func newRange() dataRange { return dataRange{math.Inf(1), math.Inf(-1)} }

func (r *dataRange) add(v float64) { r.lo, r.hi = min(r.lo, v), max(r.hi, v) }

func (r dataRange) empty() bool { return r.lo > r.hi }

// scale maps data values on an axis to pixels.
type scale struct {
	lo, hi float64 // the axis range: data values, or exponents of 10 if log
	log    bool
	ticks  []float64 // labelled ticks (data values)
	minor  []float64 // unlabelled tick marks (data values)
	labels []string  // labels of ticks
}

// pos maps v to [p0, p1] (p0 at lo, p1 at hi). It never returns NaN.
func (s scale) pos(v, p0, p1 float64) float64 {
	var t float64
	if s.log {
		t = (log10(v) - s.lo) / (s.hi - s.lo)
	} else {
		// Halved, so that hi - lo cannot overflow.
		t = (v/2 - s.lo/2) / (s.hi/2 - s.lo/2)
	}
	if math.IsNaN(t) || math.IsInf(t, 0) {
		t = 0.5
	}
	return p0 + t*(p1-p0)
}

// linearScale returns the linear axis for the data range r (including 0 if
// withZero), widened to whole ticks.
func linearScale(r dataRange, withZero bool) scale {
	lo, hi := r.lo, r.hi
	if r.empty() {
		lo, hi = 0, 1
	}
	if withZero {
		lo, hi = min(lo, 0), max(hi, 0)
	}
	// A range that is empty, or too narrow for its magnitude, is widened
	// around its centre.
	mag := max(math.Abs(lo), math.Abs(hi))
	if !(hi-lo > max(mag*1e-9, 1e-300)) {
		switch {
		case mag < 1e-300:
			lo, hi = 0, 1
		case withZero && lo >= 0:
			lo, hi = 0, hi+mag*0.1
		default:
			lo, hi = lo-mag*0.1, hi+mag*0.1
		}
	}
	st, ok := niceStep(lo, hi, targetTicks)
	if ok {
		// Widen to the nearest ticks outside, if they are finite.
		if k := st.floorIndex(lo); st.ok(k) && st.value(k) <= lo {
			lo = st.value(k)
		}
		k := st.floorIndex(hi)
		if st.value(k) < hi {
			k++
		}
		if st.ok(k) && st.value(k) >= hi {
			hi = st.value(k)
		}
	}
	s := scale{lo: lo, hi: hi}
	if ok {
		s.ticks = st.ticksIn(lo, hi)
	}
	if len(s.ticks) == 0 {
		s.ticks = []float64{lo, hi}
	}
	for _, t := range s.ticks {
		s.labels = append(s.labels, label(t))
	}
	return s
}

// logScale returns the logarithmic axis for the positive data range r,
// widened to whole decades.
func logScale(r dataRange) scale {
	lo, hi := r.lo, r.hi
	if r.empty() {
		lo, hi = 1, 10
	}
	elo, ehi := floorExp(lo), floorExp(hi)
	if pow10(ehi) < hi {
		ehi++
	}
	if elo == ehi {
		elo, ehi = elo-1, ehi+1
	}
	s := scale{lo: float64(elo), hi: float64(ehi), log: true}
	drawable := func(v float64) bool { return v > 0 && !math.IsInf(v, 0) } // not beyond float64
	for _, k := range decades(elo, ehi) {
		if v := pow10(k); drawable(v) {
			s.ticks = append(s.ticks, v)
			s.labels = append(s.labels, decadeLabel(k))
		}
	}
	if ehi-elo <= 5 {
		for k := elo; k < ehi; k++ {
			for m := 2; m <= 9; m++ {
				if v := parse(fmt.Sprintf("%de%d", m, k)); drawable(v) {
					s.minor = append(s.minor, v)
				}
			}
		}
	}
	return s
}

// step is a tick step m × 10^e with m in {1, 2, 5}. Tick k is k·m × 10^e,
// converted from its decimal form, so that a tick is the float64 nearest to
// its label (0.6, not 3 × 0.2).
type step struct {
	m int64
	e int
}

// value returns tick k.
func (s step) value(k int64) float64 { return parse(fmt.Sprintf("%de%d", k*s.m, s.e)) }

// ok reports whether tick k is finite.
func (s step) ok(k int64) bool {
	v := s.value(k)
	return !math.IsInf(v, 0) && !math.IsNaN(v)
}

// floorIndex returns the index of the largest tick ≤ v (v finite, within
// about 1e10 steps of 0).
func (s step) floorIndex(v float64) int64 {
	k := int64(math.Floor(v/s.approx())) + 1
	for i := 0; i < 8 && s.value(k) > v; i++ {
		k--
	}
	return k
}

// approx returns the step as a float64 (possibly rounded).
func (s step) approx() float64 { return s.value(1) }

// ticksIn returns the ticks in [lo, hi].
func (s step) ticksIn(lo, hi float64) []float64 {
	var ts []float64
	k := s.floorIndex(lo)
	if s.value(k) < lo {
		k++
	}
	for i := 0; i < 100 && s.value(k) <= hi; i++ {
		ts = append(ts, s.value(k))
		k++
	}
	return ts
}

// niceStep returns the step of 1, 2 or 5 × 10^k that divides [lo, hi] into
// about n intervals, or false if there is none (a range that is not finite,
// empty, or too narrow for its magnitude).
func niceStep(lo, hi float64, n int) (step, bool) {
	raw := (hi/2 - lo/2) / float64(n) * 2
	mag := max(math.Abs(lo), math.Abs(hi))
	if !(raw > 0) || math.IsInf(raw, 0) || raw < mag*1e-11 || raw < 1e-300 {
		return step{}, false
	}
	e := floorExp(raw)
	f := raw / parse(fmt.Sprintf("1e%d", e)) // in [1, 10), up to rounding
	st := step{1, e}
	switch {
	case f >= math.Sqrt(50):
		st = step{1, e + 1}
	case f >= math.Sqrt(10):
		st = step{5, e}
	case f >= math.Sqrt(2):
		st = step{2, e}
	}
	if !st.ok(1) {
		st = step{1, e} // 2 or 5 × 10^308 overflows
	}
	return st, st.ok(1) && st.approx() > 0
}

// linearTicks returns the nice ticks in [lo, hi]: the multiples in [lo, hi]
// of the step of 1, 2 or 5 × 10^k that divides the range into about n
// intervals.
func linearTicks(lo, hi float64, n int) []float64 {
	st, ok := niceStep(lo, hi, n)
	if !ok {
		return nil
	}
	return st.ticksIn(lo, hi)
}

// logTicks returns the decade ticks 10^k in [lo, hi] (0 < lo ≤ hi), every
// decade or, on a long range, every few decades.
func logTicks(lo, hi float64) []float64 {
	if !(lo > 0 && lo <= hi) || math.IsInf(hi, 0) {
		return nil
	}
	elo, ehi := floorExp(lo), floorExp(hi)
	if pow10(elo) < lo {
		elo++
	}
	var ts []float64
	for _, k := range decades(elo, ehi) {
		ts = append(ts, pow10(k))
	}
	return ts
}

// decades returns the exponents in [elo, ehi] of the decade ticks: all of
// them, or the multiples of a stride that keeps about maxDecadeTicks.
func decades(elo, ehi int) []int {
	stride := max(1, (ehi-elo+maxDecadeTicks-1)/maxDecadeTicks)
	var ks []int
	for k := elo; k <= ehi; k++ {
		if ((k%stride)+stride)%stride == 0 {
			ks = append(ks, k)
		}
	}
	return ks
}

// floorExp returns the largest k with 10^k ≤ v (v > 0 finite), comparing
// v with the float64 nearest to 10^k.
func floorExp(v float64) int {
	k := int(math.Floor(log10(v)))
	for pow10(k+1) <= v {
		k++
	}
	for k > -400 && pow10(k) > v {
		k--
	}
	return k
}

// log10 returns the decimal logarithm of v > 0, also for subnormal v (for
// which math.Log10 can be far off on some platforms).
func log10(v float64) float64 {
	frac, exp := math.Frexp(v)
	return math.Log10(frac) + float64(exp)*math.Log10(2)
}

// pow10 returns the float64 nearest to 10^k (0 or +Inf out of range).
func pow10(k int) float64 { return parse(fmt.Sprintf("1e%d", k)) }

// parse parses a decimal; out-of-range values round to 0 or ±Inf.
func parse(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

// label formats a tick value briefly: plain decimals between 1e-4 and 1e7,
// else exponent form (1e-9, 2.5e12).
func label(v float64) string {
	if a := math.Abs(v); v == 0 || (a >= 1e-4 && a < 1e7) {
		return strconv.FormatFloat(v+0, 'f', -1, 64)
	}
	s := strconv.FormatFloat(v, 'e', -1, 64) // 1e+06, 2.5e-07
	mant, exp, _ := strings.Cut(s, "e")
	sign := ""
	if exp[0] == '-' {
		sign = "-"
	}
	return mant + "e" + sign + strings.TrimLeft(exp[1:], "0")
}

// decadeLabel labels the tick 10^k.
func decadeLabel(k int) string {
	switch {
	case k >= 0 && k < 7:
		return "1" + strings.Repeat("0", k)
	case k < 0 && k >= -4:
		return "0." + strings.Repeat("0", -k-1) + "1"
	}
	return "1e" + strconv.Itoa(k)
}

// num formats a pixel coordinate with at most one decimal.
func num(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "0"
	}
	return strconv.FormatFloat(math.Round(v*10)/10+0, 'f', -1, 64)
}

// escape returns s escaped for XML text and attribute values (invalid
// characters become U+FFFD).
func escape(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s)) // a strings.Builder does not fail
	return b.String()
}

// size returns the chart size in pixels.
func size(w, h int) (int, int) {
	if w == 0 {
		w = defaultWidth
	}
	if h == 0 {
		h = defaultHeight
	}
	return max(w, minWidth), max(h, minHeight)
}

// frame is the plot area, in pixels: x0 left, x1 right, y0 top, y1 bottom.
type frame struct{ x0, x1, y0, y1 float64 }

// doc accumulates an SVG document.
type doc struct {
	b    []byte
	w, h int
}

func (d *doc) printf(format string, args ...any) {
	d.b = fmt.Appendf(d.b, format, args...)
	d.b = append(d.b, '\n')
}

// layout describes what surrounds the plot area of a chart.
type layout struct {
	width, height int      // as given in the chart
	title, yLabel string   // empty if none
	xLabel        bool     // whether there is an x label
	yTicks        []string // the y tick labels
	series        []Series // for the legend
	extraBottom   float64  // more room below the x axis (turned labels)
	minLeft       float64  // the least room left of the plot area
}

// begin starts the document of the chart laid out by l: it writes the
// background, the title and the y label, and returns the plot area.
func (d *doc) begin(l layout) frame {
	d.w, d.h = size(l.width, l.height)
	w, h := float64(d.w), float64(d.h)
	d.printf(`<?xml version="1.0" encoding="UTF-8"?>`)
	d.printf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="%d">`,
		d.w, d.h, d.w, d.h, fontSize)
	d.printf(`<rect width="%d" height="%d" fill="white"/>`, d.w, d.h)

	var f frame
	// Left: y label, tick labels, ticks.
	longest := 0
	for _, t := range l.yTicks {
		longest = max(longest, len(t))
	}
	f.x0 = min(float64(longest*charWidth)+tickLen+6, w/4)
	if l.yLabel != "" {
		f.x0 += fontSize + 10
	}
	f.x0 = max(f.x0, l.minLeft, 30)
	// Right: legend.
	f.x1 = w - 16
	if lw := legendWidth(l.series, w); lw > 0 {
		f.x1 = w - lw - 16
	}
	// Top: title.
	f.y0 = 16
	if l.title != "" {
		f.y0 = titleSize + 24
	}
	// Bottom: tick labels, x label.
	f.y1 = h - (tickLen + fontSize + 12) - l.extraBottom
	if l.xLabel {
		f.y1 -= fontSize + 6
	}
	f.y1 = max(f.y1, f.y0+40)

	if l.title != "" {
		d.printf(`<text x="%s" y="%d" text-anchor="middle" font-size="%d" font-weight="bold">%s</text>`,
			num(w/2), titleSize+6, titleSize, escape(l.title))
	}
	if l.yLabel != "" {
		d.printf(`<text text-anchor="middle" transform="translate(%d,%s) rotate(-90)">%s</text>`,
			fontSize+2, num((f.y0+f.y1)/2), escape(l.yLabel))
	}
	return f
}

// legendWidth returns the width of the legend of series, at most a third of
// the chart width w, or 0 if no series has a name.
func legendWidth(series []Series, w float64) float64 {
	longest := 0
	for _, s := range series {
		longest = max(longest, utf8.RuneCountInString(s.Name))
	}
	if longest == 0 {
		return 0
	}
	return min(float64(longest*charWidth)+30, w/3)
}

// legend writes the legend of the named series at the right of f: a line
// (or, for bars, a square) in the series colour and the name, shortened
// with "…" if it does not fit.
func (d *doc) legend(f frame, series []Series, bars bool) {
	lw := legendWidth(series, float64(d.w))
	if lw == 0 {
		return
	}
	maxChars := max(1, int((lw-30)/charWidth))
	x := f.x1 + 12
	y := f.y0 + 4
	for i, s := range series {
		if s.Name == "" {
			continue
		}
		color, dash := style(series, i)
		if bars {
			opacity := ""
			if i >= len(Palette) {
				opacity = ` fill-opacity="0.5"`
			}
			d.printf(`<rect x="%s" y="%s" width="12" height="12" fill="%s"%s/>`, num(x), num(y), color, opacity)
		} else {
			d.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"%s/>`,
				num(x), num(y+6), num(x+18), num(y+6), color, dash)
		}
		name := s.Name
		if utf8.RuneCountInString(name) > maxChars {
			name = string([]rune(name)[:max(0, maxChars-1)]) + "…"
		}
		d.printf(`<text x="%s" y="%s">%s</text>`, num(x+22), num(y+fontSize-1), escape(name))
		y += fontSize + 8
		if y > float64(d.h)-fontSize {
			break // no room for more
		}
	}
}

// grid writes the horizontal grid lines at the y ticks.
func (d *doc) grid(f frame, ys scale) {
	d.printf(`<g stroke="#e0e0e0">`)
	for _, t := range ys.ticks {
		y := num(ys.pos(t, f.y1, f.y0))
		d.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`, num(f.x0), y, num(f.x1), y)
	}
	d.printf(`</g>`)
}

// xAxis writes the x axis line, its ticks and their labels.
func (d *doc) xAxis(f frame, xs scale) {
	d.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>`, num(f.x0), num(f.y1), num(f.x1), num(f.y1))
	d.printf(`<g text-anchor="middle">`)
	for i, t := range xs.ticks {
		x := num(xs.pos(t, f.x0, f.x1))
		d.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>`, x, num(f.y1), x, num(f.y1+tickLen))
		d.printf(`<text x="%s" y="%s">%s</text>`, x, num(f.y1+tickLen+fontSize+2), escape(xs.labels[i]))
	}
	d.printf(`</g>`)
}

// yAxis writes the y axis line, its ticks (and minor ticks) and labels.
func (d *doc) yAxis(f frame, ys scale) {
	d.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>`, num(f.x0), num(f.y0), num(f.x0), num(f.y1))
	d.printf(`<g text-anchor="end">`)
	for i, t := range ys.ticks {
		y := ys.pos(t, f.y1, f.y0)
		d.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>`, num(f.x0-tickLen), num(y), num(f.x0), num(y))
		d.printf(`<text x="%s" y="%s">%s</text>`, num(f.x0-tickLen-3), num(y+fontSize/3), escape(ys.labels[i]))
	}
	d.printf(`</g>`)
	for _, t := range ys.minor {
		y := num(ys.pos(t, f.y1, f.y0))
		d.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black"/>`, num(f.x0-tickLen/2), y, num(f.x0), y)
	}
}

// end closes the document and writes it to w.
func (d *doc) end(w io.Writer) error {
	d.printf(`</svg>`)
	_, err := w.Write(d.b)
	return err
}
