// Command gobatch times package batch's Check from Go on the poses of
// bench_batch.py (a torus and a sphere, poses far apart), beside a loop of
// collide.Query.Collide: the Go side of the Python batch's figures, so
// that their difference is the cost of the Python path (ctypes, the C
// interface's conversions) a pose.
//
//	go run ./python/bench/gobatch [-bv sphere] [-n 100000]
//
// Each figure is the least of -repeat runs.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"time"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/batch"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/internal/source"
)

func main() {
	bvName := flag.String("bv", "kdop18", "bounding volume of both models")
	n := flag.Int("n", 100000, "poses")
	repeat := flag.Int("repeat", 15, "runs of each measure (the least is printed)")
	flag.Parse()
	bv, err := collide.ParseBV(*bvName)
	if err != nil {
		log.Fatal(err)
	}
	load := func(arg string) *collide.Model {
		s, err := source.Load(arg, source.Options{})
		if err != nil {
			log.Fatal(err)
		}
		m, err := collide.Build(s.Mesh, collide.BuildOptions{BV: bv})
		if err != nil {
			log.Fatal(err)
		}
		return m
	}
	env, fly := load("gen:torus"), load("gen:icosphere:radius=0.4")
	r := rand.New(rand.NewPCG(1, 1))
	poses := make([]geom.Pose, *n)
	for i := range poses {
		poses[i] = geom.Translation(geom.V(100+2*r.Float64()-1, 2*r.Float64()-1, 2*r.Float64()-1))
	}
	hits := make([]bool, *n)
	best := func(fn func()) float64 {
		b := time.Duration(1 << 62)
		for range *repeat {
			t := time.Now()
			fn()
			b = min(b, time.Since(t))
		}
		return float64(b.Nanoseconds()) / float64(*n)
	}
	for _, w := range []int{1, 0} {
		ns := best(func() {
			if _, err := batch.Check(context.Background(), env, geom.Identity(), fly, poses, batch.Options{Workers: w}, hits, nil); err != nil {
				log.Fatal(err)
			}
		})
		fmt.Printf("go batch.Check   far/%s workers=%d  %7.1f ns/pose\n", bv, w, ns)
	}
	var q collide.Query
	ns := best(func() {
		for _, p := range poses {
			if _, err := q.Collide(env, geom.Identity(), fly, p, collide.QueryOptions{}); err != nil {
				log.Fatal(err)
			}
		}
	})
	fmt.Printf("go Query.Collide far/%s loop       %7.1f ns/pose\n", bv, ns)
}
