/* compile.c -- the MP net compiler: each process's instantiated behaviour
 * (pcg_proc.prog) becomes a program of instructions over its local ports;
 * processes with the same code share one program.  Static errors the
 * explorer could not represent are reported here, at their statements.
 *
 * Every instruction knows the requests posted and not yet waited for
 * before it (ins.nposted, ins.sd): the explorer keeps their slots and
 * nothing else.  Where ways with different pending requests meet (after a
 * 'choice' whose branches post differently, at the head of a loop whose
 * body does), what follows is compiled once per set of pending requests,
 * until the sets agree again (a 'waitall' empties them all).  The ways on
 * from the code compiled so far are paths, one per set (struct path); a
 * statement is compiled once for each path that reaches it. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "compile.h"
#include "xmalloc.h"

/* Request slots one process may hold: more is a missing waitall. */
#define MPNET_MAX_SLOTS		64
/* Instructions per program, copies included, and descriptors of the
 * requests pending at them (a block per set). */
#define MPNET_MAX_INS		(1 << 20)
#define MPNET_MAX_SD		(1 << 21)
/* Requests one waitsome may list: its branches are every set of them. */
#define MPNET_WAITSOME_MOST	6
/* Paths in a front before it keeps an index of their sets. */
#define FRONT_INDEX		8

/* A way into the next instruction compiled: falling from instruction at
 * (or through the JUMP that took its fall over: cc.fallj), from the NEXT
 * at to its exit, or from the branch alts[at] of a CHOICE. */
enum { E_FALL, E_TARGET, E_ALT };
struct edge {
	int		 kind;
	int		 at;
};

/* The ways on with the same requests pending: pr->sd[off..off+n). */
struct path {
	int		 off, n;
	struct edge	*e;
	int		 ne;
	size_t		 ealloc;
	/* As a loop's head: its NEXT (-1 until emitted), its first
	 * iteration (from 0), whether the body comes back to it. */
	int		 pc;
	int		 depth;
	int		 back;
};

/* The paths at one point of the program, each set of requests once. */
struct front {
	struct path	*p;
	int		 n;
	int		 kept;		/* p[0 .. kept) hold edge arrays to reuse */
	size_t		 alloc;
	struct hmap	*index;		/* (hash of the set, n) -> path */
	int		 collided;	/* two sets in it share a hash */
};

/* Emptied fronts whose arrays the next statements reuse (most programs
 * have one path a statement: two allocations each, otherwise). */
#define FRONT_SPARE	8

struct cc {
	struct mpnet	*net;
	const struct pcg *g;
	int		 proc;
	const struct pcg_proc *p;
	struct prog	*pr;
	size_t		 insalloc, altalloc, sdalloc, ctralloc, fjalloc;
	/* The requests pending on the path being compiled: descriptors. */
	int		*posted;
	int		 nposted;
	/* The last instruction, while the next one emitted may be the one
	 * it falls into; per instruction, the JUMP that took its fall over. */
	int		 fall;
	int		*fallj;
	int		 copy;		/* compiling code compiled already */
	const struct stmt *dup;		/* first statement copied after */
	int		 failed;
	struct hmap	*colls;
	struct hmap	*said;		/* statements already reported */
	int		*typeoff;	/* local port of each type's first port */
	struct front	 spare[FRONT_SPARE];
	int		 nspare;
	/* The request names of the program being compiled (pcg_bstmt.req,
	 * interned): slotdesc.req is 1 + the index of its name here. */
	const char	*rnames[MPNET_MAX_SLOTS];
	int		 nrnames;
	/* The messages its probes name ('probe ... as m'), interned, and
	 * the local ports lo..hi-1 any of them may find: each holds its
	 * port in a counter of its own past the loops' (ins.ctr is the
	 * name's index here until the program is done: probe_ctrs). */
	const char	*pnames[MPNET_MAX_SLOTS];
	int		 plo[MPNET_MAX_SLOTS], phi[MPNET_MAX_SLOTS];
	int		 npnames;
	int		 unreached;	/* compiling code after an endless loop */
};

/* Whether the error at src is new (an error is said once per statement,
 * not once per process); marks the program failed either way. */
static int
first_time(struct cc *x, const struct stmt *src)
{
	int	old;

	x->failed = 1;
	return hmap_put(x->said, (uint64_t)(uintptr_t)src, 0, 1, &old) == HMAP_INSERTED;
}

/* Whether the program would outgrow its limits with k more instructions
 * and d more descriptors; an error at src (once) if so. */
static int
too_big(struct cc *x, const struct stmt *src, int k, int d)
{
	char	pn[PCG_NAME_MAX];

	if (x->pr->nins + k <= MPNET_MAX_INS && x->pr->nsd + d <= MPNET_MAX_SD)
		return 0;
	if (!x->failed) {
		diag_error(x->g->diag, src != NULL ? &src->loc : &x->p->loc,
		    "the behaviour of '%s' compiles to too large a program "
		    "(more than %d instructions or %d descriptors of pending "
		    "requests)", pcg_proc_name(x->g, x->proc, pn, sizeof(pn)),
		    MPNET_MAX_INS, MPNET_MAX_SD);
		if (x->dup != NULL)
			diag_note(x->g->diag, &x->dup->loc, "from here on, its "
			    "code is copied for each set of requests that may "
			    "be pending");
	}
	x->failed = 1;
	return 1;
}

/* Append an instruction with requests pr->sd[off..off+n) pending. */
static int
emit_set(struct cc *x, int op, const struct stmt *src, int off, int n)
{
	struct ins	*in;

	if (too_big(x, src, 1, 0))
		return x->pr->nins - 1;
	xgrow(&x->pr->ins, &x->insalloc, x->pr->nins + 1, sizeof(struct ins));
	xgrow(&x->fallj, &x->fjalloc, x->pr->nins + 1, sizeof(int));
	x->fallj[x->pr->nins] = -1;
	in = &x->pr->ins[x->pr->nins];
	memset(in, 0, sizeof(*in));
	in->op = op;
	in->src = src;
	in->slot = in->ctr = in->coll = in->after = -1;
	in->nposted = n;
	in->sd = n > 0 ? off : -1;
	return x->pr->nins++;
}

/* The requests pending now as one block of descriptors, *off and *n: the
 * block they are in already, or a new copy (the next ones then share it). */
static void
cur_set(struct cc *x, const struct stmt *src, int *off, int *n)
{
	int	k;

	*n = x->nposted;
	*off = -1;
	if (x->nposted == 0)
		return;
	for (k = 1; k < x->nposted && x->posted[k] == x->posted[0] + k; k++)
		;
	if (k < x->nposted && !too_big(x, src, 0, x->nposted)) {
		xgrow(&x->pr->sd, &x->sdalloc, x->pr->nsd + x->nposted,
		    sizeof(struct slotdesc));
		for (k = 0; k < x->nposted; k++) {
			x->pr->sd[x->pr->nsd + k] = x->pr->sd[x->posted[k]];
			x->posted[k] = x->pr->nsd + k;
		}
		x->pr->nsd += x->nposted;
	}
	*off = x->posted[0];
}

/* Make pr->sd[off..off+n) the requests pending now. */
static void
load_set(struct cc *x, int off, int n)
{
	int	k;

	for (k = 0; k < n; k++)
		x->posted[k] = off + k;
	x->nposted = n;
}

/* Append an instruction with the requests pending now. */
static int
emit(struct cc *x, int op, const struct stmt *src)
{
	int	off, n;

	cur_set(x, src, &off, &n);
	return emit_set(x, op, src, off, n);
}

/* ---- paths and fronts ---- */

static uint64_t
set_hash(const struct cc *x, int off, int n)
{
	uint64_t	h = 1469598103934665603ULL;
	int		k, v[6], j;

	for (k = 0; k < n; k++) {
		const struct slotdesc	*d = &x->pr->sd[off + k];

		v[0] = d->kind;
		v[1] = d->mode;
		v[2] = d->lp;
		v[3] = d->lo;
		v[4] = d->hi;
		v[5] = d->req;
		for (j = 0; j < 6; j++) {
			h ^= (uint64_t)(unsigned)v[j];
			h *= 1099511628211ULL;
		}
	}
	return h;
}

/* Whether two blocks of descriptors are the same requests (whichever
 * statements posted them). */
static int
same_set(const struct cc *x, int aoff, int an, int boff, int bn)
{
	int	k;

	if (an != bn)
		return 0;
	for (k = 0; k < an; k++) {
		const struct slotdesc	*a = &x->pr->sd[aoff + k];
		const struct slotdesc	*b = &x->pr->sd[boff + k];

		if (a->kind != b->kind || a->mode != b->mode || a->lp != b->lp ||
		    a->lo != b->lo || a->hi != b->hi || a->req != b->req)
			return 0;
	}
	return 1;
}

static void
edge_add(struct path *p, int kind, int at)
{
	xgrow(&p->e, &p->ealloc, p->ne + 1, sizeof(*p->e));
	p->e[p->ne].kind = kind;
	p->e[p->ne].at = at;
	p->ne++;
}

static void
front_index(const struct cc *x, struct front *f, int k)
{
	int	old;

	if (hmap_put(f->index, set_hash(x, f->p[k].off, f->p[k].n),
	    (uint64_t)f->p[k].n, k, &old) == HMAP_FOUND)
		f->collided = 1;
}

/* The path of f with the requests pr->sd[off..off+n) pending, or -1. */
static int
front_find(const struct cc *x, const struct front *f, int off, int n)
{
	int	k;

	if (f->index != NULL) {
		k = hmap_get(f->index, set_hash(x, off, n), (uint64_t)n);
		if (k >= 0 && same_set(x, f->p[k].off, f->p[k].n, off, n))
			return k;
		if (!f->collided)
			return -1;
	}
	for (k = 0; k < f->n; k++)
		if (same_set(x, f->p[k].off, f->p[k].n, off, n))
			return k;
	return -1;
}

/* The path of f for those requests, new without ways in if need be. */
static int
front_add(const struct cc *x, struct front *f, int off, int n)
{
	struct path	*p;
	int		 k;

	if ((k = front_find(x, f, off, n)) >= 0)
		return k;
	xgrow(&f->p, &f->alloc, f->n + 1, sizeof(*f->p));
	p = &f->p[f->n];
	if (f->n < f->kept) {	/* its edge array again, emptied */
		struct edge	*e = p->e;
		size_t		 ealloc = p->ealloc;

		memset(p, 0, sizeof(*p));
		p->e = e;
		p->ealloc = ealloc;
	} else {
		memset(p, 0, sizeof(*p));
		f->kept++;
	}
	p->off = off;
	p->n = n;
	p->pc = -1;
	k = f->n++;
	if (f->index == NULL && f->n > FRONT_INDEX) {
		f->index = hmap_new();
		for (int j = 0; j < f->n; j++)
			front_index(x, f, j);
	} else if (f->index != NULL)
		front_index(x, f, k);
	return k;
}

/* Move path p's ways into f; the path of f that has them. */
static int
front_take(const struct cc *x, struct front *f, struct path *p)
{
	int	k = front_add(x, f, p->off, p->n), j;

	for (j = 0; j < p->ne; j++)
		edge_add(&f->p[k], p->e[j].kind, p->e[j].at);
	p->ne = 0;
	return k;
}

static void
front_free(struct front *f)
{
	int	k;

	for (k = 0; k < f->kept; k++)
		free(f->p[k].e);
	free(f->p);
	if (f->index != NULL)
		hmap_free(f->index);
	memset(f, 0, sizeof(*f));
}

/* An empty front into f: a spare one, or a new one. */
static void
front_get(struct cc *x, struct front *f)
{
	if (x->nspare > 0)
		*f = x->spare[--x->nspare];
	else
		memset(f, 0, sizeof(*f));
}

/* f is done with: emptied and kept for reuse, or freed. */
static void
front_put(struct cc *x, struct front *f)
{
	if (x->nspare == FRONT_SPARE || f->index != NULL) {
		front_free(f);
		return;
	}
	f->n = 0;
	f->collided = 0;
	x->spare[x->nspare++] = *f;
	memset(f, 0, sizeof(*f));
}

/* Give the open fall from the last instruction a JUMP of its own: the
 * next instruction emitted goes elsewhere. */
static void
seal(struct cc *x)
{
	const struct ins	*a = &x->pr->ins[x->fall];
	int			 at = x->fall, off = a->sd, n = a->nposted, j;

	switch (a->op) {
	case OP_ISEND:
	case OP_IRECV:
	case OP_IRECVANY:
		n++;		/* its own request, last in its block */
		break;
	case OP_WAITALL:
		n = 0;
		break;
	case OP_WAIT:
		off = a->after;
		n -= __builtin_popcountll(a->wmask);
		break;
	}
	x->fall = -1;
	j = emit_set(x, OP_JUMP, a->src, off, n);
	if (!x->failed)
		x->fallj[at] = j;
}

/* Whether path p holds the open fall from the last instruction. */
static int
owns_fall(const struct cc *x, const struct path *p)
{
	int	k;

	for (k = 0; k < p->ne && x->fall >= 0; k++)
		if (p->e[k].kind == E_FALL && p->e[k].at == x->fall)
			return 1;
	return 0;
}

/* Make the next instruction emitted the one path p goes on to: its ways
 * lead there (a JUMP of its own that ends the code is dropped: it would
 * jump there). */
static void
enter(struct cc *x, struct path *p)
{
	int	k, last, at;

	if (x->fall >= 0 && !owns_fall(x, p))
		seal(x);
	last = x->pr->nins - 1;
	for (k = 0; last >= 0 && x->pr->ins[last].op == OP_JUMP && k < p->ne;
	    k++) {
		at = p->e[k].at;
		if (p->e[k].kind == E_FALL && x->fallj[at] == last) {
			x->fallj[at] = -1;
			x->pr->nins--;
			break;
		}
	}
	for (k = 0; k < p->ne; k++) {
		at = p->e[k].at;
		switch (p->e[k].kind) {
		case E_FALL:
			if (x->fallj[at] >= 0)
				x->pr->ins[x->fallj[at]].target = x->pr->nins;
			break;
		case E_TARGET:
			x->pr->ins[at].target = x->pr->nins;
			break;
		case E_ALT:
			x->pr->alts[at] = x->pr->nins;
			break;
		}
	}
	p->ne = 0;
	x->fall = -1;
}

/* Send path p's ways to instruction pc, emitted already. */
static void
route(struct cc *x, struct path *p, int pc)
{
	int	k, at;

	for (k = 0; k < p->ne; k++) {
		at = p->e[k].at;
		switch (p->e[k].kind) {
		case E_FALL:
			if (x->fallj[at] < 0 && x->fall == at)
				seal(x);
			if (x->fallj[at] >= 0)
				x->pr->ins[x->fallj[at]].target = pc;
			break;
		case E_TARGET:
			x->pr->ins[at].target = pc;
			break;
		case E_ALT:
			x->pr->alts[at] = pc;
			break;
		}
	}
	p->ne = 0;
}

/* Path p goes on from instruction i only, by its fall. */
static void
fall_from(struct cc *x, struct path *p, int i)
{
	p->ne = 0;
	edge_add(p, E_FALL, i);
	x->fall = i;
}

/* ---- statements ---- */

static void
bound_add(struct cc *x, int lp, int64_t mult)
{
	int64_t	*b = &x->pr->lpbound[lp];

	if (x->copy || *b < 0)
		return;		/* (a copy's sends count in the first) */
	if (mult < 0 || *b > INT64_MAX / 2 - mult)
		*b = -1;
	else
		*b += mult;
}

/* The number of request name 'name' in the program (1 + its index). */
static int
req_id(struct cc *x, const char *name)
{
	int	k;

	if (name == NULL)
		return 0;
	for (k = 0; k < x->nrnames; k++)
		if (x->rnames[k] == name)
			return k + 1;
	if (x->nrnames == MPNET_MAX_SLOTS)
		return 0;	/* (behave.c allows fewer) */
	x->rnames[x->nrnames++] = name;
	return x->nrnames;
}

/* The place of named request 'name' among those pending now, or -1. */
static int
req_find(struct cc *x, const char *name)
{
	int	id = req_id(x, name), k;

	for (k = 0; id > 0 && k < x->nposted; k++)
		if (x->pr->sd[x->posted[k]].req == id)
			return k;
	return -1;
}

/* The same, where it must be pending (waitany, waitsome: behave.c's
 * check said it is on every way here); else an error, -1. */
static int
req_slot(struct cc *x, const struct pcg_bstmt *b, const char *name)
{
	int	k;

	if ((k = req_find(x, name)) >= 0)
		return k;
	if (x->unreached)
		return -1;	/* (no way comes here: nothing is pending) */
	if (first_time(x, b->src))
		diag_error(x->g->diag, &b->src->loc, "request '%s' is not "
		    "pending here", name);
	return -1;
}

/* The index of probed message 'name' (struct cc.pnames), or -1. */
static int
pname_find(const struct cc *x, const char *name)
{
	int	k;

	for (k = 0; name != NULL && k < x->npnames; k++)
		if (x->pnames[k] == name)
			return k;
	return -1;
}

/* Find the messages the probes of statements b name, and the ports each
 * may be found on (before the program is compiled: a 'recv m' may come
 * before a probe of m in the text, in a loop). */
static void
probe_names(struct cc *x, const struct pcg_bstmt *b)
{
	const struct pcg_bbranch *br;
	int			 k, lo, hi;

	for (; b != NULL; b = b->next) {
		if ((b->kind == S_PROBE || b->kind == S_PROBE_ANY ||
		    b->kind == S_IPROBE || b->kind == S_IPROBE_ANY) &&
		    b->req != NULL) {
			if (b->kind == S_PROBE || b->kind == S_IPROBE) {
				lo = x->typeoff[b->type] + b->port - 1;
				hi = lo + 1;
			} else if (b->type >= 0) {
				lo = x->typeoff[b->type];
				hi = lo + x->p->nports[b->type];
			} else {
				lo = 0;
				hi = x->pr->nlp;
			}
			if ((k = pname_find(x, b->req)) < 0 &&
			    x->npnames < MPNET_MAX_SLOTS) {	/* (behave.c allows fewer) */
				k = x->npnames++;
				x->pnames[k] = b->req;
				x->plo[k] = lo;
				x->phi[k] = hi;
			} else if (k >= 0) {
				if (lo < x->plo[k])
					x->plo[k] = lo;
				if (hi > x->phi[k])
					x->phi[k] = hi;
			}
		}
		probe_names(x, b->body);
		probe_names(x, b->orelse);
		for (br = b->branches; br != NULL; br = br->next)
			probe_names(x, br->body);
	}
}

/* The program is done: each probed message's counter after the loops',
 * holding the local port its probe found + 1 (0: none). */
static void
probe_ctrs(struct cc *x)
{
	int	base = x->pr->nctr, k;

	for (k = 0; k < x->pr->nins; k++) {
		struct ins	*in = &x->pr->ins[k];

		if (in->ctr >= 0 && (in->op == OP_PROBE || in->op == OP_PROBEANY ||
		    in->op == OP_IPROBE || in->op == OP_IPROBEANY ||
		    in->op == OP_RECVPROBED))
			in->ctr += base;
	}
	xgrow(&x->pr->ctrmax, &x->ctralloc, x->pr->nctr + x->npnames + 1,
	    sizeof(int64_t));
	for (k = 0; k < x->npnames; k++)
		x->pr->ctrmax[x->pr->nctr++] = x->pr->nlp;
}

/* 'recv m', entered by path p: a receive on the port m's counter holds
 * (one of those its probes may find it on), which it empties. */
static void
recv_probed(struct cc *x, struct path *p, const struct pcg_bstmt *b)
{
	int	k = pname_find(x, b->req), i;

	enter(x, p);
	i = emit(x, OP_RECVPROBED, b->src);
	x->pr->ins[i].ctr = k;		/* (behave.c: a probe names it) */
	x->pr->ins[i].lp = -1;
	x->pr->ins[i].lo = k >= 0 ? x->plo[k] : 0;
	x->pr->ins[i].hi = k >= 0 ? x->phi[k] : 0;
	fall_from(x, p, i);
}

/* Take the requests of mask (bit k: the k-th pending now) out of those
 * pending now; the others keep their order. */
static void
drop(struct cc *x, uint64_t mask)
{
	int	k, j = 0;

	for (k = 0; k < x->nposted; k++)
		if (!(mask >> k & 1))
			x->posted[j++] = x->posted[k];
	x->nposted = j;
}

/* A new request descriptor, posted by the next instruction. */
static int
post(struct cc *x, const struct stmt *src, int kind, int mode, int lp, int lo, int hi)
{
	struct slotdesc	*d;
	char		 pn[PCG_NAME_MAX];

	if (x->nposted >= MPNET_MAX_SLOTS) {
		if (first_time(x, src))
			diag_error(x->g->diag, &src->loc, "more than %d requests "
			    "pending in '%s': a 'waitall' is missing",
			    MPNET_MAX_SLOTS, pcg_proc_name(x->g, x->proc, pn, sizeof(pn)));
		return -1;
	}
	if (too_big(x, src, 0, 1))
		return -1;
	xgrow(&x->pr->sd, &x->sdalloc, x->pr->nsd + 1, sizeof(struct slotdesc));
	d = &x->pr->sd[x->pr->nsd];
	memset(d, 0, sizeof(*d));	/* padding too: programs are compared whole */
	d->kind = kind;
	d->mode = mode;
	d->lp = lp;
	d->lo = lo;
	d->hi = hi;
	d->ins = x->pr->nins;
	d->req = 0;
	x->posted[x->nposted] = x->pr->nsd++;
	return x->nposted++;
}

static int local_port_of(struct cc *, const struct pcg_bstmt *, int, int);

/* The local port of T[k]; an error if it is not connected. */
static int
local_port(struct cc *x, const struct pcg_bstmt *b, int k)
{
	return local_port_of(x, b, b->type, k);
}

/* The local port of port k of type 'type' that b uses. */
static int
local_port_of(struct cc *x, const struct pcg_bstmt *b, int type, int k)
{
	int	lp = x->typeoff[type] + k - 1;
	char	pn[PCG_NAME_MAX];

	if (x->g->portchan[x->p->portbase + lp] < 0 && first_time(x, b->src)) {
		diag_error(x->g->diag, &b->src->loc, "'%s' uses port '%s.%s[%d]', "
		    "which is not connected", pcg_proc_name(x->g, x->proc, pn,
		    sizeof(pn)), pn, x->g->comps[x->p->comp].types[type], k);
	} else if (x->g->portchan[x->p->portbase + lp] < 0)
		x->failed = 1;
	return lp;
}

static int
coll_index(struct cc *x, int kind, int root, int group)
{
	struct mpnet	*n = x->net;
	int		 old;

	if (hmap_put(x->colls, (uint64_t)kind << 32 | (uint32_t)(group + 1),
	    (uint64_t)(root + 1), n->ncolls, &old) == HMAP_FOUND)
		return old;
	n->colls = xreallocarray(n->colls, n->ncolls + 1, sizeof(*n->colls));
	n->colls[n->ncolls].kind = kind;
	n->colls[n->ncolls].root = root;
	n->colls[n->ncolls].group = group;
	return n->ncolls++;
}

static void list(struct cc *, struct front *, const struct pcg_bstmt *, int64_t mult);

/* Whether statements compile to no instruction at all: only loops over
 * such statements or none, and sends or receives on every port of a type
 * the process has none of.  (It mirrors what one() emits.) */
static int
silent(const struct cc *x, const struct pcg_bstmt *b)
{
	for (; b != NULL; b = b->next) {
		switch (b->kind) {
		case S_SEND:
		case S_RECV:
		case S_ISEND:
		case S_IRECV:
			if (b->port != 0 || x->p->nports[b->type] > 0)
				return 0;
			break;
		case S_LOOP:
			if (b->count < 0 || (b->count > 0 && !silent(x, b->body)))
				return 0;
			break;
		default:
			return 0;
		}
	}
	return 1;
}

/* Whether some way through statements passes no 'waitall' (*pass), and
 * some such way posts a request (*posts): a loop around them would leave
 * ever more requests pending. */
static void
nowait(const struct cc *x, const struct pcg_bstmt *b, int *pass, int *posts)
{
	const struct pcg_bbranch *br;
	int			 p = 1, q = 0, bp, bq, anyp, anyq;

	for (; b != NULL; b = b->next) {
		switch (b->kind) {
		case S_ISEND:
		case S_IRECV:
			/* (A named one cannot pile up: behave.c posts it
			 * again only once it is complete.) */
			if (b->req == NULL && (b->port != 0 ||
			    x->p->nports[b->type] > 0))
				q = 1;
			break;
		case S_IRECV_ANY:
			q |= b->req == NULL;
			break;
		case S_WAITALL:
			p = 0;
			break;
		case S_TEST:
		case S_IPROBE:
		case S_IPROBE_ANY:
			nowait(x, b->body, &bp, &bq);
			nowait(x, b->orelse, &anyp, &anyq);
			p &= bp | anyp;
			q |= bq | anyq;
			break;
		case S_WAITANY:
		case S_WAITSOME:
		case S_CHOICE:
			anyp = anyq = 0;
			for (br = b->branches; br != NULL; br = br->next) {
				nowait(x, br->body, &bp, &bq);
				anyp |= bp;
				anyq |= bq;
			}
			p &= anyp;
			q |= anyq;
			break;
		case S_LOOP:
			if (b->count < 0)
				p = 0;	/* no way out of it */
			else if (b->count > 0) {
				nowait(x, b->body, &bp, &bq);
				p &= bp;
				q |= bq;
			}
			break;
		default:
			break;
		}
	}
	*pass = p;
	*posts = p && q;
}

/* Whether instructions from..to-1 hold a communication: a send, a
 * receive, a request's posting or a collective. */
static int
communicates(const struct prog *pr, int from, int to)
{
	for (; from < to; from++) {
		switch (pr->ins[from].op) {
		case OP_SEND:
		case OP_RECV:
		case OP_RECVANY:
		case OP_RECVPROBED:
		case OP_ISEND:
		case OP_IRECV:
		case OP_IRECVANY:
		case OP_COLL:
		case OP_WAIT:
		case OP_TEST:
		case OP_WAITANY:
		case OP_WAITSOME:
		case OP_PROBE:
		case OP_PROBEANY:
		case OP_IPROBE:
		case OP_IPROBEANY:
			return 1;
		}
	}
	return 0;
}

/* Which of a counted loop's n heads its last iteration can end at, into
 * last[]: an iteration from head e[2j] can end at head e[2j + 1] (ne of
 * them), and the heads reached after t iterations are R(t), R(0) being
 * the first head; the loop leaves from those of R(count).  R repeats
 * after a few iterations (a way that posts requests and passes no
 * 'waitall' makes a set with more, and a set holds at most
 * MPNET_MAX_SLOTS), so a long loop is worked out by the period; should R
 * not repeat soon, every head is said. */
static void
loop_last(int n, const int *e, int ne, int64_t count, unsigned char *last)
{
	const int	 cap = 2 * MPNET_MAX_SLOTS + 4;
	int		 w = (n + 63) / 64, t, s, j, k;
	uint64_t	*r = xcalloc((size_t)(cap + 1) * w, sizeof(uint64_t));
	int64_t		 at = -1;

	r[0] = 1;	/* R(0): the first head */
	for (t = 1; t <= cap && at < 0; t++) {
		uint64_t	*prev = &r[(size_t)(t - 1) * w];
		uint64_t	*cur = &r[(size_t)t * w];

		for (j = 0; j < ne; j++) {
			int	a = e[2 * j], z = e[2 * j + 1];

			if (prev[a / 64] >> (a % 64) & 1)
				cur[z / 64] |= 1ULL << (z % 64);
		}
		if (t == count)
			at = t;
		for (s = 0; s < t && at < 0; s++)
			if (memcmp(&r[(size_t)s * w], cur, sizeof(*cur) * w) == 0)
				at = s + (count - s) % (t - s);
	}
	for (k = 0; k < n; k++)
		last[k] = at < 0 || (r[(size_t)at * w + k / 64] >> (k % 64) & 1);
	free(r);
}

/* A loop, entered by path p.  Its head is a NEXT per set of requests
 * pending at the start of an iteration, each followed by a copy of the
 * body compiled with those; a way out of a copy goes to the head of its
 * set, new if need be (the first iteration's set comes back, or the body
 * is peeled until some set does).  A counted loop shares one counter
 * among its heads, and a way out of an iteration that can only be the
 * last goes straight on.  An endless loop around a way through its body
 * that posts requests and passes no 'waitall' would pile them up without
 * bound, an error; otherwise every way that posts waits first, so the
 * sets at its head are the first and those the body leaves after its
 * last 'waitall': at most one copy more per such set.
 *
 * A counted loop whose body compiles to nothing is left out: it would
 * be control alone, which settle (sem.c) runs through count times on
 * every pass.  An endless one must communicate: its compiled body (all
 * of it, whatever loops and choices it holds) must hold a communication,
 * else it is an error.
 *
 * Why settle (sem.c) always ends: control (LOOP, NEXT, JUMP) that came
 * back to a pc would go round a loop, from one of its heads through a
 * copy of its body to a head; every other jump goes on to the code of
 * what follows.  A way through the code of statements passes that of
 * each in turn: a communication, WAITALL or CHOICE for a statement that
 * is not a loop, its body's code at least once for a loop with a count,
 * and there is no way out of an endless loop.  So every way through code
 * that holds a communication, a WAITALL or a CHOICE passes one, and
 * settle stops there.  Counted loops are kept only when their bodies
 * compile to something, which is made of those and loops; endless ones
 * only when their bodies hold a communication.  So settle meets each pc
 * at most once. */
static void
loop(struct cc *x, struct front *out, struct path *p, const struct pcg_bstmt *b,
    int64_t mult)
{
	struct front	 heads, f;
	int64_t		 m;
	int		 i, j, k, off, n, start, head, ctr = -1, copy = x->copy;
	int		 pass, posts, depth, *hg = NULL, nhg = 0;
	size_t		 hgalloc = 0;
	unsigned char	*last;
	char		 pn[PCG_NAME_MAX];

	if (b->count == 0 || (b->count > 0 && silent(x, b->body))) {
		front_take(x, out, p);
		return;
	}
	if (b->count == 1) {
		memset(&f, 0, sizeof(f));
		front_take(x, &f, p);
		list(x, &f, b->body, mult);
		for (j = 0; j < f.n; j++)
			front_take(x, out, &f.p[j]);
		front_free(&f);
		return;
	}
	m = b->count < 0 || mult < 0 ? -1 :
	    (b->count > INT64_MAX / (mult > 0 ? mult : 1) ? -1 : b->count * mult);
	memset(&heads, 0, sizeof(heads));
	off = p->off;
	n = p->n;
	enter(x, p);
	start = x->pr->nins;
	if (b->count > 0) {
		k = emit(x, OP_LOOP, b->src);
		ctr = x->pr->nctr;
		x->pr->ins[k].count = b->count;
		x->pr->ins[k].ctr = ctr;
		xgrow(&x->pr->ctrmax, &x->ctralloc, x->pr->nctr + 1, sizeof(int64_t));
		x->pr->ctrmax[x->pr->nctr++] = b->count - 1;
	}
	front_add(x, &heads, off, n);
	for (i = 0; i < heads.n && !x->failed; i++) {
		load_set(x, heads.p[i].off, heads.p[i].n);
		if (i > 0)
			enter(x, &heads.p[i]);
		head = emit(x, OP_NEXT, b->src);
		x->pr->ins[head].count = b->count;
		x->pr->ins[head].ctr = ctr;
		heads.p[i].pc = head;
		depth = heads.p[i].depth;
		memset(&f, 0, sizeof(f));
		k = front_add(x, &f, heads.p[i].off, heads.p[i].n);
		fall_from(x, &f.p[k], head);
		x->copy = copy || i > 0;
		list(x, &f, b->body, m);
		x->copy = copy;
		if (i == 0 && b->count < 0 && !x->failed) {
			nowait(x, b->body, &pass, &posts);
			if (posts && first_time(x, b->src))
				diag_error(x->g->diag, &b->src->loc, "requests "
				    "pile up without bound in an endless loop "
				    "in the behaviour of '%s': a way through its "
				    "body posts requests and passes no 'waitall'",
				    pcg_proc_name(x->g, x->proc, pn, sizeof(pn)));
		}
		for (j = 0; j < f.n && !x->failed; j++) {
			k = front_find(x, &heads, f.p[j].off, f.p[j].n);
			if (k >= 0 && heads.p[k].pc >= 0)
				route(x, &f.p[j], heads.p[k].pc);
			else if (k < 0 && b->count > 0 && depth + 1 >= b->count) {
				front_take(x, out, &f.p[j]);
				continue;	/* after the last iteration */
			} else if (k < 0) {
				k = front_take(x, &heads, &f.p[j]);
				heads.p[k].depth = depth + 1;
			} else
				front_take(x, &heads, &f.p[j]);
			heads.p[k].back = 1;
			xgrow(&hg, &hgalloc, nhg + 2, sizeof(int));
			hg[nhg++] = i;
			hg[nhg++] = k;
		}
		front_free(&f);
	}
	if (x->failed)
		goto out;
	if (heads.n > 1 && x->dup == NULL)
		x->dup = b->src;
	if (b->count < 0) {
		if (!communicates(x->pr, start, x->pr->nins) && first_time(x, b->src))
			diag_error(x->g->diag, &b->src->loc, "endless loop without "
			    "communication in the behaviour of '%s': it would never "
			    "end nor let the others go on", pcg_proc_name(x->g,
			    x->proc, pn, sizeof(pn)));
		x->pr->has_forever = 1;
		goto out;
	}
	/* Out of a counted loop: from each head reached after the last
	 * iteration (the others' exits are never taken). */
	last = xcalloc(heads.n, 1);
	loop_last(heads.n, hg, nhg / 2, b->count, last);
	for (k = 0; k < heads.n; k++) {
		head = heads.p[k].pc;
		if (!heads.p[k].back) {
			/* The first head, which the LOOP skips: never reached. */
			x->pr->ins[head].op = OP_JUMP;
			x->pr->ins[head].target = head + 1;
		} else if (!last[k])
			x->pr->ins[head].target = head + 1;
		else {
			j = front_add(x, out, heads.p[k].off, heads.p[k].n);
			edge_add(&out->p[j], E_TARGET, head);
		}
	}
	free(last);
out:
	free(hg);
	front_free(&heads);
}

/* A choice, entered by path p: each branch from the same requests, and
 * each way out of them a path of its own. */
static void
choice(struct cc *x, struct front *out, struct path *p, const struct pcg_bstmt *b,
    int64_t mult)
{
	const struct pcg_bbranch *br;
	struct front		 f;
	int			 c, n = 0, k, j, off = p->off, np = p->n;

	enter(x, p);
	c = emit(x, OP_CHOICE, b->src);
	for (br = b->branches; br != NULL; br = br->next)
		n++;
	xgrow(&x->pr->alts, &x->altalloc, x->pr->nalts + n, sizeof(int));
	x->pr->ins[c].alt = x->pr->nalts;
	x->pr->ins[c].nalt = n;
	x->pr->nalts += n;
	x->pr->has_wild = 1;
	k = 0;
	for (br = b->branches; br != NULL && !x->failed; br = br->next, k++) {
		memset(&f, 0, sizeof(f));
		j = front_add(x, &f, off, np);
		edge_add(&f.p[j], E_ALT, x->pr->ins[c].alt + k);
		list(x, &f, br->body, mult);
		for (j = 0; j < f.n; j++)
			front_take(x, out, &f.p[j]);
		front_free(&f);
	}
}

/* Wait on the requests of mask (bit k: the k-th pending now), path p
 * entered: they leave the pending ones. */
static int
wait_on(struct cc *x, struct path *p, const struct stmt *src, uint64_t mask)
{
	int	i, off, n;

	i = emit(x, OP_WAIT, src);
	x->pr->ins[i].wmask = mask;
	drop(x, mask);
	cur_set(x, src, &off, &n);
	x->pr->ins[i].after = off;
	fall_from(x, p, i);
	return i;
}

/* The local ports lo..hi-1 of 'any [T]' in b. */
static void
ports_of(struct cc *x, const struct pcg_bstmt *b, int *lo, int *hi)
{
	if (b->type >= 0) {
		*lo = x->typeoff[b->type];
		*hi = *lo + x->p->nports[b->type];
	} else {
		*lo = 0;
		*hi = x->pr->nlp;
	}
}

/* A statement that branches on the state of communication (test, iprobe,
 * waitany, waitsome), entered by path p, as a choice whose branches the
 * state enables (sem.c): each from the requests pending once those its
 * branch completes have left, each way out a path of its own.  A
 * waitany's branch k is the k-th pending of its requests, a waitsome's
 * every set of them, running their blocks in posting order. */
static void
polls(struct cc *x, struct front *out, struct path *p, const struct pcg_bstmt *b,
    int64_t mult)
{
	const struct pcg_bbranch *br;
	struct front		 f;
	uint64_t		 wmask = 0, done;
	int			 op, nalt, c, a, k, j, lo, hi, off, np, m, o2, n2;
	int			 slot[MPNET_MAX_SLOTS];
	char			 pn[PCG_NAME_MAX];

	switch (b->kind) {
	case S_TEST:
		op = OP_TEST;
		nalt = 2;
		/* Complete already on this way (MPI's test of a null request):
		 * a test that always takes its first block, a step still (an
		 * endless loop of it must pass one: settle). */
		if ((k = req_find(x, b->req)) < 0)
			nalt = 1;
		else
			wmask = (uint64_t)1 << k;
		break;
	case S_IPROBE:
	case S_IPROBE_ANY:
		op = b->kind == S_IPROBE ? OP_IPROBE : OP_IPROBEANY;
		nalt = 2;
		break;
	default:
		op = b->kind == S_WAITANY ? OP_WAITANY : OP_WAITSOME;
		for (br = b->branches, j = 0; br != NULL; br = br->next, j++) {
			if ((slot[j] = req_slot(x, b, br->req)) < 0)
				return;
			wmask |= (uint64_t)1 << slot[j];
		}
		m = __builtin_popcountll(wmask);
		if (op == OP_WAITSOME && m > MPNET_WAITSOME_MOST) {
			if (first_time(x, b->src))
				diag_error(x->g->diag, &b->src->loc, "'waitsome' in "
				    "the behaviour of '%s' lists %d requests: the "
				    "checker takes at most %d", pcg_proc_name(x->g,
				    x->proc, pn, sizeof(pn)), m, MPNET_WAITSOME_MOST);
			return;
		}
		nalt = op == OP_WAITANY ? m : (1 << m) - 1;
		break;
	}
	enter(x, p);
	c = emit(x, op, b->src);
	x->pr->ins[c].wmask = wmask;
	if (op == OP_TEST)
		x->pr->ins[c].slot = wmask != 0 ? __builtin_ctzll(wmask) : -1;
	if (op == OP_IPROBE || op == OP_IPROBEANY)
		x->pr->ins[c].ctr = pname_find(x, b->req);
	if (op == OP_IPROBE)
		x->pr->ins[c].lp = local_port(x, b, b->port);
	else if (op == OP_IPROBEANY) {
		ports_of(x, b, &lo, &hi);
		x->pr->ins[c].lo = lo;
		x->pr->ins[c].hi = hi;
	}
	xgrow(&x->pr->alts, &x->altalloc, x->pr->nalts + nalt, sizeof(int));
	x->pr->ins[c].alt = x->pr->nalts;
	x->pr->ins[c].nalt = nalt;
	x->pr->nalts += nalt;
	x->pr->has_wild = 1;
	off = x->pr->ins[c].sd;
	np = x->pr->ins[c].nposted;
	for (a = 0; a < nalt && !x->failed; a++) {
		/* The requests its branch completes. */
		if (op == OP_WAITANY)
			done = mpnet_nth_bit(wmask, a);
		else if (op == OP_WAITSOME)
			done = mpnet_pick_bits(wmask, (uint64_t)a + 1);
		else	/* test: the first; iprobe: none */
			done = a == 0 ? wmask : 0;
		load_set(x, off, np);
		drop(x, done);
		memset(&f, 0, sizeof(f));
		cur_set(x, b->src, &o2, &n2);
		j = front_add(x, &f, o2, n2);
		edge_add(&f.p[j], E_ALT, x->pr->ins[c].alt + a);
		if (op == OP_TEST || op == OP_IPROBE || op == OP_IPROBEANY)
			list(x, &f, a == 0 ? b->body : b->orelse, mult);
		else	/* each block of a request done, in posting order */
			for (k = 0; k < MPNET_MAX_SLOTS; k++) {
				if (!(done >> k & 1))
					continue;
				for (br = b->branches, j = 0; br != NULL;
				    br = br->next, j++)
					if (slot[j] == k)
						list(x, &f, br->body, mult);
			}
		for (j = 0; j < f.n; j++)
			front_take(x, out, &f.p[j]);
		front_free(&f);
	}
}

/* Statement b on path p, whose requests are pending now; the paths out
 * go to out. */
static void
one(struct cc *x, struct front *out, struct path *p, const struct pcg_bstmt *b,
    int64_t mult)
{
	int	k, lo, hi, lp, i, n, slot;

	switch (b->kind) {
	case S_SEND:
	case S_RECV:
	case S_ISEND:
	case S_IRECV:
		lo = b->port == 0 ? 1 : b->port;
		hi = b->port == 0 ? x->p->nports[b->type] : b->port;
		for (k = lo; k <= hi; k++) {
			lp = local_port(x, b, k);
			if (b->kind == S_SEND || b->kind == S_ISEND)
				bound_add(x, lp, mult);
			enter(x, p);
			if (b->kind == S_ISEND || b->kind == S_IRECV) {
				slot = post(x, b->src, b->kind == S_ISEND ?
				    SD_SEND : SD_RECV, b->mode, lp, 0, 0);
				if (slot < 0)
					return;
				x->pr->sd[x->posted[slot]].req = req_id(x, b->req);
				i = emit(x, b->kind == S_ISEND ? OP_ISEND : OP_IRECV, b->src);
				/* The instruction posts it: its own view excludes it. */
				x->pr->ins[i].nposted--;
				x->pr->ins[i].slot = slot;
			} else
				i = emit(x, b->kind == S_SEND ? OP_SEND : OP_RECV, b->src);
			x->pr->ins[i].lp = lp;
			x->pr->ins[i].mode = b->mode;
			fall_from(x, p, i);
		}
		break;
	case S_RECV_ANY:
	case S_IRECV_ANY:
		ports_of(x, b, &lo, &hi);
		enter(x, p);
		if (b->kind == S_IRECV_ANY) {
			slot = post(x, b->src, SD_RECVANY, 0, -1, lo, hi);
			if (slot < 0)
				return;
			x->pr->sd[x->posted[slot]].req = req_id(x, b->req);
			i = emit(x, OP_IRECVANY, b->src);
			x->pr->ins[i].nposted--;
			x->pr->ins[i].slot = slot;
		} else
			i = emit(x, OP_RECVANY, b->src);
		x->pr->ins[i].lo = lo;
		x->pr->ins[i].hi = hi;
		x->pr->has_wild = 1;
		fall_from(x, p, i);
		break;
	case S_WAITALL:
		enter(x, p);
		fall_from(x, p, emit(x, OP_WAITALL, b->src));
		x->nposted = 0;
		break;
	case S_BARRIER:
	case S_ALLREDUCE:
	case S_ALLGATHER:
	case S_ALLTOALL:
	case S_BCAST:
	case S_SCATTER:
	case S_REDUCE:
	case S_GATHER:
	case S_ALLGATHERV:
	case S_ALLTOALLV:
	case S_REDUCESCATTER:
	case S_SCATTERV:
	case S_GATHERV:
		n = coll_index(x, b->kind, b->root, b->group);
		if (b->group >= 0)
			x->net->groups = 1;
		if (b->root >= 0)
			x->net->rooted = 1;
		enter(x, p);
		i = emit(x, OP_COLL, b->src);
		x->pr->ins[i].coll = n;
		fall_from(x, p, i);
		break;
	case S_LOOP:
		loop(x, out, p, b, mult);
		return;
	case S_CHOICE:
		choice(x, out, p, b, mult);
		return;
	case S_SENDRECV:
	case S_SENDRECV_REPLACE:
		/* An isend, an irecv and a wait on exactly those two. */
		lp = local_port(x, b, b->port);
		k = local_port_of(x, b, b->rtype, b->rport);
		bound_add(x, lp, mult);
		enter(x, p);
		if ((slot = post(x, b->src, SD_SEND, MODE_STANDARD, lp, 0, 0)) < 0)
			return;
		i = emit(x, OP_ISEND, b->src);
		x->pr->ins[i].nposted--;
		x->pr->ins[i].slot = slot;
		x->pr->ins[i].lp = lp;
		x->pr->ins[i].mode = MODE_STANDARD;
		x->pr->ins[i].lo = lp;	/* (for its text: both ports) */
		x->pr->ins[i].hi = k;
		fall_from(x, p, i);
		if ((slot = post(x, b->src, SD_RECV, 0, k, 0, 0)) < 0)
			return;
		i = emit(x, OP_IRECV, b->src);
		x->pr->ins[i].nposted--;
		x->pr->ins[i].slot = slot;
		x->pr->ins[i].lp = k;
		x->pr->ins[i].lo = lp;
		x->pr->ins[i].hi = k;
		fall_from(x, p, i);
		i = wait_on(x, p, b->src, (uint64_t)3 << (x->nposted - 2));
		x->pr->ins[i].lo = lp;
		x->pr->ins[i].hi = k;
		break;
	case S_WAIT:
		/* Complete already on this way: a wait on nothing, which goes
		 * on at once (a step still: settle). */
		k = req_find(x, b->req);
		enter(x, p);
		wait_on(x, p, b->src, k >= 0 ? (uint64_t)1 << k : 0);
		break;
	case S_PROBE:
	case S_PROBE_ANY:
		enter(x, p);
		if (b->kind == S_PROBE) {
			lp = local_port(x, b, b->port);
			i = emit(x, OP_PROBE, b->src);
			x->pr->ins[i].lp = lp;
		} else {
			ports_of(x, b, &lo, &hi);
			i = emit(x, OP_PROBEANY, b->src);
			x->pr->ins[i].lo = lo;
			x->pr->ins[i].hi = hi;
			x->pr->has_wild = 1;
		}
		x->pr->ins[i].ctr = pname_find(x, b->req);
		fall_from(x, p, i);
		break;
	case S_RECV_PROBED:
		recv_probed(x, p, b);
		break;
	case S_TEST:
	case S_WAITANY:
	case S_WAITSOME:
	case S_IPROBE:
	case S_IPROBE_ANY:
		polls(x, out, p, b, mult);
		return;
	case S_IF:
	case S_FOR:
		break;
	}
	cur_set(x, b->src, &p->off, &p->n);
	front_take(x, out, p);
}

/* Statement b once per path of f (the one falling into it first: it needs
 * no jump); f becomes the paths out of it.  With no path (after an endless
 * loop) it is compiled all the same, for its errors. */
static void
stmt(struct cc *x, struct front *f, const struct pcg_bstmt *b, int64_t mult)
{
	struct front	 in = *f;
	int		 i, k, first = 0, copy = x->copy, unreached = x->unreached;

	front_get(x, f);
	if (in.n == 0) {
		front_add(x, &in, -1, 0);
		x->unreached = 1;
	}
	for (i = 0; i < in.n; i++)
		if (owns_fall(x, &in.p[i]))
			first = i;
	for (k = 0; k < in.n && !x->failed; k++) {
		i = k == 0 ? first : k - 1 < first ? k - 1 : k;
		load_set(x, in.p[i].off, in.p[i].n);
		x->copy = copy || k > 0;
		one(x, f, &in.p[i], b, mult);
	}
	x->copy = copy;
	x->unreached = unreached;
	if (f->n > 1 && x->dup == NULL)
		x->dup = b->src;
	front_put(x, &in);
}

static void
list(struct cc *x, struct front *f, const struct pcg_bstmt *b, int64_t mult)
{
	for (; b != NULL && !x->failed; b = b->next)
		stmt(x, f, b, mult);
}

/* The end of the behaviour, once per path. */
static void
end(struct cc *x, struct front *f)
{
	int	k;

	if (f->n == 0)
		front_add(x, f, -1, 0);	/* after an endless loop: never reached */
	for (k = 0; k < f->n && !x->failed; k++) {
		load_set(x, f->p[k].off, f->p[k].n);
		enter(x, &f->p[k]);
		emit(x, OP_END, NULL);
	}
}
/* ---- processes compiled from the same source ---- */

static uint64_t
mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h;
}

static uint64_t
bstmt_hash(const struct pcg_bstmt *b, uint64_t h)
{
	const struct pcg_bbranch	*br;

	for (; b != NULL; b = b->next) {
		h = mix(h, (uint64_t)b->kind << 32 | (uint32_t)b->mode);
		h = mix(h, (uint64_t)(uint32_t)b->type << 32 | (uint32_t)b->port);
		h = mix(h, (uint64_t)(uint32_t)b->root);
		h = mix(h, (uint64_t)(uint32_t)b->group);
		h = mix(h, (uint64_t)b->count);
		h = mix(h, (uint64_t)(uintptr_t)b->src);
		h = mix(h, (uint64_t)(uint32_t)b->rtype << 32 | (uint32_t)b->rport);
		h = mix(h, (uint64_t)(uintptr_t)b->req);
		h = bstmt_hash(b->body, mix(h, 1));
		h = bstmt_hash(b->orelse, mix(h, 4));
		for (br = b->branches; br != NULL; br = br->next)
			h = bstmt_hash(br->body, mix(h, 2 + (uint64_t)(uintptr_t)br->req));
		h = mix(h, 3);
	}
	return h;
}

static int
bstmt_equal(const struct pcg_bstmt *a, const struct pcg_bstmt *b)
{
	const struct pcg_bbranch	*x, *y;

	for (; a != NULL && b != NULL; a = a->next, b = b->next) {
		if (a->kind != b->kind || a->mode != b->mode || a->type != b->type ||
		    a->port != b->port || a->root != b->root || a->group != b->group ||
		    a->count != b->count || a->src != b->src ||
		    a->rtype != b->rtype || a->rport != b->rport ||
		    a->req != b->req || !bstmt_equal(a->body, b->body) ||
		    !bstmt_equal(a->orelse, b->orelse))
			return 0;
		for (x = a->branches, y = b->branches; x != NULL && y != NULL;
		    x = x->next, y = y->next)
			if (x->req != y->req || !bstmt_equal(x->body, y->body))
				return 0;
		if (x != NULL || y != NULL)
			return 0;
	}
	return a == NULL && b == NULL;
}

/* Whether processes i and j compile to the same program: the same
 * component, port counts, connected ports and statements. */
static int
same_source(const struct pcg *g, int i, int j)
{
	const struct pcg_proc	*p = &g->procs[i], *q = &g->procs[j];
	int			 t, k, nlp = 0;

	if (p->comp != q->comp)
		return 0;
	for (t = 0; t < g->comps[p->comp].ntypes; t++) {
		if (p->nports[t] != q->nports[t])
			return 0;
		nlp += p->nports[t];
	}
	for (k = 0; k < nlp; k++)
		if ((g->portchan[p->portbase + k] < 0) !=
		    (g->portchan[q->portbase + k] < 0))
			return 0;
	return bstmt_equal(p->prog, q->prog);
}

/* A hash of what process i is compiled from (same_source). */
static uint64_t
source_hash(const struct pcg *g, int i)
{
	const struct pcg_proc	*p = &g->procs[i];
	uint64_t		 h = mix(0, (uint64_t)p->comp);
	int			 t, k, nlp = 0;

	for (t = 0; t < g->comps[p->comp].ntypes; t++) {
		h = mix(h, (uint64_t)p->nports[t]);
		nlp += p->nports[t];
	}
	for (k = 0; k < nlp; k++)
		h = mix(h, g->portchan[p->portbase + k] < 0);
	return bstmt_hash(p->prog, h);
}

/* A hash of everything that makes two processes' programs the same. */
static uint64_t
prog_hash(const struct prog *pr, const struct pcg_proc *p, int ntypes)
{
	uint64_t	h = 1469598103934665603ULL;
	const unsigned char *s;
	size_t		 i, n;

#define MIX(ptr, len) do { s = (const unsigned char *)(ptr); n = (len); \
	for (i = 0; i < n; i++) { h ^= s[i]; h *= 1099511628211ULL; } } while (0)
	MIX(&p->comp, sizeof(p->comp));
	MIX(p->nports, sizeof(int) * ntypes);
	MIX(pr->ins, sizeof(struct ins) * pr->nins);
	MIX(pr->alts, sizeof(int) * pr->nalts);
	MIX(pr->sd, sizeof(struct slotdesc) * pr->nsd);
#undef MIX
	return h;
}

static int
prog_equal(const struct prog *a, const struct prog *b)
{
	return a->comp == b->comp && a->nlp == b->nlp && a->nins == b->nins &&
	    a->nalts == b->nalts && a->nsd == b->nsd &&
	    memcmp(a->ins, b->ins, sizeof(struct ins) * a->nins) == 0 &&
	    (a->nalts == 0 || memcmp(a->alts, b->alts, sizeof(int) * a->nalts) == 0) &&
	    (a->nsd == 0 || memcmp(a->sd, b->sd, sizeof(struct slotdesc) * a->nsd) == 0) &&
	    memcmp(a->lpbound, b->lpbound, sizeof(int64_t) * (a->nlp > 0 ? a->nlp : 1)) == 0;
}

static void
prog_free(struct prog *pr)
{
	if (pr == NULL)
		return;
	free(pr->ins);
	free(pr->alts);
	free(pr->sd);
	free(pr->ctrmax);
	free(pr->lpbound);
	free(pr);
}

/* Directed channels: 2c carries e[0] -> e[1], 2c + 1 the other way. */
static void
channels(struct mpnet *n)
{
	const struct pcg	*g = n->pcg;
	int			 c, d, t, slot[2];

	n->ndc = 2 * g->nchans;
	n->dc = xcalloc(n->ndc > 0 ? n->ndc : 1, sizeof(*n->dc));
	n->send_dc = xmalloc(sizeof(int) * (g->nports > 0 ? g->nports : 1));
	n->recv_dc = xmalloc(sizeof(int) * (g->nports > 0 ? g->nports : 1));
	for (c = 0; c < g->nports; c++)
		n->send_dc[c] = n->recv_dc[c] = -1;
	for (c = 0; c < g->nchans; c++) {
		const struct pcg_chan	*ch = &g->chans[c];

		for (d = 0; d < 2; d++) {
			const struct pcg_end	*e = &ch->e[d];
			const struct pcg_proc	*p = &g->procs[e->proc];
			int			 lp = 0;

			for (t = 0; t < e->type; t++)
				lp += p->nports[t];
			lp += e->port - 1;
			slot[d] = p->portbase + lp;
			n->dc[2 * c + d].chan = c;
			n->dc[2 * c + d].from = e->proc;
			n->dc[2 * c + d].from_lp = lp;
			n->dc[2 * c + (1 - d)].to = e->proc;
			n->dc[2 * c + (1 - d)].to_lp = lp;
		}
		n->send_dc[slot[0]] = 2 * c;
		n->recv_dc[slot[0]] = 2 * c + 1;
		n->send_dc[slot[1]] = 2 * c + 1;
		n->recv_dc[slot[1]] = 2 * c;
	}
}

struct mpnet *
mpnet_compile(const struct pcg *g)
{
	struct mpnet	*n = xcalloc(1, sizeof(*n));
	struct hmap	*progs = hmap_new(), *sources = hmap_new();
	struct cc	 x;
	int		 i, t, errors = g->diag->errors, posted[MPNET_MAX_SLOTS];
	int		*typeoff = NULL;
	size_t		 tofalloc = 0;
	size_t		 ualloc = 0;
	unsigned char	*said = xcalloc(g->ncomps > 0 ? g->ncomps : 1, 1);

	n->pcg = g;
	n->nprocs = g->nprocs;
	n->ncomms = 1 + g->ngroups;
	n->progs = xcalloc(g->nprocs > 0 ? g->nprocs : 1, sizeof(*n->progs));
	n->finite = 1;
	channels(n);
	memset(&x, 0, sizeof(x));
	x.net = n;
	x.g = g;
	x.colls = hmap_new();
	x.said = hmap_new();
	x.posted = posted;
	for (i = 0; i < g->nprocs; i++) {
		const struct pcg_proc	*p = &g->procs[i];
		const struct pcg_comp	*c = &g->comps[p->comp];
		struct front		 f;
		uint64_t		 h, sh;
		int			 old, j;

		if (!p->has_behaviour) {
			if (!said[p->comp]++)
				diag_error(g->diag, &c->loc, "component '%s' has no "
				    "BEHAVIOUR: it cannot be verified (ensemble run "
				    "--no-verify runs it unchecked)", c->name);
			continue;
		}
		/* Compiled already from the same source: the same program
		 * (most processes of a scaled-up script). */
		sh = source_hash(g, i);
		if ((j = hmap_get(sources, sh, 0)) >= 0 && same_source(g, i, j)) {
			n->progs[i] = n->progs[j];
			continue;
		}
		xgrow(&typeoff, &tofalloc, c->ntypes + 1, sizeof(int));
		typeoff[0] = 0;
		for (t = 0; t < c->ntypes; t++)
			typeoff[t + 1] = typeoff[t] + p->nports[t];
		x.typeoff = typeoff;
		x.proc = i;
		x.p = p;
		x.pr = xcalloc(1, sizeof(struct prog));
		x.pr->comp = p->comp;
		x.pr->nlp = typeoff[c->ntypes];
		x.pr->lpbound = xcalloc(x.pr->nlp > 0 ? x.pr->nlp : 1, sizeof(int64_t));
		x.insalloc = x.altalloc = x.sdalloc = x.ctralloc = 0;
		x.nposted = 0;
		x.nrnames = 0;
		x.npnames = 0;
		probe_names(&x, p->prog);
		x.fall = -1;
		x.copy = 0;
		x.dup = NULL;
		x.failed = 0;
		memset(&f, 0, sizeof(f));
		front_add(&x, &f, -1, 0);	/* the start */
		list(&x, &f, p->prog, 1);
		end(&x, &f);
		front_free(&f);
		if (!x.failed)
			probe_ctrs(&x);
		if (x.failed) {
			prog_free(x.pr);
			continue;
		}
		for (j = 0; j < x.pr->nins; j++)
			if (x.pr->ins[j].nposted > x.pr->nslots)
				x.pr->nslots = x.pr->ins[j].nposted;
		h = prog_hash(x.pr, p, c->ntypes);
		if (hmap_put(progs, h, 0, n->nuprog, &old) == HMAP_FOUND &&
		    prog_equal(n->uprog[old], x.pr)) {
			prog_free(x.pr);
			n->progs[i] = n->uprog[old];
			(void)hmap_put(sources, sh, 0, i, &old);
			continue;
		}	/* (a collision with other code keeps its own program) */
		xgrow(&n->uprog, &ualloc, n->nuprog + 1, sizeof(*n->uprog));
		x.pr->id = n->nuprog;
		n->uprog[n->nuprog++] = x.pr;
		n->progs[i] = x.pr;
		if (x.pr->has_forever)
			n->finite = 0;
		(void)hmap_put(sources, sh, 0, i, &old);
	}
	free(said);
	free(typeoff);
	free(x.fallj);
	hmap_free(progs);
	hmap_free(sources);
	hmap_free(x.colls);
	hmap_free(x.said);
	while (x.nspare > 0)
		front_free(&x.spare[--x.nspare]);
	if (g->diag->errors > errors) {
		mpnet_free(n);
		return NULL;
	}
	/* Each direction's bound: the sends its sender can make. */
	for (i = 0; i < n->ndc; i++) {
		struct dchan		*d = &n->dc[i];
		const struct prog	*pr = n->progs[d->from];

		d->bound = pr->lpbound[d->from_lp];
		d->used = d->bound != 0;
	}
	return n;
}

void
mpnet_free(struct mpnet *n)
{
	int	i;

	if (n == NULL)
		return;
	for (i = 0; i < n->nuprog; i++)
		prog_free(n->uprog[i]);
	free(n->uprog);
	free(n->progs);
	free(n->send_dc);
	free(n->recv_dc);
	free(n->dc);
	free(n->colls);
	free(n);
}

int
mpnet_next(const struct prog *pr, int pc, int *out)
{
	const struct ins	*in = &pr->ins[pc];
	int			 k;

	switch (in->op) {
	case OP_END:
		return 0;
	case OP_CHOICE:
	case OP_TEST:
	case OP_WAITANY:
	case OP_WAITSOME:
	case OP_IPROBE:
	case OP_IPROBEANY:
		for (k = 0; k < in->nalt; k++)
			out[k] = pr->alts[in->alt + k];
		return in->nalt;
	case OP_LOOP:
		out[0] = pc + 2;	/* past its NEXT: the first iteration */
		return 1;
	case OP_NEXT:
		out[0] = pc + 1;
		out[1] = in->target;
		return in->count >= 0 ? 2 : 1;
	case OP_JUMP:
		out[0] = in->target;
		return 1;
	default:
		out[0] = pc + 1;
		return 1;
	}
}

/* Where control goes from NEXT instruction 'in' at pc for a walk that has
 * seen the counters in 'reset' start afresh: round again while the
 * counter is above zero ('more', or afresh), out when it is spent. */
static int
walk_next(const struct ins *in, int pc, uint64_t more, uint64_t reset,
    int *out)
{
	uint64_t	bit;
	int		n = 0;

	if (in->count < 0 || in->ctr < 0) {	/* endless: no counter */
		out[0] = pc + 1;
		return 1;
	}
	bit = in->ctr < 64 ? (uint64_t)1 << in->ctr : 0;
	if (bit == 0 || ((more | reset) & bit) != 0)
		out[n++] = pc + 1;
	out[n++] = in->target;
	return n;
}

int
mpnet_walk(const struct prog *pr, int pc, uint64_t more,
    int (*visit)(void *, const struct ins *), void *arg, struct mpnet_walk *w)
{
	const struct ins	*in;
	uint64_t		 r;
	int			 sp = 0, v, k, n, own = w->seen == NULL;

	if (own) {
		w->nseen = (size_t)pr->nins + 1;
		w->seen = xcalloc(w->nseen, sizeof(uint32_t));
		w->reset = xcalloc(w->nseen, sizeof(uint64_t));
		w->stack = xmalloc(sizeof(int) * MPNET_WALK_ROOM(pr));
		w->rstack = xmalloc(sizeof(uint64_t) * MPNET_WALK_ROOM(pr));
		w->stamp = 0;
	}
	if (++w->stamp == 0) {	/* (stamps ran round: clear them all) */
		memset(w->seen, 0, sizeof(uint32_t) * w->nseen);
		w->stamp = 1;
	}
	w->stack[sp] = pc;
	w->rstack[sp++] = 0;
	for (v = 0; sp > 0 && v <= 0;) {
		pc = w->stack[--sp];
		if (pc < 0 || pc >= pr->nins)
			continue;
		if (more == MPNET_ANY) {
			/* Every loop may go round: no counter to follow (the
			 * hot case, the reductions' walks). */
			if (w->seen[pc] == w->stamp)
				continue;
			w->seen[pc] = w->stamp;
			if ((v = visit(arg, &pr->ins[pc])) == 0)
				sp += mpnet_next(pr, pc, w->stack + sp);
			continue;
		}
		r = w->rstack[sp];
		/* Again only with a counter reset it was not seen with (a
		 * loop entered afresh may go round where the state's may
		 * not): with both, as they only widen where it can go. */
		if (w->seen[pc] == w->stamp) {
			if ((r & ~w->reset[pc]) == 0)
				continue;
			r |= w->reset[pc];
		}
		w->seen[pc] = w->stamp;
		w->reset[pc] = r;
		in = &pr->ins[pc];
		if ((v = visit(arg, in)) != 0)
			continue;
		if (in->op == OP_LOOP && in->ctr >= 0 && in->ctr < 64)
			r |= (uint64_t)1 << in->ctr;
		n = in->op == OP_NEXT ? walk_next(in, pc, more, r, w->stack + sp) :
		    mpnet_next(pr, pc, w->stack + sp);
		for (k = 0; k < n; k++)
			w->rstack[sp + k] = r;
		sp += n;
	}
	if (own) {
		free(w->seen);
		free(w->reset);
		free(w->stack);
		free(w->rstack);
		w->seen = NULL;
		w->stack = NULL;
	}
	return v > 0;
}

int
mpnet_coll_fanout(int kind)
{
	return kind == S_BCAST || kind == S_SCATTER || kind == S_SCATTERV;
}

const char *
mpnet_coll_words(int kind)
{
	return pcg_stmt_word((enum stmt_kind)kind, MODE_STANDARD);
}

int
mpnet_comm(const struct mpnet *n, int comm, const int **mem)
{
	if (comm == 0) {
		*mem = NULL;
		return n->nprocs;
	}
	*mem = n->pcg->groups[comm - 1].members;
	return n->pcg->groups[comm - 1].nmembers;
}

int
mpnet_in_comm(const struct mpnet *n, int comm, int proc)
{
	return comm == 0 || pcg_group_rank(n->pcg, comm - 1, proc) >= 0;
}

const char *
mpnet_over(const struct mpnet *n, const struct coll *c, char *buf, size_t len)
{
	char	gn[PCG_NAME_MAX];

	if (c->group < 0)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, " over %s", pcg_group_name(n->pcg, c->group,
		    gn, sizeof(gn)));
	return buf;
}

const char *
mpnet_port_name(const struct mpnet *n, int proc, int lp, char *buf, size_t len)
{
	const struct pcg	*g = n->pcg;
	const struct pcg_proc	*p = &g->procs[proc];
	const struct pcg_comp	*c = &g->comps[p->comp];
	int			 t;

	for (t = 0; t < c->ntypes && lp >= p->nports[t]; t++)
		lp -= p->nports[t];
	if (t == c->ntypes)
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%s[%d]", c->types[t], lp + 1);
	return buf;
}

const char *
mpnet_ins_text(const struct mpnet *n, int proc, const struct ins *in, char *buf,
    size_t len)
{
	static const char *const sends[] = { "send", "ssend", "bsend" };
	static const char *const isends[] = { "isend", "issend", "ibsend" };
	const struct pcg	*g = n->pcg;
	const struct pcg_proc	*p = &g->procs[proc];
	const struct pcg_comp	*c = &g->comps[p->comp];
	char			 pb[PCG_NAME_MAX + 16];
	const char		*type = NULL;
	int			 t, lo;

	if (in->src != NULL && (in->src->kind == S_SENDRECV ||
	    in->src->kind == S_SENDRECV_REPLACE) && (in->op == OP_ISEND ||
	    in->op == OP_IRECV || in->op == OP_WAIT)) {
		/* (its three instructions: the statement; lo and hi its
		 * ports) */
		char	rb[PCG_NAME_MAX + 16];

		snprintf(buf, len, "%s %s, %s", pcg_stmt_word(in->src->kind,
		    MODE_STANDARD), mpnet_port_name(n, proc, in->lo, pb,
		    sizeof(pb)), mpnet_port_name(n, proc, in->hi, rb, sizeof(rb)));
		return buf;
	}
	switch (in->op) {
	case OP_SEND:
	case OP_ISEND:
	case OP_RECV:
	case OP_IRECV:
	case OP_PROBE:
	case OP_IPROBE:
		mpnet_port_name(n, proc, in->lp, pb, sizeof(pb));
		if (in->op == OP_PROBE || in->op == OP_IPROBE) {
			snprintf(buf, len, "%s %s%s%s", in->op == OP_PROBE ?
			    "probe" : "iprobe", pb, in->src != NULL &&
			    in->src->req != NULL ? " as " : "", in->src != NULL &&
			    in->src->req != NULL ? in->src->req : "");
			break;
		}

		snprintf(buf, len, "%s %s%s%s", in->op == OP_SEND ? sends[in->mode] :
		    in->op == OP_ISEND ? isends[in->mode] :
		    in->op == OP_RECV ? "recv" : "irecv", pb,
		    in->src != NULL && in->src->req != NULL ? " as " : "",
		    in->src != NULL && in->src->req != NULL ? in->src->req : "");
		break;
	case OP_RECVANY:
	case OP_IRECVANY:
	case OP_PROBEANY:
	case OP_IPROBEANY:
		for (t = 0, lo = 0; t < c->ntypes; lo += p->nports[t], t++)
			if (lo == in->lo && lo + p->nports[t] == in->hi &&
			    in->src != NULL && in->src->type != NULL)
				type = c->types[t];
		snprintf(buf, len, "%s%s%s%s%s", in->op == OP_RECVANY ? "recv any" :
		    in->op == OP_IRECVANY ? "irecv any" : in->op == OP_PROBEANY ?
		    "probe any" : "iprobe any", type ? " " : "", type ? type : "",
		    in->src != NULL && in->src->req != NULL ? " as " : "",
		    in->src != NULL && in->src->req != NULL ? in->src->req : "");
		break;
	case OP_RECVPROBED:
		snprintf(buf, len, "recv %s", in->src != NULL &&
		    in->src->req != NULL ? in->src->req : "?");
		break;
	case OP_WAITALL:
		snprintf(buf, len, "waitall");
		break;
	case OP_WAIT:
	case OP_TEST:
		snprintf(buf, len, "%s %s", in->op == OP_WAIT ? "wait" : "test",
		    in->src != NULL && in->src->req != NULL ? in->src->req : "?");
		break;
	case OP_WAITANY:
	case OP_WAITSOME:
		snprintf(buf, len, "%s", in->op == OP_WAITANY ? "waitany" :
		    "waitsome");
		break;
	case OP_COLL: {
		const struct coll	*k = &n->colls[in->coll];

		char			 ob[PCG_NAME_MAX + 8];

		mpnet_over(n, k, ob, sizeof(ob));
		if (k->root >= 0)
			snprintf(buf, len, "%s %s%s", mpnet_coll_words(k->kind),
			    pcg_proc_name(g, k->root, pb, sizeof(pb)), ob);
		else
			snprintf(buf, len, "%s%s", mpnet_coll_words(k->kind), ob);
		break;
	}
	case OP_CHOICE:
		snprintf(buf, len, "choice");
		break;
	case OP_END:
		snprintf(buf, len, "end");
		break;
	default:
		snprintf(buf, len, "loop");
		break;
	}
	return buf;
}
