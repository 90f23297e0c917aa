package specialize

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const src = `package p

// sum adds the sizes of xs.
func sum[T any, S interface{ size(T) int }](s S, xs []T) int {
	n := 0
	for _, x := range xs {
		n += s.size(x)
	}
	return n
}

func other[T any](x T) T { return x }

func twice[T any, S interface{ size(T) int }](s S, xs []T) int { return 2 * sum(s, xs) }
`

func TestFile(t *testing.T) {
	for _, tc := range []struct {
		copies []Copy
		want   []string // substrings of the output, in order
	}{
		{
			[]Copy{{Suffix: "Int", Args: []string{"int", "*intSizer"}}},
			[]string{"// Code generated", "package p", "// sumInt is sum for int, *intSizer.", "func sumInt(s *intSizer, xs []int) int {", "n += s.size(x)"},
		},
		{
			[]Copy{{Suffix: "G", Args: []string{"E", "*sizer[E]"}, Params: "E comparable"}, {Suffix: "B", Args: []string{"byte", "bs"}}},
			[]string{"func sumG[E comparable](s *sizer[E], xs []E) int {", "func sumB(s bs, xs []byte) int {"},
		},
	} {
		out, err := File("p.go", []byte(src), []string{"sum"}, "p", nil, tc.copies)
		if err != nil {
			t.Fatal(err)
		}
		rest := string(out)
		for _, w := range tc.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Fatalf("output lacks %q (in order):\n%s", w, out)
			}
			rest = rest[i+len(w):]
		}
		if strings.Contains(string(out), "func other") || strings.Contains(string(out), "[T any") {
			t.Errorf("output copies more than sum, or keeps its type parameters:\n%s", out)
		}
	}
}

func TestFileCalls(t *testing.T) {
	out, err := File("p.go", []byte(src), []string{"sum", "twice"}, "p", nil, []Copy{{Suffix: "Int", Args: []string{"int", "*intSizer"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "func twiceInt(s *intSizer, xs []int) int { return 2 * sumInt(s, xs) }") {
		t.Errorf("twiceInt does not call sumInt:\n%s", out)
	}
}

func TestFileErrors(t *testing.T) {
	if _, err := File("p.go", []byte(src), []string{"missing"}, "p", nil, []Copy{{Suffix: "X", Args: []string{"int", "s"}}}); err == nil {
		t.Error("no error for a missing function")
	}
	if _, err := File("p.go", []byte(src), []string{"sum"}, "p", nil, []Copy{{Suffix: "X", Args: []string{"int"}}}); err == nil {
		t.Error("no error for too few type arguments")
	}
	if _, err := ParseCopy("X|int", 2); err == nil {
		t.Error("ParseCopy: no error for too few fields")
	}
	if c, err := ParseCopy("X|int|s|E any", 2); err != nil || c.Params != "E any" || c.Args[1] != "s" {
		t.Errorf("ParseCopy = %+v, %v", c, err)
	}
}

// TestDirectives checks that the copies listed in directives are read in
// order, those of the files a glob matches in the order of their names,
// test files left out.
func TestDirectives(t *testing.T) {
	cs, cases, err := Directives([]byte("package p\n\n// a kind\n//\n//specialize:copy A|int|*a\n// not //specialize:copy X|x|x\n//specialize:copy B|E|*b[E]|E any\n//specialize:case *a|e.run(x)\n"), 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || cs[0].Suffix != "A" || cs[0].Args[1] != "*a" || cs[1].Suffix != "B" || cs[1].Params != "E any" {
		t.Errorf("Directives = %+v", cs)
	}
	if len(cases) != 1 || cases[0] != (Case{"*a", "e.run(x)"}) {
		t.Errorf("Directives: cases %+v", cases)
	}
	if _, _, err := Directives([]byte("//specialize:copy A|int\n"), 2); err == nil {
		t.Error("no error for a directive with too few type arguments")
	}
	if _, _, err := Directives([]byte("//specialize:case *a\n"), 2); err == nil {
		t.Error("no error for a case without a call")
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"kind_b.go":      "package p\n//specialize:copy B|int|*b\n",
		"kind_a.go":      "package p\n//specialize:copy A|int|*a\n",
		"kind_c_test.go": "package p\n//specialize:copy C|int|*c\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cs, _, err = DirectivesOf(filepath.Join(dir, "kind_*.go"), 2)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, c.Suffix)
	}
	if strings.Join(got, ",") != "A,B" {
		t.Errorf("DirectivesOf: copies %v, want A,B", got)
	}
	if cs, _, err := DirectivesOf("", 2); err != nil || cs != nil {
		t.Errorf("DirectivesOf(\"\") = %v, %v", cs, err)
	}
}

// TestSwitch checks the function a Switch writes: one case per type,
// calling what the case says, and false for other types.
func TestSwitch(t *testing.T) {
	sw := Switch{Spec: "run(x any, fn func(int) bool) int|x", Cases: []Case{{"*a", "e.n(fn)"}, {"b", "len(e)"}}}
	out, err := File("p.go", []byte(src), []string{"sum"}, "p", nil, nil, sw)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"func run(x any, fn func(int) bool) (r int, ok bool) {", "switch e := x.(type) {", "case *a:", "return e.n(fn), true", "case b:", "return len(e), true", "return r, false"} {
		if !strings.Contains(string(out), w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	if _, err := File("p.go", []byte(src), nil, "p", nil, nil, Switch{Spec: "run|x"}); err == nil {
		t.Error("no error for a switch without parameters")
	}
}
