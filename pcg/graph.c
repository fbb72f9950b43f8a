/* graph.c -- turning the checked model into the annotated cgraph graph:
 * one node per process, one edge per channel, annotations as attributes
 * named, typed and encoded as common/pcgdot.h says. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "pcgdot.h"
#include "xmalloc.h"

/* Declare an attribute with its default (or, for AGRAPH, set the graph's):
 * cgraph 2.42 takes 'char *' for the name and value it only reads. */
static Agsym_t *
graph_attr(Agraph_t *G, int kind, const char *name, const char *value)
{
	return agattr(G, kind, (char *)name, (char *)value);
}

/* Set a text attribute (pcgdot.h) to s, encoded. */
static void
graph_set_text(void *obj, Agsym_t *a, struct buf *b, const char *s)
{
	buf_reset(b);
	pcgdot_put_text(b, s);
	agxset(obj, a, b->s);
}

Agraph_t *
pcg_graph(const struct pcg *g)
{
	Agraph_t	*G;
	Agnode_t	**nodes;
	Agsym_t		*a_comp, *a_index, *a_ports, *a_exec, *a_args, *a_env, *a_wdir;
	Agsym_t		*a_host, *a_beh, *a_tp, *a_hp, *a_tag;
	const struct pcg_strs *s;
	struct buf	 b;
	char		 pn[PCG_NAME_MAX], num[32], **env;
	int		 i, t, n;

	G = agopen((char *)g->name, Agundirected, NULL);
	graph_attr(G, AGRAPH, PCGDOT_APPLICATION, g->name);
	buf_init(&b);
	pcgdot_put_text(&b, g->script);
	graph_attr(G, AGRAPH, PCGDOT_SCRIPT, b.s);
	buf_reset(&b);
	pcgdot_put_text(&b, g->script_dir);
	graph_attr(G, AGRAPH, PCGDOT_SCRIPT_DIR, b.s);
	buf_reset(&b);
	buf_adds(&b, "");
	for (i = 0; i < g->ncomps; i++) {
		buf_printf(&b, "%s%s:", i ? " " : "", g->comps[i].name);
		for (t = 0; t < g->comps[i].ntypes; t++)
			buf_printf(&b, "%s%s", t ? "," : "", g->comps[i].types[t]);
	}
	graph_attr(G, AGRAPH, PCGDOT_COMPONENTS, b.s);

	a_comp = graph_attr(G, AGNODE, PCGDOT_COMPONENT, "");
	a_index = graph_attr(G, AGNODE, PCGDOT_INDEX, "");
	a_ports = graph_attr(G, AGNODE, PCGDOT_PORTS, "");
	a_exec = graph_attr(G, AGNODE, PCGDOT_EXEC, "");
	a_args = graph_attr(G, AGNODE, PCGDOT_ARGS, "");
	a_env = graph_attr(G, AGNODE, PCGDOT_ENV, "");
	a_wdir = graph_attr(G, AGNODE, PCGDOT_WDIR, "");
	a_host = graph_attr(G, AGNODE, PCGDOT_HOST, "");
	a_beh = graph_attr(G, AGNODE, PCGDOT_BEHAVIOUR, "");
	a_tp = graph_attr(G, AGEDGE, PCGDOT_TAIL_PORT, "");
	a_hp = graph_attr(G, AGEDGE, PCGDOT_HEAD_PORT, "");
	a_tag = graph_attr(G, AGEDGE, PCGDOT_TAG, "");

	nodes = xcalloc(g->nprocs + 1, sizeof(*nodes));
	for (i = 0; i < g->nprocs; i++) {
		const struct pcg_proc	*p = &g->procs[i];
		const struct pcg_comp	*c = &g->comps[p->comp];
		Agnode_t		*v;

		v = nodes[i] = agnode(G, (char *)pcg_proc_name(g, i, pn, sizeof(pn)), 1);
		agxset(v, a_comp, (char *)c->name);
		if (c->indexed) {
			snprintf(num, sizeof(num), "%" PRId64, p->index);
			agxset(v, a_index, num);
		}
		buf_reset(&b);
		buf_adds(&b, "");
		for (t = 0; t < c->ntypes; t++)
			buf_printf(&b, "%s%s:%d", t ? " " : "", c->types[t], p->nports[t]);
		agxset(v, a_ports, b.s);
		s = pcg_annot(g, p, ANN_EXEC);
		graph_set_text(v, a_exec, &b, s != NULL ? s->v[0] : c->name);
		if ((s = pcg_annot(g, p, ANN_ARGS)) != NULL) {
			buf_reset(&b);
			pcgdot_put_list(&b, s->v, s->n);
			agxset(v, a_args, b.s);
		}
		if ((n = pcg_env(g, p, &env)) > 0) {
			buf_reset(&b);
			pcgdot_put_list(&b, env, n);
			agxset(v, a_env, b.s);
		}
		free(env);
		if ((s = pcg_annot(g, p, ANN_WDIR)) != NULL)
			graph_set_text(v, a_wdir, &b, s->v[0]);
		if (p->host != NULL)
			graph_set_text(v, a_host, &b, p->host);
		graph_set_text(v, a_beh, &b, p->behaviour != NULL ? p->behaviour : "");
	}
	for (i = 0; i < g->nchans; i++) {
		const struct pcg_chan	*ch = &g->chans[i];
		Agedge_t		*e;
		int			 k;

		snprintf(num, sizeof(num), "c%d", i + 1);
		e = agedge(G, nodes[ch->e[0].proc], nodes[ch->e[1].proc], num, 1);
		/* An undirected graph may store the pair either way round. */
		k = agtail(e) == nodes[ch->e[0].proc] ? 0 : 1;
		snprintf(pn, sizeof(pn), "%s[%d]",
		    g->comps[g->procs[ch->e[k].proc].comp].types[ch->e[k].type], ch->e[k].port);
		agxset(e, a_tp, pn);
		snprintf(pn, sizeof(pn), "%s[%d]",
		    g->comps[g->procs[ch->e[1 - k].proc].comp].types[ch->e[1 - k].type],
		    ch->e[1 - k].port);
		agxset(e, a_hp, pn);
		snprintf(num, sizeof(num), "%" PRId64, ch->tag);
		agxset(e, a_tag, num);
	}
	free(nodes);
	buf_free(&b);
	return G;
}
