/* emit.c -- printing the expanded model back in the script language, for
 * 'ensemble expand': the whole script, each component's BEHAVIOUR with
 * the script's parameters replaced by their values; and an expression
 * with its names kept (pcg_expr_text).  What it prints parses back to the
 * same graph.  Each process's instantiated behaviour (the graph's
 * 'behaviour' attribute, which the protocol monitor reads) is behave.c's
 * to print; both spell a statement's words by pcg_stmt_word. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pcg.h"
#include "xmalloc.h"

/* Binding strength, for the fewest parentheses that keep the meaning. */
enum { P_COND = 1, P_OR, P_AND, P_EQ, P_REL, P_ADD, P_MUL, P_UNARY, P_PRIMARY };

/* The parameter a name stands for; none when g is NULL (names kept). */
static const struct pcg_param *
param_of(const struct pcg *g, const char *name)
{
	return g != NULL ? pcg_find_param(g, name) : NULL;
}

/* An integer as the script language reads it back: INT64_MIN has no
 * literal of its own, so it is a subtraction (and binds as one). */
static void
emit_int(struct buf *b, int64_t v)
{
	if (v == INT64_MIN)
		buf_adds(b, "-9223372036854775807 - 1");
	else
		buf_printf(b, "%" PRId64, v);
}

static int
int_prec(int64_t v)
{
	return v == INT64_MIN ? P_ADD : v < 0 ? P_UNARY : P_PRIMARY;
}

static int
prec(const struct pcg *g, const struct expr *e)
{
	const struct pcg_param	*p;

	switch (e->kind) {
	case E_COND:	return P_COND;
	case E_UNARY:	return P_UNARY;
	case E_INT:	return int_prec(e->ival);
	case E_NAME:
		p = param_of(g, e->name);
		return p != NULL ? int_prec(p->value) : P_PRIMARY;
	case E_BINARY:
		switch (e->op) {
		case OP_OR:	return P_OR;
		case OP_AND:	return P_AND;
		case '+': case '-':	return P_ADD;
		case '*': case '/': case '%':	return P_MUL;
		case OP_EQ: case OP_NE:	return P_EQ;
		default:	return P_REL;
		}
	default:	return P_PRIMARY;
	}
}

static const char *
op_text(int op)
{
	static char	c[2];

	switch (op) {
	case OP_EQ:	return "==";
	case OP_NE:	return "!=";
	case OP_LE:	return "<=";
	case OP_GE:	return ">=";
	case OP_AND:	return "&&";
	case OP_OR:	return "||";
	}
	c[0] = (char)op;
	return c;
}

static void emit_expr(struct buf *, const struct pcg *, const struct expr *, int);

static void
emit_expr(struct buf *b, const struct pcg *g, const struct expr *e, int need)
{
	const struct pcg_param	*p;
	const struct expr	*x;
	int			 mine = prec(g, e), paren = mine < need;

	if (paren)
		buf_addc(b, '(');
	switch (e->kind) {
	case E_INT:
		emit_int(b, e->ival);
		break;
	case E_NAME:
		if ((p = param_of(g, e->name)) != NULL)
			emit_int(b, p->value);
		else
			buf_adds(b, e->name);
		break;
	case E_INDEX:
		buf_adds(b, "index");
		break;
	case E_PORTS:
		buf_printf(b, "ports(%s)", e->name);
		break;
	case E_UNARY:
		buf_addc(b, (char)e->op);
		emit_expr(b, g, e->a, P_UNARY + (e->op == '-'));
		break;
	case E_BINARY:
		emit_expr(b, g, e->a, mine == P_EQ || mine == P_REL ? mine + 1 : mine);
		buf_printf(b, " %s ", op_text(e->op));
		emit_expr(b, g, e->b, mine + 1);
		break;
	case E_COND:
		emit_expr(b, g, e->a, P_COND + 1);
		buf_adds(b, " ? ");
		emit_expr(b, g, e->b, P_COND);
		buf_adds(b, " : ");
		emit_expr(b, g, e->c, P_COND);
		break;
	case E_ARG:
		buf_adds(b, "arg(");
		emit_expr(b, g, e->a, P_COND);
		buf_addc(b, ')');
		break;
	case E_MIN:
	case E_MAX:
		buf_adds(b, e->kind == E_MIN ? "min(" : "max(");
		for (x = e->a; x != NULL; x = x->next) {
			emit_expr(b, g, x, P_COND);
			if (x->next != NULL)
				buf_adds(b, ", ");
		}
		buf_addc(b, ')');
		break;
	}
	if (paren)
		buf_addc(b, ')');
}

void
pcg_expr_text(struct buf *b, const struct expr *e)
{
	emit_expr(b, NULL, e, P_COND);
}

static void
emit_instref(struct buf *b, const struct pcg *g, const struct instref *r)
{
	const struct idx	*i;

	buf_adds(b, r->name);
	if (r->idx == NULL)
		return;
	buf_addc(b, '[');
	for (i = r->idx; i != NULL; i = i->next) {
		emit_expr(b, g, i->lo, P_COND);
		if (i->hi != NULL) {
			buf_adds(b, "..");
			emit_expr(b, g, i->hi, P_COND);
		}
		if (i->next != NULL)
			buf_adds(b, ", ");
	}
	buf_addc(b, ']');
}

/* indent < 0: all on one line. */
static void emit_stmts(struct buf *, const struct pcg *, const struct stmt *, int);

static void
emit_newline(struct buf *b, int indent)
{
	int	i;

	if (indent < 0) {
		buf_addc(b, ' ');
		return;
	}
	buf_addc(b, '\n');
	for (i = 0; i < indent; i++)
		buf_addc(b, ' ');
}

static void
emit_block(struct buf *b, const struct pcg *g, const struct stmt *s, int indent)
{
	buf_addc(b, '{');
	if (s == NULL) {
		buf_adds(b, indent < 0 ? " }" : "}");
		return;
	}
	emit_newline(b, indent < 0 ? -1 : indent + 4);
	emit_stmts(b, g, s, indent < 0 ? -1 : indent + 4);
	emit_newline(b, indent);
	buf_addc(b, '}');
}

static void
emit_port(struct buf *b, const struct pcg *g, const struct stmt *s)
{
	buf_printf(b, " %s[", s->type);
	if (s->port == NULL)
		buf_addc(b, '*');
	else
		emit_expr(b, g, s->port, P_COND);
	buf_adds(b, "];");
}

/* " over G;", or ";" for a collective over the application. */
static void
emit_over(struct buf *b, const struct pcg *g, const struct stmt *s)
{
	if (s->over != NULL) {
		buf_adds(b, " over ");
		emit_instref(b, g, s->over);
	}
	buf_addc(b, ';');
}

/* " T[e]" of a statement's other port (sendrecv's receive). */
static void
emit_rport(struct buf *b, const struct pcg *g, const struct stmt *s)
{
	buf_printf(b, " %s[", s->rtype);
	emit_expr(b, g, s->rport, P_COND);
	buf_adds(b, "];");
}

/* " as r" before the ';' just written, when s names its request. */
static void
emit_as(struct buf *b, const struct stmt *s)
{
	if (s->req == NULL)
		return;
	b->len--;
	buf_printf(b, " as %s;", s->req);
}

static void
emit_stmt(struct buf *b, const struct pcg *g, const struct stmt *s, int indent)
{
	const char		*w = pcg_stmt_word(s->kind, s->mode);
	const struct branch	*br;

	switch (s->kind) {
	case S_SEND:
		buf_adds(b, w);
		emit_port(b, g, s);
		break;
	case S_ISEND:
	case S_RECV:
	case S_IRECV:
	case S_PROBE:
		buf_adds(b, w);
		emit_port(b, g, s);
		emit_as(b, s);
		break;
	case S_RECV_ANY:
	case S_IRECV_ANY:
	case S_PROBE_ANY:
		buf_adds(b, w);
		if (s->type != NULL)
			buf_printf(b, " %s", s->type);
		buf_addc(b, ';');
		emit_as(b, s);
		break;
	case S_SENDRECV:
	case S_SENDRECV_REPLACE:
		buf_adds(b, w);
		emit_port(b, g, s);
		b->len--;
		buf_addc(b, ',');
		emit_rport(b, g, s);
		break;
	case S_WAIT:
	case S_RECV_PROBED:
		buf_printf(b, "%s %s;", w, s->req);
		break;
	case S_TEST:
	case S_IPROBE:
	case S_IPROBE_ANY:
		buf_adds(b, w);
		if (s->kind == S_TEST)
			buf_printf(b, " %s", s->req);
		else if (s->kind == S_IPROBE) {
			emit_port(b, g, s);
			b->len--;
		} else if (s->type != NULL)
			buf_printf(b, " %s", s->type);
		if (s->kind != S_TEST && s->req != NULL)
			buf_printf(b, " as %s", s->req);
		buf_addc(b, ' ');
		emit_block(b, g, s->body, indent);
		buf_adds(b, " else ");
		emit_block(b, g, s->orelse, indent);
		break;
	case S_WAITANY:
	case S_WAITSOME:
		buf_printf(b, "%s {", w);
		for (br = s->branches; br != NULL; br = br->next) {
			emit_newline(b, indent < 0 ? -1 : indent + 4);
			buf_printf(b, "on %s ", br->req);
			emit_block(b, g, br->body, indent < 0 ? -1 : indent + 4);
		}
		emit_newline(b, indent);
		buf_addc(b, '}');
		break;
	case S_WAITALL:
		buf_printf(b, "%s;", w);
		break;
	case S_BARRIER:
	case S_ALLREDUCE:
	case S_ALLGATHER:
	case S_ALLTOALL:
	case S_ALLGATHERV:
	case S_ALLTOALLV:
	case S_REDUCESCATTER:
	case S_BCAST:
	case S_SCATTER:
	case S_REDUCE:
	case S_GATHER:
	case S_SCATTERV:
	case S_GATHERV:
		buf_adds(b, w);
		if (pcg_stmt_rooted(s->kind)) {
			buf_addc(b, ' ');
			emit_instref(b, g, &s->root);
		}
		emit_over(b, g, s);
		break;
	case S_LOOP:
		buf_printf(b, "%s ", w);
		if (s->expr != NULL) {
			emit_expr(b, g, s->expr, P_COND);
			buf_addc(b, ' ');
		}
		emit_block(b, g, s->body, indent);
		break;
	case S_IF:
		buf_adds(b, "if ");
		emit_expr(b, g, s->expr, P_COND);
		buf_addc(b, ' ');
		emit_block(b, g, s->body, indent);
		if (s->orelse != NULL) {
			buf_adds(b, " else ");
			if (s->orelse->kind == S_IF && s->orelse->next == NULL)
				emit_stmt(b, g, s->orelse, indent);
			else
				emit_block(b, g, s->orelse, indent);
		}
		break;
	case S_FOR:
		buf_printf(b, "for %s in ", s->var->name);
		emit_expr(b, g, s->var->lo, P_COND);
		buf_adds(b, "..");
		emit_expr(b, g, s->var->hi, P_COND);
		buf_addc(b, ' ');
		emit_block(b, g, s->body, indent);
		break;
	case S_CHOICE:
		buf_printf(b, "%s ", w);
		for (br = s->branches; br != NULL; br = br->next) {
			emit_block(b, g, br->body, indent);
			if (br->next != NULL)
				buf_adds(b, " or ");
		}
		break;
	}
}

static void
emit_stmts(struct buf *b, const struct pcg *g, const struct stmt *s, int indent)
{
	for (; s != NULL; s = s->next) {
		emit_stmt(b, g, s, indent);
		if (s->next != NULL)
			emit_newline(b, indent);
	}
}

static void
emit_strs(struct buf *b, const char *word, const struct pcg_strs *s)
{
	int	i;

	if (s == NULL)
		return;
	buf_printf(b, " %s", word);
	for (i = 0; i < s->n; i++) {
		buf_addc(b, ' ');
		buf_add_quoted(b, s->v[i]);
	}
}

static void
emit_end(struct buf *b, const struct pcg *g, const struct pcg_end *e)
{
	char	pn[PCG_NAME_MAX];

	buf_printf(b, "%s.%s[%d]", pcg_proc_name(g, e->proc, pn, sizeof(pn)),
	    g->comps[g->procs[e->proc].comp].types[e->type], e->port);
}

/* "    a.T[1] <-> b.U[2]", a channel line without its end. */
static void
emit_chan(struct buf *b, const struct pcg *g, const struct pcg_chan *ch)
{
	buf_adds(b, "    ");
	emit_end(b, g, &ch->e[0]);
	buf_adds(b, " <-> ");
	emit_end(b, g, &ch->e[1]);
}

/* Flush the buffer to the stream now and then, to bound memory. */
static void
flush(struct buf *b, FILE *f, int force)
{
	if (force || b->len > (1 << 16)) {
		fwrite(b->s, 1, b->len, f);
		buf_reset(b);
	}
}

void
pcg_emit(const struct pcg *g, FILE *f)
{
	const struct pcg_strs	*s;
	struct buf		 b;
	char			 pn[PCG_NAME_MAX], **env;
	int			 i, t, n, any;

	buf_init(&b);
	buf_printf(&b, "# %s, expanded by %s %s\n", g->script, PACKAGE_NAME, PACKAGE_VERSION);
	buf_printf(&b, "application %s;\n\nPCG\nComponents\n", g->name);
	for (i = 0; i < g->ncomps; i++) {
		buf_printf(&b, "    %s", g->comps[i].name);
		for (t = 0; t < g->comps[i].ntypes; t++)
			buf_printf(&b, "%s%s", t ? ", " : " : ", g->comps[i].types[t]);
		buf_adds(&b, ";\n");
	}
	buf_adds(&b, "Processes\n");
	for (i = 0; i < g->nprocs; i++) {
		const struct pcg_proc	*p = &g->procs[i];
		const struct pcg_comp	*c = &g->comps[p->comp];

		buf_printf(&b, "    %s", pcg_proc_name(g, i, pn, sizeof(pn)));
		for (t = 0; t < c->ntypes; t++)
			buf_printf(&b, "%s%s[%d]", t ? ", " : " : ", c->types[t], p->nports[t]);
		buf_adds(&b, ";\n");
		flush(&b, f, 0);
	}
	buf_adds(&b, "Channels\n");
	for (i = 0; i < g->nchans; i++) {
		emit_chan(&b, g, &g->chans[i]);
		buf_adds(&b, ";\n");
		flush(&b, f, 0);
	}

	for (i = any = 0; i < g->ngroups; i++) {
		const struct pcg_group	*gr = &g->groups[i];

		if (gr->comp >= 0)
			continue;	/* a component's: its name says it */
		if (!any++)
			buf_adds(&b, "Groups\n");
		buf_printf(&b, "    %s :", pcg_group_name(g, i, pn, sizeof(pn)));
		for (t = 0; t < gr->nmembers; t++)
			buf_printf(&b, "%s %s", t ? "," : "", pcg_proc_name(g,
			    gr->members[t], pn, sizeof(pn)));
		buf_adds(&b, ";\n");
		flush(&b, f, 0);
	}

	buf_adds(&b, "\nPARALLEL SYSTEM MPI\nChannels\n");
	for (i = 0; i < g->nchans; i++) {
		emit_chan(&b, g, &g->chans[i]);
		buf_printf(&b, " : tag %" PRId64 ";\n", g->chans[i].tag);
		flush(&b, f, 0);
	}
	for (i = any = 0; i < g->nprocs; i++) {
		if (g->procs[i].host == NULL)
			continue;
		if (!any++)
			buf_adds(&b, "Processes\n");
		buf_printf(&b, "    %s : host ", pcg_proc_name(g, i, pn, sizeof(pn)));
		buf_add_quoted(&b, g->procs[i].host);
		buf_adds(&b, ";\n");
		flush(&b, f, 0);
	}

	buf_adds(&b, "\nSEQUENTIAL COMPONENTS\n");
	for (i = 0; i < g->nprocs; i++) {
		const struct pcg_proc	*p = &g->procs[i];
		const struct loc	*where;
		const char		*exec = pcg_proc_exec(g, i, &where);
		struct pcg_strs		 es;
		char			*moved;

		buf_printf(&b, "    %s : exec ", pcg_proc_name(g, i, pn, sizeof(pn)));
		moved = pcg_exec_unfragmented(g, exec, where->src);
		buf_add_quoted(&b, moved != NULL ? moved : exec);
		free(moved);
		if ((s = pcg_annot(g, p, ANN_ARGS)) != NULL && s->n > 0)
			emit_strs(&b, "args", s);
		if ((n = pcg_env(g, p, &env)) > 0) {
			es.v = env;
			es.n = n;
			emit_strs(&b, "env", &es);
		}
		free(env);
		emit_strs(&b, "wdir", pcg_annot(g, p, ANN_WDIR));
		if ((s = pcg_annot(g, p, ANN_SOURCE)) != NULL) {
			/* its file as written in the script, or found from
			 * the fragment that names it (absolute) */
			struct pcg_strs	 ss = *s;
			const struct source *top = s->loc.src;
			char		*path, *real;

			while (top != NULL && top->from != NULL)
				top = top->from;
			if (s->loc.src == NULL || top == s->loc.src ||
			    (top->dir != NULL && s->loc.src->dir != NULL &&
			    strcmp(top->dir, s->loc.src->dir) == 0))
				path = xstrdup(s->v[0]);
			else if ((real = realpath(path = pcg_source_path(s),
			    NULL)) != NULL) {
				free(path);
				path = real;
			}

			ss.v = xreallocarray(NULL, (size_t)s->n, sizeof(*ss.v));
			memcpy(ss.v, s->v, sizeof(*ss.v) * (size_t)s->n);
			ss.v[0] = path;
			emit_strs(&b, "source", &ss);
			free(path);
			free(ss.v);
		}
		buf_adds(&b, ";\n");
		flush(&b, f, 0);
	}

	for (i = any = 0; i < g->ncomps; i++) {
		const struct pcg_comp	*c = &g->comps[i];

		if (c->behaviour == NULL)
			continue;
		if (!any++)
			buf_adds(&b, "\nBEHAVIOUR\n");
		buf_printf(&b, "    %s ", c->name);
		emit_block(&b, g, c->behaviour->body, 4);
		buf_addc(&b, '\n');
	}
	flush(&b, f, 1);
	buf_free(&b);
}
