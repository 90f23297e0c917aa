package scenes

import (
	"math"
	"slices"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/portable"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// caveStream is the PCG stream selector of Stalagmites' layout.
const caveStream = 0xca7e5eed00000003

// StalagmitesMinTris is the smallest request Stalagmites accepts.
const StalagmitesMinTris = 2000

// Stalagmites returns a cave over the square [0, 10]² of the xy plane: a
// rough floor, a rough ceiling at height about 5, stalagmites rising from
// the floor and stalactites hanging from the ceiling. It is the environment
// of Klosowski et al.'s stalagmite scene (98,114 triangles there), through
// which a DeformedTorus (outer radius about 1.3) flies.
//
// The floor is gen.Terrain over [0, 10]² with heights in [0, 0.3] and the
// ceiling another (with seed^0x5eed), turned upside down to span heights
// [4.7, 5] and face down. The spikes stand on a 5×5 grid of cells of side
// 2: nine cells in ten hold a stalagmite, off the cell's center by up to
// 0.5 on each axis, of height 1 to 4 and base radius 0.1 to 0.4; half of the 4×4
// interior grid corners hold a stalactite, jittered by up to 0.4, of length
// 0.6 to 2 and base radius 0.08 to 0.25. Stalagmites are at least 1 apart,
// so gaps of about 1 to 2 leave room for the torus to pass edge-on while
// touching them often. A spike is a lathe of s sides about a slightly
// tilted axis (its tip moves up to 8% of its length sideways): a base ring
// hidden under the floor or above the ceiling (closed by a fan), R-1 more
// rings up the spike with radius shrinking as (1-t)^1.5 and a random
// lumpiness of ±6%, and a fan to the tip: 2·s·R triangles.
//
// The triangle count: the floor is an n×n grid with n-1 = round(√(0.11·tris))
// (2·(n-1)² triangles, about 22% of tris), the ceiling one with n-1 =
// round(√(0.06·tris)) (about 12%); the spikes share the rest, B, with
// s = round(2·√(B/N)) sides for N spikes (about 30), clamped to [8, 32]
// (32 at full size, about 21 for 5,000), and the integer closest to B/(2s)
// rings in all, at least one per spike, the rest shared in proportion to
// the spikes' lengths. So the count is within s ≤ 32 of tris (98,130 for
// 98,114). tris must be at least StalagmitesMinTris (2,000). Every vertex
// lies in [0, 10]² × [-0.05, 5.05].
func Stalagmites(tris int, seed uint64) (*mesh.TriMesh, error) {
	const kind = "stalagmites"
	if err := checkTris(kind, tris, StalagmitesMinTris); err != nil {
		return nil, err
	}
	type spike struct {
		base, tip geom.Vec3
		rad       float64
		down      bool
		freq      int64 // lumps along the spike
		phase     int64 // in 64ths of a turn
	}
	r := newRNG(seed, caveStream)
	var spikes []spike
	const cell = 2.0
	lumps := func(sp *spike) {
		sp.freq, sp.phase = int64(2+r.intn(4)), int64(r.intn(64))
	}
	for i := range 5 {
		for j := range 5 {
			if !r.chance(0.9) {
				continue
			}
			x := float64((float64(i)+0.5)*cell) + r.between(-0.5, 0.5)
			y := float64((float64(j)+0.5)*cell) + r.between(-0.5, 0.5)
			h := r.between(1, 4)
			sp := spike{
				base: geom.Vec3{X: x, Y: y, Z: -0.05},
				tip:  geom.Vec3{X: x + float64(h*r.between(-0.08, 0.08)), Y: y + float64(h*r.between(-0.08, 0.08)), Z: h},
				rad:  r.between(0.1, 0.4),
			}
			lumps(&sp)
			spikes = append(spikes, sp)
		}
	}
	for i := 1; i < 5; i++ {
		for j := 1; j < 5; j++ {
			if !r.chance(0.5) {
				continue
			}
			x := float64(float64(i)*cell) + r.between(-0.4, 0.4)
			y := float64(float64(j)*cell) + r.between(-0.4, 0.4)
			h := r.between(0.6, 2)
			sp := spike{
				base: geom.Vec3{X: x, Y: y, Z: 5.05},
				tip:  geom.Vec3{X: x + float64(h*r.between(-0.08, 0.08)), Y: y + float64(h*r.between(-0.08, 0.08)), Z: 5 - h},
				rad:  r.between(0.08, 0.25),
				down: true,
			}
			lumps(&sp)
			spikes = append(spikes, sp)
		}
	}
	n := len(spikes) // at least one: the grid cannot come out empty in practice
	if n == 0 {
		return nil, errorf(kind, "no spike for seed %d", seed)
	}

	// The budget.
	nf := max(1, roundInt(math.Sqrt(0.11*float64(tris))))
	nc := max(1, roundInt(math.Sqrt(0.06*float64(tris))))
	b := tris - 2*nf*nf - 2*nc*nc
	s := clampInt(roundInt(2*math.Sqrt(float64(b)/float64(n))), 8, 32)
	for s > 3 && closest(b, 2*s) < n {
		s--
	}
	rtot := closest(b, 2*s)
	if rtot < n {
		return nil, errorf(kind, "tris = %d is too few for %d spikes", tris, n)
	}
	// Rings: one per spike, the rest in proportion to the lengths (largest
	// remainders, ties to the lower index).
	rings := make([]int, n)
	lens := make([]float64, n)
	total := 0.0
	for i, sp := range spikes {
		lens[i] = math.Abs(sp.tip.Z - sp.base.Z)
		total += lens[i]
	}
	extra := rtot - n
	rem := make([]float64, n)
	given := 0
	for i := range spikes {
		q := float64(float64(extra)*lens[i]) / total
		rings[i] = 1 + int(q)
		rem[i] = q - math.Floor(q)
		given += int(q)
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case rem[a] > rem[b]:
			return -1
		case rem[a] < rem[b]:
			return 1
		}
		return 0
	})
	for _, i := range order[:extra-given] {
		rings[i]++
	}

	m := &mesh.TriMesh{}
	floor, err := gen.Terrain(nf+1, 10, 0.3, 0.5, seed)
	if err != nil {
		return nil, errorf(kind, "%v", err)
	}
	ceiling, err := gen.Terrain(nc+1, 10, 0.3, 0.5, seed^0x5eed)
	if err != nil {
		return nil, errorf(kind, "%v", err)
	}
	m.Verts = make([]geom.Vec3, 0, len(floor.Verts)+len(ceiling.Verts)+(s+1)*rtot+2*n)
	m.Tris = make([][3]int32, 0, 2*nf*nf+2*nc*nc+2*s*rtot)
	appendMesh(m, floor, geom.Identity())
	appendMapped(m, ceiling, func(v geom.Vec3) geom.Vec3 { return geom.Vec3{X: v.X, Y: v.Y, Z: 5 - v.Z} }, true)

	tab := trigCache{}.get(s)
	for i, sp := range spikes {
		u, v := geom.Vec3{X: 1}, geom.Vec3{Y: 1}
		if sp.down {
			v = geom.Vec3{Y: -1}
		}
		nr := rings[i]
		rs := make([][]geom.Vec3, nr)
		for k := range nr {
			t := float64(k) / float64(nr)
			c := lerpVec(sp.base, sp.tip, t)
			sin, _ := portable.SinCosTurn(sp.freq*int64(k)*64+sp.phase*int64(nr), 64*int64(nr))
			rad := float64(float64(sp.rad*(1-t))*math.Sqrt(1-t)) * (1 + float64(0.06*sin))
			rs[k] = ellipse(c, u, v, rad, rad, tab)
		}
		loft(m, rs, &sp.base, &sp.tip)
	}
	return checkResult(kind, m)
}
