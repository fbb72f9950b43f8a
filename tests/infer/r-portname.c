/* r-portname.c -- a port type the code computes at run time: refused. */
#include <ensemble.h>

int
main(int argc, char **argv)
{
	int	x = 0;

	ens_init(&argc, &argv);
	ens_send(argv[1], 1, &x, 1, MPI_INT);
	ens_finalize();
	return 0;
}
