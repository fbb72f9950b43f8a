/* ast.h -- the syntax tree of a .pcg script.  Every node lives in the
 * script's arena and is freed with it (ast_free). */
#ifndef ENS_AST_H
#define ENS_AST_H

#include <stdint.h>

#include "diag.h"

struct arena;

/* The longest identifier: names stay well inside PCG_NAME_MAX with an
 * index appended. */
#define AST_MAX_IDENT	128

enum expr_kind {
	E_INT,		/* ival */
	E_NAME,		/* a parameter or a for variable: name */
	E_INDEX,	/* the instance's index */
	E_PORTS,	/* ports(name): the instance's port count of a type */
	E_UNARY,	/* op a: '-' '!' */
	E_BINARY,	/* a op b */
	E_COND,		/* a ? b : c */
	E_MIN,		/* min(args) */
	E_MAX,		/* max(args) */
	E_ARG,		/* arg(a): the process's argument a, a number */
};

/* Binary operators beyond single characters. */
enum { OP_EQ = 256, OP_NE, OP_LE, OP_GE, OP_AND, OP_OR };

struct expr {
	enum expr_kind	 kind;
	int		 op;
	struct loc	 loc;
	int64_t		 ival;
	const char	*name;		/* interned */
	struct expr	*a, *b, *c;
	struct expr	*next;		/* in argument lists */
};

/* A string with ${expr} parts. */
struct strpart {
	const char	*text;		/* literal text, or NULL for an expr */
	struct expr	*expr;
	struct strpart	*next;
};

struct str {
	struct loc	 loc;
	struct strpart	*parts;
};

/* One element of an index list: e or lo..hi. */
struct idx {
	struct expr	*lo;
	struct expr	*hi;		/* NULL for a single index */
	struct loc	 loc;
	struct idx	*next;
};

/* name, name[idx, ...] */
struct instref {
	const char	*name;
	struct loc	 loc;		/* the whole reference */
	struct loc	 nameloc;
	struct idx	*idx;		/* NULL when unindexed */
	struct instref	*next;		/* a group's members (I_GROUP) */
};

/* proc.Type[e] */
struct endpoint {
	struct instref	*proc;
	const char	*type;
	struct loc	 typeloc;
	struct expr	*port;
	struct loc	 loc;
};

struct forvar {
	const char	*name;
	struct loc	 loc;
	struct expr	*lo, *hi;
	struct forvar	*next;
};

struct forclause {
	struct forvar	*vars;
	struct expr	*cond;		/* NULL: none */
	struct loc	 loc;
};

/* Components line: a type; Processes line: a type with a count. */
struct portdecl {
	const char	*type;
	struct loc	 loc;
	struct loc	 typeloc;
	struct expr	*count;		/* NULL: none given (Components) */
	int		 star;		/* count is '*' */
	struct idx	*idx;		/* what the brackets held, for a Groups
					 * line's members; NULL: none */
	struct portdecl	*next;
};

enum annot_kind { A_EXEC, A_ARGS, A_ENV, A_WDIR, A_HOST, A_SOURCE };

/* An argument value: a string or an integer expression. */
struct argval {
	struct str	*s;
	struct expr	*e;
	struct argval	*next;
};

struct annot {
	enum annot_kind	 kind;
	struct loc	 loc;		/* the keyword */
	struct argval	*vals;
	struct annot	*next;
};

enum send_mode { MODE_STANDARD, MODE_SYNC, MODE_BUFFERED };

enum stmt_kind {
	S_SEND,		/* mode, type, port (NULL = [*]) */
	S_RECV,		/* type, port (NULL = [*]) */
	S_RECV_ANY,	/* type (NULL = any port) */
	S_ISEND,	/* mode, type, port */
	S_IRECV,	/* type, port */
	S_IRECV_ANY,	/* type (NULL = any port) */
	S_WAITALL,
	S_BARRIER, S_ALLREDUCE, S_ALLGATHER, S_ALLTOALL,
	S_BCAST, S_SCATTER, S_REDUCE, S_GATHER,		/* root */
	S_ALLGATHERV, S_ALLTOALLV, S_REDUCESCATTER,	/* the v-forms */
	S_SCATTERV, S_GATHERV,				/* root */
	S_LOOP,		/* count (NULL = forever), body */
	S_IF,		/* cond, body, orelse */
	S_FOR,		/* var, body */
	S_CHOICE,	/* branches */
	S_SENDRECV,	/* type, port (the send); rtype, rport (the receive) */
	S_SENDRECV_REPLACE,	/* the same, one buffer */
	S_WAIT,		/* req */
	S_TEST,		/* req, body (complete), orelse (not yet) */
	S_WAITANY,	/* branches, each 'on' a req */
	S_WAITSOME,	/* branches, each 'on' a req */
	S_PROBE,	/* type, port; req: the message's name ('as'), or NULL */
	S_PROBE_ANY,	/* type (NULL = any port); req */
	S_IPROBE,	/* type, port, body (a message is there), orelse; req */
	S_IPROBE_ANY,	/* type (NULL = any port), body, orelse; req */
	S_RECV_PROBED,	/* req: the message a probe 'as req' found */
};

struct stmt {
	enum stmt_kind	 kind;
	struct loc	 loc;
	enum send_mode	 mode;
	const char	*type;
	struct loc	 typeloc;
	struct expr	*port;
	const char	*rtype;		/* S_SENDRECV*: the receive's port */
	struct loc	 rtypeloc;
	struct expr	*rport;
	const char	*req;		/* a request's name: 'as', wait, test;
					 * a probed message's: 'as', recv */
	struct loc	 reqloc;
	struct instref	 root;
	struct instref	*over;		/* collectives: 'over G'; NULL: none */
	struct expr	*expr;		/* loop count, if condition */
	struct forvar	*var;
	struct stmt	*body;
	struct stmt	*orelse;
	struct branch	*branches;
	struct stmt	*next;
};

struct branch {
	struct stmt	*body;
	struct loc	 loc;
	const char	*req;		/* waitany, waitsome: 'on' this request */
	struct loc	 reqloc;
	struct branch	*next;
};

/* Where an item stands: parts and their sections. */
enum part { PART_NONE, PART_PCG, PART_PARALLEL, PART_SEQUENTIAL, PART_BEHAVIOUR };

enum item_kind {
	I_APPLICATION,	/* name */
	I_SCALE,	/* name, expr */
	I_PARAM,	/* name, expr; or msg: a string parameter */
	I_REQUIRE,	/* expr, msg (NULL: none); loc is the expression's */
	I_COMPONENT,	/* target.name, ports */
	I_PROCESS,	/* target, ports */
	I_CHANNEL,	/* a, b, fc */
	I_CHANNEL_TAG,	/* a, b, expr, fc */
	I_HOST,		/* target, annots (one A_HOST), fc */
	I_ANNOT,	/* target, annots, fc (SEQUENTIAL COMPONENTS) */
	I_BEHAVIOUR,	/* name, body */
	I_GROUP,	/* target (the group), members, fc */
};

struct item {
	enum item_kind	 kind;
	struct loc	 loc;
	const char	*name;
	struct loc	 nameloc;
	struct expr	*expr;
	struct instref	*target;
	struct portdecl	*ports;
	struct endpoint	*a, *b;
	struct annot	*annots;
	struct instref	*members;	/* I_GROUP: its processes, in order */
	struct forclause *fc;
	struct stmt	*body;
	struct str	*msg;
	struct item	*next;
};

struct symtab;

/* Two arenas: 'lines' holds what expansion reads once (processes, channels,
 * annotations) and is freed after it; 'keep' holds names and behaviours,
 * which the expanded model goes on using.  'cur' is where the parser is
 * allocating now. */
struct ast {
	struct arena	*lines;
	struct arena	*keep;
	struct arena	*cur;
	struct symtab	*syms;
	struct item	*items;
	struct item	**tail;
	const struct source *main;	/* the script given on the command line */
};

struct ast *ast_new(void);
void ast_free(struct ast *);
void ast_append(struct ast *, struct item *);

/* Intern a name: equal names give the same pointer. */
const char *ast_intern(struct ast *, const char *, size_t);

void *ast_alloc(struct ast *, size_t);
char *ast_strdup(struct ast *, const char *);
/* Free the per-line part of the tree; only names and BEHAVIOUR items stay
 * (items becomes NULL). */
void ast_release_lines(struct ast *);
#define AST_NEW(ast, type)	((type *)ast_alloc((ast), sizeof(type)))

#endif
