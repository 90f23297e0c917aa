package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/collide3d/collide/bench/queries"
)

func main() {
	if queries.Child() {
		// A measurement of bench --queries, in a process of its own.
		os.Exit(queries.RunChild(os.Stdout))
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

// usageError is an error in the command line: run prints it with the
// command's short usage line and exits with status 2.
type usageError struct {
	msg string
}

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// env is what a command runs with.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// ctx, when not nil, ends the commands that run until interrupted
	// (view's server).
	ctx context.Context
}

// command is a subcommand: its name, its one-line usage, a long description,
// the flags it defines, the function that runs it and its lines in the
// top-level usage.
type command struct {
	name     string
	usage    string                                      // e.g. "check [flags] ENV FLY"
	help     string                                      // description printed by help, after the usage
	flags    func(fs *flag.FlagSet) any                  // defines the flags; returns the options struct
	run      func(e *env, opts any, args []string) error // runs with the parsed options and positional args
	synopsis []synopsis                                  // its lines in the top-level usage (set by the commands table)
}

// synopsis is a line of the top-level usage: a way to call a command, as
// short as "collide help" lists it, and what it does.
type synopsis struct {
	args    string // the command's name and its arguments, e.g. "check [flags] ENV FLY"
	summary string // what it does, in one line
}

// synopsisColumn is the column of the summaries in the top-level usage,
// after "  collide ": an args shorter by two or more fits.
const synopsisColumn = 34

// line returns s as a line of the top-level usage.
func (s synopsis) line() string {
	return fmt.Sprintf("  collide %-*s%s\n", synopsisColumn, s.args, s.summary)
}

// listed returns c with its lines in the top-level usage.
func (c *command) listed(lines ...synopsis) *command {
	c.synopsis = lines
	return c
}

//go:generate go test -run=^TestDocsUpToDate$ -fixdocs

// commands lists the subcommands, in the order help shows them, with their
// lines in the top-level usage. It is the one list of the commands: the
// top-level usage is made from it, and tests check the package doc
// (doc.go, written by go generate) and the README's synopsis against it.
var commands = []*command{
	flightCommand().listed(synopsis{"flight [flags]", "fly a model through a scene and time every step"}),
	benchCommand().listed(synopsis{"bench [--quick] [-o DIR]", "reproduce the paper's experiments as a report"}),
	checkCommand().listed(synopsis{"check [flags] ENV FLY", "test FLY, at each pose, against ENV"}),
	distanceCommand().listed(synopsis{"distance [flags] ENV FLY", "FLY's distance to ENV at each pose, with the witnesses"}),
	ccdCommand().listed(synopsis{"ccd [--summary] FILE", "when moving vertices meet faces, and edges edges (- reads stdin)"}),
	buildCommand().listed(synopsis{"build [flags] ENV -o FILE", "build ENV's hierarchy and save the model"}),
	genCommand().listed(
		synopsis{"gen KIND [k=v ...] [-o FILE]", "write a generated mesh (.obj, .stl; OBJ on stdout without -o)"},
		synopsis{"gen", "list the generators and their parameters"}),
	infoCommand().listed(synopsis{"info [--json] MODEL...", "describe meshes and saved models"}),
	worldCommand().listed(synopsis{"world [flags] SCENE", "play a scene of many objects (a file, or builtin:NAME)"}),
	ncCommand().listed(synopsis{"nc [flags] [PART] [PROGRAM]", "verify a G-code tool path against a part (no arguments: a demo)"}),
	viewCommand().listed(synopsis{"view [flags] [FILE | ENV FLY]", "show a flight or a scene of many objects in a browser"}),
}

// helpSynopsis is help's line in the top-level usage, after the commands'.
var helpSynopsis = synopsis{"help [COMMAND]", "show the flags of a command"}

func lookupCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// topUsage returns the usage that "collide help" prints: a line for each
// synopsis of the commands, in their order, then help's.
func topUsage() string {
	var b strings.Builder
	b.WriteString("collide: exact collision detection between triangle meshes\n\nusage:\n")
	for _, c := range commands {
		for _, s := range c.synopsis {
			b.WriteString(s.line())
		}
	}
	b.WriteString(helpSynopsis.line())
	b.WriteString(`
A MODEL is a mesh file (.obj, .stl, .ply, .off, .gltf, .glb), a generated
model gen:KIND[:key=value,...], e.g. gen:icosphere:tris=2000,radius=0.5, or a
model saved by collide build (suggested extension .collide). A glTF file
gives the meshes of its default scene placed by their nodes' transforms;
FILE#NAME, e.g. car.glb#Wheel, reads its one mesh NAME in its own
coordinates (split at the last '#' when FILE#NAME is not itself a file).

Exit status: 0 when the work ran (whatever it found), 1 on an error,
2 on bad usage, 130 when interrupted (Ctrl-C) in world, nc or --bv auto,
which stop cleanly, printing what they did.
`)
	return b.String()
}

// run runs the command line args (without the program name) and returns the
// exit status. It never panics: an unexpected panic is reported as an
// internal error with status 1.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (status int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "collide: internal error: %v\n", r)
			status = exitError
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, topUsage())
		return exitUsage
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		if name == "help" && len(rest) > 0 {
			c := lookupCommand(rest[0])
			if c == nil {
				fmt.Fprintf(stderr, "collide help: unknown command %q (commands: %s)\n", rest[0], commandNames())
				fmt.Fprintf(stderr, "usage: collide help [COMMAND]\n")
				return exitUsage
			}
			printHelp(stdout, c)
			return exitOK
		}
		fmt.Fprint(stdout, topUsage())
		return exitOK
	}
	c := lookupCommand(name)
	if c == nil {
		fmt.Fprintf(stderr, "collide: unknown command %q (commands: %s)\n", name, commandNames())
		fmt.Fprintf(stderr, "run 'collide help' for usage\n")
		return exitUsage
	}
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	fs := newFlagSet(c)
	opts := c.flags(fs)
	pos, err := parseInterspersed(fs, rest)
	if err == nil {
		err = c.run(e, opts, pos)
	}
	return report(e, c, err)
}

// report prints err as the command's failure and returns the exit status.
func report(e *env, c *command, err error) int {
	var ue *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		printHelp(e.stdout, c)
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(e.stderr, "collide %s: %s\n", c.name, err)
		fmt.Fprintf(e.stderr, "usage: collide %s (run 'collide help %s')\n", c.usage, c.name)
		return exitUsage
	case isInterrupt(err):
		fmt.Fprintf(e.stderr, "collide %s: interrupted: %s\n", c.name, err)
		return exitInterrupted
	default:
		fmt.Fprintf(e.stderr, "collide %s: %s\n", c.name, err)
		return exitError
	}
}

func commandNames() string {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	return strings.Join(append(names, "help"), ", ")
}

// newFlagSet returns an empty flag set for c. It prints nothing itself:
// parseInterspersed returns its errors and report prints them on stderr, with
// the usage line, or prints the help.
func newFlagSet(c *command) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// printHelp prints the usage, description and flags of c.
func printHelp(w io.Writer, c *command) {
	fmt.Fprintf(w, "usage: collide %s\n\n%s\n", c.usage, strings.TrimSpace(c.help))
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	c.flags(fs)
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if first {
			fmt.Fprintf(w, "\nflags:\n")
			first = false
		}
		fmt.Fprintf(w, "%s\n", flagHelp(f))
	})
}

// flagHelp formats f for help: "--name ARG" (a dash for one-letter names),
// then the usage and any non-zero default on an indented line.
func flagHelp(f *flag.Flag) string {
	dash := "--"
	if len(f.Name) == 1 {
		dash = "-"
	}
	arg, usage := flag.UnquoteUsage(f)
	head := "  " + dash + f.Name
	if _, isBool := f.Value.(interface{ IsBoolFlag() bool }); !isBool && arg != "" {
		head += " " + arg
	}
	if d := f.DefValue; d != "" && d != "false" && d != "0" {
		usage += fmt.Sprintf(" (default %q)", d)
	}
	return head + "\n        " + usage
}

// flagDashes returns the message of err, an error of the flag package,
// with flags written with two dashes, as the CLI writes them, not one.
func flagDashes(err error) string {
	msg := err.Error()
	for _, r := range [][2]string{
		{`" for flag -`, `" for flag --`}, // invalid value "V" for flag -NAME: ...
		{`" for -`, `" for --`},           // invalid boolean value "V" for -NAME: ...
		{"not defined: -", "not defined: --"},
		{"needs an argument: -", "needs an argument: --"},
	} {
		msg = strings.Replace(msg, r[0], r[1], 1)
	}
	return msg
}

// parseInterspersed parses the flags in args wherever they appear among the
// positional arguments (so "check a.obj b.obj --all" works) and returns the
// positional arguments in order. A "--" ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, &usageError{flagDashes(err)}
		}
		rest := fs.Args()
		stop := len(args) - len(rest)
		if stop > 0 && args[stop-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}
