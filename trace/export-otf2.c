/* export-otf2.c -- a trace as an OTF2 archive (export.h), the format
 * Vampir, Score-P's tools and otf2-print read: a location per process
 * (a location group each, under a system-tree node per host), the regions
 * of the MPI calls, MPI_COMM_WORLD over the world ranks, each group's
 * communicator over its members in its rank order (the trace's comm
 * lines), and per call Enter, the MPI point-to-point or collective
 * records, Leave, their peers and roots as ranks in their communicator;
 * times in nanoseconds.
 * The n wait lines of one waitall (same times) become one MPI_Waitall
 * region.  Built without libotf2 (configure), its writer says so.  It is
 * the exporter export_otf2 (export-int.h), which export.c's table names;
 * it takes nothing of export.c's. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export-int.h"
#include "xmalloc.h"

#ifndef HAVE_OTF2

/* Whether this build writes OTF2: not this one. */
static int
o2_available(void)
{
	return 0;
}

/* Say that this build writes no OTF2. */
static int
o2_write(struct trace_reader *r, const struct export_opts *o,
    struct export_stats *st, char **cause)
{
	(void)r;
	(void)o;
	(void)st;
	xasprintf(cause, "this ensemble was built without OTF2 (install "
	    "libopen-trace-format2-dev and configure again)");
	return -1;
}

#else

#include <dirent.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otf2/otf2.h>

#include "lazylib.h"

/* libotf2 is opened when first used (common/lazylib.h), so that the
 * ensemble command does not load it at every start: each function used
 * is named once in OTF2_NAMES, and a macro of its name makes each call go
 * through a pointer of its own type (p_NAME), filled on the first call;
 * the compiler still checks each call against OTF2's declaration. */
#define OTF2_NAMES(X) \
	X(OTF2_Archive_Close) X(OTF2_Archive_CloseDefFiles) \
	X(OTF2_Archive_CloseDefWriter) X(OTF2_Archive_CloseEvtFiles) \
	X(OTF2_Archive_CloseEvtWriter) X(OTF2_Archive_CloseGlobalDefWriter) \
	X(OTF2_Archive_GetDefWriter) X(OTF2_Archive_GetEvtWriter) \
	X(OTF2_Archive_GetGlobalDefWriter) X(OTF2_Archive_Open) \
	X(OTF2_Archive_OpenDefFiles) X(OTF2_Archive_OpenEvtFiles) \
	X(OTF2_Archive_SetCreator) X(OTF2_Archive_SetDescription) \
	X(OTF2_Archive_SetFlushCallbacks) \
	X(OTF2_Archive_SetSerialCollectiveCallbacks) \
	X(OTF2_Error_GetDescription) X(OTF2_Error_RegisterCallback) \
	X(OTF2_EvtWriter_Enter) X(OTF2_EvtWriter_GetNumberOfEvents) \
	X(OTF2_EvtWriter_Leave) X(OTF2_EvtWriter_MpiCollectiveBegin) \
	X(OTF2_EvtWriter_MpiCollectiveEnd) X(OTF2_EvtWriter_MpiIrecv) \
	X(OTF2_EvtWriter_MpiIrecvRequest) X(OTF2_EvtWriter_MpiIsend) \
	X(OTF2_EvtWriter_MpiIsendComplete) X(OTF2_EvtWriter_MpiRecv) \
	X(OTF2_EvtWriter_MpiSend) \
	X(OTF2_GlobalDefWriter_WriteClockProperties) \
	X(OTF2_GlobalDefWriter_WriteComm) X(OTF2_GlobalDefWriter_WriteGroup) \
	X(OTF2_GlobalDefWriter_WriteLocation) \
	X(OTF2_GlobalDefWriter_WriteLocationGroup) \
	X(OTF2_GlobalDefWriter_WriteParadigm) \
	X(OTF2_GlobalDefWriter_WriteRegion) \
	X(OTF2_GlobalDefWriter_WriteString) \
	X(OTF2_GlobalDefWriter_WriteSystemTreeNode)

static struct {
	int	open;
#define OTF2_FIELD(name) __typeof__(name) *p_##name;
	OTF2_NAMES(OTF2_FIELD)
#undef OTF2_FIELD
} otf2;

static void
otf2_open(void)
{
	static struct lazylib lib = { "OTF2", ENS_OTF2_SONAME, NULL };

#define OTF2_SYM(name) \
	otf2.p_##name = (__typeof__(otf2.p_##name))lazy_sym(&lib, #name);
	OTF2_NAMES(OTF2_SYM)
#undef OTF2_SYM
	otf2.open = 1;
}

static inline __typeof__(otf2) *
otf2_need(void)
{
	if (!otf2.open)
		otf2_open();
	return &otf2;
}

#define OTF2_Archive_Close (*otf2_need()->p_OTF2_Archive_Close)
#define OTF2_Archive_CloseDefFiles (*otf2_need()->p_OTF2_Archive_CloseDefFiles)
#define OTF2_Archive_CloseDefWriter (*otf2_need()->p_OTF2_Archive_CloseDefWriter)
#define OTF2_Archive_CloseEvtFiles (*otf2_need()->p_OTF2_Archive_CloseEvtFiles)
#define OTF2_Archive_CloseEvtWriter (*otf2_need()->p_OTF2_Archive_CloseEvtWriter)
#define OTF2_Archive_CloseGlobalDefWriter (*otf2_need()->p_OTF2_Archive_CloseGlobalDefWriter)
#define OTF2_Archive_GetDefWriter (*otf2_need()->p_OTF2_Archive_GetDefWriter)
#define OTF2_Archive_GetEvtWriter (*otf2_need()->p_OTF2_Archive_GetEvtWriter)
#define OTF2_Archive_GetGlobalDefWriter (*otf2_need()->p_OTF2_Archive_GetGlobalDefWriter)
#define OTF2_Archive_Open (*otf2_need()->p_OTF2_Archive_Open)
#define OTF2_Archive_OpenDefFiles (*otf2_need()->p_OTF2_Archive_OpenDefFiles)
#define OTF2_Archive_OpenEvtFiles (*otf2_need()->p_OTF2_Archive_OpenEvtFiles)
#define OTF2_Archive_SetCreator (*otf2_need()->p_OTF2_Archive_SetCreator)
#define OTF2_Archive_SetDescription (*otf2_need()->p_OTF2_Archive_SetDescription)
#define OTF2_Archive_SetFlushCallbacks (*otf2_need()->p_OTF2_Archive_SetFlushCallbacks)
#define OTF2_Archive_SetSerialCollectiveCallbacks (*otf2_need()->p_OTF2_Archive_SetSerialCollectiveCallbacks)
#define OTF2_Error_GetDescription (*otf2_need()->p_OTF2_Error_GetDescription)
#define OTF2_Error_RegisterCallback (*otf2_need()->p_OTF2_Error_RegisterCallback)
#define OTF2_EvtWriter_Enter (*otf2_need()->p_OTF2_EvtWriter_Enter)
#define OTF2_EvtWriter_GetNumberOfEvents (*otf2_need()->p_OTF2_EvtWriter_GetNumberOfEvents)
#define OTF2_EvtWriter_Leave (*otf2_need()->p_OTF2_EvtWriter_Leave)
#define OTF2_EvtWriter_MpiCollectiveBegin (*otf2_need()->p_OTF2_EvtWriter_MpiCollectiveBegin)
#define OTF2_EvtWriter_MpiCollectiveEnd (*otf2_need()->p_OTF2_EvtWriter_MpiCollectiveEnd)
#define OTF2_EvtWriter_MpiIrecv (*otf2_need()->p_OTF2_EvtWriter_MpiIrecv)
#define OTF2_EvtWriter_MpiIrecvRequest (*otf2_need()->p_OTF2_EvtWriter_MpiIrecvRequest)
#define OTF2_EvtWriter_MpiIsend (*otf2_need()->p_OTF2_EvtWriter_MpiIsend)
#define OTF2_EvtWriter_MpiIsendComplete (*otf2_need()->p_OTF2_EvtWriter_MpiIsendComplete)
#define OTF2_EvtWriter_MpiRecv (*otf2_need()->p_OTF2_EvtWriter_MpiRecv)
#define OTF2_EvtWriter_MpiSend (*otf2_need()->p_OTF2_EvtWriter_MpiSend)
#define OTF2_GlobalDefWriter_WriteClockProperties (*otf2_need()->p_OTF2_GlobalDefWriter_WriteClockProperties)
#define OTF2_GlobalDefWriter_WriteComm (*otf2_need()->p_OTF2_GlobalDefWriter_WriteComm)
#define OTF2_GlobalDefWriter_WriteGroup (*otf2_need()->p_OTF2_GlobalDefWriter_WriteGroup)
#define OTF2_GlobalDefWriter_WriteLocation (*otf2_need()->p_OTF2_GlobalDefWriter_WriteLocation)
#define OTF2_GlobalDefWriter_WriteLocationGroup (*otf2_need()->p_OTF2_GlobalDefWriter_WriteLocationGroup)
#define OTF2_GlobalDefWriter_WriteParadigm (*otf2_need()->p_OTF2_GlobalDefWriter_WriteParadigm)
#define OTF2_GlobalDefWriter_WriteRegion (*otf2_need()->p_OTF2_GlobalDefWriter_WriteRegion)
#define OTF2_GlobalDefWriter_WriteString (*otf2_need()->p_OTF2_GlobalDefWriter_WriteString)
#define OTF2_GlobalDefWriter_WriteSystemTreeNode (*otf2_need()->p_OTF2_GlobalDefWriter_WriteSystemTreeNode)

/* The regions: every MPI call an event can stand for. */
static const char *const otf2_regions[] = {
	"MPI_Init", "MPI_Finalize", "MPI_Send", "MPI_Ssend", "MPI_Bsend",
	"MPI_Recv", "MPI_Isend", "MPI_Issend", "MPI_Ibsend", "MPI_Irecv",
	"MPI_Wait", "MPI_Waitall", "MPI_Barrier", "MPI_Bcast", "MPI_Reduce",
	"MPI_Allreduce", "MPI_Gather", "MPI_Allgather", "MPI_Scatter",
	"MPI_Alltoall", "MPI_Allgatherv", "MPI_Gatherv", "MPI_Scatterv",
	"MPI_Alltoallv", "MPI_Reduce_scatter", "MPI_Sendrecv",
	"MPI_Sendrecv_replace", "MPI_Test", "MPI_Waitany", "MPI_Waitsome",
	"MPI_Probe", "MPI_Iprobe",
};
#define OTF2_NREGIONS	(sizeof(otf2_regions) / sizeof(otf2_regions[0]))
#define OTF2_WAIT	10
#define OTF2_WAITALL	11

/* One wait line of a waitall not written yet. */
struct o2_wait {
	int		 recv;		/* completes a receive */
	uint32_t	 peer;		/* its rank in comm */
	int		 comm, tag;
	uint64_t	 bytes;
	uint64_t	 req;
};

/* Per process: its writer, the last time written, the waits pending. */
struct o2_loc {
	OTF2_EvtWriter	*w;
	uint64_t	 last;
	struct o2_wait	*waits;
	size_t		 nwaits, await;
	uint64_t	 wt0, wt1;	/* the pending waits' times */
	int		 wop;		/* their op (a wait, waitsome ...) */
	uint32_t	 wreg;		/* and its region, but for a wait's */
};

/* A member of a group's communicator: its world rank, its rank there. */
struct o2_member {
	int	world, rank;
};

/* A communicator of the trace: its members by world rank, to find a
 * world rank's rank in it (none: its ranks are the world ranks). */
struct o2_comm {
	struct o2_member	*by_world;
	int			 n;
};

struct o2 {
	OTF2_Archive	*a;
	struct o2_loc	*loc;
	int		 nprocs;
	struct o2_comm	*comms;		/* the trace's, by id */
	size_t		 ncomms;
	int64_t		 shift;		/* added to every time: none negative */
	int		 shifted;
	uint64_t	 end;		/* the latest time */
	OTF2_ErrorCode	 err;		/* the first error */
};

/* Whether this build writes OTF2: this one does. */
static int
o2_available(void)
{
	return 1;
}

static OTF2_FlushType
o2_pre_flush(void *user, OTF2_FileType ft, OTF2_LocationRef loc, void *cb,
    bool final)
{
	(void)user;
	(void)ft;
	(void)loc;
	(void)cb;
	(void)final;
	return OTF2_FLUSH;
}

static OTF2_TimeStamp
o2_post_flush(void *user, OTF2_FileType ft, OTF2_LocationRef loc)
{
	(void)user;
	(void)ft;
	(void)loc;
	return 0;
}

static const OTF2_FlushCallbacks o2_flush = { o2_pre_flush, o2_post_flush };

/* What libotf2 said of its first error (it prints none itself). */
static char	*o2_said;

static OTF2_ErrorCode
o2_error(void *user, const char *file, uint64_t line, const char *fn,
    OTF2_ErrorCode e, const char *fmt, va_list va)
{
	(void)user;
	(void)file;
	(void)line;
	(void)fn;
	if (o2_said == NULL && fmt != NULL)
		xvasprintf(&o2_said, fmt, va);
	return e;
}

/* Keep the first error. */
static void
o2_check(struct o2 *x, OTF2_ErrorCode e)
{
	if (e != OTF2_SUCCESS && x->err == OTF2_SUCCESS)
		x->err = e;
}

/* A time in the archive: shifted, and never before the location's last. */
static uint64_t
o2_time(struct o2 *x, struct o2_loc *l, int64_t ns)
{
	uint64_t	t = (uint64_t)(ns + x->shift);

	if (t < l->last)
		t = l->last;
	l->last = t;
	if (t > x->end)
		x->end = t;
	return t;
}

static uint32_t
o2_region(const struct trace_event *ev)
{
	const char	*name = trace_mpi_name(ev);
	uint32_t	 k;

	for (k = 0; k < OTF2_NREGIONS; k++)
		if (strcmp(name, otf2_regions[k]) == 0)
			return k;
	return 0;
}

/* Order members by world rank. */
static int
o2_member_cmp(const void *a, const void *b)
{
	const struct o2_member	*p = a, *q = b;

	return (p->world > q->world) - (p->world < q->world);
}

/* Each communicator's members by world rank, from the trace's header:
 * a group's comm lists them; world's ranks are the world ranks, and so
 * are other's and those of a group of a trace without its members (its
 * peers and roots are world ranks). */
static void
o2_comms(struct o2 *x, const struct trace_hdr *h)
{
	struct o2_comm	*c;
	size_t		 k;
	int		 j;

	x->ncomms = h->ncomms;
	x->comms = xcalloc(h->ncomms + 1, sizeof(*x->comms));
	for (k = 0; k < h->ncomms; k++) {
		if (h->comms[k].members == NULL)
			continue;
		c = &x->comms[k];
		c->n = h->comms[k].size;
		c->by_world = xcalloc((size_t)c->n + 1, sizeof(*c->by_world));
		for (j = 0; j < c->n; j++) {
			c->by_world[j].world = h->comms[k].members[j];
			c->by_world[j].rank = j;
		}
		qsort(c->by_world, (size_t)c->n, sizeof(*c->by_world),
		    o2_member_cmp);
	}
}

/* A peer or root of an event on comm (a world rank, or none) as OTF2
 * has it: its rank in comm, or OTF2_UNDEFINED_UINT32 when it has none
 * there (none given, or not a member). */
static uint32_t
o2_rank(const struct o2 *x, int comm, int world)
{
	const struct o2_comm	*c;
	struct o2_member	 key, *m;

	if (world < 0)
		return OTF2_UNDEFINED_UINT32;
	if (comm < 0 || (size_t)comm >= x->ncomms ||
	    x->comms[comm].by_world == NULL)
		return (uint32_t)world;
	c = &x->comms[comm];
	key.world = world;
	m = bsearch(&key, c->by_world, (size_t)c->n, sizeof(*c->by_world),
	    o2_member_cmp);
	return m != NULL ? (uint32_t)m->rank : OTF2_UNDEFINED_UINT32;
}

/* Write the pending waits of l as one MPI_Wait or MPI_Waitall. */
static void
o2_flush_waits(struct o2 *x, struct o2_loc *l)
{
	uint32_t	 reg = l->wop != TRACE_WAIT ? l->wreg : l->nwaits > 1 ?
			    OTF2_WAITALL : OTF2_WAIT;
	uint64_t	 t0, t1;
	size_t		 k;

	if (l->nwaits == 0)
		return;
	t0 = o2_time(x, l, (int64_t)l->wt0);
	o2_check(x, OTF2_EvtWriter_Enter(l->w, NULL, t0, reg));
	t1 = o2_time(x, l, (int64_t)l->wt1);
	for (k = 0; k < l->nwaits; k++) {
		const struct o2_wait	*w = &l->waits[k];

		if (w->req == 0)	/* a waitall of no request */
			continue;
		if (w->recv)
			o2_check(x, OTF2_EvtWriter_MpiIrecv(l->w, NULL, t1,
			    w->peer, (OTF2_CommRef)w->comm,
			    (uint32_t)w->tag, w->bytes, w->req));
		else
			o2_check(x, OTF2_EvtWriter_MpiIsendComplete(l->w, NULL, t1,
			    w->req));
	}
	o2_check(x, OTF2_EvtWriter_Leave(l->w, NULL, t1, reg));
	l->nwaits = 0;
}

static OTF2_CollectiveOp
o2_coll(enum trace_op op)
{
	switch (op) {
	case TRACE_BCAST: return OTF2_COLLECTIVE_OP_BCAST;
	case TRACE_REDUCE: return OTF2_COLLECTIVE_OP_REDUCE;
	case TRACE_ALLREDUCE: return OTF2_COLLECTIVE_OP_ALLREDUCE;
	case TRACE_GATHER: return OTF2_COLLECTIVE_OP_GATHER;
	case TRACE_ALLGATHER: return OTF2_COLLECTIVE_OP_ALLGATHER;
	case TRACE_SCATTER: return OTF2_COLLECTIVE_OP_SCATTER;
	case TRACE_ALLTOALL: return OTF2_COLLECTIVE_OP_ALLTOALL;
	case TRACE_ALLGATHERV: return OTF2_COLLECTIVE_OP_ALLGATHERV;
	case TRACE_GATHERV: return OTF2_COLLECTIVE_OP_GATHERV;
	case TRACE_SCATTERV: return OTF2_COLLECTIVE_OP_SCATTERV;
	case TRACE_ALLTOALLV: return OTF2_COLLECTIVE_OP_ALLTOALLV;
	case TRACE_REDUCESCATTER: return OTF2_COLLECTIVE_OP_REDUCE_SCATTER;
	default: return OTF2_COLLECTIVE_OP_BARRIER;
	}
}

/* One event: Enter, its MPI record(s), Leave. */
static void
o2_event(struct o2 *x, const struct trace_event *ev)
{
	struct o2_loc	*l = &x->loc[ev->rank];
	uint32_t	 reg = o2_region(ev), peer;
	uint64_t	 t0, t1;
	struct o2_wait	*w;

	if (ev->op == TRACE_WAIT || ev->op == TRACE_WAITONE ||
	    ev->op == TRACE_TEST || ev->op == TRACE_WAITANY ||
	    ev->op == TRACE_WAITSOME) {
		if (l->nwaits > 0 && (l->wt0 != (uint64_t)ev->t0ns ||
		    l->wt1 != (uint64_t)ev->t1ns || l->wop != (int)ev->op))
			o2_flush_waits(x, l);
		l->wop = (int)ev->op;
		l->wreg = reg;
		xgrow(&l->waits, &l->await, l->nwaits + 1, sizeof(*l->waits));
		w = &l->waits[l->nwaits++];
		w->recv = ev->mode == TRACE_MODE_NONE;
		w->peer = o2_rank(x, ev->comm, ev->peer);
		w->comm = ev->comm;
		w->tag = ev->tag >= 0 ? ev->tag : 0;
		w->bytes = ev->rbytes;
		w->req = ev->req >= 0 ? (uint64_t)ev->req : 0;
		l->wt0 = (uint64_t)ev->t0ns;
		l->wt1 = (uint64_t)ev->t1ns;
		return;
	}
	o2_flush_waits(x, l);
	peer = o2_rank(x, ev->comm, ev->peer);	/* or a root */
	t0 = o2_time(x, l, ev->t0ns);
	o2_check(x, OTF2_EvtWriter_Enter(l->w, NULL, t0, reg));
	switch (ev->op) {
	case TRACE_SEND:
		o2_check(x, OTF2_EvtWriter_MpiSend(l->w, NULL, t0, peer,
		    (OTF2_CommRef)ev->comm,
		    (uint32_t)(ev->tag >= 0 ? ev->tag : 0), ev->sbytes));
		break;
	case TRACE_ISEND:
		o2_check(x, OTF2_EvtWriter_MpiIsend(l->w, NULL, t0, peer,
		    (OTF2_CommRef)ev->comm,
		    (uint32_t)(ev->tag >= 0 ? ev->tag : 0), ev->sbytes,
		    (uint64_t)(ev->req >= 0 ? ev->req : 0)));
		break;
	case TRACE_IRECV:
		o2_check(x, OTF2_EvtWriter_MpiIrecvRequest(l->w, NULL, t0,
		    (uint64_t)(ev->req >= 0 ? ev->req : 0)));
		break;
	case TRACE_RECV:
		t1 = o2_time(x, l, ev->t1ns);
		o2_check(x, OTF2_EvtWriter_MpiRecv(l->w, NULL, t1, peer,
		    (OTF2_CommRef)ev->comm, (uint32_t)(ev->tag >= 0 ? ev->tag : 0),
		    ev->rbytes));
		break;
	case TRACE_SENDRECV:
	case TRACE_SENDRECVREPLACE:
		/* Its send line, then its receive line. */
		if (ev->mode != TRACE_MODE_NONE)
			o2_check(x, OTF2_EvtWriter_MpiSend(l->w, NULL, t0, peer,
			    (OTF2_CommRef)ev->comm,
			    (uint32_t)(ev->tag >= 0 ? ev->tag : 0), ev->sbytes));
		else if (ev->peer >= 0) {
			t1 = o2_time(x, l, ev->t1ns);
			o2_check(x, OTF2_EvtWriter_MpiRecv(l->w, NULL, t1,
			    peer, (OTF2_CommRef)ev->comm,
			    (uint32_t)(ev->tag >= 0 ? ev->tag : 0), ev->rbytes));
		}
		break;
	case TRACE_INIT:
	case TRACE_FIN:
	case TRACE_TESTFALSE:
	case TRACE_PROBE:
	case TRACE_IPROBE:
	case TRACE_IPROBEFALSE:
		break;
	default:	/* the collectives */
		o2_check(x, OTF2_EvtWriter_MpiCollectiveBegin(l->w, NULL, t0));
		t1 = o2_time(x, l, ev->t1ns);
		o2_check(x, OTF2_EvtWriter_MpiCollectiveEnd(l->w, NULL, t1,
		    o2_coll(ev->op), (OTF2_CommRef)ev->comm, peer, ev->sbytes,
		    ev->rbytes));
		break;
	}
	t1 = o2_time(x, l, ev->t1ns);
	o2_check(x, OTF2_EvtWriter_Leave(l->w, NULL, t1, reg));
}

/* The global definitions, once the events are written. */
static void
o2_defs(struct o2 *x, const struct trace_hdr *h, uint64_t *nevents)
{
	OTF2_GlobalDefWriter	*g;
	uint32_t		 s = 0, k, base_host, base_proc, base_comm, base_reg;
	uint64_t		*members;
	char			 tmp[64];
	int			 i;

	if ((g = OTF2_Archive_GetGlobalDefWriter(x->a)) == NULL) {
		o2_check(x, OTF2_ERROR_MEM_ALLOC_FAILED);
		return;
	}
	o2_check(x, OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000,
	    0, x->end + 1, OTF2_UNDEFINED_TIMESTAMP));
	o2_check(x, OTF2_GlobalDefWriter_WriteString(g, s++, ""));
	o2_check(x, OTF2_GlobalDefWriter_WriteString(g, s++, "MPI"));
	o2_check(x, OTF2_GlobalDefWriter_WriteParadigm(g, OTF2_PARADIGM_MPI, 1,
	    OTF2_PARADIGM_CLASS_PROCESS));
	o2_check(x, OTF2_GlobalDefWriter_WriteString(g, s++, "machine"));
	o2_check(x, OTF2_GlobalDefWriter_WriteString(g, s++, "node"));
	o2_check(x, OTF2_GlobalDefWriter_WriteString(g, s++,
	    h->application != NULL ? h->application : "ensemble"));
	o2_check(x, OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 4, 2,
	    OTF2_UNDEFINED_SYSTEM_TREE_NODE));
	base_host = s;
	for (k = 0; k < h->nprocessors; k++) {
		o2_check(x, OTF2_GlobalDefWriter_WriteString(g, s++,
		    h->processors[k].host));
		o2_check(x, OTF2_GlobalDefWriter_WriteSystemTreeNode(g, k + 1,
		    base_host + k, 3, 0));
	}
	base_proc = s;
	for (i = 0; i < x->nprocs; i++) {
		int	p = h->processes[i].processor;

		o2_check(x, OTF2_GlobalDefWriter_WriteString(g, s++,
		    h->processes[i].name));
		o2_check(x, OTF2_GlobalDefWriter_WriteLocationGroup(g, (uint32_t)i,
		    base_proc + (uint32_t)i, OTF2_LOCATION_GROUP_TYPE_PROCESS,
		    p >= 0 && (size_t)p < h->nprocessors ? (uint32_t)p + 1 : 0,
		    OTF2_UNDEFINED_LOCATION_GROUP));
		o2_check(x, OTF2_GlobalDefWriter_WriteLocation(g, (uint64_t)i,
		    base_proc + (uint32_t)i, OTF2_LOCATION_TYPE_CPU_THREAD,
		    nevents[i], (uint32_t)i));
	}
	base_reg = s;
	for (k = 0; k < OTF2_NREGIONS; k++) {
		OTF2_RegionRole	role = k <= 1 ? OTF2_REGION_ROLE_FUNCTION :
		    k == 12 ? OTF2_REGION_ROLE_BARRIER : k == 13 || k == 18 ?
		    OTF2_REGION_ROLE_COLL_ONE2ALL : k == 14 || k == 16 ?
		    OTF2_REGION_ROLE_COLL_ALL2ONE : k >= 15 ?
		    OTF2_REGION_ROLE_COLL_ALL2ALL : OTF2_REGION_ROLE_POINT2POINT;

		o2_check(x, OTF2_GlobalDefWriter_WriteString(g, s++,
		    otf2_regions[k]));
		o2_check(x, OTF2_GlobalDefWriter_WriteRegion(g, k, base_reg + k,
		    base_reg + k, 0, role, OTF2_PARADIGM_MPI,
		    OTF2_REGION_FLAG_NONE, 0, 0, 0));
	}
	/* Group 0: every location, MPI's rank i at location i; group c + 1:
	 * communicator c's ranks, each a world rank (a location) in its rank
	 * order: a group's members as its comm line lists them; the world's,
	 * and those of a comm whose ranks the trace gives as world ranks
	 * (other, a group of a trace without members), the world ranks. */
	members = xcalloc((size_t)x->nprocs + 1, sizeof(*members));
	for (i = 0; i < x->nprocs; i++)
		members[i] = (uint64_t)i;
	o2_check(x, OTF2_GlobalDefWriter_WriteGroup(g, 0, 0,
	    OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
	    OTF2_GROUP_FLAG_NONE, (uint32_t)x->nprocs, members));
	base_comm = s;
	for (k = 0; k < h->ncomms; k++) {
		const int	*hm = h->comms[k].members;
		uint32_t	 n = hm != NULL ? (uint32_t)h->comms[k].size :
				    (uint32_t)x->nprocs;
		uint64_t	*m = xcalloc((size_t)n + 1, sizeof(*m));
		uint32_t	 j;

		for (j = 0; j < n; j++)
			m[j] = hm != NULL ? (uint64_t)hm[j] : j;
		if (k == 0)
			snprintf(tmp, sizeof(tmp), "MPI_COMM_WORLD");
		else
			snprintf(tmp, sizeof(tmp), "%.60s", h->comms[k].name);
		o2_check(x, OTF2_GlobalDefWriter_WriteString(g, s++, tmp));
		o2_check(x, OTF2_GlobalDefWriter_WriteGroup(g, k + 1, 0,
		    OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
		    OTF2_GROUP_FLAG_NONE, n, m));
		o2_check(x, OTF2_GlobalDefWriter_WriteComm(g, k, base_comm + k,
		    k + 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));
		free(m);
	}
	free(members);
	o2_check(x, OTF2_Archive_CloseGlobalDefWriter(x->a, g));
}

/* Split path into the archive's directory and name: "DIR/NAME.otf2", or
 * a directory that gets "traces.otf2". */
static void
o2_split(const char *path, char **dir, char **name)
{
	size_t		 n = strlen(path);
	const char	*slash;

	if (n > 5 && strcmp(path + n - 5, ".otf2") == 0) {
		slash = strrchr(path, '/');
		*dir = slash == NULL ? xstrdup(".") : slash == path ? xstrdup("/") :
		    xstrndup(path, (size_t)(slash - path));
		*name = xstrndup(slash == NULL ? path : slash + 1, n - 5 -
		    (size_t)(slash == NULL ? 0 : slash + 1 - path));
		return;
	}
	*dir = xstrdup(path);
	*name = xstrdup("traces");
}

/* The three parts of the archive DIR/NAME.otf2 (OTF2's layout): the
 * anchor file, NAME.def and the folder NAME/ of its locations' files,
 * beside each other. */
static void
o2_parts(const char *dir, const char *name, char *part[3])
{
	const char	*d = strcmp(dir, ".") == 0 ? "" : dir;
	const char	*slash = *d == '\0' || strcmp(d, "/") == 0 ? "" : "/";

	xasprintf(&part[0], "%s%s%s.otf2", d, slash, name);
	xasprintf(&part[1], "%s%s%s.def", d, slash, name);
	xasprintf(&part[2], "%s%s%s", d, slash, name);
}

/* Remove what a failed export wrote of the archive: its files, the
 * files in its folder, the folder (all its own: none was there before). */
static void
o2_remove(char *const part[3])
{
	struct dirent	*de;
	DIR		*d;
	char		*f;

	remove(part[0]);
	remove(part[1]);
	if ((d = opendir(part[2])) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			xasprintf(&f, "%s/%s", part[2], de->d_name);
			remove(f);
			free(f);
		}
		closedir(d);
	}
	rmdir(part[2]);
}

/* Write r's events as an OTF2 archive (export_trace's contract; path an
 * archive, "DIR/NAME.otf2", or a directory that gets "traces.otf2"). */
static int
o2_write(struct trace_reader *r, const struct export_opts *o,
    struct export_stats *st, char **cause)
{
	const struct trace_hdr	*h = trace_header(r);
	struct trace_event	 ev;
	struct o2		 x;
	OTF2_DefWriter		*dw;
	uint64_t		*nevents = NULL;
	char			*dir, *name, *part[3];
	int			 i, rc = 0, bad = 0;
	size_t			 k;
	struct stat		 sb;

	memset(&x, 0, sizeof(x));
	x.err = OTF2_SUCCESS;
	x.nprocs = h->nprocs;
	o2_split(o->path, &dir, &name);
	o2_parts(dir, name, part);
	for (k = 0; k < 3; k++)
		if (lstat(part[k], &sb) == 0) {
			xasprintf(cause, "'%s' exists: OTF2 does not overwrite an "
			    "archive (remove %s, %s and %s/ first)", part[k],
			    part[0], part[1], part[2]);
			bad = 1;
			goto done;
		}
	free(o2_said);
	o2_said = NULL;
	OTF2_Error_RegisterCallback(o2_error, NULL);
	x.a = OTF2_Archive_Open(dir, name, OTF2_FILEMODE_WRITE, 256 * 1024,
	    4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (x.a == NULL) {
		xasprintf(cause, "cannot create the OTF2 archive '%s/%s.otf2'%s%s",
		    dir, name, o2_said != NULL ? ": " : "", o2_said != NULL ?
		    o2_said : "");
		o2_remove(part);
		bad = 1;
		goto done;
	}
	o2_check(&x, OTF2_Archive_SetFlushCallbacks(x.a, &o2_flush, NULL));
	o2_check(&x, OTF2_Archive_SetSerialCollectiveCallbacks(x.a));
	o2_check(&x, OTF2_Archive_SetCreator(x.a, "ensemble trace export"));
	if (h->script != NULL)
		o2_check(&x, OTF2_Archive_SetDescription(x.a, h->script));
	o2_check(&x, OTF2_Archive_OpenEvtFiles(x.a));
	x.loc = xcalloc((size_t)x.nprocs + 1, sizeof(*x.loc));
	o2_comms(&x, h);
	for (i = 0; i < x.nprocs && x.err == OTF2_SUCCESS; i++)
		if ((x.loc[i].w = OTF2_Archive_GetEvtWriter(x.a, (uint64_t)i)) ==
		    NULL)
			o2_check(&x, OTF2_ERROR_MEM_ALLOC_FAILED);
	while (x.err == OTF2_SUCCESS && (rc = trace_next(r, &ev, cause)) == 1) {
		st->events++;
		if (!x.shifted) {	/* the first starts first */
			x.shift = ev.t0ns < 0 ? -ev.t0ns : 0;
			x.shifted = 1;
		}
		if (ev.rank < 0 || ev.rank >= x.nprocs)
			continue;
		o2_event(&x, &ev);
		st->shown++;
		if (trace_side(&ev) == TRACE_SIDE_RECV && ev.peer >= 0)
			st->messages++;
	}
	bad = rc < 0;	/* the trace's error, *cause set */
	nevents = xcalloc((size_t)x.nprocs + 1, sizeof(*nevents));
	for (i = 0; i < x.nprocs; i++) {
		if (x.loc[i].w == NULL)
			continue;
		o2_flush_waits(&x, &x.loc[i]);
		o2_check(&x, OTF2_EvtWriter_GetNumberOfEvents(x.loc[i].w,
		    &nevents[i]));
		o2_check(&x, OTF2_Archive_CloseEvtWriter(x.a, x.loc[i].w));
	}
	o2_check(&x, OTF2_Archive_CloseEvtFiles(x.a));
	if (!bad && x.err == OTF2_SUCCESS) {
		o2_check(&x, OTF2_Archive_OpenDefFiles(x.a));
		for (i = 0; i < x.nprocs; i++)
			if ((dw = OTF2_Archive_GetDefWriter(x.a, (uint64_t)i)) != NULL)
				o2_check(&x, OTF2_Archive_CloseDefWriter(x.a, dw));
		o2_check(&x, OTF2_Archive_CloseDefFiles(x.a));
		o2_defs(&x, h, nevents);
	}
	o2_check(&x, OTF2_Archive_Close(x.a));
	if (!bad && x.err != OTF2_SUCCESS) {
		xasprintf(cause, "cannot write the OTF2 archive '%s/%s.otf2': "
		    "%s%s%s", dir, name, OTF2_Error_GetDescription(x.err),
		    o2_said != NULL ? ": " : "", o2_said != NULL ? o2_said : "");
		bad = 1;
	}
	if (bad)
		o2_remove(part);
	else
		xasprintf(&st->wrote, "wrote %s, with %s and %s/ beside it (an "
		    "OTF2 archive is the three)", part[0], part[1], part[2]);
	for (i = 0; i < x.nprocs; i++)
		free(x.loc[i].waits);
	free(x.loc);
	for (k = 0; k < x.ncomms; k++)
		free(x.comms[k].by_world);
	free(x.comms);
	free(nevents);
done:
	for (k = 0; k < 3; k++)
		free(part[k]);
	free(dir);
	free(name);
	return bad ? -1 : 0;
}

#endif

const struct exporter export_otf2 = {
	"otf2", { "otf2", NULL }, o2_available, o2_write
};
