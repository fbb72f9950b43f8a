/* explain.h -- a violation drawn: the PCG with each process coloured by
 * its state at the counterexample's end and the wait-for cycle marked. */
#ifndef ENS_EXPLAIN_H
#define ENS_EXPLAIN_H

#include "mpnet.h"

/* Draw r's violation to path (format from its suffix: .svg, .png, .pdf,
 * .dot).  0, or -1 and *cause (caller frees). */
/* The drawing format path's suffix names (graph.h's enum draw_format), or
 * -1 when it names none. */
int explain_format(const char *path);
int explain_draw(const struct mpnet *, const struct mode_result *r, const char *path,
    char **cause);

#endif
