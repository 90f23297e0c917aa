package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/collide3d/collide/bench/scenes"
)

// A flight record is a pose file written by flight --record: comment lines,
// one of them "# flight: FLAGS" naming the flight (its scene or models, the
// seed and the tolerance), then the poses flown. flight --poses and view
// read that header with the flags and the checks of their own command
// lines (checkFlightName), so that a record replays the flight it recorded
// or is refused.

// recordHeader starts the line of a pose file written by flight --record
// that gives the flight's flags.
const recordHeader = "flight:"

// maxEps is the largest tolerance (--eps) of a flight, as of a world of
// many objects (world.Options): far beyond any model's size. flight and
// view share it, so that view shows every flight flight --record wrote.
const maxEps = 1e300

// checkEps checks a tolerance given with --eps.
func checkEps(eps float64) error {
	if !(eps >= 0 && eps <= maxEps) {
		return fmt.Errorf("--eps must be a finite number >= 0 (at most 1e300), not %v", eps)
	}
	return nil
}

// checkFlightName checks the flags that name a flight (--scene, --quick,
// --env, --fly) and its tolerance (--eps): the same checks for the command
// lines of flight and view and for a record's header.
func checkFlightName(o *flightOptions) error {
	switch {
	case (o.envArg == "") != (o.flyArg == ""):
		return errors.New("give both --env and --fly, or neither")
	case o.envArg != "" && o.scene != "":
		return errors.New("give --scene, or --env and --fly, not both")
	case o.envArg != "" && o.quick:
		return errors.New("--quick applies to scenes only")
	case o.scene != "" && !slices.Contains(scenes.Names(), o.scene):
		return fmt.Errorf("--scene: unknown scene %q (available: %s)", o.scene, strings.Join(scenes.Names(), ", "))
	}
	return checkEps(o.eps)
}

// given reports whether the flag name was set on the command line.
func (o *flightOptions) given(name string) bool { return o.build.given(name) }

// record is the flight a record's header names.
type record struct {
	path  string
	line  int    // the header's line in path, from 1
	flags string // the header's flags, as written
	// scene, quick, envArg, flyArg (found as given or beside the record),
	// seed and eps.
	o flightOptions
}

// where is "PATH:LINE", the header's place.
func (r *record) where() string { return fmt.Sprintf("%s:%d", r.path, r.line) }

// readRecord returns the flight the header of the pose file at path names,
// or nil if the file has no header "# flight: FLAGS" (a plain pose file).
// The header's flags are read as the command line's are, with the same
// checks: a bad header is an error that names path and its line.
func readRecord(path string) (*record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		text, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "#")
		if !ok {
			break // the header ends at the first pose
		}
		flags, ok := strings.CutPrefix(strings.TrimSpace(text), recordHeader)
		if !ok {
			continue
		}
		r := &record{path: path, line: line, flags: strings.TrimSpace(flags)}
		if err := r.parse(); err != nil {
			return nil, fmt.Errorf("%s: %v (in the header %q)", r.where(), err, "# "+recordHeader+" "+r.flags)
		}
		return r, nil
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return nil, nil
}

// parse reads r's flags into r.o.
func (r *record) parse() error {
	words, err := splitQuoted(r.flags)
	if err != nil {
		return err
	}
	o := &r.o
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.StringVar(&o.scene, "scene", "", "")
	fs.BoolVar(&o.quick, "quick", false, "")
	fs.StringVar(&o.envArg, "env", "", "")
	fs.StringVar(&o.flyArg, "fly", "", "")
	intFlag(fs, &o.seed, "seed", 1, "")
	floatFlag(fs, &o.eps, "eps", 0, "")
	if err := fs.Parse(words); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			err = errors.New("flag provided but not defined: -help")
		}
		return errors.New(flagDashes(err))
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%q is not a flag (a header holds --scene NAME [--quick] or --env ENV --fly FLY, then --seed S and --eps X)", fs.Arg(0))
	}
	if err := checkFlightName(o); err != nil {
		return err
	}
	if o.scene == "" && o.envArg == "" {
		return errors.New("it does not name a flight: --scene NAME [--quick] or --env ENV --fly FLY, then --seed S and --eps X")
	}
	// Models named relative to where the flight ran: try them as given,
	// then beside the record.
	for _, m := range []*string{&o.envArg, &o.flyArg} {
		if *m == "" || filepath.IsAbs(*m) || strings.Contains(*m, ":") {
			continue
		}
		if _, err := os.Stat(*m); err != nil {
			if alt := filepath.Join(filepath.Dir(r.path), *m); fileExists(alt) {
				*m = alt
			}
		}
	}
	return nil
}

// applyRecord makes o fly the flight recorded in o.poses, if its header
// names one: the command line may repeat the header's scene or models and
// seed, not contradict them (a usage error naming both); a tolerance given
// on the command line (--eps) replaces the header's. Without a header o is
// unchanged, or, if need is set, it is an error.
func applyRecord(o *flightOptions, need bool) error {
	r, err := readRecord(o.poses)
	if err != nil {
		return err
	}
	if r == nil {
		if need {
			return fmt.Errorf("%s: not a flight record: no header line \"# %s FLAGS\" (flight --record writes one); to show other poses, name the models: collide view ENV FLY --poses %s, or --scene NAME --poses %s", o.poses, recordHeader, o.poses, o.poses)
		}
		return nil
	}
	h := &r.o
	var differ []string
	switch {
	case o.scene != "":
		if o.scene != h.scene || o.quick != h.quick {
			differ = append(differ, flightName(o))
		}
	case o.envArg != "":
		if h.envArg == "" || !sameModel(o.envArg, h.envArg) || !sameModel(o.flyArg, h.flyArg) {
			differ = append(differ, flightName(o))
		}
	case o.given("quick") && o.quick != h.quick:
		differ = append(differ, "--quick="+strconv.FormatBool(o.quick))
	}
	if o.given("seed") && o.seed != h.seed {
		differ = append(differ, "--seed "+strconv.FormatUint(o.seed, 10))
	}
	if len(differ) > 0 {
		return usagef("%s: the poses were recorded flying %s (the record's header), not %s (the command line): to replay it, name the flight of its header, or none", r.where(), r.flags, strings.Join(differ, " "))
	}
	if o.envArg == "" {
		o.scene, o.quick, o.envArg, o.flyArg = h.scene, h.quick, h.envArg, h.flyArg
	}
	o.seed = h.seed
	if !o.given("eps") {
		o.eps = h.eps
	}
	return nil
}

// recordOfModels checks, for check and distance, a pose file they read
// with ENV and FLY given: if it is a flight record, its header must name
// the same models (a flight of a scene is refused: its poses place the
// scene's model, which ENV and FLY cannot name).
func recordOfModels(path, envArg, flyArg string) error {
	r, err := readRecord(path)
	if err != nil || r == nil {
		return err
	}
	if r.o.scene != "" {
		return usagef("%s: the poses were recorded flying %s (the record's header), not ENV %s and FLY %s: replay it with collide flight --poses %s, or collide view %s", r.where(), r.flags, quoteWord(envArg), quoteWord(flyArg), path, path)
	}
	if !sameModel(envArg, r.o.envArg) || !sameModel(flyArg, r.o.flyArg) {
		return usagef("%s: the poses were recorded flying %s (the record's header), not ENV %s and FLY %s (the command line): name the header's models", r.where(), r.flags, quoteWord(envArg), quoteWord(flyArg))
	}
	return nil
}

// flightName is the flags that name o's flight: --scene NAME [--quick], or
// --env ENV --fly FLY.
func flightName(o *flightOptions) string {
	if o.scene != "" {
		if o.quick {
			return "--scene " + o.scene + " --quick"
		}
		return "--scene " + o.scene
	}
	return "--env " + quoteWord(o.envArg) + " --fly " + quoteWord(o.flyArg)
}

// sameModel reports whether the models a and b are the same: the same
// words, or the same file.
func sameModel(a, b string) bool {
	if a == b {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// flightOfRecord sets o to the flight a pose file written by flight --record
// names in its header, with its poses, as applyRecord does.
func flightOfRecord(o *flightOptions, path string) error {
	o.poses = path
	return applyRecord(o, true)
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// recordFlags returns the header line of flight --record that names the
// flight o flew: its scene or models, seed and tolerance.
func recordFlags(o *flightOptions) string {
	w := []string{flightName(o), "--seed", strconv.FormatUint(o.seed, 10)}
	if o.eps != 0 {
		w = append(w, "--eps", formatFloat(o.eps))
	}
	return recordHeader + " " + strings.Join(w, " ")
}

// quoteWord quotes s (as Go does) if it has spaces, quotes or anything
// splitQuoted would not keep as it is.
func quoteWord(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\"'\\#") || !strconv.CanBackquote(s) {
		return strconv.Quote(s)
	}
	return s
}

// splitQuoted splits s at spaces, reading words in double quotes as Go
// strings.
func splitQuoted(s string) ([]string, error) {
	var words []string
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return words, nil
		}
		if s[0] == '"' {
			q, err := strconv.QuotedPrefix(s)
			if err != nil {
				return nil, fmt.Errorf("a quoted word that does not end: %s", s)
			}
			w, _ := strconv.Unquote(q)
			words = append(words, w)
			s = s[len(q):]
			continue
		}
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			i = len(s)
		}
		words = append(words, s[:i])
		s = s[i:]
	}
}
