/* verify.c -- the verification of an MP net: which send modes are
 * checked and what their results come to (the verdict, the exit status, a
 * buffering hazard), and the check of one mode: pick the explorer (one
 * run for a determinate network, breadth first with stubborn sets and a
 * dive when that is long otherwise, every interleaving with --exact), widen channel counts and the collective log
 * when a run outgrows them, and turn what it found into a result. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "compile.h"
#include "explore.h"
#include "judge.h"
#include "report.h"
#include "xmalloc.h"
#include "xopts.h"

/* Channel count widths: start small (most channels hold a message or
 * two), double on overflow up to this. */
#define CBITS_FIRST	2
#define CBITS_MOST	16

/* Why a search stopped at a channel or queue without room. */
static char *
overflow_text(const struct mpnet *net, const struct sem *m)
{
	char			 pn[PCG_NAME_MAX], pa[PCG_NAME_MAX + 32], pt[PCG_NAME_MAX];
	const struct dchan	*d = &net->dc[m->overflow];
	char			*t;

	pcg_proc_name(net->pcg, d->from, pn, sizeof(pn));
	if (m->overflow_queue)
		xasprintf(&t, "channels from %s to %s hold more than %llu "
		    "messages: sends outrun receives without bound", pn,
		    pcg_proc_name(net->pcg, d->to, pt, sizeof(pt)),
		    (unsigned long long)m->overflow_max);
	else
		xasprintf(&t, "channel from %s.%s holds more than %llu messages: "
		    "sends outrun receives without bound", pn,
		    mpnet_port_name(net, d->from, d->from_lp, pa, sizeof(pa)),
		    (unsigned long long)m->overflow_max);
	return t;
}

static int
judge(void *arg, const uint64_t *s, const unsigned char *ps)
{
	return judge_state(arg, s, ps);
}

/* The states the breadth-first search explores before a dive, the dive
 * at most, and the search of every interleaving for a shallow violation
 * at most; that one fires DIVE_TRANS transitions at most too (a state of
 * N processes has N successors or more: 16,384 states of 2,000 pairs
 * were 30 s of it, where 65,536 transitions are the states of a net of
 * a few processes up to depth 6 or so, as the states were). */
#define DIVE_STATES	(1u << 14)
#define DIVE_TRANS	(1u << 16)

/* What a search finds besides x's: the worse of the two violations in
 * x (its judgement, state and counterexample; of two as bad, the shorter
 * counterexample), x's status, states and limit kept; a violation found
 * where x stopped at a limit makes x one found before it. */
static void
merge(struct xresult *x, struct xresult *y)
{
	if (y->bad < x->bad || y->bad == 0 || (y->bad == x->bad &&
	    y->ntrace >= x->ntrace))
		return;
	x->bad = y->bad;
	free(x->final);
	free(x->trace);
	x->final = y->final;
	x->trace = y->trace;
	x->ntrace = y->ntrace;
	y->final = NULL;
	y->trace = NULL;
	if (x->status != X_OVERFLOW)
		x->status = X_VIOLATION;
}

/* Every interleaving, breadth first, through at most 'most' states (and
 * the user's limits), for a violation a few actions from the start: the
 * first of the worst, or the worst found, in y.  A count that runs out of
 * room stops it like a limit: what it found before stands, and the net's
 * record of the overflow is left as the reduced search made it. */
static void
shallow(struct sem *sm, struct model *m, const struct xopts *xo, uint64_t most,
    struct xresult *y)
{
	struct xopts	o = *xo;
	int		ov = sm->overflow, ovq = sm->overflow_queue;
	int		ovc = sm->overflow_coll;
	uint64_t	ovm = sm->overflow_max;

	o.reduce = 0;
	o.full = 0;
	o.progress = 0;
	o.max_states = xo->max_states > 0 && xo->max_states < most ?
	    xo->max_states : most;
	o.max_trans = DIVE_TRANS;
	explore_bfs(m, &o, y);
	sm->overflow = ov;
	sm->overflow_queue = ovq;
	sm->overflow_coll = ovc;
	sm->overflow_max = ovm;
}

/* The reduced search, breadth first, with a shallow search and a dive
 * when that is long otherwise: the breadth-first search first explores
 * up to DIVE_STATES states, which decides most nets (with the shortest
 * counterexample).  When it does not (or a limit or a count without room
 * stopped it), every interleaving is searched breadth first through
 * DIVE_STATES states or DIVE_TRANS transitions (shallow): a violation a
 * few actions from the start is found whatever the reduced search would
 * reach first (a process that runs for ever alone, filling a channel),
 * with the shortest counterexample there is.  Then the worst violation is looked for depth
 * first (explore_dfs): a bug deep in a long run is found after a few
 * states, where breadth first explores every shorter run first; its
 * counterexample stands, *deep set.  Else the breadth-first search runs
 * to the end, and what the shallow search found stands where it is worse
 * than what that one found.  A dive and a shallow search thus cost
 * nothing on a small net and at most three times DIVE_STATES states on a
 * large one. */
static void
search(struct sem *sm, struct model *m, const struct xopts *xo,
    struct xresult *x, int *deep)
{
	struct xopts	o = *xo;
	struct xresult	y;
	uint64_t	most = xo->max_states;

	memset(&y, 0, sizeof(y));
	if (most == 0 || most > DIVE_STATES)
		o.max_states = DIVE_STATES;
	explore_bfs(m, &o, x);
	if (x->status == X_DONE || (x->status == X_VIOLATION &&
	    x->limit == XL_NONE) || (x->status == X_LIMIT &&
	    x->limit == XL_TIME))
		return;		/* decided, or no time left */
	if (x->bad >= xo->worst)
		return;		/* (before a limit: nothing worse to find) */
	shallow(sm, m, xo, DIVE_STATES, &y);
	if (y.bad >= xo->worst || x->status == X_OVERFLOW ||
	    o.max_states == most || x->limit != XL_STATES) {
		/* The worst, found first; or what stopped the reduced
		 * search stops the rest too. */
		if (y.bad >= xo->worst) {
			xresult_free(x);
			*x = y;
			return;
		}
		merge(x, &y);
		xresult_free(&y);
		return;
	}
	xresult_free(x);
	o.progress = 0;
	explore_dfs(m, &o, x);
	if (x->status == X_VIOLATION) {
		*deep = 1;
		xresult_free(&y);
		return;
	}
	xresult_free(x);
	explore_bfs(m, xo, x);
	merge(x, &y);
	xresult_free(&y);
}

void
mpnet_check(const struct mpnet *net, enum check_mode mode,
    const struct verify_opts *vo, struct mode_result *r)
{
	struct sem		 m;
	struct model		 md;
	struct sem_layout	 l;
	struct xopts		 xo;
	struct xresult		 x;
	struct rjudge		*j;
	int			 kahn, dc;
	double			 t0 = clock_now();
	char			 label[64];

	memset(r, 0, sizeof(*r));
	r->mode = mode;
	xopts_from(vo, mode, t0, label, sizeof(label), &xo);
	/* A net that may run for ever has no end state to judge: look at
	 * every state for what stays wrong. */
	xo.judge_all = !net->finite;
	xo.worst = judge_worst(net);
	/* Pools make more nets determinate in buffered mode: ask the layout.
	 * One run needs no small counts (it stores no states). */
	l.cbits = CBITS_FIRST;
	l.clog = 1;
	l.pool = !vo->exact;
	sem_init_layout(&m, net, mode, &l);
	kahn = !vo->exact && m.determinate;
	if (kahn) {
		/* One run that ends needs no small counts (it stores no
		 * states); one that may not stores a state a round, and a
		 * channel past CBITS_MOST is one without bound. */
		sem_fini(&m);
		l.cbits = net->finite ? 32 : CBITS_MOST;
		sem_init_layout(&m, net, mode, &l);
	}
	r->engine = kahn ? ENGINE_KAHN : vo->exact ? ENGINE_EXACT : ENGINE_POR;
	for (;;) {
		/* Symmetry with the stubborn sets (symm.c), anew for each
		 * layout: one state stored per orbit. */
		if (r->engine == ENGINE_POR && !vo->no_symmetry &&
		    sem_symmetry(&m) && r->symmetry == NULL)
			r->symmetry = xstrdup(sem_symmetry_text(&m));
		sem_model(&m, &md);
		md.judge = judge;
		md.judge_arg = j = judge_new(&m);
		md.judge_busy = xo.worst == vkind_prio(VK_LIVELOCK);
		if (kahn) {
			void (*run)(struct model *, const struct xopts *,
			    struct xresult *) = net->finite ? explore_kahn :
			    explore_kahn_endless;

			run(&md, &xo, &x);
			if (x.status == X_VIOLATION ||
			    (x.status == X_OVERFLOW && x.bad > 0)) {
				/* The same run again, recording its actions. */
				xresult_free(&x);
				xo.record = 1;
				run(&md, &xo, &x);
			}
		} else if (vo->exact)
			explore_bfs(&md, &xo, &x);
		else
			search(&m, &md, &xo, &x, &r->deep);
		judge_free(j);
		if (x.status != X_OVERFLOW)
			break;
		/* The collective log holds one open collective, doubled when
		 * a process leaves one early and would open another, up to
		 * SEM_CLOG_MOST (which never overflows). */
		if (!m.overflow_coll && l.cbits >= CBITS_MOST) {
			if (x.bad > 0) {	/* what it found before stands */
				x.status = X_VIOLATION;
				x.overflowed = 1;
			}
			break;
		}
		if (m.overflow_coll)
			l.clog *= 2;
		else
			l.cbits *= 2;
		xresult_free(&x);
		sem_fini(&m);
		sem_init_layout(&m, net, mode, &l);
	}
	r->states = x.states;
	r->transitions = x.transitions;
	r->peak_bytes = x.peak_bytes;
	r->state_bytes = m.bytes;
	r->layout = l;
	for (dc = 0; dc < net->ndc; dc++)
		r->pooled += sem_pooled(&m, dc);
	r->bags = m.bags;
	/* What cut the search short, if anything: said with a violation
	 * found before it too (the worst found so far). */
	if (x.status == X_OVERFLOW || (x.status == X_VIOLATION && x.overflowed))
		r->incomplete = overflow_text(net, &m);
	else if (x.status == X_LIMIT || (x.status == X_VIOLATION && x.limit != XL_NONE))
		r->incomplete = xopts_limit_text(&x, &xo, vo);
	switch (x.status) {
	case X_DONE:
		r->verdict = V_VERIFIED;
		break;
	case X_VIOLATION:
		r->verdict = V_VIOLATED;
		r->viol = xcalloc(1, sizeof(*r->viol));
		report_violation(r->viol, &m, x.final, x.trace, x.ntrace);
		break;
	default:
		r->verdict = V_INCOMPLETE;
		break;
	}
	xresult_free(&x);
	sem_fini(&m);
	r->time_s = clock_now() - t0;
}

/* What buffered mode takes MPI to buffer in this net, for a buffering
 * hazard. */
static const char *
buffered_what(const struct mpnet *net)
{
	return net->rooted ? "standard sends and completes rooted collectives "
	    "early" : "standard sends";
}

const char *
check_engine_name(enum check_engine e)
{
	return e == ENGINE_KAHN ? "kahn" : e == ENGINE_EXACT ? "exact" : "por";
}

int
mpnet_send_modes(const char *name)
{
	if (strcmp(name, "both") == 0)
		return 1 << CHECK_BUFFERED | 1 << CHECK_SYNC;
	if (strcmp(name, "buffered") == 0)
		return 1 << CHECK_BUFFERED;
	if (strcmp(name, "synchronous") == 0)
		return 1 << CHECK_SYNC;
	return 0;
}

/* Buffered mode first: a violation there is one under any MPI, and a
 * violation in synchronous mode alone is a buffering hazard, correct only
 * while MPI buffers (as Open MPI does small standard messages).  The worst
 * verdict of the modes is the verdict. */
void
mpnet_verify(const struct mpnet *net, const struct verify_opts *vo,
    struct verify_result *r)
{
	struct verify_opts	 m;
	struct mode_result	*mr;
	int			 i, modes = vo->modes != 0 ? vo->modes :
				    1 << CHECK_BUFFERED | 1 << CHECK_SYNC;

	memset(r, 0, sizeof(*r));
	r->name = net->pcg->name;
	r->verdict = V_VERIFIED;
	r->buffered = buffered_what(net);
	for (i = CHECK_BUFFERED; i <= CHECK_SYNC; i++) {
		if (!(modes & (1 << i)))
			continue;
		m = *vo;
		m.spent = r->time_s;	/* the time limit is for every mode */
		mr = &r->mode[r->nmodes++];
		mpnet_check(net, (enum check_mode)i, &m, mr);
		if (vo->progress && isatty(STDERR_FILENO))
			fputs("\r\033[K", stderr);	/* the progress line */
		r->time_s += mr->time_s;
		if (mr->verdict == V_VIOLATED)
			r->verdict = V_VIOLATED;
		else if (mr->verdict == V_INCOMPLETE && r->verdict == V_VERIFIED)
			r->verdict = V_INCOMPLETE;
	}
	r->hazard = r->nmodes == 2 && r->mode[0].verdict == V_VERIFIED &&
	    r->mode[1].verdict == V_VIOLATED;
	r->status = r->verdict == V_VERIFIED ? 0 : r->verdict == V_VIOLATED ? 1 : 3;
}

void
verify_result_free(struct verify_result *r)
{
	int	i;

	for (i = 0; i < r->nmodes; i++)
		mode_result_free(&r->mode[i]);
	memset(r, 0, sizeof(*r));
}

void
mode_result_free(struct mode_result *r)
{
	if (r->viol != NULL) {
		violation_free(r->viol);
		free(r->viol);
	}
	free(r->incomplete);
	free(r->symmetry);
	memset(r, 0, sizeof(*r));
}
