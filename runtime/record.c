/* record.c -- a process's trace (record.h): events kept binary in a
 * bounded buffer, spilled as text lines (traceline.h) to the process's
 * part of the trace when it fills, and the rest written there at
 * ens_finalize.  Sequence numbers and pending requests live in small hash
 * tables. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "record.h"

#define REC_DEFAULT_EVENTS	16384
#define REC_CHUNK		(1 << 16)

int	rec_on;

/* A counter keyed by four ints (sequence numbers). */
struct seqent {
	int	 used;
	int	 k[4];
	long	 n;
};

/* A pending request. */
struct reqent {
	int		 used;	/* 0 free, 1 used, 2 deleted */
	uint64_t	 key;
	struct rec_req	 q;
};

static struct {
	int		 rank;
	MPI_Comm	 world;		/* the port communicator */
	MPI_Group	 wgroup;
	int64_t		 t_entry;	/* realtime ns at ens_init */
	int64_t		 off;		/* ns from origin at wt0 */
	double		 wt0;
	struct rec_ev	*buf;
	size_t		 n, cap;
	int		 spill;		/* the part's fd, -1: none */
	int		 err;		/* a write to it failed: its errno */
	char		*part;		/* its path: DIR/RANK.part */
	char		*line;		/* formatting */
	size_t		 linecap;
	struct seqent	*seqs;
	size_t		 nseqs, seqcap;
	struct reqent	*reqs;
	size_t		 nreqs, ntombs, reqcap;
	long		 nextreq;
	struct {
		MPI_Datatype	 dt;
		char		 name[MPI_MAX_OBJECT_NAME];
	}		 dtypes[32];
	int		 ndtypes;
	struct {
		MPI_Comm	 c;
		int		 id;
	}		*gcomms;	/* the groups' communicators */
	int		 ngcomms;
} R = { .spill = -1 };

int64_t
rec_realtime(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Parse "S.N" (nine digits) into ns. */
static int64_t
parse_origin(const char *s)
{
	int64_t	sec = 0, frac = 0;
	int	d;

	for (; *s >= '0' && *s <= '9'; s++)
		sec = sec * 10 + (*s - '0');
	if (*s == '.')
		s++;
	for (d = 0; d < 9; d++) {
		frac *= 10;
		if (*s >= '0' && *s <= '9')
			frac += *s++ - '0';
	}
	return sec * 1000000000 + frac;
}

static int	write_all(int, const char *, size_t);

int
rec_start(const char *origin, const char *dir, int rank, MPI_Comm world,
    int64_t t_entry, const char *host)
{
	const char	*s;
	char		 hostline[300];
	long		 n;
	int64_t		 o = parse_origin(origin), now;
	int		 saved;

	R.rank = rank;
	R.world = world;
	if ((R.part = malloc(strlen(dir) + 32)) == NULL)
		return -1;
	sprintf(R.part, "%s/%d.part", dir, rank);
	if ((R.spill = open(R.part, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644)) < 0)
		return -1;
	snprintf(hostline, sizeof(hostline), "host %s\n", host);
	if (write_all(R.spill, hostline, strlen(hostline)) != 0) {
		saved = errno;
		close(R.spill);
		R.spill = -1;
		errno = saved;
		return -1;
	}
	MPI_Comm_group(MPI_COMM_WORLD, &R.wgroup);
	R.cap = REC_DEFAULT_EVENTS;
	if ((s = getenv("ENSEMBLE_TRACE_EVENTS")) != NULL &&
	    (n = strtol(s, NULL, 10)) > 0)
		R.cap = (size_t)n;
	if ((R.buf = malloc(R.cap * sizeof(*R.buf))) == NULL)
		return -1;
	/* The clock's pairing: MPI_Wtime now is realtime now. */
	R.wt0 = MPI_Wtime();
	now = rec_realtime();
	R.off = now - o;
	R.t_entry = t_entry - o;
	R.nextreq = 1;
	rec_on = 1;
	return 0;
}

/* An MPI_Wtime time in ns from the origin. */
static int64_t
ns(double t)
{
	double	d = (t - R.wt0) * 1e9;

	return R.off + (int64_t)(d >= 0 ? d + 0.5 : d - 0.5);
}

/* Write all of s to fd; -1 on an error. */
static int
write_all(int fd, const char *s, size_t n)
{
	ssize_t	w;

	while (n > 0) {
		if ((w = write(fd, s, n)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Format event e as a line at R.line; its length. */
static size_t
format(const struct rec_ev *e)
{
	struct traceline	 l;
	char			 port[640];	/* two type names and an index */
	size_t			 need;

	l.op = (enum trace_op)e->op;
	l.rank = R.rank;
	l.t0 = e->op == TRACE_INIT ? R.t_entry : ns(e->t0);
	l.t1 = ns(e->t1);
	if (l.t1 < l.t0)
		l.t1 = l.t0;
	l.comm = e->comm;
	l.mode = (enum trace_mode)e->mode;
	if (e->ptype == NULL)
		l.port = e->pindex == REC_PORT_ANY ? "*" : NULL;
	else {
		if (e->found != REC_FOUND_NONE)
			snprintf(port, sizeof(port), "%s%s>%s[%d]",
			    e->found == REC_FOUND_OF_TYPE ? e->ptype : "",
			    e->found == REC_FOUND_OF_TYPE ? "[*]" : "*",
			    e->ptype, e->pindex);
		else if (e->pindex == REC_PORT_ANY)
			snprintf(port, sizeof(port), "%s[*]", e->ptype);
		else
			snprintf(port, sizeof(port), "%s[%d]", e->ptype,
			    e->pindex);
		l.port = port;
	}
	l.peer = e->peer;
	l.tag = e->tag;
	l.dtype = e->dtype;
	l.count = e->count;
	l.sbytes = e->sbytes;
	l.rbytes = e->rbytes;
	l.req = e->req;
	l.seq = e->seq;
	l.raw = e->raw;
	need = traceline_bound(&l);
	if (need > R.linecap) {
		free(R.line);
		R.linecap = need > 4096 ? need : 4096;
		if ((R.line = malloc(R.linecap)) == NULL) {
			R.linecap = 0;
			return 0;
		}
	}
	return traceline_format(R.line, &l);
}

/* Write the buffered events to the part and empty the buffer; a write
 * that fails is remembered (its errno), for rec_finish to say. */
static void
spill(void)
{
	char	chunk[65536];
	size_t	i, n, used = 0;

	for (i = 0; i < R.n && R.err == 0; i++) {
		if ((n = format(&R.buf[i])) == 0)
			continue;
		if (used + n > sizeof(chunk)) {
			if (write_all(R.spill, chunk, used) != 0)
				R.err = errno;
			used = 0;
		}
		if (n > sizeof(chunk)) {
			if (write_all(R.spill, R.line, n) != 0)
				R.err = errno;
		} else {
			memcpy(chunk + used, R.line, n);
			used += n;
		}
	}
	if (R.err == 0 && write_all(R.spill, chunk, used) != 0)
		R.err = errno;
	R.n = 0;
}

void
rec_add(const struct rec_ev *e)
{
	if (!rec_on)
		return;
	if (R.n == R.cap)
		spill();
	R.buf[R.n++] = *e;
}

void
rec_init_event(void)
{
	struct rec_ev	e;

	memset(&e, 0, sizeof(e));
	e.op = TRACE_INIT;
	e.t0 = e.t1 = MPI_Wtime();
	e.count = e.req = e.seq = -1;
	e.peer = e.tag = TRACE_NONE;
	rec_add(&e);
}

/* A hash of four ints. */
static size_t
hash4(const int *k)
{
	uint64_t	h = 1469598103934665603ULL;
	int		i;

	for (i = 0; i < 4; i++)
		h = (h ^ (uint32_t)k[i]) * 1099511628211ULL;
	return (size_t)(h ^ (h >> 31));
}

long
rec_seq(int recv, int comm, int peer, int tag)
{
	struct seqent	*old, *e;
	size_t		 i, oldcap;
	int		 k[4] = { recv, comm, peer, tag };

	if (R.nseqs * 2 >= R.seqcap) {
		old = R.seqs;
		oldcap = R.seqcap;
		R.seqcap = oldcap ? oldcap * 2 : 64;
		if ((R.seqs = calloc(R.seqcap, sizeof(*R.seqs))) == NULL) {
			R.seqs = old;
			R.seqcap = oldcap;
			return -1;
		}
		for (i = 0; i < oldcap; i++) {
			if (!old[i].used)
				continue;
			e = &R.seqs[hash4(old[i].k) & (R.seqcap - 1)];
			while (e->used)
				e = e + 1 < R.seqs + R.seqcap ? e + 1 : R.seqs;
			*e = old[i];
		}
		free(old);
	}
	e = &R.seqs[hash4(k) & (R.seqcap - 1)];
	while (e->used && memcmp(e->k, k, sizeof(k)) != 0)
		e = e + 1 < R.seqs + R.seqcap ? e + 1 : R.seqs;
	if (!e->used) {
		e->used = 1;
		memcpy(e->k, k, sizeof(k));
		R.nseqs++;
	}
	return ++e->n;
}

long
rec_coll(int comm)
{
	return rec_seq(2, comm, -1, -1);
}

const char *
rec_dtype(MPI_Datatype dt)
{
	int	i, len, slot;

	for (i = 0; i < R.ndtypes; i++)
		if (R.dtypes[i].dt == dt)
			return R.dtypes[i].name;
	slot = R.ndtypes < 32 ? R.ndtypes++ : (int)(((uintptr_t)dt >> 4) % 32);
	R.dtypes[slot].dt = dt;
	if (MPI_Type_get_name(dt, R.dtypes[slot].name, &len) != MPI_SUCCESS ||
	    len == 0)
		strcpy(R.dtypes[slot].name, "derived");
	return R.dtypes[slot].name;
}

uint64_t
rec_bytes(MPI_Datatype dt, long count)
{
	int	size;

	if (count <= 0 || MPI_Type_size(dt, &size) != MPI_SUCCESS || size < 0)
		return 0;
	return (uint64_t)count * (uint64_t)size;
}

int
rec_comm(MPI_Comm c)
{
	int	i;

	if (c == R.world || c == MPI_COMM_WORLD)
		return 0;
	for (i = 0; i < R.ngcomms; i++)
		if (R.gcomms[i].c == c)
			return R.gcomms[i].id;
	return 1;
}

int
rec_comm_group(MPI_Comm c, int id)
{
	void	*n;

	if ((n = realloc(R.gcomms, sizeof(*R.gcomms) *
	    ((size_t)R.ngcomms + 1))) == NULL)
		return -1;
	R.gcomms = n;
	R.gcomms[R.ngcomms].c = c;
	R.gcomms[R.ngcomms++].id = id;
	return 0;
}

int
rec_world_rank(MPI_Comm c, int comm, int rank)
{
	MPI_Group	g;
	int		w = rank;

	if (comm == 0 || rank < 0)
		return rank;
	if (MPI_Comm_group(c, &g) != MPI_SUCCESS)
		return rank;
	if (MPI_Group_translate_ranks(g, 1, &rank, R.wgroup, &w) != MPI_SUCCESS ||
	    w == MPI_UNDEFINED)
		w = rank;
	MPI_Group_free(&g);
	return w;
}

/* The key of a request handle. */
static uint64_t
req_key(MPI_Request r)
{
	uint64_t	k = 0;

	memcpy(&k, &r, sizeof(r) < sizeof(k) ? sizeof(r) : sizeof(k));
	return k;
}

/* Where to put a new request of key: the first free or deleted slot.
 * Keys repeat: Open MPI may give every send it completed at once the same
 * handle (its empty request), so a key holds a list, oldest first. */
static struct reqent *
req_free_slot(uint64_t key)
{
	size_t	i = (size_t)((key >> 3) * 11400714819323198485ULL) &
		    (R.reqcap - 1);

	while (R.reqs[i].used == 1)
		i = (i + 1) & (R.reqcap - 1);
	return &R.reqs[i];
}

/* The oldest pending request of key, or NULL. */
static struct reqent *
req_find(uint64_t key)
{
	struct reqent	*e, *best = NULL;
	size_t		 i = (size_t)((key >> 3) * 11400714819323198485ULL) &
			    (R.reqcap - 1);

	for (; (e = &R.reqs[i])->used != 0; i = (i + 1) & (R.reqcap - 1))
		if (e->used == 1 && e->key == key &&
		    (best == NULL || e->q.ev.req < best->q.ev.req))
			best = e;
	return best;
}

long
rec_req_new(MPI_Request r, const struct rec_ev *ev, int is_recv,
    MPI_Datatype dt, MPI_Comm c)
{
	struct reqent	*old, *e;
	size_t		 i, oldcap;
	long		 id = R.nextreq++;

	if ((R.nreqs + R.ntombs + 1) * 2 >= R.reqcap) {
		old = R.reqs;
		oldcap = R.reqcap;
		R.reqcap = R.nreqs * 4 >= oldcap ? (oldcap ? oldcap * 2 : 64) :
		    oldcap;
		if ((R.reqs = calloc(R.reqcap, sizeof(*R.reqs))) == NULL) {
			R.reqs = old;
			R.reqcap = oldcap;
			return id;
		}
		R.ntombs = 0;
		for (i = 0; i < oldcap; i++)
			if (old[i].used == 1)
				*req_free_slot(old[i].key) = old[i];
		free(old);
	}
	e = req_free_slot(req_key(r));
	if (e->used == 2)
		R.ntombs--;
	R.nreqs++;
	e->used = 1;
	e->key = req_key(r);
	e->q.ev = *ev;
	e->q.ev.req = id;
	e->q.is_recv = is_recv;
	e->q.dt = dt;
	e->q.c = c;
	return id;
}

int
rec_req_take(MPI_Request r, struct rec_req *out)
{
	struct reqent	*e;

	if (R.reqcap == 0 || (e = req_find(req_key(r))) == NULL)
		return 0;
	*out = e->q;
	e->used = 2;
	R.nreqs--;
	R.ntombs++;
	return 1;
}

/* A receive's line e from its status st (of datatype dt, on c, which is
 * the trace's comm e->comm): the sender, tag, count, bytes and sequence
 * number; with no status (or no source), no peer and no sequence number,
 * the rest as it was. */
static void
rec_recv_status(struct rec_ev *e, const MPI_Status *st, MPI_Datatype dt,
    MPI_Comm c)
{
	int	n;

	if (st == NULL || st->MPI_SOURCE < 0) {
		e->peer = TRACE_NONE;
		e->seq = -1;
		return;
	}
	e->peer = rec_world_rank(c, e->comm, st->MPI_SOURCE);
	e->tag = st->MPI_TAG;
	if (MPI_Get_count(st, dt, &n) == MPI_SUCCESS && n != MPI_UNDEFINED) {
		e->count = n;
		e->rbytes = rec_bytes(dt, n);
	}
	e->seq = rec_seq(1, e->comm, e->peer, e->tag);
}

/* The line of a completed request with op. */
static void
rec_done_op(int op, const struct rec_req *q, const MPI_Status *st, double t0,
    double t1, int raw)
{
	struct rec_ev	e = q->ev;

	e.op = (unsigned char)op;
	e.raw = (unsigned char)raw;
	e.t0 = t0;
	e.t1 = t1;
	e.sbytes = e.rbytes = 0;
	if (q->is_recv) {
		e.mode = TRACE_MODE_NONE;
		rec_recv_status(&e, st, q->dt, q->c);
	}
	rec_add(&e);
}

void
rec_wait_done(const struct rec_req *q, const MPI_Status *st, double t0,
    double t1, int raw)
{
	rec_done_op(TRACE_WAIT, q, st, t0, t1, raw);
}

/* A port call that completed no request (an ens_waitall of none pending,
 * an ens_wait or ens_test of a null one) is a call of its statement all
 * the same: one line of op, of no request, from t0 to t1. */
static void
rec_no_request(int op, double t0, double t1)
{
	struct rec_ev	e;

	memset(&e, 0, sizeof(e));
	e.op = op;
	e.t0 = t0;
	e.t1 = t1;
	e.peer = e.tag = TRACE_NONE;
	e.count = e.req = e.seq = -1;
	rec_add(&e);
}

void
rec_completed(int op, MPI_Request r, const MPI_Status *st, double t0,
    double t1, int raw)
{
	struct rec_req	q;

	if (rec_req_take(r, &q))
		rec_done_op(op, &q, st, t0, t1, raw);
	else if (r == MPI_REQUEST_NULL && !raw)
		rec_no_request(op, t0, t1);
}

void
rec_test_false(MPI_Request r, double t0, int raw)
{
	struct reqent	*q;
	struct rec_ev	 e;

	if (R.reqcap == 0 || (q = req_find(req_key(r))) == NULL)
		return;
	e = q->q.ev;
	e.op = TRACE_TESTFALSE;
	e.mode = TRACE_MODE_NONE;
	e.raw = (unsigned char)raw;
	e.t0 = t0;
	e.t1 = MPI_Wtime();
	e.peer = e.tag = TRACE_NONE;
	e.dtype = NULL;
	e.count = e.seq = -1;
	e.sbytes = e.rbytes = 0;
	rec_add(&e);
}

void
rec_sendrecv(int op, double t0, const char *sptype, int spindex, int speer,
    int stag, MPI_Datatype sdt, long scount, const char *rptype, int rpindex,
    const MPI_Status *st, MPI_Datatype rdt, int comm, int raw, MPI_Comm c)
{
	struct rec_ev	e;

	memset(&e, 0, sizeof(e));
	e.op = (unsigned char)op;
	e.mode = TRACE_MODE_STD;
	e.t0 = t0;
	e.t1 = MPI_Wtime();
	e.ptype = sptype;
	e.pindex = spindex;
	e.comm = comm;
	e.peer = speer;
	e.tag = stag;
	e.dtype = rec_dtype(sdt);
	e.count = scount;
	e.raw = (unsigned char)raw;
	e.req = -1;
	e.sbytes = rec_bytes(sdt, scount);
	e.seq = speer >= 0 ? rec_seq(0, comm, speer, stag) : -1;
	rec_add(&e);
	e.mode = TRACE_MODE_NONE;
	e.ptype = rptype;
	e.pindex = rpindex;
	e.dtype = rec_dtype(rdt);
	e.sbytes = 0;
	e.tag = TRACE_NONE;
	e.count = -1;
	rec_recv_status(&e, st, rdt, c);
	rec_add(&e);
}

void
rec_probe(int op, double t0, const char *ptype, int pindex, int found,
    int comm, int peer, int tag, const MPI_Status *st, int raw, MPI_Comm c)
{
	struct rec_ev	e;
	int		n;

	memset(&e, 0, sizeof(e));
	e.op = (unsigned char)op;
	e.t0 = t0;
	e.t1 = MPI_Wtime();
	e.ptype = ptype;
	e.pindex = pindex;
	e.found = (unsigned char)found;
	e.comm = comm;
	e.peer = peer;
	e.tag = tag;
	e.count = e.req = e.seq = -1;
	e.raw = (unsigned char)raw;
	if (op != TRACE_IPROBEFALSE && st != NULL && st->MPI_SOURCE >= 0) {
		e.peer = rec_world_rank(c, comm, st->MPI_SOURCE);
		e.tag = st->MPI_TAG;
		e.dtype = rec_dtype(MPI_BYTE);
		if (MPI_Get_count(st, MPI_BYTE, &n) == MPI_SUCCESS &&
		    n != MPI_UNDEFINED)
			e.count = n;
	}
	rec_add(&e);
}

void
rec_p2p(int op, int mode, double t0, const char *ptype, int pindex, int comm,
    int peer, int tag, MPI_Datatype dt, long count, int raw,
    const MPI_Request *req, MPI_Comm c)
{
	struct rec_ev	e;

	memset(&e, 0, sizeof(e));
	e.op = (unsigned char)op;
	e.mode = (unsigned char)mode;
	e.t0 = t0;
	e.t1 = MPI_Wtime();
	e.ptype = ptype;
	e.pindex = pindex;
	e.comm = comm;
	e.peer = peer;
	e.tag = tag;
	e.dtype = rec_dtype(dt);
	e.count = count;
	e.raw = (unsigned char)raw;
	e.req = e.seq = -1;
	switch (op) {
	case TRACE_SEND:
	case TRACE_ISEND:
		e.sbytes = rec_bytes(dt, count);
		e.seq = rec_seq(0, comm, peer, tag);
		break;
	case TRACE_RECV:
		e.rbytes = rec_bytes(dt, count);
		if (peer >= 0 && tag >= 0)
			e.seq = rec_seq(1, comm, peer, tag);
		break;
	}
	if (req != NULL)
		e.req = rec_req_new(*req, &e, op == TRACE_IRECV, dt, c);
	rec_add(&e);
}

void
rec_collective(int op, double t0, int comm, int root, int isroot, int nprocs,
    MPI_Datatype sdt, long scount, MPI_Datatype rdt, long rcount, int raw)
{
	struct rec_ev	e;
	uint64_t	s = sdt != MPI_DATATYPE_NULL ? rec_bytes(sdt, scount) : 0;
	uint64_t	r = rdt != MPI_DATATYPE_NULL ? rec_bytes(rdt, rcount) : 0;
	uint64_t	n = (uint64_t)nprocs;

	memset(&e, 0, sizeof(e));
	e.op = (unsigned char)op;
	e.t0 = t0;
	e.t1 = MPI_Wtime();
	e.comm = comm;
	e.peer = root;
	e.tag = TRACE_NONE;
	e.dtype = sdt != MPI_DATATYPE_NULL ? rec_dtype(sdt) : NULL;
	e.count = sdt != MPI_DATATYPE_NULL ? scount : -1;
	e.raw = (unsigned char)raw;
	e.req = -1;
	e.seq = rec_coll(comm);
	switch (op) {
	case TRACE_BCAST:
		if (isroot)
			e.sbytes = s;
		else
			e.rbytes = s;
		break;
	case TRACE_REDUCE:
		e.sbytes = s;
		e.rbytes = isroot ? s : 0;
		break;
	case TRACE_ALLREDUCE:
		e.sbytes = e.rbytes = s;
		break;
	case TRACE_GATHER:
		e.sbytes = s;
		e.rbytes = isroot ? n * r : 0;
		break;
	case TRACE_ALLGATHER:
		e.sbytes = s;
		e.rbytes = n * r;
		break;
	case TRACE_SCATTER:
		e.sbytes = isroot ? n * s : 0;
		e.rbytes = r;
		break;
	case TRACE_ALLTOALL:
		e.sbytes = n * s;
		e.rbytes = n * r;
		break;
	default:	/* the v-forms: the caller's totals */
		e.sbytes = s;
		e.rbytes = r;
		break;
	}
	rec_add(&e);
}

int
rec_waitall(int n, MPI_Request *reqs, MPI_Status *sts, int raw)
{
	MPI_Request	 fixed[16], *saved = fixed;
	MPI_Status	 own[16], *st = sts;
	struct rec_req	 q;
	double		 t0 = MPI_Wtime(), t1;
	int		 rc, i, lines = 0;

	if (n > 16 && (saved = malloc((size_t)n * sizeof(*saved))) == NULL)
		return PMPI_Waitall(n, reqs, sts);
	if (n > 0)
		memcpy(saved, reqs, (size_t)n * sizeof(*saved));
	if (sts == MPI_STATUSES_IGNORE && n > 0) {
		st = n <= 16 ? own : malloc((size_t)n * sizeof(*st));
		if (st == NULL)
			st = MPI_STATUSES_IGNORE;
	}
	rc = PMPI_Waitall(n, reqs, st);
	t1 = MPI_Wtime();
	for (i = 0; i < n; i++)
		if (rec_req_take(saved[i], &q)) {
			rec_wait_done(&q, st != MPI_STATUSES_IGNORE ? &st[i] :
			    NULL, t0, t1, raw);
			lines++;
		}
	/* An ens_waitall of no pending request is the behaviour's waitall
	 * all the same. */
	if (lines == 0 && !raw)
		rec_no_request(TRACE_WAIT, t0, t1);
	if (saved != fixed)
		free(saved);
	if (st != sts && st != own && st != MPI_STATUSES_IGNORE)
		free(st);
	return rc;
}

int
rec_finish(void)
{
	char	*done;
	int	 rc = 0;

	if (!rec_on)
		return 0;
	rec_on = 0;
	spill();
	if (R.err != 0 || close(R.spill) != 0) {
		rc = -1;
		if (R.err == 0)
			R.err = errno;
	}
	R.spill = -1;
	/* Complete: RANK.part becomes RANK. */
	if (rc == 0 && (done = strdup(R.part)) != NULL) {
		done[strlen(done) - strlen(".part")] = '\0';
		if (rename(R.part, done) != 0) {
			rc = -1;
			R.err = errno;
		}
		free(done);
	} else if (rc == 0) {
		rc = -1;
		R.err = ENOMEM;
	}
	free(R.buf);
	free(R.line);
	free(R.seqs);
	free(R.reqs);
	free(R.part);
	free(R.gcomms);
	MPI_Group_free(&R.wgroup);
	errno = R.err;
	memset(&R, 0, sizeof(R));
	R.spill = -1;
	return rc;
}
