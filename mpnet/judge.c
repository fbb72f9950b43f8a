/* judge.c -- the judge of an MP net's states, on the explorer's hot path
 * (judge.h): which property a state violates, if any; report.c says it
 * in the script's words.
 *
 * A state is judged by what can never change in it any more: processes
 * stuck for good (blocked, and nothing that any other process can still
 * do releases them), processes that ended with requests pending or with
 * collectives left open, messages to processes that ended.  Each of these
 * stays true in every later state, so a verdict's kind, the worst kind
 * found, is the same whichever states an engine visits: each engine
 * visits some state showing each of them (judge.h). */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "judge.h"
#include "xmalloc.h"

/* States of one process a livelock's closure visits at most before it
 * gives up (a loop of failing polls with more is not told a livelock). */
#define JUDGE_LIVE_STATES	4096

/* The reach sets kept (reach_set_gives: 2^10), and the most bytes one
 * may take (else none are kept). */
#define RS_SLOTS	1024
#define RS_BYTES_MOST	4096

int
judge_worst(const struct mpnet *net)
{
	int	i, k;

	/* A net that polls (test, iprobe, a wait of a request completed
	 * before) in an endless loop may livelock. */
	for (i = 0; i < net->nuprog && !net->finite; i++)
		for (k = 0; k < net->uprog[i]->nins; k++)
			if (net->uprog[i]->ins[k].op == OP_TEST ||
			    net->uprog[i]->ins[k].op == OP_IPROBE ||
			    net->uprog[i]->ins[k].op == OP_IPROBEANY ||
			    (net->uprog[i]->ins[k].op == OP_WAIT &&
			    net->uprog[i]->ins[k].wmask == 0))
				return vkind_prio(VK_LIVELOCK);
	return vkind_prio(net->ncolls > 0 ? VK_COLL_MISMATCH : VK_DEADLOCK);
}

struct rjudge *
judge_new(struct sem *m)
{
	struct rjudge	*j = xcalloc(1, sizeof(*j));
	int		 i, most = 1, room = 1;

	j->m = m;
	j->N = m->nprocs;
	for (i = 0; i < m->nprocs; i++) {
		if (m->p[i].pr == NULL)
			continue;
		if (m->p[i].pr->nins > most)
			most = m->p[i].pr->nins;
		if (MPNET_WALK_ROOM(m->p[i].pr) > room)
			room = MPNET_WALK_ROOM(m->p[i].pr);
	}
	j->ps = xcalloc(j->N + 1, 1);
	j->walk.nseen = (size_t)most + 1;
	j->walk.seen = xcalloc(j->walk.nseen, sizeof(uint32_t));
	j->walk.reset = xcalloc(j->walk.nseen, sizeof(uint64_t));
	j->walk.stack = xcalloc(room + 2, sizeof(int));
	j->walk.rstack = xcalloc(room + 2, sizeof(uint64_t));

	j->ts = xcalloc(sem_max_trans(m), sizeof(struct trans));
	for (j->cbits = 12; j->cbits < 20 && (1 << j->cbits) <
	    4 * (m->net->ndc + m->nprocs); j->cbits++)
		;
	/* Room for the reach sets of the largest program (and every
	 * collective), when that is not too much. */
	for (i = 0, j->rlp = 0; i < m->nprocs; i++)
		if (m->p[i].pr != NULL && m->p[i].pr->nlp > j->rlp)
			j->rlp = m->p[i].pr->nlp;
	j->rbytes = ((size_t)2 * (size_t)j->rlp + (size_t)m->net->ncolls + 7) / 8;
	if (j->rbytes <= RS_BYTES_MOST) {
		j->rkey = xcalloc(RS_SLOTS, sizeof(*j->rkey));
		j->rmore = xcalloc(RS_SLOTS, sizeof(*j->rmore));
		j->rbits = xcalloc(RS_SLOTS, j->rbytes);
	} else
		j->rbytes = 0;
	j->ckey = xcalloc((size_t)1 << j->cbits, sizeof(*j->ckey));
	j->cmore = xcalloc((size_t)1 << j->cbits, sizeof(*j->cmore));
	j->cval = xcalloc((size_t)1 << j->cbits, sizeof(*j->cval));
	return j;
}

void
judge_free(struct rjudge *j)
{
	if (j == NULL)
		return;
	free(j->stuck);
	free(j->ckey);
	free(j->cmore);
	free(j->cval);
	free(j->rkey);
	free(j->rmore);
	free(j->rbits);
	free(j->ps);
	free(j->need);
	free(j->nfirst);
	free(j->walk.seen);
	free(j->walk.reset);
	free(j->walk.stack);
	free(j->walk.rstack);
	free(j->color);
	free(j->dstack);
	free(j->it);
	free(j->ts);
	free(j->live);
	free(j->lstack);
	free(j);
}

/* The open rooted collectives in communicator comm's log. */
int
judge_log_len(const struct sem *m, const uint64_t *s, int comm)
{
	int	j;

	for (j = 0; j < m->clog && sem_coll_open(m, s, comm, j) >= 0; j++)
		;
	return j;
}

/* Whether p's collective is a rooted one in the log (buffered mode), not
 * one all take together. */
static int
logged(const struct sem *m, const struct ins *in)
{
	return m->clog > 0 && !sem_sync_coll(m, in);
}

/* Whether p, at collective 'in', is at another one than the log holds for
 * it: it can never go on (a collective mismatch). */
static int
wrong_coll(const struct sem *m, const uint64_t *s, int p, const struct ins *in)
{
	int	c = sem_comm(m, in), o = sem_coll_off(m, s, p, c);
	int	sig = sem_coll_open(m, s, c, o);

	if (logged(m, in))
		return sig >= 0 && sig != in->coll;
	return o < judge_log_len(m, s, c);	/* a rooted one open that it skipped */
}

/* Whether process i takes part in collective 'in' that p is at: it is
 * there or can still come (it has not left the instance p is at). */
static int
left_it(const struct sem *m, const uint64_t *s, int p, int i, const struct ins *in)
{
	if (!logged(m, in))
		return 0;
	return sem_coll_off(m, s, i, sem_comm(m, in)) >
	    sem_coll_off(m, s, p, sem_comm(m, in));
}

static int
add_unique(int *w, int n, int q)
{
	int	j;

	for (j = 0; j < n; j++)
		if (w[j] == q)
			return n;
	if (q >= 0)
		w[n++] = q;
	return n;
}

/* The processes p, at collective 'in', waits for, into w; how many. */
static int
coll_waits(const struct sem *m, const uint64_t *s, int p, const struct ins *in, int *w)
{
	const struct coll	*c = &m->net->colls[in->coll];
	const struct scomm	*cm = &m->cm[c->group + 1];
	int			 n = 0, i, k;

	if (wrong_coll(m, s, p, in))
		return 0;	/* nothing anyone does helps */
	if (logged(m, in)) {
		if (sem_coll_eager(c, p)) {	/* the log is full */
			for (k = 0; k < cm->n; k++)
				if ((i = cm->mem[k]) != p &&
				    sem_coll_off(m, s, i, c->group + 1) == 0)
					w[n++] = i;
		} else if (mpnet_coll_fanout(c->kind))
			w[n++] = c->root;
		else	/* the root of reduce, gather: all must leave it */
			for (k = 0; k < cm->n; k++)
				if ((i = cm->mem[k]) != p && !left_it(m, s, p, i, in))
					w[n++] = i;
		return n;
	}
	/* One all take together: all members must come, the log be empty. */
	for (k = 0; k < cm->n; k++) {
		const struct ins	*o;

		i = cm->mem[k];
		if (i == p || m->p[i].pr == NULL)
			continue;
		o = judge_ins(m, s, i);
		if (o->op == OP_COLL && o->coll == in->coll && !wrong_coll(m, s, i, o))
			continue;
		w[n++] = i;
	}
	return n;
}

/* ---- stuck processes ---- */

static inline void
need_add(struct rjudge *j, int *n, int q, int what, int arg)
{
	if ((size_t)*n >= j->nalloc)
		xgrow(&j->need, &j->nalloc, (size_t)*n + 1, sizeof(*j->need));
	j->need[*n].q = q;
	j->need[*n].what = what;
	j->need[*n].arg = arg;
	j->need[*n].gives = 0;
	(*n)++;
}

/* What request k of p (pending) needs: its message taken by the receiver
 * (a send), or a message on a port it accepts. */
static void
request_needs(struct rjudge *j, int p, const struct slotdesc *d, int *n)
{
	const struct mpnet	*net = j->m->net;
	int			 base = j->m->p[p].portbase, lp, dc;
	int			 lo = d->kind == SD_RECV ? d->lp : d->lo;
	int			 hi = d->kind == SD_RECV ? d->lp + 1 : d->hi;

	if (d->kind == SD_SEND) {
		if ((dc = net->send_dc[base + d->lp]) >= 0)
			need_add(j, n, net->dc[dc].to, JN_RECV, dc);
		return;
	}
	for (lp = lo; lp < hi; lp++)
		if ((dc = net->recv_dc[base + lp]) >= 0)
			need_add(j, n, net->dc[dc].from, JN_SEND, dc);
}

/* What p needs to go on from where it waits, appended to need from *n:
 * per process that could let it, what that must do (send on a channel p
 * receives from, take p's message, come to its collective).  With
 * 'requests', also what p's pending receive requests accept: they can
 * take a message while p waits in another statement. */
static void
needs(struct rjudge *j, const uint64_t *s, int p, int *n, int requests)
{
	const struct sem	*m = j->m;
	const struct sproc	*sp = &m->p[p];
	const struct ins	*in = judge_ins(m, s, p);
	const struct mpnet	*net = m->net;
	int			 lp, k, dc, i, lo, hi, nw, *w;

	for (k = 0; k < in->nposted; k++) {
		const struct slotdesc	*d = &sp->pr->sd[in->sd + k];

		/* (wait, waitany, waitsome: the requests of wmask) */
		if (sem_slot(m, s, p, k) != 0 && (in->op == OP_WAITALL ||
		    (in->wmask >> k & 1) || (requests && d->kind != SD_SEND)))
			request_needs(j, p, d, n);
	}
	switch (in->op) {
	case OP_RECV:
	case OP_RECVPROBED:
	case OP_RECVANY:
	case OP_PROBE:
	case OP_PROBEANY:
		lo = in->op == OP_RECV || in->op == OP_PROBE ? in->lp :
		    in->op == OP_RECVPROBED ? sem_recv_lp(m, s, p, in) : in->lo;
		hi = in->op == OP_RECV || in->op == OP_PROBE ||
		    in->op == OP_RECVPROBED ? lo + 1 : in->hi;
		for (lp = lo; lp < hi; lp++)
			if ((dc = net->recv_dc[sp->portbase + lp]) >= 0)
				need_add(j, n, net->dc[dc].from, JN_SEND, dc);
		break;
	case OP_SEND:
		if ((dc = net->send_dc[sp->portbase + in->lp]) >= 0)
			need_add(j, n, net->dc[dc].to, JN_RECV, dc);
		break;
	case OP_COLL:
		w = xcalloc(m->nprocs + 1, sizeof(int));
		nw = coll_waits(m, s, p, in, w);
		for (i = 0; i < nw; i++)
			need_add(j, n, w[i], JN_COLL, in->coll);
		free(w);
		break;
	default:
		break;
	}
}

/* The processes p waits for where it is, each once, into w (returns how
 * many); *any says one of them is enough (a wildcard), else all are
 * needed.  (Listed past the end of need, which stays as it was.) */
int
judge_waits_for(struct rjudge *j, const uint64_t *s, int p, int *w, int *any)
{
	int	start = j->nfirst[j->N], n = start, k, nw = 0;

	switch (judge_ins(j->m, s, p)->op) {
	case OP_RECVANY:
	case OP_PROBEANY:
	case OP_WAITANY:
	case OP_WAITSOME:
		*any = 1;
		break;
	default:
		*any = 0;
		break;
	}
	needs(j, s, p, &n, 0);
	for (k = start; k < n; k++)
		nw = add_unique(w, nw, j->need[k].q);
	return nw;
}

int
judge_gives(const struct mpnet *net, int portbase, const struct ins *in,
    int what, int arg)
{
	const struct dchan	*d;

	switch (what) {
	case JN_SEND:
		return (in->op == OP_SEND || in->op == OP_ISEND) &&
		    net->send_dc[portbase + in->lp] == arg;
	case JN_RECV:
		d = &net->dc[arg];
		switch (in->op) {
		case OP_RECV:
		case OP_IRECV:
			return in->lp == d->to_lp;
		case OP_RECVANY:
		case OP_IRECVANY:
		case OP_RECVPROBED:	/* (on a port its probe finds) */
			return d->to_lp >= in->lo && d->to_lp < in->hi;
		default:
			return 0;
		}
	default:
		return in->op == OP_COLL && in->coll == arg;
	}
}

/* The reach sets: per (program, pc, counters) what a walk from there
 * reaches that can give anything (the local ports it sends on, those it
 * receives on, the collectives it comes to: bits, 2 * rlp + ncolls of
 * them), asked by every process of the program of every channel: one
 * walk for all of them (a farm's master sending to N workers walks its
 * N sends once, not once a worker).  The walk goes where a search for
 * one thing goes (it stops nowhere else: give_visit never says -1), and
 * one thing is found exactly when its bit is set (judge_gives). */
struct rs_walk {
	unsigned char	*bits;
	int		 rlp;
};

static void
rs_set(unsigned char *b, size_t k)
{
	b[k >> 3] |= (unsigned char)(1u << (k & 7));
}

static int
rs_get(const unsigned char *b, size_t k)
{
	return b[k >> 3] >> (k & 7) & 1;
}

static int
rs_visit(void *arg, const struct ins *in)
{
	const struct rs_walk	*w = arg;
	int			 lp;

	switch (in->op) {
	case OP_SEND:
	case OP_ISEND:
		rs_set(w->bits, (size_t)in->lp);
		break;
	case OP_RECV:
	case OP_IRECV:
		rs_set(w->bits, (size_t)w->rlp + (size_t)in->lp);
		break;
	case OP_RECVANY:
	case OP_IRECVANY:
	case OP_RECVPROBED:
		for (lp = in->lo; lp < in->hi; lp++)
			rs_set(w->bits, (size_t)w->rlp + (size_t)lp);
		break;
	case OP_COLL:
		rs_set(w->bits, 2 * (size_t)w->rlp + (size_t)in->coll);
		break;
	default:
		break;
	}
	return 0;
}

/* Whether q (program pr, at pc with counters more; key: can_give's of
 * pr and pc, its what and arg cleared) can reach what nd asks, by its
 * reach set, made when not kept. */
static int
reach_set_gives(struct rjudge *j, const struct prog *pr, int q, int pc,
    uint64_t more, uint64_t key, const struct need *nd)
{
	const struct mpnet	*net = j->m->net;
	const struct dchan	*d;
	unsigned char		*b;
	uint64_t		 slot;
	struct rs_walk		 w;

	key = key >> 23 << 23 | 1;	/* (1: a set kept; pr->id and pc) */
	slot = ((key ^ more * 0xff51afd7ed558ccdULL) * 0x9e3779b97f4a7c15ULL) >>
	    (64 - 10);
	b = j->rbits + slot * j->rbytes;
	if (j->rkey[slot] != key || j->rmore[slot] != more) {
		memset(b, 0, j->rbytes);
		w.bits = b;
		w.rlp = j->rlp;
		(void)mpnet_walk(pr, pc, more, rs_visit, &w, &j->walk);
		j->rkey[slot] = key;
		j->rmore[slot] = more;
	}
	switch (nd->what) {
	case JN_SEND:
		d = &net->dc[nd->arg];
		return d->from == q && d->from_lp < pr->nlp &&
		    rs_get(b, (size_t)d->from_lp);
	case JN_RECV:
		d = &net->dc[nd->arg];
		return d->to_lp < pr->nlp &&
		    rs_get(b, (size_t)j->rlp + (size_t)d->to_lp);
	default:
		return rs_get(b, 2 * (size_t)j->rlp + (size_t)nd->arg);
	}
}

/* Whether q, from where it is in s, can ever give what nd asks: some
 * instruction it can still reach (every branch; its loops going round as
 * their counters in s allow) gives it, or (a receive) one of its pending
 * requests takes it. */
static int reaches(struct rjudge *, const struct prog *, int, int, uint64_t,
    const struct need *);

static int
can_give(struct rjudge *j, const uint64_t *s, const struct need *nd)
{
	const struct sem	*m = j->m;
	int			 q = nd->q, pc = sem_pc(m, s, q), k, found;
	const struct prog	*pr = m->p[q].pr;
	const struct ins	*in = &pr->ins[pc];
	uint64_t		 key = 0, slot = UINT64_MAX, more;

	if (nd->what == JN_RECV)
		for (k = 0; k < in->nposted; k++)
			if (sem_slot(m, s, q, k) != 0 && slotdesc_accepts(
			    &pr->sd[in->sd + k], m->net->dc[nd->arg].to_lp))
				return 1;
	/* Which of its loops go round again: the answer judge_depends on them.
	 * (pc, arg < 2^21 and 2^20 programs: the key with them is exact) */
	more = sem_more(m, s, q);
	if (pr->id < (1 << 20) && pc < (1 << 21) && nd->arg < (1 << 21)) {
		key = (uint64_t)pr->id << 44 | (uint64_t)pc << 23 |
		    (uint64_t)nd->what << 21 | (uint64_t)nd->arg;
		slot = ((key ^ more * 0xff51afd7ed558ccdULL) *
		    0x9e3779b97f4a7c15ULL) >> (64 - j->cbits);
		if (j->cval[slot] != 0 && j->ckey[slot] == key &&
		    j->cmore[slot] == more)
			return j->cval[slot] > 0;
	}
	found = slot != UINT64_MAX && j->rbytes > 0 ?
	    reach_set_gives(j, pr, q, pc, more, key, nd) :
	    reaches(j, pr, q, pc, more, nd);
	if (slot != UINT64_MAX) {
		j->ckey[slot] = key;
		j->cmore[slot] = more;
		j->cval[slot] = found ? 1 : -1;
	}
	return found;
}

/* What reaches looks for. */
struct give_walk {
	const struct sem *m;
	int		 q;
	const struct need *nd;
};

static int
give_visit(void *arg, const struct ins *in)
{
	const struct give_walk	*g = arg;

	return judge_gives(g->m->net, g->m->p[g->q].portbase, in, g->nd->what,
	    g->nd->arg);
}

/* Whether q, from pc with its counters 'more' (mpnet_walk), can reach an
 * instruction that gives what nd asks (every branch; a loop it is in goes
 * round again only while its counter says so). */
static int
reaches(struct rjudge *j, const struct prog *pr, int q, int pc, uint64_t more,
    const struct need *nd)
{
	struct give_walk	g = { j->m, q, nd };

	return mpnet_walk(pr, pc, more, give_visit, &g, &j->walk);
}

/* Whether blocked p, in a plain receive or synchronous send with no
 * request pending, waits for a peer that runs and will give it (the
 * common case, decided without listing what p needs). */
static int
released(struct rjudge *j, const uint64_t *s, const unsigned char *ps, int p)
{
	const struct sem	*m = j->m;
	const struct ins	*in = judge_ins(m, s, p);
	const struct mpnet	*net = m->net;
	struct need		 nd;
	int			 dc;

	if (in->nposted > 0)
		return 0;
	if (in->op == OP_RECV || in->op == OP_RECVPROBED) {
		if ((dc = net->recv_dc[m->p[p].portbase +
		    sem_recv_lp(m, s, p, in)]) < 0)
			return 0;
		nd.q = net->dc[dc].from;
		nd.what = JN_SEND;
	} else if (in->op == OP_SEND) {
		if ((dc = net->send_dc[m->p[p].portbase + in->lp]) < 0)
			return 0;
		nd.q = net->dc[dc].to;
		nd.what = JN_RECV;
	} else
		return 0;
	nd.arg = dc;
	return ps[nd.q] == PS_RUNS && can_give(j, s, &nd);
}

/* The stuck processes of s into j->stuck: the largest set of blocked
 * processes each of which needs only processes that ended, that are in
 * the set, or that can never give what it needs.  Returns how many. */
static int
stuck_set(struct rjudge *j, const uint64_t *s, const unsigned char *ps)
{
	int	p, k, n = 0, changed, count = 0;

	for (p = 0; p < j->N; p++) {
		j->stuck[p] = ps[p] == PS_BLOCKED;
		j->nfirst[p] = n;
		if (!j->stuck[p])
			continue;
		if (released(j, s, ps, p)) {
			j->stuck[p] = 0;
			continue;
		}
		needs(j, s, p, &n, 1);
		/* Most often a peer that runs will give it: not stuck. */
		for (k = j->nfirst[p]; k < n; k++) {
			const struct need	*nd = &j->need[k];

			if (ps[nd->q] == PS_RUNS && can_give(j, s, nd))
				break;
		}
		if (k < n) {
			j->stuck[p] = 0;
			n = j->nfirst[p];
		} else
			count++;
	}
	j->nfirst[j->N] = n;
	if (count == 0)
		return 0;
	do {
		changed = 0;
		for (p = 0; p < j->N; p++) {
			if (!j->stuck[p])
				continue;
			for (k = j->nfirst[p]; k < j->nfirst[p + 1]; k++) {
				const struct need	*nd = &j->need[k];

				if (j->stuck[nd->q] || ps[nd->q] == PS_ENDED)
					continue;
				if (can_give(j, s, nd))
					break;
			}
			if (k < j->nfirst[p + 1]) {
				j->stuck[p] = 0;
				count--;
				changed = 1;
			}
		}
	} while (changed && count > 0);
	/* What stuck processes wait for: the ones that could give it, were
	 * they not stuck themselves.  (Such a wait lasts: a stuck process
	 * stays where it is; what one that runs can reach only shrinks.) */
	for (p = 0; p < j->N; p++)
		for (k = j->nfirst[p]; j->stuck[p] && k < j->nfirst[p + 1]; k++)
			j->need[k].gives = ps[j->need[k].q] != PS_ENDED &&
			    can_give(j, s, &j->need[k]);
	return count;
}

/* Whether stuck p waits for q: q could give something p needs. */
int
judge_depends(const struct rjudge *j, int p, int q)
{
	int	k;

	for (k = j->nfirst[p]; k < j->nfirst[p + 1]; k++)
		if (j->need[k].q == q && j->need[k].gives)
			return 1;
	return 0;
}

/* Whether p's wait is for its own messages to be taken: in a send, or in
 * a wait, waitall, waitany or waitsome whose incomplete requests it waits
 * for are all sends. */
int
judge_waits_to_send(const struct sem *m, const uint64_t *s, int p)
{
	const struct ins	*in = judge_ins(m, s, p);
	int			 k;

	if (in->op == OP_SEND)
		return 1;
	if (in->op != OP_WAITALL && in->op != OP_WAIT &&
	    in->op != OP_WAITANY && in->op != OP_WAITSOME)
		return 0;
	for (k = 0; k < in->nposted; k++)
		if (sem_slot(m, s, p, k) != 0 && (in->op == OP_WAITALL ||
		    (in->wmask >> k & 1)) &&
		    m->p[p].pr->sd[in->sd + k].kind != SD_SEND)
			return 0;
	return 1;
}

/* Whether an ended process never takes part in the collective p is at. */
int
judge_coll_missed(const struct sem *m, const uint64_t *s, int p, const struct ins *in)
{
	const struct scomm	*c = &m->cm[sem_comm(m, in)];
	int			 i, k;

	for (k = 0; k < c->n; k++)
		if ((i = c->mem[k]) != p && sem_ended(m, s, i) &&
		    !left_it(m, s, p, i, in))
			return 1;
	return 0;
}

/* Whether stuck p, at collective 'in', waits for a member that never
 * comes to it from where it is, whatever the others do (stuck_set's
 * gives: it ended without it, or no way of its program leads there).
 * (Not when the log is full: p waits for the oldest open one then.) */
static int
coll_never(const struct rjudge *j, int p, const struct ins *in)
{
	int	k;

	if (logged(j->m, in) && sem_coll_eager(&j->m->net->colls[in->coll], p))
		return 0;
	for (k = j->nfirst[p]; k < j->nfirst[p + 1]; k++)
		if (j->need[k].what == JN_COLL && !j->need[k].gives)
			return 1;
	return 0;
}

/* Whether stuck processes show a collective mismatch: one waits in a
 * collective that can never happen (another is open in its place, or a
 * member ended without it or never comes to it), or two wait in
 * different collectives of one
 * communicator at the same point of its collectives' order (the same
 * number of its open ones left).  Collectives of different communicators
 * never match each other, and so never mismatch. */
int
judge_coll_mismatch(struct rjudge *j, const uint64_t *s)
{
	const struct sem	*m = j->m;
	int			 p, q, o, found = 0, *at;

	j->mcomm = 0;
	if (m->net->groups) {
		for (p = 0; p < j->N && !found; p++) {
			const struct ins	*in, *iq;

			if (!j->stuck[p] || (in = judge_ins(m, s, p))->op != OP_COLL)
				continue;
			if (wrong_coll(m, s, p, in) ||
			    judge_coll_missed(m, s, p, in) || coll_never(j, p, in))
				found = 1;
			j->mcomm = sem_comm(m, in);
			o = sem_coll_off(m, s, p, sem_comm(m, in));
			for (q = 0; q < p && !found; q++)
				if (j->stuck[q] && (iq = judge_ins(m, s, q))->op ==
				    OP_COLL && iq->coll != in->coll &&
				    sem_comm(m, iq) == sem_comm(m, in) &&
				    sem_coll_off(m, s, q, sem_comm(m, iq)) == o)
					found = 1;
		}
		return found;
	}
	at = xcalloc(m->clog + 2, sizeof(int));
	for (o = 0; o <= m->clog; o++)
		at[o] = -1;
	for (p = 0; p < j->N && !found; p++) {
		const struct ins	*in;

		if (!j->stuck[p] || (in = judge_ins(m, s, p))->op != OP_COLL)
			continue;
		o = sem_coll_off(m, s, p, 0);
		if (wrong_coll(m, s, p, in) || judge_coll_missed(m, s, p, in) ||
		    coll_never(j, p, in) || (at[o] >= 0 && at[o] != in->coll))
			found = 1;
		at[o] = in->coll;
	}
	free(at);
	return found;
}

/* A cycle among the stuck processes in the wait-for graph: its length,
 * the processes in order in cyc; 0 if none. */
int
judge_find_cycle(struct rjudge *j, const uint64_t *s, int *cyc)
{
	int			 N = j->N, i, len = 0, sp, k, any;
	int			*w = xcalloc(N + 1, sizeof(int)), **adj, *nadj;

	if (j->color == NULL) {	/* (made when first needed) */
		j->color = xcalloc(N + 1, sizeof(int));
		j->dstack = xcalloc(N + 1, sizeof(int));
		j->it = xcalloc(N + 1, sizeof(int));
	}
	adj = xcalloc(N, sizeof(int *));
	nadj = xcalloc(N, sizeof(int));
	for (i = 0; i < N; i++) {
		j->color[i] = 0;
		if (!j->stuck[i])
			continue;
		nadj[i] = judge_waits_for(j, s, i, w, &any);
		adj[i] = xcalloc(nadj[i] + 1, sizeof(int));
		memcpy(adj[i], w, sizeof(int) * nadj[i]);
	}
	for (i = 0; i < N && len == 0; i++) {
		if (j->color[i] != 0 || !j->stuck[i])
			continue;
		sp = 0;
		j->dstack[sp] = i;
		j->it[sp] = 0;
		j->color[i] = 1;
		while (sp >= 0 && len == 0) {
			int	u = j->dstack[sp];

			if (j->it[sp] < nadj[u]) {
				int	v = adj[u][j->it[sp]++];

				if (!j->stuck[v])
					continue;
				if (j->color[v] == 1) {
					/* The cycle: from v up the stack to u. */
					for (k = 0; j->dstack[k] != v; k++)
						;
					for (; k <= sp; k++)
						cyc[len++] = j->dstack[k];
				} else if (j->color[v] == 0) {
					j->color[v] = 1;
					j->dstack[++sp] = v;
					j->it[sp] = 0;
				}
			} else {
				j->color[u] = 2;
				sp--;
			}
		}
	}
	for (i = 0; i < N; i++)
		free(adj[i]);
	free(adj);
	free(nadj);
	free(w);
	return len;
}

/* The stuck processes that wait in vain for every process they need (it
 * ended, or never gives it, stuck or not: that lasts), into roots; how many, and in *sends how
 * many of those wait only to send. */
int
judge_stuck_roots(struct rjudge *j, const uint64_t *s, int *roots, int *sends)
{
	int	p, k, n = 0;

	*sends = 0;
	for (p = 0; p < j->N; p++) {
		if (!j->stuck[p])
			continue;
		for (k = j->nfirst[p]; k < j->nfirst[p + 1] && !j->need[k].gives; k++)
			;
		if (k < j->nfirst[p + 1])
			continue;
		roots[n++] = p;
		if (judge_waits_to_send(j->m, s, p))
			(*sends)++;
	}
	return n;
}

/* What stays wrong in s whatever the others do next: a process that
 * ended with requests pending, a message to a process that ended, an open
 * collective a process ended without. */
static int
lasting(const struct sem *m, const uint64_t *s, const unsigned char *ps)
{
	const struct mpnet	*net = m->net;
	int			 i, k = -1, j, c, len = -1, ended = 0;

	for (i = 0; i < m->nprocs; i++) {
		if (ps[i] != PS_ENDED)
			continue;
		ended = 1;
		if (len < 0)
			len = judge_log_len(m, s, 0);
		if (sem_coll_off(m, s, i, 0) < len)
			return VK_COLL_MISMATCH;
		for (c = 0; m->clog > 0 && c < m->npcm[i]; c++)
			if (sem_coll_off(m, s, i, m->pcm[i][c]) <
			    judge_log_len(m, s, m->pcm[i][c]))
				return VK_COLL_MISMATCH;
		if (m->p[i].pr != NULL && judge_ins(m, s, i)->nposted > 0 && k < 0)
			k = VK_UNWAITED;
	}
	for (j = 0; ended && j < net->ndc; j++)
		if (ps[net->dc[j].to] == PS_ENDED && sem_count(m, s, j) > 0)
			return VK_UNMATCHED_SEND;
	return k;
}

static int
worse(int a, int b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return vkind_prio(b) > vkind_prio(a) ? b : a;
}

/* The tables of stuck processes, made when first needed (a run whose
 * processes all end never needs them). */
void
judge_tables(struct rjudge *j)
{
	if (j->stuck != NULL)
		return;
	j->stuck = xcalloc(j->N + 1, 1);
	j->nfirst = xcalloc(j->N + 2, sizeof(int));
}

/* Whether transition t is a poll that fails, or one that changes
 * nothing but where its process is: a test that says no, an iprobe that
 * finds nothing; a test or wait of a request completed before; a choice
 * between the process's own ways. */
static int
fails(const struct sem *m, const struct trans *t)
{
	const struct ins	*in = &m->p[t->proc].pr->ins[t->pc];

	if (t->kind == T_TEST)
		return t->alt == 1 || in->slot < 0;
	if (t->kind == T_WAIT)
		return in->op == OP_WAIT && in->wmask == 0;
	if (t->kind == T_CHOOSE)
		return 1;
	return t->kind == T_IPROBE && t->alt == 1;
}

/* Whether instruction in may poll in vain (fails), or choose. */
static int
vain_op(const struct ins *in)
{
	return mpnet_op_polls(in->op) || in->op == OP_CHOICE ||
	    (in->op == OP_WAIT && in->wmask == 0);
}

/* Whether p, moving alone from s (the others cannot move), can only ever
 * poll in vain: every state it reaches so has moves, all of them failing
 * polls or choices (fails), and there are at most JUDGE_LIVE_STATES of
 * them.  A poll that could succeed is a move that does not fail (MPI's
 * progress rule: one who keeps polling finds what is there), and nothing
 * else moves to change what its polls see: it polls for ever without
 * success. */
/* A hash of a state's words, for vain_for_ever's set. */
static uint64_t
words_hash(const uint64_t *v, size_t n)
{
	uint64_t	h = 1469598103934665603ULL;
	size_t		i;

	for (i = 0; i < n; i++) {
		h ^= v[i];
		h *= 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	return h;
}

static int
vain_for_ever(struct rjudge *j, const uint64_t *s, int p)
{
	struct sem	*m = j->m;
	struct hmap	*seen = hmap_new();
	size_t		 w = m->words;
	uint64_t	*v, *u, h;
	int		 n = 1, sp = 0, k, nt, old, ok = 0;

	if (j->live == NULL) {
		j->live = xcalloc((size_t)(JUDGE_LIVE_STATES + 1) * w,
		    sizeof(uint64_t));
		j->lstack = xcalloc(JUDGE_LIVE_STATES + 1, sizeof(int));
	}
	memcpy(j->live, s, sizeof(uint64_t) * w);
	(void)hmap_put(seen, words_hash(s, w), 0, 0, &old);
	j->lstack[sp++] = 0;
	while (sp > 0) {
		v = j->live + (size_t)j->lstack[--sp] * w;
		if ((nt = sem_enabled(m, v, p, j->ts)) == 0)
			goto out;	/* it ends, or waits: no livelock */
		for (k = 0; k < nt; k++)
			if (!fails(m, &j->ts[k]))
				goto out;
		for (k = 0; k < nt; k++) {
			if (n == JUDGE_LIVE_STATES)
				goto out;
			u = j->live + (size_t)n * w;
			memcpy(u, v, sizeof(uint64_t) * w);
			if (sem_fire(m, u, &j->ts[k]) != 0)
				goto out;
			/* Seen (a state of another hash's place is taken
			 * for new: at worst it is visited again). */
			h = words_hash(u, w);
			if (hmap_put(seen, h, 0, n, &old) == HMAP_FOUND &&
			    memcmp(j->live + (size_t)old * w, u,
			    sizeof(uint64_t) * w) == 0)
				continue;
			j->lstack[sp++] = n++;
		}
	}
	ok = 1;
out:
	hmap_free(seen);
	return ok;
}

/* A livelock: some process polls and fails, every other is blocked, has
 * ended or polls and fails too, and each of those polling can only ever
 * poll in vain alone (vain_for_ever).  Failing polls and choices change
 * nothing but their process's place: nothing else can ever move, and
 * every state after s is one too (it lasts, as judge.h asks). */
int
judge_livelock(struct rjudge *j, const uint64_t *s, const unsigned char *ps,
    unsigned char *polls)
{
	struct sem	*m = j->m;
	int		 p, n, k, found = 0;

	for (p = 0; p < j->N; p++) {
		if (polls != NULL)
			polls[p] = 0;
		if (ps[p] != PS_RUNS)
			continue;
		if (m->p[p].pr == NULL || !vain_op(judge_ins(m, s, p)))
			return 0;
		n = sem_enabled(m, s, p, j->ts);
		for (k = 0; k < n; k++)
			if (!fails(m, &j->ts[k]))
				return 0;
		found = 1;
	}
	for (p = 0; p < j->N && found; p++)
		if (ps[p] == PS_RUNS && !vain_for_ever(j, s, p))
			return 0;
		else if (ps[p] == PS_RUNS && polls != NULL)
			polls[p] = 1;
	return found;
}

/* The kind of violation s shows, or -1; j->stuck is left set. */
int
judge_eval(struct rjudge *j, const uint64_t *s, const unsigned char *ps)
{
	const struct sem	*m = j->m;
	int			 kind, nstuck, nroots, sends, *tmp;

	if (m->net->groups) {
		/* A group's collective all take now: its members run (the
		 * explorers see its leader's transition only). */
		if (ps != j->ps)
			memcpy(j->ps, ps, (size_t)j->N);
		sem_coll_runs(m, s, j->ps);
		ps = j->ps;
	}
	kind = lasting(m, s, ps);
	if (j->m->net->nuprog > 0 && judge_livelock(j, s, ps, NULL))
		kind = worse(kind, VK_LIVELOCK);
	for (nstuck = 0; nstuck < j->N && ps[nstuck] != PS_BLOCKED; nstuck++)
		;
	if (nstuck == j->N) {	/* none blocked: none stuck */
		if (j->stuck != NULL) {
			memset(j->stuck, 0, (size_t)j->N);
			j->nfirst[j->N] = 0;
		}
		return kind;
	}
	judge_tables(j);
	/* (The stuck set always: the report reads it.) */
	if ((nstuck = stuck_set(j, s, ps)) == 0 || kind == VK_COLL_MISMATCH)
		return kind;
	if (judge_coll_mismatch(j, s))
		return worse(kind, VK_COLL_MISMATCH);
	tmp = xcalloc(j->N + 1, sizeof(int));
	if (judge_find_cycle(j, s, tmp) > 0)
		kind = worse(kind, VK_DEADLOCK);
	else if ((nroots = judge_stuck_roots(j, s, tmp, &sends)) > 0)
		kind = worse(kind, sends == nroots ? VK_UNMATCHED_SEND : VK_ORPHAN_RECV);
	free(tmp);
	return kind;
}

int
judge_state(struct rjudge *j, const uint64_t *s, const unsigned char *ps)
{
	int	kind = judge_eval(j, s, ps);

	return kind < 0 ? 0 : vkind_prio(kind);
}
