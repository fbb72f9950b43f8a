/* semstate.h -- the layout of the MP net's encoded state (sem.h): where
 * each process's pc, counters and requests, each channel's count and each
 * log's positions lie in the bit-packed vector (struct fld, struct sem),
 * and the two accessors of a field.  What both the firing rule (sem.c)
 * and the symmetry that reduces its states (symm.c) read, below both, so
 * that neither includes the other's header.  Private to mpnet/. */
#ifndef ENS_SEMSTATE_H
#define ENS_SEMSTATE_H

#include <stdint.h>

#include "compile.h"

struct fld {
	uint32_t	 off;
	uint8_t		 w;
};

struct sproc {
	const struct prog *pr;
	int		 portbase;
	struct fld	 pc;
	uint32_t	 ctr;		/* first counter; counter k at ctr + ctroff[k] */
	const uint32_t	*ctroff;
	const uint8_t	*ctrw;
	uint32_t	 slot;		/* request slots, wslot bits each */
	uint8_t		 wslot;
};

/* A communicator collectives run over (compile.h: struct coll): the
 * application's (0) or a group's.  Its collectives match among its
 * members only, each with its own log of open rooted ones. */
struct scomm {
	int		 n;		/* members */
	const int	*mem;		/* them in rank order (owned for 0) */
	int		 leader;	/* the first: its group holds the comm's
					 * collectives all take together */
	int		 log;		/* its log of open rooted collectives,
					 * or -1 */
	int		 race;		/* processes may open its log's next
					 * instance with different ones */
};

/* The channels from one sender to one receiver that a wildcard over all
 * the receiver's ports (MPI_ANY_SOURCE, MPI_ANY_TAG) reads in the order
 * they were sent: besides each channel's count, their messages' order in
 * one queue of labels, channel grp.dc[k] being label k. */
struct sgroup {
	int		*dc;		/* its channels (owned) */
	int		 n;
	int		 cap;		/* messages the queue holds */
	uint8_t		 lw;		/* bits of a label */
	struct fld	 len;
	uint32_t	 q;		/* entry k at q + k * lw */
};


/* Open rooted collectives MPI is taken to buffer at once (sem.clog). */
#define SEM_CLOG_MOST	16

struct sem {
	const struct mpnet *net;
	enum check_mode	 mode;
	int		 nprocs;
	struct sproc	*p;
	struct fld	*dc;		/* message counts, w 0: never used */
	unsigned char	*rdv;		/* per directed channel: its sender may
					 * block in a synchronous send on it */
	int		*pool;		/* per directed channel: the first of its
					 * pool, or -1 (see sem_init) */
	int		 determinate;	/* every wildcard has one choice here */
	struct sgroup	*grp;		/* ordered groups (owned) */
	int		 ngrp;
	int		*gof;		/* per directed channel: its group, or -1 */
	int		*glabel;	/* per directed channel: its label there */
	int		*cover;		/* with groups, per process: its connected
					 * ports' first and last + 1 (a wildcard
					 * over them is MPI_ANY_SOURCE's) */
	/* The log of open rooted collectives (buffered mode): position j
	 * holds the j-th oldest one + 1 (0: free) and how many processes
	 * have left it; a process's coff says how many it has left.  The
	 * oldest closes when all have left it.  A process that would open
	 * one more than SEM_CLOG_MOST waits until the oldest closes. */
	int		 clog;		/* positions; 0: no log */
	struct fld	*csig;		/* per log, clog positions each */
	struct fld	*cndone;
	struct fld	*coff;		/* per process, per log: the open ones it
					 * has left (w 0: not a member) */
	int		 nlog;
	struct scomm	*cm;		/* per communicator (mpnet.ncomms) */
	int		 ncomm;
	int		**pcm;		/* per process: the communicators it is
					 * in besides 0, npcm[p] of them */
	int		*npcm;
	struct sem_layout layout;
	uint32_t	 bits;
	uint32_t	 words;		/* of a state vector */
	uint32_t	 bytes;		/* stored: ceil(bits / 8) */
	int		 overflow;	/* a directed channel that ran out of room, or -1 */
	int		 overflow_queue;	/* ... in its ordered group's queue */
	int		 overflow_coll;	/* the collective log ran out of room */
	uint64_t	 overflow_max;	/* what the full one held */
	int		 want_safe;	/* compute trans.safe (reductions need it) */
	int		 grew;		/* the last sem_fire left a channel holding
					 * two messages or more, one more than
					 * before (model.h: fire) */
	uint64_t	 bags;		/* steps sem_enabled gave one order of a
					 * bag (a statistic: tests count it) */
	/* per-program layout tables (owned) */
	uint32_t	**ctroff;
	uint8_t		**ctrw;
	unsigned char	**ends;		/* per program, per pc: it can still end */
	unsigned char	*mark;		/* per process, zero between uses (bag) */
	/* Per process: its program has a test, waitany or waitsome (when
	 * its requests complete shows in what it does: a bag's one order of
	 * taking its messages is not enough).  Another's step never takes
	 * a poll's outcome away (a test or iprobe may always say no, a
	 * waitsome return fewer), only adds one: a send to a poller, or a
	 * receive that completes a request it polls, is as independent as
	 * any other step. */
	unsigned char	*pollreq;
	uint64_t	*scratch;	/* a state's words, for bag's simulations */
	struct symm	*sym;		/* the symmetries the search uses
					 * (sem_symmetry), or NULL */
	struct mpnet_walk *walks;	/* two walks' scratch, for bag's */
	/* What bag's walks found, per process q and pc of its program
	 * (they read the program and the net only): ocache[q] (NULL until
	 * asked) has OC_WAYS entries a pc (sem.c: offers_cached). */
	struct ocache	**ocache;
	/* Per process its wildcard's facts over many ports, kept from state
	 * to state (sem.c: wc_get), or NULL; per state word, the channel
	 * counts and processes' pcs and counters on it (wfld[wstart[x] ..
	 * wstart[x + 1]), went: a process, or nprocs + a channel). */
	struct wcache	**wc;
	int		*wstart, *went, *wfill;
	struct fld	*wfld;
	/* Per bit of the state (word x, bit b: x * 64 + b) the first
	 * entry of wfld with that bit, or -1; per entry its bits on its
	 * word and the next entry of the same field (a pool's channels
	 * share a count), or -1; 'wover' when two fields overlap other
	 * than so (then each field is compared whole); room for the
	 * entries of one word (wchg). */
	int		*wbit, *wsame, *wchg, wover;
	uint64_t	*wmask;
	/* Per process its enabled transitions in the state sem_at named
	 * last, where its instruction reads only its own pc and counters,
	 * one channel's count and its sender's pc (sem.c: kept_simple), or
	 * it waits in a 'recv any' (kept_wild, below):
	 * bit p of ekept says they are (ekn[p] of them at et[p * EK_MOST]);
	 * eprev is the state they are of (NULL: none yet). */
	uint64_t	*eprev;
	uint64_t	*ekept;
	uint8_t		*ekn;
	struct trans	*et;
	/* Where a kept process waits in a 'recv any' (sem.c: kept_wild):
	 * per process q the wildcard receivers that read its pc and
	 * counters (ekrd[ekrs[q] .. ekrs[q + 1])), per process whether it
	 * has such a wildcard (ekwild: a count of a channel out of it
	 * changes its answer too) and per process whether its kept answer
	 * was a bag (ekbag: counted again when it is given). */
	int		*ekrs, *ekrd;
	unsigned char	*ekwild, *ekbag;
};

/* The most transitions sem_at keeps of a process. */
#define EK_MOST		4

static inline uint64_t
sem_get(const uint64_t *s, struct fld f)
{
	uint32_t	i = f.off >> 6, o = f.off & 63;
	uint64_t	v;

	if (f.w == 0)
		return 0;
	v = s[i] >> o;
	if (o + f.w > 64)
		v |= s[i + 1] << (64 - o);
	return v & ((1ULL << f.w) - 1);
}

static inline void
sem_set(uint64_t *s, struct fld f, uint64_t v)
{
	uint32_t	i = f.off >> 6, o = f.off & 63;
	uint64_t	m = (1ULL << f.w) - 1;

	if (f.w == 0)
		return;
	s[i] = (s[i] & ~(m << o)) | (v << o);
	if (o + f.w > 64) {
		uint32_t	hi = o + f.w - 64;

		s[i + 1] = (s[i + 1] & ~((1ULL << hi) - 1)) | (v >> (64 - o));
	}
}

#endif
