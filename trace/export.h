/* export.h -- a trace (trace.h) in other tools' formats: OTF2 (the
 * archive Vampir and Score-P read, with libotf2), GXL (the carrier the MTF
 * paper proposes), Chrome's trace-event JSON (Perfetto) and the timeline
 * viewer's HTML page (common/timeline.h).  Each reads the events one by
 * one; memory grows only with the messages and requests still open (and,
 * for the page, with the events it shows, at most max_events). */
#ifndef ENS_EXPORT_H
#define ENS_EXPORT_H

#include <stddef.h>

#include "trace.h"

enum export_format { EXPORT_OTF2, EXPORT_GXL, EXPORT_CHROME, EXPORT_HTML };

/* The format named s ("otf2", "gxl", "chrome", "html"), or -1. */
int export_format_of(const char *s);
/* The format a path's ending says (.otf2, .gxl, .json, .html or .htm, in
 * any case), or -1. */
int export_format_of_path(const char *path);
/* Whether this build can write fmt (OTF2: configure found libotf2). */
int export_available(enum export_format fmt);

/* What the page shows of each event besides its fields: the script
 * statement it matched, or NULL (the caller knows the script; trace/ does
 * not).  The string is the caller's and lives until the next call. */
typedef const char *(*export_stmt_fn)(void *arg, const struct trace_hdr *,
    const struct trace_event *);

struct export_opts {
	enum export_format	 format;
	const char		*path;		/* "-": standard output (not OTF2) */
	size_t			 max_events;	/* the page shows at most this
						 * many (0: all) */
	export_stmt_fn		 stmt;		/* may be NULL */
	void			*stmt_arg;
};

/* What an export wrote. */
struct export_stats {
	unsigned long		 events;	/* read */
	unsigned long		 shown;		/* written (the page: drawn) */
	unsigned long		 messages;	/* sends matched to receives */
	char			*wrote;		/* what it wrote besides the
						 * file named, to say (the
						 * caller frees); NULL: nothing */
};

/* Read r's events to its end and write them to o->path in o->format: 0,
 * or -1 and *cause (the caller frees): the trace's own error as the
 * reader words it ("FILE:LINE: error: ..."), or what could not be written.
 * On an error, what was written is removed (a regular file, or an OTF2
 * archive's files and folder). */
int export_trace(struct trace_reader *r, const struct export_opts *o,
    struct export_stats *st, char **cause);

#endif
