/* xopts.c -- a search's options (explore.h) from the user's (struct
 * verify_opts), and why it stopped in the user's words (xopts.h): what
 * both verdicts, the MP net's (verify.c) and the IR net's (irnet.c), ask
 * of every mode's search, so that the explorers know neither verify_opts
 * nor the report. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "xmalloc.h"
#include "xopts.h"

void
xopts_from(const struct verify_opts *vo, enum check_mode mode, double t0,
    char *label, size_t size, struct xopts *xo)
{
	memset(xo, 0, sizeof(*xo));
	xo->reduce = !vo->exact;
	xo->full = vo->exact;	/* every state counted, as --exact promises */
	xo->max_states = vo->max_states;
	xo->max_memory = vo->max_memory;	/* 0: the default, asked when needed */
	xo->deadline = vo->max_time > 0 ? t0 + vo->max_time - vo->spent : 0;
	xo->progress = vo->progress;
	xo->tick = vo->tick;
	xo->tick_arg = vo->tick_arg;
	xo->began = t0 - vo->spent;
	snprintf(label, size, "%s mode", check_mode_name(mode));
	xo->label = label;
}

char *
xopts_limit_text(const struct xresult *x, const struct xopts *xo,
    const struct verify_opts *vo)
{
	char	*t;

	switch (x->limit) {
	case XL_STATES:
		xasprintf(&t, "state limit of %" PRIu64 " reached (--max-states)",
		    xo->max_states);
		break;
	case XL_MEMORY:
	case XL_LOW_MEMORY:
		t = explore_memory_text(x, xo, vo->max_memory > 0);
		break;
	case XL_TIME:
		xasprintf(&t, "time limit of %g s reached (--max-time)", vo->max_time);
		break;
	default:
		xasprintf(&t, "%" PRIu64 " states, the most the state store holds",
		    x->states);
		break;
	}
	return t;
}
