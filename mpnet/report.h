/* report.h -- violations in the script's words (report.c); judge.h
 * judges them. */
#ifndef ENS_REPORT_H
#define ENS_REPORT_H

#include "sem.h"

/* Describe the bad state 'final' reached by trace (from the initial
 * state) into v; free with violation_free (violation.h). */
void report_violation(struct violation *v, struct sem *, const uint64_t *final,
    const struct trans *trace, size_t ntrace);

#endif
