// Package headless drives a headless Chromium: `collide view --snapshot`
// uses it to render the viewer's page to PNG, and the viewer's tests use it
// to drive the page in a real browser (WebGL included, drawn in software by
// SwiftShader, so no GPU or display is needed).
//
// Find looks for a Chromium-family browser: the executable that
// $COLLIDE_BROWSER names, else the first of chromium, chromium-browser,
// google-chrome, google-chrome-stable, chrome and headless-shell on PATH
// (on Debian: apt-get install chromium). Start runs it with a fresh
// temporary profile and one tab of a fixed viewport; Navigate, Wait, Eval
// and Screenshot act on that tab, each within a time limit, and Errors
// collects the page's uncaught exceptions and console.error messages so that
// a failure can say what went wrong in the page. Close ends the browser and
// removes its profile.
//
// The browser talks to the program over a pipe (the DevTools protocol, by
// github.com/chromedp/chromedp) and is started with its background
// networking, component updates, sync and QUIC off: it fetches nothing but
// the pages it is sent to.
package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// ErrNoBrowser is returned by Find when no browser is installed.
var ErrNoBrowser = errors.New("headless: no Chromium-family browser found on PATH " +
	"(install Debian's chromium package, or set COLLIDE_BROWSER to a browser's path)")

// names are the executables Find looks for on PATH, in order.
var names = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome", "headless-shell"}

// Find returns the path of a Chromium-family browser: $COLLIDE_BROWSER if
// set (an error if it names no executable), else the first of chromium,
// chromium-browser, google-chrome, google-chrome-stable, chrome,
// headless-shell found on PATH. It returns ErrNoBrowser when there is none.
func Find() (string, error) {
	if env := os.Getenv("COLLIDE_BROWSER"); env != "" {
		path, err := exec.LookPath(env)
		if err != nil {
			return "", fmt.Errorf("headless: COLLIDE_BROWSER=%q names no executable: %w", env, err)
		}
		return path, nil
	}
	for _, name := range names {
		if path, err := exec.LookPath(name); err == nil {
			return path, nil
		}
	}
	return "", ErrNoBrowser
}

// Options configure Start. The zero value gives a 1280×800 viewport and a
// limit of 60 s on each call.
type Options struct {
	// Width and Height are the viewport's size in CSS pixels (default
	// 1280×800). The device scale factor is 1, so a screenshot is Width×Height
	// pixels.
	Width, Height int

	// Timeout limits each call: Start, Navigate, Eval, Screenshot, and Wait
	// when it is given no timeout of its own (default 60 s).
	Timeout time.Duration

	// NoSandbox runs the browser without its sandbox (--no-sandbox). Start
	// does so anyway when the program runs as root, where Chromium refuses to
	// start with it.
	NoSandbox bool
}

// Browser is one headless browser with one tab.
// Its methods must not be called concurrently, except Errors.
type Browser struct {
	o           Options
	ctx         context.Context // the tab's chromedp context
	cancelTab   context.CancelFunc
	cancelAlloc context.CancelFunc

	mu         sync.Mutex
	errs       []string // page errors, in order
	exceptions int      // uncaught exceptions seen so far
	navMark    int      // exceptions when the last Navigate began

	closeOnce sync.Once
	closeErr  error
}

// Start starts the browser at path (Find's answer when path is empty) with a
// fresh temporary profile, and opens its tab with the viewport of o. The
// browser lives until Close or until ctx ends, whichever comes first.
func Start(ctx context.Context, path string, o Options) (*Browser, error) {
	if o.Width <= 0 {
		o.Width = 1280
	}
	if o.Height <= 0 {
		o.Height = 800
	}
	if o.Timeout <= 0 {
		o.Timeout = 60 * time.Second
	}
	if path == "" {
		var err error
		if path, err = Find(); err != nil {
			return nil, err
		}
	} else if _, err := exec.LookPath(path); err != nil {
		// Checked here: chromedp, failing to start a path that names no
		// executable, never ends its context, and Close would wait for it.
		return nil, fmt.Errorf("headless: %s names no executable: %w", path, err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		// WebGL without a GPU: ANGLE over SwiftShader, which Chromium
		// otherwise refuses for WebGL.
		chromedp.Flag("use-angle", "swiftshader"),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		// Nothing fetched but the pages asked for: on a machine with a
		// closed network Chromium otherwise retries its own connections.
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.NoFirstRun,
		chromedp.WindowSize(o.Width, o.Height),
		// Set either way, so that chromedp does not decide by itself.
		chromedp.Flag("no-sandbox", o.NoSandbox || os.Geteuid() == 0),
		// No user-data-dir: chromedp then makes a fresh temporary
		// profile, and removes it (after killing any of the browser's
		// processes still using it) when the browser ends, also when ctx
		// ends without a Close.
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	b := &Browser{o: o, cancelAlloc: cancelAlloc}
	// chromedp logs through the standard logger by default; a library
	// prints nothing: its errors (a broken pipe to a browser that died)
	// join the page's, and its other messages are dropped.
	tctx, cancelTab := chromedp.NewContext(actx,
		chromedp.WithLogf(func(string, ...any) {}),
		chromedp.WithErrorf(func(format string, args ...any) {
			b.mu.Lock()
			b.errs = append(b.errs, "browser: "+fmt.Sprintf(format, args...))
			b.mu.Unlock()
		}))
	b.ctx, b.cancelTab = tctx, cancelTab

	// The first action starts the browser and binds its life to the context
	// it is given, so it must not carry a deadline: the limit is a timer.
	timer := time.AfterFunc(o.Timeout, cancelTab)
	err := chromedp.Listen(tctx, b.listen)
	if !timer.Stop() {
		err = fmt.Errorf("not started within %v", o.Timeout)
	} else if err == nil {
		err = b.do(o.Timeout, chromedp.EmulateViewport(int64(o.Width), int64(o.Height), chromedp.EmulateScale(1)))
	}
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("headless: starting %s: %w", path, err)
	}
	return b, nil
}

// listen records the page's errors. chromedp calls it on the goroutine
// that reads the tab's messages, before the reply to any later command, so
// a call that returns has seen every error the page raised before it.
func (b *Browser) listen(ev any) {
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		msg := exceptionText(ev.ExceptionDetails)
		b.mu.Lock()
		b.errs = append(b.errs, msg)
		b.exceptions++
		b.mu.Unlock()
	case *runtime.EventConsoleAPICalled:
		if ev.Type != runtime.ConsoleAPICalledTypeError {
			return
		}
		msg := "console.error: " + argsText(ev.Args)
		b.mu.Lock()
		b.errs = append(b.errs, msg)
		b.mu.Unlock()
	}
}

// Close ends the browser process and removes its profile directory. It is
// safe to call twice; the second call returns the first's answer.
func (b *Browser) Close() error {
	b.closeOnce.Do(func() {
		if b.ctx.Err() == nil {
			// A graceful close, within a limit.
			ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
			b.closeErr = chromedp.Cancel(ctx)
			cancel()
		}
		// Kill whatever is left and wait until the profile is removed.
		b.cancelTab()
		b.cancelAlloc()
		if b.closeErr != nil {
			b.closeErr = fmt.Errorf("headless: closing the browser: %w", b.closeErr)
		}
	})
	return b.closeErr
}

// do runs the actions with a limit of timeout.
func (b *Browser) do(timeout time.Duration, actions ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	return chromedp.Do(ctx, actions...)
}

// Navigate loads url in the tab and waits for its load event.
func (b *Browser) Navigate(url string) error {
	b.mu.Lock()
	b.navMark = b.exceptions
	b.mu.Unlock()
	if err := b.do(b.o.Timeout, chromedp.Navigate(url)); err != nil {
		return fmt.Errorf("headless: navigating to %s: %w", url, err)
	}
	return nil
}

// pollInterval is how often Wait evaluates its expression.
const pollInterval = 20 * time.Millisecond

// Wait polls the JavaScript expression until it is truthy (or the page
// threw, or timeout): an error names the expression and includes the page's
// uncaught exceptions and console errors so far. The page threw when an
// uncaught exception was seen since the last Navigate began. An expression
// that itself throws counts as false (until the timeout, whose error then
// says what it threw). A timeout of 0 means Options.Timeout.
func (b *Browser) Wait(expr string, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = b.o.Timeout
	}
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	test := chromedp.Evaluate[bool]("!!(\n" + expr + "\n)")
	var last error
	for {
		ok, err := chromedp.Run(ctx, test)
		if err == nil && ok {
			return nil
		}
		if err != nil && ctx.Err() == nil {
			last = err
		}
		b.mu.Lock()
		threw := b.exceptions > b.navMark
		b.mu.Unlock()
		switch {
		case threw:
			return b.waitError(expr, "the page threw", nil)
		case ctx.Err() != nil:
			if b.ctx.Err() != nil {
				return b.waitError(expr, "the browser ended: "+b.ctx.Err().Error(), nil)
			}
			return b.waitError(expr, fmt.Sprintf("still false after %v", timeout), last)
		}
		select {
		case <-ctx.Done():
		case <-time.After(pollInterval):
		}
	}
}

// waitError is Wait's error: the expression, why, the expression's last
// error (if any) and the page's errors.
func (b *Browser) waitError(expr, why string, err error) error {
	var s strings.Builder
	fmt.Fprintf(&s, "headless: waiting for %s: %s", oneLine(expr), why)
	if err != nil {
		fmt.Fprintf(&s, " (last evaluation: %v)", err)
	}
	if errs := b.Errors(); len(errs) > 0 {
		fmt.Fprintf(&s, "; the page's errors:\n\t%s", strings.Join(errs, "\n\t"))
	} else {
		s.WriteString("; no errors in the page")
	}
	return errors.New(s.String())
}

// Eval evaluates expr (awaiting a Promise) and decodes its JSON value into
// out (out may be nil). An expression that throws, or a Promise that
// rejects, is an error with the exception's text; so is an undefined value
// when out is not nil.
func (b *Browser) Eval(expr string, out any) error {
	ctx, cancel := context.WithTimeout(b.ctx, b.o.Timeout)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		return fmt.Errorf("headless: evaluating %s: %w", oneLine(expr), err)
	}
	if out == nil {
		return nil
	}
	if len(raw) == 0 {
		return fmt.Errorf("headless: evaluating %s: the value is undefined", oneLine(expr))
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("headless: evaluating %s: decoding %.200s: %w", oneLine(expr), raw, err)
	}
	return nil
}

// Screenshot returns a PNG of the viewport, Width×Height pixels.
func (b *Browser) Screenshot() ([]byte, error) {
	ctx, cancel := context.WithTimeout(b.ctx, b.o.Timeout)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		return nil, fmt.Errorf("headless: screenshot: %w", err)
	}
	return png, nil
}

// Click clicks the left mouse button at (x, y), in CSS pixels from the
// viewport's top left corner, as a user does: a press and a release,
// through the browser's input (so pointer capture and the like work as for
// a real click).
func (b *Browser) Click(x, y float64) error {
	if err := b.do(b.o.Timeout, chromedp.MouseClickXY(x, y)); err != nil {
		return fmt.Errorf("headless: click at (%g, %g): %w", x, y, err)
	}
	return nil
}

// Errors returns the page's uncaught exceptions and console.error messages
// seen so far, in order: "Uncaught Error: text (at URL:line:column)" and
// "console.error: text". It may be called at any time, from any goroutine.
func (b *Browser) Errors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errs...)
}

// exceptionText is the text of an uncaught exception, as DevTools shows it,
// without the stack but with the place where it was thrown.
func exceptionText(d *runtime.ExceptionDetails) string {
	if d == nil {
		return "exception"
	}
	s := d.Text
	if d.Exception != nil {
		desc, _, _ := strings.Cut(objectText(d.Exception), "\n    at ")
		s = strings.TrimSpace(s + " " + desc)
	}
	url, line, col := d.URL, d.LineNumber, d.ColumnNumber
	if st := d.StackTrace; st != nil && len(st.CallFrames) > 0 {
		f := st.CallFrames[0]
		url, line, col = f.URL, f.LineNumber, f.ColumnNumber
	}
	if url != "" {
		s += fmt.Sprintf(" (at %s:%d:%d)", url, line+1, col+1)
	}
	return s
}

// argsText joins the arguments of a console call.
func argsText(args []*runtime.RemoteObject) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = objectText(a)
	}
	return strings.Join(parts, " ")
}

// objectText is a short text for a value of the page: a string as it is, a
// primitive as JSON, an object by its description.
func objectText(o *runtime.RemoteObject) string {
	switch {
	case o == nil:
		return ""
	case o.Type == runtime.RemoteObjectTypeString && len(o.Value) > 0:
		var s string
		if json.Unmarshal(o.Value, &s) == nil {
			return s
		}
	case o.UnserializableValue != "":
		return string(o.UnserializableValue)
	case o.Description != "":
		return o.Description
	case len(o.Value) > 0:
		return string(o.Value)
	}
	return string(o.Type)
}

// oneLine shortens an expression for an error message.
func oneLine(expr string) string {
	s := strings.Join(strings.Fields(expr), " ")
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return fmt.Sprintf("%q", s)
}
