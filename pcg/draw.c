/* draw.c -- the PCG drawn as in the Ensemble paper: each process a box with
 * its name and component above a row of port cells grouped by type, each
 * channel a line between two port cells, processes placed on a host grouped
 * in a cluster.  Reads only the annotated graph. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <graphviz/gvc.h>

#include "graph.h"
#include "xmalloc.h"

static const char *const palette[] = {
	"#cfe2f3", "#d9ead3", "#fff2cc", "#f4cccc", "#d9d2e9", "#fce5cd",
	"#d0e0e3", "#ead1dc",
};

static void
html_escape(struct buf *b, const char *s)
{
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '&':	buf_adds(b, "&amp;"); break;
		case '<':	buf_adds(b, "&lt;"); break;
		case '>':	buf_adds(b, "&gt;"); break;
		case '"':	buf_adds(b, "&quot;"); break;
		default:	buf_addc(b, *s); break;
		}
	}
}

/* The cell name of a port "Client[2]": Client_2. */
static void
port_id(char *out, size_t len, const char *port)
{
	size_t	i;

	snprintf(out, len, "%s", port);
	for (i = 0; out[i] != '\0'; i++) {
		if (out[i] == '[')
			out[i] = '_';
		else if (out[i] == ']')
			out[i] = '\0';
	}
}

static int
comp_colour(const char *components, const char *comp)
{
	const char	*p = components;
	size_t		 n = strlen(comp);
	int		 i = 0;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, comp, n) == 0 && p[n] == ':')
			return i % (int)(sizeof(palette) / sizeof(palette[0]));
		p = strchr(p, ' ');
		if (p != NULL)
			p++;
		i++;
	}
	return 0;
}

/* "Client:2 Prop:0" -> the label's port rows. */
static void
node_label(struct buf *b, const char *name, const char *comp, const char *ports,
    const char *colour)
{
	char		*copy = xstrdup(ports), *tok, *save = NULL, *colon;
	int		 ntypes = 0, i, n;

	for (tok = strtok_r(copy, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save))
		if ((colon = strchr(tok, ':')) != NULL && atoi(colon + 1) > 0)
			ntypes++;
	free(copy);

	buf_reset(b);
	buf_adds(b, "<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" "
	    "CELLPADDING=\"3\" BGCOLOR=\"white\">");
	buf_printf(b, "<TR><TD COLSPAN=\"%d\" BGCOLOR=\"%s\"><B>", ntypes ? ntypes : 1, colour);
	html_escape(b, name);
	buf_adds(b, "</B><BR/><FONT POINT-SIZE=\"10\"><I>");
	html_escape(b, comp);
	buf_adds(b, "</I></FONT></TD></TR>");
	if (ntypes == 0) {
		buf_adds(b, "</TABLE>");
		return;
	}
	buf_adds(b, "<TR>");
	copy = xstrdup(ports);
	save = NULL;
	for (tok = strtok_r(copy, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
		if ((colon = strchr(tok, ':')) == NULL || (n = atoi(colon + 1)) <= 0)
			continue;
		*colon = '\0';
		buf_adds(b, "<TD BORDER=\"0\" CELLPADDING=\"0\"><TABLE BORDER=\"0\" "
		    "CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"2\">");
		buf_printf(b, "<TR><TD COLSPAN=\"%d\"><FONT POINT-SIZE=\"9\">", n);
		html_escape(b, tok);
		buf_adds(b, "</FONT></TD></TR><TR>");
		for (i = 1; i <= n; i++) {
			buf_adds(b, "<TD PORT=\"");
			html_escape(b, tok);
			buf_printf(b, "_%d\"><FONT POINT-SIZE=\"9\">%d</FONT></TD>", i, i);
		}
		buf_adds(b, "</TR></TABLE></TD>");
	}
	free(copy);
	buf_adds(b, "</TR></TABLE>");
}

static void
set_html(Agraph_t *R, void *obj, Agsym_t *sym, const char *html)
{
	char	*h = agstrdup_html(R, (char *)html);

	agxset(obj, sym, h);
	agstrfree(R, h);
}

/* The drawing graph of an annotated PCG; caller closes it. */
static Agraph_t *
draw_graph(Agraph_t *G)
{
	Agraph_t	*R, *cluster;
	Agnode_t	*v, *w;
	Agedge_t	*e, *f;
	Agsym_t		*s_label, *s_tp, *s_hp, *s_tip;
	struct buf	 b;
	char		 id[256], *comps, *app;

	R = agopen("pcg", Agundirected, NULL);
	app = agget(G, "application");
	agattr(R, AGRAPH, "label", app != NULL ? app : "");
	agattr(R, AGRAPH, "labelloc", "t");
	agattr(R, AGRAPH, "fontname", "Helvetica");
	agattr(R, AGRAPH, "fontsize", "16");
	agattr(R, AGRAPH, "nodesep", "0.4");
	agattr(R, AGRAPH, "ranksep", "0.6");
	agattr(R, AGRAPH, "style", "");
	agattr(R, AGRAPH, "color", "");
	agattr(R, AGNODE, "shape", "plain");
	agattr(R, AGNODE, "fontname", "Helvetica");
	s_label = agattr(R, AGNODE, "label", "");
	agattr(R, AGEDGE, "penwidth", "1.5");
	agattr(R, AGEDGE, "color", "#444444");
	s_tp = agattr(R, AGEDGE, "tailport", "");
	s_hp = agattr(R, AGEDGE, "headport", "");
	s_tip = agattr(R, AGEDGE, "tooltip", "");

	comps = agget(G, "components");
	buf_init(&b);
	for (v = agfstnode(G); v != NULL; v = agnxtnode(G, v)) {
		char	*host = agget(v, "host"), *comp = agget(v, "component");
		Agraph_t *home = R;

		if (host != NULL && host[0] != '\0') {
			snprintf(id, sizeof(id), "cluster_host_%s", host);
			if ((cluster = agsubg(R, id, 0)) == NULL) {
				char	label[300];

				cluster = agsubg(R, id, 1);
				snprintf(label, sizeof(label), "host %s", host);
				agset(cluster, "label", label);
				agset(cluster, "style", "rounded,dashed");
				agset(cluster, "color", "#888888");
				agset(cluster, "fontsize", "12");
			}
			home = cluster;
		}
		w = agnode(home, agnameof(v), 1);
		if (home != R)
			agsubnode(R, w, 1);
		node_label(&b, agnameof(v), comp != NULL ? comp : "",
		    agget(v, "ports") != NULL ? agget(v, "ports") : "",
		    palette[comp_colour(comps, comp != NULL ? comp : "")]);
		set_html(R, w, s_label, b.s);
	}
	for (v = agfstnode(G); v != NULL; v = agnxtnode(G, v)) {
		for (e = agfstout(G, v); e != NULL; e = agnxtout(G, e)) {
			Agnode_t	*t = agnode(R, agnameof(agtail(e)), 0);
			Agnode_t	*h = agnode(R, agnameof(aghead(e)), 0);
			char		 tip[600];

			f = agedge(R, t, h, agnameof(e), 1);
			port_id(id, sizeof(id), agget(e, "tail_port"));
			agxset(f, s_tp, id);
			port_id(id, sizeof(id), agget(e, "head_port"));
			agxset(f, s_hp, id);
			snprintf(tip, sizeof(tip), "%s.%s <-> %s.%s (tag %s)",
			    agnameof(agtail(e)), agget(e, "tail_port"),
			    agnameof(aghead(e)), agget(e, "head_port"), agget(e, "tag"));
			agxset(f, s_tip, tip);
		}
	}
	buf_free(&b);
	return R;
}

int
draw_pcg(Agraph_t *G, enum draw_format fmt, const char *path, char **cause)
{
	static const char *const names[] = { "dot", "svg", "png", "pdf" };
	Agraph_t	*R = draw_graph(G);
	GVC_t		*gvc = NULL;
	FILE		*f;
	int		 rc = -1, tostdout = strcmp(path, "-") == 0;

	if (tostdout)
		f = stdout;
	else if ((f = fopen(path, "w")) == NULL) {
		xasprintf(cause, "cannot write '%s': %s", path, strerror(errno));
		agclose(R);
		return -1;
	}
	if (fmt == DRAW_DOT) {
		if (agwrite(R, f) == EOF) {
			xasprintf(cause, "cannot write '%s': %s", path, strerror(errno));
			goto out;
		}
	} else {
		gvc = gvContext();
		if (gvLayout(gvc, R, "dot") != 0) {
			xasprintf(cause, "Graphviz could not lay out the graph");
			goto out;
		}
		if (gvRender(gvc, R, names[fmt], f) != 0) {
			xasprintf(cause, "Graphviz cannot render '%s' (is the "
			    "Debian package 'graphviz' installed?)", names[fmt]);
			gvFreeLayout(gvc, R);
			goto out;
		}
		gvFreeLayout(gvc, R);
	}
	rc = 0;
out:
	if (!tostdout) {
		if (fclose(f) != 0 && rc == 0) {
			xasprintf(cause, "cannot write '%s': %s", path, strerror(errno));
			rc = -1;
		}
		if (rc != 0)
			remove(path);
	}
	if (gvc != NULL)
		gvFreeContext(gvc);
	agclose(R);
	return rc;
}
