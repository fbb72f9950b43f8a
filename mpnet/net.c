/* net.c -- the MP net of one send mode unfolded into a place/transition
 * net (net.h).  Every rule here mirrors one in sem.c, which stays the
 * reference: tests/unit/test-net.c explores both and compares them.
 *
 * Two facts of the compiled programs keep the unfolding small and exact:
 * a loop's counter is 0 whenever the pc is outside the loop (it leaves
 * only when the counter reached 0), and a request slot is 0 when it is
 * posted (the slots past the posted ones were all completed by a
 * waitall).  Where sem.c sets such a value, the net tests that it is 0
 * and puts the new value; were either fact ever false, the net would
 * block where sem.c goes on, and the comparison would show it. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "net.h"
#include "sem.h"
#include "xmalloc.h"

struct arcs {
	struct net_arc	*a;
	int		 n;
	size_t		 alloc;
};

/* A transition being built, or one outcome to add to it. */
struct tb {
	struct arcs	 pre, post;
	char		 sfx[64];	/* for its name: where it ends up */
	int		 ownctl;	/* it takes the acting process's pc itself */
};

struct alts {
	struct tb	*o;
	int		 n;
	size_t		 alloc;
};

/* What settle knows of a counter on one path: its value on entry is
 * unconstrained (pre 0), at least pv (1) or exactly pv (2); now it is v
 * (known) or the entry value less d. */
struct csym {
	int		 pre;
	int64_t		 pv;
	int		 known;
	int64_t		 v;
	int64_t		 d;
};

struct nb {
	struct net	*n;
	const struct mpnet *mp;
	enum check_mode	 mode;
	size_t		 palloc, talloc;
	int		**ctl;		/* per process, per pc: control place or -1 */
	int		**ctr, **ctrf;	/* per process, per counter */
	int		**slot, **slotf;
	int64_t		**slotcap;
	int		*chan, *chanf;	/* per directed channel, or -1 */
	unsigned char	*rdv;		/* its sender may block in a synchronous send */
	int		 none, *open, left, leftf, *pleft, *pin;
	char		*cause;
};

static void
arcs_add(struct arcs *s, int place, int64_t w)
{
	int	i;

	if (w == 0)
		return;
	for (i = 0; i < s->n; i++) {
		if (s->a[i].place == place) {
			s->a[i].w += w;
			return;
		}
	}
	xgrow(&s->a, &s->alloc, s->n + 1, sizeof(*s->a));
	s->a[s->n].place = place;
	s->a[s->n].w = w;
	s->n++;
}

static void
tb_free(struct tb *t)
{
	free(t->pre.a);
	free(t->post.a);
	memset(t, 0, sizeof(*t));
}

/* Add src's arcs (and name suffix) to dst. */
static void
tb_join(struct tb *dst, const struct tb *src)
{
	int	i;

	for (i = 0; i < src->pre.n; i++)
		arcs_add(&dst->pre, src->pre.a[i].place, src->pre.a[i].w);
	for (i = 0; i < src->post.n; i++)
		arcs_add(&dst->post, src->post.a[i].place, src->post.a[i].w);
	if (src->sfx[0] != '\0' && strlen(dst->sfx) + strlen(src->sfx) < sizeof(dst->sfx))
		strcat(dst->sfx, src->sfx);
	dst->ownctl |= src->ownctl;
}

static void
tb_copy(struct tb *dst, const struct tb *src)
{
	memset(dst, 0, sizeof(*dst));
	tb_join(dst, src);
}

/* A test: take w and put it back. */
static void
tb_test(struct tb *t, int place, int64_t w)
{
	arcs_add(&t->pre, place, w);
	arcs_add(&t->post, place, w);
}

static struct tb *
alts_add(struct alts *a)
{
	struct tb	*t;

	xgrow(&a->o, &a->alloc, a->n + 1, sizeof(*a->o));
	t = &a->o[a->n++];
	memset(t, 0, sizeof(*t));
	return t;
}

static void
alts_free(struct alts *a)
{
	int	i;

	for (i = 0; i < a->n; i++)
		tb_free(&a->o[i]);
	free(a->o);
	memset(a, 0, sizeof(*a));
}

static void
fail(struct nb *b, const char *fmt, ...)
{
	va_list	ap;

	if (b->cause != NULL)
		return;
	va_start(ap, fmt);
	xvasprintf(&b->cause, fmt, ap);
	va_end(ap);
}

static int
is_sync(const struct nb *b, int mode)
{
	return mpnet_sync(mode, b->mode);
}

static void
loc_of(char **out, const struct ins *in)
{
	*out = NULL;
	if (in == NULL || in->src == NULL || in->src->loc.src == NULL)
		return;
	xasprintf(out, "%s:%d:%d", in->src->loc.src->name, in->src->loc.first_line,
	    in->src->loc.first_column);
}

static int
add_place(struct nb *b, enum net_pkind kind, int proc, int index, int64_t init,
    int64_t cap, const char *fmt, ...)
{
	struct net		*n = b->n;
	struct net_place	*p;
	va_list			 ap;

	xgrow(&n->places, &b->palloc, n->nplaces + 1, sizeof(*n->places));
	p = &n->places[n->nplaces];
	memset(p, 0, sizeof(*p));
	va_start(ap, fmt);
	xvasprintf(&p->name, fmt, ap);
	va_end(ap);
	p->kind = kind;
	p->proc = proc;
	p->pc = -1;
	p->index = index;
	p->init = init;
	p->cap = cap;
	return n->nplaces++;
}

static const char *
pname(const struct nb *b, int proc, char *buf, size_t len)
{
	return pcg_proc_name(b->mp->pcg, proc, buf, len);
}

/* ---- settle: the control a transition runs through, per outcome ---- */

static void
settle_rec(struct nb *b, int proc, int pc, struct csym *cs, int steps,
    struct alts *out)
{
	const struct prog	*pr = b->mp->progs[proc];
	const struct ins	*in;
	struct csym		*c, *cs2;
	struct tb		*t;
	int			 k;
	int64_t			 m, fv;

	for (;; steps++) {
		if (steps > 2 * pr->nins + 4) {
			fail(b, "control loops without communication");
			return;
		}
		in = &pr->ins[pc];
		switch (in->op) {
		case OP_LOOP:
			/* Entered from outside: its counter is 0 by now. */
			c = &cs[in->ctr];
			if (c->known) {
				if (c->v != 0)
					return;
			} else {
				if (c->pre == 1 && c->pv > c->d)
					return;
				c->pre = 2;
				c->pv = c->d;
			}
			c->known = 1;
			c->v = in->count - 1;
			pc += 2;
			continue;
		case OP_NEXT:
			if (in->count < 0) {
				pc++;
				continue;
			}
			c = &cs[in->ctr];
			if (c->known) {
				if (c->v > 0) {
					c->v--;
					pc++;
				} else
					pc = in->target;
				continue;
			}
			/* Unknown: it is 0 (leave) or not (go round again). */
			if (!(c->pre == 1 && c->pv > c->d)) {
				cs2 = xcalloc(pr->nctr, sizeof(*cs2));
				memcpy(cs2, cs, sizeof(*cs2) * pr->nctr);
				cs2[in->ctr].pre = 2;
				cs2[in->ctr].pv = c->d;
				cs2[in->ctr].known = 1;
				cs2[in->ctr].v = 0;
				settle_rec(b, proc, in->target, cs2, steps + 1, out);
				free(cs2);
			}
			if (c->pre == 0 || c->pv < c->d + 1) {
				c->pre = 1;
				c->pv = c->d + 1;
			}
			c->d++;
			pc++;
			continue;
		case OP_JUMP:
			pc = in->target;
			continue;
		default:
			break;
		}
		break;
	}
	t = alts_add(out);
	snprintf(t->sfx, sizeof(t->sfx), " -> pc%d", pc);
	arcs_add(&t->post, b->ctl[proc][pc], 1);
	for (k = 0; k < pr->nctr; k++) {
		c = &cs[k];
		m = pr->ctrmax[k];
		if (c->pre == 1) {
			arcs_add(&t->pre, b->ctr[proc][k], c->pv);
			arcs_add(&t->post, b->ctr[proc][k], c->pv - c->d);
			arcs_add(&t->post, b->ctrf[proc][k], c->d);
		} else if (c->pre == 2) {
			fv = c->known ? c->v : c->pv - c->d;
			arcs_add(&t->pre, b->ctr[proc][k], c->pv);
			arcs_add(&t->pre, b->ctrf[proc][k], m - c->pv);
			arcs_add(&t->post, b->ctr[proc][k], fv);
			arcs_add(&t->post, b->ctrf[proc][k], m - fv);
		}
	}
}

/* The outcomes of settling proc from pc: each one's counter arcs and
 * the control place it ends in (not the one it leaves). */
static void
settle(struct nb *b, int proc, int pc, struct alts *out)
{
	const struct prog	*pr = b->mp->progs[proc];
	struct csym		*cs = xcalloc(pr->nctr + 1, sizeof(*cs));
	int			 before = out->n;

	settle_rec(b, proc, pc, cs, 0, out);
	free(cs);
	if (out->n == before + 1)
		out->o[before].sfx[0] = '\0';	/* one way on: no need to say */
}

/* The control points of one process that a state can rest at. */
static void
reachable_pcs(struct nb *b, int proc, int init, unsigned char *seen)
{
	const struct prog	*pr = b->mp->progs[proc];
	int			*work = xcalloc(pr->nins + 1, sizeof(int));
	int			 nwork = 0, pc, k, j;
	struct alts		 a;

	memset(&a, 0, sizeof(a));
	seen[init] = 1;
	work[nwork++] = init;
	/* Control places are looked up while settling: a scratch map. */
	for (k = 0; k < pr->nins; k++)
		b->ctl[proc][k] = k;
	while (nwork > 0 && b->cause == NULL) {
		const struct ins	*in;

		pc = work[--nwork];
		in = &pr->ins[pc];
		if (in->op == OP_END)
			continue;
		if (in->op == OP_CHOICE)
			for (k = 0; k < in->nalt; k++)
				settle(b, proc, pr->alts[in->alt + k], &a);
		else
			settle(b, proc, pc + 1, &a);
		for (j = 0; j < a.n; j++) {
			int	q = a.o[j].post.a[0].place;

			if (!seen[q]) {
				seen[q] = 1;
				work[nwork++] = q;
			}
		}
		alts_free(&a);
	}
	free(work);
}

/* The settled pc and counters of a process at the start (all 0). */
static int
initial_pc(const struct prog *pr, int64_t *ctr)
{
	int	pc = 0, steps = 0;

	for (; steps <= 2 * pr->nins + 4; steps++) {
		const struct ins	*in = &pr->ins[pc];

		if (in->op == OP_LOOP) {
			ctr[in->ctr] = in->count - 1;
			pc += 2;
		} else if (in->op == OP_NEXT) {
			if (in->count < 0)
				pc++;
			else if (ctr[in->ctr] > 0) {
				ctr[in->ctr]--;
				pc++;
			} else
				pc = in->target;
		} else if (in->op == OP_JUMP)
			pc = in->target;
		else
			return pc;
	}
	return -1;
}

/* ---- places ---- */

static void
control_places(struct nb *b, int proc)
{
	const struct prog	*pr = b->mp->progs[proc];
	int64_t			*ctr = xcalloc(pr->nctr + 1, sizeof(int64_t));
	unsigned char		*seen = xcalloc(pr->nins + 1, 1);
	char			 pn[PCG_NAME_MAX], it[PCG_NAME_MAX + 64];
	int			 init, pc, k;

	if ((init = initial_pc(pr, ctr)) < 0) {
		fail(b, "control loops without communication");
		goto out;
	}
	reachable_pcs(b, proc, init, seen);
	pname(b, proc, pn, sizeof(pn));
	for (pc = 0; pc < pr->nins; pc++) {
		b->ctl[proc][pc] = -1;
		if (!seen[pc])
			continue;
		mpnet_ins_text(b->mp, proc, &pr->ins[pc], it, sizeof(it));
		k = add_place(b, NP_CONTROL, proc, pc, pc == init, 1, "%s.pc%d '%s'",
		    pn, pc, it);
		b->n->places[k].pc = pc;
		loc_of(&b->n->places[k].loc, &pr->ins[pc]);
		b->ctl[proc][pc] = k;
	}
	for (k = 0; k < pr->nctr; k++) {
		const struct ins	*lp = NULL;
		int			 j;

		for (j = 0; j < pr->nins; j++)
			if (pr->ins[j].op == OP_LOOP && pr->ins[j].ctr == k)
				lp = &pr->ins[j];
		b->ctr[proc][k] = add_place(b, NP_CTR, proc, k, ctr[k], pr->ctrmax[k],
		    "%s.ctr%d 'loop %" PRId64 "'", pn, k, lp != NULL ? lp->count : 0);
		loc_of(&b->n->places[b->ctr[proc][k]].loc, lp);
		b->ctrf[proc][k] = add_place(b, NP_CTR_FREE, proc, k,
		    pr->ctrmax[k] - ctr[k], pr->ctrmax[k], "%s.ctr%d.free", pn, k);
	}
out:
	free(ctr);
	free(seen);
}

static int64_t
dc_bound(const struct nb *b, int dc)
{
	return b->mp->dc[dc].bound;
}

static void
chan_name(const struct nb *b, int dc, char *buf, size_t len)
{
	const struct dchan	*d = &b->mp->dc[dc];
	char			 a[PCG_NAME_MAX], ap[PCG_NAME_MAX], c[PCG_NAME_MAX];
	char			 cp[PCG_NAME_MAX];

	snprintf(buf, len, "%s.%s->%s.%s", pname(b, d->from, a, sizeof(a)),
	    mpnet_port_name(b->mp, d->from, d->from_lp, ap, sizeof(ap)),
	    pname(b, d->to, c, sizeof(c)),
	    mpnet_port_name(b->mp, d->to, d->to_lp, cp, sizeof(cp)));
}

static void
channel_places(struct nb *b)
{
	const struct mpnet	*mp = b->mp;
	char			 nm[4 * PCG_NAME_MAX + 8];
	int			 i, k, puts, free_needed;

	for (i = 0; i < mp->ndc; i++) {
		const struct dchan	*d = &mp->dc[i];
		const struct prog	*pr = mp->progs[d->from];

		b->chan[i] = b->chanf[i] = -1;
		puts = free_needed = 0;
		for (k = 0; k < pr->nins; k++) {
			const struct ins	*in = &pr->ins[k];

			if (in->lp != d->from_lp)
				continue;
			if (in->op == OP_SEND && is_sync(b, in->mode))
				b->rdv[i] = 1;
			else if (in->op == OP_SEND)
				puts = 1;
			else if (in->op == OP_ISEND) {
				puts = 1;
				if (is_sync(b, in->mode))
					free_needed = 1;	/* its place in the queue */
			}
		}
		if (!puts)
			continue;	/* no count: always 0 */
		if (b->rdv[i])
			free_needed = 1;	/* rendezvous only when empty */
		chan_name(b, i, nm, sizeof(nm));
		if (free_needed && dc_bound(b, i) < 0) {
			fail(b, "the channel %s has no bound (it is sent on in an "
			    "endless loop) and the %s mode tests it for the number of "
			    "messages it holds: that is no place/transition net", nm,
			    check_mode_name(b->mode));
			return;
		}
		b->chan[i] = add_place(b, NP_CHAN, -1, i, 0, dc_bound(b, i), "%s", nm);
		if (free_needed)
			b->chanf[i] = add_place(b, NP_CHAN_FREE, -1, i, dc_bound(b, i),
			    dc_bound(b, i), "%s.free", nm);
	}
}

static void
slot_places(struct nb *b, int proc)
{
	const struct prog	*pr = b->mp->progs[proc];
	char			 pn[PCG_NAME_MAX];
	int			 k, j, dc;

	pname(b, proc, pn, sizeof(pn));
	for (k = 0; k < pr->nslots; k++)
		b->slotcap[proc][k] = 1;
	for (j = 0; j < pr->nins; j++) {
		const struct ins	*in = &pr->ins[j];

		if (in->op != OP_ISEND || !is_sync(b, in->mode))
			continue;
		dc = b->mp->send_dc[MPNET_PORTSLOT(b->mp, proc, in->lp)];
		if (dc_bound(b, dc) > b->slotcap[proc][in->slot])
			b->slotcap[proc][in->slot] = dc_bound(b, dc);
	}
	for (k = 0; k < pr->nslots; k++) {
		b->slot[proc][k] = add_place(b, NP_SLOT, proc, k, 0,
		    b->slotcap[proc][k], "%s.req%d", pn, k);
		b->slotf[proc][k] = add_place(b, NP_SLOT_FREE, proc, k,
		    b->slotcap[proc][k], b->slotcap[proc][k], "%s.req%d.free", pn, k);
	}
}

static void
coll_places(struct nb *b)
{
	const struct mpnet	*mp = b->mp;
	char			 pn[PCG_NAME_MAX], it[PCG_NAME_MAX + 32];
	int			 i;

	b->none = -1;
	if (!mp->rooted || b->mode != CHECK_BUFFERED || mp->ncolls == 0)
		return;
	b->none = add_place(b, NP_COLL_NONE, -1, -1, 1, 1, "collective.none");
	for (i = 0; i < mp->ncolls; i++) {
		struct ins	fake;

		b->open[i] = -1;
		if (mp->colls[i].root < 0)
			continue;
		memset(&fake, 0, sizeof(fake));
		fake.op = OP_COLL;
		fake.coll = i;
		mpnet_ins_text(mp, 0, &fake, it, sizeof(it));
		b->open[i] = add_place(b, NP_COLL_OPEN, -1, i, 0, 1,
		    "collective.open '%s'", it);
	}
	b->left = add_place(b, NP_COLL_LEFT, -1, -1, 0, mp->nprocs - 1,
	    "collective.left");
	b->leftf = add_place(b, NP_COLL_LEFT_FREE, -1, -1, mp->nprocs - 1,
	    mp->nprocs - 1, "collective.left.free");
	for (i = 0; i < mp->nprocs; i++) {
		pname(b, i, pn, sizeof(pn));
		b->pleft[i] = add_place(b, NP_PROC_LEFT, i, -1, 0, 1, "%s.left", pn);
		b->pin[i] = add_place(b, NP_PROC_IN, i, -1, 1, 1, "%s.in", pn);
	}
}

/* ---- transitions ---- */

struct tinfo {
	int		 kind;
	int		 proc;
	int		 pc;
	int		 dc;
	char		 name[2 * PCG_NAME_MAX + 64];
};

static int
arc_cmp(const void *a, const void *b)
{
	const struct net_arc	*x = a, *y = b;

	return x->place < y->place ? -1 : x->place > y->place;
}

static void
add_trans(struct nb *b, const struct tinfo *ti, const struct tb *t)
{
	struct net		*n = b->n;
	struct net_trans	*tr;
	const struct ins	*in;

	if (n->ntrans >= NET_MAX_TRANS) {
		fail(b, "the net has more than %d transitions", NET_MAX_TRANS);
		return;
	}
	xgrow(&n->trans, &b->talloc, n->ntrans + 1, sizeof(*n->trans));
	tr = &n->trans[n->ntrans++];
	memset(tr, 0, sizeof(*tr));
	xasprintf(&tr->name, "%s%s", ti->name, t->sfx);
	tr->kind = ti->kind;
	tr->proc = ti->proc;
	tr->pc = ti->pc;
	tr->dc = ti->dc;
	in = ti->pc >= 0 ? &b->mp->progs[ti->proc]->ins[ti->pc] : NULL;
	loc_of(&tr->loc, in);
	tr->pre = xcalloc(t->pre.n + 1, sizeof(struct net_arc));
	tr->post = xcalloc(t->post.n + 1, sizeof(struct net_arc));
	for (int i = 0; i < t->pre.n; i++)
		if (t->pre.a[i].w != 0)
			tr->pre[tr->npre++] = t->pre.a[i];
	for (int i = 0; i < t->post.n; i++)
		if (t->post.a[i].w != 0)
			tr->post[tr->npost++] = t->post.a[i];
	qsort(tr->pre, tr->npre, sizeof(*tr->pre), arc_cmp);
	qsort(tr->post, tr->npost, sizeof(*tr->post), arc_cmp);
}

/* One transition per choice of one outcome from each list, on top of
 * base.  A list with no outcome makes none. */
static void
product(struct nb *b, const struct tinfo *ti, const struct tb *base,
    struct alts *lists, int nlists)
{
	struct tb	 acc;
	int		 i;

	if (b->cause != NULL)
		return;
	if (nlists == 0) {
		add_trans(b, ti, base);
		return;
	}
	for (i = 0; i < lists[0].n; i++) {
		tb_copy(&acc, base);
		tb_join(&acc, &lists[0].o[i]);
		product(b, ti, &acc, lists + 1, nlists - 1);
		tb_free(&acc);
	}
}

static void
tinfo_set(struct nb *b, struct tinfo *ti, int kind, int proc, int pc, int dc)
{
	char	pn[PCG_NAME_MAX], it[PCG_NAME_MAX + 64];

	ti->kind = kind;
	ti->proc = proc;
	ti->pc = pc;
	ti->dc = dc;
	snprintf(ti->name, sizeof(ti->name), "%s: %s", pname(b, proc, pn, sizeof(pn)),
	    mpnet_ins_text(b->mp, proc, &b->mp->progs[proc]->ins[pc], it, sizeof(it)));
}

/* Zero tests: no request posted before 'upto' at in accepts lp. */
static void
none_pending(struct nb *b, struct tb *t, int proc, const struct ins *in, int upto,
    int lp)
{
	const struct prog	*pr = b->mp->progs[proc];
	int			 k;

	for (k = 0; k < upto; k++)
		if (slotdesc_accepts(&pr->sd[in->sd + k], lp))
			tb_test(t, b->slotf[proc][k], b->slotcap[proc][k]);
}

/* Put a message on dc. */
static void
put(struct nb *b, struct tb *t, int dc)
{
	arcs_add(&t->post, b->chan[dc], 1);
	if (b->chanf[dc] >= 0)
		arcs_add(&t->pre, b->chanf[dc], 1);
}

/* The ways receiver proc (resting at pc) can take dc's next message, as
 * sem.c's avail and take say: from the count (moving the sender's
 * synchronous requests on it up one place), or from a sender blocked in
 * a synchronous send there (which goes on). */
static void
take_alts(struct nb *b, int proc, int pc, int dc, struct alts *out)
{
	const struct mpnet	*mp = b->mp;
	const struct dchan	*d = &mp->dc[dc];
	const struct prog	*sp = mp->progs[d->from];
	struct alts		 st;
	struct tb		*t, base;
	int			 q, k, j, nr, r[64], sub, anysync = 0, self = d->from == proc;
	char			 pn[PCG_NAME_MAX];

	memset(&st, 0, sizeof(st));
	pname(b, d->from, pn, sizeof(pn));
	for (j = 0; j < sp->nsd; j++)
		if (sp->sd[j].kind == SD_SEND && sp->sd[j].lp == d->from_lp &&
		    is_sync(b, sp->sd[j].mode))
			anysync = 1;
	if (b->chan[dc] >= 0 && !anysync) {
		t = alts_add(out);
		arcs_add(&t->pre, b->chan[dc], 1);
		if (b->chanf[dc] >= 0)
			arcs_add(&t->post, b->chanf[dc], 1);
	} else if (b->chan[dc] >= 0) {
		/* Per sender pc: which of its posted synchronous requests on
		 * dc are still in the queue (each moves up one). */
		for (q = 0; q < sp->nins; q++) {
			const struct ins	*sin = &sp->ins[q];

			if (b->ctl[d->from][q] < 0 || (self && q != pc))
				continue;
			nr = 0;
			for (k = 0; k < sin->nposted; k++) {
				const struct slotdesc	*sd = &sp->sd[sin->sd + k];

				if (sd->kind == SD_SEND && sd->lp == d->from_lp &&
				    is_sync(b, sd->mode) && nr < 64)
					r[nr++] = k;
			}
			if (nr > 12) {
				fail(b, "%s has more than 12 synchronous requests "
				    "pending on one channel", pn);
				return;
			}
			for (sub = 0; sub < 1 << nr; sub++) {
				t = alts_add(out);
				arcs_add(&t->pre, b->chan[dc], 1);
				if (b->chanf[dc] >= 0)
					arcs_add(&t->post, b->chanf[dc], 1);
				if (!self)
					tb_test(t, b->ctl[d->from][q], 1);
				for (k = 0; k < nr; k++) {
					if (sub & (1 << k)) {
						arcs_add(&t->pre, b->slot[d->from][r[k]], 1);
						arcs_add(&t->post, b->slotf[d->from][r[k]], 1);
					} else
						tb_test(t, b->slotf[d->from][r[k]],
						    b->slotcap[d->from][r[k]]);
				}
			}
		}
	}
	if (!b->rdv[dc])
		return;
	for (q = 0; q < sp->nins; q++) {
		const struct ins	*sin = &sp->ins[q];

		if (b->ctl[d->from][q] < 0 || sin->op != OP_SEND ||
		    sin->lp != d->from_lp || !is_sync(b, sin->mode))
			continue;
		if (self && q != pc)
			continue;
		memset(&base, 0, sizeof(base));
		if (b->chanf[dc] >= 0)
			tb_test(&base, b->chanf[dc], dc_bound(b, dc));
		arcs_add(&base.pre, b->ctl[d->from][q], 1);
		base.ownctl = self;
		snprintf(base.sfx, sizeof(base.sfx), " (rendezvous)");
		settle(b, d->from, q + 1, &st);
		for (j = 0; j < st.n; j++) {
			t = alts_add(out);
			tb_join(t, &base);
			/* The sender's outcome, named apart from the receiver's. */
			st.o[j].sfx[0] = '\0';
			tb_join(t, &st.o[j]);
		}
		alts_free(&st);
		tb_free(&base);
	}
}

/* Pending receive requests taking messages, earliest posted first. */
static void
match_trans(struct nb *b, int proc, int pc)
{
	const struct prog	*pr = b->mp->progs[proc];
	const struct ins	*in = &pr->ins[pc];
	struct tinfo		 ti;
	struct alts		 ta;
	struct tb		 base, t;
	int			 k, lp, dc, lo, hi, j;
	char			 pn[PCG_NAME_MAX], pt[PCG_NAME_MAX];

	for (k = 0; k < in->nposted; k++) {
		const struct slotdesc	*d = &pr->sd[in->sd + k];

		if (d->kind == SD_SEND)
			continue;
		lo = d->kind == SD_RECV ? d->lp : d->lo;
		hi = d->kind == SD_RECV ? d->lp + 1 : d->hi;
		for (lp = lo; lp < hi; lp++) {
			if ((dc = b->mp->recv_dc[MPNET_PORTSLOT(b->mp, proc, lp)]) < 0)
				continue;
			memset(&ta, 0, sizeof(ta));
			take_alts(b, proc, pc, dc, &ta);
			memset(&base, 0, sizeof(base));
			arcs_add(&base.pre, b->slot[proc][k], 1);
			arcs_add(&base.post, b->slotf[proc][k], 1);
			none_pending(b, &base, proc, in, k, lp);
			ti.kind = T_MATCH;
			ti.proc = proc;
			ti.pc = pc;
			ti.dc = dc;
			snprintf(ti.name, sizeof(ti.name), "%s: request %d takes %s",
			    pname(b, proc, pn, sizeof(pn)), k,
			    mpnet_port_name(b->mp, proc, lp, pt, sizeof(pt)));
			for (j = 0; j < ta.n && b->cause == NULL; j++) {
				tb_copy(&t, &base);
				if (!ta.o[j].ownctl)
					tb_test(&t, b->ctl[proc][pc], 1);
				tb_join(&t, &ta.o[j]);
				add_trans(b, &ti, &t);
				tb_free(&t);
			}
			tb_free(&base);
			alts_free(&ta);
		}
	}
}

/* A rooted collective left by proc (buffered mode), as sem.c's
 * coll_enabled and leave say. */
static void
leave_trans(struct nb *b, int proc, int pc, struct alts *after)
{
	const struct mpnet	*mp = b->mp;
	const struct ins	*in = &mp->progs[proc]->ins[pc];
	const struct coll	*c = &mp->colls[in->coll];
	int			 N = mp->nprocs, root = c->root, sig, last, i;
	int			 fanout = mpnet_coll_fanout(c->kind);
	struct tinfo		 ti;
	struct tb		 t;

	tinfo_set(b, &ti, T_LEAVE, proc, pc, -1);
	for (sig = 0; sig < 2; sig++) {
		int	sp = sig == 0 ? b->none : b->open[in->coll];

		if (fanout && proc != root && sig == 0)
			continue;	/* the others go after the root */
		for (last = 0; last < 2; last++) {
			if (!fanout && proc == root && !last)
				continue;	/* the root goes after all others */
			if (last && sig == 0 && N > 1)
				continue;	/* others left: it is open */
			memset(&t, 0, sizeof(t));
			arcs_add(&t.pre, b->ctl[proc][pc], 1);
			arcs_add(&t.pre, sp, 1);
			if (last) {
				arcs_add(&t.pre, b->left, N - 1);
				arcs_add(&t.post, b->leftf, N - 1);
				tb_test(&t, b->pin[proc], 1);
				for (i = 0; i < N; i++) {
					if (i == proc)
						continue;
					arcs_add(&t.pre, b->pleft[i], 1);
					arcs_add(&t.post, b->pin[i], 1);
				}
				arcs_add(&t.post, b->none, 1);
			} else {
				arcs_add(&t.pre, b->leftf, 1);
				arcs_add(&t.post, b->left, 1);
				arcs_add(&t.pre, b->pin[proc], 1);
				arcs_add(&t.post, b->pleft[proc], 1);
				arcs_add(&t.post, b->open[in->coll], 1);
				if (fanout && proc != root)
					tb_test(&t, b->pleft[root], 1);
			}
			product(b, &ti, &t, after, 1);
			tb_free(&t);
		}
	}
}

/* A collective all reach together: one transition per pc each process
 * can be at it and per way each goes on. */
static void
coll_trans(struct nb *b, int lead, int pc0)
{
	const struct mpnet	*mp = b->mp;
	int			 coll = mp->progs[lead]->ins[pc0].coll;
	int			 comm = mp->colls[coll].group + 1, i, q, k, N;
	const int		*mem;
	struct alts		*lists, st;
	struct tinfo		 ti;
	struct tb		 base, *t;

	/* Its communicator's members, the leader first (a group's). */
	N = mpnet_comm(mp, comm, &mem);
	lists = xcalloc(N, sizeof(*lists));
	tinfo_set(b, &ti, T_COLL, lead, pc0, -1);
	memset(&base, 0, sizeof(base));
	if (b->none >= 0 && comm == 0)
		tb_test(&base, b->none, 1);
	for (k = 0; k < N && b->cause == NULL; k++) {
		const struct prog	*pr;

		i = mem != NULL ? mem[k] : k;
		pr = mp->progs[i];
		for (q = 0; q < pr->nins; q++) {
			const struct ins	*in = &pr->ins[q];

			if (b->ctl[i][q] < 0 || in->op != OP_COLL || in->coll != coll)
				continue;
			if (i == lead && q != pc0)
				continue;
			memset(&st, 0, sizeof(st));
			settle(b, i, q + 1, &st);
			for (int j = 0; j < st.n; j++) {
				t = alts_add(&lists[k]);
				arcs_add(&t->pre, b->ctl[i][q], 1);
				tb_join(t, &st.o[j]);
				if (i != lead)
					t->sfx[0] = '\0';
			}
			alts_free(&st);
		}
	}
	product(b, &ti, &base, lists, N);
	for (k = 0; k < N; k++)
		alts_free(&lists[k]);
	free(lists);
	tb_free(&base);
}

static void
proc_trans(struct nb *b, int proc, int pc)
{
	const struct mpnet	*mp = b->mp;
	const struct prog	*pr = mp->progs[proc];
	const struct ins	*in = &pr->ins[pc];
	struct alts		 after, ta, lists[2];
	struct tinfo		 ti;
	struct tb		 t;
	int			 dc, lp, lo, hi, k, c;
	int64_t			 B, cap;

	if (in->nposted > 0)
		match_trans(b, proc, pc);
	memset(&after, 0, sizeof(after));
	memset(&t, 0, sizeof(t));
	if (in->op != OP_END && in->op != OP_CHOICE && in->op != OP_COLL)
		settle(b, proc, pc + 1, &after);
	switch (in->op) {
	case OP_SEND:
		if (is_sync(b, in->mode))
			break;	/* taken by its receiver */
		dc = mp->send_dc[MPNET_PORTSLOT(mp, proc, in->lp)];
		tinfo_set(b, &ti, T_SEND, proc, pc, dc);
		arcs_add(&t.pre, b->ctl[proc][pc], 1);
		put(b, &t, dc);
		product(b, &ti, &t, &after, 1);
		break;
	case OP_ISEND:
		dc = mp->send_dc[MPNET_PORTSLOT(mp, proc, in->lp)];
		tinfo_set(b, &ti, T_ISEND, proc, pc, dc);
		cap = b->slotcap[proc][in->slot];
		if (!is_sync(b, in->mode)) {
			arcs_add(&t.pre, b->ctl[proc][pc], 1);
			put(b, &t, dc);
			tb_test(&t, b->slotf[proc][in->slot], cap);
			product(b, &ti, &t, &after, 1);
			break;
		}
		/* Its request holds its place in the queue: the count after. */
		B = dc_bound(b, dc);
		for (c = 0; c < B && b->cause == NULL; c++) {
			memset(&t, 0, sizeof(t));
			arcs_add(&t.pre, b->ctl[proc][pc], 1);
			arcs_add(&t.pre, b->chan[dc], c);
			arcs_add(&t.pre, b->chanf[dc], B - c);
			arcs_add(&t.post, b->chan[dc], c + 1);
			arcs_add(&t.post, b->chanf[dc], B - c - 1);
			arcs_add(&t.pre, b->slotf[proc][in->slot], cap);
			arcs_add(&t.post, b->slot[proc][in->slot], c + 1);
			arcs_add(&t.post, b->slotf[proc][in->slot], cap - c - 1);
			product(b, &ti, &t, &after, 1);
			tb_free(&t);
		}
		break;
	case OP_IRECV:
	case OP_IRECVANY:
		tinfo_set(b, &ti, T_IPOST, proc, pc, -1);
		cap = b->slotcap[proc][in->slot];
		arcs_add(&t.pre, b->ctl[proc][pc], 1);
		arcs_add(&t.pre, b->slotf[proc][in->slot], cap);
		arcs_add(&t.post, b->slot[proc][in->slot], 1);
		arcs_add(&t.post, b->slotf[proc][in->slot], cap - 1);
		product(b, &ti, &t, &after, 1);
		break;
	case OP_RECV:
	case OP_RECVANY:
		lo = in->op == OP_RECV ? in->lp : in->lo;
		hi = in->op == OP_RECV ? in->lp + 1 : in->hi;
		for (lp = lo; lp < hi && b->cause == NULL; lp++) {
			if ((dc = mp->recv_dc[MPNET_PORTSLOT(mp, proc, lp)]) < 0)
				continue;
			tinfo_set(b, &ti, T_RECV, proc, pc, dc);
			if (in->op == OP_RECVANY) {
				char	pt[PCG_NAME_MAX];
				size_t	l = strlen(ti.name);

				snprintf(ti.name + l, sizeof(ti.name) - l, " from %s",
				    mpnet_port_name(mp, proc, lp, pt, sizeof(pt)));
			}
			memset(&ta, 0, sizeof(ta));
			take_alts(b, proc, pc, dc, &ta);
			memset(&t, 0, sizeof(t));
			arcs_add(&t.pre, b->ctl[proc][pc], 1);
			none_pending(b, &t, proc, in, in->nposted, lp);
			lists[0] = ta;
			lists[1] = after;
			product(b, &ti, &t, lists, 2);
			tb_free(&t);
			alts_free(&ta);
		}
		break;
	case OP_WAITALL:
		tinfo_set(b, &ti, T_WAIT, proc, pc, -1);
		arcs_add(&t.pre, b->ctl[proc][pc], 1);
		for (k = 0; k < in->nposted; k++)
			tb_test(&t, b->slotf[proc][k], b->slotcap[proc][k]);
		product(b, &ti, &t, &after, 1);
		break;
	case OP_CHOICE:
		tinfo_set(b, &ti, T_CHOOSE, proc, pc, -1);
		for (k = 0; k < in->nalt; k++) {
			size_t	l = strlen(ti.name);

			snprintf(ti.name + l, sizeof(ti.name) - l, " %d", k + 1);
			memset(&t, 0, sizeof(t));
			arcs_add(&t.pre, b->ctl[proc][pc], 1);
			settle(b, proc, pr->alts[in->alt + k], &after);
			product(b, &ti, &t, &after, 1);
			alts_free(&after);
			tb_free(&t);
			ti.name[l] = '\0';
		}
		break;
	case OP_COLL:
		if (mp->colls[in->coll].root < 0 || b->mode == CHECK_SYNC) {
			const int	*mem;

			/* The leader's: the group's first member, or 0. */
			if (mpnet_comm(mp, mp->colls[in->coll].group + 1, &mem) > 0 &&
			    proc == (mem != NULL ? mem[0] : 0))
				coll_trans(b, proc, pc);
			break;
		}
		settle(b, proc, pc + 1, &after);
		leave_trans(b, proc, pc, &after);
		break;
	default:
		break;
	}
	tb_free(&t);
	alts_free(&after);
}

static int **
per_proc(const struct mpnet *mp, int what)
{
	int	**a = xcalloc(mp->nprocs + 1, sizeof(int *)), i, n;

	for (i = 0; i < mp->nprocs; i++) {
		const struct prog	*pr = mp->progs[i];

		n = what == 0 ? pr->nins : what == 1 ? pr->nctr : pr->nslots;
		a[i] = xcalloc(n + 1, sizeof(int));
	}
	return a;
}

static void
free_per_proc(const struct mpnet *mp, void *v)
{
	void	**a = v;
	int	  i;

	if (a == NULL)
		return;
	for (i = 0; i < mp->nprocs; i++)
		free(a[i]);
	free(a);
}

/* Why a P/T net cannot follow sem.c's layout for this mode, or NULL:
 * channels whose messages a wildcard takes in the order sent (a queue of
 * labels), or rooted collectives a process may leave early one after the
 * other (a queue of open collectives; the net holds one).  Nor does the
 * export hold sendrecv, wait, test, waitany, waitsome, probe and iprobe
 * (a wait on some requests moves the others up; a poll's branch is the
 * absence of a token, which a P/T net cannot test): it names the first. */
static char *
beyond_pt(const struct mpnet *mp, enum check_mode mode)
{
	struct sem	 m;
	char		*why = NULL, a[PCG_NAME_MAX], c[PCG_NAME_MAX + 64];
	int		 i, k;

	for (i = 0; i < mp->nprocs && why == NULL; i++)
		for (k = 0; k < mp->progs[i]->nins && why == NULL; k++) {
			const struct ins	*in = &mp->progs[i]->ins[k];

			if (in->op != OP_WAIT && in->op != OP_PROBE &&
			    in->op != OP_PROBEANY && !mpnet_op_polls(in->op))
				continue;
			mpnet_ins_text(mp, i, in, c, sizeof(c));
			if (in->src != NULL && in->src->loc.src != NULL)
				xasprintf(&why, "'%s' (%s:%d:%d) in the behaviour of "
				    "%s: the net export does not hold sendrecv, "
				    "wait, test, waitany, waitsome, probe or iprobe",
				    c, in->src->loc.src->name, in->src->loc.first_line,
				    in->src->loc.first_column, pcg_proc_name(mp->pcg,
				    i, a, sizeof(a)));
			else
				xasprintf(&why, "'%s' in the behaviour of %s: the "
				    "net export does not hold sendrecv, wait, test, "
				    "waitany, waitsome, probe or iprobe", c,
				    pcg_proc_name(mp->pcg, i, a, sizeof(a)));
		}
	if (why != NULL)
		return why;
	sem_init(&m, mp, mode, 2);
	for (i = 0; i < mp->ncolls && why == NULL; i++)
		if (mp->colls[i].group >= 0 && mp->colls[i].root >= 0 &&
		    mode == CHECK_BUFFERED) {
			struct ins	fake;

			memset(&fake, 0, sizeof(fake));
			fake.op = OP_COLL;
			fake.coll = i;
			xasprintf(&why, "in buffered mode '%s' is a rooted collective "
			    "over a group, which a process may leave early: the "
			    "net keeps one open collective, the application's",
			    mpnet_ins_text(mp, 0, &fake, c, sizeof(c)));
			goto out;
		}
	if (m.ngrp > 0) {
		const struct dchan	*d = &mp->dc[m.grp[0].dc[0]];

		xasprintf(&why, "%s takes the messages of %s in the order they were "
		    "sent on %d channels (a wildcard over all its ports is "
		    "MPI_ANY_SOURCE): that order is no place/transition net",
		    pcg_proc_name(mp->pcg, d->to, c, sizeof(c)),
		    pcg_proc_name(mp->pcg, d->from, a, sizeof(a)), m.grp[0].n);
		goto out;
	}
	for (i = 0; m.clog > 0 && i < mp->nprocs && why == NULL; i++)
		for (k = 0; k < mp->progs[i]->nins && why == NULL; k++)
			if (sem_runs_ahead(&m, i, k)) {
				xasprintf(&why, "in %s mode %s may leave a rooted "
				    "collective before the one before it has closed "
				    "(MPI lets a root run ahead): more than one open "
				    "collective is no place/transition net here",
				    check_mode_name(mode), pcg_proc_name(mp->pcg, i,
				    a, sizeof(a)));
			}
out:
	sem_fini(&m);
	return why;
}

struct net *
net_build(const struct mpnet *mp, enum check_mode mode, char **cause)
{
	struct nb	 b;
	struct net	*n = xcalloc(1, sizeof(*n));
	int		 i, pc, N = mp->nprocs;

	memset(&b, 0, sizeof(b));
	n->mp = mp;
	n->mode = mode;
	b.n = n;
	b.mp = mp;
	b.mode = mode;
	b.ctl = per_proc(mp, 0);
	b.ctr = per_proc(mp, 1);
	b.ctrf = per_proc(mp, 1);
	b.slot = per_proc(mp, 2);
	b.slotf = per_proc(mp, 2);
	b.slotcap = xcalloc(N + 1, sizeof(int64_t *));
	for (i = 0; i < N; i++)
		b.slotcap[i] = xcalloc(mp->progs[i]->nslots + 1, sizeof(int64_t));
	b.chan = xcalloc(mp->ndc + 1, sizeof(int));
	b.chanf = xcalloc(mp->ndc + 1, sizeof(int));
	b.rdv = xcalloc(mp->ndc + 1, 1);
	b.open = xcalloc(mp->ncolls + 1, sizeof(int));
	b.pleft = xcalloc(N + 1, sizeof(int));
	b.pin = xcalloc(N + 1, sizeof(int));
	b.cause = beyond_pt(mp, mode);

	for (i = 0; i < N && b.cause == NULL; i++)
		control_places(&b, i);
	if (b.cause == NULL)
		channel_places(&b);
	for (i = 0; i < N && b.cause == NULL; i++)
		slot_places(&b, i);
	if (b.cause == NULL)
		coll_places(&b);
	for (i = 0; i < N && b.cause == NULL; i++)
		for (pc = 0; pc < mp->progs[i]->nins && b.cause == NULL; pc++)
			if (b.ctl[i][pc] >= 0)
				proc_trans(&b, i, pc);

	free_per_proc(mp, b.ctl);
	free_per_proc(mp, b.ctr);
	free_per_proc(mp, b.ctrf);
	free_per_proc(mp, b.slot);
	free_per_proc(mp, b.slotf);
	free_per_proc(mp, b.slotcap);
	free(b.chan);
	free(b.chanf);
	free(b.rdv);
	free(b.open);
	free(b.pleft);
	free(b.pin);
	if (b.cause != NULL) {
		*cause = b.cause;
		net_free(n);
		return NULL;
	}
	return n;
}

void
net_free(struct net *n)
{
	int	i;

	if (n == NULL)
		return;
	for (i = 0; i < n->nplaces; i++) {
		free(n->places[i].name);
		free(n->places[i].loc);
	}
	for (i = 0; i < n->ntrans; i++) {
		free(n->trans[i].name);
		free(n->trans[i].loc);
		free(n->trans[i].pre);
		free(n->trans[i].post);
	}
	free(n->places);
	free(n->trans);
	free(n);
}

int
net_is_complement(const struct net *n, int p)
{
	switch (n->places[p].kind) {
	case NP_CHAN_FREE:
	case NP_CTR_FREE:
	case NP_SLOT_FREE:
	case NP_COLL_LEFT_FREE:
	case NP_PROC_IN:
		return 1;
	default:
		return 0;
	}
}
