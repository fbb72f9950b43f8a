/* test-behave.c -- the behaviour text's round trip: each process's
 * behaviour as pcg_instantiate prints it (pcg/behave.c), read by the
 * protocol monitor (runtime/monitor.c), against the program the verifier
 * compiled from the same statements (mpnet/compile.c).  On random runs of
 * the program (choices and branches taken at random, loops followed by
 * their counters, a bounded number of steps, several seeds) the monitor
 * must accept every port call of the run in order, and ens_finalize where
 * the run ends; at sampled points of a run it must accept exactly the
 * calls the program allows after the calls so far: every call some way of
 * the program can make next, and none of the calls made from the run's by
 * changing its port, type, index, root, group or kind (allowed ones
 * aside).  The
 * calls a statement allows are those of ensemble(1), Protocol check: a
 * 'send' accepts ens_send, ens_ssend and ens_bsend, 'isend' ens_isend,
 * ens_issend and ens_ibsend, 'ssend', 'bsend', 'issend' and 'ibsend' only
 * their own call, 'recv any T' ens_recv_any(T) and 'recv any'
 * ens_recv_any(NULL), 'irecv any' likewise ens_irecv_any, a collective
 * 'over G' only over G and one without 'over' only over none.  A
 * configuration keeps its pending requests by the numbers the monitor
 * knows them by (each post a new one); 'wait r' and 'test r' take r's,
 * or 0, a null request, where r is complete already (the test finding it
 * complete); a test's, iprobe's, waitany's and waitsome's outcome is one
 * of those the program allows, at random, and the others are compared;
 * a sendrecv's isend, irecv and wait are one call.  A probe that finds
 * says the port it found (of any: each port asked a channel connects, as
 * the run's outcome), which 'probe ... as m' keeps in m's counter for
 * the SWITCH of 'recv m' (settled through as sem.c does); the port found
 * changed, or not said, is compared too.  Every statement
 * has its call, so no run stops before one (the count of those that do
 * stays in the summary, and must be 0).  TAP output, one line per file,
 * and the counts of the calls of the new kinds made.
 *
 * usage: test-behave [-s SEED] [-r RUNS] [-n STEPS] [-c CHECKS] [-e SCRIPT]
 *     FILE...
 * -e gives a script's text itself ("inline N" in the output).  RUNS runs
 * per process of at most STEPS calls, each compared at its first 4 calls
 * and about CHECKS more. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "diag.h"
#include "frontend.h"
#include "hmap.h"
#include "monitor.h"
#include "mpnet.h"
#include "pcg.h"
#include "xmalloc.h"

/* Configurations one program may be in at once, past which a point is not
 * compared (the monitor's own bound is MON_MAX_CONFIGS). */
#define SET_MAX		1024
/* CHOICEs resolved without a call before a run gives up (a loop whose
 * body may take no branch with a call). */
#define CHOICE_MAX	1000

static int	tap_n, failures;

/* Totals over all files, for the last line. */
static struct {
	long	files, procs, distinct, runs, calls, ends, stopped, points;
	long	accepted, refused, full;
	/* Calls of the new kinds accepted in order, by op, and of those the
	 * waits and tests on a null request, the tests, iprobes and iprobe
	 * anys that found, and the waitsomes of more than one request. */
	long	byop[MON_FINALIZE + 1], null, found, many;
	/* 'recv m' receives made (of a probed message). */
	long	probed;
} tot;

static uint64_t	rng;

/* xorshift64*: the same sequence on every machine. */
static uint64_t
rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

static int
rnd_below(int n)
{
	return n <= 1 ? 0 : (int)(rnd() % (uint64_t)n);
}

/* One process under test. */
struct proc {
	const struct mpnet	*net;
	const struct pcg	*g;
	int			 proc;
	const struct prog	*pr;
	int			 w;		/* int64s per configuration */
	const char		**names;	/* every process's name */
	const char		**gnames;	/* every group's ("rows[2]") */
	int			*lptype, *lpport;	/* per local port */
	const char		*label;
	int			 said;		/* failures shown for it */
};

/* A set of configurations: pc, the program's loop counters, then the
 * numbers of its pending requests (PEND). */
struct set {
	int64_t		*c;
	int		 n, alloc;
	int		 full;		/* went past SET_MAX */
};

static void
fail(struct proc *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
fail(struct proc *x, const char *fmt, ...)
{
	va_list	ap;

	failures++;
	if (x->said++ >= 3)
		return;
	printf("# %s: %s (behaviour '%.60s%s'): ", x->label, x->names[x->proc],
	    x->g->procs[x->proc].behaviour,
	    strlen(x->g->procs[x->proc].behaviour) > 60 ? "..." : "");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* Follow LOOP, NEXT and JUMP from c's pc, as sem.c's settle does. */
static void
settle(const struct prog *pr, int64_t *c)
{
	const struct ins	*in;

	for (;;) {
		in = &pr->ins[c[0]];
		if (in->op == OP_LOOP) {
			c[1 + in->ctr] = in->count - 1;
			c[0] += 2;
		} else if (in->op == OP_NEXT) {
			if (in->count < 0)
				c[0]++;
			else if (c[1 + in->ctr] > 0) {
				c[1 + in->ctr]--;
				c[0]++;
			} else
				c[0] = in->target;
		} else if (in->op == OP_JUMP)
			c[0] = in->target;
		else
			return;
	}
}

static void
set_add(const struct proc *x, struct set *s, const int64_t *c)
{
	int	i;

	for (i = 0; i < s->n; i++)
		if (memcmp(s->c + (size_t)i * x->w, c, sizeof(int64_t) * x->w) == 0)
			return;
	if (s->n == SET_MAX) {
		s->full = 1;
		return;
	}
	if (s->n == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 16;
		s->c = xreallocarray(s->c, (size_t)s->alloc * x->w, sizeof(int64_t));
	}
	memcpy(s->c + (size_t)s->n++ * x->w, c, sizeof(int64_t) * x->w);
}

/* Replace each configuration at a CHOICE by its branches, settled. */
static void
set_close(const struct proc *x, struct set *s)
{
	int64_t	*c = xcalloc(x->w, sizeof(int64_t));
	int	 i, k;

	for (i = 0; i < s->n; i++) {
		const struct ins	*in = &x->pr->ins[s->c[(size_t)i * x->w]];

		if (in->op != OP_CHOICE)
			continue;
		for (k = 0; k < in->nalt; k++) {
			memcpy(c, s->c + (size_t)i * x->w, sizeof(int64_t) * x->w);
			c[0] = x->pr->alts[in->alt + k];
			settle(x->pr, c);
			set_add(x, s, c);
		}
		/* Drop it: the last one takes its place, to be looked at. */
		memcpy(s->c + (size_t)i * x->w, s->c + (size_t)(s->n - 1) * x->w,
		    sizeof(int64_t) * x->w);
		s->n--;
		i--;
	}
	free(c);
}

static int
port_is(const struct proc *x, int lp, const struct mon_event *e)
{
	const struct pcg_comp	*c = &x->g->comps[x->g->procs[x->proc].comp];

	return e->type != NULL && strcmp(e->type, c->types[x->lptype[lp]]) == 0 &&
	    e->port == x->lpport[lp];
}

static int
str_is(const char *a, const char *b)
{
	return a == NULL || b == NULL ? a == b : strcmp(a, b) == 0;
}

/* Whether a call is a collective (which may go over a group). */
static int
is_coll(enum mon_op op)
{
	switch (op) {
	case MON_BARRIER: case MON_BCAST: case MON_SCATTER: case MON_REDUCE:
	case MON_ALLREDUCE: case MON_GATHER: case MON_ALLGATHER:
	case MON_ALLTOALL: case MON_ALLGATHERV: case MON_ALLTOALLV:
	case MON_REDUCE_SCATTER: case MON_SCATTERV: case MON_GATHERV:
		return 1;
	default:
		return 0;
	}
}

/* The instruction configuration c is at, a 'recv m' (RECVPROBED) as the
 * RECV of the port its counter holds (in a copy kept per process: one
 * in use at a time). */
static const struct ins *
at(const struct proc *x, const int64_t *c)
{
	static struct ins	 probed;
	const struct ins	*in = &x->pr->ins[c[0]];

	if (in->op != OP_RECVPROBED)
		return in;
	probed = *in;
	probed.op = OP_RECV;
	probed.lp = mpnet_recv_lp(in, (uint64_t)c[1 + in->ctr]);
	return &probed;
}

/* Whether the instruction allows call e (ensemble(1), Protocol check):
 * the calls of one port or none, where requests play no part. */
static int
allows(const struct proc *x, const struct ins *in, const struct mon_event *e)
{
	const struct coll	*co;
	static const int	 coll_op[] = {
		[S_BARRIER] = MON_BARRIER, [S_ALLREDUCE] = MON_ALLREDUCE,
		[S_ALLGATHER] = MON_ALLGATHER, [S_ALLTOALL] = MON_ALLTOALL,
		[S_BCAST] = MON_BCAST, [S_SCATTER] = MON_SCATTER, [S_REDUCE] = MON_REDUCE,
		[S_GATHER] = MON_GATHER, [S_ALLGATHERV] = MON_ALLGATHERV,
		[S_ALLTOALLV] = MON_ALLTOALLV, [S_REDUCESCATTER] = MON_REDUCE_SCATTER,
		[S_SCATTERV] = MON_SCATTERV, [S_GATHERV] = MON_GATHERV
	};

	switch (in->op) {
	case OP_SEND:
		if (!port_is(x, in->lp, e))
			return 0;
		if (in->mode == MODE_SYNC)
			return e->op == MON_SSEND;
		if (in->mode == MODE_BUFFERED)
			return e->op == MON_BSEND;
		return e->op == MON_SEND || e->op == MON_SSEND || e->op == MON_BSEND;
	case OP_RECV:
		return e->op == MON_RECV && port_is(x, in->lp, e);
	case OP_ISEND:
		if (!port_is(x, in->lp, e))
			return 0;
		if (in->mode == MODE_SYNC)
			return e->op == MON_ISSEND;
		if (in->mode == MODE_BUFFERED)
			return e->op == MON_IBSEND;
		return e->op == MON_ISEND || e->op == MON_ISSEND || e->op == MON_IBSEND;
	case OP_IRECV:
		return e->op == MON_IRECV && port_is(x, in->lp, e);
	case OP_RECVANY:
		return e->op == MON_RECV_ANY && str_is(e->type, in->src->type);
	case OP_IRECVANY:
		return e->op == MON_IRECV_ANY && str_is(e->type, in->src->type);
	case OP_PROBE:
		return e->op == MON_PROBE && port_is(x, in->lp, e);
	case OP_PROBEANY:
		return e->op == MON_PROBE_ANY && str_is(e->type, in->src->type);
	case OP_IPROBE:
		return e->op == MON_IPROBE && port_is(x, in->lp, e);
	case OP_IPROBEANY:
		return e->op == MON_IPROBE_ANY && str_is(e->type, in->src->type);
	case OP_WAITALL:
		return e->op == MON_WAITALL;
	case OP_COLL:
		co = &x->net->colls[in->coll];
		if ((int)e->op != coll_op[co->kind] || !str_is(e->group,
		    co->group >= 0 ? x->gnames[co->group] : NULL))
			return 0;
		return co->root < 0 || (e->root != NULL &&
		    strcmp(e->root, x->names[co->root]) == 0);
	case OP_END:
		return e->op == MON_FINALIZE;
	default:	/* CHOICE: closed over; the rest: conf_step */
		return 0;
	}
}

/* Whether the instruction is the isend of a sendrecv: it, the irecv and
 * the wait after it are the one call ens_sendrecv. */
static int
is_sendrecv(const struct ins *in)
{
	return in->op == OP_ISEND && in->src != NULL &&
	    (in->src->kind == S_SENDRECV || in->src->kind == S_SENDRECV_REPLACE);
}

/* The pending requests of configuration c: the k-th posted of those not
 * complete is c's PEND[k], the number the monitor knows it by. */
#define PEND(x, c)	((c) + 1 + (x)->pr->nctr)

/* Take the requests of mask (bit k: the k-th of the n pending) out of c's,
 * the rest moving up as the program's do (compile.c: drop). */
static void
pend_drop(const struct proc *x, int64_t *c, int n, uint64_t mask)
{
	int64_t	*p = PEND(x, c);
	int	 k, j = 0;

	for (k = 0; k < n; k++)
		if (!(mask >> k & 1))
			p[j++] = p[k];
	for (; j < n; j++)
		p[j] = 0;
}

static int
low_bit(uint64_t m)
{
	return __builtin_ctzll(m);
}

/* The local ports a probe may find a message on: lo..hi-1. */
static void
probe_range(const struct ins *in, int *lo, int *hi)
{
	*lo = in->op == OP_PROBE || in->op == OP_IPROBE ? in->lp : in->lo;
	*hi = in->op == OP_PROBE || in->op == OP_IPROBE ? in->lp + 1 : in->hi;
}

/* The local port a probe's call e says it found its message on (a probe
 * of one port: that port; of any: e's rtype[rport]): 1 and *lp when it
 * is one the probe asked, 0 when e says none, -1 when another. */
static int
probe_found(const struct proc *x, const struct ins *in,
    const struct mon_event *e, int *lp)
{
	const struct pcg_comp	*co = &x->g->comps[x->g->procs[x->proc].comp];
	int			 lo, hi;

	probe_range(in, &lo, &hi);
	if (in->op == OP_PROBE || in->op == OP_IPROBE) {
		*lp = in->lp;
		return 1;
	}
	if (e->rtype == NULL)
		return 0;
	for (*lp = lo; *lp < hi; (*lp)++)
		if (strcmp(e->rtype, co->types[x->lptype[*lp]]) == 0 &&
		    e->rport == x->lpport[*lp])
			return 1;
	return -1;
}

/* Whether configuration c allows call e; if so d becomes c past it (not
 * settled; at the end, c).  A request is the program's k-th pending where
 * the configuration's PEND[k] holds the call's number; a wait or test on a
 * request complete already has number 0 (a null request), and a test of
 * one finds it complete. */
static int
conf_step(const struct proc *x, const int64_t *c, const struct mon_event *e,
    int64_t *d)
{
	const struct ins	*in = at(x, c);
	const struct pcg_comp	*co = &x->g->comps[x->g->procs[x->proc].comp];
	int64_t			*p;
	uint64_t		 b, done = 0, bits = 0;
	int			 n = in->nposted, a, j, m;

	memcpy(d, c, sizeof(int64_t) * x->w);
	p = PEND(x, d);
	switch (in->op) {
	case OP_ISEND:
		if (is_sendrecv(in)) {
			if (e->op != (in->src->kind == S_SENDRECV ? MON_SENDRECV :
			    MON_SENDRECV_REPLACE) || !port_is(x, in->lp, e) ||
			    e->rtype == NULL || strcmp(e->rtype,
			    co->types[x->lptype[in->hi]]) != 0 ||
			    e->rport != x->lpport[in->hi] ||
			    x->pr->ins[c[0] + 1].op != OP_IRECV ||
			    x->pr->ins[c[0] + 2].op != OP_WAIT)
				return 0;
			d[0] += 3;
			return 1;
		}
		/* FALLTHROUGH */
	case OP_IRECV:
	case OP_IRECVANY:
		if (!allows(x, in, e))
			return 0;
		p[n] = e->req;
		d[0]++;
		return 1;
	case OP_WAIT:
		if (e->op != MON_WAIT || e->req != (in->wmask != 0 ?
		    p[low_bit(in->wmask)] : 0))
			return 0;
		pend_drop(x, d, n, in->wmask);
		d[0]++;
		return 1;
	case OP_TEST:
		if (e->op != MON_TEST)
			return 0;
		if (in->nalt == 1) {
			if (e->req != 0 || !e->flag)
				return 0;
		} else if (e->req == 0 || e->req != p[in->slot])
			return 0;
		if (e->flag)
			pend_drop(x, d, n, in->wmask);
		d[0] = x->pr->alts[in->alt + (e->flag ? 0 : 1)];
		return 1;
	case OP_PROBE:
	case OP_PROBEANY:
	case OP_IPROBE:
	case OP_IPROBEANY:
		/* One that found says where: a port asked; 'as m' keeps it
		 * in m's counter (+ 1) for the SWITCH of 'recv m'. */
		if (!allows(x, in, e))
			return 0;
		if (e->flag || in->op == OP_PROBE || in->op == OP_PROBEANY) {
			if ((a = probe_found(x, in, e, &j)) < 0 ||
			    (a == 0 && in->ctr >= 0))
				return 0;
			if (in->ctr >= 0)
				d[1 + in->ctr] = j + 1;
		}
		if (in->op == OP_PROBE || in->op == OP_PROBEANY)
			d[0]++;
		else
			d[0] = x->pr->alts[in->alt + (e->flag ? 0 : 1)];
		return 1;
	case OP_WAITANY:
		if (e->op != MON_WAITANY || e->req == 0)
			return 0;
		for (a = 0; a < in->nalt; a++)
			if (p[low_bit(mpnet_nth_bit(in->wmask, a))] == e->req)
				break;
		if (a == in->nalt)
			return 0;
		pend_drop(x, d, n, mpnet_nth_bit(in->wmask, a));
		d[0] = x->pr->alts[in->alt + a];
		return 1;
	case OP_WAITSOME:
		if (e->op != MON_WAITSOME || e->nreqs == 0)
			return 0;
		m = __builtin_popcountll(in->wmask);
		for (j = 0; j < e->nreqs; j++) {
			for (a = 0; a < m; a++) {
				b = mpnet_nth_bit(in->wmask, a);
				if (!(bits >> a & 1) && e->reqs[j] != 0 &&
				    p[low_bit(b)] == e->reqs[j])
					break;
			}
			if (a == m)
				return 0;
			bits |= (uint64_t)1 << a;
			done |= b;
		}
		pend_drop(x, d, n, done);
		d[0] = x->pr->alts[in->alt + (int)bits - 1];
		return 1;
	case OP_WAITALL:
		if (!allows(x, in, e))
			return 0;
		pend_drop(x, d, n, ~(uint64_t)0);
		d[0]++;
		return 1;
	case OP_RECV:
		if (!allows(x, in, e))
			return 0;
		if (x->pr->ins[c[0]].op == OP_RECVPROBED)	/* m received */
			d[1 + x->pr->ins[c[0]].ctr] = 0;
		d[0]++;
		return 1;
	case OP_END:
		return allows(x, in, e);	/* it stays at its end */
	default:
		if (!allows(x, in, e))
			return 0;
		d[0]++;
		return 1;
	}
}

/* A call with room for a waitsome's requests (e.reqs points into it
 * only once call_ev has said so: the struct is copied about). */
#define CALL_REQS	64
struct call {
	struct mon_event	 e;
	long			 reqs[CALL_REQS];
};

static struct mon_event *
call_ev(struct call *k)
{
	k->e.reqs = k->e.nreqs > 0 ? k->reqs : NULL;
	return &k->e;
}

/* The call a component makes for an instruction of one call (a 'send'
 * makes ens_send, an 'isend' ens_isend); 0 when libensemble has none. */
static int
call_of(const struct proc *x, const struct ins *in, struct mon_event *e)
{
	const struct pcg_comp	*c = &x->g->comps[x->g->procs[x->proc].comp];
	const struct coll	*co;
	static const int	 send_op[] = { MON_SEND, MON_SSEND, MON_BSEND };
	static const int	 isend_op[] = { MON_ISEND, MON_ISSEND, MON_IBSEND };

	memset(e, 0, sizeof(*e));
	switch (in->op) {
	case OP_SEND:
	case OP_RECV:
	case OP_ISEND:
	case OP_IRECV:
	case OP_PROBE:
	case OP_IPROBE:
		e->op = in->op == OP_SEND ? send_op[in->mode] : in->op == OP_RECV ?
		    MON_RECV : in->op == OP_ISEND ? isend_op[in->mode] :
		    in->op == OP_IRECV ? MON_IRECV : in->op == OP_PROBE ?
		    MON_PROBE : MON_IPROBE;
		e->type = c->types[x->lptype[in->lp]];
		e->port = x->lpport[in->lp];
		if (is_sendrecv(in)) {
			e->op = in->src->kind == S_SENDRECV ? MON_SENDRECV :
			    MON_SENDRECV_REPLACE;
			e->rtype = c->types[x->lptype[in->hi]];
			e->rport = x->lpport[in->hi];
		}
		return 1;
	case OP_RECVANY:
	case OP_IRECVANY:
	case OP_PROBEANY:
	case OP_IPROBEANY:
		e->op = in->op == OP_RECVANY ? MON_RECV_ANY : in->op == OP_IRECVANY ?
		    MON_IRECV_ANY : in->op == OP_PROBEANY ? MON_PROBE_ANY :
		    MON_IPROBE_ANY;
		e->type = in->src->type;
		return 1;
	case OP_WAITALL:
		e->op = MON_WAITALL;
		return 1;
	case OP_COLL:
		co = &x->net->colls[in->coll];
		switch (co->kind) {
		case S_BARRIER:		e->op = MON_BARRIER; break;
		case S_ALLREDUCE:	e->op = MON_ALLREDUCE; break;
		case S_ALLGATHER:	e->op = MON_ALLGATHER; break;
		case S_BCAST:		e->op = MON_BCAST; break;
		case S_REDUCE:		e->op = MON_REDUCE; break;
		case S_GATHER:		e->op = MON_GATHER; break;
		case S_SCATTER:		e->op = MON_SCATTER; break;
		case S_ALLTOALL:	e->op = MON_ALLTOALL; break;
		case S_ALLGATHERV:	e->op = MON_ALLGATHERV; break;
		case S_ALLTOALLV:	e->op = MON_ALLTOALLV; break;
		case S_REDUCESCATTER:	e->op = MON_REDUCE_SCATTER; break;
		case S_SCATTERV:	e->op = MON_SCATTERV; break;
		case S_GATHERV:		e->op = MON_GATHERV; break;
		default:		return 0;
		}
		if (co->root >= 0)
			e->root = x->names[co->root];
		if (co->group >= 0)
			e->group = x->gnames[co->group];
		return 1;
	case OP_END:
		e->op = MON_FINALIZE;
		return 1;
	default:
		return 0;
	}
}

/* out[0], a probe's call that found, once per local port it may find a
 * message on (one connected to a channel; any asked when none is), the
 * port in its rtype and rport where it probes any; how many. */
static int
found_calls(const struct proc *x, const struct ins *in, struct call *out,
    int max)
{
	const struct pcg_comp	*co = &x->g->comps[x->g->procs[x->proc].comp];
	const struct pcg_proc	*p = &x->g->procs[x->proc];
	int			 lo, hi, lp, n = 0, conn;

	if (in->op == OP_PROBE || in->op == OP_IPROBE)
		return 1;
	probe_range(in, &lo, &hi);
	for (conn = 1; conn >= 0 && n == 0; conn--)
		for (lp = lo; lp < hi && n < max; lp++) {
			if (conn && x->g->portchan[p->portbase + lp] < 0)
				continue;
			out[n] = out[0];
			out[n].e.rtype = co->types[x->lptype[lp]];
			out[n++].e.rport = x->lpport[lp];
		}
	return n;
}

/* Every call configuration c may make next, with every outcome the
 * program allows there (a test found complete or not, the request a
 * waitany completes, each set a waitsome does), into out[0..max); how
 * many.  A post's number is left 0. */
static int
calls_from(const struct proc *x, const int64_t *c, struct call *out, int max)
{
	const struct ins	*in = at(x, c);
	const int64_t		*p = PEND(x, c);
	uint64_t		 done;
	int			 n = 0, a, k;

	if (max < 1)
		return 0;
	memset(&out[0], 0, sizeof(out[0]));
	switch (in->op) {
	case OP_WAIT:
		out[0].e.op = MON_WAIT;
		out[0].e.req = in->wmask != 0 ? p[low_bit(in->wmask)] : 0;
		return 1;
	case OP_TEST:
		out[0].e.op = MON_TEST;
		out[0].e.flag = 1;
		if (in->nalt == 1)
			return 1;
		out[0].e.req = p[in->slot];
		if (max < 2)
			return 1;
		out[1] = out[0];
		out[1].e.flag = 0;
		return 2;
	case OP_PROBEANY:
	case OP_IPROBE:
	case OP_IPROBEANY:
		/* Found, on each port asked that is connected (a probe of any
		 * says which: the port its 'recv m' takes), or not (an
		 * iprobe). */
		if (!call_of(x, in, &out[0].e))
			return 0;
		out[0].e.flag = 1;
		n = found_calls(x, in, out, max);
		if (in->op == OP_PROBEANY || n >= max)
			return n;
		out[n] = out[0];
		out[n].e.flag = 0;
		out[n].e.rtype = NULL;
		out[n].e.rport = 0;
		return n + 1;
	case OP_WAITANY:
		for (a = 0; a < in->nalt && n < max; a++, n++) {
			memset(&out[n], 0, sizeof(out[n]));
			out[n].e.op = MON_WAITANY;
			out[n].e.req = p[low_bit(mpnet_nth_bit(in->wmask, a))];
		}
		return n;
	case OP_WAITSOME:
		for (a = 0; a < in->nalt && n < max; a++, n++) {
			memset(&out[n], 0, sizeof(out[n]));
			out[n].e.op = MON_WAITSOME;
			done = mpnet_pick_bits(in->wmask, (uint64_t)a + 1);
			for (k = 0; k < 64 && out[n].e.nreqs < CALL_REQS; k++)
				if (done >> k & 1)
					out[n].reqs[out[n].e.nreqs++] = p[k];
		}
		return n;
	default:
		return call_of(x, in, &out[0].e);
	}
}

/* The configurations of s that allow e, each past its instruction,
 * settled and closed, into out; how many. */
static int
set_step(const struct proc *x, const struct set *s, const struct mon_event *e,
    struct set *out)
{
	int64_t	*c = xcalloc(x->w, sizeof(int64_t));
	int	 i;

	out->n = 0;
	out->full = s->full;
	for (i = 0; i < s->n; i++) {
		if (!conf_step(x, s->c + (size_t)i * x->w, e, c))
			continue;
		if (e->op != MON_FINALIZE)
			settle(x->pr, c);
		set_add(x, out, c);
	}
	set_close(x, out);
	free(c);
	return out->n;
}

static const char *const op_names[] = {
	"ens_send", "ens_ssend", "ens_bsend", "ens_isend", "ens_issend",
	"ens_ibsend", "ens_recv", "ens_irecv", "ens_recv_any", "ens_irecv_any",
	"ens_waitall", "ens_barrier", "ens_bcast", "ens_scatter", "ens_reduce",
	"ens_allreduce", "ens_gather", "ens_allgather", "ens_alltoall",
	"ens_allgatherv", "ens_alltoallv", "ens_reduce_scatter", "ens_scatterv",
	"ens_gatherv", "ens_sendrecv", "ens_sendrecv_replace", "ens_wait",
	"ens_test", "ens_waitany", "ens_waitsome", "ens_probe", "ens_probe_any",
	"ens_iprobe", "ens_iprobe_any", "ens_finalize"
};

static const char *
call_text(const struct mon_event *e, char *buf, size_t len)
{
	size_t	k;
	int	i;

	if (e->root != NULL)
		snprintf(buf, len, "%s %s", op_names[e->op], e->root);
	else if (e->rtype != NULL && (e->op == MON_PROBE_ANY ||
	    e->op == MON_IPROBE_ANY))
		snprintf(buf, len, "%s%s%s (found %s[%d])", op_names[e->op],
		    e->type ? " " : "", e->type ? e->type : "", e->rtype, e->rport);
	else if (e->rtype != NULL)
		snprintf(buf, len, "%s %s[%d], %s[%d]", op_names[e->op], e->type,
		    e->port, e->rtype, e->rport);
	else if (e->port > 0)
		snprintf(buf, len, "%s %s[%d]", op_names[e->op], e->type, e->port);
	else
		snprintf(buf, len, "%s%s%s", op_names[e->op], e->type ? " " : "",
		    e->type ? e->type : "");
	if (e->group != NULL && (k = strlen(buf)) < len)
		snprintf(buf + k, len - k, " over %s", e->group);
	if (e->req != 0 && (k = strlen(buf)) < len)
		snprintf(buf + k, len - k, " (request %ld)", e->req);
	for (i = 0; i < e->nreqs && (k = strlen(buf)) < len; i++)
		snprintf(buf + k, len - k, "%s%ld", i == 0 ? " (requests " : ", ",
		    e->reqs[i]);
	if (e->nreqs > 0 && (k = strlen(buf)) < len)
		snprintf(buf + k, len - k, ")");
	if ((e->op == MON_TEST || e->op == MON_IPROBE || e->op == MON_IPROBE_ANY) &&
	    (k = strlen(buf)) < len)
		snprintf(buf + k, len - k, " -> %s", e->flag ? "true" : "false");
	return buf;
}

/* A monitor for the process (NULL after a reported failure). */
static struct mon *
mon_for(struct proc *x)
{
	const struct pcg_proc	*p = &x->g->procs[x->proc];
	const struct pcg_comp	*c = &x->g->comps[p->comp];
	struct mon		*m;
	char			*cause = NULL, **locs;
	int			 nlocs, i;

	nlocs = pcg_behaviour_locs(x->g, x->proc, &locs);
	m = ens_mon_new(p->behaviour, nlocs, (const char *const *)locs, c->ntypes,
	    c->types, p->nports, &cause);
	if (m == NULL)
		fail(x, "the monitor refuses the text: %s",
		    cause != NULL ? cause : "(no cause)");
	free(cause);
	for (i = 0; i < nlocs; i++)
		free(locs[i]);
	free(locs);
	return m;
}

static int
is_post(enum mon_op op)
{
	return op == MON_ISEND || op == MON_ISSEND || op == MON_IBSEND ||
	    op == MON_IRECV || op == MON_IRECV_ANY;
}

/* Give the monitor call e as libensemble does: a waitany or waitsome
 * asked about first (ens_mon_expects), a post of an odd number said
 * after it (ens_mon_posted, as ens_isend does), of an even one with it
 * (as trace check does).  0, or -1 and *msg. */
static int
feed(struct mon *m, const struct mon_event *e, char **msg)
{
	struct mon_event	y = *e;

	*msg = NULL;
	if ((e->op == MON_WAITANY || e->op == MON_WAITSOME) &&
	    ens_mon_expects(m, e, msg) != 0)
		return -1;
	if (is_post(e->op) && (e->req & 1)) {
		y.req = 0;
		if (ens_mon_step(m, &y, msg) != 0)
			return -1;
		ens_mon_posted(m, e->req);
		return 0;
	}
	return ens_mon_step(m, &y, msg);
}

/* Whether the monitor, after the calls of path[0..n), accepts e. */
static int
mon_accepts(struct proc *x, struct call *path, int n,
    const struct mon_event *e, char **msg)
{
	struct mon	*m = mon_for(x);
	int		 i, r = 0;

	*msg = NULL;
	if (m == NULL)
		return -1;
	for (i = 0; i < n && r == 0; i++) {
		if ((r = feed(m, call_ev(&path[i]), msg)) != 0)
			r = -1;
		if (r != 0) {
			free(*msg);
			*msg = NULL;
		}
	}
	if (r == 0)
		r = feed(m, e, msg) == 0;
	ens_mon_free(m);
	return r;
}

/* Compare monitor and program on one call after path[0..n). */
static void
compare(struct proc *x, const struct set *s, struct call *path, int n,
    const struct mon_event *e)
{
	struct set	 out = { NULL, 0, 0, 0 };
	char		 call[512], *msg = NULL;
	int		 want, got;

	want = set_step(x, s, e, &out) > 0;
	free(out.c);
	got = mon_accepts(x, path, n, e, &msg);
	if (got < 0)
		fail(x, "the monitor refuses the run's own calls before call %d", n + 1);
	else if (got != want)
		fail(x, "after %d calls, '%s': the program %s it, the monitor %s "
		    "it%s%s", n, call_text(e, call, sizeof(call)),
		    want ? "allows" : "does not allow", got ? "accepts" : "refuses",
		    msg != NULL ? ": " : "", msg != NULL ? msg : "");
	else if (want)
		tot.accepted++;
	else
		tot.refused++;
	free(msg);
}

/* The run's call e (configuration c) with its request changed: to each
 * request pending, to a null one (0) and to one never posted (1), and a
 * test's or iprobe's outcome the other way; a waitsome's requests one
 * fewer, one more, one alone and in the other order. */
static void
compare_reqs(struct proc *x, const struct set *s, struct call *path, int n,
    const int64_t *c, const struct mon_event *e)
{
	const int64_t	*p = PEND(x, c);
	struct call	 y;
	int		 np = x->pr->ins[c[0]].nposted, k, j, f;

	if (e->op == MON_WAIT || e->op == MON_TEST || e->op == MON_WAITANY) {
		for (f = 0; f < (e->op == MON_TEST ? 2 : 1); f++)
			for (k = -2; k < np; k++) {
				memset(&y, 0, sizeof(y));
				y.e.op = e->op;
				y.e.flag = e->op == MON_TEST ? f : 0;
				y.e.req = k == -2 ? 0 : k == -1 ? 1 : p[k];
				if (y.e.req != e->req || y.e.flag != e->flag)
					compare(x, s, path, n, call_ev(&y));
			}
	}
	if (e->op == MON_IPROBE || e->op == MON_IPROBE_ANY) {
		y.e = *e;
		y.e.flag = !e->flag;
		compare(x, s, path, n, &y.e);
	}
	if (e->op == MON_WAITSOME && e->nreqs <= CALL_REQS) {
		memset(&y, 0, sizeof(y));
		y.e.op = MON_WAITSOME;
		if (e->nreqs > 1) {
			y.e.nreqs = e->nreqs - 1;
			memcpy(y.reqs, e->reqs, sizeof(long) * (size_t)y.e.nreqs);
			compare(x, s, path, n, call_ev(&y));
			for (k = 0; k < e->nreqs; k++)
				y.reqs[k] = e->reqs[e->nreqs - 1 - k];
			y.e.nreqs = e->nreqs;
			compare(x, s, path, n, call_ev(&y));
		}
		for (k = 0; k < np; k++) {
			for (j = 0; j < e->nreqs && e->reqs[j] != p[k]; j++)
				;
			y.e.nreqs = 1;
			y.reqs[0] = p[k];
			if (e->nreqs != 1 || e->reqs[0] != p[k])
				compare(x, s, path, n, call_ev(&y));
			if (j == e->nreqs && e->nreqs < CALL_REQS) {
				memcpy(y.reqs, e->reqs, sizeof(long) * (size_t)e->nreqs);
				y.reqs[e->nreqs] = p[k];
				y.e.nreqs = e->nreqs + 1;
				compare(x, s, path, n, call_ev(&y));
			}
		}
		y.e.nreqs = 1;
		y.reqs[0] = 1;
		compare(x, s, path, n, call_ev(&y));
	}
}

/* Every call the program allows next from s, and the run's own call e
 * (from configuration c) changed in each of its parts, compared. */
static void
compare_point(struct proc *x, const struct set *s, struct call *path, int n,
    const int64_t *c, const struct mon_event *e)
{
	const struct pcg_proc	*p = &x->g->procs[x->proc];
	const struct pcg_comp	*co = &x->g->comps[p->comp];
	struct call		*ys = xcalloc(CALL_REQS, sizeof(*ys));
	struct mon_event	 y;
	int			 i, k, op, ny;

	tot.points++;
	if (s->full) {
		tot.full++;
		free(ys);
		return;
	}
	/* What some way of the program makes next. */
	for (i = 0; i < s->n; i++) {
		const struct ins	*in = &x->pr->ins[s->c[(size_t)i * x->w]];

		ny = calls_from(x, s->c + (size_t)i * x->w, ys, CALL_REQS);
		for (k = 0; k < ny; k++)
			compare(x, s, path, n, call_ev(&ys[k]));
		if (ny == 0 || is_sendrecv(in))
			continue;
		y = ys[0].e;
		if (in->op == OP_SEND && in->mode == MODE_STANDARD)
			for (op = MON_SSEND; op <= MON_BSEND; op++) {
				y.op = op;
				compare(x, s, path, n, &y);
			}
		if (in->op == OP_ISEND && in->mode == MODE_STANDARD)
			for (op = MON_ISSEND; op <= MON_IBSEND; op++) {
				y.op = op;
				compare(x, s, path, n, &y);
			}
	}
	free(ys);
	/* Another port, type, index or root. */
	if (e->port > 0) {
		y = *e;
		for (k = -1; k <= 1; k += 2) {
			y.port = e->port + k;
			compare(x, s, path, n, &y);
		}
		for (i = 0; i < co->ntypes; i++) {
			y.port = e->port;
			y.type = co->types[i];
			if (y.type != e->type)
				compare(x, s, path, n, &y);
			y.port = p->nports[i] + 1;
			compare(x, s, path, n, &y);
		}
	}
	/* A sendrecv's receive on another port, or the other form; a probe
	 * of any that found, another port found, or none said. */
	if (e->rtype != NULL) {
		y = *e;
		for (k = -1; k <= 1; k += 2) {
			y.rport = e->rport + k;
			compare(x, s, path, n, &y);
		}
		y.rport = e->rport;
		for (i = 0; i < co->ntypes; i++) {
			y.rtype = co->types[i];
			if (y.rtype != e->rtype)
				compare(x, s, path, n, &y);
		}
		y = *e;
		if (e->op == MON_PROBE_ANY || e->op == MON_IPROBE_ANY) {
			y.rtype = NULL;
			y.rport = 0;
			compare(x, s, path, n, &y);
			goto found;
		}
		y.op = e->op == MON_SENDRECV ? MON_SENDRECV_REPLACE : MON_SENDRECV;
		compare(x, s, path, n, &y);
		y = *e;
		y.type = e->rtype;
		y.port = e->rport;
		y.rtype = e->type;
		y.rport = e->port;
		compare(x, s, path, n, &y);
	}
found:
	if (e->op == MON_RECV_ANY || e->op == MON_IRECV_ANY ||
	    e->op == MON_PROBE_ANY || e->op == MON_IPROBE_ANY) {
		y = *e;
		y.type = NULL;
		if (e->type != NULL)
			compare(x, s, path, n, &y);
		for (i = 0; i < co->ntypes; i++) {
			y.type = co->types[i];
			if (y.type != e->type)
				compare(x, s, path, n, &y);
		}
	}
	compare_reqs(x, s, path, n, c, e);
	/* A collective over another group, or over none, or over one where
	 * it goes over none. */
	if (is_coll(e->op)) {
		y = *e;
		if (e->group != NULL) {
			y.group = NULL;
			compare(x, s, path, n, &y);
		}
		for (i = 0; i < x->g->ngroups && i < 3; i++) {
			y.group = x->gnames[i];
			if (!str_is(y.group, e->group))
				compare(x, s, path, n, &y);
		}
	}
	if (e->root != NULL) {
		y = *e;
		for (k = 0; k < 3; k++) {
			i = k == 0 ? 0 : k == 1 ? x->g->nprocs - 1 : x->proc;
			y.root = x->names[i];
			if (strcmp(y.root, e->root) != 0)
				compare(x, s, path, n, &y);
		}
	}
	/* Another kind of call, on the same port or root where it has one,
	 * the first request pending where it names one. */
	for (op = MON_SEND; op <= MON_FINALIZE; op++) {
		struct call	yc;

		if (op == (int)e->op)
			continue;
		memset(&yc, 0, sizeof(yc));
		yc.e.op = op;
		if (op <= MON_IRECV || op == MON_SENDRECV ||
		    op == MON_SENDRECV_REPLACE || op == MON_PROBE || op == MON_IPROBE) {
			yc.e.type = e->type != NULL ? e->type : co->ntypes > 0 ?
			    co->types[0] : NULL;
			yc.e.port = e->port > 0 ? e->port : 1;
			if (yc.e.type == NULL)
				continue;
			if (op == MON_SENDRECV || op == MON_SENDRECV_REPLACE) {
				yc.e.rtype = e->rtype != NULL ? e->rtype : yc.e.type;
				yc.e.rport = e->rport > 0 ? e->rport : yc.e.port;
			}
		} else if (op == MON_BCAST || op == MON_SCATTER || op == MON_REDUCE ||
		    op == MON_GATHER || op == MON_SCATTERV || op == MON_GATHERV)
			yc.e.root = e->root != NULL ? e->root : x->names[0];
		else if (op == MON_PROBE_ANY || op == MON_IPROBE_ANY)
			yc.e.type = e->type;
		else if (op == MON_WAIT || op == MON_TEST || op == MON_WAITANY) {
			yc.e.req = x->pr->ins[c[0]].nposted > 0 ? PEND(x, c)[0] : 0;
			yc.e.flag = 1;
		} else if (op == MON_WAITSOME && x->pr->ins[c[0]].nposted > 0) {
			yc.reqs[0] = PEND(x, c)[0];
			yc.e.nreqs = 1;
		}
		if (op == MON_IPROBE || op == MON_IPROBE_ANY)
			yc.e.flag = 1;
		compare(x, s, path, n, call_ev(&yc));
	}
}

/* The lowest request number, from 100, that no request pending in c
 * holds. */
static long
free_req(const struct proc *x, const int64_t *c)
{
	const int64_t	*p = PEND(x, c);
	int		 np = x->pr->ins[c[0]].nposted, k;
	long		 r = 100;

	for (k = 0; k < np; k++)
		if (p[k] == r) {
			r++;
			k = -1;
		}
	return r;
}

/* One random run of the program, its calls checked with the monitor:
 * each call one of those its configuration may make, outcomes at random;
 * each post a request number no pending request holds. */
static void
run(struct proc *x, int steps, int checks)
{
	struct set		 s = { NULL, 0, 0, 0 }, t = { NULL, 0, 0, 0 };
	struct call		*path = xcalloc(steps + 1, sizeof(*path));
	struct call		*opts = xcalloc(CALL_REQS, sizeof(*opts));
	struct mon		*m;
	int64_t			*c = xcalloc(x->w, sizeof(int64_t));
	int64_t			*d = xcalloc(x->w, sizeof(int64_t));
	long			 reqno = 1000000;	/* above free_req's */
	char			 call[512], *msg;
	int			 n, k, j, nopt, every = steps / (checks > 0 ? checks : 1);

	tot.runs++;
	if ((m = mon_for(x)) == NULL)
		goto out;
	settle(x->pr, c);
	set_add(x, &s, c);
	set_close(x, &s);
	for (n = 0; n <= steps; n++) {
		const struct ins	*in;
		struct mon_event	*e;

		for (k = 0; x->pr->ins[c[0]].op == OP_CHOICE && k < CHOICE_MAX; k++) {
			in = &x->pr->ins[c[0]];
			c[0] = x->pr->alts[in->alt + rnd_below(in->nalt)];
			settle(x->pr, c);
		}
		in = &x->pr->ins[c[0]];
		if (k == CHOICE_MAX)
			break;
		if ((nopt = calls_from(x, c, opts, CALL_REQS)) == 0) {
			tot.stopped++;
			break;
		}
		path[n] = opts[rnd_below(nopt)];
		e = call_ev(&path[n]);
		/* A new number, or (as MPIs reuse a freed request's handle)
		 * the lowest of those none pending holds. */
		if (is_post(e->op) && rnd_below(2) == 0)
			e->req = ++reqno;
		else if (is_post(e->op))
			e->req = free_req(x, c);
		/* A waitsome's requests in any order. */
		for (k = e->nreqs - 1; k > 0; k--) {
			long	r = path[n].reqs[k];

			j = rnd_below(k + 1);
			path[n].reqs[k] = path[n].reqs[j];
			path[n].reqs[j] = r;
		}
		if (n == steps && e->op != MON_FINALIZE)
			break;
		if (checks > 0 && (n < 4 || rnd_below(every > 0 ? every : 1) == 0))
			compare_point(x, &s, path, n, c, e);
		if (feed(m, e, &msg) != 0) {
			fail(x, "the monitor refuses call %d of a run, '%s': %s",
			    n + 1, call_text(e, call, sizeof(call)),
			    msg != NULL ? msg : "(no message)");
			free(msg);
			break;
		}
		if (set_step(x, &s, e, &t) == 0 && !s.full) {
			fail(x, "test bug: the program refuses its own call %d", n + 1);
			break;
		}
		tot.calls++;
		tot.byop[e->op]++;
		if ((e->op == MON_WAIT || e->op == MON_TEST) && e->req == 0)
			tot.null++;
		if ((e->op == MON_TEST || e->op == MON_IPROBE ||
		    e->op == MON_IPROBE_ANY) && e->flag)
			tot.found++;
		if (e->op == MON_WAITSOME && e->nreqs > 1)
			tot.many++;
		if (in->op == OP_RECVPROBED)
			tot.probed++;
		{
			struct set	 tmp = s;

			s = t;
			t = tmp;
		}
		if (e->op == MON_FINALIZE) {
			tot.ends++;
			break;
		}
		if (!conf_step(x, c, e, d)) {
			fail(x, "test bug: its configuration refuses its own call %d",
			    n + 1);
			break;
		}
		memcpy(c, d, sizeof(int64_t) * x->w);
		settle(x->pr, c);
	}
	ens_mon_free(m);
out:
	free(s.c);
	free(t.c);
	free(c);
	free(d);
	free(opts);
	free(path);
}

static uint64_t
text_hash(const char *s)
{
	uint64_t	h = 1469598103934665603ULL;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static void
check_file(const char *arg, int inline_n, uint64_t seed, int runs, int steps,
    int checks)
{
	struct frontend_src	 src;
	struct frontend		 fe;
	struct pcg_opts		 po;
	FILE			*devnull = fopen("/dev/null", "w");
	struct diag		*d = diag_new(devnull != NULL ? devnull : stderr);
	const char		*base;
	struct pcg		*g = NULL;
	struct mpnet		*mp = NULL;
	struct hmap		*seen = hmap_new();
	const char		**names = NULL, **gnames = NULL;
	char			 label[256];
	int			 i, k, old, before = failures;
	long			 procs0 = tot.procs, distinct0 = tot.distinct,
				 calls0 = tot.calls, acc0 = tot.accepted,
				 ref0 = tot.refused;

	memset(&po, 0, sizeof(po));
	po.skip_exec_check = 1;
	memset(&src, 0, sizeof(src));
	if (inline_n > 0) {
		snprintf(label, sizeof(label), "inline %d", inline_n);
		src.name = label;
		src.text = arg;
		src.len = strlen(arg);
	} else {
		base = strrchr(arg, '/');
		snprintf(label, sizeof(label), "%s", base != NULL ? base + 1 : arg);
		src.path = arg;
	}
	switch (frontend_compile(&src, &po, FRONTEND_COMPILE, d, &fe)) {
	case 0:
		break;
	case FRONTEND_READ:
	case FRONTEND_PARSE:
		printf("not ok %d - %s: does not parse\n", ++tap_n, label);
		failures++;
		goto out;
	case FRONTEND_EXPAND:
		printf("not ok %d - %s: does not expand\n", ++tap_n, label);
		failures++;
		goto out;
	default:
		printf("ok %d - %s # SKIP does not compile (an error test)\n", ++tap_n,
		    label);
		goto out;
	}
	g = fe.pcg;
	mp = fe.net;
	tot.files++;
	names = xcalloc(g->nprocs + 1, sizeof(*names));
	gnames = xcalloc(g->ngroups + 1, sizeof(*gnames));
	for (i = 0; i < g->nprocs || i < g->ngroups; i++) {
		char	pn[PCG_NAME_MAX];

		if (i < g->nprocs)
			names[i] = xstrdup(pcg_proc_name(g, i, pn, sizeof(pn)));
		if (i < g->ngroups)
			gnames[i] = xstrdup(pcg_group_name(g, i, pn, sizeof(pn)));
	}
	for (i = 0; i < g->nprocs; i++) {
		const struct pcg_proc	*p = &g->procs[i];
		const struct pcg_comp	*co = &g->comps[p->comp];
		struct proc		 x;
		int			 lp, t, r;

		tot.procs++;
		if (mp->progs[i] == NULL)
			continue;
		/* The same text and program make the same test. */
		if (hmap_put(seen, text_hash(p->behaviour), (uint64_t)mp->progs[i]->id,
		    i, &old) == HMAP_FOUND && strcmp(g->procs[old].behaviour,
		    p->behaviour) == 0)
			continue;
		tot.distinct++;
		memset(&x, 0, sizeof(x));
		x.net = mp;
		x.g = g;
		x.proc = i;
		x.pr = mp->progs[i];
		x.w = 1 + x.pr->nctr + x.pr->nslots + 1;
		x.names = names;
		x.gnames = gnames;
		x.label = label;
		x.lptype = xcalloc(x.pr->nlp + 1, sizeof(int));
		x.lpport = xcalloc(x.pr->nlp + 1, sizeof(int));
		for (lp = 0, t = 0; t < co->ntypes; t++)
			for (k = 1; k <= p->nports[t] && lp < x.pr->nlp; k++, lp++) {
				x.lptype[lp] = t;
				x.lpport[lp] = k;
			}
		for (r = 0; r < runs; r++) {
			rng = (seed * 1000003 + (uint64_t)i) * 1000003 + (uint64_t)r + 1;
			run(&x, steps, checks);
		}
		free(x.lptype);
		free(x.lpport);
	}
	printf("%s %d - %s: %ld processes (%ld distinct), %ld calls accepted in "
	    "order; at sampled points %ld calls accepted, %ld refused, as the "
	    "program allows\n", failures == before ? "ok" : "not ok", ++tap_n, label,
	    tot.procs - procs0, tot.distinct - distinct0, tot.calls - calls0,
	    tot.accepted - acc0, tot.refused - ref0);
out:
	for (i = 0; names != NULL && i < g->nprocs; i++)
		free((char *)names[i]);
	free(names);
	for (i = 0; gnames != NULL && i < g->ngroups; i++)
		free((char *)gnames[i]);
	free(gnames);
	hmap_free(seen);
	frontend_free(&fe);
	diag_free(d);
	if (devnull != NULL)
		fclose(devnull);
}

int
main(int argc, char **argv)
{
	uint64_t	seed = 1;
	int		runs = 3, steps = 120, checks = 3, ninline = 0, i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			steps = atoi(argv[++i]);
		else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc)
			checks = atoi(argv[++i]);
		else if (strcmp(argv[i], "-e") == 0 && i + 1 < argc)
			check_file(argv[++i], ++ninline, seed, runs, steps, checks);
		else
			check_file(argv[i], 0, seed, runs, steps, checks);
	}
	printf("# %ld files, %ld processes (%ld distinct), %ld runs: %ld calls "
	    "accepted in order, %ld runs to their end, %ld stopped at a statement "
	    "without a call; %ld points compared: %ld calls accepted and %ld "
	    "refused as the program says (%ld points skipped: too many "
	    "configurations)\n", tot.files, tot.procs, tot.distinct, tot.runs,
	    tot.calls, tot.ends, tot.stopped, tot.points, tot.accepted, tot.refused,
	    tot.full);
	printf("# calls of the new kinds in order:");
	for (i = MON_SENDRECV; i < MON_FINALIZE; i++)
		printf(" %s %ld%s", op_names[i], tot.byop[i],
		    i + 1 < MON_FINALIZE ? "," : "");
	printf("; %ld waits and tests on a null request, %ld tests and "
	    "iprobes found, %ld waitsomes of more than one, %ld probed messages "
	    "received\n", tot.null, tot.found, tot.many, tot.probed);
	/* Every statement has its libensemble call. */
	printf("%s %d - no run stopped at a statement without a call (%ld)\n",
	    tot.stopped == 0 ? "ok" : "not ok", ++tap_n, tot.stopped);
	if (tot.stopped > 0)
		failures++;
	printf("1..%d\n", tap_n);
	return failures > 0;
}
