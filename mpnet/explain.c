/* explain.c -- a violation drawn (explain.h). */
#include "config.h"

#include "explain.h"
#include "xmalloc.h"

int
explain_draw(const struct mpnet *net, const struct mode_result *r, const char *path,
    char **cause)
{
	(void)net;
	(void)r;
	(void)path;
	*cause = xstrdup("drawing explanations is not built yet");
	return -1;
}
