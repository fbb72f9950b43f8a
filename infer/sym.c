/* sym.c -- the integers a component's communication is computed from, as
 * expressions of the behaviour language (sym.h): made simplified, sums
 * and differences as a constant plus terms in one order, so that equal
 * sums compare equal; decided where what is known on a way decides them;
 * printed as pcg(5) writes expressions. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sym.h"
#include "xmalloc.h"

/* A sum: c plus k[i] times t[i], the terms in sym_cmp order, none zero. */
#define LIN_MAX	16

struct lin {
	int64_t		 c;
	int		 n;
	const struct sym *t[LIN_MAX];
	int64_t		 k[LIN_MAX];
};

static struct sym *
mk(struct arena *a, enum sym_kind k, int op)
{
	struct sym	*s = arena_alloc(a, sizeof(*s));

	s->k = k;
	s->op = op;
	return s;
}

const struct sym *
sym_int(struct arena *a, int64_t v)
{
	struct sym	*s = mk(a, Y_INT, 0);

	s->v = v;
	return s;
}

const struct sym *
sym_leaf(struct arena *a, enum sym_kind k, const char *name, int64_t v)
{
	struct sym	*s = mk(a, k, 0);

	s->name = name;
	s->v = v;
	return s;
}

int
sym_const(const struct sym *s, int64_t *v)
{
	if (s == NULL || s->k != Y_INT)
		return 0;
	*v = s->v;
	return 1;
}

int
sym_cmp(const struct sym *x, const struct sym *y)
{
	int	r;

	if (x == y)
		return 0;
	if (x == NULL || y == NULL)
		return x == NULL ? -1 : 1;
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	if (x->op != y->op)
		return x->op < y->op ? -1 : 1;
	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	if (x->name != y->name) {
		if (x->name == NULL || y->name == NULL)
			return x->name == NULL ? -1 : 1;
		if ((r = strcmp(x->name, y->name)) != 0)
			return r;
	}
	if ((r = sym_cmp(x->a, y->a)) != 0)
		return r;
	if ((r = sym_cmp(x->b, y->b)) != 0)
		return r;
	return sym_cmp(x->c, y->c);
}

int
sym_eq(const struct sym *x, const struct sym *y)
{
	return sym_cmp(x, y) == 0;
}

/* ---- sums ---- */

/* Add k times term t to l; -1 when it holds too many terms or a
 * coefficient overflows. */
static int
lin_add_term(struct lin *l, const struct sym *t, int64_t k)
{
	int	i, j, r;

	for (i = 0; i < l->n; i++) {
		if ((r = sym_cmp(t, l->t[i])) > 0)
			continue;
		if (r == 0) {
			if (__builtin_add_overflow(l->k[i], k, &l->k[i]))
				return -1;
			if (l->k[i] == 0) {
				for (j = i; j + 1 < l->n; j++) {
					l->t[j] = l->t[j + 1];
					l->k[j] = l->k[j + 1];
				}
				l->n--;
			}
			return 0;
		}
		break;
	}
	if (k == 0)
		return 0;
	if (l->n == LIN_MAX)
		return -1;
	for (j = l->n; j > i; j--) {
		l->t[j] = l->t[j - 1];
		l->k[j] = l->k[j - 1];
	}
	l->t[i] = t;
	l->k[i] = k;
	l->n++;
	return 0;
}

/* Add k times s to l, s taken apart where it is a sum, a difference, a
 * negation or a multiple; -1 on overflow or too many terms. */
static int
lin_add(struct lin *l, const struct sym *s, int64_t k)
{
	int64_t	v, m;

	if (s->k == Y_INT) {
		if (__builtin_mul_overflow(s->v, k, &v) ||
		    __builtin_add_overflow(l->c, v, &l->c))
			return -1;
		return 0;
	}
	if (s->k == Y_UNARY && s->op == '-') {
		if (k == INT64_MIN)
			return -1;
		return lin_add(l, s->a, -k);
	}
	if (s->k == Y_BINARY && (s->op == '+' || s->op == '-')) {
		if (lin_add(l, s->a, k) != 0)
			return -1;
		if (s->op == '-' && k == INT64_MIN)
			return -1;
		return lin_add(l, s->b, s->op == '+' ? k : -k);
	}
	if (s->k == Y_BINARY && s->op == '*') {
		if (sym_const(s->a, &v) && !__builtin_mul_overflow(v, k, &m))
			return lin_add(l, s->b, m);
		if (sym_const(s->b, &v) && !__builtin_mul_overflow(v, k, &m))
			return lin_add(l, s->a, m);
	}
	return lin_add_term(l, s, k);
}

/* The term k * t, as printed: t, -t, or k * t. */
static const struct sym *
term(struct arena *a, const struct sym *t, int64_t k)
{
	struct sym	*s;

	if (k == 1)
		return t;
	s = mk(a, Y_BINARY, '*');
	s->a = sym_int(a, k);
	s->b = t;
	return s;
}

/* The sum as an expression: its terms in order, those with a positive
 * coefficient first added, the others subtracted, the constant last. */
static const struct sym *
lin_sym(struct arena *a, const struct lin *l)
{
	const struct sym	*s = NULL;
	struct sym		*n;
	int			 i, pass, pos = 0, cfirst;

	for (i = 0; i < l->n; i++)
		pos |= l->k[i] > 0;
	/* 3 - k rather than -k + 3 */
	cfirst = !pos && l->n > 0 && l->c > 0;
	if (cfirst)
		s = sym_int(a, l->c);
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < l->n; i++) {
			if ((l->k[i] > 0) != (pass == 0))
				continue;
			if (s == NULL) {
				if (l->k[i] > 0)
					s = term(a, l->t[i], l->k[i]);
				else if (l->k[i] == -1) {
					n = mk(a, Y_UNARY, '-');
					n->a = l->t[i];
					s = n;
				} else
					s = term(a, l->t[i], l->k[i]);
				continue;
			}
			n = mk(a, Y_BINARY, l->k[i] > 0 ? '+' : '-');
			n->a = s;
			n->b = term(a, l->t[i], l->k[i] > 0 ? l->k[i] :
			    l->k[i] == INT64_MIN ? l->k[i] : -l->k[i]);
			s = n;
		}
	if (s == NULL)
		return sym_int(a, l->c);
	if (l->c == 0 || cfirst)
		return s;
	n = mk(a, Y_BINARY, l->c > 0 || l->c == INT64_MIN ? '+' : '-');
	n->a = s;
	n->b = sym_int(a, l->c > 0 || l->c == INT64_MIN ? l->c : -l->c);
	return n;
}

/* x - y as a sum, or -1 when it cannot be one. */
static int
lin_diff(const struct sym *x, const struct sym *y, struct lin *l)
{
	memset(l, 0, sizeof(*l));
	return lin_add(l, x, 1) != 0 || lin_add(l, y, -1) != 0 ? -1 : 0;
}

/* ---- makers ---- */

/* Whether the operator is a comparison. */
static int
is_cmp(int op)
{
	return op == '<' || op == '>' || op == SYM_LE || op == SYM_GE ||
	    op == SYM_EQ || op == SYM_NE;
}

/* Whether s is a condition, whose value is 0 or 1. */
static int
is_bool(const struct sym *s)
{
	int64_t	v;

	if (sym_const(s, &v))
		return v == 0 || v == 1;
	if (s->k == Y_UNARY)
		return s->op == '!';
	if (s->k == Y_BINARY)
		return is_cmp(s->op) || s->op == SYM_AND || s->op == SYM_OR;
	if (s->k == Y_COND)
		return is_bool(s->b) && is_bool(s->c);
	return 0;
}

/* The comparison d op 0 of a constant d. */
static int
cmp_const(int op, int64_t d)
{
	switch (op) {
	case '<':	return d < 0;
	case '>':	return d > 0;
	case SYM_LE:	return d <= 0;
	case SYM_GE:	return d >= 0;
	case SYM_EQ:	return d == 0;
	default:	return d != 0;
	}
}

/* The comparison that holds when op does not. */
static int
cmp_negate(int op)
{
	switch (op) {
	case '<':	return SYM_GE;
	case '>':	return SYM_LE;
	case SYM_LE:	return '>';
	case SYM_GE:	return '<';
	case SYM_EQ:	return SYM_NE;
	default:	return SYM_EQ;
	}
}

const struct sym *
sym_un(struct arena *a, int op, const struct sym *x)
{
	struct sym	*s;
	int64_t		 v;

	if (sym_const(x, &v)) {
		if (op == '!')
			return sym_int(a, v == 0);
		if (v != INT64_MIN)
			return sym_int(a, -v);
	}
	if (op == '-') {
		struct lin	l;

		memset(&l, 0, sizeof(l));
		if (lin_add(&l, x, -1) == 0)
			return lin_sym(a, &l);
	}
	if (op == '!' && x->k == Y_UNARY && x->op == '!' && is_bool(x->a))
		return x->a;
	if (op == '!' && x->k == Y_BINARY && is_cmp(x->op))
		return sym_bin(a, cmp_negate(x->op), x->a, x->b);
	s = mk(a, Y_UNARY, op);
	s->a = x;
	return s;
}

const struct sym *
sym_bin(struct arena *a, int op, const struct sym *x, const struct sym *y)
{
	struct sym	*s;
	struct lin	 l;
	int64_t		 u, v, r;
	int		 ovf = 0;

	if (sym_const(x, &u) && sym_const(y, &v)) {
		switch (op) {
		case '+':	ovf = __builtin_add_overflow(u, v, &r); break;
		case '-':	ovf = __builtin_sub_overflow(u, v, &r); break;
		case '*':	ovf = __builtin_mul_overflow(u, v, &r); break;
		case '/':
		case '%':
			ovf = v == 0 || (u == INT64_MIN && v == -1);
			if (!ovf)
				r = op == '/' ? u / v : u % v;
			break;
		case SYM_AND:	r = u != 0 && v != 0; break;
		case SYM_OR:	r = u != 0 || v != 0; break;
		case SYM_MAX:	r = u > v ? u : v; break;
		default:	r = cmp_const(op, u < v ? -1 : u > v);
		}
		if (!ovf)
			return sym_int(a, r);
	}
	switch (op) {
	case '+':
	case '-':
		memset(&l, 0, sizeof(l));
		if (lin_add(&l, x, 1) == 0 && lin_add(&l, y, op == '+' ? 1 : -1) == 0)
			return lin_sym(a, &l);
		break;
	case '*':
		if ((sym_const(x, &u) && u == 0) || (sym_const(y, &v) && v == 0))
			return sym_int(a, 0);
		if (sym_const(x, &u) || sym_const(y, &v)) {
			memset(&l, 0, sizeof(l));
			if (lin_add(&l, sym_const(x, &u) ? y : x,
			    sym_const(x, &u) ? u : v) == 0)
				return lin_sym(a, &l);
		}
		break;
	case '/':
		if (sym_const(y, &v) && v == 1)
			return x;
		break;
	case SYM_MAX:
		if (sym_eq(x, y))
			return x;
		/* max(0, x) of an x not negative */
		if (sym_const(x, &u) && u == 0 && sym_nonneg(y))
			return y;
		if (sym_const(y, &v) && v == 0 && sym_nonneg(x))
			return x;
		if (lin_diff(x, y, &l) == 0 && l.n == 0)
			return l.c >= 0 ? x : y;
		break;
	case SYM_AND:
		if (sym_const(x, &u))
			return u == 0 ? sym_int(a, 0) : sym_truth(a, y);
		if (sym_const(y, &v) && v != 0)
			return sym_truth(a, x);
		break;
	case SYM_OR:
		if (sym_const(x, &u))
			return u != 0 ? sym_int(a, 1) : sym_truth(a, y);
		if (sym_const(y, &v) && v == 0)
			return sym_truth(a, x);
		break;
	default:
		/* A comparison of sums that differ by a constant: decided. */
		if (is_cmp(op) && lin_diff(x, y, &l) == 0 && l.n == 0)
			return sym_int(a, cmp_const(op, l.c < 0 ? -1 : l.c > 0));
		/* x == 0 and x != 0 of a condition: !x and x. */
		if ((op == SYM_EQ || op == SYM_NE) && is_bool(x) &&
		    sym_const(y, &v) && v == 0)
			return op == SYM_NE ? x : sym_un(a, '!', x);
		break;
	}
	s = mk(a, Y_BINARY, op);
	s->a = x;
	s->b = y;
	return s;
}

const struct sym *
sym_cond(struct arena *a, const struct sym *c, const struct sym *x,
    const struct sym *y)
{
	struct sym	*s;
	int64_t		 v;

	if (sym_const(c, &v))
		return v != 0 ? x : y;
	if (sym_eq(x, y))
		return x;
	/* c ? 1 : 0 of a condition is the condition. */
	if (is_bool(c) && sym_const(x, &v) && v == 1 && sym_const(y, &v) &&
	    v == 0)
		return c;
	s = mk(a, Y_COND, 0);
	s->a = c;
	s->b = x;
	s->c = y;
	return s;
}

const struct sym *
sym_truth(struct arena *a, const struct sym *x)
{
	return is_bool(x) ? x : sym_bin(a, SYM_NE, x, sym_int(a, 0));
}

const struct sym *
sym_floordiv(struct arena *a, const struct sym *x, const struct sym *y)
{
	const struct sym	*q, *adj;

	if (sym_nonneg(x) && sym_nonneg(y))
		return sym_bin(a, '/', x, y);
	/* C's quotient, one less where the remainder is not 0 and the
	 * operands' signs differ. */
	q = sym_bin(a, '/', x, y);
	adj = sym_bin(a, SYM_AND, sym_bin(a, SYM_NE, sym_bin(a, '%', x, y),
	    sym_int(a, 0)), sym_bin(a, SYM_NE, sym_bin(a, '<', x, sym_int(a, 0)),
	    sym_bin(a, '<', y, sym_int(a, 0))));
	return sym_cond(a, adj, sym_bin(a, '-', q, sym_int(a, 1)), q);
}

const struct sym *
sym_floormod(struct arena *a, const struct sym *x, const struct sym *y)
{
	const struct sym	*r, *adj;

	r = sym_bin(a, '%', x, y);
	if (sym_nonneg(x) && sym_nonneg(y))
		return r;
	adj = sym_bin(a, SYM_AND, sym_bin(a, SYM_NE, r, sym_int(a, 0)),
	    sym_bin(a, SYM_NE, sym_bin(a, '<', x, sym_int(a, 0)),
	    sym_bin(a, '<', y, sym_int(a, 0))));
	return sym_cond(a, adj, sym_bin(a, '+', r, y), r);
}

int
sym_nonneg(const struct sym *s)
{
	switch (s->k) {
	case Y_INT:
		return s->v >= 0;
	case Y_INDEX:
	case Y_PORTS:
		return 1;
	case Y_BINARY:
		if (s->op == '+' || s->op == '*' || s->op == '/' || s->op == '%')
			return sym_nonneg(s->a) && sym_nonneg(s->b);
		if (s->op == SYM_MAX)
			return sym_nonneg(s->a) || sym_nonneg(s->b);
		return is_bool(s);
	case Y_UNARY:
		return s->op == '!';
	case Y_COND:
		return sym_nonneg(s->b) && sym_nonneg(s->c);
	default:
		return 0;
	}
}

int
sym_uses_var(const struct sym *s, int64_t var)
{
	if (s == NULL)
		return 0;
	if (s->k == Y_VAR)
		return var < 0 || s->v == var;
	return sym_uses_var(s->a, var) || sym_uses_var(s->b, var) ||
	    sym_uses_var(s->c, var);
}

const struct sym *
sym_subst(struct arena *a, const struct sym *s, int64_t var, const struct sym *r)
{
	if (s == NULL || !sym_uses_var(s, var))
		return s;
	switch (s->k) {
	case Y_VAR:
		return r;
	case Y_UNARY:
		return sym_un(a, s->op, sym_subst(a, s->a, var, r));
	case Y_BINARY:
		return sym_bin(a, s->op, sym_subst(a, s->a, var, r),
		    sym_subst(a, s->b, var, r));
	case Y_COND:
		return sym_cond(a, sym_subst(a, s->a, var, r),
		    sym_subst(a, s->b, var, r), sym_subst(a, s->c, var, r));
	default:
		return s;
	}
}

/* ---- what is known on a way ---- */

/* c as (x - y) op 0 with op == or <, the first term's coefficient
 * positive for ==, so that a condition and its restatements are one;
 * *neg set when c is the negation of that form.  -1: not a comparison of
 * sums. */
static int
canon(const struct sym *c, struct lin *l, int *op, int *neg)
{
	int	i, flip = 0;

	if (c->k != Y_BINARY || !is_cmp(c->op) || lin_diff(c->a, c->b, l) != 0)
		return -1;
	*op = c->op;
	*neg = 0;
	if (*op == SYM_NE) {
		*op = SYM_EQ;
		*neg = 1;
	}
	/* a >= b is !(a < b); a > b is b < a; a <= b is !(b < a) */
	if (*op == SYM_GE) {
		*op = '<';
		*neg = 1;
	} else if (*op == '>') {
		*op = '<';
		flip = 1;
	} else if (*op == SYM_LE) {
		*op = '<';
		*neg = 1;
		flip = 1;
	}
	/* -d == 0 is d == 0: the first term positive */
	if (*op == SYM_EQ && l->n > 0 && l->k[0] < 0)
		flip = 1;
	if (flip) {
		if (l->c == INT64_MIN)
			return -1;
		l->c = -l->c;
		for (i = 0; i < l->n; i++) {
			if (l->k[i] == INT64_MIN)
				return -1;
			l->k[i] = -l->k[i];
		}
	}
	return 0;
}

static int
lin_same(const struct lin *x, const struct lin *y)
{
	int	i;

	if (x->c != y->c || x->n != y->n)
		return 0;
	for (i = 0; i < x->n; i++)
		if (x->k[i] != y->k[i] || !sym_eq(x->t[i], y->t[i]))
			return 0;
	return 1;
}

/* The truth of c from a fact f known to have truth t: 1, 0, or -1. */
static int
implied(const struct sym *f, int t, const struct sym *c)
{
	struct lin	lf, lc;
	int		opf, opc, nf, nc, i;

	if (sym_eq(f, c))
		return t;
	if (canon(f, &lf, &opf, &nf) != 0 || canon(c, &lc, &opc, &nc) != 0 ||
	    opf != opc)
		return -1;
	if (lin_same(&lf, &lc))
		return t ^ nf ^ nc;
	/* d < 0 is !(-d - 1 < 0) over the integers */
	if (opf == '<' && lf.c != INT64_MIN) {
		lf.c = -lf.c - 1;
		for (i = 0; i < lf.n; i++)
			lf.k[i] = -lf.k[i];
		if (lin_same(&lf, &lc))
			return !(t ^ nf) ^ nc;
	}
	return -1;
}

int
sym_decide(const struct sym_facts *f, const struct sym *c)
{
	int64_t	v;
	int	i, r, x, y;

	if (sym_const(c, &v))
		return v != 0;
	if (c->k == Y_UNARY && c->op == '!')
		return (r = sym_decide(f, c->a)) < 0 ? -1 : !r;
	if (c->k == Y_BINARY && (c->op == SYM_AND || c->op == SYM_OR)) {
		x = sym_decide(f, c->a);
		y = sym_decide(f, c->b);
		if (c->op == SYM_AND)
			return x == 0 || y == 0 ? 0 : x == 1 && y == 1 ? 1 : -1;
		return x == 1 || y == 1 ? 1 : x == 0 && y == 0 ? 0 : -1;
	}
	for (i = f->n - 1; i >= 0; i--)
		if ((r = implied(f->conds[i], f->truth[i], c)) >= 0)
			return r;
	return -1;
}

void
sym_assume(struct sym_facts *f, const struct sym *c, int t)
{
	int64_t	v;

	if (sym_const(c, &v))
		return;
	if (c->k == Y_UNARY && c->op == '!') {
		sym_assume(f, c->a, !t);
		return;
	}
	/* Both parts of a conjunction that holds, of a disjunction that
	 * does not. */
	if (c->k == Y_BINARY && ((c->op == SYM_AND && t) || (c->op == SYM_OR && !t))) {
		sym_assume(f, c->a, t);
		sym_assume(f, c->b, t);
		return;
	}
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 8;
		f->conds = xreallocarray(f->conds, (size_t)f->cap, sizeof(*f->conds));
		f->truth = xreallocarray(f->truth, (size_t)f->cap, sizeof(*f->truth));
	}
	f->conds[f->n] = c;
	f->truth[f->n++] = t;
}

void
sym_facts_copy(struct sym_facts *to, const struct sym_facts *from)
{
	memset(to, 0, sizeof(*to));
	if (from->n == 0)
		return;
	to->cap = from->n;
	to->n = from->n;
	to->conds = xreallocarray(NULL, (size_t)to->cap, sizeof(*to->conds));
	to->truth = xreallocarray(NULL, (size_t)to->cap, sizeof(*to->truth));
	memcpy(to->conds, from->conds, sizeof(*to->conds) * (size_t)from->n);
	memcpy(to->truth, from->truth, sizeof(*to->truth) * (size_t)from->n);
}

void
sym_facts_free(struct sym_facts *f)
{
	free(f->conds);
	free(f->truth);
	memset(f, 0, sizeof(*f));
}

/* ---- printing ---- */

/* Binding strength, as pcg/emit.c has it. */
enum { P_COND = 1, P_OR, P_AND, P_EQ, P_REL, P_ADD, P_MUL, P_UNARY, P_PRIMARY };

static int
prec(const struct sym *s)
{
	switch (s->k) {
	case Y_INT:
		return s->v == INT64_MIN ? P_ADD : s->v < 0 ? P_UNARY : P_PRIMARY;
	case Y_COND:
		return P_COND;
	case Y_UNARY:
		return P_UNARY;
	case Y_BINARY:
		switch (s->op) {
		case SYM_OR:	return P_OR;
		case SYM_AND:	return P_AND;
		case '+': case '-':	return P_ADD;
		case '*': case '/': case '%':	return P_MUL;
		case SYM_EQ: case SYM_NE:	return P_EQ;
		case SYM_MAX:	return P_PRIMARY;
		default:	return P_REL;
		}
	default:
		return P_PRIMARY;
	}
}

static const char *
op_text(int op)
{
	switch (op) {
	case SYM_EQ:	return "==";
	case SYM_NE:	return "!=";
	case SYM_LE:	return "<=";
	case SYM_GE:	return ">=";
	case SYM_AND:	return "&&";
	case SYM_OR:	return "||";
	case '<':	return "<";
	case '>':	return ">";
	case '+':	return "+";
	case '-':	return "-";
	case '*':	return "*";
	case '/':	return "/";
	default:	return "%";
	}
}

static void
print(struct buf *b, const struct sym *s, int need)
{
	int	mine = prec(s), paren = mine < need;

	if (paren)
		buf_addc(b, '(');
	switch (s->k) {
	case Y_INT:
		if (s->v == INT64_MIN)
			buf_adds(b, "-9223372036854775807 - 1");
		else
			buf_printf(b, "%" PRId64, s->v);
		break;
	case Y_PARAM:
	case Y_VAR:
		buf_adds(b, s->name);
		break;
	case Y_ARG:
		buf_printf(b, "arg(%" PRId64 ")", s->v);
		break;
	case Y_INDEX:
		buf_adds(b, "index");
		break;
	case Y_PORTS:
		buf_printf(b, "ports(%s)", s->name);
		break;
	case Y_UNARY:
		buf_addc(b, (char)s->op);
		print(b, s->a, P_UNARY + (s->op == '-'));
		break;
	case Y_BINARY:
		if (s->op == SYM_MAX) {
			buf_adds(b, "max(");
			print(b, s->a, P_COND);
			buf_adds(b, ", ");
			print(b, s->b, P_COND);
			buf_addc(b, ')');
			break;
		}
		print(b, s->a, mine == P_EQ || mine == P_REL ? mine + 1 : mine);
		buf_printf(b, " %s ", op_text(s->op));
		print(b, s->b, mine + 1);
		break;
	case Y_COND:
		print(b, s->a, P_COND + 1);
		buf_adds(b, " ? ");
		print(b, s->b, P_COND);
		buf_adds(b, " : ");
		print(b, s->c, P_COND);
		break;
	}
	if (paren)
		buf_addc(b, ')');
}

void
sym_print(struct buf *b, const struct sym *s)
{
	print(b, s, P_COND);
}
