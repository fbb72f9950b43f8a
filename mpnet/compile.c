/* compile.c -- the MP net compiler: each process's instantiated behaviour
 * (pcg_proc.prog) becomes a program of instructions over its local ports;
 * processes with the same code share one program.  Static errors the
 * explorer could not represent are reported here, at their statements. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "mpnet.h"
#include "xmalloc.h"

/* Request slots one process may hold: more is a missing waitall. */
#define MPNET_MAX_SLOTS		64
/* Instructions per program after unrolling. */
#define MPNET_MAX_INS		(1 << 20)

struct cc {
	struct mpnet	*net;
	const struct pcg *g;
	int		 proc;
	const struct pcg_proc *p;
	struct prog	*pr;
	size_t		 insalloc, altalloc, sdalloc, mapalloc, ctralloc;
	/* The requests posted and not waited for: their slot descriptors. */
	int		*posted;
	int		 nposted;
	int		 failed;
	struct hmap	*colls;
	struct hmap	*said;		/* statements already reported */
	int		*typeoff;	/* local port of each type's first port */
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

static int
emit(struct cc *x, int op, const struct stmt *src)
{
	struct ins	*in;

	if (x->pr->nins >= MPNET_MAX_INS) {
		if (!x->failed)
			diag_error(x->g->diag, src != NULL ? &src->loc : &x->p->loc,
			    "behaviour compiles to more than %d instructions",
			    MPNET_MAX_INS);
		x->failed = 1;
		return x->pr->nins - 1;
	}
	xgrow(&x->pr->ins, &x->insalloc, x->pr->nins + 1, sizeof(struct ins));
	in = &x->pr->ins[x->pr->nins];
	memset(in, 0, sizeof(*in));
	in->op = op;
	in->src = src;
	in->slot = in->ctr = in->coll = -1;
	in->nposted = x->nposted;
	in->sd = -1;
	if (x->nposted > 0) {
		/* The posted requests' descriptors, as of this instruction. */
		in->sd = x->pr->nsd;
		xgrow(&x->pr->sd, &x->sdalloc, x->pr->nsd + x->nposted,
		    sizeof(struct slotdesc));
		for (int k = 0; k < x->nposted; k++)
			x->pr->sd[x->pr->nsd + k] = x->pr->sd[x->posted[k]];
		x->pr->nsd += x->nposted;
	}
	return x->pr->nins++;
}

static void
bound_add(struct cc *x, int lp, int64_t mult)
{
	int64_t	*b = &x->pr->lpbound[lp];

	if (*b < 0)
		return;
	if (mult < 0 || *b > INT64_MAX / 2 - mult)
		*b = -1;
	else
		*b += mult;
}

/* A new request descriptor, posted now. */
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
	xgrow(&x->pr->sd, &x->sdalloc, x->pr->nsd + 1, sizeof(struct slotdesc));
	d = &x->pr->sd[x->pr->nsd];
	memset(d, 0, sizeof(*d));	/* padding too: programs are compared whole */
	d->kind = kind;
	d->mode = mode;
	d->lp = lp;
	d->lo = lo;
	d->hi = hi;
	d->ins = x->pr->nins;
	x->posted[x->nposted] = x->pr->nsd++;
	return x->nposted++;
}

/* The local port of T[k]; an error if it is not connected. */
static int
local_port(struct cc *x, const struct pcg_bstmt *b, int k)
{
	int	lp = x->typeoff[b->type] + k - 1;
	char	pn[PCG_NAME_MAX];

	if (x->g->portchan[x->p->portbase + lp] < 0 && first_time(x, b->src)) {
		diag_error(x->g->diag, &b->src->loc, "'%s' uses port '%s.%s[%d]', "
		    "which is not connected", pcg_proc_name(x->g, x->proc, pn,
		    sizeof(pn)), pn, x->g->comps[x->p->comp].types[b->type], k);
	} else if (x->g->portchan[x->p->portbase + lp] < 0)
		x->failed = 1;
	return lp;
}

static int
coll_index(struct cc *x, int kind, int root)
{
	struct mpnet	*n = x->net;
	int		 old;

	if (hmap_put(x->colls, (uint64_t)kind, (uint64_t)(root + 1), n->ncolls,
	    &old) == HMAP_FOUND)
		return old;
	n->colls = xreallocarray(n->colls, n->ncolls + 1, sizeof(*n->colls));
	n->colls[n->ncolls].kind = kind;
	n->colls[n->ncolls].root = root;
	return n->ncolls++;
}

static void list(struct cc *, const struct pcg_bstmt *, int64_t mult);

/* The requests posted now are the same as in saved (n of them). */
static int
same_posted(const struct cc *x, const int *saved, int n)
{
	if (n != x->nposted)
		return 0;
	for (int k = 0; k < n; k++) {
		const struct slotdesc	*a = &x->pr->sd[saved[k]];
		const struct slotdesc	*b = &x->pr->sd[x->posted[k]];

		if (a->kind != b->kind || a->mode != b->mode || a->lp != b->lp ||
		    a->lo != b->lo || a->hi != b->hi)
			return 0;
	}
	return 1;
}

/* Whether statements compile to no instruction at all: only loops over
 * such statements or none, and sends or receives on every port of a type
 * the process has none of.  (It mirrors what stmt() emits.) */
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
		case OP_ISEND:
		case OP_IRECV:
		case OP_IRECVANY:
		case OP_COLL:
			return 1;
		}
	}
	return 0;
}

/* A loop.  A counted one whose body compiles to nothing is left out: it
 * would be control alone, which settle (sem.c) runs through count times
 * on every pass.  An endless one must communicate: its compiled body (all
 * of it, whatever loops and choices it holds) must hold a communication,
 * else it is an error.
 *
 * Why settle always ends: a run of control (LOOP, NEXT, JUMP) that came
 * back to a pc would be a cycle through some loop's head.  Around a
 * counted loop, its NEXT counts down a counter that only its LOOP, outside
 * the cycle, sets.  Around an endless loop, the way from its head back
 * to it passes every statement of its body in turn (a loop with a count
 * runs its body at least once); one of them holds a communication, so
 * each way passes a communication, a CHOICE or a WAITALL (a 'choice' or
 * a loop holding it), where settle stops.  Left out as they are, counted
 * loops of control alone never make such a cycle either: settle meets
 * each pc at most once. */
static void
loop(struct cc *x, const struct pcg_bstmt *b, int64_t mult)
{
	int		 saved[MPNET_MAX_SLOTS], nsaved = x->nposted, start, head;
	int64_t		 m, i;
	int		 nctr = x->pr->nctr;
	size_t		 nsd = x->pr->nsd;

	if (b->count == 0 || (b->count > 0 && silent(x, b->body)))
		return;
	if (b->count == 1) {
		list(x, b->body, mult);
		return;
	}
	memcpy(saved, x->posted, sizeof(int) * nsaved);
	m = b->count < 0 || mult < 0 ? -1 :
	    (b->count > INT64_MAX / (mult > 0 ? mult : 1) ? -1 : b->count * mult);
	start = x->pr->nins;
	if (b->count > 0) {
		int	k = emit(x, OP_LOOP, b->src);

		x->pr->ins[k].count = b->count;
		x->pr->ins[k].ctr = x->pr->nctr;
		xgrow(&x->pr->ctrmax, &x->ctralloc, x->pr->nctr + 1, sizeof(int64_t));
		x->pr->ctrmax[x->pr->nctr++] = b->count - 1;
	}
	head = emit(x, OP_NEXT, b->src);
	x->pr->ins[head].count = b->count;
	x->pr->ins[head].ctr = b->count > 0 ? x->pr->ins[start].ctr : -1;
	list(x, b->body, m);
	if (x->failed)
		return;
	if (same_posted(x, saved, nsaved)) {
		int	j = emit(x, OP_JUMP, b->src);

		x->pr->ins[j].target = head;
		x->pr->ins[head].target = x->pr->nins;
		if (b->count < 0 && !communicates(x->pr, head, x->pr->nins) &&
		    first_time(x, b->src)) {
			char	pn[PCG_NAME_MAX];

			diag_error(x->g->diag, &b->src->loc, "endless loop without "
			    "communication in the behaviour of '%s': it would never "
			    "end nor let the others go on", pcg_proc_name(x->g,
			    x->proc, pn, sizeof(pn)));
		}
		if (b->count < 0)
			x->pr->has_forever = 1;
		return;
	}
	if (b->count < 0) {
		if (first_time(x, b->src))
			diag_error(x->g->diag, &b->src->loc, "requests posted in an "
			    "endless loop are not all completed by a 'waitall' in "
			    "its body");
		return;
	}
	/* Requests pile up from one iteration to the next: unroll it. */
	x->pr->nins = start;
	x->pr->nsd = nsd;
	x->pr->nctr = nctr;	/* its own counter and those of loops inside */
	memcpy(x->posted, saved, sizeof(int) * nsaved);
	x->nposted = nsaved;
	for (i = 0; i < b->count && !x->failed; i++)
		list(x, b->body, mult);
}

static void
choice(struct cc *x, const struct pcg_bstmt *b, int64_t mult)
{
	const struct pcg_bbranch *br;
	int		 saved[MPNET_MAX_SLOTS], after[MPNET_MAX_SLOTS];
	int		 nsaved = x->nposted, nafter = -1, c, n = 0, k;
	int		*jumps = NULL;
	size_t		 jalloc = 0;

	memcpy(saved, x->posted, sizeof(int) * nsaved);
	c = emit(x, OP_CHOICE, b->src);
	for (br = b->branches; br != NULL; br = br->next)
		n++;
	xgrow(&x->pr->alts, &x->altalloc, x->pr->nalts + n, sizeof(int));
	x->pr->ins[c].alt = x->pr->nalts;
	x->pr->ins[c].nalt = n;
	x->pr->nalts += n;
	x->pr->has_wild = 1;
	k = 0;
	for (br = b->branches; br != NULL; br = br->next, k++) {
		memcpy(x->posted, saved, sizeof(int) * nsaved);
		x->nposted = nsaved;
		x->pr->alts[x->pr->ins[c].alt + k] = x->pr->nins;
		list(x, br->body, mult);
		if (x->failed)
			break;
		if (nafter < 0) {
			nafter = x->nposted;
			memcpy(after, x->posted, sizeof(int) * nafter);
		} else if (!same_posted(x, after, nafter)) {
			if (first_time(x, b->src))
				diag_error(x->g->diag, &b->src->loc, "the branches "
				    "of 'choice' leave different requests pending");
			break;
		}
		xgrow(&jumps, &jalloc, k + 1, sizeof(int));
		jumps[k] = emit(x, OP_JUMP, b->src);
	}
	if (!x->failed)
		for (k = 0; k < n; k++)
			x->pr->ins[jumps[k]].target = x->pr->nins;
	free(jumps);
}

static void
stmt(struct cc *x, const struct pcg_bstmt *b, int64_t mult)
{
	const struct pcg_comp	*c = &x->g->comps[x->p->comp];
	int			 k, lo, hi, lp, i, n;

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
			if (b->kind == S_ISEND || b->kind == S_IRECV) {
				int	slot = post(x, b->src, b->kind == S_ISEND ?
				    SD_SEND : SD_RECV, b->mode, lp, 0, 0);

				if (slot < 0)
					return;
				i = emit(x, b->kind == S_ISEND ? OP_ISEND : OP_IRECV, b->src);
				/* The instruction posts it: its own view excludes it. */
				x->pr->ins[i].nposted--;
				x->pr->ins[i].slot = slot;
			} else
				i = emit(x, b->kind == S_SEND ? OP_SEND : OP_RECV, b->src);
			x->pr->ins[i].lp = lp;
			x->pr->ins[i].mode = b->mode;
		}
		return;
	case S_RECV_ANY:
	case S_IRECV_ANY:
		if (b->type >= 0) {
			lo = x->typeoff[b->type];
			hi = lo + x->p->nports[b->type];
		} else {
			lo = 0;
			hi = x->pr->nlp;
		}
		if (b->kind == S_IRECV_ANY) {
			int	slot = post(x, b->src, SD_RECVANY, 0, -1, lo, hi);

			if (slot < 0)
				return;
			i = emit(x, OP_IRECVANY, b->src);
			x->pr->ins[i].nposted--;
			x->pr->ins[i].slot = slot;
		} else
			i = emit(x, OP_RECVANY, b->src);
		x->pr->ins[i].lo = lo;
		x->pr->ins[i].hi = hi;
		x->pr->has_wild = 1;
		return;
	case S_WAITALL:
		emit(x, OP_WAITALL, b->src);
		x->nposted = 0;
		return;
	case S_BARRIER:
	case S_ALLREDUCE:
	case S_ALLGATHER:
	case S_ALLTOALL:
	case S_BCAST:
	case S_SCATTER:
	case S_REDUCE:
	case S_GATHER:
		n = coll_index(x, b->kind, b->root);
		if (b->root >= 0)
			x->net->rooted = 1;
		i = emit(x, OP_COLL, b->src);
		x->pr->ins[i].coll = n;
		return;
	case S_LOOP:
		loop(x, b, mult);
		return;
	case S_CHOICE:
		choice(x, b, mult);
		return;
	case S_IF:
	case S_FOR:
		break;
	}
	(void)c;
}

static void
list(struct cc *x, const struct pcg_bstmt *b, int64_t mult)
{
	for (; b != NULL && !x->failed; b = b->next)
		stmt(x, b, mult);
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
	struct hmap	*progs = hmap_new();
	struct cc	 x;
	int		 i, t, errors = g->diag->errors, posted[MPNET_MAX_SLOTS];
	int		*typeoff = NULL;
	size_t		 tofalloc = 0;
	size_t		 ualloc = 0;
	unsigned char	*said = xcalloc(g->ncomps > 0 ? g->ncomps : 1, 1);

	n->pcg = g;
	n->nprocs = g->nprocs;
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
		uint64_t		 h;
		int			 old, j;

		if (!p->has_behaviour) {
			if (!said[p->comp]++)
				diag_error(g->diag, &c->loc, "component '%s' has no "
				    "BEHAVIOUR: it cannot be verified (ensemble run "
				    "--no-verify runs it unchecked)", c->name);
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
		x.failed = 0;
		list(&x, p->prog, 1);
		emit(&x, OP_END, NULL);
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
			continue;
		}	/* (a collision with other code keeps its own program) */
		xgrow(&n->uprog, &ualloc, n->nuprog + 1, sizeof(*n->uprog));
		x.pr->id = n->nuprog;
		n->uprog[n->nuprog++] = x.pr;
		n->progs[i] = x.pr;
		if (x.pr->has_forever)
			n->finite = 0;
	}
	free(said);
	free(typeoff);
	hmap_free(progs);
	hmap_free(x.colls);
	hmap_free(x.said);
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
	static const char *const colls[] = { "barrier", "allreduce", "allgather",
	    "alltoall", "bcast from", "scatter from", "reduce to", "gather to" };
	const struct pcg	*g = n->pcg;
	const struct pcg_proc	*p = &g->procs[proc];
	const struct pcg_comp	*c = &g->comps[p->comp];
	char			 pb[PCG_NAME_MAX + 16];
	const char		*type = NULL;
	int			 t, lo;

	switch (in->op) {
	case OP_SEND:
	case OP_ISEND:
	case OP_RECV:
	case OP_IRECV:
		mpnet_port_name(n, proc, in->lp, pb, sizeof(pb));
		snprintf(buf, len, "%s %s", in->op == OP_SEND ? sends[in->mode] :
		    in->op == OP_ISEND ? isends[in->mode] :
		    in->op == OP_RECV ? "recv" : "irecv", pb);
		break;
	case OP_RECVANY:
	case OP_IRECVANY:
		for (t = 0, lo = 0; t < c->ntypes; lo += p->nports[t], t++)
			if (lo == in->lo && lo + p->nports[t] == in->hi &&
			    in->src != NULL && in->src->type != NULL)
				type = c->types[t];
		snprintf(buf, len, "%s%s%s", in->op == OP_RECVANY ? "recv any" :
		    "irecv any", type ? " " : "", type ? type : "");
		break;
	case OP_WAITALL:
		snprintf(buf, len, "waitall");
		break;
	case OP_COLL: {
		const struct coll	*k = &n->colls[in->coll];

		if (k->root >= 0)
			snprintf(buf, len, "%s %s", colls[k->kind - S_BARRIER],
			    pcg_proc_name(g, k->root, pb, sizeof(pb)));
		else
			snprintf(buf, len, "%s", colls[k->kind - S_BARRIER]);
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
