/* r-break.c -- a counted loop left by a break: refused. */
#include <ensemble.h>

int
main(int argc, char **argv)
{
	int	i, t;

	ens_init(&argc, &argv);
	for (i = 0; i < 10; i++) {
		ens_recv("In", 1, &t, 1, MPI_INT);
		if (t < 0)
			break;
	}
	ens_finalize();
	return 0;
}
