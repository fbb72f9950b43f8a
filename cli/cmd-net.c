/* cmd-net.c -- 'ensemble net' (placeholder). */
#include "config.h"

#include "cmd.h"

static int
cmd_net_exec(const struct cmd_entry *self, int argc, char **argv)
{
	(void)self;
	(void)argc;
	(void)argv;
	return 2;
}

const struct cmd_entry cmd_net_entry = {
	.name = "net",
	.usage = "net SCRIPT [-np K] [-D NAME=VALUE]... [-L DIR]... -o FILE",
	.summary = "Draw the script's MP net, or write it as PNML.",
	.help = CLI_SCRIPT_HELP,
	.exec = cmd_net_exec,
};
