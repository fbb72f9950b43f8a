/* lexer-extra.h -- the scanner's per-file state (flex's yyextra) and the
 * scanner functions the parser calls; shared by grammar/lexer.l and
 * grammar/parser.y only. */
#ifndef ENS_LEXER_EXTRA_H
#define ENS_LEXER_EXTRA_H

#include "diag.h"

struct ast;

#define LEXER_MAX_BRACES	64

struct lexer_extra {
	struct ast		*ast;
	const struct source	*src;
	int			 line;
	int			 col;
	int			 depth;		/* string/interpolation states pushed */
	const char		*invalid;	/* message of the last INVALID token */
	struct loc		 string;	/* where the open string began */
	struct loc		 interp;	/* where the open '${' began */
	struct loc		 braces[LEXER_MAX_BRACES];	/* open '{' */
	int			 nbraces;
};

typedef struct yy_buffer_state *YY_BUFFER_STATE;
int pcg_yylex_init_extra(struct lexer_extra *, void **);
YY_BUFFER_STATE pcg_yy_scan_bytes(const char *, int, void *);
void pcg_yy_delete_buffer(YY_BUFFER_STATE, void *);
int pcg_yylex_destroy(void *);
char *pcg_yyget_text(void *);

#endif
