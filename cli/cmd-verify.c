/* cmd-verify.c -- 'ensemble verify': compile the script's MP net and check
 * it in each send mode for deadlocks, unmatched sends, orphan receives,
 * collective mismatches and requests never waited for. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "codecheck.h"
#include "explain.h"
#include "ir.h"
#include "irnet.h"
#include "json.h"
#include "xmalloc.h"

/* What verify's options say. */
struct cmd_verify_opts {
	struct cli_script	 script;
	struct cli_search	 search;
	int			 exact;
	int			 no_symmetry;	/* --no-symmetry */
	int			 ir;		/* --ir */
	int			 json;
	int			 stats;
	const char		*explain;
	int			 from_code;
	struct cli_list		 sources;	/* --source COMP=FILE */
	struct cli_list		 flags;		/* after -- */
};

static const char *
verdict_name(enum verdict v)
{
	return v == V_VERIFIED ? "verified" : v == V_VIOLATED ? "violated" : "incomplete";
}

/* The families of interchangeable processes the modes' searches used,
 * each once, joined by ", " (the caller frees it); NULL: none. */
static char *
symmetry_text(const struct verify_result *res)
{
	char	*t = NULL, *u;
	int	 i;

	for (i = 0; i < res->nmodes; i++) {
		const char	*s = res->mode[i].symmetry;

		if (s == NULL || (t != NULL && strcmp(t, s) == 0))
			continue;
		u = t;
		xasprintf(&t, "%s%s%s", u != NULL ? u : "", u != NULL ?
		    "; " : "", s);
		free(u);
	}
	return t;
}

/* The result as one JSON object; g names the processes. */
static void
print_json(const struct pcg *g, const struct verify_result *res)
{
	const struct mode_result *r = res->mode;
	char			 pn[PCG_NAME_MAX];
	int			 i, k;

	printf("{\"application\":");
	json_str(stdout, res->name, 0);
	printf(",\"verdict\":\"%s\",\"buffering_hazard\":%s,\"modes\":{",
	    verdict_name(res->verdict), res->hazard ? "true" : "false");
	for (i = 0; i < res->nmodes; i++) {
		const struct violation	*v = r[i].viol;

		printf("%s\"%s\":{\"verdict\":\"%s\",\"engine\":\"%s\",\"states\":%"
		    PRIu64 ",\"transitions\":%" PRIu64 ",\"time_s\":%.6f,"
		    "\"state_bytes\":%u", i > 0 ? "," : "", check_mode_name(r[i].mode),
		    verdict_name(r[i].verdict), check_engine_name(r[i].engine),
		    r[i].states, r[i].transitions, r[i].time_s, r[i].state_bytes);
		if (r[i].symmetry != NULL) {
			printf(",\"symmetry\":");
			json_str(stdout, r[i].symmetry, 0);
		}
		if (r[i].incomplete != NULL) {
			printf(",\"incomplete\":");
			json_str(stdout, r[i].incomplete, 0);
		}
		printf(",\"violations\":[");
		if (v != NULL) {
			printf("{\"kind\":\"%s\",\"message\":", vkind_name(v->kind));
			json_str(stdout, v->message, 0);
			printf(",\"detail\":");
			json_str(stdout, v->detail, 0);
			printf(",\"message_full\":");
			json_str(stdout, v->message_full != NULL ?
			    v->message_full : v->message, 0);
			printf(",\"detail_full\":");
			json_str(stdout, v->detail_full != NULL ?
			    v->detail_full : v->detail, 0);
			printf(",\"processes\":[");
			for (k = 0; k < v->nprocs; k++) {
				if (k > 0)
					putchar(',');
				if (g == NULL)
					snprintf(pn, sizeof(pn), "process %d",
					    v->procs[k]);
				json_str(stdout, g != NULL ? pcg_proc_name(g,
				    v->procs[k], pn, sizeof(pn)) : pn, 0);
			}
			printf("],\"trace_length\":%zu,%s\"trace\":[",
			    v->trace_total, r[i].deep ? "\"depth_first\":true," : "");
			for (k = 0; k < v->ntrace; k++) {
				if (k > 0)
					putchar(',');
				json_str(stdout, v->trace[k], 0);
			}
			printf("]}");
		}
		printf("]}");
	}
	printf("}}\n");
}

/* Counterexamples longer than this many actions are folded, and of the
 * folded lines only the last this many are shown (--full: neither). */
#define CX_SCREEN	40
/* The most actions a block repeated back to back may have to be folded. */
#define CX_BLOCK	16

/* Actions trace[first .. first + len * times): a block repeated. */
struct cx_fold {
	size_t	first;
	size_t	len;
	size_t	times;
};

/* Whether the len actions at a and at b are the same (h: their hashes). */
static int
cx_same(char **t, const uint64_t *h, size_t a, size_t b, size_t len)
{
	size_t	k;

	for (k = 0; k < len; k++)
		if (h[a + k] != h[b + k] || strcmp(t[a + k], t[b + k]) != 0)
			return 0;
	return 1;
}

/* Fold a trace: from each action on, the block of 1 to CX_BLOCK actions
 * that, repeated back to back at least twice, covers the most actions
 * (the shortest such block on a tie), or else the action alone.  Exact:
 * the folds spell out the trace.  Returns them (the caller frees). */
static struct cx_fold *
cx_fold(char **t, size_t n, size_t *nfold)
{
	struct cx_fold	*fo = NULL;
	uint64_t	*h = xcalloc(n > 0 ? n : 1, sizeof(*h));
	size_t		 i, len, times, alloc = 0;
	const char	*c;

	for (i = 0; i < n; i++) {
		h[i] = 1469598103934665603ULL;
		for (c = t[i]; *c != '\0'; c++)
			h[i] = (h[i] ^ (unsigned char)*c) * 1099511628211ULL;
	}
	*nfold = 0;
	for (i = 0; i < n; i += fo[*nfold - 1].len * fo[*nfold - 1].times) {
		xgrow(&fo, &alloc, *nfold + 1, sizeof(*fo));
		fo[*nfold].first = i;
		fo[*nfold].len = 1;
		fo[*nfold].times = 1;
		for (len = 1; len <= CX_BLOCK && i + 2 * len <= n; len++) {
			for (times = 1; i + (times + 1) * len <= n &&
			    cx_same(t, h, i, i + times * len, len); times++)
				;
			if (times >= 2 && len * times > fo[*nfold].len * fo[*nfold].times) {
				fo[*nfold].len = len;
				fo[*nfold].times = times;
			}
		}
		(*nfold)++;
	}
	free(h);
	return fo;
}

/* Lines a fold takes: a run of one action one, a block one more than its
 * actions. */
static size_t
cx_lines(const struct cx_fold *fo)
{
	return fo->len == 1 ? 1 : 1 + fo->len;
}

/* A fold's numbers, "12" or "12-30" (from the action numbered base + 1). */
static int
cx_label(char *buf, size_t size, const struct cx_fold *fo, size_t base)
{
	size_t	a = base + fo->first + 1, b = a + fo->len * fo->times - 1;

	if (a == b)
		return snprintf(buf, size, "%zu", a);
	return snprintf(buf, size, "%zu-%zu", a, b);
}

/* Print the counterexample folded: the runs and blocks that repeat, and of
 * the folded lines the last CX_SCREEN, saying which actions are left out. */
static void
cx_print_folded(FILE *f, const struct violation *v)
{
	struct cx_fold	*fo;
	size_t		 nfold, s, k, lines = 0, left;
	char		 label[64];
	int		 w, width = 4;

	fo = cx_fold(v->trace, (size_t)v->ntrace, &nfold);
	for (s = nfold; s > 0 && lines + cx_lines(&fo[s - 1]) <= CX_SCREEN; s--)
		lines += cx_lines(&fo[s - 1]);
	left = v->trace_first + (s < nfold ? fo[s].first : (size_t)v->ntrace);
	if (s == 0 && left > 0)
		fprintf(f, "    (actions 1 to %zu left out)\n", left);
	else if (left > 0 && v->trace_first == 0)
		fprintf(f, "    (actions 1 to %zu left out; --full shows them)\n", left);
	else if (left > 0)
		fprintf(f, "    (actions 1 to %zu left out; --full shows those from "
		    "%zu on)\n", left, v->trace_first + 1);
	for (k = s; k < nfold; k++)
		if ((w = cx_label(label, sizeof(label), &fo[k], v->trace_first)) > width)
			width = w;
	for (k = s; k < nfold; k++) {
		cx_label(label, sizeof(label), &fo[k], v->trace_first);
		if (fo[k].times == 1)
			fprintf(f, "  %*s. %s\n", width, label, v->trace[fo[k].first]);
		else if (fo[k].len == 1)
			fprintf(f, "  %*s. %zu times: %s\n", width, label, fo[k].times,
			    v->trace[fo[k].first]);
		else {
			size_t	j;

			fprintf(f, "  %*s. %zu times:\n", width, label, fo[k].times);
			for (j = 0; j < fo[k].len; j++)
				fprintf(f, "  %*s    %s\n", width, "",
				    v->trace[fo[k].first + j]);
		}
	}
	free(fo);
}

/* Print violation v of application app, found in the modes said. */
static void
print_violation(FILE *f, const char *app, const struct violation *v,
    const char *modes, int deep, int full)
{
	const char		*line, *nl, *detail;
	int			 k;

	fprintf(f, "%s: %s (%s)\n", app, full && v->message_full != NULL ?
	    v->message_full : v->message, modes);
	detail = full && v->detail_full != NULL ? v->detail_full : v->detail;
	for (line = detail; *line != '\0'; line = nl + 1) {
		nl = strchr(line, '\n');
		if (nl == NULL)
			nl = line + strlen(line) - 1;
		fprintf(f, "  %.*s\n", (int)(nl - line), line);
	}
	fprintf(f, "  counterexample, %zu action%s from the start%s:\n",
	    v->trace_total, v->trace_total == 1 ? "" : "s", deep ?
	    " (found depth first: a shorter one may exist)" : "");
	if (!full && v->ntrace > CX_SCREEN)
		cx_print_folded(f, v);
	else {
		if (v->trace_first > 0)
			fprintf(f, "    (actions 1 to %zu left out)\n", v->trace_first);
		for (k = 0; k < v->ntrace; k++)
			fprintf(f, "  %4zu. %s\n", v->trace_first + k + 1, v->trace[k]);
	}
	if (v->trace_total == 0)
		fprintf(f, "    (none: the initial state)\n");
}

/* Whether two strings, NULL for none, are the same. */
static int
same_str(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Whether the two modes' violations would print the same. */
static int
same_violation(const struct mode_result *a, const struct mode_result *b)
{
	const struct violation	*v = a->viol, *w = b->viol;
	int			 k;

	if (v == NULL || w == NULL || v->kind != w->kind || a->deep != b->deep ||
	    !same_str(v->message, w->message) || !same_str(v->detail, w->detail) ||
	    !same_str(v->message_full, w->message_full) ||
	    !same_str(v->detail_full, w->detail_full) ||
	    v->trace_total != w->trace_total || v->trace_first != w->trace_first ||
	    v->ntrace != w->ntrace)
		return 0;
	for (k = 0; k < v->ntrace; k++)
		if (strcmp(v->trace[k], w->trace[k]) != 0)
			return 0;
	return 1;
}

void
cli_print_violations(FILE *f, const struct verify_result *res, int full)
{
	const struct mode_result *r = res->mode;
	char			 modes[32];
	int			 i;

	if (res->nmodes == 2 && same_violation(&r[0], &r[1])) {
		print_violation(f, res->name, r[0].viol, "in both modes",
		    r[0].deep, full);
		return;
	}
	for (i = 0; i < res->nmodes; i++) {
		if (r[i].viol == NULL)
			continue;
		snprintf(modes, sizeof(modes), "%s mode",
		    check_mode_name(r[i].mode));
		print_violation(f, res->name, r[i].viol, modes, r[i].deep, full);
	}
}

void
cli_verify_opts(const struct cli_search *s, int exact, struct verify_opts *vo)
{
	memset(vo, 0, sizeof(*vo));
	vo->exact = exact;
	vo->max_states = s->max_states;
	vo->max_memory = s->max_memory_mb > UINT64_MAX >> 20 ? UINT64_MAX :
	    (uint64_t)s->max_memory_mb << 20;
	vo->max_time = s->max_time;
	vo->progress = s->progress >= 0 ? s->progress : isatty(STDERR_FILENO);
	vo->modes = s->send_modes;
}

void
cli_print_incomplete(const char *app, const struct mode_result *r)
{
	if (r->verdict == V_INCOMPLETE)
		fprintf(stderr, "ensemble: %s: %s mode incomplete after %" PRIu64
		    " state%s: %s\n", app, check_mode_name(r->mode),
		    r->states, r->states == 1 ? "" : "s", r->incomplete);
	else if (r->incomplete != NULL)	/* a violation found before it */
		fprintf(stderr, "ensemble: %s: %s mode stopped after %" PRIu64
		    " state%s (%s): the violation shown is the worst found "
		    "before\n", app, check_mode_name(r->mode), r->states,
		    r->states == 1 ? "" : "s", r->incomplete);
}

static void
print_stats(const struct mode_result *r)
{
	double	rate = r->time_s > 0 ? (double)r->states / r->time_s : 0;

	printf("mode: %s\n", check_mode_name(r->mode));
	printf("engine: %s\n", check_engine_name(r->engine));
	printf("states: %" PRIu64 "\n", r->states);
	printf("transitions: %" PRIu64 "\n", r->transitions);
	printf("time: %.3f s\n", r->time_s);
	printf("states per second: %.0f\n", rate);
	printf("state vector: %u bytes\n", r->state_bytes);
	if (r->states > 0 && r->engine != ENGINE_KAHN)
		printf("memory per state: %.1f bytes\n",
		    (double)r->peak_bytes / (double)r->states);
}

/* Whether the file is an IR model: --ir, or its name ends in ".ir". */
static int
is_ir(const struct cmd_verify_opts *o)
{
	const char	*path = o->script.path;
	size_t		 len = strlen(path);

	return o->ir || (len > 3 && strcmp(path + len - 3, ".ir") == 0);
}

/* Print the summary line, the violations and the limits of a result (g:
 * the script's model, NULL for an IR model). */
static void
print_result(const struct cmd_verify_opts *o, const struct pcg *g,
    const struct verify_result *res)
{
	const struct mode_result *r = res->mode;
	char			 pn[PCG_NAME_MAX];
	int64_t			 np;
	char			*sym;
	int			 i;

	cli_print_violations(stdout, res, o->search.full);
	if (res->hazard)
		printf("%s: buffering hazard: correct only while MPI buffers "
		    "%s (verified in buffered mode, %s in synchronous mode)\n",
		    res->name, res->buffered, vkind_name(r[1].viol->kind));
	for (i = 0; i < res->nmodes; i++)
		cli_print_incomplete(res->name, &r[i]);
	printf("%s: %s (", res->name, verdict_name(res->verdict));
	if (g != NULL && pcg_np_differs(g, &np))
		printf("%s; ", pcg_nprocs_text(g, pn, sizeof(pn)));
	for (i = 0; i < res->nmodes; i++)
		printf("%s%s: %s, %" PRIu64 " state%s, %" PRIu64 " transition%s",
		    i > 0 ? "; " : "", check_mode_name(r[i].mode),
		    r[i].viol != NULL ? vkind_name(r[i].viol->kind) :
		    verdict_name(r[i].verdict), r[i].states,
		    r[i].states == 1 ? "" : "s", r[i].transitions,
		    r[i].transitions == 1 ? "" : "s");
	printf(") in %.2f s", res->time_s);
	sym = symmetry_text(res);
	if (sym != NULL)
		printf("; symmetry: %s", sym);
	putchar('\n');
	free(sym);
	if (o->stats)
		for (i = 0; i < res->nmodes; i++)
			print_stats(&r[i]);
}

/* 'verify' of an IR model (grammar/ir.h): its net explored per mode
 * (mpnet/irnet.c); with --exact, also what it found in the thesis's
 * terms. */
static int
verify_ir(const struct cmd_entry *self, struct cmd_verify_opts *o)
{
	struct diag		*d = diag_new(stderr);
	struct source		*src;
	struct ir		*ir = NULL;
	struct verify_opts	 vo;
	struct verify_result	 res;
	struct irnet_thesis	 th[CHECK_MODES];
	char			*cause = NULL, *name, *dot;
	const char		*path = o->script.path, *base;
	int			 rc, i, k;

	memset(&res, 0, sizeof(res));
	memset(th, 0, sizeof(th));
	if (o->explain != NULL) {
		fprintf(stderr, "ensemble verify: --explain draws scripts' "
		    "graphs, not IR models\n");
		cli_usage(stderr, self);
		diag_free(d);
		return EXIT_BADINPUT;
	}
	if ((src = diag_load(d, path, &cause)) == NULL) {
		fprintf(stderr, "ensemble: %s\n", cause);
		free(cause);
		diag_free(d);
		return EXIT_BADINPUT;
	}
	if ((ir = ir_parse(d, src)) == NULL) {
		diag_summary(d);
		diag_free(d);
		return EXIT_BADINPUT;
	}
	base = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 : path;
	name = xstrdup(base);
	if ((dot = strrchr(name, '.')) != NULL && dot != name)
		*dot = '\0';
	cli_verify_opts(&o->search, o->exact, &vo);
	irnet_verify(ir, name, &vo, &res, th);
	rc = res.status;
	if (o->json)
		print_json(NULL, &res);
	else {
		print_result(o, NULL, &res);
		for (i = 0; o->exact && i < res.nmodes; i++) {
			if (th[i].nterminal > 0)
				printf("%s: %" PRIu64 " terminal marking%s with tokens "
				    "outside End (%s mode), the first: %s\n", name,
				    th[i].nterminal, th[i].nterminal == 1 ? "" : "s",
				    check_mode_name(res.mode[i].mode), th[i].terminal);
			if (th[i].ndead > 0) {
				printf("%s: %d operation%s never fire%s (%s mode):",
				    name, th[i].ndead, th[i].ndead == 1 ? "" : "s",
				    th[i].ndead == 1 ? "s" : "",
				    check_mode_name(res.mode[i].mode));
				for (k = 0; k < th[i].ndead; k++) {
					const struct ir_op *op = &ir->ops[th[i].dead[k]];

					printf("%s 0x%04" PRIx64 " %s (%s:%d:%d)",
					    k > 0 ? "," : "", op->id,
					    ir_kind_name(op->kind), ir->file,
					    op->loc.first_line, op->loc.first_column);
				}
				printf("\n");
			}
		}
	}
	for (i = 0; i < res.nmodes; i++)
		irnet_thesis_free(&th[i]);
	verify_result_free(&res);
	free(name);
	ir_free(ir);
	diag_free(d);
	return rc;
}

/* --from-code: each process's behaviour read from its code (the
 * declared one kept, and said, where no source is found), then the net
 * compiled from those.  0, or -1 after the errors were said. */
static int
from_code(struct cmd_verify_opts *o, struct frontend *fe, struct diag *d)
{
	struct codecheck	*cc;
	struct pcg		*g = fe->pcg;
	char			 pn[PCG_NAME_MAX];
	int			 i;

	if (cli_codecheck(g, &o->script.pcg, &o->sources, &o->flags, d, NULL,
	    CLI_CC_INFER, &cc) != 0) {
		codecheck_free(cc);
		diag_summary(d);
		return -1;
	}
	codecheck_use(cc);
	for (i = 0; i < g->nprocs; i++)
		if (cc->procs[i].src < 0 && g->procs[i].has_behaviour)
			fprintf(stderr, "ensemble: %s: %s: %s: its declared behaviour "
			    "stands in\n", g->name, pcg_proc_name(g, i, pn,
			    sizeof(pn)), cc->procs[i].why);
	codecheck_free(cc);
	if (cli_resume(fe, &o->script.pcg, FRONTEND_COMPILE, d) != 0)
		return -1;
	return 0;
}

static int
cmd_verify_exec(const struct cmd_entry *self, int argc, char **argv)
{
	struct cmd_verify_opts	 o;
	struct verify_opts	 vo;
	struct verify_result	 res;
	const struct mode_result *r = res.mode;
	struct frontend		 fe;
	struct diag		*d;
	struct pcg		*g;
	struct mpnet		*net;
	int			 rc, i;

	if ((rc = cli_parse(self, argc, argv, &o, sizeof(o))) >= 0)
		return rc;
	memset(&res, 0, sizeof(res));
	if (o.from_code && is_ir(&o)) {
		fprintf(stderr, "ensemble verify: --from-code reads a script's "
		    "components, not an IR model\n");
		cli_usage(stderr, self);
		cli_opts_free(self, &o);
		return EXIT_BADINPUT;
	}
	if (is_ir(&o)) {
		rc = verify_ir(self, &o);
		cli_opts_free(self, &o);
		return cli_exit(rc);
	}
	if (o.explain != NULL && explain_format(o.explain) < 0) {
		fprintf(stderr, "ensemble verify: cannot tell the format of '%s' "
		    "(name it .svg, .png, .pdf, .dot or .html)\n", o.explain);
		cli_usage(stderr, self);
		cli_opts_free(self, &o);
		return EXIT_BADINPUT;
	}
	d = diag_new(stderr);
	o.script.pcg.skip_exec_check = 1;
	if (o.from_code) {
		if (cli_load(&o.script, FRONTEND_EXPAND, d, &fe) != 0 ||
		    from_code(&o, &fe, d) != 0) {
			rc = EXIT_BADINPUT;
			goto out;
		}
	} else if (cli_load(&o.script, FRONTEND_COMPILE, d, &fe) != 0) {
		rc = EXIT_BADINPUT;
		goto out;
	} else if (o.sources.n > 0 || o.flags.n > 0) {
		fprintf(stderr, "ensemble verify: %s is for --from-code\n",
		    o.sources.n > 0 ? "--source" : "a compiler flag after '--'");
		cli_usage(stderr, self);
#ifdef ENS_FREE_AT_EXIT
		frontend_free(&fe);
#endif
		rc = EXIT_BADINPUT;
		goto out;
	}
	g = fe.pcg;
	net = fe.net;
	cli_verify_opts(&o.search, o.exact, &vo);
	vo.no_symmetry = o.no_symmetry;
	mpnet_verify(net, &vo, &res);
	rc = res.status;
	if (o.json)
		print_json(g, &res);
	else
		print_result(&o, g, &res);
	if (o.explain != NULL) {
		for (i = 0; i < res.nmodes && r[i].viol == NULL; i++)
			;
		if (i == res.nmodes)
			fprintf(stderr, "ensemble: nothing to explain: no violation, "
			    "'%s' not written\n", o.explain);
		else {
			char	*cause = NULL;

			/* A violation was found: the exit status says so
			 * whether or not it can be drawn. */
			if (explain_draw(net, &r[i], o.explain, &cause) != 0) {
				fprintf(stderr, "ensemble: cannot write '%s': %s\n",
				    o.explain, cause);
				free(cause);
			}
		}
	}
out:
	verify_result_free(&res);
	mpnet_free(fe.net);
#ifdef ENS_FREE_AT_EXIT
	pcg_free(fe.pcg);
#endif
	diag_free(d);
	cli_opts_free(self, &o);
	return cli_exit(rc);
}

static const struct cli_option cmd_verify_options[] = {
	CLI_OPTIONS_SCRIPT(struct cmd_verify_opts, script),
	CLI_OPTION_SEND_MODE(struct cmd_verify_opts, search.send_modes,
	    cli_send_modes,
	    "how standard sends behave: both (default), buffered\n"
	    "or synchronous"),
	{ .type = CLI_FLAG, .name = "--exact",
	  .off = offsetof(struct cmd_verify_opts, exact),
	  .help = "explore every interleaving (no reductions); of an IR\n"
	    "model, the thesis's net, reported in its terms too" },
	{ .type = CLI_FLAG, .name = "--no-symmetry",
	  .off = offsetof(struct cmd_verify_opts, no_symmetry),
	  .help = "reduce without the symmetry of interchangeable\n"
	    "processes (the stubborn sets only)" },
	{ .type = CLI_FLAG, .name = "--ir",
	  .off = offsetof(struct cmd_verify_opts, ir),
	  .help = "read SCRIPT as a CPN IR model (Krabbe 2023), as\n"
	    "for a name ending in .ir" },
	CLI_OPTIONS_SEARCH(struct cmd_verify_opts, search),
	{ .type = CLI_FLAG, .name = "--json",
	  .off = offsetof(struct cmd_verify_opts, json),
	  .help = "print the result as one JSON object" },
	{ .type = CLI_FLAG, .name = "--stats",
	  .off = offsetof(struct cmd_verify_opts, stats),
	  .help = "print states, transitions, time and memory per mode" },
	{ .type = CLI_STRING, .name = "--explain", .arg = "FILE",
	  .off = offsetof(struct cmd_verify_opts, explain),
	  .needs = "a file name",
	  .help = "on a violation, draw the graph with each process\n"
	    "coloured by its state at the end (.svg, .png, .dot),\n"
	    "or (.html) the counterexample as a timeline page" },
	{ .type = CLI_FLAG, .name = "--from-code",
	  .off = offsetof(struct cmd_verify_opts, from_code),
	  .help = "verify each process's behaviour as read from its\n"
	    "code (ensemble infer), not the declared one" },
	{ .type = CLI_LIST, .name = "--source", .arg = "COMP=FILE",
	  .off = offsetof(struct cmd_verify_opts, sources),
	  .needs = "COMPONENT=FILE",
	  .help = "the source of a component's processes (--from-code)" },
	{ .type = CLI_REST, .arg = "COMPILER-FLAG...",
	  .off = offsetof(struct cmd_verify_opts, flags) },
	{ CLI_END }
};

const struct cmd_entry cmd_verify_entry = {
	.name = "verify",
	.args = "SCRIPT",
	.summary = "Model-check the script's communication for deadlocks and "
	    "unmatched messages.",
	.options = cmd_verify_options,
	.help =
	    "Exit status: 0 verified, 1 a property violated, 2 bad input or usage,\n"
	    "3 incomplete (a state, memory or time limit was reached).\n",
	.exec = cmd_verify_exec,
};
