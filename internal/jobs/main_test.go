package jobs

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// cliPath is collide's CLI, built by TestMain from this module for the
// tests that compare a job's lines with the CLI's (cliErr if it could not
// be built).
var (
	cliPath string
	cliErr  error
)

// TestMain builds the CLI into a temporary folder, runs the tests, and
// removes the folder.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "collide-jobs-cli")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cliPath = filepath.Join(dir, "collide")
	if out, err := exec.Command("go", "build", "-o", cliPath, "github.com/collide3d/collide/cmd/collide").CombinedOutput(); err != nil {
		cliErr = errors.New(string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
