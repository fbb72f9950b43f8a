/* monitor.c -- the protocol monitor: a process's behaviour text (its
 * grammar: monitor.h) compiled to a small program (actions, jumps, splits
 * for 'choice', counted loops), followed as a set of positions, because
 * 'choice' and the end of a loop may go more than one way.  Each port call
 * must match an action one of the positions is at. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor.h"

enum word {
	W_SEND, W_SSEND, W_BSEND, W_ISEND, W_ISSEND, W_IBSEND, W_RECV, W_IRECV,
	W_RECV_ANY, W_IRECV_ANY, W_WAITALL, W_BARRIER, W_ALLREDUCE, W_ALLGATHER,
	W_ALLTOALL, W_ALLGATHERV, W_ALLTOALLV, W_REDUCESCATTER,
	W_BCAST, W_SCATTER, W_REDUCE, W_GATHER, W_SCATTERV, W_GATHERV,	/* root */
	W_COUNT
};

static const char *const words[W_COUNT] = {
	"send", "ssend", "bsend", "isend", "issend", "ibsend", "recv", "irecv",
	"recv any", "irecv any", "waitall", "barrier", "allreduce", "allgather",
	"alltoall", "allgatherv", "alltoallv", "reducescatter", "bcast from",
	"scatter from", "reduce to", "gather to", "scatterv from", "gatherv to"
};

/* The call of each enum mon_op, as messages name it. */
static const char *const calls[] = {
	"ens_send", "ens_ssend", "ens_bsend", "ens_isend", "ens_issend",
	"ens_ibsend", "ens_recv", "ens_irecv", "ens_recv_any", "ens_irecv_any",
	"ens_waitall", "ens_barrier", "ens_bcast", "ens_scatter", "ens_reduce",
	"ens_allreduce", "ens_gather", "ens_allgather", "ens_alltoall",
	"ens_allgatherv", "ens_alltoallv", "ens_reduce_scatter", "ens_scatterv",
	"ens_gatherv", "ens_finalize"
};

enum { I_ACT, I_JMP, I_SPLIT, I_ENTER, I_TEST, I_END };

struct ins {
	int	 kind;
	int	 a, b;		/* JMP: a; SPLIT: a, b; ENTER, TEST: a slot; TEST: b exit */
	long	 count;		/* ENTER: iterations, -1 forever */
	/* I_ACT */
	int	 word;
	char	*type;		/* port type, or recv any's type (NULL: any) */
	int	 port;
	char	*root;
	char	*group;		/* a collective's 'over'; NULL: none */
	int	 loc;		/* index in locs, -1 */
};

struct mon {
	struct ins	*ins;
	int		 nins, ains;
	int		 nslots;
	char		**locs;
	int		 nlocs;
	long		*ready;		/* configurations: pc, then nslots counters */
	int		 nready;
	int		 failed;
	/* while parsing */
	const char	*p;
	int		 nextloc;
	int		 ntypes;
	const char *const *types;
	const int	*nports;
	char		*err;
};

#define CW(m)	(1 + (m)->nslots)	/* longs per configuration */

static int
emit(struct mon *m, int kind)
{
	struct ins	*n;

	if (m->nins == m->ains) {
		int	a = m->ains ? m->ains * 2 : 32;

		if ((n = realloc(m->ins, sizeof(*n) * (size_t)a)) == NULL)
			return -1;
		m->ins = n;
		m->ains = a;
	}
	memset(&m->ins[m->nins], 0, sizeof(m->ins[0]));
	m->ins[m->nins].kind = kind;
	m->ins[m->nins].loc = -1;
	return m->nins++;
}

/* The next token: '{', '}', ';' or a word; its length in *len, 0 at the end. */
static const char *
peek(struct mon *m, size_t *len)
{
	while (*m->p == ' ' || *m->p == '\t' || *m->p == '\n')
		m->p++;
	if (*m->p == '\0') {
		*len = 0;
		return m->p;
	}
	if (strchr("{};", *m->p) != NULL) {
		*len = 1;
		return m->p;
	}
	*len = strcspn(m->p, " \t\n{};");
	return m->p;
}

static int
is(struct mon *m, const char *w)
{
	size_t		 len;
	const char	*t = peek(m, &len);

	return len == strlen(w) && strncmp(t, w, len) == 0;
}

static char *
take(struct mon *m)
{
	size_t		 len;
	const char	*t = peek(m, &len);
	char		*s;

	if (len == 0 || (s = malloc(len + 1)) == NULL)
		return NULL;
	memcpy(s, t, len);
	s[len] = '\0';
	m->p += len;
	return s;
}

static int
fail(struct mon *m, const char *what)
{
	char	near[24];
	size_t	n;

	if (m->err == NULL) {
		n = strcspn(m->p, "\n");
		snprintf(near, sizeof(near), "%.*s", (int)(n > 20 ? 20 : n), m->p);
		if ((m->err = malloc(strlen(what) + sizeof(near) + 32)) != NULL)
			sprintf(m->err, "%s near '%s'", what, near);
	}
	return -1;
}

static int
expect(struct mon *m, const char *w)
{
	char	msg[32];

	if (!is(m, w)) {
		snprintf(msg, sizeof(msg), "expected '%s'", w);
		return fail(m, msg);
	}
	m->p++;
	return 0;
}

static int
type_index(struct mon *m, const char *t, size_t len)
{
	int	i;

	for (i = 0; i < m->ntypes; i++)
		if (strlen(m->types[i]) == len && strncmp(m->types[i], t, len) == 0)
			return i;
	return -1;
}

/* The end of collective pc: an optional 'over' and its group, and ';'. */
static int
over(struct mon *m, int pc)
{
	if (is(m, "over")) {
		m->p += 4;
		if (is(m, ";") || is(m, "{") || is(m, "}") ||
		    (m->ins[pc].group = take(m)) == NULL)
			return fail(m, "expected a group");
	}
	return expect(m, ";");
}

/* An action statement after its word: its operands and ';'. */
static int
action(struct mon *m, int w, int loc)
{
	char	*tok = NULL, *br, *end;
	long	 k, lo, hi;
	int	 t, pc;

	if (w == W_RECV_ANY || w == W_IRECV_ANY) {
		if (!is(m, ";") && (tok = take(m)) == NULL)
			return fail(m, "expected a port type");
		if ((pc = emit(m, I_ACT)) < 0) {
			free(tok);
			return fail(m, "out of memory");
		}
		m->ins[pc].word = w;
		m->ins[pc].type = tok;
		m->ins[pc].loc = loc;
		return expect(m, ";");
	}
	if (w >= W_BCAST) {
		if ((pc = emit(m, I_ACT)) < 0 || (tok = take(m)) == NULL)
			return fail(m, "expected a root process");
		m->ins[pc].word = w;
		m->ins[pc].root = tok;
		m->ins[pc].loc = loc;
		return over(m, pc);
	}
	if (w >= W_WAITALL) {
		if ((pc = emit(m, I_ACT)) < 0)
			return fail(m, "out of memory");
		m->ins[pc].word = w;
		m->ins[pc].loc = loc;
		return w == W_WAITALL ? expect(m, ";") : over(m, pc);
	}
	/* T[k] or T[*]. */
	if ((tok = take(m)) == NULL || (br = strchr(tok, '[')) == NULL ||
	    tok[strlen(tok) - 1] != ']') {
		free(tok);
		return fail(m, "expected a port T[k]");
	}
	if ((t = type_index(m, tok, (size_t)(br - tok))) < 0) {
		free(tok);
		return fail(m, "unknown port type");
	}
	if (strcmp(br, "[*]") == 0) {
		lo = 1;
		hi = m->nports[t];
	} else {
		k = strtol(br + 1, &end, 10);
		if (end == br + 1 || strcmp(end, "]") != 0 || k < 1) {
			free(tok);
			return fail(m, "bad port index");
		}
		lo = hi = k;
	}
	free(tok);
	for (k = lo; k <= hi; k++) {
		if ((pc = emit(m, I_ACT)) < 0)
			return fail(m, "out of memory");
		m->ins[pc].word = w;
		m->ins[pc].type = (char *)m->types[t];	/* borrowed: see ens_mon_free */
		m->ins[pc].port = (int)k;
		m->ins[pc].loc = loc;
	}
	return expect(m, ";");
}

static int statements(struct mon *);

/* Free what an instruction holds. */
static void
ins_free(struct ins *in)
{
	if (in->word == W_RECV_ANY || in->word == W_IRECV_ANY)
		free(in->type);
	free(in->root);
	free(in->group);
}

/* Whether instructions from 'from' on hold an action. */
static int
has_action(const struct mon *m, int from)
{
	int	i;

	for (i = from; i < m->nins; i++)
		if (m->ins[i].kind == I_ACT)
			return 1;
	return 0;
}

/* '{' statements '}' */
static int
block(struct mon *m)
{
	if (expect(m, "{") != 0 || statements(m) != 0)
		return -1;
	return expect(m, "}");
}

/* 'choice' { 'or' block }, after its word; each block but the last may be
 * skipped by a split to the next. */
static int
choice(struct mon *m)
{
	int	*ends = NULL, *ne, nends = 0, aends = 0, split, i, rc = -1;

	for (;;) {
		if ((split = emit(m, I_SPLIT)) < 0) {
			fail(m, "out of memory");
			goto out;
		}
		m->ins[split].a = m->nins;
		if (block(m) != 0)
			goto out;
		if (nends == aends) {
			aends = aends ? 2 * aends : 8;
			if ((ne = realloc(ends, sizeof(*ends) * (size_t)aends)) == NULL) {
				fail(m, "out of memory");
				goto out;
			}
			ends = ne;
		}
		if ((ends[nends++] = emit(m, I_JMP)) < 0) {
			fail(m, "out of memory");
			goto out;
		}
		m->ins[split].b = m->nins;
		if (!is(m, "or"))
			break;
		m->p += 2;
	}
	/* The last branch is not skipped: its split goes one way. */
	m->ins[split].b = m->ins[split].a;
	for (i = 0; i < nends; i++)
		m->ins[ends[i]].a = m->nins;
	rc = 0;
out:
	free(ends);
	return rc;
}

static int
statement(struct mon *m)
{
	int	 loc = m->nextloc++, w, enter, test, jmp, n, first, slots;
	char	*tok, *end;
	long	 count = -1;

	if (is(m, "loop")) {
		m->p += 4;
		if (!is(m, "{")) {
			if ((tok = take(m)) == NULL)
				return fail(m, "expected a count");
			count = strtol(tok, &end, 10);
			n = *end != '\0' || count < 0;
			free(tok);
			if (n)
				return fail(m, "bad loop count");
		}
		first = m->nins;
		slots = m->nslots;
		if ((enter = emit(m, I_ENTER)) < 0 || (test = emit(m, I_TEST)) < 0)
			return fail(m, "out of memory");
		m->ins[enter].a = m->ins[test].a = m->nslots++;
		m->ins[enter].count = m->ins[test].count = count;
		if (block(m) != 0 || (jmp = emit(m, I_JMP)) < 0)
			return -1;
		m->ins[jmp].a = test;
		m->ins[test].b = m->nins;
		/* A counted loop that makes no call (a count of 0, or a body
		 * that 'if' and 'for' left without one) is left out, as the
		 * verifier leaves it out: followed, each of its iterations
		 * would be a position of its own, and 'loop 5000 { }' more
		 * than MON_MAX_CONFIGS. */
		if (count == 0 || (count > 0 && !has_action(m, first))) {
			while (m->nins > first)
				ins_free(&m->ins[--m->nins]);
			m->nslots = slots;
		}
		return 0;
	}
	if (is(m, "choice")) {
		m->p += 6;
		return choice(m);
	}
	for (w = W_COUNT - 1; w >= 0; w--) {
		const char	*sp = strchr(words[w], ' ');

		if (sp == NULL) {
			if (is(m, words[w]))
				break;
			continue;
		}
		/* "recv any", "bcast from": two tokens. */
		{
			const char	*save = m->p;
			size_t		 l1 = (size_t)(sp - words[w]), len;
			const char	*t = peek(m, &len);

			if (len == l1 && strncmp(t, words[w], l1) == 0) {
				m->p += len;
				if (is(m, sp + 1))
					break;
			}
			m->p = save;
		}
	}
	if (w < 0)
		return fail(m, "unknown statement");
	/* m->p is at the word, or at the second of a two-word one. */
	m->p += strchr(words[w], ' ') != NULL ? strlen(strchr(words[w], ' ') + 1) :
	    strlen(words[w]);
	return action(m, w, loc);
}

static int
statements(struct mon *m)
{
	size_t	len;

	for (;;) {
		peek(m, &len);
		if (len == 0 || *m->p == '}')
			return 0;
		if (statement(m) != 0)
			return -1;
	}
}

void
ens_mon_free(struct mon *m)
{
	int	i;

	if (m == NULL)
		return;
	for (i = 0; i < m->nins; i++)
		ins_free(&m->ins[i]);
	for (i = 0; i < m->ntypes; i++)
		free((char *)m->types[i]);
	free((void *)m->types);
	for (i = 0; i < m->nlocs; i++)
		free(m->locs[i]);
	free(m->locs);
	free(m->ins);
	free(m->ready);
	free(m->err);
	free(m);
}

/* Add configuration c to set (n of them, room for max); 1 added, 0 there,
 * -1 full. */
static int
add(const struct mon *m, long *set, int *n, int max, const long *c)
{
	int	i, w = CW(m);

	for (i = 0; i < *n; i++)
		if (memcmp(set + (size_t)i * w, c, sizeof(long) * (size_t)w) == 0)
			return 0;
	if (*n == max)
		return -1;
	memcpy(set + (size_t)(*n)++ * w, c, sizeof(long) * (size_t)w);
	return 1;
}

/* From the configurations in 'from', follow jumps, splits and loops to the
 * actions and ends they reach: m->ready.  0, or -1 when too many. */
static int
closure(struct mon *m, const long *from, int nfrom)
{
	int	 w = CW(m), max = MON_MAX_CONFIGS, nseen = 0, nready = 0, top = 0, i, r;
	long	*seen, *ready, *stack, *c;

	/* c, the configuration followed, lives past the stack's top. */
	seen = malloc(sizeof(long) * (size_t)w * (size_t)max);
	ready = malloc(sizeof(long) * (size_t)w * (size_t)max);
	stack = malloc(sizeof(long) * (size_t)w * (size_t)(max + 2));
	if (seen == NULL || ready == NULL || stack == NULL)
		goto full;
	for (i = 0; i < nfrom; i++)
		memcpy(stack + (size_t)top++ * w, from + (size_t)i * w, sizeof(long) * (size_t)w);
	while (top > 0) {
		c = stack + (size_t)(max + 1) * w;
		memcpy(c, stack + (size_t)--top * w, sizeof(long) * (size_t)w);
		if ((r = add(m, seen, &nseen, max, c)) < 0)
			goto full;
		if (r == 0)
			continue;
		for (;;) {
			struct ins	*in = &m->ins[c[0]];

			if (in->kind == I_ACT || in->kind == I_END) {
				if (add(m, ready, &nready, max, c) < 0)
					goto full;
				break;
			}
			if (in->kind == I_JMP)
				c[0] = in->a;
			else if (in->kind == I_ENTER) {
				c[1 + in->a] = in->count;
				c[0]++;
			} else if (in->kind == I_TEST) {
				if (in->count < 0)
					c[0]++;
				else if (c[1 + in->a] > 0) {
					c[1 + in->a]--;
					c[0]++;
				} else {
					c[1 + in->a] = 0;
					c[0] = in->b;
				}
			} else {	/* I_SPLIT: this way, and push the other */
				if (top >= max)
					goto full;
				memcpy(stack + (size_t)top * w, c, sizeof(long) * (size_t)w);
				stack[(size_t)top++ * w] = in->b;
				c[0] = in->a;
			}
			/* A loop of nothing comes back here: stop at a repeat. */
			if ((r = add(m, seen, &nseen, max, c)) < 0)
				goto full;
			if (r == 0)
				break;
		}
	}
	free(seen);
	free(stack);
	free(m->ready);
	m->ready = ready;
	m->nready = nready;
	return 0;
full:
	free(seen);
	free(ready);
	free(stack);
	return -1;
}

struct mon *
ens_mon_new(const char *behaviour, int nlocs, const char *const *locs, int ntypes,
    const char *const *types, const int *nports, char **cause)
{
	struct mon	*m;
	char		**tv;
	long		*start;
	size_t		 n;
	int		 i, end;

	*cause = NULL;
	if ((m = calloc(1, sizeof(*m))) == NULL)
		return NULL;
	/* Keep the types: actions point at them. */
	if ((tv = calloc((size_t)ntypes + 1, sizeof(*tv))) == NULL)
		goto oom;
	m->types = (const char *const *)tv;
	for (i = 0; i < ntypes; i++) {
		if ((tv[i] = strdup(types[i])) == NULL)
			goto oom;
		m->ntypes++;
	}
	m->nports = nports;
	if (nlocs > 0 && (m->locs = calloc((size_t)nlocs, sizeof(*m->locs))) == NULL)
		goto oom;
	for (i = 0; i < nlocs; i++) {
		if ((m->locs[i] = strdup(locs[i] != NULL ? locs[i] : "-")) == NULL)
			goto oom;
		m->nlocs++;
	}
	m->p = behaviour != NULL ? behaviour : "";
	if (statements(m) != 0 || (peek(m, &n), n != 0 && fail(m, "unexpected '}'")) ||
	    (end = emit(m, I_END)) < 0) {
		*cause = m->err != NULL ? m->err : strdup("out of memory");
		m->err = NULL;
		ens_mon_free(m);
		return NULL;
	}
	(void)end;
	m->nports = NULL;
	if ((start = calloc((size_t)CW(m), sizeof(long))) == NULL)
		goto oom;
	i = closure(m, start, 1);
	free(start);
	if (i != 0) {
		*cause = strdup("the behaviour has too many ways to go at its start");
		ens_mon_free(m);
		return NULL;
	}
	return m;
oom:
	*cause = strdup("out of memory");
	ens_mon_free(m);
	return NULL;
}

/* Whether a call is a collective (it may go over a group). */
static int
is_coll(enum mon_op op)
{
	switch (op) {
	case MON_BARRIER: case MON_BCAST: case MON_SCATTER: case MON_REDUCE:
	case MON_ALLREDUCE: case MON_GATHER: case MON_ALLGATHER:
	case MON_ALLTOALL: case MON_ALLGATHERV: case MON_ALLTOALLV:
	case MON_REDUCE_SCATTER: case MON_SCATTERV: case MON_GATHERV:
		return 1;
	default:
		return 0;
	}
}

/* Whether a collective's group is the one the call names (both none, or
 * the same name). */
static int
same_group(const struct ins *in, const struct mon_event *e)
{
	if (in->group == NULL || e->group == NULL)
		return in->group == e->group;
	return strcmp(in->group, e->group) == 0;
}

static int
matches(const struct ins *in, const struct mon_event *e)
{
	int	w = in->word;

	if (is_coll(e->op) && !same_group(in, e))
		return 0;

	switch (e->op) {
	case MON_SEND:	if (w != W_SEND) return 0; break;
	case MON_SSEND:	if (w != W_SEND && w != W_SSEND) return 0; break;
	case MON_BSEND:	if (w != W_SEND && w != W_BSEND) return 0; break;
	case MON_ISEND:	if (w != W_ISEND) return 0; break;
	case MON_ISSEND: if (w != W_ISEND && w != W_ISSEND) return 0; break;
	case MON_IBSEND: if (w != W_ISEND && w != W_IBSEND) return 0; break;
	case MON_RECV:	if (w != W_RECV) return 0; break;
	case MON_IRECV:	if (w != W_IRECV) return 0; break;
	case MON_RECV_ANY:
	case MON_IRECV_ANY:
		if (w != (e->op == MON_RECV_ANY ? W_RECV_ANY : W_IRECV_ANY))
			return 0;
		if (in->type == NULL || e->type == NULL)
			return in->type == e->type;
		return strcmp(in->type, e->type) == 0;
	case MON_WAITALL:	return w == W_WAITALL;
	case MON_BARRIER:	return w == W_BARRIER;
	case MON_ALLREDUCE:	return w == W_ALLREDUCE;
	case MON_ALLGATHER:	return w == W_ALLGATHER;
	case MON_ALLTOALL:	return w == W_ALLTOALL;
	case MON_ALLGATHERV:	return w == W_ALLGATHERV;
	case MON_ALLTOALLV:	return w == W_ALLTOALLV;
	case MON_REDUCE_SCATTER: return w == W_REDUCESCATTER;
	case MON_BCAST:
	case MON_SCATTER:
	case MON_REDUCE:
	case MON_GATHER:
	case MON_SCATTERV:
	case MON_GATHERV:
		if (w != (e->op == MON_BCAST ? W_BCAST : e->op == MON_SCATTER ?
		    W_SCATTER : e->op == MON_REDUCE ? W_REDUCE : e->op ==
		    MON_GATHER ? W_GATHER : e->op == MON_SCATTERV ? W_SCATTERV :
		    W_GATHERV))
			return 0;
		return e->root != NULL && strcmp(in->root, e->root) == 0;
	case MON_FINALIZE:
		return 0;
	}
	return e->type != NULL && strcmp(in->type, e->type) == 0 && in->port == e->port;
}

/* Append s to the growing string *b (length *n); -1 out of memory. */
static int
cat(char **b, size_t *n, const char *s)
{
	size_t	l = strlen(s);
	char	*nb;

	if ((nb = realloc(*b, *n + l + 1)) == NULL)
		return -1;
	memcpy(nb + *n, s, l + 1);
	*b = nb;
	*n += l;
	return 0;
}

/* "'recv Client[2]' (f:1:2)" for an action: a new string, NULL when
 * memory ran out.  The location is a file name of any length. */
static char *
describe(const struct mon *m, const struct ins *in)
{
	const char	*loc = in->loc >= 0 && in->loc < m->nlocs &&
			    strcmp(m->locs[in->loc], "-") != 0 ? m->locs[in->loc] : NULL;
	char		 what[512], *s;
	size_t		 len, k;

	if (in->word >= W_BCAST)
		snprintf(what, sizeof(what), "%s %s", words[in->word], in->root);
	else if (in->word >= W_WAITALL)
		snprintf(what, sizeof(what), "%s", words[in->word]);
	else if (in->word == W_RECV_ANY || in->word == W_IRECV_ANY)
		snprintf(what, sizeof(what), "%s%s%s", words[in->word],
		    in->type != NULL ? " " : "", in->type != NULL ? in->type : "");
	else
		snprintf(what, sizeof(what), "%s %s[%d]", words[in->word], in->type,
		    in->port);
	if (in->group != NULL && (k = strlen(what)) < sizeof(what))
		snprintf(what + k, sizeof(what) - k, " over %s", in->group);
	len = strlen(what) + (loc != NULL ? strlen(loc) + 5 : 0) + 3;
	if ((s = malloc(len)) == NULL)
		return NULL;
	if (loc != NULL)
		snprintf(s, len, "'%s' (%s)", what, loc);
	else
		snprintf(s, len, "'%s'", what);
	return s;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The message for a call the behaviour does not allow here. */
static char *
refusal(const struct mon *m, const struct mon_event *e)
{
	char	 call[512], *one, **list;
	char	*b = NULL;
	size_t	 n = 0;
	int	 i, k, nl = 0;

	if (e->op == MON_FINALIZE || e->op == MON_WAITALL || e->op == MON_BARRIER ||
	    e->op == MON_ALLREDUCE || e->op == MON_ALLGATHER || e->op == MON_ALLTOALL ||
	    e->op == MON_ALLGATHERV || e->op == MON_ALLTOALLV ||
	    e->op == MON_REDUCE_SCATTER)
		snprintf(call, sizeof(call), "%s", calls[e->op]);
	else if (e->op == MON_BCAST || e->op == MON_SCATTER || e->op == MON_SCATTERV)
		snprintf(call, sizeof(call), "%s from %s", calls[e->op],
		    e->root ? e->root : "?");
	else if (e->op == MON_REDUCE || e->op == MON_GATHER || e->op == MON_GATHERV)
		snprintf(call, sizeof(call), "%s to %s", calls[e->op], e->root ? e->root : "?");
	else if (e->op == MON_RECV_ANY || e->op == MON_IRECV_ANY)
		snprintf(call, sizeof(call), "%s%s%s", calls[e->op], e->type ? " " : "",
		    e->type ? e->type : "");
	else
		snprintf(call, sizeof(call), "%s %s[%d]", calls[e->op],
		    e->type ? e->type : "?", e->port);
	if (is_coll(e->op) && e->group != NULL && (k = (int)strlen(call)) <
	    (int)sizeof(call))
		snprintf(call + k, sizeof(call) - (size_t)k, " over %s", e->group);
	if ((list = calloc((size_t)m->nready + 1, sizeof(*list))) == NULL)
		return NULL;
	for (i = 0; i < m->nready; i++) {
		const struct ins *in = &m->ins[m->ready[(size_t)i * CW(m)]];

		if (in->kind != I_ACT)
			continue;
		if ((one = describe(m, in)) == NULL)
			goto out;
		for (k = 0; k < nl && strcmp(list[k], one) != 0; k++)
			;
		if (k == nl)
			list[nl++] = one;
		else
			free(one);
	}
	qsort(list, (size_t)nl, sizeof(*list), cmp_str);
	if (cat(&b, &n, "'") || cat(&b, &n, call) || cat(&b, &n, "' but behaviour "))
		goto out;
	if (nl == 0 && cat(&b, &n, "has ended"))
		goto out;
	for (i = 0; i < nl; i++)
		if (cat(&b, &n, i == 0 ? "expects " : " or ") || cat(&b, &n, list[i]))
			goto out;
	for (i = 0; i < nl; i++)
		free(list[i]);
	free(list);
	return b;
out:
	for (i = 0; i < nl; i++)
		free(list[i]);
	free(list);
	free(b);
	return NULL;
}

int
ens_mon_step(struct mon *m, const struct mon_event *e, char **msg)
{
	int	 w = CW(m), i, n = 0;
	long	*next;

	*msg = NULL;
	if (m->failed) {
		*msg = strdup("the behaviour was already left");
		return -1;
	}
	if ((next = malloc(sizeof(long) * (size_t)w * (size_t)(m->nready + 1))) == NULL)
		return -1;
	for (i = 0; i < m->nready; i++) {
		const long	*c = m->ready + (size_t)i * w;
		const struct ins *in = &m->ins[c[0]];

		if (e->op == MON_FINALIZE ? in->kind == I_END :
		    in->kind == I_ACT && matches(in, e)) {
			memcpy(next + (size_t)n * w, c, sizeof(long) * (size_t)w);
			if (in->kind == I_ACT)
				next[(size_t)n * w]++;
			n++;
		}
	}
	if (n == 0) {
		free(next);
		m->failed = 1;
		*msg = refusal(m, e);
		return -1;
	}
	if (closure(m, next, n) != 0) {
		free(next);
		m->failed = 1;
		*msg = strdup("the behaviour has more than 4096 ways to go here");
		return -1;
	}
	free(next);
	return 0;
}
