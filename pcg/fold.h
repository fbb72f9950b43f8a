/* fold.h -- what repeats in a report about many processes, said once: a
 * list of processes in the script's order with its runs as ranges
 * ("master and stencil[1..64]"), and the lines of processes that differ
 * only in the process, and in peers at the same distance, as one line
 * ("stencil[1..64]: each waits in 'ssend Left[1]' (rod.pcg:14:15) for the
 * previous one, a cycle of 64").  Every report about processes folds
 * here: the verifier's (mpnet/report.c) and the run's (loader/failure.c,
 * and the run-time deadlock reports). */
#ifndef ENS_FOLD_H
#define ENS_FOLD_H

#include "pcg.h"

struct buf;

/* The fewest processes a run must have to be folded. */
#define FOLD_MIN	3

/* Add the processes procs[0 .. n) to b in the script's order, each run of
 * FOLD_MIN or more of one component with consecutive indices as
 * "comp[a..b]", joined by ", " and, before the last, conj (" and "). */
void fold_procs(struct buf *b, const struct pcg *, const int *procs, int n,
    const char *conj);

/* One process's line of a report: its name, tag, a separator, what, its
 * peers (each followed by its note) joined by ", " and conj before the
 * last, then post.  All borrowed. */
struct fold_item {
	int		 proc;
	const char	*tag;		/* after the name, the same over a run
					 * (" (host vm)"); NULL: none */
	const char	*what;		/* up to the peers */
	const char	*runwhat;	/* the same for a run; NULL: what */
	const int	*peers;
	const char *const *notes;	/* after each peer (" (ended)"); NULL:
					 * none */
	int		 npeers;
	const char	*conj;		/* before the last peer */
	const char	*post;		/* after the peers; NULL: nothing */
};

/* How fold_lines writes: each line starts with indent; sep follows a
 * process's name and tag, runsep a run's (": ", ": each "); min is the
 * fewest items a run folds (0: FOLD_MIN). */
struct fold_style {
	const char	*indent;
	const char	*sep;
	const char	*runsep;
	int		 min;
};

/* Add a line for each of items[0 .. n) to b, in their order; with fold,
 * each run of FOLD_MIN (or the style's min) or more adjacent items of one component with
 * consecutive indices whose tag, what, post and peers' notes are the same
 * and whose every peer is either the same process or at the same distance
 * (the previous one, the one 2 after; a distance of one may wrap around
 * the run: "a cycle of N") is one line.  Returns the lines written. */
int fold_lines(struct buf *b, const struct pcg *, const struct fold_item *items,
    int n, const struct fold_style *, int fold);

#endif
