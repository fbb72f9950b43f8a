/* verify.c -- check one send mode: pick the explorer (one run for a
 * determinate network that ends, stubborn sets otherwise, every
 * interleaving with --exact), widen channel counts when a run outgrows
 * them, and turn what it found into a result. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "explore.h"
#include "report.h"
#include "xmalloc.h"

/* Channel count widths: start small (most channels hold a message or
 * two), double on overflow up to this. */
#define CBITS_FIRST	2
#define CBITS_MOST	16

void
mpnet_check(const struct mpnet *net, enum check_mode mode,
    const struct verify_opts *vo, struct mode_result *r)
{
	struct sem	 m;
	struct xopts	 xo;
	struct xresult	 x;
	int		 kahn, cbits;
	double		 t0 = explore_now();
	char		 label[64];

	memset(r, 0, sizeof(*r));
	r->mode = mode;
	memset(&xo, 0, sizeof(xo));
	xo.reduce = !vo->exact;
	xo.full = vo->exact;	/* every state counted, as --exact promises */
	xo.max_states = vo->max_states;
	xo.max_memory = vo->max_memory > 0 ? vo->max_memory : explore_default_memory();
	xo.deadline = vo->max_time > 0 ? t0 + vo->max_time - vo->spent : 0;
	xo.progress = vo->progress;
	snprintf(label, sizeof(label), "%s mode", check_mode_name(mode));
	xo.label = label;
	xo.bad_end = report_bad_end;
	/* Pools make more nets determinate in buffered mode: ask the layout.
	 * One run needs no small counts (it stores no states). */
	cbits = CBITS_FIRST;
	sem_init_pooled(&m, net, mode, cbits, !vo->exact);
	kahn = !vo->exact && m.determinate && net->finite;
	if (kahn) {
		sem_fini(&m);
		cbits = 32;
		sem_init_pooled(&m, net, mode, cbits, 1);
	}
	r->engine = kahn ? "kahn" : vo->exact ? "exact" : "por";
	for (;;) {
		if (kahn) {
			explore_kahn(&m, &xo, &x);
			if (x.status == X_VIOLATION) {
				/* The same run again, recording its actions. */
				xresult_free(&x);
				xo.record = 1;
				explore_kahn(&m, &xo, &x);
			}
		} else
			explore_bfs(&m, &xo, &x);
		if (x.status != X_OVERFLOW || cbits >= CBITS_MOST)
			break;
		xresult_free(&x);
		sem_fini(&m);
		cbits *= 2;
		sem_init_pooled(&m, net, mode, cbits, !vo->exact);
	}
	r->states = x.states;
	r->transitions = x.transitions;
	r->peak_bytes = x.peak_bytes;
	r->state_bytes = m.bytes;
	r->cbits = cbits;
	r->pooled = !vo->exact;
	switch (x.status) {
	case X_DONE:
		r->verdict = V_VERIFIED;
		break;
	case X_VIOLATION:
		r->verdict = V_VIOLATED;
		r->viol = xcalloc(1, sizeof(*r->viol));
		report_violation(r->viol, &m, x.final, x.trace, x.ntrace);
		break;
	case X_OVERFLOW: {
		char	pn[PCG_NAME_MAX], pa[PCG_NAME_MAX + 32];
		const struct dchan *d = &net->dc[m.overflow];

		r->verdict = V_INCOMPLETE;
		pcg_proc_name(net->pcg, d->from, pn, sizeof(pn));
		xasprintf(&r->incomplete, "channel from %s.%s holds more than %llu "
		    "messages: sends outrun receives without bound", pn,
		    mpnet_port_name(net, d->from, d->from_lp, pa, sizeof(pa)),
		    (unsigned long long)((1ULL << m.dc[m.overflow].w) - 1));
		break;
	}
	case X_LIMIT:
		r->verdict = V_INCOMPLETE;
		switch (x.limit) {
		case XL_STATES:
			xasprintf(&r->incomplete, "state limit of %" PRIu64 " reached "
			    "(--max-states)", xo.max_states);
			break;
		case XL_MEMORY:
		case XL_LOW_MEMORY:
			r->incomplete = explore_memory_text(&x, &xo, vo->max_memory > 0);
			break;
		case XL_TIME:
			xasprintf(&r->incomplete, "time limit of %g s reached "
			    "(--max-time)", vo->max_time);
			break;
		default:
			xasprintf(&r->incomplete, "%" PRIu64 " states, the most "
			    "the state store holds", x.states);
			break;
		}
		break;
	}
	xresult_free(&x);
	sem_fini(&m);
	r->time_s = explore_now() - t0;
}

void
mode_result_free(struct mode_result *r)
{
	if (r->viol != NULL) {
		violation_free(r->viol);
		free(r->viol);
	}
	free(r->incomplete);
	memset(r, 0, sizeof(*r));
}
