package jobs

import (
	"os"
	"testing"
)

// TestMain runs the tests, then removes the command line they built
// (ncCLI), if any.
func TestMain(m *testing.M) {
	code := m.Run()
	if ncCLIDir != "" {
		os.RemoveAll(ncCLIDir)
	}
	os.Exit(code)
}
