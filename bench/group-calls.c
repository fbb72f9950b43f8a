/* group-calls.c -- what a collective over a group costs through
 * libensemble against the same MPI call on the group's communicator
 * (bench/groups.sh, 'make bench-groups'): K calls of ens_bcast_over
 * (8 bytes, rooted at gcalls[1]) and of ens_allreduce_over (one
 * double, MPI_SUM) over the group g of bench/group-calls.pcg (every
 * process, last first), each against MPI_Bcast and MPI_Allreduce on
 * ens_comm_group("g", 0) with the root's rank in it; the medians of 7
 * blocks after one to warm up, per call.  The first process prints
 *
 *	bcast 0.085 0.070		(microseconds: ens_*_over, MPI)
 *	allreduce 0.120 0.110
 *
 *	group-calls K			(the script's k: 20000) */
#include <stdio.h>
#include <stdlib.h>

#include <ensemble.h>

#include "bench.h"

#define BLOCKS	7

int
main(int argc, char **argv)
{
	double		 v = 1, sum, t0, t[4][BLOCKS];
	int		 k, b, i, root, first = 0;
	MPI_Comm	 c;
	MPI_Group	 wg, gg;

	ens_init(&argc, &argv);
	if (argc != 2 || (k = atoi(argv[1])) < 1) {
		fprintf(stderr, "usage: group-calls K\n");
		exit(2);
	}
	c = ens_comm_group("g", 0);
	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	MPI_Comm_group(c, &gg);
	MPI_Group_translate_ranks(wg, 1, &first, gg, &root);
	MPI_Group_free(&wg);
	MPI_Group_free(&gg);
	for (b = 0; b <= BLOCKS; b++) {
		MPI_Barrier(c);
		t0 = MPI_Wtime();
		for (i = 0; i < k; i++)
			ens_bcast_over(&v, 1, MPI_DOUBLE, "gcalls[1]", "g", 0);
		if (b > 0)
			t[0][b - 1] = (MPI_Wtime() - t0) / k * 1e6;
		MPI_Barrier(c);
		t0 = MPI_Wtime();
		for (i = 0; i < k; i++)
			MPI_Bcast(&v, 1, MPI_DOUBLE, root, c);
		if (b > 0)
			t[1][b - 1] = (MPI_Wtime() - t0) / k * 1e6;
		MPI_Barrier(c);
		t0 = MPI_Wtime();
		for (i = 0; i < k; i++)
			ens_allreduce_over(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, "g", 0);
		if (b > 0)
			t[2][b - 1] = (MPI_Wtime() - t0) / k * 1e6;
		MPI_Barrier(c);
		t0 = MPI_Wtime();
		for (i = 0; i < k; i++)
			MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, c);
		if (b > 0)
			t[3][b - 1] = (MPI_Wtime() - t0) / k * 1e6;
	}
	if (ens_self()->index == 1) {
		printf("bcast %.3f %.3f\n", bench_median(t[0], BLOCKS),
		    bench_median(t[1], BLOCKS));
		printf("allreduce %.3f %.3f\n", bench_median(t[2], BLOCKS),
		    bench_median(t[3], BLOCKS));
	}
	ens_finalize();
	return 0;
}
