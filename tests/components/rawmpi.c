/* rawmpi.c -- a component for tests/trace.test that talks through its port
 * once and then in raw MPI outside the port interface, for the PMPI
 * wrappers to record (VIA raw).  Two processes, a[1] and a[2], with one
 * port P[1] each, connected.  Each makes, in order:
 *	ens_send/ens_recv over P[1] (a[1] sends first): 1 send, 1 recv;
 *	MPI_Send/MPI_Recv of 3 ints to/from the other's world rank, tag 77;
 *	MPI_Isend + MPI_Irecv of 2 doubles, MPI_Waitall;
 *	MPI_Bcast of 5 ints from world rank 0; MPI_Barrier;
 *	MPI_Allreduce of 1 long on a communicator split off the world.
 * So per process: send 2, recv 2, isend 1, irecv 1, wait 2, bcast 1,
 * barrier 1, allreduce 1. */
#include <stdio.h>
#include <string.h>

#include <ensemble.h>

int
main(int argc, char **argv)
{
	const ens_self_t	*self;
	MPI_Request		 req[2];
	MPI_Status		 sts[2];	/* not MPI_STATUSES_IGNORE: MPICH's
					 * (MPI_Status *)1 is a region of size 0
					 * to gcc 12's -Wstringop-overflow */
	MPI_Comm		 split;
	double			 d[2] = { 1, 2 }, e[2];
	long			 l = 1, lsum;
	int			 v = 0, three[3] = { 1, 2, 3 }, got[3], five[5];
	int			 other;

	ens_init(&argc, &argv);
	self = ens_self();
	other = 1 - self->rank;
	if (self->index == 1) {
		ens_send("P", 1, &v, 1, MPI_INT);
		ens_recv("P", 1, &v, 1, MPI_INT);
		MPI_Send(three, 3, MPI_INT, other, 77, MPI_COMM_WORLD);
		MPI_Recv(got, 3, MPI_INT, other, 77, MPI_COMM_WORLD,
		    MPI_STATUS_IGNORE);
	} else {
		ens_recv("P", 1, &v, 1, MPI_INT);
		ens_send("P", 1, &v, 1, MPI_INT);
		MPI_Recv(got, 3, MPI_INT, other, 77, MPI_COMM_WORLD,
		    MPI_STATUS_IGNORE);
		MPI_Send(three, 3, MPI_INT, other, 77, MPI_COMM_WORLD);
	}
	MPI_Isend(d, 2, MPI_DOUBLE, other, 78, MPI_COMM_WORLD, &req[0]);
	MPI_Irecv(e, 2, MPI_DOUBLE, MPI_ANY_SOURCE, 78, MPI_COMM_WORLD, &req[1]);
	MPI_Waitall(2, req, sts);
	memset(five, 0, sizeof(five));
	MPI_Bcast(five, 5, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Comm_split(MPI_COMM_WORLD, 0, self->rank, &split);
	MPI_Allreduce(&l, &lsum, 1, MPI_LONG, MPI_SUM, split);
	MPI_Comm_free(&split);
	printf("%s: %d %ld\n", self->name, got[2], lsum);
	ens_finalize();
	return 0;
}
