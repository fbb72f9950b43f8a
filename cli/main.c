/* main.c -- the ensemble command: dispatch to a subcommand. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

extern const struct cmd_entry cmd_check_entry;
extern const struct cmd_entry cmd_expand_entry;
extern const struct cmd_entry cmd_graph_entry;
extern const struct cmd_entry cmd_help_entry;
extern const struct cmd_entry cmd_infer_entry;
extern const struct cmd_entry cmd_verify_entry;
extern const struct cmd_entry cmd_net_entry;
extern const struct cmd_entry cmd_run_entry;
extern const struct cmd_entry cmd_trace_entry;
extern const struct cmd_entry cmd_version_entry;

const struct cmd_entry *const cmd_table[] = {
	&cmd_check_entry,
	&cmd_expand_entry,
	&cmd_graph_entry,
	&cmd_help_entry,
	&cmd_infer_entry,
	&cmd_net_entry,
	&cmd_run_entry,
	&cmd_trace_entry,
	&cmd_verify_entry,
	&cmd_version_entry,
	NULL,
};

const struct cmd_entry *
cmd_find(const char *name)
{
	int	i;

	for (i = 0; cmd_table[i] != NULL; i++)
		if (strcmp(cmd_table[i]->name, name) == 0)
			return cmd_table[i];
	return NULL;
}

int
main(int argc, char **argv)
{
	const struct cmd_entry	*c;

	/* A file past the size limit (ulimit -f) is a write error, EFBIG,
	 * said and its partial file removed as for a full disk, not a
	 * silent death.  Processes ensemble starts get the default back
	 * (loader/launcher.c, loader/subproc.c). */
	signal(SIGXFSZ, SIG_IGN);
	if (argc < 2) {
		fprintf(stderr, "usage: ensemble COMMAND [ARGS]; see 'ensemble help'\n");
		return EXIT_BADINPUT;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)
		return cmd_version_entry.exec(&cmd_version_entry, 1, argv);
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
		return cmd_help_entry.exec(&cmd_help_entry, 1, argv);
	if ((c = cmd_find(argv[1])) == NULL) {
		fprintf(stderr, "ensemble: '%s' is not a command; see 'ensemble help'\n",
		    argv[1]);
		return EXIT_BADINPUT;
	}
	return c->exec(c, argc - 1, argv + 1);
}
