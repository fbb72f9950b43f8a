/* read.c -- the streaming reader of MTF trace files (trace.h): a buffer of
 * whole lines refilled with read(2), the header kept, each event parsed in
 * place in the buffer, so memory does not grow with the events. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "percent.h"
#include "trace.h"
#include "xmalloc.h"

#define READ_CHUNK	(1 << 20)
#define LINE_MAX_BYTES	(1 << 20)	/* a longer line is refused */

/* The header's records, in the order they must come. */
enum rec {
	R_VERSION, R_SCENARIO, R_PARAM, R_TRACE, R_PROCESSOR, R_COMM,
	R_PROCESS, R_PORT, R_EVENTS
};

struct trace_reader {
	int		 fd;
	char		*path;
	char		*buf;
	size_t		 cap, start, end;
	int		 eof;
	unsigned long	 line;
	struct trace_hdr *hdr;
	unsigned long	 nevents;
	int		 state;		/* 0 events, 1 ended, -1 failed */
	char		*fields[TRACE_NFIELDS + 1];
	int		 nfields;
	int		 pct;		/* the line holds a '%' */
	int		*seen;		/* process records, by rank */
	int		*member;	/* by rank: 1 + the last comm that
					 * listed it (members) */
	/* trace_rebase's: the events read ahead to find time zero (their
	 * strings copied), handed out first, then the error that ended
	 * the look ahead, if one did. */
	struct trace_event *ahead;
	size_t		 nahead, aahead, iahead;
	char		*ahead_cause;
	int		 rebased;
	int64_t		 zero;		/* ns from the origin */
};

const char *
trace_op_name(enum trace_op op)
{
	return op >= 0 && op < TRACE_NOPS ? traceline_ops[op] : "?";
}

const char *
trace_mode_name(enum trace_mode m)
{
	return m >= 0 && m < TRACE_NMODES ? traceline_modes[m] : "?";
}

enum trace_side
trace_side(const struct trace_event *ev)
{
	switch (ev->op) {
	case TRACE_SEND:
	case TRACE_ISEND:
		return TRACE_SIDE_SEND;
	case TRACE_RECV:
		return TRACE_SIDE_RECV;
	case TRACE_WAIT:
	case TRACE_WAITONE:
	case TRACE_TEST:
	case TRACE_WAITANY:
	case TRACE_WAITSOME:
		return ev->mode == TRACE_MODE_NONE ? TRACE_SIDE_RECV :
		    TRACE_SIDE_NONE;
	case TRACE_SENDRECV:
	case TRACE_SENDRECVREPLACE:
		return ev->mode == TRACE_MODE_NONE ? TRACE_SIDE_RECV :
		    TRACE_SIDE_SEND;
	default:
		return TRACE_SIDE_NONE;
	}
}

int
trace_same_call(const struct trace_event *prev, const struct trace_event *ev)
{
	if (prev->op != ev->op || prev->rank != ev->rank || prev->raw != ev->raw ||
	    prev->t0ns != ev->t0ns || prev->t1ns != ev->t1ns)
		return 0;
	switch (ev->op) {
	case TRACE_WAIT:
	case TRACE_WAITSOME:
		return 1;
	case TRACE_SENDRECV:
	case TRACE_SENDRECVREPLACE:
		return trace_side(prev) == TRACE_SIDE_SEND &&
		    trace_side(ev) == TRACE_SIDE_RECV;
	default:
		return 0;
	}
}

const char *
trace_mpi_name(const struct trace_event *ev)
{
	static const char *const names[TRACE_NOPS] = {
		"MPI_Init", "MPI_Finalize", "MPI_Send", "MPI_Recv", "MPI_Isend",
		"MPI_Irecv", "MPI_Wait", "MPI_Sendrecv", "MPI_Sendrecv_replace",
		"MPI_Wait", "MPI_Test", "MPI_Test", "MPI_Waitany", "MPI_Waitsome",
		"MPI_Probe", "MPI_Iprobe", "MPI_Iprobe", "MPI_Barrier", "MPI_Bcast", "MPI_Reduce",
		"MPI_Allreduce", "MPI_Gather", "MPI_Allgather", "MPI_Scatter",
		"MPI_Alltoall", "MPI_Allgatherv", "MPI_Gatherv", "MPI_Scatterv",
		"MPI_Alltoallv", "MPI_Reduce_scatter",
	};

	if (ev->op == TRACE_SEND && ev->mode == TRACE_MODE_SYNC)
		return "MPI_Ssend";
	if (ev->op == TRACE_SEND && ev->mode == TRACE_MODE_BUF)
		return "MPI_Bsend";
	if (ev->op == TRACE_ISEND && ev->mode == TRACE_MODE_SYNC)
		return "MPI_Issend";
	if (ev->op == TRACE_ISEND && ev->mode == TRACE_MODE_BUF)
		return "MPI_Ibsend";
	return ev->op < TRACE_NOPS ? names[ev->op] : "MPI_?";
}

int
trace_op_find(const char *s)
{
	int	i;

	for (i = 0; i < TRACE_NOPS; i++)
		if (traceline_ops[i][0] == s[0] && strcmp(traceline_ops[i], s) == 0)
			return i;
	return -1;
}

/* Set *cause to "PATH:LINE: error: MESSAGE"; -1. */
static int __attribute__((format(printf, 3, 4)))
fail(struct trace_reader *r, char **cause, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	xasprintf(cause, "%s:%lu: error: %s", r->path, r->line, msg);
	free(msg);
	r->state = -1;
	return -1;
}

/* The next line, NUL-terminated in place without its '\n', in *out and
 * its length in *len: 1, 0 at the end of the file, -1 on an error. */
static int
next_line(struct trace_reader *r, char **out, size_t *len, char **cause)
{
	char	*nl;
	ssize_t	 n;

	for (;;) {
		nl = memchr(r->buf + r->start, '\n', r->end - r->start);
		if (nl != NULL) {
			*nl = '\0';
			*out = r->buf + r->start;
			*len = (size_t)(nl - *out);
			r->start = (size_t)(nl - r->buf) + 1;
			r->line++;
			if (memchr(*out, '\0', *len) != NULL)
				return fail(r, cause, "a NUL byte in the line");
			/* A field never holds a raw CR (strings are %XX). */
			if (*len > 0 && (*out)[*len - 1] == '\r')
				return fail(r, cause, "the line ends in CR LF, as a "
				    "DOS text file does: MTF lines end in LF alone");
			return 1;
		}
		if (r->eof) {
			if (r->start != r->end) {
				r->line++;
				return fail(r, cause, "truncated trace: the "
				    "last line has no newline");
			}
			return 0;
		}
		if (r->end - r->start >= LINE_MAX_BYTES) {
			r->line++;
			return fail(r, cause, "line longer than %d bytes",
			    LINE_MAX_BYTES);
		}
		if (r->start > 0) {
			memmove(r->buf, r->buf + r->start, r->end - r->start);
			r->end -= r->start;
			r->start = 0;
		}
		if (r->cap - r->end < READ_CHUNK) {
			r->cap = r->end + READ_CHUNK;
			r->buf = xrealloc(r->buf, r->cap + 1);
		}
		n = read(r->fd, r->buf + r->end, r->cap - r->end);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return fail(r, cause, "cannot read: %s",
			    strerror(errno));
		}
		if (n == 0)
			r->eof = 1;
		r->end += (size_t)n;
	}
}

/* Split s at single spaces into r->fields: the count (at most
 * TRACE_NFIELDS + 1; more are not split).  r->pct says whether the line
 * holds a '%' (a string to decode). */
static int
split(struct trace_reader *r, char *s)
{
	char	*p;
	int	 n = 1, pct = 0;

	r->fields[0] = s;
	for (p = s; *p != '\0'; p++) {
		if (*p == '%')
			pct = 1;
		else if (*p == ' ') {
			if (n == TRACE_NFIELDS + 1)
				break;
			*p = '\0';
			r->fields[n++] = p + 1;
		}
	}
	r->pct = pct;
	return r->nfields = n;
}

/* Decode a string field in place: 0, or -1 when malformed.  '-' is
 * NULL in *out. */
static int
decode(char *s, char **out)
{
	char	*p, *q;
	int	 c;

	if (s[0] == '\0')
		return -1;
	if (s[0] == '-' && s[1] == '\0') {
		*out = NULL;
		return 0;
	}
	*out = s;
	if ((p = strchr(s, '%')) == NULL)
		return 0;
	for (q = p; *p != '\0'; p++) {
		if (*p != '%') {
			*q++ = *p;
			continue;
		}
		if ((c = percent_get(p)) <= 0)	/* malformed, or "%00" */
			return -1;
		*q++ = (char)c;
		p += 2;
	}
	*q = '\0';
	return 0;
}

/* A string field of a line without '%': decode's result, quicker. */
static int
plain(char *s, char **out)
{
	if (s[0] == '\0')
		return -1;
	*out = s[0] == '-' && s[1] == '\0' ? NULL : s;
	return 0;
}

/* A decimal whole number in [min, max]: 0, or -1. */
static int
number(const char *s, long long min, long long max, long long *out)
{
	unsigned long long	v = 0;
	int			neg = 0;

	if (*s == '-' && s[1] != '\0') {
		neg = 1;
		s++;
	}
	if (*s == '\0')
		return -1;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9' || v > (unsigned long long)INT64_MAX / 10)
			return -1;
		v = v * 10 + (unsigned long long)(*s - '0');
	}
	if (v > (unsigned long long)INT64_MAX)
		return -1;
	*out = neg ? -(long long)v : (long long)v;
	return *out < min || *out > max ? -1 : 0;
}

/* An unsigned 64-bit count: 0, or -1. */
static int
unumber(const char *s, uint64_t *out)
{
	uint64_t	v = 0;

	if (*s == '\0')
		return -1;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

/* A time "S.NNNNNNNNN" (maybe negative) in nanoseconds: 0, or -1. */
static int
timefield(const char *s, int64_t *out)
{
	int64_t	sec = 0, frac = 0;
	int	neg = 0, d;

	if (*s == '-') {
		neg = 1;
		s++;
	}
	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (sec > INT64_MAX / 1000000000 / 10)
			return -1;
		sec = sec * 10 + (*s - '0');
	}
	if (sec >= INT64_MAX / 1000000000 || *s++ != '.')
		return -1;
	for (d = 0; d < 9; d++, s++) {
		if (*s < '0' || *s > '9')
			return -1;
		frac = frac * 10 + (*s - '0');
	}
	if (*s != '\0')
		return -1;
	*out = sec * 1000000000 + frac;
	if (neg)
		*out = -*out;
	return 0;
}

/* An int field that may be '-' (none) or, when any, '*'. */
static int
intfield(const char *s, int any, long long min, long long max, long long *out)
{
	if (s[0] == '-' && s[1] == '\0') {
		*out = TRACE_NONE;
		return 0;
	}
	if (any && s[0] == '*' && s[1] == '\0') {
		*out = TRACE_ANY;
		return 0;
	}
	return number(s, min, max, out);
}

/* A copy of the decoded string field f (NULL for '-'): 0, or -1. */
static int
strfield(char *f, char **out)
{
	char	*s;

	if (decode(f, &s) != 0)
		return -1;
	*out = s != NULL ? xstrdup(s) : NULL;
	return 0;
}

/* A run's number (digits only, no sign) at *s, at most max: 0 and *s
 * past it, or -1. */
static int
members_num(const char **s, long long max, long long *out)
{
	long long	v = 0;

	if (**s < '0' || **s > '9')
		return -1;
	for (; **s >= '0' && **s <= '9'; (*s)++) {
		v = v * 10 + (**s - '0');
		if (v > max)
			return -1;
	}
	*out = v;
	return 0;
}

/* Read comm id's members field s, runs "A", "A-B" or "A-B/S" (A to B by
 * S, or by 1, upward or downward) joined by commas, into h->comms[id]:
 * size world ranks, each once.  0, or -1 (said). */
static int
members(struct trace_reader *r, int id, const char *s, char **cause)
{
	struct trace_comm	*c = &r->hdr->comms[id];
	const char		*p = s;
	long long		 a, b, st, v, max = r->hdr->nprocs - 1;
	int			 n = 0;

	if (id < 2)
		return fail(r, cause, "comm %d lists members (only a group's "
		    "comm, 2 and on, does)", id);
	if (c->size > r->hdr->nprocs)
		return fail(r, cause, "comm %d lists members of %d, more than "
		    "the %d processes", id, c->size, r->hdr->nprocs);
	if (r->member == NULL)
		r->member = xcalloc((size_t)r->hdr->nprocs, sizeof(*r->member));
	c->members = xcalloc((size_t)c->size + 1, sizeof(*c->members));
	for (;;) {
		if (members_num(&p, max, &a) != 0)
			goto bad;
		b = a;
		st = 1;
		if (*p == '-' && (p++, members_num(&p, max, &b) != 0))
			goto bad;
		if (*p == '/' && (b == a || (p++, members_num(&p, max, &st)) != 0 ||
		    st == 0 || (b > a ? b - a : a - b) % st != 0))
			goto bad;
		for (v = a;; v += b >= a ? st : -st) {
			if (n == c->size)
				return fail(r, cause, "comm %d lists more "
				    "members than its size %d", id, c->size);
			if (r->member[v] == id + 1)
				return fail(r, cause, "comm %d lists rank %lld "
				    "twice", id, v);
			r->member[v] = id + 1;
			c->members[n++] = (int)v;
			if (v == b)
				break;
		}
		if (*p == '\0')
			break;
		if (*p++ != ',')
			goto bad;
	}
	if (n != c->size)
		return fail(r, cause, "comm %d lists %d members, not its size %d",
		    id, n, c->size);
	return 0;
bad:
	return fail(r, cause, "bad members '%s' of comm %d (runs of world "
	    "ranks 0..%lld: A, A-B or A-B/S, joined by commas)", s, id, max);
}

static const char *const rec_names[] = {
	"MTF", "scenario", "param", "trace", "processor", "comm", "process",
	"port", "events"
};
static const int rec_fields[] = { 2, 4, 3, 3, 3, 4, 5, 5, 1 };

/* Read one header record in r->fields; 1 after 'events', 0 to go on,
 * -1 on an error. */
static int
header_record(struct trace_reader *r, int *state, char **cause)
{
	struct trace_hdr	*h = r->hdr;
	const char		*what = r->fields[0];
	long long		 a, b, c;
	char			*s, *t;
	int			 k, i;

	for (k = R_SCENARIO; k <= R_EVENTS; k++)
		if (strcmp(rec_names[k], what) == 0)
			break;
	if (k > R_EVENTS)
		return fail(r, cause, "unknown header record '%s'", what);
	if (k == R_COMM && r->nfields != 4 && r->nfields != 5)
		return fail(r, cause, "'comm' needs 4 or 5 fields, not %d",
		    r->nfields);
	if (k != R_COMM && r->nfields != rec_fields[k])
		return fail(r, cause, "'%s' needs %d fields, not %d", what,
		    rec_fields[k], r->nfields);
	if (k < *state || (k == *state && k != R_PARAM &&
	    k != R_PROCESSOR && k != R_COMM && k != R_PROCESS && k != R_PORT))
		return fail(r, cause, "'%s' out of place", what);
	if (k > R_SCENARIO && *state < R_SCENARIO)
		return fail(r, cause, "'%s' before 'scenario'", what);
	if (k > R_TRACE && *state < R_TRACE)
		return fail(r, cause, "'%s' before 'trace'", what);
	*state = k;
	switch (k) {
	case R_SCENARIO:
		if (strfield(r->fields[1], &h->script) != 0 ||
		    strfield(r->fields[2], &h->application) != 0 ||
		    strfield(r->fields[3], &h->date) != 0)
			return fail(r, cause, "bad string in 'scenario'");
		break;
	case R_PARAM:
		if (decode(r->fields[1], &s) != 0 || s == NULL ||
		    decode(r->fields[2], &t) != 0)
			return fail(r, cause, "bad string in 'param'");
		h->params = xreallocarray(h->params, h->nparams + 1,
		    sizeof(*h->params));
		h->params[h->nparams].name = xstrdup(s);
		h->params[h->nparams++].value = t != NULL ? xstrdup(t) : NULL;
		break;
	case R_TRACE:
		if (strfield(r->fields[1], &h->start) != 0)
			return fail(r, cause, "bad string in 'trace'");
		if (number(r->fields[2], 1, 1 << 24, &a) != 0)
			return fail(r, cause, "bad process count '%s'",
			    r->fields[2]);
		h->nprocs = (int)a;
		h->processes = xcalloc((size_t)a, sizeof(*h->processes));
		r->seen = xcalloc((size_t)a, sizeof(*r->seen));
		break;
	case R_PROCESSOR:
		if (number(r->fields[1], 0, 1 << 24, &a) != 0 ||
		    (size_t)a != h->nprocessors)
			return fail(r, cause, "processor '%s' is not %zu",
			    r->fields[1], h->nprocessors);
		if (decode(r->fields[2], &s) != 0 || s == NULL)
			return fail(r, cause, "bad host '%s'", r->fields[2]);
		h->processors = xreallocarray(h->processors,
		    h->nprocessors + 1, sizeof(*h->processors));
		h->processors[h->nprocessors++].host = xstrdup(s);
		break;
	case R_COMM:
		if (number(r->fields[1], 0, 1 << 24, &a) != 0 ||
		    (size_t)a != h->ncomms)
			return fail(r, cause, "comm '%s' is not %zu",
			    r->fields[1], h->ncomms);
		if (decode(r->fields[2], &s) != 0 || s == NULL)
			return fail(r, cause, "bad comm name '%s'",
			    r->fields[2]);
		if (number(r->fields[3], 0, 1 << 24, &b) != 0)
			return fail(r, cause, "bad comm size '%s'",
			    r->fields[3]);
		h->comms = xreallocarray(h->comms, h->ncomms + 1,
		    sizeof(*h->comms));
		h->comms[h->ncomms].name = xstrdup(s);
		h->comms[h->ncomms].members = NULL;
		h->comms[h->ncomms++].size = (int)b;
		if (r->nfields == 5 &&
		    members(r, (int)a, r->fields[4], cause) != 0)
			return -1;
		break;
	case R_PROCESS:
		if (number(r->fields[1], 0, h->nprocs - 1, &a) != 0)
			return fail(r, cause, "rank '%s' out of range 0..%d",
			    r->fields[1], h->nprocs - 1);
		if (r->seen[a])
			return fail(r, cause, "process %lld given twice", a);
		if (decode(r->fields[2], &s) != 0 || s == NULL ||
		    decode(r->fields[3], &t) != 0 || t == NULL)
			return fail(r, cause, "bad string in 'process'");
		if (number(r->fields[4], 0, (long long)h->nprocessors - 1,
		    &b) != 0)
			return fail(r, cause, "no processor '%s'",
			    r->fields[4]);
		r->seen[a] = 1;
		h->processes[a].name = xstrdup(s);
		h->processes[a].component = xstrdup(t);
		h->processes[a].processor = (int)b;
		break;
	case R_PORT:
		if (number(r->fields[1], 0, h->nprocs - 1, &a) != 0)
			return fail(r, cause, "rank '%s' out of range 0..%d",
			    r->fields[1], h->nprocs - 1);
		if (decode(r->fields[2], &s) != 0 || s == NULL)
			return fail(r, cause, "bad port type '%s'",
			    r->fields[2]);
		if (number(r->fields[3], 0, 1 << 30, &b) != 0)
			return fail(r, cause, "bad port index '%s'",
			    r->fields[3]);
		if (number(r->fields[4], -1, h->nprocs - 1, &c) != 0)
			return fail(r, cause, "peer '%s' out of range -1..%d",
			    r->fields[4], h->nprocs - 1);
		h->ports = xreallocarray(h->ports, h->nports + 1,
		    sizeof(*h->ports));
		h->ports[h->nports].rank = (int)a;
		h->ports[h->nports].type = xstrdup(s);
		h->ports[h->nports].index = (int)b;
		h->ports[h->nports++].peer = (int)c;
		break;
	case R_EVENTS:
		for (i = 0; i < h->nprocs; i++)
			if (!r->seen[i])
				return fail(r, cause, "no 'process' record "
				    "for rank %d", i);
		if (h->ncomms == 0)
			return fail(r, cause, "no 'comm' record for comm 0");
		return 1;
	}
	return 0;
}

struct trace_reader *
trace_open(const char *path, char **cause)
{
	struct trace_reader	*r;
	char			*s;
	size_t			 len;
	int			 state = R_VERSION, rc;
	long long		 v;

	r = xcalloc(1, sizeof(*r));
	r->path = xstrdup(path);
	r->hdr = trace_hdr_new();
	r->cap = READ_CHUNK;
	r->buf = xmalloc(r->cap + 1);
	if (strcmp(path, "-") == 0)
		r->fd = STDIN_FILENO;
	else if ((r->fd = open(path, O_RDONLY)) < 0) {
		xasprintf(cause, "ensemble: cannot open '%s': %s", path,
		    strerror(errno));
		r->fd = -1;
		goto bad;
	}
	if ((rc = next_line(r, &s, &len, cause)) < 0)
		goto bad;
	if (rc == 0) {
		r->line = 1;
		fail(r, cause, "empty file: no 'MTF 1' line");
		goto bad;
	}
	if (split(r, s) != 2 || strcmp(r->fields[0], "MTF") != 0) {
		fail(r, cause, "not an MTF trace: the first line is not "
		    "'MTF %d'", TRACE_VERSION);
		goto bad;
	}
	if (number(r->fields[1], 0, 1 << 30, &v) != 0 || v != TRACE_VERSION) {
		fail(r, cause, "unsupported MTF version '%s' (this reads %d)",
		    r->fields[1], TRACE_VERSION);
		goto bad;
	}
	r->hdr->version = (int)v;
	for (;;) {
		if ((rc = next_line(r, &s, &len, cause)) < 0)
			goto bad;
		if (rc == 0) {
			fail(r, cause, "truncated trace: the header ends "
			    "after line %lu without 'events'", r->line);
			goto bad;
		}
		if (s[0] == '#')
			continue;
		split(r, s);
		if ((rc = header_record(r, &state, cause)) < 0)
			goto bad;
		if (rc == 1)
			break;
	}
	return r;

bad:
	trace_close(r);
	return NULL;
}

const struct trace_hdr *
trace_header(struct trace_reader *r)
{
	return r->hdr;
}

unsigned long
trace_line(const struct trace_reader *r)
{
	return r->line;
}

/* Read the 'end N' line: 0 and the reader ended, or -1. */
static int
read_end(struct trace_reader *r, char **cause)
{
	char		*s;
	size_t		 len;
	long long	 n;
	int		 rc;

	if (r->nfields != 2)
		return fail(r, cause, "'end' needs 2 fields, not %d",
		    r->nfields);
	if (number(r->fields[1], 0, INT64_MAX, &n) != 0)
		return fail(r, cause, "bad event count '%s'", r->fields[1]);
	if ((unsigned long long)n != r->nevents)
		return fail(r, cause, "'end' says %lld events, but %lu were "
		    "read", n, r->nevents);
	for (;;) {
		if ((rc = next_line(r, &s, &len, cause)) < 0)
			return -1;
		if (rc == 0)
			break;
		if (s[0] != '#')
			return fail(r, cause, "a record after 'end'");
	}
	r->state = 1;
	return 0;
}

/* Read the next event from the file (trace_next's contract). */
static int
read_event(struct trace_reader *r, struct trace_event *ev, char **cause)
{
	const struct trace_hdr	*h = r->hdr;
	char			*s, *str;
	char			**f = r->fields;
	size_t			 len;
	long long		 v;
	int			 rc, op;

	if (r->state < 0) {
		xasprintf(cause, "%s:%lu: error: the trace was refused "
		    "already", r->path, r->line);
		return -1;
	}
	if (r->state == 1)
		return 0;
	do {
		if ((rc = next_line(r, &s, &len, cause)) < 0)
			return -1;
		if (rc == 0)
			return fail(r, cause, "truncated trace: no 'end' "
			    "after line %lu", r->line);
	} while (s[0] == '#');
	split(r, s);
	if (f[0][0] == 'e' && strcmp(f[0], "end") == 0) {
		if (read_end(r, cause) != 0)
			return -1;
		return 0;
	}
	if ((op = trace_op_find(f[0])) < 0)
		return fail(r, cause, "unknown operation '%s'", f[0]);
	if (r->nfields != TRACE_NFIELDS)
		return fail(r, cause, "an event needs %d fields, not %s%d",
		    TRACE_NFIELDS, r->nfields > TRACE_NFIELDS ? "more than " :
		    "", r->nfields > TRACE_NFIELDS ? TRACE_NFIELDS :
		    r->nfields);
	memset(ev, 0, sizeof(*ev));
	ev->op = op;
	ev->line = r->line;
	if (number(f[1], 0, h->nprocs - 1, &v) != 0)
		return fail(r, cause, "rank '%s' out of range 0..%d", f[1],
		    h->nprocs - 1);
	ev->rank = (int)v;
	if (timefield(f[2], &ev->t0ns) != 0)
		return fail(r, cause, "bad start time '%s'", f[2]);
	if (timefield(f[3], &ev->t1ns) != 0)
		return fail(r, cause, "bad end time '%s'", f[3]);
	if (ev->t1ns < ev->t0ns)
		return fail(r, cause, "end time '%s' before start time '%s'",
		    f[3], f[2]);
	ev->t0 = (double)ev->t0ns / 1e9;
	ev->t1 = (double)ev->t1ns / 1e9;
	if (number(f[4], 0, (long long)h->ncomms - 1, &v) != 0)
		return fail(r, cause, "no comm '%s'", f[4]);
	ev->comm = (int)v;
	if (f[5][0] == '-' && f[5][1] == '\0')
		v = TRACE_MODE_NONE;
	else
		for (v = 1; v < TRACE_NMODES; v++)
			if (f[5][0] == traceline_modes[v][0] &&
			    strcmp(f[5], traceline_modes[v]) == 0)
				break;
	if (v == TRACE_NMODES)
		return fail(r, cause, "unknown send mode '%s'", f[5]);
	ev->mode = (enum trace_mode)v;
	if ((r->pct ? decode(f[6], &str) : plain(f[6], &str)) != 0)
		return fail(r, cause, "bad port '%s'", f[6]);
	ev->port = str;
	if (intfield(f[7], 1, 0, h->nprocs - 1, &v) != 0)
		return fail(r, cause, "peer '%s' out of range 0..%d", f[7],
		    h->nprocs - 1);
	ev->peer = (int)v;
	if (intfield(f[8], 1, 0, INT32_MAX, &v) != 0)
		return fail(r, cause, "bad tag '%s'", f[8]);
	ev->tag = (int)v;
	if ((r->pct ? decode(f[9], &str) : plain(f[9], &str)) != 0)
		return fail(r, cause, "bad datatype '%s'", f[9]);
	ev->dtype = str;
	if (intfield(f[10], 0, 0, INT64_MAX, &v) != 0)
		return fail(r, cause, "bad count '%s'", f[10]);
	ev->count = (long)v;
	if (unumber(f[11], &ev->sbytes) != 0)
		return fail(r, cause, "bad byte count '%s'", f[11]);
	if (unumber(f[12], &ev->rbytes) != 0)
		return fail(r, cause, "bad byte count '%s'", f[12]);
	if (intfield(f[13], 0, 1, INT64_MAX, &v) != 0)
		return fail(r, cause, "bad request id '%s'", f[13]);
	ev->req = (long)v;
	if (intfield(f[14], 0, 1, INT64_MAX, &v) != 0)
		return fail(r, cause, "bad sequence number '%s'", f[14]);
	ev->seq = (long)v;
	if (f[15][0] == 'r' && strcmp(f[15], "raw") == 0)
		ev->raw = 1;
	else if (f[15][0] != 'p' || strcmp(f[15], "port") != 0)
		return fail(r, cause, "VIA is 'port' or 'raw', not '%s'",
		    f[15]);
	r->nevents++;
	return 1;
}

int
trace_next(struct trace_reader *r, struct trace_event *ev, char **cause)
{
	int	rc;

	if (r->iahead < r->nahead) {
		*ev = r->ahead[r->iahead++];
	} else if (r->ahead_cause != NULL) {
		*cause = r->ahead_cause;
		r->ahead_cause = NULL;
		return -1;
	} else if ((rc = read_event(r, ev, cause)) != 1)
		return rc;
	if (r->rebased) {
		ev->t0ns -= r->zero;
		ev->t1ns -= r->zero;
		ev->t0 = (double)ev->t0ns / 1e9;
		ev->t1 = (double)ev->t1ns / 1e9;
	}
	return 1;
}

int64_t
trace_rebase(struct trace_reader *r)
{
	struct trace_event	 ev, *a;
	char			*cause = NULL;
	size_t			 limit = 2 * (size_t)r->hdr->nprocs + 1;
	int			 rc;

	if (r->rebased || r->nevents > 0 || r->state != 0)
		return r->zero;
	r->rebased = 1;
	/* Sorted by their starts, a valid trace has at most each process's
	 * init and fin before its first operation. */
	while (r->nahead < limit) {
		if ((rc = read_event(r, &ev, &cause)) <= 0) {
			r->ahead_cause = cause;
			break;
		}
		xgrow(&r->ahead, &r->aahead, r->nahead + 1, sizeof(*r->ahead));
		a = &r->ahead[r->nahead++];
		*a = ev;
		a->port = ev.port != NULL ? xstrdup(ev.port) : NULL;
		a->dtype = ev.dtype != NULL ? xstrdup(ev.dtype) : NULL;
		if (ev.op != TRACE_INIT && ev.op != TRACE_FIN) {
			r->zero = ev.t0ns;
			break;
		}
	}
	return r->zero;
}

void
trace_close(struct trace_reader *r)
{
	size_t	k;

	if (r == NULL)
		return;
	for (k = 0; k < r->nahead; k++) {
		free((char *)r->ahead[k].port);
		free((char *)r->ahead[k].dtype);
	}
	free(r->ahead);
	free(r->ahead_cause);
	if (r->fd > STDIN_FILENO)
		close(r->fd);
	trace_hdr_free(r->hdr);
	free(r->seen);
	free(r->member);
	free(r->buf);
	free(r->path);
	free(r);
}

struct trace_hdr *
trace_hdr_new(void)
{
	struct trace_hdr	*h = xcalloc(1, sizeof(*h));

	h->version = TRACE_VERSION;
	return h;
}

void
trace_hdr_free(struct trace_hdr *h)
{
	size_t	i;

	if (h == NULL)
		return;
	free(h->script);
	free(h->application);
	free(h->date);
	for (i = 0; i < h->nparams; i++) {
		free(h->params[i].name);
		free(h->params[i].value);
	}
	free(h->params);
	free(h->start);
	for (i = 0; i < h->nprocessors; i++)
		free(h->processors[i].host);
	free(h->processors);
	for (i = 0; i < h->ncomms; i++) {
		free(h->comms[i].name);
		free(h->comms[i].members);
	}
	free(h->comms);
	for (i = 0; h->processes != NULL && i < (size_t)h->nprocs; i++) {
		free(h->processes[i].name);
		free(h->processes[i].component);
	}
	free(h->processes);
	for (i = 0; i < h->nports; i++)
		free(h->ports[i].type);
	free(h->ports);
	free(h);
}
