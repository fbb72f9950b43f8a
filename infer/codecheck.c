/* codecheck.c -- a script's processes held to their code (codecheck.h):
 * sources found, behaviours inferred and read into the script, each
 * process's instance compared with its declared one (incl.c). */
#include "config.h"

#include <sys/stat.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codecheck.h"
#include "parse.h"
#include "xmalloc.h"

/* The endings a component's source may have, in the order looked for. */
static const char *const endings[] = { ".c", ".cpp", ".cc", ".cxx", ".C",
    ".py", ".f90", ".F90", ".f", NULL };

static int
readable(const char *p)
{
	return access(p, R_OK) == 0;
}

/* dir/base with each ending, the first that exists (a new string). */
static char *
look(const char *dir, const char *base)
{
	char	*p;
	int	 i;

	for (i = 0; endings[i] != NULL; i++) {
		if (dir != NULL)
			xasprintf(&p, "%s/%s%s", dir, base, endings[i]);
		else
			xasprintf(&p, "%s%s", base, endings[i]);
		if (readable(p))
			return p;
		free(p);
	}
	return NULL;
}

/* A base name with a source's ending already (relay.py): itself. */
static char *
look_self(const char *dir, const char *base)
{
	const char	*dot = strrchr(base, '.');
	char		*p;
	int		 i;

	if (dot == NULL)
		return NULL;
	for (i = 0; endings[i] != NULL; i++)
		if (strcmp(dot, endings[i]) == 0)
			break;
	if (endings[i] == NULL)
		return NULL;
	if (dir != NULL)
		xasprintf(&p, "%s/%s", dir, base);
	else
		p = xstrdup(base);
	if (readable(p))
		return p;
	free(p);
	return NULL;
}

/* Whether dir is this directory. */
static int
is_here(const char *dir)
{
	struct stat	a, b;

	return dir != NULL && dir[0] == '/' && stat(dir, &a) == 0 &&
	    stat(".", &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* A path as messages name it (and it is opened by): relative to here
 * when below it, as the shell names here ($PWD) or as the system does,
 * without "./" (a new string; symbolic links are kept as they are, but
 * where a ".." asks to follow them). */
static char *
tidy(char *path)
{
	char		 cwd[PATH_MAX], *r, *q;
	const char	*here[2], *p = path;
	size_t		 n;
	int		 i;

	/* "dir/.." is its parent only once its links are followed */
	if ((strstr(path, "/../") != NULL || strncmp(path, "../", 3) == 0) &&
	    (r = realpath(path, NULL)) != NULL) {
		free(path);
		path = r;
		p = path;
	}
	here[0] = getenv("PWD");
	here[1] = getcwd(cwd, sizeof(cwd));
	for (i = 0; i < 2 && path[0] == '/'; i++)
		if ((i == 1 || is_here(here[i])) && here[i] != NULL &&
		    (n = strlen(here[i])) > 1 && strncmp(path, here[i], n) == 0 &&
		    path[n] == '/') {
			p = path + n + 1;
			break;
		}
	while (p[0] == '.' && p[1] == '/')
		for (p += 2; *p == '/'; p++)
			;
	r = xstrdup(p);
	while ((q = strstr(r, "/./")) != NULL)
		memmove(q, q + 2, strlen(q + 2) + 1);
	free(path);
	return r;
}

static char *
dir_of(const char *path)
{
	const char	*s = strrchr(path, '/');

	return s == NULL ? xstrdup(".") : xstrndup(path, (size_t)(s - path));
}

/* The source of the program base by the compile database of dir (its
 * other files and flags into *w), a new string; NULL if none. */
static char *
look_db(const char *dir, const char *base, struct infer_words *w)
{
	char	*found;
	int	 i;

	if (dir == NULL || infer_compdb(dir, base, &found, w) != 0)
		return NULL;
	for (i = 0; i < w->n; i++)
		if (w->v[i][0] != '-')
			w->v[i] = tidy(w->v[i]);
	return tidy(found);
}

/* A source of the program base in dir: its compile database's, else a
 * file of its name (a new string); NULL if none. */
static char *
look_dir(const char *dir, const char *base, struct infer_words *w)
{
	char	*found;

	if ((found = look_db(dir, base, w)) == NULL &&
	    (found = look_self(dir, base)) == NULL)
		found = look(dir, base);
	return found;
}

/* The source of process proc, and its other files and flags (*w): the
 * --source given for its component, its 'source' annotation, then, beside
 * the script line that names the executable and in each of the places
 * given, the program of the executable's name in a compile database or a
 * file of that name with a source's ending, then the same beside the
 * executable found (the compile database also two directories up).
 * NULL (*why) if none. */
static char *
find_source(struct pcg *g, int proc, const struct cc_opts *o,
    struct infer_words *w, const char **why)
{
	const struct pcg_proc	*p = &g->procs[proc];
	const char		*comp = g->comps[p->comp].name, *exec, *base;
	const struct pcg_strs	*s;
	const struct loc	*where;
	char			*path = NULL, *found = NULL, *d;
	size_t			 n = strlen(comp);
	int			 i;

	memset(w, 0, sizeof(*w));
	*why = NULL;
	/* --source COMP=FILE, each more of one component another file */
	for (i = 0; i < o->nsources; i++)
		if (strncmp(o->sources[i], comp, n) == 0 && o->sources[i][n] == '=') {
			if (path == NULL)
				path = xstrdup(o->sources[i] + n + 1);
			else
				infer_words_add(w, tidy(xstrdup(o->sources[i] + n + 1)));
		}
	if (path != NULL)
		return path;
	/* source "FILE" "FILE2" "-FLAG": more files beside the first */
	if ((s = pcg_annot(g, p, ANN_SOURCE)) != NULL) {
		for (i = 1; i < s->n; i++) {
			struct pcg_strs	one = *s;

			if (s->v[i][0] == '-') {
				infer_words_add(w, xstrdup(s->v[i]));
				continue;
			}
			one.v = (char **)&s->v[i];
			infer_words_add(w, tidy(pcg_source_path(&one)));
		}
		return pcg_source_path(s);
	}
	s = pcg_annot(g, p, ANN_EXEC);
	exec = pcg_proc_exec(g, proc, &where);
	base = strrchr(exec, '/') != NULL ? strrchr(exec, '/') + 1 : exec;
	/* beside the line that names the executable */
	if (s != NULL && s->loc.src != NULL && s->loc.src->dir != NULL) {
		d = exec[0] == '/' ? dir_of(exec) : strchr(exec, '/') != NULL ?
		    NULL : xstrdup(s->loc.src->dir);
		if (d == NULL) {
			char	*rel;

			xasprintf(&rel, "%s/%s", s->loc.src->dir, exec);
			d = dir_of(rel);
			free(rel);
		}
		found = look_dir(d, base, w);
		free(d);
		if (found != NULL)
			return found;
	}
	for (i = 0; i < o->ndirs; i++)
		if ((found = look_dir(o->dirs[i], base, w)) != NULL)
			return found;
	/* beside the executable: a file of its name, or the compile
	 * database of its directory or of one of the two above */
	if ((path = pcg_find_exec(g, o->po, exec, where->src)) != NULL) {
		if ((found = look_self(NULL, path)) == NULL)
			found = look(NULL, path);
		for (i = 0, d = dir_of(path); found == NULL && i < 3; i++) {
			char	*up;

			if ((found = look_db(d, base, w)) != NULL)
				break;
			xasprintf(&up, "%s/..", d);
			free(d);
			d = up;
		}
		free(d);
		free(path);
		if (found != NULL)
			return found;
	}
	*why = "no source found";
	return NULL;
}

/* ---- reading the inferred text into the script ---- */

/* Where the text's lines came from in the code: each statement of the
 * parsed behaviour, and what it holds, moved there. */
struct remap {
	struct diag		*d;
	const struct cloc	*lines;
	int			 nlines;
	struct source		*src[8];	/* the code, for its carets */
	const char		*file[8];	/* (its files, as named) */
	int			 nsrc;
};

/* The source of a file of the code, loaded once (NULL: unreadable). */
static struct source *
src_for(struct remap *m, const char *file)
{
	char	*cause;
	int	 i;

	for (i = 0; i < m->nsrc; i++)
		if (strcmp(m->file[i], file) == 0)
			return m->src[i];
	if (m->nsrc == 8)
		return NULL;
	m->file[m->nsrc] = file;
	if ((m->src[m->nsrc] = diag_load(m->d, file, &cause)) == NULL)
		free(cause);
	return m->src[m->nsrc++];
}

static void
remap_loc(struct remap *m, struct loc *l, const struct loc *to)
{
	(void)m;
	*l = *to;
}

static void
remap_expr(struct remap *m, struct expr *e, const struct loc *to)
{
	for (; e != NULL; e = e->next) {
		remap_loc(m, &e->loc, to);
		remap_expr(m, e->a, to);
		remap_expr(m, e->b, to);
		remap_expr(m, e->c, to);
		if (e->kind == E_MIN || e->kind == E_MAX)
			break;	/* (their arguments are a's list) */
	}
}

static void
remap_ref(struct remap *m, struct instref *r, const struct loc *to)
{
	struct idx	*x;

	if (r == NULL)
		return;
	remap_loc(m, &r->loc, to);
	remap_loc(m, &r->nameloc, to);
	for (x = r->idx; x != NULL; x = x->next) {
		remap_loc(m, &x->loc, to);
		remap_expr(m, x->lo, to);
		remap_expr(m, x->hi, to);
	}
}

static void
remap_stmts(struct remap *m, struct stmt *s)
{
	struct branch	*b;
	struct loc	 to;
	int		 line;

	for (; s != NULL; s = s->next) {
		line = s->loc.first_line;
		memset(&to, 0, sizeof(to));
		if (line >= 1 && line <= m->nlines && m->lines[line - 1].file != NULL &&
		    (to.src = src_for(m, m->lines[line - 1].file)) != NULL) {
			to.first_line = to.last_line = m->lines[line - 1].line;
			to.first_column = to.last_column = diag_column(
			    (struct source *)to.src, to.first_line,
			    m->lines[line - 1].col);
		}
		if (to.src != NULL) {
			remap_loc(m, &s->loc, &to);
			remap_loc(m, &s->typeloc, &to);
			remap_loc(m, &s->rtypeloc, &to);
			remap_loc(m, &s->reqloc, &to);
			remap_expr(m, s->port, &to);
			remap_expr(m, s->rport, &to);
			remap_expr(m, s->expr, &to);
			remap_ref(m, &s->root, &to);
			remap_ref(m, s->over, &to);
			if (s->var != NULL) {
				remap_loc(m, &s->var->loc, &to);
				remap_expr(m, s->var->lo, &to);
				remap_expr(m, s->var->hi, &to);
			}
		}
		remap_stmts(m, s->body);
		remap_stmts(m, s->orelse);
		for (b = s->branches; b != NULL; b = b->next) {
			if (to.src != NULL) {
				remap_loc(m, &b->loc, &to);
				remap_loc(m, &b->reqloc, &to);
			}
			remap_stmts(m, b->body);
		}
	}
}

void
codecheck_say(struct diag *d, const struct infer *r, int soft)
{
	struct source	*src = NULL;
	struct loc	 l;
	char		*cause;

	if (r->errloc.file != NULL &&
	    (src = diag_load(d, r->errloc.file, &cause)) == NULL)
		free(cause);
	memset(&l, 0, sizeof(l));
	l.first_line = l.last_line = r->errloc.line;
	l.first_column = l.last_column = src != NULL ? diag_column(src,
	    r->errloc.line, r->errloc.col) : r->errloc.col;
	l.src = src;
	if (src == NULL && r->errloc.file != NULL) {
		fprintf(d->out, "%s:%d:%d: %s: %s\n", r->errloc.file,
		    r->errloc.line, r->errloc.col, soft ? "warning" : "error",
		    r->error);
		if (soft)
			d->warnings++;
		else
			d->errors++;
		return;
	}
	diag_at(d, soft ? DIAG_WARNING : DIAG_ERROR, src != NULL ? &l : NULL, "%s",
	    r->error);
}

/* Infer source k and read its text into the script as a behaviour of its
 * component: 0; -1 when its code cannot be followed, -2 when what it
 * does cannot be in the script (a port type it has not); said. */
static int
read_source(struct codecheck *cc, struct cc_src *cs, const struct cc_opts *o)
{
	struct infer_opts	 io = o->io;
	struct buf		 b;
	struct cloc		*lines;
	struct remap		 m;
	struct item		*it;
	const char		**flags, **files;
	const struct infer_note	*en;
	char			*cause, *name;
	int			 nlines, i, nf = 0, nfiles = 0,
				 errors = cc->d->errors;

	/* its files, then the command's flags and its own */
	files = xcalloc((size_t)cs->w.n + 1, sizeof(*files));
	files[nfiles++] = cs->path;
	flags = xcalloc((size_t)o->io.nflags + (size_t)cs->w.n + 1,
	    sizeof(*flags));
	for (i = 0; i < o->io.nflags; i++)
		flags[nf++] = o->io.flags[i];
	for (i = 0; i < cs->w.n; i++)
		if (cs->w.v[i][0] == '-')
			flags[nf++] = cs->w.v[i];
		else
			files[nfiles++] = cs->w.v[i];
	io.files = files;
	io.nfiles = nfiles;
	io.flags = flags;
	io.nflags = nf;
	io.component = cc->g->comps[cs->comp].name;
	cs->inf = infer_run(&io, &cause);
	free(flags);
	free(files);
	if (cs->inf == NULL) {
		diag_at(cc->d, o->soft ? DIAG_WARNING : DIAG_ERROR, NULL, "%s", cause);
		free(cause);
		return -1;
	}
	if (cs->inf->error != NULL) {
		codecheck_say(cc->d, cs->inf, o->soft);
		return -1;
	}
	/* What it took to make no port calls, said where it is called. */
	memset(&m, 0, sizeof(m));
	m.d = cc->d;
	for (en = cs->inf->elsewhere; en != NULL; en = en->next) {
		struct loc	l;

		memset(&l, 0, sizeof(l));
		l.first_line = l.last_line = en->loc.line;
		if ((l.src = src_for(&m, en->loc.file)) != NULL)
			l.first_column = l.last_column = diag_column((struct source *)
			    l.src, en->loc.line, en->loc.col);
		diag_warning(cc->d, l.src != NULL ? &l : NULL, "'%s' is the "
		    "program's own, in a file not given: not followed, taken to "
		    "make no port calls", en->text);
	}
	buf_init(&b);
	infer_text(cs->inf, &b, &lines, &nlines);
	cs->text = xstrdup(b.s);
	xasprintf(&name, "%s (its behaviour inferred)", cs->path);
	it = parse_more(cc->g->ast, name, b.s, b.len, cc->d);
	free(name);
	buf_free(&b);
	for (; it != NULL && it->kind != I_BEHAVIOUR; it = it->next)
		;
	if (it == NULL || cc->d->errors != errors) {
		if (cc->d->errors == errors)
			diag_error(cc->d, NULL, "the behaviour inferred from '%s' does "
			    "not read back (a bug of ensemble)", cs->path);
		free(lines);
		return -1;
	}
	memset(&m, 0, sizeof(m));
	m.d = cc->d;
	m.lines = lines;
	m.nlines = nlines;
	remap_stmts(&m, it->body);
	free(lines);
	/* Checked as the script's are: names, port types, roots, groups. */
	if (pcg_check_behaviour(cc->g, cs->comp, it) != 0)
		return -2;
	cs->item = it;
	return 0;
}

struct codecheck *
codecheck_infer(struct pcg *g, const struct cc_opts *o, struct diag *d)
{
	struct codecheck	*cc = xcalloc(1, sizeof(*cc));
	struct infer_words		 w;
	const char		*why, *lwhy;
	char			*path;
	int			 i, k, j;

	cc->g = g;
	cc->d = d;
	cc->procs = xcalloc((size_t)(g->nprocs ? g->nprocs : 1), sizeof(*cc->procs));
	for (i = 0; i < g->nprocs; i++) {
		struct cc_proc	*cp = &cc->procs[i];

		cp->src = -1;
		if ((path = find_source(g, i, o, &w, &why)) == NULL) {
			cp->why = why;
			continue;
		}
		path = tidy(path);
		if (infer_lang(path, &lwhy) < 0) {
			cp->why = lwhy != NULL ? "its source is Fortran, which ensemble "
			    "infer does not read" : "its source is in a language "
			    "ensemble infer does not read";
			free(path);
			infer_words_free(&w);
			continue;
		}
		/* One reading per source, files, flags and component. */
		for (k = 0; k < cc->nsrcs; k++) {
			struct cc_src	*s = &cc->srcs[k];

			if (strcmp(s->path, path) != 0 || s->comp != g->procs[i].comp ||
			    s->w.n != w.n)
				continue;
			for (j = 0; j < w.n; j++)
				if (strcmp(s->w.v[j], w.v[j]) != 0)
					break;
			if (j == w.n)
				break;
		}
		if (k == cc->nsrcs) {
			struct cc_src	*s;

			cc->srcs = xreallocarray(cc->srcs, (size_t)cc->nsrcs + 1,
			    sizeof(*cc->srcs));
			s = &cc->srcs[cc->nsrcs++];
			memset(s, 0, sizeof(*s));
			s->path = path;
			s->comp = g->procs[i].comp;
			s->w = w;
			if ((j = read_source(cc, s, o)) != 0) {
				s->failed = -j;
				if (j == -2)
					cc->differ++;
				else if (!o->soft)
					cc->errors++;
			}
		} else {
			free(path);
			infer_words_free(&w);
		}
		cp->src = k;
	}
	return cc;
}

void
codecheck_compare(struct codecheck *cc, const struct cc_opts *o)
{
	struct pcg		*g = cc->g;
	struct pcg_behave	*pb = pcg_behave_new(g);
	int			 i, errors;

	for (i = 0; i < g->nprocs; i++) {
		struct cc_proc	*cp = &cc->procs[i];
		struct cc_src	*s;

		if (cp->src < 0) {
			cp->verdict = CC_UNCHECKED;
			continue;
		}
		s = &cc->srcs[cp->src];
		if (s->failed || s->item == NULL) {
			cp->verdict = CC_FAILED;
			continue;
		}
		if (o->no_compare) {
			(void)pcg_behave_proc(pb, i, s->item->body, &cp->prog,
			    &cp->text);
			continue;
		}
		errors = cc->d->errors;
		if (pcg_behave_proc(pb, i, s->item->body, &cp->prog, &cp->text) != 0 ||
		    cc->d->errors != errors) {
			/* (a port or argument the process has not: said) */
			cp->verdict = CC_FAILED;
			cc->differ++;
			continue;
		}
		if (!g->procs[i].has_behaviour) {
			cp->verdict = CC_UNCHECKED;
			cp->why = "its component declares no behaviour";
			continue;
		}
		if (strcmp(cp->text, g->procs[i].behaviour) == 0) {
			cp->verdict = CC_EQUAL;
			continue;
		}
		cp->verdict = incl_compare(g, i, cp->prog, g->procs[i].prog,
		    o->max_states, &cp->diff, &cp->codeloc, &cp->declloc,
		    &cp->states);
		if (cp->verdict == CC_DIFFERS)
			cc->differ++;
		else if (cp->verdict == CC_UNDECIDED)
			cc->undecided++;
	}
	pcg_behave_free(pb);
}

void
codecheck_use(struct codecheck *cc)
{
	struct pcg	*g = cc->g;
	int		 i;

	for (i = 0; i < g->nprocs; i++) {
		struct cc_proc	*cp = &cc->procs[i];

		if (cp->prog == NULL && (cp->src < 0 || cc->srcs[cp->src].item == NULL))
			continue;
		g->procs[i].prog = cp->prog;
		g->procs[i].behaviour = cp->text != NULL ? cp->text : "";
		g->procs[i].has_behaviour = 1;
	}
}

void
codecheck_free(struct codecheck *cc)
{
	int	i;

	if (cc == NULL)
		return;
	for (i = 0; i < cc->nsrcs; i++) {
		free(cc->srcs[i].path);
		infer_words_free(&cc->srcs[i].w);
		infer_free(cc->srcs[i].inf);
		free(cc->srcs[i].why);
		free(cc->srcs[i].text);
	}
	free(cc->srcs);
	for (i = 0; cc->procs != NULL && i < cc->g->nprocs; i++)
		free(cc->procs[i].diff);
	free(cc->procs);
	free(cc);
}
