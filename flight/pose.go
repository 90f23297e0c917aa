package flight

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/collide3d/collide/geom"
)

// MaxLine bounds the length of a line of a pose file.
const MaxLine = 1 << 20

// ParsePose parses the 12 numbers of a pose, r00 r01 r02 r10 r11 r12 r20 r21
// r22 tx ty tz (row-major rotation, then translation), separated by spaces,
// tabs or commas, and checks that it is rigid (geom.Pose.Validate).
func ParsePose(s string) (geom.Pose, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool {
		return r == ',' || r == ' ' || r == '\t' || r == '\r' || r == '\n' || r == '\v' || r == '\f'
	})
	if len(fields) != 12 {
		return geom.Pose{}, fmt.Errorf("want 12 numbers (r00 r01 r02 r10 r11 r12 r20 r21 r22 tx ty tz), got %d", len(fields))
	}
	var a [12]float64
	for i, f := range fields {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return geom.Pose{}, fmt.Errorf("number %d: %q is not a number", i+1, f)
		}
		a[i] = x
	}
	p := geom.FromArray(a)
	if err := p.Validate(); err != nil {
		return geom.Pose{}, err
	}
	return p, nil
}

// AppendPose appends the 12 numbers of p to dst, separated by spaces, in the
// shortest form that parses back to the same float64 values: a pose written
// and read again is bit-identical.
func AppendPose(dst []byte, p geom.Pose) []byte {
	for i, x := range p.Array() {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = strconv.AppendFloat(dst, x, 'g', -1, 64)
	}
	return dst
}

// FormatPose returns the 12 numbers of p as AppendPose writes them.
func FormatPose(p geom.Pose) string { return string(AppendPose(nil, p)) }

// A PoseError reports a bad line of a pose file.
type PoseError struct {
	Line int // 1-based
	Err  error
}

func (e *PoseError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

func (e *PoseError) Unwrap() error { return e.Err }

// ReadPoses reads a pose file: one pose a line (ParsePose), with blank lines
// and everything after a '#' skipped. An error for a bad line is a
// *PoseError naming the line. A file with no pose is an error.
func ReadPoses(r io.Reader) ([]geom.Pose, error) {
	var poses []geom.Pose
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxLine)
	line := 0
	for sc.Scan() {
		line++
		text, _, _ := strings.Cut(sc.Text(), "#")
		if strings.TrimSpace(text) == "" {
			continue
		}
		p, err := ParsePose(text)
		if err != nil {
			return nil, &PoseError{Line: line, Err: err}
		}
		poses = append(poses, p)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &PoseError{Line: line + 1, Err: fmt.Errorf("line longer than %d bytes", MaxLine)}
		}
		return nil, err
	}
	if len(poses) == 0 {
		return nil, errors.New("no poses")
	}
	return poses, nil
}

// WritePoses writes poses one a line (AppendPose), after a comment line
// holding header when it is not empty.
func WritePoses(w io.Writer, header string, poses []geom.Pose) error {
	bw := bufio.NewWriter(w)
	if header != "" {
		for _, l := range strings.Split(header, "\n") {
			bw.WriteString("# " + l + "\n")
		}
	}
	var buf []byte
	for _, p := range poses {
		buf = append(AppendPose(buf[:0], p), '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}
