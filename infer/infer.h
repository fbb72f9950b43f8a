/* infer.h -- a component's BEHAVIOUR read from its code (ensemble
 * infer): its C or C++ source through libclang, or its Python source
 * through python3's own 'ast' module, followed from main (the module's
 * code) through the functions it calls, every ens_* call that
 * communicates written as the statement of pcg(5) that --check-protocol
 * pairs it with (ensemble(1), "Protocol check").  Loops counted by a
 * parameter, an argument, a literal, ports() or arithmetic on those
 * become 'loop' and 'for', conditions on those 'if'; what the data
 * decides becomes 'choice', and is listed as an over-approximation.
 * What it cannot follow is an error at its place in the code.
 *
 *	struct infer_opts o = { ... };
 *	struct infer *r = infer_run(&o, &cause);	(NULL: *cause says why)
 *	if (r->error != NULL) ...			(a place and a message)
 *	infer_text(r, &buf, &lines);			(the BEHAVIOUR block)
 *	infer_free(r);
 *
 * The library uses common/ only; libclang is opened on first use
 * (clang.c), python3 run as a child (python.c). */
#ifndef ENS_INFER_H
#define ENS_INFER_H

#include <stdint.h>

#include "code.h"
#include "sym.h"

struct buf;

/* The statements of the behaviour language an inferred behaviour has. */
enum bkind {
	B_SEND,		/* mode; type, port */
	B_RECV,		/* type, port */
	B_RECV_ANY,	/* type (NULL: any port) */
	B_ISEND,	/* mode; type, port; req */
	B_IRECV,	/* type, port; req */
	B_IRECV_ANY,	/* type (NULL: any); req */
	B_WAITALL,
	B_WAIT,		/* req */
	B_TEST,		/* req; body (complete), orelse */
	B_WAITANY,	/* branches, each on a req */
	B_WAITSOME,	/* branches */
	B_SENDRECV,	/* type, port (the send), rtype, rport */
	B_SENDRECV_REPLACE,
	B_PROBE,	/* type, port; req: the message it names, if any */
	B_PROBE_ANY,	/* type (NULL: any); req */
	B_IPROBE,	/* type, port; body, orelse */
	B_IPROBE_ANY,	/* type (NULL: any); body, orelse */
	B_RECV_PROBED,	/* req: the message a probe named */
	B_COLL,		/* coll: the collective; root, group */
	B_LOOP,		/* count (NULL: forever); body */
	B_FOR,		/* var from lo to hi; body */
	B_IF,		/* cond; body, orelse */
	B_CHOICE,	/* branches */
};

/* The collectives, in the words of the language. */
enum bcoll {
	BC_BARRIER, BC_ALLREDUCE, BC_ALLGATHER, BC_ALLTOALL, BC_ALLGATHERV,
	BC_ALLTOALLV, BC_REDUCESCATTER, BC_BCAST, BC_SCATTER, BC_REDUCE,
	BC_GATHER, BC_SCATTERV, BC_GATHERV
};
#define BC_ROOTED(c)	((c) >= BC_BCAST)

/* A name the behaviour gives a request (or a probed message): every
 * statement that posts into the same code variable shares one (sites of
 * one name are joined). */
struct breq {
	const char	*base;		/* from the code's variable */
	const char	*name;		/* given when printed */
	int		 used;		/* a wait, test, 'on' or recv names it */
	int		 named_by_var;	/* base is a variable's name */
	struct breq	*up;		/* joined into up (union-find) */
};

struct bbranch;

struct bst {
	enum bkind	 k;
	int		 mode;		/* sends: 0 standard, 1 ssend, 2 bsend */
	enum bcoll	 coll;
	const char	*type, *rtype;
	const struct sym *port, *rport;	/* NULL: every port ([*]) */
	struct breq	*req;
	const char	*root;		/* component of a rooted collective */
	const struct sym *rootidx;	/* its index; NULL: unindexed */
	const char	*group;		/* 'over'; NULL: the application */
	const struct sym *groupidx;	/* NULL: unindexed */
	const struct sym *count;	/* B_LOOP; NULL: forever */
	const struct sym *var, *lo, *hi;	/* B_FOR (var a Y_VAR) */
	const struct sym *cond;		/* B_IF */
	struct bst	*body, *orelse;
	struct bbranch	*branches;
	struct bst	*next;
	struct cloc	 loc;		/* the call, or the loop or 'if' */
	const char	*why;		/* B_CHOICE: what decides it, as written */
};

struct bbranch {
	struct bst	*body;
	struct breq	*req;		/* B_WAITANY, B_WAITSOME: 'on' it */
	struct bbranch	*next;
};

/* A place where the behaviour says more than the code can do: a choice
 * the data makes. */
struct infer_note {
	struct cloc	 loc;
	const char	*text;
	struct infer_note *next;
};

struct infer {
	struct cprog	*prog;
	const char	*component;	/* the behaviour's name */
	struct bst	*body;		/* the behaviour */
	struct infer_note *over;	/* over-approximations, in code order */
	struct infer_note *raw;		/* raw MPI calls met (not in it) */
	struct infer_note *elsewhere;	/* calls of the program's own functions
					 * in files not given: not followed */
	/* The error that stopped it (NULL: none): where and what. */
	struct cloc	 errloc;
	char		*error;
};

/* Words of a source's: its other files, and its own compiler flags
 * (those starting with '-'): 'source "a.c" "b.c" "-DX"'. */
struct infer_words {
	char		**v;
	int		 n;
};
/* Append word (taken) to w; free w's words. */
void infer_words_add(struct infer_words *, char *word);
void infer_words_free(struct infer_words *);

struct infer_opts {
	const char *const *files;	/* the sources: one program */
	int		 nfiles;
	const char *const *flags;	/* the compiler's flags (C, C++) */
	int		 nflags;
	const char	*component;	/* the behaviour's name; NULL: the
					 * first file's base name */
	const char	*helper;	/* infer.py; NULL: the installed one */
	const char	*python;	/* the python3 to run it; NULL: python3 */
	const char	*const *incdirs;	/* -I for ensemble.h, ensemble.hpp */
	int		 nincdirs;
	const char	*mpi_cflags;	/* MPI's -I flags, one string; NULL: none */
	const char	*libclang;	/* what dlopen opens; NULL: configure's */
	const char	*cache;		/* where precompiled headers of ensemble.h
					 * and ensemble.hpp are kept; NULL: none */
};

/* The language a file's name says: C, C++ or Python; -1 for one it does
 * not know, -2 for Fortran (not supported: its reason in *why). */
int infer_lang(const char *path, const char **why);
/* Whether s is a name of the script language (a component's, a port
 * type's): a letter or '_', then letters, digits and '_'. */
int infer_is_name(const char *s);
/* Whether this build can read C and C++ (configure found libclang). */
int infer_have_clang(void);
/* The compile database of directory dir (its compile_commands.json, read
 * by libclang) on the program named base: the files it compiles into
 * base (an output base, or one under base.dir/ as CMake writes; else the
 * files named base with an ending), the first in *path (new), the others
 * into w, followed by the first's flags that change how it reads (-D,
 * -U, -I, -isystem, -iquote, -idirafter, -include, -imacros, -std=: each
 * one word, paths made absolute).  0 if found; -1 if none (no database, none
 * of base, or no libclang: nothing opened nor said). */
int infer_compdb(const char *dir, const char *base, char **path,
    struct infer_words *w);

/* Infer the behaviour of the program in o->files.  NULL with *cause
 * (caller frees) when it cannot start (a file that cannot be read, no
 * libclang, no python3); otherwise the result, its error set when the
 * code holds something it cannot follow. */
struct infer *infer_run(const struct infer_opts *, char **cause);
void infer_free(struct infer *);

/* The BEHAVIOUR block as pcg(5) text into b: a header comment, the
 * component's block with a '# file:line' comment after each statement
 * (one statement a line), and the over-approximations.  If lines is not
 * NULL, *lines gets a new array (caller frees) of the code's place of
 * each line of the text (file NULL where none), and *nlines its length. */
void infer_text(struct infer *, struct buf *b, struct cloc **lines,
    int *nlines);

/* The front ends, for infer.c: the program of the files. */
struct cprog *clang_read(const struct infer_opts *, enum code_lang,
    struct infer *, char **cause);
struct cprog *python_read(const struct infer_opts *, struct infer *,
    char **cause);
/* The interpreter: r->body from r->prog (sets r->error). */
void interp_run(struct infer *);
/* Say an error at a place of the code: the first one stays. */
void infer_error(struct infer *, const struct cloc *, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
