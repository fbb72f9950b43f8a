/* r-nocompile.c -- code that does not compile: said with its place. */
#include <ensemble.h>

int
main(int argc, char **argv)
{
	ens_init(&argc, &argv);
	ens_send("Out", 1, &undeclared, 1, MPI_INT);
	ens_finalize();
	return 0;
}
