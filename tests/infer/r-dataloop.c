/* r-dataloop.c -- a loop that communicates whose rounds the data decide
 * (a task farm's worker until a stop message): refused. */
#include <ensemble.h>

int
main(int argc, char **argv)
{
	int	t = 1;

	ens_init(&argc, &argv);
	while (t > 0) {
		ens_recv("Task", 1, &t, 1, MPI_INT);
		ens_send("Task", 1, &t, 1, MPI_INT);
	}
	ens_finalize();
	return 0;
}
