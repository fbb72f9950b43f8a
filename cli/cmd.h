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

/* Options a command accepts besides -np, -D and -L. */
#define CLI_OUTPUT	0x1	/* -o FILE, -T FORMAT, -K LAYOUT, --pcg */
#define CLI_VERIFY	0x2	/* --send-mode, --exact, --max-states, ... */
#define CLI_RUN		0x4	/* --hostfile, --timeout, --no-verify, ... */

struct cli_opts {
	const char	*script;
	struct pcg_opts	 pcg;
	const char	*output;
	const char	*format;
	const char	*layout;
	int		 pcg_dot;
	/* verify */
	const char	*send_mode;
	int		 exact;
	unsigned long long max_states;
	unsigned long long max_memory_mb;
	double		 max_time;	/* seconds; 0: none */
	int		 json;
	int		 stats;
	int		 progress;	/* -1: when stderr is a terminal */
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

struct mpnet;
struct mode_result;
struct verify_opts;
/* Check the net in each mode vo->modes names: the verdict over all; r[],
 * *nr results (caller frees them), *hazard set when only synchronous
 * mode fails, *time the seconds taken. */
int cli_check_modes(const struct mpnet *, const struct verify_opts *,
    struct mode_result *r, int *nr, int *hazard, double *time);
/* Print a mode's violation, its detail and counterexample. */
void cli_print_violation(FILE *, const struct mpnet *, const struct mode_result *);

#define EXIT_VIOLATED	1
#define EXIT_BADINPUT	2
#define EXIT_INCOMPLETE	3

#endif
