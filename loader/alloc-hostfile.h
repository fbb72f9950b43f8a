/* alloc-hostfile.h -- a hostfile's hosts and slots (alloc-hostfile.c).
 * libc only. */
#ifndef ENS_ALLOC_HOSTFILE_H
#define ENS_ALLOC_HOSTFILE_H

#include "alloc.h"

/* Read the hostfile at path as Open MPI 4.1 does: a host per line, with
 * slots=N (or its aliases cpu=, count=) and max_slots=M (slots-max,
 * max-slots, cpu_max, ...; without slots= it is the slots), port= and
 * username= allowed, '#' and '//' comments to the end of the line and
 * block comments; a host repeated adds one slot a line (and is then an
 * error with slots= on any of its lines); names of this machine are one
 * host.  0, or -1 with *cause ("h.txt:3: ...", file and line first) for a
 * file mpirun would refuse, that names no host, or that has what Open MPI
 * takes but this does not: a number past INT_MAX (which Open MPI
 * truncates), a rankfile line ("rank 0=host"), a relative host ("+n0"). */
int alloc_hostfile(struct alloc *, const char *path, char **cause);

#endif
