/* swap.c -- each node sends its value right and takes its left's. */
#include <ensemble.h>

int
main(int argc, char **argv)
{
	int	v = 1, w;

	ens_init(&argc, &argv);
	ens_ssend("Right", 1, &v, 1, MPI_INT);
	ens_recv("Left", 1, &w, 1, MPI_INT);
	ens_finalize();
	return 0;
}
