/* codecheck.h -- a script's processes held to their code (ensemble check
 * --code, verify --from-code, and run before it starts them): each
 * process's source found, its behaviour inferred from it (infer.h), read
 * into the script as a BEHAVIOUR of the process's component, instantiated
 * for the process as the declared one is (pcg/behave.c), and the two
 * compared: every sequence of port calls the code can make must be one
 * the declared behaviour allows, as --check-protocol would (incl.c).
 *
 * Above pcg/ and grammar/ (it reads text into the script's AST) and
 * libinfer; cli/ prints. */
#ifndef ENS_CODECHECK_H
#define ENS_CODECHECK_H

#include <stdint.h>

#include "diag.h"
#include "infer.h"
#include "pcg.h"

struct cc_opts {
	struct infer_opts	 io;		/* the front ends' (cli_infer_opts) */
	const struct pcg_opts	*po;		/* where executables are */
	const char *const	*sources;	/* COMP=FILE (--source), each */
	int			 nsources;
	const char *const	*dirs;		/* more places to look for a source */
	int			 ndirs;
	long			 max_states;	/* per comparison; 0: the default */
	int			 soft;		/* code that cannot be followed is a
						 * warning (run), not an error */
	int			 no_compare;	/* infer only (verify --from-code) */
};

/* How a process's code compares with its declared behaviour. */
enum cc_verdict {
	CC_UNCHECKED,	/* no source found, or a language not read */
	CC_EQUAL,	/* the same sequences of calls */
	CC_INCLUDED,	/* the code's are some of the behaviour's */
	CC_DIFFERS,	/* a sequence the behaviour does not allow */
	CC_FAILED,	/* its code cannot be followed, or does not fit the
			 * script (an error said) */
	CC_UNDECIDED,	/* the comparison passed its limit */
};

/* A source read: the processes whose executable it is. */
struct cc_src {
	char		*path;		/* its first file */
	struct infer_words w;	/* its other files and flags */
	int		 comp;
	struct infer	*inf;		/* NULL: not read (why) */
	char		*why;		/* (new) */
	const struct item *item;	/* its BEHAVIOUR, in the script's AST */
	int		 failed;	/* its code cannot be followed (1) or
					 * does not fit the script (2) */
	char		*text;		/* the inferred text */
};

struct cc_proc {
	int		 src;		/* -1: none (why) */
	const char	*why;		/* static text, or in the model's arena */
	struct pcg_bstmt *prog;		/* the code's, instantiated */
	const char	*text;
	enum cc_verdict	 verdict;
	char		*diff;		/* the first difference, said (new) */
	struct loc	 codeloc;	/* where in the code (src NULL: its end) */
	struct loc	 declloc;	/* and in the script (src NULL: its end) */
	long		 states;	/* the comparison's */
};

struct codecheck {
	struct pcg	*g;
	struct diag	*d;
	struct cc_src	*srcs;
	int		 nsrcs;
	struct cc_proc	*procs;		/* one per process of g */
	int		 errors;	/* inference failures (code not read) */
	int		 differ;	/* processes whose code differs */
	int		 undecided;
};

/* Find each process's source and read its behaviour into g (errors at
 * their places in the code go to d).  Never NULL. */
struct codecheck *codecheck_infer(struct pcg *, const struct cc_opts *,
    struct diag *);
/* Compare each process's code with its declared behaviour, setting the
 * verdicts (and each difference's text). */
void codecheck_compare(struct codecheck *, const struct cc_opts *);
/* Make each checked process's behaviour its code's (verify --from-code):
 * its program and its text. */
void codecheck_use(struct codecheck *);
void codecheck_free(struct codecheck *);
/* Say the error that stopped an inference at its place in the code, with
 * its line and a caret (a warning if soft). */
void codecheck_say(struct diag *, const struct infer *, int soft);

/* The comparison of two instantiated behaviours of process proc (code,
 * decl): CC_EQUAL, CC_INCLUDED, CC_DIFFERS (*diff a new text, *codeloc
 * and *declloc the places) or CC_UNDECIDED past max_states. */
enum cc_verdict incl_compare(const struct pcg *, int proc,
    const struct pcg_bstmt *code, const struct pcg_bstmt *decl,
    long max_states, char **diff, struct loc *codeloc, struct loc *declloc,
    long *states);

#endif
