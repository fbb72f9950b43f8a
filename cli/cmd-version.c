/* cmd-version.c -- 'ensemble version', which 'ensemble --version' runs too. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd.h"

/* Print the name and version; -h shows the help, anything else is misuse. */
static int
cmd_version_exec(const struct cmd_entry *self, int argc, char **argv)
{
	if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		cli_help(self);
		return cli_exit(0);
	}
	if (argc > 1) {
		fprintf(stderr, "ensemble version: unexpected '%s'\n", argv[1]);
		cli_usage(stderr, self);
		return EXIT_BADINPUT;
	}
	printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
	return cli_exit(0);
}

const struct cmd_entry cmd_version_entry = {
	.name = "version",
	.args = "",
	.summary = "Show the version of ensemble (also: ensemble --version).",
	.options = NULL,
	.help = NULL,
	.exec = cmd_version_exec,
};
