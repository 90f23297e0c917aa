package testgeom

import (
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"testing"

	"os"
	"path/filepath"

	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/obj"
)

func TestPairDeterministic(t *testing.T) {
	for _, kind := range AllPairKinds() {
		r1 := rand.New(rand.NewPCG(11, uint64(kind)))
		r2 := rand.New(rand.NewPCG(11, uint64(kind)))
		for range 100 {
			a1, b1 := Pair(kind, r1)
			a2, b2 := Pair(kind, r2)
			if a1 != a2 || b1 != b2 {
				t.Fatalf("%v: same seed, different pairs", kind)
			}
		}
	}
}

// TestPairKinds checks what each kind promises: the contact constructions
// are exact (always in contact by the rational oracle), the others produce
// both answers, the degenerate kind has a degenerate triangle, the coplanar
// kinds are coplanar, and no kind yields a non-finite coordinate.
func TestPairKinds(t *testing.T) {
	always := map[PairKind]bool{
		KindSharedVertex: true, KindSharedEdge: true, KindVertexOnEdge: true,
		KindVertexOnFace: true, KindEdgeCrossEdge: true,
	}
	const n = 400
	for _, kind := range AllPairKinds() {
		rng := rand.New(rand.NewPCG(5, uint64(kind)))
		hits, degen := 0, 0
		for i := range n {
			a, b := Pair(kind, rng)
			if !a.IsFinite() || !b.IsFinite() {
				t.Fatalf("%v #%d: non-finite pair", kind, i)
			}
			hit := RatTriTri(a, b)
			if hit {
				hits++
			}
			if always[kind] && !hit {
				t.Errorf("%v #%d: construction not in contact\na = %s\nb = %s", kind, i, FormatTriangle(a), FormatTriangle(b))
			}
			if isDegenerate(a) || isDegenerate(b) {
				degen++
			} else if kind == KindDegenerate {
				t.Errorf("%v #%d: no degenerate triangle", kind, i)
			}
			if kind == KindCoplanarOverlap || kind == KindCoplanarTouch {
				for _, p := range b {
					if !isDegenerate(a) && geom.Orient3D(a[0], a[1], a[2], p) != 0 {
						t.Errorf("%v #%d: not coplanar", kind, i)
					}
				}
			}
		}
		if !always[kind] && (hits < n/10 || hits > n*95/100) {
			t.Errorf("%v: %d of %d pairs in contact: want a mix", kind, hits, n)
		}
		t.Logf("%-17v %3d/%d in contact, %3d with a degenerate triangle", kind, hits, n, degen)
	}
}

// isDegenerate reports exactly whether t has collinear vertices, with the
// rational normal.
func isDegenerate(t geom.Triangle) bool {
	var r ratTT
	r.init(t, t)
	return r.deg[0]
}

// TestNearMissFlips checks the point of KindNearMiss: starting from an exact
// contact, a one-ulp move changes the answer for a good share of the pairs.
func TestNearMissFlips(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for range 500 {
		a := contactBase(rng)
		p := pointOnFace(rng, a, true)
		b := oneSided(rng, a, p)
		if !RatTriTri(a, b) {
			t.Fatalf("vertex-on-face construction not in contact:\na = %s\nb = %s", FormatTriangle(a), FormatTriangle(b))
		}
		ax := exactNormal(a).LargestAxis()
		var away, toward geom.Triangle = b, b
		// Which direction is "away": the side of b's other vertices.
		side := exactNormal(a).Dot(b[1].Sub(p))
		up := (side > 0) == (exactNormal(a).Index(ax) > 0)
		switch ax {
		case 0:
			away[0].X, toward[0].X = nudge(p.X, up), nudge(p.X, !up)
		case 1:
			away[0].Y, toward[0].Y = nudge(p.Y, up), nudge(p.Y, !up)
		default:
			away[0].Z, toward[0].Z = nudge(p.Z, up), nudge(p.Z, !up)
		}
		if RatTriTri(a, away) {
			t.Errorf("moved away by one ulp, still in contact:\na = %s\nb = %s", FormatTriangle(a), FormatTriangle(away))
		}
		if !RatTriTri(a, toward) {
			t.Errorf("moved through by one ulp, no contact:\na = %s\nb = %s", FormatTriangle(a), FormatTriangle(toward))
		}
	}
}

func TestPermute(t *testing.T) {
	tr := geom.Triangle{{X: 1}, {X: 2}, {X: 3}}
	seen := map[geom.Triangle]bool{}
	for p := range 6 {
		seen[Permute(tr, p)] = true
	}
	if len(seen) != 6 {
		t.Errorf("Permute gives %d distinct orders, want 6", len(seen))
	}
	if Permute(tr, 0) != tr || Permute(tr, 6) != tr || Permute(tr, -6) != tr {
		t.Errorf("Permute(t, 0 mod 6) is not the identity")
	}
}

var hexRe = regexp.MustCompile(`-?0x[0-9a-f.]+p[-+][0-9]+|math\.Copysign\(0, -1\)`)

func TestFormatTriangle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var tr geom.Triangle
		for i := range 3 {
			tr[i] = geom.Vec3{X: math.Float64frombits(rng.Uint64()&^(0x7ff<<52) | uint64(rng.IntN(2046)+1)<<52), Y: 0, Z: math.Copysign(0, -1)}
			if rng.IntN(2) == 0 {
				tr[i].Y = 0x1p-1074
			}
		}
		s := FormatTriangle(tr)
		nums := hexRe.FindAllString(s, -1)
		if len(nums) != 9 {
			t.Fatalf("FormatTriangle = %s: %d numbers", s, len(nums))
		}
		for k, str := range nums {
			want := tr[k/3].Index(k % 3)
			var got float64
			if str == "math.Copysign(0, -1)" {
				got = math.Copysign(0, -1)
			} else {
				var err error
				if got, err = strconv.ParseFloat(str, 64); err != nil {
					t.Fatal(err)
				}
			}
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("FormatTriangle: %s reads back as %x, want %x", str, got, want)
			}
		}
	}
	if got, want := FormatTriangle(geom.Triangle{{X: 1, Y: -3, Z: 0.5}}), "geom.Triangle{{X: 0x1p+00, Y: -0x1.8p+01, Z: 0x1p-01}, {X: 0x0p+00, Y: 0x0p+00, Z: 0x0p+00}, {X: 0x0p+00, Y: 0x0p+00, Z: 0x0p+00}}"; got != want {
		t.Errorf("FormatTriangle = %s\nwant %s", got, want)
	}
}

func TestWriteOBJRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	m := NearMissSoup(rng, 50)
	m.Verts = append(m.Verts, geom.Vec3{X: 0x1p-1074, Y: -1e300, Z: math.Nextafter(1, 2)})
	m.Tris = append(m.Tris, [3]int32{0, int32(len(m.Verts) - 1), 1})
	path := filepath.Join(t.TempDir(), "m.obj")
	if err := WriteOBJ(path, m); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := obj.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if got.NumTriangles() != m.NumTriangles() {
		t.Fatalf("read %d triangles, wrote %d", got.NumTriangles(), m.NumTriangles())
	}
	for i := range m.Tris {
		if got.Triangle(i) != m.Triangle(i) {
			t.Fatalf("triangle %d: read %v, wrote %v", i, got.Triangle(i), m.Triangle(i))
		}
	}
	if err := WriteOBJ(filepath.Join(t.TempDir(), "no", "such", "dir.obj"), m); err == nil {
		t.Error("WriteOBJ to a missing directory: no error")
	}
}
