package collide_test

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// docPackages returns the packages that the package list of doc.go (its
// "# Packages" section) names, in its order, by their path in the module
// ("collide" for this one), each with whether its line says "(internal)".
func docPackages(t *testing.T) (names []string, internal map[string]bool) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(string(src), "\n// # Packages\n")
	if !ok {
		t.Fatal("doc.go: no # Packages section")
	}
	list, _, _ = strings.Cut(list, "\n// #") // up to the next heading
	internal = map[string]bool{}
	for line := range strings.SplitSeq(list, "\n") {
		item, ok := strings.CutPrefix(line, "//   - ")
		if !ok {
			continue // a blank line, or an item's continuation
		}
		name, rest, _ := strings.Cut(item, ":")
		name, mark, _ := strings.Cut(name, " ")
		names = append(names, name)
		internal[name] = mark == "(internal)" || strings.HasPrefix(rest, " (internal)")
	}
	return names, internal
}

// modulePackages returns the packages that "go list ./..." finds in the
// module, by their path in the module ("collide" for the root).
func modulePackages(t *testing.T) []string {
	gotool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gotool); err != nil {
		if gotool, err = exec.LookPath("go"); err != nil {
			t.Skip("no go tool to list the module's packages")
		}
	}
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	var module string
	for line := range strings.SplitSeq(string(gomod), "\n") {
		if m, ok := strings.CutPrefix(line, "module "); ok {
			module = strings.TrimSpace(m)
		}
	}
	cmd := exec.Command(gotool, "list", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("%v: %v\n%s", cmd, err, stderr.Bytes())
		}
		t.Fatalf("%v: %v", cmd, err)
	}
	var pkgs []string
	for sc := bufio.NewScanner(bytes.NewReader(out)); sc.Scan(); {
		path := sc.Text()
		switch {
		case path == module:
			pkgs = append(pkgs, "collide")
		case strings.HasPrefix(path, module+"/"):
			pkgs = append(pkgs, strings.TrimPrefix(path, module+"/"))
		default:
			t.Fatalf("go list ./... lists %s, outside module %s", path, module)
		}
	}
	return pkgs
}

// TestDocListsEveryPackage checks the package list of the package doc
// (doc.go's # Packages) against the module: it names every package that
// "go list ./..." lists (cmd/ and internal/ ones included), once, and only
// those, and says "(internal)" of exactly those under an internal folder.
func TestDocListsEveryPackage(t *testing.T) {
	listed, internal := docPackages(t)
	pkgs := modulePackages(t)
	for _, p := range pkgs {
		if !slices.Contains(listed, p) {
			t.Errorf("doc.go's package list (# Packages) does not name package %s: add a line for it", p)
		}
	}
	seen := map[string]bool{}
	for _, p := range listed {
		if seen[p] {
			t.Errorf("doc.go's package list (# Packages) names package %s twice", p)
		}
		seen[p] = true
		if !slices.Contains(pkgs, p) {
			t.Errorf("doc.go's package list (# Packages) names %s, which is not a package of the module (go list ./...): remove its line, or make the package", p)
			continue
		}
		if in := slices.Contains(strings.Split(p, "/"), "internal"); internal[p] != in {
			t.Errorf("doc.go's package list (# Packages): package %s is internal: %v, its line says (internal): %v", p, in, internal[p])
		}
	}
}
