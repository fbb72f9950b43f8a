/* kahn.c -- one run decides a determinate network (no wildcard receive,
 * no choice) whose programs all end: its transitions stay enabled until
 * they fire and commute, so every maximal run ends in the same state (a
 * Kahn network; Siegel & Avrunin for the synchronous case).  The run is
 * scheduled by a work list of processes, each running until it blocks, so
 * it costs the number of actions, not processes times actions.  The run
 * is the same every time, so the actions are recorded only when asked
 * (to show a counterexample found by a first run). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "explore.h"
#include "xmalloc.h"

struct wl {
	int		*q;
	unsigned char	*in;
	size_t		 head, len, cap;
};

static void
wake(struct wl *w, int p)
{
	if (p < 0 || w->in[p])
		return;
	w->in[p] = 1;
	w->q[(w->head + w->len++) % w->cap] = p;
}

/* A group now waiting for another to take its step (a synchronous
 * send's receiver): wake that one. */
static void
wake_peer(struct wl *w, const struct model *m, const uint64_t *s, int p)
{
	if (p >= 0)
		wake(w, m->waits_on(m->arg, s, p));
}

/* The groups in s, as explore_judge sets them in an end state (ts: room
 * for max_trans): a group with a transition enabled runs, all of them
 * when one is a step all take at once. */
static void
kahn_states(struct model *m, const uint64_t *s, unsigned char *ps,
    struct trans *ts)
{
	int	g, k, n, all = 0;

	for (g = 0; g < m->ngroups; g++) {
		n = m->enabled(m->arg, s, g, ts);
		ps[g] = m->ended(m->arg, s, g) ? PS_ENDED : n == 0 ?
		    PS_BLOCKED : PS_RUNS;
		for (k = 0; k < n; k++)
			all |= ts[k].role == TR_ALL;
	}
	for (g = 0; all && g < m->ngroups; g++)
		ps[g] = PS_RUNS;
}

/* The groups a step of i may move: the nw in v (those it wakes), i and
 * from (-1: none) added, each once (mark: zero before and after).  How
 * many. */
static int
moved(int *v, int nw, int i, int from, unsigned char *mark)
{
	int	k, n = 0;

	v[nw++] = i;
	if (from >= 0)
		v[nw++] = from;
	for (k = 0; k < nw; k++)
		if (v[k] >= 0 && !mark[v[k]]) {
			mark[v[k]] = 1;
			v[n++] = v[k];
		}
	for (k = 0; k < n; k++)
		mark[v[k]] = 0;
	return n;
}

void
explore_kahn(struct model *m, const struct xopts *o, struct xresult *r)
{
	struct wl	 w;
	struct trans	*ts;
	uint64_t	*s;
	unsigned char	*ps;
	size_t		 alloc = 0;
	double		 t0 = clock_now(), last = t0;
	uint64_t	 last_states = 0;
	int		 i, n, k, nw, nsync = 0, from, wi, wf, nmax = m->max_trans;
	int		*woken = xcalloc(m->ngroups + 3, sizeof(int));
	unsigned char	*mark = xcalloc(m->ngroups + 1, 1);

	memset(r, 0, sizeof(*r));
	memset(&w, 0, sizeof(w));
	w.cap = m->ngroups > 0 ? (size_t)m->ngroups : 1;
	w.q = xmalloc(sizeof(int) * w.cap);
	w.in = xcalloc(w.cap, 1);
	ts = xcalloc(nmax, sizeof(*ts));
	s = xcalloc(m->words, sizeof(uint64_t));
	m->initial(m->arg, s);
	for (i = 0; i < m->ngroups; i++) {
		wake(&w, i);
		if (m->at_all != NULL)
			nsync += m->at_all(m->arg, s, i);
	}
	r->status = X_DONE;
	while (w.len > 0) {
		i = w.q[w.head];
		w.head = (w.head + 1) % w.cap;
		w.len--;
		w.in[i] = 0;
		for (;;) {
			struct trans	 t;

			n = m->enabled(m->arg, s, i, ts);
			for (k = 0; k < n && ts[k].role == TR_ALL; k++)
				;	/* collectives of all are fired below */
			if (k == n)
				break;
			if (o->max_states > 0 && r->ntrace + 1 >= o->max_states) {
				r->status = X_LIMIT;
				r->limit = XL_STATES;
				goto out;
			}
			if ((r->ntrace & 0xfff) == 0 &&
			    (r->limit = explore_watch(o, alloc * sizeof(*r->trace),
			    alloc * sizeof(*r->trace), r)) != XL_NONE) {
				r->status = X_LIMIT;
				goto out;
			}
			t = ts[k];
			from = m->partner(m->arg, &t);
			/* Who the step may move: i, the sender it releases,
			 * those it wakes (a group's collective moves its
			 * members), each once; their part of nsync. */
			nw = m->wakes(m->arg, &t, woken);
			nw = moved(woken, nw, i, from, mark);
			for (wi = 0, k = 0; m->at_all != NULL && k < nw; k++)
				wi += m->at_all(m->arg, s, woken[k]);
			if (m->fire(m->arg, s, &t) < 0) {
				r->status = X_OVERFLOW;
				goto out;
			}
			if (o->record) {
				uint64_t	need = (r->ntrace + 1) * sizeof(*r->trace);

				if (need > explore_budget(o->max_memory,
				    &r->max_memory, need)) {
					r->status = X_LIMIT;
					r->limit = XL_MEMORY;
					goto out;
				}
				xgrow(&r->trace, &alloc, r->ntrace + 1, sizeof(*r->trace));
				r->trace[r->ntrace] = t;
			}
			r->ntrace++;
			for (wf = 0, k = 0; k < nw; k++) {
				wake(&w, woken[k]);
				if (m->at_all != NULL)
					wf += m->at_all(m->arg, s, woken[k]);
			}
			wake_peer(&w, m, s, i);
			wake_peer(&w, m, s, from);
			nsync += wf - wi;
			if ((o->progress || o->tick != NULL) &&
			    (r->ntrace & 0xffff) == 0)
				explore_progress(o, r, r->ntrace + 1,
				    alloc * sizeof(*r->trace), t0, &last, &last_states);
		}
		if (m->at_all != NULL && nsync == m->ngroups && m->ngroups > 0) {
			n = m->enabled(m->arg, s, m->all_group, ts);
			for (k = 0; k < n && ts[k].role != TR_ALL; k++)
				;
			if (k < n) {
				m->fire(m->arg, s, &ts[k]);
				if (o->record) {
					xgrow(&r->trace, &alloc, r->ntrace + 1,
					    sizeof(*r->trace));
					r->trace[r->ntrace] = ts[k];
				}
				r->ntrace++;
				nsync = 0;
				for (k = 0; k < m->ngroups; k++) {
					nsync += m->at_all(m->arg, s, k);
					wake(&w, k);
				}
				for (k = 0; k < m->ngroups; k++)
					wake_peer(&w, m, s, k);
			}
		}
		/* Every step of a group can take must have been taken: one
		 * nobody woke it for (none should be) is woken here. */
		for (k = 0; w.len == 0 && k < m->ngroups; k++) {
			n = m->enabled(m->arg, s, k, ts);
			for (wi = 0; wi < n && ts[wi].role == TR_ALL; wi++)
				;
			if (wi < n)
				wake(&w, k);
		}
	}
	r->final = s;
	s = NULL;
	ps = xcalloc(m->ngroups + 1, 1);
	kahn_states(m, r->final, ps, ts);
	if ((r->bad = m->judge(m->judge_arg, r->final, ps)) > 0)
		r->status = X_VIOLATION;
	free(ps);
out:
	r->states = r->ntrace + 1;
	r->transitions = r->ntrace;
	if (!o->record)
		r->ntrace = 0;
	r->peak_bytes = sizeof(uint64_t) * m->words + alloc * sizeof(struct trans);
	free(s);
	free(ts);
	free(w.q);
	free(w.in);
	free(woken);
	free(mark);
}

/*
 * Determinate networks that may run for ever: one run that stops when
 * its state repeats.
 *
 * Why one run decides.  In a determinate network each process's sequence
 * of actions is fixed (a Kahn network): an enabled transition stays
 * enabled until it fires, and transitions of different processes
 * commute, so a state is a function of how many actions each process has
 * done, and every fair run (no process left waiting for ever while it
 * could go on) gives each process the same number of actions, all of
 * them where its sequence is endless, the same finite number L_p where
 * it stops.  A process stuck for good in a reachable state u has done
 * L_p actions there (u's continuations include fair ones), and it is
 * blocked at the same instruction late in every fair run.  What report.c
 * judges lasts, and its judgement of a stuck set looks at where the
 * others are (what they can still offer, walking their programs on from
 * their pc); a later position's walk sees no more than an earlier one's.
 * The run is scheduled by the state alone (rounds: each process in turn
 * goes on until it blocks or has taken TURN steps; the first ZIG_ROUNDS
 * rounds take the processes in order and back, the later ones in order
 * only), so the states at the starts of rounds repeat from some round on
 * (those of the later rounds among themselves), and every state of that
 * cycle is at once the state of rounds as late as one likes: any process
 * stuck in u is stuck there, and the others are past where u had them,
 * so the judge finds there at least what it found in u.  The states at
 * the starts of rounds are judged, and the state the run ends in when
 * every process is blocked or ended.
 *
 * Piling channels.  Other runs may let a sender outrun its receiver
 * without bound where the fair one does not (a producer never waiting
 * for its consumer), which the search over every interleaving reports as
 * a channel without bound.  The most messages a channel into q holds
 * while q has done k actions is at the greatest state with q at k: q
 * held still, the others run as far as they can (states form a lattice
 * of cuts).  That greatest state grows with k, so if the others can send
 * to q without bound with q held still at some k they can at every later
 * k, in particular at the cycle's state: from it, each process that
 * receives anything is held still in turn while the others of its
 * component (nobody else sends to it) run in rounds, until they all
 * block, their round state repeats, or a channel
 * overflows (the same overflow as the search's: sends outrun receives
 * without bound).  With no overflow, every channel is bounded: at each k
 * the count is at most its value at that greatest state, and those
 * repeat with the cycle.
 */

/* A process's steps in one turn of a round. */
#define TURN	64

/* The rounds that go there and back (kahn_rounds) before those that go
 * one way only.  Which order the run takes changes only how soon its
 * state comes back (Kahn's determinacy: every fair schedule reaches the
 * same states of each process, above): in order only, a halo exchange's
 * news travels up the line in one round and down it one process a round,
 * and the rounds' states come back after N rounds (N^2 actions); there
 * and back, it travels both ways in one, and they come back after two.
 * A ring sending one way only comes back sooner in order: after
 * ZIG_ROUNDS rounds the run goes on so. */
#define ZIG_ROUNDS	8

/* The states seen at the starts of rounds: copies in one buffer, an
 * open-addressing table of their indices + 1. */
struct kset {
	uint64_t	*st;		/* words per state each */
	size_t		 n, alloc;
	uint32_t	*tab;
	size_t		 mask;
	uint32_t	 words, bytes;
};

/* Add s; returns 1 if it was there already. */
static int
kset_put(struct kset *k, const uint64_t *s)
{
	size_t		 i, j, size;
	uint32_t	*t;

	if ((k->n + 1) * 2 > k->mask + 1) {
		size = k->tab == NULL ? 64 : (k->mask + 1) * 2;
		t = xcalloc(size, sizeof(*t));
		for (i = 0; k->tab != NULL && i <= k->mask; i++) {
			if (k->tab[i] == 0)
				continue;
			j = explore_hash(k->st + (size_t)(k->tab[i] - 1) * k->words,
			    k->words) & (size - 1);
			while (t[j] != 0)
				j = (j + 1) & (size - 1);
			t[j] = k->tab[i];
		}
		free(k->tab);
		k->tab = t;
		k->mask = size - 1;
	}
	for (j = explore_hash(s, k->words) & k->mask; k->tab[j] != 0;
	    j = (j + 1) & k->mask)
		if (memcmp(k->st + (size_t)(k->tab[j] - 1) * k->words, s,
		    k->bytes) == 0)
			return 1;
	xgrow(&k->st, &k->alloc, (k->n + 1) * k->words, sizeof(*k->st));
	memcpy(k->st + k->n * k->words, s, sizeof(uint64_t) * k->words);
	k->tab[j] = (uint32_t)++k->n;
	return 0;
}

static void
kset_clear(struct kset *k)
{
	if (k->tab != NULL)
		memset(k->tab, 0, sizeof(*k->tab) * (k->mask + 1));
	k->n = 0;
}

/* One endless run (or a run with 'frozen' held still): its state, the
 * actions when recording, and what ended it. */
struct krun {
	struct model	*m;
	const struct xopts *o;
	struct xresult	*r;
	struct trans	*ts;
	unsigned char	*ps;
	int		*gn;		/* per process, its transitions enabled */
	int		*comp;		/* explore_components */
	size_t		 alloc;		/* of r->trace */
	uint64_t	 steps;		/* of every run */
	double		 t0, last;
	uint64_t	 last_states;
};

enum { KR_FIXED, KR_CYCLE, KR_STOP };

/* Run s in rounds until every process is blocked or ended (KR_FIXED),
 * the state at a round's start repeats (KR_CYCLE), or the run must stop
 * (KR_STOP: r->status says why: an overflow, a limit, or the worst
 * violation in a state judged).  'judge': judge the states at the
 * starts of rounds and the last, keeping the worst in r; 'frozen': a
 * process never scheduled, the others of its component (k->comp) alone
 * are, or -1: all are. */
static int
kahn_rounds(struct krun *k, struct kset *seen, uint64_t *s, int frozen,
    int judge)
{
	struct model		*m = k->m;
	const struct xopts	*o = k->o;
	struct xresult		*r = k->r;
	int			 p, n, t, moved, bad, coll, i, zig = 1, rounds = 0;

	for (;;) {
		if (judge) {
			/* As the search judges a state. */
			for (coll = 0, p = 0; p < m->ngroups; p++) {
				k->gn[p] = m->enabled(m->arg, s, p, k->ts);
				for (t = 0; p == m->all_group && t < k->gn[p]; t++)
					coll |= k->ts[t].role == TR_ALL;
			}
			bad = explore_judge(m, s, k->gn, coll, k->ps);
			if (bad > r->bad) {
				r->bad = bad;
				if (r->final == NULL)
					r->final = xcalloc(m->words, sizeof(uint64_t));
				memcpy(r->final, s, sizeof(uint64_t) * m->words);
				r->ntrace = (size_t)k->steps;
				if (bad >= o->worst && !o->full)
					return KR_STOP;
			}
		}
		if (kset_put(seen, s))
			return KR_CYCLE;
		if (zig && ++rounds > ZIG_ROUNDS) {
			/* (the states seen were of the other schedule) */
			zig = 0;
			kset_clear(seen);
		}
		moved = 0;
		for (i = 0; i < (zig ? 2 : 1) * m->ngroups; i++) {
			p = i < m->ngroups ? i : 2 * m->ngroups - 1 - i;
			if (frozen >= 0 && (p == frozen ||
			    k->comp[p] != k->comp[frozen]))
				continue;
			for (t = 0; t < TURN; t++) {
				if ((n = m->enabled(m->arg, s, p, k->ts)) == 0)
					break;
				if (o->max_states > 0 && k->steps + 1 >= o->max_states) {
					r->status = X_LIMIT;
					r->limit = XL_STATES;
					return KR_STOP;
				}
				if ((k->steps & 0xfff) == 0 && (r->limit =
				    explore_watch(o, k->alloc * sizeof(*r->trace) +
				    seen->alloc * 8, k->alloc * sizeof(*r->trace), r)) !=
				    XL_NONE) {
					r->status = X_LIMIT;
					return KR_STOP;
				}
				if (m->fire(m->arg, s, &k->ts[0]) < 0) {
					r->status = X_OVERFLOW;
					return KR_STOP;
				}
				if (o->record && frozen < 0) {
					xgrow(&r->trace, &k->alloc, k->steps + 1,
					    sizeof(*r->trace));
					r->trace[k->steps] = k->ts[0];
				}
				k->steps++;
				moved = 1;
				if ((o->progress || o->tick != NULL) &&
				    (k->steps & 0xffff) == 0)
					explore_progress(o, r, k->steps,
					    k->alloc * sizeof(*r->trace) +
					    seen->alloc * 8, k->t0, &k->last,
					    &k->last_states);
			}
		}
		if (!moved)
			return KR_FIXED;
	}
}

/* Which receivers need holding still (explore_kahn_endless): per group q,
 * 1 unless every group with a channel into q makes only finitely many
 * steps while q takes none: a group whose program ends does, q does, and
 * so does a group that hears from one that does on every round of its
 * endless loops (between two such messages it takes a bounded number of
 * steps, and finitely many come).  Then every channel into q is bounded
 * with q held still, as the run would find.  All 1 when the model does
 * not say (must_from NULL). */
static unsigned char *
kahn_need_hold(struct model *m)
{
	int		 N = m->ngroups, g, q, k, j, n, head, tail;
	int		*mf, *off, *cnt, *rev, *roff, *work, *tmp, *stamp, left;
	unsigned char	*need = xcalloc(N + 1, 1), *fin;

	for (q = 0; q < N; q++)
		need[q] = 1;
	if (m->must_from == NULL || m->senders == NULL || N == 0)
		return need;
	tmp = xcalloc(N + 1, sizeof(int));
	off = xcalloc(N + 1, sizeof(int));
	cnt = xcalloc(N + 1, sizeof(int));
	mf = NULL;
	/* Each group's must_from, and who lists whom (rev). */
	for (g = 0, k = 0; g < N; g++) {
		n = m->must_from(m->arg, g, tmp);
		off[g] = k;
		cnt[g] = n;
		if (n > 0) {
			mf = xreallocarray(mf, (size_t)k + (size_t)n, sizeof(int));
			memcpy(mf + k, tmp, sizeof(int) * (size_t)n);
			k += n;
		}
	}
	roff = xcalloc(N + 2, sizeof(int));
	rev = xcalloc((size_t)k + 1, sizeof(int));
	for (g = 0; g < N; g++)
		for (j = 0; j < cnt[g]; j++)
			roff[mf[off[g] + j] + 1]++;
	for (g = 0; g < N; g++)
		roff[g + 1] += roff[g];
	work = xcalloc(N + 1, sizeof(int));
	for (g = 0; g < N; g++)
		for (j = 0; j < cnt[g]; j++)
			rev[roff[mf[off[g] + j]] + work[mf[off[g] + j]]++] = g;
	/* The groups of finitely many steps whatever is held still (fin):
	 * those whose programs end and, closing over rev, those that hear
	 * from them on every round. */
	fin = xcalloc(N + 1, 1);
	head = tail = 0;
	for (g = 0; g < N; g++)
		if (cnt[g] < 0) {
			fin[g] = 1;
			work[tail++] = g;
		}
	while (head < tail) {
		g = work[head++];
		for (j = roff[g]; j < roff[g + 1]; j++)
			if (!fin[rev[j]]) {
				fin[rev[j]] = 1;
				work[tail++] = rev[j];
			}
	}
	stamp = xcalloc(N + 1, sizeof(int));
	for (q = 0; q < N; q++) {
		if (!m->receives(m->arg, q))
			continue;
		/* The groups of finitely many steps with q held still: fin,
		 * and the closure of q over rev (the closure of fin and q is
		 * the two together), looked through until q's senders are
		 * all in it (a halo node's: its neighbours, the first step),
		 * marked stamp[g] == q + 1. */
		n = m->senders(m->arg, q, tmp);
		for (left = 0, j = 0; j < n; j++)
			left += !fin[tmp[j]];
		head = tail = 0;
		stamp[q] = q + 1;
		work[tail++] = q;
		while (head < tail && left > 0) {
			g = work[head++];
			for (j = roff[g]; j < roff[g + 1]; j++) {
				if (fin[rev[j]] || stamp[rev[j]] == q + 1)
					continue;
				stamp[rev[j]] = q + 1;
				work[tail++] = rev[j];
			}
			for (left = 0, j = 0; j < n; j++)
				left += !fin[tmp[j]] && stamp[tmp[j]] != q + 1;
		}
		need[q] = left > 0;
	}
	free(fin);
	free(stamp);
	free(work);
	free(rev);
	free(roff);
	free(mf);
	free(cnt);
	free(off);
	free(tmp);
	return need;
}

void
explore_kahn_endless(struct model *m, const struct xopts *o, struct xresult *r)
{
	struct krun	 k;
	struct kset	 seen;
	uint64_t	*s, *cyc = NULL;
	unsigned char	*need = NULL;
	int		 q, how;

	memset(r, 0, sizeof(*r));
	memset(&k, 0, sizeof(k));
	memset(&seen, 0, sizeof(seen));
	k.m = m;
	k.o = o;
	k.r = r;
	k.ts = xcalloc(m->max_trans, sizeof(*k.ts));
	k.ps = xcalloc(m->ngroups + 1, 1);
	k.gn = xcalloc(m->ngroups + 1, sizeof(*k.gn));
	k.t0 = k.last = clock_now();
	seen.words = m->words;
	seen.bytes = m->bytes;
	s = xcalloc(m->words, sizeof(uint64_t));
	m->initial(m->arg, s);
	r->status = X_DONE;
	how = kahn_rounds(&k, &seen, s, -1, 1);
	if (how == KR_CYCLE && !(r->bad >= o->worst && !o->full)) {
		/* Each receiver held still in turn, from the cycle. */
		cyc = xmalloc(sizeof(uint64_t) * m->words);
		k.comp = explore_components(m);
		need = kahn_need_hold(m);
		for (q = 0; q < m->ngroups && how != KR_STOP; q++) {
			if (!m->receives(m->arg, q) || !need[q])
				continue;
			memcpy(cyc, s, sizeof(uint64_t) * m->words);
			kset_clear(&seen);
			how = kahn_rounds(&k, &seen, cyc, q, 0);
		}
	}
	/* (A limit or an overflow after a violation: still a violation,
	 * as explore_bfs says it; the checker may widen and look again.) */
	if (r->bad > 0 && r->status != X_OVERFLOW)
		r->status = X_VIOLATION;
	r->states = k.steps + 1;
	r->transitions = k.steps;
	if (!o->record)
		r->ntrace = 0;
	r->peak_bytes = sizeof(uint64_t) * (seen.alloc + 2 * m->words) +
	    k.alloc * sizeof(struct trans);
	free(seen.st);
	free(seen.tab);
	free(s);
	free(cyc);
	free(need);
	free(k.ts);
	free(k.ps);
	free(k.gn);
	free(k.comp);
}
