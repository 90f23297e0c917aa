package nc

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Role is what a part of a tool does: the cutting part may remove stock;
// the shank and the holder must touch nothing.
type Role uint8

const (
	// Cutting is the fluted part, from the tip up.
	Cutting Role = iota
	// Shank is the plain shaft above the flutes.
	Shank
	// Holder is the tool holder (stacked cylinders and cones).
	Holder
)

var roleNames = [...]string{"cutter", "shank", "holder"}

// String returns "cutter", "shank" or "holder".
func (r Role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return "role(" + strconv.Itoa(int(r)) + ")"
}

// Shape is the kind of a solid of revolution of a tool.
type Shape uint8

const (
	// Cyl is a cylinder of radius R0 (= R1) from Z0 to Z1.
	Cyl Shape = iota
	// Ball is the ball of radius R0 centred at height Z0 + R0 (a ball
	// end's tip); Z1 = Z0 + 2·R0.
	Ball
	// Cone is a frustum of radius R0 at Z0 and R1 at Z1.
	Cone
	// Corner is a bull-nose end's rounded bottom: the solid of radius
	// R1 − C + sqrt(C² − (z − Z1)²) at height z in [Z0, Z1], where C =
	// Z1 − Z0 is the corner radius and R1 the tool radius; R0 = R1 − C is
	// the radius of its flat bottom.
	Corner
)

// Part is one solid of revolution of a tool, about the vertical axis
// through the tool's tip, at heights Z0..Z1 above the tip.
type Part struct {
	Shape  Shape
	Role   Role
	R0, R1 float64
	Z0, Z1 float64
}

// radius returns the part's radius at height z in [Z0, Z1].
func (p Part) radius(z float64) float64 {
	switch p.Shape {
	case Cyl:
		return p.R0
	case Ball:
		d := z - (p.Z0 + p.R0)
		return math.Sqrt(max(0, p.R0*p.R0-d*d))
	case Cone:
		if p.Z1 == p.Z0 {
			return max(p.R0, p.R1)
		}
		return p.R0 + (p.R1-p.R0)*(z-p.Z0)/(p.Z1-p.Z0)
	default:
		c := p.Z1 - p.Z0
		d := z - p.Z1
		return p.R0 + math.Sqrt(max(0, c*c-d*d))
	}
}

// Tool is a milling tool for 3-axis machining: parts of revolution about a
// vertical axis, stacked from the tip (height 0) up. The tool translates
// and never turns. Lengths are in the program's units (millimetres).
type Tool struct {
	Parts []Part
	spec  string
}

// String returns the tool's specification in the form ParseTool reads.
func (t Tool) String() string { return t.spec }

// Radius returns the tool's largest radius.
func (t Tool) Radius() float64 {
	r := 0.0
	for _, p := range t.Parts {
		r = max(r, p.R0, p.R1)
	}
	return r
}

// Height returns the height of the tool's top above its tip.
func (t Tool) Height() float64 {
	h := 0.0
	for _, p := range t.Parts {
		h = max(h, p.Z1)
	}
	return h
}

// ToolError is a bad tool specification: Name is the file (empty for a
// flag), Line its line (0 for a flag).
type ToolError struct {
	Name string
	Line int
	Msg  string
}

func (e *ToolError) Error() string {
	switch {
	case e.Name != "" && e.Line > 0:
		return fmt.Sprintf("%s: line %d: tool: %s", e.Name, e.Line, e.Msg)
	case e.Name != "":
		return fmt.Sprintf("%s: tool: %s", e.Name, e.Msg)
	}
	return "tool: " + e.Msg
}

// maxDim bounds every length of a tool: a larger one is an error.
const maxDim = 1e6

// ParseTool reads a tool from its specification: the items of a comma
// separated list, stacked from the tip up, each a word and its lengths
// (diameters D, lengths L, in millimetres):
//
//	ball D L      ball end: a ball of diameter D at the tip, flutes of length L ≥ D/2
//	flat D L      flat end: a cylinder of diameter D
//	bull D r L    bull nose: diameter D, corner radius r ≤ D/2
//	taper d D L   tapered: a cone from diameter d at the tip to D at height L (d = 0: a point)
//	shank D L     the shank: a cylinder above the cutter
//	holder D L    a holder cylinder, or
//	holder D1:D2 L  a holder cone from diameter D1 to D2
//
// The first item is the cutter (ball, flat, bull or taper; "cyl D L" and
// "cone D1:D2 L" add cutting cylinders and cones above it); shank and
// holder items follow, in that order. For example
// "ball 6 20, shank 6 30, holder 20:40 10, holder 40 30".
func ParseTool(spec string) (Tool, error) {
	t, err := parseTool(spec)
	if err != nil {
		return Tool{}, &ToolError{Msg: err.Error()}
	}
	return t, nil
}

func parseTool(spec string) (Tool, error) {
	var t Tool
	z := 0.0
	var canon []string
	role := Cutting
	for i, item := range strings.Split(spec, ",") {
		f := strings.Fields(item)
		if len(f) == 0 {
			return Tool{}, fmt.Errorf("empty item %d in %q", i+1, spec)
		}
		word := strings.ToLower(f[0])
		nums := f[1:]
		num := func(k int) (float64, error) {
			v, err := strconv.ParseFloat(nums[k], 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > maxDim {
				return 0, fmt.Errorf("%s: bad length %q (a number from 0 to %g)", word, nums[k], float64(maxDim))
			}
			return v, nil
		}
		want := func(n int, usage string) error {
			if len(nums) != n {
				return fmt.Errorf("%q: want %q", strings.TrimSpace(item), usage)
			}
			return nil
		}
		var parts []Part
		var err error
		switch word {
		case "ball", "flat", "bull", "taper":
			if i != 0 {
				return Tool{}, fmt.Errorf("%q: the cutter %s must come first", strings.TrimSpace(item), word)
			}
			parts, err = cutter(word, nums, num, want)
		case "cyl", "shank", "holder", "cone":
			if i == 0 {
				return Tool{}, fmt.Errorf("%q: a tool starts with its cutter (ball, flat, bull or taper)", strings.TrimSpace(item))
			}
			r := map[string]Role{"cyl": Cutting, "cone": Cutting, "shank": Shank, "holder": Holder}[word]
			if r < role {
				return Tool{}, fmt.Errorf("%q: %s after %s (cutter, then shank, then holder)", strings.TrimSpace(item), word, role)
			}
			role = r
			parts, err = stacked(word, r, nums, num, want)
		default:
			return Tool{}, fmt.Errorf("unknown item %q (ball, flat, bull, taper, cyl, cone, shank or holder)", f[0])
		}
		if err != nil {
			return Tool{}, err
		}
		top := z
		for _, p := range parts {
			p.Z0 += z
			p.Z1 += z
			t.Parts = append(t.Parts, p)
			top = max(top, p.Z1)
		}
		z = top
		canon = append(canon, strings.Join(f, " "))
	}
	if z <= 0 {
		return Tool{}, errors.New("the tool has no height")
	}
	t.spec = strings.Join(canon, ", ")
	return t, nil
}

// cutter returns the parts of a cutter, from height 0.
func cutter(word string, nums []string, num func(int) (float64, error), want func(int, string) error) ([]Part, error) {
	n := map[string]int{"ball": 2, "flat": 2, "bull": 3, "taper": 3}[word]
	usage := map[string]string{"ball": "ball D L", "flat": "flat D L", "bull": "bull D r L", "taper": "taper d D L"}[word]
	if err := want(n, usage); err != nil {
		return nil, err
	}
	v := make([]float64, n)
	for k := range v {
		x, err := num(k)
		if err != nil {
			return nil, err
		}
		v[k] = x
	}
	switch word {
	case "ball":
		r, l := v[0]/2, v[1]
		if r <= 0 || l < r {
			return nil, fmt.Errorf("ball %g %g: want D > 0 and L ≥ D/2", v[0], v[1])
		}
		ps := []Part{{Shape: Ball, R0: r, R1: r, Z0: 0, Z1: 2 * r}}
		if l > r {
			ps = append(ps, Part{Shape: Cyl, R0: r, R1: r, Z0: r, Z1: l})
		}
		return ps, nil
	case "flat":
		r, l := v[0]/2, v[1]
		if r <= 0 || l <= 0 {
			return nil, fmt.Errorf("flat %g %g: want D > 0 and L > 0", v[0], v[1])
		}
		return []Part{{Shape: Cyl, R0: r, R1: r, Z0: 0, Z1: l}}, nil
	case "bull":
		r, c, l := v[0]/2, v[1], v[2]
		if r <= 0 || c > r || l < c {
			return nil, fmt.Errorf("bull %g %g %g: want D > 0, r ≤ D/2 and L ≥ r", v[0], v[1], v[2])
		}
		var ps []Part
		if c > 0 {
			ps = append(ps, Part{Shape: Corner, R0: r - c, R1: r, Z0: 0, Z1: c})
		}
		if l > c {
			ps = append(ps, Part{Shape: Cyl, R0: r, R1: r, Z0: c, Z1: l})
		}
		return ps, nil
	default:
		r0, r1, l := v[0]/2, v[1]/2, v[2]
		if r1 <= 0 || r0 > r1 || l <= 0 {
			return nil, fmt.Errorf("taper %g %g %g: want 0 ≤ d ≤ D, D > 0 and L > 0", v[0], v[1], v[2])
		}
		return []Part{{Shape: Cone, R0: r0, R1: r1, Z0: 0, Z1: l}}, nil
	}
}

// stacked returns the parts of a cylinder or cone item, from height 0.
func stacked(word string, role Role, nums []string, num func(int) (float64, error), want func(int, string) error) ([]Part, error) {
	if err := want(2, word+" D L"); err != nil {
		return nil, err
	}
	l, err := num(1)
	if err != nil {
		return nil, err
	}
	d0s, d1s, cone := strings.Cut(nums[0], ":")
	nums[0] = d0s
	d0, err := num(0)
	if err != nil {
		return nil, err
	}
	d1 := d0
	if cone {
		nums[0] = d1s
		if d1, err = num(0); err != nil {
			return nil, err
		}
		nums[0] = d0s + ":" + d1s
	}
	if word == "cone" && !cone {
		return nil, fmt.Errorf("cone %s: want D1:D2", nums[0])
	}
	if (d0 <= 0 && d1 <= 0) || l <= 0 {
		return nil, fmt.Errorf("%s %s %g: want a diameter > 0 and L > 0", word, nums[0], l)
	}
	if cone && d0 != d1 {
		return []Part{{Shape: Cone, Role: role, R0: d0 / 2, R1: d1 / 2, Z0: 0, Z1: l}}, nil
	}
	return []Part{{Shape: Cyl, Role: role, R0: d0 / 2, R1: d0 / 2, Z0: 0, Z1: l}}, nil
}

// ReadTools reads a tool table: one tool a line, "T<n> SPEC" (SPEC as
// ParseTool reads it); blank lines and lines starting with # are skipped.
// Errors name the file and the line.
func ReadTools(r io.Reader, name string) (map[int]Tool, error) {
	tools := map[int]Tool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || s[0] == '#' {
			continue
		}
		bad := func(msg string) error { return &ToolError{Name: name, Line: line, Msg: msg} }
		head, spec, ok := strings.Cut(s, " ")
		if !ok || len(head) < 2 || (head[0] != 'T' && head[0] != 't') {
			return nil, bad(fmt.Sprintf("want \"T<number> SPEC\", got %q", s))
		}
		n, err := strconv.Atoi(head[1:])
		if err != nil || n < 0 || n > 1<<30 {
			return nil, bad(fmt.Sprintf("bad tool number %q", head))
		}
		if _, dup := tools[n]; dup {
			return nil, bad(fmt.Sprintf("tool T%d given twice", n))
		}
		t, err := parseTool(spec)
		if err != nil {
			return nil, bad(err.Error())
		}
		tools[n] = t
	}
	if err := sc.Err(); err != nil {
		return nil, &ToolError{Name: name, Line: line + 1, Msg: err.Error()}
	}
	return tools, nil
}
