/* monstep.c -- the protocol check's step alone (runtime/monitor.c,
 * compiled in): the processor time of a step per call as libensemble
 * takes it (the inline step of monitor.h, ens_mon_step when that is not
 * it), in one process, without MPI, so that a loaded machine does not
 * blur it (bench/checks.sh; bench/instr.sh counts its instructions).
 * For each behaviour, K steps of the calls it expects, the median of 7
 * blocks of processor time (figures: bench/README.md):
 *
 *	send/recv loop 12.4 ns		(a counted loop of send and recv)
 *	allreduce loop 11.8 ns		(a loop for ever of allreduce)
 *	isend/irecv/waitall loop 95.1 ns	(requests named: the general step)
 *
 *	monstep [K [N]]		(default 2000000; N: the N-th behaviour
 *				 alone, 1 to 3) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "monitor.h"

#include "bench.h"

#define BLOCKS	7

/* The processor time of this process, in seconds. */
#define cpu()	bench_cpu(CLOCK_PROCESS_CPUTIME_ID)

/* Step through k rounds of the n events ev of behaviour beh: ns a step,
 * the median of BLOCKS blocks; -1 when the monitor refuses one. */
static double
steps(const char *beh, const struct mon_event *ev, int n, long k)
{
	static const char	*types[] = { "P" };
	static const int	 nports[] = { 1 };
	struct mon		*m;
	struct mon_fast		*f;
	struct mon_event	 e;
	double			 t[BLOCKS], t0;
	char			*msg = NULL;
	long			 i, req = 1;
	int			 b, j;

	if ((m = ens_mon_new(beh, 0, NULL, 1, types, nports, &msg)) == NULL) {
		fprintf(stderr, "monstep: %s\n", msg != NULL ? msg : "?");
		exit(1);
	}
	f = ens_mon_fast_state(m);
	for (b = 0; b < BLOCKS; b++) {
		t0 = cpu();
		for (i = 0; i < k; i++)
			for (j = 0; j < n; j++) {
				e = ev[j];
				/* Posts take a new request each, waits the two
				 * posted before. */
				if (e.op == MON_ISEND || e.op == MON_IRECV)
					e.req = req++;
				if (ens_mon_fast(f, e.op, e.ptype - 1, e.port,
				    e.root, e.group) != 0 &&
				    ens_mon_step(m, &e, &msg) != 0) {
					fprintf(stderr, "monstep: %s\n", msg);
					exit(1);
				}
			}
		t[b] = (cpu() - t0) / ((double)k * n) * 1e9;
	}
	ens_mon_free(m);
	return bench_median(t, BLOCKS);
}

int
main(int argc, char **argv)
{
	struct mon_event	 sr[2], ar[1], nb[3];
	long			 k = argc > 1 ? atol(argv[1]) : 2000000;
	int			 only = argc > 2 ? atoi(argv[2]) : 0;

	if (k < 1 || only < 0 || only > 3 || argc > 3) {
		fprintf(stderr, "usage: monstep [K [N]]\n");
		exit(2);
	}
	memset(sr, 0, sizeof(sr));
	sr[0].op = MON_SEND;
	sr[1].op = MON_RECV;
	sr[0].type = sr[1].type = "P";
	sr[0].ptype = sr[1].ptype = 1;
	sr[0].port = sr[1].port = 1;
	memset(ar, 0, sizeof(ar));
	ar[0].op = MON_ALLREDUCE;
	memset(nb, 0, sizeof(nb));
	nb[0].op = MON_ISEND;
	nb[1].op = MON_IRECV;
	nb[0].type = nb[1].type = "P";
	nb[0].ptype = nb[1].ptype = 1;
	nb[0].port = nb[1].port = 1;
	nb[2].op = MON_WAITALL;
	if (only == 0 || only == 1)
		printf("send/recv loop %.1f ns\n", steps("loop 2000000000 { send "
		    "P[1]; recv P[1]; }", sr, 2, k));
	if (only == 0 || only == 2)
		printf("allreduce loop %.1f ns\n", steps("loop { allreduce; }", ar,
		    1, k));
	if (only == 0 || only == 3)
		printf("isend/irecv/waitall loop %.1f ns\n", steps("loop { isend "
		    "P[1] as r; irecv P[1] as s; waitall; }", nb, 3, k / 4));
	return 0;
}
