/* stage.c -- a pipeline stage: receives each item on In[1], adds one and
 * passes it on Out[1]. */
#include <stdio.h>
#include <stdlib.h>

#include <ensemble.h>

/* Receive, add one, forward; 'items' times. */
int
main(int argc, char **argv)
{
	int	items, i, x;

	ens_init(&argc, &argv);
	if (argc != 2) {
		fprintf(stderr, "usage: stage items\n");
		exit(2);
	}
	items = atoi(argv[1]);

	for (i = 0; i < items; i++) {
		ens_recv("In", 1, &x, 1, MPI_INT);
		x++;
		ens_send("Out", 1, &x, 1, MPI_INT);
	}

	ens_finalize();
	return 0;
}
