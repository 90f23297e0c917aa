/*
 * bench.c: the cost per pose of collide_check from C, on the scenes of
 * package batch's BenchmarkCheck (a 320-triangle sphere against itself at
 * 10^5 random rotations, 10 apart: far; 1.5 apart: overlapping), in one
 * batch call on 1 and on every worker, and in one call per pose.
 *
 *	go build -buildmode=c-shared -o /tmp/libcollide.so ./cmd/libcollide
 *	gcc -O2 -I cmd/libcollide -o /tmp/bench cmd/libcollide/testdata/bench.c \
 *	    -L /tmp -lcollide -Wl,-rpath,/tmp -lm
 *	/tmp/bench [runs]
 *
 * Each figure is the least of runs (default 5) runs, in nanoseconds per
 * pose of wall time.
 */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "collide.h"

#define N 100000

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static uint64_t rng = 88172645463325252ull;

static double uniform(void) { /* xorshift64 */
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (rng >> 11) * 0x1p-53;
}

static double normal(void) {
	return sqrt(-2 * log(1 - uniform())) * cos(6.283185307179586 * uniform());
}

/* pose writes a random rotation and a translation of length d in a random
   direction, as a row-major 4x4 matrix. */
static void pose(double *m, double d) {
	double w = normal(), x = normal(), y = normal(), z = normal();
	double n = sqrt(w * w + x * x + y * y + z * z);
	w /= n, x /= n, y /= n, z /= n;
	double r[9] = {
		1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
		2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
		2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
	};
	double tx = normal(), ty = normal(), tz = normal();
	double tn = sqrt(tx * tx + ty * ty + tz * tz) / d;
	for (int i = 0; i < 3; i++)
		m[4 * i] = r[3 * i], m[4 * i + 1] = r[3 * i + 1], m[4 * i + 2] = r[3 * i + 2];
	m[3] = tx / tn, m[7] = ty / tn, m[11] = tz / tn;
	m[12] = m[13] = m[14] = 0, m[15] = 1;
}

int main(int argc, char **argv) {
	int runs = argc > 1 ? atoi(argv[1]) : 5;
	char err[512];
	collide_handle sphere;
	if (collide_model_load("gen:icosphere:tris=320", NULL, NULL, &sphere, err, sizeof err)) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	double *poses = malloc(16 * sizeof(double) * N);
	uint8_t *hits = malloc(N);
	const char *names[] = {"far", "touching"};
	const double dist[] = {10, 1.5};
	for (int s = 0; s < 2; s++) {
		for (int i = 0; i < N; i++)
			pose(poses + 16 * i, dist[s]);
		double best[3] = {1e300, 1e300, 1e300};
		int nhits = 0;
		for (int r = 0; r < runs; r++) {
			for (int w = 0; w < 2; w++) {
				double t0 = now();
				if (collide_check(sphere, NULL, sphere, poses, N, 0, 0, w ? 0 : 1, hits, NULL, err, sizeof err)) {
					fprintf(stderr, "%s\n", err);
					return 1;
				}
				double t = (now() - t0) / N * 1e9;
				if (t < best[w])
					best[w] = t;
			}
			double t0 = now();
			for (int i = 0; i < N; i++)
				if (collide_check(sphere, NULL, sphere, poses + 16 * i, 1, 0, 0, 1, hits + i, NULL, err, sizeof err)) {
					fprintf(stderr, "%s\n", err);
					return 1;
				}
			double t = (now() - t0) / N * 1e9;
			if (t < best[2])
				best[2] = t;
		}
		for (int i = 0; i < N; i++)
			nhits += hits[i];
		printf("%-8s %6d of %d in contact: batch, 1 worker %8.0f ns/pose; every worker %8.0f ns/pose; one call a pose %8.0f ns/pose\n",
			names[s], nhits, N, best[0], best[1], best[2]);
	}
	collide_free(sphere, err, sizeof err);
	return 0;
}
