/* cmd-help.c -- 'ensemble help [COMMAND]'. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd.h"

static int
cmd_help_exec(const struct cmd_entry *self, int argc, char **argv)
{
	const struct cmd_entry	*c;
	int			 i;

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

const struct cmd_entry cmd_help_entry = {
	.name = "help",
	.args = "[COMMAND]",
	.summary = "Show the commands, or one command's options.",
	.options = NULL,
	.help = NULL,
	.exec = cmd_help_exec,
};
