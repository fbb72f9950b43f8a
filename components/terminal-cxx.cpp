// terminal-cxx.cpp -- the terminal of components/terminal.pcg in C++
// (Distribution of Maximum, Cotronis): holds a value, its first argument,
// sends it to its relay on Server[1] and prints the global maximum the
// relay sends back, as terminal.c does.
#include <cstdio>
#include <cstdlib>

#include <ensemble.hpp>

// Send our value, receive and print the global maximum.
int
main(int argc, char **argv)
{
	ens::session	s(argc, argv);
	int		v, gm;

	if (argc != 2) {
		std::fprintf(stderr, "usage: terminal value\n");
		std::exit(2);
	}
	v = std::atoi(argv[1]);

	ens::send("Server", 1, v);
	ens::recv("Server", 1, gm);
	std::printf("%s: received %d\n", ens::self().name, gm);
	std::fflush(stdout);
	return 0;
}
