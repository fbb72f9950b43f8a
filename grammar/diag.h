/* diag.h -- source files and diagnostics in the GNU format
 * (file:line:col: error: ..., the source line and a ^~~~ underline). */
#ifndef ENS_DIAG_H
#define ENS_DIAG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* A loaded source file; owned by the diag context, freed with it. */
struct source {
	char		*name;		/* as shown in diagnostics */
	char		*path;		/* canonical path, for include cycles */
	char		*dir;		/* directory, for relative includes */
	char		*text;		/* NUL-terminated contents */
	size_t		 len;
	size_t		*lines;		/* offset of each line start, lazily built */
	size_t		 nlines;
	const struct source *from;	/* the file that included it, or NULL */
	int		 from_line, from_column;
	struct source	*next;
};

/* A span in a source: 1-based line and column (tabs stop every 8 columns,
 * as GNU requires), last_column inclusive.  This is also bison's YYLTYPE. */
struct loc {
	int			 first_line;
	int			 first_column;
	int			 last_line;
	int			 last_column;
	const struct source	*src;
};

enum diag_level { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE };

struct diag {
	FILE		*out;		/* borrowed, usually stderr */
	int		 errors;
	int		 warnings;
	int		 shown_errors;
	int		 shown_warnings;
	int		 max_shown;	/* per level; the rest are counted only */
	int		 last_shown;	/* whether the last error/warning printed */
	struct loc	 last_loc;	/* where it was */
	struct source	*sources;
};

struct diag *diag_new(FILE *);
void diag_free(struct diag *);

/* Read a file into a new source; NULL and *cause (caller frees) on failure. */
struct source *diag_load(struct diag *, const char *name, char **cause);
/* A source made from a string (fuzzing, -D values). */
struct source *diag_load_string(struct diag *, const char *name, const char *text, size_t len);

void diag_at(struct diag *, enum diag_level, const struct loc *, const char *, ...)
    __attribute__((format(printf, 4, 5)));
void diag_vat(struct diag *, enum diag_level, const struct loc *, const char *, va_list)
    __attribute__((format(printf, 4, 0)));
#define diag_error(d, l, ...)	diag_at((d), DIAG_ERROR, (l), __VA_ARGS__)
#define diag_warning(d, l, ...)	diag_at((d), DIAG_WARNING, (l), __VA_ARGS__)
#define diag_note(d, l, ...)	diag_at((d), DIAG_NOTE, (l), __VA_ARGS__)

/* "ensemble: 2 errors" (and what was not shown); nothing when clean. */
void diag_summary(struct diag *);

/* Of the n candidates, the one word was most likely meant to be (a typo:
 * letters left out, added, changed or two swapped, few for its length,
 * or only its case), or NULL when none is close; a candidate equal to
 * word is never it. */
const char *diag_suggest(const char *word, const char *const *cands, size_t n);
/* "; did you mean 'X'?" for diag_suggest's answer, in buf, or "" when
 * there is none: to end a message with. */
const char *diag_did_you_mean(char *buf, size_t len, const char *word,
    const char *const *cands, size_t n);

/* Advance a position over n bytes of text (tabs, newlines, UTF-8). */
void diag_advance(int *line, int *col, const char *text, size_t n);
/* The column, as diagnostics count them (tabs to the next multiple of 8,
 * a UTF-8 character one), of the byte column bcol (from 1, as compilers
 * count) of line of a source; bcol itself when the line is not there. */
int diag_column(struct source *, int line, int bcol);

#endif
