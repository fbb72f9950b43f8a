/* asan.h -- included once by each MPI program of the project (through
 * libensemble, every component; ensemble-spawn): in a build with
 * AddressSanitizer, no leak report at exit, because Open MPI does not free
 * what its plugins allocate and would fail every run.  The project's other
 * programs keep leak checking. */
#ifndef ENS_ASAN_H
#define ENS_ASAN_H

#ifdef ENS_ASAN
const char *__asan_default_options(void);

const char *
__asan_default_options(void)
{
	return "detect_leaks=0";
}
#endif

#endif
