package jobs

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

// ncPackageDir is the package's directory, the tests' working directory
// before any changes it: go build runs there, in the module.
var ncPackageDir, _ = os.Getwd()

// ncCLIDir is the directory of the command line built for the nc tests,
// which TestMain removes.
var ncCLIDir string

// ncCLI builds the command line (cmd/collide) once, for the nc tests to
// compare a job's lines and messages with its output.
var ncCLI = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "collide-jobs-nc")
	if err != nil {
		return "", err
	}
	ncCLIDir = dir
	bin := filepath.Join(dir, "collide")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/collide3d/collide/cmd/collide")
	cmd.Dir = ncPackageDir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build cmd/collide: %v\n%s", err, out)
	}
	return bin, nil
})
