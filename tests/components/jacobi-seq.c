/* jacobi-seq.c -- the sequential twin of components/jacobi.c, without MPI:
 * the same Jacobi iteration on the whole rod, printing the same line, so
 * that tests/run.test can compare a parallel run with it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Iterate on cells 1..cells of the rod and print the result. */
int
main(int argc, char **argv)
{
	double	*u, *unew, *tmp, res, sum;
	int	 cells, iters, it, j;

	if (argc != 3 || (cells = atoi(argv[1])) < 1) {
		fprintf(stderr, "usage: jacobi-seq cells iters\n");
		return 2;
	}
	iters = atoi(argv[2]);

	/* u[0] and u[cells + 1] hold the rod's ends in both arrays. */
	u = calloc(cells + 2, sizeof(*u));
	unew = calloc(cells + 2, sizeof(*unew));
	if (u == NULL || unew == NULL) {
		fprintf(stderr, "jacobi-seq: out of memory\n");
		return 1;
	}
	u[0] = unew[0] = 1.0;

	res = sum = 0.0;
	for (it = 0; it < iters; it++) {
		res = sum = 0.0;
		for (j = 1; j <= cells; j++) {
			unew[j] = (u[j - 1] + u[j + 1]) / 2;
			res += (unew[j] - u[j]) * (unew[j] - u[j]);
			sum += unew[j];
		}
		tmp = u;
		u = unew;
		unew = tmp;
	}

	printf("jacobi: %d iterations, %d cells, residual %.15e, sum %.15e\n",
	    iters, cells, sqrt(res), sum);
	free(unew);
	free(u);
	if (fflush(stdout) != 0 || ferror(stdout))
		return 1;
	return 0;
}
