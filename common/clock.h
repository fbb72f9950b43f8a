/* clock.h -- the one clock ensemble measures with. */
#ifndef ENS_CLOCK_H
#define ENS_CLOCK_H

/* Seconds on the monotonic clock (CLOCK_MONOTONIC), from an arbitrary
 * start: for durations and deadlines only, never for dates. */
double clock_now(void);

#endif
