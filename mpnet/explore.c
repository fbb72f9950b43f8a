/* explore.c -- breadth-first exploration of an MP net's states, and the
 * depth-first dive for a violation before it (explore_dfs).  States
 * are stored once, bit-packed, in chunks in discovery order (so the BFS
 * queue is just an index into them), each with a 32-bit parent link for
 * shortest counterexamples; an open-addressing table finds them.  An
 * entry holds the top 32 bits of the state's hash and its index + 1: a
 * probe that misses rarely touches a stored state, and growing the table
 * never reads them (a state's slot is the top bits of its hash).  No
 * per-state malloc.
 *
 * Reduction: a process whose enabled transitions are all safe (sem.c says
 * which: nothing another process can do now or later conflicts with them,
 * a choice among its own branches included) forms a stubborn set and is
 * fired alone (or, while only its pending requests' matches are unsafe,
 * its next post or send alone: stubborn_part): a persistent set, every
 * path from the state either fires one of its transitions first or
 * commutes with all of them.  Where no process alone is one, a set of
 * processes may be (closed_set): each process's deps (model.h; sem.c:
 * the senders that may still bring a port it reads something, the
 * receiver of a synchronous send it waits in, the members of a collective
 * it is at) in the set.  Then no step of a process outside the set
 * changes what a process in it can do (by induction along any path of
 * steps outside the set: a process of the set with a step enabled keeps
 * exactly those, none of its deps having moved; one with none stays
 * so, none of those that could enable one having moved), so the set's
 * processes take no step on such a path, and every step taken commutes
 * with theirs: the set's enabled transitions are persistent.  A pair
 * whose receives are wildcards over the pair's channels is such a set,
 * and moves alone as one process does.  Which set
 * (better()) changes only how many states are seen: judging every state,
 * one that can end first; then one of the component (processes joined by
 * channels) that made the last step, so an independent part runs alone
 * until it blocks, ends or closes a cycle (a set of several of it before
 * a process of another alone); then one step before a choice.
 *
 * Why the verdicts are those of every interleaving, property by property:
 *
 * Where only end states are judged (nets that always end), there is no
 * cycle proviso: persistent sets keep every reachable end state of a
 * finite state space (a path to an end state must fire a transition of
 * the set, which can be moved first; a path that fired none could not
 * end, the set's transitions staying enabled).  Deadlocks, orphan
 * receives, unmatched sends, collective mismatches and unwaited requests
 * are all judged there, so each is found if any end state shows it.
 *
 * Where every state is judged (report.h: what a state shows lasts, being
 * stuck or ended holds in every later state), a path w from state s to a
 * bad state u either fires a transition t of the set (moved first, one
 * step shorter) or commutes with t, reaching u' = u after t, which shows
 * what u showed since it follows u.  Repeating this follows reduced steps
 * only, w no shorter, until a state expanded fully takes w's first step.
 * That must come, and soon, for the argument to hold: every process that
 * can move must move on every path of the reduced graph within a bounded
 * number of steps, or a process running alone for ever (round a cycle, or
 * filling a channel without bound, where no state comes back) puts the
 * rest off for ever (the ignoring problem).  The proviso: every cycle of
 * the reduced graph holds a state expanded fully, and so does every path
 * of it on which channels grow past one message AGE_MOST times (a step
 * that leaves a channel holding two messages or more, one more than
 * before: model.h's fire says so).  Each state keeps its age, the most
 * such steps on a run of reduced steps, none from a state expanded fully,
 * by which the search has reached it (0 from a state expanded fully,
 * raised while it waits to be expanded); a state of age AGE_MOST is
 * expanded fully, and so is one whose stubborn set reaches a state
 * expanded before (or itself) that was not expanded fully.  States are
 * expanded in the order they were found, so along a path with no state
 * expanded fully each step leads to a state expanded later (a step back
 * to one expanded before would have expanded its source fully), whose
 * age is then at least its source's, one more after a channel grew: the
 * AGE_MOST-th growth leads to a state expanded fully.  An endless path of
 * the reduced graph either comes back to a state (a cycle) or visits
 * states without end, whose channel counts then grow without bound
 * (everything else in a state is bounded), so it grows a channel past one
 * message again and again: either way it holds states expanded fully
 * again and again, where a violation's next step is taken.  A violation
 * a few actions from a state is thus found after at most AGE_MOST growths
 * of a channel an action, long before a channel's limit of 65535
 * messages, which a process sending alone for ever reaches; and a round
 * of a net that comes back to its state costs no full expansion however
 * long it is while its channels hold a message or none (a farm of 100
 * workers for ever).  A step to a state found but not expanded yet
 * asks no full expansion (marking such a state to be expanded fully, as
 * once, expanded every state where two branches of a choice meet again:
 * endless pairs whose senders choose send or ssend multiplied, (2N + 1)
 * 2^N states; they are 5N + 1 now).
 *
 * The search stays breadth first: the counterexample is the shortest in
 * the reduced graph, not always among all interleavings (--exact's is;
 * verify.c searches every interleaving through a few thousand states
 * before a long reduced search, for a violation a few actions from the
 * start with its shortest counterexample). */
#include "config.h"

#include <sys/ioctl.h>
#include <sys/mman.h>

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "explore.h"
#include "memory.h"
#include "xmalloc.h"

#define CHUNK_SHIFT	18
#define CHUNK_STATES	(1u << CHUNK_SHIFT)
#define NO_PARENT	UINT32_MAX
#define MAX_STATES	(UINT32_MAX - 1)

struct store {
	uint32_t	 rec;		/* bytes per record: parent + state */
	uint32_t	 bytes;		/* of a state */
	uint32_t	 words;
	unsigned char	**chunks;
	size_t		 nchunks, chunkalloc;
	uint64_t	 n;		/* states */
	uint64_t	*table;		/* hash >> 32 << 32 | index + 1; 0 empty */
	uint64_t	 mask;
	int		 tbits;		/* log2 of the table's size */
	uint64_t	 mem;		/* bytes held */
	uint64_t	 max_memory;	/* given, or 0 (explore_budget) */
	uint64_t	*asked;		/* the default, once asked */
	uint64_t	 max_states;	/* 0: none */
};

/* Zeroed memory straight from the kernel, in huge pages where it lets us
 * and 'huge' asks: page faults were a seventh of the time of a big search
 * with 4 KiB pages.  A small search does not ask: the kernel zeroes a
 * huge page whole on its first touch, 2 MiB for a few states (a third of
 * a small 'verify' when the first chunk of states asked).  NULL if none. */
static void *
big_alloc(size_t size, int huge)
{
	void	*p = mmap(NULL, size, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	if (huge && size >= (2u << 20))
		(void)madvise(p, size, MADV_HUGEPAGE);
#else
	(void)huge;
#endif
	return p;
}

static void
big_free(void *p, size_t size)
{
	if (p != NULL)
		munmap(p, size);
}

static inline unsigned char *
rec_at(const struct store *st, uint64_t i)
{
	return st->chunks[i >> CHUNK_SHIFT] + (i & (CHUNK_STATES - 1)) * st->rec;
}

static void
load(const struct store *st, uint64_t i, uint64_t *w)
{
	memset(w, 0, sizeof(uint64_t) * st->words);
	memcpy(w, rec_at(st, i) + 4, st->bytes);
}

static uint32_t
parent_of(const struct store *st, uint64_t i)
{
	uint32_t	p;

	memcpy(&p, rec_at(st, i), 4);
	return p;
}

/* The slot a hash starts at: its top bits. */
static inline uint64_t
slot_of(uint64_t h, int tbits)
{
	return h >> (64 - tbits);
}

static int
store_grow_table(struct store *st)
{
	uint64_t	 size = st->table == NULL ? 1u << 12 : (st->mask + 1) * 2;
	uint64_t	*t, i, j, e;
	int		 tbits = 0;

	while ((1ULL << tbits) < size)
		tbits++;
	if (tbits > 32 || st->mem + size * 8 >
	    explore_budget(st->max_memory, st->asked, st->mem + size * 8))
		return -1;
	if ((t = big_alloc(size * 8, 1)) == NULL)
		return -1;
	for (i = 0; st->table != NULL && i <= st->mask; i++) {
		if ((e = st->table[i]) == 0)
			continue;
		for (j = slot_of(e, tbits); t[j] != 0; j = (j + 1) & (size - 1))
			;
		t[j] = e;
	}
	if (st->table != NULL) {
		st->mem -= (st->mask + 1) * 8;
		big_free(st->table, (st->mask + 1) * 8);
	}
	st->table = t;
	st->mask = size - 1;
	st->tbits = tbits;
	st->mem += size * 8;
	return 0;
}

static void
store_init(struct store *st, const struct model *m, uint64_t max_memory,
    uint64_t *asked)
{
	memset(st, 0, sizeof(*st));
	st->bytes = m->bytes;
	st->words = m->words;
	st->rec = 4 + m->bytes;
	st->max_memory = max_memory;
	st->asked = asked;
}

static void
store_free(struct store *st)
{
	size_t	i;

	for (i = 0; i < st->nchunks; i++)
		big_free(st->chunks[i], (size_t)CHUNK_STATES * st->rec);
	free(st->chunks);
	if (st->table != NULL)
		big_free(st->table, (st->mask + 1) * 8);
}

enum { ST_FOUND, ST_INSERTED, ST_FULL, ST_LIMIT };

static inline void
store_prefetch(const struct store *st, uint64_t h)
{
	__builtin_prefetch(&st->table[slot_of(h, st->tbits)]);
}

/* Find or add state w (its hash h, its parent p); *idx gets its index. */
static int
store_put(struct store *st, const uint64_t *w, uint64_t h, uint32_t p, uint64_t *idx)
{
	uint64_t	j, e, top = h >> 32 << 32;
	unsigned char	*r;

	if (st->table == NULL || (st->n + 1) * 10 > (st->mask + 1) * 7)
		if (store_grow_table(st) != 0)
			return ST_FULL;
	for (j = slot_of(h, st->tbits); (e = st->table[j]) != 0; j = (j + 1) & st->mask) {
		if ((e >> 32 << 32) != top)
			continue;
		r = rec_at(st, (uint32_t)e - 1) + 4;
		if (memcmp(r, w, st->bytes) == 0) {
			*idx = (uint32_t)e - 1;
			return ST_FOUND;
		}
	}
	if (st->n >= MAX_STATES)
		return ST_FULL;
	if (st->max_states > 0 && st->n >= st->max_states)
		return ST_LIMIT;
	if ((st->n >> CHUNK_SHIFT) >= st->nchunks) {
		size_t	size = (size_t)CHUNK_STATES * st->rec;

		if (st->mem + size >
		    explore_budget(st->max_memory, st->asked, st->mem + size))
			return ST_FULL;
		xgrow(&st->chunks, &st->chunkalloc, st->nchunks + 1, sizeof(*st->chunks));
		/* (the first in small pages: most searches end in it) */
		st->chunks[st->nchunks] = big_alloc(size, st->nchunks > 0);
		if (st->chunks[st->nchunks] == NULL)
			return ST_FULL;
		st->nchunks++;
		st->mem += size;
	}
	r = rec_at(st, st->n);
	memcpy(r, &p, 4);
	memcpy(r + 4, w, st->bytes);
	st->table[j] = top | (st->n + 1);
	*idx = st->n++;
	return ST_INSERTED;
}

/* The transition that leads from state a to a state whose canonical form
 * (model.h: canon; without, itself) is b: into *out, its successor into w
 * (c: scratch).  -1 when none does. */
static int
find_step(struct model *m, const uint64_t *a, const uint64_t *b, struct trans *ts,
    uint64_t *w, uint64_t *c, struct trans *out)
{
	int	g, k, n;

	for (g = 0; g < m->ngroups; g++) {
		n = m->enabled(m->arg, a, g, ts);
		for (k = 0; k < n; k++) {
			memcpy(w, a, sizeof(uint64_t) * m->words);
			if (m->fire(m->arg, w, &ts[k]) < 0)
				continue;
			memcpy(c, w, sizeof(uint64_t) * m->words);
			if (m->canon != NULL)
				(void)m->canon(m->arg, c, -1, NULL);
			if (memcmp(c, b, m->bytes) == 0) {
				*out = ts[k];
				return 0;
			}
		}
	}
	return -1;
}

/* The counterexample to stored state 'last' (r->trace) and the state it
 * ends in (r->final): a run of the real processes from the initial state,
 * each step one whose successor has the next stored state on the way as
 * its canonical form (the stored states are canonical under symmetry,
 * the run's are the processes' own). */
static void
rebuild(struct model *m, struct store *st, uint64_t last, struct trans *ts,
    struct xresult *r)
{
	uint64_t	*path = NULL, i, *a, *b, *w, *c;
	size_t		 n = 0, alloc = 0, k;

	for (i = last; i != NO_PARENT; i = parent_of(st, i)) {
		xgrow(&path, &alloc, n + 1, sizeof(uint64_t));
		path[n++] = i;
	}
	a = xcalloc(m->words, sizeof(uint64_t));
	b = xcalloc(m->words, sizeof(uint64_t));
	w = xcalloc(m->words, sizeof(uint64_t));
	c = xcalloc(m->words, sizeof(uint64_t));
	m->initial(m->arg, a);
	r->trace = xcalloc(n > 0 ? n : 1, sizeof(struct trans));
	r->ntrace = 0;
	for (k = n - 1; k > 0; k--) {
		load(st, path[k - 1], b);
		if (find_step(m, a, b, ts, w, c, &r->trace[r->ntrace]) == 0) {
			r->ntrace++;
			memcpy(a, w, sizeof(uint64_t) * m->words);
		}
	}
	free(r->final);
	r->final = a;
	free(path);
	free(b);
	free(w);
	free(c);
}

/* On a terminal the line is rewritten in place, cut to the terminal's
 * width (a wrapped line could not be), and the caller erases it when the
 * search ends; elsewhere each is a line of its own. */
void
explore_progress(const struct xopts *o, struct xresult *r, uint64_t states,
    uint64_t bytes, double t0, double *last, uint64_t *last_states)
{
	static int	 tty = -1;
	struct verify_tick tk;
	struct winsize	 ws;
	char		 line[256];
	double		 t = clock_now();
	int		 width = 79;

	if (t - *last < 1.0)
		return;
	if (o->tick != NULL) {
		tk.label = o->label;
		tk.states = states;
		tk.bytes = bytes;
		tk.seconds = t - o->began;
		o->tick(o->tick_arg, &tk);
	}
	if (!o->progress)
		goto out;
	if (tty < 0)
		tty = isatty(STDERR_FILENO);
	snprintf(line, sizeof(line), "ensemble: %s: %" PRIu64 " states, %.2f M/s, "
	    "%" PRIu64 " of %" PRIu64 " MB, %.0f s", o->label, states,
	    (double)(states - *last_states) / (t - *last) / 1e6, bytes >> 20,
	    explore_budget(o->max_memory, &r->max_memory, UINT64_MAX) >> 20,
	    t - t0);
	if (!tty)
		fprintf(stderr, "%s\n", line);
	else {
		if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
			width = ws.ws_col - 1;
		fprintf(stderr, "\r\033[K%.*s", width, line);
	}
out:
	*last = t;
	*last_states = states;
}

/* Successors are made and looked up in batches, their table entries
 * prefetched first, so the cache misses of a batch overlap. */
#define BATCH	16

/* The cycle proviso's record of the states, where the search judges every
 * state with stubborn sets (see explore_bfs): per state the group whose
 * step first reached it + 1, and PV_FULL when it is (or is to be)
 * expanded fully; and its age: the most times a channel grew past one
 * message on a run of reduced steps, none from a state expanded fully,
 * by which the search has reached it. */
#define PV_FULL		0x80000000u

/* The most times channels grow past one message on a path of the reduced
 * graph with no state expanded fully: a state reached so is expanded
 * fully (explore_bfs). */
#define AGE_MOST	64

struct proviso {
	uint32_t	*info;
	uint8_t		*age;
	size_t		 alloc, agealloc;
	uint64_t	 head;		/* the state being expanded */
	int		 reduced;	/* firing a stubborn set, not all */
	int		 age_head;	/* the head's age */
	int		 closes;	/* it reached a state expanded before,
					 * not fully: expand the head fully */
};

/* Fire ts[lo..hi) from cur, storing what is new.  Returns 0, or -1 after
 * setting r->status; *found counts successors already known.  nxt has room
 * for BATCH states.  pv (NULL: no proviso) records who reached each new
 * state and judges the known ones a stubborn set reaches. */
static int
fire_range(struct model *m, struct store *st, const uint64_t *cur, uint64_t *nxt, uint64_t head, const struct trans *ts,
    int lo, int hi, int *found, struct xresult *r, struct proviso *pv)
{
	uint64_t	idx, h[BATCH];
	int		k, b, n, rc, age, grew[BATCH], mover[BATCH];

	for (k = lo; k < hi; k += n) {
		n = hi - k < BATCH ? hi - k : BATCH;
		for (b = 0; b < n; b++) {
			uint64_t	*w = nxt + (size_t)b * m->words;

			memcpy(w, cur, sizeof(uint64_t) * m->words);
			if ((grew[b] = m->fire(m->arg, w, &ts[k + b])) < 0) {
				r->status = X_OVERFLOW;
				return -1;
			}
			mover[b] = m->canon == NULL ? ts[k + b].proc :
			    m->canon(m->arg, w, ts[k + b].proc, cur);
			h[b] = explore_hash(w, st->words);
			if (st->table != NULL)
				store_prefetch(st, h[b]);
		}
		for (b = 0; b < n; b++) {
			r->transitions++;
			rc = store_put(st, nxt + (size_t)b * m->words, h[b],
			    (uint32_t)head, &idx);
			if (rc == ST_FULL) {
				r->status = X_LIMIT;
				if (st->n >= MAX_STATES)
					r->limit = XL_STORE;
				else
					r->limit = XL_MEMORY;
				return -1;
			}
			if (rc == ST_LIMIT) {
				r->status = X_LIMIT;
				r->limit = XL_STATES;
				return -1;
			}
			if (rc == ST_FOUND)
				(*found)++;
			if (pv == NULL)
				continue;
			age = pv->reduced ? pv->age_head + grew[b] : 0;
			if (rc == ST_INSERTED) {
				xgrow(&pv->info, &pv->alloc, idx + 1, sizeof(*pv->info));
				xgrow(&pv->age, &pv->agealloc, idx + 1, sizeof(*pv->age));
				pv->info[idx] = (uint32_t)mover[b] + 1;
				pv->age[idx] = (uint8_t)age;
			} else if (idx > pv->head) {
				/* (to be expanded: a longer way there) */
				if (pv->age[idx] < age)
					pv->age[idx] = (uint8_t)age;
			} else if (pv->reduced && !(pv->info[idx] & PV_FULL))
				pv->closes = 1;
		}
	}
	return 0;
}

int
explore_judge(struct model *m, const uint64_t *s, const int *gn, int coll,
    unsigned char *ps)
{
	int	g, idle = 0;

	if (coll)
		return 0;	/* everyone at a collective they take now */
	for (g = 0; g < m->ngroups; g++) {
		ps[g] = gn != NULL && gn[g] > 0 ? PS_RUNS : m->ended(m->arg, s, g) ?
		    PS_ENDED : PS_BLOCKED;
		idle += ps[g] != PS_RUNS;
	}
	return idle == 0 && !m->judge_busy ? 0 :
	    m->judge(m->judge_arg, s, ps);
}

int *
explore_components(const struct model *m)
{
	int	*c;

	if (m->components == NULL)
		return NULL;
	c = xcalloc(m->ngroups > 0 ? m->ngroups : 1, sizeof(int));

	m->components(m->arg, c);
	return c;
}

/* Whether a step all groups take at once is enabled, of the transitions
 * ts of every group, gn[g] of group g, in order. */
static int
all_step(const struct model *m, const struct trans *ts, const int *gn)
{
	int	g, k, off = 0;

	if (m->ngroups == 0)
		return 0;
	for (g = 0; g < m->all_group; g++)
		off += gn[g];
	for (k = off; k < off + gn[m->all_group]; k++)
		if (ts[k].role == TR_ALL)
			return 1;
	return 0;
}

/* The stubborn set group g's n transitions ts[0..n) offer: all of them
 * when all are safe (returns n, *off 0); else, when the others are its
 * pending requests' matches and the last, its next statement's, is a
 * safe post of a request or a buffered send, that one alone (returns 1,
 * *off n - 1): it touches nothing a match reads (a match takes from a
 * channel into the process, its slot, earliest posted first; a post adds
 * a later slot, a send a message out), so it is independent of them as
 * of every other group's; else 0.  A torus node posts its four 'irecv
 * any' and sends its four messages before its first request, not yet
 * settled, takes one. */
static int
stubborn_part(const struct trans *ts, int n, int *off)
{
	int	k;

	for (k = 0; k < n && ts[k].safe; k++)
		;
	*off = 0;
	if (k == n)
		return n;
	if (n < 2 || !ts[n - 1].safe || ts[n - 1].role != TR_POST)
		return 0;
	for (k = 0; k < n - 1 && ts[k].role == TR_MATCH; k++)
		;
	if (k < n - 1)
		return 0;
	*off = n - 1;
	return 1;
}

/* Whether group g, with ng transitions enabled in s, is a better stubborn
 * set than 'chosen' (-1: none yet) with nc.  Judging every state, one
 * that can end is better: a process in an endless loop could put it off
 * for ever (past any cycle, while counts grow).  Then one of the
 * component of the group whose step reached s: a component runs alone
 * until it blocks or closes a cycle, so independent endless loops are not
 * interleaved (each would otherwise go round once more for every state of
 * the others).  Then one step rather than a choice of several: choices
 * are put off while others can go on, so what another takes from a choice
 * may come before the next choice is made (a farm's master takes each
 * worker's reply, however sent, before the next worker chooses: the two
 * ways merge at once instead of multiplying). */
static int
better(struct model *m, const uint64_t *s, int judge_all, const int *comp,
    int mover, int chosen, int nc, int g, int ng)
{
	int	ce, ge, cm, gm;

	if (chosen < 0)
		return 1;
	if (judge_all) {
		ce = m->can_end(m->arg, s, chosen);
		ge = m->can_end(m->arg, s, g);
		if (ce != ge)
			return ge;
	}
	if (comp != NULL && mover >= 0) {
		cm = comp[chosen] == comp[mover];
		gm = comp[g] == comp[mover];
		if (cm != gm)
			return gm;
	}
	return nc > 1 && ng == 1;
}

/* The scratch of stubborn sets of several groups (closed_set), room for
 * every group: per group its deps (model.h) once asked, dep[off[g] ..
 * off[g] + nd[g]) (off[g] < 0: not yet), for Tarjan's strongly connected
 * components; 'in' marks the groups of the set chosen, 'sel' lists them;
 * 'tmp' holds transitions while the set's are put first. */
struct csets {
	int		 N;
	int		*off, *nd, *dep;
	size_t		 depalloc, ndep;
	int		*idx, *low, *stk, *cstk, *sccof;
	uint64_t	*cost;
	unsigned char	*on, *in, *safe;
	int		*sel, nsel;
	int		*tmp;
	struct trans	*tt;
	size_t		 ttalloc;
	/* Per group the next of its component (comp) in group order, or -1
	 * (NULL: no components): choose() looks at the mover's first. */
	int		*cnext;
	/* Where the model keeps groups' transitions (model.h: kept): per
	 * group kept, as bits, whether it has some (blive), a stubborn part
	 * (stubborn_part: bpart), one of one step (bone), one that is all
	 * of them (bwhole), one only (bwone); per component (its least
	 * group) its groups (csize, NULL: none kept); comp. */
	int		*csize;
	const int	*comp;
	uint64_t	*blive, *bpart, *bone, *bwhole, *bwone;
};

static void
csets_init(struct csets *c, const struct model *m)
{
	int	N = m->ngroups > 0 ? m->ngroups : 1;

	memset(c, 0, sizeof(*c));
	if (m->at != NULL)	/* (a new search: what was kept is not
				 * in c) */
		m->at(m->arg, NULL);
	if (m->deps == NULL)
		return;
	c->N = m->ngroups;
	c->off = xcalloc(N, sizeof(int));
	c->nd = xcalloc(N, sizeof(int));
	c->idx = xcalloc(N, sizeof(int));
	c->low = xcalloc(N, sizeof(int));
	c->stk = xcalloc(N, sizeof(int));
	c->cstk = xcalloc(2 * (size_t)N, sizeof(int));
	c->sccof = xcalloc(N, sizeof(int));
	c->cost = xcalloc(N, sizeof(uint64_t));
	c->on = xcalloc(N, 1);
	c->in = xcalloc(N, 1);
	c->safe = xcalloc(N, 1);
	c->sel = xcalloc(N, sizeof(int));
	c->tmp = xcalloc(N, sizeof(int));
}

/* c->cnext from comp (explore_components; NULL: none). */
static void
csets_comp(struct csets *c, const struct model *m, const int *comp)
{
	int	g, *last;

	if (comp == NULL || m->ngroups == 0)
		return;
	c->cnext = xmalloc(sizeof(int) * (size_t)m->ngroups);
	last = xmalloc(sizeof(int) * (size_t)m->ngroups);
	for (g = 0; g < m->ngroups; g++) {
		c->cnext[g] = -1;
		last[g] = -1;
	}
	for (g = 0; g < m->ngroups; g++) {
		if (last[comp[g]] >= 0)
			c->cnext[last[comp[g]]] = g;
		last[comp[g]] = g;
	}
	free(last);
	if (m->kept == NULL)
		return;
	c->comp = comp;
	c->csize = xcalloc((size_t)m->ngroups, sizeof(int));
	for (g = 0; g < m->ngroups; g++)
		c->csize[comp[g]]++;
	c->blive = xcalloc((size_t)m->ngroups / 64 + 1, sizeof(uint64_t));
	c->bpart = xcalloc((size_t)m->ngroups / 64 + 1, sizeof(uint64_t));
	c->bone = xcalloc((size_t)m->ngroups / 64 + 1, sizeof(uint64_t));
	c->bwhole = xcalloc((size_t)m->ngroups / 64 + 1, sizeof(uint64_t));
	c->bwone = xcalloc((size_t)m->ngroups / 64 + 1, sizeof(uint64_t));
}

static void
csets_free(struct csets *c)
{
	free(c->cnext);
	free(c->csize);
	free(c->blive);
	free(c->bpart);
	free(c->bone);
	free(c->bwhole);
	free(c->bwone);
	free(c->off);
	free(c->nd);
	free(c->dep);
	free(c->idx);
	free(c->low);
	free(c->stk);
	free(c->cstk);
	free(c->sccof);
	free(c->cost);
	free(c->on);
	free(c->in);
	free(c->safe);
	free(c->sel);
	free(c->tmp);
	free(c->tt);
}

/* Group g's deps in s, asked once a state (a group whose enabled
 * transitions are all safe needs none: nothing touches them). */
static void
csets_deps(struct csets *c, struct model *m, const uint64_t *s, int g,
    int allsafe)
{
	int	n;

	c->off[g] = (int)c->ndep;
	if (allsafe) {
		c->nd[g] = 0;
		return;
	}
	n = m->deps(m->arg, s, g, c->tmp);
	if (n > 0) {	/* (c->dep may still be NULL) */
		xgrow(&c->dep, &c->depalloc, c->ndep + (size_t)n, sizeof(int));
		memcpy(c->dep + c->ndep, c->tmp, sizeof(int) * (size_t)n);
	}
	c->nd[g] = n;
	c->ndep += (size_t)n;
}

/* The closure of group g under deps into c->sel (c->in marks it, clear
 * before), its deps asked where not yet; the transitions enabled in it,
 * or 'most' as soon as they are that many (c->sel then holds part of it). */
static uint64_t
closure(struct csets *c, struct model *m, const uint64_t *s, const int *gn,
    int g, uint64_t most)
{
	uint64_t	cost = 0;
	int		k, j, v, w;

	c->nsel = 0;
	c->sel[c->nsel++] = g;
	c->in[g] = 1;
	for (k = 0; k < c->nsel; k++) {
		v = c->sel[k];
		if ((cost += (uint64_t)gn[v]) >= most)
			return most;
		if (c->off[v] < 0)
			csets_deps(c, m, s, v, gn[v] > 0 && c->safe[v]);
		for (j = 0; j < c->nd[v]; j++) {
			w = c->dep[c->off[v] + j];
			if (!c->in[w]) {
				c->in[w] = 1;
				c->sel[c->nsel++] = w;
			}
		}
	}
	return cost;
}

/* A stubborn set of several groups in s, where no group alone is one: a
 * set of groups closed under deps (model.h) with transitions enabled,
 * the one with fewest found among the closures of the strongly connected
 * components of the deps graph (Tarjan's, sinks first: a sink's closure
 * is itself; another's costs its own transitions and, at most, those of
 * the components it leads to), one in mover's part (comp: as better()
 * prefers) before others.  gn[g] transitions of group g are enabled,
 * c->safe says per group whether all are; c->sel gets the set's groups
 * (c->in marks them).  Returns how many transitions it has, or 0: none
 * smaller than every enabled transition. */
static int
closed_set(struct csets *c, struct model *m, const uint64_t *s, const int *gn,
    int total, const int *comp, int mover)
{
	int		 N = c->N, g, root, sp, top, csp, cnt = 0, v, w, k, j;
	int		 best = -1, near, bestnear = 0;
	uint64_t	 cap = (uint64_t)total, cost;

	c->ndep = 0;
	for (g = 0; g < N; g++) {
		c->off[g] = -1;
		c->idx[g] = -1;
		c->on[g] = 0;
		c->in[g] = 0;
	}
	/* The closure of the group that moved last first: its part goes on
	 * (better()), at the cost of that closure only. */
	if (mover >= 0 && (cost = closure(c, m, s, gn, mover, (uint64_t)total)) > 0 &&
	    cost < (uint64_t)total)
		return (int)cost;
	for (k = 0; k < c->nsel; k++)
		c->in[c->sel[k]] = 0;
	/* Tarjan's, iteratively, from each group with a transition enabled:
	 * cstk holds (group, its next dep) pairs. */
	for (root = 0; root < N; root++) {
		if (gn[root] == 0 || c->idx[root] >= 0)
			continue;
		csp = sp = 0;
		c->idx[root] = c->low[root] = cnt++;
		c->stk[sp++] = root;
		c->on[root] = 1;
		if (c->off[root] < 0)
			csets_deps(c, m, s, root, c->safe[root]);
		c->cstk[csp++] = root;
		c->cstk[csp++] = 0;
		while (csp > 0) {
			v = c->cstk[csp - 2];
			k = c->cstk[csp - 1];
			if (k < c->nd[v]) {
				c->cstk[csp - 1] = k + 1;
				w = c->dep[c->off[v] + k];
				if (c->idx[w] < 0) {
					c->idx[w] = c->low[w] = cnt++;
					c->stk[sp++] = w;
					c->on[w] = 1;
					if (c->off[w] < 0)
						csets_deps(c, m, s, w,
						    gn[w] > 0 && c->safe[w]);
					c->cstk[csp++] = w;
					c->cstk[csp++] = 0;
				} else if (c->on[w] && c->idx[w] < c->low[v])
					c->low[v] = c->idx[w];
				continue;
			}
			csp -= 2;
			if (csp > 0) {
				w = c->cstk[csp - 2];
				if (c->low[v] < c->low[w])
					c->low[w] = c->low[v];
			}
			if (c->low[v] != c->idx[v])
				continue;
			/* v roots a component, c->stk[.. top) down to v: its
			 * cost, its own transitions and its successors' (each
			 * finished already), up to the cap. */
			top = sp;
			do {
				w = c->stk[--sp];
				c->on[w] = 0;
				c->sccof[w] = v;
			} while (w != v);
			cost = 0;
			near = 0;
			for (k = sp; k < top; k++) {
				w = c->stk[k];
				near |= comp != NULL && mover >= 0 &&
				    comp[w] == comp[mover];
				cost += (uint64_t)gn[w];
				for (j = 0; j < c->nd[w] && cost <= cap; j++) {
					g = c->sccof[c->dep[c->off[w] + j]];
					if (g != v)
						cost += c->cost[g];
				}
				if (cost > cap)
					cost = cap + 1;
			}
			c->cost[v] = cost;
			if (cost > 0 && cost < (uint64_t)total &&
			    (near > bestnear || (near == bestnear && cost < cap))) {
				cap = cost;
				best = v;
				bestnear = near;
			}
		}
	}
	if (best < 0)
		return 0;
	cost = closure(c, m, s, gn, best, (uint64_t)total);
	return cost > 0 && cost < (uint64_t)total ? (int)cost : 0;
}

/* Put the transitions of the groups of c->in first in ts (total of them,
 * gn[g] of group g in group order); how many they are. */
static int
set_first(struct csets *c, const struct model *m, struct trans *ts,
    const int *gn, int total)
{
	int	g, off = 0, a = 0, b;

	xgrow(&c->tt, &c->ttalloc, (size_t)total, sizeof(*c->tt));
	for (g = 0; g < m->ngroups; g++) {
		if (c->in[g]) {
			memcpy(c->tt + a, ts + off, sizeof(*ts) * (size_t)gn[g]);
			a += gn[g];
		}
		off += gn[g];
	}
	b = a;
	for (off = 0, g = 0; g < m->ngroups; g++) {
		if (!c->in[g]) {
			memcpy(c->tt + b, ts + off, sizeof(*ts) * (size_t)gn[g]);
			b += gn[g];
		}
		off += gn[g];
	}
	memcpy(ts, c->tt, sizeof(*ts) * (size_t)total);
	return a;
}

/* chose()'s *chosen for a set of several groups (csets.in). */
#define CHOSEN_SET	(-2)

static inline void
bit_put(uint64_t *b, int g, int v)
{
	if (v)
		b[g >> 6] |= 1ULL << (g & 63);
	else
		b[g >> 6] &= ~(1ULL << (g & 63));
}

/* Group g's enabled transitions in s (model.h: enabled), those the model
 * keeps from state to state where it does (choose() named s by 'at'),
 * and the bits of c of a group kept. */
static inline int
enabled_of(struct model *m, const uint64_t *s, int g, struct trans *out,
    struct csets *c)
{
	int	n, sn, off = 0;

	if (m->enabled_kept == NULL)
		return m->enabled(m->arg, s, g, out);
	n = m->enabled_kept(m->arg, s, g, out);
	if (c->csize != NULL && (m->kept(m->arg)[g >> 6] >> (g & 63) & 1)) {
		/* (what choose_kept reads of it) */
		sn = n > 0 ? stubborn_part(out, n, &off) : 0;
		bit_put(c->blive, g, n > 0);
		bit_put(c->bpart, g, sn > 0);
		bit_put(c->bone, g, sn == 1);
		bit_put(c->bwhole, g, sn > 0 && sn == n);
		bit_put(c->bwone, g, sn == 1 && n == 1);
	}
	return n;
}

/* closed_set's first try, judging end states only, at the cost of the
 * set: the closure of mover under deps, its groups' transitions asked
 * as it grows, into ts[0 .. return) in group order (as set_first puts
 * them), when it has some and a group outside it has some too (then
 * closed_set, after every group was asked, would choose it: its cost is
 * not the total); else 0.  gn and cx->safe are set for its groups only. */
static int
mover_closure(struct csets *c, struct model *m, const uint64_t *s,
    struct trans *ts, int *gn, int mover)
{
	int	k, j, v, w, n, at = 0, a = 0, found = 0, *pos = c->idx;

	c->ndep = 0;
	c->nsel = 0;
	c->sel[c->nsel++] = mover;
	c->in[mover] = 1;
	for (k = 0; k < c->nsel; k++) {
		v = c->sel[k];
		n = enabled_of(m, s, v, ts + at, c);
		for (j = 0; j < n && ts[at + j].safe; j++)
			;
		c->safe[v] = j == n;
		gn[v] = n;
		pos[v] = at;
		at += n;
		csets_deps(c, m, s, v, n > 0 && c->safe[v]);
		for (j = 0; j < c->nd[v]; j++) {
			w = c->dep[c->off[v] + j];
			if (!c->in[w]) {
				c->in[w] = 1;
				c->sel[c->nsel++] = w;
			}
		}
	}
	/* A group outside with a transition: from mover on, round (those
	 * before it have often ended). */
	for (k = 1; at > 0 && k < c->N && !found; k++) {
		v = (mover + k) % c->N;
		found = !c->in[v] && enabled_of(m, s, v, ts + at, c) > 0;
	}
	if (found) {
		/* The set's groups in group order (insertion sort: a few),
		 * their transitions so into c->tt, then ts. */
		for (k = 1; k < c->nsel; k++)
			for (j = k; j > 0 && c->sel[j - 1] > c->sel[j]; j--) {
				v = c->sel[j];
				c->sel[j] = c->sel[j - 1];
				c->sel[j - 1] = v;
			}
		xgrow(&c->tt, &c->ttalloc, (size_t)at, sizeof(*c->tt));
		for (k = 0; k < c->nsel; k++) {
			v = c->sel[k];
			memcpy(c->tt + a, ts + pos[v], sizeof(*ts) * (size_t)gn[v]);
			a += gn[v];
		}
		memcpy(ts, c->tt, sizeof(*ts) * (size_t)a);
	}
	for (k = 0; k < c->nsel; k++)
		c->in[c->sel[k]] = 0;
	return found ? a : 0;
}

/* choose()'s look in component c (its least group) for a group whose
 * stubborn set is one step, else the first with one, where the model
 * keeps groups' transitions: as that loop, at the cost of the groups not
 * kept and those kept with a part of their own (of one step once one
 * is chosen), found by their bits; those it passes over the loop would
 * pass over too.  *live: whether a group of c has a transition, when
 * none is chosen. */
static int
choose_kept(struct model *m, const uint64_t *s, struct trans *ts, int *gn,
    int whole, int c, int *chosen, int *cs, int *ce, struct csets *cx,
    int *live)
{
	const uint64_t	*kept = m->kept(m->arg);
	const uint64_t	*part = whole ? cx->bwhole : cx->bpart;
	const uint64_t	*one = whole ? cx->bwone : cx->bone;
	const int	*comp = cx->comp;
	int		 N = m->ngroups, g, n, sn, off, total = 0, x;
	uint64_t	 cand;

	for (x = c >> 6; x <= (N - 1) >> 6; x++) {
		cand = ~kept[x] | (*chosen >= 0 ? one[x] : part[x]);
		if (x == c >> 6)
			cand &= ~0ULL << (c & 63);
		while (cand != 0) {
			if ((g = x * 64 + __builtin_ctzll(cand)) >= N)
				break;
			cand &= cand - 1;
			if (comp[g] != c)
				continue;
			n = enabled_of(m, s, g, ts + total, cx);
			*live |= n > 0;
			sn = n > 0 ? stubborn_part(ts + total, n, &off) : 0;
			if (sn == 0 || (whole && sn != n) || (*chosen >= 0 &&
			    sn != 1))
				continue;
			gn[g] = n;
			*chosen = g;
			*cs = total + off;
			*ce = *cs + sn;
			total += n;
			if (sn == 1)
				return total;
			cand &= ~kept[x] | one[x];
		}
	}
	for (x = c >> 6; *chosen < 0 && !*live && x <= (N - 1) >> 6; x++)
		for (cand = kept[x] & cx->blive[x]; cand != 0; cand &= cand - 1)
			if ((g = x * 64 + __builtin_ctzll(cand)) < N &&
			    comp[g] == c) {
				*live = 1;
				break;
			}
	return total;
}

/* A state's stubborn set, for explore_bfs and explore_dfs: every group's
 * enabled transitions into ts, gn[g] of group g, and the group chosen
 * (*chosen, -1: none, fire them all) with its part ts[*cs, *ce).
 * 'reduce': look for one; 'whole': whole groups only (the dive: it finds
 * bugs by interleaving whole processes).  Where only end states are
 * judged, a single step chosen ends the look (no later group is needed;
 * gn is then set up to it).  When no group alone is a stubborn set and
 * the model says what each needs (cx with deps), a set of several may be
 * (closed_set): *chosen is then CHOSEN_SET and cx says which; the caller
 * puts them first (set_first) once it has judged the state.  Returns how
 * many transitions are in ts. */
static int
choose(struct model *m, const uint64_t *s, struct trans *ts, int *gn, int reduce,
    int whole, int judge_all, const int *comp, int mover, int *chosen,
    int *cs, int *ce, struct csets *cx)
{
	int	g, n, sn, off, total = 0, k, live = 0;

	*chosen = -1;
	*cs = *ce = 0;
	if (m->at != NULL)
		m->at(m->arg, s);
	if (reduce && !judge_all && cx->cnext != NULL && mover >= 0) {
		/* Judging end states only, the loop below chooses the first
		 * group of mover's component (in group order) whose stubborn
		 * set is one step, else the first of it with one (better()),
		 * if any: look among those first, at the cost of the
		 * component, not of every group (the transitions of the
		 * others are not needed: only the set's are fired). */
		if (cx->csize != NULL && cx->csize[comp[mover]] >= 64)
			total = choose_kept(m, s, ts, gn, whole, comp[mover],
			    chosen, cs, ce, cx, &live);
		else for (g = comp[mover]; g >= 0; g = cx->cnext[g]) {
			n = enabled_of(m, s, g, ts + total, cx);
			live |= n > 0;
			sn = n > 0 ? stubborn_part(ts + total, n, &off) : 0;
			if (sn == 0 || (whole && sn != n) || (*chosen >= 0 &&
			    sn != 1))
				continue;	/* (its transitions overwritten) */
			gn[g] = n;
			*chosen = g;
			*cs = total + off;
			*ce = *cs + sn;
			total += n;
			if (sn == 1)
				return total;
		}
		if (*chosen >= 0)
			return total;
		/* No group of it alone: closed_set would try the closure of
		 * mover first. */
		if (cx->N > 0 && (total = mover_closure(cx, m, s, ts, gn,
		    mover)) > 0) {
			*chosen = mover;
			*cs = 0;
			*ce = total;
			return total;
		}
		total = 0;
		/* Nothing of mover's part can move (it ended, or waits for
		 * good): no set is of it, nor a closure (deps stay within a
		 * part).  Asking every group from the first, then the SCC
		 * pass, in each state after a part ended was quadratic: the
		 * groups after mover go first, round, and the first with a
		 * stubborn set of its own is chosen (any one is; the parts
		 * before mover's have mostly ended: the next part goes on,
		 * and alone, as better() wants, from its next state on);
		 * where none is, the look below, without a mover. */
		if (!live) {
			for (k = 1; k <= m->ngroups; k++) {
				g = (mover + k) % m->ngroups;
				n = enabled_of(m, s, g, ts, cx);
				sn = n > 0 ? stubborn_part(ts, n, &off) : 0;
				if (sn > 0 && (!whole || sn == n)) {
					gn[g] = n;
					*chosen = g;
					*cs = off;
					*ce = off + sn;
					return n;
				}
			}
			mover = -1;
		}
	}
	for (g = 0; g < m->ngroups; g++) {
		n = enabled_of(m, s, g, ts + total, cx);
		gn[g] = n;
		sn = reduce && n > 0 ? stubborn_part(ts + total, n, &off) : 0;
		if (reduce && cx->N > 0) {
			for (k = 0; k < n && ts[total + k].safe; k++)
				;
			cx->safe[g] = k == n;
		}
		if (sn > 0 && (!whole || sn == n) && better(m, s, judge_all,
		    comp, mover, *chosen, *ce - *cs, g, sn)) {
			/* A stubborn set: this group alone, or its next
			 * step. */
			*chosen = g;
			*cs = total + off;
			*ce = *cs + sn;
		}
		total += n;
		if (*chosen >= 0 && *ce - *cs == 1 && !judge_all &&
		    (comp == NULL || mover < 0 || comp[*chosen] == comp[mover]))
			break;	/* end states only: no proviso, no better */
	}
	/* Several groups, where no group alone is a stubborn set, or where
	 * the one found is not of mover's part and a set of it may be. */
	if (reduce && cx->N > 0 && total > 1 && (*chosen < 0 || (comp != NULL &&
	    mover >= 0 && comp[*chosen] != comp[mover])) &&
	    closed_set(cx, m, s, gn, total, comp, mover) > 0 &&
	    (*chosen < 0 || comp[cx->sel[0]] == comp[mover]))
		*chosen = CHOSEN_SET;
	return total;
}

void
explore_bfs(struct model *m, const struct xopts *o, struct xresult *r)
{
	struct store	 st;
	struct trans	*ts;
	uint64_t	*cur, *nxt, head, idx, best_at = 0;
	int		 g, total, nmax = m->max_trans, chosen, cs, ce, found;
	int		 bad, coll, N = m->ngroups, full = 0, mover = -1;
	const int	 reduce = o->reduce, judge_all = o->judge_all;
	int		*gn = xcalloc(N + 1, sizeof(int));
	unsigned char	*ps = xcalloc(N + 1, 1);
	double		 t0 = clock_now(), last = t0;
	uint64_t	 last_states = 0;
	struct proviso	 pvs, *pv = NULL;
	struct csets	 cx;
	int		*comp = NULL;

	memset(r, 0, sizeof(*r));
	memset(&pvs, 0, sizeof(pvs));
	csets_init(&cx, m);
	if (reduce) {
		/* (judging end states only, no proviso: its record says
		 * who moved last) */
		pv = &pvs;
		comp = explore_components(m);
		csets_comp(&cx, m, comp);
	}
	if (m->want_safe != NULL)
		m->want_safe(m->arg, o->reduce);
	store_init(&st, m, o->max_memory, &r->max_memory);
	st.max_states = o->max_states;
	ts = xcalloc((size_t)nmax * (N > 0 ? N : 1), sizeof(*ts));
	cur = xcalloc(m->words, sizeof(uint64_t));
	nxt = xcalloc((size_t)m->words * BATCH, sizeof(uint64_t));
	m->initial(m->arg, cur);
	if (m->canon != NULL)
		(void)m->canon(m->arg, cur, -1, NULL);
	if (store_put(&st, cur, explore_hash(cur, m->words), NO_PARENT, &idx) == ST_FULL) {
		r->status = X_LIMIT;
		r->limit = XL_MEMORY;
		goto out;
	}
	if (pv != NULL) {
		xgrow(&pv->info, &pv->alloc, 1, sizeof(*pv->info));
		xgrow(&pv->age, &pv->agealloc, 1, sizeof(*pv->age));
		pv->info[0] = 0;
		pv->age[0] = 0;
	}
	r->status = X_DONE;
	for (head = 0; head < st.n; head++) {
		if ((head & 0x3ff) == 0) {
			if ((r->limit = explore_watch(o, st.mem,
			    (st.mask + 1) * 16, r)) != XL_NONE) {
				r->status = X_LIMIT;
				goto out;
			}
			if ((o->progress || o->tick != NULL) &&
			    (head & 0x3fff) == 0)
				explore_progress(o, r, st.n, st.mem, t0, &last,
				    &last_states);
		}
		if (o->max_trans > 0 && r->transitions >= o->max_trans) {
			r->status = X_LIMIT;
			r->limit = XL_STATES;
			goto out;
		}
		load(&st, head, cur);
		total = 0;
		chosen = -1;
		cs = ce = coll = 0;
		/* Every interleaving, judging end states only: the plain loop
		 * (the hottest there is). */
		for (g = 0; !reduce && !judge_all && g < N; g++)
			total += m->enabled(m->arg, cur, g, ts + total);
		if (pv != NULL) {
			pv->head = head;
			full = judge_all && ((pv->info[head] & PV_FULL) != 0 ||
			    pv->age[head] >= AGE_MOST);
			mover = (int)(pv->info[head] & ~PV_FULL) - 1;
		}
		if (reduce || judge_all)
			total = choose(m, cur, ts, gn, reduce && !full, 0,
			    judge_all, comp, mover, &chosen, &cs, &ce, &cx);
		if (total == 0 || judge_all) {
			/* (Every group was computed.) */
			coll = judge_all && all_step(m, ts, gn);
			bad = explore_judge(m, cur, total == 0 ? NULL : gn, coll, ps);
			if (bad > r->bad) {
				/* The first of the worst so far is the shortest
				 * (breadth first). */
				r->bad = bad;
				best_at = head;
				if (bad >= o->worst && !o->full)
					goto out;
			}
		}
		if (total == 0)
			continue;
		found = 0;
		if (chosen == CHOSEN_SET) {
			cs = 0;
			ce = set_first(&cx, m, ts, gn, total);
			chosen = cx.sel[0];
		}
		if (chosen < 0) {
			if (pv != NULL) {
				pv->info[head] |= PV_FULL;
				pv->reduced = 0;
			}
			if (fire_range(m, &st, cur, nxt, head, ts, 0, total, &found,
			    r, pv) != 0)
				goto out;
			continue;
		}
		if (pv != NULL) {
			pv->reduced = 1;
			pv->closes = 0;
			pv->age_head = pv->age[head];
		}
		if (fire_range(m, &st, cur, nxt, head, ts, cs, ce, &found, r, pv) != 0)
			goto out;
		if (pv != NULL && judge_all && pv->closes) {
			/* Cycle proviso: the stubborn set reached a state
			 * expanded before, not fully; fire every other group
			 * too (judge_all: all were computed). */
			pv->info[head] |= PV_FULL;
			pv->reduced = 0;
			if (fire_range(m, &st, cur, nxt, head, ts, 0, cs, &found,
			    r, pv) != 0 || fire_range(m, &st, cur, nxt, head, ts,
			    ce, total, &found, r, pv) != 0)
				goto out;
		}
	}
out:
	if (r->bad > 0) {
		/* (A limit or an overflow after it: still a violation; the
		 * checker may widen and look again for a worse one.) */
		rebuild(m, &st, best_at, ts, r);
		if (r->status != X_OVERFLOW)
			r->status = X_VIOLATION;
	}
	r->states = st.n;
	r->peak_bytes = st.mem + pvs.alloc * sizeof(*pvs.info) + pvs.agealloc;
	store_free(&st);
	free(ts);
	free(cur);
	free(nxt);
	free(gn);
	free(ps);
	free(pvs.info);
	free(pvs.age);
	free(comp);
	csets_free(&cx);
}

/* One state on the depth-first stack: its index, and its transitions to
 * fire, tstack[off .. off + n), the next being k. */
struct dframe {
	uint64_t	idx;
	size_t		off;
	int		n, k;
	int		age;		/* as the proviso's (explore_bfs) */
	int		full;		/* expanded fully */
};

/*
 * Depth first, for a violation soon: bugs in long runs (the second round
 * of an exchange) are found after a few hundred states where breadth
 * first explores every shorter run.  The same stubborn sets choose each
 * state's transitions, a state expanded fully once channels grew past one
 * message AGE_MOST times down the stack from the last one expanded fully
 * (so no process fills a channel alone for ever while another could show
 * a violation), without a cycle proviso: the search only looks
 * for a state judged 'worst' (o->worst), and any state it reaches is
 * reachable, so what it finds is a violation whatever it left out; it
 * stops there with X_VIOLATION (the path is the stack: a counterexample,
 * seldom the shortest) and otherwise says X_DONE or X_LIMIT, which prove
 * nothing (the caller searches breadth first then).
 */
void
explore_dfs(struct model *m, const struct xopts *o, struct xresult *r)
{
	struct store	 st;
	struct trans	*ts, *tstack = NULL;
	struct dframe	*fs = NULL, *f;
	size_t		 nfs = 0, fsalloc = 0, tsalloc = 0, top = 0;
	uint64_t	*cur, *from, idx;
	int		 total, chosen, cs, ce, coll, bad, rc, age, grew = 0;
	int		 mover = -1;
	int		 N = m->ngroups, nmax = m->max_trans;
	int		*gn = xcalloc(N + 1, sizeof(int));
	unsigned char	*ps = xcalloc(N + 1, 1);
	int		*comp = explore_components(m);
	struct csets	 cx;

	memset(r, 0, sizeof(*r));
	csets_init(&cx, m);
	csets_comp(&cx, m, comp);
	if (m->want_safe != NULL)
		m->want_safe(m->arg, 1);
	store_init(&st, m, o->max_memory, &r->max_memory);
	st.max_states = o->max_states;
	ts = xcalloc((size_t)nmax * (N > 0 ? N : 1), sizeof(*ts));
	cur = xcalloc(m->words, sizeof(uint64_t));
	from = xcalloc(m->words, sizeof(uint64_t));
	m->initial(m->arg, cur);
	if (m->canon != NULL)
		(void)m->canon(m->arg, cur, -1, NULL);
	r->status = X_DONE;
	if (store_put(&st, cur, explore_hash(cur, m->words), NO_PARENT, &idx) != ST_INSERTED) {
		r->status = X_LIMIT;
		r->limit = XL_MEMORY;
		goto out;
	}
	for (;;) {
		/* Expand state idx (in cur): judge it, push its transitions. */
		if ((st.n & 0x3ff) == 0 && (r->limit = explore_watch(o, st.mem,
		    (st.mask + 1) * 16, r)) != XL_NONE) {
			r->status = X_LIMIT;
			goto out;
		}
		coll = 0;
		age = nfs == 0 || fs[nfs - 1].full ? 0 : fs[nfs - 1].age + grew;
		total = choose(m, cur, ts, gn, age < AGE_MOST, 1, o->judge_all, comp,
		    nfs > 0 ? mover : -1, &chosen, &cs, &ce, &cx);
		if (total == 0 || o->judge_all) {
			coll = all_step(m, ts, gn);
			bad = explore_judge(m, cur, total == 0 ? NULL : gn, coll, ps);
			if (bad >= o->worst) {
				r->bad = bad;
				r->status = X_VIOLATION;
				rebuild(m, &st, idx, ts, r);
				goto out;
			}
		}
		if (chosen == CHOSEN_SET) {
			cs = 0;
			ce = set_first(&cx, m, ts, gn, total);
			chosen = cx.sel[0];
		}
		if (chosen < 0) {
			cs = 0;
			ce = total;
		}
		xgrow(&fs, &fsalloc, nfs + 1, sizeof(*fs));
		if (ce > cs) {
			xgrow(&tstack, &tsalloc, top + (size_t)(ce - cs),
			    sizeof(*tstack));
			memcpy(tstack + top, ts + cs, sizeof(*ts) * (size_t)(ce - cs));
		}
		fs[nfs].idx = idx;
		fs[nfs].off = top;
		fs[nfs].n = ce - cs;
		fs[nfs].k = 0;
		fs[nfs].age = age;
		fs[nfs].full = chosen < 0;
		nfs++;
		top += (size_t)(ce - cs);
		/* The next new state, popping frames that are done. */
		for (;;) {
			if (nfs == 0)
				goto out;
			f = &fs[nfs - 1];
			if (f->k == f->n) {
				top = f->off;
				nfs--;
				continue;
			}
			load(&st, f->idx, from);
			memcpy(cur, from, sizeof(uint64_t) * m->words);
			if ((grew = m->fire(m->arg, cur, &tstack[f->off + f->k++])) < 0) {
				r->status = X_OVERFLOW;
				goto out;
			}
			mover = tstack[f->off + f->k - 1].proc;
			if (m->canon != NULL)
				mover = m->canon(m->arg, cur, mover, from);
			r->transitions++;
			rc = store_put(&st, cur, explore_hash(cur, m->words),
			    (uint32_t)f->idx, &idx);
			if (rc == ST_FULL || rc == ST_LIMIT) {
				r->status = X_LIMIT;
				r->limit = rc == ST_LIMIT ? XL_STATES :
				    st.n >= MAX_STATES ? XL_STORE : XL_MEMORY;
				goto out;
			}
			if (rc == ST_INSERTED)
				break;
		}
	}
out:
	r->states = st.n;
	r->peak_bytes = st.mem + fsalloc * sizeof(*fs) + tsalloc * sizeof(*tstack);
	store_free(&st);
	free(ts);
	free(tstack);
	free(fs);
	free(cur);
	free(from);
	free(gn);
	free(ps);
	free(comp);
	csets_free(&cx);
}

void
xresult_free(struct xresult *r)
{
	free(r->trace);
	free(r->final);
	memset(r, 0, sizeof(*r));
}

/* Whether the time limit has passed: XL_TIME, else XL_NONE. */
static enum xlimit
explore_timed_out(const struct xopts *o)
{
	return o->deadline > 0 && clock_now() >= o->deadline ? XL_TIME : XL_NONE;
}

/* A search holding less than this is never stopped for the machine's
 * memory, and the default limit is never less. */
#define MEM_FLOOR	(32ULL << 20)

/* Half of what is left after the margin: the other half is for what the
 * search holds besides the store (the counterexample, its text) and for
 * other processes growing meanwhile, which explore_watch looks out for.
 * Each mode asks anew, after the one before it has given its store back. */
uint64_t
explore_default_memory(void)
{
	uint64_t	total, avail = memory_room(&total), margin = memory_margin(total);

	return avail > margin + 2 * MEM_FLOOR ? (avail - margin) / 2 : MEM_FLOOR;
}

uint64_t
explore_budget(uint64_t given, uint64_t *asked, uint64_t need)
{
	if (given > 0)
		return given;
	if (*asked == 0) {
		if (need <= MEM_FLOOR)
			return MEM_FLOOR;
		*asked = explore_default_memory();
	}
	return *asked;
}

/* Read the memory once a second at most: a few small files. */
enum xlimit
explore_watch(const struct xopts *o, uint64_t held, uint64_t next,
    struct xresult *r)
{
	static double	last;
	uint64_t	total, avail, need, max;
	double		t;

	if (explore_timed_out(o) != XL_NONE)
		return XL_TIME;
	if (held < MEM_FLOOR || (t = clock_now()) - last < 1.0)
		return XL_NONE;
	last = t;
	max = explore_budget(o->max_memory, &r->max_memory, UINT64_MAX);
	if (held >= max)
		next = 0;
	else if (next > max - held)
		next = max - held;
	avail = memory_room(&total);
	need = memory_margin(total) + next;
	if (avail >= need)
		return XL_NONE;
	r->avail = avail;
	r->need = need;
	return XL_LOW_MEMORY;
}

char *
explore_memory_text(const struct xresult *r, const struct xopts *o, int given)
{
	char	*s;

	if (r->limit == XL_LOW_MEMORY)
		xasprintf(&s, "the machine's memory is running out (%" PRIu64 " MB "
		    "available, %" PRIu64 " MB needed to go on safely)",
		    r->avail >> 20, r->need >> 20);
	else
		xasprintf(&s, "memory limit of %" PRIu64 " MB reached (%s)",
		    (given ? o->max_memory : r->max_memory) >> 20,
		    given ? "--max-memory" : "the default, half "
		    "the memory available; --max-memory sets it");
	return s;
}


