// Command specialize writes the copies of a generic function that package
// specialize makes:
//
//	specialize -in file.go -func name[,name]... -out copies.go [-import path]... [-copies glob [-switch spec]] copy...
//
// each copy written suffix|arg1|arg2|...[|type parameters of the copy]:
// on the command line, or in the directives (specialize.Directive) of the
// Go files that glob matches (test files excepted), in the order of their
// names, before those of the command line. With -switch, the output also
// holds the function spec names (specialize.Switch) with the cases the
// directives of those files list.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/collide3d/collide/bvh/internal/specialize"
)

type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(s string) error { *l = append(*l, s); return nil }

func main() {
	in := flag.String("in", "", "the Go file holding the generic function")
	fn := flag.String("func", "", "the generic functions, separated by commas")
	out := flag.String("out", "", "the file to write")
	pkg := flag.String("pkg", "", "the package of the output (default: $GOPACKAGE)")
	nargs := flag.Int("n", 2, "the number of type parameters")
	var imports list
	flag.Var(&imports, "import", "an import of the output (repeatable)")
	glob := flag.String("copies", "", "the Go files whose directives list copies and cases (a glob)")
	sw := flag.String("switch", "", "a function switching over the cases: name(parameters) result|value")
	flag.Parse()
	if *pkg == "" {
		*pkg = os.Getenv("GOPACKAGE")
	}
	if err := run(*in, *fn, *out, *pkg, *nargs, imports, *glob, *sw, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "specialize:", err)
		os.Exit(1)
	}
}

func run(in, fn, out, pkg string, n int, imports []string, glob, sw string, args []string) error {
	src, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	copies, cases, err := specialize.DirectivesOf(glob, n)
	if err != nil {
		return err
	}
	var switches []specialize.Switch
	if sw != "" {
		switches = append(switches, specialize.Switch{Spec: sw, Cases: cases})
	}
	for _, a := range args {
		c, err := specialize.ParseCopy(a, n)
		if err != nil {
			return err
		}
		copies = append(copies, c)
	}
	b, err := specialize.File(in, src, strings.Split(fn, ","), pkg, imports, copies, switches...)
	if err != nil {
		return err
	}
	return os.WriteFile(out, b, 0o644)
}
