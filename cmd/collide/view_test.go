package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/bench/scenes"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/scene"
	"github.com/collide3d/collide/view"
	"github.com/collide3d/collide/view/headless"
	"github.com/collide3d/collide/world"
)

// browser returns the headless browser of the tests, or skips the test
// when none is installed (failing instead when COLLIDE_REQUIRE_BROWSER=1,
// as in CI, which installs Debian's chromium).
func browser(t *testing.T) string {
	t.Helper()
	path, err := headless.Find()
	if errors.Is(err, headless.ErrNoBrowser) && os.Getenv("COLLIDE_REQUIRE_BROWSER") != "1" {
		t.Skipf("no headless browser to test the viewer in (install Debian's chromium package, or set COLLIDE_BROWSER): %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// recordTorus records the quick torus flight to a file in dir and returns
// its path, its poses and each step's pairs found afresh by the brute-force
// oracle (every pair of triangles, no hierarchy), ascending.
func recordTorus(t *testing.T, dir string) (string, []geom.Pose, [][]collide.Pair) {
	t.Helper()
	path := filepath.Join(dir, "torus.record")
	if _, stderr, code := runCLI(t, "flight", "--scene", "torus", "--quick", "--record", path); code != exitOK {
		t.Fatalf("flight --record: exit %d: %s", code, stderr)
	}
	poses, err := readPoseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenes.New("torus", scenes.Quick, 1)
	if err != nil {
		t.Fatal(err)
	}
	env, err := collide.Build(sc.Env, collide.BuildOptions{BV: collide.Brute})
	if err != nil {
		t.Fatal(err)
	}
	fly, err := collide.Build(sc.Fly, collide.BuildOptions{BV: collide.Brute})
	if err != nil {
		t.Fatal(err)
	}
	pairs := make([][]collide.Pair, len(poses))
	for i, p := range poses {
		r, err := collide.Check(env, fly, p, collide.QueryOptions{All: true})
		if err != nil {
			t.Fatal(err)
		}
		pairs[i] = slices.Clone(r.Pairs)
	}
	return path, poses, pairs
}

// syncBuffer is a bytes.Buffer safe to read while a command writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serveForTest runs collide view with args on a free loopback port until
// the test ends, and returns the page's address.
func serveForTest(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb syncBuffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, ctx: ctx}
	c := viewCommand()
	fs := newFlagSet(c)
	opts := c.flags(fs)
	pos, err := parseInterspersed(fs, append([]string{"--addr", "127.0.0.1:0"}, args...))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.run(e, opts, pos) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("collide view: %v", err)
		}
	})
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if _, url, ok := strings.Cut(out.String(), " at "); ok {
			url, _, _ = strings.Cut(url, " ")
			return url
		}
		select {
		case err := <-done:
			t.Fatalf("collide view ended: %v; stderr %s", err, errb.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("collide view did not start serving: stdout %q, stderr %q", out.String(), errb.String())
	return ""
}

// openViewer opens the viewer at url in the headless browser at path, with
// a viewport of w×h, and waits for its first step; the browser closes when
// the test ends.
func openViewer(t *testing.T, path, url string, w, h int) *headless.Browser {
	t.Helper()
	b, err := headless.Start(context.Background(), path, headless.Options{Width: w, Height: h, Timeout: time.Minute, NoSandbox: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	if err := b.Navigate(url); err != nil {
		t.Fatal(err)
	}
	if err := b.Wait("window.collideView && (collideView.ready || collideView.error)", time.Minute); err != nil {
		t.Fatal(err)
	}
	return b
}

// TestViewBrowser serves a recorded flight with collide view and drives
// the page in headless Chromium: it loads both meshes whole, the slider
// moves to a step in contact, whose highlighted pairs and triangles are the
// pairs the brute-force oracle finds at the recorded pose, play advances,
// and a screenshot shows the models and the highlight.
func TestViewBrowser(t *testing.T) {
	path := browser(t)
	rec, poses, pairs := recordTorus(t, t.TempDir())
	url := serveForTest(t, rec)

	const w, h = 1000, 700
	b := openViewer(t, path, url, w, h)
	var state struct {
		Ready       bool
		Shown       int
		Error       *string
		Triangles   []int
		Highlighted struct{ Pairs, Triangles int }
	}
	read := func() {
		t.Helper()
		if err := b.Eval("collideView", &state); err != nil {
			t.Fatal(err)
		}
		if state.Error != nil {
			t.Fatalf("the page failed: %s (page errors: %q)", *state.Error, b.Errors())
		}
	}
	read()
	sc, err := scenes.New("torus", scenes.Quick, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{len(sc.Env.Tris), len(sc.Fly.Tris)}; fmt.Sprint(state.Triangles) != fmt.Sprint(want) || state.Shown != 0 {
		t.Fatalf("page loaded meshes of %v triangles and shows step %d; want %v and step 0", state.Triangles, state.Shown, want)
	}

	// The step with the most pairs, and one without.
	most, none := 0, -1
	for i, p := range pairs {
		if len(p) > len(pairs[most]) {
			most = i
		}
		if len(p) == 0 && none < 0 && i > 0 {
			none = i
		}
	}
	if len(pairs[most]) == 0 || none < 0 {
		t.Fatalf("the quick torus flight of %d steps should have steps in contact and out of it (pairs %v)", len(poses), pairs)
	}
	for _, step := range []int{most, none} {
		js := fmt.Sprintf(`(() => { const s = document.getElementById('slider'); s.value = %d; s.dispatchEvent(new Event('input')); })()`, step)
		if err := b.Eval(js, nil); err != nil {
			t.Fatal(err)
		}
		if err := b.Wait(fmt.Sprintf("collideView.shown === %d || collideView.error", step), time.Minute); err != nil {
			t.Fatal(err)
		}
		read()
		want := len(pairs[step])
		if state.Highlighted.Pairs != want || state.Highlighted.Triangles != 2*want {
			t.Errorf("step %d: the page highlights %d pairs (%d triangles); the oracle finds %d pairs at the recorded pose",
				step, state.Highlighted.Pairs, state.Highlighted.Triangles, want)
		}
		// The very triangles: environment (object 0) and flying (1).
		var shown [][4]int32
		if err := b.Eval("collideView.pairs()", &shown); err != nil {
			t.Fatal(err)
		}
		for k, p := range pairs[step] {
			if k >= len(shown) || shown[k] != [4]int32{0, p.Env, 1, p.Fly} {
				t.Errorf("step %d: pair %d highlighted is %v, the oracle's is %v", step, k, shown[min(k, len(shown)-1):], p)
				break
			}
		}
		// Where the page draws the first pair's triangles: the
		// environment's at the identity, the flying model's at the pose,
		// within float32's rounding of the scene's size.
		if want > 0 {
			for i, m := range []struct {
				mesh *mesh.TriMesh
				tri  int32
				pose geom.Pose
			}{{sc.Env, pairs[step][0].Env, geom.Identity()}, {sc.Fly, pairs[step][0].Fly, poses[step]}} {
				var got [9]float64
				if err := b.Eval(fmt.Sprintf("collideView.triangle(%d)", i), &got); err != nil {
					t.Fatal(err)
				}
				tol := 1e-5 * sc.Env.Bounds().Size().Norm()
				for c, v := range m.mesh.Tris[m.tri] {
					p := m.pose.Apply(m.mesh.Verts[v])
					if d := geom.V(got[3*c], got[3*c+1], got[3*c+2]).Sub(p).Norm(); d > tol {
						t.Errorf("step %d: vertex %d of triangle %d drawn at %v, want %v (off by %g > %g)", step, c, m.tri, got[3*c:3*c+3], p, d, tol)
					}
				}
			}
		}
		// Where the models' instances draw their vertices.
		for o, m := range []struct {
			mesh *mesh.TriMesh
			pose geom.Pose
		}{{sc.Env, geom.Identity()}, {sc.Fly, poses[step]}} {
			for _, v := range []int{0, len(m.mesh.Verts) / 2, len(m.mesh.Verts) - 1} {
				var got [3]float64
				if err := b.Eval(fmt.Sprintf("collideView.vertex(%d, %d)", o, v), &got); err != nil {
					t.Fatal(err)
				}
				p := m.pose.Apply(m.mesh.Verts[v])
				if d := geom.V(got[0], got[1], got[2]).Sub(p).Norm(); d > 1e-5*sc.Env.Bounds().Size().Norm() {
					t.Errorf("step %d: object %d's vertex %d drawn at %v, want %v", step, o, v, got, p)
				}
			}
		}
		var label string
		if err := b.Eval(`document.getElementById('s-pairs').textContent`, &label); err != nil {
			t.Fatal(err)
		}
		if label != fmt.Sprint(want) {
			t.Errorf("step %d: the panel says %q pairs, want %d", step, label, want)
		}
	}

	// Back to the step in contact. A pair in the list, clicked, is
	// selected and named; a mouse click on the highlight, now at the
	// centre of the view, selects a pair too.
	if err := b.Eval(fmt.Sprintf("collideView.setStep(%d)", most), nil); err != nil {
		t.Fatal(err)
	}
	var pick struct {
		Selected int
		Text     string
	}
	const readPick = `({selected: collideView.selected, text: document.getElementById('pick').textContent})`
	if err := b.Eval(`document.querySelectorAll('#pairs li')[1].click()`, nil); err != nil {
		t.Fatal(err)
	}
	if err := b.Eval(readPick, &pick); err != nil {
		t.Fatal(err)
	}
	p1 := pairs[most][1]
	if pick.Selected != 1 || !strings.Contains(pick.Text, fmt.Sprintf("triangle %d (red) touches flying triangle %d", p1.Env, p1.Fly)) {
		t.Errorf("the list's second pair clicked: selected %d, %q; want pair 1, %v", pick.Selected, pick.Text, p1)
	}
	var centre [2]float64
	if err := b.Eval(`(() => { const r = document.querySelector('#scene canvas').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`, &centre); err != nil {
		t.Fatal(err)
	}
	// Forget the selection (the camera still looks at pair 1), then click.
	if err := b.Eval(`document.getElementById('pick').textContent = ''; collideView.selected = -1`, nil); err != nil {
		t.Fatal(err)
	}
	if err := b.Click(centre[0], centre[1]); err != nil {
		t.Fatal(err)
	}
	if err := b.Eval(readPick, &pick); err != nil {
		t.Fatal(err)
	}
	if pick.Selected < 0 || !strings.HasPrefix(pick.Text, "pair ") {
		t.Errorf("a click on the highlight at the view's centre: selected %d, %q; want a pair", pick.Selected, pick.Text)
	}
	shot, err := b.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds().Size(); got != image.Pt(w, h) {
		t.Fatalf("screenshot of %v, want %dx%d", got, w, h)
	}
	colours, highlight, moving := pixels(img)
	if colours < 100 || highlight == 0 || moving < 100 {
		os.WriteFile(filepath.Join(t.TempDir(), "view.png"), shot, 0o644)
		t.Errorf("screenshot at step %d: %d colours, %d highlight pixels, %d of the flying model's: want a drawn scene with both", most, colours, highlight, moving)
	}

	// Play advances; pause stops.
	if err := b.Eval(`document.getElementById('slider').value = 0; collideView.setStep(0).then(() => document.getElementById('play').click())`, nil); err != nil {
		t.Fatal(err)
	}
	if err := b.Wait("collideView.shown > 5", time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := b.Eval(`document.getElementById('play').click()`, nil); err != nil {
		t.Fatal(err)
	}
	if errs := b.Errors(); len(errs) > 0 {
		t.Errorf("the page logged errors: %q", errs)
	}
}

// pixels counts an image's distinct colours, its pixels of the highlight
// colours (#ff3b30 and #ffd60a) and of the first moving object's (#4aa3ff,
// lit: blue well above red and green).
func pixels(img image.Image) (colours, highlight, moving int) {
	seen := map[[3]uint32]bool{}
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			cr, cg, cb = cr>>8, cg>>8, cb>>8
			seen[[3]uint32{cr, cg, cb}] = true
			near := func(r, g, b uint32) bool {
				d := func(a, b uint32) uint32 { return max(a, b) - min(a, b) }
				return d(cr, r) < 24 && d(cg, g) < 24 && d(cb, b) < 24
			}
			if near(0xff, 0x3b, 0x30) || near(0xff, 0xd6, 0x0a) {
				highlight++
			}
			if cb > 120 && cb > cr+60 && cb > cg+20 {
				moving++
			}
		}
	}
	return len(seen), highlight, moving
}

// TestViewSnapshot renders a recorded flight's step to PNG with collide
// view --snapshot, and will not overwrite it without --force.
func TestViewSnapshot(t *testing.T) {
	browser(t)
	dir := t.TempDir()
	rec, _, pairs := recordTorus(t, dir)
	step := 0
	for i, p := range pairs {
		if len(p) > len(pairs[step]) {
			step = i
		}
	}
	out := filepath.Join(dir, "step.png")
	_, stderr, code := runCLI(t, "view", "--snapshot", out, "--step", fmt.Sprint(step), "--size", "800x500", rec)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	colours, highlight, _ := pixels(img)
	if img.Bounds().Size() != image.Pt(800, 500) || colours < 100 || highlight == 0 {
		t.Errorf("snapshot of step %d: %v, %d colours, %d highlight pixels", step, img.Bounds().Size(), colours, highlight)
	}
	_, stderr, code = runCLI(t, "view", "--snapshot", out, rec)
	if code != exitError || !strings.Contains(stderr, out) {
		t.Errorf("a second snapshot to the same file: exit %d, %q; want exit 1 naming the file", code, stderr)
	}
	if again, _ := os.ReadFile(out); !bytes.Equal(again, b) {
		t.Error("the snapshot was overwritten without --force")
	}
}

func TestViewUsage(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.txt")
	if err := os.WriteFile(plain, []byte("# my poses\n1 0 0 0 1 0 0 0 1 0 0 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badHeader := filepath.Join(dir, "bad.record")
	if err := os.WriteFile(badHeader, []byte("# flight: --scene torus --fly x.obj\n1 0 0 0 1 0 0 0 1 0 0 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	existing := filepath.Join(dir, "exists.png")
	if err := os.WriteFile(existing, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"view", "a", "b", "c"}, exitUsage, "at most two"},
		{[]string{"view", "--size", "10x10", "--snapshot", filepath.Join(dir, "x.png")}, exitUsage, "--size"},
		{[]string{"view", "--size", "800x600"}, exitUsage, "--snapshot only"},
		{[]string{"view", "--snapshot", existing}, exitError, existing},
		{[]string{"view", "--scene", "nope"}, exitUsage, "unknown scene"},
		{[]string{"view", "--steps", "-1"}, exitUsage, "--steps"},
		{[]string{"view", "--scene", "torus", "--quick", "--step", "300"}, exitUsage, "has 300 steps"},
		{[]string{"view", plain}, exitError, "not a flight record"},
		{[]string{"view", badHeader}, exitError, "bad.record:1"},
		{[]string{"view", "--scene", "torus", plain}, exitUsage, "give FLIGHT.record alone"},
		{[]string{"view", "--quick", "a.obj", "b.obj"}, exitUsage, "not both"},
		{[]string{"view", "--n", "4", "a.obj", "b.obj"}, exitUsage, "--n applies"},
		{[]string{"view", "--eps", "0.1", "builtin:brownian"}, exitUsage, "--eps applies to flights"},
		{[]string{"view", filepath.Join(dir, "missing.json")}, exitError, "missing.json"},
	} {
		_, stderr, code := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("collide %q: exit %d, stderr %q; want exit %d with %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
	if b, _ := os.ReadFile(existing); string(b) != "mine" {
		t.Error("--snapshot overwrote a file without --force")
	}
}

// TestRecordHeader checks that the header flight --record writes names the
// flight back, models with spaces and quotes in their names included.
func TestRecordHeader(t *testing.T) {
	for _, o := range []flightOptions{
		{scene: "torus", quick: true, seed: 7},
		{scene: "747", seed: 1, eps: 0.25},
		{envArg: "my env.obj", flyArg: `fly "x".stl`, seed: 3},
		{envArg: "gen:sphere:tris=80", flyArg: "a#b.off", seed: 0},
	} {
		path := filepath.Join(t.TempDir(), "f.record")
		header := "collide flight: test, 1 steps, seed 1\n" + recordFlags(&o)
		if err := writeFileAtomic(path, false, func(w io.Writer) error {
			return flight.WritePoses(w, header, []geom.Pose{geom.Identity()})
		}); err != nil {
			t.Fatal(err)
		}
		var got flightOptions
		if err := flightOfRecord(&got, path); err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		if got.scene != o.scene || got.quick != o.quick || got.seed != o.seed || got.eps != o.eps ||
			got.envArg != o.envArg || got.flyArg != o.flyArg || got.poses != path {
			t.Errorf("header %q read back as %+v, want %+v", recordFlags(&o), got, o)
		}
	}
}

// TestViewBrowserScene serves a scene of many objects (instances of shared
// models) and checks, at every step with contacts, that the page
// highlights the pairs the recording holds, which TestRecordScene in
// package view checks against the brute-force oracle.
func TestViewBrowserScene(t *testing.T) {
	path := browser(t)
	file := filepath.Join("..", "..", "view", "testdata", "balls.json") // TestRecordScene's
	s, err := scene.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := view.RecordScene(s, scene.Options{World: world.Options{All: true}})
	if err != nil {
		t.Fatal(err)
	}
	url := serveForTest(t, file)
	b := openViewer(t, path, url, 800, 600)
	checked := 0
	for n := range rec.Steps {
		want := rec.Steps[n].Pairs()
		if want == 0 && n%10 != 0 {
			continue
		}
		var got struct{ Pairs, Triangles int }
		if err := b.Eval(fmt.Sprintf("collideView.setStep(%d).then(() => collideView.highlighted)", n), &got); err != nil {
			t.Fatal(err)
		}
		if got.Pairs != want || got.Triangles != 2*want {
			t.Errorf("step %d: the page highlights %d pairs (%d triangles), the recording has %d", n, got.Pairs, got.Triangles, want)
		}
		if want > 0 {
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no step of the scene has a contact")
	}
	if errs := b.Errors(); len(errs) > 0 {
		t.Errorf("the page logged errors: %q", errs)
	}
}

// FuzzQuoteWords checks that the words of a record's header read back as
// written, whatever they hold (spaces, quotes, '#', bytes not UTF-8), and
// that splitQuoted never panics on any line.
func FuzzQuoteWords(f *testing.F) {
	for _, s := range []string{"--env\x00my env.obj\x00--fly\x00a#b.off", `"\x00'\x00\\`, "gen:sphere:tris=80", "\xff\xfe", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		splitQuoted(s) // any line: an error or words, never a panic
		words := strings.Split(s, "\x00")
		var quoted []string
		for _, w := range words {
			quoted = append(quoted, quoteWord(w))
		}
		got, err := splitQuoted(strings.Join(quoted, " "))
		if err != nil || !slices.Equal(got, words) {
			t.Fatalf("%q written as %q read back as %q, %v", words, strings.Join(quoted, " "), got, err)
		}
	})
}

// curvePixels counts the pixels of img drawn in the colour of the
// intersection curves (view.js CURVE, 0xff2bd6) and of the contact
// normals (NORMAL, 0x00ffff).
func curvePixels(img image.Image) (curves, normals int) {
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			cr, cg, cb = cr>>8, cg>>8, cb>>8
			near := func(r, g, b uint32) bool {
				d := func(a, b uint32) uint32 { return max(a, b) - min(a, b) }
				return d(cr, r) < 40 && d(cg, g) < 40 && d(cb, b) < 40
			}
			if near(0xff, 0x2b, 0xd6) {
				curves++
			}
			if near(0x00, 0xff, 0xff) {
				normals++
			}
		}
	}
	return curves, normals
}

// TestViewSnapshotContact renders a recorded flight with --snapshot and no
// --step: the step shown is the one with the most pairs (in contact), the
// camera framed on its contact: the highlight covers many times the pixels
// it covers at the same step seen as the page first shows it, and the
// intersection curves and normals are drawn.
func TestViewSnapshotContact(t *testing.T) {
	path := browser(t)
	dir := t.TempDir()
	rec, _, pairs := recordTorus(t, dir)
	most := 0
	for i, p := range pairs {
		if len(p) > len(pairs[most]) {
			most = i
		}
	}
	out := filepath.Join(dir, "contact.png")
	_, stderr, code := runCLI(t, "view", "--snapshot", out, "--size", "800x500", rec)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	_, framed, _ := pixels(img)
	curves, normals := curvePixels(img)

	// The same step as the page shows it without framing.
	url := serveForTest(t, rec)
	page := openViewer(t, path, fmt.Sprintf("%s?step=%d", url, most), 800, 500)
	if err := page.Wait(fmt.Sprintf("collideView.shown === %d || collideView.error", most), time.Minute); err != nil {
		t.Fatal(err)
	}
	var state struct {
		Curves, Normals int
		Framed          bool
		Error           *string
	}
	if err := page.Eval("collideView", &state); err != nil {
		t.Fatal(err)
	}
	if state.Error != nil {
		t.Fatalf("the page failed: %s", *state.Error)
	}
	shot, err := page.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	plain, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	_, unframed, _ := pixels(plain)
	t.Logf("step %d (%d pairs): highlight %d pixels framed, %d as first shown; curves %d pixels, normals %d; the page draws %d segments, %d normals",
		most, len(pairs[most]), framed, unframed, curves, normals, state.Curves, state.Normals)
	if state.Curves == 0 || state.Normals == 0 || state.Framed {
		t.Errorf("step %d: the page draws %d curve segments and %d normals, framed %v; want some of both, not framed without ?frame=contact", most, state.Curves, state.Normals, state.Framed)
	}
	// The c key points the camera at the contact.
	if err := page.Eval(`window.dispatchEvent(new KeyboardEvent('keydown', {key: 'c'}))`, nil); err != nil {
		t.Fatal(err)
	}
	if err := page.Wait("collideView.framed || collideView.error", time.Minute); err != nil {
		t.Errorf("the c key did not frame the contact: %v", err)
	}
	if framed < 4*unframed || curves == 0 || normals == 0 {
		t.Errorf("the snapshot of step %d: highlight %d pixels (%d unframed), curves %d, normals %d: want the contact framed (4x the pixels at least), curves and normals drawn",
			most, framed, unframed, curves, normals)
	}
}
