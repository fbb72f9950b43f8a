/* median.h -- the median of a benchmark's timed blocks, for the programs
 * of bench/ (one definition: each includes this). */
#ifndef BENCH_MEDIAN_H
#define BENCH_MEDIAN_H

#include <stdlib.h>

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

#endif
