/* sem.c -- the firing rule of the MP net on its compact encoding: which
 * transitions a state enables and what each does.  MPI's rules: messages
 * on one directed channel stay in order; a message goes to the receiver's
 * earliest-posted pending receive that accepts it (a request before the
 * blocking receive at pc); a standard send is buffered or synchronous as
 * the mode says, ssend and bsend are fixed; a synchronous send completes
 * when its message is taken, a buffered one at once. */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "sem.h"
#include "symm.h"
#include "xmalloc.h"

static int
bits_for(uint64_t max)
{
	int	w = 0;

	while (w < 63 && (max >> w) != 0)
		w++;
	return w;
}

static struct fld
alloc_fld(uint32_t *bits, int w)
{
	struct fld	f;

	f.off = *bits;
	f.w = (uint8_t)w;
	*bits += (uint32_t)w;
	return f;
}

/* Whether a collective instruction is one all its communicator's members
 * take together (every one in synchronous mode, unrooted ones in both). */
int
sem_sync_coll(const struct sem *m, const struct ins *in)
{
	const struct coll	*c = &m->net->colls[in->coll];

	return c->root < 0 || m->mode == CHECK_SYNC;
}

/* Whether a send instruction is synchronous in this mode. */
static inline int
is_sync(const struct sem *m, int mode)
{
	return mpnet_sync(mode, m->mode);
}

/* Find the pools (sem_init) and whether every wildcard has one choice
 * (sem.determinate); with !pool, find none. */
static void
pools(struct sem *m, int pool)
{
	const struct mpnet	*n = m->net;
	int			 i, k, lp, dc, wild_lo, wild_hi, ok;

	m->pool = xmalloc(sizeof(int) * (n->ndc > 0 ? n->ndc : 1));
	for (i = 0; i < n->ndc; i++)
		m->pool[i] = -1;
	m->determinate = 1;
	for (i = 0; i < n->nprocs; i++) {
		const struct prog	*pr = n->progs[i];
		int			 base = n->pcg->procs[i].portbase;

		if (pr == NULL)
			continue;
		if (pr->nalts > 0)
			m->determinate = 0;	/* a choice */
		/* Each wildcard's set: pooled when it is the only way the
		 * program receives on those ports and all sends are buffered. */
		for (k = 0; k < pr->nins; k++) {
			const struct ins	*in = &pr->ins[k];
			int			 j, first = -1, nconn = 0;

			/* A probe that names what it finds over two ports
			 * or more: which one is the run's to decide. */
			if (in->op == OP_PROBEANY && in->ctr >= 0) {
				for (lp = in->lo; lp < in->hi; lp++)
					nconn += n->recv_dc[base + lp] >= 0;
				if (nconn > 1)
					m->determinate = 0;
				continue;
			}
			if (in->op != OP_RECVANY && in->op != OP_IRECVANY)
				continue;
			wild_lo = in->lo;
			wild_hi = in->hi;
			ok = 1;
			for (j = 0; j < pr->nins && ok; j++) {
				const struct ins *o = &pr->ins[j];

				/* (a probe asks where a message is, as a
				 * receive of its ports: no pool there) */
				if ((o->op == OP_RECV || o->op == OP_IRECV ||
				    o->op == OP_PROBE || o->op == OP_IPROBE) &&
				    o->lp >= wild_lo && o->lp < wild_hi)
					ok = 0;
				if ((o->op == OP_PROBEANY || o->op == OP_IPROBEANY ||
				    o->op == OP_RECVPROBED) &&
				    o->lo < wild_hi && wild_lo < o->hi)
					ok = 0;
				if ((o->op == OP_RECVANY || o->op == OP_IRECVANY) &&
				    (o->lo != wild_lo || o->hi != wild_hi) &&
				    o->lo < wild_hi && wild_lo < o->hi)
					ok = 0;
			}
			for (lp = wild_lo; lp < wild_hi; lp++) {
				if ((dc = n->recv_dc[base + lp]) < 0)
					continue;
				nconn++;
				if (m->rdv[dc])
					ok = 0;
			}
			if (nconn <= 1)
				continue;	/* one choice anyway */
			if (!ok || !pool) {
				m->determinate = 0;
				continue;
			}
			/* The pool is named by its lowest channel, which the
			 * layout reaches first (sem_init_layout). */
			for (lp = wild_lo; lp < wild_hi; lp++)
				if ((dc = n->recv_dc[base + lp]) >= 0 &&
				    (first < 0 || dc < first))
					first = dc;
			for (lp = wild_lo; lp < wild_hi; lp++)
				if ((dc = n->recv_dc[base + lp]) >= 0)
					m->pool[dc] = first;
		}
	}
}

void
sem_init(struct sem *m, const struct mpnet *n, enum check_mode mode, int cbits)
{
	struct sem_layout	l = { cbits, 1, 0 };

	sem_init_layout(m, n, mode, &l);
}

/* Per instruction of pr, whether END can be reached from it (every
 * branch, loops going round or leaving): a fixpoint over the control
 * edges, few rounds for programs compiled in order. */
static unsigned char *
can_end(const struct prog *pr)
{
	unsigned char	*e = xcalloc(pr->nins + 1, 1);
	int		 pc, k, n, changed, *next = xmalloc(sizeof(int) * (pr->nalts + 2));

	do {
		changed = 0;
		for (pc = pr->nins - 1; pc >= 0; pc--) {
			if (e[pc])
				continue;
			e[pc] = pr->ins[pc].op == OP_END;
			n = mpnet_next(pr, pc, next);
			for (k = 0; k < n && !e[pc]; k++)
				e[pc] = e[next[k]];
			changed |= e[pc];
		}
	} while (changed);
	free(next);
	return e;
}

/* Whether proc's program has a wildcard over all its connected ports,
 * which cover[0] .. cover[1] span: a receive or probe of MPI_ANY_SOURCE,
 * which sees a sender's messages in the order they were sent. */
static int
reads_any_source(const struct sem *m, int proc, int *cover)
{
	const struct sproc	*sp = &m->p[proc];
	int			 k, lp;

	cover[0] = INT32_MAX;
	cover[1] = -1;
	if (sp->pr == NULL || !sp->pr->has_wild)
		return 0;	/* no wildcard at all */
	for (lp = 0; lp < sp->pr->nlp; lp++)
		if (m->net->recv_dc[sp->portbase + lp] >= 0) {
			if (lp < cover[0])
				cover[0] = lp;
			cover[1] = lp + 1;
		}
	for (k = 0; k < sp->pr->nins; k++) {
		const struct ins	*in = &sp->pr->ins[k];

		if ((in->op == OP_RECVANY || in->op == OP_IRECVANY ||
		    in->op == OP_PROBEANY || in->op == OP_IPROBEANY) &&
		    in->lo <= cover[0] && in->hi >= cover[1])
			return 1;
	}
	return 0;
}

/* Whether a message can wait in directed channel dc: a buffered send or
 * a non-blocking one goes into it (a synchronous blocking one waits for
 * its receiver). */
static int
can_hold(const struct sem *m, int dc)
{
	const struct dchan	*d = &m->net->dc[dc];
	const struct prog	*pr = m->net->progs[d->from];
	int			 k;

	for (k = 0; pr != NULL && k < pr->nins; k++)
		if (pr->ins[k].lp == d->from_lp && (pr->ins[k].op == OP_ISEND ||
		    (pr->ins[k].op == OP_SEND && !is_sync(m, pr->ins[k].mode))))
			return 1;
	return 0;
}

/* A channel into a receiver, by its sender (for sorting). */
struct from_dc {
	int		 from, dc;
};

static int
by_sender(const void *a, const void *b)
{
	const struct from_dc	*x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->dc < y->dc ? -1 : x->dc > y->dc;
}

/* Add the ordered group of channels dcs[0..k) (one sender's into one
 * receiver, in channel order); gof and glabel are made on the first. */
static void
group_add(struct sem *m, const int *dcs, int k)
{
	const struct mpnet	*n = m->net;
	struct sgroup		*g;
	int			 i;

	if (m->gof == NULL) {
		m->gof = xmalloc(sizeof(int) * (n->ndc > 0 ? n->ndc : 1));
		m->glabel = xcalloc(n->ndc > 0 ? n->ndc : 1, sizeof(int));
		for (i = 0; i < n->ndc; i++)
			m->gof[i] = -1;
	}
	m->grp = xreallocarray(m->grp, m->ngrp + 1, sizeof(*m->grp));
	g = &m->grp[m->ngrp];
	memset(g, 0, sizeof(*g));
	g->dc = xcalloc(k, sizeof(int));
	g->n = k;
	for (i = 0; i < k; i++) {
		g->dc[i] = dcs[i];
		m->gof[dcs[i]] = m->ngrp;
		m->glabel[dcs[i]] = i;
	}
	m->ngrp++;
}

/* The ordered groups: per receiver that reads with MPI_ANY_SOURCE, per
 * sender, the channels between them that are not pooled, when there are
 * two or more and one of them can hold messages. */
static void
groups(struct sem *m)
{
	const struct mpnet	*n = m->net;
	struct from_dc		*fd = NULL;
	int			 r, i, j, k, lp, dc, held, *dcs = NULL, cover[2];
	size_t			 alloc = 0, dalloc = 0;

	for (r = 0; r < n->nprocs; r++) {
		const struct sproc	*sp = &m->p[r];

		if (!reads_any_source(m, r, cover))
			continue;
		/* The channels into r that may carry messages, by sender. */
		for (lp = 0, k = 0; lp < sp->pr->nlp; lp++) {
			if ((dc = n->recv_dc[sp->portbase + lp]) < 0 ||
			    !n->dc[dc].used || m->pool[dc] >= 0)
				continue;
			xgrow(&fd, &alloc, k + 1, sizeof(*fd));
			fd[k].from = n->dc[dc].from;
			fd[k++].dc = dc;
		}
		if (k > 1)
			qsort(fd, k, sizeof(*fd), by_sender);
		for (i = 0; i < k; i = j) {
			for (j = i, held = 0; j < k && fd[j].from == fd[i].from; j++) {
				xgrow(&dcs, &dalloc, j - i + 1, sizeof(int));
				dcs[j - i] = fd[j].dc;
				held |= can_hold(m, fd[j].dc);
			}
			if (j - i >= 2 && held)
				group_add(m, dcs, j - i);
		}
	}
	free(fd);
	free(dcs);
	if (m->ngrp == 0)
		return;
	m->cover = xcalloc(2 * (size_t)n->nprocs + 2, sizeof(int));
	for (r = 0; r < n->nprocs; r++)
		(void)reads_any_source(m, r, m->cover + 2 * r);
}

int
sem_coll_eager(const struct coll *c, int proc)
{
	return mpnet_coll_fanout(c->kind) == (proc == c->root);
}

/* Per communicator, whether processes can open its log's next instance
 * with different rooted collectives: two whose root or kind differ, each
 * left at once by someone (eager). */
static void
coll_race(struct sem *m)
{
	const struct mpnet	*n = m->net;
	int			 i, k, c, *first = xmalloc(sizeof(int) * m->ncomm);

	for (c = 0; c < m->ncomm; c++)
		first[c] = -1;
	for (i = 0; i < n->nprocs; i++)
		for (k = 0; n->progs[i] != NULL && k < n->progs[i]->nins; k++) {
			const struct ins	*in = &n->progs[i]->ins[k];

			if (in->op != OP_COLL || n->colls[in->coll].root < 0 ||
			    !sem_coll_eager(&n->colls[in->coll], i))
				continue;
			c = sem_comm(m, in);
			if (first[c] >= 0 && first[c] != in->coll)
				m->cm[c].race = 1;
			first[c] = in->coll;
		}
	free(first);
}

/* The communicators (the application's and each group's), which
 * processes are in each, and which have a log of open rooted collectives
 * (buffered mode: those with a rooted one). */
static void
comms(struct sem *m)
{
	const struct mpnet	*n = m->net;
	struct scomm		*c;
	int			 i, k, *mem, *fill;

	m->ncomm = n->ncomms > 0 ? n->ncomms : 1;
	m->cm = xcalloc(m->ncomm, sizeof(*m->cm));
	m->npcm = xcalloc(n->nprocs + 1, sizeof(int));
	m->pcm = xcalloc(n->nprocs + 1, sizeof(int *));
	mem = xmalloc(sizeof(int) * (n->nprocs + 1));
	for (i = 0; i < n->nprocs; i++)
		mem[i] = i;
	for (k = 0; k < m->ncomm; k++) {
		c = &m->cm[k];
		c->n = mpnet_comm(n, k, &c->mem);
		if (k == 0)
			c->mem = mem;
		c->leader = c->n > 0 ? c->mem[0] : -1;
		c->log = -1;
		for (i = 0; k > 0 && i < c->n; i++)
			m->npcm[c->mem[i]]++;
	}
	fill = xcalloc(n->nprocs + 1, sizeof(int));
	for (i = 0; i < n->nprocs; i++)
		if (m->npcm[i] > 0)
			m->pcm[i] = xcalloc(m->npcm[i], sizeof(int));
	for (k = 1; k < m->ncomm; k++)
		for (i = 0; i < m->cm[k].n; i++) {
			int	p = m->cm[k].mem[i];

			m->pcm[p][fill[p]++] = k;
		}
	free(fill);
	if (m->clog == 0)
		return;
	for (k = 0; k < n->ncolls; k++)
		if (n->colls[k].root >= 0 && m->cm[n->colls[k].group + 1].log < 0)
			m->cm[n->colls[k].group + 1].log = m->nlog++;
	coll_race(m);
}

/* The reductions' walks' scratch (can_offer, and can_offer_twice around
 * it), room for the largest program: a walk per state allocated none. */
static void
walks_init(struct sem *m)
{
	size_t	most = 1, room = 1;
	int	i, k;

	for (i = 0; i < m->net->nuprog; i++) {
		const struct prog	*pr = m->net->uprog[i];

		if ((size_t)pr->nins + 1 > most)
			most = (size_t)pr->nins + 1;
		if ((size_t)MPNET_WALK_ROOM(pr) > room)
			room = (size_t)MPNET_WALK_ROOM(pr);
	}
	m->walks = xcalloc(2, sizeof(*m->walks));
	for (k = 0; k < 2; k++) {
		m->walks[k].nseen = most;
		m->walks[k].seen = xcalloc(most, sizeof(uint32_t));
		m->walks[k].reset = xcalloc(most, sizeof(uint64_t));
		m->walks[k].stack = xcalloc(room + 2, sizeof(int));
		m->walks[k].rstack = xcalloc(room + 2, sizeof(uint64_t));
	}
	m->ocache = xcalloc(m->net->nprocs > 0 ? (size_t)m->net->nprocs : 1,
	    sizeof(*m->ocache));
	m->wc = xcalloc(m->net->nprocs > 0 ? (size_t)m->net->nprocs : 1,
	    sizeof(*m->wc));
}

void
sem_init_layout(struct sem *m, const struct mpnet *n, enum check_mode mode,
    const struct sem_layout *l)
{
	uint32_t	bits = 0;
	int		i, k, wslot, cbits = l->cbits;

	memset(m, 0, sizeof(*m));
	m->net = n;
	m->mode = mode;
	m->nprocs = n->nprocs;
	m->layout = *l;
	m->overflow = -1;
	m->want_safe = 1;
	m->clog = n->rooted && n->ncolls > 0 && mode == CHECK_BUFFERED ? l->clog : 0;
	m->p = xcalloc(n->nprocs > 0 ? n->nprocs : 1, sizeof(*m->p));
	m->dc = xcalloc(n->ndc > 0 ? n->ndc : 1, sizeof(*m->dc));
	m->ctroff = xcalloc(n->nuprog > 0 ? n->nuprog : 1, sizeof(*m->ctroff));
	m->ctrw = xcalloc(n->nuprog > 0 ? n->nuprog : 1, sizeof(*m->ctrw));
	m->ends = xcalloc(n->nuprog > 0 ? n->nuprog : 1, sizeof(*m->ends));
	m->mark = xcalloc(m->nprocs > 0 ? m->nprocs : 1, 1);
	m->pollreq = xcalloc(m->nprocs > 0 ? m->nprocs : 1, 1);
	for (i = 0; i < n->nprocs; i++)
		for (k = 0; n->progs[i] != NULL && k < n->progs[i]->nins; k++) {
			int	op = n->progs[i]->ins[k].op;

			m->pollreq[i] |= op == OP_TEST || op == OP_WAITANY ||
			    op == OP_WAITSOME;
		}
	for (i = 0; i < n->nuprog; i++) {
		const struct prog	*pr = n->uprog[i];
		uint32_t		 off = 0;

		m->ends[i] = can_end(pr);

		m->ctroff[i] = xcalloc(pr->nctr + 1, sizeof(uint32_t));
		m->ctrw[i] = xcalloc(pr->nctr + 1, 1);
		for (k = 0; k < pr->nctr; k++) {
			m->ctroff[i][k] = off;
			m->ctrw[i][k] = (uint8_t)bits_for((uint64_t)pr->ctrmax[k]);
			off += m->ctrw[i][k];
		}
	}
	/* Per process: pc, counters, slots, collectives left. */
	for (i = 0; i < n->nprocs; i++) {
		struct sproc		*sp = &m->p[i];
		const struct prog	*pr = n->progs[i];
		int			 u;

		sp->portbase = n->pcg->procs[i].portbase;
		if (pr == NULL)
			continue;
		sp->pr = pr;
		u = pr->id;
		sp->pc = alloc_fld(&bits, bits_for((uint64_t)pr->nins - 1));
		sp->ctroff = m->ctroff[u];
		sp->ctrw = m->ctrw[u];
		sp->ctr = bits;
		for (k = 0; k < pr->nctr; k++)
			bits += sp->ctrw[k];
		/* A slot holds 1 for a pending receive, or a synchronous
		 * send's place in its channel. */
		wslot = pr->nslots > 0 ? 1 : 0;
		for (k = 0; k < pr->nsd; k++)
			if (pr->sd[k].kind == SD_SEND && is_sync(m, pr->sd[k].mode))
				wslot = cbits;
		sp->wslot = (uint8_t)wslot;
		sp->slot = bits;
		bits += (uint32_t)(wslot * pr->nslots);
	}
	m->rdv = xcalloc(n->ndc > 0 ? n->ndc : 1, 1);
	for (i = 0; i < n->ndc; i++) {
		const struct dchan	*d = &n->dc[i];
		const struct prog	*pr = n->progs[d->from];

		for (k = 0; pr != NULL && k < pr->nins; k++)
			if ((pr->ins[k].op == OP_SEND || pr->ins[k].op == OP_ISEND) &&
			    pr->ins[k].lp == d->from_lp && is_sync(m, pr->ins[k].mode))
				m->rdv[i] = 1;	/* (an isend: its depth is watched) */
	}
	pools(m, l->pool);
	groups(m);
	comms(m);
	for (i = 0; i < n->ndc; i++) {
		const struct dchan	*d = &n->dc[i];
		int64_t			 bound = d->bound;
		int			 w = 0, j;

		if (m->pool[i] >= 0 && m->pool[i] != i) {
			/* Shares its pool's count: the pool is named by its
			 * lowest channel, laid out already. */
			m->dc[i] = m->dc[m->pool[i]];
			continue;
		}
		if (m->pool[i] == i)
			for (j = i + 1; j < n->ndc; j++)
				if (m->pool[j] == i && bound >= 0)
					bound = n->dc[j].bound < 0 ||
					    bound > INT64_MAX / 2 ? -1 : bound + n->dc[j].bound;
		if (d->used || m->pool[i] == i)
			w = bound < 0 ? cbits : bits_for((uint64_t)bound);
		if (w > cbits)
			w = cbits;
		m->dc[i] = alloc_fld(&bits, w);
	}
	for (i = 0; i < m->ngrp; i++) {
		struct sgroup	*g = &m->grp[i];
		int64_t		 bound = 0;
		int		 most;

		/* Room for what its channels can hold, up to 2 * cbits. */
		most = 2 * cbits;
		for (k = 0; k < g->n && bound >= 0; k++)
			bound = n->dc[g->dc[k]].bound < 0 ? -1 :
			    bound + n->dc[g->dc[k]].bound;
		g->cap = bound < 0 || bound > most ? most : (int)bound;
		g->lw = (uint8_t)bits_for((uint64_t)g->n - 1);
		g->len = alloc_fld(&bits, bits_for((uint64_t)g->cap));
		g->q = bits;
		bits += (uint32_t)(g->cap * g->lw);
	}
	if (m->clog > 0) {
		/* Per process, per log: the open ones it has left; then each
		 * log's positions. */
		m->coff = xcalloc((size_t)n->nprocs * m->nlog + 1, sizeof(*m->coff));
		for (i = 0; i < n->nprocs; i++)
			for (k = 0; k < m->ncomm; k++) {
				int	lg = m->cm[k].log;

				if (lg >= 0 && n->progs[i] != NULL &&
				    mpnet_in_comm(n, k, i))
					m->coff[(size_t)i * m->nlog + lg] =
					    alloc_fld(&bits, bits_for((uint64_t)m->clog));
			}
		m->csig = xcalloc((size_t)m->clog * m->nlog + 1, sizeof(*m->csig));
		m->cndone = xcalloc((size_t)m->clog * m->nlog + 1, sizeof(*m->cndone));
		for (k = 0; k < m->ncomm; k++) {
			int	lg = m->cm[k].log, j;

			for (j = 0; lg >= 0 && j < m->clog; j++) {
				m->csig[lg * m->clog + j] = alloc_fld(&bits,
				    bits_for((uint64_t)n->ncolls));
				m->cndone[lg * m->clog + j] = alloc_fld(&bits,
				    bits_for((uint64_t)m->cm[k].n));
			}
		}
	}
	m->bits = bits;
	m->words = (bits + 63) / 64 + 1;
	m->scratch = xcalloc(m->words, sizeof(uint64_t));
	walks_init(m);
	m->bytes = (bits + 7) / 8;
	if (m->bytes == 0)
		m->bytes = 1;
}

int
sem_symmetry(struct sem *m)
{
	if (m->sym == NULL)
		m->sym = symm_new(m);
	return m->sym != NULL;
}

const char *
sem_symmetry_text(const struct sem *m)
{
	return symm_text(m->sym);
}

static void wc_free(struct wcache *);

void
sem_fini(struct sem *m)
{
	int	i;

	symm_free(m->sym);
	for (i = 0; i < 2; i++) {
		free(m->walks[i].seen);
		free(m->walks[i].reset);
		free(m->walks[i].stack);
		free(m->walks[i].rstack);
	}
	free(m->walks);
	for (i = 0; m->ocache != NULL && i < m->net->nprocs; i++)
		free(m->ocache[i]);
	free(m->ocache);
	for (i = 0; m->wc != NULL && i < m->net->nprocs; i++)
		wc_free(m->wc[i]);
	free(m->wc);
	free(m->wstart);
	free(m->eprev);
	free(m->ekept);
	free(m->ekn);
	free(m->et);
	free(m->ekrs);
	free(m->ekrd);
	free(m->ekwild);
	free(m->ekbag);
	free(m->wfld);
	free(m->went);
	free(m->wfill);
	free(m->wbit);
	free(m->wsame);
	free(m->wchg);
	free(m->wmask);

	for (i = 0; i < m->net->nuprog; i++) {
		free(m->ctroff[i]);
		free(m->ctrw[i]);
		free(m->ends[i]);
	}
	free(m->ends);
	free(m->mark);
	free(m->pollreq);
	free(m->scratch);
	for (i = 0; i < m->ngrp; i++)
		free(m->grp[i].dc);
	free(m->grp);
	free(m->gof);
	free(m->glabel);
	free(m->cover);
	free(m->csig);
	free(m->cndone);
	free(m->coff);
	if (m->cm != NULL)
		free((void *)m->cm[0].mem);
	free(m->cm);
	for (i = 0; m->pcm != NULL && i < m->nprocs; i++)
		free(m->pcm[i]);
	free(m->pcm);
	free(m->npcm);
	free(m->ctroff);
	free(m->ctrw);
	free(m->p);
	free(m->dc);
	free(m->rdv);
	free(m->pool);
}

static inline struct fld
ctr_fld(const struct sproc *sp, int k)
{
	struct fld	f = { sp->ctr + sp->ctroff[k], sp->ctrw[k] };

	return f;
}

uint64_t
sem_more(const struct sem *m, const uint64_t *s, int proc)
{
	const struct sproc	*sp = &m->p[proc];
	uint64_t		 more = 0;
	int			 k;

	for (k = 0; sp->pr != NULL && k < sp->pr->nctr && k < 64; k++)
		if (sem_get(s, ctr_fld(sp, k)) > 0)
			more |= (uint64_t)1 << k;
	return more;
}

static inline struct fld
slot_fld(const struct sproc *sp, int k)
{
	struct fld	f = { sp->slot + (uint32_t)k * sp->wslot, sp->wslot };

	return f;
}

/* Run pc through control (loops, jumps) to the next instruction that
 * waits for something: communication, a choice or the end. */
static void
settle(const struct sproc *sp, uint64_t *s, int pc)
{
	const struct ins	*in;
	uint64_t		 c;

	for (;;) {
		in = &sp->pr->ins[pc];
		switch (in->op) {
		case OP_LOOP:
			sem_set(s, ctr_fld(sp, in->ctr), (uint64_t)in->count - 1);
			pc += 2;	/* the first iteration: past its NEXT */
			continue;
		case OP_NEXT:
			if (in->count < 0) {
				pc++;
				continue;
			}
			c = sem_get(s, ctr_fld(sp, in->ctr));
			if (c > 0) {
				sem_set(s, ctr_fld(sp, in->ctr), c - 1);
				pc++;
			} else
				pc = in->target;
			continue;
		case OP_JUMP:
			pc = in->target;
			continue;
		default:
			break;
		}
		break;
	}
	sem_set(s, sp->pc, (uint64_t)pc);
}

void
sem_initial(const struct sem *m, uint64_t *s)
{
	int	i;

	memset(s, 0, sizeof(uint64_t) * m->words);
	for (i = 0; i < m->nprocs; i++)
		if (m->p[i].pr != NULL)
			settle(&m->p[i], s, 0);
}

int
sem_max_trans(const struct sem *m)
{
	int	i, most = 1;

	for (i = 0; i < m->nprocs; i++) {
		const struct prog	*pr = m->p[i].pr;
		int			 n;

		if (pr == NULL)
			continue;
		/* Its instruction's choices, plus a match per slot and port. */
		n = pr->nlp + pr->nalts + 2 + pr->nslots * (pr->nlp + 1);
		if (n > most)
			most = n;
	}
	return most;
}

int
sem_pc(const struct sem *m, const uint64_t *s, int proc)
{
	return (int)sem_get(s, m->p[proc].pc);
}

int
sem_recv_lp(const struct sem *m, const uint64_t *s, int proc,
    const struct ins *in)
{
	return mpnet_recv_lp(in, in->op == OP_RECVPROBED ?
	    sem_get(s, ctr_fld(&m->p[proc], in->ctr)) : 0);
}

static inline struct fld
gent(const struct sgroup *g, int k)
{
	struct fld	f = { g->q + (uint32_t)k * g->lw, g->lw };

	return f;
}

int
sem_coll_open(const struct sem *m, const uint64_t *s, int comm, int j)
{
	int	lg = m->clog > 0 ? m->cm[comm].log : -1;

	return lg >= 0 && j < m->clog ? (int)sem_get(s, m->csig[lg * m->clog + j]) - 1 : -1;
}

uint64_t
sem_coll_left(const struct sem *m, const uint64_t *s, int comm, int j)
{
	int	lg = m->clog > 0 ? m->cm[comm].log : -1;

	return lg >= 0 && j < m->clog ? sem_get(s, m->cndone[lg * m->clog + j]) : 0;
}

int
sem_coll_off(const struct sem *m, const uint64_t *s, int proc, int comm)
{
	int	lg = m->clog > 0 ? m->cm[comm].log : -1;

	return lg >= 0 ? (int)sem_get(s, m->coff[(size_t)proc * m->nlog + lg]) : 0;
}

/* Where proc's count of comm's open collectives it has left is. */
static inline struct fld
coff_fld(const struct sem *m, int proc, int comm)
{
	return m->coff[(size_t)proc * m->nlog + m->cm[comm].log];
}

uint64_t
sem_slot(const struct sem *m, const uint64_t *s, int proc, int slot)
{
	return sem_get(s, slot_fld(&m->p[proc], slot));
}

/* Whether dc has a message to take: 1 buffered, 2 a synchronous sender
 * blocked on it (rendezvous), 0 none. */
static int
avail(const struct sem *m, const uint64_t *s, int dc)
{
	const struct dchan	*d = &m->net->dc[dc];
	const struct sproc	*sp;
	const struct ins	*in;

	if (sem_count(m, s, dc) > 0)
		return 1;
	if (!m->rdv[dc])
		return 0;
	sp = &m->p[d->from];
	if (sp->pr == NULL)
		return 0;
	in = &sp->pr->ins[sem_get(s, sp->pc)];
	if (in->op == OP_SEND && in->lp == d->from_lp && is_sync(m, in->mode))
		return 2;
	return 0;
}

/* What local port lp of a process offers a receive, as avail(), with the
 * channel in *dc: 0 also when it is unconnected, or one of a pool's
 * channels but the first, which stands for them all. */
static int
offer(const struct sem *m, const uint64_t *s, const struct sproc *sp, int lp, int *dc)
{
	if ((*dc = m->net->recv_dc[sp->portbase + lp]) < 0)
		return 0;
	if (m->pool[*dc] >= 0 && m->pool[*dc] != *dc)
		return 0;
	return avail(m, s, *dc);
}

/* Whether a wildcard over lo..hi of sp reads with MPI_ANY_SOURCE (it
 * covers all the process's connected ports) where order matters: a
 * wildcard over fewer probes them one by one and takes any message
 * (libensemble's ens_recv_any). */
static inline int
any_source(const struct sem *m, int proc, int lo, int hi)
{
	return m->ngrp > 0 && lo <= m->cover[2 * proc] && hi >= m->cover[2 * proc + 1];
}

/* Whether an MPI_ANY_SOURCE receive may take dc's next message (avail
 * a): it takes a sender's messages in the order they were sent, so of an
 * ordered group only its first message, or, when none waits, the
 * synchronous send its sender is blocked in. */
static int
in_order(const struct sem *m, const uint64_t *s, int dc, int a)
{
	const struct sgroup	*g;

	if (m->gof[dc] < 0)
		return 1;
	g = &m->grp[m->gof[dc]];
	if (sem_get(s, g->len) == 0)
		return a == 2;
	return sem_get(s, gent(g, 0)) == (uint64_t)m->glabel[dc];
}

/* Whether nothing more can come on dc: it is empty, and its sender ended
 * or has no send on it at all (compile.c: used; the other way of a
 * channel that carries messages one way only). */
static int
dead(const struct sem *m, const uint64_t *s, int dc)
{
	return sem_count(m, s, dc) == 0 && (!m->net->dc[dc].used ||
	    sem_ended(m, s, m->net->dc[dc].from));
}

/* The earliest-posted pending receive request of proc that accepts local
 * port lp, or -1. */
static int
first_pending(const struct sem *m, const uint64_t *s, int proc, const struct ins *in,
    int lp)
{
	const struct sproc	*sp = &m->p[proc];
	int			 k;

	for (k = 0; k < in->nposted; k++) {
		const struct slotdesc	*d = &sp->pr->sd[in->sd + k];

		if (slotdesc_accepts(d, lp) && sem_get(s, slot_fld(sp, k)) != 0)
			return k;
	}
	return -1;
}

/* The facts of a wildcard over many ports, kept (below). */
struct wcache;
static struct wcache *wc_get(const struct sem *, const uint64_t *, int, int,
    int);
static int wc_settled(const struct wcache *);
static uint64_t wc_coming(const struct sem *, struct wcache *,
    const uint64_t *, int, int);

/* Whether every port in lo..hi either has a message or never will: then
 * a wildcard over them has all its choices now and later. */
static int
settled_wild(const struct sem *m, const uint64_t *s, int proc, int lo, int hi)
{
	struct wcache	*w;
	int		 lp, dc;

	if ((w = wc_get(m, s, proc, lo, hi)) != NULL)
		return wc_settled(w);
	for (lp = lo; lp < hi; lp++) {
		dc = m->net->recv_dc[m->p[proc].portbase + lp];
		if (dc < 0 || m->pool[dc] >= 0)
			continue;	/* a pool is one choice: nothing to wait for */
		if (!avail(m, s, dc) && !dead(m, s, dc))
			return 0;
	}
	return 1;
}

/* What can_offer looks for. */
struct offer_walk {
	const struct sem *m;
	int		 q, r, lo, hi;
	int		 pass;		/* 1: r's messages wait for q, its
					 * receives from r may pass; 2: every
					 * send to the end counts (r may send
					 * to q and meet it meanwhile) */
};

static int
offer_visit(void *arg, const struct ins *in)
{
	const struct offer_walk	*o = arg;
	const struct mpnet	*n = o->m->net;
	int			 base = o->m->p[o->q].portbase, dc;

	if (in->op == OP_SEND || in->op == OP_ISEND) {
		dc = n->send_dc[base + in->lp];
		return dc >= 0 && n->dc[dc].to == o->r && n->dc[dc].to_lp >= o->lo &&
		    n->dc[dc].to_lp < o->hi;
	}
	if (in->op == OP_RECV && (dc = n->recv_dc[base + in->lp]) >= 0 &&
	    n->dc[dc].from == o->r && !o->pass)
		return -1;	/* waits for r, which sends nothing first */
	if (in->op == OP_COLL && o->pass < 2 && (n->colls[in->coll].root < 0 ||
	    o->m->mode == CHECK_SYNC) && mpnet_in_comm(n, sem_comm(o->m, in), o->r))
		return -1;	/* r must come too */
	return 0;
}

/* Whether process q, from pc on, can reach a send into one of r's ports
 * lo..hi without first receiving from r or meeting r in a collective
 * (loops may go round or not, every branch of a choice is taken; 'pass':
 * its receives from r do not stop it, r's messages waiting for it). */
static int
can_offer_walk(const struct sem *m, int q, int pc, int r, int lo, int hi,
    int pass)
{
	struct offer_walk	 o = { m, q, r, lo, hi, pass };

	return m->p[q].pr != NULL && mpnet_walk(m->p[q].pr, pc, MPNET_ANY,
	    offer_visit, &o, &m->walks[0]);
}

/* What a walk of q's program from pc found for a receiver r's ports
 * lo..hi, 'pass' and whether it looked for two sends ('twice'): a fact
 * of the program and the net, asked again in every state where r waits
 * at the same wildcard (a farm's master, each state: the walks were
 * most of its cost).  One entry a way of asking (OC_WAYS: pass 0..2,
 * twice or not), each remembering the last receiver asked. */
struct ocache {
	int		 r, lo, hi;
	int		 v;		/* 0 or 1; -1 none yet */
};

#define OC_WAYS	6

static int
can_offer_twice_walk(const struct sem *m, int q, int pc, int r, int lo,
    int hi, int pass);

static int
offers_cached(const struct sem *m, int q, int pc, int r, int lo, int hi,
    int pass, int twice)
{
	struct ocache	*e;
	int		 k, n;

	if (m->p[q].pr == NULL)
		return 0;
	if (m->ocache[q] == NULL) {
		n = m->p[q].pr->nins * OC_WAYS;
		m->ocache[q] = xmalloc(sizeof(struct ocache) * (size_t)n);
		for (k = 0; k < n; k++)
			m->ocache[q][k].v = -1;
	}
	e = &m->ocache[q][pc * OC_WAYS + pass * 2 + twice];
	if (e->v < 0 || e->r != r || e->lo != lo || e->hi != hi) {
		e->r = r;
		e->lo = lo;
		e->hi = hi;
		e->v = twice ? can_offer_twice_walk(m, q, pc, r, lo, hi, pass) :
		    can_offer_walk(m, q, pc, r, lo, hi, pass);
	}
	return e->v;
}

/* Whether process q, from pc on, can reach a send into one of r's ports
 * lo..hi (can_offer_walk, once for each pc). */
static int
can_offer(const struct sem *m, int q, int pc, int r, int lo, int hi, int pass)
{
	return offers_cached(m, q, pc, r, lo, hi, pass, 0);
}

/* The same for two sends, one after the other: at each first one, a walk
 * from where it goes on looks for another. */
static int
twice_visit(void *arg, const struct ins *in)
{
	const struct offer_walk	*o = arg;
	const struct prog	*pr = o->m->p[o->q].pr;
	int			 v = offer_visit(arg, in), next[2], k, n;

	if (v <= 0)
		return v;
	n = mpnet_next(pr, (int)(in - pr->ins), next);
	for (k = 0; k < n; k++)
		if (can_offer(o->m, o->q, next[k], o->r, o->lo, o->hi, o->pass))
			return 1;
	return -1;	/* (what follows it, the walk from there saw) */
}

static int
can_offer_twice(const struct sem *m, int q, int pc, int r, int lo, int hi,
    int pass)
{
	return offers_cached(m, q, pc, r, lo, hi, pass, 1);
}

static int
can_offer_twice_walk(const struct sem *m, int q, int pc, int r, int lo,
    int hi, int pass)
{
	struct offer_walk	 o = { m, q, r, lo, hi, pass };

	/* (twice_visit walks with walks[0] inside this one) */
	return m->p[q].pr != NULL && mpnet_walk(m->p[q].pr, pc, MPNET_ANY,
	    twice_visit, &o, &m->walks[1]);
}

/* Whether q is blocked in a synchronous send to one of r's ports lo..hi
 * on a channel with no message waiting: its offer, counted among those
 * on offer now (behind waiting ones, it is not: avail()). */
static int
blocked_into(const struct sem *m, const uint64_t *s, int q, int r, int lo,
    int hi)
{
	const struct sproc	*sp = &m->p[q];
	const struct ins	*in;
	int			 dc;

	if (sp->pr == NULL)
		return 0;
	in = &sp->pr->ins[sem_get(s, sp->pc)];
	if (in->op != OP_SEND || !is_sync(m, in->mode) ||
	    (dc = m->net->send_dc[sp->portbase + in->lp]) < 0)
		return 0;
	return m->net->dc[dc].to == r && m->net->dc[dc].to_lp >= lo &&
	    m->net->dc[dc].to_lp < hi && sem_count(m, s, dc) == 0;
}

/* Copy what a simulation of sp's program reads and writes (settle, and
 * its pc and counters read back) from s into w: the rest of w is never
 * looked at (a whole state's copy for each sender was most of a farm's
 * master's cost at 1000 workers). */
static void
own_fields(const struct sproc *sp, const uint64_t *s, uint64_t *w)
{
	int	k;

	sem_set(w, sp->pc, sem_get(s, sp->pc));
	for (k = 0; k < sp->pr->nctr; k++)
		sem_set(w, ctr_fld(sp, k), sem_get(s, ctr_fld(sp, k)));
}

/* Instructions a simulation below follows at most; the counters of a
 * program whose return to where it began sim_offers looks for. */
#define SIM_STEPS	4096
#define SIM_CTRS	16

/* How many sends into r's ports lo..hi process q makes from pc on before
 * it stops where can_offer stops (a receive from r, unless 'pass'; a
 * collective r must come to; its end), following its loops by their
 * counters in s: without a choice a program goes one way.  -1 when that
 * cannot be told (a choice, or past SIM_STEPS instructions: an endless
 * loop's sends). */
static int
sim_offers(const struct sem *m, const uint64_t *s, int q, int pc, int r,
    int lo, int hi, int pass)
{
	const struct sproc	*sp = &m->p[q];
	struct offer_walk	 o = { m, q, r, lo, hi, pass };
	uint64_t		*w = m->scratch, c0[SIM_CTRS];
	const struct ins	*in;
	int			 steps, n = 0, v, k, pc0;

	if (sp->pr == NULL)
		return 0;
	own_fields(sp, s, w);
	settle(sp, w, pc);
	pc0 = (int)sem_get(w, sp->pc);
	for (k = 0; k < sp->pr->nctr && k < SIM_CTRS; k++)
		c0[k] = sem_get(w, ctr_fld(sp, k));
	for (steps = 0; steps < SIM_STEPS; steps++) {
		in = &sp->pr->ins[sem_get(w, sp->pc)];
		if (in->op == OP_END)
			return n;
		if (in->op == OP_CHOICE || mpnet_op_polls(in->op))
			return -1;
		if ((v = offer_visit(&o, in)) < 0)
			return n;
		n += v;
		settle(sp, w, (int)(in - sp->pr->ins) + 1);
		if ((int)sem_get(w, sp->pc) != pc0 || sp->pr->nctr > SIM_CTRS)
			continue;
		for (k = 0; k < sp->pr->nctr &&
		    sem_get(w, ctr_fld(sp, k)) == c0[k]; k++)
			;
		if (k == sp->pr->nctr)
			return -1;	/* back where it began: it goes round so
					 * for ever, as past SIM_STEPS */
	}
	return -1;
}

/* pc past the JUMPs from it. */
static int
past_jumps(const struct prog *pr, int pc)
{
	int	n;

	for (n = 0; pr->ins[pc].op == OP_JUMP && n < pr->nins; n++)
		pc = pr->ins[pc].target;
	return pc;
}

/* Whether pc starts a unit of code that takes one message from a port
 * of lo..hi, whatever it finds, and nothing else: 'recv any' over them,
 * 'probe any ... as m; recv m;' over them, or 'iprobe any ... as m {
 * recv m; } else { probe any ... as m; recv m; }' (both ways on to the
 * same code).  Where it goes on (before settle), or -1.  A bag (below)
 * takes each as one wildcard receive. */
static int
wild_unit(const struct prog *pr, int pc, int lo, int hi)
{
	const struct ins	*o = &pr->ins[pc];
	int			 t, f;

	if (o->lo != lo || o->hi != hi)
		return -1;
	if (o->op == OP_RECVANY)
		return pc + 1;
	if (o->op == OP_PROBEANY && o->ctr >= 0)
		return pr->ins[pc + 1].op == OP_RECVPROBED &&
		    pr->ins[pc + 1].ctr == o->ctr ? pc + 2 : -1;
	if (o->op != OP_IPROBEANY || o->ctr < 0 || o->nalt != 2)
		return -1;
	t = pr->alts[o->alt];
	if (pr->ins[t].op != OP_RECVPROBED || pr->ins[t].ctr != o->ctr)
		return -1;
	t++;
	f = pr->alts[o->alt + 1];
	if (pr->ins[f].op != OP_PROBEANY || (f = wild_unit(pr, f, lo, hi)) < 0 ||
	    past_jumps(pr, t) != past_jumps(pr, f))
		return -1;
	return t;
}

/* How many wildcard receives over in's ports r makes from pc (at in) on
 * before anything else (wild_unit), following its loops by their
 * counters in s (at most SIM_STEPS: an endless loop's are at least that
 * many), or 'most' when they are at least that many (most <= SIM_STEPS).
 * A counted loop is not followed round by round: where two rounds in a
 * row came back to pc with the same receives and one counter one less
 * each time, the others as they were, each round is the same until that
 * counter is 0 (the only step that reads it, its loop's NEXT, took one
 * off each time: a reset by its LOOP would have left it the same after
 * both), so the rounds it has left are counted at once (a server's
 * 'loop N { recv any ...; }' was followed N rounds in each state). */
static int
sim_run(const struct sem *m, const uint64_t *s, int r, int pc,
    const struct ins *in, int most)
{
	const struct sproc	*sp = &m->p[r];
	uint64_t		*w = m->scratch, last[SIM_CTRS], v;
	int			 n, next, pc0 = pc, k, j, nc = sp->pr->nctr;
	int			 dk = -1, d = 0, ln = 0;

	own_fields(sp, s, w);
	for (k = 0; k < nc && k < SIM_CTRS; k++)
		last[k] = sem_get(s, ctr_fld(sp, k));
	for (n = 0; n < most; n++) {
		if ((next = wild_unit(sp->pr, pc, in->lo, in->hi)) < 0)
			break;
		settle(sp, w, next);
		pc = (int)sem_get(w, sp->pc);
		if (pc != pc0)
			continue;
		/* Back where it began, its counters as they were: it goes
		 * round so for ever (an endless loop of receives). */
		for (k = 0; k < nc &&
		    sem_get(w, ctr_fld(sp, k)) == sem_get(s, ctr_fld(sp, k)); k++)
			;
		if (k == nc)
			return SIM_STEPS;
		if (nc > SIM_CTRS)
			continue;
		/* The one counter one less than at the last return, or -1. */
		for (j = -1, k = 0; k < nc; k++) {
			if ((v = sem_get(w, ctr_fld(sp, k))) == last[k])
				continue;
			if (j >= 0 || v + 1 != last[k]) {
				j = -1;
				break;
			}
			j = k;
		}
		if (j >= 0 && j == dk && n + 1 - ln == d &&
		    (v = sem_get(w, ctr_fld(sp, j))) > 0) {
			if (v > (uint64_t)most ||
			    v * (uint64_t)d >= (uint64_t)(most - n - 1))
				return most;	/* (as many as it follows) */
			n += (int)v * d;
			sem_set(w, ctr_fld(sp, j), 0);
			j = -1;
		}
		for (k = 0; k < nc; k++)
			last[k] = sem_get(w, ctr_fld(sp, k));
		dk = j;
		d = n + 1 - ln;
		ln = n + 1;
	}
	return n;
}

/* A bag: r at a run of k wildcard receives over ports lo..hi (k of them
 * in a row, or a counted loop whose body is this one receive and has k - 1
 * rounds to go, or as many as r makes before anything else following its
 * loops by their counters, sim_run; a probe that names the message it
 * finds and the 'recv' of it are one, wild_unit), with at most k
 * messages there, on
 * offer now or that their senders can still offer before they hear from
 * r, which only receives meanwhile: each sender counted once, with as
 * many as it sends before it would hear from r following its loops by
 * their counters when it has no choice (sim_offers: a worker with t
 * tasks left offers t), else at most one more (it must first hear from
 * r, or can offer once more at most).  Then r takes every one of them, in some order, and every order
 * ends in the same state: taking the first on offer alone is enough.  It
 * commutes with everything the others do meanwhile (r takes it sooner or
 * later, nobody else can, and its sender, if it waits in a synchronous
 * send, can do nothing else), and a path that never takes it keeps it on
 * offer with r able to take it, so takes it once prepended; the states
 * shown along the way are followed by the same ones one step of r
 * later, which show what they showed (all of it lasts).  A farm's master
 * collecting results, synchronous or as each worker chooses: one state
 * per result, not 2^N. */
/* The messages on offer now in r's ports lo..hi plus those their senders
 * can still send there before they hear from r (bag's count; 'all': every
 * one they can still send, r going on meanwhile), or more than 'most' (or
 * UINT64_MAX when r sends to itself there). */
static uint64_t
coming(const struct sem *m, const uint64_t *s, int r, int lo, int hi,
    uint64_t most, int all)
{
	const struct sproc	*sp = &m->p[r];
	const struct mpnet	*n = m->net;
	uint64_t		 offers = 0, c;
	int			 lp, dc, q, d, start, pass, k;
	struct wcache		*w;

	if ((w = wc_get(m, s, r, lo, hi)) != NULL)
		return wc_coming(m, w, s, r, all);
	for (lp = lo; lp < hi; lp++) {
		if ((dc = n->recv_dc[sp->portbase + lp]) < 0)
			continue;
		if (n->dc[dc].from == r)
			return UINT64_MAX;
		c = sem_count(m, s, dc);
		offers += c > 0 ? c : avail(m, s, dc) == 2;
	}
	/* Messages from r waiting for q let it pass receives (mark bit 2:
	 * some wait for it; bit 1: q counted). */
	for (lp = 0; lp < sp->pr->nlp && offers <= most; lp++)
		if ((d = n->send_dc[sp->portbase + lp]) >= 0 &&
		    sem_count(m, s, d) > 0)
			m->mark[n->dc[d].to] |= 2;
	/* Each sender once, however many of its channels come here (a
	 * client with a port of each type). */
	for (lp = lo; lp < hi && offers <= most; lp++) {
		if ((dc = n->recv_dc[sp->portbase + lp]) < 0 ||
		    (m->mark[q = n->dc[dc].from] & 1))
			continue;
		m->mark[q] |= 1;
		pass = all ? 2 : (m->mark[q] & 2) != 0;
		start = sem_pc(m, s, q);
		if (blocked_into(m, s, q, r, lo, hi))
			start++;	/* its offer is the send it is blocked in */
		if (!can_offer(m, q, start, r, lo, hi, pass))
			continue;
		if ((k = sim_offers(m, s, q, start, r, lo, hi, pass)) >= 0)
			offers += (uint64_t)k;	/* its loops counted: as many
						 * as it has rounds left */
		else if (can_offer_twice(m, q, start, r, lo, hi, pass))
			offers = most + 1;
		else
			offers++;
	}
	for (lp = lo; lp < hi; lp++)
		if ((dc = n->recv_dc[sp->portbase + lp]) >= 0)
			m->mark[n->dc[dc].from] = 0;
	for (lp = 0; lp < sp->pr->nlp; lp++)
		if ((d = n->send_dc[sp->portbase + lp]) >= 0)
			m->mark[n->dc[d].to] = 0;
	return offers;
}

/* Whether a process sending into r's ports lo..hi polls its requests
 * (test, waitany, waitsome): which of its messages r takes first then
 * shows in what it does, and a bag's one order is not enough. */
static int
senders_poll(const struct sem *m, int r, int lo, int hi)
{
	int	lp, dc;

	for (lp = lo; lp < hi; lp++)
		if ((dc = m->net->recv_dc[m->p[r].portbase + lp]) >= 0 &&
		    m->pollreq[m->net->dc[dc].from])
			return 1;
	return 0;
}

/* A wildcard over many ports (a farm's master, a server, a hub over N
 * channels) asked in every state: what settled_wild, bag and coming
 * read of each port and each sender, and which ports have a message to
 * take, kept per receiver and updated from the last state it was asked
 * in by what changed there (the words that differ, each naming the
 * fields on it: a channel's count, a process's pc and counters, the only
 * fields these facts read), so a state costs what its step changed, not
 * N.  Each fact is the same function of the state as the code it stands
 * for computes (coming, settled_wild, offer): only when it is computed
 * differs.  Used from WC_MIN ports on. */
#define WC_MIN		16
#define WC_INF		UINT64_MAX

struct wcache {
	int		 lo, hi;	/* its ports; lo < 0: nothing kept */
	int		 selfsend;	/* r sends to itself there (coming: all) */
	int		 poll;		/* senders_poll */
	int		 pool;		/* a port of it is a pool's */
	/* Per port, with pools: 0 for a pool's channel but the first, else
	 * how many of its ports share the first's count (NULL: each port on
	 * its own) */
	int		*mult;
	uint64_t	*prev;		/* the state the facts are of */
	/* Per port lp - lo: bag's and coming's count of it, offer(), and
	 * whether a wildcard waits for it (settled_wild); their sum, how
	 * many wait, the ports offering as bits. */
	uint64_t	*term;
	unsigned char	*off, *uns;
	uint64_t	*obits;
	uint64_t	 tsum;
	int		 nuns;
	/* The senders into them (each once), per process its index or -1;
	 * per sender its ports (sport[sps[i] .. sps[i + 1])) and r's
	 * channels to it (sch[scs[i] .. scs[i + 1])); its part of coming
	 * (WC_INF: more than any), their sum and how many are WC_INF, for
	 * 'sall' (-1: not kept). */
	int		 ns, *sidx, *sq, *sps, *sport, *scs, *sch;
	uint64_t	*contrib, csum;
	int		 ninf, sall;
	int		*dirty;		/* senders to do, flagged in 'sd' */
	unsigned char	*sd;
	int		 nd;
};

static void wc_bits(struct sem *);

/* Per state word, the fields of channel counts and of processes' pcs and
 * counters on it (sem.wfld, went: a process q, or nprocs + a channel),
 * from wstart[word]; built at the first wcache. */
static void
wc_index(struct sem *m)
{
	int	q, k, pass, e;
	size_t	n;

	m->wstart = xcalloc((size_t)m->words + 1, sizeof(int));
	for (pass = 0; pass < 2; pass++) {
		n = 0;
#define WC_ADD(F, E) do { \
	struct fld f_ = (F); uint32_t a_ = f_.off >> 6, b_; \
	if (f_.w == 0) break; \
	for (b_ = (f_.off + f_.w - 1) >> 6; a_ <= b_; a_++) { \
		if (pass == 0) m->wstart[a_ + 1]++; \
		else { e = m->wstart[a_] + m->wfill[a_]++; \
			m->wfld[e] = f_; m->went[e] = (E); } \
		n++; } } while (0)
		for (q = 0; q < m->nprocs; q++) {
			if (m->p[q].pr == NULL)
				continue;
			WC_ADD(m->p[q].pc, q);
			for (k = 0; k < m->p[q].pr->nctr; k++)
				WC_ADD(ctr_fld(&m->p[q], k), q);
		}
		for (k = 0; k < m->net->ndc; k++)
			WC_ADD(m->dc[k], m->nprocs + k);
#undef WC_ADD
		if (pass == 0) {
			for (k = 0; k < (int)m->words; k++)
				m->wstart[k + 1] += m->wstart[k];
			m->wfld = xcalloc(n + 1, sizeof(*m->wfld));
			m->went = xcalloc(n + 1, sizeof(int));
			m->wfill = xcalloc((size_t)m->words + 1, sizeof(int));
		}
	}
	wc_bits(m);
}

/* m->wbit, wmask, wsame, wchg (from wstart, wfld). */
static void
wc_bits(struct sem *m)
{
	uint32_t	x, a, b, bit, most = 1;
	int		j, k;

	m->wbit = xmalloc(sizeof(int) * (size_t)m->words * 64 + sizeof(int));
	for (bit = 0; bit < m->words * 64; bit++)
		m->wbit[bit] = -1;
	m->wmask = xcalloc((size_t)m->wstart[m->words] + 1, sizeof(uint64_t));
	m->wsame = xcalloc((size_t)m->wstart[m->words] + 1, sizeof(int));
	for (x = 0; x < m->words; x++) {
		if ((uint32_t)(m->wstart[x + 1] - m->wstart[x]) > most)
			most = (uint32_t)(m->wstart[x + 1] - m->wstart[x]);
		for (j = m->wstart[x]; j < m->wstart[x + 1]; j++) {
			a = m->wfld[j].off > x * 64 ? m->wfld[j].off - x * 64 : 0;
			b = m->wfld[j].off + m->wfld[j].w - x * 64;
			if (b > 64)
				b = 64;
			m->wmask[j] = (b - a == 64 ? ~0ULL :
			    ((1ULL << (b - a)) - 1)) << a;
			m->wsame[j] = -1;
			if ((k = m->wbit[x * 64 + a]) >= 0) {
				if (m->wmask[k] != m->wmask[j] ||
				    m->wfld[k].off != m->wfld[j].off ||
				    m->wfld[k].w != m->wfld[j].w)
					m->wover = 1;
				while (m->wsame[k] >= 0)
					k = m->wsame[k];
				m->wsame[k] = j;
				continue;
			}
			for (bit = a; bit < b; bit++) {
				if (m->wbit[x * 64 + bit] >= 0)
					m->wover = 1;
				m->wbit[x * 64 + bit] = j;
			}
		}
	}
	m->wchg = xcalloc(most, sizeof(int));
}

/* The entries of wfld on word x whose fields differ between states p
 * and s (each field's at least once where it lies on two words), into
 * m->wchg; how many. */
static int
wc_changed(const struct sem *m, const uint64_t *p, const uint64_t *s,
    uint32_t x)
{
	uint64_t	diff = p[x] ^ s[x];
	int		n = 0, j, k;

	if (m->wover) {
		for (j = m->wstart[x]; j < m->wstart[x + 1]; j++)
			if (sem_get(p, m->wfld[j]) != sem_get(s, m->wfld[j]))
				m->wchg[n++] = j;
		return n;
	}
	while (diff != 0) {
		if ((j = m->wbit[x * 64 + (uint32_t)__builtin_ctzll(diff)]) < 0) {
			diff &= diff - 1;
			continue;
		}
		diff &= ~m->wmask[j];
		for (k = j; k >= 0; k = m->wsame[k])
			m->wchg[n++] = k;
	}
	return n;
}

static void
wc_port(const struct sem *m, struct wcache *w, const uint64_t *s, int r,
    int lp)
{
	int		 i = lp - w->lo, dc, a;
	uint64_t	 c, t = 0;
	unsigned char	 o, u = 0;

	o = (unsigned char)offer(m, s, &m->p[r], lp, &dc);
	if (dc >= 0) {
		c = sem_count(m, s, dc);
		a = avail(m, s, dc);
		t = c > 0 ? c : a == 2;
		u = m->pool[dc] < 0 && !a && !dead(m, s, dc);
		if (w->mult != NULL)	/* (a pool's: no rendezvous) */
			t *= (uint64_t)w->mult[i];
	}
	w->tsum = w->tsum - w->term[i] + t;
	w->term[i] = t;
	w->nuns += (int)u - (int)w->uns[i];
	w->uns[i] = u;
	w->off[i] = o;
	if (o)
		w->obits[i >> 6] |= 1ULL << (i & 63);
	else
		w->obits[i >> 6] &= ~(1ULL << (i & 63));
}

/* Sender i's part of coming (its loop's body, for 'all'). */
static uint64_t
wc_sender(const struct sem *m, const struct wcache *w, const uint64_t *s,
    int r, int i, int all)
{
	int	q = w->sq[i], pass, start, k, j;

	pass = 2;
	if (!all)
		for (pass = 0, j = w->scs[i]; j < w->scs[i + 1] && !pass; j++)
			pass = sem_count(m, s, w->sch[j]) > 0;
	start = sem_pc(m, s, q);
	if (blocked_into(m, s, q, r, w->lo, w->hi))
		start++;
	if (!can_offer(m, q, start, r, w->lo, w->hi, pass))
		return 0;
	if ((k = sim_offers(m, s, q, start, r, w->lo, w->hi, pass)) >= 0)
		return (uint64_t)k;
	return can_offer_twice(m, q, start, r, w->lo, w->hi, pass) ? WC_INF : 1;
}

static void
wc_set_sender(const struct sem *m, struct wcache *w, const uint64_t *s,
    int r, int i)
{
	uint64_t	c = wc_sender(m, w, s, r, i, w->sall);

	if (w->contrib[i] == WC_INF)
		w->ninf--;
	else
		w->csum -= w->contrib[i];
	if (c == WC_INF)
		w->ninf++;
	else
		w->csum += c;
	w->contrib[i] = c;
}

static void
wc_free(struct wcache *w)
{
	if (w == NULL)
		return;
	free(w->prev);
	free(w->term);
	free(w->off);
	free(w->uns);
	free(w->obits);
	free(w->sidx);
	free(w->sq);
	free(w->sps);
	free(w->sport);
	free(w->scs);
	free(w->sch);
	free(w->contrib);
	free(w->dirty);
	free(w->sd);
	free(w->mult);
	free(w);
}

/* w->mult, where a pool's channels are all among w's ports and none
 * may hold a synchronous send: a step that changes the count they share
 * then changes the first's facts only (each port counts it in bag and
 * coming: the first for all), not N ports' (a farm's master's pool). */
static void
wc_pools(const struct sem *m, struct wcache *w, int r)
{
	const struct mpnet	*n = m->net;
	int			 lp, dc, f, np = w->hi - w->lo;

	w->mult = xcalloc((size_t)np, sizeof(int));
	for (lp = w->lo; lp < w->hi; lp++) {
		if ((dc = n->recv_dc[m->p[r].portbase + lp]) < 0)
			continue;
		if (m->pool[dc] < 0) {
			w->mult[lp - w->lo] = 1;
			continue;
		}
		f = m->pool[dc];
		if (m->rdv[dc] || n->dc[f].to != r || n->dc[f].to_lp < w->lo ||
		    n->dc[f].to_lp >= w->hi) {
			free(w->mult);
			w->mult = NULL;
			return;
		}
		w->mult[n->dc[f].to_lp - w->lo]++;
	}
}

/* A new wcache of r's ports lo..hi, its facts those of s. */
static struct wcache *
wc_new(const struct sem *m, const uint64_t *s, int r, int lo, int hi)
{
	const struct mpnet	*n = m->net;
	const struct sproc	*sp = &m->p[r];
	struct wcache		*w = xcalloc(1, sizeof(*w));
	int			 np = hi - lo, lp, dc, q, i, k;

	w->lo = lo;
	w->hi = hi;
	w->poll = senders_poll(m, r, lo, hi);
	w->prev = xcalloc(m->words, sizeof(uint64_t));
	w->term = xcalloc((size_t)np, sizeof(uint64_t));
	w->off = xcalloc((size_t)np, 1);
	w->uns = xcalloc((size_t)np, 1);
	w->obits = xcalloc((size_t)np / 64 + 1, sizeof(uint64_t));
	w->sidx = xcalloc((size_t)m->nprocs, sizeof(int));
	w->sq = xcalloc((size_t)np, sizeof(int));
	w->sps = xcalloc((size_t)np + 1, sizeof(int));
	w->sport = xcalloc((size_t)np, sizeof(int));
	w->contrib = xcalloc((size_t)np, sizeof(uint64_t));
	w->dirty = xcalloc((size_t)np, sizeof(int));
	w->sd = xcalloc((size_t)np, 1);
	for (q = 0; q < m->nprocs; q++)
		w->sidx[q] = -1;
	for (lp = lo; lp < hi; lp++) {
		if ((dc = n->recv_dc[sp->portbase + lp]) < 0)
			continue;
		if ((q = n->dc[dc].from) == r)
			w->selfsend = 1;
		if (m->pool[dc] >= 0)
			w->pool = 1;
		if (w->sidx[q] < 0) {
			w->sidx[q] = w->ns;
			w->sq[w->ns++] = q;
		}
		w->sps[w->sidx[q] + 1]++;
	}
	for (i = 0; i < w->ns; i++)
		w->sps[i + 1] += w->sps[i];
	w->scs = xcalloc((size_t)w->ns + 1, sizeof(int));
	for (lp = lo; lp < hi; lp++)
		if ((dc = n->recv_dc[sp->portbase + lp]) >= 0) {
			i = w->sidx[n->dc[dc].from];
			w->sport[w->sps[i] + w->sd[i]++] = lp;
		}
	for (k = 0; k < 2; k++) {	/* r's channels to its senders */
		memset(w->sd, 0, (size_t)np);
		for (lp = 0; lp < sp->pr->nlp; lp++)
			if ((dc = n->send_dc[sp->portbase + lp]) >= 0 &&
			    (i = w->sidx[n->dc[dc].to]) >= 0) {
				if (k == 0)
					w->scs[i + 1]++;
				else
					w->sch[w->scs[i] + w->sd[i]++] = dc;
			}
		if (k == 0) {
			for (i = 0; i < w->ns; i++)
				w->scs[i + 1] += w->scs[i];
			w->sch = xcalloc((size_t)w->scs[w->ns] + 1, sizeof(int));
		}
	}
	memset(w->sd, 0, (size_t)np);
	if (w->pool)
		wc_pools(m, w, r);
	for (lp = lo; lp < hi; lp++)
		wc_port(m, w, s, r, lp);
	w->sall = -1;
	memcpy(w->prev, s, sizeof(uint64_t) * m->words);
	return w;
}

/* Sender i to do again. */
static inline void
wc_dirty(struct wcache *w, int i)
{
	if (i >= 0 && !w->sd[i]) {
		w->sd[i] = 1;
		w->dirty[w->nd++] = i;
	}
}

/* r's wcache of ports lo..hi with the facts of s, or NULL (fewer than
 * WC_MIN ports: the callers look at each). */
static struct wcache *
wc_get(const struct sem *m, const uint64_t *s, int r, int lo, int hi)
{
	struct wcache	*w;
	const struct dchan *d;
	int		 j, e, i, k, lp, c, nc;
	uint32_t	 x;

	if (hi - lo < WC_MIN || m->wc == NULL)
		return NULL;
	if (m->wstart == NULL)
		wc_index((struct sem *)m);
	w = m->wc[r];
	if (w != NULL && (w->lo != lo || w->hi != hi)) {
		wc_free(w);
		w = m->wc[r] = NULL;
	}
	if (w == NULL)
		return m->wc[r] = wc_new(m, s, r, lo, hi);
	for (x = 0; x < m->words; x++) {
		if (w->prev[x] == s[x])
			continue;
		nc = wc_changed(m, w->prev, s, x);
		for (c = 0; c < nc; c++) {
			j = m->wchg[c];
			if ((e = m->went[j]) < m->nprocs) {
				if ((i = w->sidx[e]) < 0)
					continue;
				for (k = w->sps[i]; k < w->sps[i + 1]; k++)
					wc_port(m, w, s, r, w->sport[k]);
				wc_dirty(w, i);
				continue;
			}
			d = &m->net->dc[e - m->nprocs];
			if (w->mult != NULL && d->to == r && d->to_lp >= lo &&
			    d->to_lp < hi && w->mult[d->to_lp - lo] == 0)
				continue;	/* (a pool's, not its first) */
			if (d->to == r && d->to_lp >= lo && d->to_lp < hi) {
				lp = d->to_lp;
				/* (a pool's channels share a count: each has
				 * its entry) */
				wc_port(m, w, s, r, lp);
				wc_dirty(w, w->sidx[d->from]);
			}
			if (d->from == r)
				wc_dirty(w, w->sidx[d->to]);
		}
		w->prev[x] = s[x];
	}
	for (k = 0; k < w->nd; k++) {
		i = w->dirty[k];
		w->sd[i] = 0;
		if (w->sall >= 0)
			wc_set_sender(m, w, s, r, i);
	}
	w->nd = 0;
	return w;
}

/* coming() from w: the ports' counts and, 'all' or not, the senders'
 * parts (all of them again when 'all' changed). */
static uint64_t
wc_coming(const struct sem *m, struct wcache *w, const uint64_t *s, int r,
    int all)
{
	int	i;

	if (w->selfsend)
		return UINT64_MAX;
	if (w->sall != all) {
		w->sall = all;
		w->csum = 0;
		w->ninf = 0;
		for (i = 0; i < w->ns; i++) {
			w->contrib[i] = 0;
			wc_set_sender(m, w, s, r, i);
		}
	}
	return w->ninf > 0 ? UINT64_MAX : w->tsum + w->csum;
}

static int
wc_settled(const struct wcache *w)
{
	return w->nuns == 0;
}

/* The next port of w offering a message from lp on, or w->hi. */
static int
wc_next(const struct wcache *w, int lp)
{
	int		i = lp - w->lo, np = w->hi - w->lo;
	uint64_t	b;

	while (i < np) {
		b = w->obits[i >> 6] >> (i & 63);
		if (b != 0)
			return w->lo + i + __builtin_ctzll(b);
		i = (i | 63) + 1;
	}
	return w->hi;
}

static int
bag(const struct sem *m, const uint64_t *s, int r, int pc, const struct ins *in)
{
	const struct sproc	*sp = &m->p[r];
	const struct mpnet	*n = m->net;
	uint64_t		 offers = 0, c;
	int			 run, lp, dc, k;
	struct wcache		*w = NULL;

	if (in->nposted > 0 || ((w = wc_get(m, s, r, in->lo, in->hi)) != NULL ?
	    w->poll : senders_poll(m, r, in->lo, in->hi)))
		return 0;
	for (run = 0; pc + run < sp->pr->nins; run++) {
		const struct ins	*o = &sp->pr->ins[pc + run];

		if (o->op != OP_RECVANY || o->lo != in->lo || o->hi != in->hi)
			break;
	}
	if (run == 1 && pc + 1 < sp->pr->nins && sp->pr->ins[pc + 1].op == OP_JUMP) {
		const struct ins	*nx = &sp->pr->ins[sp->pr->ins[pc + 1].target];

		if (nx->op == OP_NEXT && nx->count >= 0 && nx + 1 == in) {
			c = sem_get(s, ctr_fld(sp, nx->ctr));
			run = c < (uint64_t)INT_MAX ? 1 + (int)c : INT_MAX;
		}
	}
	for (lp = in->lo; w == NULL && lp < in->hi; lp++) {
		if ((dc = n->recv_dc[sp->portbase + lp]) < 0)
			continue;
		c = sem_count(m, s, dc);
		offers += c > 0 ? c : avail(m, s, dc) == 2;
	}
	if (w != NULL)
		offers = w->tsum;
	if (offers < 1)
		return 0;
	if (w != NULL) {
		/* What comes, kept, first: the receives r makes are
		 * followed only as far as they need to be (a hub's loop of
		 * 6 N was followed SIM_STEPS receives far in each state). */
		c = wc_coming(m, w, s, r, 0);
		return c <= (uint64_t)run || (c <= SIM_STEPS &&
		    sim_run(m, s, r, pc, in, (int)c) >= (int)c);
	}
	if ((k = sim_run(m, s, r, pc, in, SIM_STEPS)) > run)
		run = k;	/* the rounds of an outer loop too */
	return coming(m, s, r, in->lo, in->hi, (uint64_t)run, 0) <= (uint64_t)run;
}

/* The same for requests: r's pending receive requests on ports lo..hi
 * are k wildcards over exactly lo..hi (none of another kind there), and
 * at most k messages can come there at all, counting every send their
 * senders can still make (r goes on meanwhile: it may send to them, meet
 * them in a collective).  Pending requests take messages whatever r does
 * meanwhile, earliest
 * posted first, and a match leaves nothing of which message it took: r
 * takes every one of them, every order ends in the same state, and the
 * first on offer alone is enough, as for bag (a torus node's four 'irecv
 * any' over its four neighbours). */
static int
req_bag(const struct sem *m, const uint64_t *s, int r, const struct ins *in,
    int lo, int hi)
{
	const struct sproc	*sp = &m->p[r];
	const struct slotdesc	*d;
	uint64_t		 pend = 0;
	int			 j, lp, dc;
	struct wcache		*w;

	for (j = 0; j < in->nposted; j++) {
		d = &sp->pr->sd[in->sd + j];
		if (d->kind == SD_SEND || sem_get(s, slot_fld(sp, j)) == 0)
			continue;
		if (d->kind == SD_RECVANY && d->lo == lo && d->hi == hi)
			pend++;
		else if (d->kind == SD_RECV ? d->lp >= lo && d->lp < hi :
		    d->lo < hi && lo < d->hi)
			return 0;
	}
	if ((w = wc_get(m, s, r, lo, hi)) != NULL) {
		if (w->pool || w->poll)
			return 0;
		return wc_coming(m, w, s, r, 1) <= pend;
	}
	for (lp = lo; lp < hi; lp++)
		if ((dc = m->net->recv_dc[sp->portbase + lp]) >= 0 &&
		    m->pool[dc] >= 0)
			return 0;
	if (senders_poll(m, r, lo, hi))
		return 0;
	return coming(m, s, r, lo, hi, pend, 1) <= pend;
}


/* What sem_runs_ahead looks for. */
struct ahead_walk {
	const struct sem *m;
	int		 proc;
};

static int
ahead_visit(void *arg, const struct ins *in)
{
	const struct ahead_walk	*a = arg;

	if (in->op != OP_COLL)
		return 0;
	/* A collective ends the path. */
	return !sem_sync_coll(a->m, in) &&
	    sem_coll_eager(&a->m->net->colls[in->coll], a->proc) ? 1 : -1;
}

int
sem_runs_ahead(const struct sem *m, int proc, int pc)
{
	const struct prog	*pr = m->p[proc].pr;
	const struct coll	*c;
	struct ahead_walk	 a = { m, proc };
	struct mpnet_walk	 w = { .seen = NULL };

	if (m->clog == 0 || pr->ins[pc].op != OP_COLL || sem_sync_coll(m, &pr->ins[pc]))
		return 0;
	/* The last to leave closes it: the root of reduce and gather, the
	 * one other process of bcast and scatter between two. */
	c = &m->net->colls[pr->ins[pc].coll];
	if (!sem_coll_eager(c, proc) && (c->root == proc ||
	    m->cm[c->group + 1].n == 2))
		return 0;
	return mpnet_walk(pr, pc + 1, MPNET_ANY, ahead_visit, &a, &w);
}

/* Whether the collective all of comm take together at 'in' is enabled:
 * every member at it, no rooted one of comm open.  (The transition is
 * its leader's.) */
static int
sync_coll_enabled(const struct sem *m, const uint64_t *s, int comm,
    const struct ins *in)
{
	const struct scomm	*c = &m->cm[comm];
	int			 i;

	if (sem_coll_open(m, s, comm, 0) >= 0)
		return 0;
	for (i = 0; i < c->n; i++) {
		const struct sproc	*sp = &m->p[c->mem[i]];
		const struct ins	*at;

		if (sp->pr == NULL)
			return 0;
		at = &sp->pr->ins[sem_get(s, sp->pc)];
		if (at->op != OP_COLL || at->coll != in->coll)
			return 0;
	}
	return 1;
}

static int
coll_enabled(struct sem *m, const uint64_t *s, int proc, const struct ins *in)
{
	const struct coll	*c = &m->net->colls[in->coll];
	int			 o, sig, comm = c->group + 1, n = m->cm[comm].n;

	if (sem_sync_coll(m, in))
		/* Every member at the same collective, no rooted one open. */
		return proc == m->cm[comm].leader &&
		    sync_coll_enabled(m, s, comm, in);
	/* The instance proc is at: the first open one it has not left. */
	o = sem_coll_off(m, s, proc, comm);
	sig = sem_coll_open(m, s, comm, o);
	if (sig >= 0 && sig != in->coll)
		return 0;	/* another collective: never (a mismatch) */
	if (sem_coll_eager(c, proc))	/* (past the log's end: sem_fire overflows,
				 * or at its most it waits) */
		return o < m->clog || m->clog < SEM_CLOG_MOST;
	if (sig < 0)
		return n == 1;	/* waits for the others to open it */
	if (mpnet_coll_fanout(c->kind))
		return sem_coll_off(m, s, c->root, comm) > o;
	return sem_coll_left(m, s, comm, o) == (uint64_t)n - 1;
}

/* What the explorers need to know of each kind (model.h). */
static const uint8_t trole_of[] = {
	[T_SEND] = TR_POST, [T_ISEND] = TR_POST, [T_IPOST] = TR_POST,
	[T_RECV] = TR_STEP, [T_MATCH] = TR_MATCH, [T_WAIT] = TR_STEP,
	[T_CHOOSE] = TR_STEP, [T_COLL] = TR_ALL, [T_LEAVE] = TR_STEP,
	[T_TEST] = TR_STEP, [T_WAITANY] = TR_STEP, [T_PROBE] = TR_STEP,
	[T_IPROBE] = TR_STEP,
};

/* Whether a message on proc's port lp (of a probe over lo..hi) can be
 * received now and no pending request of its takes it first: what a
 * probe sees, its channel in *dc.  A probe over all the process's
 * connected ports is MPI_ANY_SOURCE's, which sees a sender's messages in
 * the order sent, as such a receive takes them. */
static int
probe_port(const struct sem *m, const uint64_t *s, int proc,
    const struct ins *in, int lp, int lo, int hi, int *dc)
{
	int	a;

	return (a = offer(m, s, &m->p[proc], lp, dc)) != 0 &&
	    first_pending(m, s, proc, in, lp) < 0 &&
	    (!any_source(m, proc, lo, hi) || in_order(m, s, *dc, a));
}

/* Whether a probe over proc's ports lo..hi sees a message (probe_port). */
static int
probe_sees(const struct sem *m, const uint64_t *s, int proc,
    const struct ins *in, int lo, int hi)
{
	int	lp, dc;

	for (lp = lo; lp < hi; lp++)
		if (probe_port(m, s, proc, in, lp, lo, hi, &dc))
			return 1;
	return 0;
}

/* A probe or iprobe that names its message ('as m'): a transition of
 * kind k per port where it sees one (slot: the port, dc its channel),
 * whose firing puts the port in m's counter; which one it finds is the
 * state's to decide, not the probe's, as a wildcard's: safe once every
 * port has a message or never will.  How many it added at out. */
static int bag(const struct sem *, const uint64_t *, int, int, const struct ins *);

static int
probe_named(struct sem *m, const uint64_t *s, int proc, const struct ins *in,
    int lo, int hi, int k, int pc, struct trans *out)
{
	int	lp, dc, n = 0, safe, one = 0;

	safe = in->op == OP_PROBE || in->op == OP_IPROBE || !m->want_safe ||
	    settled_wild(m, s, proc, lo, hi);
	/* A bag (its receive right after): the first on offer is enough. */
	if (m->want_safe && wild_unit(m->p[proc].pr, pc, lo, hi) >= 0 &&
	    bag(m, s, proc, pc, in)) {
		one = safe = 1;
		m->bags++;
	}
	for (lp = lo; lp < hi && !(one && n > 0); lp++) {
		if (!probe_port(m, s, proc, in, lp, lo, hi, &dc))
			continue;
		out[n].kind = (uint8_t)k;
		out[n].role = TR_STEP;
		out[n].proc = proc;
		out[n].dc = dc;
		out[n].slot = lp;
		out[n].alt = 0;
		out[n].safe = (uint8_t)safe;
		out[n].rdv = 0;
		out[n].pc = pc;
		n++;
	}
	return n;
}

/* The requests of in's wmask (bit k: its k-th lowest) that are complete. */
static uint64_t
done_of(const struct sproc *sp, const uint64_t *s, const struct ins *in)
{
	uint64_t	c = 0, w = in->wmask;
	int		j;

	for (j = 0; w != 0; j++, w &= w - 1)
		if (sem_get(s, slot_fld(sp, __builtin_ctzll(w))) == 0)
			c |= (uint64_t)1 << j;
	return c;
}

int
sem_enabled(struct sem *m, const uint64_t *s, int proc, struct trans *out)
{
	const struct sproc	*sp = &m->p[proc];
	const struct ins	*in;
	int			 n = 0, pc, k, lp, dc, a, wsafe, ordered, one;
	struct wcache		*w;

	if (sp->pr == NULL)
		return 0;
	pc = (int)sem_get(s, sp->pc);
	in = &sp->pr->ins[pc];
#define ADD(K, DC, SLOT, ALT, SAFE, RDV) do { \
	struct trans *t_ = &out[n++]; \
	t_->kind = (K); t_->role = trole_of[(K)]; t_->proc = proc; t_->dc = (DC); t_->slot = (SLOT); \
	t_->alt = (ALT); t_->safe = (uint8_t)(SAFE); t_->rdv = (uint8_t)(RDV); \
	t_->pc = pc; } while (0)

	/* Pending receive requests take messages first, earliest posted first. */
	for (k = 0; k < in->nposted; k++) {
		const struct slotdesc	*d = &sp->pr->sd[in->sd + k];
		int			 lo, hi;

		if (d->kind == SD_SEND || sem_get(s, slot_fld(sp, k)) == 0)
			continue;
		lo = d->kind == SD_RECV ? d->lp : d->lo;
		hi = d->kind == SD_RECV ? d->lp + 1 : d->hi;
		wsafe = d->kind == SD_RECV || !m->want_safe ||
		    settled_wild(m, s, proc, lo, hi);
		ordered = d->kind == SD_RECVANY && any_source(m, proc, lo, hi);
		one = 0;
		if (!wsafe && req_bag(m, s, proc, in, lo, hi)) {
			one = wsafe = 1;
			m->bags++;
		}
		/* (many ports: those offering only) */
		w = d->kind == SD_RECVANY ? wc_get(m, s, proc, lo, hi) : NULL;
		for (lp = w != NULL ? wc_next(w, lo) : lo; lp < hi;
		    lp = w != NULL ? wc_next(w, lp + 1) : lp + 1) {
			if ((a = offer(m, s, sp, lp, &dc)) == 0 ||
			    first_pending(m, s, proc, in, lp) != k ||
			    (ordered && !in_order(m, s, dc, a)))
				continue;
			ADD(T_MATCH, dc, k, 0, wsafe, a == 2);
			if (one)
				break;
		}
	}
	switch (in->op) {
	case OP_SEND:
		dc = m->net->send_dc[sp->portbase + in->lp];
		if (!is_sync(m, in->mode))
			ADD(T_SEND, dc, -1, 0, 1, 0);
		break;	/* a synchronous one is taken by its receiver */
	case OP_ISEND:
		dc = m->net->send_dc[sp->portbase + in->lp];
		ADD(T_ISEND, dc, in->slot, 0, 1, 0);
		break;
	case OP_IRECV:
	case OP_IRECVANY:
		ADD(T_IPOST, -1, in->slot, 0, 1, 0);
		break;
	case OP_RECV:
	case OP_RECVPROBED:
	case OP_RECVANY: {
		int	lo = in->op != OP_RECVANY ? sem_recv_lp(m, s, proc, in) :
			    in->lo;
		int	hi = in->op != OP_RECVANY ? lo + 1 : in->hi;

		one = 0;
		wsafe = in->op != OP_RECVANY || !m->want_safe ||
		    settled_wild(m, s, proc, lo, hi);
		ordered = in->op == OP_RECVANY && any_source(m, proc, lo, hi);
		if (in->op == OP_RECVANY && m->want_safe && bag(m, s, proc, pc, in)) {
			one = wsafe = 1;
			m->bags++;
		}
		w = in->op == OP_RECVANY ? wc_get(m, s, proc, lo, hi) : NULL;
		for (lp = w != NULL ? wc_next(w, lo) : lo; lp < hi;
		    lp = w != NULL ? wc_next(w, lp + 1) : lp + 1) {
			if ((a = offer(m, s, sp, lp, &dc)) == 0 ||
			    first_pending(m, s, proc, in, lp) >= 0 ||
			    (ordered && !in_order(m, s, dc, a)))
				continue;	/* (a request takes it first) */
			ADD(T_RECV, dc, -1, 0, wsafe, a == 2);
			if (one)
				break;
		}
		break;
	}
	case OP_WAITALL:
		for (k = 0; k < in->nposted; k++)
			if (sem_get(s, slot_fld(sp, k)) != 0)
				break;
		if (k == in->nposted)
			ADD(T_WAIT, -1, -1, 0, 1, 0);
		break;
	case OP_WAIT:
		for (k = 0; k < in->nposted; k++)
			if ((in->wmask >> k & 1) && sem_get(s, slot_fld(sp, k)) != 0)
				break;
		if (k == in->nposted)
			ADD(T_WAIT, -1, -1, 0, 1, 0);
		break;
	/* Polls, as MPI defines them: a test or iprobe may come out false
	 * in any state (the message may be in transit, the completion not
	 * yet seen: MPI only promises that one who keeps polling sees it),
	 * true only where the request is complete or a message there.  A
	 * test of a request completed before (MPI_REQUEST_NULL) is true at
	 * once.  Where true can be, both ways last (only the poller takes
	 * that message or frees that request): a choice of its own, safe;
	 * else another process may still make it true: not safe. */
	case OP_TEST:
		if (in->slot < 0) {
			ADD(T_TEST, -1, in->slot, 0, 1, 0);
			break;
		}
		a = sem_get(s, slot_fld(sp, in->slot)) == 0;
		if (a)
			ADD(T_TEST, -1, in->slot, 0, 1, 0);
		ADD(T_TEST, -1, in->slot, 1, a, 0);
		break;
	case OP_IPROBE:
	case OP_IPROBEANY: {
		int	lo = in->op == OP_IPROBE ? in->lp : in->lo;
		int	hi = in->op == OP_IPROBE ? in->lp + 1 : in->hi;

		if (in->ctr >= 0) {	/* 'as m': one way per port found */
			k = probe_named(m, s, proc, in, lo, hi, T_IPROBE, pc,
			    out + n);
			n += k;
			a = k > 0 && out[n - 1].safe;
		} else if ((a = probe_sees(m, s, proc, in, lo, hi)))
			ADD(T_IPROBE, -1, -1, 0, 1, 0);
		ADD(T_IPROBE, -1, -1, 1, a, 0);
		break;
	}
	case OP_PROBE:
	case OP_PROBEANY: {
		int	lo = in->op == OP_PROBE ? in->lp : in->lo;
		int	hi = in->op == OP_PROBE ? in->lp + 1 : in->hi;

		if (in->ctr >= 0)
			n += probe_named(m, s, proc, in, lo, hi, T_PROBE, pc,
			    out + n);
		else if (probe_sees(m, s, proc, in, lo, hi))
			ADD(T_PROBE, -1, -1, 0, 1, 0);
		break;
	}
	case OP_WAITANY:
	case OP_WAITSOME: {
		uint64_t	c = done_of(sp, s, in), all;

		/* Safe once every one is complete: none can come to be. */
		all = ((uint64_t)1 << __builtin_popcountll(in->wmask)) - 1;
		if (in->wmask == UINT64_MAX)
			all = UINT64_MAX;
		if (c == 0)
			break;
		if (in->op == OP_WAITSOME) {
			uint64_t	sub;

			/* It returns some of the complete ones, at least one:
			 * a completion MPI has not seen yet waits for a
			 * later call (every nonempty subset). */
			for (sub = c; sub != 0; sub = (sub - 1) & c)
				ADD(T_WAITANY, -1, -1, (int)(sub - 1), c == all, 0);
			break;
		}
		for (k = 0; c != 0; k++, c >>= 1)
			if (c & 1)
				ADD(T_WAITANY, -1, -1, k, done_of(sp, s, in) == all, 0);
		break;
	}
	case OP_COLL:
		if (!coll_enabled(m, s, proc, in))
			break;
		if (sem_sync_coll(m, in)) {
			ADD(T_COLL, -1, -1, 0, 1, 0);
			if (sem_comm(m, in) > 0)	/* its members' step only */
				out[n - 1].role = TR_STEP;
		} else {	/* opening an instance another collective could
				 * open instead decides which: a conflict */
			k = sem_comm(m, in);
			ADD(T_LEAVE, -1, -1, 0, !m->cm[k].race ||
			    sem_coll_open(m, s, k, sem_coll_off(m, s, proc, k)) >= 0, 0);
		}
		break;
	case OP_CHOICE:
		for (k = 0; k < in->nalt; k++)
			ADD(T_CHOOSE, -1, -1, k, 1, 0);
		break;
	default:
		break;
	}
#undef ADD
	return n;
}

/* Whether proc's enabled transitions at instruction in read of the state
 * only its pc and counters, the count of the channel into the port a
 * receive reads and, where that channel may hold a synchronous send,
 * its sender's pc (avail), and are at most EK_MOST: no pending request
 * (their slots, their matches), no wildcard, poll or collective.  Its
 * end, a choice, a send, a post, a named receive. */
static int
kept_simple(const struct ins *in)
{
	if (in->nposted != 0)
		return 0;
	switch (in->op) {
	case OP_SEND:
	case OP_ISEND:
	case OP_RECV:
	case OP_RECVPROBED:
	case OP_IRECV:
	case OP_IRECVANY:
	case OP_WAITALL:
	case OP_WAIT:
	case OP_END:
		return 1;
	case OP_CHOICE:
		return in->nalt <= EK_MOST;
	default:
		return 0;
	}
}

/* The receiver of what q sends at instruction in when it is a send (its
 * pc there or not changes avail of that channel), else -1. */
static int
send_to(const struct sem *m, int q, const struct ins *in)
{
	int	dc;

	if (in->op != OP_SEND)
		return -1;
	dc = m->net->send_dc[m->p[q].portbase + in->lp];
	return dc < 0 ? -1 : m->net->dc[dc].to;
}

/* Whether r's wildcard at 'in' is one sem_at may keep: a 'recv any'
 * with no pending request, of a process ek_index found all of whose
 * wildcards read only what sem_at follows (ekwild). */
static int
kept_wild(const struct sem *m, int r, const struct ins *in)
{
	return in->op == OP_RECVANY && in->nposted == 0 && m->ekwild[r];
}

/* ek_index's look at the senders into r's wildcards, each once: pass 0
 * counts r for each (ekrs), 1 lists it (ekrd, fill), -1 clears the
 * marks (bit 8) the pass before left. */
static void
ek_senders(struct sem *m, int r, int pass, int *fill)
{
	const struct sproc	*sp = &m->p[r];
	const struct ins	*in;
	int			 pc, lp, dc, q;

	for (pc = 0; pc < sp->pr->nins; pc++) {
		in = &sp->pr->ins[pc];
		if (in->op != OP_RECVANY)
			continue;
		for (lp = in->lo; lp < in->hi; lp++) {
			if ((dc = m->net->recv_dc[sp->portbase + lp]) < 0)
				continue;
			q = m->net->dc[dc].from;
			if (pass < 0) {
				m->mark[q] &= ~8;
				continue;
			}
			if (m->mark[q] & 8)
				continue;
			m->mark[q] |= 8;
			if (pass == 0)
				m->ekrs[q + 1]++;
			else
				m->ekrd[m->ekrs[q] + fill[q]++] = r;
		}
	}
}

/* Per process the wildcard receivers that read its fields (ekrs, ekrd)
 * and whether its wildcards may be kept (ekwild).  A 'recv any' over
 * ports lo..hi with no pending request reads (sem_enabled: offer,
 * settled_wild, bag, coming, and wc_get's facts, which are theirs) its
 * own pc and counters, the counts of the channels into lo..hi and of
 * those out of it (coming: its messages waiting for a sender let that
 * one pass), and the pcs and counters of the senders into lo..hi
 * (avail's rendezvous, dead, blocked_into, sim_offers), nothing else
 * -- unless it reads with MPI_ANY_SOURCE in order (in_order reads a
 * group's log) or a port is a pool's (the pool's count is another
 * channel's): then none of the process's wildcards is kept. */
static void
ek_index(struct sem *m)
{
	const struct mpnet	*n = m->net;
	const struct sproc	*sp;
	const struct ins	*in;
	int			 r, q, pc, lp, dc, pass, k, ok, *fill;

	m->ekrs = xcalloc((size_t)m->nprocs + 1, sizeof(int));
	m->ekwild = xcalloc(m->nprocs > 0 ? (size_t)m->nprocs : 1, 1);
	m->ekbag = xcalloc(m->nprocs > 0 ? (size_t)m->nprocs : 1, 1);
	for (r = 0; r < m->nprocs; r++) {
		if ((sp = &m->p[r])->pr == NULL)
			continue;
		ok = 0;
		for (pc = 0; pc < sp->pr->nins; pc++) {
			in = &sp->pr->ins[pc];
			if (in->op != OP_RECVANY)
				continue;
			ok = 1;
			if (any_source(m, r, in->lo, in->hi))
				break;
			for (lp = in->lo; lp < in->hi; lp++)
				if ((dc = n->recv_dc[sp->portbase + lp]) >= 0 &&
				    m->pool[dc] >= 0)
					break;
			if (lp < in->hi)
				break;
		}
		m->ekwild[r] = (unsigned char)(ok && pc == sp->pr->nins);
	}
	/* Each sender's receivers, each once (mark bit 8, cleared). */
	fill = xcalloc(m->nprocs > 0 ? (size_t)m->nprocs : 1, sizeof(int));
	for (pass = 0; pass < 2; pass++) {
		for (r = 0; r < m->nprocs; r++) {
			if (!m->ekwild[r])
				continue;
			for (k = 0; k < 2; k++)
				ek_senders(m, r, k == 0 ? pass : -1, fill);
		}
		if (pass == 0) {
			for (q = 0; q < m->nprocs; q++)
				m->ekrs[q + 1] += m->ekrs[q];
			m->ekrd = xcalloc((size_t)m->ekrs[m->nprocs] + 1,
			    sizeof(int));
		}
	}
	free(fill);
}

#define EK_DROP(m, p)	((m)->ekept[(p) >> 6] &= ~(1ULL << ((p) & 63)))

void
sem_at(struct sem *m, const uint64_t *s)
{
	const struct dchan	*d;
	uint32_t		 x;
	uint64_t		 a, b;
	int			 j, e, q, k, c, nc;

	if (s == NULL) {	/* forget what was kept */
		if (m->ekept != NULL)
			memset(m->ekept, 0, ((size_t)m->nprocs / 64 + 1) *
			    sizeof(uint64_t));
		return;
	}
	if (m->wstart == NULL)
		wc_index(m);
	if (m->eprev == NULL) {
		ek_index(m);
		m->eprev = xcalloc(m->words, sizeof(uint64_t));
		m->ekept = xcalloc((size_t)m->nprocs / 64 + 1, sizeof(uint64_t));
		m->ekn = xcalloc(m->nprocs > 0 ? (size_t)m->nprocs : 1, 1);
		m->et = xcalloc((size_t)(m->nprocs > 0 ? m->nprocs : 1) * EK_MOST,
		    sizeof(*m->et));
		memcpy(m->eprev, s, sizeof(uint64_t) * m->words);
		return;
	}
	/* The fields that differ name the processes whose kept
	 * transitions may differ: a process's pc or counter, its own; a
	 * channel's count, its receiver's; a sender's pc, the receivers of
	 * the sends it was and is at. */
	for (x = 0; x < m->words; x++) {
		if (m->eprev[x] == s[x])
			continue;
		nc = wc_changed(m, m->eprev, s, x);
		for (c = 0; c < nc; c++) {
			j = m->wchg[c];
			if ((e = m->went[j]) >= m->nprocs) {
				d = &m->net->dc[e - m->nprocs];
				EK_DROP(m, d->to);
				if (m->ekwild[d->from])
					EK_DROP(m, d->from);
				continue;
			}
			EK_DROP(m, e);
			for (k = m->ekrs[e]; k < m->ekrs[e + 1]; k++)
				EK_DROP(m, m->ekrd[k]);
			if (m->p[e].pc.off != m->wfld[j].off)
				continue;
			a = sem_get(m->eprev, m->wfld[j]);
			b = sem_get(s, m->wfld[j]);
			if ((q = send_to(m, e, &m->p[e].pr->ins[a])) >= 0)
				EK_DROP(m, q);
			if ((q = send_to(m, e, &m->p[e].pr->ins[b])) >= 0)
				EK_DROP(m, q);
		}
	}
	/* (after: a field on two words is read whole from eprev) */
	memcpy(m->eprev, s, sizeof(uint64_t) * m->words);
}

int
sem_enabled_kept(struct sem *m, const uint64_t *s, int proc, struct trans *out)
{
	const struct sproc	*sp = &m->p[proc];
	int			 n;

	const struct ins	*in;
	uint64_t		 bags = m->bags;

	if (m->ekept[proc >> 6] >> (proc & 63) & 1) {
		n = m->ekn[proc];
		memcpy(out, m->et + (size_t)proc * EK_MOST, sizeof(*out) * (size_t)n);
		m->bags += m->ekbag[proc];	/* (as sem_enabled counts) */
		return n;
	}
	n = sem_enabled(m, s, proc, out);
	if (sp->pr == NULL || n > EK_MOST)
		return n;
	in = &sp->pr->ins[sem_get(s, sp->pc)];
	if (kept_simple(in) || kept_wild(m, proc, in)) {
		memcpy(m->et + (size_t)proc * EK_MOST, out, sizeof(*out) * (size_t)n);
		m->ekn[proc] = (uint8_t)n;
		m->ekbag[proc] = (unsigned char)(m->bags - bags);
		m->ekept[proc >> 6] |= 1ULL << (proc & 63);
	}
	return n;
}

/* Add q to the n processes in out unless it is proc or there already
 * (m->mark bit 4, cleared by the caller); the new n. */
static int
dep_add(struct sem *m, int *out, int n, int q, int proc)
{
	if (q < 0 || q == proc || (m->mark[q] & 4))
		return n;
	m->mark[q] |= 4;
	out[n] = q;
	return n + 1;
}

/* The senders into proc's ports lo..hi that may still bring it something
 * it has not got: a port with nothing to take now (avail: a count, a
 * pool's, a synchronous sender blocked on it) whose sender has not ended.
 * A port with a message keeps it until proc takes it, whatever its
 * sender does; an ended sender sends nothing more. */
static int
deps_in(struct sem *m, const uint64_t *s, int proc, int lo, int hi,
    int *out, int n)
{
	const struct mpnet	*net = m->net;
	int			 lp, dc, first, q;

	for (lp = lo; lp < hi; lp++) {
		if ((dc = net->recv_dc[m->p[proc].portbase + lp]) < 0)
			continue;
		first = m->pool[dc] >= 0 ? m->pool[dc] : dc;
		q = net->dc[dc].from;
		if (avail(m, s, first) != 0 || sem_ended(m, s, q))
			continue;
		n = dep_add(m, out, n, q, proc);
	}
	return n;
}

/* What proc's part of a stubborn set of several processes needs (model.h:
 * deps).  Only these steps of others touch proc or what it can do, proc
 * standing still: a send into a port proc reads now (its instruction's
 * receive or probe, a pending receive request) that has nothing for it,
 * which adds a way (a wildcard's, a poll's true branch) or lets it go on;
 * the receive of a synchronous send proc is blocked in, or of one of its
 * pending synchronous send requests (it moves proc, or completes what a
 * wait or test of proc asks for); the other members' steps at a
 * collective proc is at (they come to it, open its instance, or the
 * leader takes it for all).  Everything else another process does
 * commutes with proc's steps and leaves them enabled: a send appends to
 * a channel (its count, an ordered group's queue, a pool's count) while
 * a receive takes from its head, and each channel has one receiver and
 * one sender.  A choice, a post, a buffered send need nothing. */
int
sem_deps(struct sem *m, const uint64_t *s, int proc, int *out)
{
	const struct sproc	*sp = &m->p[proc];
	const struct mpnet	*net = m->net;
	const struct ins	*in;
	const struct scomm	*c;
	int			 n = 0, k, lo, hi, dc;

	if (sp->pr == NULL)
		return 0;
	in = &sp->pr->ins[sem_get(s, sp->pc)];
	for (k = 0; k < in->nposted; k++) {
		const struct slotdesc	*d = &sp->pr->sd[in->sd + k];

		if (sem_get(s, slot_fld(sp, k)) == 0)
			continue;
		if (d->kind == SD_SEND) {
			if ((dc = net->send_dc[sp->portbase + d->lp]) >= 0)
				n = dep_add(m, out, n, net->dc[dc].to, proc);
			continue;
		}
		lo = d->kind == SD_RECV ? d->lp : d->lo;
		hi = d->kind == SD_RECV ? d->lp + 1 : d->hi;
		n = deps_in(m, s, proc, lo, hi, out, n);
	}
	switch (in->op) {
	case OP_SEND:
		if (is_sync(m, in->mode) &&
		    (dc = net->send_dc[sp->portbase + in->lp]) >= 0)
			n = dep_add(m, out, n, net->dc[dc].to, proc);
		break;
	case OP_RECV:
	case OP_RECVPROBED:
		lo = sem_recv_lp(m, s, proc, in);
		n = deps_in(m, s, proc, lo, lo + 1, out, n);
		break;
	case OP_PROBE:
	case OP_IPROBE:
		n = deps_in(m, s, proc, in->lp, in->lp + 1, out, n);
		break;
	case OP_RECVANY:
	case OP_PROBEANY:
	case OP_IPROBEANY:
		n = deps_in(m, s, proc, in->lo, in->hi, out, n);
		break;
	case OP_COLL:
		c = &m->cm[sem_comm(m, in)];
		for (k = 0; k < c->n; k++)
			n = dep_add(m, out, n, c->mem[k], proc);
		break;
	default:
		break;
	}
	for (k = 0; k < n; k++)
		m->mark[out[k]] &= ~4;
	return n;
}

/* Mark the members of a communicator whose collective all take together
 * is enabled in s as running: they take it now. */
void
sem_coll_runs(const struct sem *m, const uint64_t *s, unsigned char *ps)
{
	const struct ins	*in;
	int			 p, k, c;

	for (p = 0; p < m->nprocs; p++) {
		if (ps[p] != PS_BLOCKED || m->p[p].pr == NULL)
			continue;
		in = &m->p[p].pr->ins[sem_get(s, m->p[p].pc)];
		if (in->op != OP_COLL || !sem_sync_coll(m, in) ||
		    !sync_coll_enabled(m, s, c = sem_comm(m, in), in))
			continue;
		for (k = 0; k < m->cm[c].n; k++)
			ps[m->cm[c].mem[k]] = PS_RUNS;
	}
}

int
sem_states(struct sem *m, const uint64_t *s, unsigned char *ps, struct trans *ts)
{
	int	p, k, n, all = 0, count = 0;

	for (p = 0; p < m->nprocs; p++) {
		n = sem_enabled(m, s, p, ts);
		ps[p] = sem_ended(m, s, p) ? PS_ENDED : n == 0 ? PS_BLOCKED : PS_RUNS;
		for (k = 0; k < n; k++)
			all |= ts[k].kind == T_COLL && ts[k].role == TR_ALL;
	}
	if (m->net->groups)
		sem_coll_runs(m, s, ps);
	for (p = 0; p < m->nprocs; p++) {
		if (all)	/* everyone is at a collective all take now */
			ps[p] = PS_RUNS;
		count += ps[p] != PS_RUNS;
	}
	return count;
}

/* Take dc's next message: from its count, or from a synchronous sender
 * blocked on it, which goes on. */
static void
take(struct sem *m, uint64_t *s, int dc)
{
	const struct dchan	*d = &m->net->dc[dc];
	const struct sproc	*sp = &m->p[d->from];
	uint64_t		 c = sem_count(m, s, dc), v;
	int			 k, pc;

	if (c == 0) {
		settle(sp, s, (int)sem_get(s, sp->pc) + 1);
		return;
	}
	sem_set(s, m->dc[dc], c - 1);
	if (m->ngrp > 0 && m->gof[dc] >= 0) {
		/* Out of its group's queue too: the first with its label. */
		const struct sgroup	*g = &m->grp[m->gof[dc]];
		int			 len = (int)sem_get(s, g->len);

		for (k = 0; sem_get(s, gent(g, k)) != (uint64_t)m->glabel[dc]; k++)
			;
		for (; k + 1 < len; k++)
			sem_set(s, gent(g, k), sem_get(s, gent(g, k + 1)));
		sem_set(s, gent(g, len - 1), 0);
		sem_set(s, g->len, (uint64_t)len - 1);
	}
	/* The sender's synchronous requests on dc move up one place. */
	if (sp->wslot > 1) {
		const struct ins	*in;

		pc = (int)sem_get(s, sp->pc);
		in = &sp->pr->ins[pc];
		for (k = 0; k < in->nposted; k++) {
			const struct slotdesc	*sd = &sp->pr->sd[in->sd + k];

			if (sd->kind != SD_SEND || sd->lp != d->from_lp)
				continue;
			if ((v = sem_get(s, slot_fld(sp, k))) > 0)
				sem_set(s, slot_fld(sp, k), v - 1);
		}
	}
}

/* A message into dc; -1 when it has no room (sem.overflow says where). */
static int
put(struct sem *m, uint64_t *s, int dc)
{
	uint64_t	c;

	c = sem_get(s, m->dc[dc]);
	if (c + 1 >= (1ULL << m->dc[dc].w)) {
		m->overflow = dc;
		m->overflow_max = (1ULL << m->dc[dc].w) - 1;
		return -1;
	}
	sem_set(s, m->dc[dc], c + 1);
	m->grew |= c + 1 >= 2;
	if (m->ngrp > 0 && m->gof[dc] >= 0) {
		/* At the end of its group's queue too. */
		const struct sgroup	*g = &m->grp[m->gof[dc]];

		if ((c = sem_get(s, g->len)) >= (uint64_t)g->cap) {
			m->overflow = dc;
			m->overflow_queue = 1;
			m->overflow_max = (uint64_t)g->cap;
			return -1;
		}
		sem_set(s, gent(g, (int)c), (uint64_t)m->glabel[dc]);
		sem_set(s, g->len, c + 1);
	}
	return 0;
}

/* proc leaves the rooted collective it is at (coll_enabled said it may):
 * the instance it is at, opened by it when it is the first; the oldest
 * closes when the last one leaves it, and the log moves up.  -1 when a
 * new instance finds the log full (sem.overflow_coll). */
static int
leave(struct sem *m, uint64_t *s, int proc, const struct ins *in)
{
	int			 comm = sem_comm(m, in), i, j;
	const struct scomm	*c = &m->cm[comm];
	const struct fld	*sig = m->csig + c->log * m->clog;
	const struct fld	*done = m->cndone + c->log * m->clog;
	int			 o = sem_coll_off(m, s, proc, comm);
	uint64_t		 n;

	if (o >= m->clog) {
		m->overflow_coll = 1;
		m->overflow_max = (uint64_t)m->clog;
		return -1;
	}
	if (sem_coll_open(m, s, comm, o) < 0)
		sem_set(s, sig[o], (uint64_t)in->coll + 1);
	n = sem_get(s, done[o]) + 1;
	if (o > 0 || n < (uint64_t)c->n) {
		sem_set(s, done[o], n);
		sem_set(s, coff_fld(m, proc, comm), (uint64_t)o + 1);
		return 0;
	}
	/* The last one left the oldest: every member has left one less. */
	for (j = 0; j + 1 < m->clog; j++) {
		sem_set(s, sig[j], sem_get(s, sig[j + 1]));
		sem_set(s, done[j], sem_get(s, done[j + 1]));
	}
	sem_set(s, sig[m->clog - 1], 0);
	sem_set(s, done[m->clog - 1], 0);
	for (j = 0; j < c->n; j++) {
		struct fld	f;

		if ((i = c->mem[j]) == proc || m->p[i].pr == NULL)
			continue;
		f = coff_fld(m, i, comm);
		sem_set(s, f, sem_get(s, f) - 1);
	}
	return 0;
}

/* The requests of mask (bit k: the k-th of n pending) complete and leave:
 * the others move up, keeping their order, as the program's next
 * instruction lists them. */
static void
leave_slots(const struct sproc *sp, uint64_t *s, int n, uint64_t mask)
{
	int	k, j = 0;

	for (k = 0; k < n; k++)
		if (!(mask >> k & 1))
			sem_set(s, slot_fld(sp, j++), sem_get(s, slot_fld(sp, k)));
	for (; j < n; j++)
		sem_set(s, slot_fld(sp, j), 0);
}

int
sem_fire(struct sem *m, uint64_t *s, const struct trans *t)
{
	const struct sproc	*sp = &m->p[t->proc];
	int			 pc = (int)sem_get(s, sp->pc), i;
	const struct ins	*in = &sp->pr->ins[pc];

	m->grew = 0;
	switch (t->kind) {
	case T_SEND:
		if (put(m, s, t->dc) != 0)
			return -1;
		settle(sp, s, pc + 1);
		break;
	case T_ISEND:
		if (put(m, s, t->dc) != 0)
			return -1;
		/* Synchronous: complete when taken, at its place in the queue. */
		sem_set(s, slot_fld(sp, t->slot), is_sync(m, in->mode) ?
		    sem_count(m, s, t->dc) : 0);
		settle(sp, s, pc + 1);
		break;
	case T_IPOST:
		sem_set(s, slot_fld(sp, t->slot), 1);
		settle(sp, s, pc + 1);
		break;
	case T_RECV:
		take(m, s, t->dc);
		if (in->op == OP_RECVPROBED)	/* m is received: forgotten */
			sem_set(s, ctr_fld(sp, in->ctr), 0);
		settle(sp, s, pc + 1);
		break;
	case T_MATCH:
		take(m, s, t->dc);
		sem_set(s, slot_fld(sp, t->slot), 0);
		break;
	case T_WAIT:
		if (in->op == OP_WAIT)
			leave_slots(sp, s, in->nposted, in->wmask);
		settle(sp, s, pc + 1);
		break;
	case T_TEST:
		if (t->alt == 0)
			leave_slots(sp, s, in->nposted, in->wmask);
		settle(sp, s, sp->pr->alts[in->alt + t->alt]);
		break;
	case T_WAITANY:
		leave_slots(sp, s, in->nposted, in->op == OP_WAITANY ?
		    mpnet_nth_bit(in->wmask, t->alt) :
		    mpnet_pick_bits(in->wmask, (uint64_t)t->alt + 1));
		settle(sp, s, sp->pr->alts[in->alt + t->alt]);
		break;
	case T_PROBE:
		if (in->ctr >= 0)	/* 'as m': the port it found */
			sem_set(s, ctr_fld(sp, in->ctr), (uint64_t)t->slot + 1);
		settle(sp, s, pc + 1);
		break;
	case T_IPROBE:
		if (in->ctr >= 0 && t->alt == 0)
			sem_set(s, ctr_fld(sp, in->ctr), (uint64_t)t->slot + 1);
		settle(sp, s, sp->pr->alts[in->alt + t->alt]);
		break;
	case T_CHOOSE:
		settle(sp, s, sp->pr->alts[in->alt + t->alt]);
		break;
	case T_COLL: {
		const struct scomm	*c = &m->cm[sem_comm(m, in)];

		for (i = 0; i < c->n; i++)
			settle(&m->p[c->mem[i]], s,
			    (int)sem_get(s, m->p[c->mem[i]].pc) + 1);
		break;
	}
	case T_LEAVE:
		if (leave(m, s, t->proc, in) != 0)
			return -1;
		settle(sp, s, pc + 1);
		break;
	}
	return 0;
}

/* The model of a net (model.h): sem.h's functions behind its pointers. */
static void
mdl_initial(void *arg, uint64_t *s)
{
	sem_initial(arg, s);
}

static int
mdl_enabled(void *arg, const uint64_t *s, int g, struct trans *out)
{
	return sem_enabled(arg, s, g, out);
}

static void
mdl_at(void *arg, const uint64_t *s)
{
	sem_at(arg, s);
}

static const uint64_t *
mdl_kept(void *arg)
{
	return ((struct sem *)arg)->ekept;
}

static int
mdl_enabled_kept(void *arg, const uint64_t *s, int g, struct trans *out)
{
	return sem_enabled_kept(arg, s, g, out);
}

static int
mdl_fire(void *arg, uint64_t *s, const struct trans *t)
{
	struct sem	*m = arg;

	return sem_fire(m, s, t) != 0 ? -1 : m->grew;
}

static int
mdl_canon(void *arg, uint64_t *s, int g, const uint64_t *from)
{
	struct sem	*m = arg;

	return symm_canon(m->sym, m, s, g, from);
}

static int
mdl_deps(void *arg, const uint64_t *s, int g, int *out)
{
	return sem_deps(arg, s, g, out);
}

static void
mdl_want_safe(void *arg, int on)
{
	struct sem	*m = arg;

	m->want_safe = on;
}

static int
mdl_ended(void *arg, const uint64_t *s, int g)
{
	return sem_ended(arg, s, g);
}

static int
mdl_can_end(void *arg, const uint64_t *s, int g)
{
	return sem_can_end(arg, s, g);
}

/* Processes joined by channels are one component, all of them one when
 * the net has a collective. */
static void
mdl_components(void *arg, int *c)
{
	const struct sem	*m = arg;
	const struct mpnet	*n = m->net;
	int			 i, a, b;

	for (i = 0; i < m->nprocs; i++)
		c[i] = n->ncolls > 0 ? 0 : i;
	for (i = 0; n->ncolls == 0 && i < n->ndc; i++) {
		for (a = n->dc[i].from; c[a] != a; a = c[a])
			;
		for (b = n->dc[i].to; c[b] != b; b = c[b])
			;
		if (a != b)
			c[a > b ? a : b] = a < b ? a : b;
	}
	for (i = 0; i < m->nprocs; i++)
		c[i] = c[c[i]];	/* (roots come first: one step is enough) */
}

/* The port slots of process q, lo..hi: each directed channel into q is
 * recv_dc of one of them (compile.c), so they find q's senders without
 * looking at every channel. */
static void
slots_of(const struct mpnet *n, int q, int *lo, int *hi)
{
	*lo = n->pcg->procs[q].portbase;
	*hi = q + 1 < n->pcg->nprocs ? n->pcg->procs[q + 1].portbase :
	    n->pcg->nports;
}

/* Whether a channel from another process leads to process q. */
static int
mdl_receives(void *arg, int q)
{
	const struct mpnet	*n = ((const struct sem *)arg)->net;
	int			 k, d, lo, hi;

	slots_of(n, q, &lo, &hi);
	for (k = lo; k < hi; k++)
		if ((d = n->recv_dc[k]) >= 0 && n->dc[d].from != q)
			return 1;
	return 0;
}

/* Whether instruction 'in' of proc cannot be passed without a message
 * from one of the ports marked in lps (a blocking receive on one, a wait
 * for a receive request on one) or without r at a collective they both
 * take together. */
static int
needs_from(const struct sem *m, int proc, const struct ins *in,
    const unsigned char *lps, int r)
{
	const struct prog	*pr = m->p[proc].pr;
	int			 k;

	switch (in->op) {
	case OP_RECV:
		return lps[in->lp];
	case OP_WAIT:
	case OP_WAITALL:
		for (k = 0; k < in->nposted; k++) {
			const struct slotdesc	*d = &pr->sd[in->sd + k];

			if (d->kind == SD_RECV && lps[d->lp] &&
			    (in->op == OP_WAITALL || (in->wmask >> k & 1)))
				return 1;
		}
		return 0;
	case OP_COLL:
		return sem_sync_coll(m, in) &&
		    mpnet_in_comm(m->net, sem_comm(m, in), r);
	default:
		return 0;
	}
}

/* Whether every endless round of proc's program (every cycle of its
 * control through an endless loop: a counted loop's rounds end) passes
 * an instruction that needs something of r (needs_from, lps marking r's
 * ports into proc): a depth-first search for a cycle among the others. */
static int
rounds_need(const struct sem *m, int proc, const unsigned char *lps, int r,
    unsigned char *color, int *stack)
{
	const struct prog	*pr = m->p[proc].pr;
	int			 sp = 0, pc, k, n, next[2], *succ;
	int			 cyc = 0;

	succ = xmalloc(sizeof(int) * (size_t)(pr->nalts + 2));
	memset(color, 0, (size_t)pr->nins);
	/* stack: (pc, next successor) pairs; color 1 on it, 2 done */
	stack[sp++] = 0;
	stack[sp++] = 0;
	color[0] = 1;
	while (sp > 0 && !cyc) {
		pc = stack[sp - 2];
		k = stack[sp - 1];
		n = mpnet_next(pr, pc, succ);
		if (k >= n) {
			color[pc] = 2;
			sp -= 2;
			continue;
		}
		stack[sp - 1] = k + 1;
		next[0] = succ[k];
		/* A counted loop's way back: on past its end instead. */
		if (pr->ins[pc].op == OP_JUMP &&
		    pr->ins[next[0]].op == OP_NEXT && pr->ins[next[0]].count >= 0)
			next[0] = pr->ins[next[0]].target;
		if (needs_from(m, proc, &pr->ins[next[0]], lps, r))
			continue;
		if (color[next[0]] == 1)
			cyc = 1;
		else if (color[next[0]] == 0) {
			color[next[0]] = 1;
			stack[sp++] = next[0];
			stack[sp++] = 0;
		}
	}
	free(succ);
	return !cyc;
}

static int mdl_senders(void *, int, int *);

/* For kahn.c (model.h: must_from): -1 when proc's program ends, else the
 * processes it hears from (by a receive, a wait for a request, a
 * collective both take together) on every endless round. */
static int
mdl_must_from(void *arg, int proc, int *out)
{
	struct sem		*m = arg;
	const struct mpnet	*n = m->net;
	const struct sproc	*sp = &m->p[proc];
	unsigned char		*lps, *color;
	int			*stack, lp, dc, r, k, cnt = 0, nsend = 0;
	int			*senders = NULL;

	if (sp->pr == NULL || !sp->pr->has_forever)
		return -1;
	lps = xcalloc((size_t)sp->pr->nlp + 1, 1);
	color = xcalloc((size_t)sp->pr->nins + 1, 1);
	if (n->ncolls == 0) {
		/* Its senders marked (bit 16), visited in order below, then
		 * cleared: the loop below goes over every process only where
		 * a collective makes every member one to hear from. */
		senders = xcalloc((size_t)m->nprocs, sizeof(int));
		nsend = mdl_senders(m, proc, senders);
		for (k = 0; k < nsend; k++)
			m->mark[senders[k]] |= 16;
	}
	stack = xcalloc(2 * ((size_t)sp->pr->nins + 1), sizeof(int));
	for (r = 0; r < m->nprocs; r++) {
		if (r == proc || m->p[r].pr == NULL)
			continue;
		/* (without collectives, only its senders: the others hear
		 * from none of them) */
		if (n->ncolls == 0 && !(m->mark[r] & 16))
			continue;
		for (lp = 0, k = 0; lp < sp->pr->nlp; lp++) {
			dc = n->recv_dc[sp->portbase + lp];
			lps[lp] = dc >= 0 && n->dc[dc].from == r;
			k += lps[lp];
		}
		if (k == 0 && (n->ncolls == 0 || !mpnet_in_comm(n, 0, r)))
			continue;	/* (a group's members: below) */
		if (rounds_need(m, proc, lps, r, color, stack))
			out[cnt++] = r;
	}
	for (k = 0; k < nsend; k++)
		m->mark[senders[k]] &= ~16;
	free(senders);
	free(lps);
	free(color);
	free(stack);
	return cnt;
}

/* The processes with a channel into q (model.h: senders). */
static int
mdl_senders(void *arg, int q, int *out)
{
	const struct sem	*m = arg;
	const struct mpnet	*n = m->net;
	int			 d, cnt = 0, k, lo, hi;

	slots_of(n, q, &lo, &hi);
	for (k = lo; k < hi; k++)
		if ((d = n->recv_dc[k]) >= 0 && n->dc[d].from != q &&
		    n->dc[d].used && !(m->mark[n->dc[d].from] & 8)) {
			m->mark[n->dc[d].from] |= 8;
			out[cnt++] = n->dc[d].from;
		}
	for (d = 0; d < cnt; d++)
		m->mark[out[d]] &= ~8;
	return cnt;
}

/* The sender of a message t takes (its state changes when t completes a
 * synchronous send), or -1. */
static int
mdl_partner(void *arg, const struct trans *t)
{
	const struct sem	*m = arg;
	int			 from;

	if (t->dc < 0)
		return -1;
	from = m->net->dc[t->dc].from;
	return from == t->proc ? -1 : from;
}

/* Add the leaders of the groups the processes out[0..n) are in to them,
 * each process once: they may have come to a group's collective, which
 * its leader takes.  The new n. */
static int
wake_leaders(struct sem *m, int *out, int n)
{
	int	k, j, p, q, most = n;

	for (k = 0; k < n; k++)
		if (out[k] >= 0)
			m->mark[out[k]] = 1;
	for (k = 0; k < most; k++) {
		if ((p = out[k]) < 0)
			continue;
		for (j = 0; j < m->npcm[p]; j++) {
			q = m->cm[m->pcm[p][j]].leader;
			if (!m->mark[q]) {
				m->mark[q] = 1;
				out[n++] = q;
			}
		}
	}
	for (k = 0; k < n; k++)
		if (out[k] >= 0)
			m->mark[out[k]] = 0;
	return n;
}

/* Whom t may let go on: the receiver of what it sends, the sender of
 * what it takes, the members of the communicator of a collective it
 * takes or leaves; with groups, the leaders of the groups of a process
 * it moves. */
static int
mdl_wakes(void *arg, const struct trans *t, int *out)
{
	struct sem		*m = arg;
	const struct scomm	*c;
	int			 k, n = 0;

	switch (t->kind) {
	case T_SEND:
	case T_ISEND:
		out[n++] = m->net->dc[t->dc].to;
		break;
	case T_RECV:
	case T_MATCH:
		out[n++] = mdl_partner(arg, t);
		break;
	case T_COLL:
	case T_LEAVE:
		if (t->kind == T_COLL && t->role == TR_ALL && !m->net->groups)
			return 0;
		c = &m->cm[sem_comm(m, &m->p[t->proc].pr->ins[t->pc])];
		for (k = 0; k < c->n; k++)
			out[n++] = c->mem[k];
		if (!m->net->groups)
			return n;
		break;
	default:
		break;
	}
	if (!m->net->groups)
		return n;
	if (t->kind != T_COLL && t->kind != T_LEAVE)
		out[n++] = t->proc;
	return wake_leaders(m, out, n);
}

/* A process at a send that only its receiver completes waits on it. */
static int
mdl_waits_on(void *arg, const uint64_t *s, int p)
{
	const struct sem	*m = arg;
	const struct ins	*in;
	int			 dc;

	if (p < 0 || m->p[p].pr == NULL)
		return -1;
	in = &m->p[p].pr->ins[sem_pc(m, s, p)];
	if (in->op != OP_SEND)
		return -1;
	dc = m->net->send_dc[m->p[p].portbase + in->lp];
	return dc >= 0 ? m->net->dc[dc].to : -1;
}

static int
mdl_at_all(void *arg, const uint64_t *s, int p)
{
	const struct sem	*m = arg;
	const struct ins	*in;

	if (m->p[p].pr == NULL)
		return 0;
	in = &m->p[p].pr->ins[sem_pc(m, s, p)];
	return in->op == OP_COLL && sem_sync_coll(m, in) && sem_comm(m, in) == 0;
}

void
sem_model(struct sem *m, struct model *md)
{
	int	i;

	memset(md, 0, sizeof(*md));
	md->arg = m;
	md->ngroups = m->nprocs;
	md->words = m->words;
	md->bytes = m->bytes;
	md->max_trans = sem_max_trans(m);
	md->all_group = 0;
	md->determinate = m->determinate;
	md->initial = mdl_initial;
	md->enabled = mdl_enabled;
	md->at = mdl_at;
	md->enabled_kept = mdl_enabled_kept;
	md->kept = mdl_kept;
	md->fire = mdl_fire;
	md->deps = mdl_deps;
	md->canon = m->sym != NULL ? mdl_canon : NULL;
	md->want_safe = mdl_want_safe;
	md->ended = mdl_ended;
	md->can_end = mdl_can_end;
	md->components = mdl_components;
	md->receives = mdl_receives;
	md->must_from = mdl_must_from;
	md->senders = mdl_senders;
	md->partner = mdl_partner;
	md->wakes = mdl_wakes;
	md->waits_on = mdl_waits_on;
	for (i = 0; i < m->net->ncolls; i++)
		if (m->net->colls[i].group < 0)
			break;
	/* (no collective of the application's: no step all take) */
	md->at_all = i < m->net->ncolls ? mdl_at_all : NULL;
}
