/* common.c -- the option parsing and front end that every subcommand
 * shares: each command's options parsed, listed in its help and usage
 * from its declaration (struct cli_option), then the script parsed and
 * expanded. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "mpnet.h"
#include "parse.h"
#include "xmalloc.h"

/* The column a help line's text starts at; a longer label has its text
 * on the lines below. */
#define HELP_COL	18

/* An option as help and usage show it: "-np, -n, --np K" (alias: with
 * its aliases), "--send-mode=MODE", "--[no-]progress". */
static void
label(const struct cli_option *op, int alias, char *buf, size_t size)
{
	int	n;

	if (op->flags & CLI_NEG)
		n = snprintf(buf, size, "--[no-]%s", op->name + 2);
	else if (alias && op->alias != NULL)
		n = snprintf(buf, size, "%s, %s%s%s", op->name, op->alias,
		    op->alias2 != NULL ? ", " : "",
		    op->alias2 != NULL ? op->alias2 : "");
	else
		n = snprintf(buf, size, "%s", op->name);
	if (op->arg != NULL && n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, "%s%s",
		    op->flags & CLI_EQ ? "=" : " ", op->arg);
}

void
cli_usage(FILE *f, const struct cmd_entry *c)
{
	const struct cli_option	*op;
	char			 l[128];

	fprintf(f, "usage: ensemble %s", c->name);
	if (c->args != NULL && c->args[0] != '\0')
		fprintf(f, " %s", c->args);
	for (op = c->options; op != NULL && op->type != CLI_END; op++) {
		if (op->type == CLI_GROUP || op->type == CLI_HELP)
			continue;
		label(op, 0, l, sizeof(l));
		fprintf(f, op->flags & CLI_REQUIRED ? " %s%s" : " [%s]%s", l,
		    op->type == CLI_LIST || op->type == CLI_PAIR ? "..." : "");
	}
	if (c->rest != NULL)
		fprintf(f, " [-- %s]", c->rest);
	fputc('\n', f);
}

void
cli_help(const struct cmd_entry *c)
{
	const struct cli_option	*op;
	const char		*line, *nl;
	char			 l[128];
	int			 n;

	cli_usage(stdout, c);
	printf("\n%s\n", c->summary);
	if (c->options != NULL)
		putchar('\n');
	for (op = c->options; op != NULL && op->type != CLI_END; op++) {
		if (op->type == CLI_GROUP) {
			printf("\n%s\n", op->help);
			continue;
		}
		label(op, 1, l, sizeof(l));
		n = printf("  %s", l);
		for (line = op->help; *line != '\0'; line = nl + (*nl != '\0')) {
			if ((nl = strchr(line, '\n')) == NULL)
				nl = line + strlen(line);
			if (n >= HELP_COL) {
				putchar('\n');
				n = 0;
			}
			printf("%*s%.*s", HELP_COL - n, "", (int)(nl - line), line);
			n = HELP_COL;
		}
		putchar('\n');
	}
	if (c->help != NULL)
		printf("\n%s", c->help);
}

static int
usage_error(const struct cmd_entry *c, const char *fmt, const char *arg)
{
	fprintf(stderr, "ensemble %s: ", c->name);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	cli_usage(stderr, c);
	return EXIT_BADINPUT;
}

/* A positive number of seconds up to most from v into *out; -1 if not. */
static int
seconds(const char *v, double most, double *out)
{
	char	*end;

	errno = 0;
	*out = strtod(v, &end);
	return *v == '\0' || *end != '\0' || errno == ERANGE || !(*out > 0) ||
	    *out > most ? -1 : 0;
}

/* Whether argument a is op by one of its names, and its value: the flag's
 * (1, or 0 by --no-NAME) in *set, or the option's value in *v (NULL: it
 * is the next argument's). */
static int
matches(const struct cli_option *op, const char *a, int *set, const char **v)
{
	const char	*names[3] = { op->name, op->alias, op->alias2 };
	size_t		 n;
	int		 i;

	*set = 1;
	*v = NULL;
	for (i = 0; i < 3 && names[i] != NULL; i++) {
		n = strlen(names[i]);
		if (op->arg == NULL) {
			if (strcmp(a, names[i]) == 0)
				return 1;
			if ((op->flags & CLI_NEG) && strncmp(a, "--no-", 5) == 0 &&
			    strcmp(a + 5, names[i] + 2) == 0) {
				*set = 0;
				return 1;
			}
		} else if (strncmp(a, names[i], n) == 0) {
			if (a[n] == '\0')
				return 1;
			if (a[n] == '=' || op->name[1] != '-') {
				*v = a + n + (a[n] == '=');
				return 1;
			}
		}
	}
	return 0;
}

/* Store option op's value v (or flag 'set') in o; a usage error's exit
 * code when v is not one. */
static int
store(const struct cmd_entry *c, const struct cli_option *op, const char *v,
    int set, struct cli_opts *o)
{
	void			*p = (char *)o + op->off;
	struct cli_list		*l = p;
	unsigned long long	 n;
	char			*end;

	switch (op->type) {
	case CLI_FLAG:
		*(int *)p = set;
		break;
	case CLI_STRING:
		*(const char **)p = v;
		break;
	case CLI_LIST:
	case CLI_PAIR:
		xgrow(&l->v, &l->alloc, l->n + 1, sizeof(*l->v));
		l->v[l->n++] = v;
		break;
	case CLI_COUNT:
		errno = 0;
		n = strtoull(v, &end, 10);
		if (*v == '\0' || *v == '-' || *end != '\0' || errno == ERANGE || n == 0)
			return usage_error(c, op->bad, v);
		*(unsigned long long *)p = n;
		break;
	case CLI_SECONDS:
		if (seconds(v, op->most, p) != 0)
			return usage_error(c, op->bad, v);
		break;
	case CLI_SCALE:
		errno = 0;
		o->pcg.np = strtoll(v, &end, 10);
		if (*v == '\0' || *end != '\0' || errno == ERANGE)
			return usage_error(c, op->bad, v);
		o->pcg.np_set = 1;
		break;
	case CLI_MODES:
		if ((*(int *)p = mpnet_send_modes(v)) == 0)
			return usage_error(c, op->bad, v);
		break;
	default:
		break;
	}
	return -1;
}

/* Keep an argument after '--' for the command. */
static void
store_rest(struct cli_opts *o, const char *a)
{
	xgrow(&o->rest.v, &o->rest.alloc, o->rest.n + 1, sizeof(*o->rest.v));
	o->rest.v[o->rest.n++] = a;
}

/* cli_parse's work: the exit code of a usage error or the help, or -1. */
static int
parse(const struct cmd_entry *c, int argc, char **argv, struct cli_opts *o)
{
	const struct cli_option	*op;
	const char		*v;
	int			 i, set, rc, dashdash = 0;

	memset(o, 0, sizeof(*o));
	o->progress = -1;
	for (i = 1; i < argc; i++) {
		const char	*a = argv[i];

		if (dashdash || a[0] != '-' || a[1] == '\0') {
			if (o->script != NULL)
				return usage_error(c, "more than one script ('%s')", a);
			o->script = a;
			continue;
		}
		if (strcmp(a, "--") == 0 && c->rest != NULL) {
			/* The rest is the command's, as given. */
			for (i++; i < argc; i++)
				store_rest(o, argv[i]);
			break;
		}
		if (strcmp(a, "--") == 0) {
			dashdash = 1;
			continue;
		}
		for (op = c->options; op != NULL && op->type != CLI_END; op++)
			if (op->type != CLI_GROUP && matches(op, a, &set, &v))
				break;
		if (op == NULL || op->type == CLI_END)
			return usage_error(c, "unknown option '%s'", a);
		if (op->type == CLI_HELP) {
			cli_help(c);
			return cli_exit(0);
		}
		if (op->arg != NULL && v == NULL) {
			if (i + 1 >= argc) {
				fprintf(stderr, "ensemble %s: '%s' needs %s\n", c->name,
				    a, op->needs);
				cli_usage(stderr, c);
				return EXIT_BADINPUT;
			}
			v = argv[++i];
		}
		if ((rc = store(c, op, v, set, o)) >= 0)
			return rc;
		if (op->type == CLI_PAIR) {
			/* Its second value is the next argument. */
			if (i + 1 >= argc) {
				fprintf(stderr, "ensemble %s: '%s' needs %s\n", c->name,
				    op->name, op->needs);
				cli_usage(stderr, c);
				return EXIT_BADINPUT;
			}
			store(c, op, argv[++i], set, o);
		}
	}
	if (o->script == NULL)
		return usage_error(c, "no %s given",
		    c->operand != NULL ? c->operand : "script");
	o->pcg.defs = o->defs.v;
	o->pcg.ndefs = o->defs.n;
	o->pcg.dirs = o->dirs.v;
	o->pcg.ndirs = o->dirs.n;
	o->pcg.libexecdir = cli_libexecdir();
	return -1;
}

int
cli_parse(const struct cmd_entry *c, int argc, char **argv, struct cli_opts *o)
{
	int	rc;

	if ((rc = parse(c, argc, argv, o)) >= 0)
		cli_opts_free(o);	/* the command stops here */
	return rc;
}

/* The build tree this ensemble runs from, when it runs uninstalled: the
 * directory of the executable, if it holds loader/ensemble-exec. */
static const char *
build_tree(void)
{
	static char	dir[PATH_MAX];
	static int	done, found;
	char		probe[PATH_MAX + 32], *slash;
	ssize_t		n;

	if (done)
		return found ? dir : NULL;
	done = 1;
	if ((n = readlink("/proc/self/exe", dir, sizeof(dir) - 1)) <= 0)
		return NULL;
	dir[n] = '\0';
	if ((slash = strrchr(dir, '/')) == NULL)
		return NULL;
	*slash = '\0';
	snprintf(probe, sizeof(probe), "%s/loader/ensemble-exec", dir);
	found = access(probe, X_OK) == 0;
	return found ? dir : NULL;
}

/* SUB of the build tree this ensemble runs from, in buf, or INSTALLED
 * when it runs installed. */
static const char *
tree_or(char *buf, size_t len, const char *sub, const char *installed)
{
	const char	*tree = build_tree();

	if (tree == NULL)
		return installed;
	snprintf(buf, len, "%s/%s", tree, sub);
	return buf;
}

const char *
cli_libexecdir(void)
{
	static char	path[PATH_MAX + 16];

	return tree_or(path, sizeof(path), "components", PKGLIBEXECDIR);
}

/* Where the Python package 'ensemble' is for the components 'ensemble run'
 * starts: the build tree's bindings/python (holding the package directory
 * 'make' builds there), or the directory it is installed in. */
const char *
cli_pythondir(void)
{
	static char	path[PATH_MAX + 32];

	return tree_or(path, sizeof(path), "bindings/python", ENSEMBLEPYTHONDIR);
}

const char *
cli_exec(void)
{
	static char	path[PATH_MAX + 32];

	return tree_or(path, sizeof(path), "loader/ensemble-exec",
	    PKGLIBEXECDIR "/ensemble-exec");
}

void
cli_opts_free(struct cli_opts *o)
{
	free(o->defs.v);
	free(o->dirs.v);
	free(o->mca.v);
	free(o->xenv.v);
	free(o->rest.v);
}

struct ast *
cli_parse_script(const struct cli_opts *o, struct diag *d)
{
	struct parse_opts	 po = { o->pcg.dirs, o->pcg.ndirs, 0 };
	struct ast		*ast;

	if ((ast = parse_file(o->script, d, &po)) == NULL)
		return NULL;
	if (d->errors > 0) {
		/* Expanding a script that did not parse only adds noise. */
		ast_free(ast);
		diag_summary(d);
		return NULL;
	}
	return ast;
}

struct pcg *
cli_load(struct cli_opts *o, struct diag *d)
{
	struct ast		*ast;
	struct pcg		*g;

	if ((ast = cli_parse_script(o, d)) == NULL)
		return NULL;
	g = pcg_expand(ast, d, &o->pcg);
	if (g == NULL || d->errors > 0) {
		pcg_free(g);
		diag_summary(d);
		return NULL;
	}
	return g;
}

int
cli_exit(int code)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "ensemble: cannot write to standard output: %s\n",
		    strerror(errno));
		return code == 0 ? EXIT_BADINPUT : code;
	}
	return code;
}
