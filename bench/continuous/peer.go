package continuous

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/collide3d/collide/bench/peers"
)

// PeerCCD is a peer's answer for one motion: one motion line of
// `collide-peers --ccd NAME ENV FLY MOTIONS` (see bench/peers/README.md).
// Motion i goes from pose i to pose i+1 of the pose file.
type PeerCCD struct {
	// Motion is the motion's number, from 0.
	Motion int
	// Hit says that the system reports a contact during the motion; TOI is
	// then its time of contact in [0, 1] (FCL's time_of_contact).
	Hit bool
	TOI float64
	// Nanos is the query's wall time in nanoseconds (steady clock).
	Nanos int64
	// Err is set when the system failed on the motion: the exception it
	// threw, or what happened to the driver (it died, or gave no answer
	// within the motion time-out). The other fields are then zero.
	Err string
	// Skipped is set when the system does not take the motion (a
	// translation-only solver on a turning motion), saying why.
	Skipped string
}

// DriverSystems runs `driver --list-ccd` and returns the names of the
// continuous collision systems it offers.
func DriverSystems(driver string) ([]string, error) {
	return peers.Names(driver, "--list-ccd")
}

// DefaultMotionTimeout is how long RunPeer waits for the driver's
// answer to one motion before it gives the motion up (and kills the
// driver, going on with the next motion).
const DefaultMotionTimeout = time.Minute

// RunPeer runs the driver's continuous collision system on the mesh
// files and the motions of the pose file (motion i from pose i to pose
// i+1) and returns the build line and the answer for every motion, in
// order. When the driver dies during a motion (a crash of the library) or
// gives no answer within motionTimeout (0: DefaultMotionTimeout), that
// motion gets an Err saying so and the driver is started again on the
// motions after it. It fails with a *peers.OutputError when a line of the
// output is malformed, with the driver's message when it fails before its
// build line (bad input, bad usage), and with ctx's error when ctx ends.
func RunPeer(ctx context.Context, driver, system, envPath, flyPath, posesPath string, motionTimeout time.Duration) (peers.Build, []PeerCCD, error) {
	poses, err := peers.ReadPoses(posesPath)
	if err != nil {
		return peers.Build{}, nil, err
	}
	if len(poses) < 2 {
		return peers.Build{}, nil, fmt.Errorf("%s: a motion needs two poses, the file has %d", posesPath, len(poses))
	}
	if motionTimeout <= 0 {
		motionTimeout = DefaultMotionTimeout
	}
	motions := len(poses) - 1
	out := make([]PeerCCD, 0, motions)
	var build peers.Build
	var dir string
	defer func() {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}()
	path := posesPath
	for first := true; len(out) < motions; first = false {
		if !first {
			// Start again after the motion that failed: a file of the
			// remaining poses.
			if dir == "" {
				if dir, err = os.MkdirTemp("", "collide-ccd-"); err != nil {
					return peers.Build{}, nil, err
				}
			}
			path = filepath.Join(dir, fmt.Sprintf("rest-%d.txt", len(out)))
			if err := peers.WritePoses(path, "motions from "+fmt.Sprint(len(out)), poses[len(out):]); err != nil {
				return peers.Build{}, nil, err
			}
		}
		b, got, died, err := runCCDOnce(ctx, driver, system, envPath, flyPath, path, len(poses)-len(out)-1, motionTimeout)
		if err != nil {
			return peers.Build{}, nil, err
		}
		if first {
			build = b
		}
		offset := len(out)
		for _, a := range got {
			a.Motion += offset
			out = append(out, a)
		}
		if died != "" && len(out) < motions {
			out = append(out, PeerCCD{Motion: len(out), Err: died})
		}
	}
	return build, out, nil
}

// runCCDOnce runs the driver once on the motions of path (want of them).
// died is set when the driver ended (or was ended) before it answered
// every motion, saying how; the answers before are returned.
func runCCDOnce(ctx context.Context, driver, system, envPath, flyPath, path string, want int, motionTimeout time.Duration) (build peers.Build, out []PeerCCD, died string, err error) {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	p, err := peers.Start(runCtx, driver, "--ccd", system, envPath, flyPath, path)
	if err != nil {
		return build, nil, "", err
	}
	lines := make(chan []byte)
	readErr := make(chan error, 1)
	go func() {
		br := bufio.NewReaderSize(p.Stdout(), 1<<16)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				lines <- line
			}
			if err != nil {
				if err == io.EOF {
					err = nil
				}
				readErr <- err
				close(lines)
				return
			}
		}
	}()
	cp := ccdParser{system: system, motions: want}
	timedOut := false
	timer := time.NewTimer(motionTimeout)
	defer timer.Stop()
	var perr error
loop:
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				break loop
			}
			if perr == nil {
				perr = cp.line(line)
			}
			if !timer.Stop() {
				<-timer.C
			}
			timer.Reset(motionTimeout)
		case <-timer.C:
			timedOut = true
			cancel()
			break loop
		}
	}
	go func() {
		for range lines { // drain until the reader ends
		}
	}()
	werr := p.Wait()
	rerr := <-readErr
	switch {
	case ctx.Err() != nil:
		return build, nil, "", fmt.Errorf("collide-peers --ccd %s: %w", system, ctx.Err())
	case perr != nil:
		return build, nil, "", perr
	case !cp.built:
		if werr != nil {
			return build, nil, "", werr
		}
		return build, nil, "", &peers.OutputError{Mode: "ccd", System: system, Line: 1, Err: errors.New("no build line")}
	case timedOut:
		return cp.build, cp.out, fmt.Sprintf("no answer within %v (the driver was stopped)", motionTimeout), nil
	case werr != nil:
		return cp.build, cp.out, "the driver died: " + werr.Error(), nil
	case rerr != nil:
		return build, nil, "", fmt.Errorf("collide-peers --ccd %s: reading the output: %w", system, rerr)
	case len(cp.out) != want:
		return build, nil, "", &peers.OutputError{Mode: "ccd", System: system, Line: cp.lineNo + 1, Err: fmt.Errorf("%d motion lines, want %d", len(cp.out), want)}
	}
	return cp.build, cp.out, "", nil
}

// ParsePeer reads the whole output of `collide-peers --ccd system` for
// a pose file of motions+1 poses: the build line, then one line per
// motion. Errors are *peers.OutputError.
func ParsePeer(r io.Reader, system string, motions int) (peers.Build, []PeerCCD, error) {
	p := ccdParser{system: system, motions: motions}
	br := bufio.NewReaderSize(r, 1<<16)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			if err := p.line(line); err != nil {
				return peers.Build{}, nil, err
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return peers.Build{}, nil, fmt.Errorf("collide-peers --ccd %s: reading the output: %w", system, err)
		}
	}
	switch {
	case !p.built:
		return peers.Build{}, nil, &peers.OutputError{Mode: "ccd", System: system, Line: 1, Err: errors.New("no build line")}
	case len(p.out) != motions:
		return peers.Build{}, nil, &peers.OutputError{Mode: "ccd", System: system, Line: p.lineNo + 1, Err: fmt.Errorf("%d motion lines, want %d", len(p.out), motions)}
	}
	return p.build, p.out, nil
}

// ccdParser reads the driver's lines one at a time.
type ccdParser struct {
	system  string
	motions int
	lineNo  int
	built   bool
	build   peers.Build
	out     []PeerCCD
}

type ccdMotionLine struct {
	Motion  *int         `json:"motion"`
	Hit     *bool        `json:"hit"`
	TOI     *peers.Float `json:"toi"`
	Seconds *float64     `json:"seconds"`
	Error   *string      `json:"error"`
	Skipped *string      `json:"skipped"`
}

func (p *ccdParser) line(line []byte) error {
	p.lineNo++
	bad := func(format string, args ...any) error {
		return peers.BadLine("ccd", p.system, p.lineNo, line, format, args...)
	}
	if !p.built {
		b, err := peers.ParseBuild(line, p.system, "ccd")
		if err != nil {
			return bad("%v", err)
		}
		p.built = true
		p.build = b
		return nil
	}
	i := len(p.out)
	var l ccdMotionLine
	if err := json.Unmarshal(line, &l); err != nil {
		return bad("%v", err)
	}
	switch {
	case l.Motion == nil:
		return bad("no motion field")
	case *l.Motion != i:
		return bad("motion %d, want %d", *l.Motion, i)
	case i >= p.motions:
		return bad("more lines than the %d motions", p.motions)
	}
	a := PeerCCD{Motion: i}
	switch {
	case l.Error != nil:
		if l.Hit != nil || l.Skipped != nil {
			return bad("an error line has other fields")
		}
		a.Err = *l.Error
		if a.Err == "" {
			a.Err = "error"
		}
	case l.Skipped != nil:
		if l.Hit != nil {
			return bad("a skipped line has other fields")
		}
		a.Skipped = *l.Skipped
		if a.Skipped == "" {
			a.Skipped = "skipped"
		}
	default:
		if l.Hit == nil || l.Seconds == nil {
			return bad("want the fields hit and seconds (or error, or skipped)")
		}
		if *l.Seconds < 0 || math.IsNaN(*l.Seconds) {
			return bad("bad time %v s", *l.Seconds)
		}
		a.Hit = *l.Hit
		a.Nanos = int64(*l.Seconds * 1e9)
		if a.Hit {
			if l.TOI == nil {
				return bad("a hit without toi")
			}
			a.TOI = float64(*l.TOI)
			if math.IsNaN(a.TOI) {
				// A time that is not finite is the system's answer, kept as
				// NaN: the comparison counts it as wrong.
				a.TOI = math.NaN()
			}
		} else if l.TOI != nil {
			return bad("a toi without a hit")
		}
	}
	p.out = append(p.out, a)
	return nil
}
