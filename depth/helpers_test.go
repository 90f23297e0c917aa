package depth

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/hull"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

func build(t testing.TB, m *mesh.TriMesh) *collide.Model {
	t.Helper()
	md, err := collide.Build(m, collide.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return md
}

func boxMesh(a, b geom.Vec3) *mesh.TriMesh { return gen.Must(gen.Box(geom.Box(a, b), 1)) }

// voxels returns the closed, outward boundary of a union of unit cubes
// (cells given by their integer corners), scaled by s and offset by o.
func voxels(cells [][3]int, s float64, o geom.Vec3) *mesh.TriMesh {
	in := map[[3]int]bool{}
	for _, c := range cells {
		in[c] = true
	}
	m := &mesh.TriMesh{}
	ids := map[[3]int]int32{}
	vid := func(p [3]int) int32 {
		if id, ok := ids[p]; ok {
			return id
		}
		id := int32(len(m.Verts))
		ids[p] = id
		m.Verts = append(m.Verts, geom.V(o.X+s*float64(p[0]), o.Y+s*float64(p[1]), o.Z+s*float64(p[2])))
		return id
	}
	for _, c := range cells {
		for ax := 0; ax < 3; ax++ {
			for _, side := range []int{0, 1} {
				nb := c
				if side == 1 {
					nb[ax]++
				} else {
					nb[ax]--
				}
				if in[nb] {
					continue
				}
				// The face's corners, counterclockwise seen from outside.
				u, v := (ax+1)%3, (ax+2)%3
				base := c
				base[ax] += side
				q := [4][3]int{base, base, base, base}
				q[1][u]++
				q[2][u]++
				q[2][v]++
				q[3][v]++
				if side == 0 {
					q[1], q[3] = q[3], q[1]
				}
				a, b, cc, d := vid(q[0]), vid(q[1]), vid(q[2]), vid(q[3])
				m.Tris = append(m.Tris, [3]int32{a, b, cc}, [3]int32{a, cc, d})
			}
		}
	}
	return m
}

func lShape(s float64, o geom.Vec3) *mesh.TriMesh {
	return voxels([][3]int{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, s, o)
}

func uShape(s float64, o geom.Vec3) *mesh.TriMesh {
	return voxels([][3]int{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {2, 1, 0}}, s, o)
}

// hullMesh returns the boundary of the convex hull of n random points on
// a sphere (general position), as a closed outward mesh.
func hullMesh(rng *rand.Rand, n int, r float64, c geom.Vec3) *mesh.TriMesh {
	pts := make([]geom.Vec3, n)
	for i := range pts {
		for {
			v := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
			if l := v.Norm(); l > 1e-3 {
				pts[i] = c.Add(v.Scale(r / l))
				break
			}
		}
	}
	_, tris := hull.NewTriangulated(pts)
	return &mesh.TriMesh{Verts: pts, Tris: tris}
}

func randomPose(rng *rand.Rand, tr float64) geom.Pose {
	axis := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
	return geom.FromAxisAngle(axis, rng.Float64()*2*math.Pi,
		geom.V(tr*(2*rng.Float64()-1), tr*(2*rng.Float64()-1), tr*(2*rng.Float64()-1)))
}

// placedTris returns the triangles of m at p, computed as collide does.
func placedTris(m *mesh.TriMesh, p geom.Pose) []geom.Triangle {
	out := make([]geom.Triangle, len(m.Tris))
	for i := range m.Tris {
		out[i] = p.ApplyTriangle(m.Triangle(i))
	}
	return out
}

// bruteSeparated is the oracle: no pair of triangles in contact (every
// pair, geom.TriTri) and no vertex of either inside the other solid; or
// a separating plane among the axes; both exact.
func bruteSeparated(a, b []geom.Triangle) bool {
	for _, x := range a {
		for _, y := range b {
			if x.Bounds().Overlaps(y.Bounds()) && geom.TriTri(x, y) {
				return false
			}
		}
	}
	sa, sb := newSolid(a), newSolid(b)
	for _, y := range b {
		for _, p := range y {
			if sa.Contains(p) {
				return false
			}
		}
	}
	for _, x := range a {
		for _, p := range x {
			if sb.Contains(p) {
				return false
			}
		}
	}
	return true
}

// bruteInterpenetrate looks for a point inside both solids: the given
// candidates, then a grid over the overlap of the boxes.
func bruteInterpenetrate(a, b []geom.Triangle, cands ...geom.Vec3) bool {
	sa, sb := newSolid(a), newSolid(b)
	for _, p := range cands {
		if sa.Contains(p) && sb.Contains(p) {
			return true
		}
	}
	box := sa.box.Intersection(sb.box)
	if box.IsEmpty() {
		return false
	}
	const n = 16
	sz := box.Size()
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			for k := 0; k < n; k++ {
				p := geom.V(box.Min.X+sz.X*(float64(i)+0.5)/n, box.Min.Y+sz.Y*(float64(j)+0.5)/n, box.Min.Z+sz.Z*(float64(k)+0.5)/n)
				if sa.Contains(p) && sb.Contains(p) {
					return true
				}
			}
		}
	}
	return false
}

// minkowskiPD is the independent oracle for convex meshes: the distance
// from the origin to the boundary of the hull of the differences of the
// vertices (0 if the origin is not strictly inside).
func minkowskiPD(a, b []geom.Vec3) float64 {
	var diff []geom.Vec3
	for _, x := range a {
		for _, y := range b {
			diff = append(diff, x.Sub(y))
		}
	}
	h, tris := hull.NewTriangulated(diff)
	if h.Dim() < 3 {
		return 0
	}
	best := math.Inf(1)
	for _, t := range tris {
		p0, p1, p2 := diff[t[0]], diff[t[1]], diff[t[2]]
		n := p1.Sub(p0).Cross(p2.Sub(p0))
		l := n.Norm()
		if l == 0 {
			continue
		}
		best = min(best, n.Dot(p0)/l)
	}
	return max(best, 0)
}

func meshPoints(m *mesh.TriMesh, p geom.Pose) []geom.Vec3 {
	out := make([]geom.Vec3, len(m.Verts))
	for i, v := range m.Verts {
		out[i] = p.Apply(v)
	}
	return out
}

// axesPD is the second, independent oracle for convex meshes: the least
// support of the Minkowski difference over every face normal of both and
// every cross product of an edge of one with an edge of the other (no
// pruning), each support by brute force over all vertex pairs.
func axesPD(env, fly *mesh.TriMesh, pose geom.Pose) float64 {
	a, b := meshPoints(env, geom.Identity()), meshPoints(fly, pose)
	var axes []geom.Vec3
	var ea, eb []geom.Vec3
	for _, t := range env.Tris {
		n := a[t[1]].Sub(a[t[0]]).Cross(a[t[2]].Sub(a[t[0]]))
		axes = append(axes, n)
		for k := 0; k < 3; k++ {
			ea = append(ea, a[t[(k+1)%3]].Sub(a[t[k]]))
		}
	}
	for _, t := range fly.Tris {
		n := b[t[1]].Sub(b[t[0]]).Cross(b[t[2]].Sub(b[t[0]]))
		axes = append(axes, n)
		for k := 0; k < 3; k++ {
			eb = append(eb, b[t[(k+1)%3]].Sub(b[t[k]]))
		}
	}
	for _, x := range ea {
		for _, y := range eb {
			axes = append(axes, x.Cross(y))
		}
	}
	best := math.Inf(1)
	for _, u := range axes {
		l := u.Norm()
		if l == 0 {
			continue
		}
		u = u.Scale(1 / l)
		for _, s := range []float64{1, -1} {
			v := u.Scale(s)
			ha, hb := math.Inf(-1), math.Inf(-1)
			for _, p := range a {
				ha = max(ha, v.Dot(p))
			}
			for _, p := range b {
				hb = max(hb, -v.Dot(p))
			}
			best = min(best, ha+hb)
		}
	}
	return max(best, 0)
}
