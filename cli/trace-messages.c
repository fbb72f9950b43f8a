/* trace-messages.c -- 'ensemble trace messages TRACE [--between P,Q]': each
 * message, a send matched with its receive by (comm, source, destination,
 * tag, sequence number) as man/ensemble-trace.5 defines, with its latency:
 * the receive's end less the send's start.  One pass; only the sides not
 * matched yet are kept, in a hash table, so memory grows with the messages
 * in flight, not with the trace. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd-trace.h"
#include "xmalloc.h"

/* One side of a message waiting for the other. */
struct side {
	int		 comm, src, dst, tag;
	long		 seq;
	int		 is_send;
	int64_t		 t;		/* a send's start, a receive's end */
	uint64_t	 bytes;
	struct side	*next;
};

struct pending {
	struct side	**b;
	size_t		  nb, n;
};

static size_t
hash(int comm, int src, int dst, int tag, long seq)
{
	uint64_t	h = 1469598103934665603ULL;

	h = (h ^ (uint64_t)comm) * 1099511628211ULL;
	h = (h ^ (uint64_t)src) * 1099511628211ULL;
	h = (h ^ (uint64_t)dst) * 1099511628211ULL;
	h = (h ^ (uint64_t)(unsigned)tag) * 1099511628211ULL;
	h = (h ^ (uint64_t)seq) * 1099511628211ULL;
	return (size_t)(h ^ (h >> 29));
}

/* Double the buckets. */
static void
grow(struct pending *p)
{
	struct side	**nb, *s, *next;
	size_t		  n = p->nb * 2, i, k;

	nb = xcalloc(n, sizeof(*nb));
	for (i = 0; i < p->nb; i++)
		for (s = p->b[i]; s != NULL; s = next) {
			next = s->next;
			k = hash(s->comm, s->src, s->dst, s->tag, s->seq) &
			    (n - 1);
			s->next = nb[k];
			nb[k] = s;
		}
	free(p->b);
	p->b = nb;
	p->nb = n;
}

/* Print t nanoseconds as seconds with nine decimals, then c. */
static void
put_time(int64_t t, char c)
{
	uint64_t	u = t < 0 ? (uint64_t)(-(t + 1)) + 1 : (uint64_t)t;

	printf("%s%llu.%09llu%c", t < 0 ? "-" : "",
	    (unsigned long long)(u / 1000000000),
	    (unsigned long long)(u % 1000000000), c);
}

/* Print a matched message. */
static void
print(const struct trace_hdr *h, const struct side *snd,
    const struct side *rcv)
{
	printf("%s %s %d %ld %llu ", h->processes[snd->src].name,
	    h->processes[snd->dst].name, snd->tag, snd->seq,
	    (unsigned long long)snd->bytes);
	put_time(snd->t, ' ');
	put_time(rcv->t, ' ');
	put_time(rcv->t - snd->t, '\n');
}

/* Print a side that found no match: '-' for the other side's fields. */
static void
print_unmatched(const struct trace_hdr *h, const struct side *s)
{
	printf("%s %s %d %ld ", h->processes[s->src].name,
	    h->processes[s->dst].name, s->tag, s->seq);
	if (s->is_send) {
		printf("%llu ", (unsigned long long)s->bytes);
		put_time(s->t, ' ');
		printf("- unmatched\n");
	} else {
		printf("- - ");
		put_time(s->t, ' ');
		printf("unmatched\n");
	}
}

static int
trace_messages_exec(const struct cmd_entry *self, int argc, char **argv)
{
	struct cli_opts		 o;
	struct trace_reader	*r = NULL;
	const struct trace_hdr	*h;
	struct trace_event	 ev;
	struct pending		 pend;
	struct side		 cur, **pp, *s, *next;
	char			*cause = NULL, *p = NULL, *comma;
	int			 rc, a = -1, b = -1;
	size_t			 i;
	unsigned long		 nmatched = 0;

	memset(&pend, 0, sizeof(pend));
	if ((rc = cli_parse(self, argc, argv, &o)) >= 0)
		return rc;
	if ((r = cli_trace_open(o.script)) == NULL) {
		rc = EXIT_BADINPUT;
		goto out;
	}
	h = trace_header(r);
	trace_rebase(r);
	if (o.between != NULL) {
		p = xstrdup(o.between);
		if ((comma = strchr(p, ',')) == NULL) {
			fprintf(stderr, "ensemble trace messages: --between "
			    "needs two processes P,Q, not '%s'\n", o.between);
			rc = EXIT_BADINPUT;
			goto out;
		}
		*comma++ = '\0';
		if ((a = cli_trace_process(h, p)) < 0 ||
		    (b = cli_trace_process(h, comma)) < 0) {
			fprintf(stderr, "ensemble trace messages: no process "
			    "'%s' in the trace\n", a < 0 ? p : comma);
			rc = EXIT_BADINPUT;
			goto out;
		}
	}
	pend.nb = 1024;
	pend.b = xcalloc(pend.nb, sizeof(*pend.b));
	printf("from to tag seq bytes sent received latency\n");
	while ((rc = trace_next(r, &ev, &cause)) == 1) {
		memset(&cur, 0, sizeof(cur));
		cur.comm = ev.comm;
		cur.tag = ev.tag;
		cur.seq = ev.seq;
		if (trace_side(&ev) == TRACE_SIDE_SEND) {
			cur.is_send = 1;
			cur.src = ev.rank;
			cur.dst = ev.peer;
			cur.t = ev.t0ns;
			cur.bytes = ev.sbytes;
		} else if (trace_side(&ev) == TRACE_SIDE_RECV) {
			cur.src = ev.peer;
			cur.dst = ev.rank;
			cur.t = ev.t1ns;
		} else
			continue;
		if (cur.src < 0 || cur.dst < 0 || cur.tag < 0 || cur.seq < 0)
			continue;
		if (a >= 0 && !((cur.src == a && cur.dst == b) ||
		    (cur.src == b && cur.dst == a)))
			continue;
		pp = &pend.b[hash(cur.comm, cur.src, cur.dst, cur.tag,
		    cur.seq) & (pend.nb - 1)];
		for (; (s = *pp) != NULL; pp = &s->next)
			if (s->comm == cur.comm && s->src == cur.src &&
			    s->dst == cur.dst && s->tag == cur.tag &&
			    s->seq == cur.seq && s->is_send != cur.is_send)
				break;
		if (s != NULL) {
			*pp = s->next;
			pend.n--;
			if (s->is_send)
				print(h, s, &cur);
			else
				print(h, &cur, s);
			nmatched++;
			free(s);
			continue;
		}
		s = xmalloc(sizeof(*s));
		*s = cur;
		s->next = *pp;
		*pp = s;
		if (++pend.n > pend.nb)
			grow(&pend);
	}
	if (rc < 0) {
		rc = cli_trace_fail(cause);
		goto out;
	}
	/* What is left found no match: in the order of the buckets. */
	for (i = 0; i < pend.nb; i++)
		for (s = pend.b[i]; s != NULL; s = s->next)
			print_unmatched(h, s);
	rc = 0;
out:
	for (i = 0; i < pend.nb; i++)
		for (s = pend.b[i]; s != NULL; s = next) {
			next = s->next;
			free(s);
		}
	free(pend.b);
	free(p);
	trace_close(r);
	cli_opts_free(&o);
	return cli_exit(rc);
}

static const struct cli_option trace_messages_options[] = {
	{ .type = CLI_STRING, .name = "--between", .arg = "P,Q",
	  .off = CLI_OFF(between), .needs = "two processes P,Q",
	  .help = "only the messages from P to Q and from Q to P (names\n"
	    "as in the script, or ranks)" },
	{ .type = CLI_HELP, .name = "-h", .alias = "--help",
	  .help = "show this help" },
	{ CLI_END }
};

const struct cmd_entry trace_messages_entry = {
	.name = "trace messages",
	.args = "TRACE",
	.summary = "Each message: its send matched with its receive, and its latency.",
	.options = trace_messages_options,
	.operand = "trace",
	.help =
	    "One line per message, in the order their receives complete: from and\n"
	    "to (processes), tag, sequence number, bytes, the send's start, the\n"
	    "receive's end and the latency between them (seconds).  Sides that\n"
	    "found no match come last, marked 'unmatched'.\n",
	.exec = trace_messages_exec,
};
