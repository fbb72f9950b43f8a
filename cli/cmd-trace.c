/* cmd-trace.c -- 'ensemble trace SUBCOMMAND TRACE': reading MTF trace files
 * (man/ensemble-trace.5) that 'ensemble run --trace' writes.  Each
 * subcommand is a struct cmd_entry of its own (its name "trace NAME", its
 * options and help), in cli/trace-NAME.c and one line of trace_table. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd-trace.h"

static const struct cmd_entry *const trace_table[] = {
	&trace_stats_entry,
	&trace_messages_entry,
	&trace_query_entry,
	&trace_check_entry,
	&trace_export_entry,
	NULL,
};

struct trace_reader *
cli_trace_open(const char *path)
{
	struct trace_reader	*r;
	char			*cause = NULL;

	if ((r = trace_open(path, &cause)) == NULL)
		cli_trace_fail(cause);
	return r;
}

int
cli_trace_fail(char *cause)
{
	fprintf(stderr, "%s\n", cause);
	free(cause);
	return EXIT_BADINPUT;
}

int
cli_trace_process(const struct trace_hdr *h, const char *s)
{
	char	*end;
	long	 v;
	int	 i;

	for (i = 0; i < h->nprocs; i++)
		if (strcmp(h->processes[i].name, s) == 0)
			return i;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*s >= '0' && *s <= '9' && *end == '\0' && errno == 0 &&
	    v < h->nprocs)
		return (int)v;
	return -1;
}

/* Take the subcommand's first operand, the trace, out of argv (it must
 * come first): cli_parse then sees the second as its one operand.  NULL
 * when it is not there; the caller lets cli_parse say why. */
const char *
cli_trace_first(int *argc, char ***argv)
{
	const char	*t;

	if (*argc < 2 || ((*argv)[1][0] == '-' && (*argv)[1][1] != '\0'))
		return NULL;
	t = (*argv)[1];
	(*argv)[1] = (*argv)[0];
	(*argc)--;
	(*argv)++;
	return t;
}

const struct cmd_entry *
cli_trace_find(const char *name)
{
	int	i;

	for (i = 0; trace_table[i] != NULL; i++)
		if (strcmp(trace_table[i]->name + strlen("trace "), name) == 0)
			return trace_table[i];
	return NULL;
}

/* List the subcommands on f. */
static void
list(FILE *f)
{
	int	i;

	fprintf(f, "\nSubcommands:\n");
	for (i = 0; trace_table[i] != NULL; i++)
		fprintf(f, "  %-9s %s\n", trace_table[i]->name +
		    strlen("trace "), trace_table[i]->summary);
}

static int
cmd_trace_exec(const struct cmd_entry *self, int argc, char **argv)
{
	const struct cmd_entry	*c;

	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0)) {
		cli_help(self);
		list(stdout);
		return cli_exit(0);
	}
	if (argc < 2) {
		fprintf(stderr, "ensemble trace: no subcommand given\n");
		cli_usage(stderr, self);
		list(stderr);
		return EXIT_BADINPUT;
	}
	if ((c = cli_trace_find(argv[1])) != NULL)
		return c->exec(c, argc - 1, argv + 1);
	fprintf(stderr, "ensemble trace: '%s' is not a subcommand\n", argv[1]);
	cli_usage(stderr, self);
	list(stderr);
	return EXIT_BADINPUT;
}

const struct cmd_entry cmd_trace_entry = {
	.name = "trace",
	.args = "SUBCOMMAND TRACE",
	.summary = "Read a trace that 'run --trace' wrote: statistics, messages, "
	    "queries, conformance checks, exports.",
	.options = NULL,
	.help =
	    "'ensemble trace SUBCOMMAND --help' tells a subcommand's options;\n"
	    "'ensemble trace --help' lists them; ensemble-trace(5) the file.\n",
	.exec = cmd_trace_exec,
};
