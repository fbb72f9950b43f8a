/* behave.c -- each process's instantiated behaviour: its component's
 * BEHAVIOUR with parameters, 'index' and ports() replaced by their values,
 * 'if' decided and 'for' unrolled, loops kept with their counts.  It is
 * built once as statements (pcg_proc.prog, which the verifier compiles) and
 * printed from them as the 'behaviour' attribute the protocol monitor
 * reads (the text's grammar: runtime/monitor.h).
 * A statement that names a port the process does not have is an error
 * here, said once per statement. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "hmap.h"
#include "pcg.h"
#include "stmtword.h"
#include "xmalloc.h"

/* Statements one process's behaviour may unroll to: more is a runaway
 * 'for', not a protocol. */
#define BEHAVE_MAX_STMTS	(1 << 20)

struct behave {
	struct eval	 ev;
	struct hmap	*said;		/* statements already reported */
	struct arena	*arena;
	int		 proc;
	long		 nstmts;
	int		 failed;
};

static void
say(struct behave *x, const struct stmt *s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
say(struct behave *x, const struct stmt *s, const char *fmt, ...)
{
	struct pcg	*g = x->ev.pcg;
	char		 pn[PCG_NAME_MAX], *msg;
	va_list		 ap;
	int		 old;

	x->failed = 1;
	if (hmap_put(x->said, (uint64_t)(uintptr_t)s, 0, 1, &old) == HMAP_FOUND)
		return;
	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	diag_error(g->diag, &s->loc, "%s", msg);
	diag_note(g->diag, &g->procs[x->proc].loc, "'%s' declared here",
	    pcg_proc_name(g, x->proc, pn, sizeof(pn)));
	free(msg);
}

/* A statement's entry in the table of words (runtime/stmtword.h); W_COUNT
 * for one without words. */
static enum stmt_word
stmt_word_of(enum stmt_kind kind, enum send_mode mode)
{
	enum stmt_word	w = W_COUNT;

	switch (kind) {
	case S_SEND:		w = W_SEND + mode; break;
	case S_ISEND:		w = W_ISEND + mode; break;
	case S_RECV:		w = W_RECV; break;
	case S_IRECV:		w = W_IRECV; break;
	case S_RECV_ANY:	w = W_RECV_ANY; break;
	case S_IRECV_ANY:	w = W_IRECV_ANY; break;
	case S_WAITALL:		w = W_WAITALL; break;
	case S_BARRIER:		w = W_BARRIER; break;
	case S_ALLREDUCE:	w = W_ALLREDUCE; break;
	case S_ALLGATHER:	w = W_ALLGATHER; break;
	case S_ALLTOALL:	w = W_ALLTOALL; break;
	case S_BCAST:		w = W_BCAST; break;
	case S_SCATTER:		w = W_SCATTER; break;
	case S_REDUCE:		w = W_REDUCE; break;
	case S_GATHER:		w = W_GATHER; break;
	case S_ALLGATHERV:	w = W_ALLGATHERV; break;
	case S_ALLTOALLV:	w = W_ALLTOALLV; break;
	case S_REDUCESCATTER:	w = W_REDUCESCATTER; break;
	case S_SCATTERV:	w = W_SCATTERV; break;
	case S_GATHERV:		w = W_GATHERV; break;
	case S_LOOP:		w = W_LOOP; break;
	case S_CHOICE:		w = W_CHOICE; break;
	case S_SENDRECV:	w = W_SENDRECV; break;
	case S_SENDRECV_REPLACE: w = W_SENDRECV_REPLACE; break;
	case S_WAIT:		w = W_WAIT; break;
	case S_TEST:		w = W_TEST; break;
	case S_WAITANY:		w = W_WAITANY; break;
	case S_WAITSOME:	w = W_WAITSOME; break;
	case S_PROBE:		w = W_PROBE; break;
	case S_PROBE_ANY:	w = W_PROBE_ANY; break;
	case S_IPROBE:		w = W_IPROBE; break;
	case S_IPROBE_ANY:	w = W_IPROBE_ANY; break;
	case S_RECV_PROBED:	w = W_RECV_PROBED; break;
	case S_IF:
	case S_FOR:		/* no word of their own */
		break;
	}
	return w;
}

/* A statement's words, as the script spells them (runtime/stmtword.h). */
const char *
pcg_stmt_word(enum stmt_kind kind, enum send_mode mode)
{
	enum stmt_word	w = stmt_word_of(kind, mode);

	return w < W_COUNT ? stmt_words[w] : "?";
}

/* Whether kind is a rooted collective (its words end in "from" or "to"). */
int
pcg_stmt_rooted(enum stmt_kind kind)
{
	return stmt_word_rooted(stmt_word_of(kind, MODE_STANDARD));
}

/* The words statement b starts with. */
static const char *
word(const struct pcg_bstmt *b)
{
	return pcg_stmt_word(b->kind, b->mode);
}

static struct pcg_bstmt *
node(struct behave *x, const struct stmt *s)
{
	struct pcg_bstmt	*b = arena_alloc(x->arena, sizeof(*b));

	b->kind = s->kind;
	b->mode = s->mode;
	b->type = -1;
	b->root = -1;
	b->group = -1;
	b->rtype = -1;
	b->req = s->req;
	b->src = s;
	return b;
}

static int
ports_of(struct behave *x, int type)
{
	return x->ev.pcg->procs[x->proc].nports[type];
}

static int port_of(struct behave *, const struct stmt *, const struct pcg_bstmt *,
    const char *, const struct expr *, int *, int *);

/* T[k] or T[*]; the index must be one of the process's ports. */
static int
port(struct behave *x, const struct stmt *s, struct pcg_bstmt *b)
{
	return port_of(x, s, b, s->type, s->port, &b->type, &b->port);
}

/* Port type tname, index e (NULL: [*]) of statement s into *type, *port. */
static int
port_of(struct behave *x, const struct stmt *s, const struct pcg_bstmt *b,
    const char *tname, const struct expr *e, int *type, int *portp)
{
	const struct pcg_proc	*p = &x->ev.pcg->procs[x->proc];
	int64_t			 k;
	int			 n;

	*type = pcg_find_type(&x->ev.pcg->comps[p->comp], tname);
	n = ports_of(x, *type);
	if (e == NULL) {
		*portp = 0;
		return 0;
	}
	if (eval_expr(&x->ev, e, &k) != 0) {
		x->failed = 1;
		return -1;
	}
	if (k < 1 || k > n) {
		char	pn[PCG_NAME_MAX];

		pcg_proc_name(x->ev.pcg, x->proc, pn, sizeof(pn));
		if (k < 1)
			say(x, s, "'%s %s[%" PRId64 "]' in the behaviour of '%s': "
			    "ports are numbered from 1", word(b), tname, k, pn);
		else
			say(x, s, "'%s %s[%" PRId64 "]' in the behaviour of '%s', "
			    "which has %d '%s' port%s", word(b), tname, k, pn, n,
			    tname, n == 1 ? "" : "s");
		return -1;
	}
	*portp = (int)k;
	return 0;
}

static int
root(struct behave *x, const struct stmt *s, struct pcg_bstmt *b)
{
	struct pcg	*g = x->ev.pcg;
	int64_t		 k = 0;
	int		 comp = pcg_find_comp(g, s->root.name);

	/* The root was checked when the behaviour was read; evaluate its index. */
	if (s->root.idx != NULL && eval_expr(&x->ev, s->root.idx->lo, &k) != 0) {
		x->failed = 1;
		return -1;
	}
	if (comp < 0) {
		x->failed = 1;
		return -1;
	}
	if ((b->root = pcg_find_proc(g, comp, k)) < 0) {
		char	pn[PCG_NAME_MAX];

		/* Only a root that varies ('over') can get here. */
		say(x, s, "'%s %s[%" PRId64 "]' in the behaviour of '%s': no process "
		    "'%s[%" PRId64 "]'", word(b), s->root.name, k, pcg_proc_name(g,
		    x->proc, pn, sizeof(pn)), s->root.name, k);
		return -1;
	}
	return 0;
}

/* The statement as the script writes it, for messages: "bcast from
 * cell[1] over cols[3]". */
static void
coll_text(struct behave *x, const struct pcg_bstmt *b, const char *group,
    char *buf, size_t len)
{
	char	rn[PCG_NAME_MAX];

	if (b->root >= 0)
		snprintf(buf, len, "%s %s over %s", word(b), pcg_proc_name(x->ev.pcg,
		    b->root, rn, sizeof(rn)), group);
	else
		snprintf(buf, len, "%s over %s", word(b), group);
}

/* 'over G': the group's index in pcg->groups; the process and the root
 * must be its members.  The Groups section and the names were checked
 * when the behaviour was read; the index is this process's. */
static int
over(struct behave *x, const struct stmt *s, struct pcg_bstmt *b)
{
	struct pcg	*g = x->ev.pcg;
	char		 pn[PCG_NAME_MAX], rn[PCG_NAME_MAX], gn[PCG_NAME_MAX];
	char		 st[3 * PCG_NAME_MAX];
	int64_t		 k = 0, lo = 0, hi = 0;
	int		 i, n = 0;

	if (s->over->idx != NULL && eval_expr(&x->ev, s->over->idx->lo, &k) != 0) {
		x->failed = 1;
		return -1;
	}
	pcg_proc_name(g, x->proc, pn, sizeof(pn));
	if ((b->group = pcg_find_group(g, s->over->name, k)) < 0) {
		for (i = 0; i < g->ngroups; i++) {
			if (g->groups[i].name != s->over->name)
				continue;
			if (n == 0 || g->groups[i].index < lo)
				lo = g->groups[i].index;
			if (n++ == 0 || g->groups[i].index > hi)
				hi = g->groups[i].index;
		}
		snprintf(gn, sizeof(gn), "%s[%" PRId64 "]", s->over->name, k);
		coll_text(x, b, gn, st, sizeof(st));
		say(x, s, "'%s' in the behaviour of '%s': no group '%s' (groups "
		    "'%s' are numbered within %" PRId64 "..%" PRId64 ")", st, pn, gn,
		    s->over->name, lo, hi);
		return -1;
	}
	pcg_group_name(g, b->group, gn, sizeof(gn));
	coll_text(x, b, gn, st, sizeof(st));
	if (pcg_group_rank(g, b->group, x->proc) < 0) {
		say(x, s, "'%s' in the behaviour of '%s', which is not in '%s'",
		    st, pn, gn);
		return -1;
	}
	if (b->root >= 0 && pcg_group_rank(g, b->group, b->root) < 0) {
		say(x, s, "'%s' in the behaviour of '%s': the root '%s' is not in "
		    "'%s'", st, pn, pcg_proc_name(g, b->root, rn, sizeof(rn)), gn);
		return -1;
	}
	return 0;
}

static int stmts(struct behave *, const struct stmt *, struct pcg_bstmt ***);

/* Instantiate one statement, appending what comes of it at *tail. */
static int
stmt(struct behave *x, const struct stmt *s, struct pcg_bstmt ***tail)
{
	const struct branch	*br;
	struct pcg_bbranch	**bt;
	struct pcg_bstmt	*b, **bodytail;
	int64_t			 v, lo, hi, i;
	int			 k;

	if (++x->nstmts > BEHAVE_MAX_STMTS) {
		say(x, s, "behaviour unrolls to more than %d statements", BEHAVE_MAX_STMTS);
		return -1;
	}
	switch (s->kind) {
	case S_IF:
		if (eval_expr(&x->ev, s->expr, &v) != 0) {
			x->failed = 1;
			return -1;
		}
		/* Decided: the branch taken stands in the statement's place. */
		if (v)
			return stmts(x, s->body, tail);
		return s->orelse != NULL ? stmts(x, s->orelse, tail) : 0;
	case S_FOR:
		if (eval_expr(&x->ev, s->var->lo, &lo) != 0 ||
		    eval_expr(&x->ev, s->var->hi, &hi) != 0) {
			x->failed = 1;
			return -1;
		}
		if (x->ev.nvars >= EVAL_MAX_VARS) {
			say(x, s, "more than %d 'for' variables in scope", EVAL_MAX_VARS);
			return -1;
		}
		k = x->ev.nvars++;
		x->ev.vars[k].name = s->var->name;
		for (i = lo; i <= hi; i++) {
			x->ev.vars[k].value = i;
			if (stmts(x, s->body, tail) != 0) {
				x->ev.nvars = k;
				return -1;
			}
			if (i == INT64_MAX)
				break;
		}
		x->ev.nvars = k;
		return 0;
	default:
		break;
	}
	b = node(x, s);
	switch (s->kind) {
	case S_SEND:
	case S_ISEND:
	case S_RECV:
	case S_IRECV:
	case S_PROBE:
		if (port(x, s, b) != 0)
			return -1;
		break;
	case S_SENDRECV:
	case S_SENDRECV_REPLACE:
		if (port(x, s, b) != 0 || port_of(x, s, b, s->rtype, s->rport,
		    &b->rtype, &b->rport) != 0)
			return -1;
		break;
	case S_IPROBE:
		if (port(x, s, b) != 0)
			return -1;
		/* FALLTHROUGH */
	case S_TEST:
		bodytail = &b->body;
		if (stmts(x, s->body, &bodytail) != 0)
			return -1;
		bodytail = &b->orelse;
		if (stmts(x, s->orelse, &bodytail) != 0)
			return -1;
		break;
	case S_IPROBE_ANY:
		if (s->type != NULL)
			b->type = pcg_find_type(&x->ev.pcg->comps[
			    x->ev.pcg->procs[x->proc].comp], s->type);
		bodytail = &b->body;
		if (stmts(x, s->body, &bodytail) != 0)
			return -1;
		bodytail = &b->orelse;
		if (stmts(x, s->orelse, &bodytail) != 0)
			return -1;
		break;
	case S_RECV_ANY:
	case S_IRECV_ANY:
	case S_PROBE_ANY:
		if (s->type != NULL)
			b->type = pcg_find_type(&x->ev.pcg->comps[
			    x->ev.pcg->procs[x->proc].comp], s->type);
		break;
	case S_LOOP:
		b->count = -1;
		if (s->expr != NULL) {
			if (eval_expr(&x->ev, s->expr, &v) != 0) {
				x->failed = 1;
				return -1;
			}
			if (v < 0) {
				char	pn[PCG_NAME_MAX];

				say(x, s, "loop count %" PRId64 " is negative in the "
				    "behaviour of '%s'", v, pcg_proc_name(x->ev.pcg,
				    x->proc, pn, sizeof(pn)));
				return -1;
			}
			b->count = v;
		}
		bodytail = &b->body;
		if (stmts(x, s->body, &bodytail) != 0)
			return -1;
		break;
	case S_CHOICE:
	case S_WAITANY:
	case S_WAITSOME:
		bt = &b->branches;
		for (br = s->branches; br != NULL; br = br->next) {
			*bt = arena_alloc(x->arena, sizeof(**bt));
			(*bt)->src = br;
			(*bt)->req = br->req;
			bodytail = &(*bt)->body;
			if (stmts(x, br->body, &bodytail) != 0)
				return -1;
			bt = &(*bt)->next;
		}
		break;
	default:
		if (pcg_stmt_rooted(s->kind) && root(x, s, b) != 0)
			return -1;
		break;
	}
	if (s->over != NULL && over(x, s, b) != 0)
		return -1;
	**tail = b;
	*tail = &b->next;
	return 0;
}

static int
stmts(struct behave *x, const struct stmt *s, struct pcg_bstmt ***tail)
{
	for (; s != NULL; s = s->next)
		if (stmt(x, s, tail) != 0)
			return -1;
	return 0;
}

/* ---- named requests: which may, and which must, be pending ---- */

/* Names of requests one behaviour may use. */
#define BEHAVE_MAX_REQS	64

/* The requests a process's behaviour names, and the messages its probes
 * name ('probe ... as m'), each a bit of a reqset: a request's is set
 * where it is pending, a message's where a probe found it and no 'recv'
 * took it yet. */
struct reqflow {
	const char	*names[BEHAVE_MAX_REQS];
	unsigned char	 probed[BEHAVE_MAX_REQS];	/* a message's name */
	int		 n;
	int		 quiet;		/* inside a fixpoint's trial: say nothing */
};

/* Requests pending on some way here (may) and on every way (must). */
struct reqset {
	uint64_t	 may, must;
};

static struct reqset reqs_list(struct behave *, struct reqflow *,
    const struct pcg_bstmt *, struct reqset);

static void
reqs_say(struct behave *x, struct reqflow *f, const struct pcg_bstmt *s,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Report a misuse of a request at s, unless trying a loop's way round. */
static void
reqs_say(struct behave *x, struct reqflow *f, const struct pcg_bstmt *s,
    const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	if (f->quiet) {
		x->failed = 1;
		return;
	}
	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	say(x, s->src, "%s", msg);
	free(msg);
}

/* The statement's words and name as written: "recv m", "probe any T as
 * m", "wait r". */
static void
reqs_text(const struct behave *x, const struct pcg_bstmt *s, const char *name,
    char *buf, size_t len)
{
	const struct pcg_comp	*c = &x->ev.pcg->comps[x->ev.pcg->procs[x->proc].comp];

	if (s->kind == S_PROBE || s->kind == S_IPROBE)
		snprintf(buf, len, "%s %s[%d] as %s", word(s), c->types[s->type],
		    s->port, name);
	else if (s->kind == S_PROBE_ANY || s->kind == S_IPROBE_ANY)
		snprintf(buf, len, "%s%s%s as %s", word(s), s->type >= 0 ? " " : "",
		    s->type >= 0 ? c->types[s->type] : "", name);
	else
		snprintf(buf, len, "%s %s", s->kind == S_WAITANY ||
		    s->kind == S_WAITSOME ? "on" : word(s), name);
}

/* The bit of name at s, a probed message's ('probe ... as', 'recv') or a
 * request's; 0 when there are too many names, or when the name is the
 * other kind's (an error). */
static uint64_t
reqs_bit_of(struct behave *x, struct reqflow *f, const struct pcg_bstmt *s,
    const char *name, int probed)
{
	char	st[2 * PCG_NAME_MAX + 32], pn[PCG_NAME_MAX];
	int	i;

	for (i = 0; i < f->n; i++) {
		if (f->names[i] != name)
			continue;
		if (f->probed[i] == probed)
			return (uint64_t)1 << i;
		reqs_text(x, s, name, st, sizeof(st));
		reqs_say(x, f, s, "'%s' in the behaviour of '%s': '%s' names %s, "
		    "not %s", st, pcg_proc_name(x->ev.pcg, x->proc, pn, sizeof(pn)),
		    name, probed ? "a request" : "a probed message",
		    probed ? "a probed message" : "a request");
		return 0;
	}
	if (f->n == BEHAVE_MAX_REQS) {
		reqs_say(x, f, s, "more than %d request and message names in one "
		    "behaviour", BEHAVE_MAX_REQS);
		return 0;
	}
	f->names[f->n] = name;
	f->probed[f->n] = (unsigned char)probed;
	return (uint64_t)1 << f->n++;
}

static uint64_t
reqs_bit(struct behave *x, struct reqflow *f, const struct pcg_bstmt *s,
    const char *name)
{
	return reqs_bit_of(x, f, s, name, 0);
}

static struct reqset
reqs_merge(struct reqset a, struct reqset b)
{
	a.may |= b.may;
	a.must &= b.must;
	return a;
}

/* Request name must be pending at s: on every way ('on' of waitany and
 * waitsome), or on some way at least ('every' 0: wait and test, which
 * go on at once where it is complete already, as MPI's on a null
 * request). */
static void
reqs_need(struct behave *x, struct reqflow *f, const struct pcg_bstmt *s,
    const char *name, struct reqset in, int every)
{
	uint64_t	 bit = reqs_bit(x, f, s, name);
	const char	*w = s->kind == S_WAITANY || s->kind == S_WAITSOME ? "on" :
			    word(s);
	char		 pn[PCG_NAME_MAX];

	if (bit == 0 || (in.must & bit) || (!every && (in.may & bit)))
		return;
	pcg_proc_name(x->ev.pcg, x->proc, pn, sizeof(pn));
	if (in.may & bit)
		reqs_say(x, f, s, "'%s %s' in the behaviour of '%s': request '%s' "
		    "may be complete already (not pending on every way here)",
		    w, name, pn, name);
	else
		reqs_say(x, f, s, "'%s %s' in the behaviour of '%s': request '%s' "
		    "is not pending here", w, name, pn, name);
}

/* What a loop's body leaves, run from in as often as it may go round. */
static struct reqset
reqs_loop(struct behave *x, struct reqflow *f, const struct pcg_bstmt *body,
    struct reqset in, int once)
{
	struct reqset	 head = in, out, next;

	if (!once)
		for (;;) {
			f->quiet++;
			out = reqs_list(x, f, body, head);
			f->quiet--;
			next = reqs_merge(head, out);
			if (next.may == head.may && next.must == head.must)
				break;
			head = next;
		}
	return reqs_list(x, f, body, head);
}

/* The requests pending after one of the 'on' blocks of s has run, from
 * in before it: each block's request complete. */
static struct reqset
reqs_ons(struct behave *x, struct reqflow *f, const struct pcg_bstmt *s,
    struct reqset in)
{
	const struct pcg_bbranch *br;
	struct reqset		 out = in, st;
	uint64_t		 bit;

	for (br = s->branches; br != NULL; br = br->next) {
		bit = reqs_bit(x, f, s, br->req);
		st = in;
		st.may &= ~bit;
		st.must &= ~bit;
		st = reqs_list(x, f, br->body, st);
		out = br == s->branches ? st : reqs_merge(out, st);
	}
	return out;
}

/* The requests pending after s, from in before it. */
static struct reqset
reqs_stmt(struct behave *x, struct reqflow *f, const struct pcg_bstmt *s,
    struct reqset in)
{
	const struct pcg_bbranch *br;
	struct reqset		 out, base, st;
	uint64_t		 bit, listed;
	int			 first;

	switch (s->kind) {
	case S_ISEND:
	case S_IRECV:
	case S_IRECV_ANY:
		if (s->req == NULL || (bit = reqs_bit(x, f, s, s->req)) == 0)
			return in;
		if (in.may & bit) {
			char	pn[PCG_NAME_MAX];

			reqs_say(x, f, s, "'%s ... as %s' in the behaviour of '%s': "
			    "request '%s' may still be pending here", word(s),
			    s->req, pcg_proc_name(x->ev.pcg, x->proc, pn,
			    sizeof(pn)), s->req);
		}
		in.may |= bit;
		in.must |= bit;
		return in;
	case S_WAIT:
		reqs_need(x, f, s, s->req, in, 0);
		bit = reqs_bit(x, f, s, s->req);
		in.may &= ~bit;
		in.must &= ~bit;
		return in;
	case S_TEST:
		reqs_need(x, f, s, s->req, in, 0);
		bit = reqs_bit(x, f, s, s->req);
		st = in;
		st.may &= ~bit;
		st.must &= ~bit;
		return reqs_merge(reqs_list(x, f, s->body, st),
		    reqs_list(x, f, s->orelse, in));
	case S_PROBE:
	case S_PROBE_ANY:
		/* A message found and named: the next 'recv' of it takes it. */
		if (s->req != NULL && (bit = reqs_bit_of(x, f, s, s->req, 1)) != 0) {
			in.may |= bit;
			in.must |= bit;
		}
		return in;
	case S_IPROBE:
	case S_IPROBE_ANY:
		st = in;
		if (s->req != NULL && (bit = reqs_bit_of(x, f, s, s->req, 1)) != 0) {
			st.may |= bit;		/* found: named */
			st.must |= bit;
			in.may &= ~bit;		/* none: no message to name */
			in.must &= ~bit;
		}
		return reqs_merge(reqs_list(x, f, s->body, st),
		    reqs_list(x, f, s->orelse, in));
	case S_RECV_PROBED:
		if ((bit = reqs_bit_of(x, f, s, s->req, 1)) == 0)
			return in;
		if (!(in.must & bit)) {
			char	pn[PCG_NAME_MAX];

			pcg_proc_name(x->ev.pcg, x->proc, pn, sizeof(pn));
			if (in.may & bit)
				reqs_say(x, f, s, "'recv %s' in the behaviour of "
				    "'%s': on some way here no probe found a "
				    "message '%s' since it was last received "
				    "(a 'probe ... as %s' must come first on "
				    "every way)", s->req, pn, s->req, s->req);
			else
				reqs_say(x, f, s, "'recv %s' in the behaviour of "
				    "'%s': no probe found a message '%s' before "
				    "it, or it was received already (a 'probe "
				    "... as %s' must come first on every way)",
				    s->req, pn, s->req, s->req);
		}
		in.may &= ~bit;
		in.must &= ~bit;
		return in;
	case S_WAITALL:
		in.may = in.must = 0;
		return in;
	case S_WAITANY:
	case S_WAITSOME:
		listed = 0;
		for (br = s->branches; br != NULL; br = br->next) {
			reqs_need(x, f, s, br->req, in, 1);
			listed |= reqs_bit(x, f, s, br->req);
		}
		/* waitsome: any others listed may have completed with it, and
		 * their blocks run after one another, in any order as far as
		 * this check knows: the blocks run as a loop's body would. */
		base = in;
		if (s->kind == S_WAITANY || s->branches->next == NULL)
			return reqs_ons(x, f, s, base);	/* (one: it completes) */
		base.must &= ~listed;
		for (;;) {
			f->quiet++;
			out = reqs_merge(base, reqs_ons(x, f, s, base));
			f->quiet--;
			if (out.may == base.may && out.must == base.must)
				break;
			base = out;
		}
		return reqs_merge(base, reqs_ons(x, f, s, base));
	case S_LOOP:
		if (s->count == 0)
			return in;
		return reqs_loop(x, f, s->body, in, s->count == 1);
	case S_CHOICE:
		first = 1;
		out = in;
		for (br = s->branches; br != NULL; br = br->next) {
			st = reqs_list(x, f, br->body, in);
			out = first ? st : reqs_merge(out, st);
			first = 0;
		}
		return out;
	default:
		return in;
	}
}

static struct reqset
reqs_list(struct behave *x, struct reqflow *f, const struct pcg_bstmt *s,
    struct reqset in)
{
	for (; s != NULL; s = s->next)
		in = reqs_stmt(x, f, s, in);
	return in;
}

/* Check each named request of a process's program is waited on, tested
 * or listed only where it is pending, and posted only where it is not. */
static void
reqs_check(struct behave *x, const struct pcg_bstmt *prog)
{
	struct reqflow	 f;
	struct reqset	 none = { 0, 0 };

	memset(&f, 0, sizeof(f));
	reqs_list(x, &f, prog, none);
}

/* ---- a probe followed by a wildcard receive ---- */

/* How many of the process's ports of type 'type' (-1: of every type) are
 * connected. */
static int
connected(const struct behave *x, int type)
{
	const struct pcg	*g = x->ev.pcg;
	const struct pcg_proc	*p = &g->procs[x->proc];
	int			 t, k, slot = p->portbase, n = 0;

	for (t = 0; t < g->comps[p->comp].ntypes; t++)
		for (k = 0; k < p->nports[t]; k++, slot++)
			if ((type < 0 || t == type) && g->portchan[slot] >= 0)
				n++;
	return n;
}

/* Warn where 'probe any [T]' (or a found 'iprobe any [T]') is followed by
 * 'recv any [T]': the receive may take another message than the one
 * probed (a wildcard over fewer than all ports probes them one by one;
 * over all, MPI promises it only for the source and tag the probe said),
 * unless only one port can bring it.  Once per statement. */
static void
probe_then_any(struct behave *x, struct hmap *warned, const struct pcg_bstmt *s)
{
	const struct pcg_comp	*c = &x->ev.pcg->comps[x->ev.pcg->procs[x->proc].comp];
	const struct pcg_bbranch *br;
	const struct pcg_bstmt	*r;
	int			 old;

	for (; s != NULL; s = s->next) {
		r = s->kind == S_PROBE_ANY ? s->next : s->kind == S_IPROBE_ANY ?
		    s->body : NULL;
		if (r != NULL && s->req == NULL && r->kind == S_RECV_ANY &&
		    (r->type < 0 || s->type < 0 || r->type == s->type) &&
		    connected(x, r->type) > 1 &&
		    hmap_put(warned, (uint64_t)(uintptr_t)r->src, 0, 1, &old) ==
		    HMAP_INSERTED) {
			const char	*t = s->type >= 0 ? c->types[s->type] : NULL;

			diag_warning(x->ev.pcg->diag, &r->src->loc, "'recv any%s%s' "
			    "after '%s%s%s' may take another message than the one "
			    "probed; name it: '%s%s%s as m' and 'recv m'",
			    r->type >= 0 ? " " : "", r->type >= 0 ?
			    c->types[r->type] : "", word(s), t ? " " : "",
			    t ? t : "", word(s), t ? " " : "", t ? t : "");
		}
		probe_then_any(x, warned, s->body);
		probe_then_any(x, warned, s->orelse);
		for (br = s->branches; br != NULL; br = br->next)
			probe_then_any(x, warned, br->body);
	}
}

static void print_list(struct buf *, const struct pcg *, int, const struct pcg_bstmt *);

/* "{ a; b; }", or "{ }" when the body is empty. */
static void
print_block(struct buf *b, const struct pcg *g, int proc, const struct pcg_bstmt *s)
{
	buf_addc(b, '{');
	if (s != NULL) {
		buf_addc(b, ' ');
		print_list(b, g, proc, s);
	}
	buf_adds(b, " }");
}

/* " over rows[2]" after a collective over a group; nothing otherwise. */
static void
print_over(struct buf *b, const struct pcg *g, const struct pcg_bstmt *s)
{
	char	gn[PCG_NAME_MAX];

	if (s->group >= 0)
		buf_printf(b, " over %s", pcg_group_name(g, s->group, gn, sizeof(gn)));
}

static void
print_stmt(struct buf *b, const struct pcg *g, int proc, const struct pcg_bstmt *s)
{
	const struct pcg_comp	*c = &g->comps[g->procs[proc].comp];
	const struct pcg_bbranch *br;
	char			 pn[PCG_NAME_MAX];

	buf_adds(b, word(s));
	switch (s->kind) {
	case S_SEND:
	case S_ISEND:
	case S_RECV:
	case S_IRECV:
	case S_PROBE:
		if (s->port == 0)
			buf_printf(b, " %s[*]", c->types[s->type]);
		else
			buf_printf(b, " %s[%d]", c->types[s->type], s->port);
		if (s->req != NULL)
			buf_printf(b, " as %s", s->req);
		buf_addc(b, ';');
		break;
	case S_RECV_ANY:
	case S_IRECV_ANY:
	case S_PROBE_ANY:
		if (s->type >= 0)
			buf_printf(b, " %s", c->types[s->type]);
		if (s->req != NULL)
			buf_printf(b, " as %s", s->req);
		buf_addc(b, ';');
		break;
	case S_SENDRECV:
	case S_SENDRECV_REPLACE:
		buf_printf(b, " %s[%d], %s[%d];", c->types[s->type], s->port,
		    c->types[s->rtype], s->rport);
		break;
	case S_WAIT:
	case S_RECV_PROBED:
		buf_printf(b, " %s;", s->req);
		break;
	case S_TEST:
	case S_IPROBE:
	case S_IPROBE_ANY:
		if (s->kind == S_TEST)
			buf_printf(b, " %s", s->req);
		else if (s->kind == S_IPROBE)
			buf_printf(b, " %s[%d]", c->types[s->type], s->port);
		else if (s->type >= 0)
			buf_printf(b, " %s", c->types[s->type]);
		if (s->kind != S_TEST && s->req != NULL)
			buf_printf(b, " as %s", s->req);
		buf_addc(b, ' ');
		print_block(b, g, proc, s->body);
		buf_adds(b, " else ");
		print_block(b, g, proc, s->orelse);
		break;
	case S_WAITANY:
	case S_WAITSOME:
		buf_adds(b, " {");
		for (br = s->branches; br != NULL; br = br->next) {
			buf_printf(b, " on %s ", br->req);
			print_block(b, g, proc, br->body);
		}
		buf_adds(b, " }");
		break;
	case S_LOOP:
		buf_addc(b, ' ');
		if (s->count >= 0)
			buf_printf(b, "%" PRId64 " ", s->count);
		print_block(b, g, proc, s->body);
		break;
	case S_CHOICE:
		for (br = s->branches; br != NULL; br = br->next) {
			buf_addc(b, ' ');
			print_block(b, g, proc, br->body);
			if (br->next != NULL)
				buf_adds(b, " or");
		}
		break;
	default:
		if (pcg_stmt_rooted(s->kind))
			buf_printf(b, " %s", pcg_proc_name(g, s->root, pn,
			    sizeof(pn)));
		print_over(b, g, s);
		buf_addc(b, ';');
		break;
	}
}

static void
print_list(struct buf *b, const struct pcg *g, int proc, const struct pcg_bstmt *s)
{
	for (; s != NULL; s = s->next) {
		print_stmt(b, g, proc, s);
		if (s->next != NULL)
			buf_addc(b, ' ');
	}
}

/* Append each statement's location, in the order print_list prints them,
 * to *v (*n of them, room for *cap, one kept for the NULL at the end). */
static void
locs_list(char ***v, int *n, int *cap, const struct pcg_bstmt *s)
{
	const struct pcg_bbranch *br;

	for (; s != NULL; s = s->next) {
		if (*n + 1 >= *cap) {
			*cap = *cap ? *cap * 2 : 16;
			*v = xreallocarray(*v, (size_t)*cap, sizeof(**v));
		}
		if (s->src != NULL && s->src->loc.src != NULL)
			xasprintf(&(*v)[*n], "%s:%d:%d", s->src->loc.src->name,
			    s->src->loc.first_line, s->src->loc.first_column);
		else
			(*v)[*n] = xstrdup("-");
		(*n)++;
		if (s->kind == S_LOOP)
			locs_list(v, n, cap, s->body);
		else if (s->kind == S_TEST || s->kind == S_IPROBE ||
		    s->kind == S_IPROBE_ANY) {
			locs_list(v, n, cap, s->body);
			locs_list(v, n, cap, s->orelse);
		} else if (s->kind == S_CHOICE || s->kind == S_WAITANY ||
		    s->kind == S_WAITSOME)
			for (br = s->branches; br != NULL; br = br->next)
				locs_list(v, n, cap, br->body);
	}
}

int
pcg_behaviour_locs(const struct pcg *g, int proc, char ***out)
{
	int	n = 0, cap = 0;

	*out = NULL;
	locs_list(out, &n, &cap, g->procs[proc].prog);
	if (*out == NULL)
		*out = xcalloc(1, sizeof(**out));
	(*out)[n] = NULL;
	return n;
}

/* An instantiation of behaviours, process by process: what it has said
 * (each statement's error once, each warning once). */
struct pcg_behave {
	struct behave	 x;
	struct hmap	*warned;
	struct buf	 b;
};

struct pcg_behave *
pcg_behave_new(struct pcg *g)
{
	struct pcg_behave	*pb = xcalloc(1, sizeof(*pb));

	pb->x.said = hmap_new();
	pb->x.arena = g->arena;
	pb->x.ev.pcg = g;
	pb->warned = hmap_new();
	buf_init(&pb->b);
	return pb;
}

void
pcg_behave_free(struct pcg_behave *pb)
{
	if (pb == NULL)
		return;
	hmap_free(pb->x.said);
	hmap_free(pb->warned);
	buf_free(&pb->b);
	free(pb);
}

int
pcg_behave_proc(struct pcg_behave *pb, int proc, const struct stmt *body,
    struct pcg_bstmt **prog, const char **text)
{
	struct behave		*x = &pb->x;
	struct pcg		*g = x->ev.pcg;
	struct pcg_proc		*p = &g->procs[proc];
	struct pcg_bstmt	**tail;

	*prog = NULL;
	*text = "";
	memset(&x->ev, 0, sizeof(x->ev));
	x->ev.pcg = g;
	x->ev.has_index = 1;
	x->ev.index = p->index;
	x->ev.proc = p;
	x->proc = proc;
	x->nstmts = 0;
	x->failed = 0;
	tail = prog;
	if (stmts(x, body, &tail) != 0)
		x->failed = 1;
	else if (!x->failed) {
		reqs_check(x, *prog);
		probe_then_any(x, pb->warned, *prog);
	}
	if (x->failed) {
		*prog = NULL;
		return -1;
	}
	buf_reset(&pb->b);
	buf_adds(&pb->b, "");
	print_list(&pb->b, g, proc, *prog);
	*text = arena_strndup(g->arena, pb->b.s, pb->b.len);
	return 0;
}

void
pcg_instantiate(struct pcg *g)
{
	struct pcg_behave	*pb = pcg_behave_new(g);
	int			 i;

	for (i = 0; i < g->nprocs; i++) {
		struct pcg_proc		*p = &g->procs[i];
		const struct pcg_comp	*c = &g->comps[p->comp];

		p->behaviour = "";
		p->prog = NULL;
		p->has_behaviour = c->behaviour != NULL;
		if (c->behaviour == NULL)
			continue;
		(void)pcg_behave_proc(pb, i, c->behaviour->body, &p->prog,
		    &p->behaviour);
	}
	pcg_behave_free(pb);
}
