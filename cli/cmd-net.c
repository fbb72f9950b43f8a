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
	struct cli_opts	 o;
	struct diag	*d = NULL;
	struct pcg	*g = NULL;
	struct mpnet	*mp = NULL;
	struct net	*n = NULL;
	enum check_mode	 mode = CHECK_BUFFERED;
	const char	*ext;
	char		*cause = NULL;
	FILE		*f = NULL;
	int		 rc, fmt = FMT_DOT, tostdout, wrc = 0;

	if ((rc = cli_parse(self, argc, argv, &o)) >= 0)
		return rc;
	rc = EXIT_BADINPUT;
	if (o.send_modes == (1 << CHECK_BUFFERED | 1 << CHECK_SYNC)) {
		fprintf(stderr, "ensemble net: a net is for one send mode "
		    "(--send-mode=buffered or synchronous)\n");
		goto out;
	}
	if (o.send_modes == 1 << CHECK_SYNC)
		mode = CHECK_SYNC;
	if (o.output == NULL) {
		fprintf(stderr, "ensemble net: no output given (-o FILE, or -o - "
		    "for DOT on stdout)\n");
		cli_usage(stderr, self);
		goto out;
	}
	tostdout = strcmp(o.output, "-") == 0;
	if (o.format != NULL) {
		if ((fmt = cmd_net_format(o.format)) < 0) {
			fprintf(stderr, "ensemble net: unknown format '%s' (svg, png, "
			    "pdf, dot, pnml or promela)\n", o.format);
			goto out;
		}
	} else if (!tostdout) {
		if ((ext = draw_suffix(o.output)) == NULL ||
		    (fmt = cmd_net_format(ext)) < 0) {
			fprintf(stderr, "ensemble net: cannot tell the format of '%s' "
			    "(name it .svg, .png, .pdf, .dot, .pnml or .pml, or give "
			    "-T)\n",
			    o.output);
			goto out;
		}
	}
	if (o.layout != NULL && (fmt == FMT_PNML || fmt == FMT_PROMELA)) {
		fprintf(stderr, "ensemble net: -K is for drawings, not %s\n",
		    fmt == FMT_PNML ? "PNML" : "Promela");
		goto out;
	}
	d = diag_new(stderr);
	o.pcg.skip_exec_check = 1;
	if ((g = cli_load(&o, d)) == NULL)
		goto out;
	if ((mp = mpnet_compile(g)) == NULL) {
		diag_summary(d);
		goto out;
	}
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
	else if ((f = fopen(o.output, "w")) == NULL) {
		fprintf(stderr, "ensemble: cannot write '%s': %s\n", o.output,
		    strerror(errno));
		goto out;
	}
	if (fmt == FMT_PNML ? pnml_write(n, f, &cause) != 0 :
	    fmt == FMT_PROMELA ? (wrc = promela_write(n, f, &cause)) != 0 :
	    netdraw(n, fmt, o.layout, f, &cause) != 0) {
		if (wrc == -2)
			fprintf(stderr, "ensemble net: %s: no Promela model in %s "
			    "mode: %s\n", g->name, check_mode_name(mode), cause);
		else
			fprintf(stderr, "ensemble: cannot write '%s': %s\n",
			    o.output, cause);
		if (!tostdout) {
			fclose(f);
			draw_remove_partial(o.output);
		}
		goto out;
	}
	if (!tostdout && fclose(f) != 0) {
		fprintf(stderr, "ensemble: cannot write '%s': %s\n", o.output,
		    strerror(errno));
		draw_remove_partial(o.output);
		goto out;
	}
	rc = 0;
out:
	free(cause);
	net_free(n);
	mpnet_free(mp);
	pcg_free(g);
	diag_free(d);
	cli_opts_free(&o);
	return cli_exit(rc);
}

static const struct cli_option cmd_net_options[] = {
	CLI_OPTION_OUTPUT("write to FILE; its ending (.svg, .png, .pdf, .dot,\n"
	    ".gv, .pnml or .pml, any case) gives the format; '-o -'\n"
	    "writes to stdout, DOT unless -T says otherwise"),
	CLI_OPTION_FORMAT("the format, whatever the file's name: svg, png, pdf,\n"
	    "dot, pnml (the P/T net for Petri net tools) or\n"
	    "promela (for SPIN)"),
	CLI_OPTION_LAYOUT("the Graphviz layout engine of a drawing (default dot)"),
	CLI_OPTION_SEND_MODE("the net of standard sends that are buffered (the\n"
	    "default) or synchronous"),
	CLI_OPTIONS_SCRIPT,
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
