/* net.h -- the MP net of one send mode as a plain place/transition net:
 * the P/T unfolding of exactly the firing rule in sem.c, for exports
 * (PNML, drawings) and for checking sem.c against an independent reading.
 *
 * Places: a control place per reachable pc of each process (one token
 * where it rests), a place per used channel direction (its message count),
 * per loop counter a place holding its value and a complement holding
 * (most - value), per request slot its value and complement, and for
 * rooted collectives in buffered mode the open collective (one place per
 * collective plus "none"), how many left it (and its complement) and per
 * process whether it left.  A zero test takes a complement's whole
 * capacity and puts it back; a test for exactly v takes v from the place
 * and (most - v) from its complement.  Loop bookkeeping is folded: a
 * transition leaving a pc ends at different pcs depending on counters,
 * one P/T transition per outcome. */
#ifndef ENS_NET_H
#define ENS_NET_H

#include <stdint.h>
#include <stdio.h>

#include "mpnet.h"

enum net_pkind {
	NP_CONTROL,	/* proc at pc */
	NP_CHAN,	/* messages in directed channel dc */
	NP_CHAN_FREE,	/* bound - messages */
	NP_CTR,		/* loop counter k of proc */
	NP_CTR_FREE,
	NP_SLOT,	/* request slot k of proc */
	NP_SLOT_FREE,
	NP_COLL_NONE,	/* no rooted collective open */
	NP_COLL_OPEN,	/* collective k open */
	NP_COLL_LEFT,	/* how many left the open one */
	NP_COLL_LEFT_FREE,
	NP_PROC_LEFT,	/* proc left the open collective */
	NP_PROC_IN,	/* proc did not */
};

struct net_place {
	char		*name;		/* "relay[1].pc3 'send Prop[1]'" */
	char		*loc;		/* "dmax.pcg:20:14", or NULL */
	int64_t		 init;		/* initial marking */
	int64_t		 cap;		/* most tokens, -1 unbounded */
	enum net_pkind	 kind;
	int		 proc;		/* -1: none */
	int		 pc;		/* NP_CONTROL */
	int		 index;		/* dc, counter, slot or collective */
};

struct net_arc {
	int		 place;
	int64_t		 w;
};

struct net_trans {
	char		*name;		/* "relay[1]: send Prop[1]" */
	char		*loc;		/* of its statement, or NULL */
	int		 kind;		/* enum tkind (sem.h) */
	int		 proc;		/* its group, as in sem.c */
	int		 pc;		/* the instruction it fires */
	int		 dc;		/* the channel it uses, or -1 */
	struct net_arc	*pre;		/* taken, sorted by place */
	int		 npre;
	struct net_arc	*post;		/* put, sorted by place */
	int		 npost;
};

struct net {
	const struct mpnet *mp;		/* borrowed */
	enum check_mode	 mode;
	struct net_place *places;
	int		 nplaces;
	struct net_trans *trans;
	int		 ntrans;
};

/* Transitions a net may have before net_build gives up. */
#define NET_MAX_TRANS	1000000

/* Unfold mp for one mode.  NULL and *cause (caller frees) when the mode
 * needs what a P/T net cannot say: a zero test on a channel without a
 * bound, or too many transitions. */
struct net *net_build(const struct mpnet *mp, enum check_mode, char **cause);
void net_free(struct net *);

/* Whether place p is a complement (the drawing leaves them out). */
int net_is_complement(const struct net *, int p);

/* Write the net as PNML (pnml.c).  0, or -1 and *cause. */
int pnml_write(const struct net *, FILE *, char **cause);

/* Write the net as a Promela model for SPIN, with a judge that gives
 * every state our verdict (promela.c).  0; -1 and *cause when it cannot
 * be written; -2 and *cause (before writing anything) when Promela
 * cannot hold it (a channel bound past 255). */
int promela_write(const struct net *, FILE *, char **cause);

/* Drawings past this many transitions are no use to anyone. */
#define NET_MAX_DRAWN	2000

/* Draw n (DRAW_DOT, DRAW_SVG, DRAW_PNG or DRAW_PDF of graph.h) with a
 * Graphviz layout (NULL: dot) to f.  0, or -1 and *cause (caller frees):
 * too many transitions, or Graphviz failed. */
int netdraw(const struct net *, int format, const char *layout, FILE *,
    char **cause);

#endif
