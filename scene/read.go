package scene

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
)

// MaxFileSize bounds the size of a scene file that Read accepts.
const MaxFileSize = 256 << 20

// Load reads the scene file at path (see Read).
func Load(path string) (*Scene, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read decodes a JSON scene file (see the package documentation for the
// format) and validates it (Scene.Validate). name is the file's name: it
// names the scene in messages, and the paths of mesh and pose files in it
// are relative to its directory. Pose files are read here; meshes are
// loaded when the scene is played. Errors are *Error values naming the
// file, the line and the entry, e.g.
//
//	scene.json: line 12: objects[3] ("ball"): unknown motion "bounce"
func Read(r io.Reader, name string) (*Scene, error) {
	s := &Scene{Name: name}
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, s.wrap(0, "", err)
	}
	if len(data) > MaxFileSize {
		return nil, s.errorf(0, "", "larger than %d bytes", MaxFileSize)
	}
	p := &reader{s: s, data: data, dir: filepath.Dir(name)}
	if err := p.read(); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// reader is the state of Read.
type reader struct {
	s    *Scene
	data []byte
	dir  string
	bv   collide.BV

	// The line index of data (see line): the number of newlines before
	// each block of lineBlock bytes, and the last offset looked up with
	// its line, from which a later offset nearby is counted.
	blocks   []int32
	lastOff  int64
	lastLine int
	scanned  int64 // bytes counted by line (tests)
}

// entry is one element of a list of the file: its bytes and the offset
// where it starts.
type entry struct {
	raw json.RawMessage
	off int64
}

// lineBlock is the size of the blocks of the line index.
const lineBlock = 4096

// line returns the line of byte offset off. The entries of a file are
// looked up in order, so that counting from the last offset looked up
// makes the lines of all of them one pass over the file; an offset before
// it, or far after it, is counted from the start of its block of the line
// index (built on the first call, one pass too): at most lineBlock bytes.
func (p *reader) line(off int64) int {
	off = min(max(off, 0), int64(len(p.data)))
	if p.blocks == nil {
		p.blocks = make([]int32, 0, len(p.data)/lineBlock+1)
		n := 0
		for b := 0; b < len(p.data); b += lineBlock {
			p.blocks = append(p.blocks, int32(n))
			n += bytes.Count(p.data[b:min(b+lineBlock, len(p.data))], []byte{'\n'})
		}
		p.blocks = append(p.blocks, int32(n))
		p.scanned += int64(len(p.data))
		p.lastOff, p.lastLine = 0, 1
	}
	from, line := p.lastOff, p.lastLine
	if off < from || off-from > lineBlock {
		from = off &^ (lineBlock - 1)
		line = 1 + int(p.blocks[from/lineBlock])
	}
	line += bytes.Count(p.data[from:off], []byte{'\n'})
	p.scanned += off - from
	p.lastOff, p.lastLine = off, line
	return line
}

// jsonError turns an error of encoding/json in the value at offset base
// into an *Error naming the line.
func (p *reader) jsonError(base int64, entryName string, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	msg := strings.TrimPrefix(err.Error(), "json: ")
	switch {
	case errors.As(err, &se):
		off := base + max(se.Offset-1, 0)
		if strings.Contains(msg, "unexpected end") {
			off = int64(len(p.data))
		}
		return &Error{File: p.s.Name, Line: p.line(off), Entry: entryName, Err: errors.New(msg)}
	case errors.As(err, &te):
		what := te.Field
		if what == "" {
			what = "value"
		}
		want := goKind(te.Type.Kind().String())
		msg := fmt.Sprintf("%s: a JSON %s where a %s is wanted", what, te.Value, want)
		if strings.HasPrefix(te.Value, "number") && want == "number" {
			msg = fmt.Sprintf("%s: %s is out of range (%s)", what, te.Value, te.Type)
		}
		return &Error{File: p.s.Name, Line: p.line(base + max(te.Offset-1, 0)), Entry: entryName, Err: errors.New(msg)}
	}
	return &Error{File: p.s.Name, Line: p.line(base), Entry: entryName, Err: errors.New(msg)}
}

// goKind names a Go kind for a message.
func goKind(k string) string {
	switch {
	case strings.HasPrefix(k, "float"), strings.HasPrefix(k, "int"), strings.HasPrefix(k, "uint"):
		return "number"
	case k == "slice" || k == "array":
		return "list"
	case k == "struct" || k == "map":
		return "object"
	}
	return k
}

// strict decodes raw into v, rejecting unknown fields.
func strict(raw []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return errors.New("data after the value")
	}
	return nil
}

// topJSON holds the scene's fields other than its lists.
type topJSON struct {
	Doc    *string     `json:"doc"`
	Steps  *int        `json:"steps"`
	Seed   *uint64     `json:"seed"`
	BV     *string     `json:"bv"`
	Bounds *boundsJSON `json:"bounds"`
}

type boundsJSON struct {
	Min []float64 `json:"min"`
	Max []float64 `json:"max"`
}

// topFields are the fields of a scene file.
var topFields = []string{"doc", "steps", "seed", "bv", "bounds", "models", "objects", "interest"}

// read decodes the file into p.s.
func (p *reader) read() error {
	s := p.s
	// The whole file first, for syntax errors at their exact offset.
	var whole json.RawMessage
	if err := json.Unmarshal(p.data, &whole); err != nil {
		return p.jsonError(0, "", err)
	}
	if t := bytes.TrimSpace(p.data); len(t) == 0 || t[0] != '{' {
		return s.errorf(1, "", "a scene file is a JSON object {...}")
	}
	dec := json.NewDecoder(bytes.NewReader(p.data))
	dec.Token() // {
	var top topJSON
	lists := map[string][]entry{}
	seen := map[string]int{} // the line of each field
	for dec.More() {
		keyOff := dec.InputOffset()
		tok, _ := dec.Token()
		key := tok.(string)
		line := p.line(keyOff + 1)
		if seen[key] > 0 {
			return s.errorf(line, "", "field %q given twice", key)
		}
		seen[key] = line
		switch key {
		case "models", "objects", "interest":
			if t, _ := dec.Token(); t != json.Delim('[') {
				return s.errorf(line, "", "%s: want a list [...]", key)
			}
			var es []entry
			for dec.More() {
				if len(es) == MaxObjects {
					return s.errorf(line, "", "%s: more than %d entries", key, MaxObjects)
				}
				off := dec.InputOffset()
				var raw json.RawMessage
				if err := dec.Decode(&raw); err != nil {
					return p.jsonError(off, key, err)
				}
				// The entry starts after the blanks and the comma.
				for off < int64(len(p.data)) && strings.IndexByte(" \t\r\n,", p.data[off]) >= 0 {
					off++
				}
				es = append(es, entry{raw, off})
			}
			dec.Token() // ]
			lists[key] = es
		default:
			if !slices.Contains(topFields, key) {
				return s.errorf(line, "", "unknown field %q (fields: %s)", key, strings.Join(topFields, ", "))
			}
			off := dec.InputOffset()
			var raw json.RawMessage
			dec.Decode(&raw)
			if err := strict(wrapField(key, raw), &top); err != nil {
				return p.jsonError(off, "", err)
			}
		}
	}
	if top.Doc != nil {
		s.Doc = *top.Doc
	}
	if top.Steps != nil {
		s.Steps = *top.Steps
		if s.Steps < 0 || s.Steps > MaxSteps {
			return s.errorf(seen["steps"], "", "steps %d is not in [0, %d]", s.Steps, MaxSteps)
		}
	} else {
		s.Steps = 1
	}
	if top.Seed != nil {
		s.Seed = *top.Seed
	}
	if top.BV != nil {
		bv, err := collide.ParseBV(*top.BV)
		if err != nil {
			return s.errorf(seen["bv"], "", "bv: %v", err)
		}
		p.bv = bv
	}
	if b := top.Bounds; b != nil {
		lo, err1 := vec3(b.Min, "bounds min")
		hi, err2 := vec3(b.Max, "bounds max")
		if err := errors.Join(err1, err2); err != nil {
			return s.wrap(seen["bounds"], "", err)
		}
		if lo.X > hi.X || lo.Y > hi.Y || lo.Z > hi.Z {
			return s.errorf(seen["bounds"], "", "bounds: min %v is not below max %v on every axis", lo, hi)
		}
		s.Bounds = geom.AABB{Min: lo, Max: hi}
	} else {
		s.Bounds = geom.EmptyAABB()
	}
	if len(lists["objects"]) == 0 {
		return s.errorf(0, "", "no objects")
	}
	for i, e := range lists["models"] {
		if err := p.model(i, e); err != nil {
			return err
		}
	}
	for i, e := range lists["objects"] {
		if err := p.object(i, e); err != nil {
			return err
		}
	}
	for i, e := range lists["interest"] {
		if err := p.interest(i, e); err != nil {
			return err
		}
	}
	return nil
}

// wrapField returns {"key":raw}, to decode one field of topJSON strictly.
func wrapField(key string, raw []byte) []byte {
	k, _ := json.Marshal(key)
	return slices.Concat([]byte("{"), k, []byte(":"), raw, []byte("}"))
}

// vec3 returns the three numbers of a list.
func vec3(a []float64, what string) (geom.Vec3, error) {
	if len(a) != 3 {
		return geom.Vec3{}, fmt.Errorf("%s: want 3 numbers [x, y, z], got %d", what, len(a))
	}
	return geom.Vec3{X: a[0], Y: a[1], Z: a[2]}, nil
}

// nameOf returns the "name" of an entry, if it has a string one.
func nameOf(raw []byte) string {
	var n struct {
		Name any `json:"name"`
	}
	json.Unmarshal(raw, &n)
	s, _ := n.Name.(string)
	return s
}

type modelJSON struct {
	Name string `json:"name"`
	Mesh string `json:"mesh"`
	BV   string `json:"bv"`
}

func (p *reader) model(i int, e entry) error {
	name := entryName("models", i, nameOf(e.raw))
	line := p.line(e.off)
	var mj modelJSON
	if err := strict(e.raw, &mj); err != nil {
		return p.jsonError(e.off, name, err)
	}
	m := Model{Name: mj.Name, Source: mj.Mesh, BV: p.bv, Line: line}
	if mj.BV != "" {
		bv, err := collide.ParseBV(mj.BV)
		if err != nil {
			return p.s.errorf(line, name, "bv: %v", err)
		}
		m.BV = bv
	}
	if m.Source == "" {
		return p.s.errorf(line, name, "no mesh: give a mesh file or a gen: model")
	}
	if !strings.HasPrefix(m.Source, GenPrefix) && !filepath.IsAbs(m.Source) {
		m.Source = filepath.Join(p.dir, m.Source)
	}
	p.s.Models = append(p.s.Models, m)
	return nil
}

type objectJSON struct {
	Name        string          `json:"name"`
	Model       string          `json:"model"`
	Pose        []float64       `json:"pose"`
	Position    []float64       `json:"position"`
	Orientation []float64       `json:"orientation"`
	Group       int             `json:"group"`
	Static      bool            `json:"static"`
	Motion      json.RawMessage `json:"motion"`
}

func (p *reader) object(i int, e entry) error {
	name := entryName("objects", i, nameOf(e.raw))
	line := p.line(e.off)
	var oj objectJSON
	if err := strict(e.raw, &oj); err != nil {
		return p.jsonError(e.off, name, err)
	}
	o := Object{Name: oj.Name, Model: oj.Model, Group: oj.Group, Static: oj.Static, Line: line, Pose: geom.Identity()}
	if oj.Pose != nil && (oj.Position != nil || oj.Orientation != nil) {
		return p.s.errorf(line, name, "give a pose, or a position and an orientation, not both")
	}
	switch {
	case oj.Pose != nil:
		if len(oj.Pose) != 12 {
			return p.s.errorf(line, name, "pose: want 12 numbers (r00 r01 r02 r10 r11 r12 r20 r21 r22 tx ty tz), got %d", len(oj.Pose))
		}
		o.Pose = geom.FromArray([12]float64(oj.Pose))
	default:
		var t geom.Vec3
		q := geom.Quat{W: 1}
		if oj.Position != nil {
			var err error
			if t, err = vec3(oj.Position, "position"); err != nil {
				return p.s.wrap(line, name, err)
			}
		}
		if oj.Orientation != nil {
			a := oj.Orientation
			if len(a) != 4 {
				return p.s.errorf(line, name, "orientation: want a quaternion of 4 numbers [w, x, y, z], got %d", len(a))
			}
			q = geom.Quat{W: a[0], X: a[1], Y: a[2], Z: a[3]}
			if n := q.Norm(); !(n > 1e-150 && n < 1e150) {
				return p.s.errorf(line, name, "orientation: the quaternion's norm %v is not a positive number", n)
			}
		}
		o.Pose = geom.FromQuat(q, t)
	}
	if len(oj.Motion) > 0 {
		m, err := p.motion(oj.Motion)
		if err != nil {
			return p.s.wrap(line, name, err)
		}
		o.Motion = m
	}
	p.s.Objects = append(p.s.Objects, o)
	return nil
}

// Motion names and their defaults in scene files.
var motionKinds = []string{"static", "billiard", "poses", "brownian", "fall", "gravity"}

// Default parameters of the motions of scene files (fields left out).
var (
	DefaultBilliard = Billiard{Speed: 0.01, Spin: 0.01, Turn: 0, Margin: AutoMargin}
	DefaultBrownian = Brownian{Step: 0.01, Angle: 0.02, Margin: AutoMargin}
	DefaultFall     = Fall{Gravity: geom.Vec3{Z: -9.81}, DT: 0.01, Restitution: 0.5, Margin: AutoMargin}
	DefaultGravity  = Gravity{Clusters: 4, Strength: 0.05, MaxSpeed: 0.05, Collapse: 0.6, Time: 500}
)

// motion decodes a motion: a kind's name, or an object {"type": KIND, ...}
// with the kind's parameters.
func (p *reader) motion(raw json.RawMessage) (Motion, error) {
	var kind string
	if raw[0] == '"' {
		json.Unmarshal(raw, &kind)
		raw = nil
	} else {
		var t struct {
			Type *string `json:"type"`
		}
		if err := json.Unmarshal(raw, &t); err != nil || t.Type == nil {
			return nil, errors.New(`motion: want a name ("billiard") or an object {"type": "billiard", ...}`)
		}
		kind = *t.Type
	}
	decode := func(v any) error {
		if raw == nil {
			return nil
		}
		if err := strict(raw, v); err != nil {
			return fmt.Errorf("motion %s: %s", kind, strings.TrimPrefix(err.Error(), "json: "))
		}
		return nil
	}
	margin := func(m *float64) float64 {
		if m == nil {
			return AutoMargin
		}
		return *m
	}
	var m Motion
	switch kind {
	case "static":
		var v struct {
			Type string `json:"type"`
		}
		if err := decode(&v); err != nil {
			return nil, err
		}
		m = Static{}
	case "billiard":
		d := DefaultBilliard
		w := struct {
			Type   string   `json:"type"`
			Speed  float64  `json:"speed"`
			Spin   float64  `json:"spin"`
			Turn   float64  `json:"turn"`
			Margin *float64 `json:"margin"`
		}{Speed: d.Speed, Spin: d.Spin, Turn: d.Turn}
		if err := decode(&w); err != nil {
			return nil, err
		}
		m = Billiard{Speed: w.Speed, Spin: w.Spin, Turn: w.Turn, Margin: margin(w.Margin)}
	case "poses":
		var w struct {
			Type  string `json:"type"`
			File  string `json:"file"`
			Cycle bool   `json:"cycle"`
		}
		if err := decode(&w); err != nil {
			return nil, err
		}
		if w.File == "" {
			return nil, errors.New(`motion poses: no "file"`)
		}
		path := w.File
		if !filepath.IsAbs(path) {
			path = filepath.Join(p.dir, path)
		}
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("motion poses: %w", err)
		}
		poses, err := flight.ReadPoses(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("motion poses: %s: %w", path, err)
		}
		m = Poses{File: path, Poses: poses, Cycle: w.Cycle}
	case "brownian":
		d := DefaultBrownian
		w := struct {
			Type   string   `json:"type"`
			Step   float64  `json:"step"`
			Angle  float64  `json:"angle"`
			Margin *float64 `json:"margin"`
		}{Step: d.Step, Angle: d.Angle}
		if err := decode(&w); err != nil {
			return nil, err
		}
		m = Brownian{Step: w.Step, Angle: w.Angle, Margin: margin(w.Margin)}
	case "fall":
		d := DefaultFall
		w := struct {
			Type        string    `json:"type"`
			Gravity     []float64 `json:"gravity"`
			DT          float64   `json:"dt"`
			Restitution float64   `json:"restitution"`
			Velocity    []float64 `json:"velocity"`
			Spin        float64   `json:"spin"`
			Margin      *float64  `json:"margin"`
		}{DT: d.DT, Restitution: d.Restitution, Spin: d.Spin}
		if err := decode(&w); err != nil {
			return nil, err
		}
		f := Fall{Gravity: d.Gravity, DT: w.DT, Restitution: w.Restitution, Spin: w.Spin, Margin: margin(w.Margin)}
		var err error
		if w.Gravity != nil {
			if f.Gravity, err = vec3(w.Gravity, "motion fall: gravity"); err != nil {
				return nil, err
			}
		}
		if w.Velocity != nil {
			if f.Velocity, err = vec3(w.Velocity, "motion fall: velocity"); err != nil {
				return nil, err
			}
		}
		m = f
	case "gravity":
		d := DefaultGravity
		w := struct {
			Type     string      `json:"type"`
			Clusters int         `json:"clusters"`
			Centers  [][]float64 `json:"centers"`
			Strength float64     `json:"strength"`
			MaxSpeed float64     `json:"max_speed"`
			Collapse float64     `json:"collapse"`
			Time     float64     `json:"time"`
			Spin     float64     `json:"spin"`
		}{Clusters: d.Clusters, Strength: d.Strength, MaxSpeed: d.MaxSpeed, Collapse: d.Collapse, Time: d.Time, Spin: d.Spin}
		if err := decode(&w); err != nil {
			return nil, err
		}
		g := Gravity{Clusters: w.Clusters, Strength: w.Strength, MaxSpeed: w.MaxSpeed, Collapse: w.Collapse, Time: w.Time, Spin: w.Spin}
		if len(w.Centers) > 1<<16 {
			return nil, fmt.Errorf("motion gravity: %d centers: more than %d", len(w.Centers), 1<<16)
		}
		for i, c := range w.Centers {
			v, err := vec3(c, fmt.Sprintf("motion gravity: centers[%d]", i))
			if err != nil {
				return nil, err
			}
			g.Centers = append(g.Centers, v)
		}
		m = g
	default:
		return nil, fmt.Errorf("unknown motion %q (motions: %s)", kind, strings.Join(motionKinds, ", "))
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("motion %s: %w", kind, err)
	}
	return m, nil
}

type interestJSON struct {
	Groups  []int    `json:"groups"`
	Objects []string `json:"objects"`
	On      *bool    `json:"on"`
}

func (p *reader) interest(i int, e entry) error {
	name := entryName("interest", i, "")
	line := p.line(e.off)
	var ij interestJSON
	if err := strict(e.raw, &ij); err != nil {
		return p.jsonError(e.off, name, err)
	}
	in := Interest{Line: line}
	if ij.On == nil {
		return p.s.errorf(line, name, `no "on": say whether the pairs are tested (true) or not (false)`)
	}
	in.On = *ij.On
	if ij.Groups != nil {
		if len(ij.Groups) != 2 {
			return p.s.errorf(line, name, "groups: want 2 groups, got %d", len(ij.Groups))
		}
		in.Groups = &[2]int{ij.Groups[0], ij.Groups[1]}
	}
	if ij.Objects != nil {
		if len(ij.Objects) != 2 {
			return p.s.errorf(line, name, "objects: want 2 object names, got %d", len(ij.Objects))
		}
		in.Objects = &[2]string{ij.Objects[0], ij.Objects[1]}
	}
	p.s.Interest = append(p.s.Interest, in)
	return nil
}
