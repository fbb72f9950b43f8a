/* misbehave.c -- a component for tests/run-fail.test that goes wrong in
 * the way its first argument says: crashes, exits early or late, hangs,
 * never calls ens_init (calling MPI_Init itself or not), misuses a port
 * or a group ('over GROUP INDEX [ROOT]'), leaves its behaviour or leaves a
 * process behind.  Its ports are of type
 * Peer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <ensemble.h>

/* Misbehave as told by argv[1] (and the status in argv[2]). */
int
main(int argc, char **argv)
{
	const char	*mode;
	int		 status, v = 1;

	if (argc < 2) {
		fprintf(stderr, "usage: misbehave mode [status]\n");
		exit(2);
	}
	mode = argv[1];
	status = argc > 2 ? atoi(argv[2]) : 1;
	if (strcmp(mode, "no-init") == 0) {
		sleep(3600);
		return 0;
	}
	if (strcmp(mode, "mpi-init") == 0 || strcmp(mode, "mpi-init-hang") == 0) {
		/* MPI_Init of its own, never ens_init, and leave or hang. */
		MPI_Init(&argc, &argv);
		fprintf(stderr, "misbehave: MPI_Init, but not ens_init\n");
		if (strcmp(mode, "mpi-init-hang") == 0)
			sleep(3600);
		return 0;
	}

	ens_init(&argc, &argv);
	if (strcmp(mode, "ok") == 0)
		;
	else if (strcmp(mode, "crash") == 0) {
		/* A write to a read-only page: a real SIGSEGV, which no
		 * sanitizer reports first (a NULL store would be UBSan's). */
		volatile int	*p = mmap(NULL, 4096, PROT_READ,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		fprintf(stderr, "misbehave: about to crash\n");
		*p = 1;
	} else if (strcmp(mode, "exit") == 0) {
		fprintf(stderr, "misbehave: giving up with status %d\n", status);
		exit(status);
	} else if (strcmp(mode, "exit-late") == 0) {
		ens_finalize();
		return status;
	} else if (strcmp(mode, "hang") == 0 || strcmp(mode, "recv") == 0)
		ens_recv("Peer", 1, &v, 1, MPI_INT);
	else if (strcmp(mode, "irecv") == 0) {
		MPI_Request	r;

		ens_irecv("Peer", 1, &v, 1, MPI_INT, &r);
		ens_waitall(1, &r);
	}
	else if (strcmp(mode, "over") == 0 && argc > 3) {
		/* A collective over group argv[2] index argv[3]: a bcast
		 * from argv[4] when given, else an allreduce. */
		int	w = 0;

		if (argc > 4)
			ens_bcast_over(&v, 1, MPI_INT, argv[4], argv[2],
			    atoi(argv[3]));
		else
			ens_allreduce_over(&v, &w, 1, MPI_INT, MPI_SUM, argv[2],
			    atoi(argv[3]));
	} else if (strcmp(mode, "wrong-type") == 0)
		ens_send("Nope", 1, &v, 1, MPI_INT);
	else if (strcmp(mode, "wrong-type-reused") == 0) {
		/* The type named by one buffer, right, then wrong: the
		 * second call is known by its characters, not the buffer's
		 * address. */
		char	name[8];

		strcpy(name, "Peer");
		ens_send(name, 1, &v, 1, MPI_INT);
		strcpy(name, "Nope");
		ens_send(name, 1, &v, 1, MPI_INT);
	}
	else if (strcmp(mode, "bad-index") == 0)
		ens_send("Peer", 5, &v, 1, MPI_INT);
	else if (strcmp(mode, "protocol") == 0 || strcmp(mode, "send") == 0)
		ens_send("Peer", 1, &v, 1, MPI_INT);
	else if (strcmp(mode, "send-big") == 0) {
		/* More than a receive of one int holds: argv[2] ints (3). */
		int	 n = argc > 2 ? status : 3;
		int	*big = calloc((size_t)n, sizeof(int));

		ens_send("Peer", 1, big, n, MPI_INT);
		free(big);
	}
	else if (strcmp(mode, "orphan") == 0) {
		/* Leave a process behind that holds stdout and stderr open. */
		if (fork() == 0) {
			execl("/bin/sleep", "sleep", "3600", (char *)NULL);
			_exit(127);
		}
	} else {
		fprintf(stderr, "misbehave: unknown mode '%s'\n", mode);
		exit(2);
	}
	ens_finalize();
	return 0;
}
