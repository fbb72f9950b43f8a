/* cmd-help.c -- 'ensemble help [COMMAND]', and 'ensemble help --options
 * COMMAND' for programs (bash completion). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "cmd-trace.h"

/* Print COMMAND's options one name a line (cli_options); a trace
 * subcommand is named by two words, "trace stats". */
static int
options(const struct cmd_entry *self, int argc, char **argv)
{
	const struct cmd_entry	*c;
	const char		*w[3];
	int			 i, n = 0;

	/* The command's words, wherever --options is among them. */
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--options") != 0 && n < 3)
			w[n++] = argv[i];
	if (n < 1 || n > 2) {
		fprintf(stderr, "ensemble help: --options needs a command\n");
		cli_usage(stderr, self);
		return EXIT_BADINPUT;
	}
	if ((c = cmd_find(w[0])) == NULL) {
		fprintf(stderr, "ensemble: '%s' is not a command; see 'ensemble help'\n",
		    w[0]);
		return EXIT_BADINPUT;
	}
	if (n == 2 && (strcmp(c->name, "trace") != 0 ||
	    (c = cli_trace_find(w[1])) == NULL)) {
		fprintf(stderr, "ensemble help: '%s %s' is not a command; see "
		    "'ensemble help'\n", w[0], w[1]);
		return EXIT_BADINPUT;
	}
	cli_options(c);
	return cli_exit(0);
}

static int
cmd_help_exec(const struct cmd_entry *self, int argc, char **argv)
{
	const struct cmd_entry	*c;
	int			 i;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--options") == 0)
			return options(self, argc, argv);
	if (argc > 2) {
		cli_usage(stderr, self);
		return EXIT_BADINPUT;
	}
	if (argc == 2 && strcmp(argv[1], "-h") != 0 && strcmp(argv[1], "--help") != 0) {
		if ((c = cmd_find(argv[1])) == NULL) {
			fprintf(stderr, "ensemble: '%s' is not a command; see 'ensemble help'\n",
			    argv[1]);
			return EXIT_BADINPUT;
		}
		cli_help(c);
		return cli_exit(0);
	}
	printf("usage: ensemble COMMAND [ARGS]\n\n"
	    "Compose an MPI application from reusable components and a script\n"
	    "that describes its process communication graph.\n\nCommands:\n");
	for (i = 0; cmd_table[i] != NULL; i++)
		printf("  %-8s %s\n", cmd_table[i]->name, cmd_table[i]->summary);
	printf("\n'ensemble help COMMAND' or 'ensemble COMMAND --help' tells more;\n"
	    "'man ensemble' and 'man 5 pcg' describe the commands and the language.\n");
	return cli_exit(0);
}

/* Parsed by cmd_help_exec itself: the table is its help and its
 * 'help --options'. */
static const struct cli_option cmd_help_options[] = {
	{ .type = CLI_FLAG, .name = "--options",
	  .help = "list COMMAND's options for programs, one name a line\n"
	    "(a trace subcommand: 'trace NAME')" },
	CLI_OPTION_HELP,
	{ CLI_END }
};

const struct cmd_entry cmd_help_entry = {
	.name = "help",
	.args = "[COMMAND]",
	.summary = "Show the commands, or one command's options.",
	.options = cmd_help_options,
	.help = NULL,
	.exec = cmd_help_exec,
};
