/* explore.h -- the state-space explorers over a model (model.h):
 * breadth-first search (every interleaving, or reduced by stubborn sets)
 * with a compact state store, the depth-first dive for a violation, and
 * the single-run explorers for determinate networks (kahn.c). */
#ifndef ENS_EXPLORE_H
#define ENS_EXPLORE_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "tick.h"

enum xstatus {
	X_DONE,		/* explored: no violation */
	X_VIOLATION,	/* 'final' is a bad state, 'trace' leads there: the
			 * first found of the worst judgement found */
	X_OVERFLOW,	/* the model's fire ran out of room: widen, retry
			 * ('bad' > 0: a violation was found before it) */
	X_LIMIT,	/* a state, memory or time limit; 'limit' says which */
};

/* The limit that stopped a search. */
enum xlimit {
	XL_NONE,
	XL_STATES,	/* --max-states */
	XL_MEMORY,	/* xopts.max_memory */
	XL_TIME,	/* --max-time */
	XL_STORE,	/* the most states the store can index */
	XL_LOW_MEMORY,	/* the machine's memory running out (explore_watch) */
};

/* The hash of a state's n words (the state stores' and the one run's). */
static inline uint64_t
explore_hash(const uint64_t *w, uint32_t n)
{
	uint64_t	h = 0x9e3779b97f4a7c15ULL ^ n;
	uint32_t	i;

	for (i = 0; i < n; i++) {
		h ^= w[i] * 0xff51afd7ed558ccdULL;
		h = (h << 31 | h >> 33) * 0xc4ceb9fe1a85ec53ULL;
	}
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 32;
	return h;
}

struct xresult {
	enum xstatus	 status;
	uint64_t	 states;
	uint64_t	 transitions;
	uint64_t	 peak_bytes;	/* state store and table */
	struct trans	*trace;		/* from the initial state (owned) */
	size_t		 ntrace;
	uint64_t	*final;		/* model.words words (owned) */
	int		 bad;		/* X_VIOLATION: the judgement of final */
	int		 overflowed;	/* X_VIOLATION found before an X_OVERFLOW */
	enum xlimit	 limit;		/* X_LIMIT, or X_VIOLATION found before
					 * it: what ran out */
	uint64_t	 avail, need;	/* XL_LOW_MEMORY: the memory available,
					 * and what going on needed */
	uint64_t	 max_memory;	/* the default memory limit once asked
					 * (explore_budget); 0 before */
};

struct xopts {
	int		 reduce;	/* stubborn sets */
	uint64_t	 max_states;	/* 0: none */
	uint64_t	 max_trans;	/* transitions fired, explore_bfs: past
					 * it, stop as at max_states; 0: none */
	uint64_t	 max_memory;	/* bytes; 0: the default (explore_budget) */
	double		 deadline;	/* clock_now() to stop at; 0: none */
	int		 progress;
	const char	*label;		/* for progress lines */
	/* verify_opts.tick, with clock_now() when verification began. */
	void		(*tick)(void *, const struct verify_tick *);
	void		*tick_arg;
	double		 began;
	int		 judge_all;	/* judge every state, not only end states */
	int		 worst;		/* a judgement that ends the search */
	int		 record;	/* kahn: keep the actions (the BFS always can) */
	int		 full;		/* go on after the worst: count every state */
};

/* Every reachable state (or, reducing, enough of them: every end state,
 * and a state showing each lasting violation), breadth first.  It stops
 * at the first state judged 'worst', else goes on to find the worst. */
void explore_bfs(struct model *, const struct xopts *, struct xresult *);
/* Depth first with the same stubborn sets, a state expanded fully every
 * AGE_MOST reduced steps down the stack, no cycle proviso, for a
 * state judged o->worst: X_VIOLATION with a trace to it (seldom the
 * shortest); X_DONE or X_LIMIT otherwise, which prove nothing. */
void explore_dfs(struct model *, const struct xopts *, struct xresult *);
/* Determinate networks whose programs all end: one run decides. */
void explore_kahn(struct model *, const struct xopts *, struct xresult *);
/* Determinate networks that may run for ever: one run, in rounds, until
 * its state repeats or nothing moves, then one per receiving process held
 * still, for channels without bound (X_OVERFLOW).  'states' counts the
 * steps of them all + 1.  With o->record, 'trace' leads to 'final'. */
void explore_kahn_endless(struct model *, const struct xopts *, struct xresult *);
void xresult_free(struct xresult *);
/* The judgement of state s (the model's judge), its groups having gn[g]
 * transitions enabled (gn NULL: none, an end state; coll: one is a
 * step all take at once), ps filled as model.h's PS_*: a group with a
 * transition enabled runs (a process that ended with a request that can
 * still take a message too).  Good at once when every group runs (what
 * a state shows needs one that is blocked or ended). */
int explore_judge(struct model *, const uint64_t *s,
    const int *gn, int coll, unsigned char *ps);
/* Per group, its component (the least group of it: the model's
 * components).  Groups of different components never interact.  The
 * caller frees it; NULL when the model does not say. */
int *explore_components(const struct model *);

/* When a second has passed since *last: o->tick, and with o->progress a
 * progress line on stderr: the states, states per second since *last,
 * the bytes the search holds (of its max_memory) and the seconds since
 * t0.  On a terminal it is one line rewritten in place, without a
 * newline: "\r\033[K" erases it. */
void explore_progress(const struct xopts *, struct xresult *, uint64_t states,
    uint64_t bytes, double t0, double *last, uint64_t *last_states);


/* The default memory limit of a search, in bytes: half of the memory
 * available (MemAvailable, or less where a control group leaves less)
 * less a safety margin (a sixteenth of the memory, 256 MB to 2 GB), and
 * at least 32 MB. */
uint64_t explore_default_memory(void);
/* The memory limit of a search that needs 'need' bytes now: 'given'
 * (--max-memory) unless 0; else the default, asked of the system into
 * *asked the first time the need passes 32 MB, which the default never
 * is below.  A small search then never reads /proc and the control
 * groups: that was a quarter of the time of a small 'verify'. */
uint64_t explore_budget(uint64_t given, uint64_t *asked, uint64_t need);
/* What stops a search now, called every so often: XL_TIME past the
 * deadline; XL_LOW_MEMORY (with r->avail and r->need set) when the memory
 * still available is less than the safety margin plus 'next', the most
 * the search may take at once before the next call (no more than its
 * max_memory less 'held', what it holds); else XL_NONE.  The memory is
 * read at most once a second, and only while the search holds 32 MB. */
enum xlimit explore_watch(const struct xopts *, uint64_t held, uint64_t next,
    struct xresult *r);
/* Why a search stopped at XL_MEMORY or XL_LOW_MEMORY, for a report (the
 * caller frees it); 'given': the limit was --max-memory's. */
char *explore_memory_text(const struct xresult *, const struct xopts *,
    int given);
#endif
