/* worker.c -- a task farm's worker: 'tasks' times, receives a task t on
 * Task[1] and sends back its result, t squared. */
#include <stdio.h>
#include <stdlib.h>

#include <ensemble.h>

/* Square each task it is given. */
int
main(int argc, char **argv)
{
	int	tasks, i;
	long	t;

	ens_init(&argc, &argv);
	if (argc != 2) {
		fprintf(stderr, "usage: worker tasks\n");
		exit(2);
	}
	tasks = atoi(argv[1]);

	for (i = 0; i < tasks; i++) {
		ens_recv("Task", 1, &t, 1, MPI_LONG);
		t *= t;
		ens_send("Task", 1, &t, 1, MPI_LONG);
	}

	ens_finalize();
	return 0;
}
