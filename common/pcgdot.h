/* pcgdot.h -- the annotated PCG as DOT: the one definition of the graph
 * 'ensemble graph --pcg' prints, for any tool that reads DOT (cgraph's
 * agread gives every value back byte for byte).  pcg_graph (pcg/graph.c)
 * writes it and the drawing (pcg/draw.c) reads the graph pcg_graph made;
 * each names an attribute only by the macros below.
 *
 * Value types:
 *   name     an identifier, or a process's name as in scripts ("relay[3]"):
 *            letters, digits, '_', '[' and ']', written as is;
 *   int      a decimal integer, read with a range check (pcgdot_int);
 *   text     any string a script can hold, encoded (below);
 *   list     a list of such strings, each encoded and between single
 *            quotes, separated by one space: 'a b' '' 'x%27y'; no value
 *            at all is the empty list.
 * Encoding of text: every byte as is but '%', the quotes '"' and '\'',
 * the backslash and the control bytes (1..31, 127), each written as '%'
 * and two upper-case hex digits ("%22", "%0A").  The value then holds no
 * byte DOT escapes or cgraph's writer treats specially (agwrite escapes
 * only '"', and a backslash before a newline is a line continuation, which
 * agwrite itself inserts in long values and agread removes), so agread
 * gives back exactly what was written; newlines, tabs, quotes,
 * backslashes, UTF-8, '$(...)' and '*' reach a component byte for byte.
 *
 * Graph attributes (pcg_graph):
 *   application  name   the application's name (the graph is named so too)
 *   script       text   the script's file name, as given
 *   script_dir   text   its directory
 *   components   name*  "terminal:Server relay:Client,Prop": each
 *                       component with its port types, space-separated
 * Node attributes, one node per process named as in scripts (pcg_graph):
 *   component    name   its component
 *   index        int    its index; empty for a process without one
 *   ports        "Client:2 Prop:0": every port type of the component with
 *                       its count (int), space-separated
 *   exec         text   the executable as written, the component's name
 *                       by default
 *   args         list   its arguments (argv[1..])
 *   env          list   its environment entries, "NAME=value"
 *   wdir         text   its working directory; empty: that of
 *                       'ensemble run'
 *   host         text   its host; empty: anywhere
 *   behaviour    text   its instance of the component's BEHAVIOUR, on one
 *                       line (pcg_instantiate)
 * Edge attributes, one edge per channel, key c1, c2, ... in script order
 * (pcg_graph):
 *   tail_port    "Prop[1]": the port at agtail, type name and int index
 *   head_port    the port at aghead, likewise
 *   tag          int    its MPI tag */
#ifndef ENS_PCGDOT_H
#define ENS_PCGDOT_H

struct buf;

#define PCGDOT_APPLICATION	"application"
#define PCGDOT_SCRIPT		"script"
#define PCGDOT_SCRIPT_DIR	"script_dir"
#define PCGDOT_COMPONENTS	"components"

#define PCGDOT_COMPONENT	"component"
#define PCGDOT_INDEX		"index"
#define PCGDOT_PORTS		"ports"
#define PCGDOT_EXEC		"exec"
#define PCGDOT_ARGS		"args"
#define PCGDOT_ENV		"env"
#define PCGDOT_WDIR		"wdir"
#define PCGDOT_HOST		"host"
#define PCGDOT_BEHAVIOUR	"behaviour"

#define PCGDOT_TAIL_PORT	"tail_port"
#define PCGDOT_HEAD_PORT	"head_port"
#define PCGDOT_TAG		"tag"

/* Append s encoded as a text value. */
void pcgdot_put_text(struct buf *, const char *s);
/* Append the n strings of v as a list value. */
void pcgdot_put_list(struct buf *, char *const *v, int n);

/* Decode a text value: a new string (caller frees), or NULL when s is
 * malformed (a '%' not followed by two hex digits, or "%00"). */
char *pcgdot_text(const char *s);
/* Decode a list value: the count, and *out a new NULL-terminated array of
 * new strings (caller frees both); -1 and *out NULL when s is malformed. */
int pcgdot_list(const char *s, char ***out);
/* Read an int value in [min, max] into *out: 0, or -1 when s is empty,
 * not a decimal integer or out of range. */
int pcgdot_int(const char *s, long long min, long long max, long long *out);

#endif
