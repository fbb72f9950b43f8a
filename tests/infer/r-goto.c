/* r-goto.c -- a goto: refused. */
#include <ensemble.h>

int
main(int argc, char **argv)
{
	int	x = 0;

	ens_init(&argc, &argv);
again:
	ens_send("Out", 1, &x, 1, MPI_INT);
	if (++x < 3)
		goto again;
	ens_finalize();
	return 0;
}
