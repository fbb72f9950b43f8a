/* report.h -- violations in the script's words (report.c). */
#ifndef ENS_REPORT_H
#define ENS_REPORT_H

#include "sem.h"

/* Whether an end state (nothing enabled) is bad: a process blocked,
 * messages left, or requests never waited for. */
int report_bad_end(const struct sem *, const uint64_t *s);
/* Describe the bad end state 'final' reached by trace (from the initial
 * state) into v; free with violation_free. */
void report_violation(struct violation *v, const struct sem *, const uint64_t *final,
    const struct trans *trace, size_t ntrace);
void violation_free(struct violation *);

#endif
