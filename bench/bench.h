/* bench.h -- what the programs of bench/ share (one definition: each
 * includes this): the median of timed blocks, processor time, and, for
 * those that include <mpi.h> (or <ensemble.h>) first, the stop on an MPI
 * error. */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Order doubles for qsort. */
static inline int
bench_cmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of the n figures of t (t sorted on return; n odd, else the
 * upper of the two middle ones). */
static inline double
bench_median(double *t, int n)
{
	qsort(t, (size_t)n, sizeof(t[0]), bench_cmp);
	return t[n / 2];
}

/* The processor time of clock c (CLOCK_PROCESS_CPUTIME_ID,
 * CLOCK_THREAD_CPUTIME_ID), in seconds. */
static inline double
bench_cpu(clockid_t c)
{
	struct timespec	ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#ifdef MPI_VERSION
/* Stop program prog on an MPI error rc from call (ens_init makes
 * MPI_COMM_WORLD return them). */
static inline void
bench_check(const char *prog, int rc, const char *call)
{
	if (rc != MPI_SUCCESS) {
		fprintf(stderr, "%s: %s failed\n", prog, call);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
}
#endif

#endif
