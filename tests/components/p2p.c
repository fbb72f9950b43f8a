/* p2p.c -- a component for tests/p2p.test: a node of a ring (ports
 * Left[1] and Right[1]) that makes the point-to-point calls of issue 26
 * and prints what each gave it, one line per call, so that data from the
 * wrong port or a wrong outcome shows.  Node i sends values made of i;
 * each line names the left neighbour's.  Its behaviour (argument "all"):
 *	sendrecv Right[1], Left[1]; sendrecv replace Right[1], Left[1];
 *	irecv Left[1] as s; isend Right[1] as r; wait s; wait r;
 *	irecv Left[1] as s; isend Right[1] as r;
 *	  test s { } else { wait s; } wait r;
 *	irecv Left[1] as s; isend Right[1] as r;
 *	  waitany { on r { wait s; } on s { wait r; } }
 *	irecv Left[1] as s; isend Right[1] as r;
 *	  waitsome { on r { } on s { } } waitall;
 *	isend Right[1] as r; probe Left[1]; recv Left[1]; wait r;
 *	isend Right[1] as r; probe any; recv any; wait r;
 *	isend Right[1] as r;
 *	  iprobe Left[1] { recv Left[1]; } else { probe Left[1]; recv Left[1]; }
 *	  wait r;
 *	isend Right[1] as r;
 *	  iprobe any Left { recv any Left; } else { recv any Left; } wait r;
 * With "wrong-wait" it waits for r before s after 'irecv Left[1] as s;
 * isend Right[1] as r;'; with "wrong-replace" it makes an ens_sendrecv
 * (no replace) after its first: protocol violations.
 * With argument "raw", it makes the same calls (but waitsome) in raw MPI
 * on the ports' ranks and tags.  With argument "truncate", it only makes an ens_sendrecv whose receive
 * holds one int where node[1] sends two; with "wait-truncate", an irecv
 * of one int that ens_wait completes with node[1]'s two. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ensemble.h>

static int	me, left;

/* A blocking receive's value on Left[1], checked against want. */
static void
say(const char *what, int got, int want)
{
	printf("%s: %s %d%s\n", ens_self()->name, what, got, got == want ?
	    "" : " (wrong)");
}

/* irecv Left[1] as s; isend Right[1] as r, of value v. */
static void
post(MPI_Request rq[2], int *in, int *out, int v)
{
	*out = v;
	ens_irecv("Left", 1, in, 1, MPI_INT, &rq[1]);
	ens_isend("Right", 1, out, 1, MPI_INT, &rq[0]);
}

/* The same calls in raw MPI on the ports' ranks and tags (traced by
 * libensemble's PMPI wrappers): sendrecv, test until true, waitany twice,
 * probe, iprobe until true. */
static void
raw(void)
{
	ens_port_t	 R = ens_port("Right", 1), L = ens_port("Left", 1);
	MPI_Request	 rq[2];
	MPI_Status	 st;
	int		 in, out = me, flag = 0, k;

	MPI_Sendrecv(&out, 1, MPI_INT, R.rank, R.tag, &in, 1, MPI_INT, L.rank,
	    L.recv_tag, R.comm, &st);
	say("raw sendrecv", in, left);
	out = 2 * me;
	MPI_Irecv(&in, 1, MPI_INT, L.rank, L.recv_tag, L.comm, &rq[1]);
	MPI_Isend(&out, 1, MPI_INT, R.rank, R.tag, R.comm, &rq[0]);
	while (!flag)
		MPI_Test(&rq[1], &flag, &st);
	MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
	say("raw test", in, 2 * left);
	out = 3 * me;
	MPI_Irecv(&in, 1, MPI_INT, L.rank, L.recv_tag, L.comm, &rq[1]);
	MPI_Isend(&out, 1, MPI_INT, R.rank, R.tag, R.comm, &rq[0]);
	MPI_Waitany(2, rq, &k, &st);
	MPI_Waitany(2, rq, &k, &st);
	say("raw waitany", in, 3 * left);
	out = 4 * me;
	MPI_Isend(&out, 1, MPI_INT, R.rank, R.tag, R.comm, &rq[0]);
	MPI_Probe(L.rank, L.recv_tag, L.comm, &st);
	MPI_Recv(&in, 1, MPI_INT, L.rank, L.recv_tag, L.comm, &st);
	MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
	say("raw probe", in, 4 * left);
	out = 5 * me;
	MPI_Isend(&out, 1, MPI_INT, R.rank, R.tag, R.comm, &rq[0]);
	for (flag = 0; !flag; )
		MPI_Iprobe(L.rank, L.recv_tag, L.comm, &flag, &st);
	MPI_Recv(&in, 1, MPI_INT, L.rank, L.recv_tag, L.comm, &st);
	MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
	say("raw iprobe", in, 5 * left);
}

int
main(int argc, char **argv)
{
	MPI_Request	 rq[2], r;
	MPI_Status	 st, sts[2];
	const char	*type;
	int		 in, out, two[2], n, k, flag, port, idx[2], got;
	int		 v[2];

	ens_init(&argc, &argv);
	me = ens_self()->index;
	left = me == 1 ? ens_self()->nprocs : me - 1;
	/* Only node[1] sends two ints: only node[2] fails. */
	if (argc > 1 && strcmp(argv[1], "truncate") == 0) {
		two[0] = two[1] = me;
		ens_sendrecv("Right", 1, two, me == 1 ? 2 : 1, MPI_INT, "Left", 1,
		    &in, 1, MPI_INT, &st);
		ens_finalize();
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "raw") == 0) {
		raw();
		ens_finalize();
		return 0;
	}
	/* waitany, then a wait on each request: one of them complete
	 * already, a wait on MPI_REQUEST_NULL that goes on at once. */
	if (argc > 1 && strcmp(argv[1], "null-wait") == 0) {
		post(rq, &in, &out, 900 * me);
		(void)ens_waitany(2, rq, &st);
		ens_wait(&rq[1], MPI_STATUS_IGNORE);
		ens_wait(&rq[0], MPI_STATUS_IGNORE);
		say("null-wait", in, 900 * left);
		ens_finalize();
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "wait-truncate") == 0) {
		two[0] = two[1] = me;
		ens_irecv("Left", 1, &in, 1, MPI_INT, &rq[1]);
		ens_isend("Right", 1, two, me == 1 ? 2 : 1, MPI_INT, &rq[0]);
		ens_wait(&rq[1], &st);
		ens_wait(&rq[0], MPI_STATUS_IGNORE);
		ens_finalize();
		return 0;
	}

	/* sendrecv: the status is the receive's. */
	out = me;
	ens_sendrecv("Right", 1, &out, 1, MPI_INT, "Left", 1, &in, 1, MPI_INT,
	    &st);
	if (argc > 1 && strcmp(argv[1], "wrong-replace") == 0)
		ens_sendrecv("Right", 1, &out, 1, MPI_INT, "Left", 1, &in, 1,
		    MPI_INT, &st);
	k = ens_port_of(&st, &type);
	MPI_Get_count(&st, MPI_INT, &n);
	printf("%s: sendrecv %d from %s[%d], %d int%s\n", ens_self()->name,
	    in, type, k, n, in == left ? "" : " (wrong)");
	in = 10 * me;
	ens_sendrecv_replace("Right", 1, "Left", 1, &in, 1, MPI_INT, NULL);
	say("sendrecv_replace", in, 10 * left);

	/* wait on each request. */
	post(rq, &in, &out, 100 * me);
	if (argc > 1 && strcmp(argv[1], "wrong-wait") == 0)
		ens_wait(&rq[0], MPI_STATUS_IGNORE);
	ens_wait(&rq[1], &st);
	ens_wait(&rq[0], MPI_STATUS_IGNORE);
	say("wait", in, 100 * left);
	printf("%s: wait leaves %s\n", ens_self()->name, rq[0] ==
	    MPI_REQUEST_NULL && rq[1] == MPI_REQUEST_NULL ? "null requests" :
	    "requests");

	/* test, and wait if it was not done. */
	post(rq, &in, &out, 200 * me);
	if (!ens_test(&rq[1], &st))
		ens_wait(&rq[1], &st);
	ens_wait(&rq[0], MPI_STATUS_IGNORE);
	say("test", in, 200 * left);

	/* waitany, then wait for the other. */
	post(rq, &in, &out, 300 * me);
	idx[0] = ens_waitany(2, rq, &st);
	ens_wait(&rq[1 - idx[0]], MPI_STATUS_IGNORE);
	say("waitany", in, 300 * left);
	printf("%s: waitany with none pending %s\n", ens_self()->name,
	    rq[0] == MPI_REQUEST_NULL && rq[1] == MPI_REQUEST_NULL ?
	    "all null" : "one left");

	/* waitsome, then waitall for what is left. */
	post(rq, &in, &out, 400 * me);
	n = ens_waitsome(2, rq, idx, sts);
	ens_waitall(2, rq);
	say("waitsome", in, 400 * left);
	printf("%s: waitsome completed %s\n", ens_self()->name, n == 1 ||
	    (n == 2 && idx[0] + idx[1] == 1) ? "one or both" : "wrong");

	/* probe a port, then any port. */
	out = 500 * me;
	ens_isend("Right", 1, &out, 1, MPI_INT, &r);
	ens_probe("Left", 1, &st);
	MPI_Get_count(&st, MPI_INT, &n);
	ens_recv("Left", 1, &in, 1, MPI_INT);
	ens_wait(&r, NULL);
	say("probe", in, 500 * left);
	printf("%s: probe saw %d int%s\n", ens_self()->name, n, n == 1 ? "" : "s");
	out = 600 * me;
	ens_isend("Right", 1, &out, 1, MPI_INT, &r);
	port = ens_probe_any(NULL, &st);
	ens_port_of(&st, &type);
	got = ens_recv_any(NULL, &in, 1, MPI_INT);
	ens_wait(&r, NULL);
	say("probe_any", in, 600 * left);
	printf("%s: probe_any found %s[%d], recv_any took [%d]\n",
	    ens_self()->name, type, port, got);

	/* iprobe, and probe if there was none. */
	out = 700 * me;
	ens_isend("Right", 1, &out, 1, MPI_INT, &r);
	if (!ens_iprobe("Left", 1, &st))
		ens_probe("Left", 1, &st);
	ens_recv("Left", 1, &in, 1, MPI_INT);
	ens_wait(&r, NULL);
	say("iprobe", in, 700 * left);
	out = 800 * me;
	ens_isend("Right", 1, &out, 1, MPI_INT, &r);
	port = -1;
	flag = ens_iprobe_any("Left", &port, &st);
	got = ens_recv_any("Left", v, 2, MPI_INT);
	ens_wait(&r, NULL);
	say("iprobe_any", v[0], 800 * left);
	printf("%s: iprobe_any's port %s, recv_any took [%d]\n",
	    ens_self()->name, (flag && port == 1) || (!flag && port == 0) ?
	    "agrees with its flag" : "is wrong", got);
	ens_finalize();
	return 0;
}
