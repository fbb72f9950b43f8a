/* jacobi.c -- one slab of a 1-D heat equation on a rod whose ends are held
 * at 1 (left) and 0 (right), solved by Jacobi iteration.  The rod's 'cells'
 * interior points are split into contiguous blocks, one per process in
 * index order; each iteration exchanges one halo cell with the Left and
 * Right neighbours (none at the rod's ends) and agrees on the residual and
 * the sum with an allreduce.  Process 1 prints the result, which equals
 * tests/components/jacobi-seq's up to rounding. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <ensemble.h>

/* Iterate on this process's block and print the result from process 1. */
int
main(int argc, char **argv)
{
	MPI_Request	 req[4];
	double		*u, *unew, *tmp, s[2], g[2];
	int		 cells, iters, nprocs, i, n, left, right, nreq, it, j;

	ens_init(&argc, &argv);
	if (argc != 3) {
		fprintf(stderr, "usage: jacobi cells iters\n");
		exit(2);
	}
	cells = atoi(argv[1]);
	iters = atoi(argv[2]);
	nprocs = ens_self()->nprocs;
	i = ens_self()->index;
	if (cells < nprocs) {
		fprintf(stderr, "jacobi: %d cells cannot be split over %d "
		    "processes (at least one cell each)\n", cells, nprocs);
		exit(2);
	}

	/* Block i of nprocs; the first cells % nprocs blocks get one more. */
	n = cells / nprocs + (i - 1 < cells % nprocs);
	left = ens_ports("Left");
	right = ens_ports("Right");

	/*
	 * u[1..n] are the cells, u[0] and u[n + 1] the halos: the
	 * neighbour's cell, or the boundary value at the rod's end, which
	 * both arrays hold so that swapping them keeps it.
	 */
	u = calloc(n + 2, sizeof(*u));
	unew = calloc(n + 2, sizeof(*unew));
	if (u == NULL || unew == NULL) {
		fprintf(stderr, "jacobi: out of memory\n");
		exit(1);
	}
	if (!left)
		u[0] = unew[0] = 1.0;
	if (!right)
		u[n + 1] = unew[n + 1] = 0.0;

	g[0] = g[1] = 0.0;
	for (it = 0; it < iters; it++) {
		nreq = 0;
		if (left)
			ens_isend("Left", 1, &u[1], 1, MPI_DOUBLE, &req[nreq++]);
		if (right)
			ens_isend("Right", 1, &u[n], 1, MPI_DOUBLE, &req[nreq++]);
		if (left)
			ens_irecv("Left", 1, &u[0], 1, MPI_DOUBLE, &req[nreq++]);
		if (right)
			ens_irecv("Right", 1, &u[n + 1], 1, MPI_DOUBLE,
			    &req[nreq++]);
		ens_waitall(nreq, req);

		s[0] = s[1] = 0.0;
		for (j = 1; j <= n; j++) {
			unew[j] = (u[j - 1] + u[j + 1]) / 2;
			s[0] += (unew[j] - u[j]) * (unew[j] - u[j]);
			s[1] += unew[j];
		}
		ens_allreduce(s, g, 2, MPI_DOUBLE, MPI_SUM);
		tmp = u;
		u = unew;
		unew = tmp;
	}

	if (i == 1) {
		printf("jacobi: %d iterations, %d cells, residual %.15e, "
		    "sum %.15e\n", iters, cells, sqrt(g[0]), g[1]);
		fflush(stdout);
	}
	free(unew);
	free(u);
	ens_finalize();
	return 0;
}
