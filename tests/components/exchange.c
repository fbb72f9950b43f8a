/* exchange.c -- a component for tests/exchange.test that makes the calls
 * libensemble has for the rest of the BEHAVIOUR language, and prints what
 * each gave it.  One 'hub' with ports W[1..n], one per worker, and workers
 * 'w[1..n]' with one port H[1]; every process runs this program, and
 * ens_self says which it is.  Their behaviours:
 *
 *	hub { scatter from hub; gather to hub; alltoall;
 *	      issend W[*]; ibsend W[*]; waitall;
 *	      irecv any; ... (n times) waitall; send W[*];
 *	      recv W[*]; recv any W; ... (n times) }
 *	w   { scatter from hub; gather to hub; alltoall;
 *	      recv H[1]; recv H[1]; send H[1]; recv H[1];
 *	      send H[1]; send H[1]; }
 *
 * Worker i sends i ints to the 'irecv any', 4 - i ... to 'recv W[i]' and
 * i + 3 to 'recv any W', each int 100 * i + its place, so that a message
 * put down to the wrong port, or a wrong count, shows.  Each process also
 * sums its index over ens_comm_component.  The hub's first non-blocking
 * sends are ens_issend, its second ens_ibsend.
 *
 * With an argument it misuses the library instead, which stops it:
 * 'irecv-any-some' posts ens_irecv_any on its type A when it has other
 * ports, 'port-of-null' asks ens_port_of about a NULL status; 'idle' does
 * nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ensemble.h>

#define MAXN	16		/* workers at most */
#define MAXLEN	(MAXN + 4)	/* ints in a message at most */

/* "W[2] count 2: 200 201" for a message got by port k of type t. */
static void
print_msg(const char *what, const char *t, int k, int count, const int *v)
{
	int	j;

	printf("hub: %s %s[%d] count %d:", what, t != NULL ? t : "?", k, count);
	for (j = 0; j < count && j < MAXLEN; j++)
		printf(" %d", v[j]);
	printf("\n");
}

/* What every process does: the collectives, and its component's
 * communicator. */
static void
common(const ens_self_t *self)
{
	MPI_Comm	 cc = ens_comm_component();
	int		*sbuf, *rbuf, got, i, size, rank, sum;

	if ((sbuf = calloc((size_t)self->nprocs, sizeof(int))) == NULL ||
	    (rbuf = calloc((size_t)self->nprocs, sizeof(int))) == NULL) {
		perror("exchange");
		exit(1);
	}
	for (i = 0; i < self->nprocs; i++)
		sbuf[i] = 10 * i + 1;
	ens_scatter(sbuf, 1, MPI_INT, &got, 1, MPI_INT, "hub");
	printf("%s: scatter %d", self->name, got);
	got = self->rank * self->rank;
	ens_gather(&got, 1, MPI_INT, rbuf, 1, MPI_INT, "hub");
	if (strcmp(self->name, "hub") == 0) {
		printf("; gather");
		for (i = 0; i < self->nprocs; i++)
			printf(" %d", rbuf[i]);
	}
	for (i = 0; i < self->nprocs; i++)
		sbuf[i] = 10 * self->rank + i;
	ens_alltoall(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT);
	printf("; alltoall");
	for (i = 0; i < self->nprocs; i++)
		printf(" %d", rbuf[i]);
	MPI_Comm_size(cc, &size);
	MPI_Comm_rank(cc, &rank);
	MPI_Allreduce(&self->index, &sum, 1, MPI_INT, MPI_SUM, cc);
	printf("; component %d of %d, indices sum to %d\n", rank, size, sum);
	free(sbuf);
	free(rbuf);
}

static void
hub(int n)
{
	MPI_Request	 req[2 * MAXN];
	MPI_Status	 st[MAXN], one;
	const char	*t;
	int		 buf[MAXN][MAXLEN], by[MAXN + 1], v[MAXN], go = 1, i, k, c;

	for (i = 0; i < n; i++) {
		v[i] = 1000 + i + 1;
		ens_issend("W", i + 1, &v[i], 1, MPI_INT, &req[i]);
	}
	for (i = 0; i < n; i++)
		ens_ibsend("W", i + 1, &v[i], 1, MPI_INT, &req[n + i]);
	ens_waitall_status(2 * n, req, MPI_STATUSES_IGNORE);

	/* Any order; printed by port. */
	for (i = 0; i < n; i++)
		ens_irecv_any(NULL, buf[i], MAXLEN, MPI_INT, &req[i]);
	ens_waitall_status(n, req, st);
	for (k = 0; k <= n; k++)
		by[k] = -1;
	for (i = 0; i < n; i++) {
		k = ens_port_of(&st[i], &t);
		if (k < 1 || k > n || strcmp(t, "W") != 0 || by[k] >= 0) {
			printf("hub: irecv any %d: port %d of %s\n", i, k,
			    t != NULL ? t : "no type");
			continue;
		}
		by[k] = i;
	}
	for (k = 1; k <= n; k++)
		if ((i = by[k]) >= 0) {
			MPI_Get_count(&st[i], MPI_INT, &c);
			print_msg("irecv any", "W", k, c, buf[i]);
		}
	for (i = 0; i < n; i++)
		ens_send("W", i + 1, &go, 1, MPI_INT);

	for (i = 0; i < n; i++) {
		ens_recv_status("W", i + 1, buf[0], MAXLEN, MPI_INT, &one);
		MPI_Get_count(&one, MPI_INT, &c);
		k = ens_port_of(&one, &t);
		print_msg("recv", t, k, c, buf[0]);
	}
	for (i = 0; i < n; i++) {
		k = ens_recv_any_status("W", buf[i], MAXLEN, MPI_INT, &st[i]);
		if (k < 1 || k > n || ens_port_of(&st[i], NULL) != k) {
			printf("hub: recv any %d: port %d\n", i, k);
			continue;
		}
		by[k] = i;
	}
	for (k = 1; k <= n; k++) {
		MPI_Get_count(&st[by[k]], MPI_INT, &c);
		print_msg("recv any", "W", k, c, buf[by[k]]);
	}
}

/* Send worker i's message of len ints. */
static void
send_n(int i, int len)
{
	int	v[MAXLEN], j;

	for (j = 0; j < len; j++)
		v[j] = 100 * i + j;
	ens_send("H", 1, v, len, MPI_INT);
}

static void
worker(const ens_self_t *self)
{
	int	a, b, go, i = self->index;

	ens_recv("H", 1, &a, 1, MPI_INT);
	ens_recv("H", 1, &b, 1, MPI_INT);
	printf("%s: got %d and %d\n", self->name, a, b);
	send_n(i, i);
	ens_recv("H", 1, &go, 1, MPI_INT);
	send_n(i, 4 - i);
	send_n(i, i + 3);
}

/* Misuse the library as mode says (or do nothing). */
static void
misuse(const char *mode)
{
	MPI_Request	req;
	int		v;

	if (strcmp(mode, "irecv-any-some") == 0)
		ens_irecv_any("A", &v, 1, MPI_INT, &req);
	else if (strcmp(mode, "port-of-null") == 0)
		ens_port_of(NULL, NULL);
	else if (strcmp(mode, "idle") != 0) {
		fprintf(stderr, "exchange: unknown mode '%s'\n", mode);
		exit(2);
	}
}

int
main(int argc, char **argv)
{
	const ens_self_t	*self;
	const char		*mode;

	ens_init(&argc, &argv);
	if ((mode = ens_param("1")) != NULL) {
		misuse(mode);
		ens_finalize();
		return 0;
	}
	self = ens_self();
	if (self->nprocs - 1 > 3) {	/* 4 - i ints to recv W[i] */
		fprintf(stderr, "exchange: at most 3 workers\n");
		return 2;
	}
	common(self);
	if (strcmp(self->component, "hub") == 0)
		hub(ens_ports("W"));
	else
		worker(self);
	ens_finalize();
	return 0;
}
