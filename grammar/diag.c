/* diag.c -- loading source files and printing diagnostics with the source
 * line and an underline, capped so a broken 100,000-line script stays
 * readable. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "xmalloc.h"

#define DIAG_MAX_SHOWN	50
#define DIAG_MAX_FILE	(1 << 30)	/* what a script may be */
#define DIAG_MAX_EXCERPT	1000	/* longest source line shown */

struct diag *
diag_new(FILE *out)
{
	struct diag	*d = xcalloc(1, sizeof(*d));

	d->out = out;
	d->max_shown = DIAG_MAX_SHOWN;
	return d;
}

void
diag_free(struct diag *d)
{
	struct source	*s, *next;

	if (d == NULL)
		return;
	for (s = d->sources; s != NULL; s = next) {
		next = s->next;
		free(s->name);
		free(s->path);
		free(s->dir);
		free(s->text);
		free(s->lines);
		free(s);
	}
	free(d);
}

static struct source *
source_add(struct diag *d, const char *name, char *text, size_t len)
{
	struct source	*s = xcalloc(1, sizeof(*s));
	const char	*slash;

	s->name = xstrdup(name);
	s->text = text;
	s->len = len;
	slash = strrchr(name, '/');
	s->dir = slash == NULL ? xstrdup(".") :
	    xstrndup(name, slash == name ? 1 : (size_t)(slash - name));
	s->next = d->sources;
	d->sources = s;
	return s;
}

struct source *
diag_load(struct diag *d, const char *name, char **cause)
{
	FILE		*f;
	struct stat	 st;
	struct buf	 b;
	struct source	*s = NULL;
	char		 chunk[65536], real[PATH_MAX];
	size_t		 n;
	int		 std = strcmp(name, "-") == 0;

	if (std)
		f = stdin;
	else if ((f = fopen(name, "r")) == NULL) {
		xasprintf(cause, "cannot open '%s': %s", name, strerror(errno));
		return NULL;
	}
	buf_init(&b);
	if (fstat(fileno(f), &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			xasprintf(cause, "cannot read '%s': Is a directory", name);
			goto out;
		}
		/* A regular file is read into one buffer of its size, not grown. */
		if (S_ISREG(st.st_mode) && st.st_size > 0 && st.st_size <= DIAG_MAX_FILE)
			xgrow(&b.s, &b.alloc, (size_t)st.st_size + 1, 1);
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (b.len + n > DIAG_MAX_FILE) {
			xasprintf(cause, "cannot read '%s': larger than %d MiB", name,
			    DIAG_MAX_FILE >> 20);
			goto out;
		}
		buf_add(&b, chunk, n);
	}
	if (ferror(f)) {
		xasprintf(cause, "cannot read '%s': %s", name, strerror(errno));
		goto out;
	}
	n = b.len;
	s = source_add(d, std ? "<stdin>" : name, buf_steal(&b), n);
	s->path = xstrdup(!std && realpath(name, real) != NULL ? real : s->name);
out:
	buf_free(&b);
	if (!std)
		fclose(f);
	return s;
}

struct source *
diag_load_string(struct diag *d, const char *name, const char *text, size_t len)
{
	struct source	*s = source_add(d, name, xstrndup(text, len), len);

	s->path = xstrdup(name);
	return s;
}

/* The longest word diag_suggest compares (a longer one is no typo of a
 * keyword or a name). */
#define DIAG_SUGGEST_MAX	64

/* The edit distance from a to b (their lowercase letters), each letter
 * left out, added or changed and each swap of two neighbours one edit
 * (Damerau's, optimal string alignment). */
static int
diag_distance(const char *a, const char *b)
{
	int	d[DIAG_SUGGEST_MAX + 1][DIAG_SUGGEST_MAX + 1];
	int	i, j, la = (int)strlen(a), lb = (int)strlen(b), c, v;

	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			c = tolower((unsigned char)a[i - 1]) !=
			    tolower((unsigned char)b[j - 1]);
			v = d[i - 1][j - 1] + c;
			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 &&
			    tolower((unsigned char)a[i - 1]) ==
			    tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) ==
			    tolower((unsigned char)b[j - 1]) &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

const char *
diag_suggest(const char *word, const char *const *cands, size_t n)
{
	const char	*best = NULL;
	size_t		 k, len = strlen(word);
	int		 dist, most, bestd = INT_MAX;

	if (len == 0 || len > DIAG_SUGGEST_MAX)
		return NULL;
	/* Few edits for a short word: 'ab' is no typo of 'cb'. */
	most = len <= 2 ? 0 : len <= 5 ? 1 : len <= 9 ? 2 : 3;
	for (k = 0; k < n; k++) {
		if (cands[k] == NULL || strlen(cands[k]) > DIAG_SUGGEST_MAX ||
		    strcmp(cands[k], word) == 0)
			continue;
		dist = diag_distance(word, cands[k]);
		if (dist <= most && dist < bestd) {
			best = cands[k];
			bestd = dist;
		}
	}
	return best;
}

const char *
diag_did_you_mean(char *buf, size_t len, const char *word,
    const char *const *cands, size_t n)
{
	const char	*s = diag_suggest(word, cands, n);

	if (s == NULL)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "; did you mean '%s'?", s);
	return buf;
}

void
diag_advance(int *line, int *col, const char *text, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		unsigned char	c = text[i];

		if (c == '\n') {
			(*line)++;
			*col = 1;
		} else if (c == '\t')
			*col = ((*col - 1) / 8 + 1) * 8 + 1;
		else if ((c & 0xc0) != 0x80)	/* not a UTF-8 continuation */
			(*col)++;
	}
}

/* Find line n (1-based) of a source; returns its start and sets *len. */
static const char *
source_line(struct source *s, int n, size_t *len)
{
	size_t	i, start, end;

	if (s->lines == NULL) {
		size_t	alloc = 0;

		xgrow(&s->lines, &alloc, 1, sizeof(size_t));
		s->lines[s->nlines++] = 0;
		for (i = 0; i < s->len; i++) {
			if (s->text[i] == '\n') {
				xgrow(&s->lines, &alloc, s->nlines + 1, sizeof(size_t));
				s->lines[s->nlines++] = i + 1;
			}
		}
	}
	if (n < 1 || (size_t)n > s->nlines)
		return NULL;
	start = s->lines[n - 1];
	end = start;
	while (end < s->len && s->text[end] != '\n' && s->text[end] != '\r')
		end++;
	*len = end - start;
	return s->text + start;
}

int
diag_column(struct source *s, int line, int bcol)
{
	const char	*p;
	size_t		 len;
	int		 l = 1, col = 1;

	if (bcol < 1 || (p = source_line(s, line, &len)) == NULL)
		return bcol;
	diag_advance(&l, &col, p, (size_t)bcol - 1 < len ? (size_t)bcol - 1 : len);
	return col;
}

/* Print a line with tabs expanded, so the underline below it lines up. */
static void
print_line(FILE *out, const char *p, size_t len)
{
	int	col = 1;
	size_t	i;

	fputc(' ', out);
	for (i = 0; i < len; i++) {
		unsigned char	c = p[i];

		if (c == '\t') {
			int	next = ((col - 1) / 8 + 1) * 8 + 1;

			for (; col < next; col++)
				fputc(' ', out);
		} else {
			if (c < 0x20 || c == 0x7f)
				c = ' ';
			fputc(c, out);
			if ((c & 0xc0) != 0x80)
				col++;
		}
	}
	fputc('\n', out);
}

static void
print_caret(FILE *out, const struct loc *l)
{
	int	col, last;

	last = l->last_line == l->first_line ? l->last_column : l->first_column;
	if (last < l->first_column)
		last = l->first_column;
	fputc(' ', out);
	for (col = 1; col < l->first_column; col++)
		fputc(' ', out);
	fputc('^', out);
	for (col = l->first_column + 1; col <= last; col++)
		fputc('~', out);
	fputc('\n', out);
}

void
diag_vat(struct diag *d, enum diag_level level, const struct loc *l,
    const char *fmt, va_list ap)
{
	static const char *const names[] = { "error", "warning", "note" };
	const char	*line;
	size_t		 len;

	switch (level) {
	case DIAG_ERROR:
		d->errors++;
		d->last_shown = d->shown_errors < d->max_shown;
		if (d->last_shown)
			d->shown_errors++;
		break;
	case DIAG_WARNING:
		d->warnings++;
		d->last_shown = d->shown_warnings < d->max_shown;
		if (d->last_shown)
			d->shown_warnings++;
		break;
	case DIAG_NOTE:		/* shown with the diagnostic it explains */
		break;
	}
	if (!d->last_shown)
		return;
	if (l != NULL && l->src != NULL)
		fprintf(d->out, "%s:%d:%d: %s: ", l->src->name, l->first_line,
		    l->first_column, names[level]);
	else if (level == DIAG_ERROR)
		fprintf(d->out, "ensemble: ");
	else
		fprintf(d->out, "ensemble: %s: ", names[level]);
	vfprintf(d->out, fmt, ap);
	fputc('\n', d->out);
	/* A note at the spot just shown needs no second excerpt. */
	if (level == DIAG_NOTE && l != NULL && memcmp(l, &d->last_loc, sizeof(*l)) == 0)
		return;
	if (l != NULL)
		d->last_loc = *l;
	else
		memset(&d->last_loc, 0, sizeof(d->last_loc));
	/* A line too long to read is better left out than printed. */
	if (l != NULL && l->src != NULL &&
	    (line = source_line((struct source *)l->src, l->first_line, &len)) != NULL &&
	    len <= DIAG_MAX_EXCERPT) {
		print_line(d->out, line, len);
		print_caret(d->out, l);
	}
	/* Where an included file came in, down to the script itself. */
	if (level != DIAG_NOTE && l != NULL) {
		const struct source	*s;

		for (s = l->src; s != NULL && s->from != NULL; s = s->from)
			fprintf(d->out, "%s:%d:%d: note: '%s' included from here\n",
			    s->from->name, s->from_line, s->from_column, s->name);
	}
}

void
diag_at(struct diag *d, enum diag_level level, const struct loc *l,
    const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	diag_vat(d, level, l, fmt, ap);
	va_end(ap);
}

static void
plural(struct buf *b, int n, const char *what)
{
	buf_printf(b, "%d %s%s", n, what, n == 1 ? "" : "s");
}

void
diag_summary(struct diag *d)
{
	struct buf	b;
	int		hidden;

	if (d->errors == 0)
		return;
	buf_init(&b);
	buf_adds(&b, "ensemble: ");
	plural(&b, d->errors, "error");
	if (d->warnings > 0) {
		buf_adds(&b, ", ");
		plural(&b, d->warnings, "warning");
	}
	hidden = (d->errors - d->shown_errors) + (d->warnings - d->shown_warnings);
	if (hidden > 0)
		buf_printf(&b, " (%d not shown)", hidden);
	fprintf(d->out, "%s\n", b.s);
	buf_free(&b);
}
