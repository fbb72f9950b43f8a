/* hand.h -- ens_launch's hand (runtime/launch-api.c, loader/hand.c,
 * trampoline/hand.c): a running MPI program (the caller) starts an
 * application with MPI_Comm_spawn_multiple, and 'ensemble run' does all
 * the rest of the run (verification, the plan, the port tables, the
 * watch, the report, the exit status).
 *
 * The caller runs 'ensemble run --launcher spawn SCRIPT OPTIONS...' with
 * HAND_ENV (the number of a descriptor: one end of a stream socket pair)
 * in its environment.  'ensemble run', in place of starting mpirun, forks
 * its collector (loader/hand.c), which writes the spawn request on that
 * descriptor, one item a line, each a wire_token_put token (wire.h):
 *
 *	HAND_MAGIC
 *	N			the processes
 *	EXEC			ensemble-exec, absolute
 *	ARGC			its arguments, then each on a line:
 *	--plan PLAN --hand FILE
 *	NINFO			MPI_Info entries, then KEY and VALUE
 *				lines of each: map_by :OVERSUBSCRIBE
 *	(an empty line)
 *
 * The caller starts N copies of 'EXEC ARG...' as one world of their own
 * (on MPI_COMM_SELF, never disturbing its communicators), disconnects
 * from them (as each does from it in ens_init), and answers on the same
 * descriptor with one line: HAND_OK, or HAND_ERROR and a space, then why.
 * Each spawned trampoline reads FILE, in the run's private directory
 * (0600, ours alone), one token a line: the NAME=VALUE entries of its
 * environment (the run's secret among them, which travels in no command
 * line), HAND_ENV_OUT the collector's socket; it connects to that socket
 * twice, for its standard output and its standard error, each beginning
 * with the line "SECRET RANK STREAM" (STREAM 1 or 2), and writes there
 * what it wrote to the launcher's pipes.  The collector puts Open MPI's
 * tags before each line ("[2,RANK]<stdout>:") on its own standard output
 * or error, which 'ensemble run' reads as it reads mpirun's, passes
 * SIGUSR1, SIGTERM, SIGINT and SIGHUP on to each trampoline's process
 * group, and ends once every stream has ended.  A trampoline whose
 * collector goes (killed) kills its component and ends. */
#ifndef ENS_HAND_H
#define ENS_HAND_H

#define HAND_ENV	"ENSEMBLE_HAND"		/* the descriptor */
#define HAND_ENV_OUT	"ENSEMBLE_HAND_OUT"	/* the collector's socket */
#define HAND_FLAG	"--hand"		/* FILE: the trampoline's */
#define HAND_MAGIC	"ensemble-hand-1"
#define HAND_OK		"ok"
#define HAND_ERROR	"error"
#define HAND_LINE_MAX	8192	/* of a line of the request or answer */
#define HAND_ITEMS_MAX	64	/* lines of a request */

#endif
