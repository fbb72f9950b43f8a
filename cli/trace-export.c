/* trace-export.c -- 'ensemble trace export TRACE [--format F] -o PATH':
 * the trace in another tool's format, by default the one PATH's ending
 * names (trace/export.h): an OTF2 archive (Vampir, Score-P's tools), GXL
 * (MTF's carrier), Chrome's trace-event JSON (Perfetto) or the timeline
 * viewer's self-contained HTML page.
 *
 * For the page, each call's tooltip names the script statements it can
 * have come from: the script the trace names, expanded with the trace's
 * parameters, gives each process its behaviour, whose statements of the
 * call's kind, mode and port are the candidates (trace/ knows nothing of
 * scripts, so this lives here and reaches the export as a callback). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd-trace.h"
#include "diag.h"
#include "export.h"
#include "xmalloc.h"

/* The page shows at most this many events unless --max-events says. */
#define EXPORT_HTML_MAX	200000

/* The script of a trace, for naming statements; its diag holds the
 * sources the statements' locations name. */
struct xs {
	struct pcg	*g;
	struct diag	*d;
	FILE		*null;
	struct buf	 b;
};

/* Load the script h names with h's parameters into x: 0, or -1 (saying
 * why on stderr) when it cannot be read or expanded. */
static int
xs_load(struct xs *x, const struct trace_hdr *h)
{
	struct cli_script s;
	struct frontend	 fe;
	struct pcg	*g = NULL;
	const char	**defs;
	char		**own;
	size_t		 k;

	if (h->script == NULL || (x->null = fopen("/dev/null", "w")) == NULL)
		return -1;
	memset(&s, 0, sizeof(s));
	s.path = h->script;
	defs = xcalloc(h->nparams + 1, sizeof(*defs));
	own = xcalloc(h->nparams + 1, sizeof(*own));
	for (k = 0; k < h->nparams; k++) {
		xasprintf(&own[k], "%s=%s", h->params[k].name, h->params[k].value);
		defs[k] = own[k];
	}
	s.pcg.defs = defs;
	s.pcg.ndefs = h->nparams;
	s.pcg.skip_exec_check = 1;
	x->d = diag_new(x->null);
	if (cli_load(&s, FRONTEND_EXPAND, x->d, &fe) == 0)
		g = fe.pcg;
	if (g != NULL && g->nprocs != h->nprocs) {
		pcg_free(g);
		g = NULL;
	}
	if (g == NULL)
		fprintf(stderr, "ensemble trace export: the script '%s' of the "
		    "trace cannot be read as it ran: no statements in the "
		    "page\n", h->script);
	for (k = 0; k < h->nparams; k++)
		free(own[k]);
	free(own);
	free(defs);
	x->g = g;
	return g != NULL ? 0 : -1;
}

/* Whether statement b of process p can make event ev. */
static int
xs_match(const struct pcg *g, int p, const struct pcg_bstmt *b,
    const struct trace_event *ev)
{
	static const enum stmt_kind colls[TRACE_NOPS] = {
		[TRACE_BARRIER] = S_BARRIER, [TRACE_BCAST] = S_BCAST,
		[TRACE_REDUCE] = S_REDUCE, [TRACE_ALLREDUCE] = S_ALLREDUCE,
		[TRACE_GATHER] = S_GATHER, [TRACE_ALLGATHER] = S_ALLGATHER,
		[TRACE_SCATTER] = S_SCATTER, [TRACE_ALLTOALL] = S_ALLTOALL,
		[TRACE_ALLGATHERV] = S_ALLGATHERV, [TRACE_GATHERV] = S_GATHERV,
		[TRACE_SCATTERV] = S_SCATTERV, [TRACE_ALLTOALLV] = S_ALLTOALLV,
		[TRACE_REDUCESCATTER] = S_REDUCESCATTER,
	};
	const struct pcg_comp	*c = &g->comps[g->procs[p].comp];
	const char		*port = ev->port, *br;
	char			 asked[PCG_NAME_MAX + 8];
	enum send_mode		 mode = ev->mode == TRACE_MODE_SYNC ? MODE_SYNC :
				    ev->mode == TRACE_MODE_BUF ? MODE_BUFFERED :
				    MODE_STANDARD;
	int			 any, t = -1, i = 0;
	size_t			 n;

	switch (ev->op) {
	case TRACE_SEND:
	case TRACE_ISEND:
		if (b->kind != (ev->op == TRACE_SEND ? S_SEND : S_ISEND) ||
		    b->mode != mode)
			return 0;
		break;
	case TRACE_RECV:
	case TRACE_IRECV:
		break;
	case TRACE_WAIT:
		return b->kind == S_WAITALL;
	case TRACE_WAITONE:
		return b->kind == S_WAIT;
	case TRACE_TEST:
	case TRACE_TESTFALSE:
		return b->kind == S_TEST;
	case TRACE_WAITANY:
		return b->kind == S_WAITANY;
	case TRACE_WAITSOME:
		return b->kind == S_WAITSOME;
	case TRACE_SENDRECV:
	case TRACE_SENDRECVREPLACE:
		if (b->kind != (ev->op == TRACE_SENDRECV ? S_SENDRECV :
		    S_SENDRECV_REPLACE))
			return 0;
		break;
	case TRACE_PROBE:
	case TRACE_IPROBE:
	case TRACE_IPROBEFALSE:
		break;
	case TRACE_INIT:
	case TRACE_FIN:
		return 0;
	default:
		return ev->op < TRACE_NOPS && b->kind == colls[ev->op];
	}
	if (port == NULL)
		return 0;
	/* A probe of any port that found: "ASKED>FOUND", the ports asked
	 * what its statement says. */
	if ((br = strchr(port, '>')) != NULL) {
		snprintf(asked, sizeof(asked), "%.*s", (int)(br - port), port);
		port = asked;
	}
	/* "Type[i]", "Type[*]" or "*". */
	any = strcmp(port, "*") == 0 || ((br = strchr(port, '[')) != NULL &&
	    strcmp(br, "[*]") == 0);
	if (strcmp(port, "*") != 0) {
		if ((br = strchr(port, '[')) == NULL)
			return 0;
		n = (size_t)(br - port);
		for (t = 0; t < c->ntypes; t++)
			if (strlen(c->types[t]) == n &&
			    strncmp(c->types[t], port, n) == 0)
				break;
		if (t == c->ntypes)
			return 0;
		if (!any)
			i = atoi(br + 1);
	}
	if (ev->op == TRACE_RECV || ev->op == TRACE_IRECV) {
		if (any)
			return b->kind == (ev->op == TRACE_RECV ? S_RECV_ANY :
			    S_IRECV_ANY) && b->type == t;
		/* 'recv m' receives on the port a probe found: any one. */
		if (b->kind == S_RECV_PROBED)
			return ev->op == TRACE_RECV;
		if (b->kind != (ev->op == TRACE_RECV ? S_RECV : S_IRECV))
			return 0;
	}
	/* A probe's port is the one asked; an iprobe's that found nothing
	 * too. */
	if (ev->op == TRACE_PROBE || ev->op == TRACE_IPROBE ||
	    ev->op == TRACE_IPROBEFALSE) {
		if (any)
			return b->kind == (ev->op == TRACE_PROBE ? S_PROBE_ANY :
			    S_IPROBE_ANY) && b->type == t;
		if (b->kind != (ev->op == TRACE_PROBE ? S_PROBE : S_IPROBE))
			return 0;
	}
	/* A sendrecv's receive line is its second port's. */
	if ((ev->op == TRACE_SENDRECV || ev->op == TRACE_SENDRECVREPLACE) &&
	    ev->mode == TRACE_MODE_NONE)
		return b->rtype == t && b->rport == i;
	return b->type == t && (b->port == 0 || b->port == i);
}

/* Statement b of process p as written, its port resolved: "send
 * Right[1]", "recv any Work", "bcast". */
static void
xs_text(struct buf *out, const struct pcg *g, int p, const struct pcg_bstmt *b)
{
	const struct pcg_comp	*c = &g->comps[g->procs[p].comp];
	const char		*type = b->type >= 0 && b->type < c->ntypes ?
				    c->types[b->type] : NULL;
	const char		*w;

	/* The script's words (pcg_stmt_word), a rooted collective's without
	 * its "from" or "to". */
	w = pcg_stmt_word(b->kind, b->mode <= MODE_BUFFERED ? b->mode :
	    MODE_STANDARD);
	buf_add(out, w, pcg_stmt_rooted(b->kind) ? strcspn(w, " ") : strlen(w));
	if (b->kind == S_RECV_PROBED)
		buf_printf(out, " %s", b->req);
	if (type == NULL || b->kind >= S_WAITALL)
		return;
	if (b->kind == S_RECV_ANY || b->kind == S_IRECV_ANY)
		buf_printf(out, " %s", type);
	else if (b->port == 0)
		buf_printf(out, " %s[*]", type);
	else
		buf_printf(out, " %s[%d]", type, b->port);
}

/* Add to x->b the statements of list b (and of the loops and choices in
 * it) that can make ev: "file:line:col", " or " between. */
static void
xs_find(struct xs *x, int p, const struct pcg_bstmt *b,
    const struct trace_event *ev)
{
	const struct pcg_bbranch	*br;
	const struct loc		*l;

	for (; b != NULL; b = b->next) {
		if (b->kind == S_LOOP)
			xs_find(x, p, b->body, ev);
		else if (b->kind == S_CHOICE)
			for (br = b->branches; br != NULL; br = br->next)
				xs_find(x, p, br->body, ev);
		/* A statement with blocks is a call itself (its own event,
		 * matched below), then its blocks. */
		if (b->kind == S_WAITANY || b->kind == S_WAITSOME)
			for (br = b->branches; br != NULL; br = br->next)
				xs_find(x, p, br->body, ev);
		else if (b->kind == S_TEST || b->kind == S_IPROBE ||
		    b->kind == S_IPROBE_ANY) {
			xs_find(x, p, b->body, ev);
			xs_find(x, p, b->orelse, ev);
		}
		if (b->kind != S_LOOP && b->kind != S_CHOICE && b->src != NULL &&
		    xs_match(x->g, p, b, ev)) {
			l = &b->src->loc;
			if (x->b.len > 0)
				buf_adds(&x->b, " or ");
			xs_text(&x->b, x->g, p, b);
			buf_printf(&x->b, " (%s:%d:%d)", l->src != NULL ?
			    l->src->name : "?", l->first_line, l->first_column);
		}
	}
}

/* export_stmt_fn: the statements the event can have come from. */
static const char *
xs_stmt(void *arg, const struct trace_hdr *h, const struct trace_event *ev)
{
	struct xs	*x = arg;

	(void)h;
	if (x->g == NULL || ev->raw || ev->rank < 0 || ev->rank >= x->g->nprocs)
		return NULL;
	buf_reset(&x->b);
	xs_find(x, ev->rank, x->g->procs[ev->rank].prog, ev);
	return x->b.len > 0 ? x->b.s : NULL;
}

/* What trace export's options say. */
struct trace_export_opts {
	const char		*trace;
	const char		*output;	/* -o */
	const char		*format;	/* --format */
	unsigned long long	 max_events;	/* --max-events */
};

/* The formats --format takes (export_format_of). */
static const char *const trace_export_formats[] = {
	"otf2", "gxl", "chrome", "html", NULL
};

static int
trace_export_exec(const struct cmd_entry *self, int argc, char **argv)
{
	struct trace_export_opts o;
	struct trace_reader	*r = NULL;
	struct export_opts	 xo;
	struct export_stats	 st;
	struct xs		 xs;
	char			*cause = NULL;
	int			 rc, fmt = -1;

	memset(&xs, 0, sizeof(xs));
	buf_init(&xs.b);
	if ((rc = cli_parse(self, argc, argv, &o, sizeof(o))) >= 0)
		return rc;
	rc = EXIT_BADINPUT;
	if (o.output == NULL) {
		fprintf(stderr, "ensemble trace export: -o is needed (a file, "
		    "or - for stdout)\n");
		cli_usage(stderr, self);
		goto out;
	}
	if (o.format == NULL) {
		if (strcmp(o.output, "-") == 0)
			fprintf(stderr, "ensemble trace export: --format is "
			    "needed for standard output (gxl, chrome or html)\n");
		else if ((fmt = export_format_of_path(o.output)) < 0)
			fprintf(stderr, "ensemble trace export: cannot tell the "
			    "format of '%s' (name it .otf2, .gxl, .json or .html, "
			    "or give --format)\n", o.output);
		if (strcmp(o.output, "-") == 0 || fmt < 0) {
			cli_usage(stderr, self);
			goto out;
		}
	} else if ((fmt = export_format_of(o.format)) < 0) {
		fprintf(stderr, "ensemble trace export: unknown format '%s' "
		    "(otf2, gxl, chrome or html)\n", o.format);
		cli_usage(stderr, self);
		goto out;
	}
	if (fmt == EXPORT_OTF2 && !export_available(EXPORT_OTF2)) {
		fprintf(stderr, "ensemble trace export: this ensemble was built "
		    "without OTF2 (install libopen-trace-format2-dev and "
		    "configure again)\n");
		goto out;
	}
	if (fmt == EXPORT_OTF2 && strcmp(o.output, "-") == 0) {
		fprintf(stderr, "ensemble trace export: an OTF2 archive is files "
		    "in a directory, not standard output: give -o DIR/NAME.otf2\n");
		goto out;
	}
	if ((r = cli_trace_open(o.trace)) == NULL)
		goto out;
	memset(&xo, 0, sizeof(xo));
	xo.format = (enum export_format)fmt;
	xo.path = o.output;
	xo.max_events = o.max_events > 0 ? (size_t)o.max_events : EXPORT_HTML_MAX;
	if (fmt == EXPORT_HTML && xs_load(&xs, trace_header(r)) == 0) {
		xo.stmt = xs_stmt;
		xo.stmt_arg = &xs;
	}
	if (export_trace(r, &xo, &st, &cause) != 0) {
		if (strstr(cause, ": error: ") != NULL)	/* the reader's */
			fprintf(stderr, "%s\n", cause);
		else
			fprintf(stderr, "ensemble: %s\n", cause);
		free(cause);
		goto out;
	}
	if (st.wrote != NULL) {
		fprintf(stderr, "ensemble trace export: %s\n", st.wrote);
		free(st.wrote);
	}
	if (fmt == EXPORT_HTML && st.shown < st.events)
		fprintf(stderr, "ensemble trace export: the page shows the first "
		    "%lu of %lu events (--max-events)\n", st.shown, st.events);
	rc = 0;
out:
	trace_close(r);
#ifdef ENS_FREE_AT_EXIT
	pcg_free(xs.g);
#endif
	if (xs.d != NULL)
		diag_free(xs.d);
	if (xs.null != NULL)
		fclose(xs.null);
	buf_free(&xs.b);
	cli_opts_free(self, &o);
	return cli_exit(rc);
}

static const struct cli_option trace_export_options[] = {
	{ .type = CLI_OPERAND, .arg = "trace",
	  .off = offsetof(struct trace_export_opts, trace) },
	{ .type = CLI_STRING, .name = "--format", .arg = "F",
	  .off = offsetof(struct trace_export_opts, format), .needs = "a format",
	  .values = trace_export_formats,
	  .help = "otf2 (an OTF2 archive: Vampir, Score-P), gxl (MTF in\n"
	    "GXL), chrome (trace-event JSON: Perfetto) or html (the\n"
	    "timeline viewer, one self-contained page); by default\n"
	    "the ending of -o's file: .otf2, .gxl, .json, .html" },
	CLI_OPTION_OUTPUT(struct trace_export_opts, output,
	    "where to write: a file, - for stdout; for otf2\n"
	    "DIR/NAME.otf2 (or a directory, which gets traces.otf2)"),
	{ .type = CLI_COUNT, .name = "--max-events", .arg = "N",
	  .off = offsetof(struct trace_export_opts, max_events),
	  .needs = "a number",
	  .bad = "--max-events needs a positive whole number",
	  .help = "html: show at most the first N events (default 200000)" },
	CLI_OPTION_HELP,
	{ CLI_END }
};

const struct cmd_entry trace_export_entry = {
	.name = "trace export",
	.args = "TRACE",
	.summary = "The trace as OTF2, GXL, Chrome JSON or a timeline page.",
	.options = trace_export_options,
	.help =
	    "otf2: a location per process, MPI_COMM_WORLD over the world ranks,\n"
	    "each call a region with its MPI send, receive or collective records.\n"
	    "gxl: MTF's scenario, trace, processors, processes, communicators,\n"
	    "operations and messages as GXL nodes and edges.  chrome: a process\n"
	    "per rank, a complete event per call, a flow per message.  html: a\n"
	    "lane per process, a box per call, an arrow per message; wheel zooms,\n"
	    "drag pans, hovering shows a call's port, peer, bytes and times.\n",
	.exec = trace_export_exec,
};
