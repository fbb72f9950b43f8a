/* trace-stats.c -- 'ensemble trace stats TRACE': per process the count of
 * each operation, the bytes sent and received and the time spent in
 * communication, and their totals, laid out as table 6 of the MTF paper.
 * One pass over the events; memory grows with the processes only. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd-trace.h"
#include "xmalloc.h"

struct pstats {
	unsigned long	 ops[TRACE_NOPS];
	uint64_t	 sent, received;
	int64_t		 busy;		/* ns in calls but init and fin */
	struct trace_event last;	/* its last line (op 0, init: none
					 * yet, and never a part of a call) */
};

/* The column heading of an operation: its name, capitalised. */
static void
heading(char *buf, enum trace_op op)
{
	snprintf(buf, 16, "%s", trace_op_name(op));
	buf[0] = (char)(buf[0] - 'a' + 'A');
}

/* The width of v in decimal. */
static int
width(uint64_t v)
{
	int	n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Print one row: the process's (or the total's) name and its figures. */
static void
row(const char *name, int nw, const struct pstats *p, const int *wide,
    const unsigned long *present)
{
	int	op;

	printf("%-*s", nw, name);
	for (op = 0; op < TRACE_NOPS; op++)
		if (present[op])
			printf("  %*lu", wide[op], p->ops[op]);
	printf("  %*llu  %*llu  %*.6f\n", wide[TRACE_NOPS],
	    (unsigned long long)p->sent, wide[TRACE_NOPS + 1],
	    (unsigned long long)p->received, wide[TRACE_NOPS + 2],
	    (double)p->busy / 1e9);
}

/* What trace stats's options say. */
struct trace_stats_opts {
	const char	*trace;
};

static int
trace_stats_exec(const struct cmd_entry *self, int argc, char **argv)
{
	struct trace_stats_opts	 o;
	struct trace_reader	*r;
	const struct trace_hdr	*h;
	struct trace_event	 ev;
	struct pstats		*ps, total;
	unsigned long		 present[TRACE_NOPS];
	int			 wide[TRACE_NOPS + 3], nw, rc, i, op;
	char			*cause = NULL, head[16];

	if ((rc = cli_parse(self, argc, argv, &o, sizeof(o))) >= 0)
		return rc;
	if ((r = cli_trace_open(o.trace)) == NULL) {
		cli_opts_free(self, &o);
		return EXIT_BADINPUT;
	}
	h = trace_header(r);
	ps = xcalloc((size_t)h->nprocs, sizeof(*ps));
	while ((rc = trace_next(r, &ev, &cause)) == 1) {
		struct pstats	*p = &ps[ev.rank];

		p->sent += ev.sbytes;
		p->received += ev.rbytes;
		/* A call, counted and timed once, may be several lines: a
		 * waitall of n requests n wait lines of one time, a
		 * waitsome's one per request completed, a sendrecv's two. */
		if (trace_same_call(&p->last, &ev))
			continue;
		p->last = ev;
		p->ops[ev.op]++;
		if (ev.op == TRACE_INIT || ev.op == TRACE_FIN)
			continue;
		p->busy += ev.t1ns - ev.t0ns;
	}
	if (rc < 0) {
		rc = cli_trace_fail(cause);
		goto out;
	}

	memset(&total, 0, sizeof(total));
	memset(present, 0, sizeof(present));
	for (i = 0; i < h->nprocs; i++) {
		for (op = 0; op < TRACE_NOPS; op++) {
			total.ops[op] += ps[i].ops[op];
			present[op] += ps[i].ops[op];
		}
		total.sent += ps[i].sent;
		total.received += ps[i].received;
		total.busy += ps[i].busy;
	}
	nw = (int)strlen("Process");
	for (i = 0; i < h->nprocs; i++)
		if ((int)strlen(h->processes[i].name) > nw)
			nw = (int)strlen(h->processes[i].name);
	printf("%-*s", nw, "Process");
	for (op = 0; op < TRACE_NOPS; op++) {
		if (!present[op])
			continue;
		heading(head, op);
		wide[op] = width(total.ops[op]);
		if ((int)strlen(head) > wide[op])
			wide[op] = (int)strlen(head);
		printf("  %*s", wide[op], head);
	}
	wide[TRACE_NOPS] = width(total.sent) > 4 ? width(total.sent) : 4;
	wide[TRACE_NOPS + 1] = width(total.received) > 8 ?
	    width(total.received) : 8;
	wide[TRACE_NOPS + 2] = width((uint64_t)(total.busy / 1000000000)) + 7;
	if (wide[TRACE_NOPS + 2] < 7)
		wide[TRACE_NOPS + 2] = 7;
	printf("  %*s  %*s  %*s\n", wide[TRACE_NOPS], "Sent",
	    wide[TRACE_NOPS + 1], "Received", wide[TRACE_NOPS + 2], "Time");
	for (i = 0; i < h->nprocs; i++)
		row(h->processes[i].name, nw, &ps[i], wide, present);
	row("Total", nw, &total, wide, present);
	rc = 0;
out:
	free(ps);
	trace_close(r);
	cli_opts_free(self, &o);
	return cli_exit(rc);
}

static const struct cli_option trace_stats_options[] = {
	{ .type = CLI_OPERAND, .arg = "trace",
	  .off = offsetof(struct trace_stats_opts, trace) },
	CLI_OPTION_HELP,
	{ CLI_END }
};

const struct cmd_entry trace_stats_entry = {
	.name = "trace stats",
	.args = "TRACE",
	.summary = "Per process: each operation's count, bytes sent and received, time.",
	.options = trace_stats_options,
	.help =
	    "One row per process, named as in the script, and a Total row; one\n"
	    "column per operation the trace holds (port and raw calls alike), then\n"
	    "Sent and Received (bytes) and Time, the seconds spent in calls (all but\n"
	    "init and fin).  A call of several lines (a waitall of n requests, a\n"
	    "waitsome, a sendrecv) is counted and timed once.\n",
	.exec = trace_stats_exec,
};
