/* r-poll.c -- a loop that polls until a test succeeds: refused. */
#include <ensemble.h>

int
main(int argc, char **argv)
{
	MPI_Request	r;
	int		x = 0;

	ens_init(&argc, &argv);
	ens_irecv("In", 1, &x, 1, MPI_INT, &r);
	while (!ens_test(&r, MPI_STATUS_IGNORE))
		ens_send("Out", 1, &x, 1, MPI_INT);
	ens_finalize();
	return 0;
}
