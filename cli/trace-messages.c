/* trace-messages.c -- 'ensemble trace messages TRACE [--between P,Q]': each
 * message, a send matched with its receive by (comm, source, destination,
 * tag, sequence number) as man/ensemble-trace.5 defines (trace/match.h),
 * with its latency: the receive's end less the send's start.  One pass;
 * only the sides not matched yet are kept, so memory grows with the
 * messages in flight, not with the trace. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd-trace.h"
#include "match.h"
#include "xmalloc.h"

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
print(const struct trace_hdr *h, const struct match_end *snd,
    const struct match_end *rcv)
{
	printf("%s %s %d %ld %llu ", h->processes[snd->from].name,
	    h->processes[snd->to].name, snd->tag, snd->seq,
	    (unsigned long long)snd->bytes);
	put_time(snd->t0ns, ' ');
	put_time(rcv->t1ns, ' ');
	put_time(rcv->t1ns - snd->t0ns, '\n');
}

/* Print a side that found no match: '-' for the other side's fields. */
static void
print_unmatched(void *arg, struct match_end *s)
{
	const struct trace_hdr	*h = arg;

	printf("%s %s %d %ld ", h->processes[s->from].name,
	    h->processes[s->to].name, s->tag, s->seq);
	if (s->side == TRACE_SIDE_SEND) {
		printf("%llu ", (unsigned long long)s->bytes);
		put_time(s->t0ns, ' ');
		printf("- unmatched\n");
	} else {
		printf("- - ");
		put_time(s->t1ns, ' ');
		printf("unmatched\n");
	}
}

/* What trace messages's options say. */
struct trace_messages_opts {
	const char	*trace;
	const char	*between;	/* --between P,Q */
};

static int
trace_messages_exec(const struct cmd_entry *self, int argc, char **argv)
{
	struct trace_messages_opts o;
	struct trace_reader	*r = NULL;
	const struct trace_hdr	*h;
	struct trace_event	 ev;
	struct match		*m = NULL;
	struct match_end	 cur;
	const struct match_end	*other;
	char			*cause = NULL, *p = NULL, *comma;
	int			 rc, a = -1, b = -1;

	if ((rc = cli_parse(self, argc, argv, &o, sizeof(o))) >= 0)
		return rc;
	if ((r = cli_trace_open(o.trace)) == NULL) {
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
	m = match_new(0);
	printf("from to tag seq bytes sent received latency\n");
	while ((rc = trace_next(r, &ev, &cause)) == 1) {
		if (!match_end_of(&ev, &cur))
			continue;
		if (a >= 0 && !((cur.from == a && cur.to == b) ||
		    (cur.from == b && cur.to == a)))
			continue;
		if ((other = match_take(m, &cur)) == NULL)
			continue;
		if (cur.side == TRACE_SIDE_SEND)
			print(h, &cur, other);
		else
			print(h, other, &cur);
	}
	if (rc < 0) {
		rc = cli_trace_fail(cause);
		goto out;
	}
	/* What is left found no match: in the order it came. */
	match_left(m, print_unmatched, (void *)h);
	rc = 0;
out:
	match_free(m);
	free(p);
	trace_close(r);
	cli_opts_free(self, &o);
	return cli_exit(rc);
}

static const struct cli_option trace_messages_options[] = {
	{ .type = CLI_OPERAND, .arg = "trace",
	  .off = offsetof(struct trace_messages_opts, trace) },
	{ .type = CLI_STRING, .name = "--between", .arg = "P,Q",
	  .off = offsetof(struct trace_messages_opts, between),
	  .needs = "two processes P,Q",
	  .help = "only the messages from P to Q and from Q to P (names\n"
	    "as in the script, or ranks)" },
	CLI_OPTION_HELP,
	{ CLI_END }
};

const struct cmd_entry trace_messages_entry = {
	.name = "trace messages",
	.args = "TRACE",
	.summary = "Each message: its send matched with its receive, and its latency.",
	.options = trace_messages_options,
	.help =
	    "One line per message, in the order their receives complete: from and\n"
	    "to (processes), tag, sequence number, bytes, the send's start, the\n"
	    "receive's end and the latency between them (seconds).  Sides that\n"
	    "found no match come last, in the order they came, marked\n"
	    "'unmatched'.\n",
	.exec = trace_messages_exec,
};
