package main

import (
	"bufio"
	"encoding/json"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// snakeKey is the one naming convention of the JSON the CLI writes.
var snakeKey = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// jsonKeys adds to keys every object key of the JSON value v, with where
// it was found.
func jsonKeys(v any, where string, keys map[string]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if _, ok := keys[k]; !ok {
				keys[k] = where
			}
			jsonKeys(x, where, keys)
		}
	case []any:
		for _, x := range v {
			jsonKeys(x, where, keys)
		}
	}
}

// TestJSONKeysSnakeCase runs every command that writes JSON, in the modes
// that add keys (summaries, --ccd, --all, saved models, violations), and
// checks that every key of every line is snake_case, as the per-step lines
// are (the flight summary's Mean, P99, Nv, Kept were not).
func TestJSONKeysSnakeCase(t *testing.T) {
	dir := t.TempDir()
	poses := writeFile(t, dir, "poses.txt", []byte(identityPose+"\n1 0 0 0 1 0 0 0 1 0.1 0 0\n1 0 0 0 1 0 0 0 1 3 0 0\n"))
	motion := writeFile(t, dir, "motion.txt", []byte("1 0 0 0 1 0 0 0 1 5 0 0\n"+identityPose+"\n")) // a hit on the way
	ccdFile := writeFile(t, dir, "ccd.txt", []byte("vf 0 0 1  0 0 -1  -1 -1 0 -1 -1 0  1 -1 0 1 -1 0  0 1 0 0 1 0\n"))
	program := writeFile(t, dir, "p.nc", []byte("G21 G90\nG0 X-20 Y0 Z10\nG1 Z0 F100\nG1 X20\nG0 Z10\nM30\n"))
	saved := filepath.Join(dir, "s.collide")
	if _, stderr, code := runCLI(t, "build", "gen:icosphere:tris=80", "-o", saved); code != exitOK {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	keys := map[string]string{}
	for _, args := range [][]string{
		{"flight", "--scene", "torus", "--quick", "--steps", "5", "--all", "--json"},
		{"flight", "--env", "gen:icosphere:tris=80", "--fly", "gen:torus:tris=100", "--steps", "5", "--json", "--ccd"},
		{"check", "--json", "--poses", poses, "gen:icosphere", "gen:torus"},
		{"check", "--json", "--ccd", "--poses", motion, "gen:icosphere:tris=20", "gen:icosphere:tris=20,radius=0.3"},
		{"check", "--json", "--all", "--eps", "0.01", "--poses", poses, "gen:icosphere", "gen:torus"},
		{"check", "--json", "--all", "--contacts", "--poses", poses, "gen:icosphere", "gen:torus"},
		{"check", "--json", "--contacts", "--eps", "0.01", "--poses", poses, "gen:icosphere", "gen:torus"},
		{"distance", "--json", "--poses", poses, "gen:icosphere", "gen:torus"},
		{"check", "--json", "--solid", "--poses", poses, "gen:icosphere", "gen:icosphere:radius=0.2"},
		{"distance", "--json", "--solid", "--poses", poses, "gen:icosphere", "gen:icosphere:radius=0.2"},
		{"distance", "--json", "--signed", "--poses", poses, "gen:box", "gen:box"},
		{"ccd", "--summary", ccdFile},
		{"world", "--json", "--steps", "3", "builtin:brownian", "--n", "20"},
		{"world", "--json", "--steps", "3", "builtin:fall", "--n", "10"},
		{"nc", "--json", "--tool", "ball 6 20, shank 6 30", "--stock", "-30 -30 -10 30 30 2", "gen:icosphere:radius=5", program},
		{"info", "--json", saved, "gen:torus"},
	} {
		stdout, stderr, code := runCLI(t, args...)
		if code != exitOK {
			t.Errorf("collide %q: exit %d: %s", args, code, stderr)
			continue
		}
		sc := bufio.NewScanner(strings.NewReader(stdout))
		sc.Buffer(nil, 1<<24)
		lines := 0
		for sc.Scan() {
			var v any
			if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
				t.Errorf("collide %q: a line that is not JSON: %.80q", args, sc.Text())
				continue
			}
			jsonKeys(v, strings.Join(args[:2], " "), keys)
			lines++
		}
		if lines == 0 {
			t.Errorf("collide %q wrote no JSON", args)
		}
	}
	var bad []string
	for k, where := range keys {
		if !snakeKey.MatchString(k) {
			bad = append(bad, k+" ("+where+")")
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Errorf("JSON keys not in snake_case: %s", strings.Join(bad, ", "))
	}
	// The flight summary's names, as the README gives them.
	for _, k := range []string{"mean", "median", "p99", "p999", "max", "prepare_seconds", "nv", "np", "nu", "nl", "front_skipped", "front_steps"} {
		if keys[k] == "" {
			t.Errorf("no JSON line has the key %q", k)
		}
	}
}
