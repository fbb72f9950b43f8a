/* sem.h -- the compact encoding of an MP net and its firing rule, for one
 * send mode.  A state is a bit-packed vector of 64-bit words: per process
 * its pc, loop counters and request slots; per directed channel a message
 * count; with rooted collectives in buffered mode, per communicator that
 * has them (the application's, a group's) its log of open ones, how many
 * left each, and per member how many it has left.
 * Everything that knows what a transition does is here; the explorers
 * (explore.c, kahn.c) and reports only call it.  The state's layout
 * (struct sem, its fields and their accessors) is semstate.h's. */
#ifndef ENS_SEM_H
#define ENS_SEM_H

#include <stdint.h>

#include "compile.h"
#include "model.h"
#include "semstate.h"

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

/* The initial state (s has sem.words words). */
void sem_initial(const struct sem *, uint64_t *s);
/* The enabled transitions of one process's group, appended to out (room
 * for sem_max_trans); returns how many. */
int sem_enabled(struct sem *, const uint64_t *s, int proc, struct trans *out);
/* The state the next sem_enabled_kept calls ask of; sem_enabled, the same
 * answer, computed again only for the processes whose fields it reads
 * changed since the state sem_at named before (model.h: at). */
void sem_at(struct sem *, const uint64_t *s);
int sem_enabled_kept(struct sem *, const uint64_t *s, int proc, struct trans *out);
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
