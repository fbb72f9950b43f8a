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

/* What a search takes: an executable regular file ('run' starts it), or
 * any regular file (to say why no executable was found). */
enum want {
	WANT_EXEC,
	WANT_FILE
};

/* dir/name (name alone when dir is NULL), made absolute, if it is what
 * want asks for; else NULL. */
static char *
try_path(const char *dir, const char *name, enum want want)
{
	struct stat	 st;
	char		*path, real[PATH_MAX];

	if (dir != NULL)
		xasprintf(&path, "%s/%s", dir, name);
	else
		path = xstrdup(name);
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    (want == WANT_FILE || access(path, X_OK) == 0)) {
		if (realpath(path, real) != NULL) {
			free(path);
			return xstrdup(real);
		}
		return path;
	}
	free(path);
	return NULL;
}

/* The first of name in the directories of a ':'-separated list. */
static char *
try_list(const char *list, const char *name, enum want want)
{
	char	*copy, *dir, *save = NULL, *found = NULL;

	if (list == NULL)
		return NULL;
	copy = xstrdup(list);
	for (dir = strtok_r(copy, ":", &save); dir != NULL && found == NULL;
	    dir = strtok_r(NULL, ":", &save))
		found = try_path(dir, name, want);
	free(copy);
	return found;
}

/* The search of pcg_find_exec, for what want asks. */
static char *
search(const struct pcg *g, const struct pcg_opts *o, const char *exec,
    enum want want)
{
	char	*found;
	size_t	 i;

	if (exec[0] == '/')
		return try_path(NULL, exec, want);
	if (strchr(exec, '/') != NULL)
		return try_path(g->script_dir, exec, want);
	for (i = 0; o != NULL && i < o->ndirs; i++)
		if ((found = try_path(o->dirs[i], exec, want)) != NULL)
			return found;
	if ((found = try_list(getenv("ENSEMBLE_PATH"), exec, want)) != NULL)
		return found;
	if ((found = try_path(g->script_dir, exec, want)) != NULL)
		return found;
	if ((found = try_path(o != NULL && o->libexecdir != NULL ?
	    o->libexecdir : PKGLIBEXECDIR, exec, want)) != NULL)
		return found;
	return try_list(getenv("PATH"), exec, want);
}

/* The executable 'run' will start for exec. */
char *
pcg_find_exec(const struct pcg *g, const struct pcg_opts *o, const char *exec)
{
	return search(g, o, exec, WANT_EXEC);
}

/* Why pcg_find_exec found nothing: a file by that name it passed over. */
char *
pcg_find_nonexec(const struct pcg *g, const struct pcg_opts *o, const char *exec)
{
	return search(g, o, exec, WANT_FILE);
}
