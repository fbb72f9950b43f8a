/* report.c -- judging states and saying what is wrong in the script's
 * words: which property a state violates, who waits for whom in which
 * statement (with its file:line:col), and the actions that lead there.
 *
 * A state is judged by what can never change in it any more: processes
 * stuck for good (blocked, and nothing that any other process can still
 * do releases them), processes that ended with requests pending or with
 * collectives left open, messages to processes that ended.  Each of these
 * stays true in every later state, so a verdict's kind, the worst kind
 * found, is the same whichever states an engine visits: each engine
 * visits some state showing each of them (report.h). */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "xmalloc.h"

/* Counterexamples longer than this keep their last REPORT_TAIL actions
 * (a few megabytes of text; the front end folds what repeats). */
#define REPORT_TAIL	100000

static const char *const vkinds[VK_COUNT] = {
	"deadlock", "unmatched-send", "orphan-receive", "collective-mismatch",
	"unwaited-request",
};

const char *
vkind_name(enum vkind k)
{
	return vkinds[k];
}

const char *
check_mode_name(enum check_mode m)
{
	return m == CHECK_BUFFERED ? "buffered" : "synchronous";
}

static const struct ins *
ins_at(const struct sem *m, const uint64_t *s, int p)
{
	return &m->p[p].pr->ins[sem_pc(m, s, p)];
}

/* "file:line:col" of an instruction, or "" */
static void
loc_text(struct buf *b, const struct ins *in)
{
	if (in == NULL || in->src == NULL || in->src->loc.src == NULL)
		return;
	buf_printf(b, "%s:%d:%d", in->src->loc.src->name, in->src->loc.first_line,
	    in->src->loc.first_column);
}

static void
name(struct buf *b, const struct sem *m, int p)
{
	char	pn[PCG_NAME_MAX];

	buf_adds(b, pcg_proc_name(m->net->pcg, p, pn, sizeof(pn)));
}

/* "'send Prop[1]' (dmax.pcg:31:17)" */
static void
stmt_text(struct buf *b, const struct sem *m, int p, const struct ins *in)
{
	char	t[PCG_NAME_MAX + 64];

	buf_printf(b, "'%s'", mpnet_ins_text(m->net, p, in, t, sizeof(t)));
	if (in->src != NULL) {
		buf_adds(b, " (");
		loc_text(b, in);
		buf_addc(b, ')');
	}
}

/* How bad each kind is: the verdict's kind is the worst one found. */
static const int vprio[VK_COUNT] = {
	[VK_COLL_MISMATCH] = 5, [VK_DEADLOCK] = 4, [VK_ORPHAN_RECV] = 3,
	[VK_UNMATCHED_SEND] = 2, [VK_UNWAITED] = 1,
};

int
report_prio(enum vkind k)
{
	return vprio[k];
}

int
report_worst(const struct mpnet *net)
{
	return vprio[net->ncolls > 0 ? VK_COLL_MISMATCH : VK_DEADLOCK];
}

/* What a blocked process needs from another to go on (struct need). */
enum { N_SEND, N_RECV, N_COLL };

/* p needs q to send on directed channel dc (N_SEND), to receive from it
 * (N_RECV), or to come to collective 'arg' (N_COLL). */
struct need {
	int		 q;
	int		 what;
	int		 arg;
	int		 gives;		/* q has not ended and can give it */
};

#define RJ_CACHE	4096

struct rjudge {
	struct sem	*m;
	int		 N;
	unsigned char	*stuck;		/* per process */
	unsigned char	*ps;		/* per process (report_violation's own) */
	struct need	*need;		/* what each stuck candidate needs: */
	int		*nfirst;	/* need[nfirst[p] .. nfirst[p + 1]) */
	size_t		 nalloc;
	struct mpnet_walk walk;		/* scratch for the longest program */
	uint32_t	 stamp;
	int		*color, *dstack, *it;	/* the cycle search */
	struct trans	*ts;
	/* can_give's searches, by program, pc, what and arg: they depend
	 * on nothing else (a direct-mapped cache). */
	uint64_t	 ckey[RJ_CACHE];
	uint64_t	 cmore[RJ_CACHE];	/* the counters it was for */
	int8_t		 cval[RJ_CACHE];
};

struct rjudge *
report_judge_new(struct sem *m)
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
	return j;
}

void
report_judge_free(struct rjudge *j)
{
	if (j == NULL)
		return;
	free(j->stuck);
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
	free(j);
}

/* The open rooted collectives in the log. */
static int
log_len(const struct sem *m, const uint64_t *s)
{
	int	j;

	for (j = 0; j < m->clog && sem_coll_open(m, s, j) >= 0; j++)
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
	int	o = sem_coll_off(m, s, p), sig = sem_coll_open(m, s, o);

	if (logged(m, in))
		return sig >= 0 && sig != in->coll;
	return o < log_len(m, s);	/* a rooted one open that it skipped */
}

/* Whether process i takes part in collective 'in' that p is at: it is
 * there or can still come (it has not left the instance p is at). */
static int
left_it(const struct sem *m, const uint64_t *s, int p, int i, const struct ins *in)
{
	if (!logged(m, in))
		return 0;
	return sem_coll_off(m, s, i) > sem_coll_off(m, s, p);
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
	int			 n = 0, i;

	if (wrong_coll(m, s, p, in))
		return 0;	/* nothing anyone does helps */
	if (logged(m, in)) {
		if (sem_coll_eager(c, p)) {	/* the log is full */
			for (i = 0; i < m->nprocs; i++)
				if (i != p && sem_coll_off(m, s, i) == 0)
					w[n++] = i;
		} else if (c->kind == S_BCAST || c->kind == S_SCATTER)
			w[n++] = c->root;
		else	/* the root of reduce, gather: all must leave it */
			for (i = 0; i < m->nprocs; i++)
				if (i != p && !left_it(m, s, p, i, in))
					w[n++] = i;
		return n;
	}
	/* One all take together: all must come, the log be empty. */
	for (i = 0; i < m->nprocs; i++) {
		const struct ins	*o;

		if (i == p || m->p[i].pr == NULL)
			continue;
		o = ins_at(m, s, i);
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
			need_add(j, n, net->dc[dc].to, N_RECV, dc);
		return;
	}
	for (lp = lo; lp < hi; lp++)
		if ((dc = net->recv_dc[base + lp]) >= 0)
			need_add(j, n, net->dc[dc].from, N_SEND, dc);
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
	const struct ins	*in = ins_at(m, s, p);
	const struct mpnet	*net = m->net;
	int			 lp, k, dc, i, lo, hi, nw, *w;

	for (k = 0; k < in->nposted; k++) {
		const struct slotdesc	*d = &sp->pr->sd[in->sd + k];

		if (sem_slot(m, s, p, k) != 0 && (in->op == OP_WAITALL ||
		    (requests && d->kind != SD_SEND)))
			request_needs(j, p, d, n);
	}
	switch (in->op) {
	case OP_RECV:
	case OP_RECVANY:
		lo = in->op == OP_RECV ? in->lp : in->lo;
		hi = in->op == OP_RECV ? in->lp + 1 : in->hi;
		for (lp = lo; lp < hi; lp++)
			if ((dc = net->recv_dc[sp->portbase + lp]) >= 0)
				need_add(j, n, net->dc[dc].from, N_SEND, dc);
		break;
	case OP_SEND:
		if ((dc = net->send_dc[sp->portbase + in->lp]) >= 0)
			need_add(j, n, net->dc[dc].to, N_RECV, dc);
		break;
	case OP_COLL:
		w = xcalloc(m->nprocs + 1, sizeof(int));
		nw = coll_waits(m, s, p, in, w);
		for (i = 0; i < nw; i++)
			need_add(j, n, w[i], N_COLL, in->coll);
		free(w);
		break;
	default:
		break;
	}
}

/* The processes p waits for where it is, each once, into w (returns how
 * many); *any says one of them is enough (a wildcard), else all are
 * needed.  (Listed past the end of need, which stays as it was.) */
static int
waits_for(struct rjudge *j, const uint64_t *s, int p, int *w, int *any)
{
	int	start = j->nfirst[j->N], n = start, k, nw = 0;

	*any = ins_at(j->m, s, p)->op == OP_RECVANY;
	needs(j, s, p, &n, 0);
	for (k = start; k < n; k++)
		nw = add_unique(w, nw, j->need[k].q);
	return nw;
}

/* Whether instruction 'in' of process q can give what need asks. */
static int
gives(const struct sem *m, int q, const struct ins *in, const struct need *nd)
{
	const struct mpnet	*net = m->net;
	int			 base = m->p[q].portbase;
	const struct dchan	*d;

	switch (nd->what) {
	case N_SEND:
		return (in->op == OP_SEND || in->op == OP_ISEND) &&
		    net->send_dc[base + in->lp] == nd->arg;
	case N_RECV:
		d = &net->dc[nd->arg];
		switch (in->op) {
		case OP_RECV:
		case OP_IRECV:
			return in->lp == d->to_lp;
		case OP_RECVANY:
		case OP_IRECVANY:
			return d->to_lp >= in->lo && d->to_lp < in->hi;
		default:
			return 0;
		}
	default:
		return in->op == OP_COLL && in->coll == nd->arg;
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

	if (nd->what == N_RECV)
		for (k = 0; k < in->nposted; k++)
			if (sem_slot(m, s, q, k) != 0 && slotdesc_accepts(
			    &pr->sd[in->sd + k], m->net->dc[nd->arg].to_lp))
				return 1;
	/* Which of its loops go round again: the answer depends on them.
	 * (pc, arg < 2^21 and 2^20 programs: the key with them is exact) */
	more = sem_more(m, s, q);
	if (pr->id < (1 << 20) && pc < (1 << 21) && nd->arg < (1 << 21)) {
		key = (uint64_t)pr->id << 44 | (uint64_t)pc << 23 |
		    (uint64_t)nd->what << 21 | (uint64_t)nd->arg;
		slot = ((key ^ more * 0xff51afd7ed558ccdULL) *
		    0x9e3779b97f4a7c15ULL) >> (64 - 12);
		if (j->cval[slot] != 0 && j->ckey[slot] == key &&
		    j->cmore[slot] == more)
			return j->cval[slot] > 0;
	}
	found = reaches(j, pr, q, pc, more, nd);
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

	return gives(g->m, g->q, in, g->nd);
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
	const struct ins	*in = ins_at(m, s, p);
	const struct mpnet	*net = m->net;
	struct need		 nd;
	int			 dc;

	if (in->nposted > 0)
		return 0;
	if (in->op == OP_RECV) {
		if ((dc = net->recv_dc[m->p[p].portbase + in->lp]) < 0)
			return 0;
		nd.q = net->dc[dc].from;
		nd.what = N_SEND;
	} else if (in->op == OP_SEND) {
		if ((dc = net->send_dc[m->p[p].portbase + in->lp]) < 0)
			return 0;
		nd.q = net->dc[dc].to;
		nd.what = N_RECV;
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
static int
depends(const struct rjudge *j, int p, int q)
{
	int	k;

	for (k = j->nfirst[p]; k < j->nfirst[p + 1]; k++)
		if (j->need[k].q == q && j->need[k].gives)
			return 1;
	return 0;
}

/* Whether p's wait is for its own messages to be taken: in a send, or in
 * a waitall whose incomplete requests are all sends. */
static int
waits_to_send(const struct sem *m, const uint64_t *s, int p)
{
	const struct ins	*in = ins_at(m, s, p);
	int			 k;

	if (in->op == OP_SEND)
		return 1;
	if (in->op != OP_WAITALL)
		return 0;
	for (k = 0; k < in->nposted; k++)
		if (sem_slot(m, s, p, k) != 0 &&
		    m->p[p].pr->sd[in->sd + k].kind != SD_SEND)
			return 0;
	return 1;
}

/* Whether an ended process never takes part in the collective p is at. */
static int
coll_missed(const struct sem *m, const uint64_t *s, int p, const struct ins *in)
{
	int	i;

	for (i = 0; i < m->nprocs; i++)
		if (i != p && sem_ended(m, s, i) && !left_it(m, s, p, i, in))
			return 1;
	return 0;
}

/* Whether stuck processes show a collective mismatch: one waits in a
 * collective that can never happen (another is open in its place, or a
 * process ended without it), or two wait in different collectives at the
 * same point of the collectives' order (the same number of open ones
 * left). */
static int
coll_mismatch(struct rjudge *j, const uint64_t *s)
{
	const struct sem	*m = j->m;
	int			 p, o, found = 0, *at = xcalloc(m->clog + 2, sizeof(int));

	for (o = 0; o <= m->clog; o++)
		at[o] = -1;
	for (p = 0; p < j->N && !found; p++) {
		const struct ins	*in;

		if (!j->stuck[p] || (in = ins_at(m, s, p))->op != OP_COLL)
			continue;
		o = sem_coll_off(m, s, p);
		if (wrong_coll(m, s, p, in) || coll_missed(m, s, p, in) ||
		    (at[o] >= 0 && at[o] != in->coll))
			found = 1;
		at[o] = in->coll;
	}
	free(at);
	return found;
}

/* A cycle among the stuck processes in the wait-for graph: its length,
 * the processes in order in cyc; 0 if none. */
static int
find_cycle(struct rjudge *j, const uint64_t *s, int *cyc)
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
		nadj[i] = waits_for(j, s, i, w, &any);
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
static int
stuck_roots(struct rjudge *j, const uint64_t *s, int *roots, int *sends)
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
		if (waits_to_send(j->m, s, p))
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
	int			 i, k = -1, j, len = -1, ended = 0;

	for (i = 0; i < m->nprocs; i++) {
		if (ps[i] != PS_ENDED)
			continue;
		ended = 1;
		if (len < 0)
			len = log_len(m, s);
		if (sem_coll_off(m, s, i) < len)
			return VK_COLL_MISMATCH;
		if (m->p[i].pr != NULL && ins_at(m, s, i)->nposted > 0 && k < 0)
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
	return vprio[b] > vprio[a] ? b : a;
}

/* The tables of stuck processes, made when first needed (a run whose
 * processes all end never needs them). */
static void
judge_tables(struct rjudge *j)
{
	if (j->stuck != NULL)
		return;
	j->stuck = xcalloc(j->N + 1, 1);
	j->nfirst = xcalloc(j->N + 2, sizeof(int));
}

/* The kind of violation s shows, or -1; j->stuck is left set. */
static int
judge(struct rjudge *j, const uint64_t *s, const unsigned char *ps)
{
	const struct sem	*m = j->m;
	int			 kind, nstuck, nroots, sends, *tmp;

	kind = lasting(m, s, ps);
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
	if (coll_mismatch(j, s))
		return VK_COLL_MISMATCH;
	tmp = xcalloc(j->N + 1, sizeof(int));
	if (find_cycle(j, s, tmp) > 0)
		kind = worse(kind, VK_DEADLOCK);
	else if ((nroots = stuck_roots(j, s, tmp, &sends)) > 0)
		kind = worse(kind, sends == nroots ? VK_UNMATCHED_SEND : VK_ORPHAN_RECV);
	free(tmp);
	return kind;
}

int
report_judge(struct rjudge *j, const uint64_t *s, const unsigned char *ps)
{
	int	kind = judge(j, s, ps);

	return kind < 0 ? 0 : vprio[kind];
}

/* ---- the report ---- */

static void
add_proc(struct violation *v, int p)
{
	int	k;

	for (k = 0; k < v->nprocs; k++)
		if (v->procs[k] == p)
			return;
	v->procs = xreallocarray(v->procs, v->nprocs + 1, sizeof(int));
	v->procs[v->nprocs++] = p;
}

/* The collective that p, stuck at one, finds open in its place, or -1. */
static int
open_instead(const struct sem *m, const uint64_t *s, int p, const struct ins *in)
{
	int	sig = sem_coll_open(m, s, sem_coll_off(m, s, p));

	return sig >= 0 && sig != in->coll ? sig : -1;
}

/* One process's wait, "relay[1] waits in 'recv Prop[1]' (...) for relay[2]"
 * with "(ended)" after each process that has ended. */
static void
wait_line(struct buf *b, struct rjudge *j, const uint64_t *s, int p)
{
	const struct sem	*m = j->m;
	const struct ins	*in = ins_at(m, s, p);
	int			*w = xcalloc(m->nprocs + 1, sizeof(int)), n, any, k, o;

	name(b, m, p);
	buf_adds(b, " waits in ");
	stmt_text(b, m, p, in);
	n = waits_for(j, s, p, w, &any);
	if (in->op == OP_COLL && (o = open_instead(m, s, p, in)) >= 0) {
		struct ins	fake;
		char		t[PCG_NAME_MAX + 64];

		memset(&fake, 0, sizeof(fake));
		fake.op = OP_COLL;
		fake.coll = o;
		buf_printf(b, " while '%s' is open", mpnet_ins_text(m->net, p, &fake,
		    t, sizeof(t)));
	} else if (n == 0)
		buf_adds(b, " for a message no channel can bring");
	else {
		buf_adds(b, " for ");
		for (k = 0; k < n; k++) {
			if (k > 0)
				buf_adds(b, k == n - 1 ? (any ? " or " : " and ") : ", ");
			name(b, m, w[k]);
			if (sem_ended(m, s, w[k]))
				buf_adds(b, " (ended)");
			else if (j->stuck[p] && !depends(j, p, w[k]))
				buf_adds(b, in->op == OP_COLL ? " (which never comes)" :
				    waits_to_send(m, s, p) ? " (which never receives it)" :
				    " (which never sends it)");
		}
	}
	free(w);
}

static void
message_list(struct buf *b, const struct sem *m, const int *p, int n)
{
	int	k;

	for (k = 0; k < n; k++) {
		if (k > 0)
			buf_adds(b, k == n - 1 ? " and " : ", ");
		name(b, m, p[k]);
	}
}

/* Messages still in channels, a line each, into b (with only_dead, those
 * whose receiver ended); returns how many channels hold some. */
static int
leftover(struct buf *b, const struct sem *m, const uint64_t *s, struct violation *v,
    int only_dead)
{
	const struct mpnet	*net = m->net;
	char			 pa[PCG_NAME_MAX + 32];
	int			 i, n = 0;
	uint64_t		 c;

	for (i = 0; i < net->ndc; i++) {
		const struct dchan	*d = &net->dc[i];

		if (sem_pooled(m, i) && m->pool[i] != i)
			continue;	/* counted with its pool's first */
		if ((c = sem_count(m, s, i)) == 0 ||
		    (only_dead && !sem_ended(m, s, d->to)))
			continue;
		n++;
		if (sem_pooled(m, i)) {
			int	j;

			for (j = i; j < net->ndc; j++)
				if (m->pool[j] == i && v != NULL)
					add_proc(v, net->dc[j].from);
			buf_printf(b, "%" PRIu64 " message%s sent to ", c,
			    c == 1 ? "" : "s");
			name(b, m, d->to);
			buf_adds(b, " never received by its wildcard receive on ");
			buf_printf(b, "%s and its like", mpnet_port_name(net, d->to,
			    d->to_lp, pa, sizeof(pa)));
			buf_addc(b, '\n');
			continue;
		}
		if (v != NULL)
			add_proc(v, d->from);
		buf_printf(b, "%" PRIu64 " message%s from ", c, c == 1 ? "" : "s");
		name(b, m, d->from);
		buf_printf(b, ".%s", mpnet_port_name(net, d->from, d->from_lp, pa, sizeof(pa)));
		buf_adds(b, " never received by ");
		name(b, m, d->to);
		buf_printf(b, ".%s", mpnet_port_name(net, d->to, d->to_lp, pa, sizeof(pa)));
		buf_addc(b, '\n');
	}
	return n;
}

/*
 * One classifier per kind of violation.  Each writes, for the state s the
 * judge has its tables for, the violation's processes, its one-line message
 * and its detail lines; classify picks the one for the kind judged.
 */
struct cls {
	struct violation	*v;
	struct rjudge		*j;
	const struct sem	*m;
	const uint64_t		*s;
	struct buf		 msg;		/* the one line */
	struct buf		 det;		/* the lines under it */
	int			 nstuck;	/* processes stuck for good */
	int			 nended;
	int			 mixed;		/* stuck in different collectives */
};

/* Unwaited request: the processes that ended with requests pending, a line
 * each. */
static void
cls_unwaited(struct cls *c)
{
	const struct sem	*m = c->m;
	int			 i, j;

	buf_adds(&c->msg, "unwaited request: ");
	for (i = 0; i < m->nprocs; i++) {
		const struct ins	*in;

		if (!sem_ended(m, c->s, i) || m->p[i].pr == NULL ||
		    (in = ins_at(m, c->s, i))->nposted == 0)
			continue;
		add_proc(c->v, i);
		name(&c->det, m, i);
		buf_printf(&c->det, " ended with %d request%s never completed by "
		    "'waitall':", in->nposted, in->nposted == 1 ? "" : "s");
		for (j = 0; j < in->nposted; j++) {
			const struct slotdesc *d = &m->p[i].pr->sd[in->sd + j];

			buf_addc(&c->det, ' ');
			stmt_text(&c->det, m, i, &m->p[i].pr->ins[d->ins]);
			if (j + 1 < in->nposted)
				buf_addc(&c->det, ',');
		}
		buf_addc(&c->det, '\n');
	}
	message_list(&c->msg, m, c->v->procs, c->v->nprocs);
	buf_printf(&c->msg, " ended with requests never completed by 'waitall'");
}

/* Collective mismatch with no one stuck in it: a rooted collective that
 * processes ended without, the others having left it. */
static void
cls_coll_left_open(struct cls *c)
{
	const struct sem	*m = c->m;
	int			 i, k, len = log_len(m, c->s), sig;
	char			 pn[PCG_NAME_MAX];
	const struct coll	*cl;

	for (i = 0, k = 0, sig = -1; i < m->nprocs; i++) {
		if (!sem_ended(m, c->s, i) || sem_coll_off(m, c->s, i) >= len)
			continue;
		if (sig < 0)
			sig = sem_coll_open(m, c->s, sem_coll_off(m, c->s, i));
		add_proc(c->v, i);
		if (k++ > 0)
			buf_adds(&c->det, ", ");
		name(&c->det, m, i);
	}
	cl = &m->net->colls[sig];
	buf_printf(&c->det, " ended without the collective the others took part in\n");
	buf_adds(&c->msg, "collective mismatch: ");
	message_list(&c->msg, m, c->v->procs, c->v->nprocs);
	buf_printf(&c->msg, " ended without '%s %s'", cl->kind == S_BCAST ?
	    "bcast from" : cl->kind == S_SCATTER ? "scatter from" :
	    cl->kind == S_REDUCE ? "reduce to" : "gather to",
	    pcg_proc_name(m->net->pcg, cl->root, pn, sizeof(pn)));
}

/* Unmatched send with no one stuck: messages left in channels whose
 * receivers ended. */
static void
cls_left_in_channels(struct cls *c)
{
	leftover(&c->det, c->m, c->s, c->v, 1);
	buf_adds(&c->msg, c->nended == c->m->nprocs ? "unmatched send: every "
	    "process ended with messages left in channels" : "unmatched send: "
	    "messages left for processes that ended");
}

/* Collective mismatch with processes stuck in collectives: a wait line each,
 * and whether they wait in one that ended processes never reach. */
static void
cls_coll_mismatch(struct cls *c)
{
	const struct sem	*m = c->m;
	int			 i, missed = 0;

	buf_adds(&c->msg, "collective mismatch: ");
	for (i = 0; i < m->nprocs; i++) {
		const struct ins	*in;

		if (!c->j->stuck[i])
			continue;
		add_proc(c->v, i);
		wait_line(&c->det, c->j, c->s, i);
		in = ins_at(m, c->s, i);
		if (in->op == OP_COLL && coll_missed(m, c->s, i, in)) {
			buf_adds(&c->det, "; ended processes never reach it");
			missed = 1;
		}
		buf_addc(&c->det, '\n');
	}
	if (missed && !c->mixed)
		buf_adds(&c->msg, "processes wait in a collective that others "
		    "ended without");
	else
		buf_adds(&c->msg, "processes reach different collectives, or "
		    "the same ones in a different order");
}

/* Deadlock with a cycle of waits: the cycle as one sentence, then the other
 * stuck processes' waits.  Returns 0 (writing nothing) when there is no
 * cycle. */
static int
cls_cycle(struct cls *c)
{
	const struct sem	*m = c->m;
	int			 N = m->nprocs, *cyc = xcalloc(N + 1, sizeof(int));
	int			 i, k, len;

	if ((len = find_cycle(c->j, c->s, cyc)) <= 0) {
		free(cyc);
		return 0;
	}
	for (k = 0; k < len; k++)
		add_proc(c->v, cyc[k]);
	buf_adds(&c->msg, "deadlock: ");
	if (len == 1) {
		name(&c->msg, m, cyc[0]);
		buf_adds(&c->msg, " waits for itself");
	} else {
		message_list(&c->msg, m, cyc, len);
		buf_adds(&c->msg, " wait for each other");
	}
	for (k = 0; k < len; k++) {
		if (k == 0)
			name(&c->det, m, cyc[0]);
		else
			buf_adds(&c->det, ", which");
		buf_adds(&c->det, " waits in ");
		stmt_text(&c->det, m, cyc[k], ins_at(m, c->s, cyc[k]));
		buf_adds(&c->det, " for ");
		name(&c->det, m, cyc[(k + 1) % len]);
	}
	buf_addc(&c->det, '\n');
	for (i = 0; i < N; i++) {
		for (k = 0; k < len && cyc[k] != i; k++)
			;
		if (k < len || !c->j->stuck[i])
			continue;
		wait_line(&c->det, c->j, c->s, i);
		buf_addc(&c->det, '\n');
	}
	free(cyc);
	return 1;
}

/* Stuck processes and no cycle: the ones at the bottom wait only for ended
 * processes or ones that never give it, the rest wait for them.  Whether the
 * bottom ones wait to send or to receive makes it an unmatched send or an
 * orphan receive. */
static void
cls_stuck(struct cls *c)
{
	const struct sem	*m = c->m;
	int			 N = m->nprocs, nroots, sends, dead = 1, nw, any, i, k;
	int			*roots = xcalloc(N + 1, sizeof(int));
	int			*w = xcalloc(N + 1, sizeof(int));

	nroots = stuck_roots(c->j, c->s, roots, &sends);
	for (k = 0; k < nroots; k++) {
		add_proc(c->v, roots[k]);
		wait_line(&c->det, c->j, c->s, roots[k]);
		buf_addc(&c->det, '\n');
		nw = waits_for(c->j, c->s, roots[k], w, &any);
		for (i = 0; i < nw; i++)
			dead &= sem_ended(m, c->s, w[i]);
	}
	for (i = 0; i < N; i++) {
		for (k = 0; k < nroots && roots[k] != i; k++)
			;
		if (k < nroots || !c->j->stuck[i])
			continue;
		add_proc(c->v, i);
		wait_line(&c->det, c->j, c->s, i);
		buf_addc(&c->det, '\n');
	}
	if (sends == nroots) {
		buf_adds(&c->msg, "unmatched send: ");
		message_list(&c->msg, m, roots, nroots);
		buf_adds(&c->msg, nroots == 1 ? " waits" : " wait");
		buf_adds(&c->msg, dead ? " forever to send to processes that ended" :
		    " forever to send a message no process will receive");
	} else {
		buf_adds(&c->msg, "orphan receive: ");
		message_list(&c->msg, m, roots, nroots);
		buf_adds(&c->msg, nroots == 1 ? " waits" : " wait");
		buf_adds(&c->msg, dead ? " forever for a message from processes "
		    "that ended" : " forever for a message no process will send");
	}
	if (c->nstuck > nroots)
		buf_printf(&c->msg, ", and %d other%s wait%s behind",
		    c->nstuck - nroots, c->nstuck - nroots == 1 ? "" : "s",
		    c->nstuck - nroots == 1 ? "s" : "");
	free(w);
	free(roots);
}

/* A line naming the processes that can still go on, when some can. */
static void
others_go_on(struct buf *det, struct rjudge *j, const uint64_t *s)
{
	int	p, n = 0, nstuck = 0, *live = xcalloc(j->N + 1, sizeof(int));

	for (p = 0; p < j->N; p++) {
		nstuck += j->stuck[p];
		if (!j->stuck[p] && !sem_ended(j->m, s, p))
			live[n++] = p;
	}
	if (n > 0) {
		message_list(det, j->m, live, n);
		buf_printf(det, " %s on, and never release%s %s\n", n == 1 ? "goes" :
		    "go", n == 1 ? "s" : "", nstuck == 1 ? "it" : "them");
	}
	free(live);
}

/* The violation of kind found in s: its processes, message and detail, from
 * the classifier for that kind and what the state shows. */
static void
classify(struct violation *v, struct rjudge *j, const uint64_t *s, int kind)
{
	struct cls	 c;
	int		 i, sig = -1;

	memset(&c, 0, sizeof(c));
	c.v = v;
	c.j = j;
	c.m = j->m;
	c.s = s;
	buf_init(&c.msg);
	buf_init(&c.det);
	buf_adds(&c.msg, "");
	buf_adds(&c.det, "");
	v->kind = (enum vkind)kind;
	for (i = 0; i < c.m->nprocs; i++) {
		c.nstuck += j->stuck[i];
		c.nended += sem_ended(c.m, s, i);
		if (j->stuck[i] && ins_at(c.m, s, i)->op == OP_COLL) {
			if (sig >= 0 && sig != ins_at(c.m, s, i)->coll)
				c.mixed = 1;
			sig = ins_at(c.m, s, i)->coll;
		}
	}
	if (kind == VK_UNWAITED)
		cls_unwaited(&c);
	else if (kind == VK_COLL_MISMATCH && (c.nstuck == 0 || !coll_mismatch(j, s)))
		cls_coll_left_open(&c);
	else if (kind == VK_UNMATCHED_SEND && c.nstuck == 0)
		cls_left_in_channels(&c);
	else {
		if (kind == VK_COLL_MISMATCH)
			cls_coll_mismatch(&c);
		else if (kind != VK_DEADLOCK || !cls_cycle(&c))
			cls_stuck(&c);
		others_go_on(&c.det, j, s);
		/* Messages that never arrived say what went wrong, too. */
		leftover(&c.det, c.m, s, NULL, 0);
	}
	v->message = buf_steal(&c.msg);
	v->detail = buf_steal(&c.det);
	buf_free(&c.msg);
	buf_free(&c.det);
}

/* One action of a counterexample, in the state s before it. */
static void
action_text(struct buf *b, const struct sem *m, const uint64_t *s, const struct trans *t)
{
	const struct mpnet	*net = m->net;
	const struct ins	*in = ins_at(m, s, t->proc);
	const struct dchan	*d = t->dc >= 0 ? &net->dc[t->dc] : NULL;

	if (t->kind == T_COLL) {
		buf_printf(b, "all %d processes: ", m->nprocs);
		stmt_text(b, m, t->proc, in);
		return;
	}
	name(b, m, t->proc);
	buf_adds(b, ": ");
	switch (t->kind) {
	case T_MATCH:
	case T_RECV:
		if (t->kind == T_MATCH) {
			const struct slotdesc *sd = &m->p[t->proc].pr->sd[in->sd + t->slot];

			buf_adds(b, "request ");
			stmt_text(b, m, t->proc, &m->p[t->proc].pr->ins[sd->ins]);
		} else
			stmt_text(b, m, t->proc, in);
		if (sem_pooled(m, t->dc))
			buf_adds(b, " takes one of the messages waiting for it");
		else {
			buf_adds(b, " takes a message from ");
			name(b, m, d->from);
		}
		break;
	case T_CHOOSE:
		stmt_text(b, m, t->proc, in);
		buf_printf(b, " takes branch %d", t->alt + 1);
		break;
	case T_LEAVE:
		stmt_text(b, m, t->proc, in);
		buf_adds(b, " done");
		break;
	default:
		stmt_text(b, m, t->proc, in);
		break;
	}
	if (t->rdv) {
		const struct ins	*si = ins_at(m, s, d->from);

		buf_adds(b, ", completing its synchronous ");
		stmt_text(b, m, d->from, si);
	}
}

void
report_violation(struct violation *v, struct sem *m, const uint64_t *final,
    const struct trans *trace, size_t ntrace)
{
	struct rjudge	*j = report_judge_new(m);
	uint64_t	*s = xcalloc(m->words, sizeof(uint64_t));
	struct buf	 b;
	size_t		 k, first = ntrace > REPORT_TAIL ? ntrace - REPORT_TAIL : 0;
	int		 kind, p, q, n, any, *w;

	memset(v, 0, sizeof(*v));
	sem_states(m, final, j->ps, j->ts);
	if ((kind = judge(j, final, j->ps)) < 0)
		kind = VK_DEADLOCK;	/* (the explorer judged it bad) */
	judge_tables(j);
	classify(v, j, final, kind);
	w = xcalloc(m->nprocs + 1, sizeof(int));
	for (p = 0; p < m->nprocs; p++) {
		if (j->ps[p] != PS_BLOCKED)
			continue;
		n = waits_for(j, final, p, w, &any);
		v->waits = xreallocarray(v->waits, (size_t)(v->nwaits + n) * 2 + 2,
		    sizeof(int));
		for (q = 0; q < n; q++) {
			v->waits[2 * v->nwaits] = p;
			v->waits[2 * v->nwaits + 1] = w[q];
			v->nwaits++;
		}
	}
	free(w);
	report_judge_free(j);
	v->final = xcalloc(m->words, sizeof(uint64_t));
	memcpy(v->final, final, sizeof(uint64_t) * m->words);
	v->trace_total = ntrace;
	v->trace_first = first;
	v->trace = xcalloc(ntrace - first + 1, sizeof(char *));
	buf_init(&b);
	sem_initial(m, s);
	v->steps = xcalloc(ntrace - first + 1, sizeof(*v->steps));
	v->start = xcalloc(m->words, sizeof(uint64_t));
	for (k = 0; k < ntrace; k++) {
		if (k == first)
			memcpy(v->start, s, sizeof(uint64_t) * m->words);
		if (k >= first)
			v->steps[k - first] = trace[k];
		if (k >= first) {
			buf_reset(&b);
			buf_adds(&b, "");
			action_text(&b, m, s, &trace[k]);
			v->trace[v->ntrace++] = buf_steal(&b);
		}
		sem_fire(m, s, &trace[k]);
	}
	if (ntrace == 0)
		memcpy(v->start, s, sizeof(uint64_t) * m->words);
	buf_free(&b);
	free(s);
}

void
violation_free(struct violation *v)
{
	int	k;

	if (v == NULL)
		return;
	free(v->message);
	free(v->detail);
	free(v->procs);
	for (k = 0; k < v->ntrace; k++)
		free(v->trace[k]);
	free(v->trace);
	free(v->final);
	free(v->steps);
	free(v->start);
	free(v->waits);
}
