/* common.c -- the option parsing and front end that every subcommand
 * shares: -np K, -D NAME=VALUE, -L DIR, then parse and expand. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "parse.h"
#include "xmalloc.h"

void
cli_help(const struct cmd_entry *c)
{
	printf("usage: ensemble %s\n\n%s\n", c->usage, c->summary);
	if (c->help != NULL)
		printf("\n%s", c->help);
}

static int
usage_error(const struct cmd_entry *c, const char *fmt, const char *arg)
{
	fprintf(stderr, "ensemble %s: ", c->name);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nusage: ensemble %s\n", c->usage);
	return EXIT_BADINPUT;
}

/* The value of an option given as "-o X" or "-oX"; NULL if missing. */
static const char *
optval(int argc, char **argv, int *i, const char *opt)
{
	size_t	n = strlen(opt);

	if (argv[*i][n] != '\0')
		return argv[*i] + n + (argv[*i][n] == '=');
	if (*i + 1 >= argc)
		return NULL;
	return argv[++*i];
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

int
cli_parse(const struct cmd_entry *c, int argc, char **argv, struct cli_opts *o,
    unsigned allowed)
{
	const char	*v;
	char		*end;
	size_t		 defalloc = 0, diralloc = 0;
	int		 i, dashdash = 0;

	memset(o, 0, sizeof(*o));
	o->progress = -1;
	for (i = 1; i < argc; i++) {
		const char	*a = argv[i];

		if (dashdash || a[0] != '-' || a[1] == '\0') {
			if (o->script != NULL)
				return usage_error(c, "more than one script ('%s')", a);
			o->script = a;
		} else if (strcmp(a, "--") == 0)
			dashdash = 1;
		else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			cli_help(c);
			return cli_exit(0);
		} else if (strncmp(a, "-np", 3) == 0 || strncmp(a, "--np", 4) == 0) {
			if ((v = optval(argc, argv, &i, a[1] == '-' ? "--np" : "-np")) == NULL)
				return usage_error(c, "'%s' needs a count", a);
			errno = 0;
			o->pcg.np = strtoll(v, &end, 10);
			if (*v == '\0' || *end != '\0' || errno == ERANGE)
				return usage_error(c, "-np needs a whole number, not '%s'", v);
			o->pcg.np_set = 1;
		} else if (strncmp(a, "-D", 2) == 0) {
			if ((v = optval(argc, argv, &i, "-D")) == NULL)
				return usage_error(c, "'%s' needs NAME=VALUE", a);
			xgrow(&o->defs, &defalloc, o->pcg.ndefs + 1, sizeof(char *));
			o->defs[o->pcg.ndefs++] = v;
		} else if (strncmp(a, "-L", 2) == 0) {
			if ((v = optval(argc, argv, &i, "-L")) == NULL)
				return usage_error(c, "'%s' needs a directory", a);
			xgrow(&o->dirs, &diralloc, o->pcg.ndirs + 1, sizeof(char *));
			o->dirs[o->pcg.ndirs++] = v;
		} else if ((allowed & CLI_OUTPUT) && strncmp(a, "-o", 2) == 0) {
			if ((v = optval(argc, argv, &i, "-o")) == NULL)
				return usage_error(c, "'%s' needs a file name (or - for stdout)", a);
			o->output = v;
		} else if ((allowed & CLI_OUTPUT) && strncmp(a, "-T", 2) == 0) {
			if ((v = optval(argc, argv, &i, "-T")) == NULL)
				return usage_error(c, "'%s' needs a format", a);
			o->format = v;
		} else if ((allowed & CLI_OUTPUT) && strncmp(a, "-K", 2) == 0) {
			if ((v = optval(argc, argv, &i, "-K")) == NULL)
				return usage_error(c, "'%s' needs a layout engine", a);
			o->layout = v;
		} else if ((allowed & CLI_OUTPUT) && strcmp(a, "--pcg") == 0)
			o->pcg_dot = 1;
		else if ((allowed & CLI_SENDMODE) && strncmp(a, "--send-mode", 11) == 0 &&
		    (a[11] == '\0' || a[11] == '=')) {
			if ((v = optval(argc, argv, &i, "--send-mode")) == NULL)
				return usage_error(c, "'%s' needs a mode: both, buffered "
				    "or synchronous", a);
			if (strcmp(v, "both") != 0 && strcmp(v, "buffered") != 0 &&
			    strcmp(v, "synchronous") != 0)
				return usage_error(c, "unknown send mode '%s' (both, "
				    "buffered or synchronous)", v);
			o->send_mode = v;
		} else if ((allowed & CLI_SEARCH) && strcmp(a, "--progress") == 0)
			o->progress = 1;
		else if ((allowed & CLI_SEARCH) && strcmp(a, "--no-progress") == 0)
			o->progress = 0;
		else if ((allowed & CLI_SEARCH) && strcmp(a, "--full") == 0)
			o->full = 1;
		else if ((allowed & CLI_SEARCH) && (strncmp(a, "--max-states", 12) == 0 ||
		    strncmp(a, "--max-memory", 12) == 0) && (a[12] == '\0' || a[12] == '=')) {
			const char	*opt = a[6] == 's' ? "--max-states" : "--max-memory";
			unsigned long long n;

			if ((v = optval(argc, argv, &i, opt)) == NULL)
				return usage_error(c, "'%s' needs a number", opt);
			errno = 0;
			n = strtoull(v, &end, 10);
			if (*v == '\0' || *v == '-' || *end != '\0' || errno == ERANGE || n == 0)
				return usage_error(c, "%s", a[6] == 's' ?
				    "--max-states needs a positive whole number" :
				    "--max-memory needs a positive number of megabytes");
			if (a[6] == 's')
				o->max_states = n;
			else
				o->max_memory_mb = n;
		} else if ((allowed & CLI_SEARCH) && strncmp(a, "--max-time", 10) == 0 &&
		    (a[10] == '\0' || a[10] == '=')) {
			if ((v = optval(argc, argv, &i, "--max-time")) == NULL)
				return usage_error(c, "'%s' needs a number of seconds", a);
			if (seconds(v, 1e9, &o->max_time) != 0)
				return usage_error(c, "--max-time needs a positive number "
				    "of seconds, not '%s'", v);
		} else if ((allowed & CLI_VERIFY) && strcmp(a, "--exact") == 0)
			o->exact = 1;
		else if ((allowed & CLI_VERIFY) && strcmp(a, "--json") == 0)
			o->json = 1;
		else if ((allowed & CLI_VERIFY) && strcmp(a, "--stats") == 0)
			o->stats = 1;
		else if ((allowed & CLI_VERIFY) && strncmp(a, "--explain", 9) == 0 &&
		    (a[9] == '\0' || a[9] == '=')) {
			if ((v = optval(argc, argv, &i, "--explain")) == NULL)
				return usage_error(c, "'%s' needs a file name", a);
			o->explain = v;
		} else if ((allowed & CLI_RUN) && strncmp(a, "--hostfile", 10) == 0 &&
		    (a[10] == '\0' || a[10] == '=')) {
			if ((v = optval(argc, argv, &i, "--hostfile")) == NULL)
				return usage_error(c, "'%s' needs a file name", a);
			o->hostfile = v;
		} else if ((allowed & CLI_RUN) && strncmp(a, "--timeout", 9) == 0 &&
		    (a[9] == '\0' || a[9] == '=')) {
			if ((v = optval(argc, argv, &i, "--timeout")) == NULL)
				return usage_error(c, "'%s' needs a number of seconds", a);
			if (seconds(v, 1e7, &o->timeout) != 0)
				return usage_error(c, "--timeout needs a positive number of "
				    "seconds, not '%s'", v);
		} else if ((allowed & CLI_RUN) && strcmp(a, "--no-verify") == 0)
			o->no_verify = 1;
		else if ((allowed & CLI_RUN) && strcmp(a, "--force") == 0)
			o->force = 1;
		else if ((allowed & CLI_RUN) && strcmp(a, "--check-protocol") == 0)
			o->check_protocol = 1;
		else if ((allowed & CLI_RUN) && strcmp(a, "--verbose") == 0)
			o->verbose = 1;
		else
			return usage_error(c, "unknown option '%s'", a);
	}
	if (o->script == NULL)
		return usage_error(c, "%s", "no script given");
	o->pcg.defs = o->defs;
	o->pcg.dirs = o->dirs;
	o->pcg.libexecdir = cli_libexecdir();
	return -1;
}

/* The build tree this ensemble runs from, when it runs uninstalled: the
 * directory of the executable, if it holds loader/ensemble-loader. */
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
	snprintf(probe, sizeof(probe), "%s/loader/ensemble-loader", dir);
	found = access(probe, X_OK) == 0;
	return found ? dir : NULL;
}

const char *
cli_libexecdir(void)
{
	static char	path[PATH_MAX + 16];
	const char	*tree = build_tree();

	if (tree == NULL)
		return PKGLIBEXECDIR;
	snprintf(path, sizeof(path), "%s/components", tree);
	return path;
}

const char *
cli_loader(void)
{
	static char	path[PATH_MAX + 32];
	const char	*tree = build_tree(), *env = getenv("ENSEMBLE_LOADER");

	if (env != NULL && *env != '\0')
		return env;
	if (tree == NULL)
		return PKGLIBEXECDIR "/ensemble-loader";
	snprintf(path, sizeof(path), "%s/loader/ensemble-loader", tree);
	return path;
}

void
cli_opts_free(struct cli_opts *o)
{
	free(o->defs);
	free(o->dirs);
}

struct pcg *
cli_load(struct cli_opts *o, struct diag *d)
{
	struct parse_opts	 po = { o->pcg.dirs, o->pcg.ndirs, 0 };
	struct ast		*ast;
	struct pcg		*g;

	if ((ast = parse_file(o->script, d, &po)) == NULL)
		return NULL;
	if (d->errors > 0) {
		/* Expanding a script that did not parse only adds noise. */
		ast_free(ast);
		diag_summary(d);
		return NULL;
	}
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
