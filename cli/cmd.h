/* cmd.h -- the ensemble command's subcommand table and the option parsing
 * and front end every subcommand shares. */
#ifndef ENS_CMD_H
#define ENS_CMD_H

#include <stddef.h>
#include <stdio.h>

#include "diag.h"
#include "frontend.h"
#include "pcg.h"

struct cli_option;

/* A subcommand: its name, what it takes, its options (parsed by
 * cli_parse into the command's own struct, listed by cli_help, in its
 * usage line and by 'help --options', all from the same declaration) and
 * what runs it. */
struct cmd_entry {
	const char	*name;
	const char	*args;		/* after the name in the usage: "SCRIPT" */
	const char	*summary;	/* one line for 'ensemble help' */
	const struct cli_option *options; /* ends with { CLI_END }; NULL: none
					 * but -h and --help */
	const char	*help;		/* after the options in CMD --help */
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

/* Each command declares the struct its options store into (struct
 * cmd_NAME_opts in cli/cmd-NAME.c); the options several commands share
 * store into these, embedded in it. */

/* The script a command reads and what -np, -D and -L say of it
 * (CLI_OPTIONS_SCRIPT). */
struct cli_script {
	const char	*path;		/* the operand */
	struct pcg_opts	 pcg;		/* -np; -D and -L once parsed; the
					 * command sets its exec checks */
	struct cli_list	 defs;		/* -D */
	struct cli_list	 dirs;		/* -L */
};

/* The drawing options of graph and net (CLI_OPTIONS_DRAW). */
struct cli_draw {
	const char	*output;	/* -o */
	const char	*format;	/* -T */
	const char	*layout;	/* -K */
};

/* The modes, limits and output of a search, the same for verify and run
 * (CLI_OPTION_SEND_MODE, CLI_OPTIONS_SEARCH). */
struct cli_search {
	int		 send_modes;	/* bits 1 << enum check_mode; 0: not given */
	unsigned long long max_states;
	unsigned long long max_memory_mb;
	double		 max_time;	/* seconds; 0: none */
	int		 progress;	/* -1: when stderr is a terminal */
	int		 full;		/* reports and counterexamples unfolded */
};

/* How an option's value is read, and what it stores at its 'off'. */
enum cli_otype {
	CLI_END,	/* ends a command's options */
	CLI_GROUP,	/* no option: a heading (its help) between options */
	CLI_HELP,	/* print the command's help and exit 0 */
	CLI_FLAG,	/* int: 1; a CLI_NEG flag -1 until given, 0 by --no- */
	CLI_STRING,	/* const char *: the value */
	CLI_LIST,	/* struct cli_list: the value added; may be repeated */
	CLI_COUNT,	/* unsigned long long: a positive whole number */
	CLI_SECONDS,	/* double: a positive number of seconds up to 'most' */
	CLI_SCALE,	/* struct pcg_opts: np and np_set, a whole number */
	CLI_MODES,	/* int: the send modes a name asks for (mpnet_send_modes) */
	CLI_PAIR,	/* struct cli_list: two values (NAME KEY VALUE) added;
			 * 'arg' names both ("KEY VALUE"); may be repeated */
	/* Not options: where the arguments that are not go. */
	CLI_OPERAND,	/* const char *: the one operand; 'arg' says what it
			 * is ("trace", for "no trace given") */
	CLI_OPERANDS,	/* struct cli_list: one operand or more */
	CLI_SCRIPT,	/* struct cli_script: the one operand, a script; its
			 * pcg_opts made from -np, -D and -L */
	CLI_REST,	/* struct cli_list: the arguments after '--', as given;
			 * 'arg' names them in the usage */
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
	size_t		 off;		/* where it stores in the command's
					 * options struct */
	const char	*needs;		/* said when the value is missing:
					 * "'-np' needs a count" */
	const char	*bad;		/* said of a bad value; '%s': the value */
	double		 most;		/* CLI_SECONDS: the largest */
	const char *const *values;	/* the values it takes, when a fixed set
					 * (NULL-terminated; 'help --options'
					 * lists them; the command checks) */
	const char	*help;		/* lines of help, '\n' between */
};

/* The operand and the options every command that reads a script takes;
 * T is the command's options struct, m its struct cli_script. */
#define CLI_OPTIONS_SCRIPT(T, m) \
	{ .type = CLI_SCRIPT, .off = offsetof(T, m) }, \
	{ .type = CLI_SCALE, .name = "-np", .alias = "-n", .alias2 = "--np", \
	  .arg = "K", .off = offsetof(T, m.pcg), \
	  .needs = "a count", .bad = "-np needs a whole number, not '%s'", \
	  .help = "set the script's 'scale' parameter to K" }, \
	{ .type = CLI_LIST, .name = "-D", .arg = "NAME=VALUE", \
	  .off = offsetof(T, m.defs), .needs = "NAME=VALUE", \
	  .help = "set a parameter: an integer, or a string parameter's text" }, \
	{ .type = CLI_LIST, .name = "-L", .arg = "DIR", \
	  .off = offsetof(T, m.dirs), .needs = "a directory", \
	  .help = "look for components' executables and includes in DIR" }, \
	CLI_OPTION_HELP

#define CLI_OPTION_HELP \
	{ .type = CLI_HELP, .name = "-h", .alias = "--help", \
	  .help = "show this help" }

/* -o, of graph, net and trace export (its help theirs); f its field. */
#define CLI_OPTION_OUTPUT(T, f, h) \
	{ .type = CLI_STRING, .name = "-o", .arg = "FILE|-", \
	  .flags = CLI_REQUIRED, .off = offsetof(T, f), \
	  .needs = "a file name (or - for stdout)", .help = (h) }

/* The drawing options of graph and net (their help and formats their
 * own; the layouts Graphviz's, cli_layouts); m: T's struct cli_draw. */
#define CLI_OPTIONS_DRAW(T, m, oh, formats, th, kh) \
	CLI_OPTION_OUTPUT(T, m.output, oh), \
	{ .type = CLI_STRING, .name = "-T", .arg = "FORMAT", \
	  .off = offsetof(T, m.format), .needs = "a format", \
	  .values = (formats), .help = (th) }, \
	{ .type = CLI_STRING, .name = "-K", .arg = "LAYOUT", \
	  .off = offsetof(T, m.layout), .needs = "a layout engine", \
	  .values = cli_layouts, .help = (kh) }

/* The layout engines -K takes; whether name is one of values. */
extern const char *const cli_layouts[];
int cli_known(const char *const *values, const char *name);

/* The send modes verify's and run's --send-mode take (mpnet_send_modes). */
extern const char *const cli_send_modes[];

/* --send-mode, of net, verify and run (their help and the modes they
 * take their own: cli_send_modes, or net's one); f its field. */
#define CLI_OPTION_SEND_MODE(T, f, modes, h) \
	{ .type = CLI_MODES, .name = "--send-mode", .arg = "MODE", \
	  .flags = CLI_EQ, .off = offsetof(T, f), \
	  .needs = "a mode: both, buffered or synchronous", \
	  .bad = "unknown send mode '%s' (both, buffered or synchronous)", \
	  .values = (modes), .help = (h) }

/* The limits and output of a search, the same for verify and run; m:
 * T's struct cli_search. */
#define CLI_OPTIONS_SEARCH(T, m) \
	{ .type = CLI_COUNT, .name = "--max-states", .arg = "N", \
	  .off = offsetof(T, m.max_states), .needs = "a number", \
	  .bad = "--max-states needs a positive whole number", \
	  .help = "stop after N states (exit 3)" }, \
	{ .type = CLI_COUNT, .name = "--max-memory", .arg = "MB", \
	  .off = offsetof(T, m.max_memory_mb), .needs = "a number", \
	  .bad = "--max-memory needs a positive number of megabytes", \
	  .help = "stop before the state store outgrows MB megabytes\n" \
	    "(exit 3; default: half of the memory available)" }, \
	{ .type = CLI_SECONDS, .name = "--max-time", .arg = "S", \
	  .off = offsetof(T, m.max_time), .needs = "a number of seconds", \
	  .bad = "--max-time needs a positive number of seconds, not '%s'", \
	  .most = 1e9, .help = "stop after S seconds (exit 3)" }, \
	{ .type = CLI_FLAG, .name = "--progress", .flags = CLI_NEG, \
	  .off = offsetof(T, m.progress), \
	  .help = "report progress on stderr once a second (default\n" \
	    "when stderr is a terminal; --no-progress: never)" }, \
	{ .type = CLI_FLAG, .name = "--full", .off = offsetof(T, m.full), \
	  .help = "print every action of a counterexample and every\n" \
	    "process of a report (default: what repeats folded)" }

/* Parse argv by the command's options into o, the command's options
 * struct of size bytes (zeroed first); prints help (exit 0) or a usage
 * error (exit 2) itself and returns that exit code (o freed), or -1 to
 * go on (the caller frees o with cli_opts_free). */
int cli_parse(const struct cmd_entry *, int, char **, void *o, size_t size);
/* Free what the command's options hold (its lists). */
void cli_opts_free(const struct cmd_entry *, void *o);
/* Print a command's full help to stdout: usage, summary, options. */
void cli_help(const struct cmd_entry *);
/* Print "usage: ensemble COMMAND ARGS [OPTION]..." to f. */
void cli_usage(FILE *f, const struct cmd_entry *);
/* Print a command's options for programs (bash completion) to stdout,
 * one a line: its names (the first as the usage shows it; one ending in
 * '=' shown with its value attached), then, tab-separated, its value as
 * the help names it and the values it takes, when a fixed set
 * (ensemble(1), help --options). */
void cli_options(const struct cmd_entry *);
/* Read the script s names as far as upto (frontend_compile) into fe; 0,
 * or -1 after its errors and their summary are said (fe then empty). */
int cli_load(struct cli_script *s, enum frontend_stage upto, struct diag *,
    struct frontend *fe);
/* Take fe on as far as upto (frontend_resume) with o: 0, or -1 after
 * the errors and their summary are said (fe holding what it did; the
 * caller frees it). */
int cli_resume(struct frontend *fe, const struct pcg_opts *o,
    enum frontend_stage upto, struct diag *);
/* Where components' executables are installed: the build tree's
 * components/ when this ensemble runs uninstalled. */
const char *cli_libexecdir(void);
/* ensemble-exec, the trampoline of every process: the build tree's, or
 * the installed. */
const char *cli_exec(void);
/* Where the Python package 'ensemble' is: the build tree's bindings/python
 * when this ensemble runs uninstalled, else its install directory. */
const char *cli_pythondir(void);
struct infer_opts;
/* What the inference of a component's code needs from this ensemble:
 * the Python front end, the headers of ensemble.h and ensemble.hpp (the
 * build tree's or the installed), MPI's flags, the python3. */
void cli_infer_opts(struct infer_opts *);
struct codecheck;
/* The processes of g held to their code (check --code, run, verify
 * --from-code): sources found (--source COMP=FILE in sources, the
 * compiler's flags in flags), behaviours inferred and compared.  Says
 * each difference as an error at its place in the code; report (when not
 * NULL) gets a line per group of processes with their verdict.  Returns
 * 0 when every process checked keeps its behaviour, 1 a difference, 2
 * code that cannot be followed; *ccp the check (codecheck_free) unless
 * ccp is NULL. */
int cli_codecheck(struct pcg *, const struct pcg_opts *,
    const struct cli_list *sources, const struct cli_list *flags,
    struct diag *, FILE *report, int how, struct codecheck **ccp);
#define CLI_CC_RUN	0x1	/* code not followed: a warning, not checked */
#define CLI_CC_INFER	0x2	/* infer only, compare nothing */
/* Flush stdout and report a write error: the exit code to use. */
int cli_exit(int);

struct mode_result;
struct verify_opts;
/* The verification options a search's options give: the modes, limits
 * and progress (and --exact, verify's alone). */
void cli_verify_opts(const struct cli_search *, int exact,
    struct verify_opts *vo);
/* Print each mode's violation, its detail and counterexample: what
 * repeats said once (the processes alike, and the counterexample when
 * longer than a screen: runs and blocks of actions that repeat, then the
 * last screenful), unless 'full'; one that both modes found alike is
 * printed once, "(in both modes)". */
void cli_print_violations(FILE *, const struct verify_result *, int full);
/* Say on stderr which limit stopped the mode, if one did. */
void cli_print_incomplete(const char *app, const struct mode_result *);

#define EXIT_VIOLATED	1
#define EXIT_BADINPUT	2
#define EXIT_INCOMPLETE	3

#endif
