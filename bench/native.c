/* native.c -- the same MPI program under a plain mpirun and under
 * 'ensemble run' (bench/native.sh): built twice from this source, as
 * bench/native (MPI_Init and MPI_Finalize, plain MPI: run it with 'mpirun
 * -np N') and, with -DENSEMBLE, as bench/native-ens (ens_init and
 * ens_finalize, libensemble: run it with 'ensemble run bench/native.pcg
 * -np N').  Either way its MPI_COMM_WORLD is the run's N processes, and it
 * times on it, with raw MPI calls:
 *
 *	pingpong8	ranks 0 and 1 bounce 8 bytes: half a round trip
 *	allreduce8	every rank: MPI_Allreduce of one double, MPI_SUM
 *	pingpong1M	ranks 0 and 1 bounce 1 MiB: half a round trip
 *
 * each the median of BLOCKS blocks of SMALL operations (8 B) or LARGE
 * (1 MiB), after one block to warm up, with a barrier before each block;
 * rank 0 prints one line per figure, "pingpong8 0.245 us".
 *
 *	native [SMALL [LARGE [SECONDS]]]	(default 20000 200 0)
 *
 * With SECONDS above 0 it only bounces 8 bytes between ranks 0 and 1 for
 * that long (the others wait in a barrier), for native.sh's count of the
 * run's wake-ups and system calls, and rank 0 prints the round trips. */
#include <stdio.h>
#include <stdlib.h>

#ifdef ENSEMBLE
#include <ensemble.h>
#else
#include <mpi.h>
#endif

#include "bench.h"

#define BLOCKS		7
#define LARGE_BYTES	(1 << 20)
#define CHUNK		1000	/* round trips between looks at the clock */

enum op {
	PINGPONG,
	ALLREDUCE,
};

static int	rank;

#define check(rc, call)	bench_check("native", rc, call)

/* One round trip of 'bytes' bytes between ranks 0 and 1, rank 0 first. */
static void
trip(char *buf, int bytes)
{
	int	peer = 1 - rank;

	if (rank == 0)
		check(MPI_Send(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD),
		    "MPI_Send");
	check(MPI_Recv(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD,
	    MPI_STATUS_IGNORE), "MPI_Recv");
	if (rank == 1)
		check(MPI_Send(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD),
		    "MPI_Send");
}

/* Do n operations; returns the seconds they took (ranks above 1 take
 * no part in a ping-pong). */
static double
block(enum op op, char *buf, int bytes, int n)
{
	double	t0, in = 1, out;
	int	i;

	t0 = MPI_Wtime();
	if (op == ALLREDUCE) {
		for (i = 0; i < n; i++)
			check(MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM,
			    MPI_COMM_WORLD), "MPI_Allreduce");
	} else if (rank <= 1) {
		for (i = 0; i < n; i++)
			trip(buf, bytes);
	}
	return MPI_Wtime() - t0;
}

/* The median of BLOCKS timed blocks of n operations, after one to warm
 * up, in microseconds per operation (per half round trip). */
static double
median(enum op op, char *buf, int bytes, int n)
{
	double	t[BLOCKS], x;
	int	b;

	for (b = -1; b < BLOCKS; b++) {
		check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
		x = block(op, buf, bytes, n);
		if (b >= 0)
			t[b] = x;
	}
	return bench_median(t, BLOCKS) / n / (op == PINGPONG ? 2 : 1) * 1e6;
}

/* Bounce 8 bytes between ranks 0 and 1 for about 'seconds' seconds:
 * rank 0 looks at the clock every CHUNK round trips and, once the time
 * is up, marks its next message as the last.  Returns the round trips. */
static long
spin(char *buf, double seconds)
{
	double	end = MPI_Wtime() + seconds;
	long	n = 0;

	buf[0] = 0;
	if (rank > 1)
		return 0;
	do {
		if (rank == 0 && n % CHUNK == 0 && MPI_Wtime() >= end)
			buf[0] = 1;
		trip(buf, 8);
		n++;
	} while (buf[0] == 0);
	return n;
}

/* The number in s, or -1 when s is not one. */
static double
number(const char *s)
{
	char	*end;
	double	 v;

	v = strtod(s, &end);
	return end == s || *end != '\0' ? -1 : v;
}

/* Read the counts, time, and print the figures from rank 0. */
int
main(int argc, char **argv)
{
	double	 small = 20000, large = 200, seconds = 0, p8, a8, p1;
	char	*buf;
	long	 n;
	int	 size;

#ifdef ENSEMBLE
	ens_init(&argc, &argv);
#else
	MPI_Init(&argc, &argv);
#endif
	if (argc > 1)
		small = number(argv[1]);
	if (argc > 2)
		large = number(argv[2]);
	if (argc > 3)
		seconds = number(argv[3]);
	if (argc > 4 || small < 1 || small > 1e9 || large < 1 || large > 1e9 ||
	    seconds < 0) {
		fprintf(stderr, "usage: native [SMALL [LARGE [SECONDS]]]\n");
		exit(2);
	}
	check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
	check(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
	if (size < 2) {
		fprintf(stderr, "native: needs at least 2 processes\n");
		exit(2);
	}
	if ((buf = calloc(1, LARGE_BYTES)) == NULL) {
		fprintf(stderr, "native: out of memory\n");
		exit(1);
	}

	if (seconds > 0) {
		n = spin(buf, seconds);
		if (rank == 0)
			printf("pingpong8 round trips in %g s: %ld\n", seconds,
			    n);
	} else {
		p8 = median(PINGPONG, buf, 8, (int)small);
		a8 = median(ALLREDUCE, buf, 8, (int)small);
		p1 = median(PINGPONG, buf, LARGE_BYTES, (int)large);
		if (rank == 0) {
			printf("pingpong8 %.3f us\n", p8);
			printf("allreduce8 %.3f us\n", a8);
			printf("pingpong1M %.3f us\n", p1);
		}
	}
	fflush(stdout);
	check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
	free(buf);
#ifdef ENSEMBLE
	ens_finalize();
#else
	MPI_Finalize();
#endif
	return 0;
}
