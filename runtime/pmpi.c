/* pmpi.c -- raw MPI calls a component makes outside the port interface,
 * seen through the MPI profiling interface: each wrapper defines the MPI_
 * name and calls the PMPI_ one.  Each blocking call says in the process's
 * slot of the run's watch (slot.h) what it waits for, as the port calls
 * do, and each post remembers its request's peer for the waits; and the
 * call is recorded for 'ensemble run --trace' (VIA raw) when the process
 * is tracing (traced_*), otherwise only passed on.  libensemble's own
 * calls (ens.c) go to PMPI_* directly, so nothing is said or recorded
 * twice.  Wrapped: the blocking and non-blocking sends and receives,
 * MPI_Sendrecv and MPI_Sendrecv_replace, MPI_Wait, MPI_Waitall, MPI_Test,
 * MPI_Waitany and MPI_Waitsome, MPI_Probe and MPI_Iprobe, and the
 * collectives the port interface has (the v-forms too); MPI_Testall,
 * MPI_Testany, MPI_Testsome and MPI_Request_free only for the watch's
 * requests; others pass through unrecorded (man/ensemble-trace.5), and the
 * watch takes a wait for their requests as one it cannot follow. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "record.h"
#include "slot.h"

/* The world rank of peer (in c, comm id k), keeping MPI_ANY_SOURCE as
 * TRACE_ANY and MPI_PROC_NULL as none. */
static int
peer_of(MPI_Comm c, int k, int peer)
{
	if (peer == MPI_ANY_SOURCE)
		return TRACE_ANY;
	if (peer == MPI_PROC_NULL || peer < 0)
		return TRACE_NONE;
	return rec_world_rank(c, k, peer);
}


/* The watch (slot.h): a raw call on one peer (rank in the last
 * communicator, slot_last), to send to it or receive from it; one the
 * watch cannot name waits for nobody it knows. */
static inline void
raw_p2p_last(int call, int rank, int send)
{
	volatile struct wire_slot	*s = slot_open();
	int				 w = slot_last_rank(rank);

	slot_raw();
	if (w >= 0) {
		s->peers[0] = w;
		slot_fields(s, call, WIRE_WAIT_ALL, -1, -1, 1, send ? 1 : 0,
		    send ? 0 : 1);
	} else
		slot_fields(s, call, WIRE_WAIT_NONE, -1, -1, 0, 0, 0);
	slot_done();
}

/* The same, rank in comm. */
static inline void
raw_p2p(int call, MPI_Comm comm, int rank, int send)
{
	if (comm != slot_last.c)
		slot_last_find(comm);
	raw_p2p_last(call, rank, send);
}

/* Whether a raw call on comm takes the short way: the process not
 * tracing, and comm the last communicator the watch was asked about
 * (slot_last), so that saying the call is stores alone, with no call
 * before MPI's that would keep the call's arguments aside.  Else the
 * wrapper's general way (raw_*), the same stores and the trace. */
#define RAW_SHORT(comm)	(!rec_on && (comm) == slot_last.c)

/* A raw sendrecv: to dest, from source. */
static void
raw_sendrecv(int call, MPI_Comm comm, int dest, int source)
{
	volatile struct wire_slot	*s = slot_me;
	int				 d = slot_world_rank(comm, dest);
	int				 f = slot_world_rank(comm, source);

	slot_begin(call, d >= 0 && f >= 0 ? WIRE_WAIT_ALL : WIRE_WAIT_NONE);
	slot_raw();
	if (d >= 0 && f >= 0) {
		s->peers[0] = d;
		s->sends = 1;
		s->npeers = 1;
		if (f == d)
			s->recvs = 1;
		else {
			s->peers[s->npeers++] = f;
			s->recvs = 2;
		}
	}
	slot_done();
}

/* A raw collective on the last communicator (slot_last; root its rank
 * there, or -1). */
static inline void
raw_coll_last(int call, int root)
{
	if (!slot_last.known) {
		slot_begin(call, WIRE_WAIT_NONE);
		slot_raw();
		slot_done();
		return;
	}
	slot_begin(call, WIRE_WAIT_COLL);
	slot_raw();
	slot_me->comm = slot_last.id;
	slot_me->ncoll = (*slot_last.ncoll)++;
	slot_me->root = slot_last_rank(root);
	slot_done();
}

/* The same on comm. */
static inline void
raw_coll(int call, MPI_Comm comm, int root)
{
	if (comm != slot_last.c)
		slot_last_find(comm);
	raw_coll_last(call, root);
}

/* A raw post's request, to or from rank in comm. */
static void
raw_post(MPI_Request r, MPI_Comm comm, int rank, int send)
{
	int	w = slot_world_rank(comm, rank);

	slot_req_post(r, w >= 0 ? w : SLOT_PEER_UNKNOWN, send);
}

/* A raw wait for n requests (any: for one of them). */
static void
raw_reqs(int call, int any, int n, const MPI_Request *reqs)
{
	if (n < 0 || (n > 0 && reqs == NULL)) {
		slot_begin(call, WIRE_WAIT_NONE);
		slot_raw();
		slot_done();
		return;
	}
	slot_me->loc = -1;
	slot_reqs(call, any, n, reqs);
}

/* A copy of n requests before a call that completes some of them (fixed
 * when n <= 16; NULL when memory ran out: they are not forgotten then). */
static MPI_Request *
raw_save(int n, const MPI_Request *reqs, MPI_Request *fixed)
{
	MPI_Request	*saved = fixed;

	if (n < 0 || (n > 0 && reqs == NULL) ||
	    (n > 16 && (saved = malloc((size_t)n * sizeof(*saved))) == NULL))
		return NULL;
	if (n > 0)
		memcpy(saved, reqs, (size_t)n * sizeof(*saved));
	return saved;
}

/* Forget the requests of saved that the call completed, and free it. */
static void
raw_done(int n, MPI_Request *saved, const MPI_Request *reqs,
    MPI_Request *fixed)
{
	if (saved == NULL)
		return;
	slot_req_done(n, saved, reqs);
	if (saved != fixed)
		free(saved);
}

/* A blocking send in mode m. */
static void
sent(int m, double t0, const void *buf, int count, MPI_Datatype dt,
    int dest, int tag, MPI_Comm comm)
{
	int	k = rec_comm(comm);

	(void)buf;
	rec_p2p(TRACE_SEND, m, t0, NULL, 0, k, peer_of(comm, k, dest), tag,
	    dt, count, 1, NULL, comm);
}

static int
traced_Send(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
    MPI_Comm comm)
{
	double	t0;
	int	rc;

	if (!rec_on)
		return PMPI_Send(buf, count, dt, dest, tag, comm);
	t0 = MPI_Wtime();
	if ((rc = PMPI_Send(buf, count, dt, dest, tag, comm)) == MPI_SUCCESS)
		sent(TRACE_MODE_STD, t0, buf, count, dt, dest, tag, comm);
	return rc;
}

static int
traced_Rsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
    MPI_Comm comm)
{
	double	t0;
	int	rc;

	if (!rec_on)
		return PMPI_Rsend(buf, count, dt, dest, tag, comm);
	t0 = MPI_Wtime();
	if ((rc = PMPI_Rsend(buf, count, dt, dest, tag, comm)) == MPI_SUCCESS)
		sent(TRACE_MODE_STD, t0, buf, count, dt, dest, tag, comm);
	return rc;
}

static int
traced_Ssend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
    MPI_Comm comm)
{
	double	t0;
	int	rc;

	if (!rec_on)
		return PMPI_Ssend(buf, count, dt, dest, tag, comm);
	t0 = MPI_Wtime();
	if ((rc = PMPI_Ssend(buf, count, dt, dest, tag, comm)) == MPI_SUCCESS)
		sent(TRACE_MODE_SYNC, t0, buf, count, dt, dest, tag, comm);
	return rc;
}

static int
traced_Bsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
    MPI_Comm comm)
{
	double	t0;
	int	rc;

	if (!rec_on)
		return PMPI_Bsend(buf, count, dt, dest, tag, comm);
	t0 = MPI_Wtime();
	if ((rc = PMPI_Bsend(buf, count, dt, dest, tag, comm)) == MPI_SUCCESS)
		sent(TRACE_MODE_BUF, t0, buf, count, dt, dest, tag, comm);
	return rc;
}

static int
traced_Recv(void *buf, int count, MPI_Datatype dt, int source, int tag,
    MPI_Comm comm, MPI_Status *st)
{
	MPI_Status	own;
	double		t0;
	int		rc, n, k;

	if (!rec_on)
		return PMPI_Recv(buf, count, dt, source, tag, comm, st);
	if (st == MPI_STATUS_IGNORE)
		st = &own;
	t0 = MPI_Wtime();
	if ((rc = PMPI_Recv(buf, count, dt, source, tag, comm, st)) !=
	    MPI_SUCCESS)
		return rc;
	if (MPI_Get_count(st, dt, &n) != MPI_SUCCESS || n == MPI_UNDEFINED)
		n = -1;
	k = rec_comm(comm);
	rec_p2p(TRACE_RECV, TRACE_MODE_NONE, t0, NULL, 0, k,
	    peer_of(comm, k, st->MPI_SOURCE), st->MPI_TAG, dt, n, 1, NULL, comm);
	return rc;
}

/* A non-blocking send in mode m: its event, and its request kept. */
static void
isent(int m, double t0, int count, MPI_Datatype dt, int dest, int tag,
    MPI_Comm comm, const MPI_Request *req)
{
	int	k = rec_comm(comm);

	rec_p2p(TRACE_ISEND, m, t0, NULL, 0, k, peer_of(comm, k, dest), tag,
	    dt, count, 1, req, comm);
}

static int
traced_Isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
    MPI_Comm comm, MPI_Request *req)
{
	double	t0;
	int	rc;

	if (!rec_on)
		return PMPI_Isend(buf, count, dt, dest, tag, comm, req);
	t0 = MPI_Wtime();
	if ((rc = PMPI_Isend(buf, count, dt, dest, tag, comm, req)) ==
	    MPI_SUCCESS)
		isent(TRACE_MODE_STD, t0, count, dt, dest, tag, comm, req);
	return rc;
}

static int
traced_Issend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
    MPI_Comm comm, MPI_Request *req)
{
	double	t0;
	int	rc;

	if (!rec_on)
		return PMPI_Issend(buf, count, dt, dest, tag, comm, req);
	t0 = MPI_Wtime();
	if ((rc = PMPI_Issend(buf, count, dt, dest, tag, comm, req)) ==
	    MPI_SUCCESS)
		isent(TRACE_MODE_SYNC, t0, count, dt, dest, tag, comm, req);
	return rc;
}

static int
traced_Ibsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
    MPI_Comm comm, MPI_Request *req)
{
	double	t0;
	int	rc;

	if (!rec_on)
		return PMPI_Ibsend(buf, count, dt, dest, tag, comm, req);
	t0 = MPI_Wtime();
	if ((rc = PMPI_Ibsend(buf, count, dt, dest, tag, comm, req)) ==
	    MPI_SUCCESS)
		isent(TRACE_MODE_BUF, t0, count, dt, dest, tag, comm, req);
	return rc;
}

static int
traced_Irecv(void *buf, int count, MPI_Datatype dt, int source, int tag,
    MPI_Comm comm, MPI_Request *req)
{
	double	t0;
	int	rc, k;

	if (!rec_on)
		return PMPI_Irecv(buf, count, dt, source, tag, comm, req);
	t0 = MPI_Wtime();
	if ((rc = PMPI_Irecv(buf, count, dt, source, tag, comm, req)) !=
	    MPI_SUCCESS)
		return rc;
	k = rec_comm(comm);
	rec_p2p(TRACE_IRECV, TRACE_MODE_NONE, t0, NULL, 0, k,
	    peer_of(comm, k, source), tag == MPI_ANY_TAG ? TRACE_ANY : tag, dt,
	    count, 1, req, comm);
	return rc;
}

static int
traced_Wait(MPI_Request *req, MPI_Status *st)
{
	if (!rec_on)
		return PMPI_Wait(req, st);
	return rec_waitall(1, req, st == MPI_STATUS_IGNORE ?
	    MPI_STATUSES_IGNORE : st, 1);
}

static int
traced_Waitall(int n, MPI_Request reqs[], MPI_Status sts[])
{
	if (!rec_on)
		return PMPI_Waitall(n, reqs, sts);
	return rec_waitall(n, reqs, sts, 1);
}

static int
traced_Sendrecv(const void *sbuf, int scount, MPI_Datatype sdt, int dest,
    int stag, void *rbuf, int rcount, MPI_Datatype rdt, int source, int rtag,
    MPI_Comm comm, MPI_Status *st)
{
	MPI_Status	own;
	double		t0;
	int		rc, k;

	if (!rec_on)
		return PMPI_Sendrecv(sbuf, scount, sdt, dest, stag, rbuf, rcount,
		    rdt, source, rtag, comm, st);
	if (st == MPI_STATUS_IGNORE)
		st = &own;
	t0 = MPI_Wtime();
	if ((rc = PMPI_Sendrecv(sbuf, scount, sdt, dest, stag, rbuf, rcount, rdt,
	    source, rtag, comm, st)) != MPI_SUCCESS)
		return rc;
	k = rec_comm(comm);
	rec_sendrecv(TRACE_SENDRECV, t0, NULL, 0, peer_of(comm, k, dest), stag,
	    sdt, scount, NULL, 0, st, rdt, k, 1, comm);
	return rc;
}

static int
traced_Sendrecv_replace(void *buf, int count, MPI_Datatype dt, int dest,
    int stag, int source, int rtag, MPI_Comm comm, MPI_Status *st)
{
	MPI_Status	own;
	double		t0;
	int		rc, k;

	if (!rec_on)
		return PMPI_Sendrecv_replace(buf, count, dt, dest, stag, source,
		    rtag, comm, st);
	if (st == MPI_STATUS_IGNORE)
		st = &own;
	t0 = MPI_Wtime();
	if ((rc = PMPI_Sendrecv_replace(buf, count, dt, dest, stag, source, rtag,
	    comm, st)) != MPI_SUCCESS)
		return rc;
	k = rec_comm(comm);
	rec_sendrecv(TRACE_SENDRECVREPLACE, t0, NULL, 0, peer_of(comm, k, dest),
	    stag, dt, count, NULL, 0, st, dt, k, 1, comm);
	return rc;
}

static int
traced_Test(MPI_Request *req, int *flag, MPI_Status *st)
{
	MPI_Request	saved;
	MPI_Status	own;
	double		t0;
	int		rc;

	if (!rec_on)
		return PMPI_Test(req, flag, st);
	if (st == MPI_STATUS_IGNORE)
		st = &own;
	saved = *req;
	t0 = MPI_Wtime();
	if ((rc = PMPI_Test(req, flag, st)) != MPI_SUCCESS)
		return rc;
	if (*flag)
		rec_completed(TRACE_TEST, saved, st, t0, MPI_Wtime(), 1);
	else
		rec_test_false(saved, t0, 1);
	return rc;
}

static int
traced_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *st)
{
	MPI_Request	fixed[16], *saved = fixed;
	MPI_Status	own;
	double		t0;
	int		rc;

	if (!rec_on || n < 0 || (n > 16 && (saved = malloc((size_t)n *
	    sizeof(*saved))) == NULL))
		return PMPI_Waitany(n, reqs, index, st);
	if (st == MPI_STATUS_IGNORE)
		st = &own;
	if (n > 0)
		memcpy(saved, reqs, (size_t)n * sizeof(*saved));
	t0 = MPI_Wtime();
	rc = PMPI_Waitany(n, reqs, index, st);
	if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED)
		rec_completed(TRACE_WAITANY, saved[*index], st, t0, MPI_Wtime(), 1);
	if (saved != fixed)
		free(saved);
	return rc;
}

static int
traced_Waitsome(int n, MPI_Request reqs[], int *out, int indices[],
    MPI_Status sts[])
{
	MPI_Request	fixed[16], *saved = fixed;
	MPI_Status	own[16], *st = sts;
	double		t0, t1;
	int		rc, k;

	/* The statuses are ours when the caller ignores them; without
	 * memory for them or the requests, the call is not recorded.  One
	 * call of PMPI_Waitsome for that, with the caller's statuses as
	 * they are (a call where MPI_STATUSES_IGNORE, MPICH's (MPI_Status
	 * *)1, is known to be passed is a region of size 0 to gcc's
	 * -Wstringop-overflow). */
	if (rec_on && n > 16)
		saved = malloc((size_t)n * sizeof(*saved));
	if (rec_on && n >= 0 && sts == MPI_STATUSES_IGNORE)
		st = n <= 16 ? own : malloc((size_t)n * sizeof(*st));
	if (!rec_on || n < 0 || saved == NULL || st == NULL) {
		if (saved != fixed)
			free(saved);
		if (st != sts && st != own)
			free(st);
		return PMPI_Waitsome(n, reqs, out, indices, sts);
	}
	if (n > 0)
		memcpy(saved, reqs, (size_t)n * sizeof(*saved));
	t0 = MPI_Wtime();
	rc = PMPI_Waitsome(n, reqs, out, indices, st);
	t1 = MPI_Wtime();
	for (k = 0; rc == MPI_SUCCESS && *out != MPI_UNDEFINED && k < *out; k++)
		rec_completed(TRACE_WAITSOME, saved[indices[k]], &st[k], t0, t1, 1);
	if (saved != fixed)
		free(saved);
	if (st != sts && st != own)
		free(st);
	return rc;
}

static int
traced_Probe(int source, int tag, MPI_Comm comm, MPI_Status *st)
{
	MPI_Status	own;
	double		t0;
	int		rc, k;

	if (!rec_on)
		return PMPI_Probe(source, tag, comm, st);
	if (st == MPI_STATUS_IGNORE)
		st = &own;
	t0 = MPI_Wtime();
	if ((rc = PMPI_Probe(source, tag, comm, st)) != MPI_SUCCESS)
		return rc;
	k = rec_comm(comm);
	rec_probe(TRACE_PROBE, t0, NULL, 0, REC_FOUND_NONE, k, TRACE_NONE,
	    TRACE_NONE, st, 1, comm);
	return rc;
}

int
MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *st)
{
	MPI_Status	own;
	double		t0;
	int		rc, k;

	if (!rec_on)
		return PMPI_Iprobe(source, tag, comm, flag, st);
	if (st == MPI_STATUS_IGNORE)
		st = &own;
	t0 = MPI_Wtime();
	if ((rc = PMPI_Iprobe(source, tag, comm, flag, st)) != MPI_SUCCESS)
		return rc;
	k = rec_comm(comm);
	rec_probe(*flag ? TRACE_IPROBE : TRACE_IPROBEFALSE, t0, NULL, 0,
	    REC_FOUND_NONE, k,
	    peer_of(comm, k, source), tag == MPI_ANY_TAG ? TRACE_ANY : tag, st,
	    1, comm);
	return rc;
}

/* The size of comm, and whether this process is root there. */
static int
coll_size(MPI_Comm comm, int root, int *isroot)
{
	int	n = 0, me = -1;

	MPI_Comm_size(comm, &n);
	MPI_Comm_rank(comm, &me);
	*isroot = root >= 0 && me == root;
	return n;
}

/* Record a raw collective. */
static void
coll(int op, double t0, MPI_Comm comm, int root, MPI_Datatype sdt,
    long scount, MPI_Datatype rdt, long rcount)
{
	int	isroot, n = coll_size(comm, root, &isroot), k = rec_comm(comm);

	rec_collective(op, t0, k, root >= 0 ? peer_of(comm, k, root) :
	    TRACE_NONE, isroot, n, sdt, scount, rdt, rcount, 1);
}

static int
traced_Barrier(MPI_Comm comm)
{
	double	t0;
	int	rc;

	if (!rec_on)
		return PMPI_Barrier(comm);
	t0 = MPI_Wtime();
	if ((rc = PMPI_Barrier(comm)) == MPI_SUCCESS)
		coll(TRACE_BARRIER, t0, comm, -1, MPI_DATATYPE_NULL, 0,
		    MPI_DATATYPE_NULL, 0);
	return rc;
}

static int
traced_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
	double	t0;
	int	rc;

	if (!rec_on)
		return PMPI_Bcast(buf, count, dt, root, comm);
	t0 = MPI_Wtime();
	if ((rc = PMPI_Bcast(buf, count, dt, root, comm)) == MPI_SUCCESS)
		coll(TRACE_BCAST, t0, comm, root, dt, count, dt, count);
	return rc;
}

static int
traced_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
    MPI_Op op, int root, MPI_Comm comm)
{
	double	t0;
	int	rc;

	if (!rec_on)
		return PMPI_Reduce(sbuf, rbuf, count, dt, op, root, comm);
	t0 = MPI_Wtime();
	if ((rc = PMPI_Reduce(sbuf, rbuf, count, dt, op, root, comm)) ==
	    MPI_SUCCESS)
		coll(TRACE_REDUCE, t0, comm, root, dt, count, dt, count);
	return rc;
}

static int
traced_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
    MPI_Op op, MPI_Comm comm)
{
	double	t0;
	int	rc;

	if (!rec_on)
		return PMPI_Allreduce(sbuf, rbuf, count, dt, op, comm);
	t0 = MPI_Wtime();
	if ((rc = PMPI_Allreduce(sbuf, rbuf, count, dt, op, comm)) ==
	    MPI_SUCCESS)
		coll(TRACE_ALLREDUCE, t0, comm, -1, dt, count, dt, count);
	return rc;
}

static int
traced_Gather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf,
    int rcount, MPI_Datatype rdt, int root, MPI_Comm comm)
{
	double	t0;
	int	rc;

	if (!rec_on)
		return PMPI_Gather(sbuf, scount, sdt, rbuf, rcount, rdt, root,
		    comm);
	t0 = MPI_Wtime();
	if ((rc = PMPI_Gather(sbuf, scount, sdt, rbuf, rcount, rdt, root,
	    comm)) == MPI_SUCCESS)
		coll(TRACE_GATHER, t0, comm, root, sdt, scount, rdt, rcount);
	return rc;
}

static int
traced_Allgather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf,
    int rcount, MPI_Datatype rdt, MPI_Comm comm)
{
	double	t0;
	int	rc;

	if (!rec_on)
		return PMPI_Allgather(sbuf, scount, sdt, rbuf, rcount, rdt,
		    comm);
	t0 = MPI_Wtime();
	if ((rc = PMPI_Allgather(sbuf, scount, sdt, rbuf, rcount, rdt,
	    comm)) == MPI_SUCCESS)
		coll(TRACE_ALLGATHER, t0, comm, -1, sdt, scount, rdt, rcount);
	return rc;
}

static int
traced_Scatter(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf,
    int rcount, MPI_Datatype rdt, int root, MPI_Comm comm)
{
	double	t0;
	int	rc;

	if (!rec_on)
		return PMPI_Scatter(sbuf, scount, sdt, rbuf, rcount, rdt, root,
		    comm);
	t0 = MPI_Wtime();
	if ((rc = PMPI_Scatter(sbuf, scount, sdt, rbuf, rcount, rdt, root,
	    comm)) == MPI_SUCCESS)
		coll(TRACE_SCATTER, t0, comm, root, sdt, scount, rdt, rcount);
	return rc;
}

static int
traced_Alltoall(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf,
    int rcount, MPI_Datatype rdt, MPI_Comm comm)
{
	double	t0;
	int	rc;

	if (!rec_on)
		return PMPI_Alltoall(sbuf, scount, sdt, rbuf, rcount, rdt,
		    comm);
	t0 = MPI_Wtime();
	if ((rc = PMPI_Alltoall(sbuf, scount, sdt, rbuf, rcount, rdt,
	    comm)) == MPI_SUCCESS)
		coll(TRACE_ALLTOALL, t0, comm, -1, sdt, scount, rdt, rcount);
	return rc;
}

/* The sum of a v-collective's counts over comm's ranks. */
static long
vsum(const int *counts, MPI_Comm comm)
{
	long	s = 0;
	int	n = 0, i;

	MPI_Comm_size(comm, &n);
	for (i = 0; counts != NULL && i < n; i++)
		s += counts[i];
	return s;
}

/* Whether this process is rank root of comm. */
static int
is_root(MPI_Comm comm, int root)
{
	int	me = -1;

	MPI_Comm_rank(comm, &me);
	return me == root;
}

static int
traced_Allgatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf,
    const int rcounts[], const int displs[], MPI_Datatype rdt, MPI_Comm comm)
{
	double	t0;
	int	rc;

	if (!rec_on)
		return PMPI_Allgatherv(sbuf, scount, sdt, rbuf, rcounts, displs,
		    rdt, comm);
	t0 = MPI_Wtime();
	if ((rc = PMPI_Allgatherv(sbuf, scount, sdt, rbuf, rcounts, displs,
	    rdt, comm)) == MPI_SUCCESS)
		coll(TRACE_ALLGATHERV, t0, comm, -1, sdt, scount, rdt,
		    vsum(rcounts, comm));
	return rc;
}

static int
traced_Gatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf,
    const int rcounts[], const int displs[], MPI_Datatype rdt, int root,
    MPI_Comm comm)
{
	double	t0;
	int	rc;

	if (!rec_on)
		return PMPI_Gatherv(sbuf, scount, sdt, rbuf, rcounts, displs,
		    rdt, root, comm);
	t0 = MPI_Wtime();
	if ((rc = PMPI_Gatherv(sbuf, scount, sdt, rbuf, rcounts, displs,
	    rdt, root, comm)) == MPI_SUCCESS)
		coll(TRACE_GATHERV, t0, comm, root, sdt, scount, rdt,
		    is_root(comm, root) ? vsum(rcounts, comm) : 0);
	return rc;
}

static int
traced_Scatterv(const void *sbuf, const int scounts[], const int displs[],
    MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt, int root,
    MPI_Comm comm)
{
	double	t0;
	int	rc;

	if (!rec_on)
		return PMPI_Scatterv(sbuf, scounts, displs, sdt, rbuf, rcount,
		    rdt, root, comm);
	t0 = MPI_Wtime();
	if ((rc = PMPI_Scatterv(sbuf, scounts, displs, sdt, rbuf, rcount,
	    rdt, root, comm)) == MPI_SUCCESS)
		coll(TRACE_SCATTERV, t0, comm, root, sdt, is_root(comm, root) ?
		    vsum(scounts, comm) : 0, rdt, rcount);
	return rc;
}

static int
traced_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
    MPI_Datatype sdt, void *rbuf, const int rcounts[], const int rdispls[],
    MPI_Datatype rdt, MPI_Comm comm)
{
	double	t0;
	int	rc;

	if (!rec_on)
		return PMPI_Alltoallv(sbuf, scounts, sdispls, sdt, rbuf, rcounts,
		    rdispls, rdt, comm);
	t0 = MPI_Wtime();
	if ((rc = PMPI_Alltoallv(sbuf, scounts, sdispls, sdt, rbuf, rcounts,
	    rdispls, rdt, comm)) == MPI_SUCCESS)
		coll(TRACE_ALLTOALLV, t0, comm, -1, sdt, vsum(scounts, comm), rdt,
		    vsum(rcounts, comm));
	return rc;
}

static int
traced_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
    MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
	double	t0;
	int	rc, me = 0;

	if (!rec_on)
		return PMPI_Reduce_scatter(sbuf, rbuf, rcounts, dt, op, comm);
	t0 = MPI_Wtime();
	if ((rc = PMPI_Reduce_scatter(sbuf, rbuf, rcounts, dt, op, comm)) ==
	    MPI_SUCCESS) {
		MPI_Comm_rank(comm, &me);
		coll(TRACE_REDUCESCATTER, t0, comm, -1, dt, vsum(rcounts, comm),
		    dt, rcounts != NULL ? rcounts[me] : 0);
	}
	return rc;
}

static __attribute__((noinline)) int
raw_Send(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
    MPI_Comm comm)
{
	int	rc;

	raw_p2p(WC_MPI_SEND, comm, dest, 1);
	rc = traced_Send(buf, count, dt, dest, tag, comm);
	slot_leave();
	return rc;
}

int
MPI_Send(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
    MPI_Comm comm)
{
	int	rc;

	if (!RAW_SHORT(comm))
		return raw_Send(buf, count, dt, dest, tag, comm);
	raw_p2p_last(WC_MPI_SEND, dest, 1);
	rc = PMPI_Send(buf, count, dt, dest, tag, comm);
	slot_leave();
	return rc;
}

int
MPI_Rsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
    MPI_Comm comm)
{
	int	rc;

	raw_p2p(WC_MPI_RSEND, comm, dest, 1);
	rc = traced_Rsend(buf, count, dt, dest, tag, comm);
	slot_leave();
	return rc;
}

int
MPI_Ssend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
    MPI_Comm comm)
{
	int	rc;

	raw_p2p(WC_MPI_SSEND, comm, dest, 1);
	rc = traced_Ssend(buf, count, dt, dest, tag, comm);
	slot_leave();
	return rc;
}

int
MPI_Bsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
    MPI_Comm comm)
{
	int	rc;

	raw_p2p(WC_MPI_BSEND, comm, dest, 1);
	rc = traced_Bsend(buf, count, dt, dest, tag, comm);
	slot_leave();
	return rc;
}

static __attribute__((noinline)) int
raw_Recv(void *buf, int count, MPI_Datatype dt, int source, int tag,
    MPI_Comm comm, MPI_Status *st)
{
	int	rc;

	raw_p2p(WC_MPI_RECV, comm, source, 0);
	rc = traced_Recv(buf, count, dt, source, tag, comm, st);
	slot_leave();
	return rc;
}

int
MPI_Recv(void *buf, int count, MPI_Datatype dt, int source, int tag,
    MPI_Comm comm, MPI_Status *st)
{
	int	rc;

	if (!RAW_SHORT(comm))
		return raw_Recv(buf, count, dt, source, tag, comm, st);
	raw_p2p_last(WC_MPI_RECV, source, 0);
	rc = PMPI_Recv(buf, count, dt, source, tag, comm, st);
	slot_leave();
	return rc;
}

int
MPI_Isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
    MPI_Comm comm, MPI_Request *req)
{
	int	rc;

	if ((rc = traced_Isend(buf, count, dt, dest, tag, comm, req)) == MPI_SUCCESS)
		raw_post(*req, comm, dest, 1);
	return rc;
}

int
MPI_Issend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
    MPI_Comm comm, MPI_Request *req)
{
	int	rc;

	if ((rc = traced_Issend(buf, count, dt, dest, tag, comm, req)) == MPI_SUCCESS)
		raw_post(*req, comm, dest, 1);
	return rc;
}

int
MPI_Ibsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
    MPI_Comm comm, MPI_Request *req)
{
	int	rc;

	if ((rc = traced_Ibsend(buf, count, dt, dest, tag, comm, req)) == MPI_SUCCESS)
		raw_post(*req, comm, dest, 1);
	return rc;
}

int
MPI_Irecv(void *buf, int count, MPI_Datatype dt, int source, int tag,
    MPI_Comm comm, MPI_Request *req)
{
	int	rc;

	if ((rc = traced_Irecv(buf, count, dt, source, tag, comm, req)) == MPI_SUCCESS)
		raw_post(*req, comm, source, 0);
	return rc;
}

int
MPI_Wait(MPI_Request *req, MPI_Status *st)
{
	int	rc;

	raw_reqs(WC_MPI_WAIT, 0, req != NULL ? 1 : -1, req);
	if (req != NULL)
		slot_req_done(1, req, NULL);
	rc = traced_Wait(req, st);
	slot_leave();
	return rc;
}

int
MPI_Waitall(int n, MPI_Request reqs[], MPI_Status sts[])
{
	int	rc;

	raw_reqs(WC_MPI_WAITALL, 0, n, reqs);
	if (n > 0 && reqs != NULL)
		slot_req_done(n, reqs, NULL);
	rc = traced_Waitall(n, reqs, sts);
	slot_leave();
	return rc;
}

int
MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype sdt, int dest,
    int stag, void *rbuf, int rcount, MPI_Datatype rdt, int source, int rtag,
    MPI_Comm comm, MPI_Status *st)
{
	int	rc;

	raw_sendrecv(WC_MPI_SENDRECV, comm, dest, source);
	rc = traced_Sendrecv(sbuf, scount, sdt, dest, stag, rbuf, rcount, rdt, source, rtag, comm, st);
	slot_leave();
	return rc;
}

int
MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype dt, int dest,
    int stag, int source, int rtag, MPI_Comm comm, MPI_Status *st)
{
	int	rc;

	raw_sendrecv(WC_MPI_SENDRECV_REPLACE, comm, dest, source);
	rc = traced_Sendrecv_replace(buf, count, dt, dest, stag, source, rtag, comm, st);
	slot_leave();
	return rc;
}

int
MPI_Test(MPI_Request *req, int *flag, MPI_Status *st)
{
	MPI_Request	saved = *req;
	int		rc;

	if ((rc = traced_Test(req, flag, st)) == MPI_SUCCESS && *flag)
		slot_req_done(1, &saved, NULL);
	return rc;
}

int
MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *st)
{
	MPI_Request	 fixed[16], *saved;
	int		 rc;

	saved = raw_save(n, reqs, fixed);
	raw_reqs(WC_MPI_WAITANY, 1, n, reqs);
	rc = traced_Waitany(n, reqs, index, st);
	slot_leave();
	raw_done(n, saved, reqs, fixed);
	return rc;
}

int
MPI_Waitsome(int n, MPI_Request reqs[], int *out, int indices[],
    MPI_Status sts[])
{
	MPI_Request	 fixed[16], *saved;
	int		 rc;

	saved = raw_save(n, reqs, fixed);
	raw_reqs(WC_MPI_WAITSOME, 1, n, reqs);
	rc = traced_Waitsome(n, reqs, out, indices, sts);
	slot_leave();
	raw_done(n, saved, reqs, fixed);
	return rc;
}

int
MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *st)
{
	int	rc;

	raw_p2p(WC_MPI_PROBE, comm, source, 0);
	rc = traced_Probe(source, tag, comm, st);
	slot_leave();
	return rc;
}

int
MPI_Barrier(MPI_Comm comm)
{
	int	rc;

	raw_coll(WC_MPI_BARRIER, comm, -1);
	rc = traced_Barrier(comm);
	slot_leave();
	return rc;
}

int
MPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
	int	rc;

	raw_coll(WC_MPI_BCAST, comm, root);
	rc = traced_Bcast(buf, count, dt, root, comm);
	slot_leave();
	return rc;
}

int
MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
    MPI_Op op, int root, MPI_Comm comm)
{
	int	rc;

	raw_coll(WC_MPI_REDUCE, comm, root);
	rc = traced_Reduce(sbuf, rbuf, count, dt, op, root, comm);
	slot_leave();
	return rc;
}

static __attribute__((noinline)) int
raw_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
    MPI_Op op, MPI_Comm comm)
{
	int	rc;

	raw_coll(WC_MPI_ALLREDUCE, comm, -1);
	rc = traced_Allreduce(sbuf, rbuf, count, dt, op, comm);
	slot_leave();
	return rc;
}

int
MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
    MPI_Op op, MPI_Comm comm)
{
	int	rc;

	if (!RAW_SHORT(comm))
		return raw_Allreduce(sbuf, rbuf, count, dt, op, comm);
	raw_coll_last(WC_MPI_ALLREDUCE, -1);
	rc = PMPI_Allreduce(sbuf, rbuf, count, dt, op, comm);
	slot_leave();
	return rc;
}

int
MPI_Gather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf,
    int rcount, MPI_Datatype rdt, int root, MPI_Comm comm)
{
	int	rc;

	raw_coll(WC_MPI_GATHER, comm, root);
	rc = traced_Gather(sbuf, scount, sdt, rbuf, rcount, rdt, root, comm);
	slot_leave();
	return rc;
}

int
MPI_Allgather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf,
    int rcount, MPI_Datatype rdt, MPI_Comm comm)
{
	int	rc;

	raw_coll(WC_MPI_ALLGATHER, comm, -1);
	rc = traced_Allgather(sbuf, scount, sdt, rbuf, rcount, rdt, comm);
	slot_leave();
	return rc;
}

int
MPI_Scatter(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf,
    int rcount, MPI_Datatype rdt, int root, MPI_Comm comm)
{
	int	rc;

	raw_coll(WC_MPI_SCATTER, comm, root);
	rc = traced_Scatter(sbuf, scount, sdt, rbuf, rcount, rdt, root, comm);
	slot_leave();
	return rc;
}

int
MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf,
    int rcount, MPI_Datatype rdt, MPI_Comm comm)
{
	int	rc;

	raw_coll(WC_MPI_ALLTOALL, comm, -1);
	rc = traced_Alltoall(sbuf, scount, sdt, rbuf, rcount, rdt, comm);
	slot_leave();
	return rc;
}

int
MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf,
    const int rcounts[], const int displs[], MPI_Datatype rdt, MPI_Comm comm)
{
	int	rc;

	raw_coll(WC_MPI_ALLGATHERV, comm, -1);
	rc = traced_Allgatherv(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, comm);
	slot_leave();
	return rc;
}

int
MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf,
    const int rcounts[], const int displs[], MPI_Datatype rdt, int root,
    MPI_Comm comm)
{
	int	rc;

	raw_coll(WC_MPI_GATHERV, comm, root);
	rc = traced_Gatherv(sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root, comm);
	slot_leave();
	return rc;
}

int
MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[],
    MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt, int root,
    MPI_Comm comm)
{
	int	rc;

	raw_coll(WC_MPI_SCATTERV, comm, root);
	rc = traced_Scatterv(sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root, comm);
	slot_leave();
	return rc;
}

int
MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
    MPI_Datatype sdt, void *rbuf, const int rcounts[], const int rdispls[],
    MPI_Datatype rdt, MPI_Comm comm)
{
	int	rc;

	raw_coll(WC_MPI_ALLTOALLV, comm, -1);
	rc = traced_Alltoallv(sbuf, scounts, sdispls, sdt, rbuf, rcounts, rdispls, rdt, comm);
	slot_leave();
	return rc;
}

int
MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
    MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
	int	rc;

	raw_coll(WC_MPI_REDUCE_SCATTER, comm, -1);
	rc = traced_Reduce_scatter(sbuf, rbuf, rcounts, dt, op, comm);
	slot_leave();
	return rc;
}

int
MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status sts[])
{
	MPI_Request	 fixed[16], *saved = raw_save(n, reqs, fixed);
	int		 rc = PMPI_Testall(n, reqs, flag, sts);

	raw_done(n, saved, reqs, fixed);
	return rc;
}

int
MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag,
    MPI_Status *st)
{
	MPI_Request	 fixed[16], *saved = raw_save(n, reqs, fixed);
	int		 rc = PMPI_Testany(n, reqs, index, flag, st);

	raw_done(n, saved, reqs, fixed);
	return rc;
}

int
MPI_Testsome(int n, MPI_Request reqs[], int *out, int indices[],
    MPI_Status sts[])
{
	MPI_Request	 fixed[16], *saved = raw_save(n, reqs, fixed);
	int		 rc = PMPI_Testsome(n, reqs, out, indices, sts);

	raw_done(n, saved, reqs, fixed);
	return rc;
}

int
MPI_Request_free(MPI_Request *req)
{
	if (req != NULL)
		slot_req_done(1, req, NULL);
	return PMPI_Request_free(req);
}
