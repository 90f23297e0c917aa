// Package testgeom holds the test oracles and adversarial generators of
// collide: an independent exact triangle-triangle test in rational arithmetic
// (RatTriTri), generators of triangle pairs and triangle soups that stress
// the exact predicates (lattices, shared features, coplanar and degenerate
// triangles, one-ulp near misses, large offsets and tiny scales), the
// brute-force all-pairs oracle (Brute, which tests every pair; package
// internal/oracle has Sweep, as exact and fast enough for big scenes), and
// dumpers that let a failure be replayed (WriteOBJ, FormatTriangle).
//
// Every generator is deterministic: it draws only from the *rand.Rand it is
// given, so a (seed, stream) pair for rand.NewPCG reproduces a case.
//
// The package is internal and meant for tests and benchmarks only; nothing
// in it is tuned for speed beyond keeping the test suite quick.
package testgeom
