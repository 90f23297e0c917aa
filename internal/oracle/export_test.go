package oracle

// SweepOn is Sweep on the given number of goroutines, for the tests.
var SweepOn = sweep
