/* spawn.c -- ensemble-spawn, the hand of 'ensemble run --launcher spawn'
 * (launcher-spawn.c): an MPI process of one, under 'mpirun -np 1', that
 * starts the run's processes and lets them go:
 *
 *	ensemble-spawn N ENSEMBLE-EXEC --plan PLAN
 *
 * starts N copies of 'ENSEMBLE-EXEC --plan PLAN' with
 * MPI_Comm_spawn_multiple as one MPI world of their own (each trampoline
 * reads its line of PLAN at its rank), disconnects from them (each
 * process's ens_init disconnects from its parent), and ends: mpirun
 * waits for them.  Exit 0; 1 when the spawn fails (said); 2 for a wrong
 * command line. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "asan.h"	/* Open MPI's leaks are not ours: not reported */

int
main(int argc, char **argv)
{
	MPI_Comm	 kids;
	MPI_Info	 info[1] = { MPI_INFO_NULL };
	char		*cmd[1], **args[1], msg[MPI_MAX_ERROR_STRING];
	int		 np[1], *codes, rc, len;
	long		 n;
	char		*end;

	if (argc != 5 || strcmp(argv[3], "--plan") != 0) {
		fprintf(stderr, "usage: ensemble-spawn N ENSEMBLE-EXEC --plan"
		    " PLAN\n");
		return 2;
	}
	errno = 0;
	n = strtol(argv[1], &end, 10);
	if (errno != 0 || end == argv[1] || *end != '\0' || n < 1 ||
	    n > INT_MAX) {
		fprintf(stderr, "ensemble-spawn: not a count of processes:"
		    " '%s'\n", argv[1]);
		return 2;
	}
	if ((codes = calloc((size_t)n, sizeof(*codes))) == NULL) {
		fprintf(stderr, "ensemble-spawn: out of memory\n");
		return 1;
	}
	MPI_Init(&argc, &argv);
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	cmd[0] = argv[2];
	args[0] = argv + 3;
	np[0] = (int)n;
	rc = MPI_Comm_spawn_multiple(1, cmd, args, np, info, 0, MPI_COMM_SELF,
	    &kids, codes);
	free(codes);
	if (rc != MPI_SUCCESS) {
		MPI_Error_string(rc, msg, &len);
		fprintf(stderr, "ensemble-spawn: MPI_Comm_spawn_multiple: %s\n",
		    msg);
		MPI_Finalize();
		return 1;
	}
	MPI_Comm_disconnect(&kids);
	MPI_Finalize();
	return 0;
}
