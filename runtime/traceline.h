/* traceline.h -- the one definition of an MTF trace's event line
 * (man/ensemble-trace.5): its operations, send modes, sixteen fields and
 * how each is written.  libensemble (runtime/ens.c) writes event lines
 * itself, and it may use only MPI and libc (HACKING.md), so the definition
 * lives here, at runtime's floor, header-only and libc-only, as wire.h does
 * for the port table: ens.c formats its events with traceline_format,
 * 'ensemble run' reads T0 back with traceline_t0 to merge the processes'
 * parts (loader/ltrace.c),
 * and trace/ (the reader and writer of whole files, trace.h) takes the
 * names and the formatter from here.  Nothing here needs MPI.
 *
 * An event line (fields separated by one space, ending in '\n'):
 *   OP RANK T0 T1 COMM MODE PORT PEER TAG DTYPE COUNT SBYTES RBYTES REQ SEQ VIA
 * with '-' where a field does not apply; PEER and TAG may be '*' (a
 * receive's "any"); PORT and DTYPE are strings %XX-encoded as the
 * annotated graph's text values (common/pcgdot.h) and the space too; times
 * are seconds with exactly nine digits after the point. */
#ifndef ENS_TRACELINE_H
#define ENS_TRACELINE_H

#include <stdint.h>
#include <string.h>

#include "percent.h"

#define TRACE_VERSION		1
#define TRACE_NFIELDS		16

/* The operations, in the order of traceline_ops. */
enum trace_op {
	TRACE_INIT, TRACE_FIN, TRACE_SEND, TRACE_RECV, TRACE_ISEND,
	TRACE_IRECV, TRACE_WAIT,
	/* sendrecv: two lines, the send (mode std) then the receive (mode
	 * '-'); waitone (ens_wait), test, waitany, waitsome: lines like a
	 * wait's; testfalse, iprobefalse: the call found nothing */
	TRACE_SENDRECV, TRACE_SENDRECVREPLACE, TRACE_WAITONE, TRACE_TEST,
	TRACE_TESTFALSE, TRACE_WAITANY, TRACE_WAITSOME, TRACE_PROBE,
	TRACE_IPROBE, TRACE_IPROBEFALSE,
	TRACE_BARRIER, TRACE_BCAST, TRACE_REDUCE,
	TRACE_ALLREDUCE, TRACE_GATHER, TRACE_ALLGATHER, TRACE_SCATTER,
	TRACE_ALLTOALL, TRACE_ALLGATHERV, TRACE_GATHERV, TRACE_SCATTERV,
	TRACE_ALLTOALLV, TRACE_REDUCESCATTER,
	TRACE_NOPS
};

static const char *const traceline_ops[TRACE_NOPS] = {
	"init", "fin", "send", "recv", "isend", "irecv", "wait", "sendrecv",
	"sendrecvreplace", "waitone", "test", "testfalse", "waitany",
	"waitsome", "probe", "iprobe", "iprobefalse", "barrier",
	"bcast", "reduce", "allreduce", "gather", "allgather", "scatter",
	"alltoall", "allgatherv", "gatherv", "scatterv", "alltoallv",
	"reducescatter"
};

/* Whether op is a collective (TRACE_BARRIER to TRACE_REDUCESCATTER). */
static inline int
traceline_is_coll(enum trace_op op)
{
	return op >= TRACE_BARRIER && op < TRACE_NOPS;
}

/* A send's mode; TRACE_MODE_NONE ('-') for every other operation. */
enum trace_mode {
	TRACE_MODE_NONE, TRACE_MODE_STD, TRACE_MODE_SYNC, TRACE_MODE_BUF,
	TRACE_NMODES
};

static const char *const traceline_modes[TRACE_NMODES] = {
	"-", "std", "sync", "buf"
};

/* The values of PEER and TAG (and of int fields generally) that are no
 * number: '-' (does not apply) and '*' (any). */
#define TRACE_NONE	(-1)
#define TRACE_ANY	(-2)

/* One event as written: times in nanoseconds from the trace's origin;
 * port and dtype NULL for '-'; count, req and seq -1 for '-'. */
struct traceline {
	enum trace_op	 op;
	int		 rank;
	int64_t		 t0, t1;
	int		 comm;
	enum trace_mode	 mode;
	const char	*port;
	int		 peer;		/* TRACE_NONE, TRACE_ANY or a rank */
	int		 tag;		/* TRACE_NONE, TRACE_ANY or a tag */
	const char	*dtype;
	long		 count;
	uint64_t	 sbytes, rbytes;
	long		 req, seq;
	int		 raw;		/* VIA: 1 raw, 0 port */
};

/* The most bytes traceline_format writes for l (with the '\n' and NUL). */
static inline size_t
traceline_bound(const struct traceline *l)
{
	return 16 * 24 + 16 + 3 * ((l->port != NULL ? strlen(l->port) : 0) +
	    (l->dtype != NULL ? strlen(l->dtype) : 0));
}

/* Append the decimal digits of v at p; the end. */
static inline char *
traceline_put_u(char *p, uint64_t v)
{
	char	d[24];
	int	n = 0;

	do
		d[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	while (n > 0)
		*p++ = d[--n];
	return p;
}

/* Append v, or '-' for TRACE_NONE (and any other negative but
 * TRACE_ANY), '*' for TRACE_ANY when any is allowed. */
static inline char *
traceline_put_int(char *p, long v, int any)
{
	if (any && v == TRACE_ANY)
		*p++ = '*';
	else if (v < 0)
		*p++ = '-';
	else
		p = traceline_put_u(p, (uint64_t)v);
	return p;
}

/* Append a time of ns nanoseconds as seconds with nine decimals. */
static inline char *
traceline_put_time(char *p, int64_t ns)
{
	uint64_t	u, frac;
	int		i;

	if (ns < 0) {
		*p++ = '-';
		u = (uint64_t)(-(ns + 1)) + 1;
	} else
		u = (uint64_t)ns;
	p = traceline_put_u(p, u / 1000000000u);
	*p++ = '.';
	frac = u % 1000000000u;
	for (i = 8; i >= 0; i--) {
		p[i] = (char)('0' + frac % 10);
		frac /= 10;
	}
	return p + 9;
}

/* Append a string field: '-' for NULL, else s with '%', the quotes, the
 * backslash, the space and the control bytes as %XX (a lone "-" too, so
 * that it is not read as none). */
static inline char *
traceline_put_str(char *p, const char *s)
{
	unsigned char	c;

	if (s == NULL) {
		*p++ = '-';
		return p;
	}
	if (s[0] == '-' && s[1] == '\0') {
		memcpy(p, "%2D", 3);
		return p + 3;
	}
	for (; (c = (unsigned char)*s) != '\0'; s++) {
		if (c == '%' || c == '"' || c == '\'' || c == '\\' ||
		    c <= ' ' || c == 127)
			p = percent_put(p, c);
		else
			*p++ = (char)c;
	}
	return p;
}

/* Write l as one line ending in '\n' at dst, which has room for
 * traceline_bound(l) bytes; the line's length (no NUL is written). */
static inline size_t
traceline_format(char *dst, const struct traceline *l)
{
	char	*p = dst;
	int	 op = l->op >= 0 && l->op < TRACE_NOPS ? l->op : 0;
	int	 mode = l->mode >= 0 && l->mode < TRACE_NMODES ? l->mode : 0;
	size_t	 n;

	n = strlen(traceline_ops[op]);
	memcpy(p, traceline_ops[op], n);
	p += n;
	*p++ = ' ';
	p = traceline_put_int(p, l->rank, 0);
	*p++ = ' ';
	p = traceline_put_time(p, l->t0);
	*p++ = ' ';
	p = traceline_put_time(p, l->t1);
	*p++ = ' ';
	p = traceline_put_int(p, l->comm, 0);
	*p++ = ' ';
	n = strlen(traceline_modes[mode]);
	memcpy(p, traceline_modes[mode], n);
	p += n;
	*p++ = ' ';
	p = traceline_put_str(p, l->port);
	*p++ = ' ';
	p = traceline_put_int(p, l->peer, 1);
	*p++ = ' ';
	p = traceline_put_int(p, l->tag, 1);
	*p++ = ' ';
	p = traceline_put_str(p, l->dtype);
	*p++ = ' ';
	p = traceline_put_int(p, l->count, 0);
	*p++ = ' ';
	p = traceline_put_u(p, l->sbytes);
	*p++ = ' ';
	p = traceline_put_u(p, l->rbytes);
	*p++ = ' ';
	p = traceline_put_int(p, l->req, 0);
	*p++ = ' ';
	p = traceline_put_int(p, l->seq, 0);
	*p++ = ' ';
	memcpy(p, l->raw ? "raw" : "port", l->raw ? 3 : 4);
	p += l->raw ? 3 : 4;
	*p++ = '\n';
	return (size_t)(p - dst);
}

/* T0 of an event line s (of n bytes) in nanoseconds, for merging streams
 * by start: 0 and *ok 0 when the third field is no time. */
static inline int64_t
traceline_t0(const char *s, size_t n, int *ok)
{
	const char	*end = s + n;
	int64_t		 sec = 0, frac = 0;
	int		 fields = 0, neg = 0, digits = 0;

	*ok = 0;
	while (s < end && fields < 2) {
		if (*s++ == ' ')
			fields++;
	}
	if (s < end && *s == '-') {
		neg = 1;
		s++;
	}
	while (s < end && *s >= '0' && *s <= '9' && sec < INT64_MAX / 100)
		sec = sec * 10 + (*s++ - '0');
	if (s >= end || *s++ != '.')
		return 0;
	while (s < end && *s >= '0' && *s <= '9' && digits < 9) {
		frac = frac * 10 + (*s++ - '0');
		digits++;
	}
	if (digits != 9 || sec > INT64_MAX / 1000000000 - 1)
		return 0;
	*ok = 1;
	sec = sec * 1000000000 + frac;
	return neg ? -sec : sec;
}

#endif
