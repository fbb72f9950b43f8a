/* alloc-machine.h -- this machine as Open MPI sees it (alloc-machine.c):
 * whether a name is one of its names, its host name, its cores; and the
 * two readers the files of an allocation share, a host name without its
 * domain and a file's contents.  libc only. */
#ifndef ENS_ALLOC_MACHINE_H
#define ENS_ALLOC_MACHINE_H

#include <stddef.h>

/* Whether name names this machine: "localhost", an address of 127.0.0.0/8
 * or ::1, the host name or its short form, an address of one of its
 * interfaces, or (tried last, as it may ask DNS) a name that resolves to
 * one of those.  A name under ".invalid" never does and asks no one. */
int alloc_is_local(const char *name);

/* Name without its domain, as Open MPI keeps host names (an address
 * whole); the caller frees it. */
char *alloc_short(const char *name);

/* The contents of file path, NUL-terminated (its length in *lenp when
 * lenp is not NULL), or NULL with errno set; the caller frees it. */
char *alloc_read_file(const char *path, size_t *lenp);

/* This machine's host name without its domain, as Open MPI names it; the
 * caller frees it. */
char *alloc_nodename(void);

/* This machine's cores as Open MPI's hwloc counts them. */
int alloc_cores(void);

#endif
