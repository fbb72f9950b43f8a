/* switch.c -- a switch on the index: each case an 'if'; cases written one
 * after the other share a block, a case without break runs into the next. */
#include <ensemble.h>

int
main(int argc, char **argv)
{
	int	x = 0;

	ens_init(&argc, &argv);
	switch (ens_self()->index) {
	case 1:
		ens_send("P", 1, &x, 1, MPI_INT);
		break;
	case 2:
	case 3:
		ens_recv("P", 1, &x, 1, MPI_INT);
		/* FALLTHROUGH */
	case 4:
		ens_barrier();
		break;
	default:
		break;
	}
	ens_finalize();
	return 0;
}
