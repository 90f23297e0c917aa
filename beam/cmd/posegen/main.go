// Command posegen writes a pose file for collide check --poses and the
// Beam pipeline's measurements: N random poses of gen:icosphere:radius=0.4
// about gen:torus, about half in contact (package posegen says how).
//
//	go run ./cmd/posegen -n 1000000 -seed 1 > poses.txt
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/collide3d/collide/beam/internal/posegen"
)

func main() {
	n := flag.Int("n", 1000, "the number of poses")
	seed := flag.Uint64("seed", 1, "the random seed")
	flag.Parse()
	if flag.NArg() > 0 || *n < 0 {
		fmt.Fprintln(os.Stderr, "usage: posegen [-n N] [-seed S] > poses.txt")
		os.Exit(2)
	}
	if err := posegen.Write(os.Stdout, *n, *seed); err != nil {
		fmt.Fprintf(os.Stderr, "posegen: %v\n", err)
		os.Exit(1)
	}
}
