/* behave.c -- each process's instantiated behaviour: its component's
 * BEHAVIOUR with parameters, 'index' and ports() replaced by their values,
 * 'if' decided and 'for' unrolled, loops kept with their counts.  This is
 * the 'behaviour' attribute the verifier and the protocol monitor read.
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
#include "xmalloc.h"

/* Statements one process's behaviour may unroll to: more is a runaway
 * 'for', not a protocol. */
#define BEHAVE_MAX_STMTS	(1 << 20)

struct behave {
	struct eval	 ev;
	struct buf	 b;
	struct hmap	*said;		/* statements already reported */
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

static int
ports_of(struct behave *x, const char *type)
{
	const struct pcg_proc	*p = &x->ev.pcg->procs[x->proc];

	return p->nports[pcg_find_type(&x->ev.pcg->comps[p->comp], type)];
}

/* " T[k]" or " T[*]"; the index must be one of the process's ports. */
static int
port(struct behave *x, const struct stmt *s, const char *word)
{
	int64_t	k;
	int	n = ports_of(x, s->type);

	if (s->port == NULL) {
		buf_printf(&x->b, "%s %s[*];", word, s->type);
		return 0;
	}
	if (eval_expr(&x->ev, s->port, &k) != 0) {
		x->failed = 1;
		return -1;
	}
	if (k < 1 || k > n) {
		char	pn[PCG_NAME_MAX];

		pcg_proc_name(x->ev.pcg, x->proc, pn, sizeof(pn));
		if (k < 1)
			say(x, s, "'%s %s[%" PRId64 "]' in the behaviour of '%s': "
			    "ports are numbered from 1", word, s->type, k, pn);
		else
			say(x, s, "'%s %s[%" PRId64 "]' in the behaviour of '%s', "
			    "which has %d '%s' port%s", word, s->type, k, pn, n,
			    s->type, n == 1 ? "" : "s");
		return -1;
	}
	buf_printf(&x->b, "%s %s[%" PRId64 "];", word, s->type, k);
	return 0;
}

static int stmts(struct behave *, const struct stmt *);

/* "{ a; b; }", or "{ }" when nothing is left of the body. */
static int
block(struct behave *x, const struct stmt *s)
{
	buf_addc(&x->b, '{');
	if (stmts(x, s) != 0)
		return -1;
	buf_adds(&x->b, " }");
	return 0;
}

static int
root(struct behave *x, const struct stmt *s, const char *word)
{
	struct pcg	*g = x->ev.pcg;
	char		 pn[PCG_NAME_MAX];
	int64_t		 k = 0;
	int		 comp = pcg_find_comp(g, s->root.name), proc;

	/* The root was checked when the behaviour was read; evaluate its index. */
	if (s->root.idx != NULL && eval_expr(&x->ev, s->root.idx->lo, &k) != 0) {
		x->failed = 1;
		return -1;
	}
	if (comp < 0 || (proc = pcg_find_proc(g, comp, k)) < 0) {
		x->failed = 1;
		return -1;
	}
	buf_printf(&x->b, "%s %s;", word, pcg_proc_name(g, proc, pn, sizeof(pn)));
	return 0;
}

static int
stmt(struct behave *x, const struct stmt *s)
{
	static const char *const sends[] = { "send", "ssend", "bsend" };
	static const char *const isends[] = { "isend", "issend", "ibsend" };
	const struct branch	*br;
	int64_t			 v, lo, hi, i;
	int			 k;

	if (++x->nstmts > BEHAVE_MAX_STMTS) {
		say(x, s, "behaviour unrolls to more than %d statements", BEHAVE_MAX_STMTS);
		return -1;
	}
	switch (s->kind) {
	case S_SEND:
		return port(x, s, sends[s->mode]);
	case S_ISEND:
		return port(x, s, isends[s->mode]);
	case S_RECV:
		return port(x, s, "recv");
	case S_IRECV:
		return port(x, s, "irecv");
	case S_RECV_ANY:
	case S_IRECV_ANY:
		buf_adds(&x->b, s->kind == S_RECV_ANY ? "recv any" : "irecv any");
		if (s->type != NULL)
			buf_printf(&x->b, " %s", s->type);
		buf_addc(&x->b, ';');
		return 0;
	case S_WAITALL:		buf_adds(&x->b, "waitall;"); return 0;
	case S_BARRIER:		buf_adds(&x->b, "barrier;"); return 0;
	case S_ALLREDUCE:	buf_adds(&x->b, "allreduce;"); return 0;
	case S_ALLGATHER:	buf_adds(&x->b, "allgather;"); return 0;
	case S_ALLTOALL:	buf_adds(&x->b, "alltoall;"); return 0;
	case S_BCAST:		return root(x, s, "bcast from");
	case S_SCATTER:		return root(x, s, "scatter from");
	case S_REDUCE:		return root(x, s, "reduce to");
	case S_GATHER:		return root(x, s, "gather to");
	case S_LOOP:
		buf_adds(&x->b, "loop ");
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
			buf_printf(&x->b, "%" PRId64 " ", v);
		}
		return block(x, s->body);
	case S_IF:
		if (eval_expr(&x->ev, s->expr, &v) != 0) {
			x->failed = 1;
			return -1;
		}
		/* Decided: the branch taken stands in the statement's place. */
		if (v)
			return stmts(x, s->body);
		return s->orelse != NULL ? stmts(x, s->orelse) : 0;
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
			if (stmts(x, s->body) != 0) {
				x->ev.nvars = k;
				return -1;
			}
			if (i == INT64_MAX)
				break;
		}
		x->ev.nvars = k;
		return 0;
	case S_CHOICE:
		buf_adds(&x->b, "choice ");
		for (br = s->branches; br != NULL; br = br->next) {
			if (block(x, br->body) != 0)
				return -1;
			if (br->next != NULL)
				buf_adds(&x->b, " or ");
		}
		return 0;
	}
	return 0;
}

/* Each statement after a space (but the first of all); an 'if' or 'for'
 * that leaves nothing takes its space back. */
static int
stmts(struct behave *x, const struct stmt *s)
{
	size_t	mark;

	for (; s != NULL; s = s->next) {
		mark = x->b.len;
		if (mark > 0 && x->b.s[mark - 1] != ' ')
			buf_addc(&x->b, ' ');
		if (stmt(x, s) != 0)
			return -1;
		if (x->b.len == mark + 1 && x->b.s[mark] == ' ')
			x->b.s[--x->b.len] = '\0';	/* nothing came of it */
	}
	return 0;
}

void
pcg_instantiate(struct pcg *g)
{
	struct behave	 x;
	int		 i;

	memset(&x, 0, sizeof(x));
	x.said = hmap_new();
	buf_init(&x.b);
	for (i = 0; i < g->nprocs; i++) {
		struct pcg_proc		*p = &g->procs[i];
		const struct pcg_comp	*c = &g->comps[p->comp];

		if (c->behaviour == NULL) {
			p->behaviour = "";
			continue;
		}
		memset(&x.ev, 0, sizeof(x.ev));
		x.ev.pcg = g;
		x.ev.has_index = 1;
		x.ev.index = p->index;
		x.ev.proc = p;
		x.proc = i;
		x.nstmts = 0;
		x.failed = 0;
		buf_reset(&x.b);
		buf_adds(&x.b, "");
		if (stmts(&x, c->behaviour->body) != 0 || x.failed) {
			p->behaviour = "";
			continue;
		}
		p->behaviour = arena_strndup(g->arena, x.b.s, x.b.len);
	}
	buf_free(&x.b);
	hmap_free(x.said);
}
