/* noop.c -- a component that does nothing: bench/run.sh times launching N
 * of them with 'ensemble run' against 'mpirun -np N' of this same
 * executable, which then skips libensemble (there is no loader to talk to). */
#include <ensemble.h>

int
main(int argc, char **argv)
{
	MPI_Comm	parent;

	MPI_Init(&argc, &argv);
	MPI_Comm_get_parent(&parent);
	if (parent == MPI_COMM_NULL) {
		MPI_Finalize();
		return 0;
	}
	ens_init(&argc, &argv);
	ens_finalize();
	return 0;
}
