/* elsewhere.c -- a function of the program's own defined in another of
 * its files (more/exchange.c): not followed when that file is not given,
 * said; 'ensemble infer elsewhere.c more/exchange.c' follows it. */
#include <ensemble.h>

#include "more/exchange.h"

int
main(int argc, char **argv)
{
	ens_init(&argc, &argv);
	exchange(3);
	ens_finalize();
	return 0;
}
