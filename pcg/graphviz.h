/* graphviz.h -- Graphviz (cgraph and gvc), opened when first used.
 *
 * Include this, never <graphviz/cgraph.h> or <graphviz/gvc.h>, in what the
 * ensemble command links (the unit test of the DOT, its own program,
 * links Graphviz itself).  Each Graphviz function and object ensemble uses is named once,
 * in GRAPHVIZ_NAMES; a macro of its name then makes every use go through
 * a pointer of its own type (p_NAME), which graphviz_open fills on the
 * first use, by lazy_sym (common/lazylib.h): the compiler checks each
 * call against Graphviz's own declaration as before.  A function not in the list does
 * not compile (its macro is missing and the library is not linked); add
 * it to the list. */
#ifndef ENS_GRAPHVIZ_H
#define ENS_GRAPHVIZ_H

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#define GRAPHVIZ_NAMES(X) \
	X(agattr) X(agclose) X(agdegree) X(agedge) X(agfstedge) \
	X(agfstnode) X(agfstout) X(agget) X(agnameof) X(agnedges) \
	X(agnnodes) X(agnode) X(agnxtedge) X(agnxtnode) X(agnxtout) \
	X(agopen) X(agread) X(agsafeset) X(agset) X(agstrdup_html) \
	X(agstrfree) X(agsubg) X(agsubnode) X(agwrite) X(agxset) \
	X(gvContext) X(gvFreeContext) X(gvFreeLayout) X(gvFreeRenderData) \
	X(gvLayout) X(gvRender) X(gvRenderData) \
	X(Agdirected) X(Agundirected)

struct graphviz {
	int	open;
#define GRAPHVIZ_FIELD(name) __typeof__(name) *p_##name;
	GRAPHVIZ_NAMES(GRAPHVIZ_FIELD)
#undef GRAPHVIZ_FIELD
};

extern struct graphviz graphviz;
void graphviz_open(void);

static inline const struct graphviz *
graphviz_need(void)
{
	if (!graphviz.open)
		graphviz_open();
	return &graphviz;
}

#define agattr			(*graphviz_need()->p_agattr)
#define agclose			(*graphviz_need()->p_agclose)
#define agdegree		(*graphviz_need()->p_agdegree)
#define agedge			(*graphviz_need()->p_agedge)
#define agfstedge		(*graphviz_need()->p_agfstedge)
#define agfstnode		(*graphviz_need()->p_agfstnode)
#define agfstout		(*graphviz_need()->p_agfstout)
#define agget			(*graphviz_need()->p_agget)
#define agnameof		(*graphviz_need()->p_agnameof)
#define agnedges		(*graphviz_need()->p_agnedges)
#define agnnodes		(*graphviz_need()->p_agnnodes)
#define agnode			(*graphviz_need()->p_agnode)
#define agnxtedge		(*graphviz_need()->p_agnxtedge)
#define agnxtnode		(*graphviz_need()->p_agnxtnode)
#define agnxtout		(*graphviz_need()->p_agnxtout)
#define agopen			(*graphviz_need()->p_agopen)
#define agread			(*graphviz_need()->p_agread)
#define agsafeset		(*graphviz_need()->p_agsafeset)
#define agset			(*graphviz_need()->p_agset)
#define agstrdup_html		(*graphviz_need()->p_agstrdup_html)
#define agstrfree		(*graphviz_need()->p_agstrfree)
#define agsubg			(*graphviz_need()->p_agsubg)
#define agsubnode		(*graphviz_need()->p_agsubnode)
#define agwrite			(*graphviz_need()->p_agwrite)
#define agxset			(*graphviz_need()->p_agxset)
#define gvContext		(*graphviz_need()->p_gvContext)
#define gvFreeContext		(*graphviz_need()->p_gvFreeContext)
#define gvFreeLayout		(*graphviz_need()->p_gvFreeLayout)
#define gvFreeRenderData	(*graphviz_need()->p_gvFreeRenderData)
#define gvLayout		(*graphviz_need()->p_gvLayout)
#define gvRender		(*graphviz_need()->p_gvRender)
#define gvRenderData		(*graphviz_need()->p_gvRenderData)
#define Agdirected		(*graphviz_need()->p_Agdirected)
#define Agundirected		(*graphviz_need()->p_Agundirected)

#endif
