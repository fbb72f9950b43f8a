/* pingpong.c -- the cost of a port: ping-pong latency between two
 * processes through ens_send/ens_recv against raw MPI_Send/MPI_Recv on the
 * same port (ens_port), in the same run (bench/run.sh, bench/pingpong.pcg).
 * After WARMUP round trips, ens and raw MPI alternate in BLOCKS blocks of
 * reps / BLOCKS round trips; process 1 prints the median block of each as
 * half a round trip in microseconds. */
#include <stdio.h>
#include <stdlib.h>

#include <ensemble.h>

#include "bench.h"

#define WARMUP	1000
#define BLOCKS	5

#define check(rc, call)	bench_check("pingpong", rc, call)

/* Make n round trips on Peer[1], through libensemble or raw MPI; the
 * first process sends first.  Returns the time they took. */
static double
trips(int raw, int first, char *buf, int bytes, int n)
{
	ens_port_t	p = ens_port("Peer", 1);
	double		t0;
	int		i, k;

	t0 = MPI_Wtime();
	for (i = 0; i < n; i++) {
		for (k = 0; k < 2; k++) {
			if ((k == 0) == first) {
				if (raw)
					check(MPI_Send(buf, bytes, MPI_BYTE,
					    p.rank, p.tag, p.comm), "MPI_Send");
				else
					ens_send("Peer", 1, buf, bytes,
					    MPI_BYTE);
			} else {
				if (raw)
					check(MPI_Recv(buf, bytes, MPI_BYTE,
					    p.rank, p.tag, p.comm,
					    MPI_STATUS_IGNORE), "MPI_Recv");
				else
					ens_recv("Peer", 1, buf, bytes,
					    MPI_BYTE);
			}
		}
	}
	return MPI_Wtime() - t0;
}

/* Time both ways and print the medians from process 1. */
int
main(int argc, char **argv)
{
	double	 ens[BLOCKS], mpi[BLOCKS];
	char	*buf;
	int	 bytes, reps, first, n, b;

	ens_init(&argc, &argv);
	if (argc != 3 || (bytes = atoi(argv[1])) < 0 ||
	    (reps = atoi(argv[2])) < BLOCKS) {
		fprintf(stderr, "usage: pingpong bytes reps (reps >= %d)\n",
		    BLOCKS);
		exit(2);
	}
	if ((buf = calloc(1, bytes > 0 ? bytes : 1)) == NULL) {
		fprintf(stderr, "pingpong: out of memory\n");
		exit(1);
	}
	first = ens_self()->index == 1;
	n = reps / BLOCKS;

	trips(0, first, buf, bytes, WARMUP);
	for (b = 0; b < BLOCKS; b++) {
		ens[b] = trips(0, first, buf, bytes, n);
		mpi[b] = trips(1, first, buf, bytes, n);
	}

	if (first) {
		printf("pingpong ens %d bytes: %.3f us\n", bytes,
		    bench_median(ens, BLOCKS) / n / 2 * 1e6);
		printf("pingpong mpi %d bytes: %.3f us\n", bytes,
		    bench_median(mpi, BLOCKS) / n / 2 * 1e6);
		fflush(stdout);
	}
	free(buf);
	ens_finalize();
	return 0;
}
