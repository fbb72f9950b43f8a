/* memory.c -- how much memory this process may still take (memory.h):
 * the system's MemAvailable, lowered to what the control groups it is in
 * (v1 or v2) leave it, and the margin a search leaves free. */
#include "config.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory.h"

/* A number from the first line of dir/file ("max": none); -1 if none. */
static int
memory_read(const char *dir, const char *file, uint64_t *v)
{
	char	 path[PATH_MAX + 32];
	FILE	*f;
	int	 rc;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	rc = fscanf(f, "%" SCNu64, v) == 1 ? 0 : -1;
	fclose(f);
	return rc;
}

/* The page cache a control group may drop: its memory.stat's 'key'. */
static uint64_t
memory_inactive(const char *dir, const char *key)
{
	char		 path[PATH_MAX + 32], line[256];
	size_t		 n = strlen(key);
	uint64_t	 v = 0;
	FILE		*f;

	snprintf(path, sizeof(path), "%s/memory.stat", dir);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, key, n) == 0 && line[n] == ' ' &&
		    sscanf(line + n + 1, "%" SCNu64, &v) == 1)
			break;
	fclose(f);
	return v;
}

/* Lower *avail and *total to what the control groups the process is in
 * (v1 or v2, each and its ancestors) leave it: the limit less the memory
 * used, not counting page cache that can be dropped. */
static void
memory_cgroups(uint64_t *avail, uint64_t *total)
{
	char		 line[PATH_MAX + 64], dir[PATH_MAX], *ctl, *path, *p;
	const char	*base, *lim, *cur, *key;
	uint64_t	 l, u, drop, room;
	size_t		 blen;
	FILE		*f;

	if ((f = fopen("/proc/self/cgroup", "r")) == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if ((ctl = strchr(line, ':')) == NULL ||
		    (path = strchr(++ctl, ':')) == NULL)
			continue;
		*path++ = '\0';
		if (*ctl == '\0') {
			base = "/sys/fs/cgroup";
			lim = "memory.max";
			cur = "memory.current";
			key = "inactive_file";
		} else if (strcmp(ctl, "memory") == 0 || strncmp(ctl, "memory,", 7) == 0 ||
		    strstr(ctl, ",memory,") != NULL || ((p = strstr(ctl, ",memory")) != NULL &&
		    p[7] == '\0')) {
			base = "/sys/fs/cgroup/memory";
			lim = "memory.limit_in_bytes";
			cur = "memory.usage_in_bytes";
			key = "total_inactive_file";
		} else
			continue;
		blen = strlen(base);
		snprintf(dir, sizeof(dir), "%s%s", base, path);
		for (;;) {
			if (memory_read(dir, lim, &l) == 0 && l < *total &&
			    memory_read(dir, cur, &u) == 0) {
				if ((drop = memory_inactive(dir, key)) < u)
					u -= drop;
				room = l > u ? l - u : 0;
				if (room < *avail)
					*avail = room;
				*total = l;
			}
			if ((p = strrchr(dir, '/')) == NULL || (size_t)(p - dir) < blen)
				break;
			*p = '\0';
		}
	}
	fclose(f);
}

uint64_t
memory_room(uint64_t *total)
{
	const char	*fake = getenv("ENSEMBLE_MEMINFO");
	char		 line[256];
	uint64_t	 avail = 0, v;
	FILE		*f;

	*total = 0;
	if (fake != NULL && *fake == '\0')
		fake = NULL;
	if ((f = fopen(fake != NULL ? fake : "/proc/meminfo", "r")) != NULL) {
		while (fgets(line, sizeof(line), f) != NULL) {
			if (sscanf(line, "MemAvailable: %" SCNu64, &v) == 1)
				avail = v * 1024;
			else if (sscanf(line, "MemTotal: %" SCNu64, &v) == 1)
				*total = v * 1024;
		}
		fclose(f);
	}
	if (avail == 0)
		avail = 1ULL << 30;	/* unknown: a guess that harms no one */
	if (*total < avail)
		*total = avail;
	if (fake == NULL)
		memory_cgroups(&avail, total);
	return avail;
}

uint64_t
memory_margin(uint64_t total)
{
	uint64_t	m = total / 16;

	return m < (256ULL << 20) ? 256ULL << 20 : m > (2ULL << 30) ? 2ULL << 30 : m;
}
