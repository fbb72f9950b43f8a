/* netdraw.c -- the MP net's place/transition net drawn with Graphviz: a
 * cluster per process holding its program net (control places as circles,
 * transitions as boxes labelled with their statement), the channel places
 * between the clusters, weights on arcs, test arcs dashed; complement
 * places are left out. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "net.h"
#include "sem.h"
#include "xmalloc.h"

/* Graphviz 2.42's cgraph takes 'char *' for names and values it only
 * reads; the string literals this file passes it are safe. */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wincompatible-pointer-types-discards-qualifiers"
#else
#pragma GCC diagnostic ignored "-Wdiscarded-qualifiers"
#endif

/* The statement part of a transition's name "relay[1]: send Prop[1]". */
static const char *
netdraw_stmt(const char *name)
{
	const char	*c = strstr(name, ": ");

	return c != NULL ? c + 2 : name;
}

/* The node of place p, in its process's cluster when it has one. */
static Agnode_t *
netdraw_place(Agraph_t *G, Agraph_t **cl, const struct net *n, int p)
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
netdraw_arc(Agraph_t *G, Agnode_t *t, Agnode_t *h, int64_t w, int test)
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
netdraw_graph(const struct net *n)
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
			netdraw_place(G, cl, n, i);
	for (i = 0; i < n->ntrans; i++) {
		const struct net_trans	*t = &n->trans[i];
		Agraph_t		*home = t->kind == T_COLL ? G : cl[t->proc];

		snprintf(id, sizeof(id), "t%d", i);
		tv = agnode(home, id, 1);
		if (home != G)
			agsubnode(G, tv, 1);
		agset(tv, "label", (char *)(t->kind == T_COLL ? t->name :
		    netdraw_stmt(t->name)));
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
			pv = netdraw_place(G, cl, n, p);
			netdraw_arc(G, pv, tv, t->pre[k].w, test);
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
			netdraw_arc(G, tv, netdraw_place(G, cl, n, p), t->post[k].w, 0);
		}
	}
	free(cl);
	return G;
}

int
netdraw(const struct net *n, int fmt, const char *layout, FILE *f, char **cause)
{
	GVC_t		*gvc;
	Agraph_t	*G;
	int		 rc;

	if (n->ntrans > NET_MAX_DRAWN) {
		xasprintf(cause, "the net has %d transitions, too many to draw "
		    "(at most %d; write it as PNML instead)", n->ntrans,
		    NET_MAX_DRAWN);
		return -1;
	}
	gvc = gvContext();
	G = netdraw_graph(n);
	rc = draw_render(gvc, G, fmt, layout != NULL ? layout : "dot", f, "net",
	    cause) == 0 ? 0 : -1;
	agclose(G);
	gvFreeContext(gvc);
	return rc;
}

