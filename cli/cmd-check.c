/* cmd-check.c -- 'ensemble check': parse, expand and check a script, build
 * its annotated graph and print a one-line summary. */
#include "config.h"

#include <stdio.h>

#include "cmd.h"
#include "graph.h"

/* What check's options say. */
struct cmd_check_opts {
	struct cli_script	 script;
	int			 code;
	struct cli_list		 sources;	/* --source COMP=FILE */
	struct cli_list		 flags;		/* after -- */
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
	if (!o.code && (o.sources.n > 0 || o.flags.n > 0)) {
		fprintf(stderr, "ensemble check: %s is for --code\n",
		    o.sources.n > 0 ? "--source" : "a compiler flag after '--'");
		cli_usage(stderr, self);
#ifdef ENS_FREE_AT_EXIT
		frontend_free(&fe);
#endif
		rc = EXIT_BADINPUT;
		goto out;
	}
	g = fe.pcg;
	G = pcg_graph(g);
	printf("%s: %s, %d channel%s, %d component%s\n", g->name,
	    pcg_nprocs_text(g, pn, sizeof(pn)),
	    agnedges(G), agnedges(G) == 1 ? "" : "s",
	    g->ncomps, g->ncomps == 1 ? "" : "s");
	rc = 0;
	if (o.code) {
		fflush(stdout);
		rc = cli_codecheck(g, &o.script.pcg, &o.sources, &o.flags, d,
		    stdout, 0, NULL);
		if (rc != 0)
			diag_summary(d);
	}
#ifdef ENS_FREE_AT_EXIT
	agclose(G);
	frontend_free(&fe);
#endif	/* else the exit frees them faster, a tenth of the time at 100,000 */
out:
	diag_free(d);
	cli_opts_free(self, &o);
	return cli_exit(rc);
}

static const struct cli_option cmd_check_options[] = {
	CLI_OPTIONS_SCRIPT(struct cmd_check_opts, script),
	{ .type = CLI_FLAG, .name = "--code", .off = offsetof(struct cmd_check_opts,
	  code), .help = "also hold each process's code to its BEHAVIOUR:\n"
	    "every sequence of port calls its source can make\n"
	    "must be one the behaviour allows" },
	{ .type = CLI_LIST, .name = "--source", .arg = "COMP=FILE",
	  .off = offsetof(struct cmd_check_opts, sources),
	  .needs = "COMPONENT=FILE",
	  .help = "the source of a component's processes (default: the\n"
	    "'source' annotation, or a file of the executable's\n"
	    "name and a source's ending beside it or its script)" },
	{ .type = CLI_REST, .arg = "COMPILER-FLAG...",
	  .off = offsetof(struct cmd_check_opts, flags) },
	{ CLI_END }
};

const struct cmd_entry cmd_check_entry = {
	.name = "check",
	.args = "SCRIPT",
	.summary = "Check a script and print a summary of its process graph.",
	.options = cmd_check_options,
	.help =
	    "With --code, the flags after -- go to the compiler (libclang) for C\n"
	    "and C++ sources.\n"
	    "\n"
	    "Exit status: 0 when the script is correct (warnings allowed), 1 when a\n"
	    "process's code makes calls its behaviour does not allow (--code), 2\n"
	    "on errors (code that cannot be followed too), 3 when a comparison\n"
	    "was not decided.\n",
	.exec = cmd_check_exec,
};
