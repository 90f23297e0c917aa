package jobs

import (
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

// TestMain runs the tests, then removes the command line they built
// (testCLI), if any.
func TestMain(m *testing.M) {
	code := m.Run()
	if cliDir != "" {
		os.RemoveAll(cliDir)
	}
	os.Exit(code)
}
