/* probe.c -- a probe whose port the receive then takes: 'probe any In as
 * m; recv m;'; an iprobe deciding its blocks; a sendrecv. */
#include <ensemble.h>

int
main(int argc, char **argv)
{
	MPI_Status	st;
	int		x = 0, k;

	ens_init(&argc, &argv);
	k = ens_probe_any("In", &st);
	ens_recv("In", k, &x, 1, MPI_INT);
	if (ens_iprobe("In", 1, &st))
		ens_recv("In", 1, &x, 1, MPI_INT);
	else
		ens_send("Out", 1, &x, 1, MPI_INT);
	ens_sendrecv("Out", 1, &x, 1, MPI_INT, "In", 1, &x, 1, MPI_INT,
	    MPI_STATUS_IGNORE);
	ens_finalize();
	return 0;
}
