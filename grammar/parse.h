/* parse.h -- reading a .pcg script (and what it includes) into an AST. */
#ifndef ENS_PARSE_H
#define ENS_PARSE_H

#include <stddef.h>

#include "ast.h"
#include "diag.h"

/* Where `include "f.pcg"` looks after the including file's directory:
 * each dir, then each ENSEMBLE_PATH entry, then the install directory. */
struct parse_opts {
	const char *const	*dirs;		/* borrowed; -L directories */
	size_t			 ndirs;
	int			 no_includes;	/* refuse 'include' (fuzzing) */
};

/* Parse a script.  Errors are reported to d and counted there; the AST is
 * returned even when there were errors (what parsed), NULL only when the file
 * cannot be read.  Caller frees with ast_free. */
struct ast *parse_file(const char *path, struct diag *d, const struct parse_opts *);
/* The same for text in memory (named name in diagnostics). */
struct ast *parse_string(const char *name, const char *text, size_t len,
    struct diag *d, const struct parse_opts *);

/* Read more text into an AST that a model was expanded from (what
 * ensemble infer writes: a BEHAVIOUR part), no includes; its items, a
 * list of its own (the AST's list is left empty), in the AST's arenas,
 * names interned in its table.  Errors are reported to d. */
struct item *parse_more(struct ast *, const char *name, const char *text,
    size_t len, struct diag *d);

#endif
