/* query.c -- the MTF query language: a lexer and a recursive-descent parser
 * to a struct query, its binding to a trace's header, and its evaluation
 * over the trace's events as they stream by (grammar and meaning:
 * query.h).  Messages are paired from their two ends, the send and the
 * receive, as match.h does it: the ends wait until their partner comes,
 * so memory follows the messages in flight, not the trace. */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "match.h"
#include "query.h"
#include "xmalloc.h"

/* ---- lexer ---- */

enum tok {
	T_END, T_WORD, T_NUM, T_LPAREN, T_RPAREN, T_COMMA, T_LBRACK, T_RBRACK,
	T_STAR, T_SEMI, T_DASH, T_DOTS, T_LT, T_LE, T_EQ, T_NE, T_GE, T_GT
};

struct token {
	enum tok	 t;
	const char	*s;		/* in the text */
	size_t		 len;
	size_t		 numlen;	/* T_NUM: the number, before its unit */
	struct query_loc loc;
};

struct lex {
	const char	*text;
	struct token	*v;
	size_t		 n, alloc;
	struct query_err *err;
};

/* Record an error at loc (the first one only). */
static int
qerror(struct query_err *err, const struct query_loc *loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int
qerror(struct query_err *err, const struct query_loc *loc, const char *fmt, ...)
{
	va_list	ap;

	if (err->msg != NULL)
		return -1;
	err->loc = *loc;
	va_start(ap, fmt);
	xvasprintf(&err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

/* Split the text into tokens, each with its place; -1 on a character that
 * starts none. */
static int
lex_all(struct lex *lx)
{
	const char	*p = lx->text, *start;
	int		 line = 1, col = 1;
	struct token	*k;
	struct query_loc loc;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
			if (*p == '\n') {
				line++;
				col = 1;
			} else if (*p == '\t')		/* as diag.c counts */
				col = (col - 1) / 8 * 8 + 9;
			else
				col++;
			p++;
		}
		xgrow(&lx->v, &lx->alloc, lx->n + 1, sizeof(*lx->v));
		k = &lx->v[lx->n];
		memset(k, 0, sizeof(*k));
		start = p;
		k->s = p;
		k->loc.line = line;
		k->loc.col = col;
		if (*p == '\0') {
			k->t = T_END;
			k->loc.last_col = col;
			lx->n++;
			return 0;
		}
		if (isalpha((unsigned char)*p) || *p == '_') {
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			k->t = T_WORD;
		} else if (isdigit((unsigned char)*p)) {
			while (isdigit((unsigned char)*p))
				p++;
			if (p[0] == '.' && isdigit((unsigned char)p[1])) {
				p++;
				while (isdigit((unsigned char)*p))
					p++;
			}
			k->numlen = (size_t)(p - start);
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			k->t = T_NUM;
		} else {
			p++;
			switch (*start) {
			case '(': k->t = T_LPAREN; break;
			case ')': k->t = T_RPAREN; break;
			case ',': k->t = T_COMMA; break;
			case '[': k->t = T_LBRACK; break;
			case ']': k->t = T_RBRACK; break;
			case '*': k->t = T_STAR; break;
			case ';': k->t = T_SEMI; break;
			case '-': k->t = T_DASH; break;
			case '.':
				if (*p != '.')
					goto bad;
				p++;
				k->t = T_DOTS;
				break;
			case '<':
				k->t = T_LT;
				if (*p == '=') {
					p++;
					k->t = T_LE;
				} else if (*p == '>') {
					p++;
					k->t = T_NE;
				}
				break;
			case '>':
				k->t = T_GT;
				if (*p == '=') {
					p++;
					k->t = T_GE;
				}
				break;
			case '=':
				k->t = T_EQ;
				if (*p == '=')
					p++;
				break;
			case '!':
				if (*p != '=')
					goto bad;
				p++;
				k->t = T_NE;
				break;
			default:
				goto bad;
			}
		}
		k->len = (size_t)(p - start);
		k->loc.last_col = col + (int)k->len - 1;
		col += (int)k->len;
		lx->n++;
	}
bad:
	loc.line = line;
	loc.col = loc.last_col = col;
	if (isprint((unsigned char)*start))
		return qerror(lx->err, &loc, "unexpected character '%c'", *start);
	return qerror(lx->err, &loc, "unexpected byte 0x%02x",
	    (unsigned)(unsigned char)*start);
}

/* ---- parser ---- */

struct parser {
	struct token	*v;
	size_t		 i;
	struct query	*q;
	struct query_err *err;
};

/* The token the parser is at. */
static const struct token *
cur(struct parser *ps)
{
	return &ps->v[ps->i];
}

/* Whether the current token is the keyword w (any case). */
static int
iskw(struct parser *ps, const char *w)
{
	const struct token *k = cur(ps);

	return k->t == T_WORD && k->len == strlen(w) &&
	    strncasecmp(k->s, w, k->len) == 0;
}

/* Take the keyword w if it comes next. */
static int
accept_kw(struct parser *ps, const char *w)
{
	if (!iskw(ps, w))
		return 0;
	ps->i++;
	return 1;
}

/* "expected WHAT, not 'TOKEN'" at the current token. */
static int
expected(struct parser *ps, const char *what)
{
	const struct token *k = cur(ps);

	if (k->t == T_END)
		return qerror(ps->err, &k->loc, "expected %s at the end of the query",
		    what);
	return qerror(ps->err, &k->loc, "expected %s, not '%.*s'", what,
	    (int)(k->len > 40 ? 40 : k->len), k->s);
}

/* Take a token of kind t, or say what was expected. */
static int
expect(struct parser *ps, enum tok t, const char *what)
{
	if (cur(ps)->t != t)
		return expected(ps, what);
	ps->i++;
	return 0;
}

/* Take the keyword w, or say it was expected. */
static int
expect_kw(struct parser *ps, const char *w)
{
	char	what[64];

	if (accept_kw(ps, w))
		return 0;
	snprintf(what, sizeof(what), "'%s'", w);
	return expected(ps, what);
}

static const struct {
	const char	*word;
	enum trace_op	 op;
	const char	*noun;
} opnames[] = {
	{ "SEND", TRACE_SEND, "send" },
	{ "RECV", TRACE_RECV, "receive" },
	{ "RECEIVE", TRACE_RECV, "receive" },
	{ "ISEND", TRACE_ISEND, "isend" },
	{ "IRECV", TRACE_IRECV, "irecv" },
	{ "WAIT", TRACE_WAIT, "wait" },
	{ "SENDRECV", TRACE_SENDRECV, "sendrecv" },
	{ "SENDRECVREPLACE", TRACE_SENDRECVREPLACE, "sendrecvreplace" },
	{ "WAITONE", TRACE_WAITONE, "waitone" },
	{ "TEST", TRACE_TEST, "test" },
	{ "TESTFALSE", TRACE_TESTFALSE, "testfalse" },
	{ "WAITANY", TRACE_WAITANY, "waitany" },
	{ "WAITSOME", TRACE_WAITSOME, "waitsome" },
	{ "PROBE", TRACE_PROBE, "probe" },
	{ "IPROBE", TRACE_IPROBE, "iprobe" },
	{ "IPROBEFALSE", TRACE_IPROBEFALSE, "iprobefalse" },
	{ "BARRIER", TRACE_BARRIER, "barrier" },
	{ "BROADCAST", TRACE_BCAST, "broadcast" },
	{ "BCAST", TRACE_BCAST, "broadcast" },
	{ "REDUCE", TRACE_REDUCE, "reduce" },
	{ "ALLREDUCE", TRACE_ALLREDUCE, "allreduce" },
	{ "GATHER", TRACE_GATHER, "gather" },
	{ "ALLGATHER", TRACE_ALLGATHER, "allgather" },
	{ "SCATTER", TRACE_SCATTER, "scatter" },
	{ "ALLTOALL", TRACE_ALLTOALL, "alltoall" },
	{ "ALLGATHERV", TRACE_ALLGATHERV, "allgatherv" },
	{ "GATHERV", TRACE_GATHERV, "gatherv" },
	{ "SCATTERV", TRACE_SCATTERV, "scatterv" },
	{ "ALLTOALLV", TRACE_ALLTOALLV, "alltoallv" },
	{ "REDUCESCATTER", TRACE_REDUCESCATTER, "reducescatter" },
	{ "INIT", TRACE_INIT, "init" },
	{ "FINALIZE", TRACE_FIN, "finalize" },
};

static const struct {
	const char	*word;
	enum query_what	 what;
	const char	*noun;
} whats[] = {
	{ "MESSAGES", QW_MESSAGES, "message" },
	{ "OPERATIONS", QW_OPERATIONS, "operation" },
	{ "POINT_TO_POINT_OPERATIONS", QW_P2P, "point-to-point operation" },
	{ "SEND_OPERATIONS", QW_SENDS, "send operation" },
	{ "RECEIVE_OPERATIONS", QW_RECVS, "receive operation" },
	{ "COLLECTIVE_OPERATIONS", QW_COLLECTIVES, "collective operation" },
};

#define NITEMS(a)	(sizeof(a) / sizeof((a)[0]))

/* what = [ 'ALL' ], ( a kind | an operation's name ) */
static int
parse_what(struct parser *ps)
{
	size_t	i;

	accept_kw(ps, "ALL");
	for (i = 0; i < NITEMS(whats); i++)
		if (accept_kw(ps, whats[i].word)) {
			ps->q->what = whats[i].what;
			ps->q->what_text = whats[i].noun;
			return 0;
		}
	for (i = 0; i < NITEMS(opnames); i++)
		if (accept_kw(ps, opnames[i].word)) {
			ps->q->what = QW_OP;
			ps->q->op = opnames[i].op;
			ps->q->what_text = opnames[i].noun;
			return 0;
		}
	return expected(ps, "what to select (MESSAGES, POINT_TO_POINT_OPERATIONS, "
	    "COLLECTIVE_OPERATIONS, BROADCAST, ...)");
}

/* A whole number of the query in *v; -1 when it is not one. */
static int
parse_long(struct parser *ps, const char *what, long long *v)
{
	const struct token *k = cur(ps);
	char		 buf[32];
	char		*end;

	if (k->t != T_NUM || k->numlen != k->len || k->len >= sizeof(buf) ||
	    memchr(k->s, '.', k->len) != NULL)
		return expected(ps, what);
	memcpy(buf, k->s, k->len);
	buf[k->len] = '\0';
	errno = 0;
	*v = strtoll(buf, &end, 10);
	if (errno != 0 || *end != '\0')
		return qerror(ps->err, &k->loc, "%s '%s' is too large", what, buf);
	ps->i++;
	return 0;
}

/* A rank or an index: 0 .. INT_MAX. */
static int
parse_index(struct parser *ps, const char *what, long *v)
{
	long long	x;
	struct query_loc loc = cur(ps)->loc;

	if (parse_long(ps, what, &x) != 0)
		return -1;
	if (x > 0x7fffffff)
		return qerror(ps->err, &loc, "%s %lld is too large", what, x);
	*v = (long)x;
	return 0;
}

/* Take a range's '-' or '..' if it comes next. */
static int
accept_range(struct parser *ps)
{
	if (cur(ps)->t == T_DASH || cur(ps)->t == T_DOTS) {
		ps->i++;
		return 1;
	}
	return 0;
}

/* item = rank [ range rank ]
 *	| name [ '[' ( index [ range index ] | '*' ) ']' ] */
static int
parse_item(struct parser *ps, struct query_item *it)
{
	const struct token *first = cur(ps);
	struct query_loc loc = first->loc;

	memset(it, 0, sizeof(*it));
	if (first->t == T_NUM) {
		if (parse_index(ps, "a rank", &it->lo) != 0)
			return -1;
		it->hi = it->lo;
		if (accept_range(ps) && parse_index(ps, "a rank", &it->hi) != 0)
			return -1;
	} else if (first->t == T_WORD) {
		it->name = xstrndup(first->s, first->len);
		ps->i++;
		if (cur(ps)->t == T_LBRACK) {
			ps->i++;
			if (cur(ps)->t == T_STAR) {
				ps->i++;
				it->idx = 2;
			} else {
				it->idx = 1;
				if (parse_index(ps, "an index or '*'", &it->lo) != 0)
					return -1;
				it->hi = it->lo;
				if (accept_range(ps) &&
				    parse_index(ps, "an index", &it->hi) != 0)
					return -1;
			}
			if (expect(ps, T_RBRACK, "']'") != 0)
				return -1;
		}
	} else
		return expected(ps, "a process (a rank, or a name as the script's)");
	loc.last_col = ps->v[ps->i - 1].loc.last_col;
	if (ps->v[ps->i - 1].loc.line != loc.line)
		loc.last_col = loc.col;
	it->loc = loc;
	if (it->hi < it->lo)
		return qerror(ps->err, &loc, "empty range %ld-%ld (the first is "
		    "larger)", it->lo, it->hi);
	return 0;
}

/* processes = ( 'PROCESS' | 'PROCESSES' ) '(' item { ',' item } ')'
 *	     | 'ALL' 'PROCESSES' */
static int
parse_processes(struct parser *ps)
{
	struct query	*q = ps->q;
	size_t		 alloc = 0;

	if (accept_kw(ps, "ALL")) {
		if (!accept_kw(ps, "PROCESSES") && !accept_kw(ps, "PROCESS"))
			return expected(ps, "'PROCESSES'");
		return 0;
	}
	if (!accept_kw(ps, "PROCESS") && !accept_kw(ps, "PROCESSES"))
		return expected(ps, "'PROCESS(...)' or 'ALL PROCESSES'");
	if (expect(ps, T_LPAREN, "'('") != 0)
		return -1;
	for (;;) {
		xgrow(&q->items, &alloc, (size_t)q->nitems + 1, sizeof(*q->items));
		if (parse_item(ps, &q->items[q->nitems]) != 0) {
			q->nitems++;
			return -1;
		}
		q->nitems++;
		if (cur(ps)->t == T_RPAREN)
			break;
		if (cur(ps)->t != T_COMMA)
			return expected(ps, "',' or ')'");
		ps->i++;
	}
	ps->i++;
	return 0;
}

/* time = number [ unit ]: in nanoseconds, as the trace counts them. */
static int
parse_time(struct parser *ps, int64_t *t)
{
	const struct token *k = cur(ps);
	char		 buf[64];
	const char	*unit;
	size_t		 ulen;
	double		 scale, x;
	int		 neg = 0;

	/* A '-' right before the number: before time zero, in the inits. */
	if (k->t == T_DASH && ps->v[ps->i + 1].t == T_NUM &&
	    ps->v[ps->i + 1].s == k->s + 1) {
		neg = 1;
		k = &ps->v[++ps->i];
	}
	if (k->t != T_NUM || k->numlen >= sizeof(buf))
		return expected(ps, "a time in seconds");
	memcpy(buf, k->s, k->numlen);
	buf[k->numlen] = '\0';
	unit = k->s + k->numlen;
	ulen = k->len - k->numlen;
	if (ulen == 0 || (ulen == 1 && *unit == 's'))
		scale = 1e9;
	else if (ulen == 2 && strncmp(unit, "ms", 2) == 0)
		scale = 1e6;
	else if (ulen == 2 && strncmp(unit, "us", 2) == 0)
		scale = 1e3;
	else if (ulen == 2 && strncmp(unit, "ns", 2) == 0)
		scale = 1;
	else
		return qerror(ps->err, &k->loc, "unknown unit '%.*s' (s, ms, us "
		    "or ns)", (int)(ulen > 20 ? 20 : ulen), unit);
	x = strtod(buf, NULL) * scale;
	if (x > 9e18)
		return qerror(ps->err, &k->loc, "time '%.*s' is too large",
		    (int)(k->len > 40 ? 40 : k->len), k->s);
	*t = (int64_t)(x + 0.5);	/* x is not negative */
	if (neg)
		*t = -*t;
	ps->i++;
	return 0;
}

/* cond = field cmp integer */
static int
parse_cond(struct parser *ps, struct query_cond *c)
{
	static const enum query_cmp cmps[] = {
		[T_LT] = QC_LT, [T_LE] = QC_LE, [T_EQ] = QC_EQ, [T_NE] = QC_NE,
		[T_GE] = QC_GE, [T_GT] = QC_GT
	};
	enum tok	 t;

	if (accept_kw(ps, "SIZE"))
		c->field = QF_SIZE;
	else if (accept_kw(ps, "TAG"))
		c->field = QF_TAG;
	else if (accept_kw(ps, "COUNT"))
		c->field = QF_COUNT;
	else
		return expected(ps, "'SIZE', 'TAG' or 'COUNT'");
	t = cur(ps)->t;
	if (t < T_LT || t > T_GT)
		return expected(ps, "a comparison (<, <=, =, !=, >=, >)");
	c->cmp = cmps[t];
	ps->i++;
	return parse_long(ps, c->field == QF_SIZE ? "a size in bytes" :
	    c->field == QF_TAG ? "a tag" : "a count", &c->value);
}

/* Say a clause was given twice. */
static int
twice(struct parser *ps, const struct token *k)
{
	return qerror(ps->err, &k->loc, "'%.*s' given twice", (int)k->len, k->s);
}

/* clause, any of them, each at most once. */
static int
parse_clause(struct parser *ps, int *seen)
{
	struct query	*q = ps->q;
	const struct token *k = cur(ps);
	size_t		 alloc = 0;

	if (iskw(ps, "BETWEEN") && ps->v[ps->i + 1].t == T_WORD &&
	    ps->v[ps->i + 1].len == 4 &&
	    strncasecmp(ps->v[ps->i + 1].s, "TIME", 4) == 0) {
		if (q->has_time)
			return twice(ps, &ps->v[ps->i + 1]);
		ps->i += 2;
		q->has_time = 1;
		if (parse_time(ps, &q->t1) != 0 || expect_kw(ps, "AND") != 0 ||
		    parse_time(ps, &q->t2) != 0)
			return -1;
		if (q->t2 < q->t1)
			return qerror(ps->err, &ps->v[ps->i - 1].loc, "the window "
			    "ends before it starts");
		return 0;
	}
	if (iskw(ps, "BETWEEN") || iskw(ps, "AMONG") || iskw(ps, "FOR")) {
		if (*seen & 1)
			return qerror(ps->err, &k->loc, "the processes are "
			    "already given");
		*seen |= 1;
		q->rel = iskw(ps, "FOR") ? QR_FOR : QR_BETWEEN;
		q->rel_loc = k->loc;
		ps->i++;
		return parse_processes(ps);
	}
	if (iskw(ps, "IN")) {
		if (*seen & 2)
			return twice(ps, k);
		*seen |= 2;
		ps->i++;
		if (expect_kw(ps, "COMM") != 0 || expect(ps, T_LPAREN, "'('") != 0)
			return -1;
		k = cur(ps);
		if (k->t != T_WORD && (k->t != T_NUM || k->numlen != k->len))
			return expected(ps, "a communicator (its name, id or Cn)");
		q->comm = xstrndup(k->s, k->len);
		q->comm_loc = k->loc;
		ps->i++;
		/* A group's comm, named as the script names it: rows[2]. */
		if (k->t == T_WORD && cur(ps)->t == T_LBRACK &&
		    ps->v[ps->i + 1].t == T_NUM &&
		    ps->v[ps->i + 1].numlen == ps->v[ps->i + 1].len &&
		    ps->v[ps->i + 2].t == T_RBRACK) {
			free(q->comm);
			xasprintf(&q->comm, "%.*s[%.*s]", (int)k->len, k->s,
			    (int)ps->v[ps->i + 1].len, ps->v[ps->i + 1].s);
			q->comm_loc.last_col = ps->v[ps->i + 2].loc.last_col;
			ps->i += 3;
		}
		return expect(ps, T_RPAREN, "')'");
	}
	if (iskw(ps, "WHERE")) {
		if (*seen & 4)
			return twice(ps, k);
		*seen |= 4;
		ps->i++;
		do {
			xgrow(&q->conds, &alloc, (size_t)q->nconds + 1,
			    sizeof(*q->conds));
			if (parse_cond(ps, &q->conds[q->nconds]) != 0)
				return -1;
			q->nconds++;
		} while (accept_kw(ps, "AND"));
		return 0;
	}
	/* A keyword of a clause, its first word left out. */
	if (iskw(ps, "COMM"))
		return qerror(ps->err, &k->loc, "expected 'IN' before 'COMM'");
	if (iskw(ps, "TIME"))
		return qerror(ps->err, &k->loc, "expected 'BETWEEN' before 'TIME'");
	if (iskw(ps, "PROCESS") || iskw(ps, "PROCESSES"))
		return qerror(ps->err, &k->loc, "expected 'BETWEEN', 'AMONG' or "
		    "'FOR' before '%.*s'", (int)k->len, k->s);
	return expected(ps, "'BETWEEN', 'AMONG', 'FOR', 'IN', 'WHERE' or the end");
}

struct query *
query_parse(const char *text, struct query_err *err)
{
	struct lex	 lx;
	struct parser	 ps;
	struct query	*q;
	int		 seen = 0;

	memset(err, 0, sizeof(*err));
	memset(&lx, 0, sizeof(lx));
	lx.text = text;
	lx.err = err;
	q = xcalloc(1, sizeof(*q));
	q->comm_id = -1;
	if (lex_all(&lx) != 0)
		goto fail;
	memset(&ps, 0, sizeof(ps));
	ps.v = lx.v;
	ps.q = q;
	ps.err = err;
	if (expect_kw(&ps, "SELECT") != 0 || parse_what(&ps) != 0)
		goto fail;
	while (cur(&ps)->t != T_END && cur(&ps)->t != T_SEMI)
		if (parse_clause(&ps, &seen) != 0)
			goto fail;
	if (cur(&ps)->t == T_SEMI)
		ps.i++;
	if (cur(&ps)->t != T_END) {
		expected(&ps, "the end after ';'");
		goto fail;
	}
	free(lx.v);
	return q;
fail:
	free(lx.v);
	query_free(q);
	return NULL;
}

void
query_free(struct query *q)
{
	int	i;

	if (q == NULL)
		return;
	for (i = 0; i < q->nitems; i++)
		free(q->items[i].name);
	free(q->items);
	free(q->comm);
	free(q->conds);
	free(q->sel);
	free(q);
}

void
query_err_free(struct query_err *e)
{
	free(e->msg);
	e->msg = NULL;
}

/* ---- binding ---- */

/* Split a process name "relay[2]" into its base length and index (-1:
 * none). */
static size_t
name_base(const char *name, long *index)
{
	const char	*br = strchr(name, '[');
	char		*end;

	*index = -1;
	if (br == NULL)
		return strlen(name);
	errno = 0;
	*index = strtol(br + 1, &end, 10);
	if (end == br + 1 || strcmp(end, "]") != 0 || errno != 0)
		*index = -1;
	return (size_t)(br - name);
}

/* qsort's order of longs. */
static int
cmp_long(const void *a, const void *b)
{
	long	x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

/* Add an error to the list. */
static void
add_err(struct query_err **errs, int *nerrs, const struct query_loc *loc,
    char *msg)
{
	*errs = xreallocarray(*errs, (size_t)*nerrs + 1, sizeof(**errs));
	(*errs)[*nerrs].loc = *loc;
	(*errs)[*nerrs].msg = msg;
	(*nerrs)++;
}

/* Select the processes of one item; an error when one it names is not in
 * the trace. */
static void
bind_item(struct query *q, const struct query_item *it,
    const struct trace_hdr *h, struct query_err **errs, int *nerrs)
{
	long		*found = NULL, k, want;
	size_t		 nfound = 0, alloc = 0, blen, i;
	int		 r, match;
	char		*msg;

	if (it->name == NULL) {
		if (it->hi >= h->nprocs) {
			xasprintf(&msg, "no rank %ld in the trace (ranks 0 to %d)",
			    it->lo >= h->nprocs ? it->lo : (long)h->nprocs, h->nprocs - 1);
			add_err(errs, nerrs, &it->loc, msg);
			return;
		}
		for (k = it->lo; k <= it->hi; k++)
			q->sel[k] = 1;
		return;
	}
	for (r = 0; r < h->nprocs; r++) {
		const char	*name = h->processes[r].name;

		if (name == NULL)
			continue;
		blen = name_base(name, &k);
		if (blen != strlen(it->name) || strncmp(name, it->name, blen) != 0)
			continue;
		if (it->idx == 0)
			match = 1;
		else
			match = k >= 0 && (it->idx == 2 || (k >= it->lo && k <= it->hi));
		if (!match)
			continue;
		q->sel[r] = 1;
		xgrow(&found, &alloc, nfound + 1, sizeof(*found));
		found[nfound++] = k;
	}
	if (nfound == 0) {
		if (it->idx == 1 && it->lo == it->hi)
			xasprintf(&msg, "no process '%s[%ld]' in the trace", it->name,
			    it->lo);
		else if (it->idx == 1)
			xasprintf(&msg, "no process '%s[%ld]' to '%s[%ld]' in the "
			    "trace", it->name, it->lo, it->name, it->hi);
		else
			xasprintf(&msg, "no process '%s' in the trace", it->name);
		add_err(errs, nerrs, &it->loc, msg);
		free(found);
		return;
	}
	if (it->idx == 1) {
		/* Each index of the range must be there. */
		qsort(found, nfound, sizeof(*found), cmp_long);
		want = it->lo;
		for (i = 0; i < nfound && want <= it->hi; i++)
			if (found[i] == want)
				want++;
		if (want <= it->hi) {
			xasprintf(&msg, "no process '%s[%ld]' in the trace", it->name,
			    want);
			add_err(errs, nerrs, &it->loc, msg);
		}
	}
	free(found);
}

/* Rank r's name in the script, or "rank R" when the trace has none. */
static const char *
rank_name(const struct trace_hdr *h, int r, char *tmp, size_t len)
{
	if (h->processes[r].name != NULL)
		return h->processes[r].name;
	snprintf(tmp, len, "rank %d", r);
	return tmp;
}

char *
query_rank_note(const struct query *q, const struct trace_hdr *h)
{
	const struct query_item	*it;
	struct buf		 b;
	char			 t0[32], t1[32];
	int			 i, n = 0;

	if (q->rel == QR_ANY)
		return NULL;
	buf_init(&b);
	for (i = 0; i < q->nitems; i++) {
		it = &q->items[i];
		if (it->name != NULL || it->lo < 0 || it->hi >= h->nprocs)
			continue;
		buf_adds(&b, n++ > 0 ? ", " : "");
		if (it->lo == it->hi)
			buf_printf(&b, "%ld is %s", it->lo, rank_name(h, (int)it->lo,
			    t0, sizeof(t0)));
		else
			buf_printf(&b, "%ld-%ld are %s to %s", it->lo, it->hi,
			    rank_name(h, (int)it->lo, t0, sizeof(t0)),
			    rank_name(h, (int)it->hi, t1, sizeof(t1)));
	}
	if (n == 0) {
		buf_free(&b);
		return NULL;
	}
	return buf_steal(&b);
}

int
query_bind(struct query *q, const struct trace_hdr *h, struct query_err **errs,
    int *nerrs)
{
	struct buf	 b;
	char		*end, *msg;
	long		 v;
	size_t		 c;
	int		 i;

	*errs = NULL;
	*nerrs = 0;
	q->nranks = h->nprocs;
	free(q->sel);
	q->sel = NULL;
	if (q->rel != QR_ANY && q->items != NULL) {
		q->sel = xcalloc((size_t)h->nprocs + 1, 1);
		for (i = 0; i < q->nitems; i++)
			bind_item(q, &q->items[i], h, errs, nerrs);
	}
	q->comm_id = -1;
	if (q->comm != NULL) {
		/* Its name, its id (index), or Cn: the n-th, from 1. */
		for (c = 0; c < h->ncomms; c++)
			if (h->comms[c].name != NULL &&
			    strcmp(h->comms[c].name, q->comm) == 0)
				break;
		if (c == h->ncomms && isdigit((unsigned char)q->comm[0])) {
			v = strtol(q->comm, &end, 10);
			c = *end == '\0' && v >= 0 && (size_t)v < h->ncomms ?
			    (size_t)v : h->ncomms;
		}
		if (c == h->ncomms && (q->comm[0] == 'C' || q->comm[0] == 'c') &&
		    isdigit((unsigned char)q->comm[1])) {
			v = strtol(q->comm + 1, &end, 10);
			c = *end == '\0' && v >= 1 && (size_t)v <= h->ncomms ?
			    (size_t)v - 1 : h->ncomms;
		}
		if (c < h->ncomms)
			q->comm_id = (int)c;
		else {
			buf_init(&b);
			for (c = 0; c < h->ncomms; c++)
				buf_printf(&b, "%s%s (%zu, C%zu)", c ? ", " : "",
				    h->comms[c].name, c, c + 1);
			xasprintf(&msg, "no communicator '%s' in the trace (it has %s)",
			    q->comm, b.s != NULL ? b.s : "none");
			buf_free(&b);
			add_err(errs, nerrs, &q->comm_loc, msg);
		}
	}
	return *nerrs > 0 ? -1 : 0;
}

/* ---- evaluation ---- */

/* What a query keeps of a message's end besides match.h's: its port and
 * datatype (NULL: none), borrowed from the event while it is taken, its
 * own copies (allocated) while it waits. */
struct qstr {
	const char	*port;
	const char	*dtype;
};

struct run {
	struct query	*q;
	const struct trace_hdr *h;
	FILE		*out;
	struct match	*match;
	unsigned long	 results;
	unsigned long	 unsent, unreceived;
};

/* Whether rank r is among the query's processes (all without any). */
static int
selected(const struct run *rn, int r)
{
	if (rn->q->sel == NULL)
		return 1;
	return r >= 0 && r < rn->q->nranks && rn->q->sel[r];
}

/* Whether v compares to a condition's value as it asks. */
static int
compare(const struct query_cond *c, long long v)
{
	switch (c->cmp) {
	case QC_LT:	return v < c->value;
	case QC_LE:	return v <= c->value;
	case QC_EQ:	return v == c->value;
	case QC_NE:	return v != c->value;
	case QC_GE:	return v >= c->value;
	case QC_GT:	return v > c->value;
	}
	return 0;
}

/* Whether the WHERE conditions hold of a size, tag and count (has_*: the
 * value is known; an unknown one holds no condition). */
static int
conds_hold(const struct query *q, uint64_t size, int has_tag, long tag,
    int has_count, long count)
{
	int	i;

	for (i = 0; i < q->nconds; i++) {
		const struct query_cond *c = &q->conds[i];

		if (c->field == QF_SIZE && !compare(c, (long long)size))
			return 0;
		if (c->field == QF_TAG && (!has_tag || !compare(c, tag)))
			return 0;
		if (c->field == QF_COUNT && (!has_count || !compare(c, count)))
			return 0;
	}
	return 1;
}

/* Whether a time (ns) is in the query's window, if it has one. */
static int
in_window(const struct query *q, int64_t t)
{
	return !q->has_time || (t >= q->t1 && t <= q->t2);
}

/* A time of ns nanoseconds as the trace writes it: seconds, 9 decimals. */
static void
put_time(FILE *f, int64_t ns)
{
	if (ns < 0) {
		fputc('-', f);
		ns = -ns;
	}
	fprintf(f, "%lld.%09lld", (long long)(ns / 1000000000),
	    (long long)(ns % 1000000000));
}

/* The process as results name it: "relay[2](3)". */
static void
put_proc(const struct run *rn, int r)
{
	const char	*name = r >= 0 && r < rn->h->nprocs ?
			    rn->h->processes[r].name : NULL;

	fprintf(rn->out, "%s(%d)", name != NULL ? name : "-", r);
}

/* A peer: a process, '*' for any, '-' for none. */
static void
put_peer(const struct run *rn, int peer)
{
	if (peer == TRACE_ANY)
		fputs("*", rn->out);
	else if (peer < 0)
		fputs("-", rn->out);
	else
		put_proc(rn, peer);
}

/* A communicator's name, NULL when the header has none for it. */
static const char *
comm_name(const struct run *rn, int id)
{
	if (id >= 0 && (size_t)id < rn->h->ncomms)
		return rn->h->comms[id].name;
	return NULL;
}

/* ' comm=NAME' (or its id when it has no name). */
static void
put_comm(const struct run *rn, int id)
{
	const char	*name = comm_name(rn, id);

	if (name != NULL)
		fprintf(rn->out, " comm=%s", name);
	else
		fprintf(rn->out, " comm=%d", id);
}

/* Whether a string field is there (not NULL, not '-'). */
static int
has_str(const char *s)
{
	return s != NULL && strcmp(s, "-") != 0;
}

/* Print one operation's line. */
static void
put_op(struct run *rn, const struct trace_event *e, int recvwait)
{
	FILE		*f = rn->out;

	put_time(f, e->t0ns);
	fputc(' ', f);
	put_time(f, e->t1ns);
	fputc(' ', f);
	put_proc(rn, e->rank);
	fprintf(f, " %s", trace_op_name(e->op));
	if (has_str(e->port))
		fprintf(f, " %s", e->port);
	switch (e->op) {
	case TRACE_SEND:
	case TRACE_ISEND:
		fputs(" -> ", f);
		put_peer(rn, e->peer);
		break;
	case TRACE_RECV:
	case TRACE_IRECV:
		fputs(" <- ", f);
		put_peer(rn, e->peer);
		break;
	case TRACE_WAIT:
	case TRACE_WAITONE:
	case TRACE_TEST:
	case TRACE_WAITANY:
	case TRACE_WAITSOME:
	case TRACE_SENDRECV:
	case TRACE_SENDRECVREPLACE:
		fputs(recvwait ? " <- " : " -> ", f);
		put_peer(rn, e->peer);
		break;
	case TRACE_PROBE:
	case TRACE_IPROBE:
		fputs(" <- ", f);
		put_peer(rn, e->peer);
		break;
	default:
		if (traceline_is_coll(e->op) && e->peer >= 0) {
			fputs(" root=", f);
			put_proc(rn, e->peer);
		}
		break;
	}
	if (e->op != TRACE_INIT && e->op != TRACE_FIN && e->comm >= 0)
		put_comm(rn, e->comm);
	if (e->tag >= 0)
		fprintf(f, " tag=%d", e->tag);
	if (e->seq >= 0)
		fprintf(f, " seq=%ld", e->seq);
	if (e->req >= 0)
		fprintf(f, " req=%ld", e->req);
	if (traceline_is_coll(e->op))
		fprintf(f, " sent=%" PRIu64 " received=%" PRIu64, e->sbytes,
		    e->rbytes);
	else if (e->op == TRACE_SEND || e->op == TRACE_ISEND ||
	    (e->op == TRACE_WAIT && !recvwait && e->sbytes > 0) ||
	    (trace_side(e) == TRACE_SIDE_SEND && e->op != TRACE_WAIT))
		fprintf(f, " bytes=%" PRIu64, e->sbytes);
	else if (e->op == TRACE_RECV || recvwait)
		fprintf(f, " bytes=%" PRIu64, e->rbytes);
	if (e->count >= 0)
		fprintf(f, " count=%ld", e->count);
	if (has_str(e->dtype))
		fprintf(f, " dtype=%s", e->dtype);
	if (e->mode != TRACE_MODE_NONE)
		fprintf(f, " mode=%s", trace_mode_name(e->mode));
	if (e->raw)
		fputs(" raw", f);
	fputc('\n', f);
}

/* An end's port and datatype. */
static const struct qstr *
qstr_of(const struct match_end *e)
{
	return e->data;
}

/* Print a message's line from its ends (either may be NULL, not both). */
static void
put_msg(struct run *rn, const struct match_end *s, const struct match_end *r)
{
	FILE		*f = rn->out;
	const struct match_end *any = s != NULL ? s : r;
	const char	*sport = s != NULL ? qstr_of(s)->port : NULL;
	const char	*rport = r != NULL ? qstr_of(r)->port : NULL;

	if (s != NULL) {
		put_time(f, s->t0ns);
		fputc(' ', f);
	} else
		fputs("- ", f);
	if (r != NULL) {
		put_time(f, r->t1ns);
		fputc(' ', f);
	} else
		fputs("- ", f);
	put_proc(rn, any->from);
	fputs(" -> ", f);
	put_proc(rn, any->to);
	put_comm(rn, any->comm);
	fprintf(f, " tag=%d seq=%ld bytes=%" PRIu64, any->tag, any->seq,
	    any->bytes);
	if (any->count >= 0)
		fprintf(f, " count=%ld", any->count);
	if (qstr_of(any)->dtype != NULL)
		fprintf(f, " dtype=%s", qstr_of(any)->dtype);
	if (sport != NULL || rport != NULL)
		fprintf(f, " ports=%s->%s", sport != NULL ? sport : "?",
		    rport != NULL ? rport : "?");
	if ((s != NULL && s->raw) || (r != NULL && r->raw))
		fputs(" raw", f);
	if (s == NULL)
		fputs(" never sent", f);
	if (r == NULL)
		fputs(" never received", f);
	fputc('\n', f);
}

/* Whether a message (its ends, either may be NULL) is a result. */
static int
msg_selected(const struct run *rn, const struct match_end *s,
    const struct match_end *r)
{
	const struct query *q = rn->q;
	const struct match_end *any = s != NULL ? s : r;

	if (q->comm_id >= 0 && any->comm != q->comm_id)
		return 0;
	if (q->rel == QR_BETWEEN && !(selected(rn, any->from) &&
	    selected(rn, any->to)))
		return 0;
	if (q->rel == QR_FOR && !(selected(rn, any->from) ||
	    selected(rn, any->to)))
		return 0;
	if (q->has_time && !((s != NULL && in_window(q, s->t0ns)) ||
	    (r != NULL && in_window(q, r->t1ns))))
		return 0;
	return conds_hold(q, any->bytes, 1, any->tag, any->count >= 0,
	    any->count);
}

/* Whether an operation is a result. */
static int
op_selected(const struct run *rn, const struct trace_event *e, int recvwait)
{
	const struct query *q = rn->q;
	int		 p2p = e->op >= TRACE_SEND && e->op < TRACE_BARRIER;

	switch (q->what) {
	case QW_OPERATIONS:
		break;
	case QW_P2P:
		if (!p2p)
			return 0;
		break;
	case QW_SENDS:
		if (trace_side(e) != TRACE_SIDE_SEND)
			return 0;
		break;
	case QW_RECVS:
		if (e->op != TRACE_RECV && e->op != TRACE_IRECV &&
		    !recvwait)
			return 0;
		break;
	case QW_COLLECTIVES:
		if (!traceline_is_coll(e->op))
			return 0;
		break;
	case QW_OP:
		if (e->op != q->op)
			return 0;
		break;
	case QW_MESSAGES:
		return 0;
	}
	if (q->comm_id >= 0 && e->comm != q->comm_id)
		return 0;
	if (q->rel != QR_ANY && !selected(rn, e->rank))
		return 0;
	if (q->rel == QR_BETWEEN && p2p && e->peer >= 0 && !selected(rn, e->peer))
		return 0;
	if (!in_window(q, e->t0ns))
		return 0;
	return conds_hold(q, e->sbytes > e->rbytes ? e->sbytes : e->rbytes,
	    e->tag >= 0, e->tag, e->count >= 0, e->count);
}

/* Free the strings of an end that waited. */
static void
qstr_clear(struct qstr *q)
{
	free((char *)q->port);
	free((char *)q->dtype);
}

/* Take an event that may be an end of a message: complete the message
 * with its partner, or keep it. */
static void
take_end(struct run *rn, const struct trace_event *e)
{
	struct match_end mine;
	struct qstr	 str, *kept;
	const struct match_end *other, *s, *r;

	if (!match_end_of(e, &mine))
		return;
	str.port = has_str(e->port) ? e->port : NULL;
	str.dtype = has_str(e->dtype) ? e->dtype : NULL;
	mine.data = &str;
	if ((other = match_take(rn->match, &mine)) == NULL) {
		/* It waits: its strings outlive the event. */
		kept = match_kept_data(rn->match);
		if (kept->port != NULL)
			kept->port = xstrdup(kept->port);
		if (kept->dtype != NULL)
			kept->dtype = xstrdup(kept->dtype);
		return;
	}
	s = mine.side == TRACE_SIDE_SEND ? &mine : other;
	r = mine.side == TRACE_SIDE_SEND ? other : &mine;
	if (msg_selected(rn, s, r)) {
		put_msg(rn, s, r);
		rn->results++;
	}
	qstr_clear(other->data);
}

/* A message half seen at the end of the trace, from the end that came:
 * a result if the query selects it. */
static void
flush_end(void *arg, struct match_end *e)
{
	struct run	*rn = arg;
	const struct match_end *s = e->side == TRACE_SIDE_SEND ? e : NULL;
	const struct match_end *r = s == NULL ? e : NULL;

	if (msg_selected(rn, s, r)) {
		put_msg(rn, s, r);
		rn->results++;
		if (s == NULL)
			rn->unsent++;
		else
			rn->unreceived++;
	}
	qstr_clear(e->data);
}

/* Free the strings of an end left when the trace is bad. */
static void
drop_end(void *arg, struct match_end *e)
{
	(void)arg;
	qstr_clear(e->data);
}

int
query_run(struct query *q, struct trace_reader *tr, FILE *out, char **cause)
{
	struct run	 rn;
	struct trace_event e;
	enum trace_side	 side;
	int		 rc = -1, r, recvwait;

	memset(&rn, 0, sizeof(rn));
	rn.q = q;
	rn.h = trace_header(tr);
	rn.out = out;
	rn.match = match_new(sizeof(struct qstr));
	*cause = NULL;
	trace_rebase(tr);
	while ((r = trace_next(tr, &e, cause)) == 1) {
		side = trace_side(&e);
		/* A receiving side other than a recv: a wait (waitone,
		 * test ...) that completes an irecv, a sendrecv's receive. */
		recvwait = e.op != TRACE_RECV && side == TRACE_SIDE_RECV;
		if (q->what == QW_MESSAGES)
			take_end(&rn, &e);
		else if (op_selected(&rn, &e, recvwait)) {
			put_op(&rn, &e, recvwait);
			rn.results++;
		}
	}
	if (r < 0)
		goto out;
	if (q->what == QW_MESSAGES)
		match_left(rn.match, flush_end, &rn);
	fprintf(out, "%lu %s%s", rn.results, q->what_text,
	    rn.results == 1 ? "" : "s");
	if (rn.unreceived > 0)
		fprintf(out, ", %lu never received", rn.unreceived);
	if (rn.unsent > 0)
		fprintf(out, ", %lu never sent", rn.unsent);
	fputc('\n', out);
	rc = 0;
out:
	if (rc != 0)
		match_left(rn.match, drop_end, NULL);
	match_free(rn.match);
	return rc;
}
