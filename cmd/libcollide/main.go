// Command libcollide is collide's C library: the functions declared in
// collide.h, built as a shared library with
//
//	go build -buildmode=c-shared -o libcollide.so ./cmd/libcollide
//
// TODO: conventions.
package main

/*
#include "collide.h"
*/
import "C"

func main() {}
