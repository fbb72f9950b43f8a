/* callcost.c -- what libensemble adds to a call that does not block,
 * in processor time, so that a loaded machine does not hide it
 * (bench/checks.sh).  Built twice, as bench/native is: bench/callcost
 * (MPI_Init; run it with 'mpirun -np 1') and, with -DENSEMBLE,
 * bench/callcost-ens (ens_init; 'ensemble run bench/callcost.pcg'), one
 * process, which times on MPI_COMM_WORLD
 *
 *	self8		MPI_Send then MPI_Recv of 8 bytes to itself
 *	allreduce8	MPI_Allreduce of one double (a world of one)
 *
 * and, built with -DENSEMBLE, through libensemble
 *
 *	ens_self8	ens_send on its port P[1], then ens_recv on Q[1],
 *			the other end of the same channel: 8 bytes to itself
 *	ens_allreduce8	ens_allreduce of one double
 *
 * in the processor time of its main thread (CLOCK_THREAD_CPUTIME_ID),
 * the median of BLOCKS blocks of K operations after one to warm up; it
 * prints "self8 0.123 us".  Under 'ensemble run' each raw call passes
 * the PMPI wrappers, which say it in the process's slot of the deadlock
 * watch (with and without --no-deadlock-watch, against mpirun: what
 * saying it costs), and each ens_ call is a step of the protocol check
 * (with and without --no-check-protocol: what the check costs).
 *
 *	callcost [K]			(default 200000) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef ENSEMBLE
#include <ensemble.h>
#else
#include <mpi.h>
#endif

#include "bench.h"

#define BLOCKS	7

/* The main thread's processor time, in seconds; a stop on an MPI error. */
#define cpu()		bench_cpu(CLOCK_THREAD_CPUTIME_ID)
#define check(rc, call)	bench_check("callcost", rc, call)

/* k operations of each kind, one function each (not inlined), so that
 * bench/instr.sh can count the instructions each takes (callgrind's
 * inclusive cost of the function over its calls). */
static char	buf[8];
static double	in = 1, out;

static __attribute__((noinline)) void
op_self8(long k)
{
	long	i;

	for (i = 0; i < k; i++) {
		check(MPI_Send(buf, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD),
		    "MPI_Send");
		check(MPI_Recv(buf, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD,
		    MPI_STATUS_IGNORE), "MPI_Recv");
	}
}

static __attribute__((noinline)) void
op_allreduce8(long k)
{
	long	i;

	for (i = 0; i < k; i++)
		check(MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM,
		    MPI_COMM_WORLD), "MPI_Allreduce");
}

#ifdef ENSEMBLE
static __attribute__((noinline)) void
op_ens_self8(long k)
{
	long	i;

	for (i = 0; i < k; i++) {
		ens_send("P", 1, buf, 8, MPI_BYTE);
		ens_recv("Q", 1, buf, 8, MPI_BYTE);
	}
}

static __attribute__((noinline)) void
op_ens_allreduce8(long k)
{
	long	i;

	for (i = 0; i < k; i++)
		ens_allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM);
}
#endif

/* The median of BLOCKS blocks of k operations op, in microseconds of
 * processor time per operation. */
static double
median(void (*op)(long), long k)
{
	double	t[BLOCKS], t0;
	int	b;

	for (b = -1; b < BLOCKS; b++) {
		t0 = cpu();
		op(k);
		if (b >= 0)
			t[b] = (cpu() - t0) / (double)k * 1e6;
	}
	return bench_median(t, BLOCKS);
}

int
main(int argc, char **argv)
{
	long	k;
	int	size;

#ifdef ENSEMBLE
	ens_init(&argc, &argv);
#else
	MPI_Init(&argc, &argv);
#endif
	k = argc > 1 ? atol(argv[1]) : 200000;
	check(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
	if (k < 1 || argc > 2 || size != 1) {
		fprintf(stderr, "usage: callcost [K] (one process)\n");
		exit(2);
	}
	printf("self8 %.4f us\n", median(op_self8, k));
	printf("allreduce8 %.4f us\n", median(op_allreduce8, k));
#ifdef ENSEMBLE
	printf("ens_self8 %.4f us\n", median(op_ens_self8, k));
	printf("ens_allreduce8 %.4f us\n", median(op_ens_allreduce8, k));
#endif
	fflush(stdout);
#ifdef ENSEMBLE
	ens_finalize();
#else
	MPI_Finalize();
#endif
	return 0;
}
