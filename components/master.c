/* master.c -- a task farm's master: in each of 'tasks' rounds it sends a
 * task on every Work port, then takes the results in whatever order the
 * workers finish, and at the end prints how many came and their sum. */
#include <stdio.h>
#include <stdlib.h>

#include <ensemble.h>

/* Hand out rounds of tasks and collect the results. */
int
main(int argc, char **argv)
{
	int	tasks, n, round, k;
	long	t, r, sum, count;

	ens_init(&argc, &argv);
	if (argc != 2) {
		fprintf(stderr, "usage: master tasks\n");
		exit(2);
	}
	tasks = atoi(argv[1]);
	n = ens_ports("Work");

	sum = count = 0;
	for (round = 1; round <= tasks; round++) {
		for (k = 1; k <= n; k++) {
			t = (long)(round - 1) * n + k;
			ens_send("Work", k, &t, 1, MPI_LONG);
		}
		for (k = 1; k <= n; k++) {
			ens_recv_any("Work", &r, 1, MPI_LONG);
			sum += r;
			count++;
		}
	}
	printf("farm: %ld results, sum %ld\n", count, sum);
	fflush(stdout);

	ens_finalize();
	return 0;
}
