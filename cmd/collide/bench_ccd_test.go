package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchCCDPeers runs bench --ccd-peers on a few motions of two quick
// scenes with the driver named by $COLLIDE_PEERS, and checks the report's
// sections; a second run keeps the report unless --force.
func TestBenchCCDPeers(t *testing.T) {
	driver := os.Getenv("COLLIDE_PEERS")
	if driver == "" {
		t.Skip("COLLIDE_PEERS is not set: build the driver with bench/peers/build.sh and point COLLIDE_PEERS at it")
	}
	dir := t.TempDir()
	args := []string{"bench", "--ccd-peers", "--quick", "--steps", "4", "--rounds", "1", "--scenes", "boxes,tunnel", "--driver", driver, "-o", dir}
	stdout, stderr, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	report := filepath.Join(dir, "ccd-peers.md")
	if !strings.Contains(stdout, "wrote "+report) || !strings.Contains(stdout, "2 scenes, 8 motions") {
		t.Errorf("stdout: %q", stdout)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	for _, s := range []string{"# Continuous collision", "## All scenes", "## boxes", "## tunnel", "| collide kdop18 | linear |", "| fcl-ca-screw-rss | screw |"} {
		if !strings.Contains(md, s) {
			t.Errorf("ccd-peers.md lacks %q", s)
		}
	}
	if strings.Contains(md, "## graze") {
		t.Error("ccd-peers.md has graze, which --scenes left out")
	}
	if _, stderr, code := runCLI(t, args...); code != exitError || !strings.Contains(stderr, "ccd-peers.md") {
		t.Errorf("second run: exit %d, %s", code, stderr)
	}
}

// TestBenchCCDPeersUsage checks the flags that do not go with --ccd-peers,
// and a driver that is not there.
func TestBenchCCDPeersUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--ccd-peers", "--worlds"}, "--ccd-peers"},
		{[]string{"bench", "--ccd-peers", "--peers"}, "--ccd-peers"},
		{[]string{"bench", "--ccd-peers", "--front"}, "--ccd-peers"},
		{[]string{"bench", "--ccd-peers", "--sizes", "100"}, "--sizes"},
		{[]string{"bench", "--ccd-peers", "--slow-steps", "5"}, "--slow-steps"},
		{[]string{"bench", "--ccd-peers", "--scenes", "pipes"}, "--scenes"},
		{[]string{"bench", "--ccd-peers", "-o", ""}, "-o"},
	} {
		if _, stderr, code := runCLI(t, c.args...); code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %s", c.args, code, stderr)
		}
	}
	missing := filepath.Join(t.TempDir(), "no-driver")
	if _, stderr, code := runCLI(t, "bench", "--ccd-peers", "--driver", missing, "-o", t.TempDir()); code != exitError || !strings.Contains(stderr, "no-driver") {
		t.Errorf("missing driver: exit %d, %s", code, stderr)
	}
}
