/* sem.h -- the compact encoding of an MP net and its firing rule, for one
 * send mode.  A state is a bit-packed vector of 64-bit words: per process
 * its pc, loop counters and request slots; per directed channel a message
 * count; with rooted collectives in buffered mode, per communicator that
 * has them (the application's, a group's) its log of open ones, how many
 * left each, and per member how many it has left.
 * Everything that knows what a transition does is here; the explorers
 * (explore.c, kahn.c) and reports only call it. */
#ifndef ENS_SEM_H
#define ENS_SEM_H

#include <stdint.h>

#include "compile.h"
#include "model.h"

/* What fires (struct trans.kind).  A transition belongs to one process's
 * group (its 'proc'): receives (and rendezvous with a synchronous sender)
 * to the receiver, a collective that moves everyone to process 0.  Its
 * 'dc' is the directed channel of T_SEND T_ISEND T_RECV T_MATCH, 'slot'
 * the request of T_MATCH, 'alt' the branch of T_CHOOSE, 'pc' the
 * instruction it fires (for reports), 'rdv' set on a receive that
 * completes a synchronous send. */
enum tkind {
	T_SEND,		/* buffered blocking send: the message waits in dc */
	T_ISEND,	/* post a send request: message in dc */
	T_IPOST,	/* post a receive request */
	T_RECV,		/* the blocking receive at pc takes dc's next message */
	T_MATCH,	/* request 'slot' takes dc's next message */
	T_WAIT,		/* waitall: every request complete; wait: its */
	T_CHOOSE,	/* take branch 'alt' of a choice */
	T_COLL,		/* a collective every process reached: all go on */
	T_LEAVE,	/* leave a rooted collective (buffered mode) */
	T_TEST,		/* test: alt 0 its request complete (it leaves), 1 not */
	T_WAITANY,	/* waitany, waitsome: branch 'alt' (its requests leave) */
	T_PROBE,	/* probe: a message is there (not taken) */
	T_IPROBE,	/* iprobe: alt 0 a message is there, 1 none */
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
};

/* Lay a net out for a mode; channels get min(cbits, what their bound
 * needs) bits, the collective log one position, no pools.
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
/* The same with a layout's widths and pools. */
void sem_init_layout(struct sem *, const struct mpnet *, enum check_mode,
    const struct sem_layout *);
void sem_fini(struct sem *);
/* Look for the net's symmetries (symm.h) and use them in the model from
 * now on; whether there are any.  Their text for a summary. */
int sem_symmetry(struct sem *);
const char *sem_symmetry_text(const struct sem *);
/* The model (model.h) of m, which it borrows. */
void sem_model(struct sem *m, struct model *);

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
/* The processes whose steps may change what proc can do in s, proc
 * standing still (model.h: deps), into out (room for nprocs); how many. */
int sem_deps(struct sem *, const uint64_t *s, int proc, int *out);
/* Room enough for one group's transitions. */
int sem_max_trans(const struct sem *);
/* Per process, PS_ENDED, PS_BLOCKED (no transition it takes part in is
 * enabled) or PS_RUNS, into ps (ts: room for sem_max_trans).  Returns how
 * many are blocked or ended. */
/* Mark as running (PS_RUNS) the blocked members of each communicator
 * whose collective all take together is enabled in s: they take it now
 * (its transition is their leader's). */
void sem_coll_runs(const struct sem *, const uint64_t *s, unsigned char *ps);
int sem_states(struct sem *, const uint64_t *s, unsigned char *ps,
    struct trans *ts);
/* Fire t in s.  Returns 0, or -1 when a channel or the collective log
 * ran out of room (sem.overflow, sem.overflow_coll say which). */
int sem_fire(struct sem *, uint64_t *s, const struct trans *t);

/* Queries for reports. */
int sem_pc(const struct sem *, const uint64_t *s, int proc);
/* The local port a receive instruction of proc (RECV, RECVPROBED: the
 * port its probe found) takes from in s. */
int sem_recv_lp(const struct sem *, const uint64_t *s, int proc,
    const struct ins *);
/* proc's counters for mpnet_walk: bit k set when counter k is above zero
 * (the first 64). */
uint64_t sem_more(const struct sem *, const uint64_t *s, int proc);
/* The messages waiting in directed channel dc. */
static inline uint64_t
sem_count(const struct sem *m, const uint64_t *s, int dc)
{
	return sem_get(s, m->dc[dc]);
}
/* The open rooted collective at position j of communicator comm's log
 * (index in mpnet.colls), or -1; how many processes have left it; how
 * many open ones of comm proc has left. */
int sem_coll_open(const struct sem *, const uint64_t *s, int comm, int j);
uint64_t sem_coll_left(const struct sem *, const uint64_t *s, int comm, int j);
int sem_coll_off(const struct sem *, const uint64_t *s, int proc, int comm);
/* The communicator of collective instruction in. */
static inline int
sem_comm(const struct sem *m, const struct ins *in)
{
	return m->net->colls[in->coll].group + 1;
}
uint64_t sem_slot(const struct sem *, const uint64_t *s, int proc, int slot);
/* Whether proc has ended (at its program's end). */
static inline int
sem_ended(const struct sem *m, const uint64_t *s, int proc)
{
	const struct sproc	*sp = &m->p[proc];

	return sp->pr == NULL || sp->pr->ins[sem_get(s, sp->pc)].op == OP_END;
}
/* Whether proc can still reach its end from where it is (it is not in
 * an endless loop for good). */
static inline int
sem_can_end(const struct sem *m, const uint64_t *s, int proc)
{
	const struct prog	*pr = m->p[proc].pr;

	return pr != NULL && m->ends[pr->id][sem_get(s, m->p[proc].pc)];
}
/* Whether proc's instruction is a collective all its communicator's
 * members must reach together. */
int sem_sync_coll(const struct sem *, const struct ins *);
/* Whether proc leaves rooted collective c at once, not waiting for the
 * others (buffered mode): the root of bcast and scatter, the others of
 * reduce and gather.  Such a process opens the collective's next
 * instance in the log when it is the first to leave it. */
int sem_coll_eager(const struct coll *, int proc);
/* Whether instruction pc of proc is a rooted collective of the log after
 * which proc can come to another it leaves at once, with no collective
 * between: it may then have two open at once (buffered mode). */
int sem_runs_ahead(const struct sem *, int proc, int pc);
/* Whether directed channel dc shares a pooled count. */
static inline int
sem_pooled(const struct sem *m, int dc)
{
	return m->pool[dc] >= 0;
}

#endif
