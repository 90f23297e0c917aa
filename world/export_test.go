package world

// SetTestedHook sets a function that Step calls after each pair's exact
// test, on the goroutine that tested it (nil: none).
func SetTestedHook(w *World, f func()) { w.narrow.tested = f }
