/* trace-query.c -- 'ensemble trace query TRACE QUERY': the MTF query
 * language (trace/query.h) over a trace.  The query's errors are printed
 * as a script's are, the query being a source named "query": place, the
 * problem, the query echoed and a caret under the place. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd-trace.h"
#include "query.h"
#include "xmalloc.h"

/* Say an error of the query at its place, with the query and a caret. */
static void
query_diag(struct diag *d, const struct source *src, const struct query_err *e)
{
	struct loc	l;

	l.first_line = l.last_line = e->loc.line;
	l.first_column = e->loc.col;
	l.last_column = e->loc.last_col;
	l.src = src;
	diag_error(d, &l, "%s", e->msg);
}

/* What trace query's options say (the trace comes first, taken by
 * cli_trace_first). */
struct trace_query_opts {
	const char	*query;
};

static int
trace_query_exec(const struct cmd_entry *self, int argc, char **argv)
{
	struct trace_query_opts	 o;
	struct trace_reader	*r = NULL;
	struct query		*q = NULL;
	struct query_err	 err, *errs = NULL;
	struct diag		*d = NULL;
	const struct source	*src;
	const char		*path;
	char			*cause = NULL, *note;
	int			 rc, i, nerrs = 0;

	if (argc < 2) {
		fprintf(stderr, "ensemble trace query: no trace given\n");
		cli_usage(stderr, self);
		return EXIT_BADINPUT;
	}
	path = cli_trace_first(&argc, &argv);
	if ((rc = cli_parse(self, argc, argv, &o, sizeof(o))) >= 0)
		return rc;
	d = diag_new(stderr);
	src = diag_load_string(d, "query", o.query, strlen(o.query));
	rc = EXIT_BADINPUT;
	if ((q = query_parse(o.query, &err)) == NULL) {
		query_diag(d, src, &err);
		query_err_free(&err);
		diag_summary(d);
		goto out;
	}
	if ((r = cli_trace_open(path)) == NULL)
		goto out;
	if (query_bind(q, trace_header(r), &errs, &nerrs) != 0) {
		for (i = 0; i < nerrs; i++) {
			query_diag(d, src, &errs[i]);
			query_err_free(&errs[i]);
		}
		free(errs);
		diag_summary(d);
		goto out;
	}
	/* A number in PROCESS(...) is a rank, from 0, where every other
	 * place names processes as the script does: say which each is. */
	if ((note = query_rank_note(q, trace_header(r))) != NULL) {
		fprintf(stderr, "ensemble: note: PROCESS numbers are ranks, from 0 "
		    "(names as in the script work too): %s\n", note);
		free(note);
	}
	if (query_run(q, r, stdout, &cause) != 0) {
		rc = cli_trace_fail(cause);
		goto out;
	}
	rc = 0;
out:
	query_free(q);
	if (r != NULL)
		trace_close(r);
	diag_free(d);
	cli_opts_free(self, &o);
	return cli_exit(rc);
}

static const struct cli_option trace_query_options[] = {
	{ .type = CLI_OPERAND, .arg = "query",
	  .off = offsetof(struct trace_query_opts, query) },
	CLI_OPTION_HELP,
	{ CLI_END }
};

const struct cmd_entry trace_query_entry = {
	.name = "trace query",
	.args = "TRACE QUERY",
	.summary = "Select messages or operations with the MTF query language.",
	.options = trace_query_options,
	.help =
	    "QUERY is one argument, as the MTF paper writes them:\n"
	    "  SELECT ALL MESSAGES BETWEEN PROCESS(1,2) IN COMM(C1)\n"
	    "  SELECT COLLECTIVE_OPERATIONS FOR PROCESS(relay[1-3])\n"
	    "  SELECT SEND_OPERATIONS BETWEEN TIME 0 AND 2ms WHERE SIZE > 1024\n"
	    "One line per result, then the count; the grammar and the lines:\n"
	    "ensemble(1), TRACE QUERIES.  Exit status: 0, or 2 for a bad query or\n"
	    "trace.\n",
	.exec = trace_query_exec,
};
