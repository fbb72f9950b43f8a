/* requests.c -- requests: posted into an array and completed all at once
 * (waitall), named where a wait, a test or a waitany names them, the
 * outcome of a test and of a waitany deciding the blocks. */
#include <ensemble.h>

int
main(int argc, char **argv)
{
	MPI_Request	 req[4], r, s[2];
	int		 x = 0, n = 0, k;

	ens_init(&argc, &argv);
	if (ens_ports("Left") > 0)
		ens_isend("Left", 1, &x, 1, MPI_INT, &req[n++]);
	ens_irecv("Right", 1, &x, 1, MPI_INT, &req[n++]);
	ens_waitall(n, req);
	ens_irecv("Right", 1, &x, 1, MPI_INT, &r);
	if (ens_test(&r, MPI_STATUS_IGNORE))
		ens_send("Left", 1, &x, 1, MPI_INT);
	else
		ens_wait(&r, MPI_STATUS_IGNORE);
	ens_irecv("Left", 1, &x, 1, MPI_INT, &s[0]);
	ens_irecv("Right", 1, &x, 1, MPI_INT, &s[1]);
	k = ens_waitany(2, s, MPI_STATUS_IGNORE);
	if (k == 0)
		ens_wait(&s[1], MPI_STATUS_IGNORE);
	else
		ens_wait(&s[0], MPI_STATUS_IGNORE);
	ens_finalize();
	return 0;
}
