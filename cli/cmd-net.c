/* cmd-net.c -- 'ensemble net': the script's MP net for one send mode, as
 * a place/transition net written as PNML, or drawn (DOT, SVG, PNG, PDF)
 * with a cluster per process holding its program net and the channel
 * places between the clusters. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"
#include "graph.h"
#include "net.h"
#include "xmalloc.h"

/* Formats: graph.h's drawings, PNML and Promela. */
enum { FMT_DOT = DRAW_DOT, FMT_SVG = DRAW_SVG, FMT_PNG = DRAW_PNG,
    FMT_PDF = DRAW_PDF, FMT_PNML, FMT_PROMELA };

/* What net's options say. */
struct cmd_net_opts {
	struct cli_script	 script;
	struct cli_draw		 draw;
	int			 send_modes;	/* --send-mode */
};

/* The formats -T takes (cmd_net_format: also gv and pml, any case). */
static const char *const cmd_net_formats[] = {
	"svg", "png", "pdf", "dot", "pnml", "promela", NULL
};

/* The send modes --send-mode takes: a net is of one. */
static const char *const cmd_net_modes[] = { "buffered", "synchronous", NULL };

/* A drawing format of graph.h, PNML, or Promela (named promela or pml). */
static int
cmd_net_format(const char *name)
{
	if (strcasecmp(name, "pnml") == 0)
		return FMT_PNML;
	if (strcasecmp(name, "promela") == 0 || strcasecmp(name, "pml") == 0)
		return FMT_PROMELA;
	return draw_format_of(name);
}

/* Ends the line saying that a net has no P/T net in mode: names the
 * other mode when that one has a net (a root running ahead and a
 * wildcard's order of arrival are buffered mode's). */
static void
other_mode(const struct mpnet *mp, enum check_mode mode)
{
	enum check_mode	 other = mode == CHECK_SYNC ? CHECK_BUFFERED :
			    CHECK_SYNC;
	struct net	*n;
	char		*cause = NULL;

	if ((n = net_build(mp, other, &cause)) != NULL) {
		fprintf(stderr, "; %s mode has one (--send-mode=%s)",
		    check_mode_name(other), check_mode_name(other));
		net_free(n);
	}
	free(cause);
	fputc('\n', stderr);
}

static int
cmd_net_exec(const struct cmd_entry *self, int argc, char **argv)
{
	struct cmd_net_opts	 o;
	struct cli_draw		*dr = &o.draw;
	struct frontend		 fe;
	struct diag		*d = NULL;
	struct pcg		*g;
	struct mpnet		*mp;
	struct net		*n = NULL;
	enum check_mode		 mode = CHECK_BUFFERED;
	const char		*ext;
	char			*cause = NULL;
	FILE			*f = NULL;
	int			 rc, fmt = FMT_DOT, tostdout, wrc = 0;

	memset(&fe, 0, sizeof(fe));
	if ((rc = cli_parse(self, argc, argv, &o, sizeof(o))) >= 0)
		return rc;
	rc = EXIT_BADINPUT;
	if (o.send_modes == (1 << CHECK_BUFFERED | 1 << CHECK_SYNC)) {
		fprintf(stderr, "ensemble net: a net is for one send mode "
		    "(--send-mode=buffered or synchronous)\n");
		goto out;
	}
	if (o.send_modes == 1 << CHECK_SYNC)
		mode = CHECK_SYNC;
	if (dr->output == NULL) {
		fprintf(stderr, "ensemble net: no output given (-o FILE, or -o - "
		    "for DOT on stdout)\n");
		cli_usage(stderr, self);
		goto out;
	}
	tostdout = strcmp(dr->output, "-") == 0;
	if (dr->format != NULL) {
		if ((fmt = cmd_net_format(dr->format)) < 0) {
			fprintf(stderr, "ensemble net: unknown format '%s' (svg, png, "
			    "pdf, dot, pnml or promela)\n", dr->format);
			goto out;
		}
	} else if (!tostdout) {
		if ((ext = draw_suffix(dr->output)) == NULL ||
		    (fmt = cmd_net_format(ext)) < 0) {
			fprintf(stderr, "ensemble net: cannot tell the format of '%s' "
			    "(name it .svg, .png, .pdf, .dot, .pnml or .pml, or give "
			    "-T)\n",
			    dr->output);
			goto out;
		}
	}
	if (dr->layout != NULL && (fmt == FMT_PNML || fmt == FMT_PROMELA)) {
		fprintf(stderr, "ensemble net: -K is for drawings, not %s\n",
		    fmt == FMT_PNML ? "PNML" : "Promela");
		goto out;
	}
	d = diag_new(stderr);
	o.script.pcg.skip_exec_check = 1;
	if (cli_load(&o.script, FRONTEND_COMPILE, d, &fe) != 0)
		goto out;
	g = fe.pcg;
	mp = fe.net;
	if ((n = net_build(mp, mode, &cause)) == NULL) {
		fprintf(stderr, "ensemble net: %s: no P/T net in %s mode: %s",
		    g->name, check_mode_name(mode), cause);
		other_mode(mp, mode);
		goto out;
	}
	if (fmt != FMT_PNML && fmt != FMT_PROMELA && n->ntrans > NET_MAX_DRAWN) {
		fprintf(stderr, "ensemble net: %s: the net has %d transitions, too "
		    "many to draw (at most %d); write it as PNML (-T pnml)\n",
		    g->name, n->ntrans, NET_MAX_DRAWN);
		goto out;
	}
	if (tostdout)
		f = stdout;
	else if ((f = fopen(dr->output, "w")) == NULL) {
		fprintf(stderr, "ensemble: cannot write '%s': %s\n", dr->output,
		    strerror(errno));
		goto out;
	}
	if (fmt == FMT_PNML ? pnml_write(n, f, &cause) != 0 :
	    fmt == FMT_PROMELA ? (wrc = promela_write(n, f, &cause)) != 0 :
	    netdraw(n, fmt, dr->layout, f, &cause) != 0) {
		if (wrc == -2)
			fprintf(stderr, "ensemble net: %s: no Promela model in %s "
			    "mode: %s\n", g->name, check_mode_name(mode), cause);
		else
			fprintf(stderr, "ensemble: cannot write '%s': %s\n",
			    dr->output, cause);
		if (!tostdout) {
			fclose(f);
			draw_remove_partial(dr->output);
		}
		goto out;
	}
	if (!tostdout && fclose(f) != 0) {
		fprintf(stderr, "ensemble: cannot write '%s': %s\n", dr->output,
		    strerror(errno));
		draw_remove_partial(dr->output);
		goto out;
	}
	rc = 0;
out:
	free(cause);
	net_free(n);
	frontend_free(&fe);
	diag_free(d);
	cli_opts_free(self, &o);
	return cli_exit(rc);
}

static const struct cli_option cmd_net_options[] = {
	CLI_OPTIONS_DRAW(struct cmd_net_opts, draw,
	    "write to FILE; its ending (.svg, .png, .pdf, .dot,\n"
	    ".gv, .pnml or .pml, any case) gives the format; '-o -'\n"
	    "writes to stdout, DOT unless -T says otherwise",
	    cmd_net_formats,
	    "the format, whatever the file's name: svg, png, pdf,\n"
	    "dot, pnml (the P/T net for Petri net tools) or\n"
	    "promela (for SPIN)",
	    "the Graphviz layout engine of a drawing (default dot)"),
	CLI_OPTION_SEND_MODE(struct cmd_net_opts, send_modes, cmd_net_modes,
	    "the net of standard sends that are buffered (the\n"
	    "default) or synchronous"),
	CLI_OPTIONS_SCRIPT(struct cmd_net_opts, script),
	{ CLI_END }
};

const struct cmd_entry cmd_net_entry = {
	.name = "net",
	.args = "SCRIPT",
	.summary = "Draw the script's MP net, or write it as PNML or Promela.",
	.options = cmd_net_options,
	.help =
	    "The net is the place/transition net 'ensemble verify --exact' explores:\n"
	    "a control place per statement a process can wait at, a place per\n"
	    "channel direction (its messages), loop counters and request slots with\n"
	    "complement places (left out of drawings).  Drawings stop at 2000\n"
	    "transitions; PNML has no limit.  The Promela model (for SPIN) fails\n"
	    "the assertion !(found_KIND) for each violation 'verify' would report\n"
	    "(ensemble(1): net).\n"
	    "\n"
	    "Exit status: 0 when written, 2 on errors in the script or the options,\n"
	    "when the mode has no P/T net (a channel without bound tested for\n"
	    "emptiness, a wildcard taking messages in the order sent, a root\n"
	    "running ahead of an open collective), or when the output cannot be\n"
	    "made or written.\n",
	.exec = cmd_net_exec,
};
