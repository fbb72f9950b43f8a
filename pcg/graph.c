/* graph.c -- turning the checked model into the annotated cgraph graph:
 * one node per process, one edge per channel, annotations as attributes. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "xmalloc.h"

static void
quoted_list(struct buf *b, const struct pcg_strs *s)
{
	int	i;

	buf_reset(b);
	buf_adds(b, "");
	for (i = 0; s != NULL && i < s->n; i++) {
		if (i > 0)
			buf_addc(b, ' ');
		buf_add_quoted(b, s->v[i]);
	}
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
	agattr(G, AGRAPH, "application", (char *)g->name);
	agattr(G, AGRAPH, "script", (char *)g->script);
	agattr(G, AGRAPH, "script_dir", (char *)g->script_dir);
	buf_init(&b);
	buf_adds(&b, "");
	for (i = 0; i < g->ncomps; i++) {
		buf_printf(&b, "%s%s:", i ? " " : "", g->comps[i].name);
		for (t = 0; t < g->comps[i].ntypes; t++)
			buf_printf(&b, "%s%s", t ? "," : "", g->comps[i].types[t]);
	}
	agattr(G, AGRAPH, "components", b.s);

	a_comp = agattr(G, AGNODE, "component", "");
	a_index = agattr(G, AGNODE, "index", "");
	a_ports = agattr(G, AGNODE, "ports", "");
	a_exec = agattr(G, AGNODE, "exec", "");
	a_args = agattr(G, AGNODE, "args", "");
	a_env = agattr(G, AGNODE, "env", "");
	a_wdir = agattr(G, AGNODE, "wdir", "");
	a_host = agattr(G, AGNODE, "host", "");
	a_beh = agattr(G, AGNODE, "behaviour", "");
	a_tp = agattr(G, AGEDGE, "tail_port", "");
	a_hp = agattr(G, AGEDGE, "head_port", "");
	a_tag = agattr(G, AGEDGE, "tag", "");

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
		for (t = 0; t < c->ntypes; t++)
			buf_printf(&b, "%s%s:%d", t ? " " : "", c->types[t], p->nports[t]);
		agxset(v, a_ports, c->ntypes ? b.s : "");
		s = pcg_annot(g, p, ANN_EXEC);
		agxset(v, a_exec, s != NULL ? s->v[0] : (char *)c->name);
		if ((s = pcg_annot(g, p, ANN_ARGS)) != NULL) {
			quoted_list(&b, s);
			agxset(v, a_args, b.s);
		}
		if ((n = pcg_env(g, p, &env)) > 0) {
			struct pcg_strs	es = { env, n, p->loc };

			quoted_list(&b, &es);
			agxset(v, a_env, b.s);
		}
		free(env);
		if ((s = pcg_annot(g, p, ANN_WDIR)) != NULL)
			agxset(v, a_wdir, s->v[0]);
		if (p->host != NULL)
			agxset(v, a_host, (char *)p->host);
		agxset(v, a_beh, p->behaviour != NULL ? (char *)p->behaviour : "");
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
