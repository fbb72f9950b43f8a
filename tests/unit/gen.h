/* gen.h -- random scripts for the checker's differential tests
 * (test-kinds: reduced against --exact; difftest-gen: ensemble against
 * SPIN on the Promela export).  One generator, so both test the same
 * language. */
#ifndef GEN_H
#define GEN_H

#include <stdint.h>

#include "xmalloc.h"

#define GEN_MAX_PROCS	5
#define GEN_MAX_GROUPS	2

struct gen {
	struct buf	 b;		/* the script made last */
	int		 maxprocs;	/* 2 to GEN_MAX_PROCS */
	int		 n;		/* processes */
	int		 ports[GEN_MAX_PROCS][4];	/* ports of each type */
	const char	*types;		/* the port types' letters */
	int		 indexed;	/* processes w[1..n] (and m, the last) */
	int		 requests;	/* posted since the last waitall */
	int		 always_groups;	/* every gen_script and gen_protocol
					 * has groups (test-kinds -g) */
	int		 ngroups;	/* groups g0, g1 of gen_script and
					 * gen_protocol (0: none) */
	int		 gmem[GEN_MAX_GROUPS][GEN_MAX_PROCS];	/* rank order */
	int		 gn[GEN_MAX_GROUPS];
	int		 p2p;		/* make sendrecv, named requests, wait,
					 * test, waitany, waitsome, probe and
					 * iprobe too (gen_p2p sets it) */
	int		 names;		/* request names made so far */
};

/* Start the generator's sequence at seed. */
void	gen_seed(uint64_t seed);
/* A random script into g->b: 2 to g->maxprocs processes on random
 * channels, statements of every kind made at random; in one script of
 * three, one or two groups (random members in random rank order, maybe
 * overlapping) that collectives may run over.  The groups' draws have a
 * sequence of their own: a script without groups is what it was before
 * there were groups. */
void	gen_script(struct gen *);
/* A protocol: steps every process agrees on, now and then a process's
 * statements changed, once or twice (one left out, two swapped, one
 * twice, a counted loop one round longer or shorter, one process's
 * collective the plain form of the others' v-form or the other way
 * round). */
void	gen_protocol(struct gen *);
/* A process array w[1..N] in a ring, with a master m joined to each now
 * and then: one behaviour with if/else on the index. */
void	gen_indexed(struct gen *);
/* A hub whose counted loop sends to (or takes any from) every one of
 * its leaves, whose loops take their part, one round more or less than
 * the hub's now and then (what a process can still send depends on its
 * counter). */
void	gen_loops(struct gen *);
/* A script with sendrecv, named requests and wait, test, waitany,
 * waitsome, probe and iprobe among the rest: made at random (gen_script),
 * a protocol (gen_protocol) or a ring (gen_indexed, one behaviour for
 * every node half the time: rotations), with some steps of these; test
 * and iprobe in loops, counted and endless (livelocks). */
void	gen_p2p(struct gen *);
/* Interchangeable processes: clients c[1..n] of one behaviour around a
 * hub h that uses its ports to them through wildcards only (now and then
 * not: a port named, one client unlike the others), or pairs c[2i - 1],
 * c[2i] (by themselves or each with a port to the hub): for the
 * symmetry the checker reads from the script (test-kinds -S). */
void	gen_symm(struct gen *);
/* The script with every counted loop written out ("loop 3 { B }" as B
 * three times, inner loops first; endless loops stay) into out: the
 * same programs, so the same verdict, kind and exact counts.  How many
 * loops were written out. */
int	gen_unroll(const char *script, struct buf *out);

#endif
