/* cmd.h -- the ensemble command's subcommand table and the option parsing
 * and front end every subcommand shares. */
#ifndef ENS_CMD_H
#define ENS_CMD_H

#include <stdio.h>

#include "diag.h"
#include "pcg.h"

struct cmd_entry {
	const char	*name;
	const char	*usage;		/* one line, after "usage: ensemble " */
	const char	*summary;	/* one line for 'ensemble help' */
	const char	*help;		/* the options, for CMD --help */
	int		(*exec)(const struct cmd_entry *, int, char **);
};

extern const struct cmd_entry *const cmd_table[];
const struct cmd_entry *cmd_find(const char *);

/* The help lines of the options every command shares (cli_parse). */
#define CLI_SCRIPT_HELP \
	"  -np K           set the script's 'scale' parameter to K\n" \
	"  -D NAME=VALUE   set a parameter (an integer)\n" \
	"  -L DIR          look for components' executables and includes in DIR\n" \
	"  -h, --help      show this help\n"

/* The help lines of the options verify and run share (CLI_SEARCH). */
#define CLI_SEARCH_HELP \
	"  --max-states N  stop after N states (exit 3)\n" \
	"  --max-memory MB stop before the state store outgrows MB megabytes\n" \
	"                  (exit 3; default: half of the memory available)\n" \
	"  --max-time S    stop after S seconds (exit 3)\n" \
	"  --progress      report progress on stderr once a second (default\n" \
	"                  when stderr is a terminal; --no-progress: never)\n" \
	"  --full          print every action of a counterexample (default:\n" \
	"                  repeats folded when it is longer than 40 lines)\n"

/* Options a command accepts besides -np, -D and -L. */
#define CLI_OUTPUT	0x1	/* -o FILE, -T FORMAT, -K LAYOUT, --pcg */
#define CLI_SENDMODE	0x2	/* --send-mode */
#define CLI_SEARCH	0x4	/* --max-states, --max-memory, --max-time,
				 * --progress, --no-progress, --full */
#define CLI_VERIFY	0x8	/* --exact, --json, --stats, --explain */
#define CLI_RUN		0x10	/* --hostfile, --timeout, --no-verify, ... */

struct cli_opts {
	const char	*script;
	struct pcg_opts	 pcg;
	const char	*output;
	const char	*format;
	const char	*layout;
	int		 pcg_dot;
	/* net, verify, run */
	const char	*send_mode;
	/* verify, run */
	unsigned long long max_states;
	unsigned long long max_memory_mb;
	double		 max_time;	/* seconds; 0: none */
	int		 progress;	/* -1: when stderr is a terminal */
	int		 full;		/* counterexamples unfolded */
	/* verify */
	int		 exact;
	int		 json;
	int		 stats;
	const char	*explain;
	/* run */
	const char	*hostfile;
	double		 timeout;
	int		 no_verify;
	int		 force;
	int		 check_protocol;
	int		 verbose;
	const char	**defs;
	const char	**dirs;
};

/* Parse argv; prints help (exit 0) or a usage error (exit 2) itself and
 * returns that exit code, or -1 to go on. */
int cli_parse(const struct cmd_entry *, int, char **, struct cli_opts *, unsigned);
void cli_opts_free(struct cli_opts *);
/* Print a command's full help to stdout. */
void cli_help(const struct cmd_entry *);
/* Parse and expand the script; NULL after printing the errors. */
struct pcg *cli_load(struct cli_opts *, struct diag *);
/* Where components' executables are installed: the build tree's
 * components/ when this ensemble runs uninstalled. */
const char *cli_libexecdir(void);
/* ensemble-loader: $ENSEMBLE_LOADER, the build tree's, or the installed. */
const char *cli_loader(void);
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
