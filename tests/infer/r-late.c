/* r-late.c -- what a test returned deciding a call after another call: a
 * behaviour takes a test's blocks at once: refused. */
#include <ensemble.h>

int
main(int argc, char **argv)
{
	MPI_Request	r;
	int		x = 0, done;

	ens_init(&argc, &argv);
	ens_irecv("In", 1, &x, 1, MPI_INT, &r);
	done = ens_test(&r, MPI_STATUS_IGNORE);
	ens_send("Out", 1, &x, 1, MPI_INT);
	if (done)
		ens_send("Out", 1, &x, 1, MPI_INT);
	ens_wait(&r, MPI_STATUS_IGNORE);
	ens_finalize();
	return 0;
}
