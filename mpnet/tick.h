/* tick.h -- what verification is doing, told now and then to the caller's
 * tick (verify_opts.tick, mpnet.h): the explorers (explore.h) fill it, and
 * know no more of the verifier's interface.  libc only. */
#ifndef ENS_TICK_H
#define ENS_TICK_H

#include <stdint.h>

/* What verification is doing (verify_opts.tick). */
struct verify_tick {
	const char	*label;		/* the mode: "synchronous mode" */
	uint64_t	 states;	/* stored so far (one run: its steps) */
	uint64_t	 bytes;		/* what they take */
	double		 seconds;	/* since verification began, every mode */
};

#endif
