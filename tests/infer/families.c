/* families.c -- requests posted one a round of a loop, each in its own
 * element, completed together after it: by the loop's count, by a counter
 * the posts step. */
#include <stddef.h>

#include <ensemble.h>

int
main(int argc, char **argv)
{
	MPI_Request	 req[64];
	int		 x = 0, k, n, nreq = 0;

	ens_init(&argc, &argv);
	n = ens_ports("Peer");
	for (k = 0; k < n; k++)
		ens_isend("Peer", k + 1, &x, 1, MPI_INT, &req[k]);
	ens_waitall(n, req);
	for (k = 1; k <= ens_ports("Peer"); k++)
		ens_irecv("Peer", k, &x, 1, MPI_INT, &req[nreq++]);
	ens_irecv_any(NULL, &x, 1, MPI_INT, &req[nreq++]);
	ens_waitall(nreq, req);
	ens_finalize();
	return 0;
}
