// Package grains measures Zachmann's other parallel modes against the
// coarse grain the worlds already run (package bench/worlds): the medium
// grain, one pair of models on two goroutines (collide.QueryOptions.Medium,
// world.Options.Medium), on two tori of about 2×42, 2×132, 2×442
// triangles and bigger, beside the thesis's table of section 6.6; and the
// concurrent module (world.Concurrent), the application's frame rate and
// the results' latency in frames against calling World.Step in the
// application's loop.
//
// Run measures them and returns a Report, which writes itself as markdown
// (`collide bench --grains` writes it as grains.md).
package grains
