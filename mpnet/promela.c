/* promela.c -- a P/T net (net.h) written as a Promela model for SPIN, with
 * a judge that gives the states ensemble verify judges the verdict of ours
 * (report.c).
 *
 * The model is the net, so it has the checker's semantics by construction
 * (net.c mirrors sem.c, tests/unit/test-net.c compares them), in one of
 * two forms.
 *
 * A net whose runs all end (mpnet.finite) and whose every transition
 * moves one process, or a receiver and a synchronous sender on the
 * channel it takes from (pw_plan: no collective, no synchronous request,
 * every channel bounded), is written for SPIN's partial-order reduction.
 * Each process is a proctype whose labels are its control places, each a
 * choice of atomic steps, one per transition of its group, with the goto
 * outside the atomic (SPIN takes a jump out of one for a global access).
 * A step reads and writes only its process's places, declared 'local'
 * (pcP and vK), and Promela channels its process alone sends on (xs) or
 * receives from (xr): a put is 'c!0', room for it (the free complement)
 * the channel's size, the checker's bound; a take 'c?0'.  A rendezvous
 * (the receiver's transition that moves a sender blocked in a
 * synchronous send) is split: the sender puts a marker 'c!1', behind its
 * buffered messages, and waits at a label of its own; the receiver's
 * step takes it as it takes a message, with the same guard and effects
 * (net.c builds the two alike), answers on channel 'a', and the sender
 * goes on as its counters say.  The net's test that the channel is empty
 * is the marker reaching the head; while the sender waits nothing else
 * moves it (pw_plan refuses otherwise), so a state where it waits is the
 * net's state with the sender at its send, and one where the answer
 * waits is the net's state with the sender gone on.  Every transition of
 * the net is one step of the model and every step of the model a
 * transition or a stutter (the marker, the answer), and a state where a
 * marker or an answer can move is no end state, so the end states (no
 * process can move) are the same.
 * The judge moves only at timeout, in those end states, which is where
 * ensemble verify judges such a net (verify.c: judge_all is !finite):
 * nothing runs there, so its "can fire" conditions are all false, and a
 * waiting sender's marker is not counted as a message.  Soundness of the
 * reduction: the processes' steps touch only their own variables and
 * exclusive channels, as SPIN assumes; the judge reads everything but is
 * enabled only when nothing else is, so it depends on no step, and a
 * persistent set keeps every end state of a finite acyclic state space.
 * pan's run-time check of xr and xs would take the judge's reads for a
 * second reader or writer: the model defines XUSAFE for pan (c_decl).
 *
 * A net that may run for ever is written the same way when only one of
 * its parts (processes joined by channels, explore_components) has a
 * process in an endless loop, and it meets the rest of pw_plan (in
 * practice: the synchronous mode; a buffered channel sent on in an
 * endless loop has no bound).  There no end state shows a process stuck
 * while others go on, so the judge runs in every state, as ensemble
 * verify judges such a net, on the net's state the model's stands for:
 * a sender whose marker was taken has gone on there (pw_gone_on puts it
 * there inside the judge's d_step and back after), a marker is no
 * message (pw_count), and a process runs when a transition of its group
 * in the net could fire (pw_local_rg: a sender at its synchronous send
 * before its marker is out is the same net state as after).  So every
 * state the judge sees is a reachable state of the net, judged as
 * ensemble verify judges it, and SPIN finds nothing we would not.  The
 * converse rests on what report.c says of its judge: each kind it finds
 * in a state it finds in every later state (stuck processes stay stuck,
 * what the others can still give only shrinks, an ended process stays
 * ended), and the model's steps are net transitions or stutters.  The
 * judge's step writes hidden globals, so SPIN never takes it as the one
 * process to run: it runs only in states expanded fully.  Those include
 * a state of every cycle of the reduced graph (pan's proviso: a step
 * back onto the stack expands fully) and every state where no process
 * moves; from a state showing a kind, every state the reduced graph
 * reaches shows it too, and among them, in a last strongly connected
 * part, is one expanded fully, where the judge finds it.
 * Why not every net that may not end: pan's proviso makes independent
 * endless loops a product whatever the judge does (three processes each
 * cycling through three local states and nothing else: 27 states with
 * its reduction and without), and here each rendezvous takes three
 * steps where the global form takes one, so with two endless parts or
 * more the global form stores fewer states.  A channel without a bound
 * is left to the global form too: overflowing the model's bound must be
 * reported (channel_full) in every run that reaches it, and the test for
 * it, full(c) by the sender, is a test on the receiver's side of an xr
 * channel (pan itself reports it so), outside what its reduction assumes.
 *
 * Any other net keeps the global form: one proctype per process, whose
 * loop holds one atomic guarded step per net transition the process's
 * group fires (a synchronous send is a rendezvous: one step taking the
 * sender and the receiver on together; a collective all take together is
 * one step of process 0).  A process's place in its program is pcP; a
 * channel direction's messages are a Promela channel of bits with the
 * checker's bound; the other places (counters, request slots, the open
 * rooted collective) are variables.  The judge judges every state in one
 * d_step, as ensemble verify does for a net that may not end: that is
 * what finds a process stuck for ever while others loop (no end state
 * shows it).  It reads every global in every state, so SPIN reduces
 * nothing there; every loop is an end label, so SPIN's own end-state
 * check finds nothing more.
 *
 * The verdict, in both: the judge applies report.c's rules (lasting
 * wrongs of ended processes, the stuck set, collective mismatch, a cycle
 * of waits, stuck processes waiting in vain) on hidden variables and
 * fails the assertion !found_KIND for the kind found: pan reports
 * 'assertion violated !(found_deadlock)'.  The judge restates report.c's
 * rules, so what SPIN checks independently is the state space (every
 * interleaving, its own reductions) and the judge's Promela against
 * report.c's C; the nets net.c refuses (ordered wildcards, roots running
 * ahead) are refused here too. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "explore.h"
#include "net.h"
#include "judge.h"
#include "sem.h"
#include "xmalloc.h"

/* Messages a channel without a bound may hold in the model; one more is
 * reported as 'channel_full' (SPIN's search is then incomplete). */
#define PROMELA_OPEN_CAP	8

/* The model's verdict 'kind' is report.c's priority of a kind (0: ok),
 * so that the worst found is the one ensemble verify names; one past the
 * worst is 'channel_full'. */
#define K_UNWAITED	judge_prio(VK_UNWAITED)
#define K_UNMATCHED	judge_prio(VK_UNMATCHED_SEND)
#define K_ORPHAN	judge_prio(VK_ORPHAN_RECV)
#define K_DEADLOCK	judge_prio(VK_DEADLOCK)
#define K_COLL		judge_prio(VK_COLL_MISMATCH)

/* The Promela name of priority k (1 to K_COLL + 1): vkind_name's, with
 * '_' for '-'.  (A livelock, above K_COLL, needs a poll, which the
 * export refuses: net.c.) */
static const char *
pw_kind_name(int k, char *name, size_t size)
{
	int	v;
	char	*c;

	snprintf(name, size, "channel_full");
	for (v = 0; v < VK_COUNT; v++)
		if (judge_prio((enum vkind)v) == k && k <= K_COLL)
			snprintf(name, size, "%s", vkind_name((enum vkind)v));
	for (c = name; *c != '\0'; c++)
		if (*c == '-')
			*c = '_';
	return name;
}

struct pw {
	const struct net	*n;
	const struct mpnet	*mp;
	struct sem		 m;
	FILE			*f;
	int			 N;
	int			*chanp;		/* per directed channel: its place, or -1 */
	int			**slotp;	/* per process, per slot: its place */
	int			**ctrp;		/* per process, per counter: its place */
	int			*leftp;		/* per process: its 'left' place, or -1 */
	int			*openp;		/* per collective: its 'open' place, or -1 */
	int			 nonep;
	unsigned char		**ctl;		/* per process, per pc: a control place */
	int64_t			*cap;		/* per place: the model's capacity */
	struct buf		*rg;		/* per process: its group can fire */
	struct buf		 cg;		/* a collective all take can fire */
	/* The export of a net that always ends (pw_plan): */
	int			 local;		/* it is that export */
	int			 every;		/* ... of a net that may not end */
	struct pw_step		*st;		/* per net transition */
	unsigned char		*rdv;		/* per directed channel: a rendezvous */
	unsigned char		*mark;		/* per place: scratch */
	int64_t			*pre, *post;	/* per place: scratch */
};

/* A net transition as the export of a net that always ends writes it: the
 * step of its group's process (the receiver's, for a rendezvous) and, for
 * a rendezvous, the sender's way on after it. */
struct pw_step {
	int		 from, to;	/* its process's pcs */
	int		 sender;	/* a rendezvous's sender, or -1 */
	int		 sfrom, sto;	/* the sender's pcs */
	int		 take;		/* the channel it takes a message from, or -1 */
	struct buf	 g, e;		/* its guard and effects */
	struct buf	 sg, se;	/* the sender's */
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

/* Whether an instruction gives what a need asks (judge_gives). */
struct pw_need {
	const struct pw	*w;
	int		 q;
	int		 what;		/* enum judge_need */
	int		 arg;
};

static int
pw_gives(void *arg, const struct ins *in)
{
	const struct pw_need	*nd = arg;

	return judge_gives(nd->w->mp, nd->w->mp->pcg->procs[nd->q].portbase,
	    in, nd->what, nd->arg);
}

/* Counters that decide where a walk from pc can go (mpnet_walk): the
 * first 64, whose NEXT it can reach without entering their loop afresh. */
#define PW_ACTIVE_MOST	10

struct pw_loop {
	int	ctr;
	int	entered;	/* its LOOP: not past it */
	int	found;
};

static int
pw_loop_visit(void *arg, const struct ins *in)
{
	struct pw_loop	*l = arg;

	if (in->ctr != l->ctr || (in->op != OP_LOOP && in->op != OP_NEXT))
		return 0;
	if (in->op == OP_LOOP)
		return -1;
	return in->count >= 0;
}

/* Into act, the counters deciding a walk from pc; how many, or -1 when
 * more than PW_ACTIVE_MOST (then taken as going round). */
static int
pw_active(const struct prog *pr, int pc, int *act)
{
	struct mpnet_walk	 mw = { .seen = NULL };
	struct pw_loop		 l;
	int			 k, n = 0;

	memset(&l, 0, sizeof(l));
	for (k = 0; k < pr->nctr && k < 64; k++) {
		l.ctr = k;
		if (!mpnet_walk(pr, pc, MPNET_ANY, pw_loop_visit, &l, &mw))
			continue;
		if (n == PW_ACTIVE_MOST)
			return -1;
		act[n++] = k;
	}
	return n;
}

/* The condition that q can still give what it is asked (report.c:
 * can_give): it has not ended and a pending request takes it, or an
 * instruction it can still reach gives it. */
static void
pw_can_give(struct buf *b, const struct pw *w, int q, int what, int arg)
{
	const struct prog	*pr = w->mp->progs[q];
	struct pw_need		 nd = { w, q, what, arg };
	struct mpnet_walk	 mw = { .seen = NULL };
	int			 pc, k, act[PW_ACTIVE_MOST], na, a, i;
	uint64_t		 more;

	buf_printf(b, "(!E[%d] && (0", q);
	for (pc = 0; pc < pr->nins; pc++) {
		const struct ins	*in = &pr->ins[pc];

		if (!w->ctl[q][pc])
			continue;
		if (what == JN_RECV)
			for (k = 0; k < in->nposted; k++)
				if (slotdesc_accepts(&pr->sd[in->sd + k],
				    w->mp->dc[arg].to_lp))
					buf_printf(b, " || (pc%d == %d && v%d > 0)",
					    q, pc, w->slotp[q][k]);
		if (!mpnet_walk(pr, pc, MPNET_ANY, pw_gives, &nd, &mw))
			continue;
		/* As report.c asks it: with the loops pc is in going round
		 * only while their counters are above zero, each way the
		 * counters that matter can be. */
		if ((na = pw_active(pr, pc, act)) < 0 ||
		    mpnet_walk(pr, pc, 0, pw_gives, &nd, &mw)) {
			buf_printf(b, " || pc%d == %d", q, pc);
			continue;
		}
		for (a = 1; a < 1 << na; a++) {
			for (more = 0, i = 0; i < na; i++)
				if (a & 1 << i)
					more |= (uint64_t)1 << act[i];
			if (!mpnet_walk(pr, pc, more, pw_gives, &nd, &mw))
				continue;
			buf_printf(b, " || (pc%d == %d", q, pc);
			for (i = 0; i < na; i++)
				buf_printf(b, " && v%d %s 0", w->ctrp[q][act[i]],
				    a & 1 << i ? ">" : "==");
			buf_adds(b, ")");
		}
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
	if (!pw_logging(w) || sem_comm(&w->m, in) != 0) {
		/* (a group's collectives are never logged: net.c) */
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

	if (q == p || !mpnet_in_comm(w->mp, sem_comm(&w->m, in), q)) {
		buf_adds(b, "0");
		return;
	}
	buf_adds(b, "(!");
	pw_wrong_coll(b, w, p, in);
	buf_adds(b, " && ");
	if (pw_logged(w, in)) {
		if (sem_coll_eager(c, p))
			buf_printf(b, "v%d == 0", w->leftp[q]);
		else if (mpnet_coll_fanout(c->kind))
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
		buf_printf(b, " || (pc%d == %d && !", q, pc);
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
				pw_need(b, w, when, mp->dc[dc].to, JN_RECV, dc, ask);
			continue;
		}
		lo = d->kind == SD_RECV ? d->lp : d->lo;
		hi = d->kind == SD_RECV ? d->lp + 1 : d->hi;
		for (lp = lo; lp < hi; lp++)
			if ((dc = mp->recv_dc[base + lp]) >= 0)
				pw_need(b, w, when, mp->dc[dc].from, JN_SEND, dc, ask);
	}
	switch (in->op) {
	case OP_RECV:
	case OP_RECVANY:
		lo = in->op == OP_RECV ? in->lp : in->lo;
		hi = in->op == OP_RECV ? in->lp + 1 : in->hi;
		for (lp = lo; lp < hi; lp++)
			if ((dc = mp->recv_dc[base + lp]) >= 0)
				pw_need(b, w, "1", mp->dc[dc].from, JN_SEND, dc, ask);
		break;
	case OP_SEND:
		if ((dc = mp->send_dc[base + in->lp]) >= 0)
			pw_need(b, w, "1", mp->dc[dc].to, JN_RECV, dc, ask);
		break;
	case OP_COLL:
		for (q = 0; q < w->N; q++) {
			buf_init(&cw);
			pw_coll_waits(&cw, w, p, in, q);
			pw_need(b, w, cw.s, q, JN_COLL, in->coll, ask);
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
		buf_printf(b, " || (pc%d == %d && (0", p, pc);
		pw_needs(b, w, p, pw_ins(w, p, pc), ask);
		buf_adds(b, "))");
	}
}

/* Whether pc of process p is a synchronous send on directed channel dc. */
static int
pw_sync_send(const struct pw *w, int p, int pc, int dc)
{
	const struct mpnet	*mp = w->mp;
	const struct ins	*in = pw_ins(w, p, pc);

	return in->op == OP_SEND && mpnet_sync(in->mode, w->n->mode) &&
	    mp->send_dc[mp->pcg->procs[p].portbase + in->lp] == dc;
}

/* Directed channel dc's messages in the net, in the export of a net that
 * may not end: its Promela channel's, less a synchronous send's marker
 * (the last message, when there is one). */
static void
pw_count(struct buf *b, const struct pw *w, int dc)
{
	if (w->rdv[dc])
		buf_printf(b, "(len(c%d) - (c%d??[1] -> 1 : 0))", dc, dc);
	else
		buf_printf(b, "len(c%d)", dc);
}

/* Into rg, per process, whether a transition of its group can fire in the
 * net's state that the model's state stands for (the export of a net that
 * may not end, whose judge runs in every state): each place the
 * transition takes from holds enough. */
static void
pw_local_rg(struct pw *w)
{
	const struct net	*n = w->n;
	struct buf		 g;
	int			 i, k, dc;

	buf_init(&g);
	for (i = 0; i < n->ntrans; i++) {
		const struct net_trans	*t = &n->trans[i];

		buf_reset(&g);
		buf_adds(&g, "1");
		for (k = 0; k < t->npre; k++) {
			const struct net_place	*pl = &n->places[t->pre[k].place];

			buf_adds(&g, " && ");
			switch (pl->kind) {
			case NP_CONTROL:
				buf_printf(&g, "pc%d == %d", pl->proc, pl->pc);
				continue;
			case NP_CHAN:
				pw_count(&g, w, pl->index);
				break;
			case NP_CHAN_FREE:
				dc = pl->index;
				buf_printf(&g, "(%" PRId64 " - ", w->cap[w->chanp[dc]]);
				pw_count(&g, w, dc);
				buf_adds(&g, ")");
				break;
			default:
				buf_printf(&g, "v%d", t->pre[k].place);
				break;
			}
			buf_printf(&g, " >= %" PRId64, t->pre[k].w);
		}
		buf_printf(&w->rg[t->proc], " || (%s)", g.s);
	}
	buf_free(&g);
}

static int	pw_offers(const struct pw *, int, int, int *);
static int	pw_first_out(const struct pw *, int, int, int);

/* Whether p sends on a channel with a rendezvous (it may wait for an
 * answer). */
static int
pw_rdv_sender(const struct pw *w, int p)
{
	int	i;

	for (i = 0; i < w->n->ntrans; i++)
		if (w->st[i].sender == p)
			return 1;
	return 0;
}

/* The judge of the export of a net that may not end, first (save 1): each
 * sender whose marker its receiver took, and which has not taken the
 * answer yet, is put where the net has it, gone on as its counters say;
 * its variables are kept in hidden copies first.  Last (save 0): they are
 * put back, so that the judge changes nothing. */
static void
pw_gone_on(struct pw *w, int save)
{
	const struct net	*n = w->n;
	FILE			*f = w->f;
	int			 p, i, pc, dc;

	for (p = 0; p < w->N; p++) {
		if (!pw_rdv_sender(w, p))
			continue;
		if (save)
			fprintf(f, "\t\thpc%d = pc%d;\n", p, p);
		else
			fprintf(f, "\t\tpc%d = hpc%d;\n", p, p);
		for (i = 0; i < n->nplaces; i++) {
			const struct net_place	*pl = &n->places[i];

			if (pl->proc != p || (pl->kind != NP_CTR &&
			    pl->kind != NP_CTR_FREE && pl->kind != NP_SLOT &&
			    pl->kind != NP_SLOT_FREE))
				continue;
			if (save)
				fprintf(f, "\t\thv%d = v%d;\n", i, i);
			else
				fprintf(f, "\t\tv%d = hv%d;\n", i, i);
		}
		if (!save)
			continue;
		fputs("\t\tif\n", f);
		for (pc = 0; pc < w->mp->progs[p]->nins; pc++) {
			if (!w->ctl[p][pc] || !pw_offers(w, p, pc, &dc))
				continue;
			for (i = 0; i < n->ntrans; i++) {
				const struct pw_step	*st = &w->st[i];

				if (!pw_first_out(w, i, p, pc))
					continue;
				fprintf(f, "\t\t:: len(a%d) > 0 && pc%d == %d%s%s -> %s\n",
				    dc, p, pc, *st->sg.s != '\0' ? " && " : "",
				    st->sg.s, st->se.s);
			}
		}
		fputs("\t\t:: else -> skip\n\t\tfi;\n", f);
	}
}

/* The judge's "messages wait for an ended process" on directed channel dc
 * (the export of a net that always ends): a waiting sender's marker is no
 * message there. */
static void
pw_waiting(struct buf *b, const struct pw *w, int dc)
{
	const struct dchan	*d = &w->mp->dc[dc];
	int			 pc;

	if (w->every) {
		buf_printf(b, "E[%d] && ", d->to);
		pw_count(b, w, dc);
		buf_adds(b, " > 0");
		return;
	}
	buf_printf(b, "E[%d] && len(c%d) > (0", d->to, dc);
	for (pc = 0; w->rdv[dc] && pc < w->mp->progs[d->from]->nins; pc++)
		if (w->ctl[d->from][pc] && pw_sync_send(w, d->from, pc, dc))
			buf_printf(b, " || pc%d == %d", d->from, pc);
	buf_adds(b, ")");
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
	char			 kn[32];
	int			 p, q, pc, pc2, k, dc, N = w->N;

	buf_init(&b);
	fprintf(f, "\n/* The judge's scratch, out of the state vector: per process\n"
	    " * ended (and none of its requests can match), runs (a step of its\n"
	    " * group can fire), blocked, stuck, in the\n"
	    " * cycle search. */\nhidden byte E[%d], R[%d], B[%d], S[%d], A[%d];\n"
	    "hidden byte kind, nroots, sends, changed, rooted, idle;\n", N, N, N, N, N);
	for (p = 0; w->every && p < N; p++) {
		if (!pw_rdv_sender(w, p))
			continue;
		fprintf(f, "hidden int hpc%d", p);
		for (k = 0; k < w->n->nplaces; k++)
			if (w->n->places[k].proc == p &&
			    (w->n->places[k].kind == NP_CTR ||
			    w->n->places[k].kind == NP_CTR_FREE ||
			    w->n->places[k].kind == NP_SLOT ||
			    w->n->places[k].kind == NP_SLOT_FREE))
				fprintf(f, ", hv%d", k);
		fputs(";\n", f);
	}
	if (w->every) {
		fputs("\n/* The judge: in every state, the verdict of ensemble verify\n"
		    " * on the net's state it stands for (a sender whose receiver\n"
		    " * took its marker has gone on there). */\n"
		    "active proctype judge()\n{\nend:\n\tdo\n\t:: d_step {\n", f);
		pw_gone_on(w, 1);
		fputs("\t\tkind = 0; nroots = 0; sends = 0; idle = 0;\n", f);
	} else if (w->local)
		fputs("\n/* The judge: in every end state (no process can move:\n"
		    " * timeout), the verdict of ensemble verify. */\n"
		    "active proctype judge()\n{\n\ttimeout;\n\td_step {\n"
		    "\t\tkind = 0; nroots = 0; sends = 0; idle = 0;\n", f);
	else
		fputs("\n/* The judge: in every state, the verdict of ensemble "
		    "verify. */\nactive proctype judge()\n{\nend:\n\tdo\n"
		    "\t:: d_step {\n"
		    "\t\tkind = 0; nroots = 0; sends = 0; idle = 0;\n", f);
	for (p = 0; p < N; p++) {
		fprintf(f, "\t\tE[%d] = (0", p);
		for (pc = 0; pc < mp->progs[p]->nins; pc++)
			if (w->ctl[p][pc] && pw_ins(w, p, pc)->op == OP_END)
				fprintf(f, " || pc%d == %d", p, pc);
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
			buf_printf(&b, "pc%d == %d", p, pc);
			pw_raise(f, b.s, K_UNWAITED);
		}
	for (dc = 0; dc < mp->ndc; dc++) {
		if (w->chanp[dc] < 0)
			continue;
		buf_reset(&b);
		if (w->local)
			pw_waiting(&b, w, dc);
		else
			buf_printf(&b, "E[%d] && len(q%d) > 0", mp->dc[dc].to,
			    w->chanp[dc]);
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
			buf_printf(&b, "S[%d] && pc%d == %d && (", p, p, pc);
			pw_wrong_coll(&b, w, p, in);
			for (q = 0; q < N; q++) {
				/* (the members of its communicator only) */
				if (q == p || !mpnet_in_comm(mp, sem_comm(&w->m, in), q))
					continue;
				buf_printf(&b, " || (E[%d] && !", q);
				pw_left_it(&b, w, p, q, in);
				buf_adds(&b, ")");
				/* (a member it waits for that never comes to it,
				 * from where it is: judge.c, coll_never) */
				if (!pw_logged(w, in) || !sem_coll_eager(
				    &mp->colls[in->coll], p)) {
					buf_adds(&b, " || (");
					pw_coll_waits(&b, w, p, in, q);
					buf_printf(&b, " && !E[%d] && !", q);
					pw_can_give(&b, w, q, JN_COLL, in->coll);
					buf_adds(&b, ")");
				}
				for (pc2 = 0; q > p && pc2 < mp->progs[q]->nins; pc2++) {
					const struct ins	*o = pw_ins(w, q, pc2);

					if (!w->ctl[q][pc2] || o->op != OP_COLL ||
					    o->coll == in->coll ||
					    sem_comm(&w->m, o) != sem_comm(&w->m, in))
						continue;
					buf_printf(&b, " || (S[%d] && pc%d == %d",
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
				buf_printf(&b, " || pc%d == %d", p, pc);
			else if (in->op == OP_WAITALL) {
				buf_printf(&b, " || (pc%d == %d", p, pc);
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
	if (w->every)
		pw_gone_on(w, 0);
	fputs("\t\t/* the verdict, an assertion per kind */\n", f);
	for (k = 1; k <= K_COLL; k++)
		fprintf(f, "\t\tfound_%s = kind == %d;\n\t\tassert(!found_%s);\n",
		    pw_kind_name(k, kn, sizeof(kn)), k, kn);
	if (w->local && !w->every)
		fputs("\t\tkind = 0\n\t}\n}\n", f);
	else
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
			buf_printf(&g, " && pc%d == %d", pl->proc, pl->pc);
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
				buf_printf(&e, "; pc%d = %d", pl->proc, pl->pc);
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
	if (t->kind == T_COLL && sem_comm(&w->m, pw_ins(w, t->proc, t->pc)) > 0) {
		/* A group's: its members run (judge.c: sem_coll_runs). */
		const int	*mem;
		int		 j, nm = mpnet_comm(w->mp, sem_comm(&w->m,
				    pw_ins(w, t->proc, t->pc)), &mem);

		for (j = 0; j < nm; j++)
			if (mem[j] != t->proc)
				buf_printf(&w->rg[mem[j]], " || (%s)", g.s);
	} else if (t->kind == T_COLL)
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

/* ---- the export of a net that always ends ---- */

/* Before one more condition of a guard, or statement of effects: sep,
 * unless it is the first. */
static void
pw_sep(struct buf *b, const char *sep)
{
	if (b->len > 0)
		buf_adds(b, sep);
}

/* A place of one process taken (pre) and put (post) by a step, into its
 * guard g and effects e. */
static void
pw_own(struct buf *g, struct buf *e, int p, int64_t pre, int64_t post)
{
	if (pre > 0) {
		pw_sep(g, " && ");
		buf_printf(g, "v%d >= %" PRId64, p, pre);
	}
	if (post != pre) {
		pw_sep(e, "; ");
		buf_printf(e, "v%d = v%d %c %" PRId64, p, p, post < pre ? '-' : '+',
		    post < pre ? pre - post : post - pre);
	}
}

/* Split t into st: its process's pcs, guard and effects, and a
 * rendezvous's sender.  0, or -1 when t is not one the export of a net
 * that always ends can write: a step that reads or moves another process
 * other than a synchronous sender on the channel it takes from, or uses a
 * channel other than by putting one message on a channel its process
 * sends on or taking one from a channel it receives on. */
static int
pw_split(struct pw *w, const struct net_trans *t, struct pw_step *st)
{
	const struct net	*n = w->n;
	const struct mpnet	*mp = w->mp;
	int			*touch, nt = 0, i, k, pass, p, rc = -1;
	int64_t			 a, b;

	st->from = st->to = st->sfrom = st->sto = -1;
	st->sender = st->take = -1;
	touch = xcalloc(t->npre + t->npost + 1, sizeof(int));
	for (i = 0; i < t->npre + t->npost; i++) {
		const struct net_arc	*arc = i < t->npre ? &t->pre[i] :
		    &t->post[i - t->npre];

		if (!w->mark[arc->place]) {
			w->mark[arc->place] = 1;
			touch[nt++] = arc->place;
		}
		if (i < t->npre)
			w->pre[arc->place] += arc->w;
		else
			w->post[arc->place] += arc->w;
	}
	/* Control first: it says who the sender is. */
	for (pass = 0; pass < 2; pass++)
		for (k = 0; k < nt; k++) {
			const struct net_place	*pl = &n->places[touch[k]];
			const struct dchan	*d;

			p = touch[k];
			a = w->pre[p];
			b = w->post[p];
			if ((pl->kind == NP_CONTROL) != (pass == 0))
				continue;
			switch (pl->kind) {
			case NP_CONTROL:
				if (a > 1 || b > 1)
					goto out;
				if (pl->proc == t->proc) {
					if ((a == 1 && st->from >= 0) ||
					    (b == 1 && st->to >= 0))
						goto out;
					if (a == 1)
						st->from = pl->pc;
					if (b == 1)
						st->to = pl->pc;
					break;
				}
				if (st->sender >= 0 && st->sender != pl->proc)
					goto out;
				st->sender = pl->proc;
				if (a == 1 && b == 0 && st->sfrom < 0)
					st->sfrom = pl->pc;
				else if (a == 0 && b == 1 && st->sto < 0)
					st->sto = pl->pc;
				else
					goto out;
				break;
			case NP_CTR:
			case NP_CTR_FREE:
			case NP_SLOT:
			case NP_SLOT_FREE:
				if (pl->proc == t->proc)
					pw_own(&st->g, &st->e, p, a, b);
				else if (pl->proc == st->sender)
					pw_own(&st->sg, &st->se, p, a, b);
				else
					goto out;
				break;
			case NP_CHAN:
				d = &mp->dc[pl->index];
				if (a == 0 && b == 1 && d->from == t->proc) {
					pw_sep(&st->g, " && ");
					buf_printf(&st->g, "nfull(c%d)", pl->index);
					pw_sep(&st->e, "; ");
					buf_printf(&st->e, "c%d!0", pl->index);
				} else if (a == 1 && b == 0 && d->to == t->proc &&
				    st->take < 0)
					st->take = pl->index;
				else
					goto out;
				break;
			case NP_CHAN_FREE:
				/* What the Promela channel's size says: room for a
				 * message put, room made by one taken; and empty for a
				 * rendezvous, which its marker message says. */
				d = &mp->dc[pl->index];
				if (!((a == 1 && b == 0 && d->from == t->proc) ||
				    (a == 0 && b == 1 && d->to == t->proc) ||
				    (a == b && st->sender >= 0 && t->dc == pl->index)))
					goto out;
				break;
			default:
				goto out;
			}
		}
	if (st->from < 0 || st->to < 0)
		goto out;
	if (st->sender >= 0) {
		if (st->sfrom < 0 || st->sto < 0 || st->take >= 0 || t->dc < 0 ||
		    st->sender == t->proc || mp->dc[t->dc].from != st->sender ||
		    mp->dc[t->dc].to != t->proc ||
		    !pw_sync_send(w, st->sender, st->sfrom, t->dc))
			goto out;
		st->take = t->dc;
		pw_sep(&st->se, "; ");
		buf_printf(&st->se, "pc%d = %d", st->sender, st->sto);
	}
	if (st->to != st->from) {
		pw_sep(&st->e, "; ");
		buf_printf(&st->e, "pc%d = %d", t->proc, st->to);
	}
	rc = 0;
out:
	for (k = 0; k < nt; k++) {
		w->mark[touch[k]] = 0;
		w->pre[touch[k]] = w->post[touch[k]] = 0;
	}
	free(touch);
	return rc;
}

/* Whether p resting at pc may wait there for a rendezvous it offered. */
static int
pw_offers(const struct pw *w, int p, int pc, int *dc)
{
	int	i;

	for (i = 0; i < w->n->ntrans; i++)
		if (w->st[i].sender == p && w->st[i].sfrom == pc) {
			*dc = w->n->trans[i].dc;
			return 1;
		}
	return 0;
}

/* How many of the net's parts (processes joined by channels) have a
 * process in an endless loop. */
static int
pw_endless_parts(struct pw *w)
{
	struct model	 md;
	int		*comp, *seen, p, k = 0;

	sem_model(&w->m, &md);
	comp = explore_components(&md);
	seen = xcalloc((size_t)w->N + 1, sizeof(*seen));
	for (p = 0; p < w->N; p++)
		if (w->mp->progs[p]->has_forever && !seen[comp[p]]) {
			seen[comp[p]] = 1;
			k++;
		}
	free(seen);
	free(comp);
	return k;
}

/* Split every transition (w->st, w->rdv).  0: the net has the local
 * export; -1: it does not (more than one part of it loops for ever, a
 * collective, a synchronous request, a channel without a bound, a step
 * that moves a process waiting for its rendezvous). */
static int
pw_plan(struct pw *w)
{
	const struct net	*n = w->n;
	int			 i, p, dc;

	if (!w->mp->finite && pw_endless_parts(w) > 1)
		return -1;
	for (i = 0; i < n->nplaces; i++)
		if (n->places[i].kind == NP_CHAN && n->places[i].cap < 0)
			return -1;
	w->st = xcalloc(n->ntrans + 1, sizeof(struct pw_step));
	w->rdv = xcalloc(w->mp->ndc + 1, 1);
	w->mark = xcalloc(n->nplaces + 1, 1);
	w->pre = xcalloc(n->nplaces + 1, sizeof(int64_t));
	w->post = xcalloc(n->nplaces + 1, sizeof(int64_t));
	for (i = 0; i < n->ntrans; i++) {
		buf_init(&w->st[i].g);
		buf_init(&w->st[i].e);
		buf_init(&w->st[i].sg);
		buf_init(&w->st[i].se);
		buf_adds(&w->st[i].g, "");
		buf_adds(&w->st[i].e, "");
		buf_adds(&w->st[i].sg, "");
		buf_adds(&w->st[i].se, "");
	}
	for (i = 0; i < n->ntrans; i++) {
		if (pw_split(w, &n->trans[i], &w->st[i]) != 0)
			return -1;
		if (w->st[i].sender >= 0)
			w->rdv[n->trans[i].dc] = 1;
	}
	for (dc = 0; dc < w->mp->ndc; dc++)
		if (w->rdv[dc] && w->chanp[dc] >= 0 && w->cap[w->chanp[dc]] >= 255)
			return -1;	/* no room for the marker */
	/* A sender waiting for its rendezvous goes on only by it. */
	for (i = 0; i < n->ntrans; i++) {
		p = n->trans[i].proc;
		if (w->st[i].to != w->st[i].from &&
		    pw_offers(w, p, w->st[i].from, &dc))
			return -1;
	}
	return 0;
}

/* The steps' scratch, freed. */
static void
pw_unplan(struct pw *w)
{
	int	i;

	if (w->st != NULL)
		for (i = 0; i < w->n->ntrans; i++) {
			buf_free(&w->st[i].g);
			buf_free(&w->st[i].e);
			buf_free(&w->st[i].sg);
			buf_free(&w->st[i].se);
		}
	free(w->st);
	free(w->rdv);
	free(w->mark);
	free(w->pre);
	free(w->post);
	w->st = NULL;
	w->rdv = w->mark = NULL;
	w->pre = w->post = NULL;
}

/* One option of a label: a step's guard, effects and label to go to, and
 * the ways it takes its channel's message (1 a buffered one, 2 a
 * rendezvous's marker). */
struct pw_opt {
	const char	*g, *e;
	char		*to;
	int		 take;
	int		 ways;
};

/* Add step st going to label 'to' to the options, once. */
static void
pw_opt_add(struct pw_opt **o, int *no, const struct pw_step *st, const char *to)
{
	int	i;

	for (i = 0; i < *no; i++)
		if ((*o)[i].take == st->take && strcmp((*o)[i].g, st->g.s) == 0 &&
		    strcmp((*o)[i].e, st->e.s) == 0 && strcmp((*o)[i].to, to) == 0)
			break;
	if (i == *no) {
		*o = xreallocarray(*o, *no + 1, sizeof(**o));
		(*o)[i].g = st->g.s;
		(*o)[i].e = st->e.s;
		(*o)[i].to = xstrdup(to);
		(*o)[i].take = st->take;
		(*o)[i].ways = 0;
		(*no)++;
	}
	(*o)[i].ways |= st->sender >= 0 ? 2 : 1;
}

/* One step: "atomic { guard -> effects }; goto label", the guard's first
 * condition and the effects' first statement those of its channel, if it
 * has one.  The goto is outside: SPIN takes a jump out of an atomic
 * sequence for one that may read globals, and would not reduce. */
static void
pw_step_write(FILE *f, const char *ch, const char *g, const char *take,
    const char *e, const char *to)
{
	int	atomic = *take != '\0' || *e != '\0';

	if (atomic)
		fputs("atomic { ", f);
	fputs(ch, f);
	if (*ch != '\0' && *g != '\0')
		fputs(" && ", f);
	fprintf(f, "%s -> ", *ch == '\0' && *g == '\0' ? "true" : g);
	if (atomic)
		fprintf(f, "%s%s%s }; ", take, *take != '\0' && *e != '\0' ?
		    "; " : "", e);
	fprintf(f, "goto %s", to);
}

/* Write the options of a label and free them. */
static void
pw_opt_write(struct pw *w, struct pw_opt *o, int no)
{
	char	 ch[32], take[64];
	int	 i, dc;

	for (i = 0; i < no; i++) {
		ch[0] = take[0] = '\0';
		if ((dc = o[i].take) >= 0) {
			snprintf(ch, sizeof(ch), "nempty(c%d)", dc);
			if (o[i].ways == 3)
				snprintf(take, sizeof(take), "if :: c%d?0 :: c%d?1; "
				    "a%d!0 fi", dc, dc, dc);
			else if (o[i].ways == 2)
				snprintf(take, sizeof(take), "c%d?1; a%d!0", dc, dc);
			else
				snprintf(take, sizeof(take), "c%d?0", dc);
		}
		fputs("\t:: ", w->f);
		pw_step_write(w->f, ch, o[i].g, take, o[i].e, o[i].to);
		fputs("\n", w->f);
		free(o[i].to);
	}
	free(o);
}

/* Directed channel dc's name, in a comment. */
static void
pw_dc_comment(const struct pw *w, int dc)
{
	const struct dchan	*d = &w->mp->dc[dc];
	char			 a[PCG_NAME_MAX], b[PCG_NAME_MAX];

	if (w->chanp[dc] >= 0) {
		pw_comment(w->f, w->n->places[w->chanp[dc]].name);
		return;
	}
	pw_comment(w->f, pcg_proc_name(w->mp->pcg, d->from, a, sizeof(a)));
	fputc('.', w->f);
	pw_comment(w->f, mpnet_port_name(w->mp, d->from, d->from_lp, b, sizeof(b)));
	fputs("->", w->f);
	pw_comment(w->f, pcg_proc_name(w->mp->pcg, d->to, a, sizeof(a)));
	fputc('.', w->f);
	pw_comment(w->f, mpnet_port_name(w->mp, d->to, d->to_lp, b, sizeof(b)));
}

/* Process p's claims: the channels it alone sends on and receives from. */
static void
pw_claims(const struct pw *w, int p)
{
	const struct mpnet	*mp = w->mp;
	int			 dc;

	for (dc = 0; dc < mp->ndc; dc++) {
		if (w->chanp[dc] < 0 && !w->rdv[dc])
			continue;
		if (mp->dc[dc].from == p) {
			fprintf(w->f, "\txs c%d;\n", dc);
			if (w->rdv[dc])
				fprintf(w->f, "\txr a%d;\n", dc);
		}
		if (mp->dc[dc].to == p) {
			fprintf(w->f, "\txr c%d;\n", dc);
			if (w->rdv[dc])
				fprintf(w->f, "\txs a%d;\n", dc);
		}
	}
}

/* Whether step i is one of process p's from pc, the first of those that
 * say the same of p's way on (where it goes, on which guard and effect):
 * each way on is written once. */
static int
pw_first_out(const struct pw *w, int i, int p, int pc)
{
	const struct pw_step	*a = &w->st[i], *b;
	int			 j;

	if (a->sender != p || a->sfrom != pc)
		return 0;
	for (j = 0; j < i; j++) {
		b = &w->st[j];
		if (b->sender == p && b->sfrom == pc && b->sto == a->sto &&
		    strcmp(b->sg.s, a->sg.s) == 0 && strcmp(b->se.s, a->se.s) == 0)
			return 0;
	}
	return 1;
}

/* The label where p, at a synchronous send at pc on dc, its marker sent,
 * waits for the receiver's answer, then goes on as its counters say; its
 * other steps from pc (requests taking messages) come back here. */
static void
pw_wait_write(struct pw *w, int p, int pc, int dc, struct pw_opt *o, int no)
{
	const struct net	*n = w->n;
	char			 to[32], ch[32], take[32];
	int			 i;

	fprintf(w->f, "end%dw:\n\tif\n", pc);
	snprintf(ch, sizeof(ch), "nempty(a%d)", dc);
	snprintf(take, sizeof(take), "a%d?_", dc);
	for (i = 0; i < n->ntrans; i++) {
		const struct pw_step	*st = &w->st[i];

		if (!pw_first_out(w, i, p, pc))
			continue;
		snprintf(to, sizeof(to), "end%d", st->sto);
		fputs("\t:: ", w->f);
		pw_step_write(w->f, ch, st->sg.s, take, st->se.s, to);
		fputs("\n", w->f);
	}
	pw_opt_write(w, o, no);
	fputs("\tfi;\n", w->f);
}

/* Process p as labels, one per pc it can rest at (its first pc first),
 * each a choice among its steps from there; a synchronous send sends its
 * marker first, then waits at a label of its own (pw_wait_write). */
static void
pw_local_proc(struct pw *w, int p, int first)
{
	const struct net	*n = w->n;
	const struct prog	*pr = w->mp->progs[p];
	struct pw_opt		*o, *ow;
	char			 to[32];
	int			 k, pc, i, no, nw, dc, offers;

	for (k = -1; k < pr->nins; k++) {
		pc = k < 0 ? first : k;
		if (!w->ctl[p][pc] || (k >= 0 && pc == first))
			continue;
		offers = pw_offers(w, p, pc, &dc);
		o = ow = NULL;
		no = nw = 0;
		for (i = 0; i < n->ntrans; i++) {
			const struct pw_step	*st = &w->st[i];

			if (n->trans[i].proc != p || st->from != pc)
				continue;
			snprintf(to, sizeof(to), "end%d", st->to);
			pw_opt_add(&o, &no, st, to);
			if (offers) {
				snprintf(to, sizeof(to), "end%dw", st->to);
				pw_opt_add(&ow, &nw, st, to);
			}
		}
		fprintf(w->f, "end%d:\n", pc);
		if (no == 0 && !offers) {
			fputs("\tfalse;\n", w->f);
			continue;
		}
		fputs("\tif\n", w->f);
		if (offers)
			fprintf(w->f, "\t:: c%d!1 -> goto end%dw\n", dc, pc);
		pw_opt_write(w, o, no);
		fputs("\tfi;\n", w->f);
		if (offers)
			pw_wait_write(w, p, pc, dc, ow, nw);
	}
}

int
promela_write(const struct net *n, FILE *f, char **cause)
{
	const struct mpnet	*mp = n->mp;
	const char		*app = mp->pcg->name != NULL ? mp->pcg->name : "net";
	struct pw		 w;
	char			 pn[PCG_NAME_MAX], kn[32];
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
	w.ctrp = xcalloc(w.N + 1, sizeof(int *));
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
		w.ctrp[p] = xcalloc(mp->progs[p]->nctr + 1, sizeof(int));
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
		case NP_CTR:
			w.ctrp[pl->proc][pl->index] = i;
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

	w.local = pw_plan(&w) == 0;
	if (!w.local)
		pw_unplan(&w);
	w.every = w.local && !mp->finite;
	if (w.every)
		pw_local_rg(&w);
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
	    " *\n", f);
	if (w.every)
		fputs(" * This net may run for ever, and only one of its parts (processes\n"
		    " * joined by channels) loops for ever.  Each process is a proctype\n"
		    " * whose labels are the places it can rest at, each a choice of\n"
		    " * atomic steps, one per transition of its group in the net, that\n"
		    " * read and write only the process's own variables (pcP: where\n"
		    " * process P is, vK: its loop counters and requests, declared\n"
		    " * 'local') and the channels it alone sends on (xs) or receives\n"
		    " * from (xr), so SPIN's partial-order reduction may run one process\n"
		    " * alone.  cD holds the messages of a channel direction; a\n"
		    " * synchronous send puts a marker (1) there and waits for the\n"
		    " * receiver's answer on aD.  Every label is an end label.  The\n"
		    " * proctype judge judges every state (a process stuck while others\n"
		    " * go on for ever is a violation, though that state is no end\n"
		    " * state), with the rules of ensemble(1) VERIFICATION, in one d_step\n"
		    " * on hidden variables that changes nothing: it judges the net's\n"
		    " * state this state stands for (a sender whose marker was taken has\n"
		    " * gone on).  What it finds stays true in every later state, so it\n"
		    " * need judge only the states SPIN expands fully, which is where it\n"
		    " * runs (its step writes hidden globals); XUSAFE keeps pan from\n"
		    " * taking its reads for an xr or xs breach.\n"
		    " */\n\n"
		    "c_decl {\n\\#define XUSAFE\n}\n\n", f);
	else if (w.local)
		fputs(" * Every run of this net ends.  Each process is a proctype whose\n"
		    " * labels are the places it can rest at, each a choice of atomic\n"
		    " * steps, one per transition of its group in the net, that read and\n"
		    " * write only the process's own variables (pcP: where process P is,\n"
		    " * vK: its loop counters and requests, declared 'local') and the\n"
		    " * channels it alone sends on (xs) or receives from (xr), so SPIN's\n"
		    " * partial-order reduction may run one process alone.  cD holds\n"
		    " * the messages of a channel direction; a synchronous send puts a\n"
		    " * marker (1) there and waits for the receiver's answer on aD.\n"
		    " * Every label is an end label.  The proctype judge judges the end\n"
		    " * states (timeout: no process can move), where ensemble verify\n"
		    " * judges a net whose runs all end, with the rules of ensemble(1)\n"
		    " * VERIFICATION, in one d_step on hidden variables.  It reads every\n"
		    " * process's variables and channels; it moves only when no other\n"
		    " * process can, so no step of theirs depends on it, and XUSAFE\n"
		    " * keeps pan from taking its reads for an xr or xs breach.\n"
		    " */\n\n"
		    "c_decl {\n\\#define XUSAFE\n}\n\n", f);
	else
		fputs(" * Each process is a proctype whose loop holds one atomic step per\n"
		    " * transition of its group in the net: a synchronous send is one step\n"
		    " * of sender and receiver together (a rendezvous), a collective all\n"
		    " * take together one step of the first process.  pcP is where\n"
		    " * process P is (an instruction of its program); qK holds the\n"
		    " * messages of a channel direction, vK is any other place of the net.\n"
		    " * Every loop is an end label: a process may rest anywhere, and no\n"
		    " * end state is invalid by itself.  The proctype judge judges every\n"
		    " * state, as ensemble verify does, with the rules of ensemble(1)\n"
		    " * VERIFICATION (a process stuck while others go on for ever is a\n"
		    " * violation, though that state is no end state), in one d_step on\n"
		    " * hidden variables that changes nothing unless an assertion fails.\n"
		    " * This judge reads every process's variables, which every step\n"
		    " * writes, so SPIN's partial-order reduction removes nothing here.\n"
		    " * (The form whose steps SPIN can reduce is written for a net whose\n"
		    " * runs all end or that has one part looping for ever, bounded\n"
		    " * channels and no collective; in a net with more parts looping\n"
		    " * for ever SPIN's cycle proviso multiplies their loops anyway.)\n"
		    " */\n\n", f);
	fputs("/* Set by the judge for pan's message: assertion violated\n"
	    " * !(found_deadlock) */\nhidden byte ", f);
	for (k = 1; k <= K_COLL + 1; k++)
		fprintf(f, "%sfound_%s", k > 1 ? ", " : "",
		    pw_kind_name(k, kn, sizeof(kn)));
	fputs(";\n\n", f);
	for (p = 0; p < w.N; p++) {
		fprintf(f, "%s%s pc%d = %d;\t/* ", w.local ? "local " : "",
		    most > 255 ? "short" : "byte", p, init[p]);
		pw_comment(f, pcg_proc_name(mp->pcg, p, pn, sizeof(pn)));
		fputs(" */\n", f);
	}
	for (i = 0; i < n->nplaces; i++) {
		const struct net_place	*pl = &n->places[i];

		if (pl->kind == NP_CONTROL ||
		    (w.local && (pl->kind == NP_CHAN || pl->kind == NP_CHAN_FREE)))
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
		fprintf(f, "%s%s v%d = %" PRId64 ";\t/* ", w.local ? "local " : "",
		    pw_type(pl->cap), i, pl->init);
		pw_comment(f, pl->name);
		fputs(" */\n", f);
	}
	for (i = 0; w.local && i < mp->ndc; i++) {
		if (w.chanp[i] < 0 && !w.rdv[i])
			continue;
		fprintf(f, "chan c%d = [%" PRId64 "] of { bit };\t/* ", i,
		    (w.chanp[i] >= 0 ? w.cap[w.chanp[i]] : 0) + w.rdv[i]);
		pw_dc_comment(&w, i);
		if (w.chanp[i] < 0)
			fputs(": its synchronous sends' markers */\n", f);
		else
			fprintf(f, ": the checker's bound, the most messages its "
			    "sender sends in any run%s */\n", w.rdv[i] ?
			    ", and a synchronous send's marker" : "");
		if (w.rdv[i])
			fprintf(f, "chan a%d = [1] of { bit };\t/* the receiver's "
			    "answer to the marker */\n", i);
	}
	for (p = 0; p < w.N; p++) {
		fprintf(f, "\n/* %s */\nactive proctype p%d()\n{\n",
		    pcg_proc_name(mp->pcg, p, pn, sizeof(pn)), p);
		if (w.local) {
			pw_claims(&w, p);
			pw_local_proc(&w, p, init[p]);
			fputs("}\n", f);
			continue;
		}
		fputs("end:\n\tdo\n", f);
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
		free(w.ctrp[p]);
		free(w.ctl[p]);
	}
	for (p = 0; p < w.N; p++)
		buf_free(&w.rg[p]);
	free(w.rg);
	buf_free(&w.cg);
	free(w.slotp);
	free(w.ctrp);
	free(w.ctl);
	free(w.chanp);
	free(w.openp);
	free(w.leftp);
	free(w.cap);
	free(init);
	pw_unplan(&w);
	sem_fini(&w.m);
	return rc;
}
