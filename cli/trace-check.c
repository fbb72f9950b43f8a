/* trace-check.c -- 'ensemble trace check': the script expanded as the run
 * expanded it (the trace's parameters), then the check's findings and
 * verdict printed.  Whether the run kept to its script is decided by
 * trace/conform.c (conform.h); this file only loads and prints. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd-trace.h"
#include "conform.h"
#include "parse.h"
#include "trace.h"
#include "xmalloc.h"

/* A time from time zero (trace_rebase), ns, as the trace writes times: a
 * sign, seconds and nanoseconds, for "%s%lld.%09lld". */
#define TS(t)	(t) < 0 ? "-" : "", \
		(long long)(llabs(t) / 1000000000), \
		(long long)(llabs(t) % 1000000000)

/* "relay[2].Prop[1]": a channel's end, in buf. */
static const char *
end_text(const struct pcg *g, const struct pcg_end *e, char *buf, size_t len)
{
	char	name[PCG_NAME_MAX];

	snprintf(buf, len, "%s.%s[%d]", pcg_proc_name(g, e->proc, name,
	    sizeof(name)), g->comps[g->procs[e->proc].comp].types[e->type],
	    e->port);
	return buf;
}

/* Print the findings: each process's first divergence and first message
 * off its channels, the processes not replayed, the channels used and
 * never used, the pairs that talked without a channel, and the verdict
 * line.  0 conforming, 1 not. */
static int
trace_check_print(const struct conform *c, const struct pcg *g, FILE *out)
{
	char		 a[2 * PCG_NAME_MAX], b[2 * PCG_NAME_MAX];
	const struct pcg_chan *ch;
	size_t		 i;
	int		 r;

	/* The behaviours. */
	for (r = 0; r < c->nprocs; r++) {
		const struct conform_proc *cp = &c->procs[r];

		if (cp->div == CONFORM_DIVERGED)
			fprintf(out, "%s: operation %lu (t=%s%lld.%09lld, trace "
			    "line %lu): %s\n", cp->name, cp->div_op,
			    TS(cp->div_t), cp->div_line, cp->div_why);
		else if (cp->div == CONFORM_UNFINISHED)
			fprintf(out, "%s: the trace ends after operation %lu, "
			    "before its ens_finalize\n", cp->name, cp->ops);
		if (cp->off == CONFORM_NO_CHANNEL)
			fprintf(out, "%s: message to %s (t=%s%lld.%09lld, trace "
			    "line %lu) sent on '%s', which no channel connects\n",
			    cp->name, c->procs[cp->off_peer].name, TS(cp->off_t),
			    cp->off_line, cp->off_port);
		else if (cp->off == CONFORM_ELSEWHERE)
			fprintf(out, "%s: message to %s (t=%s%lld.%09lld, trace "
			    "line %lu) sent on '%s', whose channel leads to %s\n",
			    cp->name, c->procs[cp->off_peer].name, TS(cp->off_t),
			    cp->off_line, cp->off_port, end_text(g, &cp->off_to,
			    a, sizeof(a)));
	}
	for (r = 0; r < c->nprocs; r++)
		if (!c->procs[r].replayed)
			fprintf(out, "%s: not replayed (%s has no BEHAVIOUR)\n",
			    c->procs[r].name,
			    g->comps[g->procs[c->procs[r].proc].comp].name);

	/* The graph: channels, then pairs without one. */
	for (i = 0; i < (size_t)g->nchans; i++) {
		ch = &g->chans[i];
		end_text(g, &ch->e[0], a, sizeof(a));
		end_text(g, &ch->e[1], b, sizeof(b));
		if (c->chan_msgs[i] > 0)
			fprintf(out, "channel %s <-> %s: %" PRIu64 " message%s\n",
			    a, b, c->chan_msgs[i], c->chan_msgs[i] == 1 ? "" : "s");
		else
			fprintf(out, "channel %s <-> %s: never used\n", a, b);
	}
	for (i = 0; i < c->npairs; i++) {
		const struct conform_pair *pp = &c->pairs[i];

		if (pp->joined)
			continue;
		fprintf(out, "no channel %s -> %s: %" PRIu64 " message%s",
		    c->procs[pp->src].name, c->procs[pp->dst].name, pp->n,
		    pp->n == 1 ? "" : "s");
		if (pp->raw > 0)
			fprintf(out, " (%" PRIu64 " raw)", pp->raw);
		fputc('\n', out);
	}
	if (c->conforming) {
		fprintf(out, "conforming: %" PRIu64 " message%s on %d of %d "
		    "channel%s\n", c->messages, c->messages == 1 ? "" : "s",
		    c->used, g->nchans, g->nchans == 1 ? "" : "s");
		return 0;
	}
	fprintf(out, "not conforming:");
	if (c->diverged > 0)
		fprintf(out, " %d process%s left %s behaviour%s", c->diverged,
		    c->diverged == 1 ? "" : "es", c->diverged == 1 ? "its" :
		    "their", c->offchan > 0 || c->unjoined > 0 ? "," : "");
	if (c->offchan > 0)
		fprintf(out, " %d process%s sent off %s channels%s", c->offchan,
		    c->offchan == 1 ? "" : "es", c->offchan == 1 ? "its" :
		    "their", c->unjoined > 0 ? "," : "");
	if (c->unjoined > 0)
		fprintf(out, " %" PRIu64 " message%s between processes "
		    "without a channel", c->unjoined, c->unjoined == 1 ? "" : "s");
	fputc('\n', out);
	return 1;
}

/* The header's value of parameter name, or NULL. */
static const char *
hdr_param(const struct trace_hdr *h, const char *name)
{
	size_t	k;

	for (k = 0; k < h->nparams; k++)
		if (strcmp(h->params[k].name, name) == 0)
			return h->params[k].value;
	return NULL;
}

/* The script as the run expanded it: each parameter the command line
 * does not set takes its value from the trace's header; one the command
 * line sets to another value than the run's is an error that names it
 * (printed; NULL).  The script is parsed once and its parameters read
 * from it, so the header's parameters it lacks are left out. */
static struct pcg *
load_as_run(struct cli_script *o, const struct trace_hdr *h, struct diag *d)
{
	struct pcg_opts		 pcgo = o->pcg;
	const struct item	*it;
	struct frontend		 fe;
	struct ast		*ast;
	struct pcg		*g = NULL;
	const char		**defs, *hv;
	char			**own, *text;
	size_t			 k, n, nown = 0, len;
	int			 given, differ = 0;

	if (cli_load(o, FRONTEND_PARSE, d, &fe) != 0)
		return NULL;
	ast = fe.ast;
	n = o->pcg.ndefs;
	for (it = ast->items; it != NULL; it = it->next) {
		if (it->kind == I_SCALE || it->kind == I_PARAM)
			n++;
		if (it->kind == I_APPLICATION && h->application != NULL &&
		    strcmp(it->name, h->application) != 0) {
			fprintf(stderr, "ensemble trace check: the trace is a run "
			    "of '%s' (%s), the script is '%s'\n", h->application,
			    h->script != NULL ? h->script : "-", it->name);
			frontend_free(&fe);
			return NULL;
		}
	}
	defs = xcalloc(n + 1, sizeof(*defs));
	own = xcalloc(n + 1, sizeof(*own));
	for (k = 0; k < o->pcg.ndefs; k++)
		defs[k] = o->pcg.defs[k];
	n = o->pcg.ndefs;
	for (it = ast->items; it != NULL; it = it->next) {
		if (it->kind != I_SCALE && it->kind != I_PARAM)
			continue;
		given = it->kind == I_SCALE && o->pcg.np_set;
		len = strlen(it->name);
		for (k = 0; k < o->pcg.ndefs && !given; k++)
			given = strncmp(o->pcg.defs[k], it->name, len) == 0 &&
			    o->pcg.defs[k][len] == '=';
		if (given || (hv = hdr_param(h, it->name)) == NULL)
			continue;
		xasprintf(&own[nown], "%s=%s", it->name, hv);
		defs[n++] = own[nown++];
	}
	pcgo.defs = defs;
	pcgo.ndefs = n;
	if (cli_resume(&fe, &pcgo, FRONTEND_EXPAND, d) != 0)
		goto out;
	g = fe.pcg;
	/* What the command line set, against the run's. */
	for (k = 0; k < (size_t)g->nparams; k++) {
		const struct pcg_param	*p = &g->params[k];

		if (p->from == PCG_FROM_DEFAULT ||
		    (hv = hdr_param(h, p->name)) == NULL)
			continue;
		text = pcg_param_text(p);
		if (strcmp(text, hv) != 0) {
			if (p->from == PCG_FROM_NP)
				fprintf(stderr, "ensemble trace check: -np %s "
				    "differs from the run's: %s=%s (leave -np out: "
				    "the trace gives the run's parameters)\n",
				    text, p->name, hv);
			else
				fprintf(stderr, "ensemble trace check: -D %s=%s "
				    "differs from the run's: %s=%s (leave it out: "
				    "the trace gives the run's parameters)\n",
				    p->name, text, p->name, hv);
			differ++;
		}
		free(text);
	}
	if (differ > 0) {
		pcg_free(g);
		g = NULL;
	}
out:
	for (k = 0; k < nown; k++)
		free(own[k]);
	free(own);
	free(defs);
	return g;
}

/* What trace check's options say (the trace comes first, taken by
 * cli_trace_first). */
struct trace_check_opts {
	struct cli_script	 script;
};

static int
trace_check_exec(const struct cmd_entry *self, int argc, char **argv)
{
	struct trace_check_opts	 o;
	struct trace_reader	*r = NULL;
	struct diag		*d = NULL;
	struct pcg		*g = NULL;
	struct conform		*c = NULL;
	const char		*path;
	char			*cause = NULL;
	int			 rc;

	if (argc < 2) {
		fprintf(stderr, "ensemble trace check: no trace given\n");
		cli_usage(stderr, self);
		return EXIT_BADINPUT;
	}
	path = cli_trace_first(&argc, &argv);
	if ((rc = cli_parse(self, argc, argv, &o, sizeof(o))) >= 0)
		return rc;
	rc = EXIT_BADINPUT;
	if (path == NULL) {
		fprintf(stderr, "ensemble trace check: no trace given (it comes "
		    "first)\n");
		cli_usage(stderr, self);
		goto out;
	}
	/* The run is over: where the executables are does not matter. */
	o.script.pcg.skip_exec_check = 1;
	if ((r = cli_trace_open(path)) == NULL)
		goto out;
	d = diag_new(stderr);
	if ((g = load_as_run(&o.script, trace_header(r), d)) == NULL)
		goto out;
	switch (conform_check(r, g, &c, &cause)) {
	case CONFORM_DONE:
		rc = trace_check_print(c, g, stdout);
		break;
	case CONFORM_NOT_A_RUN:
		fprintf(stderr, "ensemble trace check: %s\n", cause);
		free(cause);
		break;
	case CONFORM_BAD_TRACE:
		rc = cli_trace_fail(cause);
		break;
	}
out:
	conform_free(c);
	if (r != NULL)
		trace_close(r);
	pcg_free(g);
	diag_free(d);
	cli_opts_free(self, &o);
	return cli_exit(rc);
}

static const struct cli_option trace_check_options[] = {
	CLI_OPTIONS_SCRIPT(struct trace_check_opts, script),
	{ CLI_END }
};

const struct cmd_entry trace_check_entry = {
	.name = "trace check",
	.args = "TRACE SCRIPT",
	.summary = "Whether a traced run kept to its script's channels and behaviours.",
	.options = trace_check_options,
	.help =
	    "The script is expanded with the run's parameters, from the trace;\n"
	    "an -np or -D that differs from the run's is named.  Prints each\n"
	    "process's first operation its BEHAVIOUR does not allow and its\n"
	    "first message off its channels, then each channel's messages (or\n"
	    "'never used'), the pairs that talked without a channel, and the\n"
	    "verdict.  Exit status: 0 conforming, 1 not, 2 a bad trace or\n"
	    "script, a trace of another script, or an -np or -D not the run's.\n",
	.exec = trace_check_exec,
};
