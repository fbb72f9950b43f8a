/* trace-check.h -- 'ensemble trace check' (trace-check.c): a traced run
 * held to its script. */
#ifndef ENS_TRACE_CHECK_H
#define ENS_TRACE_CHECK_H

#include <stdio.h>

#include "pcg.h"
#include "trace.h"

/* Replay the rest of the trace against the script's behaviours and
 * channels, printing to out each process's first divergence and first
 * message off its channels, the channels used and never used, the pairs
 * that talked without a channel, and the verdict line.  0 conforming, 1
 * not, -1 and *cause (caller frees: the whole message, ready to print)
 * when the trace is bad or is not a run of the script. */
int trace_check(struct trace_reader *, const struct pcg *, FILE *out,
    char **cause);

#endif
