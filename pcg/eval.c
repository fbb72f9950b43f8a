/* eval.c -- the expression language of scripts: 64-bit integers with
 * checked overflow and division, names resolved to 'for' variables, then
 * parameters; string interpolation; unrolling of 'for' clauses. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "xmalloc.h"

/* 'for' iterations in a whole script: more is a mistake, not a topology,
 * and must end in an error within seconds. */
#define EVAL_MAX_ITERATIONS	(1LL << 24)

/* One message for every place a string parameter cannot go, with what
 * the user needs to find it: the value and where it was set. */
void
eval_not_number(struct pcg *g, const struct loc *l, const struct pcg_param *p)
{
	struct buf	 b;

	buf_init(&b);
	buf_add_quoted(&b, p->text);
	if (p->from == PCG_FROM_D)
		diag_error(g->diag, l, "parameter '%s' is a string (%s, set by "
		    "-D), not a number", p->name, b.s);
	else
		diag_error(g->diag, l, "parameter '%s' is a string (%s, set at "
		    "%s:%d:%d), not a number", p->name, b.s, p->vloc.src->name,
		    p->vloc.first_line, p->vloc.first_column);
	buf_free(&b);
}

/* The string parameter e names, when it is a name no 'for' variable
 * hides; else NULL. */
static const struct pcg_param *
string_param(const struct eval *ev, const struct expr *e)
{
	const struct pcg_param	*p;
	int			 i;

	if (e->kind != E_NAME)
		return NULL;
	for (i = ev->nvars - 1; i >= 0; i--)
		if (ev->vars[i].name == e->name)
			return NULL;
	p = pcg_find_param(ev->pcg, e->name);
	return p != NULL && p->text != NULL ? p : NULL;
}

/* The value of the name e: a 'for' variable, else a number parameter. */
static int
lookup(struct eval *ev, const struct expr *e, int64_t *out)
{
	const struct pcg_param	*p;
	const char		*vars[EVAL_MAX_VARS];
	char			 dym[PCG_DYM_MAX];
	int			 i;

	for (i = ev->nvars - 1; i >= 0; i--) {
		if (ev->vars[i].name == e->name) {
			*out = ev->vars[i].value;
			return 0;
		}
	}
	if ((p = pcg_find_param(ev->pcg, e->name)) != NULL) {
		if (p->text != NULL) {
			eval_not_number(ev->pcg, &e->loc, p);
			return -1;
		}
		*out = p->value;
		return 0;
	}
	for (i = 0; i < ev->nvars; i++)
		vars[i] = ev->vars[i].name;
	diag_error(ev->pcg->diag, &e->loc, "unknown name '%s' (not a parameter "
	    "or a 'for' variable)%s", e->name, pcg_did_you_mean(ev->pcg,
	    PCG_NAMES_PARAMS, vars, (size_t)ev->nvars, e->name, dym, sizeof(dym)));
	return -1;
}

static int
binary(struct eval *ev, const struct expr *e, int64_t a, int64_t b, int64_t *out)
{
	int	ovf = 0;

	switch (e->op) {
	case '+':	ovf = __builtin_add_overflow(a, b, out); break;
	case '-':	ovf = __builtin_sub_overflow(a, b, out); break;
	case '*':	ovf = __builtin_mul_overflow(a, b, out); break;
	case '/':
	case '%':
		if (b == 0) {
			diag_error(ev->pcg->diag, &e->loc, "%s by zero",
			    e->op == '/' ? "division" : "modulo");
			return -1;
		}
		if (a == INT64_MIN && b == -1) {	/* the quotient overflows */
			ovf = e->op == '/';
			*out = 0;
			break;
		}
		*out = e->op == '/' ? a / b : a % b;
		break;
	case '<':	*out = a < b; break;
	case '>':	*out = a > b; break;
	case OP_LE:	*out = a <= b; break;
	case OP_GE:	*out = a >= b; break;
	case OP_EQ:	*out = a == b; break;
	case OP_NE:	*out = a != b; break;
	default:	*out = 0; break;
	}
	if (ovf) {
		diag_error(ev->pcg->diag, &e->loc, "integer overflow");
		return -1;
	}
	return 0;
}

/* arg(k): the process's k-th argument (its 'args', as the component's
 * argv[k] and ens_param("k") give it), which must be a whole number. */
static int
eval_arg(struct eval *ev, const struct expr *e, int64_t *out)
{
	const struct pcg_strs	*args;
	char			 pn[PCG_NAME_MAX], *end;
	int64_t			 k;
	int			 n;

	if (ev->proc == NULL) {
		diag_error(ev->pcg->diag, &e->loc, "'arg()' is not available %s",
		    ev->where != NULL ? ev->where : "here");
		return -1;
	}
	if (eval_expr(ev, e->a, &k) != 0)
		return -1;
	args = pcg_annot(ev->pcg, ev->proc, ANN_ARGS);
	n = args != NULL ? args->n : 0;
	pcg_proc_name(ev->pcg, (int)(ev->proc - ev->pcg->procs), pn, sizeof(pn));
	if (k < 1 || k > n) {
		diag_error(ev->pcg->diag, &e->loc, "'arg(%" PRId64 ")': '%s' has %d "
		    "argument%s", k, pn, n, n == 1 ? "" : "s");
		return -1;
	}
	errno = 0;
	*out = strtoll(args->v[k - 1], &end, 10);
	if (end == args->v[k - 1] || *end != '\0' || errno == ERANGE) {
		diag_error(ev->pcg->diag, &e->loc, "'arg(%" PRId64 ")': argument %"
		    PRId64 " of '%s' is \"%s\", not a number", k, k, pn,
		    args->v[k - 1]);
		return -1;
	}
	return 0;
}

/* Report that the process's component has no port type 'ports(T)' names
 * (out of eval_expr, which recurses: its buffer is not on every level). */
static void
no_port_type(struct eval *ev, const struct expr *e)
{
	const struct pcg_comp	*c = &ev->pcg->comps[ev->proc->comp];
	char			 dym[PCG_DYM_MAX];

	diag_error(ev->pcg->diag, &e->loc, "component '%s' has no port type "
	    "'%s'%s", c->name, e->name, diag_did_you_mean(dym, sizeof(dym),
	    e->name, c->types, (size_t)c->ntypes));
}

int
eval_expr(struct eval *ev, const struct expr *e, int64_t *out)
{
	const struct expr	*x;
	int64_t			 a, b;
	int			 t;

	switch (e->kind) {
	case E_INT:
		*out = e->ival;
		return 0;
	case E_NAME:
		return lookup(ev, e, out);
	case E_INDEX:
		if (!ev->has_index) {
			diag_error(ev->pcg->diag, &e->loc, "'index' is not available %s",
			    ev->where != NULL ? ev->where : "here");
			return -1;
		}
		*out = ev->index;
		return 0;
	case E_PORTS:
		if (ev->proc == NULL) {
			diag_error(ev->pcg->diag, &e->loc, "'ports(%s)' is not available %s",
			    e->name, ev->where != NULL ? ev->where : "here");
			return -1;
		}
		t = pcg_find_type(&ev->pcg->comps[ev->proc->comp], e->name);
		if (t < 0) {
			no_port_type(ev, e);
			return -1;
		}
		*out = ev->proc->nports[t];
		return 0;
	case E_UNARY:
		if (eval_expr(ev, e->a, &a) != 0)
			return -1;
		if (e->op == '!') {
			*out = !a;
			return 0;
		}
		if (a == INT64_MIN) {
			diag_error(ev->pcg->diag, &e->loc, "integer overflow");
			return -1;
		}
		*out = -a;
		return 0;
	case E_BINARY:
		if (eval_expr(ev, e->a, &a) != 0)
			return -1;
		if (e->op == OP_AND || e->op == OP_OR) {	/* short-circuit */
			if ((e->op == OP_AND) != (a != 0)) {
				*out = a != 0;
				return 0;
			}
			if (eval_expr(ev, e->b, &b) != 0)
				return -1;
			*out = b != 0;
			return 0;
		}
		if (eval_expr(ev, e->b, &b) != 0)
			return -1;
		return binary(ev, e, a, b, out);
	case E_COND:
		if (eval_expr(ev, e->a, &a) != 0)
			return -1;
		return eval_expr(ev, a ? e->b : e->c, out);
	case E_ARG:
		return eval_arg(ev, e, out);
	case E_MIN:
	case E_MAX:
		if (eval_expr(ev, e->a, out) != 0)
			return -1;
		for (x = e->a->next; x != NULL; x = x->next) {
			if (eval_expr(ev, x, &a) != 0)
				return -1;
			if (e->kind == E_MIN ? a < *out : a > *out)
				*out = a;
		}
		return 0;
	}
	return -1;
}

int
expr_per_instance(const struct expr *e)
{
	const struct expr	*x;

	if (e == NULL)
		return 0;
	if (e->kind == E_INDEX || e->kind == E_PORTS || e->kind == E_ARG)
		return 1;
	if (e->kind == E_MIN || e->kind == E_MAX) {
		for (x = e->a; x != NULL; x = x->next)
			if (expr_per_instance(x))
				return 1;
		return 0;
	}
	return expr_per_instance(e->a) || expr_per_instance(e->b) ||
	    expr_per_instance(e->c);
}

int
str_per_instance(const struct str *s)
{
	const struct strpart	*p;

	for (p = s->parts; p != NULL; p = p->next)
		if (p->expr != NULL && expr_per_instance(p->expr))
			return 1;
	return 0;
}

char *
eval_str(struct eval *ev, const struct str *s)
{
	const struct pcg_param	*sp;
	const struct strpart	*p;
	struct buf		 b;
	int64_t			 v;
	char			*out;

	if (s->parts != NULL && s->parts->next == NULL && s->parts->text != NULL)
		return arena_strdup(ev->pcg->arena, s->parts->text);
	buf_init(&b);
	buf_adds(&b, "");
	for (p = s->parts; p != NULL; p = p->next) {
		if (p->text != NULL) {
			buf_adds(&b, p->text);
			continue;
		}
		if ((sp = string_param(ev, p->expr)) != NULL) {
			buf_adds(&b, sp->text);
			continue;
		}
		if (eval_expr(ev, p->expr, &v) != 0) {
			buf_free(&b);
			return NULL;
		}
		buf_printf(&b, "%" PRId64, v);
	}
	out = arena_strndup(ev->pcg->arena, b.s, b.len);
	buf_free(&b);
	return out;
}

struct for_state {
	const struct forclause	*fc;
	int			(*fn)(struct eval *, void *);
	void			*arg;
};

static void
note_iteration(struct eval *ev, const struct forclause *fc, int base)
{
	struct buf	b;
	int		i;

	buf_init(&b);
	for (i = base; i < ev->nvars; i++)
		buf_printf(&b, "%s%s = %" PRId64, i > base ? ", " : "",
		    ev->vars[i].name, ev->vars[i].value);
	diag_note(ev->pcg->diag, &fc->loc, "in the iteration where %s", b.s);
	buf_free(&b);
}

static int
for_rec(struct eval *ev, struct for_state *st, const struct forvar *v, int base)
{
	int64_t	lo, hi, i, c;
	int	k, errors = ev->pcg->diag->errors;

	if (v == NULL) {
		if (st->fc->cond != NULL) {
			if (eval_expr(ev, st->fc->cond, &c) != 0) {
				note_iteration(ev, st->fc, base);
				return -1;
			}
			if (!c)
				return 0;
		}
		if (st->fn(ev, st->arg) != 0) {
			/* Said with the error it explains (one already said
			 * elsewhere, as a broken process range, has none). */
			if (ev->pcg->diag->errors > errors)
				note_iteration(ev, st->fc, base);
			return -1;
		}
		return 0;
	}
	if (eval_expr(ev, v->lo, &lo) != 0 || eval_expr(ev, v->hi, &hi) != 0) {
		if (ev->nvars > base)
			note_iteration(ev, st->fc, base);
		return -1;
	}
	for (k = base; k < ev->nvars; k++) {
		if (ev->vars[k].name == v->name) {
			diag_error(ev->pcg->diag, &v->loc, "'for' variable '%s' "
			    "used twice in one clause", v->name);
			return -1;
		}
	}
	for (k = 0; k < ev->pcg->nparams; k++) {
		if (ev->pcg->params[k].name == v->name) {
			diag_error(ev->pcg->diag, &v->loc, "'for' variable '%s' "
			    "hides the parameter of that name", v->name);
			return -1;
		}
	}
	if (ev->nvars >= EVAL_MAX_VARS) {
		diag_error(ev->pcg->diag, &v->loc, "more than %d 'for' variables "
		    "in scope", EVAL_MAX_VARS);
		return -1;
	}
	k = ev->nvars++;
	ev->vars[k].name = v->name;
	/* An empty range runs no iteration: scripts scale down to one. */
	for (i = lo; i <= hi; i++) {
		if (++ev->pcg->iterations > EVAL_MAX_ITERATIONS) {
			diag_error(ev->pcg->diag, &st->fc->loc, "'for' clauses run "
			    "more than %lld iterations in all", EVAL_MAX_ITERATIONS);
			ev->nvars = k;
			return -1;
		}
		ev->vars[k].value = i;
		if (for_rec(ev, st, v->next, base) != 0) {
			ev->nvars = k;
			return -1;
		}
		if (i == INT64_MAX)
			break;
	}
	ev->nvars = k;
	return 0;
}

int
eval_for(struct eval *ev, const struct forclause *fc,
    int (*fn)(struct eval *, void *), void *arg)
{
	struct for_state	st;

	if (fc == NULL)
		return fn(ev, arg);
	st.fc = fc;
	st.fn = fn;
	st.arg = arg;
	return for_rec(ev, &st, fc->vars, ev->nvars);
}
