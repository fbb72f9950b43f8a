/* cmd-infer.c -- 'ensemble infer': a component's BEHAVIOUR read from its
 * code (infer/infer.h), printed as pcg(5) text. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "codecheck.h"
#include "infer.h"
#include "xmalloc.h"

/* What infer's options say. */
struct cmd_infer_opts {
	struct cli_list	 files;		/* one program's sources */
	const char	*component;
	struct cli_list	 flags;		/* after -- */
};

static int
cmd_infer_exec(const struct cmd_entry *self, int argc, char **argv)
{
	struct cmd_infer_opts	 o;
	struct infer_opts	 io;
	struct infer		*r;
	struct diag		*d;
	struct buf		 b;
	char			*cause;
	int			 rc;

	if ((rc = cli_parse(self, argc, argv, &o, sizeof(o))) >= 0)
		return rc;
	if (o.component != NULL && !infer_is_name(o.component)) {
		fprintf(stderr, "ensemble infer: '%s' is not a component's name "
		    "(a letter or '_', then letters, digits and '_')\n",
		    o.component);
		cli_usage(stderr, self);
		cli_opts_free(self, &o);
		return EXIT_BADINPUT;
	}
	cli_infer_opts(&io);
	io.files = o.files.v;
	io.nfiles = (int)o.files.n;
	io.flags = o.flags.v;
	io.nflags = (int)o.flags.n;
	io.component = o.component;
	d = diag_new(stderr);
	if ((r = infer_run(&io, &cause)) == NULL) {
		fprintf(stderr, "ensemble: %s\n", cause);
		free(cause);
		rc = EXIT_BADINPUT;
		goto out;
	}
	if (r->error != NULL) {
		codecheck_say(d, r, 0);
		diag_summary(d);
		rc = EXIT_BADINPUT;
		goto out;
	}
	buf_init(&b);
	infer_text(r, &b, NULL, NULL);
	fwrite(b.s, 1, b.len, stdout);
	buf_free(&b);
	rc = 0;
out:
	infer_free(r);
	diag_free(d);
	cli_opts_free(self, &o);
	return cli_exit(rc);
}

static const struct cli_option cmd_infer_options[] = {
	{ .type = CLI_OPERANDS, .arg = "source",
	  .off = offsetof(struct cmd_infer_opts, files) },
	{ .type = CLI_STRING, .name = "--component", .alias = "-c", .arg = "NAME",
	  .off = offsetof(struct cmd_infer_opts, component),
	  .needs = "a component's name",
	  .help = "the behaviour's name (default: the file's, 'relay'\n"
	    "for relay.c)" },
	CLI_OPTION_HELP,
	{ .type = CLI_REST, .arg = "COMPILER-FLAG...",
	  .off = offsetof(struct cmd_infer_opts, flags) },
	{ CLI_END }
};

const struct cmd_entry cmd_infer_entry = {
	.name = "infer",
	.args = "SOURCE...",
	.summary = "Print a component's BEHAVIOUR, read from its C, C++ or "
	    "Python code.",
	.options = cmd_infer_options,
	.help =
	    "The flags after -- go to the compiler (libclang) for C and C++: -I,\n"
	    "-D, -std.  ensemble.h, ensemble.hpp and MPI's headers are found\n"
	    "without them.\n"
	    "\n"
	    "Exit status: 0 inferred, 2 bad input or code that it cannot follow\n"
	    "(said at its place).\n",
	.exec = cmd_infer_exec,
};
