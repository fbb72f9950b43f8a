/* frontend.h -- the front end in one call, as jq has jq_compile: a script
 * parsed (grammar/), expanded (pcg/) and compiled into its MP net
 * (mpnet/), as far as the caller asks.  Every command and test that reads
 * a script goes through it, so the sequence and what each failure leaves
 * behind are written once. */
#ifndef ENS_FRONTEND_H
#define ENS_FRONTEND_H

#include <stddef.h>

#include "ast.h"
#include "diag.h"
#include "mpnet.h"
#include "pcg.h"

/* The stages, in order: how far to go, and which one failed. */
enum frontend_stage {
	FRONTEND_READ = 1,	/* the file cannot be read (said, no summary) */
	FRONTEND_PARSE,		/* parsed: frontend.ast */
	FRONTEND_EXPAND,	/* expanded: frontend.pcg */
	FRONTEND_COMPILE,	/* compiled: frontend.net */
};

/* Where the script is: the file path, or (path NULL) len bytes of text
 * named name in diagnostics.  All borrowed. */
struct frontend_src {
	const char	*path;
	const char	*name;
	const char	*text;
	size_t		 len;
	int		 no_includes;	/* refuse 'include' (fuzzing) */
};

/* What the stages made.  The AST is there only after FRONTEND_PARSE
 * (expanding takes it over); the net borrows the model, the model the
 * diagnostics (which hold the text every location points into). */
struct frontend {
	struct ast	*ast;
	struct pcg	*pcg;
	struct mpnet	*net;
};

/* Take the script as far as upto: parse it (looking for includes in the
 * -L directories of o), expand it with o, compile it.  Each stage's
 * errors go to d; a stage with any error stops the sequence.  Returns 0,
 * or the stage that failed, fe then holding what the stages before it
 * made (nothing of the failed one).  Says no summary: the caller does. */
int frontend_compile(const struct frontend_src *, const struct pcg_opts *o,
    enum frontend_stage upto, struct diag *d, struct frontend *fe);
/* Take fe on from the stage it reached (an AST, or a model) as far as
 * upto, as frontend_compile does: the caller may change the options
 * between stages (a parameter read from the AST).  0 or the stage that
 * failed. */
int frontend_resume(struct frontend *fe, const struct pcg_opts *o,
    enum frontend_stage upto, struct diag *d);
/* Free what fe holds: the net, then the model (or the AST). */
void frontend_free(struct frontend *fe);

#endif
