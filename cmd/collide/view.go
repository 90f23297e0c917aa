package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/scene"
	"github.com/collide3d/collide/view"
	"github.com/collide3d/collide/view/headless"
	"github.com/collide3d/collide/world"
)

// defaultViewScene is the flight a bare 'collide view' shows.
const defaultViewScene = "torus"

// defaultViewAddr is where 'collide view' serves by default.
const defaultViewAddr = "127.0.0.1:8357"

type viewOptions struct {
	fly      flightOptions // --scene, --quick, --seed, --steps, --eps, --max-pairs, --poses and the build flags
	fs       *flag.FlagSet
	addr     string
	snapshot string
	step     int
	size     string
	browser  string
	n        int
}

func viewCommand() *command {
	return &command{
		name:  "view",
		usage: "view [flags] [FLIGHT.record | SCENE.json | builtin:NAME | ENV FLY]",
		help: fmt.Sprintf(`
Serves a web page, on the loopback address (--addr), that plays a flight
(flown with %s trees unless --bv says otherwise) or a scene of many
objects: the models drawn with three.js (embedded: nothing is
fetched from the network), a slider and play/pause over the steps, the
triangles in contact at each step highlighted (the two triangles of every
pair, drawn through everything, with a dot at each pair), the intersection
curves (magenta: each crossing's segment, each coplanar overlap's
outline) and a normal at each contact patch (a cyan arrow, from the
environment towards the moving object), computed from the library's contacts, the step's
figures (pairs, query time, bounding-volume and triangle tests) and the
query time of every step in a chart with the step shown marked. The page
gets the meshes and poses as binary, so environments of 10^6 triangles load
in a second or two; every step's contacts are every pair of triangles
(--max-pairs bounds them).

What it shows:
  (nothing)        the %s flight (--scene and --quick choose another scene,
                   --seed its path and geometry)
  FLIGHT.record    a flight recorded with flight --record: the file's header
                   names the scene or models, the seed and the tolerance, and
                   its poses are replayed (read with the checks of these
                   flags; --seed must agree with it, --eps replaces its
                   tolerance)
  SCENE.json       a scene file of many objects (as world plays it), or
  builtin:NAME     a built-in scene (--n objects, --seed); --steps plays
                   fewer steps
  ENV FLY          FLY flown through ENV on a billiard path (--seed), or
                   along --poses FILE

--snapshot OUT.png renders step --step N of it (by default the step with
the most pairs in contact, the first of them, or step 0 if none; the
camera framed on the step's contact region: the box of its curves and
normals grown by half its size) (the whole page, --size WxH pixels) to a
PNG with a headless Chromium, found on PATH (chromium,
chromium-browser, google-chrome, ...) or named with --browser or
COLLIDE_BROWSER, and exits; it does not overwrite OUT.png without --force.
Otherwise the page is served until interrupted (Ctrl-C). The server answers
only requests for its own page and the recording's data, and only those
addressed to a loopback host unless --addr names another address.`, defaultBV, defaultViewScene),
		flags: func(fs *flag.FlagSet) any {
			o := &viewOptions{fs: fs}
			o.fly.build.define(fs, collide.BVs()) // and o.fly.given

			fs.StringVar(&o.fly.scene, "scene", "", "fly the scene `NAME` (default "+defaultViewScene+")")
			fs.BoolVar(&o.fly.quick, "quick", false, "fly the small version of the scene")
			intFlag(fs, &o.fly.seed, "seed", 1, "random `SEED` of the path and of the scene's geometry")
			intFlag(fs, &o.fly.steps, "steps", 0, "show `N` steps (default: the flight's or scene's)")
			floatFlag(fs, &o.fly.eps, "eps", 0, "tolerance `X` >= 0: pairs at distance <= X are in contact")
			intFlag(fs, &o.fly.maxPairs, "max-pairs", 0, "keep at most `N` pairs of triangles a step (0: no limit)")
			fs.StringVar(&o.fly.poses, "poses", "", "fly ENV FLY or the scene along the poses of `FILE`")
			intFlag(fs, &o.n, "n", 0, "the number `N` of objects of a built-in scene of many objects")
			fs.StringVar(&o.addr, "addr", defaultViewAddr, "serve at `HOST:PORT` (port 0: any free port)")
			fs.StringVar(&o.snapshot, "snapshot", "", "render the page to `OUT.png` with a headless browser and exit")
			intFlag(fs, &o.step, "step", 0, "the step `N` shown first, and by --snapshot (default for --snapshot: the step with the most pairs in contact)")
			fs.StringVar(&o.size, "size", "1280x800", "the snapshot's size `WxH` in pixels")
			fs.StringVar(&o.browser, "browser", "", "the headless browser `PATH` of --snapshot (default: found on PATH)")
			fs.BoolVar(&o.fly.force, "force", false, "overwrite the file of --snapshot if it exists")
			return o
		},
		run: runView,
	}
}

func (o *viewOptions) given(name string) bool {
	found := false
	o.fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

func runView(e *env, opts any, args []string) error {
	o := opts.(*viewOptions)
	switch {
	case len(args) > 2:
		return usagef("view takes at most two arguments (ENV FLY), got %d", len(args))
	case o.fly.steps < 0 || o.fly.steps > view.MaxPoses:
		return usagef("--steps must be within [0, %d], not %d (a recording holds at most %d poses)", view.MaxPoses, o.fly.steps, view.MaxPoses)
	case o.step < 0:
		return usagef("--step must be >= 0, not %d", o.step)
	case o.fly.maxPairs < 0:
		return usagef("--max-pairs must be >= 0, not %d", o.fly.maxPairs)
	}
	if err := checkEps(o.fly.eps); err != nil {
		return usagef("%v", err)
	}
	width, height, err := parseSize(o.size)
	if err != nil {
		return err
	}
	if o.snapshot != "" {
		if err := keep(o.snapshot, o.fly.force); err != nil {
			return err
		}
		// The browser found before the flight, which may be long.
		if o.browser == "" {
			if o.browser, err = headless.Find(); err != nil {
				return err
			}
		} else if _, err := exec.LookPath(o.browser); err != nil {
			return usagef("--browser %s names no executable: %v", o.browser, errors.Unwrap(err))
		}
	} else if o.given("size") || o.given("browser") {
		return usagef("--size and --browser apply to --snapshot only")
	}

	rec, err := viewRecording(e, o, args)
	if err != nil {
		return err
	}
	if o.snapshot != "" && !o.given("step") {
		o.step = rec.ContactStep()
	}
	if o.step >= len(rec.Steps) {
		return usagef("--step %d: the recording has %d steps (0 to %d)", o.step, len(rec.Steps), len(rec.Steps)-1)
	}
	h, err := view.Handler(rec, view.Options{AnyHost: !view.LoopbackHost(o.addr)})
	if err != nil {
		return err
	}
	if o.snapshot != "" {
		return snapshot(e, h, o, width, height)
	}
	ctx := e.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveView(ctx, o.addr, h, func(url string) {
		if o.step > 0 {
			url += "?step=" + strconv.Itoa(o.step)
		}
		fmt.Fprintf(e.stdout, "collide view: %s, %d steps, at %s (Ctrl-C to stop)\n", rec.Title, len(rec.Steps), url)
	})
}

// viewRecording flies or plays what the arguments name, recording every
// step with all its pairs.
func viewRecording(e *env, o *viewOptions, args []string) (*view.Recording, error) {
	if len(args) == 1 && (strings.HasPrefix(args[0], builtinPrefix) || strings.EqualFold(filepath.Ext(args[0]), ".json")) {
		for _, f := range []string{"scene", "quick", "poses", "eps", "max-pairs"} {
			if o.given(f) {
				return nil, usagef("--%s applies to flights, not to scenes of many objects", f)
			}
		}
		return viewScene(e, o, args[0])
	}
	if o.given("n") {
		return nil, usagef("--n applies to built-in scenes of many objects only")
	}
	switch len(args) {
	case 1:
		if o.given("scene") || o.given("quick") || o.given("poses") {
			return nil, usagef("a recorded flight names its own scene and poses: give FLIGHT.record alone")
		}
		if err := flightOfRecord(&o.fly, args[0]); err != nil {
			return nil, err
		}
	case 2:
		if o.given("scene") || o.given("quick") {
			return nil, usagef("give --scene, or ENV and FLY, not both")
		}
		o.fly.envArg, o.fly.flyArg = args[0], args[1]
	}
	if len(args) != 1 {
		if err := checkFlightName(&o.fly); err != nil {
			return nil, usagef("%v", err)
		}
		if o.fly.poses != "" {
			// The header of a flight record names what it flew.
			if err := applyRecord(&o.fly, false); err != nil {
				return nil, err
			}
		}
		if o.fly.scene == "" && o.fly.envArg == "" {
			o.fly.scene = defaultViewScene
		}
	}
	return viewFlight(e, &o.fly)
}

// viewFlight flies o's flight, recording every pair of every step.
func viewFlight(e *env, o *flightOptions) (*view.Recording, error) {
	bo, err := o.build.options()
	if err != nil {
		return nil, err
	}
	s, err := loadFlight(e, o, bo)
	if err != nil {
		return nil, err
	}
	q := collide.QueryOptions{All: true, Eps: o.eps, MaxPairs: o.maxPairs}
	if err := s.pick(e, "view", q.All); err != nil {
		return nil, err
	}
	var rec *view.Recording
	withTicker(e, true, func(elapsed time.Duration) string {
		return fmt.Sprintf("flying %s: %.1f s", s.name, elapsed.Seconds())
	}, func() {
		rec, _, err = view.RecordFlight(s.name, s.env, s.fly, s.motion, flight.Options{Steps: s.steps, Query: q, Front: flight.FrontOff})
	})
	if err != nil {
		return nil, err
	}
	if len(rec.Steps) == 0 {
		return nil, fmt.Errorf("the flight %s has no steps", s.name)
	}
	rec.Doc = s.doc
	if o.scene == "" {
		rec.Title, rec.Doc = filepath.Base(o.flyArg)+" through "+filepath.Base(o.envArg), ""
	}
	if o.poses != "" {
		rec.Doc = strings.TrimSpace(rec.Doc + " (the poses of " + filepath.Base(o.poses) + ")")
	}
	return rec, nil
}

// viewScene plays a scene of many objects, recording every pair of every
// step.
func viewScene(e *env, o *viewOptions, arg string) (*view.Recording, error) {
	var s *scene.Scene
	var err error
	if name, ok := strings.CutPrefix(arg, builtinPrefix); ok {
		if s, err = scene.Builtin(name, o.n, o.fly.seed); err != nil {
			return nil, usagef("%v", err)
		}
	} else {
		if s, err = scene.Load(arg); err != nil {
			return nil, err
		}
		if o.given("seed") {
			s.Seed = o.fly.seed
		}
	}
	var rec *view.Recording
	withTicker(e, true, func(elapsed time.Duration) string {
		return fmt.Sprintf("playing %s: %.1f s", s.Name, elapsed.Seconds())
	}, func() {
		rec, _, err = view.RecordScene(s, scene.Options{World: world.Options{All: true}, Steps: o.fly.steps})
	})
	if errors.Is(err, view.ErrTooLarge) {
		return nil, fmt.Errorf("%w (--steps N plays fewer)", err)
	}
	if err == nil && len(rec.Steps) == 0 {
		err = fmt.Errorf("the scene %s has no steps", s.Name)
	}
	return rec, err
}

// serveView serves h at addr until ctx is done, calling ready with the
// page's address once it listens.
func serveView(ctx context.Context, addr string, h http.Handler, ready func(url string)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("--addr %s: %w (--addr 127.0.0.1:0 takes any free port)", addr, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	ready("http://" + ln.Addr().String() + "/")
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		return nil
	}
}

// snapshot serves h on a free loopback port, renders step o.step of its
// page with the headless browser o.browser and writes the PNG to
// o.snapshot.
func snapshot(e *env, h http.Handler, o *viewOptions, width, height int) error {
	path := o.browser
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	urls := make(chan string, 1)
	served := make(chan error, 1)
	go func() { served <- serveView(ctx, "127.0.0.1:0", h, func(u string) { urls <- u }) }()
	var url string
	select {
	case url = <-urls:
	case err := <-served:
		return err
	}
	var shot []byte
	var err error
	withTicker(e, true, func(elapsed time.Duration) string {
		return fmt.Sprintf("rendering step %d in %s: %.1f s", o.step, filepath.Base(path), elapsed.Seconds())
	}, func() {
		shot, err = renderPage(ctx, path, url, o.step, width, height)
	})
	if err != nil {
		return err
	}
	if _, err := png.DecodeConfig(bytes.NewReader(shot)); err != nil {
		return fmt.Errorf("the browser's screenshot is not a PNG: %v", err)
	}
	return writeFileAtomic(o.snapshot, o.fly.force, func(w io.Writer) error {
		_, err := w.Write(shot)
		return err
	})
}

// renderPage opens the viewer at url in the headless browser at path, shows
// step with the camera framed on its contact region (?frame=contact) and
// returns a PNG of the page.
func renderPage(ctx context.Context, path, url string, step, width, height int) ([]byte, error) {
	// Without Chromium's sandbox, which needs user namespaces that
	// containers often lack: the browser loads only the viewer's own page
	// from the loopback address.
	b, err := headless.Start(ctx, path, headless.Options{Width: width, Height: height, Timeout: 2 * time.Minute, NoSandbox: true})
	if err != nil {
		return nil, err
	}
	defer b.Close()
	if err := b.Navigate(fmt.Sprintf("%s?step=%d&frame=contact", url, step)); err != nil {
		return nil, err
	}
	ready := fmt.Sprintf("window.collideView && (collideView.error || (collideView.ready && collideView.shown === %d))", step)
	if err := b.Wait(ready, 2*time.Minute); err != nil {
		return nil, err
	}
	var pageErr string
	if err := b.Eval("collideView.error || ''", &pageErr); err != nil {
		return nil, err
	}
	if pageErr != "" {
		return nil, fmt.Errorf("the viewer failed in the browser: %s", pageErr)
	}
	return b.Screenshot()
}

// parseSize reads WxH.
func parseSize(s string) (int, int, error) {
	ws, hs, ok := strings.Cut(s, "x")
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if !ok || err1 != nil || err2 != nil || w < 200 || h < 150 || w > 8192 || h > 8192 {
		return 0, 0, usagef("--size: want WxH with W in [200, 8192] and H in [150, 8192], such as 1280x800, not %q", s)
	}
	return w, h, nil
}
