/* graphviz.c -- Graphviz, opened when first used (graphviz.h). */
#include "config.h"

#include "graphviz.h"
#include "lazylib.h"

struct graphviz graphviz;

/* libgvc, whose dependencies (libcgraph) dlsym searches too. */
static struct lazylib lib = { "Graphviz", ENS_GVC_SONAME, NULL };

void
graphviz_open(void)
{
#define GRAPHVIZ_SYM(name) \
	graphviz.p_##name = (__typeof__(graphviz.p_##name))lazy_sym(&lib, #name);
	GRAPHVIZ_NAMES(GRAPHVIZ_SYM)
#undef GRAPHVIZ_SYM
	graphviz.open = 1;
}
