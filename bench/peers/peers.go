// Package peers is the Go side of collide-peers, the C++ driver that runs
// peer collision libraries (FCL, OPCODE, ODE, Bullet) for the experiments
// of bench: what every mode of the driver shares, written once. Its
// protocol is bench/peers/README.md; its sources are in bench/peers/driver
// and bench/peers/build.sh builds it.
//
// A run of the driver is a Process: Start it with a mode's arguments, read
// its standard output (JSON Lines) as it writes, then Wait, which gives the
// driver's failure with the last line of its standard error. List reads the
// systems of a mode (--list, --list-broad, --list-distance, --list-ccd).
// The distance and continuous modes begin with a build line (ParseBuild)
// and report a malformed line as an *OutputError. The inputs are files:
// meshes as OBJ and poses as `collide check --poses` reads them
// (WriteInputs, WritePoses, ReadPoses).
//
// Each experiment parses its mode's lines itself (bench/versus the
// flights, bench/broadpeers the broad phases, bench/distance the
// distances, bench/continuous the times of impact).
package peers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/obj"
)

// A Listing is one line of a driver's list of systems.
type Listing struct {
	// System is the system's name ("fcl-obb", "bullet-dbvt").
	System string `json:"system"`
	// Modes are the modes of a mesh system ("first", "all"; --list only).
	Modes []string `json:"modes"`
	// Pairs says whether a mesh system's all-pairs mode reports every pair
	// in contact ("all") or some of them ("some"; --list only).
	Pairs string `json:"pairs"`
}

// List runs `driver flag`, where flag is one of the driver's lists
// (--list, --list-broad, --list-distance, --list-ccd), and returns its
// systems in the driver's order. A line that is not a listing, or names no
// system or one whose name begins with "collide" (the names of collide's
// own systems in the reports), is an error naming the driver and the list.
func List(driver, flag string) ([]Listing, error) {
	cmd := exec.Command(driver, flag)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, driverError(driver, err, stderr.Bytes())
	}
	var list []Listing
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var l Listing
		if err := dec.Decode(&l); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("%s %s: %v", driver, flag, err)
		}
		if l.System == "" || strings.HasPrefix(l.System, "collide") {
			return nil, fmt.Errorf("%s %s: bad system name %q", driver, flag, l.System)
		}
		list = append(list, l)
	}
	return list, nil
}

// Names returns the names of the systems of `driver flag` (see List).
func Names(driver, flag string) ([]string, error) {
	list, err := List(driver, flag)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, l := range list {
		names = append(names, l.System)
	}
	return names, nil
}

// driverError returns err, the failure of a run of driver, with the last line
// the driver wrote to its standard error: "collide-peers: exit status 1:
// what it said".
func driverError(driver string, err error, stderr []byte) error {
	msg := strings.TrimSpace(string(stderr))
	if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
		msg = msg[i+1:]
	}
	if msg != "" {
		return fmt.Errorf("%s: %v: %s", filepath.Base(driver), err, msg)
	}
	return fmt.Errorf("%s: %v", filepath.Base(driver), err)
}

// A Process is a run of the driver.
type Process struct {
	driver string
	cmd    *exec.Cmd
	stdout io.ReadCloser
	stderr bytes.Buffer
}

// Start starts driver with args. Ending ctx kills it; once killed, its
// output is closed a second later even if a child of it still holds it.
func Start(ctx context.Context, driver string, args ...string) (*Process, error) {
	p := &Process{driver: driver, cmd: exec.CommandContext(ctx, driver, args...)}
	p.cmd.WaitDelay = time.Second
	p.cmd.Stderr = &p.stderr
	var err error
	if p.stdout, err = p.cmd.StdoutPipe(); err != nil {
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	return p, nil
}

// Stdout returns the driver's standard output, to be read before Wait.
func (p *Process) Stdout() io.Reader { return p.stdout }

// Wait waits for the driver to end, discarding what is left of its output
// (a driver blocked writing it would never end). Its failure (an exit
// status, a signal) is returned with the last line of the driver's
// standard error: "collide-peers: exit status 1: what it said".
func (p *Process) Wait() error {
	// Wait closes the output once the driver has ended (or a second after
	// it was killed, if a child of it still holds the output), which ends
	// the copy: nothing is left unread that anyone wants.
	go io.Copy(io.Discard, p.stdout)
	if err := p.cmd.Wait(); err != nil {
		return driverError(p.driver, err, p.stderr.Bytes())
	}
	return nil
}

// An OutputError reports a bad line in the output of the driver's distance
// or continuous collision mode.
type OutputError struct {
	// Mode is the driver's mode ("distance", "ccd") and System the
	// system run.
	Mode, System string
	// Line counts from 1 (the build line); Text is the line (shortened).
	Line int
	Text string
	// Err says what is wrong with it.
	Err error
}

func (e *OutputError) Error() string {
	return fmt.Sprintf("collide-peers --%s %s: output line %d: %v: %q", e.Mode, e.System, e.Line, e.Err, e.Text)
}

func (e *OutputError) Unwrap() error { return e.Err }

// BadLine returns the *OutputError of line number lineNo, text, of mode's
// output for system: the text cut at 200 bytes, Err formatted from format
// and args.
func BadLine(mode, system string, lineNo int, text []byte, format string, args ...any) *OutputError {
	s := string(bytes.TrimRight(text, "\r\n"))
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return &OutputError{Mode: mode, System: system, Line: lineNo, Text: s, Err: fmt.Errorf(format, args...)}
}

// Build is the build line of the driver's distance and continuous
// collision modes.
type Build struct {
	System string
	// Build is the time to build both models.
	Build time.Duration
	// Bytes is the heap the two models retain; Peak the peak heap of the
	// build over the heap before it.
	Bytes, Peak int64
	// EnvTris and FlyTris are the triangle counts the driver read.
	EnvTris, FlyTris int
}

// ParseBuild reads line as the build line of system in mode ("distance",
// "ccd"). Its error says what is wrong, without the line.
func ParseBuild(line []byte, system, mode string) (Build, error) {
	var bl struct {
		Build *struct {
			System    string  `json:"system"`
			Mode      string  `json:"mode"`
			Seconds   float64 `json:"seconds"`
			Bytes     int64   `json:"bytes"`
			PeakBytes int64   `json:"peak_bytes"`
			EnvTris   int     `json:"env_triangles"`
			FlyTris   int     `json:"fly_triangles"`
		} `json:"build"`
	}
	if err := json.Unmarshal(line, &bl); err != nil {
		return Build{}, err
	}
	if bl.Build == nil {
		return Build{}, errors.New("the first line is not the build line")
	}
	b := bl.Build
	if b.System != system || b.Mode != mode {
		return Build{}, fmt.Errorf("build line of system %q mode %q, want %q mode %q", b.System, b.Mode, system, mode)
	}
	if b.EnvTris <= 0 || b.FlyTris <= 0 || b.EnvTris > math.MaxInt32 || b.FlyTris > math.MaxInt32 {
		return Build{}, fmt.Errorf("bad triangle counts %d and %d", b.EnvTris, b.FlyTris)
	}
	return Build{System: b.System, Build: time.Duration(b.Seconds * float64(time.Second)),
		Bytes: b.Bytes, Peak: b.PeakBytes, EnvTris: b.EnvTris, FlyTris: b.FlyTris}, nil
}

// Float is a JSON number, or null (read as NaN): the driver prints a
// number that is not finite as null.
type Float float64

// UnmarshalJSON reads a number or null.
func (f *Float) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = Float(math.NaN())
		return nil
	}
	var x float64
	if err := json.Unmarshal(b, &x); err != nil {
		return err
	}
	*f = Float(x)
	return nil
}

// ReadPoses reads a pose file, its errors naming it.
func ReadPoses(path string) ([]geom.Pose, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	poses, err := flight.ReadPoses(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return poses, nil
}

// WritePoses writes poses into a new file at path, with header as its
// comment.
func WritePoses(path, header string, poses []geom.Pose) error {
	return writeFile(path, func(w io.Writer) error { return flight.WritePoses(w, header, poses) })
}

// WriteInputs writes the driver's input files: the two models as OBJ and
// the poses, with header as the pose file's comment.
func WriteInputs(envPath, flyPath, posesPath string, env, fly *mesh.TriMesh, poses []geom.Pose, header string) error {
	return errors.Join(
		writeFile(envPath, func(w io.Writer) error { return obj.Encode(w, env) }),
		writeFile(flyPath, func(w io.Writer) error { return obj.Encode(w, fly) }),
		WritePoses(posesPath, header, poses))
}

// writeFile writes a new file at path with fn.
func writeFile(path string, fn func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return errors.Join(fn(f), f.Close())
}
