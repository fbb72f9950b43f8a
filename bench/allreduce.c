/* allreduce.c -- the cost of a collective through libensemble: an 8-byte
 * ens_allreduce (one double, MPI_SUM) over the application against raw
 * MPI_Allreduce on MPI_COMM_WORLD, the same processes, in the same run
 * (bench/checks.sh, bench/allreduce.pcg).  After WARMUP calls of each,
 * ens and raw MPI alternate in BLOCKS blocks of reps / BLOCKS calls;
 * the first process prints the median block of each, per call, in
 * microseconds:
 *
 *	allreduce ens 0.512 us
 *	allreduce mpi 0.498 us
 *
 *	allreduce REPS			(REPS >= BLOCKS) */
#include <stdio.h>
#include <stdlib.h>

#include <ensemble.h>

#include "bench.h"

#define WARMUP	1000
#define BLOCKS	5

/* n allreduces through libensemble (raw 0) or raw MPI: the seconds they
 * took. */
static double
calls(int raw, int n)
{
	double	in = 1, out, t0 = MPI_Wtime();
	int	i;

	for (i = 0; i < n; i++)
		if (raw)
			MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM,
			    MPI_COMM_WORLD);
		else
			ens_allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM);
	return MPI_Wtime() - t0;
}

int
main(int argc, char **argv)
{
	double	ens[BLOCKS], mpi[BLOCKS];
	int	reps, n, b;

	ens_init(&argc, &argv);
	if (argc != 2 || (reps = atoi(argv[1])) < BLOCKS) {
		fprintf(stderr, "usage: allreduce reps (reps >= %d)\n", BLOCKS);
		exit(2);
	}
	n = reps / BLOCKS;
	calls(0, WARMUP);
	calls(1, WARMUP);
	for (b = 0; b < BLOCKS; b++) {
		ens[b] = calls(0, n);
		mpi[b] = calls(1, n);
	}
	if (ens_self()->rank == 0) {
		printf("allreduce ens %.3f us\n",
		    bench_median(ens, BLOCKS) / n * 1e6);
		printf("allreduce mpi %.3f us\n",
		    bench_median(mpi, BLOCKS) / n * 1e6);
		fflush(stdout);
	}
	ens_finalize();
	return 0;
}
