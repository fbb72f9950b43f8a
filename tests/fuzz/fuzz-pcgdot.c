/* fuzz-pcgdot.c -- libFuzzer target for the values of the annotated graph
 * (common/pcgdot.h), which 'ensemble graph --pcg' writes for any DOT
 * reader and the drawing reads back: every input is read as a text, a list and an int value, and the
 * promises of pcgdot.h are checked.  Run it with
 * FUZZER=tests/fuzz/fuzz-pcgdot tests/fuzz/run.sh.
 *
 * Besides the sanitizers' reports, these abort (a "crash"): a text or list
 * that decodes but, encoded again, does not decode to the same; any
 * string (the input up to its first NUL) that, encoded, does not decode
 * back to itself, or whose encoding holds a byte DOT escapes; an int read
 * outside its bounds. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcgdot.h"
#include "xmalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Show what broke, and stop as a crash does. */
static void
broken(const char *what, const char *s)
{
	fprintf(stderr, "fuzz-pcgdot: %s: '%s'\n", what, s);
	abort();
}

/* Encode s, check the encoding holds only bytes DOT keeps as they are,
 * and that it decodes to s again. */
static void
round_trip_text(const char *s)
{
	struct buf	 b;
	const char	*p;
	char		*back;

	buf_init(&b);
	pcgdot_put_text(&b, s);
	for (p = b.s; *p != '\0'; p++)
		if (*p == '"' || *p == '\\' || *p == '\'' || *p == '\n' ||
		    (unsigned char)*p < 0x20)
			broken("an encoding holds a byte DOT escapes", b.s);
	if ((back = pcgdot_text(b.s)) == NULL)
		broken("an encoding does not decode", b.s);
	if (strcmp(back, s) != 0)
		broken("an encoding decodes to another string", b.s);
	free(back);
	buf_free(&b);
}

/* A list that decoded from s: encoded again, the same list. */
static void
round_trip_list(const char *s, char **v, int n)
{
	struct buf	  b;
	char		**w;
	int		  m, i;

	buf_init(&b);
	pcgdot_put_list(&b, v, n);
	if ((m = pcgdot_list(b.s, &w)) != n)
		broken("a list encoded again has another length", s);
	for (i = 0; i < n; i++) {
		if (strcmp(v[i], w[i]) != 0)
			broken("a list encoded again has another element", s);
		free(w[i]);
	}
	free(w);
	buf_free(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char		 *s = xmalloc(size + 1), *t, **v;
	long long	  x;
	int		  n, i;

	memcpy(s, data, size);
	s[size] = '\0';

	round_trip_text(s);
	if ((t = pcgdot_text(s)) != NULL) {
		round_trip_text(t);
		free(t);
	}
	if ((n = pcgdot_list(s, &v)) >= 0) {
		round_trip_list(s, v, n);
		for (i = 0; i < n; i++) {
			round_trip_text(v[i]);
			free(v[i]);
		}
		free(v);
	} else if (v != NULL)
		broken("a refused list left an array", s);
	if (pcgdot_int(s, -1000, 1000, &x) == 0 && (x < -1000 || x > 1000))
		broken("an int outside its bounds", s);
	free(s);
	return 0;
}
