/* alloc-int.h -- what the files that fill a struct alloc share
 * (alloc.c, alloc-machine.c, alloc-hostfile.c, alloc-slurm.c); private
 * to them.  libc only. */
#ifndef ENS_ALLOC_INT_H
#define ENS_ALLOC_INT_H

#include <stddef.h>

#include "alloc.h"

/* Name without its domain, as Open MPI keeps host names (an address
 * whole); the caller frees it. */
char *alloc_short(const char *name);

/* The contents of file path, NUL-terminated (its length in *lenp when
 * lenp is not NULL), or NULL with errno set; the caller frees it. */
char *alloc_read_file(const char *path, size_t *lenp);

/* Append host name (taken over) to a; its index. */
int alloc_add(struct alloc *, char *name, int slots, int cores, int local);

/* The host of a named exactly name, or -1. */
int alloc_index(const struct alloc *, const char *name);

/* Fill in what Open MPI works out itself (a local host's cores) and the
 * total. */
void alloc_total(struct alloc *);

/* This machine's host name without its domain, as Open MPI names it; the
 * caller frees it (alloc-machine.c). */
char *alloc_nodename(void);

/* This machine's cores as Open MPI's hwloc counts them (alloc-machine.c). */
int alloc_cores(void);

#endif
