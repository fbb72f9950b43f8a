/* cmd-expand.c -- 'ensemble expand': print the fully expanded script. */
#include "config.h"

#include <stdio.h>

#include "cmd.h"

/* What expand's options say. */
struct cmd_expand_opts {
	struct cli_script	 script;
};

static int
cmd_expand_exec(const struct cmd_entry *self, int argc, char **argv)
{
	struct cmd_expand_opts	 o;
	struct frontend		 fe;
	struct diag		*d;
	int			 rc = EXIT_BADINPUT;

	if ((rc = cli_parse(self, argc, argv, &o, sizeof(o))) >= 0)
		return rc;
	d = diag_new(stderr);
	if (cli_load(&o.script, FRONTEND_EXPAND, d, &fe) == 0) {
		pcg_emit(fe.pcg, stdout);
		frontend_free(&fe);
		rc = 0;
	} else
		rc = EXIT_BADINPUT;
	diag_free(d);
	cli_opts_free(self, &o);
	return cli_exit(rc);
}

static const struct cli_option cmd_expand_options[] = {
	CLI_OPTIONS_SCRIPT(struct cmd_expand_opts, script),
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
