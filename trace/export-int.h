/* export-int.h -- inside libexport: what an exporter is, for the table of
 * them in export.c (the front of export.h) and for the exporters written
 * in files of their own (export-otf2.c).  Not for export.h's callers. */
#ifndef ENS_EXPORT_INT_H
#define ENS_EXPORT_INT_H

#include "export.h"

/* One format: its name, the endings of a path that name it, whether this
 * build writes it, and its writer (export_trace's contract, *st zeroed and
 * *cause NULL before the call). */
struct exporter {
	const char	*name;		/* --format's: "otf2" */
	const char	*exts[3];	/* without the dot, NULL-ended */
	int		(*available)(void);	/* NULL: always */
	int		(*write)(struct trace_reader *,
			    const struct export_opts *, struct export_stats *,
			    char **cause);
};

/* OTF2 (export-otf2.c). */
extern const struct exporter export_otf2;

#endif
