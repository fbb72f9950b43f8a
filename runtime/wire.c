/* wire.c -- writing and reading what wire.h defines: port tables, their
 * bundle and the appfile's tokens.  libc only, and no xmalloc: it is
 * linked into libensemble (which says "out of memory" itself) as well as
 * into 'ensemble run' and the trampoline. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "percent.h"
#include "wire.h"

/* Make room for n more bytes; -1 when out of memory. */
static int
wire_reserve(struct wire_buf *b, size_t n)
{
	char	*np;
	size_t	 cap;

	if (b->len + n <= b->cap)
		return 0;
	for (cap = b->cap ? b->cap : 256; cap < b->len + n; cap *= 2)
		;
	if ((np = realloc(b->p, cap)) == NULL)
		return -1;
	b->p = np;
	b->cap = cap;
	return 0;
}

int
wire_put_bytes(struct wire_buf *b, const void *s, size_t n)
{
	if (wire_reserve(b, n) != 0)
		return -1;
	if (n > 0)
		memcpy(b->p + b->len, s, n);
	b->len += n;
	return 0;
}

int
wire_put_int(struct wire_buf *b, int32_t v)
{
	return wire_put_bytes(b, &v, sizeof(v));
}

int
wire_put_int64(struct wire_buf *b, uint64_t v)
{
	return wire_put_bytes(b, &v, sizeof(v));
}

int
wire_put_str(struct wire_buf *b, const char *s)
{
	size_t	n = s != NULL ? strlen(s) : 0;

	if (n > INT32_MAX || wire_reserve(b, sizeof(int32_t) + n) != 0)
		return -1;
	wire_put_int(b, (int32_t)n);
	return wire_put_bytes(b, s, n);
}

/* Take the next n bytes of in into p (zeroes once bad). */
static void
wire_get_bytes(struct wire_in *in, void *p, size_t n)
{
	if (in->bad || in->len - in->off < n) {
		in->bad = 1;
		memset(p, 0, n);
		return;
	}
	memcpy(p, in->p + in->off, n);
	in->off += n;
}

int32_t
wire_get_int(struct wire_in *in)
{
	int32_t	v;

	wire_get_bytes(in, &v, sizeof(v));
	return v;
}

uint64_t
wire_get_int64(struct wire_in *in)
{
	uint64_t	v;

	wire_get_bytes(in, &v, sizeof(v));
	return v;
}

char *
wire_get_str(struct wire_in *in)
{
	int32_t	 n = wire_get_int(in);
	char	*s;

	if (in->bad || n < 0 || (size_t)n > in->len - in->off ||
	    (s = malloc((size_t)n + 1)) == NULL) {
		in->bad = 1;
		return NULL;
	}
	memcpy(s, in->p + in->off, (size_t)n);
	s[n] = '\0';
	in->off += (size_t)n;
	return s;
}

int
wire_table_put(struct wire_buf *b, const struct wire_table *t)
{
	int	i, k, fail = 0;

	fail |= wire_put_int(b, WIRE_MAGIC);
	fail |= wire_put_int(b, t->rank);
	fail |= wire_put_int(b, t->nprocs);
	fail |= wire_put_int(b, t->flags);
	fail |= wire_put_str(b, t->name);
	fail |= wire_put_str(b, t->component);
	fail |= wire_put_int(b, t->indexed);
	fail |= wire_put_int(b, t->index);
	fail |= wire_put_int(b, t->ntypes);
	for (i = 0; i < t->ntypes; i++) {
		fail |= wire_put_str(b, t->types[i].name);
		fail |= wire_put_int(b, t->types[i].n);
		for (k = 0; k < t->types[i].n; k++) {
			fail |= wire_put_int(b, t->types[i].ports[k].rank);
			fail |= wire_put_int(b, t->types[i].ports[k].tag);
			fail |= wire_put_int(b, t->types[i].ports[k].rtag);
		}
	}
	fail |= wire_put_int(b, t->nparams);
	for (i = 0; i < t->nparams; i++) {
		fail |= wire_put_str(b, t->pnames[i]);
		fail |= wire_put_str(b, t->pvalues[i]);
	}
	fail |= wire_put_int(b, t->nargs);
	for (i = 0; i < t->nargs; i++)
		fail |= wire_put_str(b, t->args[i]);
	fail |= wire_put_int(b, t->nruns);
	for (i = 0; i < t->nruns; i++) {
		fail |= wire_put_str(b, t->runs[i].comp);
		fail |= wire_put_int(b, t->runs[i].indexed);
		fail |= wire_put_int(b, t->runs[i].rank);
		fail |= wire_put_int(b, t->runs[i].index);
		fail |= wire_put_int(b, t->runs[i].count);
	}
	fail |= wire_put_int(b, t->ngroups);
	for (i = 0; i < t->ngroups; i++) {
		const struct wire_group	*g = &t->groups[i];

		fail |= wire_put_int(b, g->id);
		fail |= wire_put_str(b, g->name);
		fail |= wire_put_int(b, g->indexed);
		fail |= wire_put_int(b, g->index);
		fail |= wire_put_int(b, g->rank);
		fail |= wire_put_int(b, g->size);
		fail |= wire_put_int(b, g->nruns);
		for (k = 0; k < g->nruns; k++) {
			fail |= wire_put_int(b, g->runs[k].first);
			fail |= wire_put_int(b, g->runs[k].count);
			fail |= wire_put_int(b, g->runs[k].step);
		}
	}
	fail |= wire_put_int(b, t->ngnames);
	for (i = 0; i < t->ngnames; i++)
		fail |= wire_put_str(b, t->gnames[i]);
	fail |= wire_put_str(b, t->behaviour);
	fail |= wire_put_int(b, t->nlocs);
	for (i = 0; i < t->nlocs; i++)
		fail |= wire_put_str(b, t->locs[i]);
	if (t->flags & WIRE_TRACE) {
		fail |= wire_put_str(b, t->origin);
		fail |= wire_put_str(b, t->tracedir);
	}
	return fail ? -1 : 0;
}

/* A count read from a table: 0 <= n <= max, else the table is bad. */
static int32_t
wire_get_count(struct wire_in *in, int32_t max)
{
	int32_t	n = wire_get_int(in);

	if (n < 0 || n > max)
		in->bad = 1;
	return in->bad ? 0 : n;
}

/* A 0/1 flag read from a table; anything else makes it bad (a table read
 * writes back to the same bytes). */
static int32_t
wire_get_flag(struct wire_in *in)
{
	int32_t	v = wire_get_int(in);

	if (v != 0 && v != 1)
		in->bad = 1;
	return in->bad ? 0 : v;
}

/* A new zeroed array of n + 1 elements of size sz; NULL (and bad) when
 * memory ran out. */
static void *
wire_array(struct wire_in *in, int32_t n, size_t sz)
{
	void	*a;

	if (in->bad)
		return NULL;
	if ((a = calloc((size_t)n + 1, sz)) == NULL)
		in->bad = 1;
	return a;
}

/* Read n strings into a new array *out; the count read. */
static int32_t
wire_get_strs(struct wire_in *in, int32_t n, char ***out)
{
	int32_t	i;

	if ((*out = wire_array(in, n, sizeof(char *))) == NULL)
		return 0;
	for (i = 0; i < n && !in->bad; i++)
		(*out)[i] = wire_get_str(in);
	return i;
}

/* Read the groups of a table (wire.h): each group's members are its
 * size, its rank one of them, the ids rising; its runs' ranks those of
 * the table's processes. */
static void
wire_get_groups(struct wire_in *in, struct wire_table *t)
{
	struct wire_group	*g;
	struct wire_grun	*r;
	int64_t			 last;
	int32_t			 i, k, n, members;

	n = wire_get_count(in, 1 << 24);
	if ((t->groups = wire_array(in, n, sizeof(*t->groups))) == NULL)
		return;
	for (i = 0; i < n && !in->bad; i++) {
		g = &t->groups[t->ngroups++];
		g->id = wire_get_int(in);
		g->name = wire_get_str(in);
		g->indexed = wire_get_flag(in);
		g->index = wire_get_int(in);
		g->rank = wire_get_int(in);
		g->size = wire_get_count(in, t->nprocs < 1 << 24 ? t->nprocs :
		    1 << 24);
		g->nruns = wire_get_count(in, g->size);
		if ((g->runs = wire_array(in, g->nruns, sizeof(*g->runs))) == NULL)
			return;
		for (members = 0, k = 0; k < g->nruns && !in->bad; k++) {
			r = &g->runs[k];
			r->first = wire_get_int(in);
			r->count = wire_get_count(in, g->size - members);
			r->step = wire_get_int(in);
			last = (int64_t)r->first + (int64_t)(r->count - 1) * r->step;
			if (r->count < 1 || r->first < 0 || r->first >= t->nprocs ||
			    last < 0 || last >= t->nprocs)
				in->bad = 1;
			members += r->count;
		}
		if (members != g->size || g->rank < 0 || g->rank >= g->size ||
		    g->id < 0 ||
		    (i > 0 && g->id <= t->groups[i - 1].id))
			in->bad = 1;
	}
}

int
wire_table_get(struct wire_table *t, const char *p, size_t len)
{
	struct wire_in	 in = { p, len, 0, 0 };
	int32_t		 i, k, n;

	memset(t, 0, sizeof(*t));
	if (wire_get_int(&in) != WIRE_MAGIC)
		return -1;
	t->rank = wire_get_int(&in);
	t->nprocs = wire_get_int(&in);
	t->flags = wire_get_int(&in);
	t->name = wire_get_str(&in);
	t->component = wire_get_str(&in);
	t->indexed = wire_get_flag(&in);
	t->index = wire_get_int(&in);
	n = wire_get_count(&in, 1 << 16);
	if ((t->types = wire_array(&in, n, sizeof(*t->types))) != NULL)
		for (i = 0; i < n && !in.bad; i++) {
			struct wire_type	*ty = &t->types[t->ntypes++];

			ty->name = wire_get_str(&in);
			ty->n = wire_get_count(&in, 1 << 24);
			if ((ty->ports = wire_array(&in, ty->n,
			    sizeof(*ty->ports))) == NULL)
				break;
			for (k = 0; k < ty->n; k++) {
				ty->ports[k].rank = wire_get_int(&in);
				ty->ports[k].tag = wire_get_int(&in);
				ty->ports[k].rtag = wire_get_int(&in);
			}
		}
	n = wire_get_count(&in, 1 << 16);
	if ((t->pnames = wire_array(&in, n, sizeof(char *))) != NULL &&
	    (t->pvalues = wire_array(&in, n, sizeof(char *))) != NULL)
		for (i = 0; i < n && !in.bad; i++) {
			t->pnames[t->nparams] = wire_get_str(&in);
			t->pvalues[t->nparams++] = wire_get_str(&in);
		}
	t->nargs = wire_get_strs(&in, wire_get_count(&in, 1 << 20), &t->args);
	n = wire_get_count(&in, 1 << 24);
	if ((t->runs = wire_array(&in, n, sizeof(*t->runs))) != NULL)
		for (i = 0; i < n && !in.bad; i++) {
			struct wire_run	*r = &t->runs[t->nruns++];

			r->comp = wire_get_str(&in);
			r->indexed = wire_get_flag(&in);
			r->rank = wire_get_int(&in);
			r->index = wire_get_int(&in);
			r->count = wire_get_int(&in);
		}
	wire_get_groups(&in, t);
	t->ngnames = wire_get_strs(&in, wire_get_count(&in, 1 << 24), &t->gnames);
	t->behaviour = wire_get_str(&in);
	t->nlocs = wire_get_strs(&in, wire_get_count(&in, 1 << 24), &t->locs);
	if (!in.bad && (t->flags & WIRE_TRACE)) {
		t->origin = wire_get_str(&in);
		t->tracedir = wire_get_str(&in);
	}
	return in.bad || in.off != in.len ? -1 : 0;
}

void
wire_table_clear(struct wire_table *t)
{
	int32_t	i;

	for (i = 0; i < t->ntypes; i++) {
		free(t->types[i].name);
		free(t->types[i].ports);
	}
	free(t->types);
	for (i = 0; i < t->nparams; i++) {
		free(t->pnames[i]);
		free(t->pvalues[i]);
	}
	free(t->pnames);
	free(t->pvalues);
	for (i = 0; i < t->nargs; i++)
		free(t->args[i]);
	free(t->args);
	for (i = 0; i < t->nruns; i++)
		free(t->runs[i].comp);
	free(t->runs);
	for (i = 0; i < t->ngroups; i++) {
		free(t->groups[i].name);
		free(t->groups[i].runs);
	}
	free(t->groups);
	for (i = 0; i < t->ngnames; i++)
		free(t->gnames[i]);
	free(t->gnames);
	for (i = 0; i < t->nlocs; i++)
		free(t->locs[i]);
	free(t->locs);
	free(t->name);
	free(t->component);
	free(t->behaviour);
	free(t->origin);
	free(t->tracedir);
	memset(t, 0, sizeof(*t));
}

int
wire_bundle_put(struct wire_buf *b, const struct wire_buf *tables, int n)
{
	uint64_t	rest = 0;
	int		i, fail = 0;

	for (i = 0; i < n; i++)
		rest += sizeof(int32_t) + tables[i].len;
	fail |= wire_put_int(b, WIRE_BUNDLE_MAGIC);
	fail |= wire_put_int(b, n);
	fail |= wire_put_int64(b, rest);
	for (i = 0; i < n && !fail; i++) {
		if (tables[i].len > INT32_MAX)
			return -1;
		fail |= wire_put_int(b, (int32_t)tables[i].len);
		fail |= wire_put_bytes(b, tables[i].p, tables[i].len);
	}
	return fail ? -1 : 0;
}

int64_t
wire_bundle_rest(const char *head)
{
	struct wire_in	in = { head, WIRE_BUNDLE_HEAD, 0, 0 };
	uint64_t	rest;

	if (wire_get_int(&in) != WIRE_BUNDLE_MAGIC || wire_get_int(&in) < 0)
		return -1;
	rest = wire_get_int64(&in);
	return in.bad || rest > INT64_MAX ? -1 : (int64_t)rest;
}

int
wire_bundle_split(const char *p, size_t len, int n, int *offs, int *lens)
{
	struct wire_in	in = { p, len, 0, 0 };
	int32_t		k;
	int		i;

	if (wire_get_int(&in) != WIRE_BUNDLE_MAGIC || wire_get_int(&in) != n ||
	    wire_get_int64(&in) != len - WIRE_BUNDLE_HEAD || in.bad)
		return -1;
	for (i = 0; i < n; i++) {
		k = wire_get_int(&in);
		if (in.bad || k < 0 || (size_t)k > in.len - in.off ||
		    in.off > INT32_MAX - (size_t)k)
			return -1;
		offs[i] = (int)in.off;
		lens[i] = k;
		in.off += (size_t)k;
	}
	return in.off == in.len ? 0 : -1;
}

/* The markers' words by enum wire_mark, and whether an argument follows. */
static const struct {
	const char	*word;
	int		 arg;
} wire_marks[] = {
	[WIRE_MARK_INIT] = { WIRE_WORD_INIT, 0 },
	[WIRE_MARK_HELLO] = { WIRE_WORD_HELLO, 1 },
	[WIRE_MARK_FAIL] = { WIRE_WORD_FAIL, 1 },
	[WIRE_MARK_SIGNAL] = { WIRE_WORD_SIGNAL, 1 },
	[WIRE_MARK_EXIT] = { WIRE_WORD_EXIT, 0 },
	[WIRE_MARK_FINALIZE] = { WIRE_WORD_FINALIZE, 0 },
	[WIRE_MARK_STATE] = { WIRE_WORD_STATE, 1 },
	[WIRE_MARK_START] = { WIRE_WORD_START, 1 },
	[WIRE_MARK_END] = { WIRE_WORD_END, 1 },
	[WIRE_MARK_CANNOT] = { WIRE_WORD_CANNOT, 1 },
	[WIRE_MARK_BLOCKED] = { WIRE_WORD_BLOCKED, 1 },
	[WIRE_MARK_UNBLOCKED] = { WIRE_WORD_UNBLOCKED, 1 },
	[WIRE_MARK_WORLD] = { WIRE_WORD_WORLD, 1 },
};

/* Which marker the text m is, by its first word (wire.h). */
enum wire_mark
wire_mark_parse(const char *m, const char **arg)
{
	size_t	n;
	int	i;

	*arg = "";
	for (i = 0; i < WIRE_MARK_UNKNOWN; i++) {
		n = strlen(wire_marks[i].word);
		if (strncmp(m, wire_marks[i].word, n) != 0)
			continue;
		if (!wire_marks[i].arg && m[n] == '\0') {
			*arg = m + n;
			return (enum wire_mark)i;
		}
		if (wire_marks[i].arg && m[n] == ' ') {
			*arg = m + n + 1;
			return (enum wire_mark)i;
		}
	}
	return WIRE_MARK_UNKNOWN;
}

enum wire_mark
wire_end_parse(const char *arg, size_t *hostlen, int *n)
{
	const char	*e = arg + strcspn(arg, " "), *w, *num;
	enum wire_mark	 k;
	char		*end;
	long		 v;

	*hostlen = (size_t)(e - arg);
	*n = 0;
	if (*e != ' ')
		return WIRE_MARK_UNKNOWN;
	w = e + 1;
	if (strncmp(w, WIRE_WORD_EXIT " ", strlen(WIRE_WORD_EXIT " ")) == 0) {
		k = WIRE_MARK_EXIT;
		num = w + strlen(WIRE_WORD_EXIT " ");
	} else if (strncmp(w, WIRE_WORD_SIGNAL " ",
	    strlen(WIRE_WORD_SIGNAL " ")) == 0) {
		k = WIRE_MARK_SIGNAL;
		num = w + strlen(WIRE_WORD_SIGNAL " ");
	} else
		return WIRE_MARK_UNKNOWN;
	if (*num < '0' || *num > '9')
		return WIRE_MARK_UNKNOWN;
	errno = 0;
	v = strtol(num, &end, 10);
	if (errno != 0 || *end != '\0' || v > 255)
		return WIRE_MARK_UNKNOWN;
	*n = (int)v;
	return k;
}

int
wire_end_put(char *out, size_t size, const char *host, int exit_status,
    int signal)
{
	return signal > 0 ?
	    snprintf(out, size, "%s " WIRE_WORD_SIGNAL " %d", host, signal) :
	    snprintf(out, size, "%s " WIRE_WORD_EXIT " %d", host, exit_status);
}

/* Whether byte c, written after the byte last, is written as %XX in a
 * token. */
static int
wire_token_escaped(unsigned char c, unsigned char last)
{
	return c <= ' ' || c >= 0x7f || c == '%' || c == '#' ||
	    (c == '/' && last == '/');
}

int
wire_token_put(struct wire_buf *b, const char *s)
{
	const unsigned char	*u = (const unsigned char *)s;
	unsigned char		 last = 0;
	char			 esc[3];

	if (*u == '\0')
		return wire_put_bytes(b, "%00", 3);
	for (; *u != '\0'; u++) {
		if (!wire_token_escaped(*u, last)) {
			if (wire_put_bytes(b, u, 1) != 0)
				return -1;
			last = *u;
			continue;
		}
		percent_put(esc, *u);
		if (wire_put_bytes(b, esc, sizeof(esc)) != 0)
			return -1;
		last = (unsigned char)esc[2];
	}
	return 0;
}

char *
wire_token_get(const char *tok)
{
	char	*s, *o;
	int	 c;

	if (strcmp(tok, "%00") == 0)
		return strdup("");
	if ((s = o = malloc(strlen(tok) + 1)) == NULL)
		return NULL;
	for (; *tok != '\0'; tok++) {
		if (*tok != '%') {
			*o++ = *tok;
			continue;
		}
		if ((c = percent_get(tok)) <= 0) {	/* or "%00" */
			free(s);
			return NULL;
		}
		*o++ = (char)c;
		tok += 2;
	}
	*o = '\0';
	return s;
}

/* Escape n bytes of s into out for a relayed piece (wire.h). */
size_t
wire_escape(char *out, const char *s, size_t n)
{
	const unsigned char	*u = (const unsigned char *)s;
	char			*o = out;
	size_t			 i;

	for (i = 0; i < n; i++) {
		if (u[i] == '%' || u[i] == '[' || u[i] == '\0' ||
		    u[i] == '\n')
			o = percent_put(o, u[i]);
		else
			*o++ = (char)u[i];
	}
	return (size_t)(o - out);
}

/* Undo wire_escape on s in place (wire.h). */
size_t
wire_unescape(char *s, size_t n)
{
	size_t	i, k = 0;
	int	c;

	for (i = 0; i < n; i++) {
		if (s[i] == '%' && i + 2 < n && (c = percent_get(s + i)) >= 0) {
			s[k++] = (char)c;
			i += 2;
		} else
			s[k++] = s[i];
	}
	return k;
}

_Static_assert(sizeof(struct wire_slot) == WIRE_SLOT_SIZE,
    "a slot is WIRE_SLOT_SIZE bytes");
_Static_assert(sizeof(struct wire_watch_head) <= WIRE_SLOT_SIZE,
    "the head fits before the first slot");
_Static_assert(offsetof(struct wire_slot, pad) == 13 * 4 + WIRE_WATCH_PEERS * 4,
    "a slot's fields are 32-bit words, read as such (wire_slot_read)");

/* The numbers of a "blocked" marker before its peers. */
#define WIRE_SLOT_NUMS	12

/* The calls' names, by enum wire_call. */
static const char *const wire_calls[WC_COUNT] = {
	"-", "ens_init", "ens_finalize", "ens_ports", "ens_port", "ens_self",
	"ens_param", "ens_send", "ens_ssend", "ens_bsend", "ens_recv",
	"ens_recv_any", "ens_isend", "ens_irecv", "ens_waitall", "ens_barrier",
	"ens_bcast", "ens_reduce", "ens_allreduce", "ens_gather",
	"ens_allgather", "ens_issend", "ens_ibsend", "ens_irecv_any",
	"ens_scatter", "ens_alltoall", "ens_recv_status", "ens_recv_any_status",
	"ens_waitall_status", "ens_port_of", "ens_comm_component",
	"ens_allgatherv", "ens_gatherv", "ens_scatterv", "ens_alltoallv",
	"ens_reduce_scatter", "ens_comm_group", "ens_barrier_over",
	"ens_bcast_over", "ens_reduce_over", "ens_allreduce_over",
	"ens_gather_over", "ens_allgather_over", "ens_scatter_over",
	"ens_alltoall_over", "ens_allgatherv_over", "ens_gatherv_over",
	"ens_scatterv_over", "ens_alltoallv_over", "ens_reduce_scatter_over",
	"ens_sendrecv", "ens_sendrecv_replace", "ens_wait", "ens_test",
	"ens_waitany", "ens_waitsome", "ens_probe", "ens_probe_any",
	"ens_iprobe", "ens_iprobe_any",
	"MPI_Send", "MPI_Ssend", "MPI_Bsend", "MPI_Rsend", "MPI_Recv",
	"MPI_Sendrecv", "MPI_Sendrecv_replace", "MPI_Wait", "MPI_Waitall",
	"MPI_Waitany", "MPI_Waitsome", "MPI_Probe", "MPI_Barrier", "MPI_Bcast",
	"MPI_Reduce", "MPI_Allreduce", "MPI_Gather", "MPI_Gatherv",
	"MPI_Scatter", "MPI_Scatterv", "MPI_Allgather", "MPI_Allgatherv",
	"MPI_Alltoall", "MPI_Alltoallv", "MPI_Reduce_scatter"
};

const char *
wire_call_name(int call)
{
	return call > WC_NONE && call < WC_COUNT ? wire_calls[call] : "-";
}

int
wire_call_coll(int call)
{
	switch (call) {
	case WC_BARRIER: case WC_BARRIER_OVER: case WC_MPI_BARRIER:
		return WC_BARRIER;
	case WC_BCAST: case WC_BCAST_OVER: case WC_MPI_BCAST:
		return WC_BCAST;
	case WC_REDUCE: case WC_REDUCE_OVER: case WC_MPI_REDUCE:
		return WC_REDUCE;
	case WC_ALLREDUCE: case WC_ALLREDUCE_OVER: case WC_MPI_ALLREDUCE:
		return WC_ALLREDUCE;
	case WC_GATHER: case WC_GATHER_OVER: case WC_MPI_GATHER:
		return WC_GATHER;
	case WC_ALLGATHER: case WC_ALLGATHER_OVER: case WC_MPI_ALLGATHER:
		return WC_ALLGATHER;
	case WC_SCATTER: case WC_SCATTER_OVER: case WC_MPI_SCATTER:
		return WC_SCATTER;
	case WC_ALLTOALL: case WC_ALLTOALL_OVER: case WC_MPI_ALLTOALL:
		return WC_ALLTOALL;
	case WC_ALLGATHERV: case WC_ALLGATHERV_OVER: case WC_MPI_ALLGATHERV:
		return WC_ALLGATHERV;
	case WC_GATHERV: case WC_GATHERV_OVER: case WC_MPI_GATHERV:
		return WC_GATHERV;
	case WC_SCATTERV: case WC_SCATTERV_OVER: case WC_MPI_SCATTERV:
		return WC_SCATTERV;
	case WC_ALLTOALLV: case WC_ALLTOALLV_OVER: case WC_MPI_ALLTOALLV:
		return WC_ALLTOALLV;
	case WC_REDUCE_SCATTER: case WC_REDUCE_SCATTER_OVER:
	case WC_MPI_REDUCE_SCATTER:
		return WC_REDUCE_SCATTER;
	default:
		return WC_NONE;
	}
}

int
wire_call_sends(int call)
{
	return call == WC_SEND || call == WC_SSEND || call == WC_BSEND ||
	    call == WC_MPI_SEND || call == WC_MPI_SSEND || call == WC_MPI_BSEND ||
	    call == WC_MPI_RSEND;
}

int
wire_slot_read(const volatile struct wire_slot *v, struct wire_slot *s)
{
	/* The fields after gen, word by word: every one is 32 bits. */
	const volatile uint32_t	*from = (const volatile uint32_t *)v;
	uint32_t		*to = (uint32_t *)s;
	uint32_t		 g;
	int			 tries, i;

	for (tries = 0; tries < 8; tries++) {
		g = __atomic_load_n(&v->gen, __ATOMIC_ACQUIRE);
		if (g & 1)
			continue;
		for (i = 1; i < (int)(offsetof(struct wire_slot, pad) / 4); i++)
			to[i] = from[i];
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&v->gen, __ATOMIC_RELAXED) == g) {
			s->gen = g;
			return 0;
		}
	}
	return -1;
}

int
wire_slot_blocked(const struct wire_slot *before, unsigned long long ran_before,
    const struct wire_slot *now, unsigned long long ran_now)
{
	return before->gen == now->gen && now->call != WC_NONE &&
	    before->call == now->call && ran_before > 0 &&
	    ran_now >= ran_before + WIRE_WATCH_CPU;
}

int
wire_slot_put(struct wire_buf *b, const struct wire_slot *s)
{
	char	num[16];
	int	i, n = s->npeers < 0 ? 0 : s->npeers > WIRE_WATCH_PEERS ?
		    WIRE_WATCH_PEERS : s->npeers;
	long	v[WIRE_SLOT_NUMS + WIRE_WATCH_PEERS];
	int	nv = 0;

	v[nv++] = (long)s->gen;
	v[nv++] = s->call;
	v[nv++] = s->wait;
	v[nv++] = s->type;
	v[nv++] = s->port;
	v[nv++] = s->loc;
	v[nv++] = s->comm;
	v[nv++] = (long)s->ncoll;
	v[nv++] = s->root;
	v[nv++] = n;
	v[nv++] = (long)s->sends;
	v[nv++] = (long)s->recvs;
	for (i = 0; i < n; i++)
		v[nv++] = s->peers[i];
	for (i = 0; i < nv; i++) {
		snprintf(num, sizeof(num), "%s%ld", i > 0 ? " " : "", v[i]);
		if (wire_put_bytes(b, num, strlen(num)) != 0)
			return -1;
	}
	return 0;
}

int
wire_slot_get(const char *text, struct wire_slot *s)
{
	long		 v[WIRE_SLOT_NUMS + WIRE_WATCH_PEERS];
	char		*end;
	const char	*d;
	int		 i, n = WIRE_SLOT_NUMS, unsig;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++) {
		if (i > 0 && *text++ != ' ')
			return -1;
		/* Decimal as wire_slot_put writes it: an optional '-', no
		 * leading zero, no '+' or blank. */
		d = text + (*text == '-');
		if (*d < '0' || *d > '9' || (*d == '0' && (d[1] >= '0' &&
		    d[1] <= '9')) || (*d == '0' && d != text))
			return -1;
		/* gen, ncoll and the two masks are unsigned. */
		unsig = i == 0 || i == 7 || i == 10 || i == 11;
		errno = 0;
		v[i] = strtol(text, &end, 10);
		if (end == text || errno != 0 || v[i] < (unsig ? 0 : INT32_MIN) ||
		    v[i] > (unsig ? (long)UINT32_MAX : INT32_MAX))
			return -1;
		text = end;
		if (i == 9) {
			if (v[9] < 0 || v[9] > WIRE_WATCH_PEERS)
				return -1;
			n += (int)v[9];
		}
	}
	if (*text != '\0')
		return -1;
	s->gen = (uint32_t)v[0];
	s->call = (int32_t)v[1];
	s->wait = (int32_t)v[2];
	s->type = (int32_t)v[3];
	s->port = (int32_t)v[4];
	s->loc = (int32_t)v[5];
	s->comm = (int32_t)v[6];
	s->ncoll = (uint32_t)v[7];
	s->root = (int32_t)v[8];
	s->npeers = (int32_t)v[9];
	s->sends = (uint32_t)v[10];
	s->recvs = (uint32_t)v[11];
	for (i = 0; i < s->npeers; i++)
		s->peers[i] = (int32_t)v[WIRE_SLOT_NUMS + i];
	return 0;
}
