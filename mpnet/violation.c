/* violation.c -- what violation.h says: the kinds' names, and a violation
 * freed. */
#include "config.h"

#include <stdlib.h>

#include "violation.h"

static const char *const vkinds[VK_COUNT] = {
	"deadlock", "unmatched-send", "orphan-receive", "collective-mismatch",
	"unwaited-request", "livelock",
};

const char *
vkind_name(enum vkind k)
{
	return vkinds[k];
}

void
violation_free(struct violation *v)
{
	int	k;

	if (v == NULL)
		return;
	free(v->message);
	free(v->detail);
	free(v->message_full);
	free(v->detail_full);
	free(v->procs);
	for (k = 0; k < v->ntrace; k++)
		free(v->trace[k]);
	free(v->trace);
	free(v->final);
	free(v->steps);
	free(v->start);
	free(v->waits);
}
