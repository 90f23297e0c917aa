package main

import (
	"strings"
	"testing"
)

// openBox is a unit cube's surface without its last triangle (an OBJ).
const openBox = `v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
f 1 3 2
f 1 4 3
f 5 6 7
f 5 7 8
f 1 2 6
f 1 6 5
f 2 3 7
f 2 7 6
f 3 4 8
f 3 8 7
f 4 1 5
`

const (
	bigBox    = "gen:box:minx=-2,miny=-2,minz=-2,maxx=2,maxy=2,maxz=2"
	smallBall = "gen:icosphere:radius=0.3,tris=80"
)

// TestCheckSolid: --solid reports a model inside the other, in text and
// JSON, which the surfaces alone do not.
func TestCheckSolid(t *testing.T) {
	dir := t.TempDir()
	poses := writeFile(t, dir, "poses.txt", []byte(identityPose+"\n1 0 0 0 1 0 0 0 1 1.9 0 0\n1 0 0 0 1 0 0 0 1 5 0 0\n"))
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"check", "--solid", "--poses", poses, bigBox, smallBall},
			[]string{"pose 0: collide: fly inside env (", "solid tests 1, ", "pose 1: collide, first pair", "pose 2: no contact", "3 poses, 2 in contact"}},
		{[]string{"check", "--solid", smallBall, bigBox}, []string{"pose 0: collide: env inside fly ("}},
		{[]string{"check", "--solid", "--json", "--all", "--poses", poses, bigBox, smallBall},
			[]string{`{"pose":0,"collide":true,"pairs":[],"inside":"fly","stats":`, `{"pose":1,"collide":true,"pairs":[[`, `{"pose":2,"collide":false,"pairs":[],"stats"`}},
		{[]string{"check", "--solid", "--json", smallBall, bigBox}, []string{`"pairs":[],"inside":"env","stats"`}},
		{[]string{"check", bigBox, smallBall}, []string{"pose 0: no contact"}},
	} {
		stdout, stderr, code := runCLI(t, c.args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%v: the output lacks %q:\n%s", c.args, w, stdout)
			}
		}
		if strings.Contains(c.args[1], "--solid") && strings.Contains(stdout, `"inside":""`) {
			t.Errorf("%v: an empty inside key:\n%s", c.args, stdout)
		}
	}
	if stdout, _, _ := runCLI(t, "check", "--json", "--poses", poses, bigBox, smallBall); strings.Contains(stdout, "inside") {
		t.Errorf("without --solid, a key inside:\n%s", stdout)
	}
}

// TestDistanceSolid: --solid makes the distance 0 when one is inside.
func TestDistanceSolid(t *testing.T) {
	stdout, stderr, code := runCLI(t, "distance", "--solid", bigBox, smallBall)
	if code != exitOK || !strings.Contains(stdout, "pose 0: contact: fly inside env, its vertex at (") {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	stdout, _, _ = runCLI(t, "distance", "--solid", "--json", smallBall, bigBox)
	if !strings.Contains(stdout, `{"pose":0,"distance":0,"inside":"env","p_env":[`) {
		t.Errorf("json: %s", stdout)
	}
	stdout, _, _ = runCLI(t, "distance", bigBox, smallBall)
	if !strings.Contains(stdout, "pose 0: distance 1.7") {
		t.Errorf("without --solid: %s", stdout)
	}
}

// TestSolidOpenModel: an open model with --solid is an error naming the
// file and what breaks; --solid with --ccd, --contacts or --signed a
// usage error.
func TestSolidOpenModel(t *testing.T) {
	dir := t.TempDir()
	open := writeFile(t, dir, "open.obj", []byte(openBox))
	for _, args := range [][]string{
		{"check", "--solid", bigBox, open},
		{"check", "--solid", open, bigBox},
		{"distance", "--solid", open, bigBox},
	} {
		_, stderr, code := runCLI(t, args...)
		if code != exitError || !strings.Contains(stderr, open+": --solid: not a solid: not closed: 3 boundary edges") {
			t.Errorf("%v: exit %d, %s", args, code, stderr)
		}
	}
	scene := writeFile(t, dir, "scene.json", []byte(`{"steps": 1, "models": [{"name": "o", "mesh": "open.obj"}], "objects": [{"name": "lid", "model": "o"}]}`))
	if _, stderr, code := runCLI(t, "world", "--solid", scene); code != exitError || !strings.Contains(stderr, `"lid"`) || !strings.Contains(stderr, "not closed") {
		t.Errorf("world: exit %d, %s", code, stderr)
	}
	if _, stderr, code := runCLI(t, "world", scene); code != exitOK {
		t.Errorf("world without --solid: exit %d, %s", code, stderr)
	}
	for _, args := range [][]string{
		{"check", "--solid", "--contacts", bigBox, smallBall},
		{"distance", "--solid", "--signed", bigBox, smallBall},
	} {
		if _, stderr, code := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, %s", args, code, stderr)
		}
	}
}

// TestWorldSolid: a ball in a bin is a contact of solids, said by name.
func TestWorldSolid(t *testing.T) {
	path := worldScene(t, `{"steps": 2, "models": [{"name": "bin", "mesh": "`+bigBox+`"}, {"name": "ball", "mesh": "`+smallBall+`"}],
  "objects": [{"name": "bin", "model": "bin", "static": true}, {"name": "ball", "model": "ball", "position": [0.5, 0, 0]}]}`)
	stdout, stderr, code := runCLI(t, "world", "--solid", path)
	if code != exitOK || !strings.Contains(stdout, "  bin ball: ball inside bin\n") || !strings.Contains(stdout, "step 1: 1 pair in contact") {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	stdout, _, _ = runCLI(t, "world", "--solid", "--json", path)
	if !strings.Contains(stdout, `{"a":"bin","b":"ball","pairs":[],"inside":"ball"}`) {
		t.Errorf("json: %s", stdout)
	}
	stdout, _, _ = runCLI(t, "world", path)
	if !strings.Contains(stdout, "step 1: 0 pairs in contact") {
		t.Errorf("without --solid: %s", stdout)
	}
}
