/* choice.c -- what the data decide becomes 'choice', listed at the end as
 * an over-approximation; a way that fails (exit) is no way of the
 * protocol. */
#include <stdio.h>
#include <stdlib.h>

#include <ensemble.h>

int
main(int argc, char **argv)
{
	int	v;

	ens_init(&argc, &argv);
	if (argc != 2) {
		fprintf(stderr, "usage: choice value\n");
		exit(2);
	}
	ens_recv("In", 1, &v, 1, MPI_INT);
	if (v > 0)
		ens_send("Out", 1, &v, 1, MPI_INT);
	else
		ens_ssend("Out", 1, &v, 1, MPI_INT);
	ens_finalize();
	return 0;
}
