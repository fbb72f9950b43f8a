/* json.c -- a string written as JSON (json.h). */
#include "config.h"

#include "json.h"

/* Write s to f as a JSON string (json.h). */
void
json_str(FILE *f, const char *s, int flags)
{
	unsigned char	c;

	putc('"', f);
	for (; (c = (unsigned char)*s) != '\0'; s++) {
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f || ((flags & JSON_HTML) &&
		    (c == '<' || c == '>' || c == '&')))
			fprintf(f, "\\u%04x", c);
		else
			putc(c, f);
	}
	putc('"', f);
}
