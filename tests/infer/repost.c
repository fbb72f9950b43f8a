/* repost.c -- a request tested each round and posted again once it has
 * completed, the same name for the new one: 'irecv In[1] as r; loop
 * steps { test r { send Out[1]; irecv In[1] as r; } else { } } wait r;'. */
#include <stdlib.h>

#include <ensemble.h>

int
main(int argc, char **argv)
{
	MPI_Request	r;
	int		i, x = 0, steps;

	ens_init(&argc, &argv);
	steps = atoi(ens_param("steps"));
	ens_irecv("In", 1, &x, 1, MPI_INT, &r);
	for (i = 0; i < steps; i++) {
		if (ens_test(&r, MPI_STATUS_IGNORE)) {
			ens_send("Out", 1, &x, 1, MPI_INT);
			ens_irecv("In", 1, &x, 1, MPI_INT, &r);
		}
	}
	ens_wait(&r, MPI_STATUS_IGNORE);
	ens_finalize();
	return 0;
}
