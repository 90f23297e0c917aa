// Package sap is an incremental sweep and prune broad phase (work in
// progress: two candidates, ArrayPhase and Axis3, are measured against each
// other by the benchmarks before one is kept).
package sap
