/* common.c -- the option parsing and front end that every subcommand
 * shares: each command's options parsed into its own struct, listed in
 * its help, its usage and 'help --options' from its declaration (struct
 * cli_option), then the script read through the front end
 * (mpnet/frontend.h) with what the options say. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "codecheck.h"
#include "infer.h"
#include "mpnet.h"
#include "xmalloc.h"

/* The column a help line's text starts at; a longer label has its text
 * on the lines below. */
#define HELP_COL	18

/* Whether op is an option (not a heading, an operand or the rest). */
static int
is_option(const struct cli_option *op)
{
	return op->type != CLI_GROUP && op->type != CLI_OPERAND &&
	    op->type != CLI_OPERANDS && op->type != CLI_SCRIPT &&
	    op->type != CLI_REST;
}

/* The command's first entry of type t, or NULL. */
static const struct cli_option *
find_type(const struct cmd_entry *c, enum cli_otype t)
{
	const struct cli_option	*op;

	for (op = c->options; op != NULL && op->type != CLI_END; op++)
		if (op->type == t)
			return op;
	return NULL;
}

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
		if (!is_option(op) || op->type == CLI_HELP)
			continue;
		label(op, 0, l, sizeof(l));
		fprintf(f, op->flags & CLI_REQUIRED ? " %s%s" : " [%s]%s", l,
		    op->type == CLI_LIST || op->type == CLI_PAIR ? "..." : "");
	}
	if ((op = find_type(c, CLI_REST)) != NULL)
		fprintf(f, " [-- %s]", op->arg);
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
		if (!is_option(op))
			continue;
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
    int set, void *o)
{
	void			*p = (char *)o + op->off;
	struct cli_list		*l = p;
	struct pcg_opts		*po = p;
	unsigned long long	 n;
	char			*end;

	switch (op->type) {
	case CLI_FLAG:
		*(int *)p = set;
		break;
	case CLI_STRING:
	case CLI_OPERAND:
		*(const char **)p = v;
		break;
	case CLI_SCRIPT:
		((struct cli_script *)p)->path = v;
		break;
	case CLI_LIST:
	case CLI_PAIR:
	case CLI_REST:
	case CLI_OPERANDS:
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
		po->np = strtoll(v, &end, 10);
		if (*v == '\0' || *end != '\0' || errno == ERANGE)
			return usage_error(c, op->bad, v);
		po->np_set = 1;
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

/* Whether the operand's field is still empty. */
static int
no_operand(const struct cli_option *op, void *o)
{
	void	*p = (char *)o + op->off;

	if (op->type == CLI_SCRIPT)
		return ((struct cli_script *)p)->path == NULL;
	if (op->type == CLI_OPERANDS)
		return ((struct cli_list *)p)->n == 0;
	return *(const char **)p == NULL;
}

/* cli_parse's work: the exit code of a usage error or the help, or -1. */
static int
parse(const struct cmd_entry *c, int argc, char **argv, void *o)
{
	const struct cli_option	*op, *operand, *rest;
	struct cli_script	*s;
	const char		*v;
	int			 i, set, rc, dashdash = 0;

	if ((operand = find_type(c, CLI_SCRIPT)) == NULL &&
	    (operand = find_type(c, CLI_OPERAND)) == NULL)
		operand = find_type(c, CLI_OPERANDS);
	rest = find_type(c, CLI_REST);
	for (op = c->options; op != NULL && op->type != CLI_END; op++)
		if (op->type == CLI_FLAG && (op->flags & CLI_NEG))
			*(int *)((char *)o + op->off) = -1;	/* not given */
	for (i = 1; i < argc; i++) {
		const char	*a = argv[i];

		if (dashdash || a[0] != '-' || a[1] == '\0') {
			if (operand->type != CLI_OPERANDS &&
			    !no_operand(operand, o)) {
				fprintf(stderr, "ensemble %s: more than one %s "
				    "('%s')\n", c->name, operand->type == CLI_SCRIPT ?
				    "script" : operand->arg, a);
				cli_usage(stderr, c);
				return EXIT_BADINPUT;
			}
			store(c, operand, a, 1, o);
			continue;
		}
		if (strcmp(a, "--") == 0 && rest != NULL) {
			/* The rest is the command's, as given. */
			for (i++; i < argc; i++)
				store(c, rest, argv[i], 1, o);
			break;
		}
		if (strcmp(a, "--") == 0) {
			dashdash = 1;
			continue;
		}
		for (op = c->options; op != NULL && op->type != CLI_END; op++)
			if (is_option(op) && matches(op, a, &set, &v))
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
	if (no_operand(operand, o))
		return usage_error(c, "no %s given",
		    operand->type == CLI_SCRIPT ? "script" : operand->arg);
	if (operand->type == CLI_SCRIPT) {
		s = (struct cli_script *)((char *)o + operand->off);
		s->pcg.defs = s->defs.v;
		s->pcg.ndefs = s->defs.n;
		s->pcg.dirs = s->dirs.v;
		s->pcg.ndirs = s->dirs.n;
		s->pcg.libexecdir = cli_libexecdir();
	}
	return -1;
}

int
cli_parse(const struct cmd_entry *c, int argc, char **argv, void *o,
    size_t size)
{
	int	rc;

	memset(o, 0, size);
	if ((rc = parse(c, argc, argv, o)) >= 0)
		cli_opts_free(c, o);	/* the command stops here */
	return rc;
}

void
cli_opts_free(const struct cmd_entry *c, void *o)
{
	const struct cli_option	*op;

	for (op = c->options; op != NULL && op->type != CLI_END; op++)
		if (op->type == CLI_LIST || op->type == CLI_PAIR ||
		    op->type == CLI_REST || op->type == CLI_OPERANDS)
			free(((struct cli_list *)((char *)o + op->off))->v);
}

const char *const cli_layouts[] = {
	"dot", "neato", "fdp", "sfdp", "circo", "twopi", NULL
};

const char *const cli_send_modes[] = {
	"both", "buffered", "synchronous", NULL
};

int
cli_known(const char *const *values, const char *name)
{
	for (; *values != NULL; values++)
		if (strcmp(*values, name) == 0)
			return 1;
	return 0;
}

void
cli_options(const struct cmd_entry *c)
{
	const struct cli_option	*op;
	const char		*names[3], *eq;
	const char *const	*v;
	int			 i;

	if (c->options == NULL) {
		printf("-h --help\n");
		return;
	}
	for (op = c->options; op->type != CLI_END; op++) {
		if (!is_option(op))
			continue;
		names[0] = op->name;
		names[1] = op->alias;
		names[2] = op->alias2;
		eq = op->flags & CLI_EQ ? "=" : "";
		if (op->flags & CLI_NEG)
			printf("%s --no-%s", op->name, op->name + 2);
		else
			for (i = 0; i < 3 && names[i] != NULL; i++)
				printf("%s%s%s", i > 0 ? " " : "", names[i], eq);
		if (op->arg != NULL) {
			printf("\t%s", op->arg);
			for (v = op->values; v != NULL && *v != NULL; v++)
				printf("%s%s", v == op->values ? "\t" : " ", *v);
		}
		putchar('\n');
	}
}

/* The build tree this ensemble runs from, when it runs uninstalled: the
 * directory of the executable, if it holds trampoline/ensemble-exec. */
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
	snprintf(probe, sizeof(probe), "%s/trampoline/ensemble-exec", dir);
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

	return tree_or(path, sizeof(path), "trampoline/ensemble-exec",
	    PKGLIBEXECDIR "/ensemble-exec");
}

int
cli_load(struct cli_script *s, enum frontend_stage upto, struct diag *d,
    struct frontend *fe)
{
	struct frontend_src	 src;
	int			 rc;

	memset(&src, 0, sizeof(src));
	src.path = s->path;
	if ((rc = frontend_compile(&src, &s->pcg, upto, d, fe)) == 0)
		return 0;
	frontend_free(fe);
	if (rc != FRONTEND_READ)	/* said as a problem of the file alone */
		diag_summary(d);
	return -1;
}

int
cli_resume(struct frontend *fe, const struct pcg_opts *o,
    enum frontend_stage upto, struct diag *d)
{
	if (frontend_resume(fe, o, upto, d) == 0)
		return 0;
	diag_summary(d);
	return -1;
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

/* Where ensemble keeps what it makes to be faster next time: ENSEMBLE_CACHE
 * (empty: nowhere), else $XDG_CACHE_HOME/ensemble, else
 * $HOME/.cache/ensemble; NULL for nowhere. */
static const char *
cache_dir(void)
{
	static char	 dir[PATH_MAX];
	const char	*e;

	if ((e = getenv("ENSEMBLE_CACHE")) != NULL)
		return e[0] != '\0' ? e : NULL;
	if ((e = getenv("XDG_CACHE_HOME")) != NULL && e[0] == '/')
		snprintf(dir, sizeof(dir), "%s/ensemble", e);
	else if ((e = getenv("HOME")) != NULL && e[0] == '/')
		snprintf(dir, sizeof(dir), "%s/.cache/ensemble", e);
	else
		return NULL;
	return dir;
}

void
cli_infer_opts(struct infer_opts *o)
{
	static char		 rt[PATH_MAX + 16], cxx[PATH_MAX + 16],
				 helper[PATH_MAX + 32];
	static const char	*inc[2];

	memset(o, 0, sizeof(*o));
	if (build_tree() != NULL) {
		snprintf(rt, sizeof(rt), "%s/runtime", ENS_ABS_SRCDIR);
		snprintf(cxx, sizeof(cxx), "%s/bindings/cxx", ENS_ABS_SRCDIR);
		snprintf(helper, sizeof(helper), "%s/infer/infer.py", ENS_ABS_SRCDIR);
		inc[0] = rt;
		inc[1] = cxx;
		o->nincdirs = 2;
		o->helper = helper;
	} else {
		inc[0] = ENS_INCLUDEDIR;
		o->nincdirs = 1;
		o->helper = PKGDATADIR "/infer.py";
	}
	o->incdirs = inc;
	o->cache = cache_dir();
	o->python = ENS_PYTHON;
	o->mpi_cflags = ENS_MPI_CFLAGS;
}

/* A verdict in words, for the report. */
static const char *
verdict_text(enum cc_verdict v)
{
	switch (v) {
	case CC_EQUAL:		return "makes the same calls as its behaviour";
	case CC_INCLUDED:	return "makes calls its behaviour allows (not all "
				    "of them)";
	case CC_DIFFERS:	return "makes calls its behaviour does not allow";
	case CC_FAILED:		return "not checked (said above)";
	case CC_UNDECIDED:	return "not decided (the comparison stopped at its "
				    "limit)";
	default:		return "not checked";
	}
}

/* Processes i..j (of one indexed component, their indices a run) as
 * scripts write them: relay[1..3], or one's name. */
static void
procs_name(const struct pcg *g, int i, int j, char *buf, size_t len)
{
	if (i == j) {
		pcg_proc_name(g, i, buf, len);
		return;
	}
	snprintf(buf, len, "%s[%" PRId64 "..%" PRId64 "]",
	    g->comps[g->procs[i].comp].name, g->procs[i].index, g->procs[j].index);
}

int
cli_codecheck(struct pcg *g, const struct pcg_opts *po,
    const struct cli_list *sources, const struct cli_list *flags,
    struct diag *d, FILE *report, int how, struct codecheck **ccp)
{
	static char		 dirs[2][PATH_MAX + 16];
	const char		*dv[2 + 64];
	struct cc_opts		 o;
	struct codecheck	*cc;
	char			 pn[PCG_NAME_MAX];
	int			 i, j, nd = 0, rc = 0;

	/* Each --source names a component of the script. */
	for (i = 0; sources != NULL && i < (int)sources->n; i++) {
		const char	*eq = strchr(sources->v[i], '=');

		for (j = 0; eq != NULL && j < g->ncomps; j++)
			if (strlen(g->comps[j].name) == (size_t)(eq - sources->v[i]) &&
			    strncmp(g->comps[j].name, sources->v[i],
			    (size_t)(eq - sources->v[i])) == 0)
				break;
		if (eq == NULL || eq == sources->v[i] || eq[1] == '\0') {
			fprintf(stderr, "ensemble: --source '%s': not "
			    "COMPONENT=FILE\n", sources->v[i]);
			return EXIT_BADINPUT;
		}
		if (j == g->ncomps) {
			fprintf(stderr, "ensemble: --source '%s': %s has no "
			    "component '%.*s'\n", sources->v[i], g->name,
			    (int)(eq - sources->v[i]), sources->v[i]);
			return EXIT_BADINPUT;
		}
	}
	memset(&o, 0, sizeof(o));
	cli_infer_opts(&o.io);
	o.io.flags = flags != NULL ? flags->v : NULL;
	o.io.nflags = flags != NULL ? (int)flags->n : 0;
	o.po = po;
	o.sources = sources != NULL ? sources->v : NULL;
	o.nsources = sources != NULL ? (int)sources->n : 0;
	/* Where sources are besides: -L, and running from the build tree,
	 * the source tree's components and benchmarks. */
	for (i = 0; i < (int)po->ndirs && nd < 64; i++)
		dv[nd++] = po->dirs[i];
	if (build_tree() != NULL) {
		snprintf(dirs[0], sizeof(dirs[0]), "%s/components", ENS_ABS_SRCDIR);
		snprintf(dirs[1], sizeof(dirs[1]), "%s/bench", ENS_ABS_SRCDIR);
		dv[nd++] = dirs[0];
		dv[nd++] = dirs[1];
	}
	o.dirs = dv;
	o.ndirs = nd;
	o.soft = (how & CLI_CC_RUN) != 0;
	o.no_compare = (how & CLI_CC_INFER) != 0;
	cc = codecheck_infer(g, &o, d);
	codecheck_compare(cc, &o);
	/* Each difference once for a run of processes it holds for. */
	for (i = 0; i < g->nprocs; i = j) {
		struct cc_proc	*cp = &cc->procs[i];

		for (j = i + 1; j < g->nprocs; j++) {
			const struct cc_proc *cq = &cc->procs[j];

			if (cp->verdict != CC_DIFFERS || cq->verdict != CC_DIFFERS ||
			    cq->src != cp->src || g->procs[j].comp != g->procs[i].comp ||
			    g->procs[j].index != g->procs[j - 1].index + 1 ||
			    strcmp(cq->diff, cp->diff) != 0 ||
			    cq->codeloc.first_line != cp->codeloc.first_line ||
			    cq->declloc.first_line != cp->declloc.first_line ||
			    cq->declloc.src != cp->declloc.src)
				break;
		}
		if (cp->verdict != CC_DIFFERS)
			continue;
		procs_name(g, i, j - 1, pn, sizeof(pn));
		diag_error(d, cp->codeloc.src != NULL ? &cp->codeloc : NULL, "%s: %s",
		    pn, cp->diff);
		if (cp->declloc.src != NULL)
			diag_note(d, &cp->declloc, "the statement of its behaviour");
	}
	/* A line per run of processes of one source and verdict. */
	for (i = 0; report != NULL && i < g->nprocs; i = j) {
		const struct cc_proc	*cp = &cc->procs[i];

		for (j = i + 1; j < g->nprocs; j++) {
			const struct cc_proc *cq = &cc->procs[j];

			if (cq->src != cp->src || cq->verdict != cp->verdict ||
			    g->procs[j].comp != g->procs[i].comp ||
			    g->procs[j].index != g->procs[j - 1].index + 1 ||
			    cq->why != cp->why)
				break;
		}
		procs_name(g, i, j - 1, pn, sizeof(pn));
		if (cp->src < 0)
			fprintf(report, "%s: %s: %s\n", g->name, pn, cp->why != NULL ?
			    cp->why : "not checked");
		else if (cp->why != NULL && cp->verdict == CC_UNCHECKED)
			fprintf(report, "%s: %s: %s: %s\n", g->name, pn,
			    cc->srcs[cp->src].path, cp->why);
		else
			fprintf(report, "%s: %s: %s %s\n", g->name, pn,
			    cc->srcs[cp->src].path, verdict_text(cp->verdict));
	}
	if (report != NULL)
		fflush(report);
	if (cc->errors > 0)
		rc = EXIT_BADINPUT;
	else if (cc->differ > 0)
		rc = EXIT_VIOLATED;
	else if (cc->undecided > 0 && !(how & CLI_CC_RUN))
		rc = EXIT_INCOMPLETE;
	if (ccp != NULL)
		*ccp = cc;
	else
		codecheck_free(cc);
	return rc;
}
