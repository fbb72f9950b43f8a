/* r-repost.c -- a request posted each round into the same place, the one
 * before still pending: lost (only the last is waited for). */
#include <ensemble.h>

int
main(int argc, char **argv)
{
	MPI_Request	r;
	int		i, x = 0;

	ens_init(&argc, &argv);
	for (i = 0; i < 4; i++)
		ens_isend("Out", 1, &x, 1, MPI_INT, &r);
	ens_waitall(1, &r);
	ens_finalize();
	return 0;
}
