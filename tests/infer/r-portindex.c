/* r-portindex.c -- a reply to the port a message came by: the index is
 * the data's: refused. */
#include <ensemble.h>

int
main(int argc, char **argv)
{
	int	x, k;

	ens_init(&argc, &argv);
	k = ens_recv_any("Work", &x, 1, MPI_INT);
	ens_send("Work", k, &x, 1, MPI_INT);
	ens_finalize();
	return 0;
}
