/* compile.h -- the MP net compiler's internals, private to mpnet/ (and
 * the unit tests that look inside a net): the rest of ensemble sees an MP
 * net only through mpnet.h.
 *
 * Each process's instantiated behaviour compiles to a program net
 * (control points, one transition per communication action, loop
 * counters), channels to FIFO queuing places (one per direction), with
 * request slots for non-blocking operations and synchronising transitions
 * for collectives.
 *
 * Two views of one model.  The readable one (struct mpnet: programs with
 * source locations, channel ends, names) serves reports and exports.  The
 * compact one is the explorer's: a bit-packed state vector (per process a
 * pc, loop counters, request slots and a collective bit; per directed
 * channel a message count; one open-collective field) and the semantics in
 * sem.c that fire transitions on it.  The explorer never touches cgraph. */
#ifndef ENS_COMPILE_H
#define ENS_COMPILE_H

#include <stdint.h>
#include <stdio.h>

#include "mpnet.h"

/* Instructions of a program.  A state's pc is always at a communication
 * instruction, a CHOICE or END; LOOP, NEXT and JUMP are control that a
 * transition runs through on its way (sem.c: settle). */
enum op {
	OP_SEND,	/* lp, mode */
	OP_RECV,	/* lp */
	OP_RECVANY,	/* lo..hi: the local ports it accepts */
	OP_ISEND,	/* lp, mode, slot */
	OP_IRECV,	/* lp, slot */
	OP_IRECVANY,	/* lo..hi, slot */
	OP_WAITALL,
	OP_COLL,	/* coll: the collective's signature */
	OP_CHOICE,	/* alt: first of nalt branch starts in prog.alts */
	OP_END,
	OP_LOOP,	/* ctr = count - 1; go on past the NEXT after it */
	OP_NEXT,	/* ctr > 0: ctr--, go on; else to target (forever: go on);
			 * a loop has one per set of requests pending at the
			 * start of an iteration, all on its counter */
	OP_JUMP,	/* to target */
	OP_WAIT,	/* the requests of wmask complete: they leave the
			 * pending ones (the rest move up: pr->sd[after..]) */
	OP_TEST,	/* slot (wmask): complete, it leaves them and alts[alt]
			 * runs; else alts[alt + 1] (nalt 2).  Slot -1 (nalt
			 * 1): complete before, alts[alt] at once */
	OP_WAITANY,	/* alts[alt + k]: the k-th lowest request of wmask
			 * complete, it leaves them and that branch runs */
	OP_WAITSOME,	/* alts[alt + c - 1]: c the set of the requests of
			 * wmask complete (bit k: its k-th lowest), all of
			 * them leave, their blocks run in posting order */
	OP_PROBE,	/* lp: wait for a message there, not taking it */
	OP_PROBEANY,	/* lo..hi */
	OP_IPROBE,	/* lp: a message there: alts[alt], else alts[alt + 1] */
	OP_IPROBEANY,	/* lo..hi, the same */
	OP_RECVPROBED,	/* 'recv m': as RECV, on the local port counter ctr
			 * holds + 1 (m's probe put it there; one of lo..hi-1),
			 * which it empties */
};

/* The send mode a statement fixes; MODE_STANDARD follows the checked mode. */
struct ins {
	uint8_t		 op;
	uint8_t		 mode;		/* enum send_mode */
	int		 lp;		/* local port: slot from the process's portbase */
	int		 lo, hi;	/* RECVANY/IRECVANY: local ports lo..hi-1 */
	int		 slot;		/* ISEND/IRECV*: its request slot */
	int		 ctr;		/* LOOP/NEXT: counter; PROBE*, IPROBE*
					 * with 'as m', RECVPROBED: m's counter
					 * (-1: none) */
	int64_t		 count;		/* LOOP: iterations, -1 forever */
	int		 target;	/* NEXT: the exit; JUMP: where to */
	int		 alt, nalt;	/* CHOICE */
	int		 coll;		/* COLL: index in mpnet.colls */
	int		 nposted;	/* requests posted and not waited before it */
	int		 sd;		/* first of those in prog.sd */
	uint64_t	 wmask;		/* WAIT, TEST, WAITANY, WAITSOME: its
					 * requests, bit k the k-th pending */
	int		 after;		/* WAIT: the requests pending after it in
					 * prog.sd (-1: none) */
	const struct stmt *src;		/* its statement, for locations */
};

/* A posted request, as far as the program text knows it. */
enum { SD_SEND, SD_RECV, SD_RECVANY };
struct slotdesc {
	uint8_t		 kind;
	uint8_t		 mode;		/* SD_SEND: enum send_mode */
	int		 lp;		/* SD_SEND, SD_RECV */
	int		 lo, hi;	/* SD_RECVANY */
	int		 ins;		/* the instruction that posted it */
	int		 req;		/* its name in the behaviour ('as'): 1 +
					 * the name's number; 0: none */
};

/* One compiled program, shared by every process whose code is the same. */
struct prog {
	struct ins	*ins;
	int		 nins;
	int		*alts;
	int		 nalts;
	struct slotdesc	*sd;
	int		 nsd;
	int		 nctr;
	int64_t		*ctrmax;	/* each counter's largest value */
	int		 nslots;	/* request slots */
	int		 has_forever;	/* an endless loop */
	int		 has_wild;	/* a wildcard ('any') or choice */
	int		 comp;		/* the component of every process using it */
	int		 id;		/* its index in mpnet.uprog */
	int		 nlp;		/* local ports */
	int64_t		*lpbound;	/* per local port: most sends; -1 unbounded */
};

/* A collective's signature: its kind, root (-1: none) and group (index
 * in pcg.groups; -1: the application).  Its communicator ('comm') is
 * group + 1: 0 the application's, each group's its own; collectives of
 * different communicators never match. */
struct coll {
	int		 kind;		/* S_BARRIER ... S_GATHERV */
	int		 root;
	int		 group;
};

/* One direction of a channel: from the process at end 'from' to 'to'. */
struct dchan {
	int		 chan;		/* in pcg.chans */
	int		 from, to;	/* processes */
	int		 from_lp, to_lp;
	int		 used;		/* some program sends on it */
	int64_t		 bound;		/* most messages it can hold; -1: unknown */
};

struct mpnet {
	const struct pcg *pcg;		/* borrowed */
	int		 nprocs;
	const struct prog **progs;	/* per process */
	struct prog	**uprog;	/* the distinct programs (owned) */
	int		 nuprog;
	int		*send_dc;	/* per port slot: directed channel out, or -1 */
	int		*recv_dc;	/* per port slot: directed channel in, or -1 */
	struct dchan	*dc;
	int		 ndc;
	struct coll	*colls;
	int		 ncolls;
	int		 ncomms;	/* 1 + pcg.ngroups */
	int		 groups;	/* collectives over a group are used */
	int		 finite;	/* no endless loop */
	int		 rooted;	/* rooted collectives are used */
};

/* Where control can go from instruction pc, into out (room for its
 * branches, 2 at least): every branch of a CHOICE, a NEXT's way round
 * and, for a counted loop, its way out; how many. */
int mpnet_next(const struct prog *, int pc, int *out);
/* A communicator's processes (0: every process of the net, in order;
 * g + 1: group g's, in rank order): how many, into *mem (borrowed; NULL
 * for 0, process k being member k); whether proc is one. */
int mpnet_comm(const struct mpnet *, int comm, const int **mem);
int mpnet_in_comm(const struct mpnet *, int comm, int proc);
/* " over rows[2]" for a collective over a group, "" otherwise (buf). */
const char *mpnet_over(const struct mpnet *, const struct coll *, char *buf,
    size_t len);
/* Room for a search's stack of mpnet_next's answers over a program, each
 * instruction visited once. */
#define MPNET_NEXT_ROOM(pr)	(2 * (pr)->nins + (pr)->nalts + 2)
/* Room for mpnet_walk's stack, which may see an instruction again once
 * for each counter it finds reset. */
#define MPNET_WALK_ROOM(pr)	\
	(MPNET_NEXT_ROOM(pr) * ((pr)->nctr < 64 ? (pr)->nctr + 1 : 65))
/* A walk's scratch: per instruction the stamp of the walk that saw it
 * and the counters it had seen reset there (nseen of each, the program's
 * nins + 1 at least), and a stack of instructions and their resets
 * (MPNET_WALK_ROOM each); seen NULL: mpnet_walk makes its own. */
struct mpnet_walk {
	uint32_t	*seen;
	uint64_t	*reset;
	size_t		 nseen;
	int		*stack;
	uint64_t	*rstack;
	uint32_t	 stamp;
};
/* Counters of a state for mpnet_walk: bit k set when counter k is above
 * zero (its loop goes round again); MPNET_ANY when any may be (the
 * program's text alone: every loop may go round). */
#define MPNET_ANY	UINT64_MAX
/* Walk pr's control from pc, every branch, as a process at pc whose
 * counters are 'more' can go: a counted loop it is in goes round again
 * only while its counter is above zero, one entered afresh (through its
 * LOOP) as its count allows; counters past the 64th may always.  visit
 * says 1 (found: stop, return 1), 0 (go on past it) or -1 (not past it);
 * each instruction is visited once.  0 when nothing was found. */
int mpnet_walk(const struct prog *, int pc, uint64_t more,
    int (*visit)(void *, const struct ins *), void *arg, struct mpnet_walk *);
/* The statement as written in reports: "send Prop[1]", "recv any Work". */
/* Whether the root of a collective of this kind gives to the others
 * (bcast, scatter, scatterv) rather than takes from them (reduce, gather,
 * gatherv): which side may leave it at once in buffered mode. */
int mpnet_coll_fanout(int kind);
/* A collective kind as a script writes it, before its root: "barrier",
 * "gatherv to". */
const char *mpnet_coll_words(int kind);
const char *mpnet_ins_text(const struct mpnet *, int proc, const struct ins *,
    char *buf, size_t len);
/* The port's name as in scripts, "Prop[1]". */
const char *mpnet_port_name(const struct mpnet *, int proc, int lp, char *buf,
    size_t len);
/* Port slot of a process's local port. */
#define MPNET_PORTSLOT(net, proc, lp)	((net)->pcg->procs[proc].portbase + (lp))

/* Whether op branches on the state of communication (test, iprobe,
 * waitany, waitsome): its branches are alternatives as a CHOICE's, but
 * the state decides which are enabled. */
static inline int
mpnet_op_polls(int op)
{
	return op == OP_TEST || op == OP_WAITANY || op == OP_WAITSOME ||
	    op == OP_IPROBE || op == OP_IPROBEANY;
}

/* The k-th lowest bit of mask (0: none). */
static inline uint64_t
mpnet_nth_bit(uint64_t mask, int k)
{
	for (; k > 0; k--)
		mask &= mask - 1;
	return mask & -mask;
}

/* The bits of mask that c picks: bit j of c its j-th lowest (a waitsome's
 * branch c - 1 completes these). */
static inline uint64_t
mpnet_pick_bits(uint64_t mask, uint64_t c)
{
	uint64_t	out = 0;
	int		j;

	for (j = 0; c != 0; j++, c >>= 1)
		if (c & 1)
			out |= mpnet_nth_bit(mask, j);
	return out;
}

/* The local port a receive takes from: RECV's own, or for RECVPROBED
 * (lp -1) the one its counter holds, 'held' (the counter's value). */
static inline int
mpnet_recv_lp(const struct ins *in, uint64_t held)
{
	return in->op == OP_RECVPROBED ? (int)held - 1 : in->lp;
}

/* Whether a send of this mode (enum send_mode) is synchronous when
 * standard sends are checked as 'check'. */
static inline int
mpnet_sync(int mode, enum check_mode check)
{
	return mode == MODE_SYNC || (mode == MODE_STANDARD && check == CHECK_SYNC);
}

/* Whether a posted request is a receive that accepts local port lp. */
static inline int
slotdesc_accepts(const struct slotdesc *d, int lp)
{
	if (d->kind == SD_RECV)
		return d->lp == lp;
	if (d->kind == SD_RECVANY)
		return lp >= d->lo && lp < d->hi;
	return 0;
}

#endif
