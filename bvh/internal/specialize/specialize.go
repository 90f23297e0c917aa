// Package specialize copies a generic Go function once per set of type
// arguments, with the type parameters replaced by the arguments, so that
// the methods it calls on them are called directly (and inlined) rather
// than through the dictionary of a generic instantiation. Package bvh uses
// it to write its one traversal once (bvh/traverse.go) and run a copy per
// kind of tree (bvh/traverse_gen.go).
//
// The functions' type parameters must be single capital letters not used
// as other identifiers in their bodies; a copied function that calls
// another of those copied calls its copy (of the same suffix), which
// infers the type arguments the generic one would.
//
// The copies to make may be listed where their type arguments are
// defined, one a line, as directives (see Directives):
//
//	//specialize:copy OBB|noFrame|*obbQuery
//
// so that a package whose kinds are one file each lists each kind's copy
// in its file. Such a package may also need to send a value of an
// interface type to the code of its dynamic type without a call through
// the interface (which would make every argument escape to the heap): a
// Switch, also written in the output, is a function whose type switch
// has one case per directive
//
//	//specialize:case *vtree[bv.OBB]|collideOBB(env, fly, pose, o, s, fn)
//
// naming the type and the call that case makes (e being the value as
// that type).
package specialize

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/printer"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Copy is one copy to make: the suffix of the copies' names, the type
// arguments in the order of the type parameters, and the type parameters of
// the copy itself ("" for none; e.g. "F bv.Float, A bv.Slabs[F]").
type Copy struct {
	Suffix string
	Args   []string
	Params string
}

// ParseCopy parses a copy written suffix|arg1|arg2|...[|params], where the
// number of arguments is n.
func ParseCopy(s string, n int) (Copy, error) {
	f := strings.Split(s, "|")
	if len(f) != n+1 && len(f) != n+2 {
		return Copy{}, fmt.Errorf("copy %q: want suffix|%d type arguments[|type parameters]", s, n)
	}
	c := Copy{Suffix: f[0], Args: f[1 : n+1]}
	if len(f) == n+2 {
		c.Params = f[n+1]
	}
	return c, nil
}

// Directive opens a line of a Go file that lists a copy to make: the rest
// of the line is the copy, written as ParseCopy reads it.
const Directive = "//specialize:copy "

// CaseDirective opens a line of a Go file that lists a case of a Switch:
// the rest of the line is the case, written type|call.
const CaseDirective = "//specialize:case "

// Case is one case of a Switch: the dynamic type, and the call it makes
// (an expression of the Switch's result type, e the value as that type).
type Case struct {
	Type, Call string
}

// Directives returns the copies and the cases listed in src by lines
// opening with Directive and CaseDirective, in order, each copy with n
// type arguments.
func Directives(src []byte, n int) ([]Copy, []Case, error) {
	var cs []Copy
	var cases []Case
	for line := range bytes.Lines(src) {
		if rest, ok := bytes.CutPrefix(line, []byte(CaseDirective)); ok {
			t, call, ok := strings.Cut(string(bytes.TrimSpace(rest)), "|")
			if !ok || t == "" || call == "" {
				return nil, nil, fmt.Errorf("case %q: want type|call", bytes.TrimSpace(rest))
			}
			cases = append(cases, Case{Type: t, Call: call})
			continue
		}
		rest, ok := bytes.CutPrefix(line, []byte(Directive))
		if !ok {
			continue
		}
		c, err := ParseCopy(string(bytes.TrimSpace(rest)), n)
		if err != nil {
			return nil, nil, err
		}
		cs = append(cs, c)
	}
	return cs, cases, nil
}

// Switch is a function to write with the copies: Spec is its name,
// parameters and result, then the value it switches on, written
// name(parameters) result|value (for example
// "collideKind(env *Tree, fn func(Pair) bool) Stats|env.impl"); Cases
// are its cases. The function returns the result of the case of the
// value's dynamic type and true, or the zero result and false for a type
// no case names.
type Switch struct {
	Spec  string
	Cases []Case
}

// source returns the Go source of the function s.
func (s Switch) source() (string, error) {
	sig, value, ok := strings.Cut(s.Spec, "|")
	open := strings.Index(sig, "(")
	if !ok || open <= 0 || value == "" {
		return "", fmt.Errorf("switch %q: want name(parameters) result|value", s.Spec)
	}
	depth, end := 0, -1
	for i := open; i < len(sig) && end < 0; i++ {
		switch sig[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				end = i
			}
		}
	}
	if end < 0 || strings.TrimSpace(sig[end+1:]) == "" {
		return "", fmt.Errorf("switch %q: want name(parameters) result|value", s.Spec)
	}
	name, result := sig[:open], strings.TrimSpace(sig[end+1:])
	var b strings.Builder
	fmt.Fprintf(&b, "\n// %s makes the call of the case of the dynamic type of %s, from the\n// %slines of the files listed, and reports true; false for a type\n// none lists.\n", name, value, CaseDirective)
	fmt.Fprintf(&b, "func %s%s (r %s, ok bool) {\n\tswitch e := %s.(type) {\n", name, sig[open:end+1], result, value)
	for _, c := range s.Cases {
		fmt.Fprintf(&b, "\tcase %s:\n\t\treturn %s, true\n", c.Type, c.Call)
	}
	b.WriteString("\t}\n\treturn r, false\n}\n")
	return b.String(), nil
}

// File returns the Go source of a file of package pkg holding the copies of
// the functions fns of src (a Go file named name), with the given imports:
// for each copy c and function fn, fn+c.Suffix; then the switches.
func File(name string, src []byte, fns []string, pkg string, imports []string, copies []Copy, switches ...Switch) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "// Code generated by bvh/internal/specialize from %s; DO NOT EDIT.\n\npackage %s\n\n", name, pkg)
	if len(imports) > 0 {
		out.WriteString("import (\n")
		for _, im := range imports {
			fmt.Fprintf(&out, "\t%q\n", im)
		}
		out.WriteString(")\n")
	}
	for _, c := range copies {
		for _, fn := range fns {
			if err := copyFunc(&out, fset, f, name, fn, fns, c); err != nil {
				return nil, err
			}
		}
	}
	for _, sw := range switches {
		src, err := sw.source()
		if err != nil {
			return nil, err
		}
		out.WriteString(src)
	}
	return format.Source(out.Bytes())
}

// copyFunc writes the copy c of the function fn of f, in which the calls
// of the functions fns are calls of their copies c.
func copyFunc(out *bytes.Buffer, fset *token.FileSet, f *ast.File, name, fn string, fns []string, c Copy) error {
	var decl *ast.FuncDecl
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == fn {
			decl = fd
		}
	}
	if decl == nil || decl.Type.TypeParams == nil {
		return fmt.Errorf("%s: no generic function %s", name, fn)
	}
	var params []string
	for _, fl := range decl.Type.TypeParams.List {
		for _, n := range fl.Names {
			params = append(params, n.Name)
		}
	}
	var body bytes.Buffer
	doc := decl.Doc
	decl.Doc = nil
	err := printer.Fprint(&body, fset, decl)
	decl.Doc = doc
	if err != nil {
		return err
	}
	if len(c.Args) != len(params) {
		return fmt.Errorf("copy %s: %d type arguments for %d type parameters", c.Suffix, len(c.Args), len(params))
	}
	fmt.Fprintf(out, "\n// %s%s is %s for %s.\n", fn, c.Suffix, fn, strings.Join(c.Args, ", "))
	if err := substitute(out, body.Bytes(), fn, fns, params, c); err != nil {
		return err
	}
	out.WriteString("\n")
	return nil
}

// substitute writes the function src (fn, with type parameters params)
// with c's name, type parameters and type arguments, and the names of the
// functions fns it calls with c's suffix.
func substitute(out *bytes.Buffer, src []byte, fn string, fns []string, params []string, c Copy) error {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	var errs scanner.ErrorList
	s.Init(file, src, func(pos token.Position, msg string) { errs.Add(pos, msg) }, scanner.ScanComments)
	arg := map[string]string{}
	for i, p := range params {
		arg[p] = c.Args[i]
	}
	last := 0
	state := 0 // 0: before the name; 1: after it, before the type parameters; 2: in them; 3: after
	depth := 0
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := file.Offset(pos)
		switch {
		case state == 0 && tok == token.IDENT && lit == fn:
			out.Write(src[last:off])
			out.WriteString(fn + c.Suffix)
			last = off + len(lit)
			state = 1
		case state == 1 && tok == token.LBRACK:
			out.Write(src[last:off])
			state, depth = 2, 1
		case state == 2:
			switch tok {
			case token.LBRACK:
				depth++
			case token.RBRACK:
				if depth--; depth == 0 {
					if c.Params != "" {
						out.WriteString("[" + c.Params + "]")
					}
					last = off + 1
					state = 3
				}
			}
		case state == 3 && tok == token.IDENT && arg[lit] != "":
			out.Write(src[last:off])
			out.WriteString(arg[lit])
			last = off + len(lit)
		case state == 3 && tok == token.IDENT && slices.Contains(fns, lit):
			out.Write(src[last:off])
			out.WriteString(lit + c.Suffix)
			last = off + len(lit)
		}
	}
	if errs.Len() > 0 {
		return errs.Err()
	}
	out.Write(src[last:])
	return nil
}

// DirectivesOf returns the copies and cases listed by the directives of
// the Go files that glob matches, test files excepted, in the order of
// their names (none for an empty glob).
func DirectivesOf(glob string, n int) ([]Copy, []Case, error) {
	if glob == "" {
		return nil, nil, nil
	}
	names, err := filepath.Glob(glob)
	if err != nil {
		return nil, nil, err
	}
	slices.Sort(names)
	var cs []Copy
	var cases []Case
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, nil, err
		}
		c, k, err := Directives(src, n)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", name, err)
		}
		cs, cases = append(cs, c...), append(cases, k...)
	}
	return cs, cases, nil
}
