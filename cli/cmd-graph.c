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

/* What graph's options say. */
struct cmd_graph_opts {
	struct cli_script	 script;
	struct cli_draw		 draw;
	int			 pcg_dot;	/* --pcg */
};

/* The formats -T takes (draw_format_of: also gv, and any case). */
static const char *const cmd_graph_formats[] = {
	"svg", "png", "pdf", "dot", NULL
};

static int
cmd_graph_exec(const struct cmd_entry *self, int argc, char **argv)
{
	struct cmd_graph_opts	 o;
	struct cli_draw		*dr = &o.draw;
	struct frontend		 fe;
	struct diag		*d = NULL;
	int			 fmt = DRAW_DOT;
	const char		*ext;
	char			*cause;
	Agraph_t		*G;
	FILE			*f;
	int			 rc;

	if ((rc = cli_parse(self, argc, argv, &o, sizeof(o))) >= 0)
		return rc;
	rc = EXIT_BADINPUT;
	if (dr->output == NULL) {
		fprintf(stderr, "ensemble graph: no output given (-o FILE, or -o - "
		    "for DOT on stdout)\n");
		cli_usage(stderr, self);
		goto out;
	}
	if (dr->format != NULL) {
		if ((fmt = draw_format_of(dr->format)) < 0) {
			fprintf(stderr, "ensemble graph: unknown format '%s' (svg, png, "
			    "pdf or dot)\n", dr->format);
			goto out;
		}
	} else if (strcmp(dr->output, "-") != 0) {
		if ((ext = draw_suffix(dr->output)) == NULL ||
		    (fmt = draw_format_of(ext)) < 0) {
			fprintf(stderr, "ensemble graph: cannot tell the format of '%s' "
			    "(name it .svg, .png, .pdf or .dot, or give -T)\n",
			    dr->output);
			goto out;
		}
	}
	if (dr->layout != NULL && !cli_known(cli_layouts, dr->layout)) {
		fprintf(stderr, "ensemble graph: unknown layout '%s' (dot, neato, fdp, "
		    "sfdp, circo or twopi)\n", dr->layout);
		goto out;
	}
	if (o.pcg_dot && fmt != DRAW_DOT) {
		fprintf(stderr, "ensemble graph: --pcg writes DOT (name the output "
		    ".dot or -)\n");
		goto out;
	}
	d = diag_new(stderr);
	if (cli_load(&o.script, FRONTEND_EXPAND, d, &fe) != 0)
		goto out;
	G = pcg_graph(fe.pcg);
	frontend_free(&fe);
	if (o.pcg_dot) {
		f = strcmp(dr->output, "-") == 0 ? stdout : fopen(dr->output, "w");
		if (f == NULL || agwrite(G, f) == EOF || (f != stdout && fclose(f) != 0)) {
			fprintf(stderr, "ensemble: cannot write '%s': %s\n", dr->output,
			    strerror(errno));
			agclose(G);
			goto out;
		}
	} else if (draw_pcg(G, fmt, dr->layout, dr->output, &cause) != 0) {
		fprintf(stderr, "ensemble: %s\n", cause);
		free(cause);
		agclose(G);
		goto out;
	}
	agclose(G);
	rc = 0;
out:
	diag_free(d);
	cli_opts_free(self, &o);
	return cli_exit(rc);
}

static const struct cli_option cmd_graph_options[] = {
	CLI_OPTIONS_DRAW(struct cmd_graph_opts, draw,
	    "write the drawing to FILE; its ending (.svg, .png, .pdf,\n"
	    ".dot or .gv, any case) gives the format; '-o -' writes\n"
	    "to stdout, DOT unless -T says otherwise",
	    cmd_graph_formats,
	    "the format, whatever the file's name: svg, png, pdf, dot",
	    "the Graphviz layout engine: dot (the default), circo (the\n"
	    "default for a ring), neato, fdp, sfdp, twopi"),
	{ .type = CLI_FLAG, .name = "--pcg",
	  .off = offsetof(struct cmd_graph_opts, pcg_dot),
	  .help = "write the annotated PCG (each process's ports,\n"
	    "executable, arguments and placement, each channel's\n"
	    "tag) as DOT instead of a drawing" },
	CLI_OPTIONS_SCRIPT(struct cmd_graph_opts, script),
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
