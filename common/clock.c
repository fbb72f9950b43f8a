/* clock.c -- the one clock ensemble measures with: search deadlines and
 * progress, run timeouts and the run's phase times; and how long a
 * process has run, for the deadlock watch. */
#include <stdio.h>
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

/* Its first field: the time on a processor, in nanoseconds. */
unsigned long long
clock_ran(int pid)
{
	char			 path[64];
	unsigned long long	 ns = 0;
	FILE			*f;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return ns;
}
