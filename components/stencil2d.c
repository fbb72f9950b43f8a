/* stencil2d.c -- one block of a W x H torus of blocks (scripts/torus.pcg):
 * a B x B grid of heat diffusing by the 5-point stencil.  Each iteration
 * exchanges halo rows with the North and South neighbours and halo columns
 * with the East and West ones, then updates; the total heat over the torus
 * is kept, so the sums the blocks print add up to the initial total. */
#include <stdio.h>
#include <stdlib.h>

#include <ensemble.h>

#define B	16			/* a block is B x B points */
#define W2	(B + 2)			/* a row with its two halo points */
#define AT(r, c) ((r) * W2 + (c))	/* rows and columns 0..B+1 */

/* Diffuse 'iters' times and print the heat left in the block. */
int
main(int argc, char **argv)
{
	static double	 a[W2 * W2], b[W2 * W2];
	double		 eout[B], wout[B], ein[B], win[B];
	double		*u = a, *unew = b, *tmp, sum;
	MPI_Request	 req[8];
	int		 w, h, iters, it, r, c;

	ens_init(&argc, &argv);
	if (argc != 4) {
		fprintf(stderr, "usage: stencil2d W H iters\n");
		exit(2);
	}
	w = atoi(argv[1]);
	h = atoi(argv[2]);
	iters = atoi(argv[3]);
	if (w * h != ens_self()->nprocs) {
		fprintf(stderr, "stencil2d: a %d x %d torus needs %d processes, "
		    "not %d\n", w, h, w * h, ens_self()->nprocs);
		exit(2);
	}
	for (r = 1; r <= B; r++)
		for (c = 1; c <= B; c++)
			u[AT(r, c)] = ens_self()->index;

	for (it = 0; it < iters; it++) {
		for (r = 1; r <= B; r++) {
			eout[r - 1] = u[AT(r, B)];
			wout[r - 1] = u[AT(r, 1)];
		}
		ens_isend("North", 1, &u[AT(1, 1)], B, MPI_DOUBLE, &req[0]);
		ens_isend("South", 1, &u[AT(B, 1)], B, MPI_DOUBLE, &req[1]);
		ens_isend("East", 1, eout, B, MPI_DOUBLE, &req[2]);
		ens_isend("West", 1, wout, B, MPI_DOUBLE, &req[3]);
		ens_irecv("North", 1, &u[AT(0, 1)], B, MPI_DOUBLE, &req[4]);
		ens_irecv("South", 1, &u[AT(B + 1, 1)], B, MPI_DOUBLE, &req[5]);
		ens_irecv("East", 1, ein, B, MPI_DOUBLE, &req[6]);
		ens_irecv("West", 1, win, B, MPI_DOUBLE, &req[7]);
		ens_waitall(8, req);
		for (r = 1; r <= B; r++) {
			u[AT(r, B + 1)] = ein[r - 1];
			u[AT(r, 0)] = win[r - 1];
		}

		for (r = 1; r <= B; r++)
			for (c = 1; c <= B; c++)
				unew[AT(r, c)] = u[AT(r, c)] + 0.1 *
				    (u[AT(r - 1, c)] + u[AT(r + 1, c)] +
				    u[AT(r, c + 1)] + u[AT(r, c - 1)] -
				    4 * u[AT(r, c)]);
		tmp = u;
		u = unew;
		unew = tmp;
	}

	sum = 0.0;
	for (r = 1; r <= B; r++)
		for (c = 1; c <= B; c++)
			sum += u[AT(r, c)];
	printf("%s: sum %.6f\n", ens_self()->name, sum);
	fflush(stdout);

	ens_finalize();
	return 0;
}
