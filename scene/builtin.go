package scene

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// BuiltinInfo describes a built-in scene.
type BuiltinInfo struct {
	Name, Doc string
	// N is the default number of objects n (0: the scene takes no n);
	// MaxN the largest n it takes.
	N, MaxN int
	Steps   int // the scene's steps
}

// The CDFast scenes' parameters (Sanna and Milani; see the package
// documentation).
const (
	CDFastSteps       = 10000
	CDFastSphereR     = 0.0345  // the spheres of cdfast-spheres
	CDFastSmallestR   = 0.00656 // the smallest sphere of cdfast-mixed
	TorusMajor        = 0.11    // the torus' radius: from its axis to its tube's centre
	TorusTube         = 0.05    // the torus' ring's thickness: its tube's diameter
	cdfastSpeed       = 0.005
	cdfastSpin        = 0.01
	cdfastTurn        = 0.3
	cdfastMargin      = 0.1
	manyBodySteps     = 100
	fallSteps         = 400
	gravitySteps      = 200
	defaultManyBodyN  = 1000
	maxCDFastObstacle = 1000
)

// CDFast's largest object of cdfast-mixed, a hyperboloid in a box of this
// size; the elongated mover's box.
var (
	CDFastLargest   = geom.V(0.27, 0.31, 0.23)
	ElongatedSize   = geom.V(0.4, 0.23, 0.23)
	cdfastVariants  = []string{"torus", "elongated"}
	cdfastBaseDocs  = map[string]string{"cdfast-room": "a room with furniture", "cdfast-spheres": "spheres of r = 0.0345", "cdfast-mixed": "objects of mixed shapes and sizes, r = 0.00656 up to a 0.27×0.31×0.23 hyperboloid"}
	cdfastBaseN     = map[string]int{"cdfast-room": 0, "cdfast-spheres": 50, "cdfast-mixed": 40}
	cdfastBaseOrder = []string{"cdfast-room", "cdfast-spheres", "cdfast-mixed"}
)

// Builtins lists the built-in scenes.
func Builtins() []BuiltinInfo {
	var out []BuiltinInfo
	for _, base := range cdfastBaseOrder {
		for _, v := range cdfastVariants {
			n := cdfastBaseN[base]
			maxN := 0
			if n > 0 {
				maxN = maxCDFastObstacle
			}
			what := "a torus (radius 0.11, tube 0.05 thick)"
			if v == "elongated" {
				what = "an elongated 0.4×0.23×0.23 object"
			}
			doc := fmt.Sprintf("CDFast: %s in the unit cube (static; n of them), %s on a random path", cdfastBaseDocs[base], what)
			if n == 0 {
				doc = fmt.Sprintf("CDFast: %s in the unit cube (static), %s on a random path", cdfastBaseDocs[base], what)
			}
			out = append(out, BuiltinInfo{Name: base + "-" + v, Doc: doc, N: n, MaxN: maxN, Steps: CDFastSteps})
		}
	}
	out = append(out,
		BuiltinInfo{Name: "brownian", Doc: "n small objects (spheres, boxes, tetrahedra, tori) in Brownian motion in a cube", N: defaultManyBodyN, MaxN: MaxObjects, Steps: manyBodySteps},
		BuiltinInfo{Name: "fall", Doc: "n small objects falling under gravity into a box, bouncing and settling on its floor (Broadmark's free fall)", N: defaultManyBodyN, MaxN: MaxObjects, Steps: fallSteps},
		BuiltinInfo{Name: "gravity", Doc: "n small objects orbiting 4 cluster centres, the clusters contracting (Broadmark's gravity)", N: defaultManyBodyN, MaxN: MaxObjects, Steps: gravitySteps},
	)
	return out
}

// BuiltinNames returns the names of the built-in scenes.
func BuiltinNames() []string {
	var names []string
	for _, b := range Builtins() {
		names = append(names, b.Name)
	}
	return names
}

// Builtin returns the built-in scene name with n objects (n = 0: the
// scene's default; a scene that takes no n wants 0) and seed seed: a pure
// function of its arguments. The bare CDFast names (cdfast-room,
// cdfast-spheres, cdfast-mixed) are their torus variants.
func Builtin(name string, n int, seed uint64) (*Scene, error) {
	if _, ok := cdfastBaseN[name]; ok {
		name += "-torus"
	}
	var info *BuiltinInfo
	for _, b := range Builtins() {
		if b.Name == name {
			info = &b
			break
		}
	}
	if info == nil {
		return nil, fmt.Errorf("unknown built-in scene %q (scenes: %s)", name, strings.Join(BuiltinNames(), ", "))
	}
	switch {
	case n != 0 && info.N == 0:
		return nil, fmt.Errorf("builtin:%s takes no n (its objects are fixed)", name)
	case n == 0:
		n = info.N
	case n < 1 || n > info.MaxN:
		return nil, fmt.Errorf("builtin:%s: n = %d is not in [1, %d]", name, n, info.MaxN)
	}
	s := &Scene{Name: "builtin:" + name, Doc: info.Doc, Steps: info.Steps, Seed: seed}
	r := rand.New(rand.NewPCG(seed, 0x6275696c74696e)) // "builtin"
	var err error
	switch {
	case strings.HasPrefix(name, "cdfast-"):
		err = s.cdfast(name, n, r)
	case name == "brownian":
		s.brownian(n, r)
	case name == "fall":
		s.fall(n, r)
	case name == "gravity":
		s.gravity(n, r)
	}
	if err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// randQuat returns a rotation uniform at random, as a unit quaternion.
func randQuat(r *rand.Rand) geom.Quat {
	for {
		q := geom.Quat{W: 2*r.Float64() - 1, X: 2*r.Float64() - 1, Y: 2*r.Float64() - 1, Z: 2*r.Float64() - 1}
		if n := q.Norm(); n > 0.01 && n <= 1 {
			return q.Unit()
		}
	}
}

// addModel adds a model of mesh m, named name.
func (s *Scene) addModel(name string, m *mesh.TriMesh) {
	s.Models = append(s.Models, Model{Name: name, Mesh: m})
}

// add adds an object.
func (s *Scene) add(name, model string, p geom.Pose, static bool, group int, m Motion) {
	s.Objects = append(s.Objects, Object{Name: name, Model: model, Pose: p, Static: static, Group: group, Motion: m})
}

// cdfast makes the CDFast scene name (base-variant) with n obstacles.
func (s *Scene) cdfast(name string, n int, r *rand.Rand) error {
	s.Bounds = geom.AABB{Min: geom.V(0, 0, 0), Max: geom.V(1, 1, 1)}
	base, variant, _ := strings.Cut(strings.TrimPrefix(name, "cdfast-"), "-")
	// The mover first, so that its path does not depend on n.
	var mover *mesh.TriMesh
	if variant == "torus" {
		mover = gen.Must(gen.Torus(geom.Vec3{}, TorusMajor, TorusTube/2, 1000))
	} else {
		mover = elongated(1000)
	}
	start := geom.FromQuat(randQuat(r), geom.V(0.2+0.6*r.Float64(), 0.2+0.6*r.Float64(), 0.2+0.6*r.Float64()))
	s.addModel(variant, mover)
	switch base {
	case "room":
		s.room()
	case "spheres":
		if err := s.spheres(n, r); err != nil {
			return err
		}
	case "mixed":
		if err := s.mixed(n, r); err != nil {
			return err
		}
	}
	s.add(variant, variant, start, false, 1, Billiard{Speed: cdfastSpeed, Spin: cdfastSpin, Turn: cdfastTurn, Margin: cdfastMargin})
	return nil
}

// room furnishes the unit cube: floor, ceiling and walls, a table, two
// chairs, a bookshelf with books, a sofa, a floor lamp, a ceiling lamp, a
// rug and a vase: each part a static object (CDFast's static objects are
// lists of boxes), parts of the same size sharing a model.
func (s *Scene) room() {
	boxes := map[geom.Vec3]string{}
	count := map[string]int{}
	name := func(what string) string {
		count[what]++
		return fmt.Sprintf("%s%d", what, count[what])
	}
	box := func(what string, x0, y0, z0, x1, y1, z1 float64) {
		size := geom.V(x1-x0, y1-y0, z1-z0)
		model, ok := boxes[size]
		if !ok {
			model = fmt.Sprintf("box-%gx%gx%g", size.X, size.Y, size.Z)
			boxes[size] = model
			s.addModel(model, centeredBox(size, 1))
		}
		s.add(name(what), model, geom.Translation(geom.V(x0+x1, y0+y1, z0+z1).Scale(0.5)), true, 0, nil)
	}
	cyl := map[[2]float64]string{}
	cylinder := func(what string, x, y, z0, radius, height float64) {
		model, ok := cyl[[2]float64{radius, height}]
		if !ok {
			model = fmt.Sprintf("cylinder-r%g-h%g", radius, height)
			cyl[[2]float64{radius, height}] = model
			s.addModel(model, gen.Must(gen.Cylinder(radius, height, 48)))
		}
		s.add(name(what), model, geom.Translation(geom.V(x, y, z0)), true, 0, nil)
	}
	ball := func(what string, x, y, z, radius float64) {
		model := fmt.Sprintf("sphere-r%g", radius)
		s.addModel(model, gen.Must(gen.Icosphere(geom.Vec3{}, radius, 320)))
		s.add(name(what), model, geom.Translation(geom.V(x, y, z)), true, 0, nil)
	}
	const t = 0.02 // walls' thickness
	box("floor", 0, 0, 0, 1, 1, t)
	box("ceiling", 0, 0, 1-t, 1, 1, 1)
	box("wall", 0, 0, t, t, 1, 1-t)
	box("wall", 1-t, 0, t, 1, 1, 1-t)
	box("wall", t, 0, t, 1-t, t, 1-t)
	box("wall", t, 1-t, t, 1-t, 1, 1-t)
	box("rug", 0.3, 0.15, t, 0.8, 0.85, t+0.005)
	// The table and a vase on it.
	box("table-top", 0.35, 0.35, 0.40, 0.75, 0.65, 0.43)
	for _, xy := range [][2]float64{{0.37, 0.37}, {0.73, 0.37}, {0.37, 0.63}, {0.73, 0.63}} {
		cylinder("table-leg", xy[0], xy[1], t+0.005, 0.015, 0.40-t-0.005)
	}
	cylinder("vase", 0.6, 0.5, 0.43, 0.03, 0.1)
	// Two chairs facing the table.
	for _, c := range []struct{ y0, back float64 }{{0.15, 0.15}, {0.71, 0.83}} {
		box("chair-seat", 0.48, c.y0, 0.24, 0.62, c.y0+0.14, 0.26)
		for _, xy := range [][2]float64{{0.48, c.y0}, {0.60, c.y0}, {0.48, c.y0 + 0.12}, {0.60, c.y0 + 0.12}} {
			box("chair-leg", xy[0], xy[1], t+0.005, xy[0]+0.02, xy[1]+0.02, 0.24)
		}
		box("chair-back", 0.48, c.back, 0.26, 0.62, c.back+0.02, 0.50)
	}
	// A bookshelf against the wall x = 0, with books.
	box("shelf-side", t, 0.30, t, 0.14, 0.31, 0.80)
	box("shelf-side", t, 0.59, t, 0.14, 0.60, 0.80)
	for _, z := range []float64{t, 0.2, 0.4, 0.6, 0.79} {
		box("shelf", t, 0.31, z, 0.14, 0.59, z+0.01)
	}
	for i, z := range []float64{t + 0.01, 0.21, 0.41, 0.61} {
		y := 0.32
		for k := range 4 + i%2 {
			w := 0.02 + 0.01*float64((k+i)%3)
			h := 0.10 + 0.02*float64((2*k+i)%4)
			box("book", 0.03, y, z, 0.12, y+w, z+h)
			y += w + 0.02
		}
	}
	// A sofa against the wall x = 1.
	box("sofa-seat", 0.80, 0.25, t, 1-t, 0.75, 0.20)
	box("sofa-back", 0.92, 0.25, 0.20, 1-t, 0.75, 0.42)
	box("sofa-arm", 0.80, 0.20, t, 1-t, 0.25, 0.30)
	box("sofa-arm", 0.80, 0.75, t, 1-t, 0.80, 0.30)
	// A floor lamp in a corner and a ceiling lamp over the table.
	cylinder("lamp-base", 0.12, 0.88, t, 0.06, 0.015)
	cylinder("lamp-pole", 0.12, 0.88, t+0.015, 0.01, 0.6)
	ball("lamp-shade", 0.12, 0.88, 0.68, 0.06)
	cylinder("lamp-cord", 0.55, 0.5, 0.9, 0.003, 1-t-0.9)
	ball("ceiling-lamp", 0.55, 0.5, 0.85, 0.05)
}

// spheres places n spheres of radius CDFastSphereR at random in the unit
// cube, apart from each other, sharing one model.
func (s *Scene) spheres(n int, r *rand.Rand) error {
	const rad = CDFastSphereR
	s.addModel("sphere", gen.Must(gen.Icosphere(geom.Vec3{}, rad, 320)))
	var placed []geom.Vec3
	for i := range n {
		p, ok := place(r, rad, placed, nil)
		if !ok {
			return fmt.Errorf("builtin:cdfast-spheres: no room for sphere %d of %d", i+1, n)
		}
		placed = append(placed, p)
		s.add(fmt.Sprintf("sphere%d", i+1), "sphere", geom.Translation(p), true, 0, nil)
	}
	return nil
}

// place returns a random point of the unit cube at which a ball of radius
// rad lies inside the cube and apart from the balls at placed (of radii
// radii, or rad for all if radii is nil).
func place(r *rand.Rand, rad float64, placed []geom.Vec3, radii []float64) (geom.Vec3, bool) {
	for range 10000 {
		p := geom.V(rad+(1-2*rad)*r.Float64(), rad+(1-2*rad)*r.Float64(), rad+(1-2*rad)*r.Float64())
		ok := true
		for j, q := range placed {
			rq := rad
			if radii != nil {
				rq = radii[j]
			}
			if p.Sub(q).Norm() <= rad+rq {
				ok = false
				break
			}
		}
		if ok {
			return p, true
		}
	}
	return geom.Vec3{}, false
}

// mixed places n objects of mixed shapes and sizes at random in the unit
// cube, at random orientations, their bounding spheres apart: the largest
// a hyperboloid in a box of CDFastLargest, the smallest a sphere of radius
// CDFastSmallestR, the others spheres, boxes, cylinders, capsules,
// tetrahedra and tori of sizes (radius of the bounding sphere) uniform in
// log scale between the two.
func (s *Scene) mixed(n int, r *rand.Rand) error {
	type obj struct {
		name string
		m    *mesh.TriMesh
	}
	var objs []obj
	objs = append(objs, obj{"hyperboloid", hyperboloid(CDFastLargest, 16, 32)})
	if n > 1 {
		objs = append(objs, obj{"sphere", gen.Must(gen.Icosphere(geom.Vec3{}, CDFastSmallestR, 80))})
	}
	lo, hi := math.Log(CDFastSmallestR), math.Log(0.1)
	kinds := []string{"sphere", "box", "cylinder", "capsule", "tetrahedron", "torus"}
	for len(objs) < n {
		size := math.Exp(lo + (hi-lo)*r.Float64())
		kind := kinds[r.IntN(len(kinds))]
		var m *mesh.TriMesh
		switch kind {
		case "sphere":
			m = gen.Must(gen.Icosphere(geom.Vec3{}, size, 320))
		case "box":
			d := geom.V(0.3+0.7*r.Float64(), 0.3+0.7*r.Float64(), 0.3+0.7*r.Float64())
			m = centeredBox(d.Scale(2*size/d.Norm()), 2)
		case "cylinder", "capsule":
			// Height h and radius a with √(h²/4 + a²) ≈ size.
			f := 0.3 + 0.6*r.Float64()
			a, h := size*math.Sqrt(1-f*f), 2*size*f
			if kind == "cylinder" {
				m = gen.Must(gen.Cylinder(a, h, 200))
			} else {
				m = gen.Must(gen.Capsule(a*0.7, h*0.7, 200))
			}
		case "tetrahedron":
			m = tetrahedron(size)
		case "torus":
			f := 0.2 + 0.3*r.Float64()
			m = gen.Must(gen.Torus(geom.Vec3{}, size/(1+f), size*f/(1+f), 200))
		}
		objs = append(objs, obj{kind, m})
	}
	var placed []geom.Vec3
	var radii []float64
	count := map[string]int{}
	for i, o := range objs {
		b := o.m.Bounds()
		rad := b.Size().Norm() / 2
		q := randQuat(r)
		if i < 2 {
			q = geom.Quat{W: 1} // the extremes as the paper gives them
		}
		p, ok := place(r, rad, placed, radii)
		if !ok {
			return fmt.Errorf("builtin:cdfast-mixed: no room for object %d of %d", i+1, n)
		}
		placed, radii = append(placed, p), append(radii, rad)
		count[o.name]++
		name := fmt.Sprintf("%s%d", o.name, count[o.name])
		s.addModel(name, o.m)
		rot := q.Mat3()
		s.add(name, name, geom.Pose{R: rot, T: p.Sub(rot.MulVec(b.Center()))}, true, 0, nil)
	}
	return nil
}

// manyBodyModels adds the shared models of the many-body scenes, each about
// 1 across: a sphere (80 triangles), a box (12), a tetrahedron (4) and a
// torus (48); it returns their names.
func (s *Scene) manyBodyModels() []string {
	s.addModel("sphere", gen.Must(gen.Icosphere(geom.Vec3{}, 0.5, 80)))
	s.addModel("box", centeredBox(geom.V(1, 0.6, 0.5), 1))
	s.addModel("tetrahedron", tetrahedron(0.6))
	s.addModel("torus", gen.Must(gen.Torus(geom.Vec3{}, 0.35, 0.15, 48)))
	return []string{"sphere", "box", "tetrahedron", "torus"}
}

// Densities of the many-body scenes: objects (about 1 across) per unit of
// volume (or of floor area) that their centres can reach, chosen so that
// an object touches about one other at a time.
const (
	brownianDensity = 0.25
	gravityDensity  = 0.05 // at the start, in a cluster; the clusters contract to 0.6 of their size
	fallCover       = 0.5  // objects per unit of floor area
	fallHeight      = 30   // the box's height
)

// radius returns the PathContext.Radius of the objects of model name.
func (s *Scene) radius(name string) float64 {
	return s.Models[s.ModelIndex(name)].Mesh.Bounds().Size().Norm() / 2
}

// maxRadius returns the largest radius of the scene's models.
func (s *Scene) maxRadius() float64 {
	r := 0.0
	for _, m := range s.Models {
		r = max(r, s.radius(m.Name))
	}
	return r
}

// inside returns a random point of the bounds at which an object of model
// name lies inside them (its centre in the box its motions keep it to).
func (s *Scene) inside(name string, r *rand.Rand) geom.Vec3 {
	b := inner(s.Bounds, AutoMargin, s.radius(name))
	d := b.Size()
	return b.Min.Add(geom.V(d.X*r.Float64(), d.Y*r.Float64(), d.Z*r.Float64()))
}

// brownian makes n objects in Brownian motion in a cube.
func (s *Scene) brownian(n int, r *rand.Rand) {
	models := s.manyBodyModels()
	side := math.Cbrt(float64(n)/brownianDensity) + 2*s.maxRadius()
	s.Bounds = geom.AABB{Max: geom.V(side, side, side)}
	m := Brownian{Step: 0.05, Angle: 0.05, Margin: AutoMargin}
	for i := range n {
		model := models[r.IntN(len(models))]
		p := s.inside(model, r)
		s.add(fmt.Sprintf("b%d", i+1), model, geom.FromQuat(randQuat(r), p), false, 0, m)
	}
}

// fall drops n objects into a box from random heights.
func (s *Scene) fall(n int, r *rand.Rand) {
	models := s.manyBodyModels()
	side := math.Sqrt(float64(n)/fallCover) + 2*s.maxRadius()
	s.Bounds = geom.AABB{Max: geom.V(side, side, fallHeight)}
	for i := range n {
		model := models[r.IntN(len(models))]
		p := s.inside(model, r)
		p.Z = fallHeight * (0.3 + 0.7*r.Float64())
		p.Z = min(p.Z, fallHeight-s.radius(model))
		v := geom.V(r.Float64()-0.5, r.Float64()-0.5, 0).Scale(2)
		m := Fall{Gravity: geom.V(0, 0, -9.81), DT: 0.02, Restitution: 0.5, Velocity: v, Spin: 0.05, Margin: AutoMargin}
		s.add(fmt.Sprintf("f%d", i+1), model, geom.FromQuat(randQuat(r), p), false, 0, m)
	}
}

// gravity makes n objects in 4 clusters that orbit and contract.
func (s *Scene) gravity(n int, r *rand.Rand) {
	models := s.manyBodyModels()
	const k = 4
	// A cluster of n/k objects at the density: its radius R.
	radius := math.Cbrt(float64(n) / k / gravityDensity * 3 / (4 * math.Pi))
	side := 4 * radius
	s.Bounds = geom.AABB{Max: geom.V(side, side, side)}
	g := Gravity{Clusters: k, Strength: 0.3, MaxSpeed: 0.1, Collapse: 0.6, Time: 100, Spin: 0.03}
	g.Centers = g.ClusterCenters(s.Bounds, s.Seed)
	for i := range n {
		c := g.Centers[i%k]
		// Uniform in the ball of radius R about the centre.
		p := c.Add(unit(r).Scale(radius * math.Cbrt(r.Float64())))
		s.add(fmt.Sprintf("g%d", i+1), models[r.IntN(len(models))], geom.FromQuat(randQuat(r), p), false, 0, g)
	}
}
