/* graph.h -- the annotated PCG as a Graphviz cgraph graph, and its drawing.
 * pcg_graph makes it from the checked model; its attributes, their types
 * and how strings are encoded are defined in common/pcgdot.h.  The verifier
 * does not read it, nor does 'ensemble run' (both take struct pcg);
 * 'ensemble graph' draws it or writes it as DOT (--pcg) for any tool that
 * reads DOT. */
#ifndef ENS_GRAPH_H
#define ENS_GRAPH_H

#include "graphviz.h"
#include "pcg.h"

/* Build the graph of a checked model; caller closes it with agclose. */
Agraph_t *pcg_graph(const struct pcg *);

/* Output formats of 'ensemble graph'. */
enum draw_format { DRAW_DOT, DRAW_SVG, DRAW_PNG, DRAW_PDF };

/* The format a name gives ("svg", "png", "pdf", "dot" or "gv", any case),
 * or -1. */
int draw_format_of(const char *name);
/* The suffix of a file name, after its last '.' ("svg" of "a/b.svg"), or
 * NULL when the name has none. */
const char *draw_suffix(const char *path);

/* Write G to f as DOT, or lay it out with 'layout' and render it in fmt
 * (enum draw_format), and flush f.  0; -1 and *cause (caller frees) saying
 * what Graphviz could not do to the 'what' ("graph"); or -2 and *cause
 * the write error's strerror. */
int draw_render(GVC_t *, Agraph_t *G, int fmt, const char *layout, FILE *f,
    const char *what, char **cause);

/* Remove what a failed write left at path, if it is a regular file (never
 * a device such as /dev/full, nor what a symbolic link points at). */
void draw_remove_partial(const char *path);

struct buf;
/* Append s escaped for a Graphviz HTML label. */
void draw_html_escape(struct buf *, const char *s);

/* The layout engine drawings use by default: "circo" for a ring (every
 * process has two channels), else "dot". */
const char *draw_layout_for(Agraph_t *);

/* Draw an annotated PCG (as pcg_graph makes, or as read back with agread)
 * with a Graphviz layout engine ("dot", "neato", "circo", ...; NULL: the
 * default) to path, or to stdout when path is "-".  0, or -1 and *cause. */
int draw_pcg(Agraph_t *, enum draw_format, const char *layout, const char *path,
    char **cause);

#endif
