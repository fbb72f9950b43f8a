/* lookout.h -- the trampoline's part of the run's deadlock watch
 * (runtime/wire.h, THE WATCH): on the host of 'ensemble run', the memory
 * file of its slots, found as /proc/PID/fd/FD, for the component to map;
 * on any other host, a memory file of one slot for the component, which
 * the trampoline reads every WIRE_WATCH_PERIOD and reports as "blocked"
 * and "unblocked" markers.  libc only. */
#ifndef ENS_LOOKOUT_H
#define ENS_LOOKOUT_H

#include <sys/types.h>

#include "wire.h"

struct lookout {
	int		 fd;		/* the file the component maps; -1 */
	struct wire_slot *slot;		/* our own file's slot, which we read;
					 * NULL: 'ensemble run' reads it */
	struct wire_slot last;		/* at the last reading */
	unsigned long long ran;		/* the component's run time then */
	int		 have;		/* last is a reading */
	int		 said;		/* "blocked" said for last.gen */
	double		 next;		/* the next reading */
};

/* Set lo up for the token of --watch ("PID:FD:HOST", wire.h) and the
 * run's secret, on host 'host': the descriptor the component is to map
 * (close-on-exec), or -1 when there is none (a malformed token, no memory
 * file to be had: the run is then not watched here). */
int lookout_open(struct lookout *lo, const char *token, const char *secret,
    const char *host);
/* Seconds until the next reading (0: now), -1 when there is none to make. */
double lookout_wait(const struct lookout *lo);
/* A reading of component pid's slot, when due: the markers it says
 * ("blocked SLOT", "unblocked GEN"), each a line ended by a newline,
 * appended to out. */
void lookout_read(struct lookout *lo, pid_t pid, struct wire_buf *out);

#endif
