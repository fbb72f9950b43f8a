/* promela.c -- a P/T net (net.h) written as a Promela model for SPIN, with
 * a judge that gives every state the verdict of ours (report.c).
 *
 * The model is the net, so it has the checker's semantics by construction
 * (net.c mirrors sem.c, tests/unit/test-net.c compares them): one
 * proctype per process, whose loop holds one atomic guarded step per net
 * transition the process's group fires (a synchronous send is a
 * rendezvous: one step taking the sender and the receiver on together; a
 * collective all take together is one step of process 0).  A process's
 * place in its program is pc[p]; a channel direction's messages are a
 * Promela channel of bits with the checker's bound; the other places
 * (counters, request slots, the open rooted collective) are variables.
 *
 * The verdict: the proctype 'judge' judges every state with report.c's
 * rules (lasting wrongs of ended processes, the stuck set, collective
 * mismatch, a cycle of waits, stuck processes waiting in vain), in one
 * d_step on hidden variables, and fails the assertion !found_KIND for
 * the kind found: pan reports 'assertion violated !(found_deadlock)'.
 * Judging every state, not only end states, is what finds a process
 * stuck for ever while others loop (no end state shows it); every loop
 * is an end label, so SPIN's own end-state check finds nothing more.
 * The judge restates report.c's rules, so what SPIN checks independently
 * is the state space (every interleaving, its own reductions) and the
 * judge's Promela against report.c's C; the nets net.c refuses (ordered
 * wildcards, roots running ahead) are refused here too. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "net.h"
#include "sem.h"
#include "xmalloc.h"

/* Messages a channel without a bound may hold in the model; one more is
 * reported as 'channel_full' (SPIN's search is then incomplete). */
#define PROMELA_OPEN_CAP	8

/* The verdicts, by report.c's priority (0: ok). */
static const char *const promela_kinds[] = {
	"ok", "unwaited_request", "unmatched_send", "orphan_receive",
	"deadlock", "collective_mismatch", "channel_full"
};
#define K_UNWAITED	1
#define K_UNMATCHED	2
#define K_ORPHAN	3
#define K_DEADLOCK	4
#define K_COLL		5

struct pw {
	const struct net	*n;
	const struct mpnet	*mp;
	struct sem		 m;
	FILE			*f;
	int			 N;
	int			*chanp;		/* per directed channel: its place, or -1 */
	int			**slotp;	/* per process, per slot: its place */
	int			*leftp;		/* per process: its 'left' place, or -1 */
	int			*openp;		/* per collective: its 'open' place, or -1 */
	int			 nonep;
	unsigned char		**ctl;		/* per process, per pc: a control place */
	int64_t			*cap;		/* per place: the model's capacity */
	struct buf		*rg;		/* per process: its group can fire */
	struct buf		 cg;		/* a collective all take can fire */
};

/* A place's variable. */
static void
pw_var(struct buf *b, const struct pw *w, int p)
{
	const struct net_place	*pl = &w->n->places[p];

	if (pl->kind == NP_CHAN)
		buf_printf(b, "len(q%d)", p);
	else
		buf_printf(b, "v%d", p);
}

/* A comment's text: no end of comment in it. */
static void
pw_comment(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		if (s[0] == '*' && s[1] == '/')
			fputs("* /", f);
		else if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
		else
			continue;
		if (s[0] == '*' && s[1] == '/')
			s++;
	}
}

static const char *
pw_type(int64_t cap)
{
	if (cap >= 0 && cap <= 255)
		return "byte";
	if (cap >= 0 && cap <= 32767)
		return "short";
	return "int";
}

/* ---- what the judge knows of the programs ---- */

static const struct ins *
pw_ins(const struct pw *w, int p, int pc)
{
	return &w->mp->progs[p]->ins[pc];
}

/* Whether an instruction gives what a need asks (report.c: gives). */
struct pw_need {
	const struct pw	*w;
	int		 q;
	int		 what;		/* 0 send on dc, 1 receive dc, 2 collective */
	int		 arg;
};

static int
pw_gives(void *arg, const struct ins *in)
{
	const struct pw_need	*nd = arg;
	const struct mpnet	*mp = nd->w->mp;
	int			 base = mp->pcg->procs[nd->q].portbase;
	const struct dchan	*d;

	switch (nd->what) {
	case 0:
		return (in->op == OP_SEND || in->op == OP_ISEND) &&
		    mp->send_dc[base + in->lp] == nd->arg;
	case 1:
		d = &mp->dc[nd->arg];
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

/* The condition that q can still give what it is asked (report.c:
 * can_give): it has not ended and a pending request takes it, or an
 * instruction it can still reach gives it. */
static void
pw_can_give(struct buf *b, const struct pw *w, int q, int what, int arg)
{
	const struct prog	*pr = w->mp->progs[q];
	struct pw_need		 nd = { w, q, what, arg };
	int			 pc, k;

	buf_printf(b, "(!E[%d] && (0", q);
	for (pc = 0; pc < pr->nins; pc++) {
		const struct ins	*in = &pr->ins[pc];
		struct mpnet_walk	 mw = { NULL, 0, NULL, 0 };

		if (!w->ctl[q][pc])
			continue;
		if (what == 1)
			for (k = 0; k < in->nposted; k++)
				if (slotdesc_accepts(&pr->sd[in->sd + k],
				    w->mp->dc[arg].to_lp))
					buf_printf(b, " || (pc[%d] == %d && v%d > 0)",
					    q, pc, w->slotp[q][k]);
		if (mpnet_walk(pr, pc, pw_gives, &nd, &mw))
			buf_printf(b, " || pc[%d] == %d", q, pc);
	}
	buf_adds(b, "))");
}

/* Whether the net has the log of an open rooted collective. */
static int
pw_logging(const struct pw *w)
{
	return w->nonep >= 0;
}

static int
pw_logged(const struct pw *w, const struct ins *in)
{
	return pw_logging(w) && !sem_sync_coll(&w->m, in);
}

/* report.c: wrong_coll, for p at collective 'in'. */
static void
pw_wrong_coll(struct buf *b, const struct pw *w, int p, const struct ins *in)
{
	if (!pw_logging(w)) {
		buf_adds(b, "0");
		return;
	}
	buf_printf(b, "(v%d == 0 && v%d == 0", w->leftp[p], w->nonep);
	if (pw_logged(w, in))
		buf_printf(b, " && v%d == 0", w->openp[in->coll]);
	buf_adds(b, ")");
}

/* report.c: left_it: process i left the instance p is at. */
static void
pw_left_it(struct buf *b, const struct pw *w, int p, int i, const struct ins *in)
{
	if (!pw_logged(w, in))
		buf_adds(b, "0");
	else
		buf_printf(b, "(v%d == 1 && v%d == 0)", w->leftp[i], w->leftp[p]);
}

/* report.c: coll_waits: whether p, at collective 'in', waits for q. */
static void
pw_coll_waits(struct buf *b, const struct pw *w, int p, const struct ins *in, int q)
{
	const struct coll	*c = &w->mp->colls[in->coll];
	const struct prog	*pr = w->mp->progs[q];
	int			 pc;

	if (q == p) {
		buf_adds(b, "0");
		return;
	}
	buf_adds(b, "(!");
	pw_wrong_coll(b, w, p, in);
	buf_adds(b, " && ");
	if (pw_logged(w, in)) {
		if (sem_coll_eager(c, p))
			buf_printf(b, "v%d == 0", w->leftp[q]);
		else if (c->kind == S_BCAST || c->kind == S_SCATTER)
			buf_adds(b, q == c->root ? "1" : "0");
		else {
			buf_adds(b, "!");
			pw_left_it(b, w, p, q, in);
		}
		buf_adds(b, ")");
		return;
	}
	buf_adds(b, "!(0");
	for (pc = 0; pc < pr->nins; pc++) {
		const struct ins	*o = &pr->ins[pc];

		if (!w->ctl[q][pc] || o->op != OP_COLL || o->coll != in->coll)
			continue;
		buf_printf(b, " || (pc[%d] == %d && !", q, pc);
		pw_wrong_coll(b, w, q, o);
		buf_adds(b, ")");
	}
	buf_adds(b, "))");
}

/* What the judge asks of a need (report.c: stuck_set, find_cycle,
 * stuck_roots): whether a process that runs can give it, one that is not
 * stuck can, the process waited for is in the cycle search, or any that
 * has not ended can. */
enum { NEED_RUNS, NEED_UNSTUCK, NEED_CYCLE, NEED_GIVES };

/* One need of p (report.c: needs): q must do 'what' on 'arg' when 'when'
 * holds; as the judge asks it. */
static void
pw_need(struct buf *b, const struct pw *w, const char *when, int q, int what,
    int arg, int ask)
{
	buf_printf(b, " || (%s", when);
	switch (ask) {
	case NEED_CYCLE:
		buf_printf(b, " && A[%d]", q);
		break;
	case NEED_RUNS:
		buf_printf(b, " && R[%d]", q);
		break;
	case NEED_UNSTUCK:
		buf_printf(b, " && !S[%d]", q);
		break;
	}
	if (ask != NEED_CYCLE) {
		buf_adds(b, " && ");
		pw_can_give(b, w, q, what, arg);
	}
	buf_adds(b, ")");
}

/* What p at 'in' needs, as a disjunction of pw_need's (report.c: needs;
 * for the cycle, waits_for: pending receive requests left out). */
static void
pw_needs(struct buf *b, const struct pw *w, int p, const struct ins *in, int ask)
{
	const struct mpnet	*mp = w->mp;
	const struct prog	*pr = mp->progs[p];
	int			 base = mp->pcg->procs[p].portbase, k, lp, lo, hi, dc, q;
	char			 when[64];
	struct buf		 cw;

	for (k = 0; k < in->nposted; k++) {
		const struct slotdesc	*d = &pr->sd[in->sd + k];

		if (!(in->op == OP_WAITALL || (ask != NEED_CYCLE && d->kind != SD_SEND)))
			continue;
		snprintf(when, sizeof(when), "v%d > 0", w->slotp[p][k]);
		if (d->kind == SD_SEND) {
			if ((dc = mp->send_dc[base + d->lp]) >= 0)
				pw_need(b, w, when, mp->dc[dc].to, 1, dc, ask);
			continue;
		}
		lo = d->kind == SD_RECV ? d->lp : d->lo;
		hi = d->kind == SD_RECV ? d->lp + 1 : d->hi;
		for (lp = lo; lp < hi; lp++)
			if ((dc = mp->recv_dc[base + lp]) >= 0)
				pw_need(b, w, when, mp->dc[dc].from, 0, dc, ask);
	}
	switch (in->op) {
	case OP_RECV:
	case OP_RECVANY:
		lo = in->op == OP_RECV ? in->lp : in->lo;
		hi = in->op == OP_RECV ? in->lp + 1 : in->hi;
		for (lp = lo; lp < hi; lp++)
			if ((dc = mp->recv_dc[base + lp]) >= 0)
				pw_need(b, w, "1", mp->dc[dc].from, 0, dc, ask);
		break;
	case OP_SEND:
		if ((dc = mp->send_dc[base + in->lp]) >= 0)
			pw_need(b, w, "1", mp->dc[dc].to, 1, dc, ask);
		break;
	case OP_COLL:
		for (q = 0; q < w->N; q++) {
			buf_init(&cw);
			pw_coll_waits(&cw, w, p, in, q);
			pw_need(b, w, cw.s, q, 2, in->coll, ask);
			buf_free(&cw);
		}
		break;
	default:
		break;
	}
}

/* "if :: (cond) && kind < k -> kind = k :: else -> skip fi;" */
static void
pw_raise(FILE *f, const char *cond, int k)
{
	fprintf(f, "\t\tif :: (%s) && kind < %d -> kind = %d :: else -> skip fi;\n",
	    cond, k, k);
}

/* The disjunction of p's needs at each pc it may wait at, as asked. */
static void
pw_all_needs(struct buf *b, const struct pw *w, int p, int ask)
{
	int	pc;

	buf_adds(b, "0");
	for (pc = 0; pc < w->mp->progs[p]->nins; pc++) {
		if (!w->ctl[p][pc] || pw_ins(w, p, pc)->op == OP_END)
			continue;
		buf_printf(b, " || (pc[%d] == %d && (0", p, pc);
		pw_needs(b, w, p, pw_ins(w, p, pc), ask);
		buf_adds(b, "))");
	}
}

/* The judge: report.c's judge on every state, as one deterministic step
 * that changes nothing (its variables are hidden) unless it fails an
 * assertion. */
static void
pw_judge(struct pw *w)
{
	const struct mpnet	*mp = w->mp;
	FILE			*f = w->f;
	struct buf		 b;
	int			 p, q, pc, pc2, k, dc, N = w->N;

	buf_init(&b);
	fprintf(f, "\n/* The judge's scratch, out of the state vector: per process\n"
	    " * ended (and none of its requests can match), runs (a step of its\n"
	    " * group can fire), blocked, stuck, in the\n"
	    " * cycle search. */\nhidden byte E[%d], R[%d], B[%d], S[%d], A[%d];\n"
	    "hidden byte kind, nroots, sends, changed, rooted, idle;\n", N, N, N, N, N);
	fputs("\n/* The judge: in every state, the verdict of ensemble verify. */\n"
	    "active proctype judge()\n{\nend:\n\tdo\n\t:: d_step {\n"
	    "\t\tkind = 0; nroots = 0; sends = 0; idle = 0;\n", f);
	for (p = 0; p < N; p++) {
		fprintf(f, "\t\tE[%d] = (0", p);
		for (pc = 0; pc < mp->progs[p]->nins; pc++)
			if (w->ctl[p][pc] && pw_ins(w, p, pc)->op == OP_END)
				fprintf(f, " || pc[%d] == %d", p, pc);
		fprintf(f, ");\n\t\tR[%d] = (%s);\n\t\tE[%d] = E[%d] && !R[%d];\n"
		    "\t\tB[%d] = !E[%d] && !R[%d];\n\t\tidle = idle || !R[%d];\n",
		    p, w->rg[p].s, p, p, p, p, p, p, p);
	}
	fprintf(f, "\t\t/* judged when some process is idle, unless a collective\n"
	    "\t\t * all take can fire */\n\t\tif :: !idle || (%s) -> skip\n"
	    "\t\t:: else ->\n", w->cg.s);
	fputs("\t\t/* lasting: ended with requests pending, messages to an ended\n"
	    "\t\t * process, an open collective an ended process did not leave */\n", f);
	for (p = 0; p < N; p++)
		for (pc = 0; pc < mp->progs[p]->nins; pc++) {
			if (!w->ctl[p][pc] || pw_ins(w, p, pc)->op != OP_END ||
			    pw_ins(w, p, pc)->nposted == 0)
				continue;
			buf_reset(&b);
			buf_printf(&b, "pc[%d] == %d", p, pc);
			pw_raise(f, b.s, K_UNWAITED);
		}
	for (dc = 0; dc < mp->ndc; dc++) {
		if (w->chanp[dc] < 0)
			continue;
		buf_reset(&b);
		buf_printf(&b, "E[%d] && len(q%d) > 0", mp->dc[dc].to, w->chanp[dc]);
		pw_raise(f, b.s, K_UNMATCHED);
	}
	for (p = 0; pw_logging(w) && p < N; p++) {
		buf_reset(&b);
		buf_printf(&b, "E[%d] && v%d == 0 && v%d == 0", p, w->nonep, w->leftp[p]);
		pw_raise(f, b.s, K_COLL);
	}

	fputs("\t\t/* the stuck processes: blocked, and none that runs can give\n"
	    "\t\t * what they need; then none that is not stuck can */\n", f);
	for (p = 0; p < N; p++) {
		buf_reset(&b);
		pw_all_needs(&b, w, p, NEED_RUNS);
		fprintf(f, "\t\tS[%d] = B[%d] && !(%s);\n", p, p, b.s);
	}
	fputs("\t\tdo\n\t\t:: changed = 0;\n", f);
	for (p = 0; p < N; p++) {
		buf_reset(&b);
		pw_all_needs(&b, w, p, NEED_UNSTUCK);
		fprintf(f, "\t\t\tif :: S[%d] && (%s) -> S[%d] = 0; changed = 1\n"
		    "\t\t\t:: else -> skip fi;\n", p, b.s, p);
	}
	fputs("\t\t\tif :: !changed -> break :: else -> skip fi\n\t\tod;\n", f);
	fputs("\t\tif\n\t\t:: kind >= 5 || !(0", f);
	for (p = 0; p < N; p++)
		fprintf(f, " || S[%d]", p);
	fputs(") -> skip\n\t\t:: else ->\n", f);

	fputs("\t\t/* stuck processes at collectives that cannot happen */\n", f);
	for (p = 0; p < N; p++)
		for (pc = 0; pc < mp->progs[p]->nins; pc++) {
			const struct ins	*in = pw_ins(w, p, pc);

			if (!w->ctl[p][pc] || in->op != OP_COLL)
				continue;
			buf_reset(&b);
			buf_printf(&b, "S[%d] && pc[%d] == %d && (", p, p, pc);
			pw_wrong_coll(&b, w, p, in);
			for (q = 0; q < N; q++) {
				if (q == p)
					continue;
				buf_printf(&b, " || (E[%d] && !", q);
				pw_left_it(&b, w, p, q, in);
				buf_adds(&b, ")");
				for (pc2 = 0; q > p && pc2 < mp->progs[q]->nins; pc2++) {
					const struct ins	*o = pw_ins(w, q, pc2);

					if (!w->ctl[q][pc2] || o->op != OP_COLL ||
					    o->coll == in->coll)
						continue;
					buf_printf(&b, " || (S[%d] && pc[%d] == %d",
					    q, q, pc2);
					if (pw_logging(w))
						buf_printf(&b, " && v%d == v%d",
						    w->leftp[p], w->leftp[q]);
					buf_adds(&b, ")");
				}
			}
			buf_adds(&b, ")");
			pw_raise(f, b.s, K_COLL);
		}

	fputs("\t\t/* a cycle of waits among the stuck processes: take out\n"
	    "\t\t * those that wait for none left, until none goes */\n", f);
	for (p = 0; p < N; p++)
		fprintf(f, "\t\tA[%d] = S[%d];\n", p, p);
	fputs("\t\tdo\n\t\t:: changed = 0;\n", f);
	for (p = 0; p < N; p++) {
		buf_reset(&b);
		pw_all_needs(&b, w, p, NEED_CYCLE);
		fprintf(f, "\t\t\tif :: A[%d] && !(%s) -> A[%d] = 0; changed = 1\n"
		    "\t\t\t:: else -> skip fi;\n", p, b.s, p);
	}
	fputs("\t\t\tif :: !changed -> break :: else -> skip fi\n\t\tod;\n", f);
	fputs("\t\tif\n\t\t:: kind >= 5 -> skip\n\t\t:: (0", f);
	for (p = 0; p < N; p++)
		fprintf(f, " || A[%d]", p);
	fprintf(f, ") -> if :: kind < %d -> kind = %d :: else -> skip fi\n"
	    "\t\t:: else ->\n", K_DEADLOCK, K_DEADLOCK);
	fputs("\t\t\t/* the stuck processes that wait in vain for all they\n"
	    "\t\t\t * need, and how many of them wait to send */\n", f);
	for (p = 0; p < N; p++) {
		buf_reset(&b);
		pw_all_needs(&b, w, p, NEED_GIVES);
		fprintf(f, "\t\t\trooted = S[%d] && !(%s);\n", p, b.s);
		buf_reset(&b);
		buf_adds(&b, "0");
		for (pc = 0; pc < mp->progs[p]->nins; pc++) {
			const struct ins	*in = pw_ins(w, p, pc);

			if (!w->ctl[p][pc])
				continue;
			if (in->op == OP_SEND)
				buf_printf(&b, " || pc[%d] == %d", p, pc);
			else if (in->op == OP_WAITALL) {
				buf_printf(&b, " || (pc[%d] == %d", p, pc);
				for (k = 0; k < in->nposted; k++)
					if (mp->progs[p]->sd[in->sd + k].kind != SD_SEND)
						buf_printf(&b, " && v%d == 0",
						    w->slotp[p][k]);
				buf_adds(&b, ")");
			}
		}
		fprintf(f, "\t\t\tif :: rooted -> nroots++; if :: (%s) -> sends++ "
		    ":: else -> skip fi\n\t\t\t:: else -> skip fi;\n", b.s);
	}
	fprintf(f, "\t\t\tif\n\t\t\t:: nroots > 0 && sends == nroots && kind < %d -> "
	    "kind = %d\n\t\t\t:: nroots > 0 && sends != nroots && kind < %d -> "
	    "kind = %d\n\t\t\t:: else -> skip\n\t\t\tfi\n\t\tfi\n\t\tfi\n\t\tfi;\n",
	    K_UNMATCHED, K_UNMATCHED, K_ORPHAN, K_ORPHAN);
	fputs("\t\t/* the verdict, an assertion per kind */\n", f);
	for (k = 1; k <= K_COLL; k++)
		fprintf(f, "\t\tfound_%s = kind == %d;\n\t\tassert(!found_%s);\n",
		    promela_kinds[k], k, promela_kinds[k]);
	fputs("\t\tkind = 0\n\t   }\n\tod\n}\n", f);
	buf_free(&b);
}

/* ---- the processes ---- */

/* One net transition as an atomic step. */
static void
pw_trans(struct pw *w, const struct net_trans *t)
{
	const struct net	*n = w->n;
	FILE			*f = w->f;
	struct buf		 g, e, o;
	int			 i, k, p;
	int64_t			 d, wt;

	buf_init(&g);
	buf_init(&e);
	buf_init(&o);
	buf_adds(&g, "1");
	buf_adds(&e, "");
	for (i = 0; i < t->npre; i++) {
		const struct net_place	*pl = &n->places[t->pre[i].place];

		p = t->pre[i].place;
		if (pl->kind == NP_CONTROL) {
			buf_printf(&g, " && pc[%d] == %d", pl->proc, pl->pc);
			continue;
		}
		buf_adds(&g, " && ");
		pw_var(&g, w, p);
		buf_printf(&g, " >= %" PRId64, t->pre[i].w);
	}
	for (p = 0; p < n->nplaces; p++) {
		const struct net_place	*pl = &n->places[p];

		d = 0;
		for (i = 0; i < t->npre; i++)
			if (t->pre[i].place == p)
				d -= t->pre[i].w;
		for (i = 0; i < t->npost; i++)
			if (t->post[i].place == p)
				d += t->post[i].w;
		if (pl->kind == NP_CONTROL) {
			if (d > 0)
				buf_printf(&e, "; pc[%d] = %d", pl->proc, pl->pc);
			continue;
		}
		if (d == 0)
			continue;
		if (pl->kind == NP_CHAN) {
			if (d > 0 && pl->cap < 0)	/* the model's bound */
				buf_printf(&o, "%s len(q%d) > %" PRId64, o.len > 0 ?
				    " ||" : "", p, w->cap[p] - d);
			for (wt = d < 0 ? -d : d, k = 0; k < wt; k++)
				buf_printf(&e, "; q%d%s", p, d < 0 ? "?_" : "!0");
		} else
			buf_printf(&e, "; v%d = v%d %c %" PRId64, p, p,
			    d < 0 ? '-' : '+', d < 0 ? -d : d);
	}
	buf_printf(&w->rg[t->proc], " || (%s)", g.s);
	if (t->kind == T_COLL)
		buf_printf(&w->cg, " || (%s)", g.s);
	fputs("\t/* ", f);
	pw_comment(f, t->name);
	if (t->loc != NULL) {
		fputs(" @ ", f);
		pw_comment(f, t->loc);
	}
	fputs(" */\n", f);
	if (o.len > 0) {
		fprintf(f, "\t:: atomic { %s && (%s) ->\n"
		    "\t\tfound_channel_full = 1;\n"
		    "\t\tassert(!found_channel_full) }\n", g.s, o.s);
		fprintf(f, "\t:: atomic { %s && !(%s)%s }\n", g.s, o.s, e.s);
	} else
		fprintf(f, "\t:: atomic { %s%s }\n", g.s, e.s);
	buf_free(&g);
	buf_free(&e);
	buf_free(&o);
}

int
promela_write(const struct net *n, FILE *f, char **cause)
{
	const struct mpnet	*mp = n->mp;
	const char		*app = mp->pcg->name != NULL ? mp->pcg->name : "net";
	struct pw		 w;
	char			 pn[PCG_NAME_MAX];
	int			 i, p, k, most = 0, *init, rc = -1;

	memset(&w, 0, sizeof(w));
	w.n = n;
	w.mp = mp;
	w.f = f;
	w.N = mp->nprocs;
	sem_init(&w.m, mp, n->mode, 2);
	w.chanp = xcalloc(mp->ndc + 1, sizeof(int));
	w.openp = xcalloc(mp->ncolls + 1, sizeof(int));
	w.leftp = xcalloc(w.N + 1, sizeof(int));
	w.slotp = xcalloc(w.N + 1, sizeof(int *));
	w.ctl = xcalloc(w.N + 1, sizeof(unsigned char *));
	w.cap = xcalloc(n->nplaces + 1, sizeof(int64_t));
	init = xcalloc(w.N + 1, sizeof(int));
	w.rg = xcalloc(w.N + 1, sizeof(struct buf));
	for (p = 0; p < w.N; p++) {
		buf_init(&w.rg[p]);
		buf_adds(&w.rg[p], "0");
	}
	buf_init(&w.cg);
	buf_adds(&w.cg, "0");
	w.nonep = -1;
	for (i = 0; i < mp->ndc; i++)
		w.chanp[i] = -1;
	for (i = 0; i < mp->ncolls; i++)
		w.openp[i] = -1;
	for (p = 0; p < w.N; p++) {
		w.leftp[p] = -1;
		w.slotp[p] = xcalloc(mp->progs[p]->nslots + 1, sizeof(int));
		w.ctl[p] = xcalloc(mp->progs[p]->nins + 1, 1);
		if (mp->progs[p]->nins > most)
			most = mp->progs[p]->nins;
	}
	for (i = 0; i < n->nplaces; i++) {
		const struct net_place	*pl = &n->places[i];

		w.cap[i] = pl->cap;
		switch (pl->kind) {
		case NP_CONTROL:
			w.ctl[pl->proc][pl->pc] = 1;
			if (pl->init > 0)
				init[pl->proc] = pl->pc;
			break;
		case NP_CHAN:
			w.chanp[pl->index] = i;
			if (pl->cap < 0)
				w.cap[i] = PROMELA_OPEN_CAP;
			if (w.cap[i] > 255) {
				xasprintf(cause, "the channel %s may hold %" PRId64
				    " messages, more than a Promela channel (255)",
				    pl->name, pl->cap);
				rc = -2;
				goto out;
			}
			break;
		case NP_SLOT:
			w.slotp[pl->proc][pl->index] = i;
			break;
		case NP_PROC_LEFT:
			w.leftp[pl->proc] = i;
			break;
		case NP_COLL_OPEN:
			w.openp[pl->index] = i;
			break;
		case NP_COLL_NONE:
			w.nonep = i;
			break;
		default:
			break;
		}
	}

	fprintf(f, "/* %s in %s mode: the MP net 'ensemble verify --exact' "
	    "explores,\n * written by 'ensemble net' for SPIN.\n *\n", app,
	    check_mode_name(n->mode));
	fputs(" * Run: spin -a model.pml && cc -O2 -DSAFETY -o pan pan.c &&\n"
	    " *      ./pan -m1000000 -e -c0\n"
	    " * 'errors: 0': verified, as ensemble verify would say in this mode.\n"
	    " * Otherwise each error is 'assertion violated !(found_KIND)', KIND\n"
	    " * one of ensemble's violations: collective_mismatch, deadlock,\n"
	    " * orphan_receive, unmatched_send, unwaited_request (the worst first:\n"
	    " * ensemble verify reports the worst one it finds), or channel_full\n"
	    " * (a channel without a bound outgrew the model's: incomplete).\n"
	    " * spin -t -p model.pml replays the trail to the state judged.\n"
	    " *\n"
	    " * Each process is a proctype whose loop holds one atomic step per\n"
	    " * transition of its group in the net: a synchronous send is one step\n"
	    " * of sender and receiver together (a rendezvous), a collective all\n"
	    " * take together one step of the first process.  pc[p] is where\n"
	    " * process p is (an instruction of its program); qK holds the\n"
	    " * messages of a channel direction, vK is any other place of the net.\n"
	    " * Every loop is an end label: a process may rest anywhere, and no\n"
	    " * end state is invalid by itself.  The proctype judge judges every\n"
	    " * state, as ensemble verify does, with the rules of ensemble(1)\n"
	    " * VERIFICATION (a process stuck while others go on for ever is a\n"
	    " * violation, though that state is no end state), in one d_step on\n"
	    " * hidden variables that changes nothing unless an assertion fails.\n"
	    " */\n\n", f);
	fputs("/* Set by the judge for pan's message: assertion violated\n"
	    " * !(found_deadlock) */\nhidden byte ", f);
	for (k = 1; k < (int)(sizeof(promela_kinds) / sizeof(promela_kinds[0])); k++)
		fprintf(f, "%sfound_%s", k > 1 ? ", " : "", promela_kinds[k]);
	fputs(";\n\n", f);
	fprintf(f, "%s pc[%d] = { ", most > 255 ? "short" : "byte", w.N);
	for (p = 0; p < w.N; p++)
		fprintf(f, "%s%d", p > 0 ? ", " : "", init[p]);
	fputs(" };\n", f);
	for (i = 0; i < n->nplaces; i++) {
		const struct net_place	*pl = &n->places[i];

		if (pl->kind == NP_CONTROL)
			continue;
		if (pl->kind == NP_CHAN) {
			fprintf(f, "chan q%d = [%" PRId64 "] of { bit };\t/* ", i, w.cap[i]);
			pw_comment(f, pl->name);
			if (pl->cap < 0)
				fprintf(f, ": no bound known (it is sent on in an endless "
				    "loop); the model's is %d */\n", PROMELA_OPEN_CAP);
			else
				fprintf(f, ": the checker's bound, the most messages "
				    "its sender sends in any run */\n");
			continue;
		}
		fprintf(f, "%s v%d = %" PRId64 ";\t/* ", pw_type(pl->cap), i, pl->init);
		pw_comment(f, pl->name);
		fputs(" */\n", f);
	}
	for (p = 0; p < w.N; p++) {
		fprintf(f, "\n/* %s */\nactive proctype p%d()\n{\nend:\n\tdo\n",
		    pcg_proc_name(mp->pcg, p, pn, sizeof(pn)), p);
		for (k = 0, i = 0; i < n->ntrans; i++)
			if (n->trans[i].proc == p) {
				pw_trans(&w, &n->trans[i]);
				k++;
			}
		if (k == 0)
			fputs("\t:: false\t/* no step */\n", f);
		fputs("\tod\n}\n", f);
	}
	pw_judge(&w);
	if (fflush(f) != 0 || ferror(f)) {
		xasprintf(cause, "%s", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	for (p = 0; p < w.N; p++) {
		free(w.slotp[p]);
		free(w.ctl[p]);
	}
	for (p = 0; p < w.N; p++)
		buf_free(&w.rg[p]);
	free(w.rg);
	buf_free(&w.cg);
	free(w.slotp);
	free(w.ctl);
	free(w.chanp);
	free(w.openp);
	free(w.leftp);
	free(w.cap);
	free(init);
	sem_fini(&w.m);
	return rc;
}
