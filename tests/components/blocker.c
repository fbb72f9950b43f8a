/* blocker.c -- a component for tests/deadlock.test that does, in order,
 * the steps its arguments name, so that a script can make processes
 * deadlock, or wait long without deadlocking, in any shape:
 *
 *	send:T:I  ssend:T:I  recv:T:I	ens_send, ens_ssend, ens_recv on T[I]
 *	probe:T:I			ens_probe on T[I]
 *	recvany[:T]			ens_recv_any (of type T, else NULL)
 *	isend:T:I  irecv:T:I  waitall	posts, then ens_waitall of them all
 *	sendrecv:T:I:U:J		ens_sendrecv to T[I], from U[J]
 *	barrier  allreduce		over the application
 *	allreduce:G:K  bcast:ROOT	ens_allreduce_over G[K] (K 0: none),
 *					ens_bcast from ROOT
 *	sleep:S				sleep S seconds
 *	stdin				read a line of standard input
 *	big:S				MPI_Allreduce of 1 MiB doubles on
 *					MPI_COMM_WORLD, again and again for
 *					S seconds (every process the same
 *					count: rank 0 decides, in a bcast)
 *	rawsend:R  rawrecv:R		MPI_Send, MPI_Recv (tag 77) with world
 *					rank R (R 'any': MPI_ANY_SOURCE)
 *	rawbarrier  rawallreduce	on MPI_COMM_WORLD
 *	rawisend:R  rawirecv:R  rawwaitall	posts, then MPI_Waitall
 *	exit				leave without ens_finalize
 *	torn				leave its slot of the run's deadlock
 *					watch half written (wire.h: its
 *					sequence lock odd), saying it waits
 *					in ens_recv for its L[1] peer, and
 *					sleep: a writer stopped in the middle
 *
 * Each step is one argument; "say:TEXT" prints TEXT on stdout.  A first
 * argument "threads" initialises MPI for threads that call it at once
 * (MPI_THREAD_MULTIPLE) before ens_init. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ensemble.h>

#include "wire.h"

#define MAXREQ	64

static MPI_Request	reqs[MAXREQ];
/* Their statuses (not MPI_STATUSES_IGNORE: MPICH's (MPI_Status *)1 is a
 * region of size 0 to gcc's -Wstringop-overflow). */
static MPI_Status	sts[MAXREQ];
static int		nreqs;
static int		bufs[MAXREQ];

/* The port in "T:I" after a step's word, into *type (a static copy) and
 * its index. */
static int
port(const char *s, char *type, size_t len)
{
	const char	*c = strchr(s, ':');

	if (c == NULL || (size_t)(c - s) >= len) {
		fprintf(stderr, "blocker: bad port '%s'\n", s);
		exit(2);
	}
	memcpy(type, s, (size_t)(c - s));
	type[c - s] = '\0';
	return atoi(c + 1);
}

/* A world rank, or MPI_ANY_SOURCE for "any". */
static int
rank(const char *s)
{
	return strcmp(s, "any") == 0 ? MPI_ANY_SOURCE : atoi(s);
}

/* Write its own slot half: find the watch's memory file among its
 * mappings, and in slot rank+1 leave gen odd and a receive from the L[1]
 * peer in the fields; then wait for ever. */
static void
torn(void)
{
	volatile struct wire_slot	*s;
	char				 line[512];
	unsigned long			 at;
	FILE				*f;

	if ((f = fopen("/proc/self/maps", "r")) == NULL)
		exit(1);
	while (fgets(line, sizeof(line), f) != NULL)
		if (strstr(line, "/memfd:ensemble-watch") != NULL &&
		    sscanf(line, "%lx", &at) == 1) {
			s = (volatile struct wire_slot *)(at + (unsigned long)
			    (ens_self()->rank + 1) * WIRE_SLOT_SIZE);
			s->gen |= 1;
			s->call = WC_RECV;
			s->wait = WIRE_WAIT_ALL;
			s->type = 0;
			s->port = 1;
			s->peers[0] = ens_port("L", 1).rank;
			s->npeers = 1;
			s->recvs = 1;
			break;
		}
	fclose(f);
	for (;;)
		pause();
}

/* Do one step. */
static void
step(const char *a)
{
	char	 t[64], u[64], line[256], *c;
	int	 v = 1, w = 0, i, j, n;
	double	 t0, go;
	static double	*big;

	if (strncmp(a, "send:", 5) == 0) {
		i = port(a + 5, t, sizeof(t));
		ens_send(t, i, &v, 1, MPI_INT);
	} else if (strncmp(a, "ssend:", 6) == 0) {
		i = port(a + 6, t, sizeof(t));
		ens_ssend(t, i, &v, 1, MPI_INT);
	} else if (strncmp(a, "recv:", 5) == 0) {
		i = port(a + 5, t, sizeof(t));
		ens_recv(t, i, &v, 1, MPI_INT);
	} else if (strncmp(a, "probe:", 6) == 0) {
		i = port(a + 6, t, sizeof(t));
		ens_probe(t, i, MPI_STATUS_IGNORE);
	} else if (strcmp(a, "recvany") == 0)
		ens_recv_any(NULL, &v, 1, MPI_INT);
	else if (strncmp(a, "recvany:", 8) == 0)
		ens_recv_any(a + 8, &v, 1, MPI_INT);
	else if (strncmp(a, "isend:", 6) == 0 && nreqs < MAXREQ) {
		i = port(a + 6, t, sizeof(t));
		ens_isend(t, i, &bufs[nreqs], 1, MPI_INT, &reqs[nreqs]);
		nreqs++;
	} else if (strncmp(a, "irecv:", 6) == 0 && nreqs < MAXREQ) {
		i = port(a + 6, t, sizeof(t));
		ens_irecv(t, i, &bufs[nreqs], 1, MPI_INT, &reqs[nreqs]);
		nreqs++;
	} else if (strcmp(a, "waitall") == 0) {
		ens_waitall(nreqs, reqs);
		nreqs = 0;
	} else if (strncmp(a, "sendrecv:", 9) == 0) {
		i = port(a + 9, t, sizeof(t));
		c = strchr(strchr(a + 9, ':') + 1, ':');
		j = port(c + 1, u, sizeof(u));
		ens_sendrecv(t, i, &v, 1, MPI_INT, u, j, &w, 1, MPI_INT,
		    MPI_STATUS_IGNORE);
	} else if (strcmp(a, "barrier") == 0)
		ens_barrier();
	else if (strcmp(a, "allreduce") == 0)
		ens_allreduce(&v, &w, 1, MPI_INT, MPI_SUM);
	else if (strncmp(a, "allreduce:", 10) == 0) {
		i = port(a + 10, t, sizeof(t));
		ens_allreduce_over(&v, &w, 1, MPI_INT, MPI_SUM, t, i);
	} else if (strncmp(a, "bcast:", 6) == 0)
		ens_bcast(&v, 1, MPI_INT, a + 6);
	else if (strncmp(a, "sleep:", 6) == 0)
		sleep((unsigned)atoi(a + 6));
	else if (strcmp(a, "stdin") == 0) {
		if (fgets(line, sizeof(line), stdin) == NULL)
			line[0] = '\0';
	} else if (strncmp(a, "big:", 4) == 0) {
		n = 1 << 17;
		if (big == NULL && (big = calloc((size_t)n, sizeof(*big))) == NULL)
			exit(1);
		for (t0 = MPI_Wtime(), go = 1; go > 0; ) {
			MPI_Allreduce(MPI_IN_PLACE, big, n, MPI_DOUBLE, MPI_SUM,
			    MPI_COMM_WORLD);
			go = MPI_Wtime() - t0 < atof(a + 4);
			MPI_Bcast(&go, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		}
	} else if (strncmp(a, "rawsend:", 8) == 0)
		MPI_Send(&v, 1, MPI_INT, rank(a + 8), 77, MPI_COMM_WORLD);
	else if (strncmp(a, "rawrecv:", 8) == 0)
		MPI_Recv(&v, 1, MPI_INT, rank(a + 8), 77, MPI_COMM_WORLD,
		    MPI_STATUS_IGNORE);
	else if (strncmp(a, "rawisend:", 9) == 0 && nreqs < MAXREQ) {
		MPI_Isend(&bufs[nreqs], 1, MPI_INT, rank(a + 9), 77,
		    MPI_COMM_WORLD, &reqs[nreqs]);
		nreqs++;
	} else if (strncmp(a, "rawirecv:", 9) == 0 && nreqs < MAXREQ) {
		MPI_Irecv(&bufs[nreqs], 1, MPI_INT, rank(a + 9), 77,
		    MPI_COMM_WORLD, &reqs[nreqs]);
		nreqs++;
	} else if (strcmp(a, "rawwaitall") == 0) {
		MPI_Waitall(nreqs, reqs, sts);
		nreqs = 0;
	} else if (strcmp(a, "rawbarrier") == 0)
		MPI_Barrier(MPI_COMM_WORLD);
	else if (strcmp(a, "rawallreduce") == 0)
		MPI_Allreduce(&v, &w, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	else if (strcmp(a, "exit") == 0)
		exit(0);
	else if (strcmp(a, "torn") == 0)
		torn();
	else if (strncmp(a, "say:", 4) == 0) {
		printf("%s: %s\n", ens_self()->name, a + 4);
		fflush(stdout);
	} else {
		fprintf(stderr, "blocker: unknown step '%s'\n", a);
		exit(2);
	}
}

int
main(int argc, char **argv)
{
	int	i = 1, level;

	if (argc > 1 && strcmp(argv[1], "threads") == 0) {
		if (MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &level) !=
		    MPI_SUCCESS || level != MPI_THREAD_MULTIPLE) {
			fprintf(stderr, "blocker: no MPI_THREAD_MULTIPLE\n");
			exit(1);
		}
		i = 2;
	}
	ens_init(&argc, &argv);
	for (; i < argc; i++)
		step(argv[i]);
	ens_finalize();
	return 0;
}
