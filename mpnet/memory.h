/* memory.h -- how much memory this process may still take, for the
 * explorers' limits (explore.c): read from /proc/meminfo and the control
 * groups, libc only. */
#ifndef ENS_MEMORY_H
#define ENS_MEMORY_H

#include <stdint.h>

/* What the process may still take, in bytes: the system's MemAvailable or
 * less where a control group leaves less; *total the memory there is
 * (MemTotal or a group's smaller limit).  $ENSEMBLE_MEMINFO names a file
 * read instead of /proc/meminfo, the groups then left out (for tests). */
uint64_t	memory_room(uint64_t *total);

/* The memory to leave free whatever happens: a sixteenth of all there is,
 * from 256 MB to 2 GB (the kernel reclaims, other processes grow, and a
 * search's growth between two checks must fit). */
uint64_t	memory_margin(uint64_t total);

#endif
