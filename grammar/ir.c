/* ir.c -- the reader of the thesis's CPN intermediate representation
 * (ir.h).  A line format, so a hand-written scanner, not flex and bison:
 * each line is blank, a comment ('#' to the end of the line) or
 * `ID NAME(PARAM=VALUE, ...)` with an optional comment after it.  Every
 * error is reported at its place; ids are resolved once the whole file is
 * read. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "xmalloc.h"

/* The parameters, bits of a mask. */
enum {
	P_PROCESS, P_TO, P_FROM, P_ROOT, P_TAG, P_TYPE, P_NEXT, P_REQUEST, P_OP,
	P_COUNT
};
static const char *const ir_pnames[P_COUNT] = {
	"process", "to", "from", "root", "tag", "type", "next", "request", "op"
};
#define B(p)	(1u << (p))

/* Each operation's name, the parameters it needs and those it may have. */
static const struct {
	const char	*name;
	unsigned	 need;
	unsigned	 may;
} ir_kinds[IR_NKINDS] = {
	{ "MPI_Init", 0, 0 },
	{ "MPI_Finalize", 0, 0 },
#define P2P(n, peer) { n, B(P_PROCESS) | B(peer) | B(P_TYPE) | B(P_TAG) | B(P_NEXT), 0 }
	P2P("MPI_Send", P_TO), P2P("MPI_Bsend", P_TO), P2P("MPI_Ssend", P_TO),
	P2P("MPI_Recv", P_FROM),
	P2P("MPI_Isend", P_TO), P2P("MPI_Ibsend", P_TO), P2P("MPI_Issend", P_TO),
	P2P("MPI_Irecv", P_FROM),
#undef P2P
	{ "MPI_Wait", B(P_PROCESS) | B(P_REQUEST) | B(P_NEXT), 0 },
	{ "MPI_Waitall", B(P_PROCESS) | B(P_NEXT), 0 },
	{ "MPI_Barrier", B(P_PROCESS) | B(P_NEXT), 0 },
#define ROOTED(n) { n, B(P_PROCESS) | B(P_ROOT) | B(P_NEXT), B(P_TYPE) | B(P_OP) }
	ROOTED("MPI_Bcast"), ROOTED("MPI_Scatter"), ROOTED("MPI_Gather"),
	ROOTED("MPI_Reduce"),
#undef ROOTED
	{ "MPI_Allgather", B(P_PROCESS) | B(P_NEXT), B(P_TYPE) },
	{ "MPI_Allreduce", B(P_PROCESS) | B(P_NEXT), B(P_TYPE) | B(P_OP) },
};

const char *
ir_kind_name(enum ir_kind k)
{
	return ir_kinds[k].name;
}

int
ir_is_coll(enum ir_kind k)
{
	return k >= IR_BARRIER && k <= IR_ALLREDUCE;
}

/* A parameter's value as read: an id or integer, or a string. */
struct ir_val {
	int		 set;
	int		 is_id;		/* written 0x... */
	int		 is_str;
	uint64_t	 u;		/* an id */
	int64_t		 i;		/* an integer */
	char		*s;
	struct loc	 loc;		/* the value */
	struct loc	 nloc;		/* the name */
};

/* The reader's state: where it is in the text. */
struct ir_reader {
	struct diag		*d;
	const struct source	*src;
	const char		*p;		/* current character */
	const char		*bol;		/* start of the line */
	int			 line;
	int			 bad;		/* an error on this line */
	int			 noinit;	/* the missing MPI_Init was said */
};

/* The location of text [a, b) on the current line (b > a). */
static struct loc
ir_loc(const struct ir_reader *r, const char *a, const char *b)
{
	struct loc	l;
	int		line = r->line, col = 1;

	diag_advance(&line, &col, r->bol, (size_t)(a - r->bol));
	l.first_line = l.last_line = r->line;
	l.first_column = col;
	if (b <= a)
		b = a + 1;
	diag_advance(&line, &col, a, (size_t)(b - a - 1));
	l.last_column = col;
	l.src = r->src;
	return l;
}

/* Report an error on [a, b) and give up on the line. */
static void
ir_err(struct ir_reader *r, const char *a, const char *b, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void
ir_err(struct ir_reader *r, const char *a, const char *b, const char *fmt, ...)
{
	struct loc	l = ir_loc(r, a, b);
	va_list		ap;

	va_start(ap, fmt);
	diag_vat(r->d, DIAG_ERROR, &l, fmt, ap);
	va_end(ap);
	r->bad = 1;
}

static void
ir_skip_ws(struct ir_reader *r)
{
	while (*r->p == ' ' || *r->p == '\t' || *r->p == '\r')
		r->p++;
}

/* Whether the line ends here (blank or a comment). */
static int
ir_at_eol(struct ir_reader *r)
{
	ir_skip_ws(r);
	return *r->p == '\0' || *r->p == '\n' || *r->p == '#';
}

/* Read a word (letters, digits, '_') at r->p; its end. */
static const char *
ir_word(const char *p)
{
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	return p;
}

/* Read a hexadecimal id "0x..." at r->p into *u; 0 after an error. */
static int
ir_read_id(struct ir_reader *r, uint64_t *u, const char *what)
{
	const char	*a = r->p, *e = ir_word(r->p), *q;
	uint64_t	 v = 0;

	if (a[0] != '0' || (a[1] != 'x' && a[1] != 'X') || e == a + 2) {
		ir_err(r, a, e > a ? e : a + 1, "expected %s (a hexadecimal id "
		    "such as 0x0001), not '%.*s'", what, e > a ? (int)(e - a) : 1,
		    e > a ? a : (*a == '\0' || *a == '\n' ? " " : a));
		return 0;
	}
	for (q = a + 2; q < e; q++) {
		if (!isxdigit((unsigned char)*q)) {
			ir_err(r, a, e, "bad hexadecimal id '%.*s'", (int)(e - a), a);
			return 0;
		}
		if (v >> 60 != 0) {
			ir_err(r, a, e, "id '%.*s' is too large", (int)(e - a), a);
			return 0;
		}
		v = v << 4 | (uint64_t)(isdigit((unsigned char)*q) ? *q - '0' :
		    (tolower((unsigned char)*q) - 'a' + 10));
	}
	*u = v;
	r->p = e;
	return 1;
}

/* Read a value (hex id, quoted string, integer) at r->p into v. */
static int
ir_read_value(struct ir_reader *r, struct ir_val *v)
{
	const char	*a = r->p, *q;
	char		 c = *a;

	if (c == '\'' || c == '"') {
		for (q = a + 1; *q != c && *q != '\0' && *q != '\n'; q++)
			;
		if (*q != c) {
			ir_err(r, a, a + 1, "unterminated string");
			return 0;
		}
		v->is_str = 1;
		v->s = xstrndup(a + 1, (size_t)(q - a - 1));
		r->p = q + 1;
	} else if (c == '0' && (a[1] == 'x' || a[1] == 'X')) {
		if (!ir_read_id(r, &v->u, "a value"))
			return 0;
		v->is_id = 1;
		v->i = v->u > INT64_MAX ? INT64_MAX : (int64_t)v->u;
	} else if (c == '-' || isdigit((unsigned char)c)) {
		char	*end;

		errno = 0;
		v->i = strtoll(a, &end, 10);
		q = ir_word(end);
		if (end == a || (c == '-' && end == a + 1) || q != end) {
			ir_err(r, a, q > a + 1 ? q : a + 1, "bad integer '%.*s'",
			    (int)((q > a + 1 ? q : a + 1) - a), a);
			return 0;
		}
		if (errno == ERANGE) {
			ir_err(r, a, end, "integer '%.*s' out of range",
			    (int)(end - a), a);
			return 0;
		}
		r->p = end;
	} else {
		const char	*e = ir_word(a);

		if (e == a)
			e = a + 1;
		ir_err(r, a, e, "expected a value (an id, a quoted string or an "
		    "integer), not '%.*s'", (int)(e - a),
		    *a == '\0' || *a == '\n' ? " " : a);
		return 0;
	}
	v->loc = ir_loc(r, a, r->p);
	v->set = 1;
	return 1;
}

/* The index of a type string, added when new. */
static int
ir_type(struct ir *ir, const char *s, size_t *alloc)
{
	int	i;

	for (i = 0; i < ir->ntypes; i++)
		if (strcmp(ir->types[i], s) == 0)
			return i;
	xgrow(&ir->types, alloc, (size_t)ir->ntypes + 1, sizeof(*ir->types));
	ir->types[ir->ntypes] = xstrdup(s);
	return ir->ntypes++;
}

/* A parameter's integer in [lo, hi], reported otherwise; -1 on error. */
static int64_t
ir_int(struct ir_reader *r, struct ir_val *v, int p, int64_t lo, int64_t hi)
{
	if (v->is_str || v->is_id) {
		diag_error(r->d, &v->loc, "'%s' needs an integer, not %s",
		    ir_pnames[p], v->is_str ? "a string" : "an id");
		r->bad = 1;
		return -1;
	}
	if (v->i < lo || v->i > hi) {
		if (p == P_TAG)
			diag_error(r->d, &v->loc, "tag %" PRId64 " out of range "
			    "(0 to %" PRId64 ")", v->i, hi);
		else
			diag_error(r->d, &v->loc, "process number %" PRId64 " out "
			    "of range in '%s' (0 to %" PRId64 ")", v->i,
			    ir_pnames[p], hi);
		r->bad = 1;
		return -1;
	}
	return v->i;
}

/* Read one operation's line from r->p (after its id); adds it to ir. */
static void
ir_read_op(struct ir_reader *r, struct ir *ir, uint64_t id, struct loc idloc,
    struct ir_val *vals, uint64_t *nextid, uint64_t *reqid, size_t *talloc)
{
	struct ir_op	 op;
	const char	*a = r->p, *e = ir_word(r->p), *close;
	int		 k, p, first = 1;
	unsigned	 seen = 0, missing;

	memset(&op, 0, sizeof(op));
	if (e == a) {
		ir_err(r, a, a + 1, "expected an operation name after the id");
		return;
	}
	for (k = 0; k < IR_NKINDS; k++)
		if (strlen(ir_kinds[k].name) == (size_t)(e - a) &&
		    strncmp(ir_kinds[k].name, a, (size_t)(e - a)) == 0)
			break;
	if (k == IR_NKINDS) {
		ir_err(r, a, e, "unknown operation '%.*s'", (int)(e - a), a);
		return;
	}
	op.kind = (enum ir_kind)k;
	op.loc = idloc;
	op.nameloc = ir_loc(r, a, e);
	op.id = id;
	r->p = e;
	ir_skip_ws(r);
	if (*r->p != '(') {
		ir_err(r, r->p, r->p + 1, "expected '(' after '%s'",
		    ir_kinds[k].name);
		return;
	}
	r->p++;
	for (;;) {
		struct ir_val	*v;
		const char	*na, *ne;

		ir_skip_ws(r);
		if (*r->p == ')' && first)
			break;
		na = r->p;
		ne = ir_word(na);
		if (ne == na) {
			ir_err(r, na, na + 1, "expected a parameter name");
			return;
		}
		for (p = 0; p < P_COUNT; p++)
			if (strlen(ir_pnames[p]) == (size_t)(ne - na) &&
			    strncmp(ir_pnames[p], na, (size_t)(ne - na)) == 0)
				break;
		if (p == P_COUNT || !((ir_kinds[k].need | ir_kinds[k].may) & B(p))) {
			ir_err(r, na, ne, "unknown parameter '%.*s' of '%s'",
			    (int)(ne - na), na, ir_kinds[k].name);
			return;
		}
		v = &vals[p];
		if (seen & B(p)) {
			ir_err(r, na, ne, "duplicate parameter '%s'", ir_pnames[p]);
			diag_note(r->d, &v->nloc, "first given here");
			return;
		}
		seen |= B(p);
		v->nloc = ir_loc(r, na, ne);
		r->p = ne;
		ir_skip_ws(r);
		if (*r->p != '=') {
			ir_err(r, r->p, r->p + 1, "expected '=' after '%s'",
			    ir_pnames[p]);
			return;
		}
		r->p++;
		ir_skip_ws(r);
		if (!ir_read_value(r, v))
			return;
		ir_skip_ws(r);
		first = 0;
		if (*r->p == ',') {
			r->p++;
			continue;
		}
		if (*r->p == ')')
			break;
		ir_err(r, r->p, r->p + 1, "expected ',' or ')' after the value "
		    "of '%s'", ir_pnames[p]);
		return;
	}
	close = r->p++;
	if (!ir_at_eol(r)) {
		ir_err(r, r->p, r->p + 1, "unexpected text after the operation");
		return;
	}
	if ((missing = ir_kinds[k].need & ~seen) != 0) {
		for (p = 0; !(missing & B(p)); p++)
			;
		ir_err(r, close, close + 1, "missing parameter '%s' of '%s'",
		    ir_pnames[p], ir_kinds[k].name);
		return;
	}
	op.proc = op.peer = op.root = op.type = op.next = op.req = op.slot = -1;
	for (p = 0; p < P_COUNT; p++) {
		struct ir_val	*v = &vals[p];

		if (!(seen & B(p)))
			continue;
		switch (p) {
		case P_PROCESS:
		case P_TO:
		case P_FROM:
		case P_ROOT: {
			int64_t	n = ir_int(r, v, p, 0, IR_MAX_PROCS - 1);

			if (p == P_PROCESS)
				op.proc = (int)n;
			else if (p == P_ROOT) {
				op.root = (int)n;
				op.rootloc = v->loc;
			} else {
				op.peer = (int)n;
				op.peerloc = v->loc;
			}
			break;
		}
		case P_TAG:
			op.tag = ir_int(r, v, p, 0, INT32_MAX);
			break;
		case P_TYPE:
		case P_OP:
			if (!v->is_str) {
				diag_error(r->d, &v->loc, "'%s' needs a quoted "
				    "string", ir_pnames[p]);
				r->bad = 1;
			} else if (p == P_TYPE)
				op.type = ir_type(ir, v->s, talloc);
			break;
		case P_NEXT:
		case P_REQUEST:
			if (!v->is_id) {
				diag_error(r->d, &v->loc, "'%s' needs an id (such "
				    "as 0x0001)", ir_pnames[p]);
				r->bad = 1;
			} else if (p == P_NEXT) {
				*nextid = v->u;
				op.nextloc = v->loc;
			} else {
				*reqid = v->u;
				op.reqloc = v->loc;
			}
			break;
		}
	}
	if (r->bad)
		return;
	if (ir->nops == 0 && (op.kind != IR_INIT || op.id != 0)) {
		/* Said once: every line after it would say it again. */
		if (!r->noinit)
			diag_error(r->d, &op.loc, "the file must start with "
			    "'0x0000 MPI_Init()', not '%s'", ir_kinds[k].name);
		r->noinit = 1;
		r->bad = 1;
		return;
	}
	if (ir->nops == IR_MAX_OPS) {
		diag_error(r->d, &op.loc, "more than %d operations", IR_MAX_OPS);
		r->bad = 1;
		return;
	}
	if (ir->nops > 0 && op.kind == IR_INIT) {
		diag_error(r->d, &op.nameloc, "'MPI_Init' twice: only the first "
		    "line has it");
		r->bad = 1;
		return;
	}
	ir->ops[ir->nops++] = op;
}

/* Find an operation by id (ops sorted by id in order[]); -1 if none. */
static int
ir_find(const struct ir *ir, const int *order, uint64_t id)
{
	int	lo = 0, hi = ir->nops - 1;

	while (lo <= hi) {
		int	mid = lo + (hi - lo) / 2;

		if (ir->ops[order[mid]].id == id)
			return order[mid];
		if (ir->ops[order[mid]].id < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

static const struct ir *ir_sorting;

static int
ir_cmp_id(const void *a, const void *b)
{
	const struct ir_op	*x = &ir_sorting->ops[*(const int *)a];
	const struct ir_op	*y = &ir_sorting->ops[*(const int *)b];

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

struct ir *
ir_parse(struct diag *d, const struct source *src)
{
	struct ir_reader r;
	struct ir	*ir = xcalloc(1, sizeof(*ir));
	uint64_t	*nextid = NULL, *reqid = NULL;
	int		*order = NULL, i, errors = d->errors, nreq[IR_MAX_PROCS];
	size_t		 alloc = 0, talloc = 0, lines = 1;
	const char	*c;

	ir->file = src->name;
	memset(&r, 0, sizeof(r));
	r.d = d;
	r.src = src;
	for (c = src->text; *c != '\0'; c++)
		lines += *c == '\n';
	alloc = lines;
	ir->ops = xcalloc(alloc, sizeof(*ir->ops));
	nextid = xcalloc(alloc, sizeof(*nextid));
	reqid = xcalloc(alloc, sizeof(*reqid));
	r.p = src->text;
	for (r.line = 1; ; r.line++) {
		struct ir_val	 vals[P_COUNT];
		uint64_t	 id;
		struct loc	 idloc;
		const char	*a;
		int		 n = ir->nops;

		r.bol = r.p;
		r.bad = 0;
		memset(vals, 0, sizeof(vals));
		if (!ir_at_eol(&r)) {
			a = r.p;
			if (ir_read_id(&r, &id, "an operation's id")) {
				idloc = ir_loc(&r, a, r.p);
				if (*r.p != ' ' && *r.p != '\t')
					ir_err(&r, r.p, r.p + 1, "expected a space "
					    "after the id");
				else {
					ir_skip_ws(&r);
					nextid[n] = UINT64_MAX;
					reqid[n] = UINT64_MAX;
					ir_read_op(&r, ir, id, idloc, vals,
					    &nextid[n], &reqid[n], &talloc);
				}
			}
			for (i = 0; i < P_COUNT; i++)
				free(vals[i].s);
		}
		while (*r.p != '\0' && *r.p != '\n')
			r.p++;
		if (*r.p == '\0')
			break;
		r.p++;
	}
	if ((size_t)(r.p - src->text) != src->len) {
		struct loc	l = ir_loc(&r, r.p, r.p + 1);

		diag_error(d, &l, "a NUL byte in the file");
	}
	if (d->errors > errors)
		goto fail;
	if (ir->nops == 0) {
		struct loc	l = { 1, 1, 1, 1, src };

		diag_error(d, &l, "the file must start with '0x0000 MPI_Init()', "
		    "and is empty");
		goto fail;
	}

	/* Ids: each once. */
	order = xcalloc((size_t)ir->nops, sizeof(*order));
	for (i = 0; i < ir->nops; i++)
		order[i] = i;
	ir_sorting = ir;
	qsort(order, (size_t)ir->nops, sizeof(*order), ir_cmp_id);
	ir_sorting = NULL;
	for (i = 1; i < ir->nops; i++) {
		const struct ir_op	*x = &ir->ops[order[i - 1]];
		const struct ir_op	*y = &ir->ops[order[i]];

		if (x->id == y->id) {
			diag_error(d, &y->loc, "id '0x%04" PRIx64 "' defined twice",
			    y->id);
			diag_note(d, &x->loc, "first defined here");
		}
	}
	if (d->errors > errors)
		goto fail;

	/* Processes, peers, next and requests. */
	for (i = 0; i < ir->nops; i++)
		if (ir->ops[i].proc + 1 > ir->nprocs)
			ir->nprocs = ir->ops[i].proc + 1;
	memset(nreq, 0, sizeof(nreq));
	for (i = 0; i < ir->nops; i++) {
		struct ir_op	*op = &ir->ops[i];
		int		 n;

		if ((op->peer >= ir->nprocs || op->root >= ir->nprocs)) {
			diag_error(d, op->peer >= ir->nprocs ? &op->peerloc :
			    &op->rootloc, "process number %d out of range "
			    "in '%s': the model has %d process%s (0 to %d)",
			    op->peer >= ir->nprocs ? op->peer : op->root,
			    op->peer >= ir->nprocs ? (op->kind == IR_RECV ||
			    op->kind == IR_IRECV ? "from" : "to") : "root",
			    ir->nprocs, ir->nprocs == 1 ? "" : "es", ir->nprocs - 1);
			continue;
		}
		if (op->kind == IR_INIT || op->kind == IR_FINALIZE)
			continue;
		if (op->kind == IR_SEND || op->kind == IR_ISEND)
			ir->has_standard = 1;
		if (op->kind >= IR_ISEND && op->kind <= IR_IRECV) {
			ir->has_requests = 1;
			if (nreq[op->proc] == IR_MAX_REQS) {
				diag_error(d, &op->nameloc, "process %d has more "
				    "than %d non-blocking operations", op->proc,
				    IR_MAX_REQS);
				continue;
			}
			op->slot = nreq[op->proc]++;
		}
		n = ir_find(ir, order, nextid[i]);
		if (n < 0) {
			diag_error(d, &op->nextloc, "'next' names no operation: "
			    "'0x%04" PRIx64 "'", nextid[i]);
			continue;
		}
		if (ir->ops[n].kind == IR_INIT ||
		    (ir->ops[n].kind != IR_FINALIZE && ir->ops[n].proc != op->proc)) {
			diag_error(d, &op->nextloc, "'next' names '0x%04" PRIx64
			    "', %s", nextid[i], ir->ops[n].kind == IR_INIT ?
			    "MPI_Init" : "an operation of another process");
			diag_note(d, &ir->ops[n].loc, "'0x%04" PRIx64 "' is here",
			    nextid[i]);
			continue;
		}
		op->next = n;
	}
	for (i = 0; i < ir->nops; i++) {
		struct ir_op	*op = &ir->ops[i];
		int		 n;

		if (op->kind != IR_WAIT)
			continue;
		n = ir_find(ir, order, reqid[i]);
		if (n < 0 || ir->ops[n].proc != op->proc ||
		    ir->ops[n].slot < 0) {
			diag_error(d, &op->reqloc, "'request' names %s: "
			    "'0x%04" PRIx64 "'", n < 0 ? "no operation" :
			    "no non-blocking operation of this process",
			    reqid[i]);
			continue;
		}
		op->req = n;
	}
	if (d->errors > errors)
		goto fail;
	ir->first = xcalloc((size_t)ir->nprocs, sizeof(*ir->first));
	for (i = 0; i < ir->nprocs; i++)
		ir->first[i] = -1;
	for (i = 0; i < ir->nops; i++)
		if (ir->ops[i].proc >= 0 && ir->first[ir->ops[i].proc] < 0)
			ir->first[ir->ops[i].proc] = i;
	for (i = 0; i < ir->nprocs; i++)
		if (ir->first[i] < 0) {
			diag_error(d, &ir->ops[0].loc, "process %d has no "
			    "operation (the model has %d processes: the largest "
			    "'process' + 1)", i, ir->nprocs);
			break;
		}
	if (ir->nprocs == 0) {
		diag_error(d, &ir->ops[0].loc, "no process: no operation names "
		    "a 'process'");
	}
	if (d->errors > errors)
		goto fail;
	free(order);
	free(nextid);
	free(reqid);
	return ir;
fail:
	free(order);
	free(nextid);
	free(reqid);
	ir_free(ir);
	return NULL;
}

void
ir_free(struct ir *ir)
{
	int	i;

	if (ir == NULL)
		return;
	for (i = 0; i < ir->ntypes; i++)
		free(ir->types[i]);
	free(ir->types);
	free(ir->ops);
	free(ir->first);
	free(ir);
}
