/* alloc-machine.h -- this machine as an allocation, and whether a name is
 * one of its names (alloc-machine.c).  libc only. */
#ifndef ENS_ALLOC_MACHINE_H
#define ENS_ALLOC_MACHINE_H

#include "alloc.h"

/* This machine alone, with as many slots as mpirun without a hostfile
 * gives it: its cores, those with an online CPU in this process's cgroup
 * cpuset (hwloc's count; a core's hardware threads are one slot). */
void alloc_local(struct alloc *);

/* Whether name names this machine: "localhost", an address of 127.0.0.0/8
 * or ::1, the host name or its short form, an address of one of its
 * interfaces, or (tried last, as it may ask DNS) a name that resolves to
 * one of those.  A name under ".invalid" never does and asks no one. */
int alloc_is_local(const char *name);

#endif
