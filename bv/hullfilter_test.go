package bv

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/hull"
)

// hullVerts returns the sorted vertices of the hull of pts and its
// dimension.
func hullVerts(pts []geom.Vec3) ([]geom.Vec3, int) {
	h := hull.New(pts)
	vs := make([]geom.Vec3, h.Len())
	for i := range vs {
		vs[i] = h.Vertex(i)
	}
	slices.SortFunc(vs, func(p, q geom.Vec3) int {
		switch {
		case p.X != q.X:
			return obbSign(p.X - q.X)
		case p.Y != q.Y:
			return obbSign(p.Y - q.Y)
		}
		return obbSign(p.Z - q.Z)
	})
	return vs, h.Dim()
}

// hullFilterScenes returns seeded random and adversarial soups for the
// filter: terrains (its use), random soups, the faces of a box (coplanar
// corners on every face, exactly on the filter's planes), a flat sheet, a
// segment, a sphere (every corner on the hull), far from the origin,
// tiny and huge, and near-misses by one ulp of a face of the polytope.
func hullFilterScenes() map[string][]geom.Triangle {
	rng := rand.New(rand.NewPCG(30, 4))
	sc := map[string][]geom.Triangle{}
	terrain := func(n int, h float64, off geom.Vec3, scale float64) []geom.Triangle {
		z := make([]float64, n*n)
		for i := range z {
			z[i] = h * rng.Float64()
		}
		p := func(i, j int) geom.Vec3 {
			return geom.V(float64(i), float64(j), z[i*n+j]).Scale(scale).Add(off)
		}
		var ts []geom.Triangle
		for i := range n - 1 {
			for j := range n - 1 {
				ts = append(ts, geom.Tri(p(i, j), p(i+1, j), p(i+1, j+1)), geom.Tri(p(i, j), p(i+1, j+1), p(i, j+1)))
			}
		}
		return ts
	}
	sc["terrain"] = terrain(40, 3, geom.Vec3{}, 1)
	sc["terrain far"] = terrain(30, 1, geom.V(1e9, -3e9, 7e8), 1)
	sc["terrain tiny"] = terrain(12, 1, geom.Vec3{}, 0x1p-1060)
	sc["terrain huge"] = terrain(30, 1, geom.Vec3{}, 0x1p1000)
	sc["flat sheet"] = terrain(30, 0, geom.V(1, 2, 3), 1)
	sc["soup"] = obbSoup(rng, 1000, 0.3)
	sc["box faces"] = obbBoxTris(geom.V(-1, -2, -3), geom.V(4, 5, 6), 12)
	var seg []geom.Triangle
	for i := range 400 {
		x := float64(i)
		seg = append(seg, geom.Tri(geom.V(x, 2*x, 3*x), geom.V(x+1, 2*x+2, 3*x+3), geom.V(x, 2*x, 3*x)))
	}
	sc["segment"] = seg
	var sph []geom.Triangle
	for range 500 {
		var c [3]geom.Vec3
		for k := range c {
			c[k] = obbRandVec(rng, -1, 1).Unit()
		}
		sph = append(sph, geom.Tri(c[0], c[1], c[2]))
	}
	sc["sphere"] = sph
	// A cube's corners and its face centres nudged one ulp in and out:
	// the extremes make the cube, the nudged points sit on its faces.
	var nudged []geom.Triangle
	for i := range 300 {
		u, v := rng.Float64()*2-1, rng.Float64()*2-1
		w := 1.0
		switch i % 3 {
		case 0:
			w = math.Nextafter(1, 0)
		case 1:
			w = math.Nextafter(1, 2)
		}
		nudged = append(nudged, geom.Tri(geom.V(u, v, w), geom.V(v, w, u), geom.V(-w, u, v)))
	}
	for _, x := range []float64{-1, 1} {
		for _, y := range []float64{-1, 1} {
			nudged = append(nudged, geom.Tri(geom.V(x, y, 1), geom.V(x, y, -1), geom.V(-x, -y, 1)))
		}
	}
	sc["ulp near-miss"] = nudged
	return sc
}

// TestHullCandidatesKeepHull checks that the corners the filter keeps have
// the hull of all the corners, vertex for vertex, on every scene, and that
// on a terrain it drops most of them.
func TestHullCandidatesKeepHull(t *testing.T) {
	for name, tris := range hullFilterScenes() {
		t.Run(name, func(t *testing.T) {
			var all []geom.Vec3
			for i := range tris {
				all = append(all, tris[i][0], tris[i][1], tris[i][2])
			}
			kept := hullCandidates(nil, tris, trisMag(tris))
			want, wd := hullVerts(all)
			got, gd := hullVerts(kept)
			if wd != gd || !slices.Equal(want, got) {
				t.Fatalf("hull of the %d corners kept (of %d): dim %d, %d vertices; of all: dim %d, %d vertices",
					len(kept), len(all), gd, len(got), wd, len(want))
			}
			// Uniform random heights, the filter's worst terrain: most
			// corners lie near its top or its bottom.
			if name == "terrain" && 3*len(kept) > len(all) {
				t.Errorf("terrain: kept %d of %d corners", len(kept), len(all))
			}
		})
	}
}

// TestFitOBBFilterSameBox checks that FitOBB with the filter gives the box
// it gives without (the hull of every corner), up to rounding: the same
// axes to 1e-9 and extents to 1e-9 relative, on the filter's scenes that
// have a solid hull.
func TestFitOBBFilterSameBox(t *testing.T) {
	for name, tris := range hullFilterScenes() {
		m := trisMag(tris)
		if !(m > 0) || name == "terrain tiny" || name == "terrain huge" {
			continue
		}
		got := FitOBB(tris, FitHull)
		// The reference: the covariance of the hull of every corner.
		s := math.Ldexp(1, min(-math.Ilogb(m), 1000))
		var sum geom.Vec3
		for i := range tris {
			for _, v := range tris[i] {
				sum = sum.Add(v.Scale(s))
			}
		}
		acc := obbMoments{s: s, ref: sum.Scale(1 / float64(3*len(tris)))}
		var all []geom.Vec3
		for i := range tris {
			all = append(all, tris[i][0], tris[i][1], tris[i][2])
		}
		slices.SortFunc(all, func(p, q geom.Vec3) int {
			switch {
			case p.X != q.X:
				return obbSign(p.X - q.X)
			case p.Y != q.Y:
				return obbSign(p.Y - q.Y)
			}
			return obbSign(p.Z - q.Z)
		})
		all = slices.Compact(all)
		h, ht := hull.NewTriangulated(all)
		if h.Dim() != 3 {
			continue
		}
		for _, f := range ht {
			acc.addTri(all[f[0]], all[f[1]], all[f[2]])
		}
		cov, _ := acc.covariance()
		_, axes := SymEigen(cov)
		want := obbExtents(tris, axes, m)
		if msg := sameBox(got, want); msg != "" {
			t.Errorf("%s: %s", name, msg)
		}
	}
}

// sameBox compares two boxes up to rounding and the sign of each axis.
func sameBox(a, b OBB) string {
	scale := max(a.Half.X, a.Half.Y, a.Half.Z, 1e-300)
	for k := range 3 {
		d := a.Axes.Row(k).Dot(b.Axes.Row(k))
		if math.Abs(math.Abs(d)-1) > 1e-9 {
			return fmt.Sprintf("axis %d: %v and %v", k, a.Axes.Row(k), b.Axes.Row(k))
		}
		if math.Abs(a.Half.Index(k)-b.Half.Index(k)) > 1e-9*scale {
			return fmt.Sprintf("half-extent %d: %v and %v", k, a.Half.Index(k), b.Half.Index(k))
		}
	}
	return ""
}

// packPoints returns the distinct corners of tris in the order they first
// appear, three to a triangle (the last repeated), as bvh gives them to
// FitOBBHull and FitRSSHull.
func packPoints(tris []geom.Triangle) []geom.Triangle {
	seen := map[geom.Vec3]bool{}
	var pts []geom.Vec3
	for i := range tris {
		for _, v := range tris[i] {
			if !seen[v] {
				seen[v] = true
				pts = append(pts, v)
			}
		}
	}
	var out []geom.Triangle
	for i := 0; i < len(pts); i += 3 {
		var t geom.Triangle
		for k := range 3 {
			t[k] = pts[min(i+k, len(pts)-1)]
		}
		out = append(out, t)
	}
	return out
}

// TestFitHullOfPoints checks FitOBBHull and FitRSSHull on each distinct
// corner once, three to a triangle: where the corners' hull is solid, both
// volumes contain every corner exactly and, on the filter's scenes but the
// cube of the near-miss (elsewhere equal eigenvalues leave the axes free:
// the cube's, the sphere's), the box is FitOBB(tris, FitHull)'s up to
// rounding; where the hull is not solid, both say false.
func TestFitHullOfPoints(t *testing.T) {
	scenes := obbSoups()
	same := map[string]bool{}
	for name, tris := range hullFilterScenes() {
		scenes = append(scenes, obbSoupCase{"filter " + name, tris})
		same["filter "+name] = name != "terrain tiny" && name != "terrain huge" && name != "ulp near-miss" // a cube
	}
	solid := 0
	for _, sc := range scenes {
		pts := packPoints(sc.tris)
		var all []geom.Vec3
		for i := range sc.tris {
			all = append(all, sc.tris[i][0], sc.tris[i][1], sc.tris[i][2])
		}
		fin := trisMag(sc.tris) <= math.MaxFloat64
		b, ok := FitOBBHull(pts)
		v, rok := FitRSSHull(pts)
		if ok != rok {
			t.Fatalf("%s: FitOBBHull says %v, FitRSSHull %v", sc.name, ok, rok)
		}
		if _, d := hullVerts(all); fin && len(all) > 0 && ok != (d == 3) {
			t.Fatalf("%s: FitOBBHull says %v, the hull's dimension is %d", sc.name, ok, d)
		}
		if !ok || !fin {
			continue
		}
		solid++
		if msg := sameBox(b, FitOBB(sc.tris, FitHull)); same[sc.name] && msg != "" {
			t.Errorf("%s: %s", sc.name, msg)
		}
		obbExactCheck(t, sc.name, b, sc.tris)
		rssCheckFit(t, sc.name, v, sc.tris)
	}
	if solid < len(scenes)/2 {
		t.Errorf("only %d of %d scenes with a solid hull", solid, len(scenes))
	}
}
