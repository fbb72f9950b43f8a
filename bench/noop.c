/* noop.c -- a component that does nothing: bench/run.sh times launching N
 * of them with 'ensemble run' against 'mpirun -np N' of this same
 * executable.  Under mpirun it is given "--mpi" and only starts and stops
 * MPI; under 'ensemble run' it starts as
 * every component does, with ens_init. */
#include <string.h>

#include <ensemble.h>

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--mpi") == 0) {
		MPI_Init(&argc, &argv);
		MPI_Finalize();
		return 0;
	}
	ens_init(&argc, &argv);
	ens_finalize();
	return 0;
}
