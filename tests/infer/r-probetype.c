/* r-probetype.c -- the type of the port a probe found with an index of
 * another port: no statement says it. */
#include <stddef.h>

#include <ensemble.h>

int
main(int argc, char **argv)
{
	MPI_Status	 st;
	const char	*type;
	int		 x;

	ens_init(&argc, &argv);
	ens_probe_any(NULL, &st);
	ens_port_of(&st, &type);
	ens_recv(type, 1, &x, 1, MPI_INT);
	ens_finalize();
	return 0;
}
