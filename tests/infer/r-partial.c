/* r-partial.c -- a waitall of some of the requests pending: a behaviour's
 * waitall completes them all: refused. */
#include <ensemble.h>

int
main(int argc, char **argv)
{
	MPI_Request	s[1], r[1];
	int		x = 0, y;

	ens_init(&argc, &argv);
	ens_isend("Out", 1, &x, 1, MPI_INT, &s[0]);
	ens_irecv("In", 1, &y, 1, MPI_INT, &r[0]);
	ens_waitall(1, s);
	ens_waitall(1, r);
	ens_finalize();
	return 0;
}
