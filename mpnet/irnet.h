/* irnet.h -- the net of the thesis's CPN IR (grammar/ir.h) and its
 * exploration: places Start, End, one per process and one message
 * multiset; states are distinct markings, transitions distinct (marking,
 * successor) pairs.  The results are verify.c's, so 'ensemble verify'
 * prints them as for scripts; the thesis's own terms come apart. */
#ifndef ENS_IRNET_H
#define ENS_IRNET_H

#include <stdint.h>

#include "ir.h"
#include "mpnet.h"

/* What a mode's exploration found in the thesis's terms. */
struct irnet_thesis {
	uint64_t	 nterminal;	/* terminal markings with tokens outside End */
	char		*terminal;	/* the first found (fewest firings), or NULL */
	int		*dead;		/* operations that never fire */
	int		 ndead;
};

/* Explore the IR's net in each send mode vo->modes asks for (both when
 * none and the model has standard sends; else buffered only: without
 * MPI_Send and MPI_Isend the modes are one net).  Fills r as mpnet_verify
 * does (free with verify_result_free) and th[mode index] (free with
 * irnet_thesis_free). */
void irnet_verify(const struct ir *, const char *name, const struct verify_opts *,
    struct verify_result *r, struct irnet_thesis th[CHECK_MODES]);
void irnet_thesis_free(struct irnet_thesis *);

#endif
