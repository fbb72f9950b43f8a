/* interp.c -- the interpreter of the inference (interp.h): runs the
 * program once on abstract values, from main (a Python module's code)
 * through the functions it calls, writing the behaviour as it goes. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "interp.h"
#include "xmalloc.h"

/* Calls inlined in one another at most, steps of the interpreter at most
 * (a program whose ways multiply past it is refused, not followed for
 * ever), rounds to find what a loop's rounds leave. */
#define INTERP_MAX_DEPTH	64
#define INTERP_MAX_STEPS	4000000L
#define INTERP_MAX_ROUNDS	6

struct frame {
	struct cfunc	*f;
	int		 inst;
	struct frame	*up;
	struct stl	 rets;		/* the ways that returned */
	int		 entry;		/* main (or the Python module) */
};

/* The innermost loop or switch being run: the ways that left it. */
struct loopx {
	struct stl	 brk, cont;
	int		 isswitch;
	struct loopx	*up;
};

/* A placeholder for an outcome (interp.h): a 'for' variable of its own. */
struct outv {
	int64_t		 id;
	struct outc	*out;
	struct outv	*next;
};


static void exec_list(struct ctx *, const struct cnode *, struct st *,
    struct stl *);
static void exec(struct ctx *, const struct cnode *, struct st *, struct stl *);
static int eval(struct ctx *, struct st **, const struct cnode *, struct val *);
static void call_multi(struct ctx *, struct st *, const struct cnode *,
    struct stl *);
static int may_comm(struct ctx *, const struct cnode *);

/* ---- values ---- */

struct val
v_top(const char *why, const struct cloc *l)
{
	struct val	v;

	memset(&v, 0, sizeof(v));
	v.k = V_TOP;
	v.why = why;
	if (l != NULL)
		v.wloc = *l;
	return v;
}

struct val
v_kind(enum vk k)
{
	struct val	v;

	memset(&v, 0, sizeof(v));
	v.k = k;
	return v;
}

struct val
v_sym(const struct sym *n)
{
	struct val	v = v_kind(V_INT);

	v.n = n;
	return v;
}

struct val
v_int(struct ctx *c, int64_t i)
{
	return v_sym(sym_int(c->a, i));
}

struct val
v_str(struct ctx *c, const char *text)
{
	struct val	v = v_kind(V_STR);

	v.str = arena_alloc(c->a, sizeof(*v.str));
	v.str->k = SP_TEXT;
	v.str->text = text;
	return v;
}

struct val
v_piece(struct ctx *c, enum spk k, const struct sym *n)
{
	struct val	v = v_kind(V_STR);

	v.str = arena_alloc(c->a, sizeof(*v.str));
	v.str->k = k;
	v.str->n = n;
	return v;
}

const char *
why_of(const struct val *v)
{
	return v->k == V_TOP && v->why != NULL ? v->why : "data";
}

/* Whether two values are the same. */
static int
v_same(const struct val *x, const struct val *y)
{
	struct spiece	*p, *q;
	int		 i;

	if (x->k != y->k)
		return 0;
	switch (x->k) {
	case V_TOP:
	case V_NULL:
	case V_SELF:
	case V_MOD:
		return 1;
	case V_INT:
		return sym_eq(x->n, y->n);
	case V_STR:
		for (p = x->str, q = y->str; p != NULL && q != NULL;
		    p = p->next, q = q->next)
			if (p->k != q->k || (p->k == SP_TEXT &&
			    strcmp(p->text, q->text) != 0) || !sym_eq(p->n, q->n))
				return 0;
		return p == NULL && q == NULL;
	case V_REQ:
		if (x->req->n != y->req->n || x->req->nul != y->req->nul)
			return 0;
		for (i = 0; i < x->req->n; i++)
			if (x->req->site[i] != y->req->site[i])
				return 0;
		return 1;
	case V_PTR:
		return x->obj == y->obj && sym_eq(x->off, y->off);
	case V_FUNC:
		return strcmp(x->fn, y->fn) == 0;
	case V_OUT:
		return x->out == y->out;
	}
	return 0;
}

/* The requests of x and y together. */
static const struct reqs *
reqs_join(struct ctx *c, const struct reqs *x, const struct reqs *y)
{
	struct reqs	*r;
	int		 i = 0, j = 0;

	r = arena_alloc(c->a, sizeof(*r) + sizeof(int) * (size_t)(x->n + y->n));
	while (i < x->n || j < y->n) {
		if (j == y->n || (i < x->n && x->site[i] < y->site[j]))
			r->site[r->n++] = x->site[i++];
		else if (i == x->n || y->site[j] < x->site[i])
			r->site[r->n++] = y->site[j++];
		else {
			r->site[r->n++] = x->site[i++];
			j++;
		}
	}
	r->nul = x->nul || y->nul;
	return r;
}

/* ---- objects ---- */

int
inst_here(const struct ctx *c)
{
	return c->frame != NULL ? c->frame->inst : 0;
}

static uint64_t
hash_key(const char *s)
{
	uint64_t	h = 1469598103934665603ULL;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

/* The object of the variable (or allocation) key in frame inst: the
 * same on every way. */
int
obj_id(struct ctx *c, int inst, const char *key)
{
	uint64_t	h = hash_key(key);
	int		id;

	for (;; h++) {
		if ((id = hmap_get(c->ids, (uint64_t)inst, h)) < 0)
			break;
		if (c->idinst[id] == inst && strcmp(c->idkey[id], key) == 0)
			return id;
	}
	id = c->nids++;
	xgrow(&c->idkey, &c->idcap, (size_t)c->nids, sizeof(*c->idkey));
	c->idinst = xreallocarray(c->idinst, c->idcap, sizeof(*c->idinst));
	c->idkey[id] = key;
	c->idinst[id] = inst;
	hmap_set(c->ids, (uint64_t)inst, h, id);
	return id;
}

static struct obj *
obj_new(void)
{
	struct obj	*o = xcalloc(1, sizeof(*o));

	o->refs = 1;
	return o;
}

static void
obj_unref(struct obj *o)
{
	if (o == NULL || --o->refs > 0)
		return;
	free(o->s);
	free(o);
}

struct obj *
obj_of(struct ctx *c, struct st *s, int id)
{
	(void)c;
	return id < s->no ? s->o[id] : NULL;
}

/* The object, this state's own to change (made when missing). */
struct obj *
obj_mut(struct ctx *c, struct st *s, int id)
{
	struct obj	*o, *n;

	(void)c;
	if (id >= s->no) {
		s->o = xreallocarray(s->o, (size_t)id + 1, sizeof(*s->o));
		memset(s->o + s->no, 0, sizeof(*s->o) * (size_t)(id + 1 - s->no));
		s->no = id + 1;
	}
	if ((o = s->o[id]) == NULL) {
		o = s->o[id] = obj_new();
		o->dflt = v_top("a value never set", NULL);
		return o;
	}
	if (o->refs == 1)
		return o;
	n = obj_new();
	*n = *o;
	n->refs = 1;
	n->s = xreallocarray(NULL, (size_t)(o->cap ? o->cap : 1), sizeof(*n->s));
	if (o->n > 0)
		memcpy(n->s, o->s, sizeof(*n->s) * (size_t)o->n);
	o->refs--;
	s->o[id] = n;
	return n;
}

/* The slot of an element or a field, or -1. */
static int
slot_find(const struct obj *o, const struct sym *ix, const char *field)
{
	int	i;

	for (i = 0; i < o->n; i++) {
		if (field != NULL) {
			if (o->s[i].field != NULL && strcmp(o->s[i].field, field) == 0)
				return i;
		} else if (o->s[i].field == NULL && sym_eq(o->s[i].ix, ix))
			return i;
	}
	return -1;
}

struct val
mem_read(struct ctx *c, struct st *s, int id, const struct sym *ix,
    const char *field)
{
	struct obj	*o = obj_of(c, s, id);
	int		 i;

	if (o == NULL)
		return v_top("a value never set", NULL);
	if (ix == NULL && field == NULL)
		ix = sym_int(c->a, 0);
	if ((i = slot_find(o, ix, field)) >= 0)
		return o->s[i].v;
	return o->dflt;
}

void
mem_write(struct ctx *c, struct st *s, int id, const struct sym *ix,
    const char *field, struct val v)
{
	struct obj	*o = obj_mut(c, s, id);
	int64_t		 k;
	int		 i, j;

	if (ix == NULL && field == NULL)
		ix = sym_int(c->a, 0);
	if ((i = slot_find(o, ix, field)) < 0) {
		/* An element at an index not known apart from the others
		 * may be any of them: they are not known any more. */
		if (field == NULL && !sym_const(ix, &k))
			for (j = 0; j < o->n; j++)
				if (o->s[j].field == NULL && !sym_eq(o->s[j].ix, ix) &&
				    o->s[j].v.k != V_REQ)
					o->s[j].v = v_top("an element written "
					    "at an index not known", NULL);
		if (o->n == o->cap) {
			o->cap = o->cap ? 2 * o->cap : 4;
			o->s = xreallocarray(o->s, (size_t)o->cap, sizeof(*o->s));
		}
		i = o->n++;
		o->s[i].ix = field == NULL ? ix : NULL;
		o->s[i].field = field;
	}
	o->s[i].v = v;
}

void
mem_havoc(struct ctx *c, struct st *s, int id, const char *why,
    const struct cloc *l)
{
	mem_havoc_len(c, s, id, why, l, 1);
}

void
mem_havoc_len(struct ctx *c, struct st *s, int id, const char *why,
    const struct cloc *l, int len)
{
	struct obj	*o;
	int		 i, j;

	if (obj_of(c, s, id) == NULL)
		return;
	o = obj_mut(c, s, id);
	/* Requests stay: a loop's rounds join them (loop_run). */
	for (i = j = 0; i < o->n; i++)
		if (o->s[i].v.k == V_REQ)
			o->s[j++] = o->s[i];
	o->n = j;
	o->dflt = v_top(why, l);
	if (o->list && len)
		o->len = NULL;
}

/* ---- ways ---- */

static struct st *
st_new(void)
{
	return xcalloc(1, sizeof(struct st));
}

struct st *
st_copy(struct ctx *c, const struct st *s)
{
	struct st	*n = st_new();
	int		 i;

	(void)c;
	*n = *s;
	n->o = xreallocarray(NULL, (size_t)(s->no ? s->no : 1), sizeof(*n->o));
	if (s->no > 0)
		memcpy(n->o, s->o, sizeof(*n->o) * (size_t)s->no);
	for (i = 0; i < s->no; i++)
		if (n->o[i] != NULL)
			n->o[i]->refs++;
	n->pend = xreallocarray(NULL, (size_t)(s->npend ? s->npend : 1),
	    sizeof(*n->pend));
	if (s->npend > 0)
		memcpy(n->pend, s->pend, sizeof(*n->pend) * (size_t)s->npend);
	sym_facts_copy(&n->facts, &s->facts);
	return n;
}

void
st_free(struct st *s)
{
	int	i;

	if (s == NULL)
		return;
	for (i = 0; i < s->no; i++)
		obj_unref(s->o[i]);
	free(s->o);
	free(s->pend);
	sym_facts_free(&s->facts);
	free(s);
}

int
stl_add(struct stl *l, struct st *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 4;
		l->v = xreallocarray(l->v, (size_t)l->cap, sizeof(*l->v));
	}
	l->v[l->n++] = s;
	return 0;
}

static void
stl_free(struct stl *l)
{
	int	i;

	for (i = 0; i < l->n; i++)
		st_free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* A way that fails (exit, abort, an exception): not a way of the
 * protocol; ensemble run reports such a process. */
void
fail_path(struct ctx *c, struct st *s)
{
	(void)c;
	st_free(s);
}

/* A way that ends the process as it should (ens_finalize). */
void
end_path(struct ctx *c, struct st *s)
{
	c->escapes++;
	c->nends++;
	st_free(s);
}

/* ---- requests ---- */

/* The site of a call that posts a request, in this frame: its name
 * holder made from base (the code's variable) at first. */
int
site_of(struct ctx *c, const struct cnode *call, const char *base)
{
	int	i, inst = inst_here(c);

	for (i = 0; i < c->nsites; i++)
		if (c->sites[i].call == call && c->sites[i].inst == inst)
			return i;
	xgrow(&c->sites, &c->sitecap, (size_t)c->nsites + 1, sizeof(*c->sites));
	c->sites[c->nsites].call = call;
	c->sites[c->nsites].inst = inst;
	c->sites[c->nsites].req = arena_alloc(c->a, sizeof(struct breq));
	c->sites[c->nsites].req->base = base;
	return c->nsites++;
}

static struct breq *
breq_find(struct breq *q)
{
	while (q->up != NULL)
		q = q->up;
	return q;
}

struct breq *
site_req(struct ctx *c, int site)
{
	return breq_find(c->sites[site].req);
}

/* Requests of one value share a name: join their holders. */
static void
reqs_unite(struct ctx *c, const struct reqs *r)
{
	struct breq	*a, *b;
	int		 i;

	for (i = 1; i < r->n; i++) {
		a = site_req(c, r->site[0]);
		b = site_req(c, r->site[i]);
		if (a != b) {
			b->up = a;
			a->used |= b->used;
		}
	}
}

struct val
v_req(struct ctx *c, int site)
{
	struct val	v = v_kind(V_REQ);
	struct reqs	*r = arena_alloc(c->a, sizeof(*r) + sizeof(int));

	r->n = 1;
	r->site[0] = site;
	v.req = r;
	return v;
}

struct pend *
req_pend(struct st *s, int site)
{
	int	i;

	for (i = 0; i < s->npend; i++)
		if (s->pend[i].site == site)
			return &s->pend[i];
	return NULL;
}

int
req_status(const struct st *s, int site)
{
	int	i;

	for (i = 0; i < s->npend; i++)
		if (s->pend[i].site == site)
			return s->pend[i].st;
	return -1;
}

void
req_set(struct st *s, int site, int status)
{
	int	i;

	for (i = 0; i < s->npend; i++)
		if (s->pend[i].site == site) {
			s->pend[i].st = status;
			return;
		}
	s->pend = xreallocarray(s->pend, (size_t)s->npend + 1, sizeof(*s->pend));
	memset(&s->pend[s->npend], 0, sizeof(s->pend[s->npend]));
	s->pend[s->npend].site = site;
	s->pend[s->npend++].st = status;
}

/* A request posted at site: pending.  Posted again while the one it
 * posted before may be pending (a loop's rounds each posting one, none
 * completed): -1, said; a behaviour names one request at a time. */
int
req_post(struct ctx *c, struct st *s, int site)
{
	struct pend	*p = req_pend(s, site);
	int		 st = p != NULL ? p->st : -1;

	if (p != NULL && p->fam)
		return 0;	/* one more of its loop's family */
	if (st == RQ_PENDING || st == RQ_MAYBE) {
		ierr(c, &c->sites[site].call->loc, "this posts a request where "
		    "the one it posted before may still be pending (a loop's "
		    "rounds each posting one?): complete it first, or keep each "
		    "round's in a place of its own (an array by the loop's "
		    "count) for a waitall after the loop");
		return -1;
	}
	req_set(s, site, RQ_PENDING);
	return 0;
}

/* ---- the behaviour ---- */

struct bst *
emit(struct ctx *c, struct st *s, enum bkind k, const struct cloc *l)
{
	struct bst	*b = arena_alloc(c->a, sizeof(*b));

	b->k = k;
	if (l != NULL)
		b->loc = *l;
	*s->out = b;
	s->out = &b->next;
	s->last = b;
	return b;
}

/* The end of the list that *t is in. */
static struct bst **
list_end(struct bst **t)
{
	while (*t != NULL)
		t = &(*t)->next;
	return t;
}

/* ---- joining ways ---- */

/* Join value y into x, where the ways differ by condition cond (x's way
 * takes it, y's not; NULL: the data decides).  Requests that differ
 * cannot be joined (-1), but for a loop's rounds (widen): there one
 * variable holds the request of one round or of another, and those
 * requests share a name. */
static int
v_join(struct ctx *c, struct val *x, const struct val *y,
    const struct sym *cond, const struct cloc *l, int widen)
{
	struct reqs	*r;

	if (v_same(x, y))
		return 0;
	if (x->k == V_REQ || y->k == V_REQ) {
		if (!widen)
			return -1;
		if (x->k == V_REQ && y->k == V_REQ)
			x->req = reqs_join(c, x->req, y->req);
		else {
			if (y->k == V_REQ)
				*x = *y;
			r = arena_alloc(c->a, sizeof(*r) + sizeof(int) *
			    (size_t)x->req->n);
			memcpy(r, x->req, sizeof(*r) + sizeof(int) *
			    (size_t)x->req->n);
			r->nul = 1;
			x->req = r;
		}
		reqs_unite(c, x->req);
		return 0;
	}
	if (x->k == V_INT && y->k == V_INT && cond != NULL) {
		*x = v_sym(sym_cond(c->a, cond, x->n, y->n));
		return 0;
	}
	*x = v_top("a value that differs by the way the code took", l);
	return 0;
}

/* Join object y into x (cond as v_join); -1 when they cannot be. */
static int
obj_join(struct ctx *c, struct obj *x, const struct obj *y,
    const struct sym *cond, const struct cloc *l, int widen)
{
	struct val	yv;
	int		i, j;

	if (x->list != y->list)
		return -1;
	if (x->list && !(x->len == NULL ? y->len == NULL : y->len != NULL &&
	    sym_eq(x->len, y->len))) {
		if (x->len != NULL && y->len != NULL && cond != NULL)
			x->len = sym_cond(c->a, cond, x->len, y->len);
		else
			x->len = NULL;
	}
	for (i = 0; i < x->n; i++) {
		j = slot_find(y, x->s[i].ix, x->s[i].field);
		yv = j >= 0 ? y->s[j].v : y->dflt;
		if (v_join(c, &x->s[i].v, &yv, cond, l, widen) != 0)
			return -1;
	}
	for (j = 0; j < y->n; j++) {
		if (slot_find(x, y->s[j].ix, y->s[j].field) >= 0)
			continue;
		yv = x->dflt;
		if (v_join(c, &yv, &y->s[j].v, cond, l, widen) != 0)
			return -1;
		if (x->n == x->cap) {
			x->cap = x->cap ? 2 * x->cap : 4;
			x->s = xreallocarray(x->s, (size_t)x->cap, sizeof(*x->s));
		}
		x->s[x->n] = y->s[j];
		x->s[x->n++].v = yv;
	}
	return v_join(c, &x->dflt, &y->dflt, cond, l, widen);
}

/* Join way y into way x, which then stands for both: memories joined,
 * requests' states joined (complete on one way, pending on the other:
 * maybe), what is known kept where both know it.  -1 (x unchanged) when
 * they cannot be joined: then each goes on alone. */
static int
st_join(struct ctx *c, struct st *x, const struct st *y, const struct sym *cond,
    const struct cloc *l, int widen)
{
	struct st	*t;
	struct obj	*ox;
	int		 i, n, sx, sy;

	if (x->inited != y->inited || (!widen && x->npend != y->npend))
		return -1;
	for (i = 0; !widen && i < x->npend; i++)
		if (req_status(y, x->pend[i].site) < 0)
			return -1;
	t = st_copy(c, x);
	if (v_join(c, &t->ret, &y->ret, cond, l, widen) != 0) {
		st_free(t);
		return -1;
	}
	n = y->no > t->no ? y->no : t->no;
	for (i = 0; i < n; i++) {
		const struct obj *oy = i < y->no ? y->o[i] : NULL;

		ox = i < t->no ? t->o[i] : NULL;
		if (ox == oy)
			continue;
		if (oy == NULL)
			continue;	/* made on x's way only: kept */
		if (ox == NULL) {
			(void)obj_mut(c, t, i);
			obj_unref(t->o[i]);
			t->o[i] = (struct obj *)oy;
			t->o[i]->refs++;
			continue;
		}
		if (obj_join(c, obj_mut(c, t, i), oy, cond, l, widen) != 0) {
			st_free(t);
			return -1;
		}
	}
	for (i = 0; i < t->npend; i++) {
		const struct pend *py = req_pend((struct st *)y, t->pend[i].site);

		sx = t->pend[i].st;
		sy = py != NULL ? py->st : -1;
		if (sx != sy)
			t->pend[i].st = sy < 0 && sx == RQ_DONE ? RQ_DONE : RQ_MAYBE;
		if (py != NULL && py->fam != t->pend[i].fam) {
			if (!widen) {
				st_free(t);
				return -1;
			}
			if (!t->pend[i].fam)
				t->pend[i] = *py;
		}
	}
	for (i = 0; widen && i < y->npend; i++)
		if (req_status(t, y->pend[i].site) < 0) {
			req_set(t, y->pend[i].site, y->pend[i].st == RQ_DONE ?
			    RQ_DONE : RQ_MAYBE);
			if (y->pend[i].fam)
				*req_pend(t, y->pend[i].site) = y->pend[i];
		}
	/* What both ways know. */
	for (i = n = 0; i < t->facts.n && i < y->facts.n; i++) {
		if (t->facts.conds[i] != y->facts.conds[i] ||
		    t->facts.truth[i] != y->facts.truth[i])
			break;
		n++;
	}
	t->facts.n = n;
	/* x takes t's memory. */
	for (i = 0; i < x->no; i++)
		obj_unref(x->o[i]);
	free(x->o);
	free(x->pend);
	sym_facts_free(&x->facts);
	x->o = t->o;
	x->no = t->no;
	x->pend = t->pend;
	x->npend = t->npend;
	x->facts = t->facts;
	free(t);
	return 0;
}

/* Join every way of l into one, at position 'at': 0, or -1 when they
 * cannot be (l unchanged). */
static int
stl_join(struct ctx *c, struct stl *l, const struct sym *cond, struct bst **at,
    struct bst *last, const struct cloc *loc, int widen)
{
	struct st	*x;
	int		 i;

	if (l->n == 0)
		return -1;
	x = st_copy(c, l->v[0]);
	for (i = 1; i < l->n; i++)
		if (st_join(c, x, l->v[i], i == 1 ? cond : NULL, loc, widen) != 0) {
			st_free(x);
			return -1;
		}
	for (i = 0; i < l->n; i++)
		st_free(l->v[i]);
	l->n = 1;
	l->v[0] = x;
	x->out = at;
	x->last = last;
	return 0;
}

/* ---- errors and outcomes ---- */

void
ierr(struct ctx *c, const struct cloc *l, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	infer_error(c->r, l, "%s", msg);
	free(msg);
}

/* Whether the inference must stop: an error was said. */
static int
stopped(const struct ctx *c)
{
	return c->r->error != NULL;
}

const struct sym *
outcome(struct ctx *c, enum outk k, struct bst *b)
{
	struct outv	*o = arena_alloc(c->a, sizeof(*o));

	o->id = ++c->nvars;
	o->out = arena_alloc(c->a, sizeof(*o->out));
	o->out->k = k;
	o->out->st = b;
	o->next = c->outvs;
	c->outvs = o;
	return sym_leaf(c->a, Y_VAR, "(outcome)", o->id);
}

struct outc *
outcome_of(struct ctx *c, const struct sym *p)
{
	struct outv	*o;

	for (o = c->outvs; o != NULL; o = o->next)
		if (p->k == Y_VAR && p->v == o->id)
			return o->out;
	return NULL;
}

/* The first outcome placeholder s uses, or NULL. */
static struct outv *
uses_outcome(struct ctx *c, const struct sym *s)
{
	struct outv	*o;

	if (s == NULL)
		return NULL;
	for (o = c->outvs; o != NULL; o = o->next)
		if (sym_uses_var(s, o->id))
			return o;
	return NULL;
}

/* The statement an outcome came from, as the code calls it. */
static const char *
outcome_call(const struct outc *o)
{
	switch (o->st->k) {
	case B_TEST:		return "ens_test";
	case B_IPROBE:		return "ens_iprobe";
	case B_IPROBE_ANY:	return "ens_iprobe_any";
	case B_WAITANY:		return "ens_waitany";
	case B_WAITSOME:	return "ens_waitsome";
	case B_PROBE_ANY:	return "ens_probe_any";
	default:		return "the call";
	}
}

const struct sym *
need_int(struct ctx *c, const struct val *v, const char *what,
    const struct cloc *l)
{
	struct outv	*o;

	if (v->k != V_INT) {
		if (v->wloc.file != NULL)
			ierr(c, l, "%s is not known from the code: it comes from %s "
			    "(%s:%d)", what, why_of(v), v->wloc.file, v->wloc.line);
		else
			ierr(c, l, "%s is not known from the code: it comes from %s",
			    what, why_of(v));
		return NULL;
	}
	if ((o = uses_outcome(c, v->n)) != NULL) {
		ierr(c, l, "%s comes from what %s returned (%s:%d), which a "
		    "behaviour cannot say", what, outcome_call(o->out),
		    o->out->st->loc.file, o->out->st->loc.line);
		return NULL;
	}
	return v->n;
}

/* Replace, in every value of s, the placeholder id by r. */
static void
st_subst(struct ctx *c, struct st *s, int64_t id, const struct sym *r)
{
	struct obj	*o;
	int		 i, j, k;

	for (i = 0; i < s->no; i++) {
		if ((o = s->o[i]) == NULL)
			continue;
		k = sym_uses_var(o->dflt.n, id);
		for (j = 0; !k && j < o->n; j++)
			k = o->s[j].v.k == V_INT && sym_uses_var(o->s[j].v.n, id);
		if (!k)
			continue;
		o = obj_mut(c, s, i);
		if (o->dflt.k == V_INT)
			o->dflt.n = sym_subst(c->a, o->dflt.n, id, r);
		for (j = 0; j < o->n; j++)
			if (o->s[j].v.k == V_INT)
				o->s[j].v.n = sym_subst(c->a, o->s[j].v.n, id, r);
	}
	if (s->ret.k == V_INT)
		s->ret.n = sym_subst(c->a, s->ret.n, id, r);
}

/* ---- strings ---- */

struct spiece *
str_of(struct ctx *c, struct st *s, const struct val *v)
{
	struct val	t;

	if (v->k == V_STR)
		return v->str;
	if (v->k == V_PTR) {
		t = mem_read(c, s, v->obj, v->off, NULL);
		if (t.k == V_STR)
			return t.str;
	}
	return NULL;
}

int
str_text(struct ctx *c, struct st *s, const struct val *v, const char **text)
{
	struct spiece	*p = str_of(c, s, v);
	struct buf	 b;

	if (p == NULL)
		return 0;
	buf_init(&b);
	buf_adds(&b, "");
	for (; p != NULL; p = p->next) {
		if (p->k != SP_TEXT) {
			buf_free(&b);
			return 0;
		}
		buf_adds(&b, p->text);
	}
	*text = arena_strdup(c->a, b.s);
	buf_free(&b);
	return 1;
}

/* The pieces of x then y. */
static struct spiece *
str_cat(struct ctx *c, const struct spiece *x, const struct spiece *y)
{
	struct spiece	*h = NULL, **t = &h;

	for (; x != NULL; x = x->next) {
		*t = arena_alloc(c->a, sizeof(**t));
		**t = *x;
		(*t)->next = NULL;
		t = &(*t)->next;
	}
	for (; y != NULL; y = y->next) {
		*t = arena_alloc(c->a, sizeof(**t));
		**t = *y;
		(*t)->next = NULL;
		t = &(*t)->next;
	}
	return h;
}

/* A value as a piece of a string (Python's str(), %d, f-strings): a
 * number or a string; NULL when it is neither. */
static struct spiece *
piece_of(struct ctx *c, struct st *s, const struct val *v)
{
	struct spiece	*p;

	if (v->k == V_INT) {
		p = arena_alloc(c->a, sizeof(*p));
		p->k = SP_NUM;
		p->n = v->n;
		return p;
	}
	return str_of(c, s, v);
}

struct val
format_call(struct ctx *c, struct st *s, const char *fmt, const struct val *args,
    int nargs, const struct cloc *l)
{
	struct spiece	*h = NULL, *p;
	struct buf	 b;
	const char	*q;
	int		 k = 0;

	buf_init(&b);
	for (q = fmt; *q != '\0'; q++) {
		if (*q != '%') {
			buf_addc(&b, *q);
			continue;
		}
		if (q[1] == '%') {
			buf_addc(&b, '%');
			q++;
			continue;
		}
		q++;
		while (*q == 'l' || *q == 'h' || *q == 'z' || *q == 'j')
			q++;
		if ((*q != 'd' && *q != 'i' && *q != 's' && *q != 'u') ||
		    k >= nargs || (p = piece_of(c, s, &args[k])) == NULL) {
			buf_free(&b);
			return v_top("a string formatted from what the code "
			    "does not follow", l);
		}
		k++;
		if (b.len > 0) {
			struct spiece	*t = arena_alloc(c->a, sizeof(*t));

			t->k = SP_TEXT;
			t->text = arena_strdup(c->a, b.s);
			h = str_cat(c, h, t);
			buf_reset(&b);
		}
		h = str_cat(c, h, p);
	}
	if (b.len > 0 || h == NULL) {
		struct spiece	*t = arena_alloc(c->a, sizeof(*t));

		t->k = SP_TEXT;
		t->text = arena_strdup(c->a, b.len > 0 ? b.s : "");
		h = str_cat(c, h, t);
	}
	buf_free(&b);
	{
		struct val	v = v_kind(V_STR);

		v.str = h;
		return v;
	}
}

/* ---- expressions ---- */

/* Whether n has side effects: an assignment, or a call of anything but
 * what only reads. */
static int
impure(const struct cnode *n)
{
	const struct cnode	*k;

	if (n == NULL)
		return 0;
	if (n->k == X_ASSIGN || n->k == X_INCDEC || n->k == X_CALL)
		return 1;
	for (k = n->list; k != NULL; k = k->next)
		if (impure(k))
			return 1;
	return impure(n->a) || impure(n->b) || impure(n->c);
}

/* Where an lvalue is: object, element or field.  0, or -1 when it is
 * nowhere the interpreter knows (then what it writes makes every value
 * unknown: may_havoc). */
static int
lval(struct ctx *c, struct st **sp, const struct cnode *e, int *obj,
    const struct sym **ix, const char **field)
{
	struct val	base, i;

	*ix = NULL;
	*field = NULL;
	switch (e->k) {
	case X_VAR:
		*obj = obj_id(c, e->op & VAR_GLOBAL ? 0 : inst_here(c), e->key);
		return 0;
	case X_INDEX:
		if (eval(c, sp, e->a, &base) != 0 || eval(c, sp, e->b, &i) != 0)
			return -1;
		if (base.k != V_PTR)
			return -1;
		*obj = base.obj;
		*ix = i.k == V_INT ? sym_bin(c->a, '+', base.off, i.n) :
		    sym_leaf(c->a, Y_PARAM, "(an index not known)", 0);
		return 0;
	case X_MEMBER:
		if (eval(c, sp, e->a, &base) != 0 || base.k != V_PTR)
			return -1;
		*obj = base.obj;
		*field = e->s;
		return 0;
	case X_UNARY:
		if (e->op != '*' || eval(c, sp, e->a, &base) != 0 ||
		    base.k != V_PTR)
			return -1;
		*obj = base.obj;
		*ix = base.off;
		return 0;
	default:
		return -1;
	}
}

/* What a write to a place the interpreter does not know leaves: every
 * value it may reach unknown but requests (C: what has its address
 * taken, arrays, the heap; Python: lists, a name being no place). */
static void
may_havoc(struct ctx *c, struct st *s, const struct cloc *l)
{
	struct obj	*o;
	int		 i;

	for (i = 0; i < s->no; i++)
		if ((o = s->o[i]) != NULL && (o->list || (c->p->lang != LANG_PYTHON &&
		    (o->esc || o->arr))))
			mem_havoc(c, s, i, "memory written through a pointer not "
			    "followed", l);
}

/* Write v to lvalue e. */
static int
assign(struct ctx *c, struct st **sp, const struct cnode *e, struct val v)
{
	const struct sym	*ix;
	const char		*field;
	const struct cnode	*t;
	struct obj		*o;
	struct val		 x;
	int			 obj, k;

	if (e->k == X_LIST) {
		/* Python's a, b = x, y: the values were evaluated first. */
		for (t = e->list, k = 0; t != NULL; t = t->next, k++) {
			if (v.k == V_PTR)
				x = mem_read(c, *sp, v.obj, sym_bin(c->a, '+', v.off,
				    sym_int(c->a, k)), NULL);
			else
				x = v_top("an element of a value not followed",
				    &e->loc);
			if (assign(c, sp, t, x) != 0)
				return -1;
		}
		return 0;
	}
	if (lval(c, sp, e, &obj, &ix, &field) != 0) {
		if (*sp == NULL)
			return -1;
		may_havoc(c, *sp, &e->loc);
		return 0;
	}
	/* A request's name, from the variable it is kept in first. */
	if (v.k == V_REQ && e->k == X_VAR) {
		struct breq	*q = site_req(c, v.req->site[0]);

		if (!q->named_by_var && e->s != NULL && e->s[0] != '(') {
			q->base = e->s;
			q->named_by_var = 1;
		}
	}
	o = obj_of(c, *sp, obj);
	if (o != NULL && o->arr && ix == NULL && field == NULL) {
		/* An array assigned whole (Python rebinds a name). */
		o = obj_mut(c, *sp, obj);
		o->arr = 0;
	}
	mem_write(c, *sp, obj, ix, field, v);
	return 0;
}

/* The value of a variable. */
static struct val
read_var(struct ctx *c, struct st *s, const struct cnode *e)
{
	struct obj	*o;
	struct val	 v;
	int		 id;

	id = obj_id(c, e->op & VAR_GLOBAL ? 0 : inst_here(c), e->key);
	o = obj_of(c, s, id);
	if (o == NULL) {
		if (c->p->lang == LANG_PYTHON && strcmp(e->s, "__name__") == 0)
			return v_str(c, "__main__");
		if (e->op & VAR_GLOBAL && c->p->lang != LANG_PYTHON)
			return v_int(c, 0);	/* static storage */
		v = v_top(NULL, &e->loc);
		v.why = arena_asprintf(c->a, "'%s', never set here", e->s);
		return v;
	}
	if (o->arr || o->list || o->argv) {
		v = v_kind(V_PTR);
		v.obj = id;
		v.off = sym_int(c->a, 0);
		return v;
	}
	v = mem_read(c, s, id, NULL, NULL);
	if (v.k == V_TOP && v.why != NULL &&
	    strcmp(v.why, "a value never set") == 0) {
		v = v_top(NULL, &e->loc);
		v.why = arena_asprintf(c->a, "the value of '%s'", e->s);
	}
	return v;
}

/* An element of an object (argv's are the process's arguments). */
static struct val
read_elem(struct ctx *c, struct st *s, const struct val *base,
    const struct sym *ix, const struct cloc *l)
{
	struct obj	*o = obj_of(c, s, base->obj);
	int64_t		 k;

	if (o != NULL && o->argv) {
		if (!sym_const(ix, &k) || k < 1)
			return v_top(sym_const(ix, &k) && k == 0 ?
			    "the program's name" : "an argument at an index not "
			    "known", l);
		return v_piece(c, SP_ARG, sym_leaf(c->a, Y_ARG, NULL, k));
	}
	return mem_read(c, s, base->obj, ix, NULL);
}

struct val
number_of(struct ctx *c, struct st *s, const struct val *v, const struct cloc *l)
{
	struct spiece	*p = str_of(c, s, v);
	int64_t		 k;
	char		*end;

	if (v->k == V_INT)
		return *v;
	if (p != NULL && p->next == NULL && p->k != SP_TEXT && p->k != SP_SELF)
		return v_sym(p->n);
	if (p != NULL && p->next == NULL && p->k == SP_TEXT) {
		k = strtoll(p->text, &end, 10);
		if (*end == '\0' && end != p->text)
			return v_int(c, k);
	}
	return v_top("a number read from a string the code makes", l);
}

static int eval_call(struct ctx *, struct st **, const struct cnode *,
    struct val *);

/* A binary operator on values. */
static struct val
binop(struct ctx *c, struct st *s, int op, struct val x, struct val y,
    const struct cloc *l)
{
	struct val	 r;
	struct spiece	*p;
	const char	*fmt;
	int64_t		 u, v;
	int		 sop;

	/* Pointers: arithmetic, and the comparison with NULL. */
	if (x.k == V_PTR && y.k == V_INT && (op == '+' || op == '-')) {
		x.off = sym_bin(c->a, op, x.off, y.n);
		return x;
	}
	if ((op == CN_EQ || op == CN_NE) && (x.k == V_NULL || y.k == V_NULL ||
	    (x.k == V_INT && sym_const(x.n, &u) && u == 0) ||
	    (y.k == V_INT && sym_const(y.n, &v) && v == 0))) {
		struct val *o = x.k == V_NULL || x.k == V_INT ? &y : &x;

		if (o->k == V_PTR || o->k == V_STR || o->k == V_FUNC ||
		    o->k == V_SELF)
			return v_int(c, op == CN_NE);
		if (o->k == V_NULL)
			return v_int(c, op == CN_EQ);
	}
	/* Strings: Python's + and %, and == of two known ones. */
	if (x.k == V_STR || (x.k == V_PTR && str_of(c, s, &x) != NULL)) {
		if (op == '+' && (p = str_of(c, s, &y)) != NULL) {
			r = v_kind(V_STR);
			r.str = str_cat(c, str_of(c, s, &x), p);
			return r;
		}
		if ((op == '%' || op == CN_FLOORMOD) && str_text(c, s, &x, &fmt)) {
			if (y.k == V_PTR && obj_of(c, s, y.obj) != NULL &&
			    obj_of(c, s, y.obj)->list) {
				struct val	a[8];
				struct obj	*o = obj_of(c, s, y.obj);
				int		 n = 0;
				int64_t		 len;

				if (o->len == NULL || !sym_const(o->len, &len) ||
				    len > 8)
					return v_top("a string formatted from "
					    "what the code does not follow", l);
				for (n = 0; n < len; n++)
					a[n] = mem_read(c, s, y.obj,
					    sym_int(c->a, n), NULL);
				return format_call(c, s, fmt, a, n, l);
			}
			return format_call(c, s, fmt, &y, 1, l);
		}
		if ((op == CN_EQ || op == CN_NE)) {
			const char	*a, *b;

			if (str_text(c, s, &x, &a) && str_text(c, s, &y, &b))
				return v_int(c, (strcmp(a, b) == 0) == (op == CN_EQ));
		}
		return v_top("a string compared or combined", l);
	}
	if (x.k != V_INT || y.k != V_INT) {
		if (x.k == V_TOP)
			return x;
		if (y.k == V_TOP)
			return y;
		return v_top("an operation on values not numbers", l);
	}
	switch (op) {
	case CN_EQ:	sop = SYM_EQ; break;
	case CN_NE:	sop = SYM_NE; break;
	case CN_LE:	sop = SYM_LE; break;
	case CN_GE:	sop = SYM_GE; break;
	case CN_AND:	sop = SYM_AND; break;
	case CN_OR:	sop = SYM_OR; break;
	case CN_FLOORDIV:
		return v_sym(sym_floordiv(c->a, x.n, y.n));
	case CN_FLOORMOD:
		return v_sym(sym_floormod(c->a, x.n, y.n));
	case '+': case '-': case '*': case '/': case '%': case '<': case '>':
		sop = op;
		break;
	default:
		/* Bits, shifts, powers: of constants only. */
		if (sym_const(x.n, &u) && sym_const(y.n, &v)) {
			switch (op) {
			case '&':	return v_int(c, u & v);
			case '|':	return v_int(c, u | v);
			case '^':	return v_int(c, u ^ v);
			case CN_SHL:
				if (v >= 0 && v < 62 && u >= 0 && u < (1LL << (62 - v)))
					return v_int(c, u << v);
				break;
			case CN_SHR:
				if (v >= 0 && v < 63)
					return v_int(c, u >> v);
				break;
			case CN_POW:
				if (v >= 0 && v < 63) {
					int64_t p2 = 1;
					int	 i, ok = 1;

					for (i = 0; i < v && ok; i++)
						ok = !__builtin_mul_overflow(p2, u, &p2);
					if (ok)
						return v_int(c, p2);
				}
				break;
			}
		}
		return v_top("an operation the behaviour language has not "
		    "(bits, shifts, powers)", l);
	}
	if ((sop == '/' || sop == '%') && sym_const(y.n, &v) && v == 0)
		return v_top("a division by zero", l);
	return v_sym(sym_bin(c->a, sop, x.n, y.n));
}

/* Evaluate e on the way *sp into *out: 0, or -1 when the way ended
 * there (a call that failed or ended it: *sp NULL) or an error stopped
 * the inference. */
static int
eval(struct ctx *c, struct st **sp, const struct cnode *e, struct val *out)
{
	const struct sym	*ix;
	const struct cnode	*k;
	const char		*field;
	struct val		 x, y, z;
	struct obj		*o;
	int			 obj, n, d;

	if (stopped(c))
		return -1;
	switch (e->k) {
	case X_INT:
		*out = v_int(c, e->i);
		return 0;
	case X_FLOAT:
		*out = v_top("a floating-point number", &e->loc);
		return 0;
	case X_STR:
		*out = v_str(c, e->s);
		return 0;
	case X_NULL:
		*out = v_kind(V_NULL);
		return 0;
	case X_VAR:
		*out = read_var(c, *sp, e);
		return 0;
	case X_FUNC:
		*out = v_kind(V_FUNC);
		out->fn = e->key != NULL ? e->key : e->s;
		return 0;
	case X_UNKNOWN:
		*out = v_top(e->s, &e->loc);
		return 0;
	case X_MEMBER:
		if (eval(c, sp, e->a, &x) != 0)
			return -1;
		if (x.k == V_SELF) {
			if (strcmp(e->s, "index") == 0)
				*out = v_sym(sym_leaf(c->a, Y_INDEX, NULL, 0));
			else if (strcmp(e->s, "name") == 0)
				*out = v_piece(c, SP_SELF, NULL);
			else {
				*out = v_top(NULL, &e->loc);
				out->why = arena_asprintf(c->a,
				    "the process's %s", e->s);
			}
			return 0;
		}
		if (x.k == V_PTR) {
			*out = mem_read(c, *sp, x.obj, NULL, e->s);
			return 0;
		}
		*out = v_top(NULL, &e->loc);
		out->why = arena_asprintf(c->a, "the value of '%s'", e->s);
		return 0;
	case X_INDEX:
		if (eval(c, sp, e->a, &x) != 0 || eval(c, sp, e->b, &y) != 0)
			return -1;
		if (x.k != V_PTR) {
			*out = x.k == V_TOP ? x : v_top("an element of a value "
			    "not followed", &e->loc);
			return 0;
		}
		if (y.k != V_INT) {
			*out = v_top("an element at an index not known", &e->loc);
			return 0;
		}
		*out = read_elem(c, *sp, &x, sym_bin(c->a, '+', x.off, y.n),
		    &e->loc);
		return 0;
	case X_CALL:
		return eval_call(c, sp, e, out);
	case X_UNARY:
		if (e->op == '&') {
			if (e->a->k == X_FUNC)
				return eval(c, sp, e->a, out);
			if (lval(c, sp, e->a, &obj, &ix, &field) != 0) {
				if (*sp == NULL)
					return -1;
				*out = v_top("an address not followed", &e->loc);
				return 0;
			}
			*out = v_kind(V_PTR);
			out->obj = obj;
			out->off = ix != NULL ? ix : sym_int(c->a, 0);
			if (obj_of(c, *sp, obj) == NULL || !obj_of(c, *sp, obj)->esc)
				obj_mut(c, *sp, obj)->esc = 1;
			if (field != NULL)	/* (&s.f: its own object) */
				*out = v_top("the address of a field", &e->loc);
			return 0;
		}
		if (eval(c, sp, e->a, &x) != 0)
			return -1;
		if (e->op == '*') {
			*out = x.k == V_PTR ? read_elem(c, *sp, &x, x.off, &e->loc) :
			    x.k == V_FUNC ? x : v_top("what a pointer not followed "
			    "points to", &e->loc);
			return 0;
		}
		if (e->op == '+') {
			*out = x;
			return 0;
		}
		if (x.k != V_INT) {
			if (e->op == '!' && (x.k == V_PTR || x.k == V_STR ||
			    x.k == V_FUNC || x.k == V_SELF))
				*out = v_int(c, 0);
			else if (e->op == '!' && x.k == V_NULL)
				*out = v_int(c, 1);
			else
				*out = x.k == V_TOP ? x : v_top("an operation on a "
				    "value not a number", &e->loc);
			return 0;
		}
		if (e->op == '~') {
			int64_t	u;

			*out = sym_const(x.n, &u) ? v_int(c, ~u) :
			    v_top("a bitwise operation", &e->loc);
			return 0;
		}
		*out = v_sym(sym_un(c->a, e->op, x.n));
		return 0;
	case X_INCDEC:
		if (eval(c, sp, e->a, &x) != 0)
			return -1;
		y = x.k == V_INT ? v_sym(sym_bin(c->a, e->op, x.n,
		    sym_int(c->a, 1))) : x.k == V_PTR ? binop(c, *sp, e->op, x,
		    v_int(c, 1), &e->loc) : x;
		if (assign(c, sp, e->a, y) != 0)
			return -1;
		*out = e->i ? x : y;
		return 0;
	case X_BINARY:
		if (e->op == CN_AND || e->op == CN_OR) {
			if (eval(c, sp, e->a, &x) != 0)
				return -1;
			d = x.k == V_INT ? sym_decide(&(*sp)->facts,
			    sym_truth(c->a, x.n)) : x.k == V_PTR ||
			    x.k == V_STR || x.k == V_SELF ? 1 : x.k == V_NULL ?
			    0 : -1;
			if (d == (e->op == CN_OR)) {
				*out = v_int(c, d);
				return 0;
			}
			if (d < 0 && impure(e->b) && may_comm(c, e->b)) {
				ierr(c, &e->b->loc, "a call that communicates on "
				    "the right of '%s', outside a condition: write "
				    "it as an 'if'", e->op == CN_AND ? "&&" : "||");
				return -1;
			}
			if (eval(c, sp, e->b, &y) != 0)
				return -1;
			if (d >= 0) {
				*out = y.k == V_INT ? v_sym(sym_truth(c->a, y.n)) : y;
				return 0;
			}
			if (x.k != V_INT)
				x = v_top(why_of(&x), &x.wloc);
			*out = binop(c, *sp, e->op, x, y.k == V_INT ?
			    v_sym(sym_truth(c->a, y.n)) : y, &e->loc);
			return 0;
		}
		if (eval(c, sp, e->a, &x) != 0 || eval(c, sp, e->b, &y) != 0)
			return -1;
		*out = binop(c, *sp, e->op, x, y, &e->loc);
		return 0;
	case X_ASSIGN:
		if (e->op == 0) {
			if (eval(c, sp, e->b, &y) != 0)
				return -1;
		} else {
			if (eval(c, sp, e->a, &x) != 0 || eval(c, sp, e->b, &z) != 0)
				return -1;
			y = binop(c, *sp, e->op, x, z, &e->loc);
		}
		if (assign(c, sp, e->a, y) != 0)
			return -1;
		*out = y;
		return 0;
	case X_COND:
		if (eval(c, sp, e->a, &x) != 0)
			return -1;
		d = x.k == V_INT ? sym_decide(&(*sp)->facts, sym_truth(c->a,
		    x.n)) : x.k == V_NULL ? 0 : x.k == V_TOP ? -1 : 1;
		if (d >= 0)
			return eval(c, sp, d ? e->b : e->c, out);
		if (impure(e->b) || impure(e->c)) {
			if (may_comm(c, e->b) || may_comm(c, e->c)) {
				ierr(c, &e->loc, "a call that communicates in one "
				    "way of '?:': write it as an 'if'");
				return -1;
			}
		}
		if (eval(c, sp, e->b, &y) != 0 || eval(c, sp, e->c, &z) != 0)
			return -1;
		if (v_join(c, &y, &z, x.k == V_INT ? sym_truth(c->a, x.n) : NULL,
		    &e->loc, 0) != 0)
			y = v_top("a value that differs by the way", &e->loc);
		*out = y;
		return 0;
	case X_LIST:
		/* A list, tuple or initializer: an object of its own. */
		{
			char	*key;

			xasprintf(&key, "[]@%d:%d", e->loc.line, e->loc.col);
			obj = obj_id(c, inst_here(c), arena_strdup(c->a, key));
			free(key);
		}
		if (obj < (*sp)->no && (*sp)->o[obj] != NULL) {
			obj_unref((*sp)->o[obj]);
			(*sp)->o[obj] = NULL;
		}
		o = obj_mut(c, *sp, obj);
		o->list = 1;
		o->dflt = v_top("an element past a list's end", &e->loc);
		for (k = e->list, n = 0; k != NULL; k = k->next, n++) {
			if (eval(c, sp, k, &x) != 0)
				return -1;
			mem_write(c, *sp, obj, sym_int(c->a, n), NULL, x);
		}
		obj_mut(c, *sp, obj)->len = sym_int(c->a, n);
		*out = v_kind(V_PTR);
		out->obj = obj;
		out->off = sym_int(c->a, 0);
		return 0;
	case X_FSTR:
		{
			struct spiece	*h = NULL, *p;

			for (k = e->list; k != NULL; k = k->next) {
				if (eval(c, sp, k, &x) != 0)
					return -1;
				if ((p = piece_of(c, *sp, &x)) == NULL) {
					*out = v_top("a string formatted from what "
					    "the code does not follow", &e->loc);
					return 0;
				}
				h = str_cat(c, h, p);
			}
			*out = v_kind(V_STR);
			out->str = h;
			if (h == NULL)
				*out = v_str(c, "");
		}
		return 0;
	default:
		ierr(c, &e->loc, "an expression the inference does not read");
		return -1;
	}
}

/* ---- what communicates ---- */

static int may_comm_func(struct ctx *, const struct cfunc *);

/* Whether n may communicate (or end the process as ens_finalize does):
 * a call of the port interface, of a function of the program that may,
 * or through a pointer while such a function's address is taken. */
static int
may_comm(struct ctx *c, const struct cnode *n)
{
	const struct cnode	*k;
	const struct cfunc	*f;

	if (n == NULL)
		return 0;
	if (n->k == X_CALL) {
		if (n->a->k == X_FUNC) {
			if ((f = code_func(c->p, n->a->key != NULL ? n->a->key :
			    n->a->s)) != NULL && f->body != NULL) {
				if (may_comm_func(c, f))
					return 1;
			} else if (api_communicates(c->p, n->a->s))
				return 1;
		} else if (n->a->k == X_MEMBER) {
			if (strcmp(n->a->s, "wait") == 0)
				return 1;	/* Python's Request.wait() */
		} else if (c->fptr_comm)
			return 1;
	}
	for (k = n->list; k != NULL; k = k->next)
		if (may_comm(c, k))
			return 1;
	return may_comm(c, n->a) || may_comm(c, n->b) || may_comm(c, n->c) ||
	    may_comm(c, n->d);
}

static int
may_comm_func(struct ctx *c, const struct cfunc *f)
{
	int	v, old;

	if ((v = hmap_get(c->commf, (uint64_t)(uintptr_t)f, 0)) >= 0)
		return v == 1;	/* (2: being looked at: recursion, 0 so far) */
	hmap_put(c->commf, (uint64_t)(uintptr_t)f, 0, 2, &old);
	v = may_comm(c, f->body);
	hmap_set(c->commf, (uint64_t)(uintptr_t)f, 0, v);
	return v;
}

/* Whether a function of the program that may communicate has its
 * address taken (a name not called): then a call through a pointer may
 * reach it. */
static void
find_fptrs(struct ctx *c, const struct cnode *n, int callee)
{
	const struct cnode	*k;
	const struct cfunc	*f;

	if (n == NULL || c->fptr_comm)
		return;
	if (n->k == X_FUNC && !callee && (((f = code_func(c->p, n->key != NULL ?
	    n->key : n->s)) != NULL && f->body != NULL && may_comm_func(c, f)) ||
	    api_communicates(c->p, n->s)))
		c->fptr_comm = 1;
	if (n->k == X_CALL) {
		find_fptrs(c, n->a, 1);
		for (k = n->list; k != NULL; k = k->next)
			find_fptrs(c, k, 0);
		return;
	}
	for (k = n->list; k != NULL; k = k->next)
		find_fptrs(c, k, 0);
	find_fptrs(c, n->a, 0);
	find_fptrs(c, n->b, 0);
	find_fptrs(c, n->c, 0);
	find_fptrs(c, n->d, 0);
}

/* ---- statements ---- */

static void
exec_list(struct ctx *c, const struct cnode *n, struct st *s, struct stl *out)
{
	struct stl	cur, next;
	int		i;

	memset(&cur, 0, sizeof(cur));
	stl_add(&cur, s);
	for (; n != NULL && cur.n > 0; n = n->next) {
		memset(&next, 0, sizeof(next));
		for (i = 0; i < cur.n; i++)
			exec(c, n, cur.v[i], &next);
		free(cur.v);
		cur = next;
	}
	for (i = 0; i < cur.n; i++)
		stl_add(out, cur.v[i]);
	free(cur.v);
}

/* An expression statement; a call (or an assignment of one) may leave
 * by several ways. */
static void
exec_expr(struct ctx *c, const struct cnode *e, struct st *s, struct stl *out)
{
	struct stl	r;
	struct st	*w;
	struct val	v;
	int		i;

	if (e->k == X_CALL) {
		call_multi(c, s, e, out);
		return;
	}
	if (e->k == X_ASSIGN && e->op == 0 && e->b->k == X_CALL) {
		memset(&r, 0, sizeof(r));
		call_multi(c, s, e->b, &r);
		for (i = 0; i < r.n; i++) {
			w = r.v[i];
			if (assign(c, &w, e->a, w->ret) == 0)
				stl_add(out, w);
			else
				st_free(w);
		}
		free(r.v);
		return;
	}
	if (eval(c, &s, e, &v) == 0)
		stl_add(out, s);
	else
		st_free(s);
}

static void
exec_decl(struct ctx *c, const struct cnode *n, struct st *s, struct stl *out)
{
	const struct cnode	*k;
	struct obj		*o;
	struct stl		 r;
	struct val		 v;
	int			 id, i, glob = n->op & DECL_STATIC && n->op & DECL_ARRAY ?
				    0 : (n->op & DECL_STATIC);

	(void)glob;
	id = obj_id(c, n->op & DECL_STATIC ? 0 : inst_here(c), n->key);
	if (n->op & DECL_STATIC && obj_of(c, s, id) != NULL) {
		stl_add(out, s);	/* a static's initial value: once */
		return;
	}
	if (id < s->no && s->o[id] != NULL) {
		obj_unref(s->o[id]);
		s->o[id] = NULL;
	}
	o = obj_mut(c, s, id);
	o->arr = (n->op & DECL_ARRAY) != 0;
	if (n->op & DECL_LIST) {
		o->list = 1;
		o->len = sym_int(c->a, 0);
	} else if (o->arr && n->b != NULL && n->b->k == X_INT) {
		o->list = 1;	/* (its length, for C++'s waitall of it) */
		o->len = sym_int(c->a, n->b->i);
	}
	if (n->op & DECL_STATIC)
		o->dflt = v_int(c, 0);
	else {
		o->dflt = v_top(NULL, &n->loc);
		o->dflt.why = arena_asprintf(c->a, "'%s' before it is set", n->s);
	}
	if (n->op & DECL_SESSION)
		s->inited = 2;
	if (n->a == NULL) {
		stl_add(out, s);
		return;
	}
	if (n->a->k == X_LIST && o->arr) {
		for (k = n->a->list, i = 0; k != NULL; k = k->next, i++) {
			if (eval(c, &s, k, &v) != 0) {
				st_free(s);
				return;
			}
			mem_write(c, s, id, sym_int(c->a, i), NULL, v);
		}
		if (n->op & DECL_STATIC || i > 0)
			obj_mut(c, s, id)->dflt = v_int(c, 0);
		stl_add(out, s);
		return;
	}
	if (n->a->k == X_CALL) {
		memset(&r, 0, sizeof(r));
		call_multi(c, s, n->a, &r);
		for (i = 0; i < r.n; i++) {
			mem_write(c, r.v[i], id, NULL, NULL, r.v[i]->ret);
			stl_add(out, r.v[i]);
		}
		free(r.v);
		return;
	}
	if (eval(c, &s, n->a, &v) != 0) {
		st_free(s);
		return;
	}
	if (v.k == V_PTR && o->arr) {
		/* char s[] = "...": the string is the array's */
		o = obj_mut(c, s, id);
		o->arr = 1;
	}
	mem_write(c, s, id, NULL, NULL, v);
	stl_add(out, s);
}

/* The truth of a condition's value: a sym, or NULL when the data
 * decides it. */
static const struct sym *
truth_of(struct ctx *c, const struct val *v)
{
	switch (v->k) {
	case V_INT:
		return sym_truth(c->a, v->n);
	case V_PTR:
	case V_STR:
	case V_FUNC:
	case V_SELF:
	case V_MOD:
		return sym_int(c->a, 1);
	case V_NULL:
		return sym_int(c->a, 0);
	default:
		return NULL;
	}
}

/* The two ways of statement n (an if: n->b then, n->c else, either
 * NULL for nothing) from s, on condition t (NULL: the data decides). */
static void
branch_on(struct ctx *c, const struct cnode *n, struct st *s,
    const struct sym *t, struct stl *out)
{
	struct bst	**pos = s->out, **h1, **h2, **live, *N, *prev = s->last;
	struct bbranch	*b1, *b2;
	struct stl	 la, lb, tmp;
	struct st	*A, *B;
	long		 e0, e1, e2;
	int		 i;

	N = emit(c, s, t != NULL ? B_IF : B_CHOICE, &n->loc);
	if (t != NULL) {
		N->cond = t;
		h1 = &N->body;
		h2 = &N->orelse;
	} else {
		N->why = n->s;
		b1 = arena_alloc(c->a, sizeof(*b1));
		b2 = arena_alloc(c->a, sizeof(*b2));
		N->branches = b1;
		b1->next = b2;
		h1 = &b1->body;
		h2 = &b2->body;
	}
	A = st_copy(c, s);
	A->out = h1;
	A->last = NULL;
	B = s;
	B->out = h2;
	B->last = NULL;
	if (t != NULL) {
		sym_assume(&A->facts, t, 1);
		sym_assume(&B->facts, t, 0);
	}
	memset(&la, 0, sizeof(la));
	memset(&lb, 0, sizeof(lb));
	e0 = c->escapes;
	if (n->b != NULL)
		exec(c, n->b, A, &la);
	else
		stl_add(&la, A);
	e1 = c->escapes;
	if (n->c != NULL)
		exec(c, n->c, B, &lb);
	else
		stl_add(&lb, B);
	e2 = c->escapes;
	if (stopped(c)) {
		stl_free(&la);
		stl_free(&lb);
		return;
	}
	if ((la.n == 0 && e1 == e0) || (lb.n == 0 && e2 == e1)) {
		/* One way fails (exit, an exception): the other stands for
		 * the statement. */
		live = la.n == 0 && e1 == e0 ? h2 : h1;
		*pos = *live;
		for (i = 0; i < la.n; i++)
			if (la.v[i]->out == live)
				la.v[i]->out = pos;
		for (i = 0; i < lb.n; i++)
			if (lb.v[i]->out == live)
				lb.v[i]->out = pos;
		for (i = 0; i < la.n; i++)
			stl_add(out, la.v[i]);
		for (i = 0; i < lb.n; i++)
			stl_add(out, lb.v[i]);
		free(la.v);
		free(lb.v);
		return;
	}
	if (e2 == e0 && la.n == 1 && lb.n == 1) {
		memset(&tmp, 0, sizeof(tmp));
		stl_add(&tmp, la.v[0]);
		stl_add(&tmp, lb.v[0]);
		if (stl_join(c, &tmp, t, &N->next, N, &n->loc, 0) == 0) {
			if (*h1 == NULL && *h2 == NULL) {
				/* Nothing communicates in either way. */
				*pos = NULL;
				tmp.v[0]->out = pos;
				tmp.v[0]->last = prev;
			}
			stl_add(out, tmp.v[0]);
			free(tmp.v);
			free(la.v);
			free(lb.v);
			return;
		}
		free(tmp.v);
	}
	for (i = 0; i < la.n; i++)
		stl_add(out, la.v[i]);
	for (i = 0; i < lb.n; i++)
		stl_add(out, lb.v[i]);
	free(la.v);
	free(lb.v);
}

static void exec_truth(struct ctx *, const struct cnode *, struct st *,
    const struct sym *, struct stl *);

/* Statement n (an if) whose condition t reads the outcome of the
 * statement written last: run it once for each outcome, in that
 * outcome's block of the statement. */
static void
resolve(struct ctx *c, const struct cnode *n, struct st *s,
    const struct sym *t, struct outv *ov, struct stl *out)
{
	struct outc	*o = ov->out;
	struct bst	*W = o->st, **heads[64];
	struct bbranch	*br;
	struct stl	 all;
	struct st	*w;
	int64_t		 vals[64];
	long		 e0;
	int		 nw = 0, i, done[64];

	if (s->last != W || s->out != &W->next) {
		ierr(c, &n->loc, "what %s returned (%s:%d) decides this, after "
		    "other communication: a behaviour takes the blocks of a '%s' "
		    "at once", outcome_call(o), W->loc.file, W->loc.line,
		    W->k == B_TEST ? "test" : W->k == B_WAITANY ? "waitany" :
		    W->k == B_WAITSOME ? "waitsome" : "iprobe");
		st_free(s);
		return;
	}
	switch (o->k) {
	case O_FLAG:
		heads[0] = &W->body;
		vals[0] = 1;
		done[0] = W->k == B_TEST;
		heads[1] = &W->orelse;
		vals[1] = 0;
		done[1] = 0;
		nw = 2;
		break;
	case O_ANY:
		for (br = W->branches; br != NULL && nw < 64; br = br->next) {
			heads[nw] = &br->body;
			vals[nw] = nw;
			done[nw] = 1;
			nw++;
		}
		break;
	default:
		ierr(c, &n->loc, "what %s returned (%s:%d) decides this: not "
		    "followed", outcome_call(o), W->loc.file, W->loc.line);
		st_free(s);
		return;
	}
	memset(&all, 0, sizeof(all));
	e0 = c->escapes;
	for (i = 0; i < nw; i++) {
		w = i + 1 < nw ? st_copy(c, s) : s;
		st_subst(c, w, ov->id, o->k == O_FLAG && o->portval && vals[i] ?
		    o->port : sym_int(c->a, vals[i]));
		w->out = heads[i];
		w->last = NULL;
		if (done[i]) {
			const struct reqs *rs = o->rs[o->k == O_ANY ? i : 0];
			int		   j;

			for (j = 0; j < rs->n; j++)
				req_set(w, rs->site[j], RQ_DONE);
		}
		exec_truth(c, n, w, sym_subst(c->a, t, ov->id,
		    sym_int(c->a, vals[i])), &all);
	}
	if (stopped(c)) {
		stl_free(&all);
		return;
	}
	if (c->escapes == e0 && all.n > 1)
		(void)stl_join(c, &all, NULL, &W->next, W, &n->loc, 0);
	else if (c->escapes == e0 && all.n == 1 && all.v[0]->out != &W->next) {
		/* every other way failed: it goes on where it is */
	}
	for (i = 0; i < all.n; i++)
		stl_add(out, all.v[i]);
	free(all.v);
}

/* An if whose condition has been read as t (NULL: data). */
static void
exec_truth(struct ctx *c, const struct cnode *n, struct st *s,
    const struct sym *t, struct stl *out)
{
	struct outv	*ov;
	int		 d;

	if (t != NULL && (ov = uses_outcome(c, t)) != NULL) {
		resolve(c, n, s, t, ov, out);
		return;
	}
	if (t != NULL && (d = sym_decide(&s->facts, t)) >= 0) {
		if (d ? n->b != NULL : n->c != NULL)
			exec(c, d ? n->b : n->c, s, out);
		else
			stl_add(out, s);
		return;
	}
	branch_on(c, n, s, t, out);
}

/* a && b, a || b, !(...) whose right side does something: ifs of their
 * own, so that it runs only where C and Python run it.  Made once. */
static const struct cnode *
lowered(struct ctx *c, const struct cnode *n)
{
	const struct cnode	*cond = n->a;
	struct cnode		*in, *out, *empty;

	if (n->d != NULL)
		return n->d;
	empty = code_node(c->p, K_BLOCK, &n->loc);
	if (cond->k == X_UNARY) {
		out = code_node(c->p, K_IF, &n->loc);
		out->a = cond->a;
		out->b = n->c != NULL ? n->c : empty;
		out->c = n->b;
		out->s = n->s;
	} else {
		in = code_node(c->p, K_IF, &cond->b->loc);
		in->a = cond->b;
		in->b = n->b;
		in->c = n->c;
		in->s = n->s;
		out = code_node(c->p, K_IF, &n->loc);
		out->a = cond->a;
		out->s = n->s;
		if (cond->op == CN_AND) {
			out->b = in;
			out->c = n->c;
		} else {
			out->b = n->b;
			out->c = in;
		}
	}
	((struct cnode *)n)->d = out;
	return out;
}

static int
short_circuit(const struct cnode *cond)
{
	if (cond->k == X_UNARY && cond->op == '!')
		return short_circuit(cond->a);
	return cond->k == X_BINARY && (cond->op == CN_AND || cond->op == CN_OR) &&
	    impure(cond->b);
}

static void
exec_if(struct ctx *c, const struct cnode *n, struct st *s, struct stl *out)
{
	struct val	v;

	if (short_circuit(n->a)) {
		exec(c, lowered(c, n), s, out);
		return;
	}
	if (eval(c, &s, n->a, &v) != 0) {
		st_free(s);
		return;
	}
	exec_truth(c, n, s, truth_of(c, &v), out);
}

/* ---- loops ---- */

/* What a loop may change: variables it sets (keys; global or of this
 * frame), variables whose pointee it may write, and whether it writes
 * memory the interpreter cannot name. */
struct chg {
	const char	**var;
	int		 *vglob;
	int		  nvar;
	const char	**vname;	/* each one's name, for messages */
	const char	**ptee;
	int		 *pglob;
	int		  nptee;
	const char	**grow;		/* lists whose length may change */
	int		 *gglob;
	int		  ngrow;
	int		  any;
	int		  ret;		/* holds a return */
	const struct cnode *brk;	/* its first break, continue */
	const struct cnode *cont;
};

static void
chg_add(const char ***v, int **g, int *n, const char *key, int glob)
{
	int	i;

	for (i = 0; i < *n; i++)
		if (strcmp((*v)[i], key) == 0 && (*g)[i] == glob)
			return;
	*v = xreallocarray(*v, (size_t)*n + 1, sizeof(**v));
	*g = xreallocarray(*g, (size_t)*n + 1, sizeof(**g));
	(*v)[*n] = key;
	(*g)[(*n)++] = glob;
}

/* Variable key (named name) changes in the loop. */
static void
chg_var(struct chg *ch, const char *key, int glob, const char *name)
{
	int	n = ch->nvar;

	chg_add(&ch->var, &ch->vglob, &ch->nvar, key, glob);
	if (ch->nvar == n)
		return;
	ch->vname = xreallocarray(ch->vname, (size_t)ch->nvar, sizeof(*ch->vname));
	ch->vname[n] = name != NULL ? name : key;
}

static void
chg_free(struct chg *ch)
{
	free(ch->vname);
	free(ch->var);
	free(ch->vglob);
	free(ch->ptee);
	free(ch->pglob);
	free(ch->grow);
	free(ch->gglob);
}

/* The place an lvalue writes into, for chg. */
static void
chg_target(struct chg *ch, const struct cnode *t)
{
	const struct cnode	*k;

	switch (t->k) {
	case X_VAR:
		chg_var(ch, t->key, t->op & VAR_GLOBAL, t->s);
		return;
	case X_LIST:
		for (k = t->list; k != NULL; k = k->next)
			chg_target(ch, k);
		return;
	case X_INDEX:
	case X_MEMBER:
	case X_UNARY:
		if (t->a->k == X_VAR) {
			chg_add(&ch->ptee, &ch->pglob, &ch->nptee, t->a->key,
			    t->a->op & VAR_GLOBAL);
			return;
		}
		if (t->a->k == X_INDEX || t->a->k == X_MEMBER) {
			chg_target(ch, t->a);
			return;
		}
		ch->any = 1;
		return;
	default:
		ch->any = 1;
	}
}

static void chg_scan(struct ctx *, struct chg *, const struct cnode *, int);

/* The globals a function of the program may change, into ch. */
static void
chg_func(struct ctx *c, struct chg *ch, const struct cfunc *f, int depth)
{
	struct chg	in;
	int		i;

	if (depth > 16) {
		ch->any = 1;
		return;
	}
	memset(&in, 0, sizeof(in));
	chg_scan(c, &in, f->body, depth + 1);
	for (i = 0; i < in.nvar; i++)
		if (in.vglob[i])
			chg_var(ch, in.var[i], 1, in.vname[i]);
	for (i = 0; i < in.nptee; i++)
		if (in.pglob[i])
			chg_add(&ch->ptee, &ch->pglob, &ch->nptee, in.ptee[i], 1);
	for (i = 0; i < in.ngrow; i++)
		if (in.gglob[i])
			chg_add(&ch->grow, &ch->gglob, &ch->ngrow, in.grow[i], 1);
	ch->any |= in.any;
	chg_free(&in);
}

static void
chg_scan(struct ctx *c, struct chg *ch, const struct cnode *n, int depth)
{
	const struct cnode	*k;
	const struct cfunc	*f;

	if (n == NULL)
		return;
	switch (n->k) {
	case X_ASSIGN:
	case X_INCDEC:
		chg_target(ch, n->a);
		break;
	case K_DECL:
		chg_var(ch, n->key, (n->op & DECL_STATIC) != 0, n->s);
		break;
	case K_FOREACH:
		chg_target(ch, n->a);
		break;
	case K_RETURN:
		ch->ret = 1;
		break;
	case K_BREAK:
		if (ch->brk == NULL && depth == 0)
			ch->brk = n;
		break;
	case K_CONTINUE:
		if (ch->cont == NULL && depth == 0)
			ch->cont = n;
		break;
	case X_UNARY:
		if (n->op == '&')
			chg_target(ch, n->a);
		break;
	case X_CALL:
		/* What it is given may be written: arrays, pointers, lists
		 * (but the operands the port interface only reads). */
		{
			int	i = 0;

			for (k = n->list; k != NULL; k = k->next, i++) {
				if (k->k != X_VAR)
					continue;
				if (n->a->k != X_FUNC || api_writes_arg(n->a->s, i))
					chg_add(&ch->ptee, &ch->pglob, &ch->nptee,
					    k->key, k->op & VAR_GLOBAL);
				if (n->a->k != X_FUNC || !api_known(n->a->s))
					chg_add(&ch->grow, &ch->gglob, &ch->ngrow,
					    k->key, k->op & VAR_GLOBAL);
			}
		}
		if (n->a->k == X_MEMBER && n->a->a->k == X_VAR) {
			chg_add(&ch->ptee, &ch->pglob, &ch->nptee, n->a->a->key,
			    n->a->a->op & VAR_GLOBAL);
			chg_add(&ch->grow, &ch->gglob, &ch->ngrow, n->a->a->key,
			    n->a->a->op & VAR_GLOBAL);
		}
		if (n->a->k == X_FUNC && (f = code_func(c->p, n->a->key != NULL ?
		    n->a->key : n->a->s)) != NULL && f->body != NULL)
			chg_func(c, ch, f, depth);
		break;
	default:
		break;
	}
	/* A break in a nested loop or switch is its own. */
	if (n->k == K_WHILE || n->k == K_DO || n->k == K_FOR ||
	    n->k == K_FOREACH || n->k == K_SWITCH) {
		struct chg	in;
		int		i;

		memset(&in, 0, sizeof(in));
		for (k = n->list; k != NULL; k = k->next)
			chg_scan(c, &in, k, depth + 1);
		chg_scan(c, &in, n->a, depth + 1);
		chg_scan(c, &in, n->b, depth + 1);
		chg_scan(c, &in, n->c, depth + 1);
		chg_scan(c, &in, n->d, depth + 1);
		for (i = 0; i < in.nvar; i++)
			chg_var(ch, in.var[i], in.vglob[i], in.vname[i]);
		for (i = 0; i < in.nptee; i++)
			chg_add(&ch->ptee, &ch->pglob, &ch->nptee, in.ptee[i],
			    in.pglob[i]);
		for (i = 0; i < in.ngrow; i++)
			chg_add(&ch->grow, &ch->gglob, &ch->ngrow, in.grow[i],
			    in.gglob[i]);
		ch->any |= in.any;
		ch->ret |= in.ret;
		if (n->k == K_SWITCH && in.cont != NULL && ch->cont == NULL)
			ch->cont = in.cont;
		chg_free(&in);
		return;
	}
	for (k = n->list; k != NULL; k = k->next)
		chg_scan(c, ch, k, depth);
	chg_scan(c, ch, n->a, depth);
	chg_scan(c, ch, n->b, depth);
	chg_scan(c, ch, n->c, depth);
	chg_scan(c, ch, n->d, depth);
}

/* Forget, in s, what the loop may change (requests stay). */
static void
chg_havoc(struct ctx *c, struct st *s, const struct chg *ch,
    const char *skip, const struct cloc *l)
{
	struct val	 v;
	struct cnode	 var;
	int		 i, id;

	if (ch->any) {
		may_havoc(c, s, l);
		return;
	}
	for (i = 0; i < ch->nptee + ch->ngrow; i++) {
		int	grow = i >= ch->nptee, k = grow ? i - ch->nptee : i;

		memset(&var, 0, sizeof(var));
		var.k = X_VAR;
		var.key = grow ? ch->grow[k] : ch->ptee[k];
		var.s = var.key;
		var.op = (grow ? ch->gglob[k] : ch->pglob[k]) ? VAR_GLOBAL : 0;
		v = read_var(c, s, &var);
		if (v.k == V_PTR)
			mem_havoc_len(c, s, v.obj, "memory the loop writes", l, grow);
	}
	for (i = 0; i < ch->nvar; i++) {
		if (skip != NULL && strcmp(ch->var[i], skip) == 0)
			continue;
		id = obj_id(c, ch->vglob[i] ? 0 : inst_here(c), ch->var[i]);
		{
			char	*w;

			xasprintf(&w, "'%s', which the loop changes", ch->vname[i]);
			mem_havoc(c, s, id, arena_strdup(c->a, w), l);
			free(w);
		}
	}
}

/* How many times n writes variable key (its address taken counts
 * twice: anything may write it then). */
static int
count_writes(const struct cnode *n, const char *key)
{
	const struct cnode	*k;
	int			 w = 0;

	if (n == NULL)
		return 0;
	if ((n->k == X_ASSIGN || n->k == X_INCDEC) && n->a->k == X_VAR &&
	    strcmp(n->a->key, key) == 0)
		w++;
	if (n->k == X_UNARY && n->op == '&' && n->a->k == X_VAR &&
	    strcmp(n->a->key, key) == 0)
		w += 2;
	/* A send's buffer is only read. */
	if (n->k == X_CALL && n->a->k == X_FUNC && api_reads_only(n->a->s) &&
	    n->list != NULL && n->list->next != NULL &&
	    (k = n->list->next->next) != NULL && k->k == X_UNARY &&
	    k->op == '&' && k->a->k == X_VAR && strcmp(k->a->key, key) == 0)
		w -= 2;
	if (n->k == K_DECL && strcmp(n->key, key) == 0)
		w += 2;
	if ((n->k == X_ASSIGN) && n->a->k == X_LIST)
		for (k = n->a->list; k != NULL; k = k->next)
			if (k->k == X_VAR && strcmp(k->key, key) == 0)
				w += 2;
	for (k = n->list; k != NULL; k = k->next)
		w += count_writes(k, key);
	return w + count_writes(n->a, key) + count_writes(n->b, key) +
	    count_writes(n->c, key) + count_writes(n->d, key);
}

/* The step of key's change in e, an expression run whole (not under a
 * condition, '&&', '||' or '?:'): its v++, v--, v += k or v -= k; NULL
 * if none. */
static const struct cnode *
step_in(const struct cnode *e, const char *key)
{
	const struct cnode	*k, *h;

	if (e == NULL)
		return NULL;
	if ((e->k == X_INCDEC || (e->k == X_ASSIGN && e->op != 0)) &&
	    e->a->k == X_VAR && strcmp(e->a->key, key) == 0)
		return e;
	switch (e->k) {
	case X_COND:
		return NULL;
	case X_BINARY:
		if (e->op == CN_AND || e->op == CN_OR)
			return step_in(e->a, key);
		break;
	case X_CALL:
		for (k = e->list; k != NULL; k = k->next)
			if ((h = step_in(k, key)) != NULL)
				return h;
		break;
	default:
		break;
	}
	if ((h = step_in(e->a, key)) != NULL)
		return h;
	if (e->k != X_INCDEC && (h = step_in(e->b, key)) != NULL)
		return h;
	return NULL;
}

/* The step of local variable key in loop n: its only change is one v++,
 * v--, v += k or v -= k (k a constant) a round, the loop's step or in a
 * statement of the body's own list before any 'continue', run whole.
 * 0: none. */
static int64_t
induction(const struct cnode *n, const char *key)
{
	const struct cnode	*k, *hit = NULL;

	if (n->c != NULL)
		hit = step_in(n->c, key);
	if (hit == NULL && n->b != NULL)
		for (k = n->b->k == K_BLOCK ? n->b->list : n->b; k != NULL &&
		    k->k != K_CONTINUE; k = n->b->k == K_BLOCK ? k->next : NULL)
			if (k->k == K_EXPR && (hit = step_in(k->a, key)) != NULL)
				break;
	if (hit == NULL || count_writes(n->a, key) + count_writes(n->b, key) +
	    count_writes(n->c, key) != 1)
		return 0;
	if (hit->k == X_INCDEC)
		return hit->op == '+' ? 1 : -1;
	if ((hit->op == '+' || hit->op == '-') && hit->b->k == X_INT &&
	    hit->b->i != 0 && hit->b->i > -(1LL << 40) && hit->b->i < (1LL << 40))
		return hit->op == '+' ? hit->b->i : -hit->b->i;
	return 0;
}

/* How a loop runs: its rounds (count; NULL: for ever) and its variable,
 * the code's vkey stepping by step from v0, which the behaviour's 'for'
 * variable J stands for (v = J when the step is 1, else v0 + step * J,
 * J from 0). */
struct lshape {
	const struct sym *count;
	const char	*vkey;
	int		 vglob;
	int64_t		 step;
	const struct sym *v0;
	const struct sym *J;
	const struct sym *lo, *hi;
	const struct cnode *target;	/* a for-each's target */
	/* lists appended to once a round: their length counts the rounds */
	const char	*lists[8];
	int		 lglob[8];
	int		 nlists;
	int		 lobj[8];
	const struct sym *len0[8];
	/* other variables stepping once a round, as the loop's does */
	const char	*ivars[8];
	int64_t		 istep[8];
	const struct sym *iv0[8];
	int		 nivars;
};

/* Whether a and b hold the same requests, in the same states. */
static int
req_same(struct ctx *c, struct st *a, struct st *b)
{
	struct obj	*x, *y;
	struct val	 yv;
	int		 i, j, k, n;

	if (a->npend != b->npend)
		return 0;
	for (i = 0; i < a->npend; i++) {
		struct pend	*pb = req_pend(b, a->pend[i].site);

		if (pb == NULL || pb->st != a->pend[i].st || pb->fam != a->pend[i].fam)
			return 0;
	}
	n = a->no > b->no ? a->no : b->no;
	for (i = 0; i < n; i++) {
		x = obj_of(c, a, i);
		y = obj_of(c, b, i);
		if (x == y)
			continue;
		for (k = 0; k < 2; k++) {
			const struct obj *p = k == 0 ? x : y, *q = k == 0 ? y : x;

			if (p == NULL)
				continue;
			for (j = 0; j < p->n; j++) {
				if (p->s[j].v.k != V_REQ)
					continue;
				if (q == NULL)
					return 0;
				yv = slot_find(q, p->s[j].ix, p->s[j].field) >= 0 ?
				    q->s[slot_find(q, p->s[j].ix, p->s[j].field)].v :
				    q->dflt;
				if (!v_same(&p->s[j].v, &yv))
					return 0;
			}
		}
	}
	return 1;
}

/* The rounds before the one J stands for. */
static const struct sym *
rounds_before(struct ctx *c, const struct lshape *sh)
{
	return sh->step == 1 ? sym_bin(c->a, '-', sh->J, sh->lo) : sh->J;
}

/* The code's loop variable's value for the behaviour's J. */
static struct val
loop_var(struct ctx *c, const struct lshape *sh)
{
	if (sh->step == 1)
		return v_sym(sh->J);
	return v_sym(sym_bin(c->a, '+', sh->v0, sym_bin(c->a, '*',
	    sym_int(c->a, sh->step), sh->J)));
}

static void
set_var(struct ctx *c, struct st *s, const char *key, int glob, struct val v)
{
	mem_write(c, s, obj_id(c, glob ? 0 : inst_here(c), key), NULL, NULL, v);
}

/* Whether a statement of list b (or what it holds) uses sym var id. */
static int
bst_uses(const struct bst *b, int64_t id)
{
	const struct bbranch	*br;

	for (; b != NULL; b = b->next) {
		if (sym_uses_var(b->port, id) || sym_uses_var(b->rport, id) ||
		    sym_uses_var(b->rootidx, id) || sym_uses_var(b->groupidx, id) ||
		    sym_uses_var(b->count, id) || sym_uses_var(b->lo, id) ||
		    sym_uses_var(b->hi, id) || sym_uses_var(b->cond, id) ||
		    bst_uses(b->body, id) || bst_uses(b->orelse, id))
			return 1;
		for (br = b->branches; br != NULL; br = br->next)
			if (bst_uses(br->body, id))
				return 1;
	}
	return 0;
}

/* Whether call k appends to list variable key (append, push_back). */
static int
is_append(const struct cnode *k, const char *key)
{
	return k->k == X_CALL && k->a->k == X_MEMBER && k->a->a->k == X_VAR &&
	    (key == NULL || strcmp(k->a->a->key, key) == 0) && k->list != NULL &&
	    k->list->next == NULL && (strcmp(k->a->s, "append") == 0 ||
	    strcmp(k->a->s, "push_back") == 0 ||
	    strcmp(k->a->s, "emplace_back") == 0);
}

/* How many times n may change list variable key's length: a method
 * called on it, or it given to a call not of the port interface. */
static int
grows(const struct cnode *n, const char *key)
{
	const struct cnode	*k;
	int			 g = 0;

	if (n == NULL)
		return 0;
	if (n->k == X_CALL) {
		if (n->a->k == X_MEMBER && n->a->a->k == X_VAR &&
		    strcmp(n->a->a->key, key) == 0)
			g++;
		if (n->a->k != X_FUNC || !api_known(n->a->s))
			for (k = n->list; k != NULL; k = k->next)
				if (k->k == X_VAR && strcmp(k->key, key) == 0)
					g++;
	}
	if ((n->k == X_ASSIGN && n->a->k == X_VAR && strcmp(n->a->key, key) == 0) ||
	    (n->k == K_DECL && strcmp(n->key, key) == 0))
		g += 2;
	for (k = n->list; k != NULL; k = k->next)
		g += grows(k, key);
	return g + grows(n->a, key) + grows(n->b, key) + grows(n->c, key) +
	    grows(n->d, key);
}

/* The lists loop n appends to once a round (a statement of its body's
 * own list, before any continue), into sh. */
static void
list_rounds(const struct cnode *n, struct lshape *sh)
{
	const struct cnode	*k;

	if (n->b == NULL)
		return;
	for (k = n->b->k == K_BLOCK ? n->b->list : n->b; k != NULL &&
	    k->k != K_CONTINUE; k = n->b->k == K_BLOCK ? k->next : NULL) {
		if (k->k != K_EXPR || !is_append(k->a, NULL) || sh->nlists == 8)
			continue;
		if (grows(n->a, k->a->a->a->key) + grows(n->b, k->a->a->a->key) +
		    grows(n->c, k->a->a->a->key) != 1)
			continue;
		sh->lglob[sh->nlists] = k->a->a->a->op & VAR_GLOBAL;
		sh->lists[sh->nlists++] = k->a->a->a->key;
	}
}

/* Whether the request of pending entry p, posted in a round of a loop
 * shaped sh and pending at its end, is kept in a place of its own each
 * round (an element indexed by the loop's variable, or appended to a
 * list whose length counts the rounds): then it is made a family.  0, or
 * -1 when it is not. */
static int
family(struct ctx *c, struct st *s, struct pend *p, const struct lshape *sh)
{
	struct obj	*o;
	int		 i, j, k;

	if (sh->J == NULL)
		return -1;
	for (i = 0; i < s->no; i++) {
		if ((o = s->o[i]) == NULL)
			continue;
		for (j = 0; j < o->n; j++) {
			const struct val *v = &o->s[j].v;

			if (v->k != V_REQ)
				continue;
			for (k = 0; k < v->req->n; k++)
				if (v->req->site[k] == p->site)
					break;
			if (k == v->req->n)
				continue;
			if (o->s[j].ix == NULL || !sym_uses_var(o->s[j].ix, sh->J->v))
				return -1;
			p->fam = 1;
			p->fobj = i;
			/* its last: the index of the last round */
			p->fidx = sym_subst(c->a, o->s[j].ix, sh->J->v, sh->hi);
			return 0;
		}
	}
	return -1;
}

/* A loop that communicates, shaped sh: its body run from its rounds'
 * common state until the requests it leaves no longer change, the loop
 * statement written with the last run's body. */
static void
loop_body(struct ctx *c, const struct cnode *n, struct st *s,
    const struct lshape *sh, const struct chg *ch, struct stl *out)
{
	struct bst	**pos = s->out, *prev = s->last, *N;
	struct loopx	 lx;
	struct stl	 all;
	struct st	*E, *B, *S, *E2, *X;
	const struct sym *once;
	struct val	 vv;
	long		 e0, f0;
	int		 round, i;

	N = emit(c, s, sh->count != NULL ? B_FOR : B_LOOP, &n->loc);
	N->var = sh->J;
	N->lo = sh->lo;
	N->hi = sh->hi;
	N->count = sh->count;
	E = st_copy(c, s);
	E->last = NULL;
	chg_havoc(c, E, ch, NULL, &n->loc);
	/* A list appended to once a round: its length at a round's start
	 * counts the rounds before. */
	for (i = 0; sh->J != NULL && i < sh->nlists; i++) {
		struct cnode	 var;
		struct val	 lv;
		struct obj	*o;

		memset(&var, 0, sizeof(var));
		var.k = X_VAR;
		var.key = var.s = sh->lists[i];
		var.op = sh->lglob[i] ? VAR_GLOBAL : 0;
		lv = read_var(c, s, &var);
		((struct lshape *)sh)->lobj[i] = -1;
		if (lv.k != V_PTR || (o = obj_of(c, s, lv.obj)) == NULL || !o->list ||
		    o->len == NULL)
			continue;
		((struct lshape *)sh)->lobj[i] = lv.obj;
		((struct lshape *)sh)->len0[i] = o->len;
		obj_mut(c, E, lv.obj)->len = sym_bin(c->a, '+', o->len, rounds_before(c,
		    sh));
	}
	/* Other variables stepping once a round: what the rounds before
	 * made of them. */
	((struct lshape *)sh)->nivars = 0;
	for (i = 0; sh->J != NULL && i < ch->nvar && sh->nivars < 8; i++) {
		struct val	iv;
		int64_t		st;
		int		id;

		if (ch->vglob[i] || (sh->vkey != NULL &&
		    strcmp(ch->var[i], sh->vkey) == 0) ||
		    (st = induction(n, ch->var[i])) == 0)
			continue;
		id = obj_id(c, inst_here(c), ch->var[i]);
		iv = mem_read(c, s, id, NULL, NULL);
		if (iv.k != V_INT || uses_outcome(c, iv.n) != NULL)
			continue;
		((struct lshape *)sh)->ivars[sh->nivars] = ch->var[i];
		((struct lshape *)sh)->istep[sh->nivars] = st;
		((struct lshape *)sh)->iv0[sh->nivars] = iv.n;
		((struct lshape *)sh)->nivars++;
		mem_write(c, E, id, NULL, NULL, v_sym(sym_bin(c->a, '+', iv.n,
		    sym_bin(c->a, '*', sym_int(c->a, st), rounds_before(c, sh)))));
	}
	if (sh->J != NULL) {
		vv = loop_var(c, sh);
		if (sh->target != NULL) {
			if (assign(c, &E, sh->target, vv) != 0)
				goto fail;
		} else if (sh->vkey != NULL)
			set_var(c, E, sh->vkey, sh->vglob, vv);
	}
	for (round = 0;; round++) {
		if (round == INTERP_MAX_ROUNDS) {
			ierr(c, &n->loc, "the requests this loop's rounds leave do "
			    "not settle: not followed");
			goto fail;
		}
		B = st_copy(c, E);
		N->body = NULL;
		B->out = &N->body;
		memset(&lx, 0, sizeof(lx));
		lx.up = c->loop;
		c->loop = &lx;
		memset(&all, 0, sizeof(all));
		e0 = c->escapes;
		f0 = c->nforever;
		exec(c, n->b, B, &all);
		c->loop = lx.up;
		c->escapes -= lx.cont.n + lx.brk.n;
		for (i = 0; i < lx.cont.n; i++)
			stl_add(&all, lx.cont.v[i]);
		free(lx.cont.v);
		memset(&lx.cont, 0, sizeof(lx.cont));
		if (stopped(c)) {
			stl_free(&all);
			stl_free(&lx.brk);
			goto fail;
		}
		if (lx.brk.n > 0) {
			stl_free(&lx.brk);
			stl_free(&all);
			ierr(c, ch->brk != NULL ? &ch->brk->loc : &n->loc, "a 'break' "
			    "out of a loop that communicates: a behaviour's loop "
			    "runs its count, or for ever");
			goto fail;
		}
		if (c->escapes - e0 != c->nforever - f0) {
			stl_free(&all);
			ierr(c, &n->loc, "a way leaves this loop that communicates "
			    "(a return, or ens_finalize) before its rounds end: a "
			    "behaviour's loop runs its count, or for ever");
			goto fail;
		}
		/* The step, after each round. */
		if (n->k == K_FOR && n->c != NULL)
			for (i = 0; i < all.n; i++) {
				struct val	sv;

				if (eval(c, &all.v[i], n->c, &sv) != 0) {
					stl_free(&all);
					goto fail;
				}
			}
		if (all.n == 0 && c->nforever != f0) {
			/* Its first round never ends (a loop for ever in it):
			 * no round after it.  One for ever is its body once;
			 * a counted one runs once, or (a count of 0) not. */
			int64_t	k;

			free(all.v);
			st_free(E);
			if (sh->count == NULL) {
				*pos = N->body;
				st_free(s);
				return;
			}
			if (sym_const(sh->count, &k) && k >= 1) {
				N->count = sym_int(c->a, 1);
				N->hi = N->lo;
				st_free(s);
				return;
			}
			once = sym_bin(c->a, '>', sh->count, sym_int(c->a, 0));
			N->count = sym_cond(c->a, once, sym_int(c->a, 1),
			    sym_int(c->a, 0));
			N->hi = sym_cond(c->a, once, sh->lo, sym_bin(c->a, '-', sh->lo,
			    sym_int(c->a, 1)));
			if (sh->J == NULL || !bst_uses(N->body, sh->J->v)) {
				N->k = B_LOOP;
				N->var = N->lo = N->hi = NULL;
			}
			/* after it: where the count is 0 */
			sym_assume(&s->facts, once, 0);
			s->out = &N->next;
			s->last = N;
			stl_add(out, s);
			return;
		}
		if (all.n == 0) {
			ierr(c, &n->loc, "every round of this loop fails (exit, an "
			    "exception): not followed");
			free(all.v);
			goto fail;
		}
		if (stl_join(c, &all, NULL, NULL, NULL, &n->loc, 1) != 0) {
			stl_free(&all);
			ierr(c, &n->loc, "the rounds of this loop end with requests "
			    "the inference cannot join: not followed");
			goto fail;
		}
		S = all.v[0];
		free(all.v);
		/* What a round posted and completed is no more; what it
		 * posted and left pending, each round in another place, is a
		 * family its loop posts, for a waitall after it. */
		for (i = 0; i < S->npend; i++) {
			if (req_status(E, S->pend[i].site) >= 0 || S->pend[i].fam)
				continue;
			if (S->pend[i].st == RQ_DONE) {
				S->pend[i--] = S->pend[--S->npend];
				continue;
			}
			/* (else it goes into the next round, which may
			 * complete it before it posts again: req_post) */
			(void)family(c, S, &S->pend[i], sh);
		}
		/* The next round starts from this one's end or the first. */
		for (i = 0; sh->J != NULL && i < sh->nlists; i++)
			if (sh->lobj[i] >= 0 && obj_of(c, S, sh->lobj[i]) != NULL)
				obj_mut(c, S, sh->lobj[i])->len = obj_of(c, E,
				    sh->lobj[i])->len;
		for (i = 0; i < sh->nivars; i++) {
			int	id = obj_id(c, inst_here(c), sh->ivars[i]);

			mem_write(c, S, id, NULL, NULL, mem_read(c, E, id, NULL, NULL));
		}
		if (sh->J != NULL) {
			vv = loop_var(c, sh);
			if (sh->target != NULL)
				(void)assign(c, &S, sh->target, vv);
			else if (sh->vkey != NULL)
				set_var(c, S, sh->vkey, sh->vglob, vv);
		}
		E2 = st_copy(c, E);
		if (st_join(c, E2, S, NULL, &n->loc, 1) != 0) {
			st_free(E2);
			st_free(S);
			ierr(c, &n->loc, "the rounds of this loop leave requests the "
			    "inference cannot join: not followed");
			goto fail;
		}
		st_free(S);
		if (req_same(c, E2, E)) {
			st_free(E2);
			break;
		}
		st_free(E);
		E = E2;
	}
	if (sh->count == NULL) {
		/* For ever: nothing comes after it (a way that leaves what
		 * holds it, as the end does, not one that fails). */
		c->nforever++;
		c->escapes++;
		st_free(E);
		st_free(s);
		return;
	}
	X = E;
	X->out = &N->next;
	X->last = N;
	for (i = 0; i < sh->nlists; i++)
		if (sh->lobj[i] >= 0 && obj_of(c, X, sh->lobj[i]) != NULL)
			obj_mut(c, X, sh->lobj[i])->len = sym_bin(c->a, '+',
			    sh->len0[i], sh->count);
	for (i = 0; i < sh->nivars; i++)
		mem_write(c, X, obj_id(c, inst_here(c), sh->ivars[i]), NULL, NULL,
		    v_sym(sym_bin(c->a, '+', sh->iv0[i], sym_bin(c->a, '*',
		    sym_int(c->a, sh->istep[i]), sh->count))));
	if (sh->vkey != NULL && sh->target == NULL) {
		if (sh->v0 != NULL)
			set_var(c, X, sh->vkey, sh->vglob, v_sym(sym_bin(c->a, '+',
			    sh->v0, sym_bin(c->a, '*', sym_int(c->a, sh->step),
			    sh->count))));
		else
			set_var(c, X, sh->vkey, sh->vglob, v_top("a loop's "
			    "variable after the loop", &n->loc));
	}
	if (N->body == NULL) {
		*pos = NULL;
		X->out = pos;
		X->last = prev;
	} else if (sh->J == NULL || !bst_uses(N->body, sh->J->v)) {
		N->k = B_LOOP;
		N->var = N->lo = N->hi = NULL;
	}
	st_free(s);
	stl_add(out, X);
	return;
fail:
	st_free(E);
	st_free(s);
}

/* A loop that does not communicate: what it changes is forgotten (and
 * a return from within it is a way out of its function). */
static void
loop_opaque(struct ctx *c, const struct cnode *n, struct st *s,
    const struct chg *ch, struct stl *out)
{
	struct st	*w;

	chg_havoc(c, s, ch, NULL, &n->loc);
	if (ch->ret && c->frame != NULL && !c->frame->entry) {
		w = st_copy(c, s);
		w->ret = v_top("what a loop's return gives", &n->loc);
		stl_add(&c->frame->rets, w);
		c->escapes++;
	}
	stl_add(out, s);
}

/* The ways of a waitsome (the statement written last) that the loop n
 * runs over: one block for each request it lists, that request complete
 * and the index the loop reads its number. */
static void
waitsome_loop(struct ctx *c, const struct cnode *n, struct st *s,
    struct outc *o, const struct chg *ch, struct stl *out)
{
	struct bst	*W = o->st;
	struct bbranch	*br;
	struct loopx	 lx;
	struct stl	 all;
	struct st	*w;
	long		 e0;
	int		 j, i;

	if (s->last != W || s->out != &W->next) {
		ierr(c, &n->loc, "this loop runs over what ens_waitsome returned "
		    "(%s:%d), after other communication: a behaviour takes the "
		    "blocks of a 'waitsome' at once", W->loc.file, W->loc.line);
		st_free(s);
		return;
	}
	memset(&all, 0, sizeof(all));
	e0 = c->escapes;
	for (br = W->branches, j = 0; br != NULL; br = br->next, j++) {
		w = br->next != NULL ? st_copy(c, s) : s;
		chg_havoc(c, w, ch, NULL, &n->loc);
		if (o->ix != NULL)
			st_subst(c, w, o->ix->v, sym_int(c->a, j));
		if (n->k == K_FOREACH && assign(c, &w, n->a, v_int(c, j)) != 0) {
			st_free(w);
			continue;
		}
		{
			int	m;

			for (m = 0; m < o->rs[j]->n; m++)
				req_set(w, o->rs[j]->site[m], RQ_DONE);
		}
		w->out = &br->body;
		w->last = NULL;
		memset(&lx, 0, sizeof(lx));
		lx.up = c->loop;
		c->loop = &lx;
		exec(c, n->b, w, &all);
		c->loop = lx.up;
		c->escapes -= lx.cont.n + lx.brk.n;
		for (i = 0; i < lx.cont.n; i++)
			stl_add(&all, lx.cont.v[i]);
		for (i = 0; i < lx.brk.n; i++)
			stl_add(&all, lx.brk.v[i]);
		free(lx.cont.v);
		free(lx.brk.v);
	}
	if (stopped(c)) {
		stl_free(&all);
		return;
	}
	if (c->escapes == e0 && all.n > 1)
		(void)stl_join(c, &all, NULL, &W->next, W, &n->loc, 0);
	for (i = 0; i < all.n; i++)
		stl_add(out, all.v[i]);
	free(all.v);
}

/* A Python or C++ for-each over a list of known length: its rounds one
 * after the other. */
static void
loop_unroll(struct ctx *c, const struct cnode *n, struct st *s,
    const struct val *list, int64_t len, struct stl *out)
{
	struct loopx	 lx;
	struct stl	 cur, next;
	struct val	 el;
	int64_t		 k;
	int		 i;

	memset(&cur, 0, sizeof(cur));
	stl_add(&cur, s);
	memset(&lx, 0, sizeof(lx));
	lx.up = c->loop;
	c->loop = &lx;
	for (k = 0; k < len && cur.n > 0; k++) {
		memset(&next, 0, sizeof(next));
		for (i = 0; i < cur.n; i++) {
			struct st	*w = cur.v[i];

			el = mem_read(c, w, list->obj, sym_bin(c->a, '+', list->off,
			    sym_int(c->a, k)), NULL);
			if (assign(c, &w, n->a, el) != 0) {
				st_free(w);
				continue;
			}
			exec(c, n->b, w, &next);
		}
		free(cur.v);
		cur = next;
		c->escapes -= lx.cont.n;
		for (i = 0; i < lx.cont.n; i++)
			stl_add(&cur, lx.cont.v[i]);
		free(lx.cont.v);
		memset(&lx.cont, 0, sizeof(lx.cont));
	}
	c->loop = lx.up;
	c->escapes -= lx.brk.n;
	for (i = 0; i < cur.n; i++)
		stl_add(out, cur.v[i]);
	for (i = 0; i < lx.brk.n; i++)
		stl_add(out, lx.brk.v[i]);
	free(cur.v);
	free(lx.brk.v);
}

/* The data decide this loop's rounds: followed only when it does not
 * communicate. */
static void
loop_data(struct ctx *c, const struct cnode *n, struct st *s,
    const struct chg *ch, int comm, const char *why, struct stl *out)
{
	if (!comm) {
		loop_opaque(c, n, s, ch, out);
		return;
	}
	if (n->s != NULL)
		ierr(c, &n->loc, "the rounds of this loop that communicates are "
		    "decided by %s ('%s'): a behaviour counts a loop's rounds "
		    "(by parameters, arguments, ports() and constants) or repeats "
		    "it for ever", why, n->s);
	else
		ierr(c, &n->loc, "the rounds of this loop that communicates are "
		    "decided by %s: a behaviour counts a loop's rounds (by "
		    "parameters, arguments, ports() and constants) or repeats it "
		    "for ever", why);
	st_free(s);
}

/* Whether e reads none of the variables the loop changes, and calls
 * nothing (its value is the same each round). */
static int
invariant(const struct cnode *e, const struct chg *ch)
{
	const struct cnode	*k;
	int			 i;

	if (e == NULL)
		return 1;
	if (e->k == X_VAR) {
		for (i = 0; i < ch->nvar; i++)
			if (strcmp(ch->var[i], e->key) == 0)
				return 0;
		return 1;
	}
	if (e->k == X_ASSIGN || e->k == X_INCDEC)
		return 0;
	if (e->k == X_CALL && !(e->a->k == X_FUNC && (
	    strcmp(e->a->s, "ens_ports") == 0 || strcmp(e->a->s, "ens::ports") == 0 ||
	    strcmp(e->a->s, "ensemble.ports") == 0 || strcmp(e->a->s, "len") == 0 ||
	    strcmp(e->a->s, "ens_self") == 0 || strcmp(e->a->s, "ens::self") == 0 ||
	    strcmp(e->a->s, "ensemble.self") == 0 || strcmp(e->a->s, "ens_param") == 0 ||
	    strcmp(e->a->s, "atoi") == 0 || strcmp(e->a->s, "int") == 0)))
		return 0;
	for (k = e->list; k != NULL; k = k->next)
		if (!invariant(k, ch))
			return 0;
	return invariant(e->a, ch) && invariant(e->b, ch) && invariant(e->c, ch);
}

/* The rounds of v OP e from v0 by step: NULL when OP and the step do
 * not make a count. */
static const struct sym *
rounds(struct ctx *c, int op, const struct sym *v0, const struct sym *e,
    int64_t step)
{
	struct arena		*a = c->a;
	const struct sym	*d, *r;
	int64_t			 k = step > 0 ? step : -step;

	if (step > 0) {
		if (op == '<')
			d = sym_bin(a, '-', e, v0);
		else if (op == CN_LE)
			d = sym_bin(a, '+', sym_bin(a, '-', e, v0), sym_int(a, 1));
		else if (op == CN_NE && k == 1)
			d = sym_bin(a, '-', e, v0);
		else
			return NULL;
	} else {
		if (op == '>')
			d = sym_bin(a, '-', v0, e);
		else if (op == CN_GE)
			d = sym_bin(a, '+', sym_bin(a, '-', v0, e), sym_int(a, 1));
		else if (op == CN_NE && k == 1)
			d = sym_bin(a, '-', v0, e);
		else
			return NULL;
	}
	if (k != 1)
		d = sym_bin(a, '/', sym_bin(a, '+', d, sym_int(a, k - 1)),
		    sym_int(a, k));
	r = sym_bin(a, SYM_MAX, sym_int(a, 0), d);
	return r;
}

/* The 'for' variable of the behaviour for loop n in this frame, named
 * after the code's: the same each time the loop is run again (an outer
 * loop's rounds), so that what a round leaves settles. */
static const struct sym *
new_var(struct ctx *c, const struct cnode *n, const char *name)
{
	int	id, old;

	if ((id = hmap_get(c->loopvars, (uint64_t)(uintptr_t)n,
	    (uint64_t)inst_here(c))) < 0) {
		id = ++c->nvars;
		hmap_put(c->loopvars, (uint64_t)(uintptr_t)n, (uint64_t)inst_here(c),
		    id, &old);
	}
	return sym_leaf(c->a, Y_VAR, name != NULL ? name : "k", id);
}

static void
loop_run(struct ctx *c, const struct cnode *n, struct st *s, struct stl *out)
{
	const struct cnode	*cond = n->a, *v = NULL, *e = NULL;
	struct lshape		 sh;
	struct chg		 ch;
	struct val		 ev, vv, x;
	struct outv		*ov;
	int64_t			 k, len;
	int			 comm, op = 0;

	memset(&ch, 0, sizeof(ch));
	memset(&sh, 0, sizeof(sh));
	chg_scan(c, &ch, n->k == K_FOREACH ? NULL : n->a, 0);
	chg_scan(c, &ch, n->b, 0);
	chg_scan(c, &ch, n->c, 0);
	if (n->k == K_FOREACH)
		chg_target(&ch, n->a);
	comm = may_comm(c, n->a) || may_comm(c, n->b) ||
	    (n->k != K_FOREACH && may_comm(c, n->c));
	if (n->k == K_DO) {
		if (cond->k == X_INT && cond->i == 0) {
			/* do { ... } while (0): once */
			struct loopx	lx;
			int		i;

			memset(&lx, 0, sizeof(lx));
			lx.up = c->loop;
			c->loop = &lx;
			exec(c, n->b, s, out);
			c->loop = lx.up;
			c->escapes -= lx.cont.n + lx.brk.n;
			for (i = 0; i < lx.cont.n; i++)
				stl_add(out, lx.cont.v[i]);
			for (i = 0; i < lx.brk.n; i++)
				stl_add(out, lx.brk.v[i]);
			free(lx.cont.v);
			free(lx.brk.v);
			goto done;
		}
		if (!(cond->k == X_INT && cond->i != 0)) {
			loop_data(c, n, s, &ch, comm, "its condition, tested after "
			    "each round", out);
			goto done;
		}
		cond = NULL;
	}
	if (n->k == K_FOREACH) {
		const struct cnode	*it = n->c, *arg;
		struct val		 r[3];
		int			 na = 0;

		if (it->k == X_CALL && it->a->k == X_FUNC &&
		    strcmp(it->a->s, "range") == 0) {
			for (arg = it->list; arg != NULL && na < 3; arg = arg->next)
				if (eval(c, &s, arg, &r[na++]) != 0) {
					if (s != NULL)
						st_free(s);
					goto done;
				}
			if (na == 1) {
				r[1] = r[0];
				r[0] = v_int(c, 0);
			}
			if (na < 3)
				r[2] = v_int(c, 1);
			if (r[0].k != V_INT || r[1].k != V_INT || r[2].k != V_INT ||
			    !sym_const(r[2].n, &k) || k == 0 ||
			    uses_outcome(c, r[0].n) || uses_outcome(c, r[1].n)) {
				loop_data(c, n, s, &ch, comm, why_of(r[0].k != V_INT ?
				    &r[0] : r[1].k != V_INT ? &r[1] : &r[2]), out);
				goto done;
			}
			if (!comm) {
				loop_opaque(c, n, s, &ch, out);
				goto done;
			}
			sh.step = k;
			sh.v0 = r[0].n;
			sh.count = rounds(c, k > 0 ? '<' : '>', r[0].n, r[1].n, k);
			sh.target = n->a;
			sh.J = new_var(c, n, n->a->k == X_VAR ? n->a->s : NULL);
			if (k == 1) {
				sh.lo = r[0].n;
				sh.hi = sym_bin(c->a, '-', r[1].n, sym_int(c->a, 1));
			} else {
				sh.lo = sym_int(c->a, 0);
				sh.hi = sym_bin(c->a, '-', sh.count, sym_int(c->a, 1));
			}
			list_rounds(n, &sh);
			loop_body(c, n, s, &sh, &ch, out);
			goto done;
		}
		if (eval(c, &s, it, &x) != 0) {
			if (s != NULL)
				st_free(s);
			goto done;
		}
		if (x.k == V_OUT && x.out->k == O_SOME) {
			waitsome_loop(c, n, s, x.out, &ch, out);
			goto done;
		}
		if (x.k == V_PTR && obj_of(c, s, x.obj) != NULL &&
		    obj_of(c, s, x.obj)->list && obj_of(c, s, x.obj)->len != NULL &&
		    sym_const(obj_of(c, s, x.obj)->len, &len) && len >= 0 &&
		    len <= 4096) {
			loop_unroll(c, n, s, &x, len, out);
			goto done;
		}
		loop_data(c, n, s, &ch, comm, why_of(&x), out);
		goto done;
	}
	if (cond == NULL || (cond->k == X_INT && cond->i != 0)) {
		if (!comm) {
			if (ch.brk != NULL)
				loop_opaque(c, n, s, &ch, out);
			else {
				c->nforever++;	/* it spins for ever */
				c->escapes++;
				st_free(s);
			}
			goto done;
		}
		loop_body(c, n, s, &sh, &ch, out);
		goto done;
	}
	/* v OP e, v stepping, e the same each round. */
	if (cond->k == X_BINARY && (cond->op == '<' || cond->op == '>' ||
	    cond->op == CN_LE || cond->op == CN_GE || cond->op == CN_NE)) {
		op = cond->op;
		if (cond->a->k == X_VAR && !(cond->a->op & VAR_GLOBAL) &&
		    invariant(cond->b, &ch)) {
			v = cond->a;
			e = cond->b;
		} else if (cond->b->k == X_VAR && !(cond->b->op & VAR_GLOBAL) &&
		    invariant(cond->a, &ch)) {
			v = cond->b;
			e = cond->a;
			op = op == '<' ? '>' : op == '>' ? '<' : op == CN_LE ? CN_GE :
			    op == CN_GE ? CN_LE : op;
		}
	}
	if (v != NULL && (k = induction(n, v->key)) != 0) {
		if (eval(c, &s, e, &ev) != 0) {
			if (s != NULL)
				st_free(s);
			goto done;
		}
		vv = read_var(c, s, v);
		if (ev.k == V_INT && (ov = uses_outcome(c, ev.n)) != NULL &&
		    ov->out->k == O_SOME) {
			waitsome_loop(c, n, s, ov->out, &ch, out);
			goto done;
		}
		if (ev.k == V_INT && vv.k == V_INT && !uses_outcome(c, ev.n) &&
		    !uses_outcome(c, vv.n) &&
		    (sh.count = rounds(c, op, vv.n, ev.n, k)) != NULL) {
			if (!comm) {
				loop_opaque(c, n, s, &ch, out);
				set_var(c, out->v[out->n - 1], v->key, 0, v_sym(
				    sym_bin(c->a, '+', vv.n, sym_bin(c->a, '*',
				    sym_int(c->a, k), sh.count))));
				goto done;
			}
			sh.vkey = v->key;
			sh.step = k;
			sh.v0 = vv.n;
			sh.J = new_var(c, n, v->s);
			if (k == 1) {
				sh.lo = vv.n;
				sh.hi = sym_bin(c->a, '-', sym_bin(c->a, '+', vv.n,
				    sh.count), sym_int(c->a, 1));
				/* (for v < e: e - 1, when e > v0) */
				if (op == '<')
					sh.hi = sym_bin(c->a, '-', ev.n, sym_int(c->a, 1));
				else if (op == CN_LE)
					sh.hi = ev.n;
			} else {
				sh.lo = sym_int(c->a, 0);
				sh.hi = sym_bin(c->a, '-', sh.count, sym_int(c->a, 1));
			}
			list_rounds(n, &sh);
			loop_body(c, n, s, &sh, &ch, out);
			goto done;
		}
		loop_data(c, n, s, &ch, comm, ev.k != V_INT ? why_of(&ev) :
		    vv.k != V_INT ? why_of(&vv) : "what a call returned", out);
		goto done;
	}
	/* Anything else: what decides it (as a round sees it), said. */
	if (!comm) {
		loop_opaque(c, n, s, &ch, out);
		goto done;
	}
	{
		struct st	*w = st_copy(c, s);

		chg_havoc(c, w, &ch, NULL, &n->loc);
		if (eval(c, &w, cond, &ev) != 0) {
			if (w != NULL)
				st_free(w);
			st_free(s);
			goto done;
		}
		st_free(w);
	}
	loop_data(c, n, s, &ch, comm, ev.k != V_INT ? why_of(&ev) :
	    uses_outcome(c, ev.n) != NULL ? "what a call returned (a poll)" :
	    "a condition that is not a count", out);
done:
	chg_free(&ch);
}

static void
exec_loop(struct ctx *c, const struct cnode *n, struct st *s, struct stl *out)
{
	struct stl	r;
	int		i;

	if (n->k == K_FOR && n->d != NULL) {
		memset(&r, 0, sizeof(r));
		exec(c, n->d, s, &r);
		for (i = 0; i < r.n; i++)
			loop_run(c, n, r.v[i], out);
		free(r.v);
		return;
	}
	loop_run(c, n, s, out);
}

/* ---- switch, try, jumps ---- */

/* A switch as ifs on a variable of its own holding its value, each case
 * running on through the cases after it (until a break): made once. */
static const struct cnode *
switch_lowered(struct ctx *c, const struct cnode *n, struct cnode **tmp)
{
	const struct cnode	*cs, *lab, *k;
	struct cnode		*chain = NULL, **tail = &chain, *run, *w, *cond,
				*eq, *var, **wt, *dflt = NULL;
	char			*key;

	xasprintf(&key, "(switch)@%d:%d", n->loc.line, n->loc.col);
	var = code_node(c->p, X_VAR, &n->loc);
	var->key = code_str(c->p, key, strlen(key));
	var->s = "switch";
	free(key);
	*tmp = var;
	if (n->d != NULL)
		return n->d;
	for (cs = n->list; cs != NULL; cs = cs->next) {
		/* This case's statements, then the following cases'. */
		run = code_node(c->p, K_BLOCK, &cs->loc);
		wt = &run->list;
		for (k = cs; k != NULL; k = k->next) {
			w = code_node(c->p, K_BLOCK, &k->loc);
			w->list = k->b != NULL ? k->b->list : NULL;
			*wt = w;
			wt = &w->next;
		}
		if (cs->list == NULL) {
			dflt = run;
			continue;
		}
		cond = NULL;
		for (lab = cs->list; lab != NULL; lab = lab->next) {
			eq = code_node(c->p, X_BINARY, &lab->loc);
			eq->op = CN_EQ;
			eq->a = var;
			eq->b = (struct cnode *)lab;
			if (cond == NULL)
				cond = eq;
			else {
				struct cnode *o = code_node(c->p, X_BINARY, &lab->loc);

				o->op = CN_OR;
				o->a = cond;
				o->b = eq;
				cond = o;
			}
		}
		w = code_node(c->p, K_IF, &cs->loc);
		w->a = cond;
		w->b = run;
		w->s = n->s;
		*tail = w;
		tail = &w->c;
	}
	*tail = dflt;
	if (chain == NULL)
		chain = code_node(c->p, K_BLOCK, &n->loc);
	((struct cnode *)n)->d = chain;
	return chain;
}

/* The ways out of a switch or a call: those that ran to its end (all)
 * and those that left it by a break or return (esc), joined at l when
 * nothing escaped further since e0, into out (all and esc freed). */
static void
join_escaped(struct ctx *c, struct stl *all, struct stl *esc, long e0,
    struct bst **pos, const struct cloc *l, struct stl *out)
{
	int	i;

	c->escapes -= esc->n;
	for (i = 0; i < esc->n; i++)
		stl_add(all, esc->v[i]);
	free(esc->v);
	if (!stopped(c) && c->escapes == e0 && all->n > 1)
		(void)stl_join(c, all, NULL, list_end(pos), NULL, l, 0);
	for (i = 0; i < all->n; i++)
		stl_add(out, all->v[i]);
	free(all->v);
}

static void
exec_switch(struct ctx *c, const struct cnode *n, struct st *s, struct stl *out)
{
	const struct cnode	*chain;
	struct bst		**pos = s->out;
	struct cnode		*var;
	struct loopx		 lx;
	struct stl		 all;
	struct val		 v;
	long			 e0;

	chain = switch_lowered(c, n, &var);
	/* (the labels' list nodes are the labels: copy them apart) */
	if (eval(c, &s, n->a, &v) != 0) {
		if (s != NULL)
			st_free(s);
		return;
	}
	set_var(c, s, var->key, 0, v);
	memset(&lx, 0, sizeof(lx));
	lx.isswitch = 1;
	lx.up = c->loop;
	c->loop = &lx;
	memset(&all, 0, sizeof(all));
	e0 = c->escapes;
	exec(c, chain, s, &all);
	c->loop = lx.up;
	join_escaped(c, &all, &lx.brk, e0, pos, &n->loc, out);
}

static void
exec_return(struct ctx *c, const struct cnode *n, struct st *s, struct stl *out)
{
	struct stl	r;
	struct val	v = v_kind(V_NULL);
	int		i;

	(void)out;
	memset(&r, 0, sizeof(r));
	if (n->a != NULL && n->a->k == X_CALL)
		call_multi(c, s, n->a, &r);
	else {
		if (n->a != NULL && eval(c, &s, n->a, &v) != 0) {
			if (s != NULL)
				st_free(s);
			return;
		}
		s->ret = v;
		stl_add(&r, s);
	}
	for (i = 0; i < r.n; i++) {
		if (c->frame == NULL || c->frame->entry) {
			int64_t	k;

			/* main returns: with a C++ session, ens_finalize, the
			 * process ending well unless it returns a failure */
			if (r.v[i]->inited == 2 && !(r.v[i]->ret.k == V_INT &&
			    sym_const(r.v[i]->ret.n, &k) && k != 0))
				end_path(c, r.v[i]);
			else
				fail_path(c, r.v[i]);
			continue;
		}
		stl_add(&c->frame->rets, r.v[i]);
		c->escapes++;
	}
	free(r.v);
}

static void
exec_jump(struct ctx *c, const struct cnode *n, struct st *s)
{
	struct loopx	*l = c->loop;

	if (n->k == K_CONTINUE)
		while (l != NULL && l->isswitch)
			l = l->up;
	if (l == NULL) {
		ierr(c, &n->loc, "a '%s' outside a loop", n->k == K_BREAK ?
		    "break" : "continue");
		st_free(s);
		return;
	}
	stl_add(n->k == K_BREAK ? &l->brk : &l->cont, s);
	c->escapes++;
}

/* Python's try: the 'except' blocks are ways where the data raises an
 * exception; around communication not followed. */
static void
exec_try(struct ctx *c, const struct cnode *n, struct st *s, struct stl *out)
{
	const struct cnode	*h;
	struct cnode		*ifs;
	struct stl		 r;
	int			 i;

	if (n->op > 0 && may_comm(c, n->b)) {
		ierr(c, &n->loc, "a 'try' with 'except' around communication: "
		    "where an exception would leave it is not followed");
		st_free(s);
		return;
	}
	memset(&r, 0, sizeof(r));
	if (n->op > 0) {
		/* try: body, or (an exception) a handler */
		if (n->d == NULL) {
			struct cnode	**t;

			ifs = code_node(c->p, K_IF, &n->loc);
			ifs->a = code_node(c->p, X_UNKNOWN, &n->loc);
			ifs->a->s = "an exception";
			ifs->b = n->b;
			ifs->s = "an exception";
			t = &ifs->c;
			for (h = n->list; h != NULL; h = h->next) {
				struct cnode	*w;

				if (h->next == NULL) {
					*t = (struct cnode *)h;
					break;
				}
				w = code_node(c->p, K_IF, &h->loc);
				w->a = ifs->a;
				w->b = (struct cnode *)h;
				w->s = ifs->s;
				*t = w;
				t = &w->c;
			}
			((struct cnode *)n)->d = ifs;
		}
		exec(c, n->d, s, &r);
	} else
		exec(c, n->b, s, &r);
	for (i = 0; i < r.n; i++) {
		if (n->c != NULL)
			exec(c, n->c, r.v[i], out);
		else
			stl_add(out, r.v[i]);
	}
	free(r.v);
}

static void
exec(struct ctx *c, const struct cnode *n, struct st *s, struct stl *out)
{
	if (stopped(c)) {
		st_free(s);
		return;
	}
	if (++c->steps > INTERP_MAX_STEPS) {
		ierr(c, &n->loc, "more than %ld steps to follow the ways through "
		    "the code: too many ways (ifs whose ways cannot be joined)",
		    INTERP_MAX_STEPS);
		st_free(s);
		return;
	}
	switch (n->k) {
	case K_BLOCK:
		exec_list(c, n->list, s, out);
		return;
	case K_EXPR:
		exec_expr(c, n->a, s, out);
		return;
	case K_DECL:
		exec_decl(c, n, s, out);
		return;
	case K_IF:
		exec_if(c, n, s, out);
		return;
	case K_WHILE:
	case K_DO:
	case K_FOR:
	case K_FOREACH:
		exec_loop(c, n, s, out);
		return;
	case K_SWITCH:
		exec_switch(c, n, s, out);
		return;
	case K_RETURN:
		exec_return(c, n, s, out);
		return;
	case K_BREAK:
	case K_CONTINUE:
		exec_jump(c, n, s);
		return;
	case K_TRY:
		exec_try(c, n, s, out);
		return;
	case K_UNSUPP:
		if (may_comm(c, n->a) || n->a == NULL)
			ierr(c, &n->loc, "%s: not followed", n->s);
		else
			stl_add(out, s);
		if (stopped(c))
			st_free(s);
		return;
	case K_CASE:
		exec(c, n->b, s, out);
		return;
	default:
		exec_expr(c, n, s, out);
		return;
	}
}

/* ---- calls ---- */

#define CALL_MAX_ARGS	32

/* A function of the program, inlined: its ways out, the returns and the
 * end of its body, joined after what it wrote when they can be. */
static void
inline_call(struct ctx *c, struct st *s, const struct cfunc *f,
    struct val *args, int nargs, const struct cnode *call, struct stl *out)
{
	struct bst	**pos = s->out;
	struct frame	 fr, *up;
	struct stl	 all;
	long		 e0;
	int		 i;

	for (up = c->frame; up != NULL; up = up->up)
		if (up->f == f) {
			if (may_comm_func(c, f)) {
				ierr(c, &call->loc, "'%s' calls itself (recursion), "
				    "which the inference does not follow", f->name);
				st_free(s);
				return;
			}
			/* A recursion that does not communicate: its value is
			 * not known, what it is given may change. */
			for (i = 0; i < nargs; i++)
				if (args[i].k == V_PTR)
					mem_havoc(c, s, args[i].obj, "memory a "
					    "recursive function changes", &call->loc);
			s->ret = v_top("what a recursive function returns",
			    &call->loc);
			stl_add(out, s);
			return;
		}
	if (c->depth >= INTERP_MAX_DEPTH) {
		ierr(c, &call->loc, "calls nested more than %d deep: not followed",
		    INTERP_MAX_DEPTH);
		st_free(s);
		return;
	}
	memset(&fr, 0, sizeof(fr));
	fr.f = (struct cfunc *)f;
	fr.inst = ++c->ninst;
	fr.up = c->frame;
	for (i = 0; i < f->nparams; i++)
		mem_write(c, s, obj_id(c, fr.inst, f->params[i]), NULL, NULL,
		    i < nargs ? args[i] : v_top("a parameter the call does not "
		    "give", &call->loc));
	e0 = c->escapes;
	c->frame = &fr;
	c->depth++;
	memset(&all, 0, sizeof(all));
	s->ret = v_kind(V_NULL);
	exec(c, f->body, s, &all);
	c->frame = fr.up;
	c->depth--;
	for (i = 0; i < all.n; i++)
		all.v[i]->ret = v_kind(V_NULL);
	join_escaped(c, &all, &fr.rets, e0, pos, &call->loc, out);
}

/* A call whose function is not the program's and not one known:
 * what its pointers point to may change, its value is not known. */
static void
call_external(struct ctx *c, struct st *s, const char *name, struct val *args,
    int nargs, const struct cnode *call, struct stl *out)
{
	const struct cfunc	*f;
	char			*why;
	int			 i;

	for (i = 0; i < nargs; i++) {
		if (args[i].k == V_PTR)
			mem_havoc(c, s, args[i].obj, "memory a call of a function "
			    "not followed writes", &call->loc);
		if (args[i].k == V_FUNC && (f = code_func(c->p, args[i].fn)) != NULL &&
		    f->body != NULL && may_comm_func(c, f)) {
			ierr(c, &call->loc, "'%s' is given '%s', which communicates, "
			    "and may call it: not followed", name, f->name);
			st_free(s);
			return;
		}
	}
	xasprintf(&why, "what '%s' returns", name);
	s->ret = v_top(arena_strdup(c->a, why), &call->loc);
	free(why);
	stl_add(out, s);
}

void
note_once(struct ctx *c, struct infer_note **t, const char *text,
    const struct cloc *l)
{
	struct infer_note	*n;

	for (; *t != NULL; t = &(*t)->next)
		if ((*t)->loc.line == l->line && (*t)->loc.col == l->col &&
		    strcmp((*t)->loc.file, l->file) == 0)
			return;
	n = arena_alloc(c->a, sizeof(*n));
	n->loc = *l;
	n->text = arena_strdup(c->a, text);
	*t = n;
}

static void
call_multi(struct ctx *c, struct st *s, const struct cnode *call, struct stl *out)
{
	const struct cnode	*argn[CALL_MAX_ARGS], *k;
	const struct cfunc	*f;
	struct val		 args[CALL_MAX_ARGS], fv, self, ret;
	const char		*name;
	int			 nargs = 0;

	if (stopped(c)) {
		st_free(s);
		return;
	}
	if (call->a->k == X_MEMBER) {
		if (eval(c, &s, call->a->a, &self) != 0)
			goto dead;
		if (self.k == V_TOP && call->a->a->k == X_VAR &&
		    c->p->lang == LANG_CXX) {
			/* a C++ object's method: the object itself */
			self = v_kind(V_PTR);
			self.obj = obj_id(c, call->a->a->op & VAR_GLOBAL ? 0 :
			    inst_here(c), call->a->a->key);
			self.off = sym_int(c->a, 0);
		}
	} else if (call->a->k != X_FUNC) {
		if (eval(c, &s, call->a, &fv) != 0)
			goto dead;
	}
	for (k = call->list; k != NULL; k = k->next) {
		if (nargs == CALL_MAX_ARGS) {
			ierr(c, &call->loc, "a call of more than %d arguments",
			    CALL_MAX_ARGS);
			goto dead;
		}
		argn[nargs] = k;
		if (eval(c, &s, k, &args[nargs++]) != 0)
			goto dead;
	}
	ret = v_top("what a call returns", &call->loc);
	s->ret = ret;
	if (call->a->k == X_MEMBER) {
		if (self.k == V_MOD || api_method(c, s, call, &self, call->a->s,
		    args, nargs, &ret, out) != 0) {
			char	*why;

			/* A method of something not followed. */
			if (self.k == V_PTR && !(call->a->op & MEMBER_CONST))
				mem_havoc(c, s, self.obj, "an object a method "
				    "changes", &call->loc);
			call_external(c, s, call->a->s, args, nargs, call, out);
			(void)why;
		}
		return;
	}
	if (call->a->k == X_FUNC)
		name = call->a->key != NULL ? call->a->key : call->a->s;
	else if (fv.k == V_FUNC)
		name = fv.fn;
	else {
		if (c->fptr_comm) {
			ierr(c, &call->loc, "a call through a pointer, to a function "
			    "not known here: not followed (the program has "
			    "functions that communicate whose address it takes)");
			goto dead;
		}
		call_external(c, s, "a function pointer", args, nargs, call, out);
		return;
	}
	if ((f = code_func(c->p, name)) != NULL && f->body != NULL) {
		inline_call(c, s, f, args, nargs, call, out);
		return;
	}
	if (f != NULL)
		name = f->name;
	else if (call->a->k == X_FUNC)
		name = call->a->s;
	if (api_call(c, s, call, name, args, argn, nargs, &ret, out) == 0)
		return;
	if (call->a->k == X_FUNC && call->a->op & FUNC_ELSEWHERE)
		/* the program's own, in a file not given: not followed,
		 * said in the behaviour's notes */
		note_once(c, &c->r->elsewhere, name, &call->loc);
	call_external(c, s, name, args, nargs, call, out);
	return;
dead:
	if (s != NULL)
		st_free(s);
}

/* A call in an expression: one way out (its ways joined), its value. */
static int
eval_call(struct ctx *c, struct st **sp, const struct cnode *call,
    struct val *out)
{
	struct stl	r;

	memset(&r, 0, sizeof(r));
	call_multi(c, *sp, call, &r);
	*sp = NULL;
	if (stopped(c) || r.n == 0) {
		stl_free(&r);
		return -1;
	}
	if (r.n > 1) {
		ierr(c, &call->loc, "a call in an expression whose ways through the "
		    "function cannot be joined (they hold different requests, or "
		    "one ends the process): make it a statement of its own");
		stl_free(&r);
		return -1;
	}
	*sp = r.v[0];
	*out = (*sp)->ret;
	free(r.v);
	return 0;
}

/* ---- the whole ---- */

void
interp_run(struct infer *r)
{
	struct cprog	*p = r->prog;
	struct cfunc	*f;
	struct cnode	*g;
	struct frame	 top;
	struct ctx	 c;
	struct stl	 ends, tmp;
	struct st	*s;
	struct obj	*o;
	int		 i, id;

	memset(&c, 0, sizeof(c));
	c.r = r;
	c.p = p;
	c.a = p->arena;
	c.ids = hmap_new();
	c.commf = hmap_new();
	c.loopvars = hmap_new();
	for (f = p->funcs; f != NULL; f = f->next)
		find_fptrs(&c, f->body, 0);
	find_fptrs(&c, p->globals, 0);
	s = st_new();
	s->out = &r->body;
	s->ret = v_kind(V_NULL);
	/* Globals, then main with argv (or the module's code). */
	memset(&tmp, 0, sizeof(tmp));
	stl_add(&tmp, s);
	for (g = p->globals; g != NULL && tmp.n == 1; g = g->next) {
		s = tmp.v[0];
		tmp.n = 0;
		exec(&c, g, s, &tmp);
	}
	if (tmp.n != 1 || stopped(&c)) {
		if (!stopped(&c))
			ierr(&c, &p->entry->loc, "the program's globals cannot be "
			    "read");
		stl_free(&tmp);
		goto out;
	}
	s = tmp.v[0];
	free(tmp.v);
	id = obj_id(&c, 0, p->lang == LANG_PYTHON ? "sys.argv" : "(argv)");
	o = obj_mut(&c, s, id);
	o->argv = 1;
	memset(&top, 0, sizeof(top));
	top.f = p->entry;
	top.inst = ++c.ninst;
	top.entry = 1;
	c.frame = &top;
	if (p->lang != LANG_PYTHON && p->entry->nparams >= 2) {
		struct val	av = v_kind(V_PTR);

		av.obj = id;
		av.off = sym_int(c.a, 0);
		mem_write(&c, s, obj_id(&c, top.inst, p->entry->params[0]), NULL,
		    NULL, v_top("the number of arguments (argc)", &p->entry->loc));
		mem_write(&c, s, obj_id(&c, top.inst, p->entry->params[1]), NULL,
		    NULL, av);
	}
	memset(&ends, 0, sizeof(ends));
	exec(&c, p->entry->body, s, &ends);
	c.frame = NULL;
	for (i = 0; i < ends.n; i++) {
		/* The end of main, or of the Python module. */
		if (p->lang == LANG_PYTHON || ends.v[i]->inited == 2)
			end_path(&c, ends.v[i]);
		else
			fail_path(&c, ends.v[i]);
	}
	free(ends.v);
	if (!stopped(&c) && c.nends == 0 && c.nforever == 0)
		ierr(&c, &p->entry->loc, p->lang == LANG_PYTHON ? "no way "
		    "through the program ends as a component should (each fails "
		    "or raises)" : "no way through main reaches ens_finalize (each "
		    "fails, or returns or exits without it)");
out:
	hmap_free(c.ids);
	hmap_free(c.commf);
	hmap_free(c.loopvars);
	free(c.idkey);
	free(c.idinst);
	free(c.sites);
}
