/* clock.c -- the one clock ensemble measures with: search deadlines and
 * progress, run timeouts and the run's phase times. */
#include <time.h>

#include "clock.h"

/* Seconds on the monotonic clock, which wall-clock changes do not move. */
double
clock_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
