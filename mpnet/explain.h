/* explain.h -- a violation drawn: the PCG with each process coloured by
 * its state at the counterexample's end and the wait-for cycle marked, or
 * the counterexample as a timeline page. */
#ifndef ENS_EXPLAIN_H
#define ENS_EXPLAIN_H

#include "mpnet.h"

/* The format path's suffix names: a drawing's (graph.h's enum
 * draw_format), EXPLAIN_HTML (.html, .htm: the counterexample as a
 * timeline, common/timeline.h), or -1 when it names none. */
#define EXPLAIN_HTML	100
int explain_format(const char *path);
/* Draw r's violation to path (format from its suffix, explain_format).
 * 0, or -1 and *cause (caller frees). */
int explain_draw(const struct mpnet *, const struct mode_result *r, const char *path,
    char **cause);

#endif
