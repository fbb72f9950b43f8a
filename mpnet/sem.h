/* sem.h -- the compact encoding of an MP net and its firing rule, for one
 * send mode.  A state is a bit-packed vector of 64-bit words: per process
 * its pc, loop counters, request slots and (with rooted collectives in
 * buffered mode) a bit saying it left the open collective; per directed
 * channel a message count; the open collective and how many left it.
 * Everything that knows what a transition does is here; the explorers
 * (explore.c, kahn.c) and reports only call it. */
#ifndef ENS_SEM_H
#define ENS_SEM_H

#include <stdint.h>

#include "mpnet.h"

/* What fires.  A transition belongs to one process's group (its 'proc'):
 * receives (and rendezvous with a synchronous sender) to the receiver,
 * a collective that moves everyone to process 0. */
enum tkind {
	T_SEND,		/* buffered blocking send: the message waits in dc */
	T_ISEND,	/* post a send request: message in dc */
	T_IPOST,	/* post a receive request */
	T_RECV,		/* the blocking receive at pc takes dc's next message */
	T_MATCH,	/* request 'slot' takes dc's next message */
	T_WAIT,		/* waitall: every request complete */
	T_CHOOSE,	/* take branch 'alt' of a choice */
	T_COLL,		/* a collective every process reached: all go on */
	T_LEAVE,	/* leave a rooted collective (buffered mode) */
};

struct trans {
	uint8_t		 kind;
	uint8_t		 safe;		/* independent of all other groups, now and later */
	uint8_t		 rdv;		/* a receive that completes a synchronous send */
	int		 proc;
	int		 dc;		/* T_SEND T_ISEND T_RECV T_MATCH */
	int		 slot;		/* T_MATCH */
	int		 alt;		/* T_CHOOSE */
	int		 pc;		/* the instruction it fires (for reports) */
};

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
	struct fld	 cdone;		/* w 0: not needed */
};

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
	struct fld	 csig;		/* open collective + 1, or 0 */
	struct fld	 cndone;	/* processes that left it */
	int		 cbits;		/* channel count width in this run */
	uint32_t	 bits;
	uint32_t	 words;		/* of a state vector */
	uint32_t	 bytes;		/* stored: ceil(bits / 8) */
	int		 overflow;	/* a directed channel that ran out of bits, or -1 */
	int		 want_safe;	/* compute trans.safe (reductions need it) */
	/* per-program layout tables (owned) */
	uint32_t	**ctroff;
	uint8_t		**ctrw;
};

/* Lay a net out for a mode; channels get min(cbits, what their bound
 * needs) bits.
 *
 * Pools: when a process receives on a set of ports only through wildcards
 * over exactly that set, and every send into them is buffered in this
 * mode, nothing can tell which of its channels a message waits in: the
 * receiver takes "one of them", the senders never learn when.  Such
 * channels share one count, so a wildcard over them is one transition,
 * not one per port, and states that differ only in where the waiting
 * messages are become one (a farm's master collecting results in any
 * order: N + 1 states per round instead of 2^N).  Deadlocks, end states
 * and the messages left are the same. */
void sem_init(struct sem *, const struct mpnet *, enum check_mode, int cbits);
/* The same with pools when 'pool' (reductions; --exact has none). */
void sem_init_pooled(struct sem *, const struct mpnet *, enum check_mode, int cbits,
    int pool);
void sem_fini(struct sem *);

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

/* The initial state (s has sem.words words). */
void sem_initial(const struct sem *, uint64_t *s);
/* The enabled transitions of one process's group, appended to out (room
 * for sem_max_trans); returns how many. */
int sem_enabled(struct sem *, const uint64_t *s, int proc, struct trans *out);
/* Room enough for one group's transitions. */
int sem_max_trans(const struct sem *);
/* Fire t in s.  Returns 0, or -1 when a channel count overflowed
 * (sem.overflow says which). */
int sem_fire(struct sem *, uint64_t *s, const struct trans *t);

/* Queries for reports. */
int sem_pc(const struct sem *, const uint64_t *s, int proc);
uint64_t sem_count(const struct sem *, const uint64_t *s, int dc);
uint64_t sem_slot(const struct sem *, const uint64_t *s, int proc, int slot);
int sem_ended(const struct sem *, const uint64_t *s, int proc);
/* Whether proc's instruction is a collective all must reach together. */
int sem_sync_coll(const struct sem *, const struct ins *);
/* Whether directed channel dc shares a pooled count. */
static inline int
sem_pooled(const struct sem *m, int dc)
{
	return m->pool[dc] >= 0;
}

#endif
