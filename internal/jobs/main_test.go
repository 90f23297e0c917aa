package jobs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// packageDir is the package's directory, the tests' working directory
// when they start (some tests change it).
var packageDir, _ = os.Getwd()

// cliDir is the directory of the command line built for the tests, which
// TestMain removes.
var cliDir string

// testCLI builds the command line (cmd/collide) once, for the tests to
// compare the shards' lines and the plans' messages with its output. It
// builds in the package's directory, whatever the test's working
// directory is then.
var testCLI = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "collide-jobs-test")
	if err != nil {
		return "", err
	}
	cliDir = dir
	bin := filepath.Join(dir, "collide")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/collide3d/collide/cmd/collide")
	cmd.Dir = packageDir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build cmd/collide: %v\n%s", err, out)
	}
	return bin, nil
})

// runCLI runs the CLI built by testCLI with args in dir ("": the working
// directory), returning its stdout, stderr and exit status.
func runCLI(t *testing.T, dir string, args []string) (stdout, stderr []byte, code int) {
	t.Helper()
	bin, err := testCLI()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("collide %q: %v", args, err)
	}
	return out.Bytes(), errb.Bytes(), code
}

// TestMain runs the tests, then removes the command line they built
// (testCLI), if any.
func TestMain(m *testing.M) {
	code := m.Run()
	if cliDir != "" {
		os.RemoveAll(cliDir)
	}
	os.Exit(code)
}
