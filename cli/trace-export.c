/* trace-export.c -- 'ensemble trace export TRACE --format F -o PATH': the
 * trace in another tool's format (trace/export.h): an OTF2 archive
 * (Vampir, Score-P's tools), GXL (MTF's carrier), Chrome's trace-event
 * JSON (Perfetto) or the timeline viewer's self-contained HTML page. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd-trace.h"
#include "export.h"

/* The page shows at most this many events unless --max-events says. */
#define EXPORT_HTML_MAX	200000

static int
trace_export_exec(const struct cmd_entry *self, int argc, char **argv)
{
	struct cli_opts		 o;
	struct trace_reader	*r = NULL;
	struct export_opts	 xo;
	struct export_stats	 st;
	char			*cause = NULL;
	int			 rc, fmt;

	if ((rc = cli_parse(self, argc, argv, &o)) >= 0)
		return rc;
	rc = EXIT_BADINPUT;
	if (o.format == NULL || o.output == NULL) {
		fprintf(stderr, "ensemble trace export: %s\n", o.format == NULL ?
		    "--format is needed (otf2, gxl, chrome or html)" :
		    "-o is needed (a file, or - for stdout)");
		cli_usage(stderr, self);
		goto out;
	}
	if ((fmt = export_format_of(o.format)) < 0) {
		fprintf(stderr, "ensemble trace export: unknown format '%s' "
		    "(otf2, gxl, chrome or html)\n", o.format);
		cli_usage(stderr, self);
		goto out;
	}
	if (fmt == EXPORT_OTF2 && !export_have_otf2()) {
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
	if ((r = cli_trace_open(o.script)) == NULL)
		goto out;
	memset(&xo, 0, sizeof(xo));
	xo.format = (enum export_format)fmt;
	xo.path = o.output;
	xo.max_events = o.max_events > 0 ? (size_t)o.max_events : EXPORT_HTML_MAX;
	if (export_trace(r, &xo, &st, &cause) != 0) {
		if (strstr(cause, ": error: ") != NULL)	/* the reader's */
			fprintf(stderr, "%s\n", cause);
		else
			fprintf(stderr, "ensemble: %s\n", cause);
		free(cause);
		goto out;
	}
	if (fmt == EXPORT_HTML && st.shown < st.events)
		fprintf(stderr, "ensemble trace export: the page shows the first "
		    "%lu of %lu events (--max-events)\n", st.shown, st.events);
	rc = 0;
out:
	trace_close(r);
	cli_opts_free(&o);
	return cli_exit(rc);
}

static const struct cli_option trace_export_options[] = {
	{ .type = CLI_STRING, .name = "--format", .arg = "F",
	  .flags = CLI_REQUIRED, .off = CLI_OFF(format), .needs = "a format",
	  .help = "otf2 (an OTF2 archive: Vampir, Score-P), gxl (MTF in\n"
	    "GXL), chrome (trace-event JSON: Perfetto) or html (the\n"
	    "timeline viewer, one self-contained page)" },
	CLI_OPTION_OUTPUT("where to write: a file, - for stdout; for otf2\n"
	    "DIR/NAME.otf2 (or a directory, which gets traces.otf2)"),
	{ .type = CLI_COUNT, .name = "--max-events", .arg = "N",
	  .off = CLI_OFF(max_events), .needs = "a number",
	  .bad = "--max-events needs a positive whole number",
	  .help = "html: show at most the first N events (default 200000)" },
	{ .type = CLI_HELP, .name = "-h", .alias = "--help",
	  .help = "show this help" },
	{ CLI_END }
};

const struct cmd_entry trace_export_entry = {
	.name = "trace export",
	.args = "TRACE",
	.summary = "The trace as OTF2, GXL, Chrome JSON or a timeline page.",
	.options = trace_export_options,
	.operand = "trace",
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
