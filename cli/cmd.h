/* cmd.h -- the ensemble command's subcommand table and the option parsing
 * and front end every subcommand shares. */
#ifndef ENS_CMD_H
#define ENS_CMD_H

#include <stddef.h>
#include <stdio.h>

#include "diag.h"
#include "pcg.h"

struct cli_option;

/* A subcommand: its name, what it takes, its options (parsed by
 * cli_parse, listed by cli_help and in its usage line from the same
 * declaration) and what runs it. */
struct cmd_entry {
	const char	*name;
	const char	*args;		/* after the name in the usage: "SCRIPT" */
	const char	*summary;	/* one line for 'ensemble help' */
	const struct cli_option *options; /* ends with { CLI_END }; NULL: none */
	const char	*help;		/* after the options in CMD --help */
	const char	*rest;		/* non-NULL: what follows '--' (in the
					 * usage), kept in cli_opts.rest */
	const char	*operand;	/* what the one argument is, for "no
					 * ... given"; NULL: "script" */
	int		(*exec)(const struct cmd_entry *, int, char **);
};

extern const struct cmd_entry *const cmd_table[];
const struct cmd_entry *cmd_find(const char *);

/* A list of option values (-D, -L), in the order given. */
struct cli_list {
	const char	**v;
	size_t		  n;
	size_t		  alloc;
};

/* What the options of every command store: each option's declaration
 * says which field is its. */
struct cli_opts {
	const char	*script;
	struct pcg_opts	 pcg;		/* -np; -D and -L once parsed */
	struct cli_list	 defs;		/* -D */
	struct cli_list	 dirs;		/* -L */
	/* graph, net */
	const char	*output;
	const char	*format;
	const char	*layout;
	int		 pcg_dot;
	/* net, verify, run */
	int		 send_modes;	/* bits 1 << enum check_mode; 0: not given */
	/* verify, run */
	unsigned long long max_states;
	unsigned long long max_memory_mb;
	double		 max_time;	/* seconds; 0: none */
	int		 progress;	/* -1: when stderr is a terminal */
	int		 full;		/* counterexamples unfolded */
	/* verify */
	int		 exact;
	int		 ir;		/* --ir */
	int		 json;
	int		 stats;
	const char	*explain;
	/* run */
	const char	*hostfile;
	int		 oversubscribe;
	double		 timeout;
	double		 start_timeout;
	int		 no_verify;
	int		 force;
	int		 check_protocol;
	int		 verbose;
	struct cli_list	 mca;		/* --mca: KEY, VALUE, KEY, VALUE... */
	struct cli_list	 xenv;		/* -x */
	struct cli_list	 rest;		/* after '--' (cmd_entry.rest) */
	int		 tag_output;
	const char	*output_dir;
	const char	*stdin_proc;
	const char	*trace;		/* --trace FILE */
	/* trace (cli/cmd-trace.c and its subcommands) */
	const char	*between;	/* messages --between P,Q */
	unsigned long long max_events;	/* export --max-events */
};

/* How an option's value is read, and what it stores at its 'off'. */
enum cli_otype {
	CLI_END,	/* ends a command's options */
	CLI_GROUP,	/* no option: a heading (its help) between options */
	CLI_HELP,	/* print the command's help and exit 0 */
	CLI_FLAG,	/* int: 1 (0 by the --no- form of a CLI_NEG flag) */
	CLI_STRING,	/* const char *: the value */
	CLI_LIST,	/* struct cli_list: the value added; may be repeated */
	CLI_COUNT,	/* unsigned long long: a positive whole number */
	CLI_SECONDS,	/* double: a positive number of seconds up to 'most' */
	CLI_SCALE,	/* pcg.np and pcg.np_set: a whole number */
	CLI_MODES,	/* int: the send modes a name asks for (mpnet_send_modes) */
	CLI_PAIR,	/* struct cli_list: two values (NAME KEY VALUE) added;
			 * 'arg' names both ("KEY VALUE"); may be repeated */
};

#define CLI_NEG		0x1	/* CLI_FLAG: --no-NAME clears it */
#define CLI_REQUIRED	0x2	/* shown without [ ] in the usage (the command
				 * says when it is missing) */
#define CLI_EQ		0x4	/* shown as NAME=ARG, not NAME ARG */

/* One option of a command.  A value follows its name as the next
 * argument or after '='; after a name of one dash ("-np", "-D", and its
 * one-dash alias "-n"), also attached ("-np8", "-n8", "-Lcomponents"). */
struct cli_option {
	enum cli_otype	 type;
	const char	*name;		/* "--send-mode" */
	const char	*alias;		/* another name ("--help"), or NULL */
	const char	*alias2;	/* a third ("-n" of -np), or NULL */
	const char	*arg;		/* its value in help and usage ("K");
					 * NULL: it takes none */
	int		 flags;
	size_t		 off;		/* where it stores in struct cli_opts */
	const char	*needs;		/* said when the value is missing:
					 * "'-np' needs a count" */
	const char	*bad;		/* said of a bad value; '%s': the value */
	double		 most;		/* CLI_SECONDS: the largest */
	const char	*help;		/* lines of help, '\n' between */
};

#define CLI_OFF(field)	offsetof(struct cli_opts, field)

/* The options every command that reads a script takes. */
#define CLI_OPTIONS_SCRIPT \
	{ .type = CLI_SCALE, .name = "-np", .alias = "-n", .alias2 = "--np", \
	  .arg = "K", \
	  .needs = "a count", .bad = "-np needs a whole number, not '%s'", \
	  .help = "set the script's 'scale' parameter to K" }, \
	{ .type = CLI_LIST, .name = "-D", .arg = "NAME=VALUE", \
	  .off = CLI_OFF(defs), .needs = "NAME=VALUE", \
	  .help = "set a parameter: an integer, or a string parameter's text" }, \
	{ .type = CLI_LIST, .name = "-L", .arg = "DIR", .off = CLI_OFF(dirs), \
	  .needs = "a directory", \
	  .help = "look for components' executables and includes in DIR" }, \
	{ .type = CLI_HELP, .name = "-h", .alias = "--help", \
	  .help = "show this help" }

/* The drawing options of graph and net (their help their own). */
#define CLI_OPTION_OUTPUT(h) \
	{ .type = CLI_STRING, .name = "-o", .arg = "FILE|-", \
	  .flags = CLI_REQUIRED, .off = CLI_OFF(output), \
	  .needs = "a file name (or - for stdout)", .help = (h) }
#define CLI_OPTION_FORMAT(h) \
	{ .type = CLI_STRING, .name = "-T", .arg = "FORMAT", \
	  .off = CLI_OFF(format), .needs = "a format", .help = (h) }
#define CLI_OPTION_LAYOUT(h) \
	{ .type = CLI_STRING, .name = "-K", .arg = "LAYOUT", \
	  .off = CLI_OFF(layout), .needs = "a layout engine", .help = (h) }

/* --send-mode, of net, verify and run (their help their own). */
#define CLI_OPTION_SEND_MODE(h) \
	{ .type = CLI_MODES, .name = "--send-mode", .arg = "MODE", \
	  .flags = CLI_EQ, .off = CLI_OFF(send_modes), \
	  .needs = "a mode: both, buffered or synchronous", \
	  .bad = "unknown send mode '%s' (both, buffered or synchronous)", \
	  .help = (h) }

/* The limits and output of a search, the same for verify and run. */
#define CLI_OPTIONS_SEARCH \
	{ .type = CLI_COUNT, .name = "--max-states", .arg = "N", \
	  .off = CLI_OFF(max_states), .needs = "a number", \
	  .bad = "--max-states needs a positive whole number", \
	  .help = "stop after N states (exit 3)" }, \
	{ .type = CLI_COUNT, .name = "--max-memory", .arg = "MB", \
	  .off = CLI_OFF(max_memory_mb), .needs = "a number", \
	  .bad = "--max-memory needs a positive number of megabytes", \
	  .help = "stop before the state store outgrows MB megabytes\n" \
	    "(exit 3; default: half of the memory available)" }, \
	{ .type = CLI_SECONDS, .name = "--max-time", .arg = "S", \
	  .off = CLI_OFF(max_time), .needs = "a number of seconds", \
	  .bad = "--max-time needs a positive number of seconds, not '%s'", \
	  .most = 1e9, .help = "stop after S seconds (exit 3)" }, \
	{ .type = CLI_FLAG, .name = "--progress", .flags = CLI_NEG, \
	  .off = CLI_OFF(progress), \
	  .help = "report progress on stderr once a second (default\n" \
	    "when stderr is a terminal; --no-progress: never)" }, \
	{ .type = CLI_FLAG, .name = "--full", .off = CLI_OFF(full), \
	  .help = "print every action of a counterexample (default:\n" \
	    "repeats folded when it is longer than 40 lines)" }

/* Parse argv by the command's options; prints help (exit 0) or a usage
 * error (exit 2) itself and returns that exit code (o freed), or -1 to
 * go on (the caller frees o with cli_opts_free). */
int cli_parse(const struct cmd_entry *, int, char **, struct cli_opts *);
void cli_opts_free(struct cli_opts *);
/* Print a command's full help to stdout: usage, summary, options. */
void cli_help(const struct cmd_entry *);
/* Print "usage: ensemble COMMAND ARGS [OPTION]..." to f. */
void cli_usage(FILE *f, const struct cmd_entry *);
/* Parse and expand the script; NULL after printing the errors. */
struct pcg *cli_load(struct cli_opts *, struct diag *);
/* The script o names, parsed, not expanded (the caller frees it), or NULL
 * after its errors and their summary are said. */
struct ast *cli_parse_script(const struct cli_opts *, struct diag *);
/* Where components' executables are installed: the build tree's
 * components/ when this ensemble runs uninstalled. */
const char *cli_libexecdir(void);
/* ensemble-exec, the trampoline of every process: the build tree's, or
 * the installed. */
const char *cli_exec(void);
/* Where the Python package 'ensemble' is: the build tree's bindings/python
 * when this ensemble runs uninstalled, else its install directory. */
const char *cli_pythondir(void);
/* Flush stdout and report a write error: the exit code to use. */
int cli_exit(int);

struct mode_result;
struct verify_opts;
/* The verification options o gives: the modes, limits and progress. */
void cli_verify_opts(const struct cli_opts *o, struct verify_opts *vo);
/* Print a mode's violation in application app, its detail and
 * counterexample: folded when longer than a screen (runs and blocks of
 * actions that repeat, then the last screenful), unless 'full'. */
void cli_print_violation(FILE *, const char *app, const struct mode_result *,
    int full);
/* Say on stderr which limit stopped the mode, if one did. */
void cli_print_incomplete(const char *app, const struct mode_result *);

#define EXIT_VIOLATED	1
#define EXIT_BADINPUT	2
#define EXIT_INCOMPLETE	3

#endif
