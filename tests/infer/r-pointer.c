/* r-pointer.c -- a call through a pointer, where a function that
 * communicates has its address taken: refused. */
#include <ensemble.h>

static void
ping(int k)
{
	ens_send("P", k, &k, 1, MPI_INT);
}

static void
pong(int k)
{
	ens_recv("P", k, &k, 1, MPI_INT);
}

int
main(int argc, char **argv)
{
	void	(*f)(int);

	ens_init(&argc, &argv);
	f = argc > 1 ? ping : pong;
	f(1);
	ens_finalize();
	return 0;
}
