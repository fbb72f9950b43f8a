/* gen.h -- random scripts for the checker's differential tests
 * (test-kinds: reduced against --exact; difftest-gen: ensemble against
 * SPIN on the Promela export).  One generator, so both test the same
 * language. */
#ifndef GEN_H
#define GEN_H

#include <stdint.h>

#include "xmalloc.h"

#define GEN_MAX_PROCS	5

struct gen {
	struct buf	 b;		/* the script made last */
	int		 maxprocs;	/* 2 to GEN_MAX_PROCS */
	int		 n;		/* processes */
	int		 ports[GEN_MAX_PROCS][4];	/* ports of each type */
	const char	*types;		/* the port types' letters */
	int		 indexed;	/* processes w[1..n] (and m, the last) */
	int		 requests;	/* posted since the last waitall */
};

/* Start the generator's sequence at seed. */
void	gen_seed(uint64_t seed);
/* A random script into g->b: 2 to g->maxprocs processes on random
 * channels, statements of every kind made at random. */
void	gen_script(struct gen *);
/* A protocol: steps every process agrees on, now and then one process's
 * statements changed (one left out, two swapped, one twice). */
void	gen_protocol(struct gen *);
/* A process array w[1..N] in a ring, with a master m joined to each now
 * and then: one behaviour with if/else on the index. */
void	gen_indexed(struct gen *);

#endif
