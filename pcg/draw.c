/* draw.c -- the PCG drawn as in the Ensemble paper: each process a box with
 * its name and component above a row of port cells grouped by type, each
 * channel a line between two port cells, processes placed on a host grouped
 * in a cluster.  Reads only the annotated graph. */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "graph.h"
#include "pcgdot.h"
#include "xmalloc.h"

/* Graphviz 2.42's cgraph takes 'char *' for names and values it only
 * reads; the string literals this file passes it are safe. */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wincompatible-pointer-types-discards-qualifiers"
#else
#pragma GCC diagnostic ignored "-Wdiscarded-qualifiers"
#endif

static const char *const palette[] = {
	"#cfe2f3", "#d9ead3", "#fff2cc", "#f4cccc", "#d9d2e9", "#fce5cd",
	"#d0e0e3", "#ead1dc",
};

void
draw_html_escape(struct buf *b, const char *s)
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

/* Which side of its box a port cell is drawn on, decided after a first
 * layout: toward the peer it is joined to. */
struct side {
	char	id[128];	/* Client_2 */
	int	top;
};

static int
side_top(const struct side *sides, int n, const char *type, int port)
{
	char	id[160];
	int	i;

	snprintf(id, sizeof(id), "%s_%d", type, port);
	for (i = 0; i < n; i++)
		if (strcmp(sides[i].id, id) == 0)
			return sides[i].top;
	return 0;
}

/* One row of port groups ("Client" over its cells), the cells on the side
 * away from the box's header.  Returns how many groups it drew. */
static int
port_row(struct buf *b, const char *ports, const struct side *sides, int nsides, int top)
{
	char	*copy = xstrdup(ports), *tok, *save = NULL, *colon;
	int	 groups = 0, i, n, k;
	struct buf cells;

	buf_init(&cells);
	for (tok = strtok_r(copy, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
		if ((colon = strchr(tok, ':')) == NULL || (n = atoi(colon + 1)) <= 0)
			continue;
		*colon = '\0';
		buf_reset(&cells);
		for (i = 1, k = 0; i <= n; i++) {
			if (side_top(sides, nsides, tok, i) != top)
				continue;
			buf_adds(&cells, "<TD PORT=\"");
			draw_html_escape(&cells, tok);
			buf_printf(&cells, "_%d\"><FONT POINT-SIZE=\"9\">%d</FONT></TD>", i, i);
			k++;
		}
		if (k == 0)
			continue;
		if (groups++ == 0)
			buf_adds(b, "<TR><TD BORDER=\"0\" CELLPADDING=\"0\"><TABLE BORDER=\"0\" "
			    "CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"0\"><TR>");
		buf_adds(b, "<TD><TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" "
		    "CELLPADDING=\"2\">");
		if (top)
			buf_printf(b, "<TR>%s</TR>", cells.s);
		buf_printf(b, "<TR><TD COLSPAN=\"%d\"><FONT POINT-SIZE=\"9\">", k);
		draw_html_escape(b, tok);
		buf_adds(b, "</FONT></TD></TR>");
		if (!top)
			buf_printf(b, "<TR>%s</TR>", cells.s);
		buf_adds(b, "</TABLE></TD>");
	}
	if (groups > 0)
		buf_adds(b, "</TR></TABLE></TD></TR>");
	buf_free(&cells);
	free(copy);
	return groups;
}

/* A process: ports toward peers above, its name and component, ports
 * toward peers below. */
static void
node_label(struct buf *b, const char *name, const char *comp, const char *ports,
    const char *colour, const struct side *sides, int nsides)
{
	buf_reset(b);
	buf_adds(b, "<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\" "
	    "CELLPADDING=\"3\" BGCOLOR=\"white\">");
	port_row(b, ports, sides, nsides, 1);
	buf_printf(b, "<TR><TD BGCOLOR=\"%s\"><B>", colour);
	draw_html_escape(b, name);
	buf_adds(b, "</B><BR/><FONT POINT-SIZE=\"10\"><I>");
	draw_html_escape(b, comp);
	buf_adds(b, "</I></FONT></TD></TR>");
	port_row(b, ports, sides, nsides, 0);
	buf_adds(b, "</TABLE>");
}

static double
pos_y(Agnode_t *n)
{
	const char	*pos = agget(n, "pos");
	double		 x, y;

	if (pos == NULL || sscanf(pos, "%lf,%lf", &x, &y) != 2)
		return 0;
	return y;
}

/* Attach an edge to the outer side of its port cell (Client_2:n): the
 * side facing its peer in the draft, as node_sides places the cell. */
static void
compass(char *id, size_t len, Agraph_t *draft, const char *node, const char *peer)
{
	Agnode_t	*v, *w;

	if (draft == NULL || (v = agnode(draft, (char *)node, 0)) == NULL ||
	    (w = agnode(draft, (char *)peer, 0)) == NULL || strlen(id) + 3 > len)
		return;
	strcat(id, pos_y(w) > pos_y(v) ? ":n" : ":s");
}

static void
set_html(Agraph_t *R, void *obj, Agsym_t *sym, const char *html)
{
	char	*h = agstrdup_html(R, (char *)html);

	agxset(obj, sym, h);
	agstrfree(R, h);
}

/* The sides of a node's ports in a laid-out first draft: a port whose peer
 * is higher (Graphviz's y grows upward) goes on top. */
static int
node_sides(Agraph_t *draft, const char *name, struct side **sides)
{
	Agnode_t	*v, *w;
	Agedge_t	*e;
	size_t		 alloc = 0;
	int		 n = 0, k;

	*sides = NULL;
	if (draft == NULL || (v = agnode(draft, (char *)name, 0)) == NULL)
		return 0;
	for (e = agfstedge(draft, v); e != NULL; e = agnxtedge(draft, e, v)) {
		for (k = 0; k < 2; k++) {
			Agnode_t	*end = k == 0 ? agtail(e) : aghead(e);
			const char	*port = agget(e, k == 0 ? "tailport" : "headport");
			char		*colon;

			if (end != v)
				continue;
			w = k == 0 ? aghead(e) : agtail(e);
			xgrow(sides, &alloc, n + 1, sizeof(**sides));
			snprintf((*sides)[n].id, sizeof((*sides)[n].id), "%s", port);
			if ((colon = strchr((*sides)[n].id, ':')) != NULL)
				*colon = '\0';
			(*sides)[n].top = pos_y(w) > pos_y(v);
			n++;
			if (agtail(e) == aghead(e))
				break;	/* a loop: one side for both of its ends */
		}
	}
	return n;
}

/* The drawing graph of an annotated PCG, its ports placed by a laid-out
 * draft (NULL: all below); caller closes it. */
static Agraph_t *
draw_graph(Agraph_t *G, Agraph_t *draft)
{
	Agraph_t	*R, *cluster;
	Agnode_t	*v, *w;
	Agedge_t	*e, *f;
	Agsym_t		*s_label, *s_tp, *s_hp, *s_tip;
	struct buf	 b;
	char		 id[256], *comps, *app;

	R = agopen("pcg", Agundirected, NULL);
	app = agget(G, PCGDOT_APPLICATION);
	agattr(R, AGRAPH, "label", app != NULL ? app : "");
	agattr(R, AGRAPH, "labelloc", "t");
	agattr(R, AGRAPH, "fontname", "Helvetica");
	agattr(R, AGRAPH, "fontsize", "16");
	agattr(R, AGRAPH, "nodesep", "0.4");
	agattr(R, AGRAPH, "ranksep", "0.6");
	agattr(R, AGRAPH, "overlap", "false");	/* neato, fdp: no boxes on boxes */
	agattr(R, AGRAPH, "splines", "true");
	agattr(R, AGRAPH, "sep", "+12");
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

	comps = agget(G, PCGDOT_COMPONENTS);
	buf_init(&b);
	for (v = agfstnode(G); v != NULL; v = agnxtnode(G, v)) {
		char	*host, *comp = agget(v, PCGDOT_COMPONENT);
		Agraph_t *home = R;

		host = pcgdot_text(agget(v, PCGDOT_HOST) != NULL ? agget(v, PCGDOT_HOST) : "");
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
		free(host);
		w = agnode(home, agnameof(v), 1);
		if (home != R)
			agsubnode(R, w, 1);
		{
			struct side	*sides;
			int		 nsides = node_sides(draft, agnameof(v), &sides);

			node_label(&b, agnameof(v), comp != NULL ? comp : "",
			    agget(v, PCGDOT_PORTS) != NULL ? agget(v, PCGDOT_PORTS) : "",
			    palette[comp_colour(comps, comp != NULL ? comp : "")],
			    sides, nsides);
			free(sides);
		}
		set_html(R, w, s_label, b.s);
	}
	for (v = agfstnode(G); v != NULL; v = agnxtnode(G, v)) {
		for (e = agfstout(G, v); e != NULL; e = agnxtout(G, e)) {
			Agnode_t	*t = agnode(R, agnameof(agtail(e)), 0);
			Agnode_t	*h = agnode(R, agnameof(aghead(e)), 0);
			char		 tip[600];

			f = agedge(R, t, h, agnameof(e), 1);
			port_id(id, sizeof(id), agget(e, PCGDOT_TAIL_PORT));
			compass(id, sizeof(id), draft, agnameof(agtail(e)), agnameof(aghead(e)));
			agxset(f, s_tp, id);
			port_id(id, sizeof(id), agget(e, PCGDOT_HEAD_PORT));
			compass(id, sizeof(id), draft, agnameof(aghead(e)), agnameof(agtail(e)));
			agxset(f, s_hp, id);
			snprintf(tip, sizeof(tip), "%s.%s <-> %s.%s (tag %s)",
			    agnameof(agtail(e)), agget(e, PCGDOT_TAIL_PORT),
			    agnameof(aghead(e)), agget(e, PCGDOT_HEAD_PORT), agget(e, PCGDOT_TAG));
			agxset(f, s_tip, tip);
		}
	}
	buf_free(&b);
	return R;
}

/* Lay out a draft with every port below, to learn where the processes
 * fall; NULL if Graphviz cannot. */
static Agraph_t *
draft_layout(GVC_t *gvc, Agraph_t *G, const char *layout)
{
	Agraph_t	*D = draw_graph(G, NULL);
	FILE		*null;

	if (gvLayout(gvc, D, layout) != 0 || (null = fopen("/dev/null", "w")) == NULL) {
		agclose(D);
		return NULL;
	}
	gvRender(gvc, D, "dot", null);	/* attaches the 'pos' attributes */
	fclose(null);
	gvFreeLayout(gvc, D);
	return D;
}

int
draw_format_of(const char *name)
{
	static const struct { const char *name; enum draw_format fmt; } formats[] = {
		{ "dot", DRAW_DOT }, { "gv", DRAW_DOT }, { "svg", DRAW_SVG },
		{ "png", DRAW_PNG }, { "pdf", DRAW_PDF },
	};
	size_t	i;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (strcasecmp(name, formats[i].name) == 0)
			return formats[i].fmt;
	return -1;
}

const char *
draw_suffix(const char *path)
{
	const char	*ext = strrchr(path, '.');

	return ext == NULL || strchr(ext, '/') != NULL ? NULL : ext + 1;
}

const char *
draw_layout_for(Agraph_t *G)
{
	Agnode_t	*v;

	if (agnnodes(G) < 3 || agnedges(G) != agnnodes(G))
		return "dot";
	for (v = agfstnode(G); v != NULL; v = agnxtnode(G, v))
		if (agdegree(G, v, 1, 1) != 2)
			return "dot";
	return "circo";		/* a ring: every process has two channels */
}

int
draw_render(GVC_t *gvc, Agraph_t *G, int fmt, const char *layout, FILE *f,
    const char *what, char **cause)
{
	static const char *const names[] = { "dot", "svg", "png", "pdf" };
	char		*data;
	unsigned int	 len;
	size_t		 n;

	if (fmt == DRAW_DOT) {
		if (agwrite(G, f) == EOF)
			goto write_error;
		goto flush;
	}
	if (gvLayout(gvc, G, layout) != 0) {
		xasprintf(cause, "Graphviz could not lay out the %s", what);
		return -1;
	}
	/* Rendered to memory and written here: on a write error gvRender
	 * prints "gvwrite_no_z problem" and exits. */
	if (gvRenderData(gvc, G, names[fmt], &data, &len) != 0) {
		xasprintf(cause, "Graphviz cannot render '%s' (is the Debian package "
		    "'graphviz' installed?)", names[fmt]);
		gvFreeLayout(gvc, G);
		return -1;
	}
	gvFreeLayout(gvc, G);
	n = fwrite(data, 1, len, f);
	gvFreeRenderData(data);
	if (n != len)
		goto write_error;
flush:
	/* Graphviz does not say when a write failed; the stream does. */
	if (fflush(f) == 0 && !ferror(f))
		return 0;
write_error:
	xasprintf(cause, "%s", strerror(errno != 0 ? errno : EIO));
	return -2;
}

void
draw_remove_partial(const char *path)
{
	struct stat	st;

	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
		remove(path);
}

int
draw_pcg(Agraph_t *G, enum draw_format fmt, const char *layout, const char *path,
    char **cause)
{
	GVC_t		*gvc = gvContext();
	char		*why;
	Agraph_t	*D;
	Agraph_t	*R;
	FILE		*f;
	int		 rc = -1, tostdout = strcmp(path, "-") == 0;

	if (layout == NULL)
		layout = draw_layout_for(G);
	D = draft_layout(gvc, G, layout);
	R = draw_graph(G, D);

	if (D != NULL)
		agclose(D);
	if (tostdout)
		f = stdout;
	else if ((f = fopen(path, "w")) == NULL) {
		xasprintf(cause, "cannot write '%s': %s", path, strerror(errno));
		agclose(R);
		gvFreeContext(gvc);
		return -1;
	}
	if ((rc = draw_render(gvc, R, fmt, layout, f, "graph", &why)) != 0) {
		if (rc == -2)
			xasprintf(cause, "cannot write '%s': %s", tostdout ?
			    "standard output" : path, why);
		else
			*cause = xstrdup(why);
		free(why);
		rc = -1;
		goto out;
	}
	rc = 0;
out:
	if (!tostdout) {
		if (fclose(f) != 0 && rc == 0) {
			xasprintf(cause, "cannot write '%s': %s", path, strerror(errno));
			rc = -1;
		}
		if (rc != 0)
			draw_remove_partial(path);
	}
	gvFreeContext(gvc);
	agclose(R);
	return rc;
}
