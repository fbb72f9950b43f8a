/* report.c -- what is wrong in the script's words, for a state judge.c
 * judged bad: which property it violates, who waits for whom in which
 * statement (with its file:line:col), and the actions that lead there;
 * and the names of kinds and modes. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "judge.h"
#include "report.h"
#include "xmalloc.h"

/* Counterexamples longer than this keep their last REPORT_TAIL actions
 * (a few megabytes of text; the front end folds what repeats). */
#define REPORT_TAIL	100000

static const char *const vkinds[VK_COUNT] = {
	"deadlock", "unmatched-send", "orphan-receive", "collective-mismatch",
	"unwaited-request", "livelock",
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
	int	c = sem_comm(m, in), sig = sem_coll_open(m, s, c, sem_coll_off(m, s, p, c));

	return sig >= 0 && sig != in->coll ? sig : -1;
}

/* Lines of waits gathered, then written folded or not (pcg/fold.h); the
 * strings and peers the items point to are theirs. */
struct waits {
	struct fold_item	*it;
	size_t			 n, alloc;
};

/* The wait of process p as a line's item: "waits in 'recv Prop[1]' (...)
 * for relay[2]", each peer with "(ended)" after it when it has ended, or
 * why it never releases p; post after the peers (NULL: nothing).  With
 * next >= 0, the wait for that process alone (a cycle's next). */
static void
wait_item(struct waits *ws, struct rjudge *j, const uint64_t *s, int p,
    int next, const char *post)
{
	const struct sem	*m = j->m;
	const struct ins	*in = judge_ins(m, s, p);
	struct fold_item	*it;
	const char		**notes;
	struct buf		 b;
	int			*w = xcalloc(m->nprocs + 1, sizeof(int)), n, any = 0;
	int			 k, o;

	xgrow(&ws->it, &ws->alloc, ws->n + 1, sizeof(*ws->it));
	it = &ws->it[ws->n++];
	memset(it, 0, sizeof(*it));
	it->proc = p;
	buf_init(&b);
	buf_adds(&b, "waits in ");
	stmt_text(&b, m, p, in);
	if (next >= 0) {
		n = 1;
		w[0] = next;
	} else
		n = judge_waits_for(j, s, p, w, &any);
	notes = xcalloc((size_t)n + 1, sizeof(*notes));
	if (next < 0 && in->op == OP_COLL && (o = open_instead(m, s, p, in)) >= 0) {
		struct ins	fake;
		char		t[PCG_NAME_MAX + 64];

		memset(&fake, 0, sizeof(fake));
		fake.op = OP_COLL;
		fake.coll = o;
		buf_printf(&b, " while '%s' is open", mpnet_ins_text(m->net, p,
		    &fake, t, sizeof(t)));
		n = 0;
	} else if (n == 0)
		buf_adds(&b, " for a message no channel can bring");
	else {
		buf_adds(&b, " for ");
		for (k = 0; next < 0 && k < n; k++)
			if (sem_ended(m, s, w[k]))
				notes[k] = " (ended)";
			else if (j->stuck[p] && !judge_depends(j, p, w[k]))
				notes[k] = in->op == OP_COLL ? " (which never comes)" :
				    judge_waits_to_send(m, s, p) ?
				    " (which never receives it)" :
				    " (which never sends it)";
	}
	it->what = buf_steal(&b);
	buf_free(&b);
	it->peers = w;
	it->npeers = n;
	it->notes = notes;
	it->conj = any ? " or " : " and ";
	it->post = post;
}

/* Forget the waits gathered. */
static void
waits_clear(struct waits *ws)
{
	size_t	k;

	for (k = 0; k < ws->n; k++) {
		free((char *)ws->it[k].what);
		free((int *)ws->it[k].peers);
		free((char **)ws->it[k].notes);
	}
	ws->n = 0;
}

/* Write the waits gathered to b, a line each, folded or not, and forget
 * them. */
static void
waits_flush(struct waits *ws, struct buf *b, const struct sem *m, int fold)
{
	static const struct fold_style	st = { "", " ", ": each ", 0 };

	fold_lines(b, m->net->pcg, ws->it, (int)ws->n, &st, fold);
	waits_clear(ws);
}

/* A line of process p that names no other process: what (taken over)
 * after its name. */
static void
text_item(struct waits *ws, int p, char *what)
{
	struct fold_item	*it;

	xgrow(&ws->it, &ws->alloc, ws->n + 1, sizeof(*ws->it));
	it = &ws->it[ws->n++];
	memset(it, 0, sizeof(*it));
	it->proc = p;
	it->what = what;
}

/* The processes p[0 .. n) as a list, "a, b and c"; folded, in the
 * script's order with runs as ranges, "a and stencil[1..64]". */
static void
message_list(struct buf *b, const struct sem *m, const int *p, int n, int fold)
{
	int	k;

	if (fold) {
		fold_procs(b, m->net->pcg, p, n, " and ");
		return;
	}
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
	int			 fold;		/* what repeats said once */
	struct waits		 ws;		/* lines gathered for det */
};

/* Unwaited request: the processes that ended with requests pending, a line
 * each. */
static void
cls_unwaited(struct cls *c)
{
	const struct sem	*m = c->m;
	struct buf		 b;
	int			 i, j;

	buf_adds(&c->msg, "unwaited request: ");
	for (i = 0; i < m->nprocs; i++) {
		const struct ins	*in;

		if (!sem_ended(m, c->s, i) || m->p[i].pr == NULL ||
		    (in = judge_ins(m, c->s, i))->nposted == 0)
			continue;
		add_proc(c->v, i);
		buf_init(&b);
		buf_printf(&b, "ended with %d request%s never completed by "
		    "'waitall':", in->nposted, in->nposted == 1 ? "" : "s");
		for (j = 0; j < in->nposted; j++) {
			const struct slotdesc *d = &m->p[i].pr->sd[in->sd + j];

			buf_addc(&b, ' ');
			stmt_text(&b, m, i, &m->p[i].pr->ins[d->ins]);
			if (j + 1 < in->nposted)
				buf_addc(&b, ',');
		}
		text_item(&c->ws, i, buf_steal(&b));
		buf_free(&b);
	}
	waits_flush(&c->ws, &c->det, m, c->fold);
	message_list(&c->msg, m, c->v->procs, c->v->nprocs, c->fold);
	buf_printf(&c->msg, " ended with requests never completed by 'waitall'");
}

/* Collective mismatch with no one stuck in it: a rooted collective that
 * processes ended without, the others having left it. */
static void
cls_coll_left_open(struct cls *c)
{
	const struct sem	*m = c->m;
	int			 i, k, len, sig, comm = 0, g;
	char			 pn[PCG_NAME_MAX], ob[PCG_NAME_MAX + 8];
	const struct coll	*cl;

	/* The communicator with an open one some member ended without: the
	 * application's, or the first such group. */
	len = judge_log_len(m, c->s, 0);
	for (i = 0; i < m->nprocs && !(sem_ended(m, c->s, i) &&
	    sem_coll_off(m, c->s, i, 0) < len); i++)
		;
	for (i = i < m->nprocs ? m->nprocs : 0; i < m->nprocs && comm == 0; i++)
		for (g = 0; sem_ended(m, c->s, i) && m->clog > 0 &&
		    g < m->npcm[i] && comm == 0; g++)
			if (sem_coll_off(m, c->s, i, m->pcm[i][g]) <
			    judge_log_len(m, c->s, m->pcm[i][g]))
				comm = m->pcm[i][g];
	len = judge_log_len(m, c->s, comm);
	for (i = 0, k = 0, sig = -1; i < m->nprocs; i++) {
		if (!sem_ended(m, c->s, i) || !mpnet_in_comm(m->net, comm, i) ||
		    sem_coll_off(m, c->s, i, comm) >= len)
			continue;
		if (sig < 0)
			sig = sem_coll_open(m, c->s, comm, sem_coll_off(m, c->s, i, comm));
		add_proc(c->v, i);
		if (c->fold)
			continue;
		if (k++ > 0)
			buf_adds(&c->det, ", ");
		name(&c->det, m, i);
	}
	if (c->fold)
		fold_procs(&c->det, m->net->pcg, c->v->procs, c->v->nprocs, ", ");
	cl = &m->net->colls[sig];
	buf_printf(&c->det, " ended without the collective the others took part in\n");
	buf_adds(&c->msg, "collective mismatch: ");
	message_list(&c->msg, m, c->v->procs, c->v->nprocs, c->fold);
	buf_printf(&c->msg, " ended without '%s %s%s'", mpnet_coll_words(cl->kind),
	    pcg_proc_name(m->net->pcg, cl->root, pn, sizeof(pn)),
	    mpnet_over(m->net, cl, ob, sizeof(ob)));
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
	if (c->j->mcomm > 0) {
		char	gn[PCG_NAME_MAX];

		buf_printf(&c->msg, "in group '%s', ", pcg_group_name(m->net->pcg,
		    c->j->mcomm - 1, gn, sizeof(gn)));
	}
	for (i = 0; i < m->nprocs; i++) {
		const struct ins	*in;

		if (!c->j->stuck[i])
			continue;
		add_proc(c->v, i);
		in = judge_ins(m, c->s, i);
		if (in->op == OP_COLL && judge_coll_missed(m, c->s, i, in)) {
			wait_item(&c->ws, c->j, c->s, i, -1,
			    "; ended processes never reach it");
			missed = 1;
		} else
			wait_item(&c->ws, c->j, c->s, i, -1, NULL);
	}
	waits_flush(&c->ws, &c->det, m, c->fold);
	if (missed && !c->mixed)
		buf_adds(&c->msg, "processes wait in a collective that others "
		    "ended without");
	else
		buf_adds(&c->msg, "processes reach different collectives, or "
		    "the same ones in a different order");
}

/* The cycle cyc[0 .. len) folded into b: its processes in the script's
 * order, each waiting for the next in the cycle, a line for each run;
 * 0 (writing nothing) when no run folds. */
static int
cycle_folded(struct cls *c, struct buf *b, const int *cyc, int len)
{
	static const struct fold_style	st = { "", " ", ": each ", 0 };
	struct buf			t;
	int				*next, i, k, folds;

	next = xcalloc(c->m->nprocs + 1, sizeof(int));
	for (i = 0; i < c->m->nprocs; i++)
		next[i] = -1;
	for (k = 0; k < len; k++)
		next[cyc[k]] = cyc[(k + 1) % len];
	for (i = 0; i < c->m->nprocs; i++)
		if (next[i] >= 0)
			wait_item(&c->ws, c->j, c->s, i, next[i], NULL);
	free(next);
	buf_init(&t);
	buf_adds(&t, "");
	folds = fold_lines(&t, c->m->net->pcg, c->ws.it, len, &st, 1) < len;
	if (folds)
		buf_adds(b, t.s);
	buf_free(&t);
	waits_clear(&c->ws);
	return folds;
}

/* Deadlock with a cycle of waits: the cycle as one sentence (folded: its
 * runs a line each, in the script's order), then the other stuck
 * processes' waits.  Returns 0 (writing nothing) when there is no cycle. */
static int
cls_cycle(struct cls *c)
{
	const struct sem	*m = c->m;
	int			 N = m->nprocs, *cyc = xcalloc(N + 1, sizeof(int));
	int			 i, k, len;

	if ((len = judge_find_cycle(c->j, c->s, cyc)) <= 0) {
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
		message_list(&c->msg, m, cyc, len, c->fold);
		buf_adds(&c->msg, " wait for each other");
	}
	if (!c->fold || !cycle_folded(c, &c->det, cyc, len)) {
		for (k = 0; k < len; k++) {
			if (k == 0)
				name(&c->det, m, cyc[0]);
			else
				buf_adds(&c->det, ", which");
			buf_adds(&c->det, " waits in ");
			stmt_text(&c->det, m, cyc[k], judge_ins(m, c->s, cyc[k]));
			buf_adds(&c->det, " for ");
			name(&c->det, m, cyc[(k + 1) % len]);
		}
		buf_addc(&c->det, '\n');
	}
	for (i = 0; i < N; i++) {
		for (k = 0; k < len && cyc[k] != i; k++)
			;
		if (k < len || !c->j->stuck[i])
			continue;
		wait_item(&c->ws, c->j, c->s, i, -1, NULL);
	}
	waits_flush(&c->ws, &c->det, m, c->fold);
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

	nroots = judge_stuck_roots(c->j, c->s, roots, &sends);
	for (k = 0; k < nroots; k++) {
		add_proc(c->v, roots[k]);
		wait_item(&c->ws, c->j, c->s, roots[k], -1, NULL);
		nw = judge_waits_for(c->j, c->s, roots[k], w, &any);
		for (i = 0; i < nw; i++)
			dead &= sem_ended(m, c->s, w[i]);
	}
	for (i = 0; i < N; i++) {
		for (k = 0; k < nroots && roots[k] != i; k++)
			;
		if (k < nroots || !c->j->stuck[i])
			continue;
		add_proc(c->v, i);
		wait_item(&c->ws, c->j, c->s, i, -1, NULL);
	}
	waits_flush(&c->ws, &c->det, m, c->fold);
	if (sends == nroots) {
		buf_adds(&c->msg, "unmatched send: ");
		message_list(&c->msg, m, roots, nroots, c->fold);
		buf_adds(&c->msg, nroots == 1 ? " waits" : " wait");
		buf_adds(&c->msg, dead ? " forever to send to processes that ended" :
		    " forever to send a message no process will receive");
	} else {
		buf_adds(&c->msg, "orphan receive: ");
		message_list(&c->msg, m, roots, nroots, c->fold);
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

/* Livelock: the processes that poll in vain for ever, each at its poll,
 * and the waits of those blocked meanwhile. */
static void
cls_livelock(struct cls *c)
{
	const struct sem	*m = c->m;
	unsigned char		*polls = xcalloc(m->nprocs + 1, 1);
	struct buf		 b;
	int			 i, n = 0;

	judge_livelock(c->j, c->s, c->j->ps, polls);
	for (i = 0; i < m->nprocs; i++) {
		if (!polls[i])
			continue;
		add_proc(c->v, i);
		n++;
		buf_init(&b);
		buf_adds(&b, "polls in vain at ");
		stmt_text(&b, m, i, judge_ins(m, c->s, i));
		buf_adds(&b, ", round and round");
		text_item(&c->ws, i, buf_steal(&b));
		buf_free(&b);
	}
	waits_flush(&c->ws, &c->det, m, c->fold);
	for (i = 0; i < m->nprocs; i++)
		if (c->j->ps[i] == PS_BLOCKED)
			wait_item(&c->ws, c->j, c->s, i, -1, NULL);
	waits_flush(&c->ws, &c->det, m, c->fold);
	buf_adds(&c->msg, "livelock: ");
	message_list(&c->msg, m, c->v->procs, c->v->nprocs, c->fold);
	buf_adds(&c->msg, n == 1 ? " polls" : " poll");
	buf_adds(&c->msg, " for ever for what never comes, and no other process "
	    "can move");
	free(polls);
}

/* A line naming the processes that can still go on, when some can. */
static void
others_go_on(struct buf *det, struct rjudge *j, const uint64_t *s, int fold)
{
	int	p, n = 0, nstuck = 0, *live = xcalloc(j->N + 1, sizeof(int));

	for (p = 0; p < j->N; p++) {
		nstuck += j->stuck[p];
		if (!j->stuck[p] && !sem_ended(j->m, s, p))
			live[n++] = p;
	}
	if (n > 0) {
		message_list(det, j->m, live, n, fold);
		buf_printf(det, " %s on, and never release%s %s\n", n == 1 ? "goes" :
		    "go", n == 1 ? "s" : "", nstuck == 1 ? "it" : "them");
	}
	free(live);
}

/* The violation of kind found in s: its processes, message and detail, from
 * the classifier for that kind and what the state shows; with fold, what
 * repeats said once (pcg/fold.h), the message and detail in *message and
 * *detail (new strings). */
static void
classify(struct violation *v, struct rjudge *j, const uint64_t *s, int kind,
    int fold, char **message, char **detail)
{
	struct cls	 c;
	int		 i, sig = -1;

	memset(&c, 0, sizeof(c));
	c.fold = fold;
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
		if (j->stuck[i] && judge_ins(c.m, s, i)->op == OP_COLL) {
			if (sig >= 0 && sig != judge_ins(c.m, s, i)->coll)
				c.mixed = 1;
			sig = judge_ins(c.m, s, i)->coll;
		}
	}
	if (kind == VK_LIVELOCK) {
		cls_livelock(&c);
		leftover(&c.det, c.m, s, NULL, 0);
	} else if (kind == VK_UNWAITED)
		cls_unwaited(&c);
	else if (kind == VK_COLL_MISMATCH && (c.nstuck == 0 || !judge_coll_mismatch(j, s)))
		cls_coll_left_open(&c);
	else if (kind == VK_UNMATCHED_SEND && c.nstuck == 0)
		cls_left_in_channels(&c);
	else {
		if (kind == VK_COLL_MISMATCH)
			cls_coll_mismatch(&c);
		else if (kind != VK_DEADLOCK || !cls_cycle(&c))
			cls_stuck(&c);
		others_go_on(&c.det, j, s, fold);
		/* Messages that never arrived say what went wrong, too. */
		leftover(&c.det, c.m, s, NULL, 0);
	}
	*message = buf_steal(&c.msg);
	*detail = buf_steal(&c.det);
	buf_free(&c.msg);
	buf_free(&c.det);
	free(c.ws.it);
}

/* One action of a counterexample, in the state s before it. */
static void
action_text(struct buf *b, const struct sem *m, const uint64_t *s, const struct trans *t)
{
	const struct mpnet	*net = m->net;
	const struct ins	*in = judge_ins(m, s, t->proc);
	const struct dchan	*d = t->dc >= 0 ? &net->dc[t->dc] : NULL;

	if (t->kind == T_COLL && sem_comm(m, in) > 0) {
		char	gn[PCG_NAME_MAX];

		buf_printf(b, "the %d processes of '%s': ", m->cm[sem_comm(m, in)].n,
		    pcg_group_name(net->pcg, sem_comm(m, in) - 1, gn, sizeof(gn)));
		stmt_text(b, m, t->proc, in);
		return;
	}
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
	case T_TEST:
		stmt_text(b, m, t->proc, in);
		/* (false: not complete, or complete and not seen yet) */
		buf_adds(b, t->alt == 0 ? " finds it complete" :
		    " does not find it complete");
		break;
	case T_PROBE:
	case T_IPROBE:
		stmt_text(b, m, t->proc, in);
		if (t->alt != 0)
			buf_adds(b, " finds none");	/* (or misses one) */
		else if (d != NULL) {
			char	pb[PCG_NAME_MAX + 16];

			buf_adds(b, " finds the message from ");
			name(b, m, d->from);
			buf_printf(b, " on %s", mpnet_port_name(net, t->proc,
			    t->slot, pb, sizeof(pb)));
		} else
			buf_adds(b, " finds a message");
		break;
	case T_WAITANY:
		stmt_text(b, m, t->proc, in);
		buf_printf(b, " takes branch %d", t->alt + 1);
		break;
	default:
		stmt_text(b, m, t->proc, in);
		/* A sendrecv is three steps: say which. */
		if (in->src != NULL && (in->src->kind == S_SENDRECV ||
		    in->src->kind == S_SENDRECV_REPLACE))
			buf_adds(b, in->op == OP_ISEND ? " posts its send" :
			    in->op == OP_IRECV ? " posts its receive" :
			    " completes");
		break;
	}
	if (t->rdv) {
		const struct ins	*si = judge_ins(m, s, d->from);

		buf_adds(b, ", completing its synchronous ");
		stmt_text(b, m, d->from, si);
	}
}

void
report_violation(struct violation *v, struct sem *m, const uint64_t *final,
    const struct trans *trace, size_t ntrace)
{
	struct rjudge	*j = judge_new(m);
	uint64_t	*s = xcalloc(m->words, sizeof(uint64_t));
	struct buf	 b;
	size_t		 k, first = ntrace > REPORT_TAIL ? ntrace - REPORT_TAIL : 0;
	int		 kind, p, q, n, any, *w;

	memset(v, 0, sizeof(*v));
	sem_states(m, final, j->ps, j->ts);
	if ((kind = judge_eval(j, final, j->ps)) < 0)
		kind = VK_DEADLOCK;	/* (the explorer judged it bad) */
	judge_tables(j);
	classify(v, j, final, kind, 1, &v->message, &v->detail);
	classify(v, j, final, kind, 0, &v->message_full, &v->detail_full);
	if (strcmp(v->message_full, v->message) == 0 &&
	    strcmp(v->detail_full, v->detail) == 0) {
		free(v->message_full);
		free(v->detail_full);
		v->message_full = v->detail_full = NULL;
	}
	w = xcalloc(m->nprocs + 1, sizeof(int));
	for (p = 0; p < m->nprocs; p++) {
		if (j->ps[p] != PS_BLOCKED)
			continue;
		n = judge_waits_for(j, final, p, w, &any);
		v->waits = xreallocarray(v->waits, (size_t)(v->nwaits + n) * 2 + 2,
		    sizeof(int));
		for (q = 0; q < n; q++) {
			v->waits[2 * v->nwaits] = p;
			v->waits[2 * v->nwaits + 1] = w[q];
			v->nwaits++;
		}
	}
	free(w);
	judge_free(j);
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
	free(v->message_full);
	free(v->detail_full);
	free(v->procs);
	for (k = 0; k < v->ntrace; k++)
		free(v->trace[k]);
	free(v->trace);
	free(v->final);
	free(v->steps);
	free(v->start);
	free(v->waits);
}
