package jobs

import (
	"os"
	"testing"
)

// TestMain runs the tests, then removes the command line they built
// (posesCLI), if any.
func TestMain(m *testing.M) {
	code := m.Run()
	if cliDir != "" {
		os.RemoveAll(cliDir)
	}
	os.Exit(code)
}
