/* endless.c -- a loop that never ends is 'loop { }'; nothing after it is
 * reached. */
#include <ensemble.h>

int
main(int argc, char **argv)
{
	int	t;

	ens_init(&argc, &argv);
	for (;;) {
		ens_recv("In", 1, &t, 1, MPI_INT);
		ens_send("Out", 1, &t, 1, MPI_INT);
	}
	ens_finalize();
	return 0;
}
