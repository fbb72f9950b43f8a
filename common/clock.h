/* clock.h -- the one clock ensemble measures with. */
#ifndef ENS_CLOCK_H
#define ENS_CLOCK_H

/* Seconds on the monotonic clock (CLOCK_MONOTONIC), from an arbitrary
 * start: for durations and deadlines only, never for dates. */
double clock_now(void);
/* The time process pid's main thread has run on a processor, in ns
 * (/proc/PID/schedstat); 0 when it cannot be told (it has gone). */
unsigned long long clock_ran(int pid);

#endif
