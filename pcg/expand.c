/* expand.c -- from the AST to the checked PCG model: parameters (with -np
 * and -D), components, processes, channels with inferred port counts,
 * groups, tags, hosts, sequential annotations and the static checks of
 * behaviours (with the groups their collectives run over).  Each
 * pass reads the items it owns in script order; errors are reported and the
 * pass goes on, so one run shows them all. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "hmap.h"
#include "pcg.h"
#include "xmalloc.h"

/* Limits that turn a runaway script into an error within seconds, not an
 * exhausted machine (a process costs about 1 KiB with its graph node). */
#define PCG_MAX_PROCS	(1 << 20)
#define PCG_MAX_CHANS	(1 << 20)
#define PCG_MAX_PORTS	(1 << 24)
#define MPI_TAG_GUARANTEED	32767	/* the least MPI_TAG_UB the standard allows */

static void
eval_init(struct eval *ev, struct pcg *g, const char *where)
{
	memset(ev, 0, sizeof(*ev));
	ev->pcg = g;
	ev->where = where;
}

/* Report an unknown component once per name, to spare cascades. */
static void
unknown_comp(struct pcg *g, const char *name, const struct loc *l)
{
	char	dym[PCG_DYM_MAX];

	if (pcg_unknown_seen(g, name))
		return;
	diag_error(g->diag, l, "unknown component '%s'%s", name,
	    pcg_did_you_mean(g, PCG_NAMES_COMPS, NULL, 0, name, dym, sizeof(dym)));
}

/* Report that component c has no port type 'name' (used at l), with the
 * one it likely is. */
static void
no_port_type(struct pcg *g, const struct pcg_comp *c, const char *name,
    const struct loc *l)
{
	char	dym[PCG_DYM_MAX];

	diag_error(g->diag, l, "component '%s' has no port type '%s'%s", c->name,
	    name, diag_did_you_mean(dym, sizeof(dym), name, c->types,
	    (size_t)c->ntypes));
}

struct scope;
static const char *scope_did_you_mean(const struct pcg *, const struct scope *,
    const char *, char *, size_t);

/* Report that the name e is unknown (neither a parameter nor a 'for'
 * variable of sc), with the one it likely is. */
static void
unknown_name(struct pcg *g, const struct scope *sc, const struct expr *e)
{
	char	dym[PCG_DYM_MAX];

	diag_error(g->diag, &e->loc, "unknown name '%s' (not a parameter or a "
	    "'for' variable)%s", e->name, scope_did_you_mean(g, sc, e->name,
	    dym, sizeof(dym)));
}

/* ---- parameters ---- */

static struct pcg_param *
find_param(const struct pcg *g, const char *name)
{
	int	i;

	for (i = 0; i < g->nparams; i++)
		if (strcmp(g->params[i].name, name) == 0)
			return &g->params[i];
	return NULL;
}

static void
list_params(struct pcg *g, struct buf *b)
{
	const struct item	*it;
	int			 n = 0;

	for (it = g->ast->items; it != NULL; it = it->next) {
		if (it->kind != I_SCALE && it->kind != I_PARAM)
			continue;
		buf_printf(b, "%s%s", n++ ? ", " : "", it->name);
	}
	if (n == 0)
		buf_adds(b, "none");
}

/* Split "NAME=VALUE" from -D: *name new, *value inside def; -1 on a bad
 * form (no '=', or NAME not an identifier). */
static int
parse_def(const char *def, char **name, const char **value)
{
	const char	*eq = strchr(def, '=');
	size_t		 i;

	if (eq == NULL || eq == def)
		return -1;
	for (i = 0; def + i < eq; i++)
		if (!(isalpha((unsigned char)def[i]) || def[i] == '_' ||
		    (i > 0 && isdigit((unsigned char)def[i]))))
			return -1;
	*name = xstrndup(def, eq - def);
	*value = eq + 1;
	return 0;
}

/* Set the number p from the -D value text; -1 after reporting a value
 * that is not a 64-bit decimal integer, with a note at the declaration. */
static int
def_number(struct pcg *g, struct pcg_param *p, const char *def, const char *text)
{
	char		*end;
	int64_t		 v;

	errno = 0;
	v = strtoll(text, &end, 10);
	if (*text != '\0' && *end == '\0' && errno == 0) {
		p->value = v;
		return 0;
	}
	if (*text == '\0')
		diag_error(g->diag, NULL, "-D '%s': parameter '%s' is a number, "
		    "not empty", def, p->name);
	else if (errno == ERANGE)
		diag_error(g->diag, NULL, "-D '%s': '%s' is out of range for "
		    "parameter '%s' (a 64-bit integer)", def, text, p->name);
	else
		diag_error(g->diag, NULL, "-D '%s': parameter '%s' is a number, "
		    "not '%s'", def, p->name, text);
	diag_note(g->diag, &p->vloc, "'%s' is declared a number here", p->name);
	return -1;
}

static int
expand_params(struct pcg *g, const struct pcg_opts *o)
{
	const struct item	*it;
	struct eval		 ev;
	struct pcg_param	*p, *scale = NULL;
	struct buf		 b;
	const char		**defv;
	char			**defn, dym[PCG_DYM_MAX];
	int			 nitems = 0, rc = 0;
	size_t			 k, j;

	for (it = g->ast->items; it != NULL; it = it->next)
		if (it->kind == I_SCALE || it->kind == I_PARAM)
			nitems++;
	g->params = arena_alloc(g->arena, (nitems + 1) * sizeof(*g->params));

	defn = xcalloc(o->ndefs + 1, sizeof(char *));
	defv = xcalloc(o->ndefs + 1, sizeof(char *));
	for (k = 0; k < o->ndefs; k++) {
		if (parse_def(o->defs[k], &defn[k], &defv[k]) != 0) {
			diag_error(g->diag, NULL, "-D '%s': expected NAME=VALUE", o->defs[k]);
			rc = -1;
			continue;
		}
		for (j = 0; j < k; j++) {
			if (defn[j] != NULL && strcmp(defn[j], defn[k]) == 0) {
				diag_error(g->diag, NULL, "-D sets parameter '%s' twice", defn[k]);
				rc = -1;
			}
		}
	}

	eval_init(&ev, g, "in a parameter");
	for (it = g->ast->items; it != NULL; it = it->next) {
		if (it->kind != I_SCALE && it->kind != I_PARAM)
			continue;
		if ((p = find_param(g, it->name)) != NULL) {
			diag_error(g->diag, &it->nameloc, "parameter '%s' set twice", it->name);
			diag_note(g->diag, &p->loc, "first set here");
			continue;
		}
		if (it->kind == I_SCALE && scale != NULL) {
			diag_error(g->diag, &it->nameloc, "a second 'scale' parameter '%s' "
			    "(a script has one; '-np' sets it)", it->name);
			diag_note(g->diag, &scale->loc, "the scale parameter is '%s'", scale->name);
			continue;
		}
		p = &g->params[g->nparams];
		p->name = it->name;
		p->loc = it->nameloc;
		p->vloc = it->msg != NULL ? it->msg->loc : it->expr->loc;
		p->scale = it->kind == I_SCALE;
		if (p->scale) {
			scale = p;
			if (o->np_set) {
				p->value = o->np;
				p->from = PCG_FROM_NP;
			}
		}
		for (k = 0; k < o->ndefs; k++) {
			if (defn[k] == NULL || strcmp(defn[k], p->name) != 0)
				continue;
			if (p->scale && o->np_set) {
				diag_error(g->diag, NULL, "parameter '%s' set by "
				    "both -np and -D", p->name);
				rc = -1;
			}
			/* A string takes the text as it is. */
			if (it->msg != NULL)
				p->text = arena_strdup(g->arena, defv[k]);
			else if (def_number(g, p, o->defs[k], defv[k]) != 0)
				rc = -1;
			p->from = PCG_FROM_D;
			break;	/* a second -D of it was refused above */
		}
		/* Evaluated with only earlier parameters visible. */
		if (p->from == PCG_FROM_DEFAULT && it->msg != NULL) {
			if ((p->text = eval_str(&ev, it->msg)) == NULL)
				p->text = "";
		} else if (p->from == PCG_FROM_DEFAULT &&
		    eval_expr(&ev, it->expr, &p->value) != 0)
			p->value = 0;
		g->nparams++;
	}

	if (o->np_set && scale == NULL) {
		diag_error(g->diag, NULL, "-np: '%s' has no 'scale' parameter to set",
		    g->script);
		rc = -1;
	}
	if (o->np_set && o->np < 1) {
		diag_error(g->diag, NULL, "-np needs a count of 1 or more, not %" PRId64, o->np);
		rc = -1;
	}
	for (k = 0; k < o->ndefs; k++) {
		if (defn[k] == NULL || find_param(g, defn[k]) != NULL)
			continue;
		buf_init(&b);
		list_params(g, &b);
		diag_error(g->diag, NULL, "-D '%s': '%s' has no parameter '%s' (its "
		    "parameters: %s)%s", o->defs[k], g->script, defn[k], b.s,
		    pcg_did_you_mean(g, PCG_NAMES_PARAMS, NULL, 0, defn[k], dym,
		    sizeof(dym)));
		buf_free(&b);
		rc = -1;
	}
	for (k = 0; k < o->ndefs; k++)
		free(defn[k]);
	free(defn);
	free(defv);
	return rc;
}

/* ---- requirements ---- */

/* Report every name a requirement cannot use (an unknown one, 'index',
 * 'ports'), also behind '&&', '||' and '?:', which evaluation may skip;
 * -1 when one was reported. */
static int
require_names(struct pcg *g, const struct expr *e)
{
	const struct expr	*x;
	int			 rc = 0;

	if (e == NULL)
		return 0;
	switch (e->kind) {
	case E_NAME:
		if (find_param(g, e->name) != NULL)
			return 0;
		unknown_name(g, NULL, e);
		return -1;
	case E_INDEX:
		diag_error(g->diag, &e->loc, "'index' is not available in a requirement");
		return -1;
	case E_PORTS:
		diag_error(g->diag, &e->loc, "'ports(%s)' is not available in a "
		    "requirement", e->name);
		return -1;
	case E_ARG:
		diag_error(g->diag, &e->loc, "'arg()' is not available in a "
		    "requirement");
		return -1;
	case E_MIN:
	case E_MAX:
		for (x = e->a; x != NULL; x = x->next)
			if (require_names(g, x) != 0)
				rc = -1;
		return rc;
	default:
		if (require_names(g, e->a) != 0)
			rc = -1;
		if (require_names(g, e->b) != 0)
			rc = -1;
		if (require_names(g, e->c) != 0)
			rc = -1;
		return rc;
	}
}

/* Add "N = 7 (set by -np 7)" for each parameter e uses, once each, in the
 * order they are written. */
static void
require_values(const struct pcg *g, const struct expr *e, unsigned char *seen,
    struct buf *b)
{
	const struct pcg_param	*p;
	const struct expr	*x;
	int			 k;

	if (e == NULL)
		return;
	if (e->kind == E_NAME) {
		if ((p = find_param(g, e->name)) == NULL || seen[k = (int)(p - g->params)])
			return;
		seen[k] = 1;
		buf_printf(b, "%s%s = ", b->len > 0 ? ", " : "", p->name);
		if (p->text != NULL)
			buf_add_quoted(b, p->text);
		else
			buf_printf(b, "%" PRId64, p->value);
		switch (p->from) {
		case PCG_FROM_NP:
			buf_printf(b, " (set by -np %" PRId64 ")", p->value);
			break;
		case PCG_FROM_D:
			if (p->text != NULL)
				buf_adds(b, " (set by -D)");
			else
				buf_printf(b, " (set by -D %s=%" PRId64 ")", p->name,
				    p->value);
			break;
		case PCG_FROM_DEFAULT:
			buf_adds(b, " (the default)");
			break;
		}
		return;
	}
	if (e->kind == E_MIN || e->kind == E_MAX) {
		for (x = e->a; x != NULL; x = x->next)
			require_values(g, x, seen, b);
		return;
	}
	require_values(g, e->a, seen, b);
	require_values(g, e->b, seen, b);
	require_values(g, e->c, seen, b);
}

/* Report a requirement that does not hold: its message (or expression) at
 * the expression, and the values of the parameters it uses. */
static void
require_failed(struct pcg *g, struct eval *ev, const struct item *it)
{
	unsigned char	*seen;
	struct buf	 b;
	const char	*msg = NULL;

	/* Like an assertion's, the message is made only when it is shown. */
	if (it->msg != NULL)
		msg = eval_str(ev, it->msg);
	buf_init(&b);
	if (msg != NULL && *msg != '\0')
		buf_adds(&b, msg);
	else {
		buf_addc(&b, '\'');
		pcg_expr_text(&b, it->expr);
		buf_addc(&b, '\'');
	}
	diag_error(g->diag, &it->loc, "requirement failed: %s", b.s);
	buf_reset(&b);
	seen = xcalloc(g->nparams + 1, 1);
	require_values(g, it->expr, seen, &b);
	if (b.len > 0)
		diag_note(g->diag, &it->loc, "with %s", b.s);
	free(seen);
	buf_free(&b);
}

/* Check every 'require', in order, with the parameters' final values; -1
 * when one does not hold or cannot be evaluated (each is reported). */
static int
expand_requires(struct pcg *g)
{
	const struct item	*it;
	const struct strpart	*sp;
	struct eval		 ev;
	int64_t			 v;
	int			 rc = 0, bad;

	eval_init(&ev, g, "in a requirement");
	for (it = g->ast->items; it != NULL; it = it->next) {
		if (it->kind != I_REQUIRE)
			continue;
		bad = require_names(g, it->expr);
		for (sp = it->msg != NULL ? it->msg->parts : NULL; sp != NULL;
		    sp = sp->next)
			if (require_names(g, sp->expr) != 0)
				bad = -1;
		if (bad != 0 || eval_expr(&ev, it->expr, &v) != 0)
			rc = -1;
		else if (v == 0) {
			require_failed(g, &ev, it);
			rc = -1;
		}
	}
	return rc;
}

/* ---- components ---- */

static void
expand_components(struct pcg *g)
{
	const struct item	*it;
	const struct portdecl	*d;
	struct pcg_comp		*c;
	int			 n = 0, i, t;

	for (it = g->ast->items; it != NULL; it = it->next)
		if (it->kind == I_COMPONENT)
			n++;
	g->comps = arena_alloc(g->arena, (n + 1) * sizeof(*g->comps));
	for (it = g->ast->items; it != NULL; it = it->next) {
		if (it->kind != I_COMPONENT)
			continue;
		if ((i = pcg_find_comp(g, it->name)) >= 0) {
			diag_error(g->diag, &it->nameloc, "component '%s' declared twice", it->name);
			diag_note(g->diag, &g->comps[i].loc, "first declared here");
			continue;
		}
		c = &g->comps[g->ncomps++];
		c->name = it->name;
		c->loc = it->nameloc;
		c->indexed = -1;
		for (d = it->ports; d != NULL; d = d->next)
			c->ntypes++;
		c->types = arena_alloc(g->arena, (c->ntypes + 1) * sizeof(char *));
		c->typelocs = arena_alloc(g->arena, (c->ntypes + 1) * sizeof(struct loc));
		c->ntypes = 0;
		for (d = it->ports; d != NULL; d = d->next) {
			if ((t = pcg_find_type(c, d->type)) >= 0) {
				diag_error(g->diag, &d->loc, "port type '%s' listed twice "
				    "for component '%s'", d->type, c->name);
				continue;
			}
			c->types[c->ntypes] = d->type;
			c->typelocs[c->ntypes++] = d->loc;
		}
	}
}

/* ---- processes ---- */

struct proc_ctx {
	const struct item	*it;
	int			 comp;
	int			 failed;	/* its port list was wrong once: said */
};

/* Evaluate a process's port counts; an error is said once per line, and
 * the process keeps 0 ports of that type. */
static void
proc_ports(struct pcg *g, struct eval *ev, struct proc_ctx *ctx, struct pcg_proc *p)
{
	const struct item	*it = ctx->it;
	struct pcg_comp		*c = &g->comps[ctx->comp];
	const struct portdecl	*d;
	int			 t;
	int64_t			 v;

	for (d = it->ports; d != NULL && !ctx->failed; d = d->next) {
		if ((t = pcg_find_type(c, d->type)) < 0) {
			no_port_type(g, c, d->type, &d->typeloc);
			diag_note(g->diag, &c->loc, "'%s' declared here", c->name);
			ctx->failed = 1;
			break;
		}
		if (p->portlocs[t].first_line != it->target->loc.first_line ||
		    p->portlocs[t].first_column != it->target->loc.first_column) {
			diag_error(g->diag, &d->loc, "port type '%s' given twice", d->type);
			ctx->failed = 1;
			break;
		}
		p->portlocs[t] = d->loc;	/* no longer the target's: given */
		if (d->star) {
			p->star[t] = 1;
			continue;
		}
		if (d->count == NULL)
			continue;
		if (eval_expr(ev, d->count, &v) != 0) {
			ctx->failed = 1;
			break;
		}
		if (v < 0 || v > PCG_MAX_PORTS) {
			if (v < 0)
				diag_error(g->diag, &d->count->loc, "port count %" PRId64
				    " for '%s' is negative", v, d->type);
			else
				diag_error(g->diag, &d->count->loc, "port count %" PRId64
				    " for '%s' is too large (at most %d)", v, d->type,
				    PCG_MAX_PORTS);
			ctx->failed = 1;
			break;
		}
		p->nports[t] = (int)v;
	}
}

/* Add one process; -1 stops the line (a limit, or a mix of indexed and
 * unindexed processes), other errors let the rest of its range go on. */
static int
add_proc(struct pcg *g, struct eval *ev, struct proc_ctx *ctx, int64_t index, int indexed)
{
	const struct item	*it = ctx->it;
	struct pcg_comp		*c = &g->comps[ctx->comp];
	struct pcg_proc		*p;
	char			 name[PCG_NAME_MAX];
	int			 old, t;

	if (c->indexed == -1)
		c->indexed = indexed;
	else if (c->indexed != indexed) {
		diag_error(g->diag, &it->target->loc, "component '%s' has processes "
		    "both with and without an index", c->name);
		return -1;
	}
	if (g->nprocs >= PCG_MAX_PROCS) {
		diag_error(g->diag, &it->target->loc, "more than %d processes", PCG_MAX_PROCS);
		return -1;
	}
	if ((p = pcg_add_proc(g, ctx->comp, index, &old)) == NULL) {
		diag_error(g->diag, &it->target->loc, "process '%s' declared twice",
		    pcg_proc_name(g, old, name, sizeof(name)));
		diag_note(g->diag, &g->procs[old].loc, "first declared here");
		return 0;
	}
	p->comp = ctx->comp;
	p->index = index;
	p->loc = it->target->loc;
	p->nports = arena_alloc(g->arena, (c->ntypes + 1) * sizeof(int));
	p->star = arena_alloc(g->arena, c->ntypes + 1);
	p->portlocs = arena_alloc(g->arena, (c->ntypes + 1) * sizeof(struct loc));
	for (t = 0; t < c->ntypes; t++)
		p->portlocs[t] = it->target->loc;
	if (c->nprocs == 0 || index < c->minidx)
		c->minidx = index;
	if (c->nprocs == 0 || index > c->maxidx)
		c->maxidx = index;
	c->nprocs++;

	ev->has_index = 1;
	ev->index = index;
	proc_ports(g, ev, ctx, p);
	ev->has_index = 0;
	if (ctx->failed)	/* counts unknown: take them from the channels */
		for (t = 0; t < c->ntypes; t++)
			p->star[t] = 1;
	return 0;
}

/* Visit each index of an index list, checking ranges. */
static int
each_index(struct pcg *g, struct eval *ev, const struct idx *idx,
    int (*fn)(struct pcg *, struct eval *, int64_t, void *), void *arg)
{
	int64_t	lo, hi, i;

	for (; idx != NULL; idx = idx->next) {
		if (eval_expr(ev, idx->lo, &lo) != 0)
			return -1;
		hi = lo;
		if (idx->hi != NULL && eval_expr(ev, idx->hi, &hi) != 0)
			return -1;
		if (hi < lo) {
			diag_error(g->diag, &idx->loc, "empty range '%" PRId64 "..%" PRId64 "'",
			    lo, hi);
			return -1;
		}
		if ((uint64_t)hi - (uint64_t)lo >= PCG_MAX_PROCS) {
			diag_error(g->diag, &idx->loc, "range '%" PRId64 "..%" PRId64 "' has "
			    "more than %d indices", lo, hi, PCG_MAX_PROCS);
			return -1;
		}
		for (i = lo;; i++) {
			if (fn(g, ev, i, arg) != 0)
				return -1;
			if (i == hi)
				break;
		}
	}
	return 0;
}

static int
proc_index(struct pcg *g, struct eval *ev, int64_t i, void *arg)
{
	return add_proc(g, ev, arg, i, 1);
}

static int
proc_binding(struct eval *ev, void *arg)
{
	struct proc_ctx	*ctx = arg;
	struct pcg	*g = ev->pcg;

	if (ctx->it->target->idx == NULL)
		return add_proc(g, ev, ctx, 0, 0);
	return each_index(g, ev, ctx->it->target->idx, proc_index, ctx);
}

static void
expand_processes(struct pcg *g)
{
	const struct item	*it;
	struct proc_ctx		 ctx;
	struct eval		 ev;
	int			 errors;

	for (it = g->ast->items; it != NULL; it = it->next) {
		if (it->kind != I_PROCESS)
			continue;
		if ((ctx.comp = pcg_find_comp(g, it->target->name)) < 0) {
			unknown_comp(g, it->target->name, &it->target->nameloc);
			continue;
		}
		ctx.it = it;
		ctx.failed = 0;
		errors = g->diag->errors;
		eval_init(&ev, g, "while ports are being declared");
		eval_for(&ev, it->fc, proc_binding, &ctx);
		if (g->diag->errors > errors)
			g->comps[ctx.comp].broken = 1;
	}
}

/* ---- channels ---- */

static void
note_instances(struct pcg *g, const struct pcg_comp *c)
{
	if (c->nprocs == 0)
		diag_note(g->diag, &c->loc, "component '%s' has no processes", c->name);
	else if (c->indexed)
		diag_note(g->diag, &c->loc, "processes of '%s' are numbered within "
		    "%" PRId64 "..%" PRId64, c->name, c->minidx, c->maxidx);
}

/* Find the process an instance reference names (one process, no range). */
static int
resolve_proc(struct pcg *g, struct eval *ev, const struct instref *r, int *proc)
{
	int		 comp;
	int64_t		 index = 0;
	struct pcg_comp	*c;

	if ((comp = pcg_find_comp(g, r->name)) < 0) {
		unknown_comp(g, r->name, &r->nameloc);
		return -1;
	}
	c = &g->comps[comp];
	if (r->idx != NULL) {
		if (r->idx->hi != NULL || r->idx->next != NULL) {
			diag_error(g->diag, &r->loc, "a range here: name one process "
			    "(use a 'for' clause for several)");
			return -1;
		}
		if (eval_expr(ev, r->idx->lo, &index) != 0)
			return -1;
	}
	if ((r->idx == NULL) != (c->indexed == 0) && c->indexed != -1) {
		diag_error(g->diag, &r->loc, c->indexed ? "'%s' needs an index "
		    "(its processes are '%s[i]')" : "'%s' takes no index (it has "
		    "one process)", c->name, c->name);
		return -1;
	}
	if ((*proc = pcg_find_proc(g, comp, index)) < 0) {
		if (c->broken)
			return -1;	/* its declaration's error said it */
		if (r->idx == NULL)
			diag_error(g->diag, &r->loc, "no process '%s'", c->name);
		else
			diag_error(g->diag, &r->loc, "no process '%s[%" PRId64 "]'",
			    c->name, index);
		note_instances(g, c);
		return -1;
	}
	return 0;
}

static int
resolve_end(struct pcg *g, struct eval *ev, const struct endpoint *ep, struct pcg_end *out)
{
	const struct pcg_comp	*c;
	int64_t			 port;

	if (resolve_proc(g, ev, ep->proc, &out->proc) != 0)
		return -1;
	c = &g->comps[g->procs[out->proc].comp];
	if ((out->type = pcg_find_type(c, ep->type)) < 0) {
		no_port_type(g, c, ep->type, &ep->typeloc);
		return -1;
	}
	if (eval_expr(ev, ep->port, &port) != 0)
		return -1;
	if (port < 1) {
		diag_error(g->diag, &ep->port->loc, "port index %" PRId64 " is below 1 "
		    "(ports are numbered from 1)", port);
		return -1;
	}
	if (port > PCG_MAX_PORTS) {
		diag_error(g->diag, &ep->port->loc, "port index %" PRId64 " is too large "
		    "(at most %d)", port, PCG_MAX_PORTS);
		return -1;
	}
	out->port = (int)port;
	out->loc = ep->loc;
	out->portloc = ep->port->loc;
	return 0;
}

static int
chan_binding(struct eval *ev, void *arg)
{
	const struct item	*it = arg;
	struct pcg		*g = ev->pcg;
	struct pcg_chan		*ch;
	struct pcg_end		 a, b;

	if (resolve_end(g, ev, it->a, &a) != 0 || resolve_end(g, ev, it->b, &b) != 0)
		return -1;
	if (g->nchans >= PCG_MAX_CHANS) {
		diag_error(g->diag, &it->loc, "more than %d channels", PCG_MAX_CHANS);
		return -1;
	}
	ch = pcg_add_chan(g);
	ch->e[0] = a;
	ch->e[1] = b;
	ch->loc = it->loc;
	return 0;
}

static int
type_offset(const struct pcg_proc *p, int type)
{
	int	t, off = 0;

	for (t = 0; t < type; t++)
		off += p->nports[t];
	return off;
}

static void
end_name(const struct pcg *g, const struct pcg_end *e, char *buf, size_t len)
{
	char	pn[PCG_NAME_MAX];

	snprintf(buf, len, "%s.%s[%d]", pcg_proc_name(g, e->proc, pn, sizeof(pn)),
	    g->comps[g->procs[e->proc].comp].types[e->type], e->port);
}

static int
same_end(const struct pcg_end *a, const struct pcg_end *b)
{
	return a->proc == b->proc && a->type == b->type && a->port == b->port;
}

/* Infer '*' counts, give every port a slot, and check each end's range and
 * that no port is connected twice. */
static void
connect_ports(struct pcg *g)
{
	char			 n1[PCG_NAME_MAX * 2], n2[PCG_NAME_MAX];
	struct pcg_proc		*p;
	struct pcg_end		*e;
	long long		 total = 0;
	int			 c, k, t, slot, i;

	for (c = 0; c < g->nchans; c++) {
		for (k = 0; k < 2; k++) {
			e = &g->chans[c].e[k];
			p = &g->procs[e->proc];
			if (p->star[e->type] && e->port > p->nports[e->type])
				p->nports[e->type] = e->port;
		}
	}
	for (i = 0; i < g->nprocs; i++) {
		p = &g->procs[i];
		p->portbase = (int)total;
		for (t = 0; t < g->comps[p->comp].ntypes; t++)
			total += p->nports[t];
		if (total > PCG_MAX_PORTS) {
			diag_error(g->diag, &p->loc, "more than %d ports in all", PCG_MAX_PORTS);
			g->nprocs = i;
			return;
		}
	}
	g->nports = (int)total;
	g->portchan = xreallocarray(NULL, total + 1, sizeof(int));
	memset(g->portchan, 0xff, (total + 1) * sizeof(int));

	for (c = 0; c < g->nchans; c++) {
		if (same_end(&g->chans[c].e[0], &g->chans[c].e[1])) {
			end_name(g, &g->chans[c].e[0], n1, sizeof(n1));
			diag_error(g->diag, &g->chans[c].loc, "channel joins '%s' to itself", n1);
			continue;
		}
		for (k = 0; k < 2; k++) {
			e = &g->chans[c].e[k];
			p = &g->procs[e->proc];
			if (e->port > p->nports[e->type]) {
				end_name(g, e, n1, sizeof(n1));
				diag_error(g->diag, &e->portloc, "port index %d out of range: "
				    "'%s' has %d '%s' port%s", e->port,
				    pcg_proc_name(g, e->proc, n2, sizeof(n2)),
				    p->nports[e->type],
				    g->comps[p->comp].types[e->type],
				    p->nports[e->type] == 1 ? "" : "s");
				diag_note(g->diag, &p->portlocs[e->type], "declared here");
				continue;
			}
			slot = p->portbase + type_offset(p, e->type) + e->port - 1;
			if (g->portchan[slot] >= 0) {
				end_name(g, e, n1, sizeof(n1));
				diag_error(g->diag, &e->loc, "port '%s' connected twice", n1);
				diag_note(g->diag, &g->chans[g->portchan[slot]].loc,
				    "first connected here");
				continue;
			}
			g->portchan[slot] = c;
		}
	}
	/* After an error, unconnected ports are mostly its echo. */
	for (i = 0; i < g->nprocs && g->diag->errors == 0; i++) {
		p = &g->procs[i];
		slot = p->portbase;
		for (t = 0; t < g->comps[p->comp].ntypes; t++) {
			for (k = 1; k <= p->nports[t]; k++, slot++) {
				struct pcg_end	pe = { i, t, k, p->loc, p->loc };

				if (g->portchan[slot] >= 0)
					continue;
				end_name(g, &pe, n1, sizeof(n1));
				diag_warning(g->diag, &p->portlocs[t], "port '%s' is "
				    "declared but not connected", n1);
			}
		}
	}
}

static void
expand_channels(struct pcg *g)
{
	const struct item	*it;
	struct eval		 ev;

	for (it = g->ast->items; it != NULL; it = it->next) {
		if (it->kind != I_CHANNEL)
			continue;
		eval_init(&ev, g, "in a channel");
		eval_for(&ev, it->fc, chan_binding, (void *)it);
	}
	connect_ports(g);
}

/* ---- PARALLEL SYSTEM: tags and hosts ---- */

static int
port_slot(const struct pcg *g, const struct pcg_end *e)
{
	const struct pcg_proc	*p = &g->procs[e->proc];

	if (e->port > p->nports[e->type])
		return -1;
	return p->portbase + type_offset(p, e->type) + e->port - 1;
}

static int
tag_binding(struct eval *ev, void *arg)
{
	const struct item	*it = arg;
	struct pcg		*g = ev->pcg;
	struct pcg_end		 a, b;
	struct pcg_chan		*ch;
	char			 n1[PCG_NAME_MAX * 2], n2[PCG_NAME_MAX * 2];
	int			 slot, c;
	int64_t			 tag;

	if (resolve_end(g, ev, it->a, &a) != 0 || resolve_end(g, ev, it->b, &b) != 0)
		return -1;
	slot = port_slot(g, &a);
	c = slot >= 0 ? g->portchan[slot] : -1;
	ch = c >= 0 ? &g->chans[c] : NULL;
	if (ch == NULL || !((same_end(&ch->e[0], &a) && same_end(&ch->e[1], &b)) ||
	    (same_end(&ch->e[1], &a) && same_end(&ch->e[0], &b)))) {
		end_name(g, &a, n1, sizeof(n1));
		end_name(g, &b, n2, sizeof(n2));
		diag_error(g->diag, &it->loc, "no channel joins '%s' and '%s'", n1, n2);
		return -1;
	}
	if (ch->tagset) {
		end_name(g, &a, n1, sizeof(n1));
		end_name(g, &b, n2, sizeof(n2));
		diag_error(g->diag, &it->expr->loc, "the channel '%s <-> %s' is given "
		    "a tag twice", n1, n2);
		diag_note(g->diag, &ch->tagloc, "first given here");
		return -1;
	}
	if (eval_expr(ev, it->expr, &tag) != 0)
		return -1;
	if (tag < 0 || tag > INT32_MAX) {
		diag_error(g->diag, &it->expr->loc, "tag %" PRId64 " is %s", tag,
		    tag < 0 ? "negative (MPI tags are 0 or more)" : "too large");
		return -1;
	}
	if (tag > MPI_TAG_GUARANTEED)
		diag_warning(g->diag, &it->expr->loc, "tag %" PRId64 " is above %d, "
		    "the highest tag every MPI library must accept", tag, MPI_TAG_GUARANTEED);
	ch->tag = tag;
	ch->tagset = 1;
	ch->tagloc = it->expr->loc;
	return 0;
}

static void
assign_tags(struct pcg *g)
{
	struct hmap	*used = hmap_new(), *pairs = hmap_new();
	char		 n1[PCG_NAME_MAX], n2[PCG_NAME_MAX];
	int64_t		 next = 1;
	int		 c, old, lo, hi;

	for (c = 0; c < g->nchans; c++)
		if (g->chans[c].tagset)
			hmap_put(used, (uint64_t)g->chans[c].tag, 0, c, &old);
	for (c = 0; c < g->nchans; c++) {
		struct pcg_chan	*ch = &g->chans[c];

		if (!ch->tagset) {
			while (hmap_get(used, (uint64_t)next, 0) >= 0)
				next++;
			ch->tag = next++;
		}
		lo = ch->e[0].proc < ch->e[1].proc ? ch->e[0].proc : ch->e[1].proc;
		hi = ch->e[0].proc < ch->e[1].proc ? ch->e[1].proc : ch->e[0].proc;
		if (hmap_put(pairs, ((uint64_t)lo << 32) | (uint32_t)hi,
		    (uint64_t)ch->tag, c, &old) == HMAP_FOUND) {
			const struct pcg_chan	*o = &g->chans[old];

			diag_error(g->diag, ch->tagset ? &ch->tagloc : &ch->loc,
			    "tag %" PRId64 " used by two channels between '%s' and '%s'",
			    ch->tag, pcg_proc_name(g, lo, n1, sizeof(n1)),
			    pcg_proc_name(g, hi, n2, sizeof(n2)));
			diag_note(g->diag, o->tagset ? &o->tagloc : &o->loc,
			    "the other channel");
		}
	}
	hmap_free(used);
	hmap_free(pairs);
}

/* Call fn for each process a target names: all of a component's (complevel
 * set) or the listed instances. */
struct each_ctx {
	int			 comp;
	const struct instref	*r;
	int			(*fn)(struct eval *, int, int, void *);
	void			*arg;
};

static int
each_index_fn(struct pcg *g, struct eval *ev, int64_t i, void *arg)
{
	struct each_ctx	*x = arg;
	int		 proc, rc;

	if ((proc = pcg_find_proc(g, x->comp, i)) < 0) {
		if (g->comps[x->comp].broken)
			return -1;	/* its declaration's error said it */
		diag_error(g->diag, &x->r->loc, "no process '%s[%" PRId64 "]'",
		    x->r->name, i);
		note_instances(g, &g->comps[x->comp]);
		return -1;
	}
	ev->has_index = 1;
	ev->index = i;
	ev->proc = &g->procs[proc];
	rc = x->fn(ev, proc, 0, x->arg);
	ev->has_index = 0;
	ev->proc = NULL;
	return rc;
}

static int
each_target(struct pcg *g, struct eval *ev, const struct instref *r,
    int (*fn)(struct eval *, int, int, void *), void *arg)
{
	struct each_ctx	 x;
	int		 comp, i, rc = 0;

	if ((comp = pcg_find_comp(g, r->name)) < 0) {
		unknown_comp(g, r->name, &r->nameloc);
		return -1;
	}
	if (r->idx == NULL) {
		for (i = 0; i < g->nprocs && rc == 0; i++) {
			if (g->procs[i].comp != comp)
				continue;
			ev->has_index = 1;
			ev->index = g->procs[i].index;
			ev->proc = &g->procs[i];
			rc = fn(ev, i, 1, arg);
		}
		ev->has_index = 0;
		ev->proc = NULL;
		return rc;
	}
	if (g->comps[comp].indexed == 0) {
		diag_error(g->diag, &r->loc, "'%s' takes no index (it has one process)",
		    r->name);
		return -1;
	}
	x.comp = comp;
	x.r = r;
	x.fn = fn;
	x.arg = arg;
	return each_index(g, ev, r->idx, each_index_fn, &x);
}

static int
host_proc(struct eval *ev, int proc, int complevel, void *arg)
{
	const struct item	*it = arg;
	char			*h;

	/* A process's own line wins over its component's, whatever the order. */
	if (complevel && ev->pcg->procs[proc].host_own)
		return 0;
	if ((h = eval_str(ev, it->annots->vals->s)) == NULL)
		return -1;
	if (*h == '\0') {
		diag_error(ev->pcg->diag, &it->annots->vals->s->loc, "empty host name");
		return -1;
	}
	ev->pcg->procs[proc].host = h;
	ev->pcg->procs[proc].host_own |= !complevel;
	return 0;
}

static int
host_binding(struct eval *ev, void *arg)
{
	const struct item	*it = arg;

	return each_target(ev->pcg, ev, it->target, host_proc, arg);
}

static void
expand_parallel(struct pcg *g)
{
	const struct item	*it;
	struct eval		 ev;

	for (it = g->ast->items; it != NULL; it = it->next) {
		eval_init(&ev, g, "here");
		if (it->kind == I_CHANNEL_TAG)
			eval_for(&ev, it->fc, tag_binding, (void *)it);
		else if (it->kind == I_HOST)
			eval_for(&ev, it->fc, host_binding, (void *)it);
	}
	assign_tags(g);
}

/* ---- SEQUENTIAL COMPONENTS ---- */

static const int annot_slot[] = {
	[A_EXEC] = ANN_EXEC, [A_ARGS] = ANN_ARGS, [A_ENV] = ANN_ENV, [A_WDIR] = ANN_WDIR,
	[A_SOURCE] = ANN_SOURCE,
};

static int
annot_per_instance(const struct annot *a)
{
	const struct argval	*v;

	for (v = a->vals; v != NULL; v = v->next)
		if ((v->s != NULL && str_per_instance(v->s)) ||
		    (v->e != NULL && expr_per_instance(v->e)))
			return 1;
	return 0;
}

static struct pcg_strs *
annot_eval(struct eval *ev, const struct annot *a)
{
	struct pcg		*g = ev->pcg;
	const struct argval	*v;
	struct pcg_strs		*s;
	int64_t			 iv;
	int			 n = 0;
	char			*str;

	for (v = a->vals; v != NULL; v = v->next)
		n++;
	s = arena_alloc(g->arena, sizeof(*s));
	s->v = arena_alloc(g->arena, (n + 1) * sizeof(char *));
	s->loc = a->vals->s != NULL ? a->vals->s->loc : a->loc;
	for (v = a->vals; v != NULL; v = v->next) {
		if (v->s != NULL) {
			if ((str = eval_str(ev, v->s)) == NULL)
				return NULL;
		} else {
			char	num[32];

			if (eval_expr(ev, v->e, &iv) != 0)
				return NULL;
			snprintf(num, sizeof(num), "%" PRId64, iv);
			str = arena_strdup(g->arena, num);
		}
		if (a->kind == A_ENV && (str[0] == '=' || strchr(str, '=') == NULL)) {
			diag_error(g->diag, &v->s->loc, "env value '%s' is not NAME=VALUE", str);
			return NULL;
		}
		if ((a->kind == A_EXEC || a->kind == A_WDIR ||
		    (a->kind == A_SOURCE && v == a->vals)) && str[0] == '\0') {
			diag_error(g->diag, &v->s->loc, "empty %s", a->kind == A_EXEC ?
			    "exec path" : a->kind == A_WDIR ? "working directory" :
			    "source file");
			return NULL;
		}
		s->v[s->n++] = str;
	}
	return s;
}

/* An env list with next's variables added to (or replacing) prev's. */
static const struct pcg_strs *
env_add(struct pcg *g, const struct pcg_strs *prev, const struct pcg_strs *next)
{
	struct pcg_strs	*s;
	char		**v = NULL;
	size_t		 alloc = 0;
	int		 n = 0;

	if (prev == NULL)
		return next;
	pcg_env_merge(&v, &n, &alloc, prev);
	pcg_env_merge(&v, &n, &alloc, next);
	s = arena_alloc(g->arena, sizeof(*s));
	s->v = arena_alloc(g->arena, (n + 1) * sizeof(char *));
	memcpy(s->v, v, n * sizeof(char *));
	s->n = n;
	s->loc = next->loc;
	free(v);
	return s;
}

struct annot_ctx {
	const struct item	*it;
	struct pcg_strs		*shared[ANN_COUNT];	/* values that do not vary */
};

static int
annot_proc(struct eval *ev, int proc, int complevel, void *arg)
{
	struct annot_ctx	*x = arg;
	struct pcg_proc		*p = &ev->pcg->procs[proc];
	const struct annot	*a;
	const struct pcg_strs	*s;
	int			 k;

	for (a = x->it->annots; a != NULL; a = a->next) {
		k = annot_slot[a->kind];
		if (annot_per_instance(a))
			s = annot_eval(ev, a);
		else {
			if (x->shared[k] == NULL || x->shared[k]->loc.first_line != a->loc.first_line ||
			    x->shared[k]->loc.first_column != a->loc.first_column)
				x->shared[k] = annot_eval(ev, a);
			s = x->shared[k];
		}
		if (s == NULL)
			return -1;
		if (k == ANN_ENV)	/* env lines add to each other by name */
			s = env_add(ev->pcg, complevel ? p->dflt[k] : p->own[k], s);
		if (complevel)
			p->dflt[k] = s;
		else
			p->own[k] = s;
	}
	return 0;
}

static int
annot_binding(struct eval *ev, void *arg)
{
	struct annot_ctx	*x = arg;

	memset(x->shared, 0, sizeof(x->shared));
	return each_target(ev->pcg, ev, x->it->target, annot_proc, x);
}

/* An executable that cannot be found: a warning for check, an error for run;
 * said once per exec. */
static void
check_execs(struct pcg *g, const struct pcg_opts *o)
{
	struct hmap		*seen = hmap_new();
	const struct pcg_strs	*s;
	char			 pn[PCG_NAME_MAX];
	const char		*exec;
	char			*path;
	uint64_t		 h;
	int			 i, old;

	for (i = 0; i < g->nprocs; i++) {
		const struct pcg_proc	*p = &g->procs[i];
		const struct loc	*l;
		const char		*q;

		s = pcg_annot(g, p, ANN_EXEC);
		exec = pcg_proc_exec(g, i, &l);
		/* Once per exec and the file that names it. */
		h = 1469598103934665603ULL;
		for (q = exec; *q != '\0'; q++)
			h = (h ^ (unsigned char)*q) * 1099511628211ULL;
		h = (h ^ (uintptr_t)l->src) * 1099511628211ULL;
		if (hmap_put(seen, h, strlen(exec), i, &old) == HMAP_FOUND)
			continue;
		if ((path = pcg_find_exec(g, o, exec, l->src)) != NULL) {
			free(path);
			continue;
		}
		pcg_proc_name(g, i, pn, sizeof(pn));
		if ((path = pcg_find_nonexec(g, o, exec, l->src)) != NULL) {
			diag_at(g->diag, o->exec_missing_is_error ? DIAG_ERROR :
			    DIAG_WARNING, l, "found '%s' for '%s', but it is not "
			    "executable (chmod +x %s)", path, p->own[ANN_EXEC] !=
			    NULL ? pn : g->comps[p->comp].name, path);
			free(path);
			continue;
		}
		diag_at(g->diag, o->exec_missing_is_error ? DIAG_ERROR : DIAG_WARNING, l,
		    "cannot find executable '%s' for '%s'%s", exec,
		    p->own[ANN_EXEC] != NULL ? pn : g->comps[p->comp].name,
		    s == NULL ? " (no 'exec' given: the component's name is used)" : "");
		pcg_exec_searched(g, o, exec, l);
	}
	hmap_free(seen);
}

static void
expand_sequential(struct pcg *g, const struct pcg_opts *o)
{
	const struct item	*it;
	struct annot_ctx	 x;
	struct eval		 ev;

	for (it = g->ast->items; it != NULL; it = it->next) {
		if (it->kind != I_ANNOT)
			continue;
		memset(&x, 0, sizeof(x));
		x.it = it;
		eval_init(&ev, g, "here");
		eval_for(&ev, it->fc, annot_binding, &x);
	}
	if (!o->skip_exec_check)
		check_execs(g, o);
}

/* ---- Groups ---- */

struct group_ctx {
	const struct item	*it;
	int			 group;		/* being filled */
	const struct instref	*m;		/* the member being added */
	int			 failed;	/* a process named twice: said */
};

/* The first group of that name (any index), or -1. */
static int
group_named(const struct pcg *g, const char *name)
{
	int	i;

	for (i = 0; i < g->ngroups; i++)
		if (g->groups[i].name == name)
			return i;
	return -1;
}

/* Add a process of a Groups line's list to the group being filled; a
 * process named twice is said once per line. */
static int
group_member(struct eval *ev, int proc, int complevel, void *arg)
{
	struct group_ctx	*x = arg;
	struct pcg		*g = ev->pcg;
	char			 pn[PCG_NAME_MAX], gn[PCG_NAME_MAX];

	(void)complevel;
	if (pcg_group_add_member(g, x->group, proc) == 0 || x->failed)
		return 0;
	x->failed = 1;
	diag_error(g->diag, &x->m->loc, "group '%s' names '%s' twice",
	    pcg_group_name(g, x->group, gn, sizeof(gn)),
	    pcg_proc_name(g, proc, pn, sizeof(pn)));
	return 0;
}

/* One iteration of a Groups line: the group its name and index give, and
 * the processes it lists. */
static int
group_binding(struct eval *ev, void *arg)
{
	struct group_ctx	*x = arg;
	const struct instref	*t = x->it->target, *m;
	struct pcg		*g = ev->pcg;
	int64_t			 index = 0;
	int			 first;

	if (t->idx != NULL && eval_expr(ev, t->idx->lo, &index) != 0)
		return -1;
	first = group_named(g, t->name);
	if (first >= 0 && g->groups[first].indexed != (t->idx != NULL)) {
		diag_error(g->diag, &t->loc, g->groups[first].indexed ? "group "
		    "'%s' needs an index (it is declared as '%s[i]')" : "group "
		    "'%s' takes no index (it is declared without one)", t->name,
		    t->name);
		diag_note(g->diag, &g->groups[first].loc, "first declared here");
		return -1;
	}
	x->group = pcg_add_group(g, t->name, index, t->idx != NULL, -1, &t->loc);
	for (m = x->it->members; m != NULL; m = m->next) {
		x->m = m;
		if (each_target(g, ev, m, group_member, x) != 0)
			return -1;
	}
	return 0;
}

/* The Groups section: members accumulate over lines and iterations, in
 * the order listed (their ranks). */
static void
expand_groups(struct pcg *g)
{
	const struct item	*it;
	struct group_ctx	 x;
	struct eval		 ev;
	int			 comp, i, errors = g->diag->errors;

	for (it = g->ast->items; it != NULL; it = it->next) {
		if (it->kind != I_GROUP)
			continue;
		if ((comp = pcg_find_comp(g, it->target->name)) >= 0) {
			diag_error(g->diag, &it->target->nameloc, "group '%s' is "
			    "named like a component (a component is already the "
			    "group of all its processes)", it->target->name);
			diag_note(g->diag, &g->comps[comp].loc, "'%s' declared here",
			    g->comps[comp].name);
			continue;
		}
		memset(&x, 0, sizeof(x));
		x.it = it;
		eval_init(&ev, g, "in a group");
		if (eval_for(&ev, it->fc, group_binding, &x) == 0 &&
		    group_named(g, it->target->name) < 0)
			diag_error(g->diag, &it->loc, "group '%s' has no processes "
			    "(its 'for' clause never holds)", it->target->name);
	}
	if (g->diag->errors > errors)
		return;
	for (i = 0; i < g->ngroups; i++)
		if (g->groups[i].nmembers == 0) {
			char	gn[PCG_NAME_MAX];

			diag_error(g->diag, &g->groups[i].loc, "group '%s' has no "
			    "processes", pcg_group_name(g, i, gn, sizeof(gn)));
		}
}

struct proc_at {
	int64_t	index;
	int	proc;
};

/* Order a component's processes by index. */
static int
by_index(const void *a, const void *b)
{
	int64_t	x = ((const struct proc_at *)a)->index;
	int64_t	y = ((const struct proc_at *)b)->index;

	return x < y ? -1 : x > y;
}

/* A component named in 'over': the group of all its processes in index
 * order, added once. */
static void
comp_group(struct pcg *g, int comp)
{
	struct proc_at	*v;
	int		 id, i, n = 0;

	if (pcg_find_group(g, g->comps[comp].name, 0) >= 0)
		return;
	id = pcg_add_group(g, g->comps[comp].name, 0, 0, comp, &g->comps[comp].loc);
	v = xreallocarray(NULL, (size_t)g->comps[comp].nprocs + 1, sizeof(*v));
	for (i = 0; i < g->nprocs; i++)
		if (g->procs[i].comp == comp) {
			v[n].index = g->procs[i].index;
			v[n++].proc = i;
		}
	if (n > 1)
		qsort(v, (size_t)n, sizeof(*v), by_index);
	for (i = 0; i < n; i++)
		pcg_group_add_member(g, id, v[i].proc);
	free(v);
}

/* ---- BEHAVIOUR: static checks (its semantics belong to mpnet/) ---- */

struct scope {
	const char	*name;
	struct scope	*up;
};

static int
name_known(const struct pcg *g, const struct scope *sc, const char *name)
{
	for (; sc != NULL; sc = sc->up)
		if (sc->name == name)
			return 1;
	return pcg_find_param(g, name) != NULL;
}

/* pcg_did_you_mean of a name among the parameters and the 'for' variables
 * of sc. */
static const char *
scope_did_you_mean(const struct pcg *g, const struct scope *sc,
    const char *name, char *buf, size_t len)
{
	const struct scope	*v;
	const char		**more;
	size_t			  n = 0;

	for (v = sc; v != NULL; v = v->up)
		n++;
	more = xcalloc(n + 1, sizeof(*more));
	for (n = 0, v = sc; v != NULL; v = v->up)
		more[n++] = v->name;
	pcg_did_you_mean(g, PCG_NAMES_PARAMS, more, n, name, buf, len);
	free(more);
	return buf;
}

/* The string parameter name stands for, unless a 'for' variable in sc
 * hides it; else NULL. */
static const struct pcg_param *
scope_string(const struct pcg *g, const struct scope *sc, const char *name)
{
	const struct pcg_param	*p;

	for (; sc != NULL; sc = sc->up)
		if (sc->name == name)
			return NULL;
	p = pcg_find_param(g, name);
	return p != NULL && p->text != NULL ? p : NULL;
}

/* Report the names of a behaviour's expression that are unknown, or
 * string parameters, which no behaviour can use. */
static void
check_expr(struct pcg *g, const struct pcg_comp *c, const struct scope *sc,
    const struct expr *e)
{
	const struct pcg_param	*p;
	const struct expr	*x;

	if (e == NULL)
		return;
	switch (e->kind) {
	case E_NAME:
		if (!name_known(g, sc, e->name))
			unknown_name(g, sc, e);
		else if ((p = scope_string(g, sc, e->name)) != NULL)
			eval_not_number(g, &e->loc, p);
		return;
	case E_PORTS:
		if (pcg_find_type(c, e->name) < 0)
			no_port_type(g, c, e->name, &e->loc);
		return;
	case E_MIN:
	case E_MAX:
		for (x = e->a; x != NULL; x = x->next)
			check_expr(g, c, sc, x);
		return;
	default:
		check_expr(g, c, sc, e->a);
		check_expr(g, c, sc, e->b);
		check_expr(g, c, sc, e->c);
		return;
	}
}

/* Whether e uses nothing but constants and parameters. */
static int
params_only(const struct pcg *g, const struct expr *e)
{
	const struct expr	*x;

	if (e == NULL)
		return 1;
	if (e->kind == E_INDEX || e->kind == E_PORTS || e->kind == E_ARG)
		return 0;
	if (e->kind == E_NAME)
		return name_known(g, NULL, e->name);
	if (e->kind == E_MIN || e->kind == E_MAX) {
		for (x = e->a; x != NULL; x = x->next)
			if (!params_only(g, x))
				return 0;
		return 1;
	}
	return params_only(g, e->a) && params_only(g, e->b) && params_only(g, e->c);
}

/* A rooted collective's first word ("bcast" of "bcast from"), into buf. */
static const char *
root_word(enum stmt_kind k, char *buf, size_t len)
{
	const char	*w = pcg_stmt_word(k, MODE_STANDARD);

	snprintf(buf, len, "%.*s", (int)strcspn(w, " "), w);
	return buf;
}

/* 'over G': a group the Groups section declares, with an index when it
 * is declared with one, or a component (all its processes, no index). */
static void
check_over(struct pcg *g, const struct pcg_comp *c, const struct scope *sc,
    const struct stmt *s)
{
	const struct instref	*r = s->over;
	char			 dym[PCG_DYM_MAX];
	int			 comp, first;

	if (r->idx != NULL) {
		if (r->idx->hi != NULL || r->idx->next != NULL) {
			diag_error(g->diag, &r->loc, "a range here: 'over' names one "
			    "group");
			return;
		}
		check_expr(g, c, sc, r->idx->lo);
	}
	if ((comp = pcg_find_comp(g, r->name)) >= 0) {
		if (r->idx != NULL) {
			diag_error(g->diag, &r->loc, "'over %s' is every process of "
			    "component '%s' and takes no index", r->name, r->name);
			return;
		}
		comp_group(g, comp);
		return;
	}
	if ((first = group_named(g, r->name)) < 0) {
		diag_error(g->diag, &r->nameloc, "unknown group '%s' (not in the "
		    "Groups section, nor a component)%s", r->name,
		    pcg_did_you_mean(g, PCG_NAMES_GROUPS, NULL, 0, r->name, dym,
		    sizeof(dym)));
		return;
	}
	if (g->groups[first].indexed != (r->idx != NULL)) {
		diag_error(g->diag, &r->loc, g->groups[first].indexed ? "group "
		    "'%s' needs an index (its groups are '%s[i]')" : "group '%s' "
		    "takes no index", r->name, r->name);
		diag_note(g->diag, &g->groups[first].loc, "declared here");
	}
}

/* The root of a collective over a group, which may differ from process to
 * process (each group its own): one process of an indexed component. */
static void
check_root_varies(struct pcg *g, const struct pcg_comp *c, const struct scope *sc,
    const struct stmt *s)
{
	const struct instref	*r = &s->root;
	char			 w[32];
	int			 comp;

	if (r->idx->hi != NULL || r->idx->next != NULL) {
		diag_error(g->diag, &r->loc, "a range here: the root of '%s' is "
		    "one process", root_word(s->kind, w, sizeof(w)));
		return;
	}
	check_expr(g, c, sc, r->idx->lo);
	if ((comp = pcg_find_comp(g, r->name)) < 0)
		unknown_comp(g, r->name, &r->nameloc);
	else if (g->comps[comp].indexed == 0)
		diag_error(g->diag, &r->loc, "'%s' takes no index (it has one "
		    "process)", r->name);
}

/* A rooted collective's root: one process for all, or, over a group,
 * each group its own. */
static void
check_root(struct pcg *g, const struct pcg_comp *c, const struct scope *sc,
    const struct stmt *s)
{
	struct eval	ev;
	char		w[32];
	int		proc;

	if (s->root.idx != NULL && !params_only(g, s->root.idx->lo) &&
	    s->over != NULL) {
		/* Each group its own root: found per process. */
		check_root_varies(g, c, sc, s);
		return;
	}
	if (s->root.idx != NULL && !params_only(g, s->root.idx->lo)) {
		diag_error(g->diag, &s->root.loc, "the root of '%s' must be one "
		    "process for all (no 'index', 'ports' or 'for' variables)",
		    root_word(s->kind, w, sizeof(w)));
		return;
	}
	eval_init(&ev, g, "in a collective's root");
	if (resolve_proc(g, &ev, &s->root, &proc) != 0)
		diag_note(g->diag, &s->loc, "the root of this '%s'",
		    root_word(s->kind, w, sizeof(w)));
}

static void
check_stmts(struct pcg *g, const struct pcg_comp *c, const struct scope *sc,
    const struct stmt *s)
{
	const struct branch	*b;
	struct scope		 inner;

	for (; s != NULL; s = s->next) {
		if (s->type != NULL && pcg_find_type(c, s->type) < 0)
			no_port_type(g, c, s->type, &s->typeloc);
		check_expr(g, c, sc, s->port);
		if (s->rtype != NULL && pcg_find_type(c, s->rtype) < 0)
			no_port_type(g, c, s->rtype, &s->rtypeloc);
		check_expr(g, c, sc, s->rport);
		if (s->over != NULL)
			check_over(g, c, sc, s);
		if (pcg_stmt_rooted(s->kind))
			check_root(g, c, sc, s);
		switch (s->kind) {
		case S_LOOP:
		case S_IF:
		case S_TEST:
		case S_IPROBE:
		case S_IPROBE_ANY:
			check_expr(g, c, sc, s->expr);
			check_stmts(g, c, sc, s->body);
			check_stmts(g, c, sc, s->orelse);
			break;
		case S_FOR:
			check_expr(g, c, sc, s->var->lo);
			check_expr(g, c, sc, s->var->hi);
			if (name_known(g, NULL, s->var->name))
				diag_error(g->diag, &s->var->loc, "'for' variable '%s' "
				    "hides the parameter of that name", s->var->name);
			inner.name = s->var->name;
			inner.up = (struct scope *)sc;
			check_stmts(g, c, &inner, s->body);
			break;
		case S_CHOICE:
		case S_WAITANY:
		case S_WAITSOME:
			for (b = s->branches; b != NULL; b = b->next)
				check_stmts(g, c, sc, b->body);
			break;
		default:
			break;
		}
	}
}

/* The names 'as' has bound so far in a behaviour's text: requests, and
 * messages a probe found ('probe ... as m'). */
struct reqnames {
	const char	**v;
	unsigned char	 *probed;
	int		  n, cap;
};

/* 1 + whether name is a probed message's (2: both, an error said
 * already), or 0 when 'as' bound none. */
static int
reqnames_kind(const struct reqnames *r, const char *name)
{
	int	i;

	for (i = 0; i < r->n; i++)
		if (r->v[i] == name)
			return 1 + r->probed[i];
	return 0;
}

/* Bind name by 'as' at l (words: the statement's): a request, or a
 * probed message; the other kind's name already is an error. */
static void
reqnames_bind(struct pcg *g, struct reqnames *r, const char *name,
    const struct loc *l, const char *words, int probed)
{
	int	k = reqnames_kind(r, name), i;

	if (k == 1 + probed || k == 3)
		return;
	if (k != 0) {
		diag_error(g->diag, l, "'%s ... as %s': '%s' names %s already",
		    words, name, name, probed ? "a request" : "a probed message");
		for (i = 0; i < r->n; i++)	/* (said once: no more of it) */
			if (r->v[i] == name)
				r->probed[i] = 2;
		return;
	}
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 8;
		r->v = xreallocarray(r->v, (size_t)r->cap, sizeof(*r->v));
		r->probed = xreallocarray(r->probed, (size_t)r->cap, 1);
	}
	r->probed[r->n] = (unsigned char)probed;
	r->v[r->n++] = name;
}

/* Name used by a statement of the given words must have been bound by an
 * 'as' written before it. */
static void
check_req_used(struct pcg *g, const struct reqnames *r, const char *name,
    const struct loc *l, const char *words)
{
	int	k = reqnames_kind(r, name);

	if (k == 2)
		diag_error(g->diag, l, "'%s %s': '%s' names a probed message, not a "
		    "request ('recv %s' receives it)", words, name, name, name);
	else if (k == 0)
		diag_error(g->diag, l, "'%s %s': no request '%s' is posted before "
		    "it (name one with 'isend ... as %s')", words, name, name, name);
}

/* 'recv name' must follow a probe that named its message. */
static void
check_probed_used(struct pcg *g, const struct pcg_comp *c,
    const struct reqnames *r, const struct stmt *s)
{
	int	k = reqnames_kind(r, s->req);

	if (k == 3)
		return;		/* (named both: said at the second 'as') */
	if (k == 1)
		diag_error(g->diag, &s->reqloc, "'recv %s': '%s' names a request, "
		    "not a probed message (a request completes with 'wait %s')",
		    s->req, s->req, s->req);
	else if (k == 0 && pcg_find_type(c, s->req) >= 0)
		diag_error(g->diag, &s->reqloc, "'recv %s': '%s' is a port type: "
		    "write 'recv %s[k]', 'recv %s[*]' or 'recv any %s'", s->req,
		    s->req, s->req, s->req, s->req);
	else if (k == 0)
		diag_error(g->diag, &s->reqloc, "'recv %s': no probe names a "
		    "message '%s' before it (write 'probe any T as %s' or "
		    "'probe T[k] as %s' first)", s->req, s->req, s->req, s->req);
}

/* Check the names of s and what follows, in the order written: requests
 * waited on, tested or listed only after some 'as' names them, each
 * listed once by a waitany or waitsome; probed messages received only
 * after a probe names them; no name of both kinds.  Whether a request is
 * pending there, or a message probed, on every way, is behave.c's check,
 * once 'if' is decided. */
static void
check_reqs(struct pcg *g, const struct pcg_comp *c, struct reqnames *r,
    const struct stmt *s)
{
	const struct branch	*b, *o;

	for (; s != NULL; s = s->next) {
		switch (s->kind) {
		case S_ISEND:
		case S_IRECV:
		case S_IRECV_ANY:
			if (s->req != NULL)
				reqnames_bind(g, r, s->req, &s->reqloc,
				    pcg_stmt_word(s->kind, s->mode), 0);
			break;
		case S_PROBE:
		case S_PROBE_ANY:
		case S_IPROBE:
		case S_IPROBE_ANY:
			if (s->req != NULL)
				reqnames_bind(g, r, s->req, &s->reqloc,
				    pcg_stmt_word(s->kind, s->mode), 1);
			break;
		case S_RECV_PROBED:
			check_probed_used(g, c, r, s);
			break;
		case S_WAIT:
			check_req_used(g, r, s->req, &s->reqloc, "wait");
			break;
		case S_TEST:
			check_req_used(g, r, s->req, &s->reqloc, "test");
			break;
		case S_WAITANY:
		case S_WAITSOME:
			for (b = s->branches; b != NULL; b = b->next) {
				check_req_used(g, r, b->req, &b->reqloc, "on");
				for (o = s->branches; o != b; o = o->next)
					if (o->req == b->req) {
						diag_error(g->diag, &b->reqloc,
						    "request '%s' is listed twice in "
						    "this '%s'", b->req, s->kind ==
						    S_WAITANY ? "waitany" : "waitsome");
						diag_note(g->diag, &o->reqloc,
						    "first listed here");
						break;
					}
			}
			break;
		default:
			break;
		}
		check_reqs(g, c, r, s->body);
		check_reqs(g, c, r, s->orelse);
		for (b = s->branches; b != NULL; b = b->next)
			check_reqs(g, c, r, b->body);
	}
}

int
pcg_check_behaviour(struct pcg *g, int comp, const struct item *it)
{
	struct reqnames	 rn;
	int		 errors = g->diag->errors;

	check_stmts(g, &g->comps[comp], NULL, it->body);
	memset(&rn, 0, sizeof(rn));
	check_reqs(g, &g->comps[comp], &rn, it->body);
	free(rn.v);
	free(rn.probed);
	return g->diag->errors - errors;
}

static void
expand_behaviour(struct pcg *g)
{
	const struct item	*it;
	struct pcg_comp		*c;
	char			 dym[PCG_DYM_MAX];
	int			 i;

	for (it = g->ast->items; it != NULL; it = it->next) {
		if (it->kind != I_BEHAVIOUR)
			continue;
		if ((i = pcg_find_comp(g, it->name)) < 0) {
			diag_error(g->diag, &it->nameloc, "behaviour for unknown "
			    "component '%s'%s", it->name, pcg_did_you_mean(g,
			    PCG_NAMES_COMPS, NULL, 0, it->name, dym, sizeof(dym)));
			continue;
		}
		c = &g->comps[i];
		if (c->behaviour != NULL) {
			diag_error(g->diag, &it->nameloc, "behaviour of '%s' given twice",
			    it->name);
			diag_note(g->diag, &c->behaviour->nameloc, "first given here");
			continue;
		}
		c->behaviour = it;
		(void)pcg_check_behaviour(g, i, it);
	}
}

/* ---- the whole ---- */

static void
name_application(struct pcg *g)
{
	const struct item	*it, *first = NULL;
	const char		*base, *dot;
	char			*name, *q;
	size_t			 len;
	int			 lead;

	for (it = g->ast->items; it != NULL; it = it->next) {
		if (it->kind != I_APPLICATION)
			continue;
		if (first != NULL) {
			diag_error(g->diag, &it->loc, "a second 'application' line");
			diag_note(g->diag, &first->loc, "the first");
			continue;
		}
		first = it;
		g->name = it->name;
	}
	if (first != NULL)
		return;
	base = strrchr(g->script, '/');
	base = base != NULL ? base + 1 : g->script;
	dot = strrchr(base, '.');
	len = dot != NULL && dot != base ? (size_t)(dot - base) : strlen(base);
	if (len > AST_MAX_IDENT - 1)
		len = AST_MAX_IDENT - 1;
	/* Made an identifier, so 'expand' prints a line that reads back: a
	 * leading '_' where it would be empty or start with a digit. */
	lead = len == 0 || isdigit((unsigned char)base[0]);
	name = arena_alloc(g->arena, lead + len + 1);
	name[0] = '_';
	memcpy(name + lead, base, len);
	for (q = name; *q != '\0'; q++)
		if (!isalnum((unsigned char)*q) && *q != '_')
			*q = '_';
	g->name = name;
}

struct pcg *
pcg_expand(struct ast *ast, struct diag *d, const struct pcg_opts *o)
{
	struct pcg	*g = pcg_new(ast, d);
	int		 errors = d->errors;

	g->script = ast->main->name;
	g->script_dir = ast->main->dir;
	name_application(g);
	/* A requirement that fails stops here: what follows would be built
	 * from values the script refuses. */
	if (expand_params(g, o) != 0 ||
	    (d->errors == errors && expand_requires(g) != 0)) {
		pcg_free(g);
		return NULL;
	}
	expand_components(g);
	expand_processes(g);
	expand_channels(g);
	expand_groups(g);
	expand_parallel(g);
	expand_sequential(g, o);
	expand_behaviour(g);
	if (d->errors == 0)
		pcg_instantiate(g);
	if (d->errors == 0 && g->nprocs == 0)
		diag_warning(d, NULL, "'%s' declares no processes", g->script);
	ast_release_lines(ast);		/* the model holds what it needs */
	return g;
}
