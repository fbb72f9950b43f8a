/* eval.h -- evaluating script expressions and strings, and unrolling 'for'
 * clauses, for pcg/ only. */
#ifndef ENS_EVAL_H
#define ENS_EVAL_H

#include <stdint.h>

#include "ast.h"
#include "pcg.h"

#define EVAL_MAX_VARS	16

struct eval_var {
	const char	*name;		/* interned */
	int64_t		 value;
};

struct eval {
	struct pcg		*pcg;
	struct eval_var		 vars[EVAL_MAX_VARS];
	int			 nvars;
	int			 has_index;
	int64_t			 index;
	const struct pcg_proc	*proc;		/* for ports(T); NULL if none */
	const char		*where;		/* why index is unavailable */
};

/* Evaluate e into *out; on an error, report it and return -1. */
int eval_expr(struct eval *, const struct expr *, int64_t *out);
/* Report that the string parameter p is used at l where a number is
 * needed, saying its value and where it was set. */
void eval_not_number(struct pcg *, const struct loc *, const struct pcg_param *);
/* Evaluate a string with its ${...} parts (a part that is just the name of
 * a string parameter is its text); NULL after a reported error.
 * The result is in the pcg arena. */
char *eval_str(struct eval *, const struct str *);
/* Whether e (or a string) depends on index or ports(). */
int expr_per_instance(const struct expr *);
int str_per_instance(const struct str *);

/* Call fn for each binding of the clause (once when fc is NULL), with the
 * variables bound in ev.  Stops at the first iteration where fn returns -1,
 * notes that iteration's values, and returns -1. */
int eval_for(struct eval *, const struct forclause *,
    int (*fn)(struct eval *, void *), void *arg);

#endif
