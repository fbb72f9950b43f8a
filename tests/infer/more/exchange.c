/* exchange.c -- the other file of elsewhere.c's program. */
#include <ensemble.h>

#include "exchange.h"

void
exchange(int n)
{
	int	i, x = 0;

	for (i = 0; i < n; i++) {
		ens_send("Out", 1, &x, 1, MPI_INT);
		ens_recv("In", 1, &x, 1, MPI_INT);
	}
}
