/* infer.c -- a component's behaviour read from its code (infer.h): the
 * front end its language takes, then the interpreter. */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "infer.h"
#include "xmalloc.h"

void
infer_words_add(struct infer_words *w, char *word)
{
	w->v = xreallocarray(w->v, (size_t)w->n + 1, sizeof(*w->v));
	w->v[w->n++] = word;
}

void
infer_words_free(struct infer_words *w)
{
	int	i;

	for (i = 0; i < w->n; i++)
		free(w->v[i]);
	free(w->v);
	w->v = NULL;
	w->n = 0;
}

/* The ending of p, lowercase is not folded: C is .c, C++ .cc .cpp .cxx
 * .C .c++, Python .py. */
int
infer_lang(const char *path, const char **why)
{
	static const char *const cxx[] = { ".cc", ".cpp", ".cxx", ".C", ".c++",
	    ".CPP", ".hpp", ".hh", ".hxx", NULL };
	static const char *const fortran[] = { ".f", ".for", ".f90", ".f95",
	    ".f03", ".f08", ".F", ".F90", ".F95", ".F03", ".F08", NULL };
	const char	*dot = strrchr(path, '.'), *slash = strrchr(path, '/');
	int		 i;

	*why = NULL;
	if (dot == NULL || (slash != NULL && dot < slash))
		return -1;
	if (strcmp(dot, ".c") == 0 || strcmp(dot, ".h") == 0)
		return LANG_C;
	if (strcmp(dot, ".py") == 0)
		return LANG_PYTHON;
	for (i = 0; cxx[i] != NULL; i++)
		if (strcmp(dot, cxx[i]) == 0)
			return LANG_CXX;
	for (i = 0; fortran[i] != NULL; i++)
		if (strcmp(dot, fortran[i]) == 0) {
			*why = "Fortran is not read: no parser of it is at hand as "
			    "libclang is for C and C++ and 'ast' for Python (write "
			    "the component's BEHAVIOUR by hand; --check-protocol "
			    "holds the run to it)";
			return -2;
		}
	return -1;
}

void
infer_error(struct infer *r, const struct cloc *l, const char *fmt, ...)
{
	va_list	ap;

	if (r->error != NULL)
		return;
	if (l != NULL)
		r->errloc = *l;
	va_start(ap, fmt);
	xvasprintf(&r->error, fmt, ap);
	va_end(ap);
}

/* The component's name a file gives: its base name up to its ending,
 * made a name of the language. */
static const char *
default_name(struct cprog *p, const char *path)
{
	const char	*b = strrchr(path, '/'), *dot;
	char		*n, *q;

	b = b != NULL ? b + 1 : path;
	dot = strrchr(b, '.');
	n = xstrndup(b, dot != NULL && dot != b ? (size_t)(dot - b) : strlen(b));
	for (q = n; *q != '\0'; q++)
		if (!(*q >= 'a' && *q <= 'z') && !(*q >= 'A' && *q <= 'Z') &&
		    !(*q >= '0' && *q <= '9') && *q != '_')
			*q = '_';
	if (n[0] >= '0' && n[0] <= '9') {
		q = NULL;
		xasprintf(&q, "_%s", n);
		free(n);
		n = q;
	}
	b = code_str(p, n, strlen(n));
	free(n);
	return b;
}

struct infer *
infer_run(const struct infer_opts *o, char **cause)
{
	struct infer	*r;
	const char	*why;
	int		 lang = -1, i, l;

	*cause = NULL;
	if (o->nfiles < 1) {
		*cause = xstrdup("no source given");
		return NULL;
	}
	for (i = 0; i < o->nfiles; i++) {
		l = infer_lang(o->files[i], &why);
		if (l == -2) {
			xasprintf(cause, "'%s': %s", o->files[i], why);
			return NULL;
		}
		if (l < 0) {
			xasprintf(cause, "'%s': not a source the inference reads (C "
			    ".c, C++ .cc .cpp .cxx, Python .py)", o->files[i]);
			return NULL;
		}
		if (i > 0 && (l == LANG_PYTHON) != (lang == LANG_PYTHON)) {
			xasprintf(cause, "'%s' and '%s': one program is in one "
			    "language", o->files[0], o->files[i]);
			return NULL;
		}
		if (lang != LANG_CXX)
			lang = l;
	}
	r = xcalloc(1, sizeof(*r));
	if (lang == LANG_PYTHON)
		r->prog = python_read(o, r, cause);
	else
		r->prog = clang_read(o, lang, r, cause);
	if (r->prog == NULL) {
		infer_free(r);
		return NULL;
	}
	r->component = o->component != NULL ? code_str(r->prog, o->component,
	    strlen(o->component)) : default_name(r->prog, o->files[0]);
	if (r->error == NULL && r->prog->entry == NULL)
		infer_error(r, NULL, lang == LANG_PYTHON ? "no code to run" :
		    "no 'main' in %s", o->files[0]);
	if (r->error == NULL)
		interp_run(r);
	return r;
}

void
infer_free(struct infer *r)
{
	if (r == NULL)
		return;
	if (r->prog != NULL)
		arena_free(r->prog->arena);
	free(r->prog);
	free(r->error);
	free(r);
}

int
infer_is_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	for (s++; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}
