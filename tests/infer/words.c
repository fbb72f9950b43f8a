/* words.c -- C names that are words of the script language: a statement's
 * ('recv', 'loop'), a word of a statement's ('any' of 'recv any', 'from'
 * of 'bcast from', 'replace' of 'sendrecv replace') and another ('over'):
 * each is written with a number that makes it a name. */
#include <stddef.h>

#include <ensemble.h>

int
main(int argc, char **argv)
{
	MPI_Request	recv, any, replace, over;
	int		from, loop, x = 0, y = 0;

	ens_init(&argc, &argv);
	ens_isend("Out", 1, &x, 1, MPI_INT, &recv);
	ens_irecv("In", 1, &y, 1, MPI_INT, &any);
	ens_wait(&recv, NULL);
	ens_wait(&any, NULL);
	ens_irecv("In", 1, &y, 1, MPI_INT, &replace);
	ens_isend("Out", 1, &x, 1, MPI_INT, &over);
	ens_wait(&replace, NULL);
	ens_wait(&over, NULL);
	for (from = 0; from < 3; from++)
		ens_send("Out", from + 1, &x, 1, MPI_INT);
	for (loop = 1; loop <= 2; loop++)
		ens_recv("In", loop, &y, 1, MPI_INT);
	ens_finalize();
	return 0;
}
