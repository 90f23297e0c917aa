package scene

import (
	"fmt"
	"strings"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/world"
)

// Limits on what a scene may hold, so that a mistyped file cannot exhaust
// memory: more objects (or models) than MaxObjects, or more steps than
// MaxSteps, is an error.
const (
	MaxObjects = 1 << 20
	MaxSteps   = 1 << 30
)

// Scene is a set of objects, instances of shared models, each with an
// initial pose, a group of the interest matrix, a static flag and a motion;
// the interest matrix; a number of steps; a seed; and the bounds the
// motions keep to. See the package documentation.
type Scene struct {
	// Name names the scene in messages: the file's name, or
	// "builtin:NAME".
	Name string
	// Doc describes the scene in a line (built-in scenes).
	Doc     string
	Models  []Model
	Objects []Object
	// Interest holds the pairs of groups, and of objects, whose
	// interest is set, in order (a later entry overrides an earlier one
	// for the same pair).
	Interest []Interest
	// Steps is the number of steps Play runs (each a world.Step).
	Steps int
	// Seed makes the random motions: an object's motion is a function of
	// its parameters, the seed and the object's index.
	Seed uint64
	// Bounds is the box the motions keep to (billiard, brownian and fall
	// bounce off its walls; gravity places its clusters in it). An empty
	// box (geom.EmptyAABB, or the zero AABB) is the box of the objects at
	// their initial poses.
	Bounds geom.AABB
}

// Model is a mesh shared by the objects that name it, and how its tree is
// built.
type Model struct {
	Name string
	// Mesh is the model's mesh; if nil, Source names it: a mesh file
	// (.obj, .stl, .ply, .off, .gltf, .glb; a path relative to the scene file's
	// directory is resolved by Read) or a generated model
	// gen:KIND[:key=value,...] (package mesh/gen, as on the command
	// line).
	Mesh   *mesh.TriMesh
	Source string
	// BV is the bounding volume of its tree (the zero value is the
	// default, 18-DOPs). The models of a scene must be compatible
	// (collide.BV.Compatible): a world tests every pair.
	BV collide.BV
	// Line is the line of the model's entry in the scene file (0 if
	// none), for messages.
	Line int
}

// Object is one instance of a model.
type Object struct {
	Name  string
	Model string // the name of a Model of the scene
	// Pose is the initial pose (for a Poses motion, the frame of its
	// poses). Its rotation must be orthonormal to within
	// world.RotationTol; the zero Pose is taken as the identity.
	Pose   geom.Pose
	Group  int  // the group of the interest matrix, in [0, world.MaxGroups)
	Static bool // part of the environment: never moved, never tested against another static object
	// Motion moves the object at every step; nil is Static{}. A static
	// object's motion must be nil or Static{}.
	Motion Motion
	Line   int // the line of the object's entry in the scene file (0 if none)
}

// Interest sets whether the pairs of two groups (Groups), or one pair of
// objects (Objects, by name; it overrides the groups), are tested. Exactly
// one of the two is set.
type Interest struct {
	Groups  *[2]int
	Objects *[2]string
	On      bool
	Line    int
}

// Error is an error in a scene: it names the scene (its file), the line
// of the file where that is known, and the entry (e.g. objects[3]
// ("ball")).
type Error struct {
	File  string // the scene's name
	Line  int    // 0 if unknown
	Entry string // "" for the scene as a whole
	Err   error
}

// Error returns "file: line N: entry: message".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	b.WriteString(": ")
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Entry != "" {
		b.WriteString(e.Entry)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the error described.
func (e *Error) Unwrap() error { return e.Err }

// entryName names entry i of a list, with its name if it has one:
// objects[3] ("ball").
func entryName(list string, i int, name string) string {
	if name == "" {
		return fmt.Sprintf("%s[%d]", list, i)
	}
	return fmt.Sprintf("%s[%d] (%q)", list, i, name)
}

func (s *Scene) errorf(line int, entry, format string, args ...any) error {
	return &Error{File: s.Name, Line: line, Entry: entry, Err: fmt.Errorf(format, args...)}
}

func (s *Scene) wrap(line int, entry string, err error) error {
	return &Error{File: s.Name, Line: line, Entry: entry, Err: err}
}

// ModelIndex returns the index of the model named name, or -1.
func (s *Scene) ModelIndex(name string) int {
	for i := range s.Models {
		if s.Models[i].Name == name {
			return i
		}
	}
	return -1
}

// pose returns o's initial pose, the identity for the zero Pose.
func (o *Object) pose() geom.Pose {
	if o.Pose == (geom.Pose{}) {
		return geom.Identity()
	}
	return o.Pose
}

// Validate checks the scene: names given and unique, every object's model
// a model of the scene, poses rotations to within world.RotationTol and
// finite, groups in range, static objects without motion, the interest
// entries naming groups in range and objects of the scene, the models'
// bounding volumes compatible, the counts within the limits. The error is
// an *Error naming the entry.
func (s *Scene) Validate() error {
	if len(s.Objects) > MaxObjects || len(s.Models) > MaxObjects {
		return s.errorf(0, "", "%d objects and %d models: more than the limit of %d", len(s.Objects), len(s.Models), MaxObjects)
	}
	if s.Steps < 0 || s.Steps > MaxSteps {
		return s.errorf(0, "", "steps %d is not in [0, %d]", s.Steps, MaxSteps)
	}
	if !s.Bounds.IsEmpty() && s.Bounds != (geom.AABB{}) && (!s.Bounds.Min.IsFinite() || !s.Bounds.Max.IsFinite()) {
		return s.errorf(0, "", "bounds %v-%v are not finite", s.Bounds.Min, s.Bounds.Max)
	}
	models := make(map[string]int, len(s.Models))
	firstOf := map[collide.BV]int{} // the first model of each bounding volume
	for i := range s.Models {
		m := &s.Models[i]
		entry := entryName("models", i, m.Name)
		if m.Name == "" {
			return s.errorf(m.Line, entry, "no name")
		}
		if j, dup := models[m.Name]; dup {
			return s.errorf(m.Line, entry, "duplicate name (models[%d] has it)", j)
		}
		models[m.Name] = i
		if m.Mesh == nil && m.Source == "" {
			return s.errorf(m.Line, entry, "no mesh: give a mesh file or a gen: model")
		}
		if _, seen := firstOf[m.BV]; !seen {
			for bv, j := range firstOf {
				if !m.BV.Compatible(bv) {
					return s.errorf(m.Line, entry, "bv %v cannot be tested against the %v of %s (a world tests every pair: use compatible bounding volumes)", m.BV, bv, entryName("models", j, s.Models[j].Name))
				}
			}
			firstOf[m.BV] = i
		}
	}
	objects := make(map[string]int, len(s.Objects))
	for i := range s.Objects {
		o := &s.Objects[i]
		entry := entryName("objects", i, o.Name)
		if o.Name == "" {
			return s.errorf(o.Line, entry, "no name")
		}
		if j, dup := objects[o.Name]; dup {
			return s.errorf(o.Line, entry, "duplicate name (objects[%d] has it)", j)
		}
		objects[o.Name] = i
		if _, ok := models[o.Model]; !ok {
			if o.Model == "" {
				return s.errorf(o.Line, entry, "no model")
			}
			return s.errorf(o.Line, entry, "unknown model %q", o.Model)
		}
		if err := checkPose(o.pose()); err != nil {
			return s.wrap(o.Line, entry, err)
		}
		if o.Group < 0 || o.Group >= world.MaxGroups {
			return s.errorf(o.Line, entry, "group %d is not in [0, %d)", o.Group, world.MaxGroups)
		}
		if o.Static && o.Motion != nil {
			if _, still := o.Motion.(Static); !still {
				return s.errorf(o.Line, entry, "a static object cannot have a %s motion", o.Motion.Kind())
			}
		}
		if o.Motion != nil {
			if err := o.Motion.Validate(); err != nil {
				return s.wrap(o.Line, entry, fmt.Errorf("motion %s: %w", o.Motion.Kind(), err))
			}
		}
	}
	for i := range s.Interest {
		in := &s.Interest[i]
		entry := entryName("interest", i, "")
		switch {
		case (in.Groups == nil) == (in.Objects == nil):
			return s.errorf(in.Line, entry, "give either groups or objects")
		case in.Groups != nil:
			for _, g := range in.Groups {
				if g < 0 || g >= world.MaxGroups {
					return s.errorf(in.Line, entry, "group %d is not in [0, %d)", g, world.MaxGroups)
				}
			}
		default:
			for _, n := range in.Objects {
				if _, ok := objects[n]; !ok {
					return s.errorf(in.Line, entry, "unknown object %q", n)
				}
			}
			if in.Objects[0] == in.Objects[1] {
				return s.errorf(in.Line, entry, "object %q paired with itself", in.Objects[0])
			}
		}
	}
	return nil
}

// checkPose returns an error unless p is finite and its rotation
// orthonormal with determinant 1 to within world.RotationTol.
func checkPose(p geom.Pose) error {
	for i, x := range p.Array() {
		if x-x != 0 {
			return fmt.Errorf("pose number %d is %v, not a finite number", i+1, x)
		}
	}
	if !p.R.IsRotation(world.RotationTol) {
		return fmt.Errorf("pose: the rotation is not orthonormal with determinant 1 to within %g (build it from a unit quaternion)", world.RotationTol)
	}
	return nil
}
