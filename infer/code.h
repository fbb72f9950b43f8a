/* code.h -- a component's program as the inference reads it: the
 * functions and statements of its source, C, C++ or Python, lowered to
 * one small language, so that one interpreter (interp.c) reads all three.
 * The C and C++ front end (clang.c) builds it from libclang's syntax
 * tree, the Python one (python.c) from what infer.py, run by python3,
 * writes of Python's own 'ast'.  Every node lives in the program's
 * arena. */
#ifndef ENS_CODE_H
#define ENS_CODE_H

#include <stdint.h>

struct arena;

/* A place in the source: its file as named to the inference, line and
 * column from 1 (0: unknown). */
struct cloc {
	const char	*file;
	int		 line, col;
};

enum cnode_kind {
	/* statements */
	K_BLOCK,	/* list: the statements */
	K_EXPR,		/* a: the expression */
	K_DECL,		/* a variable: s its name, key its identity, a its
			 * initial value (NULL: none), b an array's length
			 * (op & DECL_ARRAY), op DECL_* */
	K_IF,		/* a ? b : c (c NULL: no else) */
	K_WHILE,	/* while (a) b */
	K_DO,		/* do b while (a) */
	K_FOR,		/* for (d; a; c) b: d a statement, a and c
			 * expressions, each NULL when left out */
	K_FOREACH,	/* Python's for a in c: b */
	K_SWITCH,	/* switch (a): list the cases, each a K_CASE */
	K_CASE,		/* list: its labels' values (none: default);
			 * b: its statements, falling into the next case
			 * unless they end otherwise */
	K_RETURN,	/* a: the value, or NULL */
	K_BREAK,
	K_CONTINUE,
	K_TRY,		/* Python: b the body, c 'finally' (NULL: none),
			 * op the number of 'except' handlers, list them */
	K_UNSUPP,	/* a construct the inference does not follow: s */
	/* expressions */
	X_INT,		/* i */
	X_FLOAT,
	X_STR,		/* s: the text */
	X_NULL,		/* NULL, nullptr, None */
	X_VAR,		/* s: its name; key: its identity; op: VAR_GLOBAL */
	X_FUNC,		/* a function named s: key the program's function
			 * (NULL: one it does not define); op FUNC_* */
	X_MEMBER,	/* a.s, a->s; op MEMBER_* */
	X_INDEX,	/* a[b] */
	X_CALL,		/* a(list) */
	X_UNARY,	/* op a: '-', '!', '~', '+', '&' (address), '*' */
	X_INCDEC,	/* ++a, a++, --a, a--: op '+' or '-', i 1 when postfix */
	X_BINARY,	/* a op b */
	X_ASSIGN,	/* a = b; op: 0, or the operator of a compound one */
	X_COND,		/* a ? b : c */
	X_LIST,		/* list: a Python list or tuple, a C initializer */
	X_FSTR,		/* list: the parts of a Python f-string, X_STR and
			 * expressions */
	X_UNKNOWN,	/* a value the inference does not read: s says what */
};

/* Operators beyond single characters (and '/' of Python: CN_FLOORDIV). */
enum {
	CN_EQ = 256, CN_NE, CN_LE, CN_GE, CN_AND, CN_OR, CN_SHL, CN_SHR,
	CN_FLOORDIV, CN_POW, CN_FLOORMOD
};

/* K_DECL's op */
#define DECL_ARRAY	0x1	/* an array (its length in b, NULL: from a) */
#define DECL_STATIC	0x2	/* static storage: zero until set */
#define DECL_SESSION	0x4	/* C++ ens::session: ens_init here,
				 * ens_finalize when main returns */
#define DECL_RECORD	0x8	/* a struct, class or union */
#define DECL_LIST	0x10	/* a C++ vector: a list, empty */
/* X_VAR's op */
#define VAR_GLOBAL	0x1
/* X_FUNC's op */
#define FUNC_ELSEWHERE	0x1	/* the program's own, in another file (not
				 * followed: taken to make no port calls) */
/* X_MEMBER's op, as a call's callee */
#define MEMBER_CONST	0x1	/* a C++ const method: it leaves its object */

struct cnode {
	enum cnode_kind	 k;
	int		 op;
	int64_t		 i;
	const char	*s;
	const char	*key;
	struct cnode	*a, *b, *c, *d;
	struct cnode	*list;		/* the first of a list */
	struct cnode	*next;		/* the next in a list */
	struct cloc	 loc;
};

/* A function of the program (a Python module's top level is one too). */
struct cfunc {
	const char	*key;		/* identity: a C name, a USR, a Python name */
	const char	*name;		/* as written */
	const char	**params;	/* the parameters' keys */
	const char	**pnames;
	int		 nparams;
	struct cnode	*body;
	struct cloc	 loc;
	struct cfunc	*next;
};

enum code_lang { LANG_C, LANG_CXX, LANG_PYTHON };

struct cprog {
	struct arena	*arena;
	enum code_lang	 lang;
	struct cfunc	*funcs;
	struct cnode	*globals;	/* K_DECL list, before main runs */
	struct cfunc	*entry;		/* main, or the Python module */
	struct cloc	 unsupp;	/* set by a front end that met a construct
					 * it cannot read at all (NULL file: none) */
};

struct cnode *code_node(struct cprog *, enum cnode_kind, const struct cloc *);
/* The function of that key, or NULL. */
struct cfunc *code_func(const struct cprog *, const char *key);
/* Append n at the end of the list at *head. */
void code_append(struct cnode **head, struct cnode *n);
/* An interned copy of a file name or other string, for the program's life. */
const char *code_str(struct cprog *, const char *, size_t);

#endif
