// native-cxx.cpp -- bench/native.c in C++: the same MPI program under a
// plain mpirun and under 'ensemble run' (bench/native.sh), built twice
// from this source, as bench/native-cxx (MPI_Init and MPI_Finalize, plain
// MPI) and, with -DENSEMBLE, as bench/native-cxx-ens (ens::session of
// bindings/cxx/ensemble.hpp; bench/native.pcg with -D prog=native-cxx-ens).
// The MPI calls are MPI's C API, as C++ codes call it.  As native.c: on
// MPI_COMM_WORLD, pingpong8 and pingpong1M (ranks 0 and 1, half a round
// trip) and allreduce8 (every rank, one double), each the median of BLOCKS
// blocks of SMALL or LARGE operations after one to warm up, a barrier
// before each; rank 0 prints one line per figure.
//
//	native-cxx [SMALL [LARGE [SECONDS]]]	(default 20000 200 0)
//
// With SECONDS above 0 it only bounces 8 bytes between ranks 0 and 1 for
// that long, and rank 0 prints the round trips.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <vector>

// MPI's C API only, in both builds, as ensemble.hpp has it: without
// these, Open MPI's mpi.h brings in the old C++ bindings and libmpi_cxx.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#ifdef ENSEMBLE
#include <ensemble.hpp>
#else
#include <mpi.h>
#endif

namespace {

const int BLOCKS = 7;
const int LARGE_BYTES = 1 << 20;
const long CHUNK = 1000;	// round trips between looks at the clock

enum class op { pingpong, allreduce };

int rank;

// Stop on an MPI error (ens_init makes MPI_COMM_WORLD return them).
void
check(int rc, const char *call)
{
	if (rc != MPI_SUCCESS) {
		std::fprintf(stderr, "native-cxx: %s failed\n", call);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
}

// One round trip of 'bytes' bytes between ranks 0 and 1, rank 0 first.
void
trip(std::vector<char> &buf, int bytes)
{
	int	peer = 1 - rank;

	if (rank == 0)
		check(MPI_Send(buf.data(), bytes, MPI_BYTE, peer, 0,
		    MPI_COMM_WORLD), "MPI_Send");
	check(MPI_Recv(buf.data(), bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD,
	    MPI_STATUS_IGNORE), "MPI_Recv");
	if (rank == 1)
		check(MPI_Send(buf.data(), bytes, MPI_BYTE, peer, 0,
		    MPI_COMM_WORLD), "MPI_Send");
}

// Do n operations; returns the seconds they took (ranks above 1 take no
// part in a ping-pong).
double
block(op o, std::vector<char> &buf, int bytes, int n)
{
	double	in = 1, out, t0 = MPI_Wtime();

	if (o == op::allreduce) {
		for (int i = 0; i < n; i++)
			check(MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM,
			    MPI_COMM_WORLD), "MPI_Allreduce");
	} else if (rank <= 1) {
		for (int i = 0; i < n; i++)
			trip(buf, bytes);
	}
	return MPI_Wtime() - t0;
}

// The median of BLOCKS timed blocks of n operations, after one to warm
// up, in microseconds per operation (per half round trip).
double
median(op o, std::vector<char> &buf, int bytes, int n)
{
	std::array<double, BLOCKS>	t;

	for (int b = -1; b < BLOCKS; b++) {
		check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
		double x = block(o, buf, bytes, n);
		if (b >= 0)
			t[b] = x;
	}
	std::sort(t.begin(), t.end());
	return t[BLOCKS / 2] / n / (o == op::pingpong ? 2 : 1) * 1e6;
}

// Bounce 8 bytes between ranks 0 and 1 for about 'seconds' seconds:
// rank 0 looks at the clock every CHUNK round trips and, once the time is
// up, marks its next message as the last.  Returns the round trips.
long
spin(std::vector<char> &buf, double seconds)
{
	double	end = MPI_Wtime() + seconds;
	long	n = 0;

	buf[0] = 0;
	if (rank > 1)
		return 0;
	do {
		if (rank == 0 && n % CHUNK == 0 && MPI_Wtime() >= end)
			buf[0] = 1;
		trip(buf, 8);
		n++;
	} while (buf[0] == 0);
	return n;
}

// The number in s, or -1 when s is not one.
double
number(const char *s)
{
	char	*end;
	double	 v = std::strtod(s, &end);

	return end == s || *end != '\0' ? -1 : v;
}

// Read the counts, time, and print the figures from rank 0.
int
run(int argc, char **argv)
{
	double	small = 20000, large = 200, seconds = 0;
	int	size;

	if (argc > 1)
		small = number(argv[1]);
	if (argc > 2)
		large = number(argv[2]);
	if (argc > 3)
		seconds = number(argv[3]);
	if (argc > 4 || small < 1 || small > 1e9 || large < 1 || large > 1e9 ||
	    seconds < 0) {
		std::fprintf(stderr,
		    "usage: native-cxx [SMALL [LARGE [SECONDS]]]\n");
		std::exit(2);
	}
	check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
	check(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
	if (size < 2) {
		std::fprintf(stderr, "native-cxx: needs at least 2 processes\n");
		std::exit(2);
	}
	std::vector<char> buf(LARGE_BYTES);

	if (seconds > 0) {
		long n = spin(buf, seconds);
		if (rank == 0)
			std::printf("pingpong8 round trips in %g s: %ld\n",
			    seconds, n);
	} else {
		double p8 = median(op::pingpong, buf, 8, (int)small);
		double a8 = median(op::allreduce, buf, 8, (int)small);
		double p1 = median(op::pingpong, buf, LARGE_BYTES, (int)large);
		if (rank == 0) {
			std::printf("pingpong8 %.3f us\n", p8);
			std::printf("allreduce8 %.3f us\n", a8);
			std::printf("pingpong1M %.3f us\n", p1);
		}
	}
	std::fflush(stdout);
	check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
	return 0;
}

}

// Start MPI one way or the other around run().
int
main(int argc, char **argv)
{
#ifdef ENSEMBLE
	ens::session	s(argc, argv);

	return run(argc, argv);
#else
	MPI_Init(&argc, &argv);
	int rc = run(argc, argv);
	MPI_Finalize();
	return rc;
#endif
}
