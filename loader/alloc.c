/* alloc.c -- the slots a run may use, as Open MPI 4.1 counts them (see
 * alloc.h): the hosts of an allocation, however they were found (this
 * machine, here; a hostfile: alloc-hostfile.c; Slurm: alloc-slurm.c),
 * their total, and a host looked up by name. */
#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "alloc-machine.h"
#include "xmalloc.h"

/* Append host name (taken over) to a; its index. */
int
alloc_add(struct alloc *a, char *name, int slots, int cores, int local)
{
	struct alloc_host	*h;

	/* Room for 4, then doubled when full (nhosts a power of 2). */
	if (a->nhosts == 0 || (a->nhosts >= 4 &&
	    (a->nhosts & (a->nhosts - 1)) == 0))
		a->hosts = xreallocarray(a->hosts, a->nhosts == 0 ? 4 :
		    (size_t)a->nhosts * 2, sizeof *a->hosts);
	h = &a->hosts[a->nhosts];
	h->name = name;
	h->slots = slots;
	h->cores = cores;
	h->local = local;
	return a->nhosts++;
}

/* The host of a named exactly name, or -1. */
int
alloc_index(const struct alloc *a, const char *name)
{
	int	i;

	for (i = 0; i < a->nhosts; i++) {
		if (strcmp(a->hosts[i].name, name) == 0)
			return i;
	}
	return -1;
}

/* Fill in what Open MPI works out itself (a local host's cores) and the
 * total. */
void
alloc_total(struct alloc *a)
{
	struct alloc_host	*h;
	int			 i, cores = -1;

	a->slots = 0;
	for (i = 0; i < a->nhosts; i++) {
		h = &a->hosts[i];
		if (h->cores && h->local) {
			if (cores < 0)
				cores = alloc_cores();
			h->slots = cores;
		} else if (h->cores)
			h->slots = -1;
		if (h->slots < 0 || a->slots < 0)
			a->slots = -1;
		else if (a->slots > INT_MAX - h->slots)
			a->slots = INT_MAX;
		else
			a->slots += h->slots;
	}
}

void
alloc_clear(struct alloc *a)
{
	int	i;

	for (i = 0; i < a->nhosts; i++)
		free(a->hosts[i].name);
	free(a->hosts);
	free(a->what);
	free(a->jobid);
	memset(a, 0, sizeof *a);
}


void
alloc_local(struct alloc *a)
{
	memset(a, 0, sizeof *a);
	a->kind = ALLOC_LOCAL;
	a->what = xstrdup("this machine");
	alloc_add(a, alloc_nodename(), -1, 1, 1);
	alloc_total(a);
}
const struct alloc_host *
alloc_find(const struct alloc *a, const char *name)
{
	char	*s;
	int	 i;

	s = alloc_short(name);
	i = alloc_index(a, s);
	if (i < 0 && (alloc_is_local(name) || alloc_is_local(s))) {
		for (i = 0; i < a->nhosts; i++) {
			if (a->hosts[i].local)
				break;
		}
		if (i == a->nhosts)
			i = -1;
	}
	free(s);
	return i < 0 ? NULL : &a->hosts[i];
}

int
alloc_host_slots(const struct alloc *a, const char *name)
{
	const struct alloc_host	*h;

	if ((h = alloc_find(a, name)) == NULL)
		return -1;
	return h->slots < 0 ? ALLOC_SLOTS_UNKNOWN : h->slots;
}
