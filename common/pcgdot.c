/* pcgdot.c -- encoding and reading the values of the annotated PCG's
 * attributes (pcgdot.h): text and lists of text that survive DOT byte for
 * byte, and integers read with a range check. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "pcgdot.h"
#include "xmalloc.h"

/* Whether the byte c is written as %XX in a text value. */
static int
pcgdot_reserved(unsigned char c)
{
	return c == '%' || c == '"' || c == '\'' || c == '\\' || c < 0x20 || c == 0x7f;
}

void
pcgdot_put_text(struct buf *b, const char *s)
{
	static const char	 hex[] = "0123456789ABCDEF";
	const unsigned char	*u = (const unsigned char *)s;

	buf_adds(b, "");
	for (; *u != '\0'; u++) {
		if (!pcgdot_reserved(*u)) {
			buf_addc(b, (char)*u);
			continue;
		}
		buf_addc(b, '%');
		buf_addc(b, hex[*u >> 4]);
		buf_addc(b, hex[*u & 0xf]);
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

/* The value of a hex digit, or -1. */
static int
pcgdot_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Decode text from s up to the byte stop (or the end) into b: the byte
 * after it, or NULL when an escape is malformed or stop is missing. */
static const char *
pcgdot_decode(struct buf *b, const char *s, char stop)
{
	int	hi, lo;

	buf_reset(b);
	buf_adds(b, "");
	for (; *s != stop; s++) {
		if (*s == '\0')
			return NULL;
		if (*s != '%') {
			buf_addc(b, *s);
			continue;
		}
		if ((hi = pcgdot_hex(s[1])) < 0 || (lo = pcgdot_hex(s[2])) < 0 ||
		    (hi == 0 && lo == 0))
			return NULL;
		buf_addc(b, (char)(hi << 4 | lo));
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
