/* r-recursion.c -- a function that communicates and calls itself:
 * refused. */
#include <ensemble.h>

static void
relay(int n)
{
	int	x = 0;

	if (n == 0)
		return;
	ens_send("Out", 1, &x, 1, MPI_INT);
	relay(n - 1);
}

int
main(int argc, char **argv)
{
	ens_init(&argc, &argv);
	relay(3);
	ens_finalize();
	return 0;
}
