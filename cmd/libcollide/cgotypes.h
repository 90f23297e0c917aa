/*
 * cgotypes.h: collide.h for the Go files of the library. Every Go file
 * with exported functions includes this header (not collide.h alone) in
 * its cgo preamble, so that the C compiler checks each export against its
 * declaration in collide.h.
 *
 * cgo declares an exported Go function with the C types of its Go
 * parameters, and has no const: a parameter declared `const double *` in
 * collide.h is written *C.collide_cdouble in Go (a *C.double, the same Go
 * type, that cgo spells `collide_cdouble *`, i.e. `const double *`).
 */
#include "collide.h"

typedef const char collide_cchar;
typedef const double collide_cdouble;
typedef const int64_t collide_cint64;
