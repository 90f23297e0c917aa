package distance

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/collide3d/collide/bench/peers"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/mesh/obj"
)

// distanceTestScene is the small scene of the distance tests: a torus
// (major radius 2, tube radius 0.5, about 200 triangles) around the z axis
// and a sphere of radius 0.4 (180 triangles), with poses far apart, near,
// touching (a vertex on a vertex, within rounding) and overlapping.
func distanceTestScene(t *testing.T) (env, fly *mesh.TriMesh, poses []geom.Pose, names []string) {
	t.Helper()
	env, err := gen.Torus(geom.V(0, 0, 0), 2, 0.5, 200)
	if err != nil {
		t.Fatal(err)
	}
	fly, err = gen.Icosphere(geom.V(0, 0, 0), 0.4, 180)
	if err != nil {
		t.Fatal(err)
	}
	// Touching: fly's lowest vertex on env's highest (the one nearest to
	// (2, 0)); the rest of the sphere is above that plane, the top of the
	// tube below it.
	top, bottom := env.Verts[0], fly.Verts[0]
	for _, v := range env.Verts {
		if v.Z > top.Z || v.Z == top.Z && v.Distance(geom.V(2, 0, v.Z)) < top.Distance(geom.V(2, 0, top.Z)) {
			top = v
		}
	}
	for _, v := range fly.Verts {
		if v.Z < bottom.Z {
			bottom = v
		}
	}
	touch := top.Sub(bottom)
	add := func(name string, p geom.Pose) {
		poses = append(poses, p)
		names = append(names, name)
	}
	add("far", geom.FromAxisAngle(geom.V(1, 2, 3), 1, geom.V(10, 10, 10)))
	add("far above", geom.Translation(geom.V(0, 0, 5)))
	add("center of the hole", geom.FromAxisAngle(geom.V(0, 0, 1), 0.3, geom.V(0, 0, 0)))
	add("inside the tube", geom.FromAxisAngle(geom.V(1, 0, 0), 0.7, geom.V(2, 0, 0)))
	add("near, rotated", geom.FromAxisAngle(geom.V(1, -2, 0.5), 4, geom.V(-1.2, 1.9, 0.35)))
	add("near the outer rim", geom.FromAxisAngle(geom.V(0, 1, 0), 2.5, geom.V(2.95, 0.1, 0)))
	add("just above", geom.Translation(touch.Add(geom.V(0, 0, 1e-3))))
	add("touching", geom.Translation(touch))
	add("overlapping", geom.Translation(geom.V(2.3, 0.1, 0.1)))
	add("overlapping, rotated", geom.FromAxisAngle(geom.V(1, 1, 1), 1, geom.V(1.4, 1.4, 0.3)))
	return env, fly, poses, names
}

// writeDistanceFiles writes the scene's meshes and poses into dir.
func writeDistanceFiles(t *testing.T, dir string, env, fly *mesh.TriMesh, poses []geom.Pose) (envPath, flyPath, posesPath string) {
	t.Helper()
	envPath, flyPath, posesPath = filepath.Join(dir, "env.obj"), filepath.Join(dir, "fly.obj"), filepath.Join(dir, "poses.txt")
	write := func(path string, fn func(f *os.File) error) {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := errors.Join(fn(f), f.Close()); err != nil {
			t.Fatal(err)
		}
	}
	write(envPath, func(f *os.File) error { return obj.Encode(f, env) })
	write(flyPath, func(f *os.File) error { return obj.Encode(f, fly) })
	write(posesPath, func(f *os.File) error { return flight.WritePoses(f, "distance test", poses) })
	return envPath, flyPath, posesPath
}

func TestDistancePeerParse(t *testing.T) {
	const build = `{"build":{"system":"fcl-rss","mode":"distance","seconds":0.5,"bytes":100,"peak_bytes":200,"env_triangles":10,"fly_triangles":20}}` + "\n"
	const pose0 = `{"pose":0,"distance":1.5,"env":3,"fly":19,"p_env":[1,2,3],"p_fly":[4,5,6],"ns":1234}` + "\n"
	const pose1 = `{"pose":1,"distance":0,"env":9,"fly":0,"p_env":[null,0,0],"p_fly":[0,0,0],"ns":5}` + "\n"
	b, got, err := ParsePeer(strings.NewReader(build+pose0+pose1), "fcl-rss", 2)
	if err != nil {
		t.Fatal(err)
	}
	if b.System != "fcl-rss" || b.Build != 500*time.Millisecond || b.Bytes != 100 || b.Peak != 200 || b.EnvTris != 10 || b.FlyTris != 20 {
		t.Errorf("build %+v", b)
	}
	want0 := PeerDistance{Pose: 0, Distance: 1.5, Env: 3, Fly: 19, PEnv: geom.V(1, 2, 3), PFly: geom.V(4, 5, 6), Nanos: 1234}
	if len(got) != 2 || got[0] != want0 {
		t.Fatalf("got %+v, want [%+v ...]", got, want0)
	}
	if got[1].Pose != 1 || got[1].Env != 9 || !math.IsNaN(got[1].PEnv.X) || got[1].Nanos != 5 {
		t.Errorf("pose 1: %+v (want a NaN x for null)", got[1])
	}

	for _, c := range []struct {
		name, text string
		poses      int
		line       int
		msg        string
	}{
		{"empty", "", 1, 1, "no build line"},
		{"no build line", pose0, 1, 1, "not the build line"},
		{"other system", strings.Replace(build, "fcl-rss", "fcl-obbrss", 1), 1, 1, "build line of system"},
		{"not JSON", build + "{pose\n", 1, 2, "invalid"},
		{"missing field", build + `{"pose":0,"distance":1,"env":1,"fly":1,"p_env":[0,0,0],"ns":1}` + "\n", 1, 2, "want the fields"},
		{"pose out of order", build + pose1, 1, 2, "pose 1, want 0"},
		{"env out of range", build + strings.Replace(pose0, `"env":3`, `"env":10`, 1), 1, 2, "env triangle 10 out of range"},
		{"fly out of range", build + strings.Replace(pose0, `"fly":19`, `"fly":-2`, 1), 1, 2, "fly triangle -2 out of range"},
		{"short point", build + strings.Replace(pose0, `[4,5,6]`, `[4,5]`, 1), 1, 2, "3 coordinates"},
		{"too few lines", build + pose0, 2, 3, "1 pose lines, want 2"},
		{"too many lines", build + pose0 + pose1, 1, 3, "more lines than the 1 poses"},
	} {
		_, _, err := ParsePeer(strings.NewReader(c.text), "fcl-rss", c.poses)
		var oe *peers.OutputError
		if !errors.As(err, &oe) {
			t.Errorf("%s: error %v, want a *peers.OutputError", c.name, err)
			continue
		}
		if oe.Line != c.line || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v (line %d), want line %d and %q", c.name, err, oe.Line, c.line, c.msg)
		}
	}
}

// problemKinds returns the kinds of the problems in err.
func problemKinds(err error) []WitnessProblem {
	var out []WitnessProblem
	for _, w := range WitnessProblems(err) {
		out = append(out, w.Problem)
	}
	return out
}

func TestDistanceWitnessCheck(t *testing.T) {
	env, fly, poses, names := distanceTestScene(t)
	const tol = 1e-9
	for i, pose := range poses {
		dist, e, f := BruteForceDistance(env, fly, pose)
		_, pe, pf := geom.TriTriDistance(env.Triangle(int(e)), pose.ApplyTriangle(fly.Triangle(int(f))))
		good := PeerDistance{Pose: i, Distance: dist, Env: e, Fly: f, PEnv: pe, PFly: pf}
		if err := CheckWitness(env, fly, pose, good, tol); err != nil {
			t.Errorf("%s: brute force's own answer: %v", names[i], err)
		}
		if dist < 1e-6 {
			continue // contact, or within rounding of it
		}
		// A distance 1% too large, with its points: the value is wrong.
		bad := good
		bad.Distance *= 1.01
		if got := problemKinds(CheckWitness(env, fly, pose, bad, tol)); !slices.Contains(got, WitnessDistance) {
			t.Errorf("%s: a distance 1%% off: problems %v, want %v among them", names[i], got, WitnessDistance)
		}
		// Points in the flying model's frame instead of the world's.
		local := good
		local.PFly = pose.Inverse().Apply(pf)
		if got := problemKinds(CheckWitness(env, fly, pose, local, tol)); !slices.Contains(got, WitnessPoint) || slices.Contains(got, WitnessDistance) {
			t.Errorf("%s: p_fly in the local frame: problems %v, want %v and not %v", names[i], got, WitnessPoint, WitnessDistance)
		}
		// The env triangle farthest from the witness point.
		other := good
		for k := range env.NumTriangles() {
			if env.Triangle(k).Centroid().Distance(pe) > env.Triangle(int(other.Env)).Centroid().Distance(pe) {
				other.Env = int32(k)
			}
		}
		if got := problemKinds(CheckWitness(env, fly, pose, other, tol)); !slices.Contains(got, WitnessPoint) {
			t.Errorf("%s: another env triangle: problems %v, want %v", names[i], got, WitnessPoint)
		}
		none := good
		none.Fly = -1
		if got := problemKinds(CheckWitness(env, fly, pose, none, tol)); !slices.Contains(got, WitnessTriangle) {
			t.Errorf("%s: no fly triangle: problems %v, want %v", names[i], got, WitnessTriangle)
		}
	}
}

// TestDistancePeersDriver runs every distance system of the driver named
// by $COLLIDE_PEERS on the small test scene, and checks the parsed answers
// against brute force: the distances must agree within a relative 1e-6
// (absolute 1e-9 near 0). Wrong witnesses (points off their triangles, at
// another distance, the frame of the flying model) are FCL's, not the
// driver's: they are logged, not failed.
func TestDistancePeersDriver(t *testing.T) {
	driver := peersDriver(t)
	systems, err := DriverSystems(driver)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fcl-rss", "fcl-obbrss"} {
		if !slices.Contains(systems, want) {
			t.Errorf("the driver lacks %s (it has %v)", want, systems)
		}
	}
	env, fly, poses, names := distanceTestScene(t)
	envPath, flyPath, posesPath := writeDistanceFiles(t, t.TempDir(), env, fly, poses)

	type brute struct {
		dist float64
		e, f int32
	}
	exact := make([]brute, len(poses))
	for i, p := range poses {
		d, e, f := BruteForceDistance(env, fly, p)
		exact[i] = brute{d, e, f}
	}
	for _, sys := range systems {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		b, got, err := RunPeerBuild(ctx, driver, sys, envPath, flyPath, posesPath)
		cancel()
		if err != nil {
			t.Errorf("%s: %v", sys, err)
			continue
		}
		if b.EnvTris != env.NumTriangles() || b.FlyTris != fly.NumTriangles() {
			t.Errorf("%s: the driver read %d and %d triangles, want %d and %d", sys, b.EnvTris, b.FlyTris, env.NumTriangles(), fly.NumTriangles())
		}
		t.Logf("%s: build %v, %d bytes", sys, b.Build, b.Bytes)
		agree, contact, witnessBad := 0, 0, 0
		kinds := map[WitnessProblem]int{}
		for i, d := range got {
			if d.Pose != i {
				t.Fatalf("%s: line %d is pose %d", sys, i, d.Pose)
			}
			want := exact[i]
			if want.dist == 0 {
				contact++
			}
			if math.Abs(d.Distance-want.dist) > max(1e-9, 1e-6*want.dist) {
				t.Errorf("%s, %s: distance %.17g, brute force %.17g (triangles %d, %d)", sys, names[i], d.Distance, want.dist, want.e, want.f)
			} else {
				agree++
			}
			err := CheckWitness(env, fly, poses[i], d, 1e-9)
			var witness []string
			seen := map[WitnessProblem]bool{}
			for _, w := range WitnessProblems(err) {
				if w.Problem == WitnessDistance {
					continue // failed above
				}
				witness = append(witness, w.Problem.String()+": "+w.Msg)
				if !seen[w.Problem] {
					seen[w.Problem] = true
					kinds[w.Problem]++
				}
			}
			if len(witness) > 0 {
				witnessBad++
				t.Logf("%s, %s (distance %.6g, brute force %.6g): FCL's witness is wrong: %s", sys, names[i], d.Distance, want.dist, strings.Join(witness, "; "))
			}
			t.Logf("%s, %s: distance %.9g, triangles %d %d, %v", sys, names[i], d.Distance, d.Env, d.Fly, time.Duration(d.Nanos))
		}
		// The summary line, read by bench/peers/selftest.sh.
		t.Logf("summary %s: poses %d, contact %d, distances agree %d, witnesses wrong %d (point %d, length %d, pair %d, triangle %d)",
			sys, len(got), contact, agree, witnessBad, kinds[WitnessPoint], kinds[WitnessLength], kinds[WitnessPair], kinds[WitnessTriangle])
	}
}

// peersDriver returns the driver named by $COLLIDE_PEERS, or skips the
// test.
func peersDriver(t *testing.T) string {
	driver := os.Getenv("COLLIDE_PEERS")
	if driver == "" {
		t.Skip("COLLIDE_PEERS is not set: build the driver with bench/peers/build.sh and point COLLIDE_PEERS at it")
	}
	return driver
}
