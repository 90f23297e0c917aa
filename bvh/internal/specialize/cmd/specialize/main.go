// Command specialize writes the copies of a generic function that package
// specialize makes:
//
//	specialize -in file.go -func name[,name]... -out copies.go [-import path]... [-copies glob] copy...
//
// each copy written suffix|arg1|arg2|...[|type parameters of the copy]:
// on the command line, or in the directives (specialize.Directive) of the
// Go files that glob matches (test files excepted), in the order of their
// names, before those of the command line.
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
	glob := flag.String("copies", "", "the Go files whose directives list copies (a glob)")
	flag.Parse()
	if *pkg == "" {
		*pkg = os.Getenv("GOPACKAGE")
	}
	if err := run(*in, *fn, *out, *pkg, *nargs, imports, *glob, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "specialize:", err)
		os.Exit(1)
	}
}

func run(in, fn, out, pkg string, n int, imports []string, glob string, args []string) error {
	src, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	copies, err := specialize.DirectivesOf(glob, n)
	if err != nil {
		return err
	}
	for _, a := range args {
		c, err := specialize.ParseCopy(a, n)
		if err != nil {
			return err
		}
		copies = append(copies, c)
	}
	b, err := specialize.File(in, src, strings.Split(fn, ","), pkg, imports, copies)
	if err != nil {
		return err
	}
	return os.WriteFile(out, b, 0o644)
}
