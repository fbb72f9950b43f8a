/* exec.c -- finding a component's executable the way 'ensemble run' will,
 * so 'check' can warn before anything is started. */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pcg.h"
#include "xmalloc.h"

static char *
try_path(const char *dir, const char *name)
{
	struct stat	 st;
	char		*path, real[PATH_MAX];

	if (dir != NULL)
		xasprintf(&path, "%s/%s", dir, name);
	else
		path = xstrdup(name);
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0) {
		if (realpath(path, real) != NULL) {
			free(path);
			return xstrdup(real);
		}
		return path;
	}
	free(path);
	return NULL;
}

static char *
try_list(const char *list, const char *name)
{
	char	*copy, *dir, *save = NULL, *found = NULL;

	if (list == NULL)
		return NULL;
	copy = xstrdup(list);
	for (dir = strtok_r(copy, ":", &save); dir != NULL && found == NULL;
	    dir = strtok_r(NULL, ":", &save))
		found = try_path(dir, name);
	free(copy);
	return found;
}

char *
pcg_find_exec(const struct pcg *g, const struct pcg_opts *o, const char *exec)
{
	char	*found;
	size_t	 i;

	if (exec[0] == '/')
		return try_path(NULL, exec);
	if (strchr(exec, '/') != NULL)
		return try_path(g->script_dir, exec);
	for (i = 0; o != NULL && i < o->ndirs; i++)
		if ((found = try_path(o->dirs[i], exec)) != NULL)
			return found;
	if ((found = try_list(getenv("ENSEMBLE_PATH"), exec)) != NULL)
		return found;
	if ((found = try_path(g->script_dir, exec)) != NULL)
		return found;
	if ((found = try_path(o != NULL && o->libexecdir != NULL ? o->libexecdir :
	    PKGLIBEXECDIR, exec)) != NULL)
		return found;
	return try_list(getenv("PATH"), exec);
}
