/* symm.h -- symmetry read from the script (symm.c): families of
 * interchangeable processes of one component, and the canonical form of
 * a state under them.  Private to mpnet/. */
#ifndef ENS_SYMM_H
#define ENS_SYMM_H

#include <stdint.h>

struct sem;
struct symm;

/* The symmetries of m's net (its layout, m's mode): for each component,
 * its processes in index order cut into blocks of b consecutive ones
 * (b = 1, 2, ..., the first that works), interchangeable when swapping
 * any two neighbouring blocks is an automorphism of the net (checked,
 * not assumed: same programs, channels onto channels with the same
 * widths, pools and order, and every other process's program the same
 * once its ports to them are swapped too); else the nodes of a ring or
 * of an A x B torus in index order, taken up to the cyclic shifts of the
 * index when the shift by one (in each dimension) is an automorphism.
 * NULL when there is none. */
struct symm *symm_new(const struct sem *m);
void symm_free(struct symm *);
/* Put s in canonical form: per family, its blocks sorted by what they
 * hold (a ring's or torus's nodes: their least rotation), so that two
 * states that differ by a permutation of blocks (a rotation) become
 * one.  Returns where process p went (p < 0: -1).  'from', when not
 * NULL, is a state in canonical form one step before s: the form then
 * costs what the step changed. */
int symm_canon(struct symm *, const struct sem *m, uint64_t *s, int p,
    const uint64_t *from);
/* The families, for a summary: "worker[1..8]", "node[1..16] in pairs",
 * "rotations of node[1..12] as 3 x 4" joined by ", " (borrowed). */
const char *symm_text(const struct symm *);

#endif
