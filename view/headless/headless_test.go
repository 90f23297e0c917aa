package headless

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// page draws a red 2D canvas and a WebGL canvas cleared to blue on white,
// and has a button that counts its clicks.
const page = `<!doctype html>
<html><head><title>headless test</title>
<style>
body { margin: 0; background: #fff; }
canvas { position: absolute; top: 20px; width: 200px; height: 100px; }
#c2d { left: 20px; }
#cgl { left: 260px; }
button { position: absolute; left: 20px; top: 160px; }
</style></head>
<body>
<canvas id="c2d" width="200" height="100"></canvas>
<canvas id="cgl" width="200" height="100"></canvas>
<button id="b" onclick="window.count++">click</button>
<script>
window.count = 0;
const c2 = document.getElementById("c2d").getContext("2d");
c2.fillStyle = "#ff0000";
c2.fillRect(0, 0, 200, 100);
const gl = document.getElementById("cgl").getContext("webgl", {preserveDrawingBuffer: true});
window.webgl = !!gl;
if (gl) {
	gl.clearColor(0, 0, 1, 1);
	gl.clear(gl.COLOR_BUFFER_BIT);
	window.renderer = gl.getParameter(gl.VERSION);
}
requestAnimationFrame(() => { window.ready = true; });
</script></body></html>`

// throwing throws while it loads, after a console.error, and never gets ready.
const throwing = `<!doctype html><html><body><script>
console.error("about to fail:", 42);
throw new Error("boom from the page");
window.ready = true;
</script></body></html>`

// server serves page at / and throwing at /throw.
func server(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	serve := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, body)
		}
	}
	mux.HandleFunc("/{$}", serve(page))
	mux.HandleFunc("/throw", serve(throwing))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// start starts a browser for the test, closed at its end. It skips the
// test when there is no browser, unless COLLIDE_REQUIRE_BROWSER=1.
func start(t *testing.T, o Options) *Browser {
	t.Helper()
	path, err := Find()
	if errors.Is(err, ErrNoBrowser) {
		if os.Getenv("COLLIDE_REQUIRE_BROWSER") == "1" {
			t.Fatalf("COLLIDE_REQUIRE_BROWSER=1 but: %v", err)
		}
		t.Skipf("skipped: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	b, err := Start(context.Background(), path, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return b
}

func TestPage(t *testing.T) {
	o := Options{Width: 640, Height: 360, Timeout: 20 * time.Second}
	b := start(t, o)
	srv := server(t)
	if err := b.Navigate(srv.URL + "/"); err != nil {
		t.Fatal(err)
	}
	if err := b.Wait("window.ready === true", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	var webgl bool
	var renderer string
	if err := b.Eval("window.webgl", &webgl); err != nil {
		t.Fatal(err)
	}
	if !webgl {
		t.Fatalf("no WebGL in the page; errors: %q", b.Errors())
	}
	if err := b.Eval("window.renderer", &renderer); err != nil {
		t.Fatal(err)
	}
	t.Logf("WebGL: %s", renderer)

	// Clicks, through the page's own event handler.
	var count int
	for want := 1; want <= 3; want++ {
		if err := b.Eval(`document.getElementById("b").click(); window.count`, &count); err != nil {
			t.Fatal(err)
		}
		if count != want {
			t.Fatalf("after %d clicks, count = %d", want, count)
		}
	}

	// A click of the mouse on the button (at 20+, 160+), through the
	// browser's input.
	if err := b.Click(30, 168); err != nil {
		t.Fatal(err)
	}
	if err := b.Eval(`window.count`, &count); err != nil || count != 4 {
		t.Fatalf("after a mouse click on the button, count = %d (%v), want 4", count, err)
	}
	if err := b.Click(400, 300); err != nil {
		t.Fatal(err)
	}
	if err := b.Eval(`window.count`, &count); err != nil || count != 4 {
		t.Fatalf("after a mouse click beside the button, count = %d (%v), want 4", count, err)
	}

	// A Promise is awaited, and its value decoded.
	var got struct {
		A int      `json:"a"`
		B []string `json:"b"`
	}
	if err := b.Eval(`new Promise(r => setTimeout(() => r({a: 7, b: ["x", "y"]}), 10))`, &got); err != nil {
		t.Fatal(err)
	}
	if got.A != 7 || strings.Join(got.B, ",") != "x,y" {
		t.Errorf("Eval of a Promise: %+v", got)
	}
	var title string
	if err := b.Eval("document.title", &title); err != nil || title != "headless test" {
		t.Errorf("document.title = %q, %v", title, err)
	}
	if err := b.Eval("undefined", nil); err != nil {
		t.Errorf("Eval(undefined, nil): %v", err)
	}
	if err := b.Eval("undefined", &count); err == nil || !strings.Contains(err.Error(), "undefined") {
		t.Errorf("Eval(undefined, &n) = %v, want an error about undefined", err)
	}
	if err := b.Eval(`(() => { throw new Error("eval threw") })()`, nil); err == nil || !strings.Contains(err.Error(), "eval threw") {
		t.Errorf("Eval of a throw = %v, want the exception's text", err)
	}
	if err := b.Eval(`Promise.reject(new Error("rejected here"))`, nil); err == nil || !strings.Contains(err.Error(), "rejected here") {
		t.Errorf("Eval of a rejection = %v, want the rejection's text", err)
	}
	if errs := b.Errors(); len(errs) != 0 {
		t.Errorf("Errors() = %q, want none (Eval's own exceptions are not the page's)", errs)
	}

	// The screenshot: the viewport's size, the two canvases' colours.
	data, err := b.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decoding the screenshot: %v", err)
	}
	if sz := img.Bounds().Size(); sz.X != o.Width || sz.Y != o.Height {
		t.Fatalf("screenshot is %v, want %dx%d", sz, o.Width, o.Height)
	}
	for _, c := range []struct {
		what    string
		x, y    int
		r, g, b uint32
	}{
		{"the 2D canvas", 120, 70, 255, 0, 0},
		{"the WebGL canvas", 360, 70, 0, 0, 255},
		{"the background", 600, 300, 255, 255, 255},
	} {
		if !near(img, c.x, c.y, c.r, c.g, c.b) {
			r, g, bl, _ := img.At(c.x, c.y).RGBA()
			t.Errorf("%s at (%d,%d) is rgb(%d,%d,%d), want rgb(%d,%d,%d)",
				c.what, c.x, c.y, r>>8, g>>8, bl>>8, c.r, c.g, c.b)
		}
	}
	if t.Failed() {
		shot := filepath.Join(t.TempDir(), "shot.png")
		os.WriteFile(shot, data, 0o644)
		t.Logf("screenshot in %s", shot)
	}
}

// near reports whether the pixel at (x, y) is within 8 of rgb(r, g, b).
func near(img image.Image, x, y int, r, g, b uint32) bool {
	pr, pg, pb, _ := img.At(x, y).RGBA()
	d := func(p, q uint32) bool { p >>= 8; return p+8 >= q && p <= q+8 }
	return d(pr, r) && d(pg, g) && d(pb, b)
}

func TestWaitThrows(t *testing.T) {
	b := start(t, Options{Width: 320, Height: 200, Timeout: 20 * time.Second})
	srv := server(t)
	if err := b.Navigate(srv.URL + "/throw"); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	err := b.Wait("window.ready", 10*time.Second)
	if err == nil {
		t.Fatal("Wait succeeded on a page that threw")
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Errorf("Wait took %v to see the exception: it should fail at once", d)
	}
	for _, want := range []string{"window.ready", "threw", "Uncaught Error: boom from the page", "console.error: about to fail: 42"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Wait's error lacks %q:\n%v", want, err)
		}
	}
	errs := b.Errors()
	if len(errs) != 2 || !strings.HasPrefix(errs[0], "console.error: about to fail: 42") ||
		!strings.HasPrefix(errs[1], "Uncaught Error: boom from the page") || !strings.Contains(errs[1], srv.URL+"/throw:3:") {
		t.Errorf("Errors() = %q", errs)
	}

	// A fresh Navigate forgets the exception for Wait, not for Errors.
	if err := b.Navigate(srv.URL + "/"); err != nil {
		t.Fatal(err)
	}
	if err := b.Wait("window.ready", 10*time.Second); err != nil {
		t.Errorf("Wait after navigating away from the throw: %v", err)
	}
	if n := len(b.Errors()); n != 2 {
		t.Errorf("Errors() has %d entries after the second page, want still 2", n)
	}

	// A timeout names the expression and what it threw.
	err = b.Wait("window.nothing.here", 200*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "window.nothing.here") ||
		!strings.Contains(err.Error(), "still false after 200ms") || !strings.Contains(err.Error(), "TypeError") {
		t.Errorf("Wait's timeout error = %v", err)
	}
}

func TestClose(t *testing.T) {
	b := start(t, Options{Width: 200, Height: 100, Timeout: 20 * time.Second})
	dir := profileDir(t, b)
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the profile: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the profile %s is still there after Close (%v)", dir, err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := b.Navigate("about:blank"); err == nil {
		t.Error("Navigate after Close succeeded")
	}
}

// profileDir reads the browser's --user-data-dir from its command line.
func profileDir(t *testing.T, b *Browser) string {
	t.Helper()
	p := chromedp.FromContext(b.ctx).Browser.Process()
	if p == nil {
		t.Skip("no browser process")
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p.Pid))
	if err != nil {
		t.Skipf("reading the browser's command line: %v", err)
	}
	for arg := range bytes.SplitSeq(cmdline, []byte{0}) {
		if dir, ok := strings.CutPrefix(string(arg), "--user-data-dir="); ok {
			return dir
		}
	}
	t.Fatalf("no --user-data-dir in %q", cmdline)
	return ""
}

func TestFind(t *testing.T) {
	t.Setenv("COLLIDE_BROWSER", filepath.Join(t.TempDir(), "no-such-browser"))
	if _, err := Find(); err == nil || errors.Is(err, ErrNoBrowser) || !strings.Contains(err.Error(), "COLLIDE_BROWSER") {
		t.Errorf("Find with COLLIDE_BROWSER naming nothing = %v", err)
	}

	exe := filepath.Join(t.TempDir(), "my-browser")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("COLLIDE_BROWSER", exe)
	if got, err := Find(); err != nil || got != exe {
		t.Errorf("Find with COLLIDE_BROWSER=%s = %q, %v", exe, got, err)
	}

	t.Setenv("COLLIDE_BROWSER", "")
	t.Setenv("PATH", t.TempDir())
	if _, err := Find(); !errors.Is(err, ErrNoBrowser) {
		t.Errorf("Find with an empty PATH = %v, want ErrNoBrowser", err)
	}
	for _, want := range []string{"chromium", "COLLIDE_BROWSER"} {
		if !strings.Contains(ErrNoBrowser.Error(), want) {
			t.Errorf("ErrNoBrowser %q does not mention %s", ErrNoBrowser, want)
		}
	}
}

func TestStartFails(t *testing.T) {
	if goruntime.GOOS == "windows" {
		t.Skip("the fake browsers are shell scripts")
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip(err)
	}
	// chromedp logs the broken pipe of a browser that exits at once to
	// the standard logger: keep it out of the test's output.
	var logged bytes.Buffer
	log.SetOutput(&logged)
	t.Cleanup(func() { log.SetOutput(os.Stderr) })

	dir := t.TempDir()
	for _, c := range []struct{ name, script, want string }{
		{"exits", "echo no display here >&2\nexit 3", "no display here"},
		{"hangs", "exec " + sleep + " 30", "not started within 300ms"},
		{"is missing", "", "names no executable"}, // Start hung in Close
		{"is not executable", "", "names no executable"},
	} {
		path := filepath.Join(dir, c.name)
		switch c.name {
		case "is missing":
		case "is not executable":
			if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		default:
			if err := os.WriteFile(path, []byte("#!/bin/sh\n"+c.script+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		b, err := Start(context.Background(), path, Options{Timeout: 300 * time.Millisecond})
		if err == nil {
			b.Close()
			t.Errorf("Start of a browser that %s succeeded", c.name)
		} else if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("Start of a browser that %s: %v, want the path and %q", c.name, err, c.want)
		}
	}
}
