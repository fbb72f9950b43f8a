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

/* The directory of the fragment from, when it is not the script (whose
 * directory the search has anyway); else NULL. */
static const char *
fragment_dir(const struct pcg *g, const struct source *from)
{
	return from != NULL && from != g->ast->main &&
	    strcmp(from->dir, g->script_dir) != 0 ? from->dir : NULL;
}

/* The search of pcg_find_exec, for what want asks. */
static char *
search(const struct pcg *g, const struct pcg_opts *o, const char *exec,
    const struct source *from, enum want want)
{
	const char	*frag = fragment_dir(g, from);
	char		*found;
	size_t		 i;

	if (exec[0] == '/')
		return try_path(NULL, exec, want);
	if (strchr(exec, '/') != NULL) {
		if (frag != NULL && (found = try_path(frag, exec, want)) != NULL)
			return found;
		return try_path(g->script_dir, exec, want);
	}
	for (i = 0; o != NULL && i < o->ndirs; i++)
		if ((found = try_path(o->dirs[i], exec, want)) != NULL)
			return found;
	if ((found = try_list(getenv("ENSEMBLE_PATH"), exec, want)) != NULL)
		return found;
	if (frag != NULL && (found = try_path(frag, exec, want)) != NULL)
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
pcg_find_exec(const struct pcg *g, const struct pcg_opts *o, const char *exec,
    const struct source *from)
{
	return search(g, o, exec, from, WANT_EXEC);
}

/* Why pcg_find_exec found nothing: a file by that name it passed over. */
char *
pcg_find_nonexec(const struct pcg *g, const struct pcg_opts *o,
    const char *exec, const struct source *from)
{
	return search(g, o, exec, from, WANT_FILE);
}

/* An exec as a script without fragments must say it to name the same
 * file (pcg_emit: the expanded script): a relative path with a '/' that
 * a fragment in another directory names, and that is not the script
 * directory's alone, from that fragment's directory; NULL when it is
 * said as it is.  (A bare name is said as it is, so that -L and
 * ENSEMBLE_PATH still come first.) */
char *
pcg_exec_unfragmented(const struct pcg *g, const char *exec,
    const struct source *from)
{
	const char	*frag = fragment_dir(g, from), *rel = NULL;
	char		*found, *out, real[PATH_MAX];
	size_t		 n = strlen(g->script_dir);

	if (frag == NULL || exec[0] == '/' || strchr(exec, '/') == NULL)
		return NULL;
	if ((found = try_path(frag, exec, WANT_FILE)) != NULL)
		free(found);
	else if ((found = try_path(g->script_dir, exec, WANT_FILE)) != NULL) {
		free(found);
		return NULL;
	}
	while (exec[0] == '.' && exec[1] == '/')
		exec += 2;
	if (frag[0] != '/' && strcmp(g->script_dir, ".") == 0)
		rel = frag;
	else if (strncmp(frag, g->script_dir, n) == 0 && frag[n] == '/')
		rel = frag + n + 1;
	if (rel != NULL)
		xasprintf(&out, "%s/%s", rel, exec);
	else
		xasprintf(&out, "%s/%s", realpath(frag, real) != NULL ? real :
		    frag, exec);
	return out;
}

/* A process's exec: its annotation's first word, or its component's name,
 * and the file that says it. */
const char *
pcg_proc_exec(const struct pcg *g, int proc, const struct loc **where)
{
	const struct pcg_proc	*p = &g->procs[proc];
	const struct pcg_strs	*s = pcg_annot(g, p, ANN_EXEC);

	*where = s != NULL ? &s->loc : &g->comps[p->comp].loc;
	return s != NULL ? s->v[0] : g->comps[p->comp].name;
}

/* The note after an executable not found: where it was looked for. */
void
pcg_exec_searched(const struct pcg *g, const struct pcg_opts *o,
    const char *exec, const struct loc *l)
{
	const char	*frag = fragment_dir(g, l->src);

	if (strchr(exec, '/') == NULL)
		diag_note(g->diag, l, "searched -L directories, ENSEMBLE_PATH, "
		    "%s%s%s'%s', '%s' and PATH", frag != NULL ? "'" : "",
		    frag != NULL ? frag : "", frag != NULL ? "' (beside the "
		    "fragment), " : "", g->script_dir, o->libexecdir != NULL ?
		    o->libexecdir : PKGLIBEXECDIR);
	else if (exec[0] != '/' && frag != NULL)
		diag_note(g->diag, l, "a path with a '/' is taken from the "
		    "fragment's directory, '%s', then the script's, '%s'", frag,
		    g->script_dir);
	else if (exec[0] != '/')
		diag_note(g->diag, l, "a path with a '/' is taken from the "
		    "script's directory, '%s'", g->script_dir);
}
