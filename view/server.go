package view

import (
	"cmp"
	"embed"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/collide3d/collide/geom"
)

//go:embed assets
var assets embed.FS

// The page's files, by the path they are served at, with their type.
var pages = map[string]struct{ file, typ string }{
	"/":                       {"assets/index.html", "text/html; charset=utf-8"},
	"/view.js":                {"assets/view.js", "text/javascript; charset=utf-8"},
	"/chart.js":               {"assets/chart.js", "text/javascript; charset=utf-8"},
	"/view.css":               {"assets/view.css", "text/css; charset=utf-8"},
	"/three/three.module.js":  {"assets/three/three.module.js", "text/javascript; charset=utf-8"},
	"/three/three.core.js":    {"assets/three/three.core.js", "text/javascript; charset=utf-8"},
	"/three/OrbitControls.js": {"assets/three/OrbitControls.js", "text/javascript; charset=utf-8"},
	"/three/LICENSE":          {"assets/three/LICENSE", "text/plain; charset=utf-8"},
	"/three/VERSION":          {"assets/three/VERSION", "text/plain; charset=utf-8"},
}

// Options configures a Handler.
type Options struct {
	// AnyHost serves requests whatever their Host header names. By default
	// only requests to a loopback host (localhost, 127.0.0.0/8, ::1) are
	// served, so that a web page elsewhere cannot read the recording
	// through a name that resolves to the loopback address (DNS
	// rebinding); set it when serving on another address on purpose.
	AnyHost bool
}

// Handler returns an http.Handler that serves the viewer of r: the page,
// its scripts (three.js among them, embedded in the binary) and r's data,
// and nothing else. It validates r first. Meshes are encoded when first
// asked for, once each.
func Handler(r *Recording, o Options) (http.Handler, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	s := &server{r: r, opts: o, meshes: make([]meshCache, len(r.Models)), boxes: r.modelBoxes()}
	box := r.bounds(s.boxes)
	s.origin = box.Center()
	s.info = s.describe(box)
	mux := http.NewServeMux()
	for path, p := range pages {
		if p.file == "" {
			continue
		}
		body, err := assets.ReadFile(p.file)
		if err != nil {
			return nil, fmt.Errorf("view: the page's file %s is missing: %w", p.file, err)
		}
		typ := p.typ
		mux.HandleFunc("GET "+path+pathEnd(path), func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", typ)
			w.Write(body)
		})
	}
	mux.HandleFunc("GET /recording.json", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, s.info)
	})
	mux.HandleFunc("GET /poses", func(w http.ResponseWriter, _ *http.Request) {
		s.posesOnce.Do(func() { s.poses = appendPoses(nil, s.r, s.boxes, s.origin) })
		writeBinary(w, s.poses)
	})
	mux.HandleFunc("GET /mesh/{model}", func(w http.ResponseWriter, req *http.Request) {
		i, err := strconv.Atoi(req.PathValue("model"))
		if err != nil || i < 0 || i >= len(s.meshes) {
			http.Error(w, fmt.Sprintf("no model %q: there are %d", req.PathValue("model"), len(s.meshes)), http.StatusNotFound)
			return
		}
		c := &s.meshes[i]
		c.once.Do(func() { c.b = appendMesh(nil, s.r.Models[i].Mesh, s.boxes[i].Center()) })
		writeBinary(w, c.b)
	})
	mux.HandleFunc("GET /step/{step}", func(w http.ResponseWriter, req *http.Request) {
		n, err := strconv.Atoi(req.PathValue("step"))
		if err != nil || n < 0 || n >= len(s.r.Steps) {
			http.Error(w, fmt.Sprintf("no step %q: there are %d", req.PathValue("step"), len(s.r.Steps)), http.StatusNotFound)
			return
		}
		j := stepJSON(n, &s.r.Steps[n])
		j.setGeometry(s.r.geometry(n, s.origin))
		writeJSON(w, j)
	})
	s.mux = mux
	return s, nil
}

// pathEnd makes "/" match only itself (not every path, as a pattern
// ending in a slash would).
func pathEnd(path string) string {
	if path == "/" {
		return "{$}"
	}
	return ""
}

type server struct {
	r         *Recording
	opts      Options
	origin    geom.Vec3
	boxes     []geom.AABB // the models' bounding boxes
	info      *recordingJSON
	mux       *http.ServeMux
	meshes    []meshCache
	posesOnce sync.Once
	poses     []byte
}

type meshCache struct {
	once sync.Once
	b    []byte
}

func (s *server) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if !s.opts.AnyHost && !LoopbackHost(req.Host) {
		http.Error(w, "this viewer serves only requests to a loopback host (localhost, 127.0.0.1, [::1])", http.StatusForbidden)
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	s.mux.ServeHTTP(w, req)
}

// LoopbackHost reports whether host, with or without a port (a request's
// Host, or an address to listen on), names the loopback address:
// localhost (in any case, with or without the final dot of a fully
// qualified name), 127.0.0.0/8 or ::1, an IPv6 address in brackets or not
// ("[::1]", "[::1]:8357", "::1").
func LoopbackHost(host string) bool {
	if inner, ok := strings.CutPrefix(host, "["); ok {
		// "[::1]" or "[::1]:PORT": brackets around an IPv6 address only.
		addr, rest, ok := strings.Cut(inner, "]")
		if !ok || (rest != "" && rest[0] != ':') || !strings.Contains(addr, ":") {
			return false
		}
		ip := net.ParseIP(addr)
		return ip != nil && ip.IsLoopback()
	}
	if strings.Count(host, ":") == 1 {
		host, _, _ = strings.Cut(host, ":") // NAME:PORT or IPv4:PORT
	}
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	ip := net.ParseIP(host) // an IPv4 address, or an IPv6 one without a port
	return ip != nil && ip.IsLoopback()
}

func writeJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

func writeBinary(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.Write(b)
}

// recordingJSON is /recording.json: what the page needs before the meshes
// and poses, and the figures of every step for the chart.
type recordingJSON struct {
	Title    string       `json:"title"`
	Doc      string       `json:"doc"`
	Mode     string       `json:"mode"`
	TimeName string       `json:"time_name"`
	Steps    int          `json:"steps"`
	Origin   [3]float64   `json:"origin"`
	Min      [3]float64   `json:"min"` // the box of the objects over the steps, relative to Origin
	Max      [3]float64   `json:"max"`
	Models   []modelJSON  `json:"models"`
	Objects  []objectJSON `json:"objects"`
	Moving   []int        `json:"moving"`
	// By step:
	Time      []float64 `json:"time"` // seconds
	BVTests   []int64   `json:"bv_tests"`
	TriTests  []int64   `json:"tri_tests"`
	Pairs     []int     `json:"pairs"`
	Contacts  []int     `json:"contacts"`
	Truncated []int     `json:"truncated"` // the steps that kept fewer pairs than they found
}

type modelJSON struct {
	Name      string `json:"name"`
	Vertices  int    `json:"vertices"`
	Triangles int    `json:"triangles"`
}

type objectJSON struct {
	Name   string `json:"name"`
	Model  int    `json:"model"`
	Static bool   `json:"static"`
}

func (s *server) describe(box geom.AABB) *recordingJSON {
	r := s.r
	n := len(r.Steps)
	j := &recordingJSON{
		Title: r.Title, Doc: r.Doc, Mode: r.Mode, TimeName: cmp.Or(r.TimeName, "query time"), Steps: n,
		Origin: vec(s.origin), Min: vec(box.Min.Sub(s.origin)), Max: vec(box.Max.Sub(s.origin)),
		Moving: r.Moving,
		Time:   make([]float64, n), BVTests: make([]int64, n), TriTests: make([]int64, n),
		Pairs: make([]int, n), Contacts: make([]int, n), Truncated: []int{},
	}
	if j.Moving == nil {
		j.Moving = []int{}
	}
	for _, m := range r.Models {
		j.Models = append(j.Models, modelJSON{Name: m.Name, Vertices: len(m.Mesh.Verts), Triangles: len(m.Mesh.Tris)})
	}
	for _, o := range r.Objects {
		j.Objects = append(j.Objects, objectJSON{Name: o.Name, Model: o.Model, Static: o.Static})
	}
	for i := range r.Steps {
		st := &r.Steps[i]
		j.Time[i] = st.Time.Seconds()
		j.BVTests[i], j.TriTests[i] = st.Stats.BVTests, st.Stats.TriTests
		j.Pairs[i], j.Contacts[i] = st.Pairs(), len(st.Contacts)
		if st.Truncated {
			j.Truncated = append(j.Truncated, i)
		}
	}
	return j
}

func vec(v geom.Vec3) [3]float64 { return [3]float64{v.X, v.Y, v.Z} }

// stepJSON is /step/N: the contacts of a step, each pair of objects with
// its pairs of triangles flattened (A's triangle, B's, A's, B's, ...).
type stepJSONType struct {
	Step      int           `json:"step"`
	Pairs     int           `json:"pairs"`
	Time      float64       `json:"time"`
	BVTests   int64         `json:"bv_tests"`
	TriTests  int64         `json:"tri_tests"`
	Updates   int64         `json:"updates"`
	Truncated bool          `json:"truncated"`
	Contacts  []contactJSON `json:"contacts"`
	// The contacts' geometry (stepGeometry), relative to the origin:
	// the intersection curves' segments (6 numbers each), points and
	// normals (6 each), and the box of both (null when empty).
	Curves  []float64 `json:"curves"`
	Normals []float64 `json:"normals"`
	Focus   *boxJSON  `json:"focus"`
}

type boxJSON struct {
	Min [3]float64 `json:"min"`
	Max [3]float64 `json:"max"`
}

// setGeometry sets j's curves, normals and focus from g.
func (j *stepJSONType) setGeometry(g *stepGeometry) {
	j.Curves, j.Normals = g.Segments, g.Normals
	if j.Curves == nil {
		j.Curves = []float64{}
	}
	if j.Normals == nil {
		j.Normals = []float64{}
	}
	if !g.Box.IsEmpty() {
		j.Focus = &boxJSON{Min: vec(g.Box.Min), Max: vec(g.Box.Max)}
	}
}

type contactJSON struct {
	A     int     `json:"a"`
	B     int     `json:"b"`
	Pairs []int32 `json:"pairs"`
}

func stepJSON(n int, st *Step) *stepJSONType {
	j := &stepJSONType{
		Step: n, Pairs: st.Pairs(), Time: st.Time.Seconds(),
		BVTests: st.Stats.BVTests, TriTests: st.Stats.TriTests, Updates: st.Stats.Updates,
		Truncated: st.Truncated, Contacts: make([]contactJSON, len(st.Contacts)),
	}
	for i, c := range st.Contacts {
		flat := make([]int32, 0, 2*len(c.Pairs))
		for _, p := range c.Pairs {
			flat = append(flat, p.Env, p.Fly)
		}
		j.Contacts[i] = contactJSON{A: c.A, B: c.B, Pairs: flat}
	}
	return j
}
