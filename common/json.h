/* json.h -- a string written as JSON, for every JSON ensemble writes
 * (verify --json, trace export --format chrome, the timeline page's data). */
#ifndef ENS_JSON_H
#define ENS_JSON_H

#include <stdio.h>

#define JSON_HTML	0x1	/* also '<', '>' and '&' as \u00XX: the string
				 * may stand inside an HTML <script> */

/* Write s to f as a JSON string, quotes included: '"' and '\' escaped,
 * newline and tab as \n and \t, other control bytes and DEL as \u00XX;
 * every other byte as it is (UTF-8 passes through). */
void json_str(FILE *f, const char *s, int flags);

#endif
