package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/collide3d/collide/geom"
)

// tools holds what the tests build once: the command line, in a directory
// removed when the tests end.
var tools struct {
	once sync.Once
	dir  string
	cli  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if tools.dir != "" {
		os.RemoveAll(tools.dir)
	}
	os.Exit(code)
}

// goTool returns the go command that runs the tests.
func goTool(t *testing.T) string {
	t.Helper()
	g := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(g); err == nil {
		return g
	}
	g, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build with")
	}
	return g
}

// runCLI runs the command line (built once) with args and returns its
// combined output.
func runCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	tools.once.Do(func() {
		if tools.dir, tools.err = os.MkdirTemp("", "libcollide-test-"); tools.err != nil {
			return
		}
		tools.cli = filepath.Join(tools.dir, "collide")
		out, err := exec.Command(goTool(t), "build", "-o", tools.cli, "../collide").CombinedOutput()
		if err != nil {
			tools.err = &buildError{err, out}
		}
	})
	if tools.err != nil {
		t.Fatal(tools.err)
	}
	out, err := exec.Command(tools.cli, args...).CombinedOutput()
	return string(out), err
}

type buildError struct {
	err error
	out []byte
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + string(e.out) }

// cProgram uses the library as a C program does: a model from arrays,
// check at three poses (the last one bad: an error naming it), then at
// two with every pair into a buffer, copied out, their contacts into a
// buffer of doubles (copied as int64: an error; then as doubles), and the
// pairs' buffer released twice (the second time an error).
const cProgram = `
#include <stdio.h>
#include <string.h>
#include "collide.h"

static const double verts[] = {
	-1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1,
	-1, -1, 1, 1, -1, 1, 1, 1, 1, -1, 1, 1,
};
static const int64_t faces[] = {
	0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7,
	0, 1, 5, 0, 5, 4, 2, 3, 7, 2, 7, 6,
	1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3,
};

static void translation(double *m, double x, double y, double z) {
	memset(m, 0, 16 * sizeof *m);
	m[0] = m[5] = m[10] = m[15] = 1;
	m[3] = x, m[7] = y, m[11] = z;
}

int main(void) {
	char err[256];
	collide_handle box = 0, pairs = 0;
	int32_t rc;
	printf("version %s\n", strncmp(collide_version(), "collide ", 8) == 0 ? "ok" : collide_version());

	rc = collide_model_new(verts, 8, faces, 12, NULL, &box, err, sizeof err);
	printf("model_new %d\n", rc);
	int64_t nv = 0, nf = 0;
	char bv[16];
	rc = collide_model_info(box, &nv, &nf, bv, sizeof bv, err, sizeof err);
	printf("info %d %lld %lld %s\n", rc, (long long)nv, (long long)nf, bv);

	double poses[3 * 16];
	uint8_t hits[3] = {7, 7, 7};
	translation(poses, 3, 0, 0);
	translation(poses + 16, 1.5, 0.5, 0);
	translation(poses + 32, 2, 0, 0);
	poses[32 + 0] = 2; /* a scaling: not a pose */
	rc = collide_check(box, NULL, box, poses, 3, 1, 0, 0, hits, &pairs, err, sizeof err);
	printf("check bad %d %s\n", rc, err);

	poses[32 + 0] = 1; /* touching face to face at x = 2 */
	rc = collide_check(box, NULL, box, poses, 3, 1, 0, 2, hits, &pairs, err, sizeof err);
	printf("check %d hits %d %d %d\n", rc, hits[0], hits[1], hits[2]);
	int64_t n = collide_buffer_len(pairs);
	int64_t buf[4096];
	if (n % 3 != 0 || n > 4096) {
		printf("buffer length %lld\n", (long long)n);
		return 1;
	}
	rc = collide_buffer_copy(pairs, buf, n, err, sizeof err);
	printf("copy %d %lld\n", rc, (long long)n);
	for (int64_t i = 0; i < n; i += 3)
		printf("pair %lld %lld %lld\n", (long long)buf[i], (long long)buf[i + 1], (long long)buf[i + 2]);

	collide_handle cs = 0;
	rc = collide_contacts(box, NULL, box, poses, 3, 1, 0, 0, &cs, err, sizeof err);
	int64_t m = collide_buffer_len(cs);
	double cbuf[4096 * COLLIDE_CONTACT_STRIDE];
	if (m % COLLIDE_CONTACT_STRIDE != 0 || m > 4096 * COLLIDE_CONTACT_STRIDE) {
		printf("contacts length %lld\n", (long long)m);
		return 1;
	}
	printf("contacts %d %lld\n", rc, (long long)(m / COLLIDE_CONTACT_STRIDE));
	rc = collide_buffer_copy(cs, buf, m, err, sizeof err);
	printf("copy contacts as int64 %d %s\n", rc, err);
	rc = collide_buffer_copy_f64(cs, cbuf, m, err, sizeof err);
	printf("copy contacts %d\n", rc);
	for (int64_t i = 0; i < m; i += COLLIDE_CONTACT_STRIDE)
		printf("contact %g %g %g kind %g points %g\n", cbuf[i + COLLIDE_CONTACT_POSE], cbuf[i + COLLIDE_CONTACT_ENV],
			cbuf[i + COLLIDE_CONTACT_FLY], cbuf[i + COLLIDE_CONTACT_KIND], cbuf[i + COLLIDE_CONTACT_NPOINTS]);
	collide_free(cs, err, sizeof err);

	rc = collide_free(pairs, err, sizeof err);
	printf("free %d\n", rc);
	rc = collide_free(pairs, err, sizeof err);
	printf("free again %d %s\n", rc, err);
	printf("len after free %lld\n", (long long)collide_buffer_len(pairs));
	printf("len of 0 %lld\n", (long long)collide_buffer_len(0));
	rc = collide_free(box, err, 8); /* a short buffer: the message cut */
	printf("free box %d\n", rc);
	rc = collide_free(box, err, 8);
	printf("short message %d %s\n", rc, err);
	return 0;
}
`

// TestC builds the shared library and a C program against collide.h, and
// runs it.
func TestC(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the shared library (-short)")
	}
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc is not installed: the C program cannot be compiled (CI has gcc)")
	}
	dir := t.TempDir()
	lib := filepath.Join(dir, "libcollide.so")
	build := exec.Command(goTool(t), "build", "-buildmode=c-shared", "-o", lib, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", build, err, out)
	}
	src := filepath.Join(dir, "main.c")
	if err := os.WriteFile(src, []byte(cProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(dir, "prog")
	cc := exec.Command(gcc, "-std=c99", "-Wall", "-Werror", "-I", here, "-o", prog, src, "-L", dir, "-lcollide", "-Wl,-rpath,"+dir)
	if out, err := cc.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", cc, err, out)
	}
	var stdout, stderr bytes.Buffer
	run := exec.Command(prog)
	run.Stdout, run.Stderr = &stdout, &stderr
	if err := run.Run(); err != nil {
		t.Fatalf("%s: %v\n%s%s", prog, err, stdout.Bytes(), stderr.Bytes())
	}
	got := stdout.String()
	want := []string{
		"version ok",
		"model_new 0",
		"info 0 8 12 kdop18",
		"check bad 1 poses[2]: pose rotation is not orthonormal with determinant 1",
		"check 0 hits 0 1 1",
	}
	for _, w := range want {
		if !strings.Contains(got, w+"\n") {
			t.Errorf("the C program's output lacks %q:\n%s", w, got)
		}
	}
	// The pairs: every pair in contact at poses 1 and 2, as the Go call
	// gives them.
	box := newBox(t, "")
	hits := make([]bool, 3)
	ph, err := check(box, nil, box, matrices(geom.Translation(geom.Vec3{X: 3}), geom.Translation(geom.Vec3{X: 1.5, Y: 0.5}),
		geom.Translation(geom.Vec3{X: 2})), 3, true, 0, 1, hits, true)
	if err != nil {
		t.Fatal(err)
	}
	buf, _ := lookupID[[]int64](ph, "")
	freeHandle(ph)
	var lines strings.Builder
	for i := 0; i < len(buf); i += 3 {
		fmt.Fprintf(&lines, "pair %d %d %d\n", buf[i], buf[i+1], buf[i+2])
	}
	if want := fmt.Sprintf("copy 0 %d\n%s", len(buf), lines.String()); len(buf) == 0 || !strings.Contains(got, want) {
		t.Errorf("the C program's pairs: want\n%s\ngot\n%s", want, got)
	}
	// The contacts: one line per pair, as the Go call gives them.
	ch, err := contacts(box, nil, box, matrices(geom.Translation(geom.Vec3{X: 3}), geom.Translation(geom.Vec3{X: 1.5, Y: 0.5}),
		geom.Translation(geom.Vec3{X: 2})), 3, true, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	cb, _ := lookupID[[]float64](ch, "")
	freeHandle(ch)
	lines.Reset()
	for i := 0; i < len(cb); i += 27 {
		fmt.Fprintf(&lines, "contact %g %g %g kind %g points %g\n", cb[i], cb[i+1], cb[i+2], cb[i+3], cb[i+4])
	}
	if want := fmt.Sprintf("contacts 0 %d\n", len(cb)/27); len(cb) != 27*len(buf)/3 || !strings.Contains(got, want) {
		t.Errorf("the C program's contacts: %d, want %d pairs' in\n%s", len(cb)/27, len(buf)/3, got)
	}
	if want := "copy contacts 0\n" + lines.String(); !strings.Contains(got, want) {
		t.Errorf("the C program's contacts: want\n%s\ngot\n%s", want, got)
	}
	if !strings.Contains(got, "copy contacts as int64 1 buffer: handle ") || !strings.Contains(got, "copy it with collide_buffer_copy_f64\n") {
		t.Errorf("copying the contacts as int64: not EINVAL saying so:\n%s", got)
	}
	for _, w := range []string{
		"free 0",
		"free again 1 handle ",
		"len after free -1",
		"len of 0 0",
		"free box 0",
		"short message 1 handle ", // cut to 7 bytes and the NUL
	} {
		if !strings.Contains(got, "\n"+w) {
			t.Errorf("the C program's output lacks %q:\n%s", w, got)
		}
	}
	if !strings.Contains(got, "\nshort message 1 handle \n") {
		t.Errorf("the message in a buffer of 8 bytes is not cut to 7:\n%s", got)
	}
}
