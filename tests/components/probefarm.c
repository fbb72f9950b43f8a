/* probefarm.c -- a farm whose collector takes each message on the port its
 * probe found (issue 34), for tests/probefarm.test.
 *
 *	probefarm work ROUNDS
 *	probefarm collect MODE NTYPE NALL
 *
 * A worker w[k] sends ROUNDS messages on Out[1], the j-th of k * j ints,
 * each 1000 * k + j: every message a size of its own.  The collector
 * probes NTYPE messages on any In port (ens_probe_any("In")), then NALL
 * on any port of every type (ens_probe_any(NULL), the type by
 * ens_port_of), sizes its buffer from the probe's status and receives:
 * MODE 'port' with ens_recv on the port the probe returned, the receive
 * of exactly the message probed ('probe any In as m; recv m;'); MODE
 * 'any' with ens_recv_any of the same ports, which may take another
 * message than the one probed (its buffer holds the largest, so that the
 * run ends and its trace can be checked).  It prints one line per
 * message: the port, the ints, the sender and its round. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ensemble.h>

/* Send ROUNDS messages of sizes of this worker's own. */
static void
work(int rounds)
{
	int	k = ens_self()->index, j, i, *v;

	v = malloc(sizeof(*v) * (size_t)(k * rounds + 1));
	if (v == NULL)
		exit(70);
	for (j = 1; j <= rounds; j++) {
		for (i = 0; i < k * j; i++)
			v[i] = 1000 * k + j;
		ens_send("Out", 1, v, k * j, MPI_INT);
	}
	free(v);
}

/* Take one message on a port of 'type' (NULL: of every type) as MODE
 * says, and print it; 'most' ints hold any message. */
static void
take(const char *mode, const char *type, int most)
{
	MPI_Status	 st;
	const char	*t;
	int		 k, n, got, *v, i, bad = 0, port = strcmp(mode, "port") == 0;

	k = ens_probe_any(type, &st);
	ens_port_of(&st, &t);
	if (MPI_Get_count(&st, MPI_INT, &n) != MPI_SUCCESS || n < 1)
		exit(70);
	if (!port && n < most)
		n = most;
	if ((v = malloc(sizeof(*v) * (size_t)n)) == NULL)
		exit(70);
	if (port) {
		ens_recv_status(t, k, v, n, MPI_INT, &st);
		got = k;
	} else {
		got = ens_recv_any_status(type, v, n, MPI_INT, &st);
		ens_port_of(&st, &t);
	}
	MPI_Get_count(&st, MPI_INT, &n);
	for (i = 1; i < n; i++)
		bad |= v[i] != v[0];
	printf("%s: %s[%d] %d ints from w[%d] round %d%s\n", ens_self()->name,
	    t, got, n, v[0] / 1000, v[0] % 1000, bad ? " (mixed)" : "");
	free(v);
}

int
main(int argc, char **argv)
{
	int	i, ntype, nall;

	ens_init(&argc, &argv);
	if (argc == 3 && strcmp(argv[1], "work") == 0)
		work(atoi(argv[2]));
	else if (argc == 5 && strcmp(argv[1], "collect") == 0) {
		/* A worker's largest, k * rounds ints: k below nprocs, rounds
		 * at most the messages taken. */
		ntype = atoi(argv[3]);
		nall = atoi(argv[4]);
		for (i = 0; i < ntype; i++)
			take(argv[2], "In", ens_self()->nprocs * (ntype + nall));
		for (i = 0; i < nall; i++)
			take(argv[2], NULL, ens_self()->nprocs * (ntype + nall));
	} else {
		fprintf(stderr, "usage: probefarm work ROUNDS | collect "
		    "port|any NTYPE NALL\n");
		exit(2);
	}
	fflush(stdout);
	ens_finalize();
	return 0;
}
