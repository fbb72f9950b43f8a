// pingpong-cxx.cpp -- the cost of a port in C++: ping-pong latency between
// two processes through ens::send/ens::recv (bindings/cxx/ensemble.hpp)
// against raw MPI_Send/MPI_Recv of MPI's C API, called from C++, on the
// same port (ens::port), in the same run (bench/run.sh, bench/pingpong.pcg
// with exec "pingpong-cxx").  As bench/pingpong.c: after WARMUP round
// trips, the binding and raw MPI alternate in BLOCKS blocks of reps /
// BLOCKS round trips; process 1 prints the median block of each as half
// a round trip in microseconds.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <ensemble.hpp>

namespace {

const int WARMUP = 1000;
const int BLOCKS = 5;

// Stop on an MPI error from a raw call.
void
check(int rc, const char *call)
{
	if (rc != MPI_SUCCESS) {
		std::fprintf(stderr, "pingpong-cxx: %s failed\n", call);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
}

// Make n round trips on Peer[1], through the binding or raw MPI; the
// first process sends first.  Returns the time they took.
double
trips(bool raw, bool first, std::vector<char> &buf, int n)
{
	ens_port_t	p = ens::port("Peer", 1);
	int		bytes = (int)buf.size();
	double		t0 = MPI_Wtime();

	for (int i = 0; i < n; i++) {
		for (int k = 0; k < 2; k++) {
			if ((k == 0) == first) {
				if (raw)
					check(MPI_Send(buf.data(), bytes, MPI_CHAR,
					    p.rank, p.tag, p.comm), "MPI_Send");
				else
					ens::send("Peer", 1, buf);
			} else {
				if (raw)
					check(MPI_Recv(buf.data(), bytes, MPI_CHAR,
					    p.rank, p.recv_tag, p.comm,
					    MPI_STATUS_IGNORE), "MPI_Recv");
				else
					ens::recv("Peer", 1, buf);
			}
		}
	}
	return MPI_Wtime() - t0;
}

}

// Time both ways and print the medians from process 1.
int
main(int argc, char **argv)
{
	ens::session			s(argc, argv);
	std::array<double, BLOCKS>	ens, mpi;
	int				bytes, reps;

	if (argc != 3 || (bytes = std::atoi(argv[1])) < 0 ||
	    (reps = std::atoi(argv[2])) < BLOCKS) {
		std::fprintf(stderr, "usage: pingpong-cxx bytes reps (reps >= %d)\n",
		    BLOCKS);
		return 2;
	}
	std::vector<char> buf(bytes);
	bool first = ens::self().index == 1;
	int n = reps / BLOCKS;

	trips(false, first, buf, WARMUP);
	for (int b = 0; b < BLOCKS; b++) {
		ens[b] = trips(false, first, buf, n);
		mpi[b] = trips(true, first, buf, n);
	}

	if (first) {
		std::sort(ens.begin(), ens.end());
		std::sort(mpi.begin(), mpi.end());
		std::printf("pingpong ens %d bytes: %.3f us\n", bytes,
		    ens[BLOCKS / 2] / n / 2 * 1e6);
		std::printf("pingpong mpi %d bytes: %.3f us\n", bytes,
		    mpi[BLOCKS / 2] / n / 2 * 1e6);
		std::fflush(stdout);
	}
	return 0;
}
