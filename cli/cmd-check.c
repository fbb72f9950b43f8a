/* cmd-check.c -- 'ensemble check': parse, expand and check a script, build
 * its annotated graph and print a one-line summary. */
#include "config.h"

#include <stdio.h>

#include "cmd.h"
#include "graph.h"

/* What check's options say. */
struct cmd_check_opts {
	struct cli_script	 script;
};

static int
cmd_check_exec(const struct cmd_entry *self, int argc, char **argv)
{
	struct cmd_check_opts	 o;
	struct frontend		 fe;
	struct diag		*d;
	struct pcg		*g;
	Agraph_t		*G;
	char			 pn[PCG_NAME_MAX];
	int			 rc;

	if ((rc = cli_parse(self, argc, argv, &o, sizeof(o))) >= 0)
		return rc;
	d = diag_new(stderr);
	if (cli_load(&o.script, FRONTEND_EXPAND, d, &fe) != 0) {
		rc = EXIT_BADINPUT;
		goto out;
	}
	g = fe.pcg;
	G = pcg_graph(g);
	printf("%s: %s, %d channel%s, %d component%s\n", g->name,
	    pcg_nprocs_text(g, pn, sizeof(pn)),
	    agnedges(G), agnedges(G) == 1 ? "" : "s",
	    g->ncomps, g->ncomps == 1 ? "" : "s");
#ifdef ENS_FREE_AT_EXIT
	agclose(G);
	frontend_free(&fe);
#endif	/* else the exit frees them faster, a tenth of the time at 100,000 */
	rc = 0;
out:
	diag_free(d);
	cli_opts_free(self, &o);
	return cli_exit(rc);
}

static const struct cli_option cmd_check_options[] = {
	CLI_OPTIONS_SCRIPT(struct cmd_check_opts, script),
	{ CLI_END }
};

const struct cmd_entry cmd_check_entry = {
	.name = "check",
	.args = "SCRIPT",
	.summary = "Check a script and print a summary of its process graph.",
	.options = cmd_check_options,
	.help =
	    "Exit status: 0 when the script is correct (warnings allowed), 2 on errors.\n",
	.exec = cmd_check_exec,
};
