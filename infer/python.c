/* python.c -- the Python front end of the inference (infer.h): runs
 * infer.py under python3, which reads the source with Python's own
 * 'ast', and reads what it writes (its format: infer.py) into the
 * program of code.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "infer.h"
#include "xmalloc.h"

#ifndef PKGDATADIR
#define PKGDATADIR	"/usr/local/share/ensemble"
#endif

/* What is read: the text, where the reading is. */
struct rd {
	const char	*s;
	size_t		 len, at;
	struct cprog	*p;
	const char	*file;
	int		 bad;
};

/* The next token (up to a space or newline). */
static int
tok(struct rd *r, const char **t, size_t *n)
{
	while (r->at < r->len && (r->s[r->at] == ' ' || r->s[r->at] == '\n'))
		r->at++;
	if (r->at >= r->len) {
		r->bad = 1;
		return -1;
	}
	*t = r->s + r->at;
	while (r->at < r->len && r->s[r->at] != ' ' && r->s[r->at] != '\n')
		r->at++;
	*n = (size_t)(r->s + r->at - *t);
	return 0;
}

static long long
num(struct rd *r)
{
	const char	*t;
	size_t		 n;
	char		 b[32];

	if (tok(r, &t, &n) != 0 || n == 0 || n >= sizeof(b)) {
		r->bad = 1;
		return 0;
	}
	memcpy(b, t, n);
	b[n] = '\0';
	return strtoll(b, NULL, 10);
}

/* A text: 'LENGTH:BYTES' or '-' (NULL). */
static const char *
str(struct rd *r)
{
	const char	*t;
	size_t		 n, len;
	char		*end;

	while (r->at < r->len && (r->s[r->at] == ' ' || r->s[r->at] == '\n'))
		r->at++;
	if (r->at < r->len && r->s[r->at] == '-') {
		r->at++;
		return NULL;
	}
	t = r->s + r->at;
	len = strtoul(t, &end, 10);
	if (end == t || *end != ':' || (size_t)(end + 1 - r->s) + len > r->len) {
		r->bad = 1;
		return NULL;
	}
	r->at = (size_t)(end + 1 - r->s) + len;
	n = len;
	return code_str(r->p, end + 1, n);
}

static const struct {
	const char	*name;
	enum cnode_kind	 k;
} kinds[] = {
	{ "BLOCK", K_BLOCK }, { "EXPR", K_EXPR }, { "IF", K_IF },
	{ "WHILE", K_WHILE }, { "FOREACH", K_FOREACH }, { "RETURN", K_RETURN },
	{ "BREAK", K_BREAK }, { "CONTINUE", K_CONTINUE }, { "TRY", K_TRY },
	{ "UNSUPP", K_UNSUPP }, { "INT", X_INT }, { "FLOAT", X_FLOAT },
	{ "STR", X_STR }, { "NULL", X_NULL }, { "VAR", X_VAR },
	{ "FUNC", X_FUNC }, { "MEMBER", X_MEMBER }, { "INDEX", X_INDEX },
	{ "CALL", X_CALL }, { "UNARY", X_UNARY }, { "BINARY", X_BINARY },
	{ "ASSIGN", X_ASSIGN }, { "COND", X_COND }, { "LIST", X_LIST },
	{ "FSTR", X_FSTR }, { "UNKNOWN", X_UNKNOWN },
};

/* An operator's text as the interpreter's value. */
static int
op_of(const char *t, size_t n)
{
	static const struct {
		const char	*s;
		int		 op;
	} ops[] = {
		{ "==", CN_EQ }, { "!=", CN_NE }, { "<=", CN_LE }, { ">=", CN_GE },
		{ "&&", CN_AND }, { "||", CN_OR }, { "<<", CN_SHL }, { ">>", CN_SHR },
		{ "//", CN_FLOORDIV }, { "**", CN_POW }, { "%f", CN_FLOORMOD },
	};
	size_t	i;

	if (n == 1)
		return t[0] == '0' ? 0 : t[0];
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strlen(ops[i].s) == n && memcmp(ops[i].s, t, n) == 0)
			return ops[i].op;
	return -1;
}

static struct cnode *node(struct rd *);

/* A part: a node, or '-'. */
static struct cnode *
part(struct rd *r)
{
	while (r->at < r->len && (r->s[r->at] == ' ' || r->s[r->at] == '\n'))
		r->at++;
	if (r->at < r->len && r->s[r->at] == '-' && (r->at + 1 == r->len ||
	    r->s[r->at + 1] == '\n' || r->s[r->at + 1] == ' ')) {
		r->at++;
		return NULL;
	}
	return node(r);
}

static struct cnode *
node(struct rd *r)
{
	struct cnode	*n, **t;
	struct cloc	 l;
	const char	*k;
	size_t		 kn, i;
	long long	 count;

	if (r->bad || tok(r, &k, &kn) != 0)
		return NULL;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strlen(kinds[i].name) == kn && memcmp(kinds[i].name, k, kn) == 0)
			break;
	if (i == sizeof(kinds) / sizeof(kinds[0])) {
		r->bad = 1;
		return NULL;
	}
	l.file = r->file;
	l.line = (int)num(r);
	l.col = (int)num(r);
	n = code_node(r->p, kinds[i].k, &l);
	{
		const char	*t2;
		size_t		 n2;
		char		 b[16];

		if (tok(r, &t2, &n2) != 0 || n2 >= sizeof(b))
			return NULL;
		memcpy(b, t2, n2);
		b[n2] = '\0';
		if (n->k == K_TRY)
			n->op = atoi(b);
		else if (n->k == X_VAR)
			n->op = strcmp(b, "1") == 0 ? VAR_GLOBAL : 0;
		else if (n->k == X_FUNC)
			n->op = strcmp(b, "1") == 0 ? FUNC_ELSEWHERE : 0;
		else if ((n->op = op_of(t2, n2)) < 0) {
			r->bad = 1;
			return NULL;
		}
	}
	n->i = num(r);
	n->s = str(r);
	n->key = str(r);
	n->a = part(r);
	n->b = part(r);
	n->c = part(r);
	n->d = part(r);
	count = num(r);
	for (t = &n->list; count-- > 0 && !r->bad; t = &(*t)->next)
		*t = node(r);
	return r->bad ? NULL : n;
}

/* Run python3 infer.py FILE; its standard output into *out (caller
 * frees), NULL and *cause when it cannot be run. */
static char *
run_helper(const struct infer_opts *o, const char *file, size_t *len,
    char **cause)
{
	const char	*py = o->python != NULL ? o->python : "python3";
	const char	*helper = o->helper != NULL ? o->helper :
			    PKGDATADIR "/infer.py";
	struct buf	 b;
	char		 chunk[65536];
	ssize_t		 n;
	pid_t		 pid;
	int		 fd[2], st;

	if (access(helper, R_OK) != 0) {
		xasprintf(cause, "cannot read the Python front end '%s': %s",
		    helper, strerror(errno));
		return NULL;
	}
	if (pipe(fd) != 0) {
		xasprintf(cause, "pipe: %s", strerror(errno));
		return NULL;
	}
	if ((pid = fork()) < 0) {
		xasprintf(cause, "fork: %s", strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return NULL;
	}
	if (pid == 0) {
		close(fd[0]);
		if (dup2(fd[1], 1) < 0)
			_exit(127);
		close(fd[1]);
		execlp(py, py, "-I", helper, file, (char *)NULL);
		fprintf(stderr, "ensemble: cannot run '%s': %s\n", py,
		    strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	buf_init(&b);
	for (;;) {
		n = read(fd[0], chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		buf_add(&b, chunk, (size_t)n);
	}
	close(fd[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		xasprintf(cause, "the Python front end (%s %s) failed%s", py, helper,
		    WIFEXITED(st) && WEXITSTATUS(st) == 127 ? ": python3 not found" :
		    "");
		buf_free(&b);
		return NULL;
	}
	buf_adds(&b, "");
	*len = b.len;
	return buf_steal(&b);
}

struct cprog *
python_read(const struct infer_opts *o, struct infer *res, char **cause)
{
	struct cprog	*p;
	struct cfunc	**ft;
	struct rd	 r;
	const char	*t;
	size_t		 len, n;
	char		*text;
	int		 i;

	if (o->nfiles != 1) {
		*cause = xstrdup("a Python component is one file");
		return NULL;
	}
	if (access(o->files[0], R_OK) != 0) {
		xasprintf(cause, "cannot open '%s': %s", o->files[0], strerror(errno));
		return NULL;
	}
	if ((text = run_helper(o, o->files[0], &len, cause)) == NULL)
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->arena = arena_new();
	p->lang = LANG_PYTHON;
	memset(&r, 0, sizeof(r));
	r.s = text;
	r.len = len;
	r.p = p;
	r.file = code_str(p, o->files[0], strlen(o->files[0]));
	if (len >= 2 && text[0] == 'E' && text[1] == ' ') {
		struct cloc	l;

		r.at = 2;
		l.file = r.file;
		l.line = (int)num(&r);
		l.col = (int)num(&r);
		t = str(&r);
		infer_error(res, &l, "Python cannot parse it: %s", t != NULL ? t :
		    "?");
		free(text);
		return p;
	}
	if (tok(&r, &t, &n) != 0 || n != 2 || memcmp(t, "PY", 2) != 0 ||
	    num(&r) != 1) {
		xasprintf(cause, "the Python front end wrote what this ensemble "
		    "does not read (another version?)");
		goto bad;
	}
	ft = &p->funcs;
	while (!r.bad && tok(&r, &t, &n) == 0) {
		if (n == 1 && t[0] == 'F') {
			struct cfunc	*f = arena_alloc(p->arena, sizeof(*f));

			f->key = f->name = str(&r);
			f->nparams = (int)num(&r);
			if (f->nparams < 0 || f->nparams > 1000) {
				r.bad = 1;
				break;
			}
			f->params = arena_alloc(p->arena, sizeof(char *) *
			    (size_t)(f->nparams + 1));
			f->pnames = f->params;
			for (i = 0; i < f->nparams; i++)
				f->params[i] = str(&r);
			f->body = node(&r);
			f->loc = f->body != NULL ? f->body->loc : f->loc;
			*ft = f;
			ft = &f->next;
		} else if (n == 1 && t[0] == 'M') {
			struct cfunc	*f = arena_alloc(p->arena, sizeof(*f));

			f->key = f->name = "(module)";
			f->body = node(&r);
			if (f->body != NULL)
				f->loc = f->body->loc;
			p->entry = f;
			break;
		} else
			r.bad = 1;
	}
	if (r.bad || p->entry == NULL || p->entry->body == NULL) {
		xasprintf(cause, "the Python front end wrote what this ensemble "
		    "cannot read");
		goto bad;
	}
	free(text);
	return p;
bad:
	free(text);
	arena_free(p->arena);
	free(p);
	return NULL;
}
