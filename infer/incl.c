/* incl.c -- whether every sequence of port calls one behaviour allows
 * is allowed by another (codecheck.h): the code's, inferred, against the
 * declared, each one process's instance (pcg_bstmt: loops counted, 'if'
 * decided).  Each is compiled to a small automaton whose states are a
 * place and the counts left of the loops around it; the declared one is
 * followed as the set of places it may be in (it may make choices), the
 * code's one way at a time, breadth first, so that the first difference
 * found is one of the shortest.
 *
 * A call of the code is allowed where the monitor of --check-protocol
 * would take it (ensemble(1), "Protocol check"): a 'send' statement takes
 * ens_send, ens_ssend or ens_bsend, an 'isend' any isend, every other
 * statement its own call, on the same ports, roots and groups; requests
 * are matched by the statements that posted them, not by their names.
 * The outcome of a test, an iprobe, a waitany or a waitsome is part of
 * the call: each is followed both ways (or each request's), as the data
 * are not known.  The code's process ending must be where the declared
 * behaviour may end. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "codecheck.h"
#include "hmap.h"
#include "xmalloc.h"

/* A waitsome over more requests than this is not compared. */
#define INCL_MAX_SOME	8
#define INCL_MAX_STATES	2000000L

/* One call, as the monitor sees it. */
struct letter {
	enum stmt_kind	 kind;
	int		 mode;
	int		 type, port, rtype, rport;
	int		 root, group;
	const char	*req;		/* the name it posts, or waits on */
	int		 outcome;	/* test, iprobe: 1 or 0 */
	const char	**names;	/* waitany, waitsome: listed */
	int		 nnames;
	unsigned	 set;		/* which completed (waitany: one) */
	const struct pcg_bstmt *st;
};

enum iop { I_ACT, I_JMP, I_FORK, I_LOOP, I_TEST, I_END, I_STUCK };

struct ins {
	enum iop	 op;
	int		 a;		/* I_JMP, I_TEST's exit: a target */
	int		 k;		/* I_LOOP, I_TEST: the counter */
	int64_t		 n;		/* I_LOOP: the count; -1 for ever */
	int		*to;		/* I_FORK: targets */
	int		 nto;
	struct letter	 l;
	int		 named;		/* I_LOOP: its body names requests */
	char		*text;		/* I_LOOP: the loop, as text */
	int		 exit;		/* I_LOOP: after it */
};

struct prog {
	struct ins	*ins;
	int		 n, cap;
	int		 nctr;
	const char	***names;	/* the names lists made, to free */
	int		 nnames;
	const struct pcg *g;
	int		 proc;
	int		 bad;		/* too large to compare */
	struct fixed {			/* messages probed at one port */
		const char	*name;
		int		 type, port;
	}		*fixed;
	int		 nfixed;
};

static int
add(struct prog *p, enum iop op)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->ins = xreallocarray(p->ins, (size_t)p->cap, sizeof(*p->ins));
	}
	memset(&p->ins[p->n], 0, sizeof(p->ins[p->n]));
	p->ins[p->n].op = op;
	return p->n++;
}

/* A statement's text, as behave.c prints it (requests by name). */
static void
st_text(struct buf *b, const struct pcg *g, int proc, const struct pcg_bstmt *s,
    int deep);

static void
list_text(struct buf *b, const struct pcg *g, int proc, const struct pcg_bstmt *s)
{
	for (; s != NULL; s = s->next) {
		st_text(b, g, proc, s, 1);
		if (s->next != NULL)
			buf_addc(b, ' ');
	}
}

static void
st_text(struct buf *b, const struct pcg *g, int proc, const struct pcg_bstmt *s,
    int deep)
{
	const struct pcg_comp	*c = &g->comps[g->procs[proc].comp];
	const struct pcg_bbranch *br;
	char			 pn[PCG_NAME_MAX];

	buf_adds(b, pcg_stmt_word(s->kind, s->mode));
	if (s->type >= 0 && s->kind != S_RECV_PROBED) {
		if (s->kind == S_RECV_ANY || s->kind == S_IRECV_ANY ||
		    s->kind == S_PROBE_ANY || s->kind == S_IPROBE_ANY)
			buf_printf(b, " %s", c->types[s->type]);
		else if (s->port == 0)
			buf_printf(b, " %s[*]", c->types[s->type]);
		else
			buf_printf(b, " %s[%d]", c->types[s->type], s->port);
	}
	if (s->kind == S_SENDRECV || s->kind == S_SENDRECV_REPLACE)
		buf_printf(b, ", %s[%d]", c->types[s->rtype], s->rport);
	if (s->root >= 0)
		buf_printf(b, " %s", pcg_proc_name(g, s->root, pn, sizeof(pn)));
	if (s->group >= 0)
		buf_printf(b, " over %s", pcg_group_name(g, s->group, pn, sizeof(pn)));
	if (s->req != NULL) {
		if (s->kind == S_ISEND || s->kind == S_IRECV ||
		    s->kind == S_IRECV_ANY || s->kind == S_PROBE ||
		    s->kind == S_PROBE_ANY || s->kind == S_IPROBE ||
		    s->kind == S_IPROBE_ANY)
			buf_printf(b, " as %s", s->req);
		else
			buf_printf(b, " %s", s->req);
	}
	if (s->kind == S_LOOP && s->count >= 0)
		buf_printf(b, " %" PRId64, s->count);
	if (!deep)
		return;
	switch (s->kind) {
	case S_LOOP:
		buf_adds(b, " { ");
		list_text(b, g, proc, s->body);
		buf_adds(b, " }");
		break;
	case S_TEST:
	case S_IPROBE:
	case S_IPROBE_ANY:
		buf_adds(b, " { ");
		list_text(b, g, proc, s->body);
		buf_adds(b, " } else { ");
		list_text(b, g, proc, s->orelse);
		buf_adds(b, " }");
		break;
	case S_CHOICE:
	case S_WAITANY:
	case S_WAITSOME:
		for (br = s->branches; br != NULL; br = br->next) {
			if (br->req != NULL)
				buf_printf(b, " on %s", br->req);
			buf_adds(b, " { ");
			list_text(b, g, proc, br->body);
			buf_adds(b, " }");
		}
		break;
	default:
		buf_addc(b, ';');
		break;
	}
}

/* Whether a statement list names a request anywhere. */
static int
names_any(const struct pcg_bstmt *s)
{
	const struct pcg_bbranch *br;

	for (; s != NULL; s = s->next) {
		if (s->req != NULL || names_any(s->body) || names_any(s->orelse))
			return 1;
		for (br = s->branches; br != NULL; br = br->next)
			if (br->req != NULL || names_any(br->body))
				return 1;
	}
	return 0;
}

static void compile_list(struct prog *, const struct pcg_bstmt *);

/* The messages named by probes of one port alone ('probe In[2] as m'):
 * 'recv m' of them is 'recv In[2]', as MPI receives in order what
 * one source sends with one tag.  A name also bound by a probe of any
 * port, or of another port, is not one (type -1). */
static void
find_fixed(struct prog *p, const struct pcg_bstmt *s)
{
	const struct pcg_bbranch *br;
	int			  i;

	for (; s != NULL; s = s->next) {
		if (s->req != NULL && (s->kind == S_PROBE ||
		    s->kind == S_PROBE_ANY || s->kind == S_IPROBE_ANY)) {
			for (i = 0; i < p->nfixed; i++)
				if (p->fixed[i].name == s->req)
					break;
			if (i == p->nfixed) {
				p->fixed = xreallocarray(p->fixed,
				    (size_t)p->nfixed + 1, sizeof(*p->fixed));
				p->fixed[p->nfixed].name = s->req;
				p->fixed[p->nfixed].type = s->kind == S_PROBE &&
				    s->port > 0 ? s->type : -1;
				p->fixed[p->nfixed++].port = s->port;
			} else if (s->kind != S_PROBE ||
			    p->fixed[i].type != s->type ||
			    p->fixed[i].port != s->port)
				p->fixed[i].type = -1;
		}
		find_fixed(p, s->body);
		find_fixed(p, s->orelse);
		for (br = s->branches; br != NULL; br = br->next)
			find_fixed(p, br->body);
	}
}

/* A probe's or a 'recv m''s letter, its message named by one port:
 * without the name, the receive of that port. */
static void
unname(const struct prog *p, struct letter *l)
{
	int	i;

	if (l->req == NULL || (l->kind != S_PROBE && l->kind != S_RECV_PROBED))
		return;
	for (i = 0; i < p->nfixed; i++)
		if (p->fixed[i].name == l->req && p->fixed[i].type >= 0) {
			l->req = NULL;
			if (l->kind == S_RECV_PROBED) {
				l->kind = S_RECV;
				l->mode = MODE_STANDARD;
				l->type = p->fixed[i].type;
				l->port = p->fixed[i].port;
			}
			return;
		}
}

static struct letter
letter_of(const struct pcg_bstmt *s)
{
	struct letter	l;

	memset(&l, 0, sizeof(l));
	l.kind = s->kind;
	l.mode = s->mode;
	l.type = s->type;
	l.port = s->port;
	l.rtype = s->rtype;
	l.rport = s->rport;
	l.root = s->root;
	l.group = s->group;
	l.req = s->req;
	l.st = s;
	return l;
}

/* An act, then its block, then a jump to *after (patched later). */
static void
act_block(struct prog *p, struct letter l, const struct pcg_bstmt *block,
    int **jumps, int *njumps)
{
	int	i = add(p, I_ACT);

	p->ins[i].l = l;
	compile_list(p, block);
	i = add(p, I_JMP);
	*jumps = xreallocarray(*jumps, (size_t)*njumps + 1, sizeof(**jumps));
	(*jumps)[(*njumps)++] = i;
}

static void
compile(struct prog *p, const struct pcg_bstmt *s)
{
	const struct pcg_bbranch *br;
	struct letter		 l;
	struct buf		 t;
	int			 i, k, n, fork, *jumps = NULL, nj = 0, nb, j;
	unsigned		 set;

	switch (s->kind) {
	case S_SEND:
	case S_RECV:
	case S_ISEND:
	case S_IRECV:
		if (s->port == 0) {
			/* T[*]: each port in turn */
			n = p->g->procs[p->proc].nports[s->type];
			for (k = 1; k <= n; k++) {
				i = add(p, I_ACT);
				p->ins[i].l = letter_of(s);
				p->ins[i].l.port = k;
			}
			return;
		}
		break;
	case S_LOOP:
		if (s->count == 0)
			return;
		k = p->nctr++;
		i = add(p, I_LOOP);
		p->ins[i].k = k;
		p->ins[i].n = s->count;
		p->ins[i].named = names_any(s->body);
		buf_init(&t);
		st_text(&t, p->g, p->proc, s, 1);
		p->ins[i].text = buf_steal(&t);
		n = add(p, I_TEST);
		p->ins[n].k = k;
		compile_list(p, s->body);
		for (j = n + 1; j < p->n && p->ins[j].op != I_ACT; j++)
			;
		if (j == p->n) {
			/* no call in it: nothing, or (for ever) stuck */
			free(p->ins[i].text);
			p->n = i;
			if (s->count < 0)
				add(p, I_STUCK);
			return;
		}
		j = add(p, I_JMP);
		p->ins[j].a = n;
		p->ins[n].a = p->n;
		p->ins[i].exit = p->n;
		return;
	case S_CHOICE:
		fork = add(p, I_FORK);
		for (br = s->branches, n = 0; br != NULL; br = br->next)
			n++;
		p->ins[fork].to = xcalloc((size_t)n, sizeof(int));
		for (br = s->branches; br != NULL; br = br->next) {
			p->ins[fork].to[p->ins[fork].nto++] = p->n;
			compile_list(p, br->body);
			i = add(p, I_JMP);
			jumps = xreallocarray(jumps, (size_t)nj + 1, sizeof(*jumps));
			jumps[nj++] = i;
		}
		break;
	case S_TEST:
	case S_IPROBE:
	case S_IPROBE_ANY:
		fork = add(p, I_FORK);
		p->ins[fork].to = xcalloc(2, sizeof(int));
		for (k = 1; k >= 0; k--) {
			p->ins[fork].to[p->ins[fork].nto++] = p->n;
			l = letter_of(s);
			l.outcome = k;
			act_block(p, l, k ? s->body : s->orelse, &jumps, &nj);
		}
		break;
	case S_WAITANY:
	case S_WAITSOME:
		l = letter_of(s);
		for (br = s->branches, nb = 0; br != NULL; br = br->next)
			nb++;
		if (s->kind == S_WAITSOME && nb > INCL_MAX_SOME) {
			p->bad = 1;
			return;
		}
		l.names = xcalloc((size_t)nb, sizeof(*l.names));
		p->names = xreallocarray(p->names, (size_t)p->nnames + 1,
		    sizeof(*p->names));
		p->names[p->nnames++] = l.names;
		for (br = s->branches; br != NULL; br = br->next)
			l.names[l.nnames++] = br->req;
		fork = add(p, I_FORK);
		n = s->kind == S_WAITANY ? nb : (1 << nb) - 1;
		p->ins[fork].to = xcalloc((size_t)n, sizeof(int));
		for (set = 1; set <= (unsigned)((1 << nb) - 1); set++) {
			if (s->kind == S_WAITANY && (set & (set - 1)) != 0)
				continue;
			p->ins[fork].to[p->ins[fork].nto++] = p->n;
			i = add(p, I_ACT);
			p->ins[i].l = l;
			p->ins[i].l.set = set;
			/* the blocks of those complete, in order */
			for (br = s->branches, j = 0; br != NULL; br = br->next, j++)
				if (set & (1u << j))
					compile_list(p, br->body);
			i = add(p, I_JMP);
			jumps = xreallocarray(jumps, (size_t)nj + 1, sizeof(*jumps));
			jumps[nj++] = i;
		}
		break;
	default:
		break;
	}
	if (s->kind == S_CHOICE || s->kind == S_TEST || s->kind == S_IPROBE ||
	    s->kind == S_IPROBE_ANY || s->kind == S_WAITANY ||
	    s->kind == S_WAITSOME) {
		for (i = 0; i < nj; i++)
			p->ins[jumps[i]].a = p->n;
		free(jumps);
		return;
	}
	i = add(p, I_ACT);
	p->ins[i].l = letter_of(s);
	unname(p, &p->ins[i].l);
}

static void
compile_list(struct prog *p, const struct pcg_bstmt *s)
{
	for (; s != NULL && !p->bad; s = s->next)
		compile(p, s);
}

static void
prog_free(struct prog *p)
{
	int	i;

	for (i = 0; i < p->n; i++) {
		free(p->ins[i].to);
		free(p->ins[i].text);
	}
	for (i = 0; i < p->nnames; i++)
		free(p->names[i]);
	free(p->names);
	free(p->ins);
	free(p->fixed);
}

/* ---- places ---- */

/* A place: an instruction and the counts of the loops around it, with
 * (for the declared behaviour) how its request names stand for the
 * code's.  Kept as bytes: pc, counts, then pairs of names. */
struct place {
	int		 pc;
	int64_t		*ctr;
	const char	**map;		/* code name, decl name; pairs */
	int		 nmap;
};

static void
place_copy(struct place *to, const struct place *from, int nctr)
{
	to->pc = from->pc;
	to->ctr = xreallocarray(NULL, (size_t)(nctr ? nctr : 1), sizeof(int64_t));
	if (nctr > 0)
		memcpy(to->ctr, from->ctr, sizeof(int64_t) * (size_t)nctr);
	to->nmap = from->nmap;
	to->map = xreallocarray(NULL, (size_t)(2 * from->nmap + 1),
	    sizeof(*to->map));
	if (from->nmap > 0)
		memcpy(to->map, from->map,
		    sizeof(*to->map) * (size_t)(2 * from->nmap));
}

static void
place_free(struct place *p)
{
	free(p->ctr);
	free(p->map);
}

static void
place_bytes(struct buf *b, const struct place *p, int nctr)
{
	buf_add(b, (const char *)&p->pc, sizeof(p->pc));
	buf_add(b, (const char *)p->ctr, sizeof(int64_t) * (size_t)nctr);
	buf_add(b, (const char *)&p->nmap, sizeof(p->nmap));
	buf_add(b, (const char *)p->map, sizeof(*p->map) * (size_t)(2 * p->nmap));
}

/* The decl name code name c stands for (NULL: none bound). */
static const char *
map_get(const struct place *p, const char *c)
{
	int	i;

	for (i = 0; i < p->nmap; i++)
		if (p->map[2 * i] == c)
			return p->map[2 * i + 1];
	return NULL;
}

static void
map_set(struct place *p, const char *c, const char *d)
{
	int	i;

	for (i = 0; i < p->nmap; i++)
		if (p->map[2 * i] == c) {
			p->map[2 * i + 1] = d;
			return;
		}
	p->map = xreallocarray(p->map, (size_t)(2 * p->nmap + 2), sizeof(*p->map));
	p->map[2 * p->nmap] = c;
	p->map[2 * p->nmap + 1] = d;
	p->nmap++;
}

/* The places with an act or the end that p reaches without a call, into
 * out (copies).  A loop for ever with no call in it reaches none. */
struct places {
	struct place	*v;
	int		 n, cap;
};

static void
places_add(struct places *ps, const struct place *p, int nctr)
{
	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 8;
		ps->v = xreallocarray(ps->v, (size_t)ps->cap, sizeof(*ps->v));
	}
	place_copy(&ps->v[ps->n++], p, nctr);
}

static void
places_free(struct places *ps)
{
	int	i;

	for (i = 0; i < ps->n; i++)
		place_free(&ps->v[i]);
	free(ps->v);
	memset(ps, 0, sizeof(*ps));
}

/* Place p as bytes, hashed, for the closure's visited set. */
static void
place_key(const struct place *p, int nctr, uint64_t *h1, uint64_t *h2);

static void
ready(const struct prog *pr, const struct place *p0, struct places *out)
{
	struct places		 stack;
	struct place		 p, q;
	struct hmap		*seen = hmap_new();
	const struct ins	*in;
	uint64_t		 h1, h2;
	int			 i, old;

	memset(&stack, 0, sizeof(stack));
	places_add(&stack, p0, pr->nctr);
	while (stack.n > 0) {
		p = stack.v[--stack.n];
		place_key(&p, pr->nctr, &h1, &h2);
		if (hmap_put(seen, h1, h2, 1, &old) == HMAP_FOUND) {
			place_free(&p);
			continue;
		}
		in = &pr->ins[p.pc];
		switch (in->op) {
		case I_ACT:
		case I_END:
			places_add(out, &p, pr->nctr);
			break;
		case I_STUCK:
			break;
		case I_JMP:
			place_copy(&q, &p, pr->nctr);
			q.pc = in->a;
			places_add(&stack, &q, pr->nctr);
			place_free(&q);
			break;
		case I_FORK:
			for (i = in->nto - 1; i >= 0; i--) {
				place_copy(&q, &p, pr->nctr);
				q.pc = in->to[i];
				places_add(&stack, &q, pr->nctr);
				place_free(&q);
			}
			break;
		case I_LOOP:
			place_copy(&q, &p, pr->nctr);
			q.ctr[in->k] = in->n;
			q.pc++;
			places_add(&stack, &q, pr->nctr);
			place_free(&q);
			break;
		case I_TEST:
			place_copy(&q, &p, pr->nctr);
			if (q.ctr[in->k] == 0) {
				q.pc = in->a;
				q.ctr[in->k] = 0;
			} else {
				if (q.ctr[in->k] > 0)
					q.ctr[in->k]--;
				q.pc++;
			}
			places_add(&stack, &q, pr->nctr);
			place_free(&q);
			break;
		}
		place_free(&p);
	}
	free(stack.v);
	hmap_free(seen);
}

/* Whether decl's call d takes code's call c, where (on place m) the code's
 * names stand for the declared's; binds a post's name. */
static int
accepts(const struct letter *d, const struct letter *c, struct place *m)
{
	int	i, j;

	if (d->kind != c->kind)
		return 0;
	if (d->mode != c->mode && !((d->kind == S_SEND || d->kind == S_ISEND) &&
	    d->mode == MODE_STANDARD))
		return 0;
	if (d->type != c->type || d->port != c->port || d->rtype != c->rtype ||
	    d->rport != c->rport || d->root != c->root || d->group != c->group ||
	    d->outcome != c->outcome)
		return 0;
	switch (d->kind) {
	case S_ISEND:
	case S_IRECV:
	case S_IRECV_ANY:
	case S_PROBE:
	case S_PROBE_ANY:
		if (c->req != NULL)
			map_set(m, c->req, d->req);
		return 1;
	case S_IPROBE:
	case S_IPROBE_ANY:
		if (c->req != NULL && c->outcome)
			map_set(m, c->req, d->req);
		return 1;
	case S_WAIT:
	case S_TEST:
	case S_RECV_PROBED:
		return c->req != NULL && d->req != NULL && map_get(m, c->req) == d->req;
	case S_WAITANY:
	case S_WAITSOME:
		if (d->nnames != c->nnames)
			return 0;
		/* the same requests listed, the same completed */
		for (i = 0; i < c->nnames; i++) {
			const char *dn = map_get(m, c->names[i]);

			for (j = 0; j < d->nnames; j++)
				if (d->names[j] == dn)
					break;
			if (j == d->nnames || ((c->set >> i) & 1) != ((d->set >> j) & 1))
				return 0;
		}
		return 1;
	default:
		return 1;
	}
}

/* ---- the product ---- */

struct pstate {
	struct place	 c;		/* the walker's place */
	struct places	 d;		/* the other's set */
	long		 parent;
	long		 depth;		/* calls made */
	const struct letter *last;	/* the walker's last (NULL: none) */
};

struct explore {
	const struct prog *walk, *set;	/* walk: whose calls; set: follows */
	int		 rev;		/* walk is the declared one */
	struct hmap	*seen;
	struct pstate	*q;
	long		 nq, capq, head;
	long		 max;
	/* the difference */
	const struct letter *wl;	/* the walker's call (NULL: its end) */
	const struct letter *last;	/* its call before (at its end) */
	struct places	 expect;	/* what the other could do there */
	long		 depth;
};

static void
hash_bytes(const char *s, size_t n, uint64_t *h1, uint64_t *h2)
{
	uint64_t	a = 1469598103934665603ULL, b = 0x9e3779b97f4a7c15ULL;
	size_t		i;

	for (i = 0; i < n; i++) {
		a ^= (unsigned char)s[i];
		a *= 1099511628211ULL;
		b = (b ^ (unsigned char)s[i]) * 0xff51afd7ed558ccdULL + 0x1f;
	}
	*h1 = a;
	*h2 = b;
}

static void
place_key(const struct place *p, int nctr, uint64_t *h1, uint64_t *h2)
{
	struct buf	b;

	buf_init(&b);
	place_bytes(&b, p, nctr);
	hash_bytes(b.s, b.len, h1, h2);
	buf_free(&b);
}

static int
place_cmp_nctr;

static int
place_cmp(const void *x, const void *y)
{
	const struct place	*a = x, *b = y;
	int			 i;

	if (a->pc != b->pc)
		return a->pc < b->pc ? -1 : 1;
	for (i = 0; i < place_cmp_nctr; i++)
		if (a->ctr[i] != b->ctr[i])
			return a->ctr[i] < b->ctr[i] ? -1 : 1;
	if (a->nmap != b->nmap)
		return a->nmap < b->nmap ? -1 : 1;
	return memcmp(a->map, b->map, sizeof(*a->map) * (size_t)(2 * a->nmap));
}

/* Add the state (taken over) unless seen; 1 if added. */
static int
push(struct explore *x, struct pstate *s)
{
	struct buf	b;
	uint64_t	h1, h2;
	int		old, i;

	place_cmp_nctr = x->set->nctr;
	qsort(s->d.v, (size_t)s->d.n, sizeof(*s->d.v), place_cmp);
	for (i = 1; i < s->d.n; i++)
		if (place_cmp(&s->d.v[i - 1], &s->d.v[i]) == 0) {
			place_free(&s->d.v[i]);
			memmove(&s->d.v[i], &s->d.v[i + 1], sizeof(*s->d.v) *
			    (size_t)(s->d.n - i - 1));
			s->d.n--;
			i--;
		}
	buf_init(&b);
	place_bytes(&b, &s->c, x->walk->nctr);
	for (i = 0; i < s->d.n; i++)
		place_bytes(&b, &s->d.v[i], x->set->nctr);
	hash_bytes(b.s, b.len, &h1, &h2);
	buf_free(&b);
	if (hmap_put(x->seen, h1, h2, 1, &old) == HMAP_FOUND) {
		place_free(&s->c);
		places_free(&s->d);
		return 0;
	}
	if (x->nq == x->capq) {
		x->capq = x->capq ? 2 * x->capq : 256;
		x->q = xreallocarray(x->q, (size_t)x->capq, sizeof(*x->q));
	}
	x->q[x->nq++] = *s;
	return 1;
}

/* Both at the head of the same counted loop, the set one place only:
 * the loops are the same, run the same times: past both at once. */
static int
lockstep(struct explore *x, struct pstate *s)
{
	const struct ins	*a, *b;

	if (s->d.n != 1)
		return 0;
	a = &x->walk->ins[s->c.pc];
	b = &x->set->ins[s->d.v[0].pc];
	if (a->op != I_LOOP || b->op != I_LOOP || a->n < 0 || a->n != b->n ||
	    a->named || b->named || strcmp(a->text, b->text) != 0)
		return 0;
	s->c.pc = a->exit;
	s->d.v[0].pc = b->exit;
	return 1;
}

/* Walk x->walk's calls against x->set's: 1 included, 0 a difference
 * (x->wl, x->expect), -1 past the limit. */
static int
run(struct explore *x)
{
	struct pstate	 s, n;
	struct places	 wr, dr;
	struct place	 init;
	int64_t		*z1, *z2;
	int		 i, j, k, found, rc = 1;

	x->seen = hmap_new();
	z1 = xcalloc((size_t)x->walk->nctr + 1, sizeof(*z1));
	z2 = xcalloc((size_t)x->set->nctr + 1, sizeof(*z2));
	memset(&s, 0, sizeof(s));
	memset(&init, 0, sizeof(init));
	init.ctr = z1;
	place_copy(&s.c, &init, x->walk->nctr);
	init.ctr = z2;
	places_add(&s.d, &init, x->set->nctr);
	free(z1);
	free(z2);
	s.parent = -1;
	push(x, &s);
	while (x->head < x->nq) {
		if (x->nq > x->max) {
			rc = -1;
			break;
		}
		s = x->q[x->head++];
		while (lockstep(x, &s))
			;
		memset(&wr, 0, sizeof(wr));
		memset(&dr, 0, sizeof(dr));
		ready(x->walk, &s.c, &wr);
		for (i = 0; i < s.d.n; i++)
			ready(x->set, &s.d.v[i], &dr);
		for (i = 0; i < wr.n && rc == 1; i++) {
			const struct ins *wi = &x->walk->ins[wr.v[i].pc];

			if (wi->op == I_END) {
				for (j = 0; j < dr.n; j++)
					if (x->set->ins[dr.v[j].pc].op == I_END)
						break;
				if (j == dr.n) {
					x->wl = NULL;
					x->last = s.last;
					x->expect = dr;
					memset(&dr, 0, sizeof(dr));
					x->depth = s.depth;
					rc = 0;
				}
				continue;
			}
			memset(&n, 0, sizeof(n));
			found = 0;
			for (j = 0; j < dr.n; j++) {
				const struct ins	*di = &x->set->ins[dr.v[j].pc];
				struct place		 m;
				int			 ok;

				if (di->op != I_ACT)
					continue;
				place_copy(&m, &dr.v[j], x->set->nctr);
				ok = x->rev ? accepts(&wi->l, &di->l, &m) :
				    accepts(&di->l, &wi->l, &m);
				if (ok) {
					m.pc++;
					places_add(&n.d, &m, x->set->nctr);
					found = 1;
				}
				place_free(&m);
			}
			if (!found) {
				x->wl = &wi->l;
				x->expect = dr;
				memset(&dr, 0, sizeof(dr));
				x->depth = s.depth;
				places_free(&n.d);
				rc = 0;
				break;
			}
			place_copy(&n.c, &wr.v[i], x->walk->nctr);
			n.c.pc++;
			n.parent = x->head - 1;
			n.depth = s.depth + 1;
			n.last = &wi->l;
			push(x, &n);
		}
		places_free(&wr);
		places_free(&dr);
		place_free(&s.c);
		places_free(&s.d);
		x->q[x->head - 1].d.v = NULL;
		x->q[x->head - 1].c.ctr = NULL;
		x->q[x->head - 1].c.map = NULL;
		if (rc != 1)
			break;
	}
	for (k = x->head; k < x->nq; k++) {
		place_free(&x->q[k].c);
		places_free(&x->q[k].d);
	}
	free(x->q);
	hmap_free(x->seen);
	return rc;
}

/* ---- the comparison ---- */

static void
prog_make(struct prog *p, const struct pcg *g, int proc, const struct pcg_bstmt *s)
{
	memset(p, 0, sizeof(*p));
	p->g = g;
	p->proc = proc;
	find_fixed(p, s);
	compile_list(p, s);
	add(p, I_END);
}

/* The statement of a call, for the message: its text, and where. */
static void
said(struct buf *b, const struct pcg *g, int proc, const struct letter *l)
{
	const struct pcg_comp	*c = &g->comps[g->procs[proc].comp];

	buf_addc(b, '\'');
	if (l->kind == S_WAITANY || l->kind == S_WAITSOME) {
		int	i, first = 1;

		buf_adds(b, l->kind == S_WAITANY ? "waitany" : "waitsome");
		for (i = 0; i < l->nnames; i++)
			if (l->set & (1u << i)) {
				buf_printf(b, "%s%s", first ? " completing " : ", ",
				    l->names[i]);
				first = 0;
			}
		buf_addc(b, '\'');
		return;
	}
	st_text(b, g, proc, l->st, 0);
	if (l->st->port == 0 && l->port > 0) {
		/* one port of a T[*]: that port */
		buf_reset(b);
		buf_printf(b, "'%s %s[%d]", pcg_stmt_word(l->kind, l->mode),
		    c->types[l->type], l->port);
	}
	if (l->kind == S_TEST || l->kind == S_IPROBE || l->kind == S_IPROBE_ANY)
		buf_adds(b, l->outcome ? "' (its first block)" : "' (its else)");
	else
		buf_addc(b, '\'');
}

static struct loc
loc_of(const struct letter *l)
{
	struct loc	none;

	if (l != NULL && l->st->src != NULL)
		return l->st->src->loc;
	memset(&none, 0, sizeof(none));
	return none;
}

enum cc_verdict
incl_compare(const struct pcg *g, int proc, const struct pcg_bstmt *code,
    const struct pcg_bstmt *decl, long max_states, char **diff,
    struct loc *codeloc, struct loc *declloc, long *states)
{
	struct prog	 pc, pd;
	struct explore	 x;
	struct buf	 b;
	int		 rc, i, j, n;
	enum cc_verdict	 v;

	*diff = NULL;
	prog_make(&pc, g, proc, code);
	prog_make(&pd, g, proc, decl);
	if (pc.bad || pd.bad) {
		prog_free(&pc);
		prog_free(&pd);
		*diff = xstrdup("a waitsome of more requests than the comparison "
		    "takes");
		return CC_UNDECIDED;
	}
	memset(&x, 0, sizeof(x));
	x.walk = &pc;
	x.set = &pd;
	x.max = max_states > 0 ? max_states : INCL_MAX_STATES;
	rc = run(&x);
	*states = x.nq;
	if (rc < 0) {
		v = CC_UNDECIDED;
		xasprintf(diff, "the comparison passed %ld states", x.max);
		goto out;
	}
	if (rc == 0) {
		buf_init(&b);
		*codeloc = loc_of(x.wl != NULL ? x.wl : x.last);
		memset(declloc, 0, sizeof(*declloc));
		if (x.wl != NULL) {
			buf_adds(&b, "the code can call ");
			said(&b, g, proc, x.wl);
			if (x.depth > 0)
				buf_printf(&b, " after %ld call%s", x.depth,
				    x.depth == 1 ? "" : "s");
		} else if (x.last != NULL)
			buf_printf(&b, "the code can end after this call (%ld "
			    "call%s made)", x.depth, x.depth == 1 ? "" : "s");
		else
			buf_adds(&b, "the code can end before any call");
		buf_adds(&b, " where its behaviour ");
		for (i = n = 0; i < x.expect.n; i++) {
			const struct ins *di = &pd.ins[x.expect.v[i].pc];

			/* each statement expected once */
			for (j = 0; j < i; j++)
				if (pd.ins[x.expect.v[j].pc].op == di->op &&
				    (di->op == I_END || pd.ins[x.expect.v[j].pc].l.st ==
				    di->l.st))
					break;
			if (j < i)
				continue;
			if (n == 0) {
				buf_adds(&b, di->op == I_END ? "has ended" : "expects ");
				if (di->op == I_ACT)
					*declloc = loc_of(&di->l);
			} else
				buf_adds(&b, di->op == I_END ? ", or has ended" : " or ");
			if (di->op == I_ACT)
				said(&b, g, proc, &di->l);
			n++;
		}
		if (n == 0)
			buf_adds(&b, "cannot go on");
		places_free(&x.expect);
		*diff = buf_steal(&b);
		v = CC_DIFFERS;
		goto out;
	}
	/* Included; the other way round too? */
	memset(&x, 0, sizeof(x));
	x.walk = &pd;
	x.set = &pc;
	x.rev = 1;
	x.max = max_states > 0 ? max_states : INCL_MAX_STATES;
	rc = run(&x);
	*states += x.nq;
	places_free(&x.expect);
	v = rc == 1 ? CC_EQUAL : CC_INCLUDED;
out:
	prog_free(&pc);
	prog_free(&pd);
	return v;
}
