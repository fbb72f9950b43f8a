/* cmd-expand.c -- 'ensemble expand': print the fully expanded script. */
#include "config.h"

#include <stdio.h>

#include "cmd.h"

static int
cmd_expand_exec(const struct cmd_entry *self, int argc, char **argv)
{
	struct cli_opts	 o;
	struct diag	*d;
	struct pcg	*g;
	int		 rc = EXIT_BADINPUT;

	if ((rc = cli_parse(self, argc, argv, &o)) >= 0)
		return rc;
	d = diag_new(stderr);
	if ((g = cli_load(&o, d)) != NULL) {
		pcg_emit(g, stdout);
		pcg_free(g);
		rc = 0;
	} else
		rc = EXIT_BADINPUT;
	diag_free(d);
	cli_opts_free(&o);
	return cli_exit(rc);
}

static const struct cli_option cmd_expand_options[] = {
	CLI_OPTIONS_SCRIPT,
	{ CLI_END }
};

const struct cmd_entry cmd_expand_entry = {
	.name = "expand",
	.args = "SCRIPT",
	.summary = "Print the script fully expanded: no parameters, ranges or 'for'.",
	.options = cmd_expand_options,
	.help =
	    "The output is a script in the same language that describes the same graph.\n",
	.exec = cmd_expand_exec,
};
