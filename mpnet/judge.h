/* judge.h -- the judge of an MP net's states (judge.c): how bad a state
 * is, on the explorer's hot path, and what report.c reads of the judge
 * to say why. */
#ifndef ENS_JUDGE_H
#define ENS_JUDGE_H

#include "sem.h"

/* A state's judge (judge.c's scratch space for one net and mode). */
struct rjudge;
struct rjudge *judge_new(struct sem *);
void judge_free(struct rjudge *);

/* How bad the violation state s shows is: 0 none, else vkind_prio of its
 * kind (violation.h).  'ps' says per process whether it runs, is blocked (no transition
 * it takes part in is enabled) or ended (sem_states).  What a state shows
 * stays in every state after it: processes stuck for good (blocked, and
 * needing only processes that are stuck, ended, or can never give what
 * they need), a process that ended with requests pending or without a
 * collective others left, a message to a process that ended.  A state
 * where every process ended and every channel is empty, or where nothing
 * is stuck, is good. */
int judge_state(struct rjudge *, const uint64_t *s, const unsigned char *ps);
/* The worst a net can show, as vkind_prio ranks it (no collectives: no
 * mismatch). */
int judge_worst(const struct mpnet *);

/* What a blocked process needs from another to go on (struct need). */
enum judge_need { JN_SEND, JN_RECV, JN_COLL };

/* p needs q to send on directed channel dc (JN_SEND), to receive from it
 * (JN_RECV), or to come to collective 'arg' (JN_COLL). */
struct need {
	int		 q;
	int		 what;
	int		 arg;
	int		 gives;		/* q has not ended and can give it */
};


struct rjudge {
	struct sem	*m;
	int		 N;
	unsigned char	*stuck;		/* per process */
	unsigned char	*ps;		/* per process (report_violation's own) */
	struct need	*need;		/* what each stuck candidate needs: */
	int		*nfirst;	/* need[nfirst[p] .. nfirst[p + 1]) */
	size_t		 nalloc;
	struct mpnet_walk walk;		/* scratch for the longest program */
	uint32_t	 stamp;
	int		*color, *dstack, *it;	/* the cycle search */
	struct trans	*ts;
	int		 mcomm;		/* the communicator judge_coll_mismatch
					 * found one in (0: the application's) */
	uint64_t	*live;		/* the states of livelock's closure
					 * (JUDGE_LIVE_STATES of them, made
					 * when first needed) */
	int		*lstack;	/* and its stack of them */
	/* can_give's searches, by program, pc, what and arg: they depend
	 * on nothing else (a direct-mapped cache of 2^cbits entries, more
	 * the more channels and processes: each worker of a farm asks of
	 * its own channel). */
	uint64_t	*ckey;
	uint64_t	*cmore;			/* the counters it was for */
	int8_t		*cval;
	int		 cbits;
	/* Behind it, what a walk from a program's pc with its counters
	 * reaches, whatever is asked of it (judge.c: reach_set): RS_SLOTS
	 * entries of rbytes each (0: none kept), direct-mapped. */
	uint64_t	*rkey, *rmore;
	unsigned char	*rbits;
	size_t		 rbytes;
	int		 rlp;			/* local ports a set has room for */
};

/* Whether instruction 'in' of the process whose ports start at portbase
 * gives what a need asks ('what' an enum judge_need, 'arg' its channel or
 * collective); promela.c's judge asks it too. */
int judge_gives(const struct mpnet *, int portbase, const struct ins *in,
    int what, int arg);

/* For report.c: the judge's findings in a state s, judge.c says how. */
static inline const struct ins *
judge_ins(const struct sem *m, const uint64_t *s, int p)
{
	return &m->p[p].pr->ins[sem_pc(m, s, p)];
}
int judge_log_len(const struct sem *, const uint64_t *s, int comm);
int judge_waits_for(struct rjudge *, const uint64_t *s, int p, int *w,
    int *any);
int judge_depends(const struct rjudge *, int p, int q);
int judge_waits_to_send(const struct sem *, const uint64_t *s, int p);
/* Whether s is a livelock: processes poll in vain for ever (judge.c);
 * with polls non-NULL, which ones, into polls[p]. */
int judge_livelock(struct rjudge *, const uint64_t *s, const unsigned char *ps,
    unsigned char *polls);
int judge_coll_missed(const struct sem *, const uint64_t *s, int p,
    const struct ins *in);
int judge_coll_mismatch(struct rjudge *, const uint64_t *s);
int judge_find_cycle(struct rjudge *, const uint64_t *s, int *cyc);
int judge_stuck_roots(struct rjudge *, const uint64_t *s, int *roots,
    int *sends);
void judge_tables(struct rjudge *);
int judge_eval(struct rjudge *, const uint64_t *s, const unsigned char *ps);

#endif
