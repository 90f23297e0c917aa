package bvh_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/collide3d/collide/bv"
	"github.com/collide3d/collide/bvh"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/longtest"
	"github.com/collide3d/collide/internal/oracle"
	"github.com/collide3d/collide/internal/testgeom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
)

// This file checks Read on saved trees of every kind that are corrupt or
// forged with a matching checksum: it must return a *mesh.FormatError or a
// tree whose queries give exactly the brute-force oracle's pairs. The fuzz
// targets, one per kind (go test -fuzz=FuzzReadOBB ./bvh, likewise KDOP,
// Sphere, AABB, BoxTree), edit a small saved model as their input says.

// kindScene is a small scene with contacts: a torus (the saved model) and a
// sphere crossing its tube, at poses that keep them in contact.
type kindScene struct {
	env, fly *mesh.TriMesh
	checks   []sceneCheck
	// The oracle's pairs for the unedited meshes, per check: the saved
	// model as environment and as flying model.
	wantEnv, wantFly [][][2]int32
}

// sceneCheck is one query of the scene: the flying sphere at pose (the
// torus flies at its inverse against it), with tolerance eps.
type sceneCheck struct {
	pose geom.Pose
	eps  float64
}

var theKindScene = sync.OnceValue(func() *kindScene {
	sc := &kindScene{
		env: gen.Must(gen.Torus(geom.Vec3{}, 1, 0.3, 64)),
		fly: gen.Must(gen.Icosphere(geom.V(1, 0, 0), 0.35, 80)),
	}
	c := geom.V(1, 0, 0)
	spin := geom.FromAxisAngle(geom.V(1, 2, 3), 0.7, geom.Vec3{})
	spin.T = c.Sub(spin.R.MulVec(c)) // about the sphere's centre
	around := geom.FromAxisAngle(geom.V(0, 0, 1), 1.1, geom.V(0.01, 0.02, 0.03))
	sc.checks = []sceneCheck{
		{geom.Identity(), 0}, {spin, 0}, {around, 0}, {geom.Identity(), 0.02}, {spin, 0.05},
	}
	for _, ch := range sc.checks {
		sc.wantEnv = append(sc.wantEnv, testgeom.Brute(sc.env, sc.fly, ch.pose, ch.eps))
		sc.wantFly = append(sc.wantFly, testgeom.Brute(sc.fly, sc.env, ch.pose.Inverse(), ch.eps))
	}
	return sc
})

// kindVariants are the options the saved models of each kind are built with.
var kindVariants = map[bvh.Kind][]bvh.Options{
	bvh.KDOP: {
		{K: bv.K6}, {K: bv.K18, Leaf: 4}, {K: bv.K26, Float64: true},
		{K: bv.K14, Leaf: 2, Float64: true, FlyLeaf: 3},
		{K: bv.K18, Compact: true}, {K: bv.K6, Leaf: 4, Compact: true},
	},
	bvh.OBB:     {{Kind: bvh.OBB}, {Kind: bvh.OBB, Rule: bvh.RAPID, Leaf: 3}},
	bvh.Sphere:  {{Kind: bvh.Sphere}, {Kind: bvh.Sphere, Split: bvh.Median, Leaf: 4}},
	bvh.AABB:    {{Kind: bvh.AABB}, {Kind: bvh.AABB, Rule: bvh.LongestSide, Leaf: 2}},
	bvh.BoxTree: {{Kind: bvh.BoxTree}, {Kind: bvh.BoxTree, Split: bvh.Median, Leaf: 16}},
	bvh.RSS:     {{Kind: bvh.RSS}, {Kind: bvh.RSS, Rule: bvh.LongestSide, Leaf: 3}},
}

// kindModel is a saved model of the scene's torus and a tree of the same
// options over its sphere.
type kindModel struct {
	o    bvh.Options
	data []byte
	l    kindLayout
	fly  *bvh.Tree
}

var kindModels = sync.OnceValue(func() map[bvh.Kind][]kindModel {
	sc := theKindScene()
	ms := map[bvh.Kind][]kindModel{}
	for kind, os := range kindVariants {
		for _, o := range os {
			t := must(bvh.Build(sc.env, o))
			var buf bytes.Buffer
			if _, err := t.WriteTo(&buf); err != nil {
				panic(err)
			}
			ms[kind] = append(ms[kind], kindModel{o: o, data: buf.Bytes(), l: parseKindLayout(buf.Bytes()), fly: must(bvh.Build(sc.fly, o))})
		}
	}
	return ms
})

// TestKindScene checks that the scene has contacts at every check, so
// that the tests below are not weak.
func TestKindScene(t *testing.T) {
	sc := theKindScene()
	for i := range sc.checks {
		if len(sc.wantEnv[i]) < 5 || len(sc.wantFly[i]) < 5 {
			t.Errorf("check %d: %d and %d pairs", i, len(sc.wantEnv[i]), len(sc.wantFly[i]))
		}
	}
	for kind, ms := range kindModels() {
		for _, m := range ms {
			tr, err := bvh.Read(bytes.NewReader(m.data))
			if err != nil {
				t.Fatalf("%v %+v: %v", kind, m.o, err)
			}
			if msg := exactAnswers(tr, m.fly, len(theKindScene().checks)); msg != "" {
				t.Errorf("%v %+v: %s", kind, m.o, msg)
			}
		}
	}
}

// exactAnswers returns "" if tr answers the scene's queries as the oracle
// does (all pairs and first contact) as the environment of fly and flying
// against it, else what differs. It makes the first n of the scene's
// checks.
func exactAnswers(tr, fly *bvh.Tree, n int) string {
	sc := theKindScene()
	same := slices.Equal(tr.Mesh().Verts, sc.env.Verts) && slices.Equal(tr.Mesh().Tris, sc.env.Tris)
	var s bvh.Scratch
	for i, ch := range sc.checks[:n] {
		for _, asEnv := range []bool{true, false} {
			env, f, pose, want := tr, fly, ch.pose, sc.wantEnv[i]
			if !asEnv {
				env, f, pose, want = fly, tr, ch.pose.Inverse(), sc.wantFly[i]
			}
			if !same {
				// The oracle behind a sweep on the triangles' boxes (faster;
				// testgeom checks it against Brute).
				want = oracle.Sweep(env.Mesh(), f.Mesh(), pose, ch.eps)
			}
			got, _ := collect(env, f, pose, bvh.QueryOptions{All: true, Eps: ch.eps}, &s)
			if !slices.Equal(got, want) {
				return fmt.Sprintf("check %d (as environment: %v): %d pairs, oracle %d (missing %v, extra %v)",
					i, asEnv, len(got), len(want), diff(want, got), diff(got, want))
			}
			first, _ := collect(env, f, pose, bvh.QueryOptions{Eps: ch.eps}, &s)
			if len(first) > 1 || len(first) != min(len(want), 1) || len(first) == 1 && !slices.Contains(want, first[0]) {
				return fmt.Sprintf("check %d (as environment: %v): first contact %v, oracle %d pairs", i, asEnv, first, len(want))
			}
		}
	}
	return ""
}

// kindLayout locates the parts of a saved tree of any kind.
type kindLayout struct {
	kind           bvh.Kind
	k, w           int
	nv, nt, nn, no int
	// Offsets of the counts, vertices, triangles, box-tree root box,
	// nodes and order.
	h, v, t, root, n, o int
	node                int // node size, in the layouts of records
	nf, fw              int // floats per node and their width
	ref                 int // offset of the ref in a node
	// The second node layout of OBB, sphere, AABB and RSS trees (see
	// bvh/vtree_save.go): refs at refs, the internal nodes' volumes of
	// vsize bytes at vols, node i's the vi[i]-th (-1 for a leaf).
	noLeaf     bool
	refs, vols int
	vsize      int
	vi         []int
	slots      []int // the nodes with floats (a box-tree's root box is node nn)
}

func parseKindLayout(b []byte) kindLayout {
	le := binary.LittleEndian
	var l kindLayout
	l.kind = bvh.Kind(le.Uint32(b[12:]) - 1)
	l.k, l.w = int(le.Uint32(b[16:])), int(le.Uint32(b[20:]))
	l.h = 40 + 4*l.k
	l.nv, l.nt = int(le.Uint64(b[l.h:])), int(le.Uint64(b[l.h+8:]))
	l.nn, l.no = int(le.Uint64(b[l.h+16:])), int(le.Uint64(b[l.h+24:]))
	l.v = l.h + 32
	l.t = l.v + 24*l.nv
	l.root, l.n = l.t+12*l.nt, l.t+12*l.nt
	l.fw = 8
	switch l.kind {
	case bvh.OBB, bvh.RSS:
		l.nf = 15
	case bvh.Sphere:
		l.nf = 4
	case bvh.AABB:
		l.nf = 6
	case bvh.BoxTree:
		l.nf = 2
		l.n += 48
	default:
		l.nf, l.fw = l.k, l.w
		if l.w == 1 { // compact: the block references (k float32 a block of 16 nodes) first
			l.root = l.n
			l.n += (l.nn + 15) / 16 * 4 * l.k
		}
	}
	l.ref = l.nf * l.fw
	l.node = l.ref + 4
	if l.kind == bvh.BoxTree {
		l.node += 4
	}
	l.o = l.n + l.nn*l.node
	nodes := l.nn
	if l.kind == bvh.BoxTree {
		nodes++
	}
	tag := b[l.n:min(l.n+8, len(b))]
	if l.kind != bvh.KDOP && l.kind != bvh.BoxTree && l.nn > 0 && len(tag) == 8 && string(tag[:2]) == "nl" && tag[6] == 0xf8 && tag[7] == 0x7f {
		l.noLeaf = true
		l.fw = int(tag[3])
		l.refs = l.n + 8
		l.vols = l.refs + 4*l.nn
		l.vsize = l.nf * l.fw
		for i := range l.nn {
			if int32(le.Uint32(b[l.refs+4*i:])) >= 0 {
				l.vi = append(l.vi, len(l.slots))
				l.slots = append(l.slots, i)
			} else {
				l.vi = append(l.vi, -1)
			}
		}
		l.o = l.vols + len(l.slots)*l.vsize
		return l
	}
	for i := range nodes {
		l.slots = append(l.slots, i)
	}
	return l
}

// floatAt returns the offset of float field f of node i (which must have
// floats); for a box-tree, node nn is the root box.
func (l kindLayout) floatAt(i, f int) int {
	switch {
	case l.kind == bvh.BoxTree && i == l.nn:
		return l.root + 8*(f%6)
	case l.noLeaf:
		if l.vi[i] < 0 {
			panic(fmt.Sprintf("node %d is a leaf, which has no volume", i))
		}
		return l.vols + l.vi[i]*l.vsize + (f%l.nf)*l.fw
	}
	return l.n + i*l.node + (f%l.nf)*l.fw
}

// refAt returns the offset of the ref of node i.
func (l kindLayout) refAt(i int) int {
	if l.noLeaf {
		return l.refs + 4*i
	}
	return l.n + i*l.node + l.ref
}

func getFloat(b []byte, at, w int) float64 {
	if w == 1 { // a compact k-DOP's bound: a byte
		return float64(b[at])
	}
	if w == 4 {
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b[at:])))
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b[at:]))
}

func setFloat(b []byte, at, w int, x float64) {
	if w == 1 {
		b[at] = byte(int64(min(max(x, 0), 255)))
		return
	}
	if w == 4 {
		binary.LittleEndian.PutUint32(b[at:], math.Float32bits(float32(x)))
	} else {
		binary.LittleEndian.PutUint64(b[at:], math.Float64bits(x))
	}
}

// nudge moves x by steps ulps of width w (float32 or float64).
func nudge(x float64, steps, w int) float64 {
	to := math.Inf(1)
	if steps < 0 {
		to, steps = math.Inf(-1), -steps
	}
	if w == 1 {
		return x + float64(steps)*math.Copysign(1, to)
	}
	for range steps {
		if w == 4 {
			x = float64(math.Nextafter32(float32(x), float32(to)))
		} else {
			x = math.Nextafter(x, to)
		}
	}
	return x
}

// special returns value number z of a list of values that break trees: set
// ones and changes of x.
func special(x float64, z byte) float64 {
	switch z % 20 {
	case 0:
		return 0
	case 1:
		return math.Copysign(0, -1)
	case 2:
		return 1
	case 3:
		return -1
	case 4:
		return math.Inf(1)
	case 5:
		return math.Inf(-1)
	case 6:
		return math.NaN()
	case 7:
		return math.MaxFloat64
	case 8:
		return -math.MaxFloat64
	case 9:
		return 5e-324
	case 10:
		return 1e300
	case 11:
		return 2 * x
	case 12:
		return x / 2
	case 13:
		return -x
	case 14:
		return x * (1 + 0x1p-30)
	case 15:
		return x * (1 - 0x1p-30)
	case 16:
		return x + 1
	case 17:
		return x - 1
	case 18:
		return x * 1e10
	}
	return 1e-300
}

// applyEdits edits the saved tree b, whose layout is l, as edits says: up
// to 16 records of 4 bytes (op, x, y, z), each setting or flipping a byte,
// moving, setting or scaling a float of a node (or of the root box, or a
// vertex coordinate), changing a node's reference or axis, an order entry,
// or a count or option of the header. The checksum is left as it is.
func applyEdits(b []byte, l kindLayout, edits []byte) {
	le := binary.LittleEndian
	end := len(b) - 4
	for n := 0; len(edits) >= 4 && n < 16; n++ {
		op, x, y, z := edits[0], int(edits[1]), int(edits[2]), edits[3]
		edits = edits[4:]
		xy := x<<8 | y
		nodes := len(l.slots) // the nodes with floats
		switch op % 9 {
		case 0:
			b[xy%end] = z
		case 1:
			b[xy%end] ^= z
		case 2: // move a node's float by ulps
			if nodes > 0 {
				at := l.floatAt(l.slots[x%nodes], y)
				setFloat(b, at, l.fw, nudge(getFloat(b, at, l.fw), int(int8(z)), l.fw))
			}
		case 3: // set it to a special value
			if nodes > 0 {
				at := l.floatAt(l.slots[x%nodes], y)
				setFloat(b, at, l.fw, special(getFloat(b, at, l.fw), z))
			}
		case 4: // a node's reference (or a box-tree node's axis)
			if l.nn == 0 {
				continue
			}
			i := x % l.nn
			at := l.refAt(i)
			old := int32(le.Uint32(b[at:]))
			var v int32
			switch y % 7 {
			case 0:
				v = old + int32(int8(z))
			case 1:
				v = int32(int8(z))
			case 2:
				v = ^old
			case 3:
				v = ^int32(z)
			case 4:
				v = int32(le.Uint32(b[l.refAt(int(z)%l.nn):]))
			case 5:
				v = old ^ 1<<(z%32)
			default:
				if l.kind == bvh.BoxTree {
					le.PutUint32(b[at+4:], uint32(z%4))
					continue
				}
				v = int32(l.nn - i)
			}
			le.PutUint32(b[at:], uint32(v))
		case 5: // an order entry
			if l.no == 0 {
				continue
			}
			j := xy % l.no
			at := l.o + 4*j
			old := int32(le.Uint32(b[at:]))
			next := l.o + 4*((j+1)%l.no)
			switch z % 5 {
			case 0:
				le.PutUint32(b[at:], uint32(^old))
			case 1:
				d := int32(int8(z)) >> 3
				if old < 0 {
					le.PutUint32(b[at:], uint32(^(^old + d)))
				} else {
					le.PutUint32(b[at:], uint32(old+d))
				}
			case 2:
				copy(b[at:at+4], b[next:next+4])
			case 3:
				var tmp [4]byte
				copy(tmp[:], b[at:at+4])
				copy(b[at:at+4], b[next:next+4])
				copy(b[next:next+4], tmp[:])
			default:
				le.PutUint32(b[at:], uint32(int32(z>>3)%int32(l.nt+1)))
			}
		case 6: // a count (nv, nt, nn, no) or an option (rule, split, leaf sizes)
			if x&4 == 0 {
				at := l.h + 8*(x%4)
				le.PutUint64(b[at:], le.Uint64(b[at:])+uint64(int64(int8(y))))
			} else {
				at := 24 + 4*(x%4)
				le.PutUint32(b[at:], le.Uint32(b[at:])+uint32(int32(int8(y))))
			}
		case 7: // a vertex coordinate
			if l.nv == 0 {
				continue
			}
			at := l.v + 24*(xy%l.nv) + 8*(int(z)%3)
			v := getFloat(b, at, 8)
			if z&4 != 0 {
				setFloat(b, at, 8, nudge(v, int(int8(z))>>3, 8))
			} else {
				setFloat(b, at, 8, special(v, z>>3))
			}
		case 8: // scale an OBB axis (or a float of another node) by 1 + z·2^-e
			if nodes == 0 {
				continue
			}
			i := l.slots[x%nodes]
			f := 1 + float64(int8(z))*math.Ldexp(1, -(20+y%33))
			fields := []int{y % 16}
			if l.kind == bvh.OBB {
				r := 3 + 3*(y%3)
				fields = []int{r, r + 1, r + 2}
			}
			for _, fi := range fields {
				at := l.floatAt(i, fi)
				setFloat(b, at, l.fw, getFloat(b, at, l.fw)*f)
			}
		}
	}
}

// readEdited reads a copy of m's file edited as edits says, its checksum
// recomputed unless raw, and checks the outcome: an error must be a
// *mesh.FormatError at an offset within the file; a tree must be valid,
// save to the same bytes and answer exactly (at every check of the scene).
func readEdited(t testing.TB, m kindModel, edits []byte, raw bool) (*bvh.Tree, error) {
	return readEditedChecks(t, m, edits, raw, len(theKindScene().checks))
}

// readEditedChecks is readEdited making the first n checks of the scene.
func readEditedChecks(t testing.TB, m kindModel, edits []byte, raw bool, n int) (*bvh.Tree, error) {
	t.Helper()
	b := slices.Clone(m.data)
	applyEdits(b, m.l, edits)
	if !raw {
		fixCRC(b)
	}
	tr, err := bvh.Read(bytes.NewReader(b))
	if err != nil {
		var fe *mesh.FormatError
		if !errors.As(err, &fe) || fe.Format != bvh.FormatName {
			t.Fatalf("edits %x: error %v is not a *mesh.FormatError", edits, err)
		}
		if fe.Offset < 0 || fe.Offset > int64(len(b)) {
			t.Fatalf("edits %x: %v: offset outside the file of %d bytes", edits, err, len(b))
		}
		return nil, err
	}
	if err := tr.Validate(); err != nil {
		t.Fatalf("edits %x: accepted an invalid tree: %v", edits, err)
	}
	var buf bytes.Buffer
	if _, err := tr.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, buf.Bytes()) {
		t.Fatalf("edits %x: saving the tree read gives other bytes", edits)
	}
	if msg := exactAnswers(tr, m.fly, n); msg != "" {
		t.Fatalf("edits %x: %+v accepted and answers wrongly: %s", edits, m.o, msg)
	}
	return tr, nil
}

// fuzzReadKind fuzzes Read on the saved models of kind: the first byte of
// the input picks the model, the rest are edits (see applyEdits); the
// checksum is fixed after them.
func fuzzReadKind(f *testing.F, kind bvh.Kind) {
	ms := kindModels()[kind]
	for v := range ms {
		f.Add([]byte{byte(v)})
		f.Add([]byte{byte(v), 3, 0, 2, 13})          // negate the root's field 2
		f.Add([]byte{byte(v), 8, 0, 3, 5})           // scale a float (an OBB's axis 1) of the root
		f.Add([]byte{byte(v), 2, 1, 0, 0xfe})        // move node 1's first float 2 ulps down
		f.Add([]byte{byte(v), 4, 2, 2, 0})           // complement node 2's ref
		f.Add([]byte{byte(v), 5, 0, 3, 2})           // copy an order entry over another
		f.Add([]byte{byte(v), 6, 2, 0xff, 0})        // one node fewer
		f.Add([]byte{byte(v), 7, 0, 4, 4 | 0x08<<3}) // move a vertex
		f.Add([]byte{byte(v), 1, 0x07, 0x00, 0x40})  // flip a bit
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		readEdited(t, ms[int(data[0])%len(ms)], data[1:], false)
	})
}

func FuzzReadKDOP(f *testing.F)    { fuzzReadKind(f, bvh.KDOP) }
func FuzzReadOBB(f *testing.F)     { fuzzReadKind(f, bvh.OBB) }
func FuzzReadSphere(f *testing.F)  { fuzzReadKind(f, bvh.Sphere) }
func FuzzReadAABB(f *testing.F)    { fuzzReadKind(f, bvh.AABB) }
func FuzzReadBoxTree(f *testing.F) { fuzzReadKind(f, bvh.BoxTree) }
func FuzzReadRSS(f *testing.F)     { fuzzReadKind(f, bvh.RSS) }

// TestReadBoxTreeFlips flips every byte of small saved box-trees, with the
// checksum left as it is and recomputed: Read must never panic, and return
// a *mesh.FormatError or a tree that answers exactly (at the scene's first
// checks, without a tolerance, to keep the test short: the fuzz targets
// make them all). By default every other byte, the odd ones in one model
// and the even in the other; every byte with COLLIDE_LONG_TESTS=1.
func TestReadBoxTreeFlips(t *testing.T) {
	for mi, m := range kindModels()[bvh.BoxTree] {
		accepted := 0
		for i := range len(m.data) - 4 {
			if !longtest.Enabled() && i%2 != mi%2 {
				continue // by default every other byte, in turn
			}
			for _, x := range []byte{0xff, 1 << (i % 8)} {
				edit := []byte{1, byte(i >> 8), byte(i), x}
				if _, err := readEdited(t, m, edit, true); err == nil {
					t.Fatalf("%+v: byte %d ^ %#x accepted with the old checksum", m.o, i, x)
				}
				if tr, _ := readEditedChecks(t, m, edit, false, 2); tr != nil {
					accepted++
				}
			}
		}
		if accepted == 0 {
			t.Errorf("%+v: no flip accepted; a weak test", m.o)
		}
	}
}

// subtreeTris returns the triangles below node i of t.
func subtreeTris(t *bvh.Tree, i int, dst []int32) []int32 {
	_, l, r, tris := t.Node(i, nil)
	if l < 0 {
		return append(dst, tris...)
	}
	return subtreeTris(t, r, subtreeTris(t, l, dst))
}

// subtreeVerts returns the vertices of the triangles below each node of t.
func subtreeVerts(t *bvh.Tree) [][]geom.Vec3 {
	m := t.Mesh()
	out := make([][]geom.Vec3, t.Nodes())
	for i := range out {
		for _, tr := range subtreeTris(t, i, nil) {
			for _, x := range m.Tris[tr] {
				out[i] = append(out[i], m.Verts[x])
			}
		}
	}
	return out
}

// ratFloat returns x rounded to float64.
func ratFloat(x *big.Rat) float64 {
	f, _ := x.Float64()
	return f
}

// ratOf returns x as a rational.
func ratOf(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

// leastAbove returns the least float64 y ≥ 0 with cmp(y) true, for a
// condition that holds from some y on, starting from the estimate y0.
func leastAbove(y0 float64, ok func(y float64) bool) float64 {
	y := max(y0, 0)
	for !ok(y) {
		y = math.Nextafter(y, math.Inf(1))
	}
	for y > 0 && ok(math.Nextafter(y, 0)) {
		y = math.Nextafter(y, 0)
	}
	return y
}

// TestReadTightVolumes sets the radii and half-extents of saved OBB,
// sphere and AABB trees to the least float64 values that contain their
// vertices, computed in rational arithmetic: Read must accept the trees
// (the containment tests are exact, the float64 filters never decide such
// cases) and they must answer exactly (the padding covers what the volumes
// no longer do); one ulp less on any one of them must be rejected.
func TestReadTightVolumes(t *testing.T) {
	le := binary.LittleEndian
	for _, kind := range []bvh.Kind{bvh.OBB, bvh.Sphere, bvh.AABB} {
		for _, m := range kindModels()[kind] {
			orig := must(bvh.Read(bytes.NewReader(m.data)))
			verts := subtreeVerts(orig)
			l := m.l
			f := func(b []byte, i, k int) float64 { return getFloat(b, l.floatAt(i, k), 8) }
			b := slices.Clone(m.data)
			var extents [][2]int // the node and field of every extent
			for _, i := range l.slots {
				c := geom.V(f(b, i, 0), f(b, i, 1), f(b, i, 2))
				switch kind {
				case bvh.Sphere:
					var d2 big.Rat // the largest squared distance
					for _, p := range verts[i] {
						var s, x big.Rat
						for k := range 3 {
							x.Sub(ratOf(p.Index(k)), ratOf(c.Index(k)))
							s.Add(&s, x.Mul(&x, &x))
						}
						if s.Cmp(&d2) > 0 {
							d2.Set(&s)
						}
					}
					r := leastAbove(math.Sqrt(ratFloat(&d2)), func(y float64) bool {
						ry := ratOf(y)
						return ry.Mul(ry, ry).Cmp(&d2) >= 0
					})
					setFloat(b, l.floatAt(i, 3), 8, r)
					extents = append(extents, [2]int{i, 3})
				case bvh.AABB:
					for k := range 3 {
						var need big.Rat // the largest |p_k − c_k|
						for _, p := range verts[i] {
							var x big.Rat
							x.Sub(ratOf(p.Index(k)), ratOf(c.Index(k)))
							if x.Abs(&x).Cmp(&need) > 0 {
								need.Set(&x)
							}
						}
						h := leastAbove(ratFloat(&need), func(y float64) bool { return ratOf(y).Cmp(&need) >= 0 })
						setFloat(b, l.floatAt(i, 3+k), 8, h)
						extents = append(extents, [2]int{i, 3 + k})
					}
				case bvh.OBB:
					for k := range 3 {
						var need big.Rat // the largest |a_k·(p − c)|
						for _, p := range verts[i] {
							var s, x big.Rat
							for j := range 3 {
								x.Sub(ratOf(p.Index(j)), ratOf(c.Index(j)))
								s.Add(&s, x.Mul(&x, ratOf(f(b, i, 3+3*k+j))))
							}
							if s.Abs(&s).Cmp(&need) > 0 {
								need.Set(&s)
							}
						}
						h := leastAbove(ratFloat(&need), func(y float64) bool { return ratOf(y).Cmp(&need) >= 0 })
						setFloat(b, l.floatAt(i, 12+k), 8, h)
						extents = append(extents, [2]int{i, 12 + k})
					}
				}
			}
			fixCRC(b)
			tight := kindModel{o: m.o, data: b, l: l, fly: m.fly}
			if _, err := readEdited(t, tight, nil, false); err != nil {
				t.Fatalf("%v %+v: the tightest volumes rejected: %v", kind, m.o, err)
			}
			for n, e := range extents {
				if n%7 != 0 && n != len(extents)-1 {
					continue // a sample, to keep the test short
				}
				c := slices.Clone(b)
				at := l.floatAt(e[0], e[1])
				le.PutUint64(c[at:], math.Float64bits(math.Nextafter(getFloat(c, at, 8), 0)))
				fixCRC(c)
				_, err := bvh.Read(bytes.NewReader(c))
				if err == nil {
					t.Fatalf("%v %+v: node %d field %d one ulp below the tightest accepted", kind, m.o, e[0], e[1])
				}
				if fe := formatError(t, "tight", err); !strings.Contains(fe.Msg, "does not contain") {
					t.Errorf("%v %+v: node %d field %d: %v", kind, m.o, e[0], e[1], err)
				}
			}
		}
	}
}

// forgeCase is a saved model edited with its checksum recomputed, and what
// Read must say: msg in the message of its error, at the offset at (if not
// nil), or, for msg "", accept it and answer exactly.
type forgeCase struct {
	name    string
	kind    bvh.Kind
	variant int
	edit    func(b []byte, l kindLayout, tr *bvh.Tree)
	msg     string
	at      func(l kindLayout, tr *bvh.Tree) int
}

// firstLeaf returns the first leaf of tr with at least n triangles.
func firstLeaf(tr *bvh.Tree, n int) int {
	for i := range tr.Nodes() {
		if _, l, _, tris := tr.Node(i, nil); l < 0 && len(tris) >= n {
			return i
		}
	}
	panic("no such leaf")
}

// rows returns node i's OBB axes (rows) as saved in b.
func rows(b []byte, l kindLayout, i int) [3]geom.Vec3 {
	var a [3]geom.Vec3
	for k := range 3 {
		a[k] = geom.V(getFloat(b, l.floatAt(i, 3+3*k), 8), getFloat(b, l.floatAt(i, 4+3*k), 8), getFloat(b, l.floatAt(i, 5+3*k), 8))
	}
	return a
}

// setOBB stores axes a for node i of b, with half-extents that contain the
// node's vertices (verts) in their slab form, with a relative margin of
// 1e-9 that covers the rounding of the check.
func setOBB(b []byte, l kindLayout, i int, a [3]geom.Vec3, verts []geom.Vec3) {
	c := geom.V(getFloat(b, l.floatAt(i, 0), 8), getFloat(b, l.floatAt(i, 1), 8), getFloat(b, l.floatAt(i, 2), 8))
	for k := range 3 {
		h := 0.0
		for _, p := range verts {
			h = max(h, math.Abs(a[k].Dot(p.Sub(c))))
		}
		setFloat(b, l.floatAt(i, 12+k), 8, h*(1+1e-9)+1e-12)
		for j, x := range [3]float64{a[k].X, a[k].Y, a[k].Z} {
			setFloat(b, l.floatAt(i, 3+3*k+j), 8, x)
		}
	}
}

func TestReadForgedVolumes(t *testing.T) {
	le := binary.LittleEndian
	scale := func(b []byte, at int, f float64) { setFloat(b, at, 8, getFloat(b, at, 8)*f) }
	// nodeAt(i, off) is the offset of the field at off in node i's record
	// of the first layout (its volume's float64s, then its ref).
	nodeAt := func(i, off int) func(l kindLayout, tr *bvh.Tree) int {
		return func(l kindLayout, tr *bvh.Tree) int {
			if off == l.ref {
				return l.refAt(i)
			}
			return l.floatAt(i, off/8)
		}
	}
	// deepest returns the last internal node in layout order: one whose
	// children are leaves.
	deepest := func(l kindLayout) int { return l.slots[len(l.slots)-1] }
	cases := []forgeCase{
		// The sphere trees: negative radii lose every pair.
		{"sphere-negative-all", bvh.Sphere, 0, func(b []byte, l kindLayout, tr *bvh.Tree) {
			for _, i := range l.slots {
				scale(b, l.floatAt(i, 3), -1)
			}
		}, "node 0: radius -", nodeAt(0, 24)},
		{"sphere-negative-deep", bvh.Sphere, 1, func(b []byte, l kindLayout, tr *bvh.Tree) {
			scale(b, l.floatAt(deepest(l), 3), -1)
		}, "is negative", func(l kindLayout, tr *bvh.Tree) int { return l.floatAt(deepest(l), 3) }},
		{"sphere-radius-inf", bvh.Sphere, 0, func(b []byte, l kindLayout, tr *bvh.Tree) {
			setFloat(b, l.floatAt(0, 3), 8, math.Inf(1))
		}, "radius +Inf is not finite", nodeAt(0, 24)},
		{"sphere-far", bvh.Sphere, 0, func(b []byte, l kindLayout, tr *bvh.Tree) {
			setFloat(b, l.floatAt(0, 0), 8, getFloat(b, l.floatAt(0, 0), 8)+10)
			setFloat(b, l.floatAt(0, 3), 8, getFloat(b, l.floatAt(0, 3), 8)+10)
		}, "beyond 2 times the model's largest coordinate", nodeAt(0, 0)},
		// The OBB trees: axes not orthonormal, or not unit.
		{"obb-scaled-axis", bvh.OBB, 0, func(b []byte, l kindLayout, tr *bvh.Tree) {
			for j := range 3 {
				scale(b, l.floatAt(0, 3+j), 2)
			}
			scale(b, l.floatAt(0, 12), 0.5)
		}, "node 0: OBB axes 0 and 0 are not orthonormal", nodeAt(0, 24)},
		{"obb-unit-off", bvh.OBB, 1, func(b []byte, l kindLayout, tr *bvh.Tree) {
			for _, i := range l.slots {
				for j := range 9 {
					scale(b, l.floatAt(i, 3+j), 1+0x1p-40)
				}
			}
		}, "not orthonormal", nodeAt(0, 24)},
		{"obb-shear", bvh.OBB, 0, func(b []byte, l kindLayout, tr *bvh.Tree) {
			verts := subtreeVerts(tr)
			for _, i := range l.slots {
				a := rows(b, l, i)
				a[1] = a[1].Add(a[0].Scale(0.3))
				a[1] = a[1].Scale(1 / math.Sqrt(a[1].Dot(a[1]))) // unit, not orthogonal
				setOBB(b, l, i, a, verts[i])
			}
		}, "node 0: OBB axes 0 and 1 are not orthonormal", nodeAt(0, 24)},
		{"obb-permuted", bvh.OBB, 0, func(b []byte, l kindLayout, tr *bvh.Tree) {
			verts := subtreeVerts(tr)
			for _, i := range l.slots {
				a := rows(b, l, i)
				setOBB(b, l, i, [3]geom.Vec3{a[2], a[0], a[1]}, verts[i])
			}
		}, "", nil},
		{"obb-left-handed", bvh.OBB, 1, func(b []byte, l kindLayout, tr *bvh.Tree) {
			for _, i := range l.slots {
				for j := range 3 {
					scale(b, l.floatAt(i, 9+j), -1)
				}
			}
		}, "", nil},
		{"obb-inf-all", bvh.OBB, 0, func(b []byte, l kindLayout, tr *bvh.Tree) {
			for k := range 3 {
				setFloat(b, l.floatAt(0, 12+k), 8, math.Inf(1))
				setFloat(b, l.floatAt(1, 12+k), 8, math.Inf(1))
			}
		}, "", nil},
		{"obb-inf-one", bvh.OBB, 0, func(b []byte, l kindLayout, tr *bvh.Tree) {
			setFloat(b, l.floatAt(2, 13), 8, math.Inf(1))
		}, "node 2: half-extent +Inf is not finite", nodeAt(2, 104)},
		{"obb-negative-half", bvh.OBB, 1, func(b []byte, l kindLayout, tr *bvh.Tree) {
			scale(b, l.floatAt(0, 14), -1)
		}, "node 0: half-extent -", nodeAt(0, 112)},
		{"obb-far", bvh.OBB, 0, func(b []byte, l kindLayout, tr *bvh.Tree) {
			i := deepest(l)
			for k := range 3 {
				setFloat(b, l.floatAt(i, k), 8, 0)
			}
			setOBB(b, l, i, rows(b, l, i), subtreeVerts(tr)[i])
			setFloat(b, l.floatAt(i, 1), 8, 10) // no longer contains its vertices, but too far first
		}, "centre coordinate 10 is not finite or beyond", func(l kindLayout, tr *bvh.Tree) int { return l.floatAt(deepest(l), 1) }},
		{"obb-leaf-size", bvh.OBB, 1, func(b []byte, l kindLayout, tr *bvh.Tree) {
			le.PutUint32(b[32:], 2)
		}, "holds more than 2 triangles", nil},
		{"aabb-negative", bvh.AABB, 0, func(b []byte, l kindLayout, tr *bvh.Tree) {
			scale(b, l.floatAt(3, 4), -1)
		}, "node 3: half-extent -", nodeAt(3, 32)},
		{"aabb-far", bvh.AABB, 1, func(b []byte, l kindLayout, tr *bvh.Tree) {
			setFloat(b, l.floatAt(0, 2), 8, getFloat(b, l.floatAt(0, 2), 8)+100)
			setFloat(b, l.floatAt(0, 5), 8, getFloat(b, l.floatAt(0, 5), 8)+100)
		}, "node 0: aabb centre coordinate", nodeAt(0, 16)},
		{"aabb-order-twice", bvh.AABB, 1, func(b []byte, l kindLayout, tr *bvh.Tree) {
			v := int32(le.Uint32(b[l.o:]))
			if v < 0 {
				v = ^v
			}
			le.PutUint32(b[l.o+8:], uint32(v)) // entry 2 not the last of its leaf
			if int32(le.Uint32(b[l.o+8+4:])) >= 0 {
				le.PutUint32(b[l.o+8:], uint32(^v))
			}
		}, "triangle", nil},
		{"sphere-order-runs-past", bvh.Sphere, 1, func(b []byte, l kindLayout, tr *bvh.Tree) {
			at := l.o + 4*(l.no-1)
			le.PutUint32(b[at:], ^le.Uint32(b[at:]))
		}, "runs past the end of the order", nil},
	}
	runForged(t, cases)
}

// runForged runs forged cases.
func runForged(t *testing.T, cases []forgeCase) {
	for _, c := range cases {
		m := kindModels()[c.kind][c.variant]
		tr := must(bvh.Read(bytes.NewReader(m.data)))
		b := slices.Clone(m.data)
		c.edit(b, m.l, tr)
		fixCRC(b)
		edited := kindModel{o: m.o, data: b, l: m.l, fly: m.fly}
		got, err := readEdited(t, edited, nil, false)
		switch {
		case c.msg == "" && err != nil:
			t.Errorf("%s: rejected: %v", c.name, err)
		case c.msg == "":
		case err == nil:
			t.Errorf("%s: accepted (%d nodes)", c.name, got.Nodes())
		default:
			fe := formatError(t, c.name, err)
			if !strings.Contains(fe.Msg, c.msg) {
				t.Errorf("%s: %v, want %q", c.name, err, c.msg)
			}
			if c.at != nil && fe.Offset != int64(c.at(m.l, tr)) {
				t.Errorf("%s: %v: offset %d, want %d", c.name, err, fe.Offset, c.at(m.l, tr))
			}
		}
	}
}

func TestReadForgedBoxTrees(t *testing.T) {
	le := binary.LittleEndian
	// leafRef returns the offset of the ref of the first leaf of at least
	// n triangles.
	leafRef := func(l kindLayout, tr *bvh.Tree, n int) int { return l.n + firstLeaf(tr, n)*l.node + 16 }
	cases := []forgeCase{
		{"hi-above", bvh.BoxTree, 0, func(b []byte, l kindLayout, tr *bvh.Tree) {
			a := int(le.Uint32(b[l.n+20:]))
			setFloat(b, l.n, 8, getFloat(b, l.root+24+8*a, 8)+1)
		}, "node 0: the left child's upper bound", func(l kindLayout, tr *bvh.Tree) int { return l.n }},
		{"lo-inf", bvh.BoxTree, 0, func(b []byte, l kindLayout, tr *bvh.Tree) {
			setFloat(b, l.n+8, 8, math.Inf(-1))
		}, "node 0: the right child's lower bound -Inf is not finite", func(l kindLayout, tr *bvh.Tree) int { return l.n + 8 }},
		{"root-far", bvh.BoxTree, 1, func(b []byte, l kindLayout, tr *bvh.Tree) {
			setFloat(b, l.root+24, 8, 100)
		}, "root box coordinate 100 is not finite or beyond", func(l kindLayout, tr *bvh.Tree) int { return l.root + 24 }},
		{"root-small", bvh.BoxTree, 1, func(b []byte, l kindLayout, tr *bvh.Tree) {
			setFloat(b, l.root+32, 8, getFloat(b, l.root+32, 8)/2)
		}, "the root box does not contain triangle", nil},
		{"shared-run", bvh.BoxTree, 0, func(b []byte, l kindLayout, tr *bvh.Tree) {
			i := firstLeaf(tr, 1)
			j := i + 1
			for l.nn > j && int32(le.Uint32(b[l.n+j*l.node+16:])) >= 0 {
				j++
			}
			copy(b[l.n+j*l.node+16:][:4], b[l.n+i*l.node+16:])
		}, "start at order entry 0 where entry", nil},
		{"twice-in-leaf", bvh.BoxTree, 1, func(b []byte, l kindLayout, tr *bvh.Tree) {
			first := int(^int32(le.Uint32(b[leafRef(l, tr, 3):])))
			copy(b[l.o+4*(first+1):][:4], b[l.o+4*first:])
		}, "is twice in leaf", nil},
		{"runs-past", bvh.BoxTree, 0, func(b []byte, l kindLayout, tr *bvh.Tree) {
			at := l.o + 4*(l.no-1)
			le.PutUint32(b[at:], ^le.Uint32(b[at:]))
		}, "runs past the end of the order", nil},
		{"order-range", bvh.BoxTree, 0, func(b []byte, l kindLayout, tr *bvh.Tree) {
			le.PutUint32(b[l.o+4:], uint32(l.nt+7))
		}, "order entry 1: triangle", func(l kindLayout, tr *bvh.Tree) int { return l.o + 4 }},
		{"order-complement-range", bvh.BoxTree, 1, func(b []byte, l kindLayout, tr *bvh.Tree) {
			le.PutUint32(b[l.o+8:], 1<<31)
		}, "order entry 2: triangle", func(l kindLayout, tr *bvh.Tree) int { return l.o + 8 }},
		{"one-node-fewer", bvh.BoxTree, 0, func(b []byte, l kindLayout, tr *bvh.Tree) {
			le.PutUint64(b[l.h+16:], uint64(l.nn-1))
		}, "", nil},
		{"axis", bvh.BoxTree, 1, func(b []byte, l kindLayout, tr *bvh.Tree) {
			le.PutUint32(b[l.n+20:], 3)
		}, "node 0: axis 3", func(l kindLayout, tr *bvh.Tree) int { return l.n + 20 }},
	}
	// "one-node-fewer" must fail, whatever the message.
	cases[9].msg = " "
	runForged(t, cases)
}

// combBoxTree returns a saved box-tree over m of d cuts in a comb, each
// leaf holding every triangle: cut k (node k) has its left child next and
// its right child a leaf, the last cut's left child is a leaf too; every
// cut is on axis 0, at the root box's bounds. It is valid for d ≤ 64 (d + 1
// levels).
func combBoxTree(m *mesh.TriMesh, d int) []byte {
	le := binary.LittleEndian
	var b []byte
	u32 := func(v uint32) { b = le.AppendUint32(b, v) }
	u64 := func(v uint64) { b = le.AppendUint64(b, v) }
	f64 := func(x float64) { u64(math.Float64bits(x)) }
	nt := len(m.Tris)
	b = append(b, bvh.Magic...)
	for _, v := range []uint32{1, uint32(bvh.BoxTree) + 1, 0, 8, 0, 0, 1, 0} {
		u32(v)
	}
	for _, v := range []int{len(m.Verts), nt, 2*d + 1, nt * (d + 1)} {
		u64(uint64(v))
	}
	for _, p := range m.Verts {
		f64(p.X)
		f64(p.Y)
		f64(p.Z)
	}
	for _, t := range m.Tris {
		u32(uint32(t[0]))
		u32(uint32(t[1]))
		u32(uint32(t[2]))
	}
	r := m.Bounds()
	for _, x := range []float64{r.Min.X, r.Min.Y, r.Min.Z, r.Max.X, r.Max.Y, r.Max.Z} {
		f64(x)
	}
	// Nodes: cuts 0 to d-1, the deepest left leaf (d), then the right
	// leaves of cuts d-1 down to 0; leaf j in layout order lists order
	// entries j·nt to (j+1)·nt - 1.
	for k := range d {
		f64(r.Max.X)
		f64(r.Min.X)
		u32(uint32(2*d - 2*k))
		u32(0)
	}
	for j := range d + 1 {
		f64(0)
		f64(0)
		u32(uint32(^int32(j * nt)))
		u32(0)
	}
	for range d + 1 {
		for t := range nt {
			if t == nt-1 {
				u32(uint32(^int32(t)))
			} else {
				u32(uint32(t))
			}
		}
	}
	u32(crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)))
	return b
}

// TestReadBoxTreeDepth reads box-trees as deep as Build makes them and one
// level deeper, each leaf holding every triangle: the first answers
// exactly, each pair once; the second is rejected.
func TestReadBoxTreeDepth(t *testing.T) {
	sc := theKindScene()
	m := kindModels()[bvh.BoxTree][0]
	for _, d := range []int{1, 64} {
		data := combBoxTree(sc.env, d)
		deep := kindModel{o: m.o, data: data, l: parseKindLayout(data), fly: m.fly}
		tr, err := readEdited(t, deep, nil, false)
		if err != nil {
			t.Fatalf("%d cuts: %v", d, err)
		}
		if tr.Height() != d+1 {
			t.Errorf("%d cuts: height %d", d, tr.Height())
		}
	}
	data := combBoxTree(sc.env, 65)
	_, err := bvh.Read(bytes.NewReader(data))
	l := parseKindLayout(data)
	if fe := formatError(t, "65 cuts", err); !strings.Contains(fe.Msg, "node 65: tree deeper than 65 levels") || fe.Offset != int64(l.n+65*l.node) {
		t.Errorf("65 cuts: %v at %d", err, fe.Offset)
	}
}

// BenchmarkReadKinds reads the model of BenchmarkRead saved with a tree of
// each kind.
func BenchmarkReadKinds(b *testing.B) {
	for _, o := range []bvh.Options{{}, {Kind: bvh.OBB}, {Kind: bvh.Sphere}, {Kind: bvh.AABB}, {Kind: bvh.RSS}, {Kind: bvh.BoxTree}} {
		b.Run(o.Kind.String(), func(b *testing.B) {
			_, data := encSave(b, benchModel(), o)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bvh.Read(bytes.NewReader(data)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestReadHugeVolumes reads trees of every kind over a model whose
// coordinates reach 10^300, where squares and some differences overflow:
// they load and answer exactly, and a radius or half-extent of the root
// shrunk by a millionth is rejected.
func TestReadHugeVolumes(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	const h = 1e300
	m := testgeom.RandomSoup(rng, 40, geom.AABB{Min: geom.V(-h, -h, -h), Max: geom.V(h, h, h)}, h/3)
	id := geom.Identity()
	want := testgeom.Brute(m, m, id, 0)
	if len(want) <= len(m.Tris) {
		t.Fatalf("%d pairs: no contacts between different triangles; a weak test", len(want))
	}
	for _, o := range []bvh.Options{{Kind: bvh.OBB}, {Kind: bvh.Sphere}, {Kind: bvh.AABB, Leaf: 2}, {Kind: bvh.RSS, Leaf: 2}, {Kind: bvh.BoxTree}, {K: bv.K18}} {
		_, data := encSave(t, m, o)
		tr, err := bvh.Read(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%v: %v", o.Kind, err)
		}
		if got := pairsAt(tr, tr, id); !slices.Equal(got, want) {
			t.Errorf("%v: %d pairs, oracle %d", o.Kind, len(got), len(want))
		}
		l := parseKindLayout(data)
		var fields []int
		switch o.Kind {
		case bvh.OBB:
			fields = []int{12, 13, 14}
		case bvh.Sphere:
			fields = []int{3}
		case bvh.AABB:
			fields = []int{3, 4, 5}
		case bvh.RSS:
			// bv.FitRSS gives the volume around every point (R = +Inf)
			// where the squares of the distances overflow, as here.
			if r := getFloat(data, l.floatAt(0, 14), 8); !math.IsInf(r, 1) {
				fields = []int{14}
			}
		}
		for _, f := range fields {
			b := slices.Clone(data)
			at := l.floatAt(0, f)
			setFloat(b, at, 8, getFloat(b, at, 8)*(1-1e-6))
			fixCRC(b)
			_, err := bvh.Read(bytes.NewReader(b))
			if fe := formatError(t, o.Kind.String(), err); !strings.Contains(fe.Msg, "does not contain") {
				t.Errorf("%v field %d shrunk: %v", o.Kind, f, err)
			}
		}
	}
}

// TestReadLayout1 reads OBB, sphere, AABB and RSS trees saved in the first
// node layout (a volume for every node, leaves too: testdata/layout1, saved
// before leaves lost their volumes): they load and answer exactly, save in
// the second layout (read back alike, smaller), and a leaf's volume that no
// longer contains its triangles is rejected, at its bytes: every volume a
// file holds is checked.
func TestReadLayout1(t *testing.T) {
	sc := theKindScene()
	fields := map[bvh.Kind][]int{
		bvh.OBB: {12, 13, 14}, bvh.Sphere: {3}, bvh.AABB: {3, 4, 5}, bvh.RSS: {12, 13, 14},
	}
	for _, kind := range []bvh.Kind{bvh.OBB, bvh.Sphere, bvh.AABB, bvh.RSS} {
		data, err := os.ReadFile("testdata/layout1/" + kind.String() + ".collide")
		if err != nil {
			t.Fatal(err)
		}
		l := parseKindLayout(data)
		if l.noLeaf {
			t.Fatalf("%v: testdata in the second layout", kind)
		}
		tr, err := bvh.Read(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%v: %v", kind, err)
		}
		if err := tr.Validate(); err != nil {
			t.Fatalf("%v: %v", kind, err)
		}
		fly := must(bvh.Build(sc.fly, tr.Options()))
		if msg := exactAnswers(tr, fly, len(sc.checks)); msg != "" {
			t.Fatalf("%v: %s", kind, msg)
		}
		var buf bytes.Buffer
		if _, err := tr.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		l2 := parseKindLayout(buf.Bytes())
		if !l2.noLeaf || buf.Len() >= len(data) {
			t.Errorf("%v: saved again in %d bytes (first layout %d), second layout %v", kind, buf.Len(), len(data), l2.noLeaf)
		}
		again, err := bvh.Read(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("%v: saved again: %v", kind, err)
		}
		if msg := exactAnswers(again, fly, len(sc.checks)); msg != "" {
			t.Fatalf("%v saved again: %s", kind, msg)
		}
		i := firstLeaf(tr, 1)
		b := slices.Clone(data)
		for _, f := range fields[kind] {
			at := l.floatAt(i, f)
			setFloat(b, at, 8, getFloat(b, at, 8)/2)
		}
		fixCRC(b)
		_, err = bvh.Read(bytes.NewReader(b))
		if fe := formatError(t, kind.String(), err); !strings.Contains(fe.Msg, "does not contain") || fe.Offset != int64(l.floatAt(i, 0)) {
			t.Errorf("%v: leaf %d shrunk: %v at %d, want %d", kind, i, err, fe.Offset, l.floatAt(i, 0))
		}
	}
}
