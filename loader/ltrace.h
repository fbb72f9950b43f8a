/* ltrace.h -- the loader's side of 'ensemble run --trace': each process's
 * stream (wire.h, WIRE_TAG_TRACE) kept in a temporary file of its own on
 * the loader's host, then merged by start time into one MTF file
 * (trace/trace.h) in memory bounded by the number of processes. */
#ifndef ENS_LTRACE_H
#define ENS_LTRACE_H

#include <stddef.h>

struct trace_hdr;
struct ltrace;

/* Collect for nprocs processes: NULL and *cause when no temporary
 * directory can be made. */
struct ltrace *ltrace_new(int nprocs, char **cause);
/* Append n bytes of rank's stream; n == 0 ends it.  0, or -1 and *cause
 * (a write error, or bytes after the end). */
int ltrace_chunk(struct ltrace *, int rank, const char *buf, size_t n,
    char **cause);
/* Whether every stream has ended. */
int ltrace_complete(const struct ltrace *);
/* Write path: h's header (its processors and the processes' processor
 * filled here from the hosts the streams name) and the events of every
 * stream merged by T0.  0, or -1 and *cause. */
int ltrace_write(struct ltrace *, struct trace_hdr *h, const char *path,
    char **cause);
/* Remove the temporary files and free. */
void ltrace_free(struct ltrace *);

#endif
