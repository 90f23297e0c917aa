package flight

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/textscan"
)

// MaxLine bounds the length of a line of a pose file.
const MaxLine = textscan.MaxLine

// ParsePose parses the 12 numbers of a pose, r00 r01 r02 r10 r11 r12 r20 r21
// r22 tx ty tz (row-major rotation, then translation), decimal numbers
// separated by spaces, tabs or commas, and checks that it is rigid
// (geom.Pose.Validate). Nine zeros for the rotation are an error, not the
// identity that a zero geom.Pose stands for: written in a file, they are
// more likely a mistake.
func ParsePose(s string) (geom.Pose, error) { return ParsePoseBytes([]byte(s)) }

// ParsePoseBytes is ParsePose of the bytes of a line, which it does not
// keep; it allocates nothing but its errors.
func ParsePoseBytes(b []byte) (geom.Pose, error) {
	var fields [12][]byte
	n := 0
	for i := 0; i < len(b); {
		for i < len(b) && isPoseSep(b[i]) {
			i++
		}
		if i == len(b) {
			break
		}
		j := i
		for j < len(b) && !isPoseSep(b[j]) {
			j++
		}
		if n < len(fields) {
			fields[n] = b[i:j]
		}
		n, i = n+1, j
	}
	if n != 12 {
		return geom.Pose{}, fmt.Errorf("want 12 numbers (r00 r01 r02 r10 r11 r12 r20 r21 r22 tx ty tz), got %d", n)
	}
	var a [12]float64
	for i, f := range fields {
		x, e := textscan.ParseFloat(f)
		switch e {
		case textscan.NumOK:
		case textscan.NumMalformed:
			return geom.Pose{}, fmt.Errorf("number %d: %q is not a number (want a decimal number such as -1.5e-3)", i+1, f)
		default:
			return geom.Pose{}, fmt.Errorf("number %d: %s", i+1, e.Describe([]byte(f)))
		}
		a[i] = x
	}
	p := geom.FromArray(a)
	if p.R == (geom.Mat3{}) {
		return geom.Pose{}, errors.New("pose rotation is all zeros, not orthonormal with determinant 1 (the identity is 1 0 0 0 1 0 0 0 1)")
	}
	if err := p.Validate(); err != nil {
		return geom.Pose{}, err
	}
	return p, nil
}

// isPoseSep reports whether c separates the numbers of a pose: a space, a
// tab, a comma or another ASCII white space.
func isPoseSep(c byte) bool {
	return c == ',' || c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
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
// and everything after a '#' skipped. Lines end at LF, CRLF or a lone CR,
// and numbers are decimal, as in the text mesh formats. An error for a bad
// line is a *PoseError naming the line. A file with no pose is an error.
func ReadPoses(r io.Reader) ([]geom.Pose, error) {
	var poses []geom.Pose
	lr := textscan.NewLineReader(r)
	for {
		b, ok := lr.Next()
		if !ok {
			break
		}
		text, _, _ := bytes.Cut(b, []byte("#"))
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		p, err := ParsePoseBytes(text)
		if err != nil {
			return nil, &PoseError{Line: lr.Line, Err: err}
		}
		poses = append(poses, p)
	}
	if err := lr.Err; err != nil {
		if errors.Is(err, textscan.ErrLineTooLong) {
			return nil, &PoseError{Line: lr.Line + 1, Err: fmt.Errorf("line longer than %d bytes", MaxLine)}
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
