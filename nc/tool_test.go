package nc

import (
	"strconv"
	"strings"
	"testing"
)

func TestParseTool(t *testing.T) {
	for _, tc := range []struct {
		spec  string
		parts string // shape role r0 r1 z0 z1 of each part
		err   string
	}{
		{spec: "ball 6 20", parts: "1/0/3/3/0/6 0/0/3/3/3/20"},
		{spec: "ball 6 3", parts: "1/0/3/3/0/6"},
		{spec: "flat 4 10, shank 4 20, holder 20:40 10, holder 40 30", parts: "0/0/2/2/0/10 0/1/2/2/10/30 2/2/10/20/30/40 0/2/20/20/40/70"},
		{spec: "bull 10 2 15", parts: "3/0/3/5/0/2 0/0/5/5/2/15"},
		{spec: "bull 10 5 15", parts: "3/0/0/5/0/5 0/0/5/5/5/15"},
		{spec: "bull 10 0 15", parts: "0/0/5/5/0/15"},
		{spec: "taper 0 6 12, cyl 6 3", parts: "2/0/0/3/0/12 0/0/3/3/12/15"},
		{spec: "  FLAT 4 10 ,SHANK 4 2", parts: "0/0/2/2/0/10 0/1/2/2/10/12"},
		{spec: "", err: `tool: empty item 1 in ""`},
		{spec: "ball 6", err: `tool: "ball 6": want "ball D L"`},
		{spec: "ball 6 2", err: "tool: ball 6 2: want D > 0 and L ≥ D/2"},
		{spec: "bull 6 4 10", err: "tool: bull 6 4 10: want D > 0, r ≤ D/2 and L ≥ r"},
		{spec: "taper 8 6 10", err: "tool: taper 8 6 10: want 0 ≤ d ≤ D, D > 0 and L > 0"},
		{spec: "ball x 2", err: `tool: ball: bad length "x" (a number from 0 to 1e+06)`},
		{spec: "ball NaN 2", err: `tool: ball: bad length "NaN" (a number from 0 to 1e+06)`},
		{spec: "ball 1e300 2", err: `tool: ball: bad length "1e300" (a number from 0 to 1e+06)`},
		{spec: "flat -4 10", err: `tool: flat: bad length "-4" (a number from 0 to 1e+06)`},
		{spec: "shank 6 10", err: `tool: "shank 6 10": a tool starts with its cutter (ball, flat, bull or taper)`},
		{spec: "ball 6 10, ball 6 10", err: `tool: "ball 6 10": the cutter ball must come first`},
		{spec: "ball 6 10, holder 20 5, shank 6 5", err: `tool: "shank 6 5": shank after holder (cutter, then shank, then holder)`},
		{spec: "ball 6 10, drill 3 4", err: `tool: unknown item "drill" (ball, flat, bull, taper, cyl, cone, shank or holder)`},
		{spec: "ball 6 10, cone 6 4", err: "tool: cone 6: want D1:D2"},
		{spec: "ball 6 10, holder 0 4", err: "tool: holder 0 4: want a diameter > 0 and L > 0"},
		{spec: "ball 6 10,", err: `tool: empty item 2 in "ball 6 10,"`},
	} {
		tool, err := ParseTool(tc.spec)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("ParseTool(%q) = %v, want error %q", tc.spec, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseTool(%q): %v", tc.spec, err)
			continue
		}
		var got []string
		for _, p := range tool.Parts {
			got = append(got, strings.Join([]string{itoa(int(p.Shape)), itoa(int(p.Role)), ftoa(p.R0), ftoa(p.R1), ftoa(p.Z0), ftoa(p.Z1)}, "/"))
		}
		if strings.Join(got, " ") != tc.parts {
			t.Errorf("ParseTool(%q) parts %s, want %s", tc.spec, strings.Join(got, " "), tc.parts)
		}
		again, err := ParseTool(tool.String())
		if err != nil || again.String() != tool.String() {
			t.Errorf("ParseTool(%q).String() = %q does not read back: %v", tc.spec, tool.String(), err)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func TestReadTools(t *testing.T) {
	tools, err := ReadTools(strings.NewReader("# table\n\nT1 ball 6 20, shank 6 30\nt12 flat 3 8\n"), "tools.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 2 || tools[1].String() != "ball 6 20, shank 6 30" || tools[12].String() != "flat 3 8" {
		t.Errorf("ReadTools: %v", tools)
	}
	for _, tc := range []struct{ in, err string }{
		{"T1 ball 6 20\nT1 flat 3 8\n", "tools.txt: line 2: tool: tool T1 given twice"},
		{"ball 6 20\n", `tools.txt: line 1: tool: want "T<number> SPEC", got "ball 6 20"`},
		{"Tx ball 6 20\n", `tools.txt: line 1: tool: bad tool number "Tx"`},
		{"T1\n", `tools.txt: line 1: tool: want "T<number> SPEC", got "T1"`},
		{"\n\nT3 ball 6\n", `tools.txt: line 3: tool: "ball 6": want "ball D L"`},
	} {
		if _, err := ReadTools(strings.NewReader(tc.in), "tools.txt"); err == nil || err.Error() != tc.err {
			t.Errorf("ReadTools(%q) = %v, want %q", tc.in, err, tc.err)
		}
	}
}
