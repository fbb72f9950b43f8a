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

#include <graphviz/gvc.h>

#include "cmd.h"
#include "graph.h"
#include "net.h"
#include "sem.h"
#include "xmalloc.h"

/* Drawings past this many transitions are no use to anyone. */
#define CMD_NET_MAX_DRAWN	2000

enum { FMT_DOT, FMT_SVG, FMT_PNG, FMT_PDF, FMT_PNML };

static int
cmd_net_format(const char *name, int *fmt)
{
	static const struct { const char *name; int fmt; } formats[] = {
		{ "dot", FMT_DOT }, { "gv", FMT_DOT }, { "svg", FMT_SVG },
		{ "png", FMT_PNG }, { "pdf", FMT_PDF }, { "pnml", FMT_PNML },
	};
	size_t	i;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (strcasecmp(name, formats[i].name) == 0) {
			*fmt = formats[i].fmt;
			return 0;
		}
	}
	return -1;
}

/* The statement part of a transition's name "relay[1]: send Prop[1]". */
static const char *
cmd_net_stmt(const char *name)
{
	const char	*c = strstr(name, ": ");

	return c != NULL ? c + 2 : name;
}

/* The node of place p, in its process's cluster when it has one. */
static Agnode_t *
cmd_net_place(Agraph_t *G, Agraph_t **cl, const struct net *n, int p)
{
	const struct net_place	*pl = &n->places[p];
	Agraph_t		*home = pl->proc >= 0 ? cl[pl->proc] : G;
	Agnode_t		*v;
	char			 id[32], label[512];
	const char		*dot;

	snprintf(id, sizeof(id), "p%d", p);
	if ((v = agnode(G, id, 0)) != NULL)
		return v;
	v = agnode(home, id, 1);
	if (home != G)
		agsubnode(G, v, 1);
	agset(v, "tooltip", pl->name);
	switch (pl->kind) {
	case NP_CONTROL:
		snprintf(label, sizeof(label), "pc%d%s", pl->pc, pl->init > 0 ?
		    "\n\xe2\x97\x8f" : "");
		agset(v, "label", label);
		agset(v, "shape", "circle");
		break;
	case NP_CHAN:
		/* "a.P[1]->b.Q[1]": the ports only; the clusters say who. */
		dot = strchr(pl->name, '.');
		snprintf(label, sizeof(label), "%s", dot != NULL ? dot + 1 : pl->name);
		if ((dot = strstr(label, "->")) != NULL && strchr(dot, '.') != NULL)
			memmove(label + (dot - label) + 2, strchr(dot, '.') + 1,
			    strlen(strchr(dot, '.') + 1) + 1);
		agset(v, "label", label);
		agset(v, "shape", "ellipse");
		agset(v, "style", "filled");
		agset(v, "fillcolor", "#fff2cc");
		break;
	default:
		/* Counters, requests, collective bookkeeping. */
		dot = strrchr(pl->name, '.');
		snprintf(label, sizeof(label), "%s%s", dot != NULL && pl->proc >= 0 ?
		    dot + 1 : pl->name, pl->init > 0 ? " \xe2\x97\x8f" : "");
		agset(v, "label", label);
		agset(v, "shape", "ellipse");
		agset(v, "style", "dashed");
		break;
	}
	return v;
}

static void
cmd_net_arc(Agraph_t *G, Agnode_t *t, Agnode_t *h, int64_t w, int test)
{
	Agedge_t	*e = agedge(G, t, h, NULL, 1);
	char		 lab[32];

	if (w > 1) {
		snprintf(lab, sizeof(lab), "%" PRId64, w);
		agset(e, "label", lab);
	}
	if (test) {
		agset(e, "dir", "both");
		agset(e, "style", "dashed");
	}
}

/* The drawing graph of a net: clusters per process, complements left out
 * (they only mirror their place). */
static Agraph_t *
cmd_net_graph(const struct net *n)
{
	const struct mpnet	*mp = n->mp;
	Agraph_t		*G, **cl;
	Agnode_t		*tv, *pv;
	char			 id[64], pn[PCG_NAME_MAX], label[PCG_NAME_MAX + 64];
	int			 i, k, j, test;

	G = agopen("net", Agdirected, NULL);
	snprintf(label, sizeof(label), "%s (%s mode)", mp->pcg->name,
	    check_mode_name(n->mode));
	agattr(G, AGRAPH, "label", label);
	agattr(G, AGRAPH, "labelloc", "t");
	agattr(G, AGRAPH, "fontname", "Helvetica");
	agattr(G, AGRAPH, "style", "rounded");
	agattr(G, AGRAPH, "color", "#888888");
	agattr(G, AGRAPH, "nodesep", "0.3");
	agattr(G, AGRAPH, "ranksep", "0.35");
	agattr(G, AGNODE, "fontname", "Helvetica");
	agattr(G, AGNODE, "fontsize", "10");
	agattr(G, AGNODE, "label", "\\N");
	agattr(G, AGNODE, "shape", "box");
	agattr(G, AGNODE, "style", "");
	agattr(G, AGNODE, "fillcolor", "");
	agattr(G, AGNODE, "tooltip", "");
	agattr(G, AGNODE, "width", "0.3");
	agattr(G, AGNODE, "height", "0.3");
	agattr(G, AGNODE, "penwidth", "1");
	agattr(G, AGEDGE, "label", "");
	agattr(G, AGEDGE, "dir", "forward");
	agattr(G, AGEDGE, "style", "");
	agattr(G, AGEDGE, "arrowsize", "0.6");
	agattr(G, AGEDGE, "fontsize", "9");

	cl = xcalloc(mp->nprocs + 1, sizeof(*cl));
	for (i = 0; i < mp->nprocs; i++) {
		snprintf(id, sizeof(id), "cluster_p%d", i);
		cl[i] = agsubg(G, id, 1);
		agset(cl[i], "label", (char *)pcg_proc_name(mp->pcg, i, pn, sizeof(pn)));
	}
	for (i = 0; i < n->nplaces; i++)
		if (!net_is_complement(n, i))
			cmd_net_place(G, cl, n, i);
	for (i = 0; i < n->ntrans; i++) {
		const struct net_trans	*t = &n->trans[i];
		Agraph_t		*home = t->kind == T_COLL ? G : cl[t->proc];

		snprintf(id, sizeof(id), "t%d", i);
		tv = agnode(home, id, 1);
		if (home != G)
			agsubnode(G, tv, 1);
		agset(tv, "label", (char *)(t->kind == T_COLL ? t->name :
		    cmd_net_stmt(t->name)));
		agset(tv, "tooltip", t->name);
		agset(tv, "style", "filled");
		agset(tv, "fillcolor", t->kind == T_COLL ? "#d9d2e9" : "#cfe2f3");
		for (k = 0; k < t->npre; k++) {
			int	p = t->pre[k].place;

			if (net_is_complement(n, p))
				continue;
			test = 0;
			for (j = 0; j < t->npost; j++)
				if (t->post[j].place == p && t->post[j].w == t->pre[k].w)
					test = 1;
			pv = cmd_net_place(G, cl, n, p);
			cmd_net_arc(G, pv, tv, t->pre[k].w, test);
		}
		for (k = 0; k < t->npost; k++) {
			int	p = t->post[k].place;

			if (net_is_complement(n, p))
				continue;
			for (j = 0; j < t->npre; j++)
				if (t->pre[j].place == p && t->pre[j].w == t->post[k].w)
					break;
			if (j < t->npre)
				continue;	/* drawn as a test */
			cmd_net_arc(G, tv, cmd_net_place(G, cl, n, p), t->post[k].w, 0);
		}
	}
	free(cl);
	return G;
}

static int
cmd_net_draw(const struct net *n, int fmt, const char *layout, FILE *f, char **cause)
{
	static const char *const names[] = { "dot", "svg", "png", "pdf" };
	GVC_t		*gvc;
	Agraph_t	*G;
	int		 rc = -1;

	if (n->ntrans > CMD_NET_MAX_DRAWN) {
		xasprintf(cause, "the net has %d transitions, too many to draw "
		    "(at most %d; write it as PNML instead)", n->ntrans,
		    CMD_NET_MAX_DRAWN);
		return -1;
	}
	gvc = gvContext();
	G = cmd_net_graph(n);
	if (fmt == FMT_DOT) {
		if (agwrite(G, f) == EOF)
			xasprintf(cause, "%s", strerror(errno));
		else
			rc = 0;
	} else if (gvLayout(gvc, G, layout != NULL ? layout : "dot") != 0)
		xasprintf(cause, "Graphviz could not lay out the net");
	else {
		if (gvRender(gvc, G, names[fmt], f) != 0)
			xasprintf(cause, "Graphviz cannot render '%s' (is the Debian "
			    "package 'graphviz' installed?)", names[fmt]);
		else
			rc = 0;
		gvFreeLayout(gvc, G);
	}
	agclose(G);
	gvFreeContext(gvc);
	return rc;
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
	int		 rc, fmt = FMT_DOT, tostdout;

	if ((rc = cli_parse(self, argc, argv, &o, CLI_OUTPUT | CLI_VERIFY)) >= 0)
		return rc;
	rc = EXIT_BADINPUT;
	if (o.exact || o.max_states || o.max_memory_mb || o.json || o.stats ||
	    o.progress >= 0 || o.explain != NULL || o.pcg_dot) {
		fprintf(stderr, "ensemble net: only -o, -T, -K, --send-mode, -np, -D "
		    "and -L apply here\nusage: ensemble %s\n", self->usage);
		goto out;
	}
	if (o.send_mode != NULL && strcmp(o.send_mode, "both") == 0) {
		fprintf(stderr, "ensemble net: a net is for one send mode "
		    "(--send-mode=buffered or synchronous)\n");
		goto out;
	}
	if (o.send_mode != NULL && strcmp(o.send_mode, "synchronous") == 0)
		mode = CHECK_SYNC;
	if (o.output == NULL) {
		fprintf(stderr, "ensemble net: no output given (-o FILE, or -o - "
		    "for DOT on stdout)\nusage: ensemble %s\n", self->usage);
		goto out;
	}
	tostdout = strcmp(o.output, "-") == 0;
	if (o.format != NULL) {
		if (cmd_net_format(o.format, &fmt) != 0) {
			fprintf(stderr, "ensemble net: unknown format '%s' (svg, png, "
			    "pdf, dot or pnml)\n", o.format);
			goto out;
		}
	} else if (!tostdout) {
		ext = strrchr(o.output, '.');
		if (ext == NULL || strchr(ext, '/') != NULL ||
		    cmd_net_format(ext + 1, &fmt) != 0) {
			fprintf(stderr, "ensemble net: cannot tell the format of '%s' "
			    "(name it .svg, .png, .pdf, .dot or .pnml, or give -T)\n",
			    o.output);
			goto out;
		}
	}
	if (o.layout != NULL && fmt == FMT_PNML) {
		fprintf(stderr, "ensemble net: -K is for drawings, not PNML\n");
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
		fprintf(stderr, "ensemble net: %s: no P/T net in %s mode: %s\n",
		    g->name, check_mode_name(mode), cause);
		goto out;
	}
	if (fmt != FMT_PNML && n->ntrans > CMD_NET_MAX_DRAWN) {
		fprintf(stderr, "ensemble net: %s: the net has %d transitions, too "
		    "many to draw (at most %d); write it as PNML (-T pnml)\n",
		    g->name, n->ntrans, CMD_NET_MAX_DRAWN);
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
	    cmd_net_draw(n, fmt, o.layout, f, &cause) != 0) {
		fprintf(stderr, "ensemble: cannot write '%s': %s\n", o.output, cause);
		if (!tostdout) {
			fclose(f);
			remove(o.output);
		}
		goto out;
	}
	if (!tostdout && fclose(f) != 0) {
		fprintf(stderr, "ensemble: cannot write '%s': %s\n", o.output,
		    strerror(errno));
		remove(o.output);
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

const struct cmd_entry cmd_net_entry = {
	.name = "net",
	.usage = "net SCRIPT -o FILE|- [-T FORMAT] [-K LAYOUT] "
	    "[--send-mode=buffered|synchronous] [-np K] [-D NAME=VALUE]... "
	    "[-L DIR]...",
	.summary = "Draw the script's MP net, or write it as PNML.",
	.help =
	    "  -o FILE         write to FILE; its ending (.svg, .png, .pdf, .dot,\n"
	    "                  .gv or .pnml, any case) gives the format; '-o -'\n"
	    "                  writes to stdout, DOT unless -T says otherwise\n"
	    "  -T FORMAT       the format, whatever the file's name: svg, png, pdf,\n"
	    "                  dot, or pnml (the P/T net for Petri net tools)\n"
	    "  -K LAYOUT       the Graphviz layout engine of a drawing (default dot)\n"
	    "  --send-mode=M   the net of standard sends that are buffered (the\n"
	    "                  default) or synchronous\n"
	    CLI_SCRIPT_HELP
	    "\n"
	    "The net is the place/transition net 'ensemble verify --exact' explores:\n"
	    "a control place per statement a process can wait at, a place per\n"
	    "channel direction (its messages), loop counters and request slots with\n"
	    "complement places (left out of drawings).  Drawings stop at 2000\n"
	    "transitions; PNML has no limit.\n"
	    "\n"
	    "Exit status: 0 when written, 2 on errors in the script or the options,\n"
	    "when the mode has no P/T net (a channel without bound tested for\n"
	    "emptiness), or when the output cannot be made or written.\n",
	.exec = cmd_net_exec,
};
