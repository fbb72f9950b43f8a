/* pcgdot.c -- encoding and reading the values of the annotated PCG's
 * attributes (pcgdot.h): text and lists of text that survive DOT byte for
 * byte, and integers read with a range check. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pcgdot.h"
#include "percent.h"
#include "xmalloc.h"

/* Which bytes a text value writes as %XX: '%', the quotes '"' and '\'',
 * the backslash and the control bytes (1..31, 127); and NUL, which ends
 * the value, so that a scan for the next one stops there too. */
static const unsigned char pcgdot_escaped[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x00 */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x10 */
	0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x20 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x30 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x40 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,	/* 0x50 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x60 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,	/* 0x70 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x80 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x90 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0xa0 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0xb0 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0xc0 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0xd0 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0xe0 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0xf0 */
};

void
pcgdot_put_text(struct buf *b, const char *s)
{
	const unsigned char	*u = (const unsigned char *)s, *run;
	char			 esc[3];

	if (b->s == NULL)
		buf_adds(b, "");	/* a value, even an empty one */
	while (*u != '\0') {
		/* A run of bytes written as they are, in one piece. */
		for (run = u; !pcgdot_escaped[*u]; u++)	/* (NUL is marked too) */
			;
		if (u > run)
			buf_add(b, (const char *)run, (size_t)(u - run));
		if (*u == '\0')
			break;
		percent_put(esc, *u);
		buf_add(b, esc, sizeof(esc));
		u++;
	}
}

void
pcgdot_put_list(struct buf *b, char *const *v, int n)
{
	int	i;

	buf_adds(b, "");
	for (i = 0; i < n; i++) {
		buf_adds(b, i > 0 ? " '" : "'");
		pcgdot_put_text(b, v[i]);
		buf_addc(b, '\'');
	}
}

/* Decode text from s up to the byte stop (or the end) into b: the byte
 * after it, or NULL when an escape is malformed or stop is missing. */
static const char *
pcgdot_decode(struct buf *b, const char *s, char stop)
{
	int	c;

	buf_reset(b);
	buf_adds(b, "");
	for (; *s != stop; s++) {
		if (*s == '\0')
			return NULL;
		if (*s != '%') {
			buf_addc(b, *s);
			continue;
		}
		if ((c = percent_get(s)) <= 0)	/* malformed, or "%00" */
			return NULL;
		buf_addc(b, (char)c);
		s += 2;
	}
	return stop == '\0' ? s : s + 1;
}

char *
pcgdot_text(const char *s)
{
	struct buf	b;

	buf_init(&b);
	if (pcgdot_decode(&b, s, '\0') == NULL) {
		buf_free(&b);
		return NULL;
	}
	return buf_steal(&b);
}

int
pcgdot_list(const char *s, char ***out)
{
	struct buf	  b;
	char		**v;
	size_t		  alloc = 1;
	int		  n = 0;

	buf_init(&b);
	v = xcalloc(alloc, sizeof(*v));
	for (;;) {
		while (*s == ' ')
			s++;
		if (*s == '\0')
			break;
		if (*s != '\'' || (s = pcgdot_decode(&b, s + 1, '\'')) == NULL ||
		    (*s != ' ' && *s != '\0'))
			goto bad;
		xgrow(&v, &alloc, (size_t)n + 2, sizeof(*v));
		v[n++] = buf_steal(&b);
		v[n] = NULL;
	}
	buf_free(&b);
	*out = v;
	return n;
bad:
	buf_free(&b);
	while (n > 0)
		free(v[--n]);
	free(v);
	*out = NULL;
	return -1;
}

int
pcgdot_int(const char *s, long long min, long long max, long long *out)
{
	char		*end;
	long long	 v;

	/* (strtoll would also take leading blanks and a '+') */
	if (!isdigit((unsigned char)s[*s == '-']))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end != '\0' || errno == ERANGE || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}
