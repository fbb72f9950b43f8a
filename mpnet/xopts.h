/* xopts.h -- a search's options from the user's, and why it stopped in
 * the user's words: the bridge between verify_opts (mpnet.h) and the
 * explorers (explore.h), for both verdicts (verify.c, irnet.c). */
#ifndef ENS_XOPTS_H
#define ENS_XOPTS_H

#include <stddef.h>

#include "explore.h"
#include "mpnet.h"

/* The options of one mode's search from verify_opts, begun at t0
 * (clock_now()): every interleaving with --exact (counting every state),
 * else reduced; the limits, progress and ticks; the label "buffered
 * mode" into label (size bytes).  The judge's are the caller's to set. */
void xopts_from(const struct verify_opts *, enum check_mode, double t0,
    char *label, size_t size, struct xopts *);
/* What stopped search x (its X_LIMIT or the limit after a violation),
 * for mode_result.incomplete (the caller frees it). */
char *xopts_limit_text(const struct xresult *x, const struct xopts *,
    const struct verify_opts *);

#endif
