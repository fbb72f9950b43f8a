/* ltrace.h -- 'ensemble run --trace': the parts of the trace the
 * processes wrote (runtime/wire.h: DIR/RANK, "host NAME" then event lines
 * in start order) merged by start time into one MTF file (trace/trace.h),
 * in memory bounded by the number of processes. */
#ifndef ENS_LTRACE_H
#define ENS_LTRACE_H

#include <signal.h>

struct trace_hdr;

/* Write path: h's header (its processors and the processes' processor
 * filled here from the hosts the parts name) and the events of the
 * nprocs parts in dir merged by T0.  0, or -1 and *cause (why, to follow
 * "cannot write the trace 'FILE': ": a part missing or malformed, a
 * write error), or -1 and *cause NULL once *stop is not 0 (a signal);
 * path is then removed. */
int ltrace_write(const char *dir, int nprocs, struct trace_hdr *h,
    const char *path, const volatile sig_atomic_t *stop, char **cause);

#endif
