/* cmd-graph.c -- 'ensemble graph': draw the process graph (SVG, PNG, PDF or
 * DOT), or write the annotated PCG itself as DOT with --pcg: every process
 * with its ports, executable, arguments, environment, placement and
 * behaviour, every channel with its tag (common/pcgdot.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "graph.h"

static int
known_layout(const char *name)
{
	static const char *const layouts[] = {
		"dot", "neato", "fdp", "sfdp", "circo", "twopi",
	};
	size_t	i;

	for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		if (strcmp(name, layouts[i]) == 0)
			return 1;
	return 0;
}

static int
cmd_graph_exec(const struct cmd_entry *self, int argc, char **argv)
{
	struct cli_opts	 o;
	struct diag	*d = NULL;
	struct pcg	*g;
	int		 fmt = DRAW_DOT;
	const char	*ext;
	char		*cause;
	Agraph_t	*G;
	FILE		*f;
	int		 rc;

	if ((rc = cli_parse(self, argc, argv, &o)) >= 0)
		return rc;
	rc = EXIT_BADINPUT;
	if (o.output == NULL) {
		fprintf(stderr, "ensemble graph: no output given (-o FILE, or -o - "
		    "for DOT on stdout)\n");
		cli_usage(stderr, self);
		goto out;
	}
	if (o.format != NULL) {
		if ((fmt = draw_format_of(o.format)) < 0) {
			fprintf(stderr, "ensemble graph: unknown format '%s' (svg, png, "
			    "pdf or dot)\n", o.format);
			goto out;
		}
	} else if (strcmp(o.output, "-") != 0) {
		if ((ext = draw_suffix(o.output)) == NULL ||
		    (fmt = draw_format_of(ext)) < 0) {
			fprintf(stderr, "ensemble graph: cannot tell the format of '%s' "
			    "(name it .svg, .png, .pdf or .dot, or give -T)\n", o.output);
			goto out;
		}
	}
	if (o.layout != NULL && !known_layout(o.layout)) {
		fprintf(stderr, "ensemble graph: unknown layout '%s' (dot, neato, fdp, "
		    "sfdp, circo or twopi)\n", o.layout);
		goto out;
	}
	if (o.pcg_dot && fmt != DRAW_DOT) {
		fprintf(stderr, "ensemble graph: --pcg writes DOT (name the output "
		    ".dot or -)\n");
		goto out;
	}
	d = diag_new(stderr);
	if ((g = cli_load(&o, d)) == NULL)
		goto out;
	G = pcg_graph(g);
	pcg_free(g);
	if (o.pcg_dot) {
		f = strcmp(o.output, "-") == 0 ? stdout : fopen(o.output, "w");
		if (f == NULL || agwrite(G, f) == EOF || (f != stdout && fclose(f) != 0)) {
			fprintf(stderr, "ensemble: cannot write '%s': %s\n", o.output,
			    strerror(errno));
			agclose(G);
			goto out;
		}
	} else if (draw_pcg(G, fmt, o.layout, o.output, &cause) != 0) {
		fprintf(stderr, "ensemble: %s\n", cause);
		free(cause);
		agclose(G);
		goto out;
	}
	agclose(G);
	rc = 0;
out:
	diag_free(d);
	cli_opts_free(&o);
	return cli_exit(rc);
}

static const struct cli_option cmd_graph_options[] = {
	CLI_OPTION_OUTPUT("write the drawing to FILE; its ending (.svg, .png, .pdf,\n"
	    ".dot or .gv, any case) gives the format; '-o -' writes\n"
	    "to stdout, DOT unless -T says otherwise"),
	CLI_OPTION_FORMAT("the format, whatever the file's name: svg, png, pdf, dot"),
	CLI_OPTION_LAYOUT("the Graphviz layout engine: dot (the default), circo (the\n"
	    "default for a ring), neato, fdp, sfdp, twopi"),
	{ .type = CLI_FLAG, .name = "--pcg", .off = CLI_OFF(pcg_dot),
	  .help = "write the annotated PCG (each process's ports,\n"
	    "executable, arguments and placement, each channel's\n"
	    "tag) as DOT instead of a drawing" },
	CLI_OPTIONS_SCRIPT,
	{ CLI_END }
};

const struct cmd_entry cmd_graph_entry = {
	.name = "graph",
	.args = "SCRIPT",
	.summary = "Draw the script's process graph.",
	.options = cmd_graph_options,
	.help =
	    "Exit status: 0 when drawn, 2 on errors in the script or the options, or\n"
	    "when the drawing cannot be made or written.\n",
	.exec = cmd_graph_exec,
};
