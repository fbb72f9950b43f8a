/* out.c -- an inferred behaviour as pcg(5) text (infer.h): first made
 * simpler where the language says the same more briefly (a loop over
 * every port of a type is T[*], what both ways of an 'if' end with comes
 * after it, a choice among choices is one), then its names given (each
 * request's and 'for' variable's its own) and printed, one statement a
 * line, each with the place in the code it comes from. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "infer.h"
#include "stmtword.h"
#include "xmalloc.h"

/* ---- simpler ---- */

static int bst_same(const struct bst *, const struct bst *);

/* Whether two statement lists are the same. */
static int
list_same(const struct bst *a, const struct bst *b)
{
	for (; a != NULL && b != NULL; a = a->next, b = b->next)
		if (!bst_same(a, b))
			return 0;
	return a == NULL && b == NULL;
}

static int
str_same(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static const struct breq *
rep(const struct breq *q)
{
	while (q != NULL && q->up != NULL)
		q = q->up;
	return q;
}

/* Whether two statements are the same, from the same place of the code. */
static int
bst_same(const struct bst *a, const struct bst *b)
{
	const struct bbranch	*x, *y;

	if (a->k != b->k || a->mode != b->mode || a->coll != b->coll ||
	    !str_same(a->type, b->type) || !str_same(a->rtype, b->rtype) ||
	    !sym_eq(a->port, b->port) || !sym_eq(a->rport, b->rport) ||
	    rep(a->req) != rep(b->req) || !str_same(a->root, b->root) ||
	    !sym_eq(a->rootidx, b->rootidx) || !str_same(a->group, b->group) ||
	    !sym_eq(a->groupidx, b->groupidx) || !sym_eq(a->count, b->count) ||
	    !sym_eq(a->var, b->var) || !sym_eq(a->lo, b->lo) ||
	    !sym_eq(a->hi, b->hi) || !sym_eq(a->cond, b->cond) ||
	    a->loc.line != b->loc.line || a->loc.col != b->loc.col ||
	    !str_same(a->loc.file, b->loc.file) ||
	    !list_same(a->body, b->body) || !list_same(a->orelse, b->orelse))
		return 0;
	for (x = a->branches, y = b->branches; x != NULL && y != NULL;
	    x = x->next, y = y->next)
		if (rep(x->req) != rep(y->req) || !list_same(x->body, y->body))
			return 0;
	return x == NULL && y == NULL;
}

static int
list_len(const struct bst *b)
{
	int	n = 0;

	for (; b != NULL; b = b->next)
		n++;
	return n;
}

/* The statement k of list b. */
static struct bst **
list_at(struct bst **b, int k)
{
	while (k-- > 0)
		b = &(*b)->next;
	return b;
}

/* What every block of an if or choice ends with comes after it: *pb is
 * the statement, its blocks in blocks[0..n).  The number moved. */
static int
hoist_suffix(struct bst **pb, struct bst ***blocks, int n)
{
	struct bst	*s = *pb, *tail;
	int		 len[64] = { 0 }, i, k, moved = 0, min;

	if (n > 64)
		return 0;
	for (i = 0; i < n; i++)
		len[i] = list_len(*blocks[i]);
	min = len[0];
	for (i = 1; i < n; i++)
		if (len[i] < min)
			min = len[i];
	for (k = 1; k <= min; k++) {
		for (i = 1; i < n; i++)
			if (!bst_same(*list_at(blocks[0], len[0] - k),
			    *list_at(blocks[i], len[i] - k)))
				break;
		if (i < n)
			break;
		moved = k;
	}
	if (moved == 0)
		return 0;
	/* Cut the common tail off each block; the first's goes after s. */
	tail = *list_at(blocks[0], len[0] - moved);
	for (i = 0; i < n; i++)
		*list_at(blocks[i], len[i] - moved) = NULL;
	*list_at(&tail, moved) = s->next;
	s->next = tail;
	return moved;
}

/* The same for what the blocks of an if begin with: *pb becomes the
 * common head, then the if. */
static int
hoist_prefix(struct bst **pb, struct bst ***blocks, int n)
{
	struct bst	*s = *pb, *head, *last;
	int		 i, k = 0;

	for (;;) {
		for (i = 0; i < n; i++)
			if (*list_at(blocks[i], k) == NULL)
				break;
		if (i < n)
			break;
		for (i = 1; i < n; i++)
			if (!bst_same(*list_at(blocks[0], k), *list_at(blocks[i], k)))
				break;
		if (i < n)
			break;
		k++;
	}
	if (k == 0)
		return 0;
	head = *blocks[0];
	last = *list_at(blocks[0], k - 1);
	for (i = 0; i < n; i++)
		*blocks[i] = *list_at(blocks[i], k);
	*pb = head;
	last->next = s;
	return k;
}

/* Whether b is a statement on port J + c of type T, for J over all T's
 * ports less c, that T[*] says. */
static int
star_stmt(struct arena *a, const struct bst *b, const struct bst *loop)
{
	const struct sym	*d, *lo, *hi;
	int64_t			 c;

	if (b == NULL || b->next != NULL || (b->k != B_SEND && b->k != B_RECV &&
	    b->k != B_ISEND && b->k != B_IRECV) || b->port == NULL)
		return 0;
	if (b->req != NULL && rep(b->req)->used)
		return 0;
	d = sym_bin(a, '-', b->port, loop->var);
	if (!sym_const(d, &c) || sym_uses_var(d, loop->var->v))
		return 0;
	lo = sym_bin(a, '+', loop->lo, d);
	hi = sym_bin(a, '+', loop->hi, d);
	return lo->k == Y_INT && lo->v == 1 && hi->k == Y_PORTS &&
	    strcmp(hi->name, b->type) == 0;
}

static void simplify(struct arena *, struct bst **);

static void
simplify_one(struct arena *a, struct bst **pb)
{
	struct bst	*b = *pb, **blocks[64], *x;
	struct bbranch	*br, *in;
	int64_t		 v;
	int		 n;

	simplify(a, &b->body);
	simplify(a, &b->orelse);
	for (br = b->branches; br != NULL; br = br->next)
		simplify(a, &br->body);
	switch (b->k) {
	case B_FOR:
		if (star_stmt(a, b->body, b)) {
			x = b->body;
			x->port = NULL;
			x->next = b->next;
			*pb = x;
		}
		break;
	case B_LOOP:
		if (b->count != NULL && sym_const(b->count, &v) && v <= 1) {
			/* loop 0 and loop 1: nothing, and its body */
			x = v == 1 ? b->body : NULL;
			if (x == NULL)
				*pb = b->next;
			else {
				*pb = x;
				while (x->next != NULL)
					x = x->next;
				x->next = b->next;
			}
		}
		break;
	case B_IF:
		blocks[0] = &b->body;
		blocks[1] = &b->orelse;
		hoist_suffix(pb, blocks, 2);
		hoist_prefix(pb, blocks, 2);
		break;
	case B_CHOICE:
		/* A choice in the last block of a choice: one choice. */
		for (br = b->branches; br->next != NULL; br = br->next)
			;
		if (br->body != NULL && br->body->next == NULL &&
		    br->body->k == B_CHOICE) {
			in = br->body->branches;
			br->body = in->body;
			br->next = in->next;
		}
		n = 0;
		for (br = b->branches; br != NULL && n < 64; br = br->next)
			blocks[n++] = &br->body;
		hoist_suffix(pb, blocks, n);
		break;
	default:
		break;
	}
	/* An if or a choice with nothing in its blocks is nothing. */
	b = *pb;
	if (b != NULL && (b->k == B_IF || b->k == B_CHOICE) && b->body == NULL &&
	    b->orelse == NULL) {
		for (br = b->branches; br != NULL; br = br->next)
			if (br->body != NULL)
				break;
		if (br == NULL)
			*pb = b->next;
	}
}

static void
simplify(struct arena *a, struct bst **list)
{
	struct bst	*before;

	while (*list != NULL) {
		before = *list;
		simplify_one(a, list);
		if (*list == before)
			list = &(*list)->next;
	}
}

/* ---- names ---- */

struct names {
	const char	**v;
	int		  n;
	int		  cap;
};

static int
names_has(const struct names *ns, const char *s)
{
	int	i;

	for (i = 0; i < ns->n; i++)
		if (strcmp(ns->v[i], s) == 0)
			return 1;
	return 0;
}

static void
names_add(struct names *ns, const char *s)
{
	if (ns->n == ns->cap) {
		ns->cap = ns->cap ? 2 * ns->cap : 16;
		ns->v = xreallocarray(ns->v, (size_t)ns->cap, sizeof(*ns->v));
	}
	ns->v[ns->n++] = s;
}

/* The script language's words, which no name may be: the statements'
 * words, each word of them ("recv" and "any" of "recv any"; stmtword.h),
 * and these. */
static int
reserved(const char *s)
{
	static const char *const w[] = { "application", "scale", "param",
	    "require", "include", "for", "in", "if", "else", "or", "index",
	    "ports", "min", "max", "as", "on", "over", "tag", "default", "host",
	    "exec", "args", "env", "wdir", "arg", "PCG", "Components",
	    "Processes", "Channels", "Groups", "PARALLEL", "SYSTEM", "MPI",
	    "SEQUENTIAL", "COMPONENTS", "BEHAVIOUR", NULL };
	const char	*p;
	size_t		 n = strlen(s), k;
	int		 i;

	for (i = 0; w[i] != NULL; i++)
		if (strcmp(w[i], s) == 0)
			return 1;
	for (i = 0; i < W_COUNT; i++)
		for (p = stmt_words[i];; p += k + 1) {
			k = strcspn(p, " ");
			if (k == n && strncmp(p, s, n) == 0)
				return 1;
			if (p[k] == '\0')
				break;
		}
	return 0;
}

/* A name from base, not taken, not a word of the language. */
static const char *
fresh(struct arena *a, struct names *taken, const char *base)
{
	char	*n;
	int	 k;

	if (base == NULL || base[0] == '\0' || base[0] == '(')
		base = "r";
	if (!names_has(taken, base) && !reserved(base)) {
		names_add(taken, base);
		return base;
	}
	for (k = 2;; k++) {
		xasprintf(&n, "%s%d", base, k);
		if (!names_has(taken, n) && !reserved(n)) {
			const char *s = arena_strdup(a, n);

			free(n);
			names_add(taken, s);
			return s;
		}
		free(n);
	}
}

/* The parameters a sym uses, taken: no 'for' variable hides one. */
static void
sym_params(struct names *taken, const struct sym *s)
{
	if (s == NULL)
		return;
	if (s->k == Y_PARAM && !names_has(taken, s->name))
		names_add(taken, s->name);
	sym_params(taken, s->a);
	sym_params(taken, s->b);
	sym_params(taken, s->c);
}

static void
params_of(struct names *taken, const struct bst *b)
{
	const struct bbranch	*br;

	for (; b != NULL; b = b->next) {
		sym_params(taken, b->port);
		sym_params(taken, b->rport);
		sym_params(taken, b->rootidx);
		sym_params(taken, b->groupidx);
		sym_params(taken, b->count);
		sym_params(taken, b->lo);
		sym_params(taken, b->hi);
		sym_params(taken, b->cond);
		params_of(taken, b->body);
		params_of(taken, b->orelse);
		for (br = b->branches; br != NULL; br = br->next)
			params_of(taken, br->body);
	}
}

/* A 'for' variable's printed name, by its id. */
struct varname {
	int64_t		 id;
	const char	*name;
};

struct namer {
	struct arena	*a;
	struct names	 taken;
	struct varname	*vars;
	int		 nvars;
};

static void
name_all(struct namer *nm, const struct bst *b)
{
	const struct bbranch	*br;
	struct breq		*q;

	for (; b != NULL; b = b->next) {
		if (b->k == B_FOR) {
			nm->vars = xreallocarray(nm->vars, (size_t)nm->nvars + 1,
			    sizeof(*nm->vars));
			nm->vars[nm->nvars].id = b->var->v;
			nm->vars[nm->nvars++].name = fresh(nm->a, &nm->taken,
			    b->var->name);
		}
		if (b->req != NULL && (q = (struct breq *)rep(b->req))->used &&
		    q->name == NULL)
			q->name = fresh(nm->a, &nm->taken, q->base);
		name_all(nm, b->body);
		name_all(nm, b->orelse);
		for (br = b->branches; br != NULL; br = br->next)
			name_all(nm, br->body);
	}
}

/* ---- printing ---- */

struct out {
	struct buf	*b;
	struct namer	*nm;
	struct cloc	*lines;
	int		 nlines, cap;
	struct arena	*a;
};

/* s with each 'for' variable's printed name. */
static const struct sym *
named(struct out *o, const struct sym *s)
{
	int	i;

	for (i = 0; i < o->nm->nvars; i++)
		if (sym_uses_var(s, o->nm->vars[i].id))
			s = sym_subst(o->a, s, o->nm->vars[i].id, sym_leaf(o->a,
			    Y_VAR, o->nm->vars[i].name, o->nm->vars[i].id));
	return s;
}

static void
psym(struct out *o, const struct sym *s)
{
	sym_print(o->b, named(o, s));
}

/* End the line: the place in the code, a comment. */
static void
endline(struct out *o, const struct cloc *l)
{
	struct cloc	none = { NULL, 0, 0 };

	if (l != NULL && l->file != NULL) {
		const char *base = strrchr(l->file, '/');

		buf_printf(o->b, "    # %s:%d", base != NULL ? base + 1 : l->file,
		    l->line);
	}
	buf_addc(o->b, '\n');
	if (o->nlines == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 64;
		o->lines = xreallocarray(o->lines, (size_t)o->cap, sizeof(*o->lines));
	}
	o->lines[o->nlines++] = l != NULL ? *l : none;
}

static void
indent(struct out *o, int depth)
{
	int	i;

	for (i = 0; i < depth; i++)
		buf_adds(o->b, "    ");
}

static void
port(struct out *o, const char *type, const struct sym *p)
{
	buf_printf(o->b, "%s[", type);
	if (p == NULL)
		buf_addc(o->b, '*');
	else
		psym(o, p);
	buf_addc(o->b, ']');
}

/* " as r" when the request is named. */
static void
as(struct out *o, const struct breq *q)
{
	q = rep(q);
	if (q != NULL && q->used)
		buf_printf(o->b, " as %s", q->name);
}

/* The collectives' words: enum bcoll is in the order of the statement
 * words' W_BARRIER to W_GATHERV (runtime/stmtword.h). */
_Static_assert(W_GATHERV - W_BARRIER == BC_GATHERV - BC_BARRIER &&
    W_BCAST - W_BARRIER == BC_BCAST - BC_BARRIER,
    "enum bcoll follows the statement words' collectives");
static const char *const *const colls = stmt_words + W_BARRIER;

/* A statement's words, then its port type where it names one ("recv any"
 * and "recv any T"). */
static void
words(struct out *o, enum stmt_word w, const char *type)
{
	buf_adds(o->b, stmt_words[w]);
	if (type != NULL)
		buf_printf(o->b, " %s", type);
}

static void print_list(struct out *, const struct bst *, int);

/* " {" block "}" (then the caller goes on on that line). */
static void
block(struct out *o, const struct bst *b, int depth)
{
	print_list(o, b, depth + 1);
	indent(o, depth);
	buf_addc(o->b, '}');
}

static void
print_stmt(struct out *o, const struct bst *b, int depth)
{
	const struct bbranch	*br;

	indent(o, depth);
	switch (b->k) {
	case B_SEND:
	case B_RECV:
		words(o, b->k == B_SEND ? W_SEND + b->mode : W_RECV, NULL);
		buf_addc(o->b, ' ');
		port(o, b->type, b->port);
		buf_addc(o->b, ';');
		break;
	case B_RECV_ANY:
		words(o, W_RECV_ANY, b->type);
		buf_addc(o->b, ';');
		break;
	case B_ISEND:
	case B_IRECV:
		words(o, b->k == B_ISEND ? W_ISEND + b->mode : W_IRECV, NULL);
		buf_addc(o->b, ' ');
		port(o, b->type, b->port);
		as(o, b->req);
		buf_addc(o->b, ';');
		break;
	case B_IRECV_ANY:
		words(o, W_IRECV_ANY, b->type);
		as(o, b->req);
		buf_addc(o->b, ';');
		break;
	case B_WAITALL:
		words(o, W_WAITALL, NULL);
		buf_addc(o->b, ';');
		break;
	case B_WAIT:
		words(o, W_WAIT, NULL);
		buf_printf(o->b, " %s;", rep(b->req)->name);
		break;
	case B_TEST:
	case B_IPROBE:
	case B_IPROBE_ANY:
		if (b->k == B_TEST) {
			words(o, W_TEST, NULL);
			buf_printf(o->b, " %s", rep(b->req)->name);
		} else if (b->k == B_IPROBE) {
			words(o, W_IPROBE, NULL);
			buf_addc(o->b, ' ');
			port(o, b->type, b->port);
			as(o, b->req);
		} else {
			words(o, W_IPROBE_ANY, b->type);
			as(o, b->req);
		}
		buf_adds(o->b, " {");
		endline(o, &b->loc);
		print_list(o, b->body, depth + 1);
		indent(o, depth);
		buf_adds(o->b, "} else {");
		endline(o, NULL);
		block(o, b->orelse, depth);
		endline(o, NULL);
		return;
	case B_WAITANY:
	case B_WAITSOME:
		words(o, b->k == B_WAITANY ? W_WAITANY : W_WAITSOME, NULL);
		buf_adds(o->b, " {");
		endline(o, &b->loc);
		for (br = b->branches; br != NULL; br = br->next) {
			indent(o, depth + 1);
			buf_printf(o->b, "on %s {", rep(br->req)->name);
			endline(o, NULL);
			block(o, br->body, depth + 1);
			endline(o, NULL);
		}
		indent(o, depth);
		buf_addc(o->b, '}');
		endline(o, NULL);
		return;
	case B_SENDRECV:
	case B_SENDRECV_REPLACE:
		words(o, b->k == B_SENDRECV ? W_SENDRECV : W_SENDRECV_REPLACE,
		    NULL);
		buf_addc(o->b, ' ');
		port(o, b->type, b->port);
		buf_adds(o->b, ", ");
		port(o, b->rtype, b->rport);
		buf_addc(o->b, ';');
		break;
	case B_PROBE:
		words(o, W_PROBE, NULL);
		buf_addc(o->b, ' ');
		port(o, b->type, b->port);
		as(o, b->req);
		buf_addc(o->b, ';');
		break;
	case B_PROBE_ANY:
		words(o, W_PROBE_ANY, b->type);
		as(o, b->req);
		buf_addc(o->b, ';');
		break;
	case B_RECV_PROBED:
		words(o, W_RECV_PROBED, NULL);
		buf_printf(o->b, " %s;", rep(b->req)->name);
		break;
	case B_COLL:
		buf_adds(o->b, colls[b->coll]);
		if (BC_ROOTED(b->coll)) {
			buf_printf(o->b, " %s", b->root);
			if (b->rootidx != NULL) {
				buf_addc(o->b, '[');
				psym(o, b->rootidx);
				buf_addc(o->b, ']');
			}
		}
		if (b->group != NULL) {
			buf_printf(o->b, " over %s", b->group);
			if (b->groupidx != NULL) {
				buf_addc(o->b, '[');
				psym(o, b->groupidx);
				buf_addc(o->b, ']');
			}
		}
		buf_addc(o->b, ';');
		break;
	case B_LOOP:
	case B_FOR:
		if (b->k == B_FOR) {
			buf_adds(o->b, "for ");
			psym(o, b->var);
			buf_adds(o->b, " in ");
			psym(o, b->lo);
			buf_adds(o->b, "..");
			psym(o, b->hi);
			buf_adds(o->b, " {");
		} else {
			words(o, W_LOOP, NULL);
			if (b->count != NULL) {
				buf_addc(o->b, ' ');
				psym(o, b->count);
			}
			buf_adds(o->b, " {");
		}
		endline(o, &b->loc);
		block(o, b->body, depth);
		endline(o, NULL);
		return;
	case B_IF:
		buf_adds(o->b, "if ");
		psym(o, b->cond);
		buf_adds(o->b, " {");
		endline(o, &b->loc);
		print_list(o, b->body, depth + 1);
		indent(o, depth);
		if (b->orelse == NULL) {
			buf_addc(o->b, '}');
			endline(o, NULL);
			return;
		}
		buf_adds(o->b, "} else {");
		endline(o, NULL);
		block(o, b->orelse, depth);
		endline(o, NULL);
		return;
	case B_CHOICE:
		words(o, W_CHOICE, NULL);
		buf_adds(o->b, " {");
		endline(o, &b->loc);
		for (br = b->branches; br != NULL; br = br->next) {
			print_list(o, br->body, depth + 1);
			indent(o, depth);
			buf_adds(o->b, br->next != NULL ? "} or {" : "}");
			endline(o, NULL);
		}
		return;
	}
	endline(o, &b->loc);
}

static void
print_list(struct out *o, const struct bst *b, int depth)
{
	for (; b != NULL; b = b->next)
		print_stmt(o, b, depth);
}

/* The choices the data make, in the order of the code. */
static void
choices(const struct bst *b, struct infer_note **head, struct arena *a)
{
	const struct bbranch	*br;
	struct infer_note	*n, **t;

	for (; b != NULL; b = b->next) {
		if (b->k == B_CHOICE) {
			for (t = head; *t != NULL; t = &(*t)->next) {
				int	c = strcmp((*t)->loc.file, b->loc.file);

				if (c > 0 || (c == 0 && ((*t)->loc.line > b->loc.line ||
				    ((*t)->loc.line == b->loc.line &&
				    (*t)->loc.col >= b->loc.col))))
					break;
			}
			if (*t == NULL || (*t)->loc.line != b->loc.line ||
			    (*t)->loc.col != b->loc.col ||
			    strcmp((*t)->loc.file, b->loc.file) != 0) {
				n = arena_alloc(a, sizeof(*n));
				n->loc = b->loc;
				n->text = b->why;
				n->next = *t;
				*t = n;
			}
		}
		choices(b->body, head, a);
		choices(b->orelse, head, a);
		for (br = b->branches; br != NULL; br = br->next)
			choices(br->body, head, a);
	}
}

void
infer_text(struct infer *r, struct buf *b, struct cloc **lines, int *nlines)
{
	struct namer		 nm;
	struct out		 o;
	struct infer_note	*n;
	struct arena		*a = r->prog->arena;

	simplify(a, &r->body);
	memset(&nm, 0, sizeof(nm));
	nm.a = a;
	params_of(&nm.taken, r->body);
	name_all(&nm, r->body);
	memset(&o, 0, sizeof(o));
	o.b = b;
	o.nm = &nm;
	o.a = a;
	buf_printf(b, "# The behaviour of %s, as ensemble infer reads it from "
	    "its code.", r->prog->entry != NULL && r->prog->entry->loc.file !=
	    NULL ? r->prog->entry->loc.file : r->component);
	endline(&o, NULL);
	buf_adds(b, "BEHAVIOUR");
	endline(&o, NULL);
	buf_printf(b, "    %s {", r->component);
	endline(&o, NULL);
	print_list(&o, r->body, 2);
	buf_adds(b, "    }");
	endline(&o, NULL);
	r->over = NULL;
	choices(r->body, &r->over, a);
	if (r->over != NULL) {
		buf_adds(b, "# Over-approximated: where the data decide, each "
		    "'choice' may take");
		endline(&o, NULL);
		buf_adds(b, "# any of its ways:");
		endline(&o, NULL);
		for (n = r->over; n != NULL; n = n->next) {
			buf_printf(b, "#   %s:%d: %s", n->loc.file, n->loc.line,
			    n->text != NULL ? n->text : "");
			endline(&o, NULL);
		}
	}
	if (r->raw != NULL) {
		buf_adds(b, "# Raw MPI calls, not ports (not in the behaviour):");
		endline(&o, NULL);
		for (n = r->raw; n != NULL; n = n->next) {
			buf_printf(b, "#   %s:%d: %s", n->loc.file, n->loc.line,
			    n->text);
			endline(&o, NULL);
		}
	}
	if (r->elsewhere != NULL) {
		if (r->prog->lang == LANG_PYTHON) {
			buf_adds(b, "# Not followed: functions of the program's own "
			    "modules, taken to make no");
			endline(&o, NULL);
			buf_adds(b, "# port calls:");
		} else {
			buf_adds(b, "# Not followed: functions of the program's own "
			    "in files not given, taken");
			endline(&o, NULL);
			buf_adds(b, "# to make no port calls (give their sources "
			    "too):");
		}
		endline(&o, NULL);
		for (n = r->elsewhere; n != NULL; n = n->next) {
			buf_printf(b, "#   %s:%d: %s", n->loc.file, n->loc.line,
			    n->text);
			endline(&o, NULL);
		}
	}
	free(nm.taken.v);
	free(nm.vars);
	if (lines != NULL) {
		*lines = o.lines;
		*nlines = o.nlines;
	} else
		free(o.lines);
}
