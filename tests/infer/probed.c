/* probed.c -- messages probes found, received on the ports they were
 * found on: of any type, the type from ens_port_of ('probe any as m;
 * recv m;'); an iprobe of any port that finds one ('iprobe any as m');
 * a probe of one port whose status names it (the receive of that
 * port). */
#include <stdlib.h>

#include <ensemble.h>

int
main(int argc, char **argv)
{
	MPI_Status	 st;
	const char	*type;
	int		 k, n, port, *v;

	ens_init(&argc, &argv);
	k = ens_probe_any(NULL, &st);
	ens_port_of(&st, &type);
	MPI_Get_count(&st, MPI_INT, &n);
	v = malloc(n * sizeof(*v));
	ens_recv(type, k, v, n, MPI_INT);
	if (ens_iprobe_any("Work", &port, &st))
		ens_recv("Work", port, v, 1, MPI_INT);
	ens_probe("Ctl", 1, &st);
	k = ens_port_of(&st, &type);
	ens_recv(type, k, v, 1, MPI_INT);
	free(v);
	ens_finalize();
	return 0;
}
