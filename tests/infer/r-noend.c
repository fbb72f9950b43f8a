/* r-noend.c -- main returns without ens_finalize: no way ends as a
 * component should. */
#include <ensemble.h>

int
main(int argc, char **argv)
{
	int	x = 0;

	ens_init(&argc, &argv);
	ens_send("Out", 1, &x, 1, MPI_INT);
	return 0;
}
