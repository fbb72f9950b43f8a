/* sink.c -- a pipeline's tail: receives 'items' items on In[1] and prints
 * how many came and their sum. */
#include <stdio.h>
#include <stdlib.h>

#include <ensemble.h>

/* Receive and add up 'items' items. */
int
main(int argc, char **argv)
{
	int	items, i, x;
	long	sum;

	ens_init(&argc, &argv);
	if (argc != 2) {
		fprintf(stderr, "usage: sink items\n");
		exit(2);
	}
	items = atoi(argv[1]);

	sum = 0;
	for (i = 0; i < items; i++) {
		ens_recv("In", 1, &x, 1, MPI_INT);
		sum += x;
	}
	printf("pipeline: sink received %d items, sum %ld\n", items, sum);
	fflush(stdout);

	ens_finalize();
	return 0;
}
