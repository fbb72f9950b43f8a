/* source.c -- a pipeline's head: sends the items 1..items on Out[1]. */
#include <stdio.h>
#include <stdlib.h>

#include <ensemble.h>

/* Send 1, 2, ..., items. */
int
main(int argc, char **argv)
{
	int	items, i;

	ens_init(&argc, &argv);
	if (argc != 2) {
		fprintf(stderr, "usage: source items\n");
		exit(2);
	}
	items = atoi(argv[1]);

	for (i = 1; i <= items; i++)
		ens_send("Out", 1, &i, 1, MPI_INT);

	ens_finalize();
	return 0;
}
