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

/* A process now blocked in a synchronous send is taken by its receiver:
 * wake that one. */
static void
wake_peer(struct wl *w, const struct sem *m, const uint64_t *s, int p)
{
	const struct ins	*in;
	int			 dc;

	if (p < 0 || m->p[p].pr == NULL)
		return;
	in = &m->p[p].pr->ins[sem_pc(m, s, p)];
	if (in->op != OP_SEND)
		return;
	dc = m->net->send_dc[m->p[p].portbase + in->lp];
	if (dc >= 0)
		wake(w, m->net->dc[dc].to);
}

static int
at_sync_coll(const struct sem *m, const uint64_t *s, int p)
{
	const struct ins	*in;

	if (m->p[p].pr == NULL)
		return 0;
	in = &m->p[p].pr->ins[sem_pc(m, s, p)];
	return in->op == OP_COLL && sem_sync_coll(m, in);
}

void
explore_kahn(struct sem *m, const struct xopts *o, struct xresult *r)
{
	struct wl	 w;
	struct trans	*ts;
	uint64_t	*s;
	unsigned char	*ps;
	size_t		 alloc = 0;
	double		 t0 = clock_now(), last = t0;
	uint64_t	 last_states = 0;
	int		 i, n, k, nsync = 0, from, wi, wf, nmax = sem_max_trans(m);

	memset(r, 0, sizeof(*r));
	memset(&w, 0, sizeof(w));
	w.cap = m->nprocs > 0 ? (size_t)m->nprocs : 1;
	w.q = xmalloc(sizeof(int) * w.cap);
	w.in = xcalloc(w.cap, 1);
	ts = xcalloc(nmax, sizeof(*ts));
	s = xcalloc(m->words, sizeof(uint64_t));
	sem_initial(m, s);
	for (i = 0; i < m->nprocs; i++) {
		wake(&w, i);
		nsync += at_sync_coll(m, s, i);
	}
	r->status = X_DONE;
	while (w.len > 0) {
		i = w.q[w.head];
		w.head = (w.head + 1) % w.cap;
		w.len--;
		w.in[i] = 0;
		for (;;) {
			struct trans	 t;

			n = sem_enabled(m, s, i, ts);
			for (k = 0; k < n && ts[k].kind == T_COLL; k++)
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
			from = t.dc >= 0 ? m->net->dc[t.dc].from : -1;
			if (from == i)
				from = -1;
			wi = at_sync_coll(m, s, i);
			wf = from >= 0 ? at_sync_coll(m, s, from) : 0;
			if (sem_fire(m, s, &t) != 0) {
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
			switch (t.kind) {
			case T_SEND:
			case T_ISEND:
				wake(&w, m->net->dc[t.dc].to);
				break;
			case T_RECV:
			case T_MATCH:
				wake(&w, from);
				break;
			case T_LEAVE:
				for (k = 0; k < m->nprocs; k++)
					wake(&w, k);
				break;
			default:
				break;
			}
			wake_peer(&w, m, s, i);
			wake_peer(&w, m, s, from);
			nsync += at_sync_coll(m, s, i) - wi;
			if (from >= 0)
				nsync += at_sync_coll(m, s, from) - wf;
			if (o->progress && (r->ntrace & 0xffff) == 0)
				explore_progress(o, r, r->ntrace + 1,
				    alloc * sizeof(*r->trace), t0, &last, &last_states);
		}
		if (nsync == m->nprocs && m->nprocs > 0) {
			n = sem_enabled(m, s, 0, ts);
			for (k = 0; k < n && ts[k].kind != T_COLL; k++)
				;
			if (k < n) {
				sem_fire(m, s, &ts[k]);
				if (o->record) {
					xgrow(&r->trace, &alloc, r->ntrace + 1,
					    sizeof(*r->trace));
					r->trace[r->ntrace] = ts[k];
				}
				r->ntrace++;
				nsync = 0;
				for (k = 0; k < m->nprocs; k++) {
					nsync += at_sync_coll(m, s, k);
					wake(&w, k);
				}
				for (k = 0; k < m->nprocs; k++)
					wake_peer(&w, m, s, k);
			}
		}
	}
	r->final = s;
	s = NULL;
	ps = xcalloc(m->nprocs + 1, 1);
	sem_states(m, r->final, ps, ts);
	if ((r->bad = o->judge(o->judge_arg, r->final, ps)) > 0)
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
}
