/* cmd-trace.h -- what 'ensemble trace' (cli/cmd-trace.c) shares with its
 * subcommands, each a struct cmd_entry of its own in cli/trace-NAME.c,
 * listed in cmd-trace.c's trace_table. */
#ifndef ENS_CMD_TRACE_H
#define ENS_CMD_TRACE_H

#include "trace.h"

struct cmd_entry;

extern const struct cmd_entry trace_stats_entry;
extern const struct cmd_entry trace_messages_entry;
extern const struct cmd_entry trace_query_entry;
extern const struct cmd_entry trace_check_entry;
extern const struct cmd_entry trace_export_entry;

/* The subcommand named name ("stats"), or NULL. */
const struct cmd_entry *cli_trace_find(const char *name);

/* Open a trace for a subcommand: the reader, or NULL after printing why
 * on stderr (the caller exits EXIT_BADINPUT). */
struct trace_reader *cli_trace_open(const char *path);
/* Print a reader's cause on stderr and free it: EXIT_BADINPUT. */
int cli_trace_fail(char *cause);
/* The rank of the process s names in h: its name as in the script
 * ("node[2]") or its rank; -1 if none. */
int cli_trace_process(const struct trace_hdr *h, const char *s);

/* Take a subcommand's first operand, the trace (it must come first), out
 * of argv, so that cli_parse sees the second as its one operand; NULL
 * when the first argument is an option. */
const char *cli_trace_first(int *argc, char ***argv);

#endif
